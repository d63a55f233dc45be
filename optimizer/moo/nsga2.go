package moo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"

	"github.com/MaxHalford/eaopt"
)

// Crossover selects how NSGA-II recombines two parents.
type Crossover int

const (
	// UniformCrossover exchanges each gene between the two children with
	// probability ½.
	UniformCrossover Crossover = iota
	// TwoPointCrossover exchanges the genes between two random cut points.
	TwoPointCrossover
)

// NSGA2 is the method of the non-dominated sorting genetic algorithm II
// (Deb et al. 2002) with constraint domination (Deb 2000), run as an
// eaopt.Model by eaopt's GA. The zero value of every field selects its
// documented default.
type NSGA2 struct {
	// Population is the number of individuals, at least 1. The default, for
	// 0 or less, is 100. It is lowered to Settings.MaxEvaluations when that
	// is smaller.
	Population int

	// CrossoverRate is the probability that two parents are recombined
	// rather than copied. The default, for 0, is 0.9; a negative value
	// disables crossover.
	CrossoverRate float64

	// MutationRate is the probability that mutation changes a gene (to
	// another of its allowed values, chosen uniformly). The default, for 0,
	// is 1/NumGenes; a negative value disables mutation.
	MutationRate float64

	// Crossover is the recombination operator; the default is
	// UniformCrossover.
	Crossover Crossover

	// Initial lists genomes, for example known good ones, that open the
	// initial population (as far as it has room); random genomes fill the
	// rest.
	Initial [][]int

	// Mutate, if set, is a problem-specific mutation applied to every
	// offspring after the per-gene mutation, for example the swap of two
	// tasks' units in a mapping problem, a move that per-gene mutation makes
	// only by luck. It must leave every gene at one of its allowed values and
	// draw its random choices from rng alone, so that runs stay
	// reproducible.
	Mutate func(genome []int, rng *rand.Rand)

	// Revisit lets breeding yield genomes evaluated in earlier generations
	// (their evaluation then comes from the cache). By default breeding
	// discards them, like duplicates of the population, so that every
	// offspring is a genome never evaluated before (as far as the cache
	// remembers).
	Revisit bool

	// Selection is how survival cuts the last front that fits only in
	// part: by crowding distance (the default, NSGA-II) or by reference
	// directions (NSGA-III, for many objectives); see Selection.
	Selection Selection

	// CacheSize is how many evaluations the cache remembers: the most
	// recent ones, first in, first out, so that memory does not grow with
	// the number of evaluations (about 8·(genes + objectives) + 48 bytes an
	// entry). A genome bred again after it left the cache is evaluated
	// again. The default, for 0, is DefaultCacheSize, or as many as fit
	// DefaultCacheBytes where genomes are so long that those would not
	// (cacheEntryBytes); a negative value remembers nothing.
	CacheSize int
}

// DefaultCacheSize is the default of NSGA2.CacheSize: 2¹⁷ evaluations, more
// than the 100 100 of a default run on WATERS (100 generations… 1 000 of a
// population of 100), about 30 MB there.
const DefaultCacheSize = 1 << 17

// DefaultCacheBytes bounds the memory of the default cache: 64 MiB, the
// default DefaultCacheSize entries up to about 60 genes, fewer beyond (on
// a system of 250 tasks, about 30 000 evaluations, more than a default run
// makes before its front stops improving).
const DefaultCacheBytes = 64 << 20

// cacheEntryBytes is about what an entry of the cache takes for genomes of
// n genes and m objectives: the genes and objectives, the violation, the
// tie-break, the hash, the payload's interface and its table slots.
func cacheEntryBytes(n, m int) int { return 8*(n+m) + 48 }

// operators holds what a genome needs to mutate and recombine itself.
type operators struct {
	sp        *space
	mutation  float64
	crossover Crossover
	extra     func(genome []int, rng *rand.Rand)
}

// genome is NSGA-II's eaopt.Genome: integer genes, each one of its gene's
// allowed values, with the genome's evaluation and its rank and crowding
// distance in the population that holds it. The model recycles the genomes
// of individuals that die, so that breeding allocates nothing in steady
// state.
type genome struct {
	genes []int
	ops   *operators
	hash  uint64 // hashGenome(genes), set when the genes are final

	eval      Evaluation // its own Objectives buffer, valid when evaluated
	evaluated bool
	rank      int     // its front, 0 the best
	crowding  float64 // its crowding distance in that front
	kept      int     // the last ranking that kept it in the population
}

