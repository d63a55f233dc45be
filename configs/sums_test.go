package configs

import (
	"errors"
	"strings"
	"testing"
)

// sumsYAML is a small inline system for the sum checks: an A57 and a
// Denver core at 100 MHz, a GPU, one task reading a label, one offloading
// a GPU task. The tests edit it.
const sumsYAML = `
units:
  - {name: A0, kind: A57, type: cpu, frequency: 100MHz}
  - {name: D0, kind: Denver, type: cpu, frequency: 100MHz}
  - name: G0
    kind: GPU_def
    type: gpu
    frequency: 1GHz
    gpu: {sms: 2, cores_per_sm: 128, threads_per_sm: 2048, shared_memory_per_sm: 65536, registers_per_sm: 65536, copy_engines: 1, max_threads_per_block: 1024, max_shared_memory_per_block: 49152}
memory:
  line_size: 64
  cores:
    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}
    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
labels:
  - {name: L, size_bytes: 64}
  - {name: img, size_bytes: 64}
runnables:
  - {name: R, ticks: [{kind: A57, lower: 1000, upper: 1000}, {kind: Denver, lower: 1000, upper: 1000}], reads: [L]}
  - {name: pre, ticks: [{kind: A57, lower: 1000, upper: 1000}, {kind: Denver, lower: 1000, upper: 1000}]}
  - {name: copy, reads: [img], writes: [img]}
  - {name: kernel, ticks: [{kind: GPU_def, lower: 1000, upper: 1000}]}
tasks:
  - {name: T1, period: 10ms, runnables: [R, R, R, R]}
  - {name: P, period: 20ms, runnables: [pre], offload: {gpu_task: K, wait: active}}
  - {name: K, triggered_by: P, runnables: [copy, kernel]}
`

// TestSumOverflows: every sum of a task's demand is checked, from YAML and
// from Amalthea: an overflow is one line naming the file, the line (for a
// model), the element, the term that overflows (compute, memory,
// contention, kernel, copy) and the sum, never a negative time or the
// analyses' words.
func TestSumOverflows(t *testing.T) {
	yaml := func(pairs ...string) string {
		s := sumsYAML
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(s, pairs[i]) {
				t.Fatalf("the system has no %q", pairs[i])
			}
			s = strings.Replace(s, pairs[i], pairs[i+1], 1)
		}
		return s
	}
	for _, c := range []struct{ name, input, where, what string }{
		// 4 × 9·10^14 ticks at 100 MHz: 3.6·10^15 ticks, 3.6·10^7 s.
		{"compute", yaml("{name: R, ticks: [{kind: A57, lower: 1000, upper: 1000}", "{name: R, ticks: [{kind: A57, lower: 1000, upper: 900000000000000}"),
			"tasks[0]", "the compute term of T1 on A0 overflows: its worst-case ticks, 3600000000000000 (R 900000000000000 × 4), take 3.6e+07 s at 100MHz, more than 2^60 ps (about 13 days)"},
		// 4 × 2^62 ticks: more than an int64 counts.
		{"ticks", yaml("{name: R, ticks: [{kind: A57, lower: 1000, upper: 1000}", "{name: R, ticks: [{kind: A57, lower: 1000, upper: 4611686018427387904}"),
			"tasks[0]", "the compute term of T1 on A0 overflows: its worst-case ticks on A57 sum to 18446744073709551616 (R 4611686018427387904 × 4), more than hetmap counts (9223372036854775807)"},
		// 4 reads of 1.5625·10^16 lines (10^18 B) at 20 ns: 6.25·10^16
		// lines, 1.25·10^9 s.
		{"memory", yaml("{name: L, size_bytes: 64}", "{name: L, size_bytes: 1000000000000000000}"),
			"tasks[0]", "the memory term of T1 on A0 overflows: 62500000000000000 lines per job at 20ns each (the uncontended latency of A57) take 1.25e+09 s"},
		// 4 lines at up to 20 ns · 1 + 400 000 s of contention each.
		{"contention", yaml("{kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}", "{kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 400000s}"),
			"tasks[0]", "the contention term of T1 on A0 overflows: 4 lines per job at up to 400000000000020ns of contention each (20ns per other core × 1, and 400000s with the copy engine active) take 1.6e+06 s"},
		// Each term fits, their sum does not: 4 × 2.5·10^13 ticks at
		// 100 MHz (10^6 s) and 4 lines at 20 ns + 100 000 s of contention.
		{"sum", yaml("{name: R, ticks: [{kind: A57, lower: 1000, upper: 1000}", "{name: R, ticks: [{kind: A57, lower: 1000, upper: 25000000000000}",
			"{kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}", "{kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100000s}"),
			"tasks[0]", "the execution time of T1 on A0 overflows: compute 1e+06 s + memory 8e-08 s + contention 4e+05 s = 1.4e+06 s"},
		{"kernel", yaml("{name: kernel, ticks: [{kind: GPU_def, lower: 1000, upper: 1000}]}", "{name: kernel, ticks: [{kind: GPU_def, lower: 1000, upper: 2000000000000000000}]}"),
			"tasks[2]", "the kernel term of K on G0 overflows: its worst-case ticks, 2000000000000000000 (kernel 2000000000000000000), take 2e+09 s at 1GHz"},
		{"copy", yaml("{name: img, size_bytes: 64}", "{name: img, size_bytes: 1000000000000000000}"),
			"tasks[2]", "the copy term of K overflows: the copy engine moves 15625000000000000 lines per job at up to 4ns each (6.25e+07 s)"},
		{"period", yaml("{name: T1, period: 10ms,", "{name: T1, period: 2000000s,"),
			"tasks[0]", "the period of T1, 2000000s, is longer than 2^60 ps (about 13 days)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(c.input), "s.yaml", ".")
			var ie *InputError
			if !errors.As(err, &ie) || ie.File != "s.yaml" || ie.Where != c.where || !strings.Contains(ie.What, c.what) {
				t.Fatalf("error %v\nwant s.yaml: %s: %s …", err, c.where, c.what)
			}
			if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "rta:") || strings.Contains(err.Error(), "memory:") {
				t.Errorf("not one line in the user's words: %v", err)
			}
		})
	}
	if _, err := Load(strings.NewReader(sumsYAML), "s.yaml", "."); err != nil {
		t.Errorf("the base system: %v", err)
	}
}
