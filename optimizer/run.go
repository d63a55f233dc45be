package optimizer

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/rta"
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
	en := &enumeration{p: p, order: order, knobsAt: len(gpuUnits), fixedAt: len(gpuUnits) + len(gpuKnobs)}
	return &moo.Exhaustive{
		Order: order,
		NewWalker: func() moo.Walker {
			e := p.e.Clone()
			e.SetLimit(rta.LimitDeadline) // a cut needs only the verdicts
			return &walker{en: en, e: e, a: e.NewAssignment(), r: e.NewResult(), used: make([]bool, len(p.e.units))}
		},
	}
}

// enumeration is what the walkers of an exhaustive search share: the
// problem and the order of the genes, read only.
type enumeration struct {
	p       *Problem
	order   []int
	knobsAt int // the depth of the GPU's first knob (mode, stream priority, slice), if any
	fixedAt int // the depth at which the GPU side is fixed: of the first CPU task
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

// relevant reports whether gene gi matters given the GPU genes of partial:
// the mode, priority and slice of a GPU task and the placement of its
// offloading task matter only when it runs on the GPU.
func (en *enumeration) relevant(partial []int, gi int) bool {
	g := en.p.genes[gi]
	switch {
	case g.kind != geneUnit:
		return en.p.onGPU(partial, g.gpu)
	case en.p.e.tasks[g.task].kind == kindOffloading:
		return en.p.onGPU(partial, g.gpu)
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
	p.partialAssignment(w.a, partial, en.order[:depth])
	if err := w.e.EvaluatePartial(w.a, w.r); err != nil {
		return false
	}
	// A core whose priority search stopped undecided is not proven
	// unschedulable: nothing is cut on its account. A missed chain latency
	// requirement cuts nothing either: the latency depends on the priority
	// orders, which a completion may choose otherwise (only the deadlines
	// are decided over every order).
	return !w.r.Schedulable && w.r.Undecided == 0
}

// partialAssignment writes into a the partial mapping of the genes in
// assigned, with the values g gives them: the configuration's mapping with
// every task whose unit is a gene unplaced, then those genes set.
func (p *Problem) partialAssignment(a *Assignment, g, assigned []int) {
	a.CopyFrom(p.base)
	for _, t := range p.genes {
		if t.kind == geneUnit {
			a.Unit[t.task] = NoUnit
		}
	}
	for _, gi := range assigned {
		p.setGene(a, gi, g[gi])
	}
	p.normalise(a)
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
	// Algorithm, Seed and Workers override the configuration when set
	// (Workers when positive; a negative Workers is an error).
	Algorithm string
	Seed      *int64
	Workers   int
	// Progress, if set, is called as the search goes (see moo.Settings),
	// and through the stages around it, whose reports name them in
	// moo.Progress.Stage (StageChoose, StageConstruct, moo.StageEstimate,
	// StageFront). The stages' reports may come from other goroutines than
	// Run's, but one call at a time.
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
	// Status says why the search stopped; moo.Interrupted when its context
	// ended it, and then Front (or LeastViolating) is what it had found.
	Status moo.Status
	// Feasible: some mapping meets every deadline. Front is then the
	// Pareto front (exact where Proof says so); otherwise LeastViolating
	// lists the mappings that miss the least, and where Proof is Exact
	// that is a proof that no feasible mapping exists.
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

	// FeasibleMappings is the number of distinct feasible mappings the
	// search met (up to interchangeable cores; priorities derived). For a
	// complete exhaustive search it is the number that exist.
	FeasibleMappings int
	// ConstructionEvaluations is the part of Evaluations that the genetic
	// search's initial constructions spent (complete and partial mappings
	// analysed); they count in the evaluation budget too.
	ConstructionEvaluations int
	// Variants is the number of priority-order variants of feasible
	// mappings evaluated (variants.go); VariantsIncomplete the number of
	// feasible mappings whose variants were not all enumerated (a core of
	// more than 8 tasks, or a limit).
	Variants, VariantsIncomplete int
	// Undecided is the number of evaluations in which a core's exact
	// priority search stopped undecided (rta.Analyzer.Decided).
	Undecided int
	// Proof says what the front is proven to be (exact, not exact and
	// why, heuristic, interrupted): the one statement every writer
	// renders.
	Proof Proof
	// undecided describes the mappings the exhaustive search left
	// undecided (decide), sorted.
	undecided []string
	// AlgorithmChoice says, when the configuration left the algorithm to
	// auto, which one ran and why.
	AlgorithmChoice string
}

// Interrupted reports whether the search's context ended it before its
// own criteria did.
func (o *Outcome) Interrupted() bool { return o.Status == moo.Interrupted }

// Exact reports whether the front is proven exact (Proof).
func (o *Outcome) Exact() bool { return o.Proof.Exactness == Exact }

// proof states what the run proved: a genetic search nothing, an
// interrupted one nothing; a complete exhaustive search an exact front
// unless something stayed undecided, which the reasons name.
func (p *Problem) proof(e *Evaluator, st moo.Status, out *Outcome) Proof {
	pr := Proof{Algorithm: p.search.Algorithm}
	switch {
	case st == moo.Interrupted:
		pr.Exactness = Stopped
		return pr
	case p.search.Algorithm != configs.AlgorithmExhaustive:
		pr.Exactness = Heuristic
		return pr
	case st != moo.Exhausted:
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("the enumeration stopped at search.max_evaluations (%d) before its end, so the mappings it did not reach are undecided", p.search.MaxEvaluations))
	}
	if n := len(out.undecided); n > 0 {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("%d mapping(s) stay undecided: they miss a deadline under their derived priorities, and more combinations of the cores' priority orders pass the relaxed test than search.max_joint_orders (%d) allows, or a core has more than %d tasks", n, p.search.MaxJointOrders, maxVariantTasks))
		pr.UndecidedCount = n
		pr.Undecided = out.undecided[:min(n, maxNamedUndecided)]
	}
	if out.VariantsIncomplete > 0 {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("%d feasible mapping(s) have a core of more than %d tasks or more priority orders than search.max_joint_orders (%d) allows, so not every order that can change an objective was tried", out.VariantsIncomplete, maxVariantTasks, p.search.MaxJointOrders))
	}
	if e.activated {
		// JointOrders varies the activators' orders too, but no brute-force
		// test checks the claim for activated tasks (activation.go).
		pr.Reasons = append(pr.Reasons, "tasks activated by tasks of other cores couple the cores' priority orders, and the joint search over them is not checked against brute force")
	}
	pr.Exactness = Exact
	if len(pr.Reasons) > 0 {
		pr.Exactness = NotExact
	}
	return pr
}