var (
	_ eaopt.Genome = (*genome)(nil)
	_ eaopt.Model  = (*model)(nil)
)

// fitness is the scalar by which eaopt orders a population: rank first, then
// larger crowding distance, lower being better.
func (g *genome) fitness() float64 {
	return float64(g.rank) + 0.5/(1+g.crowding)
}

// Evaluate implements eaopt.Genome. The model evaluates and ranks every
// genome before eaopt asks (in parallel, and through the cache), so Evaluate
// only returns the genome's fitness; it reports an error for a genome that
// has not been evaluated.
func (g *genome) Evaluate() (float64, error) {
	if !g.evaluated {
		return math.Inf(1), errors.New("moo: genome evaluated outside its population")
	}
	return g.fitness(), nil
}

// Mutate implements eaopt.Genome: each gene is replaced, with probability
// MutationRate, by another of its allowed values chosen uniformly.
func (g *genome) Mutate(rng *rand.Rand) {
	pm := g.ops.mutation
	if pm <= 0 {
		return
	}
	for i, v := range g.genes {
		if rng.Float64() >= pm {
			continue
		}
		vals := g.ops.sp.values[i]
		if len(vals) < 2 {
			continue
		}
		k := rng.Intn(len(vals) - 1)
		if k >= g.ops.sp.index[i][v] {
			k++
		}
		g.genes[i] = vals[k]
	}
	if g.ops.extra != nil {
		g.ops.extra(g.genes, rng)
	}
	g.evaluated = false
}

// Crossover implements eaopt.Genome: it recombines g and mate, which must be
// a genome of the same problem, in place. Both are marked for evaluation.
func (g *genome) Crossover(mate eaopt.Genome, rng *rand.Rand) {
	o := mate.(*genome)
	a, b := g.genes, o.genes
	switch g.ops.crossover {
	case TwoPointCrossover:
		i, j := rng.Intn(len(a)+1), rng.Intn(len(a)+1)
		if i > j {
			i, j = j, i
		}
		for k := i; k < j; k++ {
			a[k], b[k] = b[k], a[k]
		}
	default:
		for k := range a {
			if rng.Intn(2) == 0 {
				a[k], b[k] = b[k], a[k]
			}
		}
	}
	g.evaluated, o.evaluated = false, false
}

// Clone implements eaopt.Genome. Only eaopt clones (into its hall of fame,
// when the best fitness improves); the model copies parents into recycled
// genomes instead.
func (g *genome) Clone() eaopt.Genome {
	c := *g
	c.genes = slices.Clone(g.genes)
	c.eval.Objectives = slices.Clone(g.eval.Objectives)
	return &c
}

func asGenome(ind eaopt.Individual) *genome { return ind.Genome.(*genome) }

// skipRandString draws from rng what eaopt's Individual.Clone draws for the
// random identifier it gives a clone (eaopt's randString of 6 letters: 6 bits
// a letter, 10 letters a draw, indices 52 to 63 rejected), without building
// the string. Breeding copies parents into recycled genomes instead of
// cloning them, and draws these numbers so that a run takes the same random
// choices as one that clones (TestSkipRandString checks it against eaopt).
func skipRandString(rng *rand.Rand) {
	const letters, bitsPer, perDraw = 52, 6, 63 / 6
	cache, remain := rng.Int63(), perDraw
	for i := 0; i < 6; {
		if remain == 0 {
			cache, remain = rng.Int63(), perDraw
		}
		if cache&(1<<bitsPer-1) < letters {
			i++
		}
		cache >>= bitsPer
		remain--
	}
}

