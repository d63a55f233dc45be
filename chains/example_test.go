package chains_test

import (
	"fmt"

	"github.com/hetmap/hetmap/chains"
)

// A three-task chain with times in milliseconds (any unit works; the project
// passes picoseconds), released synchronously; H = lcm(10, 15, 5) = 30.
// Implicit, forward: Sensor@0 writes by 2 → Filter@15 by 20 → Actuator@20 by
// 21: 21 from activation, + T1 = 31. Backward: Actuator@15 reads Filter@0
// (written by 5 ≤ 15), which read Sensor@−10 (written by −8 ≤ 0): 16 − (−10)
// = 26. LET: Sensor@10 writes at 20 → Filter@30 at 45 → Actuator@45 at 50:
// 40; Actuator@10 ← Filter@−15 ← Sensor@−30: 15 − (−30) = 45.
func ExampleAnalyze() {
	chain := []chains.Member{
		{Name: "Sensor", Period: 10, BCRT: 1, WCRT: 2},
		{Name: "Filter", Period: 15, BCRT: 2, WCRT: 5},
		{Name: "Actuator", Period: 5, BCRT: 1, WCRT: 1},
	}
	r := chains.Analyze(chain, chains.Options{})
	if err := r.Err(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hyperperiod", r.Hyperperiod)
	fmt.Printf("implicit: reaction %d (from activation %d), data age %d\n",
		r.Implicit.MaxReactionTime, r.Implicit.ReactionFromActivation, r.Implicit.MaxDataAge)
	fmt.Printf("LET:      reaction %d (from activation %d), data age %d\n",
		r.LET.MaxReactionTime, r.LET.ReactionFromActivation, r.LET.MaxDataAge)
	fmt.Println("Davare bound on reaction time:", r.Analyses[chains.Davare2007].MaxReactionTime)
	v, st := chains.Objective{}.Value(&r) // default objective
	fmt.Println("objective", chains.Objective{}, v, st)

	// An unschedulable member: no number, a reason.
	chain[1].WCRT = 16
	r = chains.Analyze(chain, chains.Options{})
	fmt.Println(r.Status, "-", r.Reason())
	// Output:
	// hyperperiod 30
	// implicit: reaction 31 (from activation 21), data age 26
	// LET:      reaction 50 (from activation 40), data age 45
	// Davare bound on reaction time: 38
	// objective implicit/reaction-time/offsets 31 ok
	// member unschedulable - chain member unschedulable: member 2 (Filter): WCRT 16 exceeds its deadline 15
}

// The worst data-age chain of the same example, hop by hop.
func ExampleWorstChain() {
	chain := []chains.Member{
		{Name: "Sensor", Period: 10, WCRT: 2},
		{Name: "Filter", Period: 15, WCRT: 5},
		{Name: "Actuator", Period: 5, WCRT: 1},
	}
	buf := make([]chains.Hop, 0, len(chain)) // reuse across calls: no allocation
	b, r := chains.WorstChain(chain, chains.Options{}, chains.Implicit, chains.MaxDataAge, buf)
	if err := r.Err(); err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range b.Hops {
		fmt.Printf("%-8s released %2d, waited %2d, wrote at %2d\n", chain[h.Member].Name, h.Release, h.Wait, h.Write)
	}
	fmt.Println("data age", b.Length)
	// Output:
	// Sensor   released 20, waited  0, wrote at 22
	// Filter   released 30, waited  8, wrote at 35
	// Actuator released 45, waited 10, wrote at 46
	// data age 26
}
