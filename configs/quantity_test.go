package configs

import (
	"strings"
	"testing"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in   string
		want Duration
	}{
		{"5ms", 5 * Millisecond},
		{"0.5ns", 500},                 // the copy engine's per-core term
		{"7200µs", 7200 * Microsecond}, // SFM's time slice in the model
		{"1000 µs", Millisecond},       // Amalthea writes a space
		{"50000us", 50 * Millisecond},
		{"1.5s", 1500 * Millisecond},
		{"12ps", 12},
		{"2.5E1ms", 25 * Millisecond},
	}
	for _, tt := range tests {
		got, err := ParseDuration(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
		if back, err := ParseDuration(got.String()); err != nil || back != got {
			t.Errorf("%q: String %q does not parse back (%v)", tt.in, got.String(), err)
		}
	}
	for _, bad := range []struct{ in, msg string }{
		{"5", "write a number and a unit"},
		{"ms", "write a number and a unit"},
		{"5 min", "unknown unit"},
		{"0.1ps", "not a whole number"},
		{"1e30s", "too large"},
		{"1e999999ms", "too large"}, // refused at once, not expanded by big.Rat
		{"1e-999999ms", "not a whole number"},
		{"12345678901234567890123456789012345678901ps", "too many digits"},
	} {
		_, err := ParseDuration(bad.in)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("ParseDuration(%q) error = %v, want it to contain %q", bad.in, err, bad.msg)
		}
	}
}

func TestDurationNanosecondsRoundsUp(t *testing.T) {
	// 1 tick at 1.5 GHz is 666.67 ps, kept as 667 ps; printed in ns it must
	// stay an upper bound: 1 ns, not 0.
	if got := Duration(667).Nanoseconds(); got != 1 {
		t.Errorf("667 ps = %d ns, want 1", got)
	}
	if got := Duration(2000).Nanoseconds(); got != 2 {
		t.Errorf("2000 ps = %d ns, want 2", got)
	}
}

func TestParseFrequencyAndSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Frequency
	}{{"2GHz", 2e9}, {"1.5 GHz", 1.5e9}, {"800MHz", 8e8}, {"100Hz", 100}} {
		if got, err := ParseFrequency(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseFrequency(%q) = %d, %v", tt.in, got, err)
		}
		if back, err := ParseFrequency(tt.want.String()); err != nil || back != tt.want {
			t.Errorf("%d: String %q does not parse back", tt.want, tt.want.String())
		}
	}
	for _, tt := range []struct {
		in   string
		want Size
	}{{"1500kB", 1500000}, {"2 MB", 2000000}, {"32KiB", 32768}, {"256B", 256}, {"64", 64}, {"142MB", 142000000}} {
		if got, err := ParseSize(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v", tt.in, got, err)
		}
	}
	if _, err := ParseSize("3 bananas"); err == nil {
		t.Error("ParseSize accepted an unknown unit")
	}
	if _, err := ParseFrequency("2"); err == nil {
		t.Error("ParseFrequency accepted a number without a unit")
	}
}

// FuzzParseDuration checks that no input panics and that every accepted
// value prints in a form that parses back to itself.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"5ms", "0.5ns", "1000 µs", "1e3us", "-3s", "9223372036854775807ps", "."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			return
		}
		back, err := ParseDuration(d.String())
		if err != nil || back != d {
			t.Fatalf("%q → %d → %q → %d, %v", s, d, d.String(), back, err)
		}
	})
}
