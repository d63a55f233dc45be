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
