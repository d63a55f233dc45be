package memory_test

import (
	"fmt"

	"github.com/hetmap/hetmap/memory"
)

// The challenge's worked example: an A57 task reads a 128-byte label.
func Example() {
	lines, _ := memory.Lines(128, memory.DefaultLineSize)
	alone := memory.LineLatency(memory.A57(), 0, false)
	contended := memory.LineLatency(memory.A57(), 1, false)
	fmt.Println(lines, "lines")
	fmt.Println("alone:", lines*alone, "ps")
	fmt.Println("one interfering core:", lines*contended, "ps")
	// Output:
	// 2 lines
	// alone: 40000 ps
	// one interfering core: 80000 ps
}

func ExampleRunnablePhases() {
	// A runnable on a Denver core (2 GHz) reads 3 lines, computes 1000 ticks
	// and writes 2 lines while one other core accesses memory and the copy
	// engine may be active: 8 + 2 + 20 = 30 ns per line.
	lat := memory.LineLatency(memory.Denver(), 1, true)
	p, err := memory.RunnablePhases(3, 2, 1000, 2_000_000_000, lat)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v total=%d ps\n", p, p.Total())
	// Output: {Read:90000 Execute:500000 Write:60000} total=650000 ps
}

func ExampleTicksToPicos() {
	ps, _ := memory.TicksToPicos(1, 1_500_000_000) // one GPU cycle, rounded up
	fmt.Println(ps)
	_, err := memory.TicksToPicos(1, 0)
	fmt.Println(err)
	// Output:
	// 667
	// memory: frequency must be positive
}

func ExampleCopyTime() {
	// Copying 1 MiB (16384 lines) while two cores access memory: 4 ns per line.
	ps, _ := memory.CopyTime(memory.TX2CopyEngine(), 1<<20/memory.DefaultLineSize, 2)
	fmt.Println(ps, "ps")
	// Output: 65536000 ps
}

// A response-time iteration on an A57 core asks how much contention a
// window of 5 µs can hold in which its jobs access 1000 lines. One A57
// core (40 ns per line) runs a task every 10 µs that reads a 98-line
// label and writes a 2-line one; a GPU task copies 1000 lines in and 500
// out every 33 ms (3.5 ns per line). The challenge's convention charges
// all 1000 accesses for both; the refined count only those that can
// overlap their memory phases.
func ExampleCounter() {
	lines := map[string]int64{"scan": 98, "pose": 2}
	var f memory.Footprint
	if err := f.AddLabels([]string{"scan"}, []string{"pose"}, lines); err != nil {
		fmt.Println(err)
		return
	}
	const us = 1_000_000 // ps
	w := memory.Window{
		Core: memory.A57(),
		Cores: []memory.Interferer{{Latency: 40_000, Tasks: []memory.Demand{
			f.OnCore(10*us, 2*us, 0), // period, response-time bound, no suspension
		}}},
		CopyEngine: memory.Interferer{Latency: 3_500, Tasks: []memory.Demand{
			memory.CopyDemand(33_000*us, 10_000*us, 1000, 500),
		}},
	}
	if err := w.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	var ctr memory.Counter
	ctr.Reset(&w) // once per filled Window; then as often as the iteration needs
	for _, count := range []memory.Count{memory.ChallengeCount, memory.RefinedCount, memory.RequestCount} {
		core := w.Overlap(&w.Cores[0], 5*us, 1000, 0, count)
		ce := w.Overlap(&w.CopyEngine, 5*us, 1000, 0, count)
		fmt.Printf("%-9s I = %9d ps  core %4d by %-8v  copy engine %4d by %v\n",
			count, ctr.Interference(5*us, 1000, 0, count), core.Count, core.By, ce.Count, ce.By)
	}
	// Output:
	// challenge I = 120000000 ps  core 1000 by lines     copy engine 1000 by lines
	// refined   I =  30720000 ps  core  206 by time      copy engine  266 by time
	// request   I =  28600000 ps  core  100 by requests  copy engine  266 by time
}