// leastViolatingShown is how many least-violating mappings an Outcome
// lists; the search keeps leastViolatingKept, since several genomes can
// decode to one mapping.
const (
	leastViolatingShown = 10
	leastViolatingKept  = 50
)

// Check reports what Run would refuse in the options and the search
// settings before any search starts (an unknown algorithm, a negative
// number of workers, a search with nothing to minimise), so that a caller
// can fail before it creates anything.
func Check(e *Evaluator, opts Options) error {
	_, err := problemOf(e, opts)
	return err
}

// problemOf applies the options to the configuration's search settings
// and builds the search problem.
func problemOf(e *Evaluator, opts Options) (*Problem, error) {
	s := e.cfg.Search
	if opts.Algorithm != "" {
		s.Algorithm = opts.Algorithm
	}
	if opts.Seed != nil {
		s.Seed = *opts.Seed
	}
	switch {
	case opts.Workers > 0:
		s.Workers = opts.Workers
	case opts.Workers < 0:
		return nil, fmt.Errorf("workers: must not be negative, got %d", opts.Workers)
	}
	switch s.Algorithm {
	case "", configs.AlgorithmAuto, configs.AlgorithmNSGA2, configs.AlgorithmExhaustive:
	default:
		return nil, fmt.Errorf("unknown algorithm %q (auto, nsga2 or exhaustive)", s.Algorithm)
	}
	return NewProblem(e, s)
}

// MaxMarginPoints bounds the front points whose margin Run computes
// (Point.Result.Margins; nil for the points after): at a few hundred
// microseconds per evaluation on a system of 250 tasks, 500 margins take
// seconds. hetmap analyze computes any point's.
const MaxMarginPoints = 500

// AutoExhaustiveNodes is the size, in nodes the enumeration examines
// (offered values, cut or not), up to which the auto algorithm chooses the
// exhaustive search: on the WATERS problems a node costs a few
// microseconds, so this is a few seconds of search.
const AutoExhaustiveNodes = 500_000

