package gpu_test

import (
	"fmt"

	"github.com/hetmap/hetmap/rta/gpu"
)

// The worked example of the thesis: gmax = 8 blocks of 512 threads on the
// TX2, four kernels released together in queue order τ1..τ4.
func ExampleBlockRTA() {
	kernels := []gpu.Kernel{
		{Name: "tau1", Period: 15, BlockTime: 4, Blocks: 2, ThreadsPerBlock: 512},
		{Name: "tau2", Period: 15, BlockTime: 6, Blocks: 7, ThreadsPerBlock: 512},
		{Name: "tau3", Period: 15, BlockTime: 6, Blocks: 2, ThreadsPerBlock: 512},
		{Name: "tau4", Period: 15, BlockTime: 5, Blocks: 5, ThreadsPerBlock: 512},
	}
	f, err := gpu.BlockRTA(gpu.TX2(), kernels)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("f =", f)
	fmt.Println("deadlines:", gpu.CheckDeadlines(kernels, f))
	// Output:
	// f = [4 10 12 11]
	// deadlines: <nil>
}

// The allocation-free form for hot loops: one Scratch, one result slice.
func ExampleScratch_BlockRTA() {
	var s gpu.Scratch
	f := make([]int64, 2)
	for _, r := range []int64{0, 3} {
		kernels := []gpu.Kernel{
			{Name: "a", BlockTime: 4, Blocks: 16, ThreadsPerBlock: 256},
			{Name: "b", BlockTime: 2, Blocks: 8, ThreadsPerBlock: 256, Release: r},
		}
		if err := s.BlockRTA(gpu.TX2(), kernels, f); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(f)
	}
	// Output:
	// [4 6]
	// [4 6]
}

func ExampleEqualBlockTimeRTA() {
	kernels := []gpu.Kernel{
		{Name: "a", BlockTime: 5, Blocks: 2, ThreadsPerBlock: 512},
		{Name: "b", BlockTime: 5, Blocks: 14, ThreadsPerBlock: 512},
	}
	f, err := gpu.EqualBlockTimeRTA(gpu.TX2(), kernels)
	fmt.Println(f, err)
	// Output: [5 10] <nil>
}

func ExampleFIFOAnalyzer() {
	tasks := []gpu.Task{
		{Name: "A", Period: 100, CopyIn: 2, CopyOut: 1, BlockTime: 4, Blocks: 8, ThreadsPerBlock: 512},
		{Name: "B", Period: 100, CopyIn: 3, CopyOut: 2, BlockTime: 6, Blocks: 4, ThreadsPerBlock: 512},
		{Name: "D", Period: 100, CopyIn: 1, BlockTime: 2, Blocks: 12, ThreadsPerBlock: 512, Priority: gpu.High},
	}
	// On the TX2 (8 blocks of 512 threads at once). D is high priority: it
	// waits only for low blocks already running (at most the longest low
	// block time, 6) and then runs alone (2 waves of 2). A and B are low
	// priority and can be overtaken by D's jobs, so they get the workload
	// bound. D's kernel completes within 5+1+6+4 = 16 of its launch, so only
	// the jobs of D launched in (t1 − 16, t1 + x) can have blocks in A's
	// window of length x: ceil((x + 16)/100) = 1 for x <= 84. For A,
	// W = 4·6 + 1·(12·2) + 7·4 = 76 block-time units on 8 slots, 10, plus A's
	// last wave of 4: 14 = 10 + 4.
	var a gpu.FIFOAnalyzer
	out := make([]gpu.Response, len(tasks))
	if err := a.Analyze(tasks, out); err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range out {
		fmt.Printf("%s: total %d = copy in %d+%d, kernel %d+%d (%v, blocking %d), copy out %d+%d\n",
			tasks[i].Name, r.Total, r.CopyInWait, r.CopyIn, r.KernelQueue, r.KernelIsolated,
			r.Bound, r.Blocking, r.CopyOutWait, r.CopyOut)
	}
	// Output:
	// A: total 25 = copy in 4+2, kernel 10+4 (workload, blocking 0), copy out 4+1
	// B: total 27 = copy in 3+3, kernel 10+6 (workload, blocking 0), copy out 3+2
	// D: total 16 = copy in 5+1, kernel 6+4 (orders, blocking 6), copy out 0+0
}

func ExampleTimeSliceAnalyzer() {
	tasks := []gpu.Task{
		{Name: "A", Period: 100, CopyIn: 2, CopyOut: 1, BlockTime: 4, Blocks: 8, ThreadsPerBlock: 512, Slice: 3},
		{Name: "B", Period: 100, CopyIn: 3, CopyOut: 2, BlockTime: 6, Blocks: 4, ThreadsPerBlock: 512, Slice: 50},
	}
	// A needs ceil(4/3) = 2 turns; before each, B runs at most one turn,
	// and only while it has work. B's kernel completes within 2+3+11 = 16 of
	// its launch, so one job of B at most has work in A's window of 13:
	// min(2, 1) = 1 turn, min(50, 6) = 6; 3 turns, 1 each to switch:
	// 4 + 6 + 3 = 13 = 9 + 4.
	a := gpu.TimeSliceAnalyzer{SwitchOverhead: 1}
	out := make([]gpu.Response, len(tasks))
	if err := a.Analyze(tasks, out); err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range out {
		fmt.Printf("%s: total %d, kernel %d+%d in %d turns (switching %d)\n",
			tasks[i].Name, r.Total, r.KernelQueue, r.KernelIsolated, r.Turns, r.SwitchOverhead)
	}
	// Output:
	// A: total 22, kernel 9+4 in 2 turns (switching 3)
	// B: total 20, kernel 5+6 in 1 turns (switching 2)
}
