package rta

import (
	"fmt"
	"slices"
)

// Policy selects how Analyzer.Analyze assigns priorities on a core.
type Policy uint8

const (
	// OPA is Audsley's optimal priority assignment (the default): it finds
	// a feasible order whenever one exists for its OPA-compatible test.
	OPA Policy = iota
	// DeadlineMonotonic orders by shorter D first (ties: shorter T, then
	// lower index).
	DeadlineMonotonic
	// RateMonotonic orders by shorter T first (ties: shorter D, then lower
	// index).
	RateMonotonic
	// Explicit uses Task.Priority: a higher value is more urgent; tasks
	// with equal values may preempt each other and count each other as
	// higher-priority interference.
	Explicit
)

var policyNames = [...]string{OPA: "opa", DeadlineMonotonic: "deadline-monotonic", RateMonotonic: "rate-monotonic", Explicit: "explicit"}

// String returns the policy's name.
func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

// Limit selects how far Analyzer.Analyze iterates the response time of a
// task that misses its deadline. (OPA's schedulability tests always stop at
// the deadline.)
type Limit uint8

const (
	// LimitDeadline stops as soon as R exceeds D (the default, fastest):
	// a miss is reported as Exceeded with the first iterate above D.
	LimitDeadline Limit = iota
	// LimitPeriod iterates up to T, the largest response time for which
	// the single-job analysis is a sound bound: a miss with R ≤ T is
	// reported as DeadlineMiss with its exact analysis value.
	LimitPeriod
	// LimitNone iterates to the fixed point (or MaxIterations); a value
	// beyond T is still reported as Exceeded.
	LimitNone
	// LimitRank iterates up to RankPeriods periods: a value beyond T is a
	// lower bound of the analysis value either way, and this far is enough
	// to rank how badly a task misses, which is what a search needs of an
	// infeasible mapping, at a fraction of LimitNone's cost when the
	// interference nearly saturates the core.
	LimitRank
)

// RankPeriods is how many periods LimitRank iterates a response time.
const RankPeriods = 4

// Result is the analysis result of one task.
type Result struct {
	// R is the response time from arrival (including the task's own
	// release jitter); read it together with Status.
	R int64
	// Status says whether R is a sound bound and whether it meets D.
	Status Status
	// Rank is the task's priority rank on its core: the number of tasks
	// with strictly higher priority (0 = most urgent). Tasks with equal
	// Explicit priorities share a rank.
	Rank int
	// With a window-dependent contention term (Analyzer.Contention),
	// Accesses is N(w), the memory accesses of the task's job and of the
	// higher-priority jobs in its window w = R − J, Pauses is P(w), how
	// many of them a preemption may pause, and Delay is I(w, N(w), P(w)),
	// the contention the window term charges there; FromC reports that the
	// classic form, with the contention C charges per job, gave the
	// response time (the window term gave no less). All zero without a
	// Contention, and for a task that completes when released.
	Accesses, Pauses, Delay int64
	FromC                   bool
}

// Analyzer assigns priorities to the tasks of one core and computes their
// response times. Its zero value is ready to use with LimitDeadline. An
// Analyzer holds scratch buffers that grow to the largest task set seen, so
// that Analyze does not allocate in steady state; it is not safe for
// concurrent use (use one Analyzer per goroutine).
type Analyzer struct {
	// Limit selects how far response times of missing tasks are iterated.
	Limit Limit
	// MaxSearchNodes bounds the exact priority search of the OPA policy
	// (partial orders examined per core); 0 means DefaultMaxSearchNodes.
	MaxSearchNodes int
	// ByTask makes the classic analysis iterate over every interferer even
	// on cores where it would iterate over interferer classes (tasks of
	// one period and jitter, summed; see the package documentation,
	// "Interferer classes"). The results are the same either way; ByTask
	// is the reference the tests compare the classes with.
	ByTask bool
	// Contention, when set, adds the window-dependent contention term of
	// the package documentation ("Window-dependent contention") to every
	// response time of the core: each task's bound is the least fixed
	// point of the minimum of the classic form (C) and the window form
	// (C0 and Contention.Delay). nil gives the classic analysis.
	Contention Contention

	order   []int        // priority order, most urgent first
	cand    []int        // OPA: unassigned tasks, largest deadline first
	hp      []Interferer // interferers of the task under analysis
	scratch []int64      // iteration state, 2 per task
	testR   []int64      // OPA: response time found by the assignment test
	testX   []windowInfo // OPA: its window information
	levels  int          // OPA: levels filled from the bottom
	ordered bool
	srch    orderSearch // the exact priority search (search.go)
	// Interferer classes (classes.go): the iteration runs over them
	// instead of the tasks when there is no Contention term.
	cls   classSet
	clsOf []int // OPA and the exact search's sub-OPA: per task, its class
}

