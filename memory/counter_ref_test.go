package memory

import (
	"math"
	"math/bits"

	"github.com/hetmap/hetmap/rta/sat"
)

// refCounter is the Counter as it was before the period index: per
// interferer the sums on the intersection of its tasks' constant
// intervals, recomputed over every task where a call leaves it. It is the
// reference that TestCounterMatchesReference and FuzzInterference
// (driveCounters) hold the Counter to, call for call; it is kept verbatim
// apart from the names and the comments.
type refCounter struct {
	w     *Window
	units []refUnit // w.Cores, then w.CopyEngine
	jobs  []refJob  // the tasks of every unit, in order
	until int64     // the last call's values hold up to this window length
}

type refUnit struct {
	ic       *Interferer
	jobs     []refJob // the states of ic.Tasks, within refCounter.jobs
	lo, hi   int64    // requests and phases hold for lo < t ≤ hi
	requests int64    // A(t)
	phases   int64    // Phases(t)
	time     int64    // the time count, or -1 until computed
	active   int8     // some task has a line (the challenge's #C): 1, 0, or −1 until asked
	// floor: requests and phases are not yet computed for any t but hold
	// one job of every task, a lower bound at every t > 0 whatever the
	// response times (η ≥ 1 there).
	floor bool
	// What the calls since Reset asked (Stability): the least t − lo; whether
	// every call overlapped all or none of the accesses; and then the least
	// margins of the time count and of the requests over n, folded in from
	// the calls with the current sums (pending: there were some; pendN the
	// largest n, pendNeed the largest n − pauses) whenever the sums change
	// and when asked.
	slack                 int64
	allLines              bool
	timeMargin, reqMargin int64
	pending               bool
	pendN, pendNeed       int64
}

type refJob struct {
	valid            bool  // jobs was computed (a new slot is not)
	period, response int64 // the Demand's T and R that jobs is for
	lo, hi           int64 // jobs holds for lo < t ≤ hi
	jobs             int64
}

func (c *refCounter) Reset(w *Window) {
	if c.w == w && c.sameShape() {
		// The same interferers with the same numbers of tasks: only the
		// sums and the records of the calls start over.
		for i := range c.units {
			u := &c.units[i]
			u.lo, u.hi, u.active, u.time = 0, -1, -1, -1
			u.setFloor()
			u.slack, u.allLines, u.timeMargin, u.reqMargin, u.pending = math.MaxInt64, true, math.MaxInt64, math.MaxInt64, false
		}
		return
	}
	c.w = w
	n := len(w.Cores) + 1
	if cap(c.units) < n {
		c.units = make([]refUnit, n)
	}
	c.units = c.units[:n]
	tasks := len(w.CopyEngine.Tasks)
	for i := range w.Cores {
		tasks += len(w.Cores[i].Tasks)
	}
	if cap(c.jobs) < tasks {
		jobs := make([]refJob, tasks, 2*tasks)
		copy(jobs, c.jobs)
		c.jobs = jobs
	}
	c.jobs = c.jobs[:tasks]
	first := 0
	for i := range c.units {
		ic := &w.CopyEngine
		if i < len(w.Cores) {
			ic = &w.Cores[i]
		}
		c.units[i] = refUnit{ic: ic, jobs: c.jobs[first : first+len(ic.Tasks)], lo: 0, hi: -1, active: -1, time: -1,
			slack: math.MaxInt64, allLines: true, timeMargin: math.MaxInt64, reqMargin: math.MaxInt64}
		c.units[i].setFloor()
		first += len(ic.Tasks)
	}
}

func (u *refUnit) setFloor() {
	var requests, phases int64
	for k := range u.ic.Tasks {
		d := &u.ic.Tasks[k]
		requests = sat.Add(requests, nonneg(d.Lines))
		phases = sat.Add(phases, sat.Add(nonneg(d.Phases), nonneg(d.Splits)))
	}
	u.requests, u.phases, u.floor = requests, phases, true
}

