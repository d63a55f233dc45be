package rta_test

import (
	"fmt"

	"github.com/hetmap/hetmap/rta"
)

// The classic example: C = (1, 2, 3), T = D = (4, 6, 12); the third task
// is preempted by the other two.
func ExampleResponseTime() {
	hp := []rta.Interferer{{C: 1, T: 4}, {C: 2, T: 6}}
	r, st := rta.ResponseTime(rta.Task{C: 3, T: 12, D: 12}, hp, 12)
	fmt.Println(r, st)
	// Output: 10 schedulable
}

// A self-suspending task (asynchronous GPU offloading) interferes with
// lower-priority tasks as if it had release jitter R − C.
func ExampleTask_Interferer() {
	offload := rta.Task{C: 2, S: 3, T: 10, D: 10} // 2 on the CPU, up to 3 suspended
	r, _ := rta.ResponseTime(offload, nil, offload.D)
	hp := []rta.Interferer{offload.Interferer(r)}
	fmt.Println("offloading task:", r, "jitter seen below:", hp[0].J)
	low, st := rta.ResponseTime(rta.Task{C: 7, T: 20, D: 20}, hp, 20)
	fmt.Println("lower-priority task:", low, st)
	// Output:
	// offloading task: 5 jitter seen below: 3
	// lower-priority task: 11 schedulable
}

// Deadline-monotonic order fails when a self-suspending task has the longer
// deadline; Audsley's OPA finds the order that works.
func ExampleAnalyzer_Analyze() {
	tasks := []rta.Task{
		{C: 4, T: 10, D: 10},       // A
		{C: 2, S: 6, T: 12, D: 12}, // B suspends for up to 6
	}
	var a rta.Analyzer // reuse it: Analyze does not allocate in steady state
	out := make([]rta.Result, len(tasks))
	for _, p := range []rta.Policy{rta.DeadlineMonotonic, rta.OPA} {
		ok, err := a.Analyze(p, tasks, out)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v: schedulable=%v order=%v\n", p, ok, a.Order())
		for i, r := range out {
			fmt.Printf("  %c: R=%d %v (rank %d)\n", 'A'+i, r.R, r.Status, r.Rank)
		}
	}
	// Output:
	// deadline-monotonic: schedulable=false order=[0 1]
	//   A: R=4 schedulable (rank 0)
	//   B: R=16 exceeded limit (rank 1)
	// opa: schedulable=true order=[1 0]
	//   A: R=6 schedulable (rank 1)
	//   B: R=8 schedulable (rank 0)
}

// With Limit set to LimitPeriod a task that misses its deadline gets its
// exact analysis value, which tells by how much it misses.
func ExampleAnalyzer_limit() {
	tasks := []rta.Task{{C: 2, T: 5, D: 5}, {C: 4, T: 10, D: 7}}
	a := rta.Analyzer{Limit: rta.LimitPeriod}
	out := make([]rta.Result, len(tasks))
	a.Analyze(rta.OPA, tasks, out)
	r := out[1]
	fmt.Println(r.R, r.Status, "missing D by", r.R-tasks[1].D)
	// Output: 8 deadline miss missing D by 1
}
