package configs

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestSearchLimitsAndZeros: every search size is bounded with a message
// that says the limit; numbers that do not fit a whole number are refused
// instead of wrapping around or being truncated; and a 0 or an empty list
// given where it is not a documented default is an error that says what
// to write, while workers: 0 and max_evaluations: 0 (documented) pass.
func TestSearchLimitsAndZeros(t *testing.T) {
	for _, tt := range []struct{ search, want string }{
		{"population: 1000000000000", "search.population: must be between 2 and 100000, got 1000000000000"},
		{"population: 100001", "search.population: must be between 2 and 100000, got 100001"},
		{"generations: 10000001", "search.generations: must be between 1 and 10000000, got 10000001"},
		{"generations: 99999999999999999999", "search.generations: 100000000000000000000 is too large: hetmap takes whole numbers up to 9223372036854775807 here"},
		{"max_evaluations: 1000000001", "search.max_evaluations: must be 0 (no limit) or up to 1000000000, got 1000000001"},
		{"max_evaluations: 1e30", "search.max_evaluations: 1000000000000000000000000000000 is too large"},
		{"population: 2.5", "search.population: 2.5 is not a whole number"},
		{"population: 0", "search.population: 0: give at least 2, or leave the key out for the default, 100"},
		{"generations: 0", "search.generations: 0: give at least 1, or leave the key out for the default, 1000"},
		{"seed: 0", "search.seed: 0: give a seed other than 0, or leave the key out for the default, 1"},
		{"free: []", "search.free: empty: list the genes the search may change (units, offloading, gpu_priorities, time_slices), or leave the key out for all of them"},
		{"objectives: []", "search.objectives: empty: list what to minimise"},
		{"workers: -1", "search.workers: must not be negative (0: the number of CPUs), got -1"},
		{"workers: 0", ""},
		{"max_evaluations: 0", ""},
		{"workers: 100000", ""}, // capped when the search runs, with a note
	} {
		_, err := Load(strings.NewReader("model: builtin\nsearch: {"+tt.search+"}\n"), "c.yaml", ".")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.search, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), "c.yaml: "+tt.want)):
			t.Errorf("%s: %v\nwant %q", tt.search, err, tt.want)
		}
	}
	if _, err := Load(strings.NewReader("model: builtin\nanalysis: {time_slice_step: 0}\n"), "c.yaml", "."); err == nil || !strings.Contains(err.Error(), "analysis.time_slice_step: 0: give a positive duration") {
		t.Errorf("time_slice_step: 0: %v", err)
	}
	// The same rule in a sweep file's search section.
	_, err := LoadSweep([]byte("base: builtin\nseeds: [1]\nsearch: {population: 0}\n"), "s.yaml", ".", nil)
	if err == nil || !strings.Contains(err.Error(), "s.yaml: search.population: 0: give at least 2") {
		t.Errorf("sweep search population 0: %v", err)
	}
}

// TestInputSizeLimit: a file beyond MaxInputSize is refused from its size,
// before it is read (the refusal allocates a small fraction of the file),
// with a message naming the limit; a reader that goes on past the limit (a
// file growing while it is read) is refused after MaxInputSize+1 bytes;
// /dev/zero, which never ends, is refused before it is read: it is not a
// regular file.
func TestInputSizeLimit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	// A sparse file one byte over the limit.
	huge := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(huge, []byte("model: builtin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, MaxInputSize+1); err != nil {
		t.Fatal(err)
	}
	for _, load := range []func(string) error{
		func(p string) error { _, err := LoadFile(p); return err },
		func(p string) error { _, err := LoadMappingFile(p); return err },
		func(p string) error { _, err := LoadSweepFile(p, nil); return err },
	} {
		err := load("/dev/zero")
		if err == nil || !strings.Contains(err.Error(), "/dev/zero: ") || !strings.Contains(err.Error(), "is a device, not a regular file") {
			t.Errorf("/dev/zero: %v", err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err = load(huge)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), huge+": ") || !strings.Contains(err.Error(), "is larger than 64 MiB, the limit for an input file") {
			t.Errorf("%s: %v", huge, err)
		}
		if used := after.TotalAlloc - before.TotalAlloc; used > 1<<20 {
			t.Errorf("%s: the refusal allocated %d bytes: the file was read", huge, used)
		}
	}
	// A file that grows past the limit after its size was taken.
	_, err := readSized(io.LimitReader(zeros{}, MaxInputSize+2), "growing.yaml", "the configuration", MaxInputSize)
	if err == nil || !strings.Contains(err.Error(), "growing.yaml: the configuration is larger than 64 MiB") {
		t.Errorf("a reader past the limit: %v", err)
	}
	// A file of the limit's size is read (and then judged on its content).
	if err := os.Truncate(huge, MaxInputSize); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadInput(huge, "the configuration"); err != nil || len(data) != MaxInputSize {
		t.Errorf("a file of %d bytes: %d bytes read, %v", MaxInputSize, len(data), err)
	}
}

// zeros reads as zero bytes without end.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