// model is NSGA-II's eaopt.Model. Apply turns a ranked population of parents
// into the next ranked population: it breeds offspring by binary tournament,
// crossover and mutation, evaluates them, and keeps the best of parents and
// offspring by non-dominated sorting and crowding distance. It keeps its
// buffers from one generation to the next.
type model struct {
	r         *run
	ops       *operators
	crossover float64
	revisit   bool
	cache     *evalCache

	free    []*genome // genomes of individuals that died, for reuse
	seen    genomeSet // breeding: the parents and offspring of a generation
	pending genomeSet // evaluation: the genomes of a batch to evaluate

	offspring, all, next eaopt.Individuals

	pipe                  *pipeline
	evaluationsLeft       int       // analyses the batch may make, unless unlimited
	unlimited             bool      // the run has no Settings.MaxEvaluations
	genomeEvaluationsLeft int       // Evaluation.EvaluationsLeft of the batch's genomes
	allowed               bool      // genomeEvaluationsLeft holds an earlier batch's
	leaders               []*genome // the batch's genomes to evaluate, distinct
	followers             []int     // pairs: a batch index, its leader's index in leaders
	admitted              int       // individuals of the batch admitted so far
	cut                   bool      // the budget has cut the batch

	sorter sorter
	evals  []Evaluation
	// selection cuts the last front (NSGA2.Selection); dirs are the
	// reference directions of ReferenceSelection, chosen the indices
	// into the individuals ranked of the feasible ones kept so far.
	selection Selection
	dirs      [][]float64
	chosen    []int
	dist      []float64
	order     []int
	pos       []int
	ranking   int // rankings made, to mark the genomes each keeps

	// base seeds the generators of the generations (generationRNG), rng.
	base int64
	rng  *rand.Rand
	// resumed is the population of a run resumed from a checkpoint, in
	// its saved order, until the first generation breeds from it.
	resumed eaopt.Individuals
}

// Validate implements eaopt.Model.
func (m *model) Validate() error {
	if !(m.crossover >= 0 && m.crossover <= 1) {
		return fmt.Errorf("moo: crossover rate %v is not a probability", m.crossover)
	}
	if !(m.ops.mutation >= 0 && m.ops.mutation <= 1) {
		return fmt.Errorf("moo: mutation rate %v is not a probability", m.ops.mutation)
	}
	return nil
}

// Apply implements eaopt.Model. Generation g draws from its own generator,
// seeded by generationSeed(base, g), not from the population's, so that a run resumed
// at a generation boundary draws what the run it continues would have.
func (m *model) Apply(pop *eaopt.Population) error {
	if m.resumed != nil {
		// eaopt has sorted the restored population again, and its sort is
		// not stable; tournaments draw parents by their place, so the
		// population takes its saved order back.
		copy(pop.Individuals, m.resumed)
		m.resumed = nil
	}
	rng := m.generationRNG(m.r.generations + 1)
	parents := pop.Individuals
	m.begin(len(parents))
	offspring := m.breed(parents, rng) // admitting each offspring as it comes
	n, err := m.finish(offspring)
	if err != nil {
		// errInterrupted included: the offspring are not ranked.
		return err
	}
	for _, c := range offspring[n:] { // beyond the evaluation budget
		m.release(asGenome(c))
	}
	pop.Individuals = m.survive(parents, offspring[:n], len(parents), rng)
	return nil
}

// newGenome returns a genome of the problem, recycled if one is free, marked
// for evaluation; its genes and objectives hold stale values.
func (m *model) newGenome() *genome {
	if k := len(m.free); k > 0 {
		g := m.free[k-1]
		m.free[k-1] = nil
		m.free = m.free[:k-1]
		g.evaluated = false
		return g
	}
	sp := m.ops.sp
	return &genome{genes: make([]int, sp.n), ops: m.ops, eval: Evaluation{Objectives: make([]float64, sp.m)}}
}

// release hands back the genome of an individual that left the population.
func (m *model) release(g *genome) {
	g.eval.Payload = nil
	m.free = append(m.free, g)
}

// tournament returns the index of the winner of a binary tournament between
// two random members of pop: the smaller violation, then the lower rank, then
// the larger crowding distance, then a coin toss.
func tournament(pop eaopt.Individuals, rng *rand.Rand) int {
	i, j := rng.Intn(len(pop)), rng.Intn(len(pop))
	a, b := asGenome(pop[i]), asGenome(pop[j])
	switch {
	case a.eval.Violation != b.eval.Violation:
		if a.eval.Violation < b.eval.Violation {
			return i
		}
		return j
	case a.rank != b.rank:
		if a.rank < b.rank {
			return i
		}
		return j
	case a.crowding != b.crowding:
		if a.crowding > b.crowding {
			return i
		}
		return j
	}
	if rng.Intn(2) == 0 {
		return i
	}
	return j
}

// child returns a copy of the parent ind in a recycled genome, as eaopt's
// Individual.Clone would, random draws included.
func (m *model) child(ind eaopt.Individual, rng *rand.Rand) *genome {
	skipRandString(rng)
	g := m.newGenome()
	copy(g.genes, asGenome(ind).genes)
	return g
}