// chooseAlgorithm decides an auto search: the exhaustive search when
// Knuth's estimate of its size (moo.Exhaustive.EstimateUpTo, drawn from
// the search's seed) is at most AutoExhaustiveNodes, NSGA-II otherwise; it
// records the choice and why in p.search and p.choice. It does nothing
// unless the algorithm is auto. The estimate stops as soon as it is sure
// to exceed AutoExhaustiveNodes, so that it costs little however large
// the space (a 250-task system took 53 s to be estimated in full at
// 10^191 nodes).
func (p *Problem) chooseAlgorithm() {
	if p.search.Algorithm != configs.AlgorithmAuto {
		return
	}
	est, over, err := p.Exhaustive().EstimateUpTo(p, rand.New(rand.NewSource(p.search.Seed)), AutoExhaustiveNodes)
	switch {
	case err != nil:
		p.setAlgorithm(configs.AlgorithmNSGA2)
		p.choice = fmt.Sprintf("auto: NSGA-II (the size of the exhaustive search could not be estimated: %v)", err)
	case !over && est <= AutoExhaustiveNodes:
		p.setAlgorithm(configs.AlgorithmExhaustive)
		p.choice = fmt.Sprintf("auto: the exhaustive search, estimated at %s nodes (at most %s)", countWords(est), countWords(AutoExhaustiveNodes))
	default:
		p.setAlgorithm(configs.AlgorithmNSGA2)
		p.choice = fmt.Sprintf("auto: NSGA-II, since the exhaustive search is estimated at more than %s nodes; --algorithm exhaustive runs it anyway", countWords(AutoExhaustiveNodes))
	}
}

// countWords writes a count for people: 4 100, 3.2 million, 12.5
// billion; from 10^12 on the power of ten ("about 10^14"), and from
// moo.MaxEstimate on "more than 10^18".
func countWords(v float64) string {
	switch {
	case v >= moo.MaxEstimate:
		return fmt.Sprintf("more than 10^%d", int(math.Round(math.Log10(moo.MaxEstimate))))
	case v >= 1e12:
		return fmt.Sprintf("about 10^%d", int(math.Floor(math.Log10(v))))
	case v >= 1e9:
		return strconv.FormatFloat(v/1e9, 'f', 1, 64) + " billion"
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + " million"
	case v >= 1e4:
		return strconv.FormatFloat(math.Round(v/1e3), 'f', 0, 64) + " thousand"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

// The stages of Run other than the search, as moo.Progress.Stage names
// them.
const (
	StageChoose    = "estimating the size of the exhaustive search, to choose the algorithm"
	StageConstruct = "building the initial population"
	StageFront     = "analysing the front's mappings in full"
)

// Run searches the mappings of the evaluator's configuration. The search
// stops early when ctx is done (cancelled, or past its deadline): Run then
// returns, without error, what it found so far, with Status
// moo.Interrupted (see moo.Settings.Context for how soon each algorithm
// notices).
func Run(ctx context.Context, e *Evaluator, opts Options) (*Outcome, error) {
	p, err := problemOf(e, opts)
	if err != nil {
		return nil, err
	}
	p.stop = func() bool { return ctx.Err() != nil }
	stage := func(name string, step, steps int, since time.Time) {
		if opts.Progress != nil {
			opts.Progress(moo.Progress{Stage: name, Step: step, Steps: steps, Elapsed: time.Since(since)})
		}
	}
	if p.search.Algorithm == configs.AlgorithmAuto {
		stage(StageChoose, 0, 0, time.Now())
	}
	p.chooseAlgorithm()
	s := p.search
	settings := &moo.Settings{Generations: s.Generations, MaxEvaluations: s.MaxEvaluations, Workers: s.Workers, Seed: s.Seed,
		Progress: opts.Progress, Context: ctx, KeepInfeasible: leastViolatingKept}
	start := time.Now()
	var method moo.Method
	constructed := 0
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
		// The constructions take at most half of an evaluation budget,
		// and run on the search's workers.
		workers := s.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		var genomes [][]int
		began := time.Now()
		stage(StageConstruct, 0, s.Population/2, began)
		var built atomic.Int64
		genomes, constructed = p.construct(ctx, rng, s.Population/2, s.MaxEvaluations/2, workers, func() {
			stage(StageConstruct, int(built.Add(1)), s.Population/2, began)
		})
		nsga.Initial = append(nsga.Initial, genomes...)
		if settings.MaxEvaluations > 0 {
			settings.MaxEvaluations = max(1, settings.MaxEvaluations-constructed)
		}
		method = nsga
	}
	p.mu.Lock()
	p.workers = nil
	p.mu.Unlock()
	res, err := moo.Minimize(p, method, settings)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Search: s, AlgorithmChoice: p.choice, Objectives: p.ObjectiveNames(), Status: res.Status, Feasible: res.Feasible,
		Evaluations: res.Evaluations + constructed, ConstructionEvaluations: constructed, FeasibleEvaluations: res.FeasibleEvaluations, Pruned: res.Pruned, Generations: res.Generations}
	out.Front = p.front(res.Front, out, s.Workers, func(done, total int, since time.Time) { stage(StageFront, done, total, since) })
	if err := p.frontMargins(ctx, out.Front[:min(len(out.Front), MaxMarginPoints)], s.Workers); err != nil {
		return nil, err
	}
	out.Proof = p.proof(e, res.Status, out)
	out.LeastViolatingBy = s.Algorithm
	if !res.Feasible && len(res.LeastViolating) == 0 && s.Algorithm == configs.AlgorithmExhaustive && ctx.Err() == nil {
		nsga := &moo.NSGA2{Population: s.Population, Mutate: p.SwapMutation}
		short := *settings
		short.Generations, short.Progress = min(s.Generations, 200), nil
		if more, err := moo.Minimize(p, nsga, &short); err == nil {
			res.LeastViolating = more.LeastViolating
			out.LeastViolatingBy = configs.AlgorithmNSGA2
		}
	}
	out.LeastViolating = p.distinctLeastViolating(res.LeastViolating)
	out.Wall = time.Since(start)
	return out, nil
}

