package optimizer

import (
	"context"
	"hash/fnv"
	"math"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/rta"
)

// genomeOf encodes the model's own mapping, if every gene can take its value.
func (p *Problem) genomeOf(e *evaluate.Evaluator) ([]int, bool) {
	a, err := e.DefaultAssignment()
	if err != nil {
		return nil, false
	}
	return p.encode(a)
}

// encode returns the genome of mapping a (its priorities aside), if every
// gene can take its value.
func (p *Problem) encode(a *evaluate.Assignment) ([]int, bool) {
	g := make([]int, len(p.genes))
	for gi, gn := range p.genes {
		var v int
		switch gn.kind {
		case geneUnit:
			v = a.Unit[gn.task]
			if v == evaluate.NoUnit { // a merged offloading task: any value will do
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
	n := len(p.tasks) // the unit genes come first, one per task
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
// have cost maxEvaluations analyses (moo.NoLimit: no limit), filling the remaining
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
func (p *Problem) construct(ctx context.Context, rng *rand.Rand, n, maxEvaluations, workers int, built func()) ([][]int, int) {
	if n <= 0 {
		return nil, 0
	}
	ex := p.Exhaustive()
	memo := &sliceMemo{lines: descentLines, seed: rng.Int63(), m: map[string]*descent{}}
	if maxEvaluations > 0 {
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
				over := maxEvaluations > 0 && prefixCost >= maxEvaluations
				mu.Unlock()
				if i >= n || over {
					return
				}
				c := b.genome(ctx, i, seeds[i], maxEvaluations, nil)
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
	left, total := maxEvaluations, 0
	paid := map[*descent]bool{}
	for i := range made {
		switch {
		case maxEvaluations == moo.NoLimit:
		case left <= 0:
			made[i] = b.genome(ctx, i, seeds[i], noEvaluationsLeft, paid)
		case !done[i] || made[i].cost >= maxEvaluations || made[i].costBesides(paid) > left:
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
	e    *evaluate.Evaluator
	a    *evaluate.Assignment
	r    *evaluate.Analysis
}

func (p *Problem) newBuilder(ex *moo.Exhaustive, memo *sliceMemo) *builder {
	e := p.e.With(evaluate.Options{Limit: rta.LimitNone, Stop: p.stop})
	walk := ex.NewWalker().(*walker)
	// The constructions' descents keep every placement (walker.noLoadCut):
	// with the load cut they took other random paths, and the default
	// genetic run of seed 10 missed a point of the exact front.
	walk.noLoadCut = true
	// Partial mappings are judged by the search's own count (under the
	// refined counts, the relaxed test), never by the stricter challenge
	// count (evaluate.Hooks.PartialByChallenge), which is cheaper
	// but rejects partial mappings with feasible completions: on the
	// built-in WATERS model it rejected 12 of the 22 points of the exact
	// front, among them the 6 feasible mappings (of 19) that no mapping of
	// the other 13 reaches by moving one task or swapping two, with the
	// offloading of PRE_SFM_gpu_POST alone on a core; in 500
	// constructions none of them was built, and no seed's genetic search
	// met them.
	return &builder{p: p, ex: ex, memo: memo, walk: walk, e: e, a: e.NewAssignment(), r: e.NewAnalysis()}
}

// analyses counts the mappings, complete and partial, b has analysed.
func (b *builder) analyses() int { return b.e.Analyses() + b.walk.e.Analyses() }

// noEvaluationsLeft is the maxEvaluations of a genome built once the
// constructions' budget is spent: it may make no analysis (0, moo.NoLimit,
// would be no limit).
const noEvaluationsLeft = -1

// genome builds a genome from its seed, at a cost of at most
// maxEvaluations analyses (moo.NoLimit: no limit; noEvaluationsLeft: none,
// the genome is filled at random), a slice descent costing the analyses it took, whoever ran
// it, unless it is in paid. line is the genome's number, which picks its
// slice descents (descentLines).
func (b *builder) genome(ctx context.Context, line int, seed int64, maxEvaluations int, paid map[*descent]bool) construction {
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
		return maxEvaluations == noEvaluationsLeft || maxEvaluations > 0 && cost() >= maxEvaluations || ctx.Err() != nil
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
			// spent, not only the context: a dive whose analyses are
			// spent would otherwise go on trying the values of every
			// level above (each an analysis) until its own budget of
			// values ended, far past maxEvaluations.
			if budget--; budget < 0 || spent() {
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
func (p *Problem) descendSlices(e *evaluate.Evaluator, g, order []int, a *evaluate.Assignment, r *evaluate.Analysis) {
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

// onGPU reports whether GPU task k (evaluate.Model.GPUTasks order) is on the GPU
// under the genome (or partial genome) g.
func (p *Problem) onGPU(g []int, k int) bool {
	gi := p.gpuTasks[k] // unit genes come first, one per task
	return p.genes[gi].values[g[gi]] == p.e.Model().GPUUnit()
}

// gpuScore analyses the partial mapping of the genes of order and returns
// the largest ratio of a GPU task's response to its deadline (+Inf when a
// response has no bound).
func (p *Problem) gpuScore(e *evaluate.Evaluator, g, order []int, a *evaluate.Assignment, r *evaluate.Analysis) float64 {
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
// constructionRestarts depth-first searches of an equal share each. A dive
// must be long enough to finish: judged by the relaxed test (see
// newBuilder), one that reaches a feasible mapping of the built-in WATERS
// model costs about 1 500 analyses. Measured there over 500 constructions (seeds
// 1–10, 50 each), with the share of feasible ones and the analyses they
// cost in all: 10 dives of 200 (the budget before the relaxed test), 11 %
// and 469 000; 1 of 2 000, 38 % and 539 000; 1 of 4 000, 97 % and 756 000;
// 2 of 4 000, 99.8 % and 783 000 (1 570 a genome); 10 of 2 000, 98.6 % and
// 1 418 000. Dives of doubling length (1 000, 2 000, 4 000) cost 1 186 000
// for 98.4 %. Two dives keep a restart for a dive that went wrong near the
// root.
const (
	constructionBudget   = 8000
	constructionRestarts = 2
)
