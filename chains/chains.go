package chains

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Member is one task of a cause-effect chain, as the chain analysis sees it.
// All times are in one caller-chosen unit (the project uses picoseconds).
// The zero value of every optional field is the conservative one: no
// jitter, no best case, no unit (no same-core rule).
type Member struct {
	// Name is used in reasons only; it may be empty.
	Name string
	// Period is the activation period T (> 0).
	Period int64
	// Offset is the release phase O (≥ 0): jobs arrive at O + j·T.
	// Zero for every member is synchronous release.
	Offset int64
	// Jitter is the release jitter J (0 ≤ J ≤ WCRT): a job that arrives at
	// O + j·T is released, and may start, up to J later. Response times
	// count from the arrival.
	Jitter int64
	// BCRT is a lower bound on the response time: the time from a job's
	// arrival to its write (0 ≤ BCRT ≤ WCRT).
	BCRT int64
	// BCET is a lower bound on the time from a job's start, where it reads,
	// to its write: its best-case execution time, suspensions included
	// (0 ≤ BCET ≤ WCRT; 0 when unknown). A job therefore reads at most
	// WCRT − BCET after its arrival.
	BCET int64
	// WCRT is the worst-case response time R (≥ 0), from the arrival.
	WCRT int64
	// LET is the logical execution time interval (> 0); 0 means Period.
	// Under LET a job released at r reads at r and writes at r + LET.
	LET int64
	// Deadline is the relative deadline (> 0); 0 means Period. A member with
	// WCRT > Deadline is unschedulable and the chain gets no latency.
	Deadline int64
	// Unit and Rank place the member on a processor scheduled by
	// preemptive fixed priorities, where it reads when it starts and writes
	// when it finishes (implicit communication): two consecutive members
	// with the same Unit ≠ 0 have their hop ordered by their ranks (package
	// doc, "Same-core hops"). Unit 0 means unknown: no rule applies. Rank is
	// the priority on the unit, lower = more urgent (the number of tasks of
	// higher priority there, for instance); members of one unit with equal
	// ranks are not ordered.
	Unit int
	Rank int
	// Suspends marks a member whose jobs may suspend themselves between
	// their read and their write (a task that offloads asynchronously and
	// waits passively): lower-priority jobs of its unit can then start, and
	// read, before it writes, so its hops to them are not ordered.
	Suspends bool
	// Unbounded marks a member whose response-time analysis found no bound
	// (or declared it unschedulable); WCRT and BCRT are then ignored.
	Unbounded bool
	// Why optionally says why the member is unbounded (copied into Reason).
	Why string
}

func (m *Member) letInterval() int64 {
	if m.LET != 0 {
		return m.LET
	}
	return m.Period
}

func (m *Member) deadline() int64 {
	if m.Deadline != 0 {
		return m.Deadline
	}
	return m.Period
}

// Status says whether a value (or a whole Result) exists.
type Status uint8

const (
	// OK: the value is valid.
	OK Status = iota
	// InvalidInput: empty chain or a member with a non-positive period, a
	// negative offset, jitter, response time, LET interval or deadline, or
	// a jitter, BCRT or BCET above its WCRT.
	InvalidInput
	// MemberUnbounded: a member has no response-time bound (Member.Unbounded).
	MemberUnbounded
	// MemberUnschedulable: a member's WCRT exceeds its deadline.
	MemberUnschedulable
	// LETOverrun: a member's WCRT exceeds its LET interval, so it cannot honour
	// LET semantics; only the LET values are affected.
	LETOverrun
	// Overflow: a sum or the hyperperiod does not fit in an int64.
	Overflow
	// TooManyJobs: the job-level enumeration would exceed Options.MaxJobs.
	TooManyJobs
)

var statusNames = [...]string{
	OK:                  "ok",
	InvalidInput:        "invalid input",
	MemberUnbounded:     "member unbounded",
	MemberUnschedulable: "member unschedulable",
	LETOverrun:          "LET overrun",
	Overflow:            "overflow",
	TooManyJobs:         "too many jobs",
}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// Values are the latencies of a chain under one paradigm and one bound:
// the three maxima, and lower bounds on the two minima.
type Values struct {
	// Status is OK when the numbers are valid; otherwise they are 0.
	Status Status
	// ReactionFromActivation is the longest forward job chain: from the
	// release (read) of a job of τ1 to the write of the last job of the chain
	// that first propagates its data.
	ReactionFromActivation int64
	// MaxReactionTime = ReactionFromActivation + T1: the external event
	// arrives just after a read of τ1 and waits up to one period to be sampled.
	MaxReactionTime int64
	// MaxDataAge is the longest backward job chain: from the read of the job
	// of τ1 whose data a job of τm uses to that τm job's write.
	MaxDataAge int64
	// MinReactionTime is a lower bound on the shortest time from an external
	// event to the first output that reflects it (the event arrives just
	// before a read of τ1): the shortest forward job chain, from the read of
	// its first job to the write of its last. MinDataAge is a lower bound on
	// the shortest backward job chain, measured the same way. Exact under
	// LET at the offsets; see the package doc, "Minima".
	MinReactionTime int64
	MinDataAge      int64
}