// breed returns up to len(parents) offspring, none equal to a parent, to
// another offspring or, unless revisiting, to a genome in the cache, each
// marked for evaluation and admitted to the current batch as soon as it is
// bred. It gives up after 20·len(parents) children when the space is too
// small or the population too uniform to yield that many distinct ones. The
// slice is reused by the next call.
func (m *model) breed(parents eaopt.Individuals, rng *rand.Rand) eaopt.Individuals {
	n := len(parents)
	m.seen.reset(2 * n)
	for _, p := range parents {
		g := asGenome(p)
		m.seen.add(g.genes, g.hash)
	}
	offspring := m.offspring[:0]
	for tries := 0; len(offspring) < n && tries < 20*n; tries += 2 {
		g1 := m.child(parents[tournament(parents, rng)], rng)
		g2 := m.child(parents[tournament(parents, rng)], rng)
		if rng.Float64() < m.crossover {
			g1.Crossover(g2, rng)
		}
		g1.Mutate(rng)
		g2.Mutate(rng)
		for _, g := range [2]*genome{g1, g2} {
			// Every child is marked for evaluation: eaopt's
			// Individual.Crossover, which the model does not use, would
			// leave the mate's flag and old fitness.
			g.evaluated = false
			g.hash = hashGenome(g.genes)
			if len(offspring) == n || m.seen.has(g.genes, g.hash) {
				m.release(g)
				continue
			}
			cached := m.cache.lookup(g.genes, g.hash)
			if cached >= 0 && !m.revisit {
				m.release(g)
				continue
			}
			m.seen.add(g.genes, g.hash)
			offspring = append(offspring, eaopt.Individual{Genome: g, Fitness: math.Inf(1)})
			m.admit(len(offspring)-1, g, cached)
		}
	}
	m.offspring = offspring
	return offspring
}

// A batch is a list of individuals to evaluate, in order: the initial
// population, or the offspring of a generation as breeding yields them. Each
// is admitted in turn (admit): it takes its evaluation from the cache, or
// follows an equal genome earlier in the batch, or goes to the pipeline to
// be evaluated while the batch is still being made; once the evaluation
// budget is spent, the batch is cut and nothing more is admitted. finish
// waits for the evaluations and records them.

// begin starts a batch of at most size individuals.
func (m *model) begin(size int) {
	m.evaluationsLeft, m.unlimited = m.r.evaluationsLeft()
	// Every genome of the batch may cost ⌊(budget − size)/size⌋ analyses
	// more than its own, so that the batch cannot exceed the budget, and no
	// more than a genome of an earlier batch was allowed (Settings.
	// MaxEvaluations): what a Problem keeps of the first genome to meet
	// something is then the most any run keeps, whichever worker met it.
	a := 0
	if !m.unlimited {
		a = max(0, (m.evaluationsLeft-size)/max(1, size))
		if m.allowed {
			a = min(a, m.genomeEvaluationsLeft)
		}
	}
	m.genomeEvaluationsLeft, m.allowed = a, true
	m.leaders, m.followers = m.leaders[:0], m.followers[:0]
	m.pending.reset(size)
	m.admitted, m.cut = 0, false
	m.pipe.reset()
}

// admit takes individual i of the batch, whose genome is g and which the
// cache holds as entry cached (or -1), and reports whether it was admitted
// (false once the budget has cut the batch).
func (m *model) admit(i int, g *genome, cached int) bool {
	if m.cut {
		return false
	}
	if !g.evaluated {
		if k := cached; k >= 0 {
			m.cache.get(k, &g.eval)
			g.evaluated = true
			m.r.cacheHits++
		} else if k, added := m.pending.add(g.genes, g.hash); !added {
			m.followers = append(m.followers, i, k)
		} else {
			if !m.unlimited && len(m.leaders) == m.evaluationsLeft {
				m.cut = true
				return false
			}
			m.leaders = append(m.leaders, g)
			g.eval.EvaluationsLeft, g.eval.Unlimited = m.genomeEvaluationsLeft, m.unlimited
			m.pipe.add(g.genes, &g.eval)
		}
	}
	m.admitted++
	return true
}

