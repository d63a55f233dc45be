package rta

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// MaxTime is the largest value accepted for any time parameter of a Task or
// an Interferer (2^60 ≈ 1.15e18; in picoseconds about 13 days). Keeping all
// inputs at or below it lets the analysis use plain int64 arithmetic
// without overflow.
const MaxTime int64 = 1 << 60

// Infinity is the response time reported with status Unbounded.
const Infinity int64 = math.MaxInt64

// MaxIterations bounds the fixed-point iterations of one response-time
// computation. The bound is only reached for pathological inputs (a
// higher-priority utilisation just below 1 together with a huge limit);
// the result is then reported as Exceeded, with the last iterate as R.
const MaxIterations = 1 << 20

// Task is a sporadic task on one core. All times are in one unit chosen by
// the caller (hetmap uses picoseconds) and must lie in [0, MaxTime].
type Task struct {
	// C is the worst-case execution time on the core. For a task that
	// offloads asynchronously it is the pre- plus post-processing time;
	// for synchronous offloading the caller folds the GPU response time
	// into C (the core busy-waits).
	C int64
	// T is the period or minimum inter-arrival time, T > 0.
	T int64
	// D is the relative deadline, 0 < D ≤ T (constrained deadlines).
	D int64
	// J is the release jitter: a job is released at most J after its
	// arrival.
	J int64
	// B is the blocking time (for example from non-preemptive sections or
	// shared resources); 0 if the task does not block.
	B int64
	// S is the total self-suspension time of a job: an asynchronously
	// offloading task runs pre-processing, launches GPU work, suspends for
	// at most S and then runs post-processing.
	S int64
	// Priority is used by the Explicit policy only: a higher value is more
	// urgent (as in Amalthea); equal values are allowed.
	Priority int
	// NoBound marks a task whose C or S is not a sound bound but only a
	// lower one (hetmap: the GPU response it waits for has no bound). Its
	// own response time is then no bound (status InputUnbounded), and
	// neither is that of any task below it, whose interference term needs
	// its C (and, when it suspends, its R): those get InterfererUnbounded.
	NoBound bool

	// The fields below describe the job's memory accesses for a
	// window-dependent contention term (Analyzer.Contention; see the
	// package documentation, "Window-dependent contention"). Without a
	// Contention they are ignored, and their zero values are valid.

	// C0 is the execution time without the contention of other units:
	// C with every memory access at its uncontended latency (hetmap:
	// compute, lines at the baseline latency and any busy-wait),
	// 0 ≤ C0 ≤ C. C − C0 is the contention C charges the job on its own.
	C0 int64
	// Lines is the number of memory accesses of one job (≥ 0).
	Lines int64
	// Access is the shortest time one job's Lines accesses take together
	// (Lines times the uncontended latency), 0 ≤ Access ≤ C0.
	Access int64
	// Suspensions is the number of self-suspensions of one job (≥ 0): the
	// job becomes ready 1 + Suspensions times, and each time it may preempt
	// a job below it and pause its memory access. A task with S > 0 and
	// Suspensions 0 counts one.
	Suspensions int64
}

// Errors returned for invalid input.
var (
	ErrInvalidTask = errors.New("rta: invalid task")
	ErrShortOutput = errors.New("rta: output slice shorter than task slice")
	ErrPolicy      = errors.New("rta: unknown priority policy")
)

// Validate reports whether t satisfies the model's preconditions:
// 0 ≤ C, J, B, S ≤ MaxTime, 0 < D ≤ T ≤ MaxTime, and for the contention
// fields 0 ≤ Access ≤ C0 ≤ C, 0 ≤ Lines ≤ MaxTime. The error wraps
// ErrInvalidTask.
func (t Task) Validate() error {
	switch {
	case t.T <= 0 || t.T > MaxTime:
		return fmt.Errorf("%w: period %d not in (0, %d]", ErrInvalidTask, t.T, MaxTime)
	case t.D <= 0 || t.D > t.T:
		return fmt.Errorf("%w: deadline %d not in (0, T=%d] (constrained deadlines)", ErrInvalidTask, t.D, t.T)
	case t.C < 0 || t.C > MaxTime:
		return fmt.Errorf("%w: execution time %d not in [0, %d]", ErrInvalidTask, t.C, MaxTime)
	case t.J < 0 || t.J > MaxTime:
		return fmt.Errorf("%w: jitter %d not in [0, %d]", ErrInvalidTask, t.J, MaxTime)
	case t.B < 0 || t.B > MaxTime:
		return fmt.Errorf("%w: blocking %d not in [0, %d]", ErrInvalidTask, t.B, MaxTime)
	case t.S < 0 || t.S > MaxTime:
		return fmt.Errorf("%w: suspension %d not in [0, %d]", ErrInvalidTask, t.S, MaxTime)
	case t.C0 < 0 || t.C0 > t.C:
		return fmt.Errorf("%w: execution time without contention %d not in [0, C=%d]", ErrInvalidTask, t.C0, t.C)
	case t.Access < 0 || t.Access > t.C0:
		return fmt.Errorf("%w: access time %d not in [0, C0=%d]", ErrInvalidTask, t.Access, t.C0)
	case !inRange(t.Lines):
		return fmt.Errorf("%w: lines %d not in [0, %d]", ErrInvalidTask, t.Lines, MaxTime)
	case !inRange(t.Suspensions):
		return fmt.Errorf("%w: suspensions %d not in [0, %d]", ErrInvalidTask, t.Suspensions, MaxTime)
	}
	return nil
}

