package optimizer

import (
	"fmt"
	"sort"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/rta"
)

// geneKind says what a gene of the search decides.
type geneKind uint8

const (
	geneUnit     geneKind = iota // the unit of a task (values: unit indices)
	geneMode                     // synchronous (0) or asynchronous (1) offloading of a GPU task
	genePriority                 // low (0) or high (1) stream priority of a GPU task
	geneSlice                    // the time slice of a GPU task (values: indices into slices)
)

type gene struct {
	kind   geneKind
	task   int   // unit genes: the task; others: the GPU task's task index
	gpu    int   // the GPU-task index, or -1
	values []int // what the gene may take (unit indices, 0/1, slice indices)
}

// objectiveSpec is one objective of the search.
type objectiveSpec struct {
	cfg   configs.Objective
	chain int // chain index (System.Chains) for chain objectives
	obj   chains.Objective
}

// Problem is the mapping search of a configuration as a moo.Problem: one
// gene per task's unit, and per GPU task its offloading mode and its stream
// priority (fifo model) or time slice (timeslice model). Genes that the
// configuration does not free keep the model's mapping. Objectives are
// minimised in milliseconds (chains) or as plain numbers (cores used,
// utilisation); an unschedulable mapping has Violation = Σ (R − D) in
// milliseconds and no objective that counts (constraint domination).
type Problem struct {
	e          *evaluate.Evaluator
	search     configs.Search
	genes      []gene
	objectives []objectiveSpec
	slices     []int64 // time-slice values in ps (timeslice model)
	base       *evaluate.Assignment
	// class[u] groups interchangeable cores (same kind, frequency and
	// memory latencies): the exhaustive search breaks their symmetry.
	// classCores[c] lists the cores of class c in unit order.
	class      []int
	classCores [][]int
	// relevant marks the tasks whose worst-case response time an
	// objective depends on (the chain members and, for a GPU task, its
	// offloading task, which stands for it): their cores' priority orders
	// are varied (variants.go). None when no objective is a chain.
	relevant    []bool
	anyRelevant bool
	// sliceGenes are the indices of the free time-slice genes.
	sliceGenes []int
	// exhaustive: the search is the exhaustive one, which decides every
	// mapping it reaches: one that misses under its derived orders while
	// another order might pass (the cores' orders interact, or a core's
	// priority search stopped undecided) is decided over its joint orders
	// (decide, JointOrders).
	exhaustive bool
	// interact: the cores' priority orders interact (refined and request
	// counts, activated tasks): the exhaustive search varies a feasible
	// mapping's orders jointly (JointOrders) instead of core by core.
	interact bool
	// margin: an objective is the margin, which every core's order can
	// change (not only through the chain members' response times): the
	// exhaustive search varies a feasible mapping's orders jointly.
	margin bool
	// analysedAgain: an objective analyses the mapping beyond its
	// evaluation (the margin, the demand of the busiest core), after which
	// the evaluator no longer describes the mapping alone (feasibleMapping).
	analysedAgain bool
	// hooks are the search's test hooks, read from the evaluator once
	// (evaluate.HooksOf): NoVariants and NoDecide.
	hooks evaluate.Hooks
	// tasks, units and gpuTasks are the evaluator's view of the model
	// (evaluate.Model's Tasks, Units, GPUTasks).
	tasks    []evaluate.TaskSpec
	units    []evaluate.UnitSpec
	gpuTasks []int
	// runState is the state of the run in progress, which Run makes at
	// its start; a Problem from NewProblem has an idle one, with which its
	// workers can be made and used outside a run.
	*runState
}

// NewProblem builds the search problem of an evaluator's configuration with
// the search settings (defaults applied). What it decides, each in a
// function of its own: the mapping the genes start from (baseAssignment),
// the objectives (objectiveSpecs), the time-slice grid (sliceGrid), the
// interchangeable cores (coreClasses), the tasks whose priority orders
// matter (markRelevant) and the genes (buildGenes).
func NewProblem(e *evaluate.Evaluator, s configs.Search) (*Problem, error) {
	m := e.Model()
	sys := m.Config().System
	s = s.WithDefaults(sys, m.Config().Analysis.ChainLatency)
	if err := s.CheckObjectives(); err != nil {
		return nil, err
	}
	p := &Problem{e: e, search: s, hooks: evaluate.HooksOf(e), tasks: m.Tasks(), units: m.Units(), gpuTasks: m.GPUTasks(), runState: &runState{}}
	var err error
	if p.base, err = baseAssignment(e, s); err != nil {
		return nil, err
	}
	if p.objectives, err = objectiveSpecs(sys, s); err != nil {
		return nil, err
	}
	p.slices = sliceGrid(m, sys)
	p.class, p.classCores = coreClasses(sys)
	p.markRelevant(m)
	p.setAlgorithm(s.Algorithm)
	p.buildGenes(m.FIFO())
	return p, nil
}

