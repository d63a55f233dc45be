package optimizer

import (
	"sort"

	"github.com/hetmap/hetmap/optimizer/evaluate"
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
		case g.kind == geneUnit && p.tasks[g.task].Kind == evaluate.GPUTask:
			gpuUnits = append(gpuUnits, gi)
		case g.kind != geneUnit:
			gpuKnobs = append(gpuKnobs, gi)
		default:
			cpu = append(cpu, gi)
		}
	}
	load := func(gi int) float64 { // the lightest utilisation the task can have
		g := p.genes[gi]
		ts := &p.tasks[g.task]
		best := -1.0
		for _, u := range g.values {
			if exec, ok := p.e.Model().ComputeTime(g.task, u); ok && ts.Period > 0 {
				if v := float64(exec) / float64(ts.Period); best < 0 || v < best {
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
			e := p.e.With(evaluate.Options{Limit: rta.LimitDeadline}) // a cut needs only the verdicts
			return &walker{en: en, e: e, a: e.NewAssignment(), r: e.NewAnalysis(), used: make([]bool, len(p.units)),
				moves: make([]bool, len(p.units)), load: make([]float64, len(p.units)), loadMore: make([]float64, len(p.units))}
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
	e    *evaluate.Evaluator // a clone: EvaluatePartial uses its scratch
	a    *evaluate.Assignment
	r    *evaluate.Analysis
	used []bool
	// noLoadCut: Values offers overloading placements too (the genetic
	// search's constructions, whose random descents are tuned without it).
	noLoadCut bool
	// The loads of the partial mapping (loads).
	moves          []bool
	copies         bool
	moving         int
	load, loadMore []float64
}

// overload is the margin above 1 from which Values takes a core's compute
// utilisation for more than it can carry: far above the rounding of the
// sums, so that a core at exactly 1 is never cut.
const overload = 1e-9

// loads sets, for the partial mapping of the genes of order[:depth], the
// units in use (w.used), and unless w.noLoadCut the units that run a task
// moving DRAM lines (w.moves), whether a GPU task on the GPU copies lines,
// and per CPU unit v the least utilisation its tasks have in every
// completion (w.load: Σ DemandBound/T with the other units that move lines
// so far) and the same with one unit more moving lines (w.loadMore).
func (w *walker) loads(partial []int, depth int) {
	en, p := w.en, w.en.p
	clear(w.used)
	clear(w.moves)
	clear(w.load)
	clear(w.loadMore)
	w.copies = false
	for _, prev := range en.order[:depth] {
		pg := p.genes[prev]
		if pg.kind != geneUnit || !en.relevant(partial, prev) {
			continue
		}
		u := pg.values[partial[prev]]
		w.used[u] = true
		if w.noLoadCut {
			continue
		}
		if u == p.e.Model().GPUUnit() {
			if p.tasks[pg.task].Kind == evaluate.GPUTask && p.e.Model().CopiesLines(p.tasks[pg.task].GPU) {
				w.copies = true
			}
			continue
		}
		if p.e.Model().MovesLines(pg.task, u) {
			w.moves[u] = true
		}
	}
	if w.noLoadCut {
		return
	}
	moving := 0
	for _, m := range w.moves {
		if m {
			moving++
		}
	}
	for _, prev := range en.order[:depth] {
		pg := p.genes[prev]
		if pg.kind != geneUnit || !en.relevant(partial, prev) {
			continue
		}
		u := pg.values[partial[prev]]
		if u == p.e.Model().GPUUnit() {
			continue
		}
		others := moving
		if w.moves[u] {
			others--
		}
		w.load[u] += p.demandLoad(pg.task, u, others, w.copies)
		w.loadMore[u] += p.demandLoad(pg.task, u, others+1, w.copies)
	}
	w.moving = moving
}

// overloads reports whether placing task i on unit u, after loads, leaves
// some CPU core above its capacity in every completion: u itself with the
// task added, or, when the task makes u move lines for the first time,
// another core whose tasks' line latency that raises.
func (w *walker) overloads(i, u int) bool {
	p := w.en.p
	if u == p.e.Model().GPUUnit() {
		return false
	}
	others := w.moving
	if w.moves[u] {
		others--
	}
	if w.load[u]+p.demandLoad(i, u, others, w.copies) > 1+overload {
		return true
	}
	if w.moves[u] || !p.e.Model().MovesLines(i, u) {
		return false
	}
	for v := range w.loadMore {
		if v != u && w.loadMore[v] > 1+overload {
			return true
		}
	}
	return false
}

// demandLoad is task i's least utilisation on CPU unit u with others
// other units moving lines (evaluate.Model.DemandBound over its
// period).
func (p *Problem) demandLoad(i, u, others int, copies bool) float64 {
	c, ok := p.e.Model().DemandBound(i, u, others, copies)
	if !ok || p.tasks[i].Period <= 0 {
		return 0
	}
	return float64(c) / float64(p.tasks[i].Period)
}

// relevant reports whether gene gi matters given the GPU genes of partial:
// the mode, priority and slice of a GPU task and the placement of its
// offloading task matter only when it runs on the GPU.
func (en *enumeration) relevant(partial []int, gi int) bool {
	g := en.p.genes[gi]
	switch {
	case g.kind != geneUnit:
		return en.p.onGPU(partial, g.gpu)
	case en.p.tasks[g.task].Kind == evaluate.OffloadingTask:
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
	w.loads(partial, depth)
	used := w.used
	for k, u := range g.values {
		if !w.noLoadCut && w.overloads(g.task, u) {
			// A core would carry more than its capacity before any
			// contention the placements to come can add: every analysis
			// finds it unschedulable, so neither this mapping nor any
			// completion is feasible (loads).
			continue
		}
		if u == p.e.Model().GPUUnit() || used[u] {
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
	// A core that fails with its priority search decided cuts the partial
	// mapping (evaluate.Evaluator.Refutes); one whose search stopped
	// undecided is not proven unschedulable and cuts nothing on its own. A
	// missed chain latency requirement cuts nothing either: the latency
	// depends on the priority orders, which a completion may choose
	// otherwise (only the deadlines are decided over every order).
	refuted, err := w.e.Refutes(w.a, w.r)
	return err == nil && refuted
}

// partialAssignment writes into a the partial mapping of the genes in
// assigned, with the values g gives them: the configuration's mapping with
// every task whose unit is a gene unplaced, then those genes set.
func (p *Problem) partialAssignment(a *evaluate.Assignment, g, assigned []int) {
	a.CopyFrom(p.base)
	for _, t := range p.genes {
		if t.kind == geneUnit {
			a.Unit[t.task] = evaluate.NoUnit
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