// front merges the search's front (derived priorities) with the workers'
// priority-order variants into the front over mappings and orders, and
// gathers the workers' counts into out. Of points with equal objectives the
// one with derived priorities is kept, then the one whose genome and
// priorities come first, so the front does not depend on the number of
// workers or the order in which they met the mappings. The points are
// analysed in full on workers goroutines (0: GOMAXPROCS), each with a
// clone of the evaluator; report, if not nil, is called with the points
// done and their number, from one goroutine at a time.
func (p *Problem) front(found []moo.Point, out *Outcome, workers int, report func(done, total int, since time.Time)) []Point {
	type cand struct {
		pt      moo.Point
		variant *sidePoint
	}
	var cands []cand
	for _, pt := range found {
		cands = append(cands, cand{pt: pt})
	}
	// Workers may meet the same mapping; what they learn of it is the
	// same (mappingSeen), so each mapping counts once.
	seen := map[uint64]mappingSeen{}
	open := map[uint64]string{}
	p.mu.Lock()
	for _, w := range p.workers {
		for k, m := range w.feasible {
			seen[k] = m
		}
		out.Undecided += w.undecided
		for k, d := range w.open {
			open[k] = d
		}
		for k := range w.side {
			cands = append(cands, cand{variant: &w.side[k]})
		}
	}
	p.mu.Unlock()
	out.undecided = out.undecided[:0]
	for _, d := range open {
		out.undecided = append(out.undecided, d)
	}
	slices.Sort(out.undecided)
	for _, m := range seen {
		if m.feasible {
			out.FeasibleMappings++
		}
		out.Variants += int(m.variants)
		if m.incomplete {
			out.VariantsIncomplete++
		}
	}
	obj := func(c cand) []float64 {
		if c.variant != nil {
			return c.variant.obj
		}
		return c.pt.Objectives
	}
	// The search's own points first, in its order; then the variants by key.
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.variant == nil && b.variant == nil:
			return 0
		case a.variant == nil:
			return -1
		case b.variant == nil:
			return 1
		}
		return slices.Compare(a.variant.key, b.variant.key)
	})
	var kept []cand
	for i, c := range cands {
		keep := true
		for j, d := range cands {
			if i == j || !weaklyDominates(obj(d), obj(c)) {
				continue
			}
			if !slices.Equal(obj(d), obj(c)) || j < i {
				keep = false
				break
			}
		}
		if keep {
			kept = append(kept, c)
		}
	}
	points := make([]Point, len(kept))
	began := time.Now()
	if report != nil {
		report(0, len(kept), began)
	}
	var mu sync.Mutex
	done := 0
	onWorkers(workers, len(kept), p.e.Clone, nil, func(e *Evaluator, i int) {
		if c := kept[i]; c.variant == nil {
			points[i] = p.pointWith(e, c.pt)
		} else {
			points[i] = p.variantPoint(e, c.variant)
		}
		if report != nil {
			mu.Lock()
			done++
			report(done, len(kept), began)
			mu.Unlock()
		}
	})
	slices.SortStableFunc(points, func(a, b Point) int { return slices.Compare(a.Objectives, b.Objectives) })
	return points
}