// finish completes the batch inds: it waits for the evaluations, records
// them, remembers them in the cache and gives the followers their leaders'.
// It returns how many individuals, from the first, were admitted.
func (m *model) finish(inds eaopt.Individuals) (int, error) {
	if err := m.pipe.finish(); err != nil {
		return 0, err
	}
	for _, g := range m.leaders {
		g.evaluated = true
		m.cache.put(g.genes, g.hash, &g.eval)
	}
	for f := 0; f < len(m.followers); f += 2 {
		g, leader := asGenome(inds[m.followers[f]]), m.leaders[m.followers[f+1]]
		copy(g.eval.Objectives, leader.eval.Objectives)
		g.eval.Violation, g.eval.Tiebreak, g.eval.Payload, g.evaluated = leader.eval.Violation, leader.eval.Tiebreak, leader.eval.Payload, true
	}
	clear(m.leaders)
	return m.admitted, nil
}

// evaluate gives the leading individuals of inds their evaluations, from the
// cache or by evaluating them, as many as the evaluation budget allows, and
// returns how many that is. Genomes repeated in inds are evaluated once.
func (m *model) evaluate(inds eaopt.Individuals) (int, error) {
	m.begin(len(inds))
	for i, ind := range inds {
		g := asGenome(ind)
		cached := -1
		if !g.evaluated {
			cached = m.cache.lookup(g.genes, g.hash)
		}
		if !m.admit(i, g, cached) {
			break
		}
	}
	return m.finish(inds)
}

// rank sorts inds into fronts by constraint domination, gives every member
// of the fronts it needs its rank and crowding distance, and appends the n
// best to next: whole fronts in order, the last one cut by decreasing
// crowding distance (ties by position), or, under ReferenceSelection, a
// feasible last front cut by reference directions (referenceCut, drawing
// from rng). The individuals appended are marked evaluated with their
// fitness, so eaopt does not evaluate them again, and their genomes with
// this ranking.
func (m *model) rank(inds eaopt.Individuals, n int, next eaopt.Individuals, rng *rand.Rand) eaopt.Individuals {
	m.ranking++
	m.evals = m.evals[:0]
	for _, ind := range inds {
		m.evals = append(m.evals, asGenome(ind).eval)
	}
	reference := m.selection == ReferenceSelection
	m.chosen = m.chosen[:0]
	for r, front := range m.sorter.sort(m.evals) {
		if len(next) == n {
			break
		}
		m.dist, m.order = crowding(m.evals, front, m.dist, m.order)
		cd := m.dist
		pos := m.pos[:0]
		for t, i := range front {
			g := asGenome(inds[i])
			g.rank, g.crowding = r, cd[t]
			if reference {
				g.crowding = 0 // tournaments: violation, rank, a coin
			}
			pos = append(pos, t)
		}
		if len(next)+len(front) > n {
			if reference && m.evals[front[0]].Feasible() {
				pos = append(pos[:0], referenceCut(m.evals, m.chosen, front, n-len(next), m.dirs, rng)...)
			} else {
				slices.SortStableFunc(pos, func(a, b int) int { return cmp.Compare(cd[b], cd[a]) })
				pos = pos[:n-len(next)]
			}
		}
		for _, t := range pos {
			ind := inds[front[t]]
			g := asGenome(ind)
			g.kept = m.ranking
			ind.Fitness, ind.Evaluated = g.fitness(), true
			next = append(next, ind)
			if reference && g.eval.Feasible() {
				m.chosen = append(m.chosen, front[t])
			}
		}
		m.pos = pos
	}
	clear(m.evals) // drop the payloads
	return next
}

// survive returns the next population, the n best of parents and offspring,
// and recycles the genomes of the others. It fills the slice that held the
// previous population and keeps the parents' for the next generation.
func (m *model) survive(parents, offspring eaopt.Individuals, n int, rng *rand.Rand) eaopt.Individuals {
	m.all = append(append(m.all[:0], parents...), offspring...)
	next := m.rank(m.all, n, m.next[:0], rng)
	for _, ind := range m.all {
		if g := asGenome(ind); g.kept != m.ranking {
			m.release(g)
		}
	}
	clear(m.all)
	clear(parents)
	m.next = parents[:0]
	return next
}

