package moo_test

import (
	"fmt"

	"github.com/hetmap/hetmap/optimizer/moo"
)

// placement places three tasks of loads 3, 2 and 2 on cores 0, 1 and 2. It
// minimises the load of the busiest core and the number of cores used, and
// requires task 0 and task 1 to run on different cores.
type placement struct{}

func (placement) NumGenes() int            { return 3 }
func (placement) Domain(int) []int         { return []int{0, 1, 2} }
func (placement) NumObjectives() int       { return 2 }
func (placement) NewWorker() moo.Evaluator { return &placementWorker{} }

// placementWorker is one worker's evaluator, with its own scratch buffer.
type placementWorker struct{ load [3]int }

func (w *placementWorker) Evaluate(cores []int, out *moo.Evaluation) {
	w.load = [3]int{}
	for task, core := range cores {
		w.load[core] += []int{3, 2, 2}[task]
	}
	used := 0
	for _, l := range w.load {
		out.Objectives[0] = max(out.Objectives[0], float64(l))
		if l > 0 {
			used++
		}
	}
	out.Objectives[1] = float64(used)
	if cores[0] == cores[1] {
		out.Violation = 1
	}
}

func ExampleMinimize() {
	res, err := moo.Minimize(placement{}, &moo.NSGA2{Population: 10}, &moo.Settings{Seed: 1, Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Evaluations, "evaluations")
	for _, p := range res.Front {
		fmt.Println("cores", p.Genome, "busiest", p.Objectives[0], "used", p.Objectives[1])
	}
	// Output:
	// Exhausted 27 evaluations
	// cores [0 1 2] busiest 3 used 3
	// cores [0 1 1] busiest 4 used 2
}

func ExampleHypervolume() {
	front := [][]float64{{1, 3}, {2, 2}, {3, 1}}
	fmt.Println(moo.Hypervolume(front, []float64{4, 4}))
	fmt.Println(moo.HypervolumeRatio([][]float64{{2, 2}}, front, []float64{4, 4}))
	// Output:
	// 6
	// 0.6666666666666666
}

// coreWalker guides the enumeration of placement: cores are
// interchangeable, so task i is offered only the cores already used and the
// first unused one; tasks 0 and 1 never share a core. It holds no state, so
// every worker may share one.
type coreWalker struct{}

func (coreWalker) Values(partial []int, depth int, dst []int) []int {
	next := 0
	for _, c := range partial[:depth] {
		next = max(next, c+1)
	}
	for c := 0; c <= min(next, 2); c++ {
		dst = append(dst, c)
	}
	return dst
}

func (coreWalker) Prune(partial []int, depth int) bool {
	return depth == 2 && partial[0] == partial[1]
}

func ExampleExhaustive() {
	enum := &moo.Exhaustive{NewWalker: func() moo.Walker { return coreWalker{} }}
	res, err := moo.Minimize(placement{}, enum, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Evaluations, "evaluations", res.Pruned, "pruned")
	for _, p := range res.Front {
		fmt.Println("cores", p.Genome, "objectives", p.Objectives)
	}
	// Output:
	// Exhausted 3 evaluations 1 pruned
	// cores [0 1 2] objectives [3 3]
	// cores [0 1 1] objectives [4 2]
}
