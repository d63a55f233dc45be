package moo

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/MaxHalford/eaopt"
)

// TestNSGA2HandProblem checks that NSGA-II finds the hand-computed front.
// The space has 81 genomes, so a population of 20 soon evaluates them all.
func TestNSGA2HandProblem(t *testing.T) {
	h := &handProblem{need: 2}
	res, err := Minimize(h, &NSGA2{Population: 20}, &Settings{Generations: 50, Workers: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Feasible || !sameObjectives(res.Front, handFront) {
		t.Fatalf("front %v, want %v", res.Front, handFront)
	}
	if res.Evaluations > 81 || int(h.calls.Load()) != res.Evaluations {
		t.Errorf("%d evaluations counted, %d made; the space has 81 genomes", res.Evaluations, h.calls.Load())
	}
	if res.Status == Exhausted && !sameGenomes(res.Front, handFront) {
		t.Errorf("space exhausted, but front genomes %v, want %v", res.Front, handFront)
	}
	t.Logf("status %v after %d generations, %d evaluations, %d cache hits", res.Status, res.Generations, res.Evaluations, res.CacheHits)
}

// TestNSGA2Infeasible checks the least-violating genomes of a problem with
// no feasible genome.
func TestNSGA2Infeasible(t *testing.T) {
	h := &handProblem{need: 5}
	res, err := Minimize(h, &NSGA2{Population: 20}, &Settings{Generations: 30, Seed: 1, KeepInfeasible: 9})
	if err != nil {
		t.Fatal(err)
	}
	if res.Feasible || len(res.Front) != 0 {
		t.Fatalf("feasible %v, front %v", res.Feasible, res.Front)
	}
	_, want, _ := bruteForce(h)
	want = want[:9]
	if !sameGenomes(res.LeastViolating, want) {
		t.Errorf("least violating %v, want %v", res.LeastViolating, want)
	}
	for _, p := range res.LeastViolating {
		if p.Violation != 1 || p.Genome[0] != 2 || p.Genome[1] != 2 {
			t.Errorf("least violating point %v, want x0 = x1 = 2 and violation 1", p)
		}
	}
}

// TestNSGA2Knapsack checks that NSGA-II reaches 99 % of the hypervolume of
// the exact front of a knapsack of 6912 genomes when it may evaluate 2500 of
// them (36 %), on average over ten seeds and in two and three objectives; no
// seed may fall below 98 %. (Random search reaches about 95 % and 93 %.)
func TestNSGA2Knapsack(t *testing.T) {
	for _, m := range []int{2, 3} {
		t.Run(fmt.Sprint(m, " objectives"), func(t *testing.T) {
			exact, _, _ := bruteForce(newKnapsack(m))
			ref := slices.Repeat([]float64{1}, m) // the empty knapsack is 0
			sum := 0.0
			for seed := range int64(10) {
				res, err := Minimize(newKnapsack(m), nil, &Settings{MaxEvaluations: 2500, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				ratio := HypervolumeRatio(Objectives(res.Front), Objectives(exact), ref)
				t.Logf("seed %d: %v after %d generations, %d evaluations, front %d of %d points, hypervolume ratio %.5f",
					seed, res.Status, res.Generations, res.Evaluations, len(res.Front), len(exact), ratio)
				if ratio < 0.98 {
					t.Errorf("seed %d: hypervolume ratio %v < 0.98", seed, ratio)
				}
				sum += ratio
				checkFront(t, newKnapsack(m), res.Front)
			}
			if sum/10 < 0.99 {
				t.Errorf("mean hypervolume ratio %v < 0.99", sum/10)
			}
		})
	}
}

// checkFront checks that the points of a front are feasible, mutually
// non-dominated, sorted, and hold the evaluation of their genome.
func checkFront(t *testing.T, p Problem, front []Point) {
	t.Helper()
	ev := p.NewWorker()
	for i, q := range front {
		e := Evaluation{Objectives: make([]float64, p.NumObjectives())}
		ev.Evaluate(q.Genome, &e)
		if !slices.Equal(e.Objectives, q.Objectives) || e.Violation != q.Violation || !q.Feasible() {
			t.Errorf("front point %v, but its genome evaluates to %v", q, e)
		}
		for _, r := range front {
			if Dominates(r.Objectives, q.Objectives) {
				t.Errorf("front point %v dominated by %v", q, r)
			}
		}
		if i > 0 && slices.Compare(front[i-1].Objectives, q.Objectives) >= 0 {
			t.Errorf("front not sorted: %v before %v", front[i-1], q)
		}
	}
}

// TestNSGA2Determinism checks that the same seed gives byte-identical
// results with 1, 2 and 4 workers, on a problem whose evaluations take uneven
// times so that the workers finish out of order, with the default cache and
// with one so small (50 evaluations) that genomes leave it and are evaluated
// again.
func TestNSGA2Determinism(t *testing.T) {
	gob.Register(knapsackPayload{})
	encode := func(workers int, seed int64, cache int, byRand bool) ([]byte, *Result) {
		k := newKnapsack(3)
		k.jitter = true
		s := &Settings{Generations: 25, Workers: workers, Seed: seed}
		if byRand {
			s.Rand = rand.New(rand.NewSource(seed)) // the same as Seed
			s.Seed = 999
		}
		res, err := Minimize(k, &NSGA2{Population: 40, CacheSize: cache}, s)
		if err != nil {
			t.Fatal(err)
		}
		if int(k.calls.Load()) != res.Evaluations {
			t.Errorf("%d evaluations counted, %d made", res.Evaluations, k.calls.Load())
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(res); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes(), res
	}
	for _, cache := range []int{0, 50} {
		one, r1 := encode(1, 11, cache, false)
		for _, w := range []int{2, 4} {
			if other, rw := encode(w, 11, cache, false); !bytes.Equal(one, other) {
				t.Errorf("cache %d: 1 and %d workers give different results:\n%+v\n%+v", cache, w, r1, rw)
			}
		}
		if two, _ := encode(2, 11, cache, true); !bytes.Equal(one, two) {
			t.Errorf("cache %d: Settings.Rand seeded with 11 and Settings.Seed 11 give different results", cache)
		}
		if other, _ := encode(4, 12, cache, false); bytes.Equal(one, other) {
			t.Errorf("cache %d: seeds 11 and 12 give the same result", cache)
		}
		t.Logf("cache %d, seed 11: %d evaluations, front of %d points, %d bytes encoded, identical with 1, 2 and 4 workers", cache, r1.Evaluations, len(r1.Front), len(one))
	}
}

// TestNSGA2SmallCache checks what a cache too small for the run changes:
// genomes that left it are evaluated again, so more evaluations are made
// than distinct genomes, and the front is still made of true evaluations.
func TestNSGA2SmallCache(t *testing.T) {
	k := newKnapsack(2)
	distinct := map[string]bool{}
	k.seen = func(g []int) { distinct[fmt.Sprint(g)] = true }
	res, err := Minimize(k, &NSGA2{Population: 40, CacheSize: 50}, &Settings{Generations: 60, Workers: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluations <= len(distinct) {
		t.Errorf("%d evaluations of %d distinct genomes: none evaluated again with a cache of 50", res.Evaluations, len(distinct))
	}
	checkFront(t, newKnapsack(2), res.Front)
	t.Logf("%d evaluations of %d distinct genomes, front of %d points", res.Evaluations, len(distinct), len(res.Front))
}

// TestGenerationAllocations checks that a generation of NSGA-II allocates
// nothing in steady state, with one worker and with two (where offspring go
// to the helper goroutine in chunks as they are bred).
func TestGenerationAllocations(t *testing.T) {
	for _, workers := range []int{1, 2} {
		k := newKnapsack(3)
		r, m, pop := newTestModel(t, k, 100)
		if workers == 2 {
			r.workers = append(r.workers, k.NewWorker())
			m.pipe = newPipeline(r, 100)
		}
		m.revisit = true
		for range 20 { // warm up: buffers and the pool of genomes reach their size
			if err := m.Apply(pop); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(50, func() {
			if err := m.Apply(pop); err != nil {
				t.Fatal(err)
			}
		})
		m.pipe.close()
		if allocs > 0 {
			t.Errorf("%d workers: %v allocations per generation of 100 offspring, want none", workers, allocs)
		}
	}
}

// TestOffspringMarkedForEvaluation checks that every offspring comes out of
// breeding marked for evaluation, although eaopt's Individual.Crossover
// leaves the second child's flag and fitness as they were, and that after a
// generation every individual holds the evaluation of its own genome.
func TestOffspringMarkedForEvaluation(t *testing.T) {
	// The eaopt behaviour that makes the marking necessary.
	sp, _ := newSpace(&handProblem{})
	ops := &operators{sp: sp, mutation: 0, crossover: UniformCrossover}
	rng := rand.New(rand.NewSource(1))
	a := eaopt.Individual{Genome: &genome{genes: []int{0, 0, 0, 0}, ops: ops}, Fitness: 1, Evaluated: true}
	b := eaopt.Individual{Genome: &genome{genes: []int{2, 2, 2, 2}, ops: ops}, Fitness: 2, Evaluated: true}
	a.Crossover(b, rng)
	if !b.Evaluated {
		t.Log("eaopt now marks the mate of a crossover for evaluation")
	}

	h := &handProblem{need: 2}
	_, m, pop := newTestModel(t, h, 20)
	m.begin(len(pop.Individuals))
	off := m.breed(pop.Individuals, pop.RNG)
	if len(off) == 0 {
		t.Fatal("no offspring")
	}
	for _, c := range off {
		if c.Evaluated || asGenome(c).evaluated {
			t.Errorf("offspring %v not marked for evaluation", c)
		}
	}
	if _, err := m.finish(off); err != nil {
		t.Fatal(err)
	}
	ev := h.NewWorker()
	for gen := range 10 {
		if err := m.Apply(pop); err != nil {
			t.Fatal(err)
		}
		if len(pop.Individuals) != 20 {
			t.Fatalf("population of %d after a generation", len(pop.Individuals))
		}
		for _, ind := range pop.Individuals {
			g := asGenome(ind)
			e := Evaluation{Objectives: make([]float64, 2)}
			ev.Evaluate(g.genes, &e)
			if !ind.Evaluated || !slices.Equal(e.Objectives, g.eval.Objectives) || e.Violation != g.eval.Violation || ind.Fitness != g.fitness() {
				t.Fatalf("generation %d: individual %v with evaluation %v, its genome evaluates to %v", gen, g.genes, g.eval, e)
			}
		}
	}
}

// newTestModel sets up NSGA-II's model on problem p with a random ranked
// population of n, as Minimize does, for tests and benchmarks that drive
// generations directly.
func newTestModel(tb testing.TB, p Problem, n int) (*run, *model, *eaopt.Population) {
	sp, err := newSpace(p)
	if err != nil {
		tb.Fatal(err)
	}
	r := &run{sp: sp, archive: NewArchive(sp.m), least: leastViolating{k: 10}, workers: []Evaluator{p.NewWorker()}}
	ops := &operators{sp: sp, mutation: 1 / float64(sp.n)}
	m := &model{r: r, ops: ops, crossover: 0.9, cache: newEvalCache(sp.n, sp.m, DefaultCacheSize, 0), pipe: newPipeline(r, n)}
	rng := rand.New(rand.NewSource(1))
	inds := make(eaopt.Individuals, n)
	for i := range inds {
		g := m.newGenome()
		for j, vals := range sp.values {
			g.genes[j] = vals[rng.Intn(len(vals))]
		}
		g.hash = hashGenome(g.genes)
		inds[i] = eaopt.NewIndividual(g, rng)
	}
	if _, err := m.evaluate(inds); err != nil {
		tb.Fatal(err)
	}
	return r, m, &eaopt.Population{Individuals: m.rank(inds, n, nil, rng), RNG: rng}
}

func TestNSGA2Limits(t *testing.T) {
	k := newKnapsack(2)
	res, err := Minimize(k, &NSGA2{Population: 30}, &Settings{MaxEvaluations: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != EvaluationLimit || res.Evaluations != 100 || k.calls.Load() != 100 {
		t.Errorf("status %v with %d evaluations (%d made), want EvaluationLimit with 100", res.Status, res.Evaluations, k.calls.Load())
	}
	res, err = Minimize(newKnapsack(2), &NSGA2{Population: 50}, &Settings{MaxEvaluations: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != EvaluationLimit || res.Evaluations > 20 || res.Generations != 0 {
		t.Errorf("status %v with %d evaluations and %d generations, want EvaluationLimit at most 20 and no generation", res.Status, res.Evaluations, res.Generations)
	}
	res, err = Minimize(newKnapsack(2), &NSGA2{Population: 30}, &Settings{Generations: 1000, Stall: Stall{Generations: 5}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Converged || res.Generations >= 1000 {
		t.Errorf("status %v after %d generations, want Converged", res.Status, res.Generations)
	}
	res, err = Minimize(&handProblem{need: 2}, &NSGA2{Population: 30}, &Settings{Generations: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || res.Evaluations != 81 || !sameGenomes(res.Front, handFront) {
		t.Errorf("status %v with %d evaluations, front %v; want Exhausted with 81 and the hand front", res.Status, res.Evaluations, res.Front)
	}
	res, err = Minimize(newKnapsack(2), &NSGA2{Population: 10}, &Settings{Generations: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != GenerationLimit || res.Generations != 3 {
		t.Errorf("status %v after %d generations, want GenerationLimit after 3", res.Status, res.Generations)
	}
}

func TestNSGA2Settings(t *testing.T) {
	var progress []Progress
	h := &handProblem{need: 2}
	res, err := Minimize(h, &NSGA2{
		Population:    6,
		CrossoverRate: -1,
		MutationRate:  0.5,
		Crossover:     TwoPointCrossover,
		Initial:       [][]int{{1, 1, 0, 0}, {1, 1, 0, 0}, {2, 2, 2, 2}},
	}, &Settings{Generations: 4, Workers: 3, Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) != 5 || progress[4].Generation != 4 || progress[4].Evaluations != res.Evaluations || progress[4].ArchiveSize != len(res.Front) {
		t.Errorf("progress %v for result %+v", progress, res)
	}
	for _, g := range [][]int{{1, 1, 0, 0}, {2, 2, 2, 2}} {
		if !slices.ContainsFunc(res.Front, func(p Point) bool { return slices.Equal(p.Genome, g) }) {
			t.Errorf("initial genome %v, on the true front, missing from front %v", g, res.Front)
		}
	}
}

type badProblem struct {
	handProblem
	domain []int
	eval   func(x []int, out *Evaluation)
}

func (b *badProblem) Domain(int) []int     { return b.domain }
func (b *badProblem) NewWorker() Evaluator { return b }
func (b *badProblem) Evaluate(x []int, out *Evaluation) {
	b.eval(x, out)
}

func TestErrors(t *testing.T) {
	ok := func(x []int, out *Evaluation) {}
	for _, c := range []struct {
		name   string
		p      Problem
		m      Method
		s      *Settings
		substr string
	}{
		{"empty domain", &badProblem{domain: nil, eval: ok}, nil, nil, "empty domain"},
		{"repeated value", &badProblem{domain: []int{1, 1}, eval: ok}, nil, nil, "twice"},
		{"NaN objective", &badProblem{domain: []int{0, 1}, eval: func(x []int, out *Evaluation) { out.Objectives[1] = math.NaN() }}, nil, nil, "objective 1 is NaN"},
		{"infinite objective", &badProblem{domain: []int{0, 1}, eval: func(x []int, out *Evaluation) { out.Objectives[0] = math.Inf(1) }}, &Exhaustive{}, nil, "must be finite"},
		{"negative violation", &badProblem{domain: []int{0, 1}, eval: func(x []int, out *Evaluation) { out.Violation = -1 }}, nil, nil, "violation is -1"},
		{"objective count", &badProblem{domain: []int{0, 1}, eval: func(x []int, out *Evaluation) { out.Objectives = nil }}, nil, nil, "0 objectives"},
		{"panic", &badProblem{domain: []int{0, 1}, eval: func(x []int, out *Evaluation) { panic("boom") }}, nil, &Settings{Workers: 2}, "panicked: boom"},
		{"initial genome", &handProblem{}, &NSGA2{Initial: [][]int{{0, 1, 5, 0}}}, nil, "gene 2 takes 5"},
		{"mutation rate", &handProblem{}, &NSGA2{MutationRate: 2}, nil, "mutation rate 2"},
		{"crossover", &handProblem{}, &NSGA2{Crossover: 7}, nil, "unknown crossover"},
		{"max evaluations", &handProblem{}, nil, &Settings{MaxEvaluations: -1}, "MaxEvaluations"},
		{"order", &handProblem{}, &Exhaustive{Order: []int{0, 1, 1, 3}}, nil, "not a permutation"},
		{"values outside", &handProblem{}, &Exhaustive{NewWalker: func() Walker {
			return funcWalker{values: func(_ []int, _ int, dst []int) []int { return append(dst, 3) }}
		}}, nil, "value 3, not one of"},
		{"values twice", &handProblem{}, &Exhaustive{NewWalker: func() Walker {
			return funcWalker{values: func(_ []int, _ int, dst []int) []int { return append(dst, 1, 1) }}
		}}, nil, "value 1 twice"},
	} {
		_, err := Minimize(c.p, c.m, c.s)
		if err == nil || !strings.Contains(err.Error(), c.substr) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.substr)
		}
	}
}

// TestCostBudget checks that Settings.MaxEvaluations bounds the analyses
// that evaluations report as their Cost, not only the genomes: what the
// evaluators spend never exceeds it, the run reports it as Analyses, and
// the run is the same with one worker or four (the allowances are the
// same whatever the split of a batch).
func TestCostBudget(t *testing.T) {
	for _, m := range []Method{&NSGA2{Population: 20}, &Exhaustive{}} {
		var first *Result
		for _, workers := range []int{1, 4} {
			k := newKnapsack(2)
			k.costly = true
			res, err := Minimize(k, m, &Settings{MaxEvaluations: 300, Seed: 3, Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if spent := k.spent.Load(); spent > 300 || int64(res.Analyses) != spent {
				t.Fatalf("%T, %d workers: %d analyses spent, %d reported, bound 300", m, workers, spent, res.Analyses)
			}
			if res.Analyses <= res.Evaluations {
				t.Fatalf("%T: %d analyses for %d evaluations: the costs were not counted", m, res.Analyses, res.Evaluations)
			}
			if res.Status != EvaluationLimit {
				t.Fatalf("%T: status %v, want EvaluationLimit", m, res.Status)
			}
			if first == nil {
				first = res
			} else if first.Analyses != res.Analyses || first.Evaluations != res.Evaluations || !sameGenomes(first.Front, res.Front) {
				t.Fatalf("%T: 1 worker: %d analyses, %d evaluations; 4 workers: %d, %d, or another front", m, first.Analyses, first.Evaluations, res.Analyses, res.Evaluations)
			}
		}
	}
}