func (t Task) valid() bool {
	return t.T > 0 && t.T <= MaxTime && t.D > 0 && t.D <= t.T &&
		inRange(t.C) && inRange(t.J) && inRange(t.B) && inRange(t.S) &&
		t.C0 >= 0 && t.C0 <= t.C && t.Access >= 0 && t.Access <= t.C0 && inRange(t.Lines) && inRange(t.Suspensions)
}

// readies returns how many times a job of t becomes ready: at its release
// and when it resumes after each self-suspension (at least one when S > 0).
func (t *Task) readies() int64 {
	s := t.Suspensions
	if t.S > 0 && s == 0 {
		s = 1
	}
	return min(1+s, MaxTime)
}

func inRange(x int64) bool { return x >= 0 && x <= MaxTime }

// Interferer is a higher-priority task as the task under analysis sees it:
// it executes at most C per job, its jobs arrive at least T apart, and each
// job's execution may be shifted by up to J (its effective release jitter).
// For a window-dependent contention term (Analyzer.Contention) it also
// carries its execution time without contention C0, its memory accesses
// per job Lines, the effective jitter J0 with which the window term counts
// its jobs, and Readies, how many times a job becomes ready and may
// preempt (see the package documentation, "Window-dependent contention");
// without a Contention these are ignored.
type Interferer struct {
	C, T, J                int64
	C0, Lines, J0, Readies int64
}

// Interferer returns t as an interferer of lower-priority tasks, given r, a
// sound bound on t's response time (status Schedulable or DeadlineMiss). A
// task that does not suspend has effective jitter J. A self-suspending
// task has effective jitter r − C (at least J, at most MaxTime): every job
// executes within [arrival, arrival + r], so its execution behaves like
// that of a non-suspending task released with jitter r − C (Bletsas et al.
// 2018; Chen et al. 2019). For the window term a self-suspending task has
// J0 = r − Access (at least J, at most MaxTime), J0 = J otherwise.
func (t Task) Interferer(r int64) Interferer {
	j0 := t.J
	if t.S > 0 && r-t.Access > j0 {
		j0 = r - t.Access
	}
	return Interferer{C: t.C, T: t.T, J: t.responseJitter(r), C0: t.C0, Lines: t.Lines, J0: min(j0, MaxTime), Readies: t.readies()}
}

// responseJitter is the jitter J of Interferer(r): r − C (at least J, at
// most MaxTime) for a self-suspending task, J otherwise.
func (t *Task) responseJitter(r int64) int64 {
	j := t.J
	if t.S > 0 && r-t.C > j {
		j = r - t.C
	}
	return min(j, MaxTime)
}

// InterfererAtDeadline returns t as an interferer with its jitter bounded
// through its deadline instead of its response time: D − C (at least J)
// for a self-suspending task, J otherwise (and for the window term D −
// Access, at least J). It is sound whenever t meets its deadline, and it
// does not depend on t's own interferers, which makes a test that uses it
// OPA-compatible.
func (t Task) InterfererAtDeadline() Interferer {
	j0 := t.J
	if t.S > 0 && t.D-t.Access > j0 {
		j0 = t.D - t.Access
	}
	return Interferer{C: t.C, T: t.T, J: t.deadlineJitter(), C0: t.C0, Lines: t.Lines, J0: j0, Readies: t.readies()}
}

// deadlineJitter is the jitter J of InterfererAtDeadline: D − C (at least
// J) for a self-suspending task, J otherwise.
func (t *Task) deadlineJitter() int64 {
	if t.S > 0 && t.D-t.C > t.J {
		return t.D - t.C
	}
	return t.J
}

// Status classifies a response-time result.
type Status uint8

