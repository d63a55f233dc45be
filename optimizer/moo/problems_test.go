package moo

import (
	"slices"
	"sync/atomic"
)

// handProblem is small enough to solve by hand: four genes x0…x3, each 0, 1
// or 2 (81 genomes), two objectives
//
//	f1 = x0 + x1 + x2 + x3        f2 = Σ (2 − xi)²
//
// and the constraint x0 + x1 ≥ need, violated by need − (x0 + x1).
//
// Without the constraint, write yi = 2 − xi and t = Σ yi = 8 − f1; for a
// given t, f2 = Σ yi² is smallest when the yi are as equal as possible
// (each yi ≤ 2): t = 0…4 gives 0, 1, 2, 3, 4 (t ones) and t = 5…8 gives 7,
// 10, 13, 16 (t−4 twos, 8−t ones). f2 falls as f1 rises, so all nine
// (f1, f2) pairs are Pareto-optimal.
//
// With need = 2 the constraint reads y0 + y1 ≤ 2, so t = y0+y1 + y2+y3 ≤ 6:
// f1 = 0 and 1 become infeasible. For t ≤ 4 the optimum with all yi ≤ 1
// satisfies it; t = 5 is reached by (y0,y1) = (1,1), {y2,y3} = {1,2} with
// f2 = 7 and t = 6 by (1,1,2,2) with f2 = 10, the unconstrained optima. The
// true front is thus the seven points below; the genome listed is the
// lexicographically smallest with those objectives (the one the archive
// keeps): x = 2 − y with the ones of y as far left as the constraint allows.
//
//	(2,10) 1100   (3,7) 1101   (4,4) 1111   (5,3) 1112
//	(6,2)  1122   (7,1) 1222   (8,0) 2222
//
// With need = 5 nothing is feasible; the least violation, 1, is reached by
// the nine genomes with x0 = x1 = 2.
//
// The problem is symmetric under swapping x0 and x1 and under swapping x2
// and x3, so enumerating only x0 ≤ x1 and x2 ≤ x3 loses no objective vector.
type handProblem struct {
	need  int
	calls atomic.Int64
}

var handFront = []Point{
	{Genome: []int{1, 1, 0, 0}, Evaluation: Evaluation{Objectives: []float64{2, 10}}},
	{Genome: []int{1, 1, 0, 1}, Evaluation: Evaluation{Objectives: []float64{3, 7}}},
	{Genome: []int{1, 1, 1, 1}, Evaluation: Evaluation{Objectives: []float64{4, 4}}},
	{Genome: []int{1, 1, 1, 2}, Evaluation: Evaluation{Objectives: []float64{5, 3}}},
	{Genome: []int{1, 1, 2, 2}, Evaluation: Evaluation{Objectives: []float64{6, 2}}},
	{Genome: []int{1, 2, 2, 2}, Evaluation: Evaluation{Objectives: []float64{7, 1}}},
	{Genome: []int{2, 2, 2, 2}, Evaluation: Evaluation{Objectives: []float64{8, 0}}},
}

func (h *handProblem) NumGenes() int        { return 4 }
func (h *handProblem) Domain(int) []int     { return []int{0, 1, 2} }
func (h *handProblem) NumObjectives() int   { return 2 }
func (h *handProblem) NewWorker() Evaluator { return handEvaluator{h} }

type handEvaluator struct{ h *handProblem }

func (e handEvaluator) Evaluate(x []int, out *Evaluation) {
	e.h.calls.Add(1)
	for _, v := range x {
		out.Objectives[0] += float64(v)
		out.Objectives[1] += float64((2 - v) * (2 - v))
	}
	out.Violation = float64(max(0, e.h.need-(x[0]+x[1])))
}