// baseAssignment is the mapping the genes start from: no task placed when
// the search places the tasks, else the model's own mapping.
func baseAssignment(e *evaluate.Evaluator, s configs.Search) (*evaluate.Assignment, error) {
	if s.IsFree(configs.GeneUnits) {
		return e.NewAssignment(), nil
	}
	a, err := e.DefaultAssignment()
	if err != nil {
		return nil, fmt.Errorf("search.free leaves the units fixed, but the model's own mapping cannot be used: %w", err)
	}
	return a, nil
}

// objectiveSpecs resolves the search's objectives against the system: a
// chain objective's chain index and latency.
func objectiveSpecs(sys *configs.System, s configs.Search) ([]objectiveSpec, error) {
	var out []objectiveSpec
	for i, o := range s.Objectives {
		spec := objectiveSpec{cfg: o, chain: -1}
		if o.Kind == configs.ObjectiveChain {
			for c := range sys.Chains {
				if sys.Chains[c].Name == o.Chain {
					spec.chain = c
				}
			}
			if spec.chain < 0 {
				return nil, fmt.Errorf("search.objectives[%d]: chain %q is not defined", i, o.Chain)
			}
			spec.obj = evaluate.ChainObjective(configs.ChainLatency{Paradigm: o.Paradigm, Metric: o.Metric, Bound: o.Bound})
		}
		out = append(out, spec)
	}
	return out, nil
}

// sliceGrid is the grid of time slices (ps) of the timeslice model, from
// the system's minimum (or one step) to its maximum in the analysis's
// steps; none under the fifo model. buildGenes adds the model's own
// slices where they are off the grid.
func sliceGrid(m *evaluate.Model, sys *configs.System) []int64 {
	var slices []int64
	if !m.FIFO() {
		step := int64(m.Config().Analysis.TimeSliceStep)
		lo, hi := int64(sys.TimeSlice.Min), int64(sys.TimeSlice.Max)
		if lo <= 0 {
			lo = step
		}
		for v := lo; hi > 0 && v <= hi; v += step {
			slices = append(slices, v)
		}
	}
	return slices
}

// coreClasses groups interchangeable units (same kind, type, memory
// latencies and frequency): class[u] is unit u's class, classCores[c] the
// units of class c in unit order.
func coreClasses(sys *configs.System) (class []int, classCores [][]int) {
	keys := map[string]int{}
	class = make([]int, len(sys.Units))
	for u, unit := range sys.Units {
		k := fmt.Sprintf("%s/%s/%d/%d/%s", unit.Kind, unit.Type, unit.ReadLatency, unit.WriteLatency, unit.Frequency)
		if _, ok := keys[k]; !ok {
			keys[k] = len(keys)
		}
		class[u] = keys[k]
	}
	classCores = make([][]int, len(keys))
	for u, c := range class {
		classCores[c] = append(classCores[c], u)
	}
	return class, classCores
}