// frontMargins computes the margin on execution demand of the points (each
// a bisection: about a dozen evaluations) on the search's workers, each
// with its own evaluator; a margin does not depend on which one computes
// it. Once ctx is done (an interrupted run, which must end promptly) it
// computes no more.
func (p *Problem) frontMargins(ctx context.Context, points []Point, workers int) error {
	errs := make([]error, len(points))
	onWorkers(workers, len(points), p.e.Clone, func() bool { return ctx.Err() != nil }, func(e *Evaluator, i int) {
		errs[i] = e.AnalyzeMargins(points[i].Assignment, points[i].Result, MarginOptions{OnlyExecutionScale: true})
	})
	return errors.Join(errs...)
}

// variantPoint evaluates a priority-order variant in full with e (the
// problem's evaluator or a clone), chains included.
func (p *Problem) variantPoint(e *Evaluator, v *sidePoint) Point {
	a := v.a.Clone()
	r := e.NewResult()
	if err := e.Evaluate(a, r); err != nil {
		panic(fmt.Sprintf("optimizer: re-evaluating a priority variant: %v", err))
	}
	e.AnalyzeChains(r)
	if err := e.AnalyzeContention(r); err != nil {
		panic(fmt.Sprintf("optimizer: the contention of a priority variant: %v", err))
	}
	return Point{Mapping: e.Mapping(a), Assignment: a, Result: r, Objectives: slices.Clone(v.obj)}
}

// distinctLeastViolating evaluates the least-violating genomes in full and
// keeps the leastViolatingShown best distinct mappings (several genomes can
// decode to one mapping), ranked by violation, then the utilisation of the
// most loaded core, then the number of tasks that miss, then the mapping.
func (p *Problem) distinctLeastViolating(pts []moo.Point) []Point {
	type ranked struct {
		pt  Point
		key string
	}
	var all []ranked
	seen := map[string]bool{}
	for _, pt := range pts {
		q := p.point(pt)
		data, err := json.Marshal(q.Mapping)
		if err != nil {
			panic(fmt.Sprintf("optimizer: encoding a mapping: %v", err))
		}
		key := string(data)
		if !seen[key] {
			seen[key] = true
			all = append(all, ranked{q, key})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.pt.Violation, b.pt.Violation),
			cmp.Compare(a.pt.Result.maxCoreUtilisation(), b.pt.Result.maxCoreUtilisation()),
			cmp.Compare(a.pt.Result.Misses, b.pt.Result.Misses))
	})
	var out []Point
	for _, r := range all[:min(len(all), leastViolatingShown)] {
		out = append(out, r.pt)
	}
	return out
}

// point re-evaluates a genome of the result in full, chains included.
func (p *Problem) point(pt moo.Point) Point { return p.pointWith(p.e, pt) }