// doneShare is NSGA-II's share done (Progress.Done): the generations
// evolved over those and the generations left, which is the fewest of
// those left to Settings.Generations, of those Settings.MaxEvaluations
// leaves at the analyses a generation has cost so far, and of those the
// front is expected to take to stop improving (stallState.left).
func doneShare(r *run) float64 {
	g := float64(r.generations)
	left := float64(r.set.Generations - r.generations)
	if r.set.MaxEvaluations > 0 && r.generations > 0 {
		perGeneration := float64(r.analyses) / g
		left = min(left, float64(r.set.MaxEvaluations-r.analyses)/max(perGeneration, 1))
	}
	left = r.stall.left(r.generations, r.set.Stall, int(math.Ceil(max(0, left))))
	if g+left <= 0 {
		return 1
	}
	done := g / (g + left)
	if r.set.MaxEvaluations > 0 {
		done = max(done, float64(r.analyses)/float64(r.set.MaxEvaluations))
	}
	return done
}

// newModel is the model of a run of the algorithm: its operators, cache,
// pipeline and selection, with the settings' zero values replaced by their
// defaults; n is the population's size.
func (a *NSGA2) newModel(r *run) (*model, int, error) {
	sp := r.sp
	n := a.Population
	if n <= 0 {
		n = 100
	}
	if r.set.MaxEvaluations > 0 {
		n = min(n, r.set.MaxEvaluations)
	}
	ops := &operators{sp: sp, mutation: a.MutationRate, crossover: a.Crossover, extra: a.Mutate}
	switch {
	case ops.mutation == 0:
		ops.mutation = 1 / float64(sp.n)
	case ops.mutation < 0:
		ops.mutation = 0
	}
	capacity := a.CacheSize
	switch {
	case capacity == 0:
		capacity = min(DefaultCacheSize, DefaultCacheBytes/cacheEntryBytes(sp.n, sp.m))
	case capacity < 0:
		capacity = 0
	}
	expect := n * (1 + r.set.Generations) // evaluations if none is answered by the cache
	if r.set.MaxEvaluations > 0 {
		expect = min(expect, r.set.MaxEvaluations)
	}
	m := &model{r: r, ops: ops, crossover: a.CrossoverRate, revisit: a.Revisit, cache: newEvalCache(sp.n, sp.m, capacity, expect),
		pipe: newPipeline(r, n), selection: a.Selection}
	switch a.Selection {
	case CrowdingSelection:
	case ReferenceSelection:
		m.dirs = referenceDirections(sp.m, n)
	default:
		m.pipe.close()
		return nil, 0, fmt.Errorf("moo: unknown selection %d", a.Selection)
	}
	switch {
	case m.crossover == 0:
		m.crossover = 0.9
	case m.crossover < 0:
		m.crossover = 0
	}
	if err := m.Validate(); err != nil {
		m.pipe.close()
		return nil, 0, err
	}
	if a.Crossover != UniformCrossover && a.Crossover != TwoPointCrossover {
		m.pipe.close()
		return nil, 0, fmt.Errorf("moo: unknown crossover %d", a.Crossover)
	}
	return m, n, nil
}

// minimize samples the initial population from the run's generator and
// evaluates it on the workers, then hands it to eaopt's GA (through the
// newGenome function, in order) with the run's generator, from which eaopt
// seeds the population's own, and lets the GA apply the model generation
// after generation; eaopt's own parallel evaluation stays off, since the
// model evaluates everything before eaopt asks.
func (a *NSGA2) minimize(r *run) (Status, error) {
	m, n, err := a.newModel(r)
	if err != nil {
		return NotTerminated, err
	}
	defer m.pipe.close()

	// The initial population: the given genomes, then distinct random ones
	// (repeats only when distinct ones are too hard to find); or, resuming,
	// the population of the checkpoint.
	rng := r.set.Rand
	cp := r.set.Checkpoint
	resuming := cp != nil && len(cp.Resume) > 0
	var initial eaopt.Individuals
	if resuming {
		inds, base, err := m.restoreState(cp.Resume, n)
		if err != nil {
			return NotTerminated, err
		}
		initial, m.base, m.resumed = inds, base, slices.Clone(inds)
	} else {
		var status Status
		var err error
		if initial, status, err = a.initialPopulation(r, m, n, rng); status != NotTerminated || err != nil {
			return status, err
		}
		m.base = rng.Int63()
	}
	first := r.generations // 0, or the checkpoint's generation
	var saveErr error
	save := func(pop eaopt.Individuals) {
		if saveErr == nil {
			saveErr = m.saveIfDue(pop, n)
		}
	}

	var status Status
	next := 0
	ga, err := eaopt.GAConfig{
		NPops:        1,
		PopSize:      uint(n),
		NGenerations: uint(max(1, r.set.Generations-first)),
		HofSize:      1,
		Model:        m,
		// eaopt draws only the population's generator and identifiers
		// from its own; the model draws from the generations'.
		RNG: rand.New(rand.NewSource(m.base)),
		Callback: func(ga *eaopt.GA) {
			r.generations = first + int(ga.Generations)
			if !resuming || ga.Generations > 0 {
				// The checkpoint's generation was measured and saved
				// before.
				r.stall.measure(r, r.set.Stall)
			}
			r.done = doneShare(r)
			r.progress()
			if !resuming || ga.Generations > 0 {
				save(ga.Populations[0].Individuals)
			}
		},
		EarlyStop: func(*eaopt.GA) bool {
			if saveErr != nil {
				return true
			}
			status = m.stop()
			return status != NotTerminated
		},
	}.NewGA()
	if err != nil {
		return NotTerminated, err
	}
	if first < r.set.Generations { // else resumed after the last generation
		err = ga.Minimize(func(*rand.Rand) eaopt.Genome {
			g := initial[next].Genome
			next++
			return g
		})
	}
	if errors.Is(err, errInterrupted) {
		// A generation's offspring were being evaluated: those evaluated
		// are recorded, the generation is not.
		return Interrupted, nil
	}
	if err == nil {
		err = saveErr
	}
	if err != nil {
		return NotTerminated, err
	}
	if s := m.stop(); s == Exhausted || status == NotTerminated && s == EvaluationLimit {
		status = s
	}
	if status == NotTerminated {
		status = GenerationLimit
	}
	return status, nil
}