// markRelevant marks the tasks whose priority orders the objectives and
// the chain latency requirements depend on (relevant, anyRelevant), and
// whether an objective is the margin or analyses the mapping beyond its
// evaluation (margin, analysedAgain).
func (p *Problem) markRelevant(m *evaluate.Model) {
	p.relevant = make([]bool, len(p.tasks))
	markChain := func(chain int) {
		for _, k := range m.ChainTasks(chain) {
			p.relevant[k] = true
			if ts := &p.tasks[k]; ts.GPU >= 0 { // a GPU task and its offloading task stand for each other
				g := p.gpuTasks[ts.GPU]
				p.relevant[g], p.relevant[p.tasks[g].Offloader] = true, true
			}
			p.anyRelevant = true
		}
	}
	for _, o := range p.objectives {
		if o.chain >= 0 {
			markChain(o.chain)
		}
		p.analysedAgain = p.analysedAgain || o.cfg.Kind == configs.ObjectiveMargin || o.cfg.Kind == configs.ObjectiveMaxUtilisation
		if o.cfg.Kind == configs.ObjectiveMargin {
			// A margin depends on every task's response, and on the
			// orders beyond them: every order matters (JointOrders in the
			// exhaustive search).
			p.margin, p.anyRelevant = true, true
			for k := range p.relevant {
				p.relevant[k] = true
			}
		}
	}
	// A chain latency requirement is a constraint on a chain: its members'
	// orders matter for feasibility as an objective's do.
	for _, chain := range m.RequirementChains() {
		markChain(chain)
	}
}