// Get returns the value of one metric.
func (v Values) Get(m Metric) int64 {
	switch m {
	case ReactionFromActivation:
		return v.ReactionFromActivation
	case MaxDataAge:
		return v.MaxDataAge
	default:
		return v.MaxReactionTime
	}
}

// Min returns the lower bound that goes with metric m: MinDataAge for
// data age, MinReactionTime for the two reaction metrics.
func (v Values) Min(m Metric) int64 {
	if m == MaxDataAge {
		return v.MinDataAge
	}
	return v.MinReactionTime
}

// Analysis names one of the bounds for any release offsets (package doc,
// "Bounds for any offsets").
type Analysis uint8

const (
	// Davare2007: Σ (T + R), Davare et al., DAC 2007.
	Davare2007 Analysis = iota
	// Duerr2019: the bound of Dürr et al., EMSOFT 2019, for periodic tasks,
	// with its one-processor refinement of ordered hops.
	Duerr2019
	// PerHop: every hop bounded alone, an ordered hop (package doc,
	// "Same-core hops") by the consumer's period plus the producer's jitter.
	PerHop
	// NumAnalyses is the number of analyses.
	NumAnalyses
)

var analysisNames = [...]string{Davare2007: "davare", Duerr2019: "duerr", PerHop: "per-hop"}

// String returns "davare", "duerr" or "per-hop".
func (a Analysis) String() string { return name(analysisNames[:], int(a), "Analysis") }

// Result is the analysis of one chain. Status is OK exactly when every Values
// in it is OK; otherwise Reason says what went wrong first, and each Values'
// own Status says whether that set is still valid (for example, under
// LETOverrun the implicit values remain valid).
type Result struct {
	Status Status
	// Member is the index of the member Reason is about, or -1.
	Member int

	// Implicit holds the job-level values under implicit communication at
	// the members' offsets: sound bounds (reads at release, writes at
	// release + WCRT, ordered hops as their ranks order them; minima from
	// the best cases), never above AnyOffset.
	Implicit Values
	// LET holds the job-level values under LET at the members' offsets:
	// exact.
	LET Values
	// AnyOffset holds bounds under implicit communication valid for any
	// offsets: per metric the least of Analyses (ReactionBy and DataAgeBy
	// say which), and minima valid for any offsets.
	AnyOffset Values
	// AnyOffsetLET is the same under LET: Σ (T + LET interval), Davare's
	// bound with the LET intervals for response times, which every
	// analysis of Analyses gives under LET; minima Σ LET interval.
	AnyOffsetLET Values
	// Analyses holds each bound for any offsets under implicit
	// communication (indexed by Analysis), with AnyOffset's minima.
	Analyses [NumAnalyses]Values
	// ReactionBy is the analysis that gives AnyOffset's reaction metrics,
	// DataAgeBy the one that gives its data age: the first in Analysis
	// order among those with the least value.
	ReactionBy, DataAgeBy Analysis

	// Hyperperiod is the LCM of the chain's periods (0 when not computed).
	Hyperperiod int64
	// ForwardJobs and BackwardJobs are the numbers of τ1 and τm jobs
	// enumerated per paradigm (Hyperperiod/T1 and Hyperperiod/Tm).
	ForwardJobs, BackwardJobs int64

	name, detail string // of Member
	value, limit int64  // the offending numbers, where they apply
}

