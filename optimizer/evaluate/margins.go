package evaluate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta"
)

// Margins. The first question of an architecture review is how much the
// software may grow before a mapping breaks. A margin answers it as MAST's
// slack does (Medina, González Harbour and Drake, "MAST: Modeling and
// Analysis Suite for Real Time Applications", 2001: the largest uniform
// scaling of execution times that stays schedulable, found by bisection
// over the analysis): the largest factor on the execution demand (scale.go:
// worst-case CPU compute and GPU kernel time; memory lines unchanged) for
// which every task meets its deadline and every chain latency requirement
// holds, to 0.1 % and rounded down. The search (marginsearch.go) starts
// from the sensitivity of the tests (Bini, Di Natale and Buttazzo 2008)
// and needs about two analyses, most of them of the cores the scaling
// reaches only, where bisection over whole analyses needed a dozen.
//
// The mapping's priority orders are fixed at those it has (given, or
// derived at factor 1 and then kept): a margin is that of the mapping as
// it would be deployed, priorities included. Deriving the orders anew at
// every factor would make the verdict non-monotone in the factor (OPA may
// pick another order), and the margin then no property of one deployment.
//
// Monotonicity. With the orders and the kernel geometries fixed, a larger
// factor gives every task a larger or equal execution time, and the
// analyses are sustainable in execution times: the response-time fixed
// point is non-decreasing in C (Joseph and Pandya), the window contention
// in the other tasks' response times (memory's package documentation,
// "Order and monotonicity"), and the GPU bounds
// in block and copy times (rta/gpu, "Sustainability"). So the set of
// factors that pass is an interval from 0, and the search finds its upper
// end. The claim is checked, not assumed: TestMarginsBisect evaluates
// random feasible mappings (WATERS and synthetic) at the margin, which must
// pass, and 0.2 % above it, which must fail; the search itself only ever
// reports a factor it showed to pass (by analysis or certificate) and one
// 0.1 % above it that it showed to fail; TestMarginsFastEqualBisection
// compares it with bisection over whole analyses.

// MarginStatus says what a Margin found.
type MarginStatus int

const (
	// MarginFound: the mapping holds at Factor and fails 0.1 % above it
	// (Binding says what fails first).
	MarginFound MarginStatus = iota
	// MarginAtLeast: the mapping still holds at the largest factor tried,
	// configs.MaxExecutionScale (nothing it scales binds, e.g. a task that
	// computes nothing).
	MarginAtLeast
	// MarginNone: no factor from 0.001 up makes the mapping hold (what
	// fails does not scale: memory, copies, a requirement on a chain
	// without a bound).
	MarginNone
)

// Margin is the largest factor a scale of execution demand may take.
type Margin struct {
	Status MarginStatus
	// PerMille is the factor in thousandths, rounded down (1087 is 1.087):
	// the mapping holds at it (MarginFound, MarginAtLeast); for an
	// infeasible mapping it is below 1000, the factor at which the mapping
	// becomes feasible.
	PerMille int64
	// Binding says what fails 0.1 % above the factor (MarginFound), or at
	// the smallest factor (MarginNone): the task whose own test fails
	// there (Analysis.Cause: not a task that only lost its bound because of
	// another), or a chain latency requirement that is missed.
	// Consequences say what follows from it there, in order (Analysis
	// .Consequences): "so the GPU responses of SFM, Detection are
	// withdrawn", "so OS_Overhead has no bound".
	Binding      string
	Consequences []string
	// BindingTask is the task Binding names (index into System.Tasks), -1
	// where a requirement binds or nothing does.
	BindingTask int
}

// Factor is the margin as a factor (PerMille/1000).
func (m Margin) Factor() float64 { return float64(m.PerMille) / 1000 }

// String writes the margin for people: "×1.087", "≥ ×1000", "none".
func (m Margin) String() string {
	switch m.Status {
	case MarginAtLeast:
		return fmt.Sprintf("≥ ×%d", configs.MaxExecutionScale)
	case MarginNone:
		return "none"
	}
	return fmt.Sprintf("×%d.%03d", m.PerMille/1000, m.PerMille%1000)
}

// KindMargin is the margin of the tasks on the units of one kind (A57,
// Denver, the GPU's kind): only their execution demand scaled.
type KindMargin struct {
	Kind string
	Margin
}