func (c *refCounter) sameShape() bool {
	w := c.w
	if len(c.units) != len(w.Cores)+1 {
		return false
	}
	for i := range c.units {
		ic := &w.CopyEngine
		if i < len(w.Cores) {
			ic = &w.Cores[i]
		}
		if c.units[i].ic != ic || len(c.units[i].jobs) != len(ic.Tasks) {
			return false
		}
	}
	return true
}

func (c *refCounter) Interference(t, n, pauses int64, count Count) int64 {
	if c.w == nil {
		return math.MaxInt64
	}
	cores, ce := c.Overlaps(t, n, pauses, count)
	w := c.w
	return sat.Add(sat.Mul(nonneg(w.Core.PerCore), cores), sat.Mul(nonneg(w.Core.CopyEngine), ce))
}

func (c *refCounter) Overlaps(t, n, pauses int64, count Count) (cores, copyEngine int64) {
	if c.w == nil {
		return nonneg(n), nonneg(n)
	}
	t, n, pauses = nonneg(t), nonneg(n), nonneg(pauses)
	c.until = math.MaxInt64
	last := len(c.units) - 1
	for i := range c.units {
		u := &c.units[i]
		var o int64
		if count == ChallengeCount {
			if u.active < 0 {
				u.active = int8(refB2i(u.ic.Active()))
			}
			if u.active == 1 {
				o = n
			}
		} else {
			// Past the interval the cached sums are lower bounds (every
			// count is non-decreasing in t): if they already give O = n,
			// so do the exact ones, and the refresh is saved.
			if t <= u.lo || (t > u.hi && !c.allOverlap(u, n, pauses, count)) {
				c.refresh(u, t)
			}
			if !u.floor && u.lo > math.MinInt64 { // the floor and an interferer without tasks have no boundary
				u.slack = min(u.slack, t-u.lo)
			}
			if u.requests > 0 {
				o = c.refined(u, n, pauses)
				if count == RequestCount {
					o = min(o, u.requests)
				}
				if o < n {
					u.allLines = false
				} else if !u.pending {
					u.pending, u.pendN, u.pendNeed = true, n, n-pauses
				} else {
					u.pendN, u.pendNeed = max(u.pendN, n), max(u.pendNeed, n-pauses)
				}
			}
			if o < n {
				// Below n the count follows the sums, which hold up to
				// hi (here they were computed for t); n itself holds for
				// every longer window, the counts being non-decreasing.
				c.until = min(c.until, u.hi)
			}
		}
		if i == last {
			copyEngine = o
		} else {
			cores = sat.Add(cores, o)
		}
	}
	return cores, copyEngine
}

func (c *refCounter) Until() int64 { return c.until }

func (c *refCounter) foldMargins(u *refUnit) {
	if !u.pending || !u.allLines {
		u.pending = false
		return
	}
	u.pending = false
	n := u.pendN
	x := sat.Mul(u.requests, nonneg(u.ic.Latency))
	b := nonneg(c.w.Core.Baseline)
	need, twoP := u.pendNeed, sat.Mul(2, u.phases) // need = n − pauses may be negative
	var margin int64
	if need > twoP {
		y := sat.Mul(need-twoP, b)
		margin = x - y // ≥ 0: the time count was at least n
		if b > 0 && y == math.MaxInt64 {
			margin = 0 // saturated: no margin can be shown
		}
	} else {
		deficit := twoP - max(need, 0)
		if need < 0 {
			deficit = sat.Add(twoP, -need)
		}
		margin = sat.Add(x, sat.Mul(deficit, b))
	}
	if b == 0 {
		margin = math.MaxInt64 // the time count is unbounded
	}
	u.timeMargin = min(u.timeMargin, max(margin, 0))
	u.reqMargin = min(u.reqMargin, max(u.requests-n, 0))
}

func (c *refCounter) Stability(i int) Stability {
	if i < 0 || i >= len(c.units) {
		return Stability{}
	}
	u := &c.units[i]
	c.foldMargins(u)
	return Stability{Slack: u.slack, AllLines: u.allLines, TimeMargin: u.timeMargin, RequestMargin: u.reqMargin}
}