// Reason explains a non-OK Status in one line; it is "" when Status is OK.
// It is built on demand, so Analyze itself never allocates.
func (r *Result) Reason() string {
	if r.Status == OK {
		return ""
	}
	var b strings.Builder
	b.WriteString("chain ")
	b.WriteString(r.Status.String())
	if r.Member >= 0 {
		b.WriteString(": member ")
		b.WriteString(strconv.Itoa(r.Member + 1))
		if r.name != "" {
			b.WriteString(" (")
			b.WriteString(r.name)
			b.WriteString(")")
		}
	}
	switch r.Status {
	case MemberUnbounded:
		b.WriteString(" has no response-time bound")
	case MemberUnschedulable:
		b.WriteString(": WCRT ")
		b.WriteString(strconv.FormatInt(r.value, 10))
		b.WriteString(" exceeds its deadline ")
		b.WriteString(strconv.FormatInt(r.limit, 10))
	case LETOverrun:
		b.WriteString(": WCRT ")
		b.WriteString(strconv.FormatInt(r.value, 10))
		b.WriteString(" exceeds its LET interval ")
		b.WriteString(strconv.FormatInt(r.limit, 10))
	case TooManyJobs:
		b.WriteString(": ")
		b.WriteString(strconv.FormatInt(r.value, 10))
		b.WriteString(" jobs per hyperperiod exceed the limit ")
		b.WriteString(strconv.FormatInt(r.limit, 10))
	}
	if r.detail != "" {
		b.WriteString(": ")
		b.WriteString(r.detail)
	}
	return b.String()
}

// Err returns nil when Status is OK and an error carrying Reason otherwise.
func (r *Result) Err() error {
	if r.Status == OK {
		return nil
	}
	return errors.New(r.Reason())
}

// fail records the first problem of a Result.
func (r *Result) fail(s Status, member int, detail string, value, limit int64) {
	if r.Status != OK {
		return
	}
	r.Status = s
	r.Member = member
	r.detail = detail
	r.value, r.limit = value, limit
}

// DefaultMaxJobs is the default cap on the number of starting (or ending)
// jobs enumerated per hyperperiod.
const DefaultMaxJobs = 1 << 20

// plan is what Analyze and WorstChain share after validation.
type plan struct {
	hyper  int64
	n1, nm int64 // τ1 and τm jobs per hyperperiod
	split  classSplit
}

// prepare validates the chain, fills the bounds for any offsets, the
// statuses and the hyperperiod into r and the plan of the job-level values
// into pl (the zero plan on failure). Job-level values are computable for a
// paradigm when its Status in r is OK afterwards.
func prepare(ms []Member, opts Options, r *Result, pl *plan) {
	preparePlanned(ms, opts, r, pl, false)
}

// preparePlanned is prepare; with planned, *pl already holds the plan of
// the members' periods (Planner), which is not computed again.
func preparePlanned(ms []Member, opts Options, r *Result, pl *plan, planned bool) {
	var kept plan
	if planned {
		kept = *pl
	}
	*pl = plan{}
	s, wrapped, maxO, ok := validate(ms, r)
	if !ok {
		return
	}

	// Hyperperiod and the job-level overflow guard: every time the
	// enumeration (and WorstChain's shift) touches lies within
	// ±(max O + 2·H + 2·S); as above, it fits when no partial sum wraps.
	if planned {
		*pl, ok = kept, true
	} else {
		ok = planPeriods(ms, pl)
	}
	if ok {
		h, g := pl.hyper, maxO
		for _, x := range [...]int64{h, h, s, s} {
			g += x
			wrapped |= g
		}
		ok = wrapped >= 0
	}
	jobLevel := func(st Status) {
		if r.Implicit.Status == OK {
			r.Implicit.Status = st
		}
		if r.LET.Status == OK {
			r.LET.Status = st
		}
	}
	if !ok {
		r.fail(Overflow, -1, "hyperperiod (LCM of the periods) or job times do not fit in int64", 0, 0)
		jobLevel(Overflow)
		*pl = plan{}
		return
	}
	maxJobs := opts.MaxJobs
	if maxJobs <= 0 {
		maxJobs = DefaultMaxJobs
	}
	r.Hyperperiod = pl.hyper
	if n := max(pl.n1, pl.nm); n > maxJobs {
		r.fail(TooManyJobs, -1, "", n, maxJobs)
		jobLevel(TooManyJobs)
		return
	}
	r.ForwardJobs, r.BackwardJobs = pl.n1, pl.nm
}

