package memory

import (
	"errors"
	"math"

	"github.com/hetmap/hetmap/rta/sat"
)

// ErrPeriod reports a Demand whose period is not positive.
var ErrPeriod = errors.New("memory: period must be positive")

// ErrPhases reports a Demand that moves lines in no memory phase.
var ErrPhases = errors.New("memory: a task that moves lines needs at least one memory phase")

// ErrCount reports an unknown name of a contention count.
var ErrCount = errors.New("memory: unknown contention count (want challenge, refined or request)")

// Count selects how many accesses of an observed core are charged the
// contention of another core or of the copy engine (see the package
// documentation, "Window-aware contention counts").
type Count uint8

const (
	// ChallengeCount charges every access of the observed core once for
	// every other core that accesses memory at all, and once for the copy
	// engine when any GPU task copies: the challenge's sound convention,
	// O(t) = N_p(t) for every active interferer.
	ChallengeCount Count = iota
	// RefinedCount charges only the accesses that can overlap the
	// interferer's memory phases within the window:
	// O(t) = min(N_p(t), floor(Busy(t)/baseline(p)) + 2·Phases(t) +
	// Pauses_p(t)).
	// It rests on the challenge's semantics alone.
	RefinedCount
	// RequestCount also bounds O(t) by the interferer's number of line
	// requests in the window, A(t). It assumes that the memory arbitrates
	// round robin between clients, each with one outstanding request (Kim
	// et al., RTAS 2014), which the challenge does not state; every output
	// of a RequestCount number must name that assumption.
	RequestCount
)

// String returns the name of the count as the configuration spells it.
func (c Count) String() string {
	switch c {
	case ChallengeCount:
		return "challenge"
	case RefinedCount:
		return "refined"
	case RequestCount:
		return "request"
	}
	return "unknown"
}

// ParseCount returns the Count named s ("challenge", "refined" or
// "request"), or ErrCount.
func ParseCount(s string) (Count, error) {
	switch s {
	case "challenge":
		return ChallengeCount, nil
	case "refined":
		return RefinedCount, nil
	case "request":
		return RequestCount, nil
	}
	return 0, ErrCount
}

// Binding names the term of an overlap count's minimum that gave its value.
type Binding uint8

const (
	// NoAccess: the interferer accesses no memory, so nothing overlaps
	// (O = 0) under every count.
	NoAccess Binding = iota
	// ByLines: the observed core's own lines in the window, N_p(t); every
	// access may overlap, as the challenge's convention assumes.
	ByLines
	// ByTime: the time count floor(Busy(t)/baseline(p)) + 2·Phases(t) +
	// Pauses_p(t).
	ByTime
	// ByRequests: the interferer's line requests in the window, A(t)
	// (RequestCount only).
	ByRequests
)

// String returns a short name of the binding term for reports.
func (b Binding) String() string {
	switch b {
	case NoAccess:
		return "none"
	case ByLines:
		return "lines"
	case ByTime:
		return "time"
	case ByRequests:
		return "requests"
	}
	return "unknown"
}

// Demand is the memory demand of one task as seen by another core: a task
// on an interfering core, or the copies of a GPU task on the copy engine.
// [Footprint.OnCore] and [CopyDemand] build it.
type Demand struct {
	// Period is the task's period or minimum inter-arrival time T_k (ps,
	// positive).
	Period int64
	// Response bounds the time from a job's arrival (its periodic
	// activation) to its completion, R_k (ps). Every job's memory phases
	// then lie within [arrival, arrival + R_k], so at most
	// Jobs(t) = ceil((t + R_k)/T_k) jobs have any of them in a window of
	// length t. For a job released with jitter J after its arrival (a GPU
	// job launched when its pre-processing ends) it is J plus the response
	// from the release. A task without a bound may pass math.MaxInt64: the
	// count then falls back to the challenge's N_p(t).
	Response int64
	// Lines is the number of lines one job moves: lines(k) for a task on a
	// core, the copy-in plus copy-out lines of a GPU task.
	Lines int64
	// Phases is the number of memory phases of one job: on a core the read
	// phases plus the write phases of its runnables that move at least one
	// line ([Footprint]); on the copy engine its non-empty copies.
	Phases int64
	// Splits bounds how many memory phases of other jobs on the same unit
	// one job can cut in two by becoming ready and preempting them: on a
	// fixed-priority core 1 for its release plus 1 per self-suspension
	// (it becomes ready again when it resumes); 0 on the copy engine,
	// which does not preempt a copy.
	Splits int64
}

