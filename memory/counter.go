package memory

import (
	"math"
	"math/bits"
)

// Counter computes Window.Interference incrementally, for a response-time
// iteration that asks for I(t) many times with nearby window lengths, and
// for the rounds of a cross-core iteration that ask again with a few
// response times changed.
//
// η_k(t) = ceil((t + R_k)/T_k) is constant on the interval
// ((η−1)·T_k − R_k, η·T_k − R_k] of t, and so are A_c(t) and Phases_c(t)
// on the intersection of the intervals of c's tasks. A Counter keeps, per
// task, η with its interval and the (T_k, R_k) it was computed for, and
// per interferer A_c and Phases_c with their interval. A call compares t
// with each interferer's interval; only where t left it does it
// recompute the sums, with a division only for a task whose own interval
// t left by more than one step or whose T_k or R_k changed. The time count
// floor(Busy_c/baseline) + 2·Phases_c needs a division too, so a call
// first checks with multiplications whether N_p(t) is the smaller term and
// divides only when it is not (once per interval). t may move in either
// direction, so the tasks of a core can be analysed one after the other.
//
// The values are those of Window.Interference for the Window given to
// Reset (checked by TestCounterMatchesWindow). After changing the Window
// (a new round of response times, another mapping), call Reset again:
// Reset forgets the interferers' sums but keeps each task's η, which it
// recomputes only for a task whose T_k or R_k differs, so a round that
// changes a few response times costs a few divisions. A Counter keeps its
// buffers, so in steady state neither Reset nor Interference allocates.
// It must not be used by two goroutines at once.
type Counter struct {
	w     *Window
	units []unitState // w.Cores, then w.CopyEngine
	jobs  []jobState  // the tasks of every unit, in order
}

// unitState is the cached count of one interferer.
type unitState struct {
	ic       *Interferer
	jobs     []jobState // the states of ic.Tasks, within Counter.jobs
	lo, hi   int64      // requests and phases hold for lo < t ≤ hi
	requests int64      // A(t)
	phases   int64      // Phases(t)
	time     int64      // the time count, or -1 until computed
	active   bool       // some task has a line (the challenge's #C)
}

// jobState is the cached η of one task.
type jobState struct {
	valid            bool  // jobs was computed (a new slot is not)
	period, response int64 // the Demand's T and R that jobs is for
	lo, hi           int64 // jobs holds for lo < t ≤ hi
	jobs             int64
}

// Reset binds the Counter to w. It forgets every interferer's cached sums
// and keeps the tasks' η for reuse where T and R are unchanged. The
// Counter reads w on every call; w must stay unchanged until the next
// Reset.
func (c *Counter) Reset(w *Window) {
	c.w = w
	n := len(w.Cores) + 1
	if cap(c.units) < n {
		c.units = make([]unitState, n)
	}
	c.units = c.units[:n]
	tasks := len(w.CopyEngine.Tasks)
	for i := range w.Cores {
		tasks += len(w.Cores[i].Tasks)
	}
	if cap(c.jobs) < tasks {
		jobs := make([]jobState, tasks, 2*tasks)
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
		c.units[i] = unitState{ic: ic, jobs: c.jobs[first : first+len(ic.Tasks)], lo: 0, hi: -1, active: ic.Active()}
		first += len(ic.Tasks)
	}
}

// Interference returns Window.Interference(t, n, count) of the Window of
// the last Reset. Before the first Reset it returns math.MaxInt64, no
// bound, rather than an optimistic value. It never allocates.
func (c *Counter) Interference(t, n int64, count Count) int64 {
	if c.w == nil {
		return math.MaxInt64
	}
	cores, ce := c.Overlaps(t, n, count)
	w := c.w
	return satAdd(satMul(nonneg(w.Core.PerCore), cores), satMul(nonneg(w.Core.CopyEngine), ce))
}

