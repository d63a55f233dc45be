package gpusim_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/hetmap/hetmap/rta/gpusim"
)

// The worked example of the block-level analysis: four kernels of 512-thread
// blocks, each on a stream of its own, launched together.
func ExampleSimulate() {
	var s gpusim.Scenario // the TX2 by default
	ms := int64(1_000_000)
	for _, k := range []struct {
		name   string
		blocks int
		time   int64
	}{{"t1", 2, 4 * ms}, {"t2", 7, 6 * ms}, {"t3", 2, 6 * ms}, {"t4", 5, 5 * ms}} {
		st := s.AddStream(k.name, gpusim.PriorityLow, false)
		s.AddHost(k.name, gpusim.KernelCall(k.name, st, 0, gpusim.Kernel{Blocks: k.blocks, ThreadsPerBlock: 512, BlockTime: k.time}))
	}
	r, err := gpusim.Simulate(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range r.Kernels {
		fmt.Printf("%s: start %s, completion %s\n", k.Name, gpusim.FormatDuration(k.Start), gpusim.FormatDuration(k.Completion))
	}
	// Output:
	// t1: start 0 s, completion 4 ms
	// t2: start 0 s, completion 10 ms
	// t3: start 4 ms, completion 12 ms
	// t4: start 6 ms, completion 11 ms
}

// A high-priority kernel launched later takes the SMs as soon as blocks of a
// low-priority kernel finish (rule A2).
func ExampleWriteTable() {
	var s gpusim.Scenario
	ms := int64(1_000_000)
	low := s.AddStream("low", gpusim.PriorityLow, false)
	high := s.AddStream("high", gpusim.PriorityHigh, false)
	s.AddHost("A", gpusim.KernelCall("K1", low, 0, gpusim.Kernel{Blocks: 8, ThreadsPerBlock: 1024, BlockTime: ms}))
	s.AddHost("B", gpusim.KernelCall("K2", high, ms/2, gpusim.Kernel{Blocks: 4, ThreadsPerBlock: 1024, BlockTime: ms}))
	r, _ := gpusim.Simulate(s)
	_ = gpusim.WriteTable(os.Stdout, r)
	// Output:
	// name  kind    stream      launch [ms]  start [ms]  end [ms]  response [ms]  geometry
	// K1    kernel  low, low              0           0         3              3  8 x 1024 thr, 1 ms/block
	// K2    kernel  high, high          0.5           1         2            1.5  4 x 1024 thr, 1 ms/block
	// makespan 3 ms, 12 blocks on 2 SMs, 13 events
}

func ExampleResult_Report() {
	var s gpusim.Scenario
	st := s.AddStream("s", gpusim.PriorityLow, false)
	s.AddHost("h", gpusim.KernelCall("K", st, 0, gpusim.Kernel{Blocks: 2, ThreadsPerBlock: 256, BlockTime: 1000}))
	r, _ := gpusim.Simulate(s)
	out, _ := json.Marshal(r.Report())
	fmt.Println(string(out))
	// Output:
	// {"kernels":[{"name":"K","start_ns":0,"completion_ns":1000}],"blocks":[{"kernel":"K","index":0,"sm":0,"start_ns":0,"end_ns":1000},{"kernel":"K","index":1,"sm":1,"start_ns":0,"end_ns":1000}]}
}
