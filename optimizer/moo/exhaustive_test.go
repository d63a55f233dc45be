package moo

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"math/rand"
	"sync/atomic"
	"testing"
	"time"
)

// TestExhaustiveHand enumerates the hand problem with its symmetries broken
// (x0 ≤ x1, x2 ≤ x3) and with the partial assignments of x0 + x1 < 2 pruned,
// the order being x0, x1, x2, x3: 6 pairs (x0, x1), of which (0,0) and (0,1)
// are pruned, times 6 pairs (x2, x3) leaves 4·6 = 24 evaluations and 2 cuts.
func TestExhaustiveHand(t *testing.T) {
	h := &handProblem{need: 2}
	x := &Exhaustive{NewWalker: func() Walker {
		return funcWalker{
			values: func(partial []int, depth int, dst []int) []int {
				lo := 0
				if depth%2 == 1 { // x1 ≥ x0, x3 ≥ x2
					lo = partial[depth-1]
				}
				for v := lo; v <= 2; v++ {
					dst = append(dst, v)
				}
				return dst
			},
			prune: func(partial []int, depth int) bool {
				return depth == 2 && partial[0]+partial[1] < 2
			},
		}
	}}
	res, err := Minimize(h, x, &Settings{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || res.Evaluations != 24 || h.calls.Load() != 24 || res.Pruned != 2 {
		t.Errorf("status %v, %d evaluations (%d made), %d cuts; want Exhausted, 24, 2", res.Status, res.Evaluations, h.calls.Load(), res.Pruned)
	}
	if !sameGenomes(res.Front, handFront) || !sameObjectives(res.Front, handFront) {
		t.Errorf("front %v, want %v", res.Front, handFront)
	}

	// Without help, the whole cross product.
	res, err = Minimize(&handProblem{need: 2}, &Exhaustive{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || res.Evaluations != 81 || !sameGenomes(res.Front, handFront) {
		t.Errorf("status %v, %d evaluations, front %v; want Exhausted, 81, %v", res.Status, res.Evaluations, res.Front, handFront)
	}

	// Infeasible: the least-violating genomes.
	res, err = Minimize(&handProblem{need: 5}, &Exhaustive{Order: []int{3, 2, 1, 0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, least, _ := bruteForce(&handProblem{need: 5})
	if res.Feasible || !sameGenomes(res.LeastViolating, least) {
		t.Errorf("least violating %v, want %v", res.LeastViolating, least)
	}
}

// TestExhaustiveKnapsack compares the enumeration of the knapsack, whole and
// pruned by weight, with brute force.
func TestExhaustiveKnapsack(t *testing.T) {
	k := newKnapsack(3)
	want, _, total := bruteForce(k)
	res, err := Minimize(newKnapsack(3), &Exhaustive{}, &Settings{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluations != total || !sameGenomes(res.Front, want) || !sameObjectives(res.Front, want) {
		t.Errorf("%d evaluations, front %v; want %d, %v", res.Evaluations, res.Front, total, want)
	}

	// Weights are positive: a partial packing over capacity stays so.
	// Assign the heaviest items first, so the cuts come early.
	heavy := []int{2, 5, 0, 4, 1, 3, 6}
	k = newKnapsack(3)
	res, err = Minimize(k, &Exhaustive{
		Order: heavy,
		NewWalker: func() Walker {
			return funcWalker{
				values: func(_ []int, depth int, dst []int) []int { return append(dst, k.Domain(heavy[depth])...) },
				prune: func(partial []int, depth int) bool {
					w := 0
					for _, i := range heavy[:depth] {
						w += partial[i] * k.weight[i]
					}
					return w > k.capacity
				},
			}
		},
	}, &Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || !sameGenomes(res.Front, want) || res.Evaluations >= total || res.Pruned == 0 {
		t.Errorf("pruned: status %v, %d evaluations of %d, %d cuts, front %v; want %v", res.Status, res.Evaluations, total, res.Pruned, res.Front, want)
	}
	t.Logf("knapsack: %d genomes, front %d; pruned enumeration %d evaluations, %d cuts", total, len(want), res.Evaluations, res.Pruned)

	var enc [2]bytes.Buffer
	for i, workers := range []int{1, 4} {
		k := newKnapsack(3)
		k.jitter = true
		res, err := Minimize(k, &Exhaustive{}, &Settings{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		gob.Register(knapsackPayload{})
		if err := gob.NewEncoder(&enc[i]).Encode(res); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(enc[0].Bytes(), enc[1].Bytes()) {
		t.Error("enumeration with 1 and 4 workers gives different results")
	}

	res, err = Minimize(newKnapsack(3), &Exhaustive{}, &Settings{MaxEvaluations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != EvaluationLimit || res.Evaluations != 1000 {
		t.Errorf("status %v with %d evaluations, want EvaluationLimit with 1000", res.Status, res.Evaluations)
	}
	res, err = Minimize(&handProblem{need: 2}, &Exhaustive{}, &Settings{MaxEvaluations: 81})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || res.Evaluations != 81 {
		t.Errorf("status %v with %d evaluations, want Exhausted with 81", res.Status, res.Evaluations)
	}
}

// weightWalker cuts the knapsack's partial packings over capacity, heaviest
// items first, computing the partial weights in scratch state of its own, as
// the optimizer's walkers analyse partial mappings in theirs; it reports any
// use by two goroutines at once.
type weightWalker struct {
	k       *knapsack
	order   []int
	weight  []int // weight[d]: the packed weight of the genes order[:d]
	busy    atomic.Bool
	overlap *atomic.Bool
}

func (w *weightWalker) enter() {
	if w.busy.Swap(true) {
		w.overlap.Store(true)
	}
}

func (w *weightWalker) Values(_ []int, depth int, dst []int) []int {
	w.enter()
	defer w.busy.Store(false)
	return append(dst, w.k.Domain(w.order[depth])...)
}

func (w *weightWalker) Prune(partial []int, depth int) bool {
	w.enter()
	defer w.busy.Store(false)
	for d, i := range w.order[:depth] {
		w.weight[d+1] = w.weight[d] + partial[i]*w.k.weight[i]
	}
	return w.weight[depth] > w.k.capacity
}

// countingEvaluator counts the genomes one worker evaluates.
type countingEvaluator struct {
	Evaluator
	calls *atomic.Int64
	p     *perWorker
}

// Evaluate waits a millisecond before each genome as long as only one
// worker of several has evaluated any (for at most 5 s): on a busy machine
// a waiting worker can take milliseconds to wake, and the first worker
// would otherwise have finished by then, taking back what it shared.
func (c countingEvaluator) Evaluate(x []int, out *Evaluation) {
	if c.calls.Add(1) == 1 {
		c.p.active.Add(1)
	}
	if len(c.p.counts) > 1 && c.p.active.Load() < 2 && time.Since(c.p.start) < 5*time.Second {
		time.Sleep(time.Millisecond)
	}
	c.Evaluator.Evaluate(x, out)
}

// perWorker is a knapsack whose workers count their evaluations apart.
type perWorker struct {
	*knapsack
	counts []*atomic.Int64
	active atomic.Int64 // workers that have evaluated a genome
	start  time.Time
}

func (p *perWorker) NewWorker() Evaluator {
	c := new(atomic.Int64)
	p.counts = append(p.counts, c)
	return countingEvaluator{p.knapsack.NewWorker(), c, p}
}

// TestExhaustiveWorkers checks that the enumeration gives the same Result,
// byte for byte, with 1, 2, 3 and 4 workers, each with its own stateful
// walker, on a knapsack whose evaluations take uneven times and whose
// partial packings over capacity are cut; that the counts are those of a
// brute-force pass over the same tree; and that with several workers the
// work is indeed shared out.
func TestExhaustiveWorkers(t *testing.T) {
	gob.Register(knapsackPayload{})
	heavy := []int{2, 5, 0, 4, 1, 3, 6}

	// Brute force over the tree: every prefix in order, cut when over
	// capacity (weights are positive, so a cut prefix stays over).
	k := newKnapsack(3)
	cuts, leaves, feasible := 0, 0, 0
	var rec func(depth, w int)
	rec = func(depth, w int) {
		if depth == len(heavy) {
			leaves++
			feasible++ // the leaves reached are within capacity
			return
		}
		for _, v := range k.Domain(heavy[depth]) {
			if w+v*k.weight[heavy[depth]] > k.capacity {
				cuts++
				continue
			}
			rec(depth+1, w+v*k.weight[heavy[depth]])
		}
	}
	rec(0, 0)

	var first []byte
	for _, workers := range []int{1, 2, 3, 4} {
		p := &perWorker{knapsack: newKnapsack(3), start: time.Now()}
		p.jitter = true
		var overlap atomic.Bool
		walkers := 0
		x := &Exhaustive{Order: heavy, NewWalker: func() Walker {
			walkers++
			return &weightWalker{k: p.knapsack, order: heavy, weight: make([]int, len(heavy)+1), overlap: &overlap}
		}}
		res, err := Minimize(p, x, &Settings{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Exhausted || res.Evaluations != leaves || res.Pruned != cuts || res.FeasibleEvaluations != feasible {
			t.Errorf("%d workers: %v, %d evaluations (%d feasible), %d cuts; brute force: %d leaves (%d feasible), %d cuts",
				workers, res.Status, res.Evaluations, res.FeasibleEvaluations, res.Pruned, leaves, feasible, cuts)
		}
		// One walker per worker, and one that splits the enumeration
		// into its top-level subtrees (frontier).
		if walkers != workers+1 || overlap.Load() {
			t.Errorf("%d workers: %d walkers made, used by two goroutines at once: %v", workers, walkers, overlap.Load())
		}
		busy := 0
		for _, c := range p.counts {
			if c.Load() > 0 {
				busy++
			}
		}
		if workers > 1 && busy < 2 {
			t.Errorf("%d workers: only %d evaluated anything", workers, busy)
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(res); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = buf.Bytes()
		} else if !bytes.Equal(first, buf.Bytes()) {
			t.Errorf("%d workers give another result than 1", workers)
		}
		var per []int64
		for _, c := range p.counts {
			per = append(per, c.Load())
		}
		t.Logf("%d workers: %d evaluations, %d cuts, front of %d; evaluations per worker %v", workers, res.Evaluations, res.Pruned, len(res.Front), per)
	}
}

// TestExhaustiveStops checks that a failing evaluation and a panicking
// walker stop every worker with an error, rather than hanging (which go
// test's timeout reports) or crashing.
func TestExhaustiveStops(t *testing.T) {
	bad := &badProblem{domain: []int{0, 1, 2, 3}, eval: func(x []int, out *Evaluation) {
		if x[0] == 3 && x[3] == 2 {
			out.Violation = -1
		}
	}}
	for _, workers := range []int{1, 4} {
		if _, err := Minimize(bad, &Exhaustive{}, &Settings{Workers: workers}); err == nil {
			t.Errorf("%d workers: no error for a negative violation", workers)
		}
		_, err := Minimize(&handProblem{}, &Exhaustive{NewWalker: func() Walker {
			return funcWalker{
				values: func(_ []int, depth int, dst []int) []int { return append(dst, 0, 1, 2) },
				prune: func(partial []int, depth int) bool {
					if depth == 3 && partial[2] == 2 {
						panic("walker broken")
					}
					return false
				},
			}
		}}, &Settings{Workers: workers})
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte("walker broken")) {
			t.Errorf("%d workers: error %v for a panicking walker", workers, err)
		}
	}
}

// funcWalker is a Walker of two functions, which must be safe for
// concurrent use; a nil prune cuts nothing.
type funcWalker struct {
	values func(partial []int, depth int, dst []int) []int
	prune  func(partial []int, depth int) bool
}

func (w funcWalker) Values(partial []int, depth int, dst []int) []int {
	return w.values(partial, depth, dst)
}

func (w funcWalker) Prune(partial []int, depth int) bool {
	return w.prune != nil && w.prune(partial, depth)
}

// ckptKnapsack is the knapsack with its payloads coded for checkpoints.
type ckptKnapsack struct{ *knapsack }

func (ckptKnapsack) SaveState() ([]byte, error)  { return []byte("knapsack"), nil }
func (ckptKnapsack) RestoreState(s []byte) error { return nil }
func (ckptKnapsack) EncodePayload(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v.(knapsackPayload))
	return buf.Bytes(), err
}
func (ckptKnapsack) DecodePayload(data []byte) (any, error) {
	var v knapsackPayload
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(&v)
	return v, err
}

// TestExhaustiveCheckpoint: an enumeration resumed from the state saved
// after any of its top-level subtrees, on 1 to 3 workers, ends with the
// Result of the enumeration that saved it, with and without an evaluation
// limit; one killed at random evaluations and resumed from its newest state
// again and again as well. A state of NSGA-II is refused, and NSGA-II
// refuses the enumeration's.
func TestExhaustiveCheckpoint(t *testing.T) {
	heavy := []int{2, 5, 0, 4, 1, 3, 6}
	p := ckptKnapsack{newKnapsack(3)}
	x := &Exhaustive{Order: heavy, NewWalker: func() Walker {
		return &weightWalker{k: p.knapsack, order: heavy, weight: make([]int, len(heavy)+1), overlap: new(atomic.Bool)}
	}}
	rng := rand.New(rand.NewSource(30))
	for _, limit := range []int{0, 300} {
		var states [][]byte
		save := func(states *[][]byte) func([]byte, Progress) error {
			return func(s []byte, _ Progress) error { *states = append(*states, s); return nil }
		}
		full, err := Minimize(p, x, &Settings{Workers: 2, MaxEvaluations: limit,
			Checkpoint: &Checkpoint{Due: func(int) bool { return true }, Save: save(&states)}})
		if err != nil {
			t.Fatal(err)
		}
		want := resultText(full) + fmt.Sprint(full.Pruned, full.FeasibleEvaluations)
		if len(states) < 5 || limit > 0 && full.Status != EvaluationLimit {
			t.Fatalf("limit %d: %d states, status %v: too short to tell", limit, len(states), full.Status)
		}
		for k, st := range states {
			workers := 1 + rng.Intn(3)
			res, err := Minimize(p, x, &Settings{Workers: workers, MaxEvaluations: limit, Checkpoint: &Checkpoint{Resume: st}})
			if err != nil {
				t.Fatal(err)
			}
			if got := resultText(res) + fmt.Sprint(res.Pruned, res.FeasibleEvaluations); got != want {
				t.Fatalf("limit %d, resumed from state %d on %d workers:\n%s\nwant\n%s", limit, k, workers, got, want)
			}
		}
		var resume []byte
		for kills := 0; ; kills++ {
			ctx, cancel := context.WithCancel(context.Background())
			at := -1
			if kills < 4 {
				at = rng.Intn(full.Evaluations)
			}
			var saved [][]byte
			res, err := Minimize(p, x, &Settings{Workers: 1 + rng.Intn(3), MaxEvaluations: limit, Context: ctx,
				Progress: func(pr Progress) {
					if at >= 0 && pr.Evaluations >= at {
						cancel()
					}
				},
				Checkpoint: &Checkpoint{Due: func(g int) bool { return g%3 == 0 }, Save: save(&saved), Resume: resume}})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if len(saved) > 0 {
				resume = saved[len(saved)-1]
			}
			if res.Status != Interrupted {
				if got := resultText(res) + fmt.Sprint(res.Pruned, res.FeasibleEvaluations); got != want {
					t.Fatalf("limit %d, after %d kills:\n%s\nwant\n%s", limit, kills, got, want)
				}
				break
			}
		}
	}

	var nsga [][]byte
	if _, err := Minimize(p, &NSGA2{Population: 8}, &Settings{Generations: 2, Checkpoint: &Checkpoint{Due: func(int) bool { return true },
		Save: func(s []byte, _ Progress) error { nsga = append(nsga, s); return nil }}}); err != nil || len(nsga) == 0 {
		t.Fatalf("NSGA-II saved %d states, error %v", len(nsga), err)
	}
	if _, err := Minimize(p, x, &Settings{Checkpoint: &Checkpoint{Resume: nsga[0]}}); err == nil {
		t.Error("the enumeration resumed NSGA-II's state without error")
	}
	var enum [][]byte
	if _, err := Minimize(p, x, &Settings{Checkpoint: &Checkpoint{Due: func(int) bool { return true },
		Save: func(s []byte, _ Progress) error { enum = append(enum, s); return nil }}}); err != nil || len(enum) == 0 {
		t.Fatalf("the enumeration saved %d states, error %v", len(enum), err)
	}
	if _, err := Minimize(p, &NSGA2{Population: 8}, &Settings{Generations: 2, Checkpoint: &Checkpoint{Resume: enum[0]}}); err == nil {
		t.Error("NSGA-II resumed the enumeration's state without error")
	}
}
