package syssim_test

import (
	"fmt"

	"github.com/hetmap/hetmap/rta/syssim"
)

// The challenge's worked example, simulated: a task on an A57 core reads
// 128 B (2 lines) while a task on another A57 core reads 1 line. The
// first access of each overlaps the other core's read phase (20 + 20 ns);
// the second access of the first task is alone (20 ns). The challenge's
// sound convention charges every access 40 ns: 80 ns.
func ExampleSimulate() {
	const ns = int64(1000) // ps
	a57 := syssim.CoreMemory{Baseline: 20 * ns, PerCore: 20 * ns, CopyEngine: 100 * ns}
	reader := func(name string, lines int64) syssim.Core {
		return syssim.Core{Name: name, Memory: a57, Tasks: []syssim.Task{
			{Name: name, Period: 1000 * ns, Runnables: []syssim.Runnable{{Read: lines}}}}}
	}
	r, err := syssim.Simulate(&syssim.System{Horizon: 1000 * ns, Cores: []syssim.Core{reader("Core2", 2), reader("Core3", 1)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range r.Jobs {
		fmt.Printf("core %d: response %d ns, of which contention %d ns\n", j.Core, j.Response()/ns, j.Contention/ns)
	}
	// Output:
	// core 0: response 60 ns, of which contention 20 ns
	// core 1: response 40 ns, of which contention 20 ns
}
