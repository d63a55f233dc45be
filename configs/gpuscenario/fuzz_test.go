package gpuscenario

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/hetmap/hetmap/rta/gpusim"

	"github.com/hetmap/hetmap/internal/sharedtest"
)

// simulateBounded runs a loaded scenario with a small event bound and writes
// its table and report: none of it may panic.
func simulateBounded(s gpusim.Scenario) {
	s.MaxEvents = 20000
	r, err := gpusim.Simulate(s)
	if err != nil {
		return
	}
	_ = gpusim.WriteTable(io.Discard, r)
	_ = r.Report()
}

func FuzzParseKernelSet(f *testing.F) {
	f.Add([]byte(thesisYAML))
	f.Add([]byte("kernels:\n  - {name: A, block_time: 1ms, blocks: 2, threads_per_block: 256, stream: null, copy_in: 1us}\n  - {name: B, block_time: 2ms, blocks: 3, threads_per_block: 1024, priority: high, shared_memory_per_block: 32KiB, registers_per_thread: 16}\n"))
	f.Add([]byte("gpu: {sms: 1, threads_per_sm: 1024, shared_memory_per_sm: 16KiB}\nkernels:\n  - {name: A, block_time: 1ns, blocks: 9, threads_per_block: 33, stream: s, launch: 5ns}\n  - {name: B, block_time: 1h, blocks: 1, threads_per_block: 1, stream: s}\n"))
	f.Add([]byte("kernels: [{name: &a x, block_time: 1ms, blocks: *a}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ks, err := ParseKernelSet(data, "fuzz.yaml")
		if err != nil {
			return
		}
		_ = ks.BlockAnalysisInput()
		simulateBounded(ks.Scenario())
	})
}

func FuzzParseExaminer(f *testing.F) {
	// Seeds when ../shared is there; the fuzz test runs without them.
	files, _ := filepath.Glob(filepath.Join(sharedtest.Root(), "cuda_scheduling_examiner/configs", "*.json"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"max_iterations": 2, "max_time": 0.001, "sync_every_iteration": true, "benchmarks": [{"filename": "timer_spin_default_stream.so", "thread_count": 1, "block_count": 3, "additional_info": 7, "release_time": -1},
		{"filename": "multikernel.so", "additional_info": [{"kernel_label": "a", "duration": 5, "block_count": 1, "thread_count": 32, "copy_in_count": 1, "delay": 1e-9}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _, err := ParseExaminer(data, "fuzz.json", Options{MaxIterations: 20})
		if err != nil {
			return
		}
		simulateBounded(s)
	})
}
