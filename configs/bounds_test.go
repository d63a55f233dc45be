package configs

import (
	"strings"
	"testing"
)

// TestBoundedWork: a configuration whose sizes would multiply past what
// hetmap can enumerate is refused, naming the key and the least value that
// passes: the time-slice grid (at most MaxSliceValues per GPU task) and a
// kernel's blocks; the zero and negative values the README refuses are
// refused, with the value as written.
func TestBoundedWork(t *testing.T) {
	for _, tt := range []struct{ yaml, want string }{
		{"analysis: {gpu_model: timeslice, time_slice_step: 1ps}", "analysis.time_slice_step: 1ps gives 49000000001 time-slice values per GPU task between 1ms and 50ms (time_slice); hetmap takes at most 10000: give a step of at least 4900001ps"},
		{"analysis: {time_slice_step: 1ps}", "analysis.time_slice_step: 1ps gives 49000000001 time-slice values"},
		{"analysis: {gpu_model: timeslice, time_slice_step: 4900001ps}", ""},
		{"analysis: {gpu_model: timeslice, time_slice_step: 4900000ps}", "analysis.time_slice_step: 4900ns gives 10001 time-slice values"},
		{"analysis: {time_slice_step: 0ms}", "analysis.time_slice_step: 0ms: give a positive duration"},
		{"analysis: {time_slice_step: 0 ns}", "analysis.time_slice_step: 0 ns: give a positive duration"},
		{"search: {seed: -5}", "search.seed: must be positive, got -5"},
		{"analysis: {kernels: [{task: Detection, blocks: 2000000, threads_per_block: 256}]}", "analysis.kernels[0].blocks: must be between 1 and 1048576, got 2000000"},
	} {
		_, err := Load(strings.NewReader("model: builtin\n"+tt.yaml+"\n"), "c.yaml", ".")
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.yaml, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), "c.yaml: "+tt.want)):
			t.Errorf("%s: %v\nwant %q", tt.yaml, err, tt.want)
		}
	}
	if n := SliceValues(SliceBounds{Max: 5 * Millisecond}, Millisecond); n != 5 {
		t.Errorf("slice values of (0, 5ms] by 1ms: %d, want 5", n)
	}
}
