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
	// offspring is a genome never evaluated before.
	Revisit bool
}

// operators holds what a genome needs to mutate and recombine itself.
type operators struct {
	sp        *space
	mutation  float64
	crossover Crossover
	extra     func(genome []int, rng *rand.Rand)
}

// genome is NSGA-II's eaopt.Genome: integer genes, each one of its gene's
// allowed values, with the genome's evaluation and its rank and crowding
// distance in the population that holds it.
type genome struct {
	genes []int
	ops   *operators

	eval     *Evaluation // nil until evaluated; shared by clones, never modified
	rank     int         // its front, 0 the best
	crowding float64     // its crowding distance in that front
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
	if g.eval == nil {
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
	g.eval = nil
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
	g.eval, o.eval = nil, nil
}

// Clone implements eaopt.Genome.
func (g *genome) Clone() eaopt.Genome {
	c := *g
	c.genes = slices.Clone(g.genes)
	return &c
}

func asGenome(ind eaopt.Individual) *genome { return ind.Genome.(*genome) }

// model is NSGA-II's eaopt.Model. Apply turns a ranked population of parents
// into the next ranked population: it breeds offspring by binary tournament,
// crossover and mutation, evaluates them, and keeps the best of parents and
// offspring by non-dominated sorting and crowding distance.
type model struct {
	r         *run
	ops       *operators
	crossover float64
	revisit   bool
	cache     map[string]*Evaluation
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

// Apply implements eaopt.Model.
func (m *model) Apply(pop *eaopt.Population) error {
	parents := pop.Individuals
	offspring := m.breed(parents, pop.RNG)
	n, err := m.evaluate(offspring)
	if err != nil {
		return err
	}
	pop.Individuals = m.survive(parents, offspring[:n], len(parents))
	return nil
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

// breed returns up to len(parents) offspring, none equal to a parent, to
// another offspring or, unless revisiting, to a genome evaluated before, each
// marked for evaluation. It gives up after
// 20·len(parents) children when the space is too small or the population too
// uniform to yield that many distinct ones.
func (m *model) breed(parents eaopt.Individuals, rng *rand.Rand) eaopt.Individuals {
	n := len(parents)
	seen := make(map[string]struct{}, 2*n)
	for _, p := range parents {
		seen[genomeKey(asGenome(p).genes)] = struct{}{}
	}
	offspring := make(eaopt.Individuals, 0, n)
	for tries := 0; len(offspring) < n && tries < 20*n; tries += 2 {
		c1 := parents[tournament(parents, rng)].Clone(rng)
		c2 := parents[tournament(parents, rng)].Clone(rng)
		if rng.Float64() < m.crossover {
			// eaopt's Individual.Crossover takes the mate by value and
			// so leaves its Evaluated flag and old fitness: the flags
			// are reset below for both children.
			c1.Crossover(c2, rng)
		}
		c1.Mutate(rng)
		c2.Mutate(rng)
		for _, c := range [2]eaopt.Individual{c1, c2} {
			g := asGenome(c)
			g.eval = nil
			c.Evaluated, c.Fitness = false, math.Inf(1)
			k := genomeKey(g.genes)
			if _, dup := seen[k]; dup || len(offspring) == n {
				continue
			}
			if _, old := m.cache[k]; old && !m.revisit {
				continue
			}
			seen[k] = struct{}{}
			offspring = append(offspring, c)
		}
	}
	return offspring
}

// evaluate gives the leading genomes of inds their evaluations, from the
// cache or by evaluating them, as many as the evaluation budget allows, and
// returns how many that is.
func (m *model) evaluate(inds eaopt.Individuals) (int, error) {
	budget := m.r.budget()
	var todo [][]int
	var keys []string
	pending := make(map[string]bool)
	n := 0
	for _, ind := range inds {
		g := asGenome(ind)
		if g.eval == nil {
			k := genomeKey(g.genes)
			if _, hit := m.cache[k]; !hit && !pending[k] {
				if budget >= 0 && len(todo) == budget {
					break
				}
				pending[k] = true
				todo = append(todo, g.genes)
				keys = append(keys, k)
			}
		}
		n++
	}
	out := make([]Evaluation, len(todo))
	objs := make([]float64, len(todo)*m.r.sp.m)
	for i := range out {
		out[i].Objectives = objs[i*m.r.sp.m : (i+1)*m.r.sp.m : (i+1)*m.r.sp.m]
	}
	if err := m.r.evaluate(todo, out); err != nil {
		return 0, err
	}
	for i, k := range keys {
		m.cache[k] = &out[i]
	}
	for _, ind := range inds[:n] {
		g := asGenome(ind)
		if g.eval == nil {
			k := genomeKey(g.genes)
			g.eval = m.cache[k]
			if !pending[k] {
				m.r.cacheHits++
			}
		}
	}
	return n, nil
}

// rank sorts inds into fronts by constraint domination, gives every member
// of the fronts it needs its rank and crowding distance, and returns the n
// best: whole fronts in order, the last one cut by decreasing crowding
// distance (ties by position). The returned individuals are marked evaluated
// with their fitness, so eaopt does not evaluate them again.
func rank(inds eaopt.Individuals, n int) eaopt.Individuals {
	evals := make([]Evaluation, len(inds))
	for i, ind := range inds {
		evals[i] = *asGenome(ind).eval
	}
	next := make(eaopt.Individuals, 0, n)
	for r, front := range NonDominatedSort(evals) {
		if len(next) == n {
			break
		}
		cd := CrowdingDistance(evals, front)
		pos := make([]int, len(front))
		for t, i := range front {
			g := asGenome(inds[i])
			g.rank, g.crowding = r, cd[t]
			pos[t] = t
		}
		if len(next)+len(front) > n {
			slices.SortStableFunc(pos, func(a, b int) int { return cmp.Compare(cd[b], cd[a]) })
			pos = pos[:n-len(next)]
		}
		for _, t := range pos {
			ind := inds[front[t]]
			ind.Fitness, ind.Evaluated = asGenome(ind).fitness(), true
			next = append(next, ind)
		}
	}
	return next
}

// survive returns the next population: the n best of parents and offspring.
func (m *model) survive(parents, offspring eaopt.Individuals, n int) eaopt.Individuals {
	all := make(eaopt.Individuals, 0, len(parents)+len(offspring))
	all = append(all, parents...)
	all = append(all, offspring...)
	return rank(all, n)
}

// minimize samples the initial population from the run's generator and
// evaluates it on the workers, then hands it to eaopt's GA (through the
// newGenome function, in order) with the run's generator, from which eaopt
// seeds the population's own, and lets the GA apply the model generation
// after generation; eaopt's own parallel evaluation stays off, since the
// model evaluates everything before eaopt asks.
func (a *NSGA2) minimize(r *run) (Status, error) {
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
	m := &model{r: r, ops: ops, crossover: a.CrossoverRate, revisit: a.Revisit, cache: make(map[string]*Evaluation)}
	switch {
	case m.crossover == 0:
		m.crossover = 0.9
	case m.crossover < 0:
		m.crossover = 0
	}
	if err := m.Validate(); err != nil {
		return NotTerminated, err
	}
	if a.Crossover != UniformCrossover && a.Crossover != TwoPointCrossover {
		return NotTerminated, fmt.Errorf("moo: unknown crossover %d", a.Crossover)
	}

	// The initial population: the given genomes, then distinct random ones
	// (repeats only when distinct ones are too hard to find).
	rng := r.set.Rand
	initial := make(eaopt.Individuals, 0, n)
	seen := make(map[string]struct{}, n)
	add := func(genes []int, force bool) {
		k := genomeKey(genes)
		if _, dup := seen[k]; dup && !force {
			return
		}
		seen[k] = struct{}{}
		initial = append(initial, eaopt.Individual{Genome: &genome{genes: genes, ops: ops}, Fitness: math.Inf(1)})
	}
	for _, g := range a.Initial {
		if len(initial) == n {
			break
		}
		if err := sp.check(g); err != nil {
			return NotTerminated, fmt.Errorf("moo: initial genome: %w", err)
		}
		add(slices.Clone(g), false)
	}
	random := func() []int {
		g := make([]int, sp.n)
		for i, vals := range sp.values {
			g[i] = vals[rng.Intn(len(vals))]
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
		return NotTerminated, err
	}
	initial = rank(initial, n)
	if r.interrupted() {
		return Interrupted, nil
	}

	var status Status
	lastVersion, lastChange := r.version(), 0
	stop := func() Status {
		switch {
		case r.evaluations >= sp.size:
			return Exhausted
		case r.set.MaxEvaluations > 0 && r.evaluations >= r.set.MaxEvaluations:
			return EvaluationLimit
		case r.set.Patience > 0 && r.generations-lastChange >= r.set.Patience:
			return Converged
		case r.interrupted():
			return Interrupted
		}
		return NotTerminated
	}
	next := 0
	ga, err := eaopt.GAConfig{
		NPops:        1,
		PopSize:      uint(n),
		NGenerations: uint(r.set.Generations),
		HofSize:      1,
		Model:        m,
		RNG:          rng,
		Callback: func(ga *eaopt.GA) {
			r.generations = int(ga.Generations)
			if v := r.version(); v != lastVersion {
				lastVersion, lastChange = v, r.generations
			}
			r.done = float64(r.generations) / float64(r.set.Generations)
			if r.set.MaxEvaluations > 0 {
				r.done = max(r.done, float64(r.evaluations)/float64(r.set.MaxEvaluations))
			}
			r.progress()
		},
		EarlyStop: func(*eaopt.GA) bool {
			status = stop()
			return status != NotTerminated
		},
	}.NewGA()
	if err != nil {
		return NotTerminated, err
	}
	err = ga.Minimize(func(*rand.Rand) eaopt.Genome {
		g := initial[next].Genome
		next++
		return g
	})
	if err != nil {
		return NotTerminated, err
	}
	if s := stop(); s == Exhausted || status == NotTerminated && s == EvaluationLimit {
		status = s
	}
	if status == NotTerminated {
		status = GenerationLimit
	}
	return status, nil
}