// Jobs returns η(t) = ceil((t + R)/T), the number of the task's jobs that
// can execute in a window of length t, carry-in included. A negative t or
// Response counts as 0; a non-positive Period (which [Window.Validate]
// rejects) or a sum beyond int64 gives math.MaxInt64, which only makes
// every count fall back to N_p(t).
func (d Demand) Jobs(t int64) int64 {
	if d.Period <= 0 {
		return math.MaxInt64
	}
	t, r := nonneg(t), nonneg(d.Response)
	if t > math.MaxInt64-r { // t + R does not fit: as many jobs as fit
		return math.MaxInt64
	}
	span := t + r
	n := span / d.Period
	if span%d.Period != 0 {
		n++
	}
	return n
}

// Interferer is another CPU core or the copy engine, as seen from the
// observed core: its tasks' demands and its per-line latency. The caller
// owns Tasks and may refill it between evaluations.
type Interferer struct {
	// Latency bounds the time one of the interferer's lines takes, Lat_c
	// (ps): for a core its line latency under the challenge's convention,
	// for the copy engine Lat(CE).
	Latency int64
	Tasks   []Demand
}

// Active reports whether the interferer accesses memory at all (some task
// has a line). An inactive interferer overlaps nothing under every count;
// the challenge's convention counts exactly the active ones.
func (c *Interferer) Active() bool {
	for k := range c.Tasks {
		if c.Tasks[k].Lines > 0 {
			return true
		}
	}
	return false
}

// Requests returns A(t) = Σ_k η_k(t)·lines(k), the number of lines the
// interferer can move in a window of length t (saturating at
// math.MaxInt64).
func (c *Interferer) Requests(t int64) int64 {
	a, _ := c.sums(t)
	return a
}

// Busy returns Busy(t) = Σ_k η_k(t)·lines(k)·Latency, a bound on the time
// the interferer spends in memory phases in a window of length t
// (saturating at math.MaxInt64).
func (c *Interferer) Busy(t int64) int64 {
	a, _ := c.sums(t)
	return sat.Mul(a, nonneg(c.Latency))
}

// Phases returns Phases(t) = Σ_k η_k(t)·(phases(k) + splits(k)), a bound on
// the number of separate intervals in which the interferer is in a memory
// phase within a window of length t (saturating at math.MaxInt64).
func (c *Interferer) Phases(t int64) int64 {
	_, p := c.sums(t)
	return p
}

// sums returns A(t) and Phases(t) in one pass over the tasks.
func (c *Interferer) sums(t int64) (requests, phases int64) {
	for k := range c.Tasks {
		d := &c.Tasks[k]
		n := d.Jobs(t)
		requests = sat.Add(requests, sat.Mul(n, nonneg(d.Lines)))
		phases = sat.Add(phases, sat.Mul(n, sat.Add(nonneg(d.Phases), nonneg(d.Splits))))
	}
	return requests, phases
}

// Overlap is an interferer's overlap count in one window with the terms of
// its minimum, for reports.
type Overlap struct {
	// Count is O(t): how many accesses of the observed core in the window
	// are charged this interferer's contention.
	Count int64
	// Lines is N_p(t), the observed core's lines in the window.
	Lines int64
	// Time is floor(Busy(t)/baseline(p)) + 2·Phases(t) + Pauses_p(t)
	// (saturating).
	Time int64
	// Requests is A(t), the interferer's lines in the window.
	Requests int64
	// By is the term that gave Count. Ties go to the first of N_p, time,
	// requests, so By is ByLines whenever the refinement gains nothing.
	By Binding
}

// Window holds what the contention of one observed core p depends on
// besides the window length: p's parameters, every other core and the copy
// engine. The caller fills it once per core and evaluation, owns the
// slices and may reuse them; the methods only read it and never allocate.
type Window struct {
	// Core is p's parameters: Baseline is baseline(p), the shortest time
	// one of p's accesses takes; PerCore is K(p); CopyEngine is sGPU(p).
	Core CoreParams
	// Cores are the other CPU cores (p excluded). A core without tasks, or
	// whose tasks move no line, contributes nothing.
	Cores []Interferer
	// CopyEngine holds the GPU tasks' copies; with no copying task the
	// copy engine contributes nothing.
	CopyEngine Interferer
}