// saveIfDue saves the checkpoint of the population pop (of size n) if the
// run's checkpoint settings say one is due after this generation.
func (m *model) saveIfDue(pop eaopt.Individuals, n int) error {
	r, cp := m.r, m.r.set.Checkpoint
	if cp == nil || cp.Due == nil || cp.Save == nil || !cp.Due(r.generations) {
		return nil
	}
	state, err := m.saveState(pop, m.base, n)
	if err == nil {
		err = cp.Save(state, r.report())
	}
	return err
}

// stop says why the run ends after the generation just made, or
// NotTerminated: every genome evaluated and remembered, the evaluation
// budget spent, the front stalled, or an interrupt.
func (m *model) stop() Status {
	r := m.r
	switch {
	case m.cache.len() >= r.sp.size:
		return Exhausted
	case r.set.MaxEvaluations > 0 && r.analyses >= r.set.MaxEvaluations:
		return EvaluationLimit
	case r.stall.stalled(r.set.Stall):
		return Converged
	case r.interrupted():
		return Interrupted
	}
	return NotTerminated
}

// initialPopulation makes, evaluates and ranks the initial population of a
// run that does not resume: the given genomes, then distinct random ones
// (repeats only when distinct ones are too hard to find). A status other
// than NotTerminated (Interrupted) ends the run.
func (a *NSGA2) initialPopulation(r *run, m *model, n int, rng *rand.Rand) (eaopt.Individuals, Status, error) {
	sp := r.sp
	initial := make(eaopt.Individuals, 0, n)
	m.seen.reset(n)
	add := func(g *genome, force bool) {
		g.hash = hashGenome(g.genes)
		if _, added := m.seen.add(g.genes, g.hash); !added && !force {
			m.release(g)
			return
		}
		initial = append(initial, eaopt.Individual{Genome: g, Fitness: math.Inf(1)})
	}
	for _, genes := range a.Initial {
		if len(initial) == n {
			break
		}
		if err := sp.check(genes); err != nil {
			return nil, NotTerminated, fmt.Errorf("moo: initial genome: %w", err)
		}
		g := m.newGenome()
		copy(g.genes, genes)
		add(g, false)
	}
	random := func() *genome {
		g := m.newGenome()
		for i, vals := range sp.values {
			g.genes[i] = vals[rng.Intn(len(vals))]
		}
		return g
	}
	for tries := 0; len(initial) < n && tries < 20*n; tries++ {
		add(random(), false)
	}
	for len(initial) < n {
		add(random(), true)
	}
	if _, err := m.evaluate(initial); err != nil {
		if errors.Is(err, errInterrupted) {
			return nil, Interrupted, nil
		}
		return nil, NotTerminated, err
	}
	initial = m.rank(initial, n, make(eaopt.Individuals, 0, n), rng)
	if r.interrupted() {
		return nil, Interrupted, nil
	}
	r.stall.measure(r, r.set.Stall)
	return initial, NotTerminated, nil
}