// Order returns the priority order of the last Analyze, most urgent first,
// as indices into its task slice (nil if the last Analyze failed). The
// slice belongs to the Analyzer: it is valid until the next call and must
// not be modified. Under Explicit, tasks of equal priority appear in index
// order.
func (a *Analyzer) Order() []int {
	if !a.ordered {
		return nil
	}
	return a.order
}

// OPALevels returns how many priority levels, counted from the lowest, the
// last Analyze with policy OPA filled with tasks that pass the
// OPA-compatible test. It equals the number of tasks when OPA found a
// feasible order; otherwise the remaining, more urgent levels were filled
// in deadline-monotonic order.
func (a *Analyzer) OPALevels() int { return a.levels }

// Analyze assigns priorities to tasks, the tasks of one core, by policy and
// writes the result of tasks[i] to out[i]. It reports whether every task is
// Schedulable. It returns an error (and writes nothing) if a task is
// invalid (see Task.Validate), if len(out) < len(tasks) or if the policy is
// unknown. Analyze does not allocate once its buffers have grown to the
// number of tasks, except on the error path and in the rare exact
// utilisation check (see ResponseTime).
//
// OPA (the default) assigns priorities from the lowest level up. At each
// level it tries the unassigned tasks from the largest deadline down and
// puts the first one that meets its deadline with all other unassigned
// tasks above it, where a self-suspending interferer is given jitter D − C
// (InterfererAtDeadline). If some level cannot be filled and the core has
// self-suspending tasks, an exact search over the orders looks for one that
// passes the final test (see the package documentation, "Exact priority
// assignment"; Decided and SearchNodes report on it). If none is found, the
// tasks OPA could not place take the upper levels in deadline-monotonic
// order. Response times are then recomputed from the highest priority down
// with the tighter jitter R − C (Task.Interferer), which is what Result
// reports.
func (a *Analyzer) Analyze(policy Policy, tasks []Task, out []Result) (bool, error) {
	a.ordered = false
	a.levels = 0
	a.srch.nodes, a.srch.capped = 0, false
	if len(out) < len(tasks) {
		return false, ErrShortOutput
	}
	for i := range tasks {
		if !tasks[i].valid() {
			return false, fmt.Errorf("task %d: %w", i, tasks[i].Validate())
		}
	}
	n := len(tasks)
	a.grow(n)
	if n == 1 && policy <= Explicit { // every policy agrees on one task
		t := &tasks[0]
		a.order[0] = 0
		var x windowInfo
		r, st := a.respond(t, nil, a.limitFor(t), &x)
		st = inputStatus(t, st)
		out[0] = Result{R: r, Status: st, Accesses: x.accesses, Pauses: x.pauses, Delay: x.delay, FromC: x.fromC}
		if policy == OPA && st == Schedulable {
			a.levels = 1
		}
		a.ordered = true
		return st == Schedulable, nil
	}
	reuseFrom := n // no OPA test results to reuse
	switch policy {
	case OPA:
		a.assignOPA(tasks)
		if a.levels == n {
			// OPA's order passes the final test: its test is at least as
			// strict (see the package documentation).
			reuseFrom = 0
			break
		}
		a.ordered = true
		if a.searchOrder(tasks) {
			return a.evaluate(tasks, out, n), nil
		}
		// No order passes (or the search stopped undecided): report the
		// order OPA left, whose statuses show what fails.
		reuseFrom = n - a.levels
	case DeadlineMonotonic:
		a.sortDM(tasks)
	case RateMonotonic:
		a.sortOrder(tasks, rmLess)
	case Explicit:
		a.sortOrder(tasks, explicitLess)
		a.ordered = true
		return a.evaluateExplicit(tasks, out), nil
	default:
		return false, ErrPolicy
	}
	a.ordered = true
	return a.evaluate(tasks, out, reuseFrom), nil
}

