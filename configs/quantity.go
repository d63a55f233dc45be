package configs

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// Duration is a time span in integer picoseconds. Picoseconds keep the tick
// times of a 2 GHz or 1.5 GHz unit exact or nearly so (a conversion rounds
// up, never down; see the package documentation's conventions), and an
// int64 still holds 106 days.
type Duration int64

// Common durations.
const (
	Picosecond  Duration = 1
	Nanosecond           = 1000 * Picosecond
	Microsecond          = 1000 * Nanosecond
	Millisecond          = 1000 * Microsecond
	Second               = 1000 * Millisecond
)

var durationUnits = []struct {
	name  string
	value Duration
}{
	{"ps", Picosecond}, {"ns", Nanosecond}, {"us", Microsecond}, {"µs", Microsecond},
	{"μs", Microsecond}, {"ms", Millisecond}, {"s", Second},
}

// ParseDuration reads a duration such as "5ms", "0.5ns", "7200µs" or
// "1000 µs" (Amalthea writes a space). Units: ps, ns, us (µs), ms, s.
// A value that is not a whole number of picoseconds is an error, never
// silently rounded.
func ParseDuration(s string) (Duration, error) {
	num, unit := splitQuantity(s)
	if num == "" || unit == "" {
		return 0, fmt.Errorf("%q is not a duration: write a number and a unit (ps, ns, us, ms, s), e.g. \"5ms\"", s)
	}
	for _, u := range durationUnits {
		if u.name == unit {
			v, err := ScaleDecimal(num, int64(u.value))
			if err != nil {
				return 0, fmt.Errorf("duration %q: %v", s, err)
			}
			return Duration(v), nil
		}
	}
	return 0, fmt.Errorf("duration %q: unknown unit %q (use ps, ns, us, ms or s)", s, unit)
}

// String writes the duration in the largest unit that keeps it exact,
// so that parsing the result gives the same value.
func (d Duration) String() string {
	if d == 0 {
		return "0s"
	}
	for i := len(durationUnits) - 1; i >= 0; i-- {
		u := durationUnits[i]
		if u.name == "µs" || u.name == "μs" {
			continue
		}
		if d%u.value == 0 {
			return strconv.FormatInt(int64(d/u.value), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10) + "ps"
}

// Nanoseconds returns the duration in nanoseconds, rounded up: a bound stays
// a bound when it is printed in a coarser unit.
func (d Duration) Nanoseconds() int64 {
	ns := int64(d) / 1000
	if int64(d)%1000 > 0 {
		ns++
	}
	return ns
}

// Milliseconds returns the duration in milliseconds as a float, for display.
func (d Duration) Milliseconds() float64 { return float64(d) / float64(Millisecond) }

// MarshalText makes a Duration appear as "5ms" in YAML and JSON.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText parses the form written by MarshalText.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Frequency is a clock frequency in hertz.
type Frequency int64

// ParseFrequency reads "2GHz", "1.5 GHz", "800MHz", "32kHz" or "100Hz".
func ParseFrequency(s string) (Frequency, error) {
	num, unit := splitQuantity(s)
	scale := map[string]int64{"Hz": 1, "kHz": 1e3, "KHz": 1e3, "MHz": 1e6, "GHz": 1e9}[unit]
	if num == "" || scale == 0 {
		return 0, fmt.Errorf("%q is not a frequency: write a number and a unit (Hz, kHz, MHz, GHz), e.g. \"2GHz\"", s)
	}
	v, err := ScaleDecimal(num, scale)
	if err != nil {
		return 0, fmt.Errorf("frequency %q: %v", s, err)
	}
	return Frequency(v), nil
}

// String writes the frequency in the largest exact unit.
func (f Frequency) String() string {
	for _, u := range []struct {
		n string
		v int64
	}{{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}} {
		if f != 0 && int64(f)%u.v == 0 {
			return strconv.FormatInt(int64(f)/u.v, 10) + u.n
		}
	}
	if f%1e8 == 0 && f > 1e9 {
		return strconv.FormatFloat(float64(f)/1e9, 'f', -1, 64) + "GHz"
	}
	return strconv.FormatInt(int64(f), 10) + "Hz"
}

// MarshalText writes "2GHz".
func (f Frequency) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText parses what MarshalText writes.
func (f *Frequency) UnmarshalText(b []byte) error {
	v, err := ParseFrequency(string(b))
	if err != nil {
		return err
	}
	*f = v
	return nil
}

// Size is a data size in bytes.
type Size int64

// sizeUnits follow Amalthea's DataSizeUnit: decimal prefixes (kB = 1000 B)
// and binary ones (KiB = 1024 B).
var sizeUnits = map[string]int64{
	"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9,
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30,
}

// ParseSize reads "256B", "1500 kB", "2MB", "32KiB" or a bare byte count "64".
func ParseSize(s string) (Size, error) {
	num, unit := splitQuantity(s)
	if unit == "" {
		unit = "B"
	}
	scale, ok := sizeUnits[unit]
	if num == "" || !ok {
		return 0, fmt.Errorf("%q is not a size: write bytes or a number and a unit (B, kB, MB, GB, KiB, MiB, GiB)", s)
	}
	v, err := ScaleDecimal(num, scale)
	if err != nil {
		return 0, fmt.Errorf("size %q: %v", s, err)
	}
	return Size(v), nil
}

// splitQuantity splits "1.5 GHz" into "1.5" and "GHz", and "2.5E1ms" into
// "2.5E1" and "ms": an exponent letter counts as part of the number only when
// a digit or a sign follows it.
func splitQuantity(s string) (num, unit string) {
	s = strings.TrimSpace(s)
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isDigit(c) || c == '.' || c == '+' || c == '-':
			i++
			continue
		case (c == 'e' || c == 'E') && i > 0 && i+1 < len(s) && (isDigit(s[i+1]) || s[i+1] == '-' || s[i+1] == '+'):
			i++
			continue
		}
		break
	}
	return s[:i], strings.TrimFunc(s[i:], unicode.IsSpace)
}

// ScaleDecimal returns num·scale exactly, or an error when the result is not
// an integer or does not fit in an int64. It reads decimal and scientific
// notation ("2.034807E7") without going through binary floating point.
func ScaleDecimal(num string, scale int64) (int64, error) {
	// Bound the work before big.Rat sees the number: it expands an exponent
	// literally, so "1e9999999" would take seconds and megabytes. No int64
	// quantity needs more than 40 digits or an exponent beyond ±40.
	mant, exp, hasExp := strings.Cut(strings.ToLower(num), "e")
	if len(mant) > 40 {
		return 0, fmt.Errorf("%s has too many digits", num)
	}
	if hasExp {
		e, err := strconv.Atoi(exp)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", num)
		}
		if e > 40 {
			return 0, fmt.Errorf("%s is too large", num)
		}
		if e < -40 {
			return 0, fmt.Errorf("%s is not a whole number of the base unit", num)
		}
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, fmt.Errorf("%q is not a number", num)
	}
	r.Mul(r, new(big.Rat).SetInt64(scale))
	if !r.IsInt() {
		return 0, fmt.Errorf("%s is not a whole number of the base unit", num)
	}
	if !r.Num().IsInt64() {
		return 0, fmt.Errorf("%s is too large", num)
	}
	v := r.Num().Int64()
	if v == math.MinInt64 {
		return 0, fmt.Errorf("%s is too large", num)
	}
	return v, nil
}