// validate checks the chain, sets the statuses and the Reason of r, and
// returns S = Σ (Tk + max(Rk, Lk)), the partial sums' sign bits (wrapped;
// negative when one wrapped around) and the largest offset; ok is false
// when no value exists (every Status set to why).
func validate(ms []Member, r *Result) (s, wrapped, maxO int64, ok bool) {
	r.Member = -1
	setAll := func(s Status) {
		r.Implicit.Status, r.LET.Status, r.AnyOffset.Status, r.AnyOffsetLET.Status = s, s, s, s
		for a := range r.Analyses {
			r.Analyses[a].Status = s
		}
	}
	if len(ms) == 0 {
		r.fail(InvalidInput, -1, "empty chain", 0, 0)
		setAll(InvalidInput)
		return
	}
	// Validation and S = Σ (Tk + max(Rk, Lk)) in one pass. After validation
	// every term is non-negative and every sum this package forms for any
	// offsets is at most S (doc.go), so all fit when S does; S fits exactly
	// when none of its partial sums wraps around to a negative number (a
	// sum of two non-negative int64 that does not fit does), which wrapped
	// collects.
	letOverrun := -1
	for i := range ms {
		m := &ms[i]
		switch {
		case m.Unbounded:
			r.fail(MemberUnbounded, i, m.Why, 0, 0)
		case m.Period <= 0 || m.Offset < 0 || m.BCRT < 0 || m.WCRT < m.BCRT ||
			m.Jitter < 0 || m.Jitter > m.WCRT || m.BCET < 0 || m.BCET > m.WCRT ||
			m.LET < 0 || m.Deadline < 0:
			r.fail(InvalidInput, i, invalidDetail(m), 0, 0)
		case m.WCRT > m.deadline():
			r.fail(MemberUnschedulable, i, "", m.WCRT, m.deadline())
		default:
			l := m.letInterval()
			if letOverrun < 0 && m.WCRT > l {
				letOverrun = i
			}
			s += m.Period
			wrapped |= s
			s += max(m.WCRT, l)
			wrapped |= s
			maxO = max(maxO, m.Offset)
			continue
		}
		r.name = m.Name
		setAll(r.Status)
		return
	}
	if wrapped < 0 {
		r.fail(Overflow, -1, "Σ (T + R) or Σ (T + LET) does not fit in int64", 0, 0)
		setAll(Overflow)
		return
	}
	if letOverrun >= 0 {
		m := &ms[letOverrun]
		if r.Status == OK {
			r.name = m.Name
		}
		r.fail(LETOverrun, letOverrun, "", m.WCRT, m.letInterval())
		r.LET.Status, r.AnyOffsetLET = LETOverrun, Values{Status: LETOverrun}
	}
	return s, wrapped, maxO, true
}

func invalidDetail(m *Member) string {
	switch {
	case m.Period <= 0:
		return "period must be positive"
	case m.Offset < 0:
		return "offset must be non-negative"
	case m.BCRT < 0:
		return "BCRT must be non-negative"
	case m.WCRT < m.BCRT:
		return "WCRT must be at least BCRT"
	case m.Jitter < 0 || m.Jitter > m.WCRT:
		return "jitter must be between 0 and WCRT"
	case m.BCET < 0 || m.BCET > m.WCRT:
		return "BCET must be between 0 and WCRT"
	case m.LET < 0:
		return "LET interval must be non-negative (0 = period)"
	default:
		return "deadline must be non-negative (0 = period)"
	}
}

// forwardEnd returns the write time of the last job of the forward job chain
// that starts with the job of ms[0] released at r1 under the hop delays h:
// every hop takes the first job of the next member released at or after
// the producer's release + its delay.
func forwardEnd(ms []Member, h *hops, r1 int64) int64 {
	t := r1
	for k := 1; k < len(ms); k++ {
		m := &ms[k]
		t = firstAtOrAfter(t+h.at(ms, k-1), m.Offset, m.Period)
	}
	return t + h.end
}

// backwardStart returns the release (read) time of the first job of the
// backward job chain that ends with the job of the last member released at
// rm under the hop delays h: every hop takes the last job of the previous
// member released at or before the current job's release − its delay.
func backwardStart(ms []Member, h *hops, rm int64) int64 {
	t := rm
	for k := len(ms) - 2; k >= 0; k-- {
		m := &ms[k]
		t = lastAtOrBefore(t-h.at(ms, k), m.Offset, m.Period)
	}
	return t
}

// maxForward returns the longest forward job chain over the n jobs of ms[0]
// released at O1, O1+T1, … and the release of the first job attaining it:
// job enumeration, the reference for the class method and WorstChain's way.
// It stops at the first chain as long as stop (the class method's value,
// for WorstChain; math.MaxInt64 to visit every job).
func maxForward(ms []Member, h *hops, n, stop int64) (best, at int64) {
	m0 := &ms[0]
	r1 := m0.Offset
	best, at = math.MinInt64, r1
	for i := int64(0); i < n && best < stop; i++ {
		if d := forwardEnd(ms, h, r1) - r1; d > best {
			best, at = d, r1
		}
		r1 += m0.Period
	}
	return best, at
}