// TaskMargin is the margin of one task, scaled alone, with its slack.
type TaskMargin struct {
	Task int
	Name string
	Margin
	// Slack is D − R (ps) where R is a bound (Bounded); negative when the
	// task misses its deadline.
	Slack   int64
	Bounded bool
}

// Margins are the margins of one mapping: every task's execution demand
// scaled together (ExecutionScale), per kind of unit, and per task.
type Margins struct {
	ExecutionScale Margin
	Kinds          []KindMargin
	Tasks          []TaskMargin
	// TasksLeftOut: the margins per task were not computed
	// (MarginOptions.NoTasks), though those per kind were.
	TasksLeftOut bool
}

// MarginOptions choose what Margins computes; the zero value computes
// everything.
type MarginOptions struct {
	// OnlyExecutionScale skips the margins per kind and per task;
	// NoTasks skips the margins per task (each costs about two analyses of
	// one core, so that a front of many points of a large system gets the
	// others only).
	OnlyExecutionScale, NoTasks bool
	// NoConsequences skips the whole analysis just above the execution
	// scale's and the kinds' margins that says what follows from what
	// binds (Margin.Consequences; a per-task margin never has them), where
	// certificates can do without it: for margins no one reads them of
	// (a front's points beyond those a report details, a search's margin
	// objective).
	NoConsequences bool
	// Workers bisect the margins per kind and per task in parallel
	// (default: the number of CPUs); the margins do not depend on it.
	Workers int
}

// marginScratch is the per-evaluator state of Margins: the probe
// evaluator (a scaler), the mapping with its priorities written out and
// the analysis of the last probe, with the buffers of the sensitivity
// sweeps (marginsearch.go).
type marginScratch struct {
	sc     *scaler
	b      *Assignment
	rb     *Analysis
	placed *Analysis // marginBase's scratch
	// pinned holds pinnedUpper's bounds per core, for the mapping of the
	// current Margins call.
	pinned map[int][]int64

	sens    rta.Sensitivities
	hp      []rta.Interferer
	eh      []int64
	out     []float64
	order   []int
	seq     []int
	hpIdx   []int
	gpuPart []int64
	// sensitivity's interferers of a core, in priority order
	// (coreInterferers).
	allHP  []rta.Interferer
	allEh  []int64
	passed []bool
	// certs are the certificates' bounds of the current mapping (nil
	// where it does not hold or they do not apply), consequences whether
	// its margins say what follows from what binds.
	certs        *taskCerts
	consequences bool
}