func (c *refCounter) allOverlap(u *refUnit, n, pauses int64, count Count) bool {
	if u.requests <= 0 || (count == RequestCount && u.requests < n) {
		return false
	}
	return c.timeReaches(u, n, pauses)
}

func (c *refCounter) timeReaches(u *refUnit, n, pauses int64) bool {
	b := c.w.Core.Baseline
	slack := sat.Add(sat.Mul(2, u.phases), pauses)
	if b <= 0 || n <= slack {
		return true
	}
	xHi, xLo := bits.Mul64(uint64(u.requests), uint64(nonneg(u.ic.Latency)))
	yHi, yLo := bits.Mul64(uint64(n-slack), uint64(b))
	return xHi > yHi || (xHi == yHi && xLo >= yLo)
}

func (c *refCounter) refined(u *refUnit, n, pauses int64) int64 {
	if u.time >= 0 {
		return min(n, sat.Add(u.time, pauses))
	}
	if c.timeReaches(u, n, pauses) {
		return n
	}
	u.time = timeCount(u.requests, u.ic.Latency, c.w.Core.Baseline, u.phases, 0)
	return min(n, sat.Add(u.time, pauses))
}

func (c *refCounter) refresh(u *refUnit, t int64) {
	c.foldMargins(u)
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	var requests, phases int64
	for k := range u.jobs {
		j := &u.jobs[k]
		d := &u.ic.Tasks[k]
		if !j.valid || d.Period != j.period || d.Response != j.response {
			j.valid, j.period, j.response = true, d.Period, d.Response
			j.jobs, j.lo, j.hi = refJobsInterval(d, t)
		} else if t <= j.lo || t > j.hi {
			j.move(d, t)
		}
		lo, hi = max(lo, j.lo), min(hi, j.hi)
		requests = refMulAdd(requests, j.jobs, nonneg(d.Lines))
		phases = refMulAdd(phases, j.jobs, sat.Add(nonneg(d.Phases), nonneg(d.Splits)))
	}
	u.lo, u.hi, u.requests, u.phases, u.time, u.floor = lo, hi, requests, phases, -1, false
}

func (j *refJob) move(d *Demand, t int64) {
	p, r := d.Period, nonneg(d.Response)
	if p > 0 && j.jobs < math.MaxInt64 {
		jobs, lo, hi := j.jobs, j.lo, j.hi
		for range refMaxSteps {
			switch {
			case t > hi && hi <= math.MaxInt64-r-p:
				jobs, lo, hi = jobs+1, hi, hi+p
			case t <= lo && jobs > 1:
				jobs, lo, hi = jobs-1, lo-p, lo
			case lo < t && t <= hi:
				j.jobs, j.lo, j.hi = jobs, lo, hi
				return
			default:
				j.jobs, j.lo, j.hi = refJobsInterval(d, t)
				return
			}
		}
		if lo < t && t <= hi {
			j.jobs, j.lo, j.hi = jobs, lo, hi
			return
		}
	}
	j.jobs, j.lo, j.hi = refJobsInterval(d, t)
}

func refMulAdd(acc, a, b int64) int64 {
	if a < 1<<31 && b < 1<<31 && acc < 1<<62 {
		return acc + a*b // a·b < 2^62
	}
	return sat.Add(acc, sat.Mul(a, b))
}

const refMaxSteps = 8

func refJobsInterval(d *Demand, t int64) (jobs, lo, hi int64) {
	jobs = d.Jobs(t)
	if d.Period <= 0 {
		return jobs, math.MinInt64, math.MaxInt64
	}
	r := nonneg(d.Response)
	if t > math.MaxInt64-r { // Jobs saturated, and stays so for longer windows
		return jobs, math.MaxInt64 - r, math.MaxInt64
	}
	// (η−1)·T < t + R ≤ η·T: (η−1)·T cannot overflow, η·T can.
	// Beyond t = math.MaxInt64 − R, t + R overflows (the branch above).
	return jobs, (jobs-1)*d.Period - r, sat.Mul(jobs, d.Period) - r
}

func refB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