func (a *Analyzer) grow(n int) {
	if cap(a.order) < n {
		a.order = make([]int, n)
		a.cand = make([]int, 0, n)
		a.hp = make([]Interferer, 0, n)
		a.scratch = make([]int64, 4*n)
		a.testR = make([]int64, n)
		a.testX = make([]windowInfo, n)
		a.clsOf = make([]int, n)
		a.cls.cls = make([]class, 0, n)
	}
	a.order = a.order[:n]
	a.testR = a.testR[:n]
	a.testX = a.testX[:n]
	a.clsOf = a.clsOf[:n]
}

// useClasses reports whether the response times of ts's tasks are
// iterated over interferer classes (classes.go): without a Contention term,
// on cores of at least classMinTasks tasks (on smaller ones building the
// classes costs about what they save).
func (a *Analyzer) useClasses(ts []Task) bool {
	return a.Contention == nil && !a.ByTask && len(ts) >= classMinTasks && classesFit(ts)
}

// respond computes the response time of task t below the interferers hp,
// with the Analyzer's contention term if it has one; x, if not nil,
// receives the window information.
func (a *Analyzer) respond(t *Task, hp []Interferer, limit int64, x *windowInfo) (int64, Status) {
	if a.Contention == nil {
		// No window information; x may hold an earlier contended test's
		// (OPA's test results are reused).
		if x != nil {
			*x = windowInfo{}
		}
		return respond(t, hp, limit, a.scratch)
	}
	return contended(t, hp, limit, a.scratch, a.Contention, x)
}

// overloaded reports, for the challenge's analysis (no Contention term),
// whether the tasks above t, of utilisation u, certainly use the whole
// core, so that respond would find t Unbounded: u exceeds 1 by more than
// the float sum's error (respond decides the band around 1 exactly), and t
// has work (a job without work completes when released).
func (a *Analyzer) overloaded(t *Task, u float64) bool {
	return a.Contention == nil && u > 1+1e-9 && t.C+t.S+t.B > 0
}

// limitFor returns the iteration limit for the reported response time of t.
func (a *Analyzer) limitFor(t *Task) int64 {
	switch a.Limit {
	case LimitPeriod:
		return t.T
	case LimitNone:
		return MaxTime
	case LimitRank:
		return min(MaxTime, RankPeriods*t.T)
	default:
		return t.D
	}
}

// less functions on task indices: true if i has strictly higher priority.
func dmLess(ts []Task, i, j int) bool {
	if ts[i].D != ts[j].D {
		return ts[i].D < ts[j].D
	}
	if ts[i].T != ts[j].T {
		return ts[i].T < ts[j].T
	}
	return i < j
}

func rmLess(ts []Task, i, j int) bool {
	if ts[i].T != ts[j].T {
		return ts[i].T < ts[j].T
	}
	if ts[i].D != ts[j].D {
		return ts[i].D < ts[j].D
	}
	return i < j
}

func explicitLess(ts []Task, i, j int) bool {
	if ts[i].Priority != ts[j].Priority {
		return ts[i].Priority > ts[j].Priority
	}
	return i < j
}

// sortDM fills a.order with 0..n-1 in deadline-monotonic order, as
// sortOrder(ts, dmLess) does, with the common case of tasks that come in
// that order checked without an indirect call per pair.
func (a *Analyzer) sortDM(ts []Task) {
	for i := 1; i < len(ts); i++ {
		if dmLess(ts, i, i-1) {
			a.sortOrder(ts, dmLess)
			return
		}
	}
	o := a.order
	for i := range o {
		o[i] = i
	}
}

