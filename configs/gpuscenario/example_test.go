package gpuscenario_test

import (
	"fmt"

	"github.com/hetmap/hetmap/configs/gpuscenario"
	"github.com/hetmap/hetmap/rta/gpu"
	"github.com/hetmap/hetmap/rta/gpusim"
)

// A kernel set gives both the simulator's input and the block analysis's.
func ExampleParseKernelSet() {
	ks, err := gpuscenario.ParseKernelSet([]byte(`
kernels:
  - {name: K1, period: 15s, block_time: 4s, blocks: 2, threads_per_block: 512}
  - {name: K2, period: 15s, block_time: 6s, blocks: 7, threads_per_block: 512}
  - {name: K3, period: 15s, block_time: 6s, blocks: 2, threads_per_block: 512}
  - {name: K4, period: 15s, block_time: 5s, blocks: 5, threads_per_block: 512}
`), "example.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := gpusim.Simulate(ks.Scenario())
	in := ks.BlockAnalysisInput()
	f, _ := gpu.BlockRTA(in.Device, in.Kernels)
	for i, k := range in.Kernels {
		sim, _ := r.Kernel(k.Name)
		fmt.Printf("%s: analysis %s, simulator %s\n", k.Name, gpusim.FormatDuration(f[i]), gpusim.FormatDuration(sim.Completion))
	}
	// Output:
	// K1: analysis 4 s, simulator 4 s
	// K2: analysis 10 s, simulator 10 s
	// K3: analysis 12 s, simulator 12 s
	// K4: analysis 11 s, simulator 11 s
}

func ExampleParseKernelSet_error() {
	_, err := gpuscenario.ParseKernelSet([]byte(`
kernels:
  - {name: K1, block_time: 0s, blocks: 2, threads_per_block: 512, colour: red}
`), "broken.yaml")
	fmt.Println(err)
	// Output:
	// broken.yaml: kernels[0].colour: unknown key (known keys: name, period, block_time, blocks, threads_per_block, launch, stream, priority, shared_memory_per_block, registers_per_thread, copy_in, copy_out)
}

func ExampleParseExaminer() {
	s, warnings, err := gpuscenario.ParseExaminer([]byte(`{
  "name": "NULL stream", "max_iterations": 1, "max_time": 0,
  "benchmarks": [
    {"filename": "./bin/timer_spin.so", "label": "K1", "thread_count": 1024, "block_count": 4, "data_size": 0, "additional_info": 1000000},
    {"filename": "./bin/timer_spin_default_stream.so", "label": "K2", "thread_count": 256, "block_count": 1, "data_size": 0, "additional_info": 1000000, "release_time": 0.0001},
    {"filename": "./bin/mandelbrot.so", "label": "M", "thread_count": 256, "block_count": 16, "data_size": 4096}
  ]}`), "example.json", gpuscenario.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	r, _ := gpusim.Simulate(s)
	for _, k := range r.Kernels {
		fmt.Printf("%s: launch %s, start %s, completion %s\n", k.Name, gpusim.FormatDuration(k.Launch), gpusim.FormatDuration(k.Start), gpusim.FormatDuration(k.Completion))
	}
	// Output:
	// warning: benchmarks[2] ("M") mandelbrot.so: skipped: not a kernel plugin the simulator models (timer_spin, timer_spin_default_stream, sharedmem_timer_spin, multikernel, task_host)
	// K1: launch 0 s, start 0 s, completion 1 ms
	// K2: launch 100 µs, start 1 ms, completion 2 ms
}