// Margins computes the margins of mapping a, evaluated by this evaluator
// into r (see the notes above margins.go's types: the priority orders are
// those r has, kept fixed). It overwrites no part of r.
func (e *Evaluator) Margins(a *Assignment, r *Analysis, opts MarginOptions) (*Margins, error) {
	m := &Margins{}
	e.prepareMargins(a, r)
	holds := r.Schedulable && r.RequirementsMet
	// The start of every search of a mapping that holds: the sensitivity
	// of the tests at factor 1, in the state of the mapping's analysis
	// (marginBase). One that does not bisects below 1 (marginBelowOne).
	all := scaling{task: -1}
	var start int64
	hint := -1
	e.margin.certs, e.margin.consequences = nil, !opts.NoConsequences
	if holds {
		e.marginBase(r)
		start, hint = e.marginStart(all, 1000, nil)
		// The certificates of every margin (marginsearch.go), with the
		// per-task starts where those margins are asked for.
		e.margin.certs = e.prepareTaskCerts(!opts.OnlyExecutionScale && !opts.NoTasks)
	}
	if opts.OnlyExecutionScale {
		var err error
		m.ExecutionScale, err = e.margin1(all, holds, start, hint)
		return m, err
	}
	m.TasksLeftOut = opts.NoTasks
	names := e.runningKinds(r)
	// The kinds' and the tasks' searches are independent: they run on
	// opts.Workers goroutines, each with its own evaluator (a margin does
	// not depend on which one computes it), from starts computed here.
	var jobs []scaling
	for _, k := range names {
		jobs = append(jobs, scaling{kind: k, task: -1})
	}
	for i := range r.Tasks {
		if r.Tasks[i].Role != NotRunning && !opts.NoTasks {
			jobs = append(jobs, scaling{task: i})
		}
	}
	// The per-task margins of a mapping that holds are certified from its
	// analysis at factor 1 (marginsearch.go, "Per-task margins by
	// certificates"); the others search from their starts.
	tc := e.margin.certs
	var perTask []float64
	if !opts.NoTasks && holds {
		if tc != nil {
			perTask = tc.startUp
		} else {
			perTask = e.margin.sc.e.perTaskStarts(e.margin.b, e.margin.rb)
		}
	}
	starts, hints := make([]int64, len(jobs)), make([]int, len(jobs))
	for k, j := range jobs {
		if holds {
			starts[k], hints[k] = e.marginStart(j, 1000, perTask)
		}
	}
	var err error
	if m.ExecutionScale, err = e.margin1(all, holds, start, hint); err != nil {
		return nil, err
	}
	found := make([]Margin, len(jobs))
	errs := make([]error, len(jobs))
	newWorker := func() *Evaluator {
		c := e.Clone()
		c.prepareMargins(a, r)
		c.margin.certs, c.margin.consequences = tc, !opts.NoConsequences
		if tc != nil {
			c.marginBase(r) // the certificates read the state of the analysis at factor 1
		}
		return c
	}
	OnWorkers(opts.Workers, len(jobs), newWorker, nil, func(c *Evaluator, k int) {
		if j := jobs[k]; tc != nil && j.task >= 0 {
			found[k], errs[k] = c.marginOfTask(tc, j.task)
			return
		}
		found[k], errs[k] = c.margin1(jobs[k], holds, starts[k], hints[k])
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for k, j := range jobs {
		if j.task < 0 {
			m.Kinds = append(m.Kinds, KindMargin{Kind: j.kind, Margin: found[k]})
			continue
		}
		tr := &r.Tasks[j.task]
		tm := TaskMargin{Task: j.task, Name: tr.Name, Margin: found[k], Bounded: tr.Verdict.Bounded()}
		if tm.Bounded {
			tm.Slack = tr.D - tr.R
		}
		m.Tasks = append(m.Tasks, tm)
	}
	return m, nil
}

// runningKinds returns the kinds of the units that run a task in r, in
// order.
func (e *Evaluator) runningKinds(r *Analysis) []string {
	var names []string
	for i := range r.Tasks {
		if u := r.Tasks[i].Unit; r.Tasks[i].Role != NotRunning && u >= 0 && !slices.Contains(names, e.units[u].kind) {
			names = append(names, e.units[u].kind)
		}
	}
	slices.Sort(names)
	return names
}

// prepareMargins readies e's margin scratch for mapping a evaluated into
// r: a scaler of its own and the mapping with r's priorities written out.
func (e *Evaluator) prepareMargins(a *Assignment, r *Analysis) {
	ms := &e.margin
	if ms.sc == nil {
		ms.sc = newScaler(e)
		ms.sc.e.setLimit(rta.LimitDeadline) // a probe needs the verdicts only
		ms.b, ms.rb = e.NewAssignment(), e.NewAnalysis()
	}
	r.WithPriorities(a, ms.b)
}

// AnalyzeMargins fills r.Margins for mapping a, just evaluated into r by
// this evaluator (see Margins).
func (e *Evaluator) AnalyzeMargins(a *Assignment, r *Analysis, opts MarginOptions) error {
	m, err := e.Margins(a, r, opts)
	if err != nil {
		return err
	}
	r.Margins = m
	return nil
}

// maxPerMille is configs.MaxExecutionScale in thousandths.
const maxPerMille = configs.MaxExecutionScale * 1000

// probe analyses the mapping with scaling s at factor k (thousandths) into
// e.margin.rb and reports whether it holds: the whole analysis, or with
// relaxed the relaxed test first (the same verdict, TestRefuteFirstKeeps
// Verdicts, but then the probe evaluator's state need not be that of the
// whole analysis).
func (e *Evaluator) probe(s scaling, k int64, relaxed bool) (bool, error) {
	s.ppm = k * 1000
	se := e.margin.sc.at(s)
	se.setRefuteFirst(relaxed)
	if err := se.Evaluate(e.margin.b, e.margin.rb); err != nil {
		return false, err
	}
	return e.margin.rb.Schedulable && e.margin.rb.RequirementsMet, nil
}

// margin1 finds the margin of one scaling, in thousandths, from start (see
// marginsearch.go), where hint's core is looked at first; holds is whether
// the mapping holds at factor 1.
func (e *Evaluator) margin1(s scaling, holds bool, start int64, hint int) (Margin, error) {
	if !holds {
		return e.marginBelowOne(s)
	}
	// Certificates of the factor start and the one above it, from the
	// mapping's analysis at factor 1, where they tell (marginsearch.go).
	if tc := e.margin.certs; tc != nil && start >= 1000 && start < maxPerMille {
		fails, m, err := e.scaleFails(tc, s, start+1, hint)
		if err != nil {
			return Margin{}, err
		}
		holds := false
		if fails {
			if holds, err = e.scaleHolds(tc, s, start); err != nil {
				return Margin{}, err
			}
		}
		if holds {
			if e.margin.consequences { // what follows: the whole analysis above
				if m, err = e.bindingAlone(s, start, start+1); err != nil {
					return Margin{}, err
				}
			}
			m.Status, m.PerMille = MarginFound, start
			return m, nil
		}
	}
	// What binds: the options of the last whole analysis that failed,
	// chosen from at the end (chooseBinding).
	var options []Margin
	// Up: the whole analysis one above the start, which should fail; a
	// pass moves the start up from its own analysis.
	lo, k := int64(1000), max(start, 1000)
	for {
		if k >= maxPerMille {
			ok, err := e.probe(s, maxPerMille, false)
			if err != nil || ok {
				return Margin{Status: MarginAtLeast, PerMille: maxPerMille, BindingTask: -1}, err
			}
			k = maxPerMille - 1
			break
		}
		ok, err := e.probe(s, k+1, false)
		if err != nil {
			return Margin{}, err
		}
		if !ok {
			break
		}
		lo = k + 1
		k, _ = e.marginStart(s, lo, nil)
		k = max(k, lo)
	}
	// Down: hi fails (the last whole analysis, whose state certify reads
	// and whose failure says what binds); find the largest factor below
	// that holds, by certificates where they can tell and by whole
	// analyses where they cannot, walking down by doubling steps from hi
	// until one holds, then halving.
	hi := k + 1
	options = e.bindingOptions()
	e.margin.passed = passedCores(e.margin.rb, e.margin.passed)
	certifiable := true // the state is that of the failing analysis at hi
	step := int64(1)
	bisect := false
	for hi-lo > 1 {
		k := hi - step
		if bisect || k <= lo {
			k, bisect = lo+(hi-lo)/2, true
		}
		ok := false
		if certifiable {
			var err error
			if ok, err = e.certify(s, k, e.margin.passed); err != nil {
				return Margin{}, err
			}
		}
		if !ok {
			var err error
			if ok, err = e.probe(s, k, false); err != nil {
				return Margin{}, err
			}
			certifiable = !ok
			if !ok {
				hi, options = k, e.bindingOptions()
				e.margin.passed = passedCores(e.margin.rb, e.margin.passed)
				step *= 2
				continue
			}
		}
		lo, bisect = k, true
	}
	m, err := e.chooseBinding(s, lo, hi, options)
	m.Status, m.PerMille = MarginFound, lo
	return m, err
}

// marginBelowOne bisects the factor of one scaling of a mapping that does
// not hold at factor 1, in thousandths: the factor at or below which it
// would hold, or none.
func (e *Evaluator) marginBelowOne(s scaling) (Margin, error) {
	// The probes try the relaxed test first, which gives the same
	// verdicts; what binds is read from whole analyses (bindingAlone).
	ok, err := e.probe(s, 1, true)
	if err != nil {
		return Margin{}, err
	}
	if !ok {
		m, err := e.bindingAlone(s, 0, 1)
		m.Status = MarginNone
		return m, err
	}
	lo, hi, err := e.bisectFactor(s, 1, 1000)
	if err != nil {
		return Margin{}, err
	}
	m, err := e.bindingAlone(s, lo, hi)
	m.Status, m.PerMille = MarginFound, lo
	return m, err
}

// bisectFactor halves the interval from lo, where the mapping holds with
// scaling s, to hi, where it fails, by probes (the relaxed test first),
// until the two are adjacent.
func (e *Evaluator) bisectFactor(s scaling, lo, hi int64) (int64, int64, error) {
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := e.probe(s, mid, true)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, hi, nil
}

// binding says what fails in the last probe (e.margin.rb): the task whose
// own test fails (Analysis.Cause), by the largest share of its deadline
// (a task without a bound first), with what follows from it; else the
// first chain latency requirement missed. It fills a Margin's Binding,
// Consequences and BindingTask.
func (e *Evaluator) binding() Margin {
	if roots := e.roots(); len(roots) > 0 {
		return e.bindsAs(roots[0])
	}
	r := e.margin.rb
	for _, q := range r.Requirements {
		if q.Checked && !q.Met {
			return Margin{Binding: fmt.Sprintf("requirement %s on chain %s is missed", q.Name, q.Chain), BindingTask: -1}
		}
	}
	return Margin{Binding: "the mapping fails", BindingTask: -1}
}

// bindsAs is what binds when task i does, in the last probe.
func (e *Evaluator) bindsAs(i int) Margin {
	r := e.margin.rb
	return Margin{Binding: r.CauseWords(i), Consequences: r.Consequences(i), BindingTask: i}
}

// roots returns the tasks whose own test fails in the last probe
// (e.margin.rb), by the largest share of their deadline by which they miss
// it (a task without a bound first), then in the model's order.
func (e *Evaluator) roots() []int {
	r := e.margin.rb
	var ids []int
	share := func(i int) float64 {
		tr := &r.Tasks[i]
		if v := r.failedVerdict(tr); !v.Bounded() || tr.R == rta.Infinity {
			return math.Inf(1)
		}
		return float64(tr.Excess()) / float64(max(tr.D, 1))
	}
	for i := range r.Tasks {
		if tr := &r.Tasks[i]; tr.Role != NotRunning && tr.Because == i {
			ids = append(ids, i)
		}
	}
	slices.SortStableFunc(ids, func(a, b int) int { return cmp.Compare(share(b), share(a)) })
	return ids
}

// bindingAlone says what binds the margin lo of scaling s, which holds at
// lo and fails at hi (thousandths): of the tasks whose own test fails in
// the whole analysis at hi (roots), the first that fails it with every
// other core's bounds (and the copies') held where they are at lo, and
// the GPU tasks' responses at hi (issue 32: it fails on its own, not
// because another core's bounds grew too); where none does (the cores
// fail only together), the first of them; with what follows from it at
// hi. lo below 1 (no factor holds) reads the analysis at hi alone.
func (e *Evaluator) bindingAlone(s scaling, lo, hi int64) (Margin, error) {
	if _, err := e.probe(s, hi, false); err != nil {
		return Margin{}, err
	}
	return e.chooseBinding(s, lo, hi, e.bindingOptions())
}

// bindingOptions returns what binds the last probe, a whole analysis that
// fails: one Margin (Binding, Consequences, BindingTask) per task whose
// own test fails there (roots), in their order; else the one binding
// gives.
func (e *Evaluator) bindingOptions() []Margin {
	roots := e.roots()
	if len(roots) == 0 {
		return []Margin{e.binding()}
	}
	options := make([]Margin, len(roots))
	for k, i := range roots {
		options[k] = e.bindsAs(i)
	}
	return options
}

// chooseBinding is bindingAlone from the options of the whole analysis at
// hi (bindingOptions), which it analyses again only when there are
// several.
func (e *Evaluator) chooseBinding(s scaling, lo, hi int64, options []Margin) (Margin, error) {
	if len(options) < 2 || lo < 1 {
		return options[0], nil
	}
	if _, err := e.probe(s, lo, false); err != nil {
		return Margin{}, err
	}
	ms := &e.margin
	held := slices.Clone(ms.sc.e.ref.resp)
	s.ppm = hi * 1000
	se := ms.sc.at(s)
	r := ms.rb
	if se.gpuUnit >= 0 {
		if err := se.gpuSide(ms.b, r, r.InterferingCoresCE, r.Units[se.gpuUnit].LineLatency); err != nil {
			return Margin{}, err
		}
	}
	for _, o := range options {
		if se.failsAlone(ms.b, r, o.BindingTask, held) {
			return o, nil
		}
	}
	return options[0], nil
}

// failsAlone reports whether task b's own test fails at the demand e
// holds, with the other cores' tasks counted at held (coreAgainst) and
// the GPU responses as r has them.
func (e *Evaluator) failsAlone(a *Assignment, r *Analysis, b int, held []int64) bool {
	t := &r.Tasks[b]
	if t.Role == OnGPU {
		g := &r.GPU[t.GPU]
		return !g.WithinPeriod || g.Response.Total > t.D
	}
	if !t.Role.OnCPU() {
		return false
	}
	out := e.coreAgainst(a, r, t.Unit, held, false)
	for n, i := range e.onCore[t.Unit] {
		if i == b {
			st := out[n].Status
			return st == rta.DeadlineMiss || st == rta.Exceeded || st == rta.Unbounded
		}
	}
	return false
}
