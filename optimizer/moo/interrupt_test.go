package moo

import (
	"context"
	"math"
	"math/rand"
	"slices"
	"sync/atomic"
	"testing"
)

// gridProblem has n genes of k values each (k^n genomes) and two objectives,
// f1 = Σ x and f2 = Σ (k−1−x): every genome is Pareto-optimal for its sum,
// so the front has (k−1)·n + 1 points.
type gridProblem struct{ n, k int }

func (g gridProblem) NumGenes() int { return g.n }
func (g gridProblem) Domain(int) []int {
	d := make([]int, g.k)
	for i := range d {
		d[i] = i
	}
	return d
}
func (g gridProblem) NumObjectives() int   { return 2 }
func (g gridProblem) NewWorker() Evaluator { return gridEvaluator(g) }

type gridEvaluator gridProblem

func (g gridEvaluator) Evaluate(x []int, out *Evaluation) {
	for _, v := range x {
		out.Objectives[0] += float64(v)
		out.Objectives[1] += float64(g.k - 1 - v)
	}
}

// TestExhaustiveInterrupted cancels the context from the first progress
// report of a walk over 4^12 = 16 777 216 genomes (after the report of
// the size estimate's stage): the run stops with Status Interrupted after
// evaluating a small part of them, and its front is the exact front of
// what it evaluated (every point valid, none dominated by another). The
// walk cannot run ahead of the report: a worker's evaluation past its
// first merge (flushEvery genomes, which sends that report) waits until
// the report has cancelled, so at most flushEvery+1 genomes per worker are
// evaluated whatever the machine's load (the bound of 100 000 it had,
// with the walk going on while the report was on its way, failed under
// load).
func TestExhaustiveInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reports := 0
	cancelled := make(chan struct{})
	var calls atomic.Int64
	grid := gatedGrid{gridProblem: gridProblem{n: 12, k: 4}, open: cancelled, calls: &calls}
	const workers = 2
	res, err := Minimize(grid, &Exhaustive{}, &Settings{Workers: workers, Context: ctx,
		Progress: func(p Progress) {
			if p.Stage != "" {
				return
			}
			if reports++; reports == 1 {
				cancel()
				close(cancelled)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Interrupted || res.Evaluations == 0 || res.Evaluations > workers*(flushEvery+1) || int64(res.Evaluations) != calls.Load() {
		t.Fatalf("status %v after %d evaluations (%d made); want Interrupted after 1 to %d", res.Status, res.Evaluations, calls.Load(), workers*(flushEvery+1))
	}
	for i, p := range res.Front {
		for j, q := range res.Front {
			if i != j && Dominates(q.Objectives, p.Objectives) {
				t.Errorf("front point %v is dominated by %v", p, q)
			}
		}
	}

	// A context done before the run: nothing is walked.
	res, err = Minimize(gridProblem{n: 12, k: 4}, &Exhaustive{}, &Settings{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Interrupted || res.Evaluations != 0 {
		t.Errorf("cancelled before the start: status %v, %d evaluations; want Interrupted, none", res.Status, res.Evaluations)
	}
}

// gatedGrid is gridProblem whose workers each evaluate flushEvery genomes
// (up to their first merge of points, which sends a progress report) and
// then wait until open is closed before every further one; calls counts
// the evaluations of all workers.
type gatedGrid struct {
	gridProblem
	open  <-chan struct{}
	calls *atomic.Int64
}

func (g gatedGrid) NewWorker() Evaluator { return &gatedEvaluator{g: g} }

type gatedEvaluator struct {
	g    gatedGrid
	made int
}

func (e *gatedEvaluator) Evaluate(x []int, out *Evaluation) {
	if e.made++; e.made > flushEvery {
		<-e.g.open
	}
	e.g.calls.Add(1)
	gridEvaluator(e.g.gridProblem).Evaluate(x, out)
}

// TestExhaustiveInterruptedWhileCutting: a walk that only cuts (Prune cuts
// every complete genome, so no batch is ever evaluated) still looks at the
// context every few thousand nodes: cancelled after 10 000 cuts of the
// 4^10 = 1 048 576 leaves (some by the probes that estimate the walk's
// size), it stops within one check interval.
func TestExhaustiveInterruptedWhileCutting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cuts := 0
	grid := gridProblem{n: 10, k: 4}
	x := &Exhaustive{NewWalker: pruneWalker(grid, nil, func(_ []int, depth int) bool {
		if depth < 10 {
			return false
		}
		if cuts++; cuts == 10000 {
			cancel()
		}
		return true
	})}
	res, err := Minimize(grid, x, &Settings{Context: ctx, Workers: 1}) // one walker: one count of cuts
	if err != nil {
		t.Fatal(err)
	}
	// The probes that estimate the walk's size cut up to 4 leaves each
	// before the walk; a node examines up to 4 children.
	lo, hi := 10000-4*estimateProbes, 10000+4*contextCheckNodes
	if res.Status != Interrupted || res.Evaluations != 0 || res.Pruned < lo || res.Pruned > hi {
		t.Errorf("status %v, %d evaluations, %d cuts; want Interrupted, 0, %d to %d", res.Status, res.Evaluations, res.Pruned, lo, hi)
	}
}

// TestNSGA2Interrupted cancels the context from the progress report of
// generation 3: the run stops there with Status Interrupted, and what it
// found is what an uninterrupted run of 3 generations with the same seed
// finds.
func TestNSGA2Interrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	set := &Settings{Generations: 50, Seed: 7, Context: ctx, Progress: func(p Progress) {
		if p.Generation == 3 {
			cancel()
		}
	}}
	res, err := Minimize(newKnapsack(2), &NSGA2{Population: 10}, set)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Minimize(newKnapsack(2), &NSGA2{Population: 10}, &Settings{Generations: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Interrupted || res.Generations != 3 || res.Evaluations != want.Evaluations {
		t.Fatalf("status %v after %d generations, %d evaluations; want Interrupted after 3, %d", res.Status, res.Generations, res.Evaluations, want.Evaluations)
	}
	if !sameGenomes(res.Front, want.Front) {
		t.Errorf("front %v, want that of 3 generations %v", res.Front, want.Front)
	}

	// Cancelled before the start: nothing is evaluated.
	res, err = Minimize(newKnapsack(2), &NSGA2{Population: 10}, &Settings{Generations: 50, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Interrupted || res.Generations != 0 || res.Evaluations != 0 {
		t.Errorf("cancelled before the start: status %v, %d generations, %d evaluations; want Interrupted, 0, 0", res.Status, res.Generations, res.Evaluations)
	}
}

// TestProgressDone: the exhaustive walk's estimate of the share done never
// falls and ends at 1, with the cuts of the knapsack counted as walked;
// NSGA-II's is the share of the generations.
func TestProgressDone(t *testing.T) {
	var seen []float64
	heavy := []int{2, 5, 0, 4, 1, 3, 6}
	k := newKnapsack(3)
	x := &Exhaustive{Order: heavy, NewWalker: pruneWalker(k, heavy, func(partial []int, depth int) bool {
		w := 0
		for _, g := range heavy[:depth] {
			w += partial[g] * k.weight[g]
		}
		return w > k.capacity
	})}
	res, err := Minimize(k, x, &Settings{Workers: 1, Progress: func(p Progress) { seen = append(seen, p.Done) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Pruned == 0 || len(seen) == 0 || !slices.IsSorted(seen) || math.Abs(seen[len(seen)-1]-1) > 1e-12 {
		t.Errorf("%d cuts; Done reported %v: want non-decreasing, ending at 1", res.Pruned, seen)
	}

	seen = nil
	if _, err := Minimize(newKnapsack(2), &NSGA2{Population: 8}, &Settings{Generations: 4, Progress: func(p Progress) { seen = append(seen, p.Done) }}); err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 0.25, 0.5, 0.75, 1}; !slices.Equal(seen, want) {
		t.Errorf("NSGA-II reported Done %v, want %v", seen, want)
	}
}

// tieProblem is handProblem with need = 5 (nothing feasible; the nine
// genomes with x0 = x1 = 2 miss by 1, the least) and Tiebreak = 4 − x2 − x3.
type tieProblem struct{ handProblem }

func (p *tieProblem) NewWorker() Evaluator { return tieEvaluator{handEvaluator{&p.handProblem}} }

type tieEvaluator struct{ handEvaluator }

func (e tieEvaluator) Evaluate(x []int, out *Evaluation) {
	e.handEvaluator.Evaluate(x, out)
	out.Tiebreak = float64(4 - x[2] - x[3])
}

// TestLeastViolatingTiebreak: of the nine genomes tied at violation 1, the
// three kept are those of smallest Tiebreak: 2222 (0), then 2212 and 2221
// (1) in genome order; without Tiebreak, genome order alone would keep
// 2200, 2201 and 2202.
func TestLeastViolatingTiebreak(t *testing.T) {
	for _, m := range []Method{&Exhaustive{}, &NSGA2{Population: 81}} {
		res, err := Minimize(&tieProblem{handProblem{need: 5}}, m, &Settings{KeepInfeasible: 3, Generations: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := []Point{{Genome: []int{2, 2, 2, 2}}, {Genome: []int{2, 2, 1, 2}}, {Genome: []int{2, 2, 2, 1}}}
		if res.Feasible || !sameGenomes(res.LeastViolating, want) {
			t.Errorf("%T: least violating %v, want the genomes of %v", m, res.LeastViolating, want)
		}
	}
}

// pruneWalker makes the NewWalker of an Exhaustive that offers every gene
// of problem p its whole domain, in the enumeration order order (nil: gene
// order), and cuts by prune.
func pruneWalker(p Problem, order []int, prune func(partial []int, depth int) bool) func() Walker {
	values := func(_ []int, depth int, dst []int) []int {
		gene := depth
		if order != nil {
			gene = order[depth]
		}
		return append(dst, p.Domain(gene)...)
	}
	return func() Walker { return funcWalker{values: values, prune: prune} }
}

// cancellingProblem is gridProblem whose evaluators cancel a context at the
// after-th evaluation and count every evaluation.
type cancellingProblem struct {
	gridProblem
	after  int64
	cancel context.CancelFunc
	count  *atomic.Int64
}

func (c cancellingProblem) NewWorker() Evaluator { return cancellingEvaluator{c} }

type cancellingEvaluator struct{ c cancellingProblem }

func (e cancellingEvaluator) Evaluate(x []int, out *Evaluation) {
	if e.c.count.Add(1) == e.c.after {
		e.c.cancel()
	}
	gridEvaluator(e.c.gridProblem).Evaluate(x, out)
}

// TestInterruptedWithinABatch: a context cancelled during an evaluation
// (the 37th) stops NSGA-II within its batch, not at the end of the
// generation, and Exhaustive's walk at once: each worker makes at most the
// evaluation it is in, so at most 37 + workers − 1 evaluations are made,
// and the run reports Interrupted with what those evaluations found.
func TestInterruptedWithinABatch(t *testing.T) {
	const after, workers = 37, 4
	for _, m := range []Method{&NSGA2{Population: 200}, &Exhaustive{}} {
		ctx, cancel := context.WithCancel(context.Background())
		p := cancellingProblem{gridProblem: gridProblem{n: 12, k: 4}, after: after, cancel: cancel, count: new(atomic.Int64)}
		res, err := Minimize(p, m, &Settings{Workers: workers, Context: ctx, Generations: 1000})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		made := p.count.Load()
		if res.Status != Interrupted || made < after || made > after+workers-1 || int64(res.Evaluations) > made || res.Evaluations == 0 || len(res.Front) == 0 {
			t.Errorf("%T: status %v, %d evaluations made, %d recorded, front %d; want Interrupted within %d to %d, some recorded", m, res.Status, made, res.Evaluations, len(res.Front), after, after+workers-1)
		}
	}
}

// TestEstimateBounded: the size estimate of a space of 6^250 genomes stops
// as soon as it is sure to exceed its limit, after a few dozen Prune calls
// instead of the 256 probes' 384 000; a small space is estimated in full.
func TestEstimateBounded(t *testing.T) {
	big := gridProblem{n: 250, k: 6}
	calls := 0
	x := &Exhaustive{NewWalker: pruneWalker(big, nil, func([]int, int) bool { calls++; return false })}
	est, over, err := x.EstimateUpTo(big, rand.New(rand.NewSource(1)), 500_000)
	if err != nil || !over || est <= 500_000 || calls > 100 {
		t.Errorf("6^250: estimate %g, over %v, %d Prune calls (%v); want over 500000 within 100 calls", est, over, calls, err)
	}
	calls = 0
	if est, err := x.Estimate(big, rand.New(rand.NewSource(1))); err != nil || est <= MaxEstimate || calls > 200 {
		t.Errorf("6^250 up to MaxEstimate: estimate %g after %d Prune calls (%v)", est, calls, err)
	}
	small := gridProblem{n: 4, k: 3}
	est, over, err = (&Exhaustive{}).EstimateUpTo(small, rand.New(rand.NewSource(1)), 500_000)
	if want := 3.0 + 9 + 27 + 81; err != nil || over || est != want {
		t.Errorf("3^4: estimate %g, over %v (%v); want %g, the exact count of an unpruned tree", est, over, err, want)
	}
}

// TestProgressUncertain: in a tree where one value of the first gene of 64
// leads to a subtree of 4^8 leaves and the others to none, the
// probes rarely meet the subtree and disagree: every report of the walk is
// Uncertain (no time left can be told), and a report whose walk has passed
// the estimate is Uncertain whatever the probes said.
func TestProgressUncertain(t *testing.T) {
	grid := gridProblem{n: 9, k: 4}
	values := func(partial []int, depth int, dst []int) []int {
		switch {
		case depth == 0:
			for v := range 64 {
				dst = append(dst, v)
			}
			return dst
		case partial[0] != 0:
			return dst
		}
		return append(dst, 0, 1, 2, 3)
	}
	wide := widened{grid}
	x := &Exhaustive{NewWalker: func() Walker {
		return funcWalker{values: values}
	}}
	var reports []Progress
	if _, err := Minimize(wide, x, &Settings{Workers: 1, Progress: func(p Progress) {
		if p.Stage == "" {
			reports = append(reports, p)
		}
	}}); err != nil {
		t.Fatal(err)
	}
	if len(reports) == 0 {
		t.Fatal("no progress report of the walk")
	}
	for _, p := range reports {
		if !p.Exhaustive || !p.Uncertain && float64(p.Examined) > p.Size {
			t.Errorf("report %+v: want Exhaustive, and Uncertain once Examined passes Size", p)
		}
	}
	if !reports[0].Uncertain {
		t.Errorf("first report %+v: the probes of this tree disagree, want Uncertain", reports[0])
	}
}

// widened is gridProblem whose first gene takes 64 values.
type widened struct{ gridProblem }

func (w widened) Domain(i int) []int {
	if i == 0 {
		d := make([]int, 64)
		for v := range d {
			d[v] = v
		}
		return d
	}
	return w.gridProblem.Domain(i)
}
func (w widened) NewWorker() Evaluator { return gridEvaluator(w.gridProblem) }