// buildGenes makes the genes: per task its unit, and per GPU task its
// offloading mode and its stream priority (fifo) or time slice; the genes
// the search does not free keep the base mapping's value.
func (p *Problem) buildGenes(fifo bool) {
	s := p.search
	specs := p.tasks
	unitsFree := s.IsFree(configs.GeneUnits)
	for i, ts := range specs {
		values := ts.Units
		if !unitsFree || len(values) == 0 {
			values = []int{p.base.Unit[i]}
		}
		p.genes = append(p.genes, gene{kind: geneUnit, task: i, gpu: ts.GPU, values: values})
	}
	for g, task := range p.gpuTasks {
		mode := gene{kind: geneMode, task: task, gpu: g, values: []int{b2i(p.base.Async[g])}}
		if s.IsFree(configs.GeneOffloading) {
			mode.values = []int{0, 1}
		}
		p.genes = append(p.genes, mode)
		if fifo {
			prio := gene{kind: genePriority, task: task, gpu: g, values: []int{b2i(p.base.High[g])}}
			if s.IsFree(configs.GeneGPUPriorities) {
				prio.values = []int{0, 1}
			}
			p.genes = append(p.genes, prio)
		} else {
			slice := gene{kind: geneSlice, task: task, gpu: g}
			def := sort.Search(len(p.slices), func(k int) bool { return p.slices[k] >= p.base.Slice[g] })
			if def == len(p.slices) || p.slices[def] != p.base.Slice[g] {
				// The model's slice is not on the grid: add it.
				p.slices = append(p.slices, p.base.Slice[g])
				sort.Slice(p.slices, func(a, b int) bool { return p.slices[a] < p.slices[b] })
			}
			if s.IsFree(configs.GeneTimeSlices) {
				for k := range p.slices {
					slice.values = append(slice.values, k)
				}
			}
			p.genes = append(p.genes, slice)
		}
	}
	for gi := range p.genes {
		if g := &p.genes[gi]; g.kind == geneSlice && len(g.values) > 1 {
			p.sliceGenes = append(p.sliceGenes, gi)
		}
	}
	// Slice genes that are fixed take the index of the model's slice, known
	// only once the grid is complete.
	for gi := range p.genes {
		g := &p.genes[gi]
		if g.kind == geneSlice && len(g.values) == 0 {
			k := sort.Search(len(p.slices), func(k int) bool { return p.slices[k] >= p.base.Slice[g.gpu] })
			g.values = []int{k}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setAlgorithm sets the algorithm of the search and what depends on it.
func (p *Problem) setAlgorithm(a configs.Algorithm) {
	p.search.Algorithm = a
	p.exhaustive = a == configs.AlgorithmExhaustive
	p.interact = p.e.Model().Count() != memory.ChallengeCount || p.e.Model().Activated()
}

// Search returns the settings in force (defaults applied).
func (p *Problem) Search() configs.Search { return p.search }

// ObjectiveNames names the objectives in order.
func (p *Problem) ObjectiveNames() []string {
	out := make([]string, len(p.objectives))
	for i, o := range p.objectives {
		out[i] = o.cfg.Name()
	}
	return out
}

// Objectives returns the objective values of mapping a, evaluated into r
// by the problem's evaluator (in the order of ObjectiveNames; chain
// latencies in ms, the margin as its negative), and whether the mapping is
// feasible: only then are they the values the search compares.
func (p *Problem) Objectives(a *evaluate.Assignment, r *evaluate.Analysis) ([]float64, bool) {
	out := make([]float64, len(p.objectives))
	p.objectivesOf(p.e, a, r, out, nil)
	return out, r.Schedulable && r.RequirementsMet
}

// NumGenes implements moo.Problem.
func (p *Problem) NumGenes() int { return len(p.genes) }

// Domain implements moo.Problem: gene i takes the indices of its values.
func (p *Problem) Domain(i int) []int {
	out := make([]int, len(p.genes[i].values))
	for k := range out {
		out[k] = k
	}
	return out
}

// NumObjectives implements moo.Problem.
func (p *Problem) NumObjectives() int { return len(p.objectives) }

// Decode writes the mapping a genome stands for into a. A gene that does
// not matter under the others (the offloading task of a GPU task merged
// onto a core; the mode and stream priority of a GPU task on a core) is
// ignored.
func (p *Problem) Decode(genome []int, a *evaluate.Assignment) {
	a.CopyFrom(p.base)
	for gi := range p.genes {
		p.setGene(a, gi, genome[gi])
	}
	p.normalise(a)
}

// setGene writes gene gi, at the index k of its values, into a.
func (p *Problem) setGene(a *evaluate.Assignment, gi, k int) {
	g := &p.genes[gi]
	v := g.values[k]
	switch g.kind {
	case geneUnit:
		a.Unit[g.task] = v
	case geneMode:
		a.Async[g.gpu] = v == 1
	case genePriority:
		a.High[g.gpu] = v == 1
	case geneSlice:
		a.Slice[g.gpu] = p.slices[v]
	}
}

// normalise drops the placement of an offloading task whose GPU task runs
// on a core (merge convention), and gives such a GPU task the model's
// offloading mode, stream priority and slice, which do not matter there:
// one mapping, one form.
func (p *Problem) normalise(a *evaluate.Assignment) {
	for g, task := range p.gpuTasks {
		if a.Unit[task] != evaluate.NoUnit && a.Unit[task] != p.e.Model().GPUUnit() {
			a.Unit[p.tasks[task].Offloader] = evaluate.NoUnit
			a.Async[g], a.High[g], a.Slice[g] = p.base.Async[g], p.base.High[g], p.base.Slice[g]
		}
	}
}

// NewWorker implements moo.Problem. Besides evaluating genomes, a worker
// collects what Run reports about the run: the distinct feasible mappings it
// met and the priority-order variants (variants.go) of the feasible ones.
func (p *Problem) NewWorker() moo.Evaluator {
	// An infeasible genome needs only a rank (how badly it misses), not
	// every response time iterated to its fixed point; Run re-evaluates
	// the mappings it reports with the evaluator's own limit.
	e := p.e.With(evaluate.Options{Limit: rta.LimitRank, RefuteFirst: true, Stop: p.stop})
	w := &worker{p: p, e: e, a: e.NewAssignment(), r: e.NewAnalysis(), ca: e.NewAssignment(), b: e.NewAssignment(),
		rc: e.NewAnalysis(), rb: e.NewAnalysis(),
		obj: make([]float64, len(p.objectives)), feasible: map[uint64]mappingSeen{}, decided: map[uint64]int{}, open: map[uint64]string{},
		rename: make([]int, len(p.units)), next: make([]int, len(p.units))}
	p.mu.Lock()
	p.workers = append(p.workers, w)
	p.mu.Unlock()
	return w
}

type worker struct {
	p   *Problem
	e   *evaluate.Evaluator
	a   *evaluate.Assignment
	r   *evaluate.Analysis
	buf []chains.Member

	// Variants and counts (see NewWorker).
	ca, b     *evaluate.Assignment
	rc, rb    *evaluate.Analysis
	obj       []float64
	side      sideArchive            // exhaustive: the variants of every mapping met
	own       sideArchive            // genetic: the variants of the mapping at hand (report)
	feasible  map[uint64]mappingSeen // by canonical key, the mappings met that meet every deadline
	undecided int                    // evaluations with a core whose priority search was undecided
	decided   map[uint64]int         // exhaustive: the mappings decide has seen, by canonical key, with their cost
	open      map[uint64]string      // exhaustive: the mappings decide left undecided, described
	// mayVary's scratch: per unit, its tasks and whether one is relevant.
	unitTasks    []int
	unitRelevant []bool
	rename       []int // canonicalise's scratch
	next         []int
}

// mappingSeen is what a worker learnt of a mapping that meets every
// deadline. It depends only on the mapping's canonical form, so workers
// that meet the same mapping learn the same, and Run counts each mapping
// once whatever the number of workers.
type mappingSeen struct {
	feasible    bool  // some priority order also meets every requirement
	schedulable bool  // some priority order meets every deadline
	variants    int32 // priority-order variants evaluated
	incomplete  bool  // the variants were cut short
	cost        int   // the analyses the variants cost (evaluate.Budget)
}

// psPerMs converts the picoseconds of the analyses to the milliseconds of
// the objectives: dividing (not multiplying by 1e-9) gives the correctly
// rounded value, so 148300638000 ps prints as 148.300638 ms.
const psPerMs = 1e9

func (w *worker) Evaluate(genome []int, out *moo.Evaluation) {
	w.p.Decode(genome, w.a)
	a := w.a
	if !w.p.exhaustive {
		// The genetic search analyses the mapping's canonical form
		// (canonicalise), which has its objectives (interchangeable cores
		// are analysed alike), so that the analysis is also the one whose
		// priority-order variants feasibleMapping enumerates.
		w.p.canonicalise(w.a, w.ca, w.rename, w.next)
		a = w.ca
	}
	if err := w.e.Evaluate(a, w.r); err != nil {
		// Decode only builds valid assignments; an error here is a bug.
		panic(fmt.Sprintf("optimizer: evaluating a decoded genome: %v", err))
	}
	w.buf = w.p.objectivesOf(w.e, a, w.r, out.Objectives, w.buf)
	out.Violation = 0
	if w.r.Undecided > 0 {
		w.undecided++
	}
	feasible := w.r.Schedulable && w.r.RequirementsMet
	out.Cost = 0
	if w.r.Schedulable {
		out.Cost = w.feasibleMapping(feasible, w.variantBudget(out), out)
	} else if w.p.exhaustive && !w.r.Refuted() && !w.p.hooks.NoVariants && !w.p.hooks.NoDecide && (w.p.interact || w.r.Undecided > 0) {
		out.Cost = w.decide(w.variantBudget(out))
	}
	if !feasible {
		out.Violation = float64(w.r.Violation) / psPerMs
		if out.Violation == 0 {
			out.Violation = 1 / psPerMs
		}
		for i := range out.Objectives {
			out.Objectives[i] = 0
		}
		out.Tiebreak = w.r.MaxCoreUtilisation()
	}
}

// decide settles a mapping that misses a deadline under its derived
// priority orders when another joint order might make it feasible: the
// cores' orders interact (refined and request counts, activated tasks), or
// a core's priority search stopped undecided. It evaluates the mapping, in
// its canonical form, under every combination of orders that passes the
// relaxed test (JointOrders): a combination that meets every deadline makes
// the mapping feasible, and its non-dominated combinations join the front's
// candidates as variants do; a mapping no combination passes is proven
// infeasible; one whose combinations exceed the limit stays undecided
// (w.open), and the front is then not exact. A mapping the relaxed test
// refuted (evaluate.Analysis.Refuted) needs no deciding: no combination
// passes.
//
// It returns the analyses it made (moo.Evaluation.Cost), within left;
// for a mapping met before, what it made then, as if made again.
func (w *worker) decide(left evaluate.Budget) int {
	p := w.p
	p.canonicalise(w.a, w.ca, w.rename, w.next)
	key := p.hashAssignment(w.ca)
	if cost, ok := w.decided[key]; ok {
		return charge(left, cost)
	}
	seen := mappingSeen{}
	bud := &left
	defer func() { w.decided[key] = bud.Cost() }()
	jr, err := w.e.JointOrders(w.ca, p.search.MaxJointOrders, bud, w.b, w.rb, w.keepVariant(&seen))
	if err != nil {
		// The combinations are the mapping with explicit priorities: an
		// error here is a bug, as in Evaluate.
		panic(fmt.Sprintf("optimizer: evaluating a joint priority order: %v", err))
	}
	seen.incomplete = !jr.Complete
	if !jr.Complete {
		w.open[key] = w.e.Model().Describe(w.ca)
	}
	if seen.schedulable {
		seen.cost = bud.Cost()
		w.feasible[key] = seen
	}
	return bud.Cost()
}

// charge is the cost of a mapping met again whose variants cost cost when
// first met: what they would cost now with left, since the search never
// allows a mapping met later more than it allowed it earlier (see
// moo.Settings.MaxEvaluations), and the variants of a mapping cost
// min(left.EvaluationsLeft, what they cost unbounded) (evaluate.Budget).
func charge(left evaluate.Budget, cost int) int {
	if left.Unlimited {
		return cost
	}
	return min(left.EvaluationsLeft, cost)
}

// maxVariantAnalyses bounds, in the genetic search, the analyses the
// variants of one feasible mapping may cost (evaluate.Budget): the orders'
// enumeration and the combinations together. The package documentation
// ("Budgets") gives the measurement behind 16; a variable so that
// TestCompareVariantBudgets can compare bounds.
var maxVariantAnalyses = 16

// variantBudget is what the worker allows the priority-order variants of
// the mapping of out: what the search leaves them (moo.Evaluation.
// EvaluationsLeft), and in the genetic search at most maxVariantAnalyses.
func (w *worker) variantBudget(out *moo.Evaluation) evaluate.Budget {
	if w.p.exhaustive {
		return evaluate.Budget{EvaluationsLeft: out.EvaluationsLeft, Unlimited: out.Unlimited}
	}
	if out.Unlimited {
		return evaluate.Budget{EvaluationsLeft: maxVariantAnalyses}
	}
	return evaluate.Budget{EvaluationsLeft: min(out.EvaluationsLeft, maxVariantAnalyses)}
}

// objectivesOf computes the objectives of an evaluated, schedulable mapping
// (chain latencies in ms). A chain without a latency (which a schedulable
// mapping does not have, short of the job-enumeration limit) counts as a
// violation of 1 ms, reported through a negative objective that the caller
// turns into infeasibility.
func (p *Problem) objectivesOf(e *evaluate.Evaluator, a *evaluate.Assignment, r *evaluate.Analysis, out []float64, buf []chains.Member) []chains.Member {
	for i, o := range p.objectives {
		switch o.cfg.Kind {
		case configs.ObjectiveChain:
			buf = e.ChainMembers(r, o.chain, buf)
			v, st := e.ChainLatency(o.chain, buf, o.obj)
			if st != chains.OK {
				r.Schedulable = false
				if r.Violation == 0 {
					r.Violation = 1e9
				}
				continue
			}
			out[i] = float64(v) / psPerMs
		case configs.ObjectiveCoresUsed:
			n := 0
			for u := range r.Units {
				if !p.units[u].GPU && r.Units[u].Tasks > 0 {
					n++
				}
			}
			out[i] = float64(n)
		case configs.ObjectiveMargin:
			// The margin is maximised: its negative is minimised. Only a
			// feasible mapping gets objectives (the caller discards them
			// otherwise), and a bisection is not worth it for the others.
			if !r.Schedulable || !r.RequirementsMet {
				out[i] = 0
				continue
			}
			m, err := e.Margins(a, r, evaluate.MarginOptions{OnlyExecutionScale: true, NoConsequences: true})
			if err != nil {
				// The mapping was just evaluated: an error here is a bug.
				panic(fmt.Sprintf("optimizer: the margin of a mapping: %v", err))
			}
			out[i] = -m.ExecutionScale.Factor()
		case configs.ObjectiveMaxUtilisation:
			// The busiest core's load as the verdicts count it: Σ C/T under
			// the challenge count, the demand of the count under refined
			// and request (evaluate.UnitResult.Demand), which the verdicts
			// rest on and C's per-job contention overstates.
			demand := e.Model().Count() != memory.ChallengeCount
			if demand {
				if err := e.AnalyzeDemand(r); err != nil {
					panic(fmt.Sprintf("optimizer: the demand of a mapping: %v", err))
				}
			}
			m := 0.0
			for u := range r.Units {
				load := r.Units[u].Utilisation
				if demand {
					load = r.Units[u].Demand
				}
				if !p.units[u].GPU && load > m {
					m = load
				}
			}
			out[i] = m
		}
	}
	return buf
}
