package optimizer

import (
	"fmt"
	"math/rand"
	"sort"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// Exhaustive returns the exact enumeration of the problem's space: every
// distinct mapping once, with interchangeable cores (same kind, frequency
// and memory latencies) treated as one (a task may go to a core of a class
// only if an earlier task uses it or it is the class's first unused core),
// genes that do not matter under the others fixed, and a partial mapping cut
// as soon as it is not schedulable (more tasks only add interference,
// contention and GPU work). The GPU genes come first, so the GPU side is
// fixed before any core is filled; then the CPU tasks, heaviest first, so
// that overloaded cores are cut early. Each worker of the enumeration gets
// its own walker, with its own Evaluator (a clone) for the partial mappings.
func (p *Problem) Exhaustive() *moo.Exhaustive {
	var gpuUnits, gpuKnobs, cpu []int
	for gi, g := range p.genes {
		switch {
		case g.kind == geneUnit && p.e.tasks[g.task].kind == kindGPU:
			gpuUnits = append(gpuUnits, gi)
		case g.kind != geneUnit:
			gpuKnobs = append(gpuKnobs, gi)
		default:
			cpu = append(cpu, gi)
		}
	}
	load := func(gi int) float64 { // the lightest utilisation the task can have
		g := p.genes[gi]
		ti := &p.e.tasks[g.task]
		best := -1.0
		for _, u := range g.values {
			if u >= 0 && u < len(ti.cpu) && ti.cpu[u].ok && ti.period > 0 {
				if v := float64(ti.cpu[u].exec) / float64(ti.period); best < 0 || v < best {
					best = v
				}
			}
		}
		return best
	}
	sort.SliceStable(cpu, func(a, b int) bool { return load(cpu[a]) > load(cpu[b]) })
	order := append(append(append([]int(nil), gpuUnits...), gpuKnobs...), cpu...)
	en := &enumeration{p: p, order: order, gpuUnits: gpuUnits, fixedAt: len(gpuUnits) + len(gpuKnobs)}
	return &moo.Exhaustive{
		Order: order,
		NewWalker: func() moo.Walker {
			e := p.e.Clone()
			return &walker{en: en, e: e, a: e.NewAssignment(), r: e.NewResult(), used: make([]bool, len(p.e.units))}
		},
	}
}

// enumeration is what the walkers of an exhaustive search share: the
// problem and the order of the genes, read only.
type enumeration struct {
	p        *Problem
	order    []int
	gpuUnits []int // the unit genes of the GPU tasks
	fixedAt  int   // the depth at which the GPU side is fixed
}

// walker is the moo.Walker of one worker of the exhaustive search: the
// shared enumeration and its own scratch state.
type walker struct {
	en   *enumeration
	e    *Evaluator // a clone: EvaluatePartial uses its scratch
	a    *Assignment
	r    *Result
	used []bool
}

// onGPU reports whether GPU task gpuIdx runs on the GPU in partial.
func (en *enumeration) onGPU(partial []int, gpuIdx int) bool {
	p := en.p
	for _, gi := range en.gpuUnits {
		if g := p.genes[gi]; g.gpu == gpuIdx {
			return g.values[partial[gi]] == p.e.gpuUnit
		}
	}
	return false
}

// relevant reports whether gene gi matters given the GPU genes of partial:
// the mode, priority and slice of a GPU task and the placement of its
// offloading task matter only when it runs on the GPU.
func (en *enumeration) relevant(partial []int, gi int) bool {
	g := en.p.genes[gi]
	switch {
	case g.kind != geneUnit:
		return en.onGPU(partial, g.gpu)
	case en.p.e.tasks[g.task].kind == kindOffloading:
		return en.onGPU(partial, g.gpu)
	}
	return true
}

// Values implements moo.Walker.
func (w *walker) Values(partial []int, depth int, dst []int) []int {
	en, p := w.en, w.en.p
	gi := en.order[depth]
	g := p.genes[gi]
	if !en.relevant(partial, gi) {
		return append(dst, 0)
	}
	if g.kind != geneUnit {
		for k := range g.values {
			dst = append(dst, k)
		}
		return dst
	}
	used := w.used
	for u := range used {
		used[u] = false
	}
	for _, prev := range en.order[:depth] {
		if pg := p.genes[prev]; pg.kind == geneUnit && en.relevant(partial, prev) {
			used[pg.values[partial[prev]]] = true
		}
	}
	for k, u := range g.values {
		if u == p.e.gpuUnit || used[u] {
			dst = append(dst, k)
			continue
		}
		// The first unused core of its class stands for all of them.
		first := true
		for v := 0; v < u; v++ {
			if p.class[v] == p.class[u] && !used[v] && contains(g.values, v) {
				first = false
				break
			}
		}
		if first {
			dst = append(dst, k)
		}
	}
	return dst
}

// Prune implements moo.Walker: it cuts a partial mapping, once the GPU side
// is fixed, that is not schedulable.
func (w *walker) Prune(partial []int, depth int) bool {
	en, p := w.en, w.en.p
	if depth < en.fixedAt || depth == len(en.order) || !en.relevant(partial, en.order[depth-1]) {
		return false
	}
	a := w.a
	a.CopyFrom(p.base)
	for _, t := range p.genes {
		if t.kind == geneUnit {
			a.Unit[t.task] = NoUnit
		}
	}
	for _, gi := range en.order[:depth] {
		p.setGene(a, gi, partial[gi])
	}
	p.normalise(a)
	if err := w.e.EvaluatePartial(a, w.r); err != nil {
		return false
	}
	return !w.r.Schedulable
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Options are the run-time choices of a search; the zero value takes the
// configuration's search settings.
type Options struct {
	// Algorithm, Seed and Workers override the configuration when set.
	Algorithm string
	Seed      *int64
	Workers   int
	// Progress, if set, is called as the search goes.
	Progress func(moo.Progress)
}

// Point is a mapping of the front with its full evaluation.
type Point struct {
	Mapping    configs.Mapping
	Assignment *Assignment
	Result     *Result // with Chains analysed
	// Objectives are the values minimised, in the objectives' order
	// (chain latencies in ms).
	Objectives []float64
	Violation  float64 // ms; 0 for a feasible point
}

// Outcome is what a search found.
type Outcome struct {
	Search     configs.Search // the settings in force
	Objectives []string       // the objectives' names
	Status     moo.Status
	// Feasible: some mapping meets every deadline. Front is then the
	// Pareto front (exact with the exhaustive algorithm); otherwise
	// LeastViolating lists the mappings that miss the least, and with the
	// exhaustive algorithm that is a proof that no feasible mapping exists.
	Feasible       bool
	Front          []Point
	LeastViolating []Point
	Evaluations    int
	// FeasibleEvaluations counts the evaluations of feasible mappings;
	// with the exhaustive algorithm, the distinct feasible mappings it
	// visited.
	FeasibleEvaluations int
	Pruned              int
	Generations         int
	Wall                time.Duration
	// LeastViolatingBy says which algorithm found LeastViolating: the
	// exhaustive search cuts partial mappings without completing them, so
	// when it proves that none is feasible a short genetic search supplies
	// complete mappings to show.
	LeastViolatingBy string
}

// Run searches the mappings of the evaluator's configuration.
func Run(e *Evaluator, opts Options) (*Outcome, error) {
	s := e.cfg.Search
	if opts.Algorithm != "" {
		s.Algorithm = opts.Algorithm
	}
	if opts.Seed != nil {
		s.Seed = *opts.Seed
	}
	if opts.Workers > 0 {
		s.Workers = opts.Workers
	}
	switch s.Algorithm {
	case "", configs.AlgorithmNSGA2, configs.AlgorithmExhaustive:
	default:
		return nil, fmt.Errorf("unknown algorithm %q (nsga2 or exhaustive)", s.Algorithm)
	}
	p, err := NewProblem(e, s)
	if err != nil {
		return nil, err
	}
	s = p.search
	settings := &moo.Settings{Generations: s.Generations, MaxEvaluations: s.MaxEvaluations, Workers: s.Workers, Seed: s.Seed, Progress: opts.Progress}
	var method moo.Method
	if s.Algorithm == configs.AlgorithmExhaustive {
		method = p.Exhaustive()
	} else {
		nsga := &moo.NSGA2{Population: s.Population, Mutate: p.SwapMutation}
		// Open the population with the model's own mapping, when the search
		// can reach it, and with greedy constructions (half the population;
		// random genomes fill the rest, for diversity). The constructions
		// draw from their own generator, seeded from the search's seed.
		if g, ok := p.genomeOf(e); ok {
			nsga.Initial = [][]int{g}
		}
		rng := rand.New(rand.NewSource(s.Seed))
		nsga.Initial = append(nsga.Initial, p.Construct(rng, s.Population/2)...)
		method = nsga
	}
	start := time.Now()
	res, err := moo.Minimize(p, method, settings)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Search: s, Objectives: p.ObjectiveNames(), Status: res.Status, Feasible: res.Feasible,
		Evaluations: res.Evaluations, FeasibleEvaluations: res.FeasibleEvaluations, Pruned: res.Pruned, Generations: res.Generations}
	for _, pt := range res.Front {
		out.Front = append(out.Front, p.point(pt))
	}
	out.LeastViolatingBy = s.Algorithm
	if !res.Feasible && len(res.LeastViolating) == 0 && s.Algorithm == configs.AlgorithmExhaustive {
		nsga := &moo.NSGA2{Population: s.Population, Mutate: p.SwapMutation}
		short := *settings
		short.Generations, short.Progress = min(s.Generations, 200), nil
		if more, err := moo.Minimize(p, nsga, &short); err == nil {
			res.LeastViolating = more.LeastViolating
			out.LeastViolatingBy = configs.AlgorithmNSGA2
		}
	}
	seen := map[string]bool{}
	for _, pt := range res.LeastViolating {
		q := p.point(pt)
		key := fmt.Sprint(q.Assignment.Unit, q.Assignment.Async, q.Assignment.High, q.Assignment.Slice)
		if !seen[key] {
			seen[key] = true
			out.LeastViolating = append(out.LeastViolating, q)
		}
	}
	out.Wall = time.Since(start)
	return out, nil
}

// point re-evaluates a genome of the result in full, chains included.
func (p *Problem) point(pt moo.Point) Point {
	e := p.e
	a := e.NewAssignment()
	p.Decode(pt.Genome, a)
	r := e.NewResult()
	if err := e.Evaluate(a, r); err != nil {
		panic(fmt.Sprintf("optimizer: re-evaluating a front point: %v", err))
	}
	e.AnalyzeChains(r)
	return Point{Mapping: e.Mapping(a), Assignment: a, Result: r,
		Objectives: append([]float64(nil), pt.Objectives...), Violation: pt.Violation}
}

// genomeOf encodes the model's own mapping, if every gene can take its value.
func (p *Problem) genomeOf(e *Evaluator) ([]int, bool) {
	a, err := e.DefaultAssignment()
	if err != nil {
		return nil, false
	}
	g := make([]int, len(p.genes))
	for gi, gn := range p.genes {
		var v int
		switch gn.kind {
		case geneUnit:
			v = a.Unit[gn.task]
			if v == NoUnit { // a merged offloading task: any value will do
				g[gi] = 0
				continue
			}
		case geneMode:
			v = b2i(a.Async[gn.gpu])
		case genePriority:
			v = b2i(a.High[gn.gpu])
		case geneSlice:
			v = sort.Search(len(p.slices), func(k int) bool { return p.slices[k] >= a.Slice[gn.gpu] })
		}
		k := -1
		for i, x := range gn.values {
			if x == v {
				k = i
			}
		}
		if k < 0 {
			return nil, false
		}
		g[gi] = k
	}
	return g, true
}

// SwapMutation is the mapping-specific mutation of the genetic search: with
// probability one half it exchanges the units of two tasks that can each run
// on the other's unit. Per-gene mutation moves one task at a time, and on a
// platform as full as the TX2 a task often fits only where another one
// leaves (Planner needs a Denver core held by a lighter task): the swap
// makes that move in one step.
func (p *Problem) SwapMutation(genome []int, rng *rand.Rand) {
	if rng.Intn(2) == 0 {
		return
	}
	n := len(p.e.tasks) // the unit genes come first, one per task
	i, j := rng.Intn(n), rng.Intn(n)
	if i == j {
		return
	}
	gi, gj := &p.genes[i], &p.genes[j]
	ui, uj := gi.values[genome[i]], gj.values[genome[j]]
	ki, kj := indexOf(gi.values, uj), indexOf(gj.values, ui)
	if ui == uj || ki < 0 || kj < 0 {
		return
	}
	genome[i], genome[j] = ki, kj
}

func indexOf(list []int, v int) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}