// Validate reports ErrNegative for a negative parameter, latency, response
// time, line or phase count, ErrPeriod for a non-positive period and
// ErrPhases for a demand with lines but no phase. The
// counting methods treat such inputs as documented instead of failing, so
// a caller validates once, where its inputs are built.
func (w *Window) Validate() error {
	if err := w.Core.Validate(); err != nil {
		return err
	}
	for i := range w.Cores {
		if err := w.Cores[i].validate(); err != nil {
			return err
		}
	}
	return w.CopyEngine.validate()
}

func (c *Interferer) validate() error {
	if c.Latency < 0 {
		return ErrNegative
	}
	for k := range c.Tasks {
		d := &c.Tasks[k]
		if d.Period <= 0 {
			return ErrPeriod
		}
		if d.Response < 0 || d.Lines < 0 || d.Phases < 0 || d.Splits < 0 {
			return ErrNegative
		}
		if d.Lines > 0 && d.Phases == 0 {
			return ErrPhases
		}
	}
	return nil
}

// Overlap returns O(t) of interferer c (one of w.Cores or w.CopyEngine)
// for a window of length t in which the observed core accesses n = N_p(t)
// lines, pauses of them at most being paused by a preemption and resumed
// (see the package documentation: the time count needs it), under count,
// with the terms of the minimum:
//
//	challenge: O = N_p                                            (c active)
//	refined:   O = min(N_p, floor(Busy/baseline) + 2·Phases + pauses)
//	request:   O = min(N_p, floor(Busy/baseline) + 2·Phases + pauses, A)
//
// and O = 0 when c accesses no memory (under the refined counts: when no
// job of c that can run in the window moves a line, A(t) = 0). A negative
// t, n or pauses counts as 0; a baseline of 0 makes the time count
// unbounded (an access could be arbitrarily short). It never allocates.
func (w *Window) Overlap(c *Interferer, t, n, pauses int64, count Count) Overlap {
	n = nonneg(n)
	o := Overlap{Lines: n}
	requests, phases := c.sums(t)
	o.Requests = requests
	o.Time = timeCount(requests, c.Latency, w.Core.Baseline, phases, pauses)
	if count == ChallengeCount {
		if c.Active() {
			o.Count, o.By = n, ByLines
		}
		return o
	}
	if requests == 0 { // no line of c in the window
		return o
	}
	o.Count, o.By = n, ByLines
	if o.Time < o.Count {
		o.Count, o.By = o.Time, ByTime
	}
	if count == RequestCount && o.Requests < o.Count {
		o.Count, o.By = o.Requests, ByRequests
	}
	return o
}

// Interference returns I(t) = K(p)·Σ_c O_c(t) + sGPU(p)·O_CE(t), the
// contention the observed core can suffer in a window of length t in which
// it accesses n = N_p(t) lines, at most pauses of them paused and resumed,
// under count (saturating at math.MaxInt64). It is non-decreasing in t, n,
// pauses and every interferer's demand, and for every input RequestCount ≤
// RefinedCount ≤ ChallengeCount. It is the plain definition, one division
// per task and call; a response-time iteration calls
// [Counter.Interference], which gives the same values incrementally. It
// never allocates.
func (w *Window) Interference(t, n, pauses int64, count Count) int64 {
	var cores int64
	for i := range w.Cores {
		cores = sat.Add(cores, w.Overlap(&w.Cores[i], t, n, pauses, count).Count)
	}
	ce := w.Overlap(&w.CopyEngine, t, n, pauses, count).Count
	return sat.Add(sat.Mul(nonneg(w.Core.PerCore), cores), sat.Mul(nonneg(w.Core.CopyEngine), ce))
}

// timeCount returns floor(requests·latency/baseline) + 2·phases + pauses,
// the number of accesses of duration at least baseline, pauses of them
// paused and resumed, that can overlap intervals of total length
// requests·latency, phases of them. The product is formed in 128 bits; the
// result saturates at math.MaxInt64, which is also the value for a
// baseline of 0.
func timeCount(requests, latency, baseline, phases, pauses int64) int64 {
	if baseline <= 0 {
		return math.MaxInt64
	}
	q := sat.MulDiv(nonneg(requests), nonneg(latency), baseline)
	return sat.Add(sat.Add(q, sat.Mul(2, phases)), nonneg(pauses))
}