const (
	// Schedulable: R is a sound response-time bound and R ≤ D.
	Schedulable Status = iota
	// DeadlineMiss: R is a sound response-time bound (R ≤ T) but R > D;
	// the deadline is missed by at most R − D.
	DeadlineMiss
	// Exceeded: the iteration passed the limit, or converged beyond T
	// where the single-job analysis is no longer a bound, or ran out of
	// iterations. R is where the iteration stopped: a lower bound on the
	// analysis value, not a bound on the response time; the task is not
	// shown schedulable.
	Exceeded
	// Unbounded: the utilisation of the higher-priority tasks is at least
	// 1, so the response time has no finite bound; R is Infinity.
	Unbounded
	// InterfererUnbounded: a task of higher (or, under Explicit, equal)
	// priority gives no sound interference bound: it self-suspends and has
	// no response-time bound, or its own C or S is no bound (Task.NoBound).
	// This task's response time cannot be bounded either. R is computed
	// with the values known and is a lower bound only.
	InterfererUnbounded
	// Invalid: ResponseTime was given input that violates the
	// preconditions (see Task.Validate); R is 0.
	Invalid
	// InputUnbounded: the task's own C or S is not a bound (Task.NoBound),
	// so neither is its response time. R is computed with the values given
	// and is a lower bound only.
	InputUnbounded
)

var statusNames = [...]string{
	Schedulable:         "schedulable",
	DeadlineMiss:        "deadline miss",
	Exceeded:            "exceeded limit",
	Unbounded:           "unbounded",
	InterfererUnbounded: "interferer unbounded",
	Invalid:             "invalid input",
	InputUnbounded:      "input unbounded",
}

// String returns a short English description of s.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Bounded reports whether the result's R is a sound response-time bound
// (Schedulable or DeadlineMiss).
func (s Status) Bounded() bool { return s == Schedulable || s == DeadlineMiss }

// ResponseTime returns the worst-case response time of t, preempted by the
// tasks hp of higher priority, measured from the arrival of a job (it
// includes t's own release jitter J):
//
//	w = C + S + B + Σ_{j∈hp} ceil((w + J_j)/T_j)·C_j,   R = w + J.
//
// The iteration starts at C + S + B + Σ C_j (below the least fixed point)
// and stops at the fixed point or as soon as w + J exceeds limit (limit is
// capped at MaxTime; pass t.D for speed, t.T or MaxTime to learn how far a
// deadline is missed). The status says how to read R: Schedulable or
// DeadlineMiss for a converged sound bound; Exceeded when the limit was
// passed (R is then the value, above the limit, at which the iteration
// stopped: a lower bound on the analysis value) or when the fixed point
// lies beyond T; Unbounded (R = Infinity) when Σ C_j/T_j ≥ 1; Invalid
// (R = 0) for input outside the preconditions; and InputUnbounded, in place
// of Schedulable or DeadlineMiss, when t.NoBound says that t's own C or S is
// no bound. A job without work
// (C + S + B = 0) completes when released: R = J, whatever hp is.
// ResponseTime never panics, and it allocates only to decide Σ C_j/T_j ≥ 1
// exactly when the sum lies within 1e-9 of 1.
func ResponseTime(t Task, hp []Interferer, limit int64) (int64, Status) {
	if !t.valid() {
		return 0, Invalid
	}
	for _, h := range hp {
		if h.T <= 0 || h.T > MaxTime || !inRange(h.C) || !inRange(h.J) {
			return 0, Invalid
		}
	}
	var r int64
	var st Status
	if len(hp) <= smallHP {
		var s [2 * smallHP]int64
		r, st = respond(&t, hp, limit, s[:])
	} else {
		r, st = respond(&t, hp, limit, nil)
	}
	return r, inputStatus(&t, st)
}

// inputStatus turns the status of a bounded result of a task whose own
// input is no bound (Task.NoBound) into InputUnbounded.
func inputStatus(t *Task, st Status) Status {
	if t.NoBound && st.Bounded() {
		return InputUnbounded
	}
	return st
}

// smallHP is the number of interferers up to which ResponseTime keeps the
// incremental iteration's state on the stack.
const smallHP = 8

// unboundedCheck is the number of iterations after which the iteration
// stops to check whether the higher-priority utilisation is at least 1.
const unboundedCheck = 64