// Overlaps returns the two counts that Interference weighs: Σ_c O_c(t)
// over the other cores and O_CE(t) of the copy engine (saturating), for a
// caller that charges them otherwise (for example with a fixed number of
// interfering cores, which caps the first at that number times n). Before
// the first Reset both are n, every access overlapped. It never allocates.
func (c *Counter) Overlaps(t, n int64, count Count) (cores, copyEngine int64) {
	if c.w == nil {
		return nonneg(n), nonneg(n)
	}
	t, n = nonneg(t), nonneg(n)
	last := len(c.units) - 1
	for i := range c.units {
		u := &c.units[i]
		var o int64
		if count == ChallengeCount {
			if u.active {
				o = n
			}
		} else {
			if t <= u.lo || t > u.hi {
				c.refresh(u, t)
			}
			if u.requests > 0 {
				o = c.refined(u, n)
				if count == RequestCount {
					o = min(o, u.requests)
				}
			}
		}
		if i == last {
			copyEngine = o
		} else {
			cores = satAdd(cores, o)
		}
	}
	return cores, copyEngine
}

// refined returns min(n, time count) of unit u, dividing only when the
// time count is the smaller: floor(x/b) + 2P ≥ n holds exactly when
// n ≤ 2P or x ≥ (n − 2P)·b, with x = A·Latency in 128 bits.
func (c *Counter) refined(u *unitState, n int64) int64 {
	if u.time >= 0 {
		return min(n, u.time)
	}
	b := c.w.Core.Baseline
	twoP := satMul(2, u.phases)
	if b <= 0 || n <= twoP {
		return n
	}
	xHi, xLo := bits.Mul64(uint64(u.requests), uint64(nonneg(u.ic.Latency)))
	yHi, yLo := bits.Mul64(uint64(n-twoP), uint64(b))
	if xHi > yHi || (xHi == yHi && xLo >= yLo) {
		return n
	}
	u.time = timeCount(u.requests, u.ic.Latency, b, u.phases)
	return min(n, u.time)
}

// refresh recomputes the sums of unit u for a window of length t ≥ 0.
func (c *Counter) refresh(u *unitState, t int64) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	var requests, phases int64
	for k := range u.jobs {
		j := &u.jobs[k]
		d := &u.ic.Tasks[k]
		if !j.valid || d.Period != j.period || d.Response != j.response {
			j.valid, j.period, j.response = true, d.Period, d.Response
			j.jobs, j.lo, j.hi = jobsInterval(d, t)
		} else if t <= j.lo || t > j.hi {
			j.move(d, t)
		}
		lo, hi = max(lo, j.lo), min(hi, j.hi)
		requests = satAdd(requests, satMul(j.jobs, nonneg(d.Lines)))
		phases = satAdd(phases, satMul(j.jobs, satAdd(nonneg(d.Phases), nonneg(d.Splits))))
	}
	u.lo, u.hi, u.requests, u.phases, u.time = lo, hi, requests, phases, -1
}

// move sets j to η = d.Jobs(t) for t ≥ 0 and the interval (lo, hi] of
// window lengths with the same η: by stepping up or down one job at a
// time, without a division, when t lies within maxSteps intervals (and
// η stays at least 1 and below saturation).
func (j *jobState) move(d *Demand, t int64) {
	p, r := d.Period, nonneg(d.Response)
	if p > 0 && j.jobs < math.MaxInt64 {
		jobs, lo, hi := j.jobs, j.lo, j.hi
		for range maxSteps {
			switch {
			case t > hi && hi <= math.MaxInt64-r-p:
				jobs, lo, hi = jobs+1, hi, hi+p
			case t <= lo && jobs > 1:
				jobs, lo, hi = jobs-1, lo-p, lo
			case lo < t && t <= hi:
				j.jobs, j.lo, j.hi = jobs, lo, hi
				return
			default:
				j.jobs, j.lo, j.hi = jobsInterval(d, t)
				return
			}
		}
		if lo < t && t <= hi {
			j.jobs, j.lo, j.hi = jobs, lo, hi
			return
		}
	}
	j.jobs, j.lo, j.hi = jobsInterval(d, t)
}

// maxSteps is how many intervals move steps before it divides instead.
const maxSteps = 8

// jobsInterval returns η = d.Jobs(t) for t ≥ 0 and the interval (lo, hi]
// of window lengths with the same η.
func jobsInterval(d *Demand, t int64) (jobs, lo, hi int64) {
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
	return jobs, (jobs-1)*d.Period - r, satMul(jobs, d.Period) - r
}