// Construct builds n genomes by randomised depth-first construction, to
// open the genetic search's population: it assigns the genes in the
// exhaustive search's order (the GPU side first, then the tasks, heaviest
// first), trying each gene's values in random order and backtracking when a
// partial mapping is not schedulable, within a budget of constructionBudget
// steps per genome (then the rest is filled at random). On a platform as
// full as the TX2 random genomes are almost never feasible; these usually
// are, and the search then works on the objectives.
func (p *Problem) Construct(rng *rand.Rand, n int) [][]int {
	ex := p.Exhaustive()
	walk := ex.NewWalker()
	a, r := p.e.NewAssignment(), p.e.NewResult()
	feasible := func(g []int) bool {
		p.Decode(g, a)
		return p.e.Evaluate(a, r) == nil && r.Schedulable
	}
	var out [][]int
	for len(out) < n {
		g := make([]int, len(p.genes))
		budget := constructionBudget
		var dive func(depth int) bool
		dive = func(depth int) bool {
			if depth == len(ex.Order) {
				return feasible(g)
			}
			gi := ex.Order[depth]
			vals := walk.Values(g, depth, nil)
			rng.Shuffle(len(vals), func(a, b int) { vals[a], vals[b] = vals[b], vals[a] })
			for _, v := range vals {
				if budget--; budget < 0 {
					return false
				}
				g[gi] = v
				if !walk.Prune(g, depth+1) && dive(depth+1) {
					return true
				}
			}
			return false
		}
		if !dive(0) {
			for gi := range g {
				g[gi] = rng.Intn(len(p.genes[gi].values))
			}
		}
		out = append(out, g)
	}
	return out
}

// constructionBudget bounds the values Construct tries for one genome.
const constructionBudget = 2000

// ReferencePoint is the reference point hetmap uses for hypervolumes: 10 %
// beyond the worst value of every objective over the given front (1 beyond
// where that value is 0), so that every point of the front contributes.
func ReferencePoint(front [][]float64) []float64 {
	if len(front) == 0 {
		return nil
	}
	ref := make([]float64, len(front[0]))
	for k := range ref {
		for _, p := range front {
			ref[k] = max(ref[k], p[k])
		}
		if ref[k] == 0 {
			ref[k] = 1
		} else {
			ref[k] *= 1.1
		}
	}
	return ref
}