// sortOrder fills a.order with 0..n-1 sorted by less (a strict total order).
func (a *Analyzer) sortOrder(ts []Task, less func([]Task, int, int) bool) {
	o := a.order
	for i := range o {
		o[i] = i
	}
	// A caller that keeps its tasks in this order (hetmap's evaluator, in
	// deadline-monotonic order) pays one pass.
	sorted := true
	for i := 1; i < len(o) && sorted; i++ {
		sorted = !less(ts, i, i-1)
	}
	if sorted {
		return
	}
	if len(o) > 32 {
		slices.SortFunc(o, func(x, y int) int {
			if less(ts, x, y) {
				return -1
			}
			if less(ts, y, x) {
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(o); i++ {
		x := o[i]
		k := i
		for k > 0 && less(ts, x, o[k-1]) {
			o[k] = o[k-1]
			k--
		}
		o[k] = x
	}
}

// assignOPA fills a.order by Audsley's algorithm with the deadline-based
// (OPA-compatible) test, falling back to deadline-monotonic order for the
// levels it cannot fill.
func (a *Analyzer) assignOPA(ts []Task) {
	if a.useClasses(ts) {
		a.assignOPAClasses(ts)
		return
	}
	n := len(ts)
	a.sortDM(ts)
	cand := a.cand[:0]
	for k := n - 1; k >= 0; k-- { // largest deadline first
		cand = append(cand, a.order[k])
	}
	// hp holds the unassigned tasks' interferers in cand's order; the test
	// of candidate ci swaps its own to the end and leaves it out, so that a
	// level costs one response time per candidate tried, not a rebuilt list.
	hp := a.hp[:0]
	uAll := 0.0 // Σ C/T of the unassigned tasks
	for _, x := range cand {
		hp = append(hp, ts[x].InterfererAtDeadline())
		uAll += float64(ts[x].C) / float64(ts[x].T)
	}
	level := n - 1
	for ; level >= 0; level-- {
		found := -1
		last := len(cand) - 1
		for ci, c := range cand {
			if a.overloaded(&ts[c], uAll-float64(ts[c].C)/float64(ts[c].T)) {
				continue // the others use the whole core: c fails here
			}
			hp[ci], hp[last] = hp[last], hp[ci]
			r, st := a.respond(&ts[c], hp[:last], ts[c].D, &a.testX[c])
			hp[ci], hp[last] = hp[last], hp[ci]
			if st == Schedulable {
				a.testR[c] = r
				found = ci
				break
			}
		}
		if found < 0 {
			break
		}
		a.order[level] = cand[found]
		uAll -= float64(ts[cand[found]].C) / float64(ts[cand[found]].T)
		cand = append(cand[:found], cand[found+1:]...)
		hp = append(hp[:found], hp[found+1:]...)
	}
	a.levels = n - 1 - level
	// Levels 0..level: the rest in deadline-monotonic order (cand holds
	// them largest deadline first).
	for k := 0; k <= level; k++ {
		a.order[k] = cand[len(cand)-1-k]
	}
}

// assignOPAClasses is assignOPA with its tests iterated over interferer
// classes (classes.go): the test of candidate c takes c's C out of its
// class. It tries the candidates in assignOPA's order, largest deadline
// first, and sums the same floating-point utilisations in the same order;
// cand holds the unassigned tasks in deadline-monotonic order and is
// scanned from its end, so that taking the task found, mostly the last one,
// moves nothing.
func (a *Analyzer) assignOPAClasses(ts []Task) {
	n := len(ts)
	a.sortDM(ts)
	cand := append(a.cand[:0], a.order...)
	uAll := 0.0 // Σ C/T of the unassigned tasks
	a.cls.reset()
	for k := n - 1; k >= 0; k-- {
		t := &ts[cand[k]]
		uAll += float64(t.C) / float64(t.T)
		a.clsOf[cand[k]] = a.cls.add(t.C, t.T, t.deadlineJitter())
	}
	cls := a.cls.cls
	level := n - 1
	for ; level >= 0; level-- {
		found := -1
		uFound := 0.0
		for ci := len(cand) - 1; ci >= 0; ci-- {
			c := cand[ci]
			t := &ts[c]
			u := float64(t.C) / float64(t.T)
			if a.overloaded(t, uAll-u) {
				continue // the others use the whole core: c fails here
			}
			k := a.clsOf[c]
			cls[k].C -= t.C
			r, st, _ := respondClasses(t, cls, t.D)
			cls[k].C += t.C
			if st == Schedulable {
				a.testR[c], a.testX[c] = r, windowInfo{} // no window information without a contention term
				found, uFound = ci, u
				break
			}
		}
		if found < 0 {
			break
		}
		c := cand[found]
		a.order[level] = c
		uAll -= uFound
		cls[a.clsOf[c]].C -= ts[c].C
		cand = append(cand[:found], cand[found+1:]...)
	}
	a.levels = n - 1 - level
	// Levels 0..level: the rest in deadline-monotonic order.
	copy(a.order[:level+1], cand)
}

// evaluate computes the response times for the strict order a.order, most
// urgent first, with the tight jitter of self-suspending interferers. A
// task that OPA placed (rank ≥ reuseFrom) with no self-suspending task
// above it keeps the response time of its assignment test, which had the
// same interferers with the same jitters.
func (a *Analyzer) evaluate(ts []Task, out []Result, reuseFrom int) bool {
	hp := a.hp[:0]
	classes := a.useClasses(ts)
	a.cls.reset()
	tainted := false
	suspending := false
	all := true
	uHP := 0.0 // Σ C/T of the tasks above
	for rank, i := range a.order {
		t := &ts[i]
		var r int64
		var st Status
		var x windowInfo
		switch {
		case rank >= reuseFrom && !suspending:
			r, st, x = a.testR[i], Schedulable, a.testX[i]
		case a.overloaded(t, uHP):
			r, st = Infinity, Unbounded // what respond finds, without its iterations
		case classes:
			cls := a.cls.cls
			var p passed
			r, st, p = respondClasses(t, cls, a.limitFor(t))
			if p.overLimit {
				// The tasks above as interferers, in order, for the
				// replay; built only when a replay needs them.
				for _, k := range a.order[len(hp):rank] {
					hp = append(hp, ts[k].Interferer(out[k].R))
				}
				r, st = p.replay(t, cls, hp)
			}
		default:
			r, st = a.respond(t, hp, a.limitFor(t), &x)
		}
		uHP += float64(t.C) / float64(t.T)
		st = inputStatus(t, st)
		if tainted && (st.Bounded() || st == InputUnbounded) {
			st = InterfererUnbounded
		}
		out[i] = Result{R: r, Status: st, Rank: rank, Accesses: x.accesses, Pauses: x.pauses, Delay: x.delay, FromC: x.fromC}
		all = all && st == Schedulable
		if t.S > 0 {
			suspending = true
		}
		if taints(t, st) {
			tainted = true
		}
		if classes {
			a.cls.add(t.C, t.T, t.responseJitter(r))
		} else {
			hp = append(hp, t.Interferer(r))
		}
	}
	return all
}

// taints reports whether task t, with status st, leaves the tasks below it
// without a sound bound: a self-suspending task without a response-time
// bound (its jitter R − C is unknown) or a task whose own C or S is no
// bound (Task.NoBound).
func taints(t *Task, st Status) bool {
	return t.NoBound || (t.S > 0 && !st.Bounded())
}

// evaluateExplicit computes the response times for the Explicit policy,
// where a.order is sorted by decreasing Priority and tasks of equal
// priority interfere with each other. Within a group of equal priority a
// self-suspending peer is counted with its deadline-based jitter; the group
// is sound if every self-suspending member meets its deadline, otherwise
// the members that relied on such a jitter lose their bound.
func (a *Analyzer) evaluateExplicit(ts []Task, out []Result) bool {
	n := len(ts)
	hp := a.hp[:0]
	tainted := false
	for g := 0; g < n; {
		e := g + 1
		for e < n && ts[a.order[e]].Priority == ts[a.order[g]].Priority {
			e++
		}
		group := a.order[g:e]
		suspending := 0
		for _, i := range group {
			if ts[i].S > 0 {
				suspending++
			}
		}
		for _, i := range group {
			t := &ts[i]
			h := hp
			for _, k := range group {
				if k != i {
					h = append(h, ts[k].InterfererAtDeadline())
				}
			}
			var x windowInfo
			r, st := a.respond(t, h, a.limitFor(t), &x)
			st = inputStatus(t, st)
			if tainted && (st.Bounded() || st == InputUnbounded) {
				st = InterfererUnbounded
			}
			out[i] = Result{R: r, Status: st, Rank: g, Accesses: x.accesses, Pauses: x.pauses, Delay: x.delay, FromC: x.fromC}
		}
		if suspending > 0 && len(group) > 1 {
			groupOK := true
			for _, i := range group {
				if ts[i].S > 0 && out[i].Status != Schedulable {
					groupOK = false
				}
			}
			if !groupOK {
				for _, i := range group {
					own := 0
					if ts[i].S > 0 {
						own = 1
					}
					if suspending-own > 0 && (out[i].Status.Bounded() || out[i].Status == InputUnbounded) {
						out[i].Status = InterfererUnbounded
					}
				}
			}
		}
		// A peer whose own C or S is no bound leaves the others of its
		// group without a bound too: they count it as an interferer.
		for _, k := range group {
			if !ts[k].NoBound {
				continue
			}
			for _, i := range group {
				if i != k && (out[i].Status.Bounded() || out[i].Status == InputUnbounded) {
					out[i].Status = InterfererUnbounded
				}
			}
		}
		for _, i := range group {
			t := &ts[i]
			if taints(t, out[i].Status) {
				tainted = true
			}
			hp = append(hp, t.Interferer(out[i].R))
		}
		g = e
	}
	all := true
	for i := range ts {
		all = all && out[i].Status == Schedulable
	}
	return all
}