// maxBackward returns the longest backward job chain over the n jobs of the
// last member released at Om, Om+Tm, … and the release of the last job of
// the first chain attaining it, stopping as maxForward does.
func maxBackward(ms []Member, h *hops, n, stop int64) (best, at int64) {
	mm := &ms[len(ms)-1]
	rm := mm.Offset
	best, at = math.MinInt64, rm
	for i := int64(0); i < n && best < stop; i++ {
		if d := rm + h.end - backwardStart(ms, h, rm); d > best {
			best, at = d, rm
		}
		rm += mm.Period
	}
	return best, at
}

// Analyze computes, for one chain, the job-level values under implicit
// communication and LET at the members' offsets, maxima and minima, and
// the bounds for any offsets. It never allocates and never panics. The
// job-level values come from the class method, equal to job enumeration at
// a cost that depends on the periods' job classes rather than on the
// hyperperiod; see the package doc.
func Analyze(members []Member, opts Options) Result {
	var r Result
	var pl plan
	prepare(members, opts, &r, &pl)
	anyOffsets(members, &r)
	if r.Implicit.Status != OK && r.LET.Status != OK {
		return r
	}
	sp := &pl.split
	t1 := members[0].Period
	var h hops
	if r.Implicit.Status == OK {
		h.set(members, upper)
		f := byClasses(members, &h, longestForward, sp)
		a := byClasses(members, &h, longestBackward, sp)
		h.set(members, lower)
		lo := lowestLatency(members, byClasses(members, &h, shortest, sp))
		r.Implicit = Values{OK, f, f + t1, a, lo, lo}
	}
	if r.LET.Status == OK {
		h.set(members, letModel)
		f := byClasses(members, &h, longestForward, sp)
		a := byClasses(members, &h, longestBackward, sp)
		lo := byClasses(members, &h, shortest, sp)
		r.LET = Values{OK, f, f + t1, a, lo, lo}
	}
	return r
}

// Eval returns the value of opts.Objective for the chain, computing only what
// that objective needs: the sums for any offsets, otherwise one paradigm
// and one direction (forward for the two reaction metrics, backward for data
// age), by the class method. It equals opts.Objective.Value(&r) for
// r := Analyze(members, opts), at a fraction of the cost, for an
// optimizer's inner loop; it never allocates. The number is 0 unless the
// Status is OK; Analyze's Reason explains a non-OK Status.
func Eval(members []Member, opts Options) (int64, Status) {
	var pl plan
	return evalPlanned(members, opts, &pl, false)
}

// A Planner evaluates chains like Eval and remembers the plan of the last
// chain it evaluated: the hyperperiod and the split of the class method
// (doc.go) depend only on the members' periods, which are the same from
// one evaluation of a chain to the next in a search, while their LCMs are
// a good part of the cost. Its zero value is ready to use; keep one per
// chain (and per goroutine). Planner.Eval returns what Eval returns
// (TestPlannerEqualsEval).
type Planner struct {
	periods []int64
	pl      plan
	valid   bool
}

// Eval is Eval(members, opts), with the plan reused when the members'
// periods are those of the last call.
func (p *Planner) Eval(members []Member, opts Options) (int64, Status) {
	same := p.valid && len(p.periods) == len(members)
	for i := 0; same && i < len(members); i++ {
		same = p.periods[i] == members[i].Period
	}
	pl := p.pl
	v, st := evalPlanned(members, opts, &pl, same)
	if !same && pl.hyper > 0 { // a plan was made: keep it
		p.periods = p.periods[:0]
		for i := range members {
			p.periods = append(p.periods, members[i].Period)
		}
		p.pl, p.valid = pl, true
	}
	return v, st
}

func evalPlanned(members []Member, opts Options, pl *plan, planned bool) (int64, Status) {
	var r Result
	if o := opts.Objective; o.Bound != AtOffsets {
		// The bounds for any offsets need no plan of the job-level values
		// (and make none for a Planner to keep).
		*pl = plan{}
		if _, _, _, ok := validate(members, &r); ok {
			anyOffsets(members, &r)
		}
		v := r.Values(o.Paradigm, o.Bound)
		return v.Get(o.Metric), v.Status
	}
	preparePlanned(members, opts, &r, pl, planned)
	o := opts.Objective
	v := r.Values(o.Paradigm, o.Bound)
	if v.Status != OK || o.Bound != AtOffsets {
		return v.Get(o.Metric), v.Status
	}
	md := upper
	if o.Paradigm == LET {
		md = letModel
	}
	var h hops
	h.set(members, md)
	sp := &pl.split
	switch o.Metric {
	case MaxDataAge:
		return byClasses(members, &h, longestBackward, sp), OK
	case ReactionFromActivation:
		return byClasses(members, &h, longestForward, sp), OK
	default:
		return byClasses(members, &h, longestForward, sp) + members[0].Period, OK
	}
}