// pointWith is point with the evaluator e (the problem's or a clone).
func (p *Problem) pointWith(e *Evaluator, pt moo.Point) Point {
	a := e.NewAssignment()
	p.Decode(pt.Genome, a)
	r := e.NewResult()
	if err := e.Evaluate(a, r); err != nil {
		panic(fmt.Sprintf("optimizer: re-evaluating a front point: %v", err))
	}
	e.AnalyzeChains(r)
	if err := e.AnalyzeContention(r); err != nil {
		panic(fmt.Sprintf("optimizer: the contention of a front point: %v", err))
	}
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
//
// A time slice (timeslice model) is also moved by a small step: with
// probability one half one slice gene moves one to three steps of
// analysis.time_slice_step up or down. The feasible slices form narrow
// bands (a slice long enough for its own kernel, short enough for the
// others'), which the per-gene mutation's uniform jumps rarely hit again
// once a genome is in one.
func (p *Problem) SwapMutation(genome []int, rng *rand.Rand) {
	if len(p.sliceGenes) > 0 && rng.Intn(2) == 0 {
		gi := p.sliceGenes[rng.Intn(len(p.sliceGenes))]
		if n := len(p.genes[gi].values); n > 1 {
			step := 1 + rng.Intn(3)
			if rng.Intn(2) == 0 {
				step = -step
			}
			genome[gi] = min(max(genome[gi]+step, 0), n-1)
		}
	}
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
//
// Every genome draws from its own generator, seeded from rng before any is
// built, so the genomes do not depend on how many workers build them.
func (p *Problem) Construct(rng *rand.Rand, n int) [][]int {
	g, _ := p.construct(context.Background(), rng, n, 0, 1, nil)
	return g
}

// construct is Construct on workers goroutines that stops constructing
// once ctx is done (looked at before every analysis) or the constructions
// have cost maxAnalyses analyses (0: no limit), filling the remaining
// genomes at random; it also returns how many mappings, complete and
// partial, they analysed. built, if not nil, is called as each genome of
// the parallel pass is built, from the goroutine that built it, one call
// at a time.
//
// The budget is spent as by one worker building the genomes in order: each
// may spend what the genomes before it left, and a slice descent costs only
// the first genome that uses it. The workers build the genomes in
// parallel, each with the whole budget; then, in order, a genome that cost
// more than was left (or that the whole budget may have cut) is built
// again within what was left (the same steps, cut where the budget ends),
// and every later one is filled at random. A descent's cost is what it
// took whoever ran it, so that no count depends on the workers.
func (p *Problem) construct(ctx context.Context, rng *rand.Rand, n, maxAnalyses, workers int, built func()) ([][]int, int) {
	if n <= 0 {
		return nil, 0
	}
	ex := p.Exhaustive()
	memo := &sliceMemo{lines: descentLines, seed: rng.Int63(), m: map[string]*descent{}}
	if maxAnalyses > 0 {
		memo.lines = 1
	}
	seeds := make([]int64, n)
	for i := range seeds {
		seeds[i] = rng.Int63()
	}
	made := make([]construction, n)
	var mu sync.Mutex
	done := make([]bool, n)
	prefix, prefixCost := 0, 0 // the genomes 0..prefix-1 are built; their cost
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Go(func() {
			b := p.newBuilder(ex, memo)
			for {
				i := int(next.Add(1) - 1)
				mu.Lock()
				over := maxAnalyses > 0 && prefixCost >= maxAnalyses
				mu.Unlock()
				if i >= n || over {
					return
				}
				c := b.genome(ctx, i, seeds[i], maxAnalyses, nil)
				mu.Lock()
				made[i], done[i] = c, true
				for prefix < n && done[prefix] {
					prefixCost += made[prefix].cost
					prefix++
				}
				if built != nil {
					built()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// In order: each genome spends what those before it left, a descent
	// costing only the first genome that uses it.
	b := p.newBuilder(ex, memo)
	left, total := maxAnalyses, 0
	paid := map[*descent]bool{}
	for i := range made {
		switch {
		case maxAnalyses == 0:
		case left <= 0:
			made[i] = b.genome(ctx, i, seeds[i], -1, paid)
		case !done[i] || made[i].cost >= maxAnalyses || made[i].costBesides(paid) > left:
			// Not built, or perhaps cut by the budget, or over what is
			// left: build it again within what is left.
			made[i] = b.genome(ctx, i, seeds[i], left, paid)
		}
		c := made[i].costBesides(paid)
		left -= c
		total += c
		for _, d := range made[i].descents {
			paid[d] = true
		}
	}
	out := make([][]int, n)
	for i := range made {
		out[i] = made[i].genes
	}
	return out, total
}

// construction is a genome built by builder.genome, with what it cost.
type construction struct {
	genes []int
	// own counts the analyses but those of slice descents, which descents
	// lists (each once); cost is own plus the costs of the descents that
	// were not paid for when it was built.
	own, cost int
	descents  []*descent
}

// costBesides returns what c costs besides the descents paid.
func (c *construction) costBesides(paid map[*descent]bool) int {
	cost := c.own
	for _, d := range c.descents {
		if !paid[d] {
			cost += d.cost
		}
	}
	return cost
}

// builder is the state of one goroutine of construct: the exhaustive
// search's order, the shared memo of slice descents, and its own
// evaluators (a clone for complete mappings and the slice descents, a
// walker's for the cuts).
type builder struct {
	p    *Problem
	ex   *moo.Exhaustive
	memo *sliceMemo
	walk *walker
	e    *Evaluator
	a    *Assignment
	r    *Result
}

func (p *Problem) newBuilder(ex *moo.Exhaustive, memo *sliceMemo) *builder {
	e := p.e.Clone()
	e.stop = p.stop
	return &builder{p: p, ex: ex, memo: memo, walk: ex.NewWalker().(*walker), e: e, a: e.NewAssignment(), r: e.NewResult()}
}

// analyses counts the mappings, complete and partial, b has analysed.
func (b *builder) analyses() int { return b.e.analyses + b.walk.e.analyses }

// genome builds a genome from its seed, at a cost of at most
// maxAnalyses analyses (0: no limit, negative: none, the genome is filled
// at random), a slice descent costing the analyses it took, whoever ran
// it, unless it is in paid. line is the genome's number, which picks its
// slice descents (descentLines).
func (b *builder) genome(ctx context.Context, line int, seed int64, maxAnalyses int, paid map[*descent]bool) construction {
	p, ex, walk := b.p, b.ex, b.walk
	// The GPU's knobs (offloading modes, stream priorities, slices) sit
	// between the GPU tasks' units and the CPU tasks in the order.
	knobs, fixedAt := walk.en.knobsAt, walk.en.fixedAt
	rng := rand.New(rand.NewSource(seed))
	start := b.analyses()
	var c construction
	ran := 0 // the analyses of the descents b ran for this genome
	cost := func() int {
		c.own = b.analyses() - start - ran
		return c.costBesides(paid)
	}
	spent := func() bool {
		return maxAnalyses < 0 || maxAnalyses > 0 && cost() >= maxAnalyses || ctx.Err() != nil
	}
	feasible := func(g []int) bool {
		p.Decode(g, b.a)
		return b.e.Evaluate(b.a, b.r) == nil && b.r.Schedulable && b.r.RequirementsMet
	}
	g := make([]int, len(p.genes))
	var budget int
	var dive func(depth int) bool
	dive = func(depth int) bool {
		if depth == len(ex.Order) {
			return feasible(g)
		}
		if spent() {
			return false
		}
		if depth == knobs && len(p.sliceGenes) > 0 && knobs < fixedAt {
			// Time slices: their feasible values form narrow bands that
			// depend on each other, which a value-by-value search seldom
			// finds. Set every knob at once, the slices by coordinate
			// descent on the GPU side, a few times from random starts.
			for try := 0; try < 4; try++ {
				if budget -= 10; budget < 0 {
					return false
				}
				for d := knobs; d < fixedAt; d++ {
					vals := walk.Values(g, d, nil)
					g[ex.Order[d]] = vals[rng.Intn(len(vals))]
				}
				// The descent depends only on the GPU side, which the
				// constructions meet again and again: it runs once per
				// GPU side, shared by the workers.
				if spent() {
					return false
				}
				d, cost := b.descend(g, line)
				ran += cost
				if !slices.Contains(c.descents, d) {
					c.descents = append(c.descents, d)
				}
				if !walk.Prune(g, fixedAt) && dive(fixedAt) {
					return true
				}
			}
			return false
		}
		gi := ex.Order[depth]
		vals := walk.Values(g, depth, nil)
		rng.Shuffle(len(vals), func(a, b int) { vals[a], vals[b] = vals[b], vals[a] })
		for _, v := range vals {
			if budget--; budget < 0 || ctx.Err() != nil {
				return false
			}
			g[gi] = v
			if !walk.Prune(g, depth+1) && dive(depth+1) {
				return true
			}
		}
		return false
	}
	// Randomised restarts: a depth-first search that went wrong near the
	// root (a GPU side no core placement can complete) seldom recovers
	// within its budget, while a fresh random order often succeeds at once
	// (the heavy tail of backtracking search; Gomes, Selman and Kautz,
	// "Boosting combinatorial search through randomization", AAAI 1998).
	found := false
	for try := 0; try < constructionRestarts && !found && ctx.Err() == nil && !spent(); try++ {
		budget = constructionBudget / constructionRestarts
		found = dive(0)
	}
	if !found {
		for gi := range g {
			g[gi] = rng.Intn(len(p.genes[gi].values))
		}
	}
	c.genes, c.cost = g, cost()
	return c
}

// sliceMemo is the constructions' shared memo of slice descents, lines of
// them per GPU side (the genes before the CPU tasks, but the slices).
type sliceMemo struct {
	lines int   // descents per GPU side
	seed  int64 // the descents' starts derive from it, the line and the GPU side
	mu    sync.Mutex
	m     map[string]*descent
}

// descent is one slice descent: its result and what it cost.
type descent struct {
	once   sync.Once
	slices []int
	cost   int // analyses
}

// descend sets the slice genes of g by the descent of g's GPU side in the
// given line, which it runs unless some builder already has. The descent
// starts from slices drawn from the memo's seed, the line and the GPU side,
// and is never cut short, so that its result and cost depend on those
// only, whoever runs it.
// descend returns the descent and the analyses b ran for it (0 if another
// builder ran it).
func (b *builder) descend(g []int, line int) (*descent, int) {
	p, order := b.p, b.ex.Order[:b.walk.en.fixedAt]
	key := strconv.Itoa(line%b.memo.lines) + ": " + p.gpuSideKey(g, order)
	b.memo.mu.Lock()
	d, ok := b.memo.m[key]
	if !ok {
		d = &descent{}
		b.memo.m[key] = d
	}
	b.memo.mu.Unlock()
	ran := 0
	d.once.Do(func() {
		h := fnv.New64a()
		h.Write([]byte(key))
		rng := rand.New(rand.NewSource(b.memo.seed ^ int64(h.Sum64()>>1)))
		for _, gi := range p.sliceGenes {
			g[gi] = rng.Intn(len(p.genes[gi].values))
		}
		before := b.analyses()
		p.descendSlices(b.e, g, order, b.a, b.r)
		d.cost = b.analyses() - before
		ran = d.cost
		d.slices = make([]int, len(p.sliceGenes))
		for k, gi := range p.sliceGenes {
			d.slices[k] = g[gi]
		}
	})
	for k, gi := range p.sliceGenes {
		g[gi] = d.slices[k]
	}
	return d, ran
}

// descentLines is the number of slice descents run per GPU side: genome i
// of the constructions uses descent i mod descentLines, so that genomes
// with the same GPU side need not share their slices. Under an evaluation
// budget the constructions use one (the second costs analyses the dives
// need). Measured on configs/examples/waters-timeslice.yaml, seeds 1–30,
// runs that found a feasible mapping: 5 generations without a budget, 29
// with two lines, 24 with one; a budget of 60 000 evaluations, 11 with
// two, 22 with one (one shared memo, before the constructions ran on the
// workers: 26 and 23).
const descentLines = 2

// descendSlices sets the free slice genes of g (the genes of order
// assigned, the rest unplaced) by coordinate descent: each in turn takes
// the value under which the GPU side looks most feasible, the largest ratio
// of a GPU task's response to its deadline being smallest (ties: the
// current value stays), searched coarse to fine, two rounds over all of
// them. It is a heuristic for the construction only; the search itself
// explores every slice.
func (p *Problem) descendSlices(e *Evaluator, g, order []int, a *Assignment, r *Result) {
	for round := 0; round < 2; round++ {
		for _, gi := range p.sliceGenes {
			if !p.onGPU(g, p.genes[gi].gpu) {
				continue // the task runs on a core: its slice does not matter
			}
			// Coarse to fine: every step-th value, then the neighbours of
			// the best of those.
			n := len(p.genes[gi].values)
			step := max(1, n/8)
			best, bestScore := g[gi], p.gpuScore(e, g, order, a, r)
			try := func(v int) {
				old := g[gi]
				g[gi] = v
				if sc := p.gpuScore(e, g, order, a, r); sc < bestScore {
					best, bestScore = v, sc
				}
				g[gi] = old
			}
			for v := 0; v < n; v += step {
				try(v)
			}
			for v := max(0, best-step+1); v < min(n, best+step); v++ {
				try(v)
			}
			g[gi] = best
		}
	}
}

// gpuSideKey is the key of the GPU side of g (the genes of order but the
// slices) for the constructions' memo of descendSlices.
func (p *Problem) gpuSideKey(g, order []int) string {
	var b strings.Builder
	for _, gi := range order {
		if p.genes[gi].kind != geneSlice {
			b.WriteString(strconv.Itoa(gi))
			b.WriteByte('=')
			b.WriteString(strconv.Itoa(g[gi]))
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// onGPU reports whether GPU task k (Evaluator.GPUTasks order) is on the GPU
// under the genome (or partial genome) g.
func (p *Problem) onGPU(g []int, k int) bool {
	gi := p.e.gpus[k].task // unit genes come first, one per task
	return p.genes[gi].values[g[gi]] == p.e.gpuUnit
}

// gpuScore analyses the partial mapping of the genes of order and returns
// the largest ratio of a GPU task's response to its deadline (+Inf when a
// response has no bound).
func (p *Problem) gpuScore(e *Evaluator, g, order []int, a *Assignment, r *Result) float64 {
	p.partialAssignment(a, g, order)
	if e.EvaluatePartial(a, r) != nil {
		return math.Inf(1)
	}
	worst := 0.0
	for k := range r.GPU {
		gr := &r.GPU[k]
		if !gr.OnGPU {
			continue
		}
		d := r.Tasks[gr.Task].D
		if !gr.Response.Bounded || d <= 0 {
			return math.Inf(1)
		}
		worst = max(worst, float64(gr.Response.Total)/float64(d))
	}
	return worst
}

// constructionBudget bounds the values Construct tries for one genome, in
// constructionRestarts depth-first searches of an equal share each.
const (
	constructionBudget   = 2000
	constructionRestarts = 10
)

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