// respond computes the response time of a valid t with valid interferers
// hp. scratch, if it holds at least 2·len(hp) values, carries the state of
// the incremental iteration; otherwise every iteration divides.
//
// The utilisation test Σ C_j/T_j ≥ 1 is kept off the common path: a fixed
// point exists only if the utilisation is below 1 (w ≥ C + S + B + U·w), so
// an iteration that converges needs no test. The test runs only when the
// iteration passes the limit, exhausts MaxIterations or has run
// unboundedCheck times; the result is Unbounded exactly when Σ C_j/T_j ≥ 1.
// An interferer with C_j ≥ T_j is caught at once, so every term below is
// smaller than w + J_j + T_j and no sum exceeds 2^62.
func respond(t *Task, hp []Interferer, limit int64, scratch []int64) (int64, Status) {
	a := t.C + t.S + t.B
	limit = max(0, min(limit, MaxTime))
	if a == 0 { // the job completes when released
		if t.J > limit {
			return t.J, Exceeded
		}
		return t.J, classify(t, t.J)
	}
	lim := limit - t.J // stop as soon as w > lim, i.e. R = w + J > limit
	w := a
	over := false
	for k := range hp {
		h := &hp[k]
		if h.C >= h.T {
			return Infinity, Unbounded
		}
		if !over {
			w += h.C
			over = w > lim
		}
	}
	if over || len(hp) == 0 {
		if over || w > lim {
			return exceeded(w+t.J, hp)
		}
		return w + t.J, classify(t, w+t.J)
	}
	if len(scratch) >= 2*len(hp) {
		return iterateIncremental(t, a, w, hp, lim, scratch[:len(hp)], scratch[len(hp):2*len(hp)])
	}
	for i := range MaxIterations {
		if w > lim {
			return exceeded(w+t.J, hp)
		}
		if i == unboundedCheck && utilisationAtLeastOne(hp) {
			return Infinity, Unbounded
		}
		next := a
		for k := range hp {
			h := &hp[k]
			next += (w + h.J + h.T - 1) / h.T * h.C // w + J ≤ 2^61, term < 2^62
			if next > lim {
				break
			}
		}
		if next == w {
			return w + t.J, classify(t, w+t.J)
		}
		w = next
	}
	return exceeded(w+t.J, hp)
}

// iterateIncremental is respond's loop with caller-provided state n and
// bound (each len(hp) long). Because w only grows, it keeps each
// interferer's job count n_j = ceil((w + J_j)/T_j) and the largest w the
// count holds for, bound_j = n_j·T_j − J_j, and updates them only when w
// passes the bound: by one job without a division in the common case, by a
// division otherwise. w0 = a + Σ C_j is the start value (every count 1).
func iterateIncremental(t *Task, a, w0 int64, hp []Interferer, lim int64, n, bound []int64) (int64, Status) {
	for k := range hp {
		n[k] = 1
		bound[k] = hp[k].T - hp[k].J
	}
	w := w0
	inter := w0 - a // Σ n_j·C_j
	for i := range MaxIterations {
		if i == unboundedCheck && utilisationAtLeastOne(hp) {
			return Infinity, Unbounded
		}
		for k := range hp {
			if w <= bound[k] {
				continue
			}
			h := &hp[k]
			var m int64
			if w-bound[k] <= h.T {
				m = n[k] + 1
				bound[k] += h.T
			} else {
				m = (w + h.J + h.T - 1) / h.T
				bound[k] = m*h.T - h.J
			}
			inter += (m - n[k]) * h.C // < w + J + T ≤ 3·2^60
			n[k] = m
			if inter > lim-a { // next = a + inter > lim
				return exceeded(a+inter+t.J, hp)
			}
		}
		next := a + inter
		if next == w {
			return w + t.J, classify(t, w+t.J)
		}
		w = next
	}
	return exceeded(w+t.J, hp)
}

// exceeded reports an iteration that passed its limit (or its iteration
// budget) at R = r: Unbounded if the interferers' utilisation is at least
// 1, Exceeded otherwise.
func exceeded(r int64, hp []Interferer) (int64, Status) {
	if utilisationAtLeastOne(hp) {
		return Infinity, Unbounded
	}
	return r, Exceeded
}

// classify maps a converged response time to its status.
func classify(t *Task, r int64) Status {
	switch {
	case r <= t.D:
		return Schedulable
	case r <= t.T:
		return DeadlineMiss
	default:
		return Exceeded
	}
}

// utilisationAtLeastOne reports whether Σ C_j/T_j ≥ 1 exactly.
func utilisationAtLeastOne(hp []Interferer) bool {
	return demandAtLeastOne(hp, func(h *Interferer) (int64, int64) { return h.C, h.T })
}

// demandAtLeastOne reports whether Σ c_j/T_j ≥ 1 exactly, where cost gives
// c_j and T_j of an element. A float64 sum decides all but a band of ±1e-9
// around 1 (its rounding error is below 1e-15 for any realistic number of
// tasks); inside the band, and only there, the sum is recomputed exactly
// with math/big, which allocates. The answer does not depend on the order
// of the terms, nor on whether terms of equal T are summed first (classes.go).
func demandAtLeastOne[E any](xs []E, cost func(*E) (c, t int64)) bool {
	var u float64
	for i := range xs {
		if c, t := cost(&xs[i]); c > 0 {
			u += float64(c) / float64(t)
		}
	}
	if u < 1-1e-9 {
		return false
	}
	if u > 1+1e-9 {
		return true
	}
	sum := new(big.Rat)
	term := new(big.Rat)
	for i := range xs {
		if c, t := cost(&xs[i]); c > 0 {
			sum.Add(sum, term.SetFrac64(c, t))
		}
	}
	return sum.Cmp(big.NewRat(1, 1)) >= 0
}