// knapsack is a bi- or tri-objective integer knapsack: gene i is how many
// copies of item i to pack (0…3, or an even number 0…4 for the odd items;
// 4·3·4·3·4·3·4 = 6912 genomes), the objectives are the negated profits
// under two or three profit vectors, and the packed weight must not exceed
// the capacity (violation: the excess weight).
type knapsack struct {
	objectives int
	weight     []int
	profit     [3][]int
	capacity   int
	jitter     bool // vary the cost of an evaluation, to shuffle the workers
	calls      atomic.Int64
	seen       func(genome []int) // if set, called with every genome evaluated (one worker only)
	// costly makes a genome cost (x₅ + x₆)·3 analyses more than its own,
	// within its EvaluationsLeft; spent sums what the evaluations cost.
	costly bool
	spent  atomic.Int64
}

func newKnapsack(objectives int) *knapsack {
	return &knapsack{
		objectives: objectives,
		weight:     []int{7, 5, 9, 4, 6, 8, 3},
		profit: [3][]int{
			{9, 4, 8, 3, 7, 5, 2},
			{2, 7, 4, 8, 3, 6, 9},
			{5, 5, 9, 2, 8, 1, 6},
		},
		capacity: 40,
	}
}

func (k *knapsack) NumGenes() int { return len(k.weight) }
func (k *knapsack) Domain(i int) []int {
	if i%2 == 1 {
		return []int{0, 2, 4}
	}
	return []int{0, 1, 2, 3}
}
func (k *knapsack) NumObjectives() int { return k.objectives }
func (k *knapsack) NewWorker() Evaluator {
	return &knapsackEvaluator{k: k, scratch: make([]int, k.objectives)}
}

type knapsackEvaluator struct {
	k       *knapsack
	scratch []int // per-worker buffer: profits
	sink    int   // keeps the jitter loop
}

// knapsackPayload is what the knapsack attaches to an evaluation.
type knapsackPayload struct{ Weight int }

func (e *knapsackEvaluator) Evaluate(x []int, out *Evaluation) {
	k := e.k
	k.calls.Add(1)
	if k.seen != nil {
		k.seen(x)
	}
	clear(e.scratch)
	w := 0
	for i, v := range x {
		w += v * k.weight[i]
		for o := range e.scratch {
			e.scratch[o] += v * k.profit[o][i]
		}
	}
	if k.jitter {
		spin := 0
		for range (x[0]*7 + x[2]*3 + x[4]) * 2000 {
			spin++
		}
		e.sink += spin
	}
	for o, p := range e.scratch {
		out.Objectives[o] = -float64(p)
	}
	out.Violation = float64(max(0, w-k.capacity))
	out.Payload = knapsackPayload{Weight: w}
	if k.costly {
		out.Cost = (x[5] + x[6]) * 3
		if !out.Unlimited {
			out.Cost = min(out.Cost, out.EvaluationsLeft)
		}
		k.spent.Add(int64(1 + out.Cost))
	}
}

// bruteForce evaluates every genome of p and returns the archive's points
// and the least-violating ten.
func bruteForce(p Problem) (front []Point, least []Point, count int) {
	sp, err := newSpace(p)
	if err != nil {
		panic(err)
	}
	a := NewArchive(sp.m)
	l := leastViolating{k: 10}
	ev := p.NewWorker()
	g := make([]int, sp.n)
	idx := make([]int, sp.n)
	for {
		for i := range g {
			g[i] = sp.values[i][idx[i]]
		}
		e := Evaluation{Objectives: make([]float64, sp.m)}
		ev.Evaluate(g, &e)
		a.Add(Point{Genome: g, Evaluation: e})
		l.add(Point{Genome: g, Evaluation: e})
		count++
		i := 0
		for ; i < sp.n; i++ {
			idx[i]++
			if idx[i] < len(sp.values[i]) {
				break
			}
			idx[i] = 0
		}
		if i == sp.n {
			return a.Points(), l.points, count
		}
	}
}

// sameObjectives reports whether two fronts have the same objective vectors
// in the same order.
func sameObjectives(a, b []Point) bool {
	return slices.EqualFunc(a, b, func(p, q Point) bool { return slices.Equal(p.Objectives, q.Objectives) })
}

// sameGenomes reports whether two fronts have the same genomes in the same
// order.
func sameGenomes(a, b []Point) bool {
	return slices.EqualFunc(a, b, func(p, q Point) bool { return slices.Equal(p.Genome, q.Genome) })
}
