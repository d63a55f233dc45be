package memory

import (
	"math"
	"math/bits"

	"github.com/hetmap/hetmap/rta/sat"
)

// Counter computes Window.Interference incrementally, for a response-time
// iteration that asks for I(t) many times with nearby window lengths, and
// for the rounds of a cross-core iteration that ask again with a few
// response times changed.
//
// η_k(t) = ceil((t + R_k)/T_k) is constant on the interval
// ((η−1)·T_k − R_k, η·T_k − R_k] of t, and so are A_c(t) and Phases_c(t)
// on the intersection of the intervals of c's tasks. A Counter keeps per
// interferer A_c and Phases_c with that interval. A call compares t with
// each interferer's interval, and only where t left it does it recompute
// the sums (a refresh). The time count floor(Busy_c/baseline) +
// 2·Phases_c needs a division too, so a call first checks with
// multiplications whether N_p(t) is the smaller term and divides only
// when it is not (once per interval). t may move in either direction, so
// the tasks of a core can be analysed one after the other.
//
// A refresh does not visit every task. The Counter groups an
// interferer's tasks by period: for the tasks of one period T, η_k(t) =
// q + a_k + [b_k > c] with q = ceil(t/T), c = q·T − t, a_k = R_k div T
// and b_k = R_k mod T, so with the group's tasks sorted by b_k and the
// suffix sums of their lines and of their phases plus splits, the
// group's share of A_c(t) and Phases_c(t) and the interval on which it
// holds follow from q and one binary search for c. Each group also keeps
// its share with that interval and steps q by one period without a
// division, so a group whose next boundary t did not cross costs two
// comparisons. A refresh thus costs O(log n) for each of the G periods
// that several of the interferer's n tasks share, plus, per task whose
// period no other task of the interferer has, the per-task update: η with
// its interval and the (T_k, R_k) it was computed for, moved one period
// at a time without a division where t moved by at most a few periods.
// The per-task update also serves interferers of fewer than eight tasks
// (minIndexed), window lengths beyond 2^61 ps, and tasks whose period or
// response time lies beyond the index's limits (no period, or no bound);
// so with G ≪ n, as in systems whose tasks share a few periods, a
// refresh costs in G, not in n. The index of an interferer is built at
// its first refresh after its tasks changed, in O(n) expected time (a
// hash table by period) plus the sorts of the groups. An interferer also
// remembers its last few refreshes since Reset (the tasks of a core are
// analysed one after the other, each iteration climbing from a short
// window again), and a refresh at a t within one of their intervals takes
// its sums.
//
// Past an interferer's interval its cached sums are lower bounds of the
// exact ones (every count is non-decreasing in t); when they already show
// that the interferer overlaps all N_p(t) accesses, the exact ones do too,
// and the call skips the recomputation.
//
// The values are those of Window.Interference for the Window given to
// Reset (checked by TestCounterMatchesWindow), and exactly those of the
// Counter before the period index, Stability and Until included, for
// every sequence of calls (TestCounterMatchesReference); Overlaps gives
// the two counts that Interference weighs. Stability tells a caller that
// iterates across cores by how much the response times of an
// interferer's tasks may shrink without changing any value the Counter
// gave since the last Reset (checked by TestCounterSlack and
// TestCounterMargins). After changing the Window (a new round of
// response times, another mapping), call Reset again: Reset forgets the
// interferers' sums, keeps an interferer's period index where none of
// its demands changed (one comparison per task), and keeps each task's
// η, which it recomputes only for a task whose T_k or R_k differs. A
// Counter keeps its buffers, so in steady state neither Reset nor
// Interference allocates; only a Reset or a refresh that needs larger
// buffers than before does. It must not be used by two goroutines at
// once.
type Counter struct {
	w     *Window
	units []unitState   // w.Cores, then w.CopyEngine
	jobs  []jobState    // the tasks of every unit, in order
	idx   []periodIndex // the units' period indexes, in order
	until int64         // the last call's values hold up to this window length
}

// unitState is the cached count of one interferer.
type unitState struct {
	ic       *Interferer
	jobs     []jobState // the states of ic.Tasks, within Counter.jobs
	lo, hi   int64      // requests and phases hold for lo < t ≤ hi
	requests int64      // A(t)
	phases   int64      // Phases(t)
	time     int64      // the time count, or -1 until computed
	active   int8       // some task has a line (the challenge's #C): 1, 0, or −1 until asked
	// floor: requests and phases are not yet computed for any t but hold
	// one job of every task, a lower bound at every t > 0 whatever the
	// response times (η ≥ 1 there).
	floor bool
	// idx groups the tasks by period, so that refresh costs a few
	// operations per distinct period instead of some per task.
	idx *periodIndex
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
	// seen holds the sums of the last refreshes since Reset with their
	// intervals (a ring, next the slot of the next one): the tasks of a
	// core are analysed one after the other, each iteration climbing from
	// a short window again, so a refresh often asks for an interval it
	// computed a moment ago. On (lo, hi] the sums are constant and the
	// interval is the same for every t in it (the intersection of the
	// tasks' maximal intervals of constant η), so what a refresh at t
	// would compute is the entry whose interval holds t.
	seen        [seenSums]sums
	nseen, next uint8 // seen[:nseen] hold since Reset
}

// seenSums is how many refreshes a unit remembers.
const seenSums = 4

// sums are an interferer's counts with the window lengths they hold for.
type sums struct {
	lo, hi, requests, phases int64
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
	if c.w == w && c.sameShape() {
		// The same interferers with the same numbers of tasks: only the
		// sums and the records of the calls start over.
		for i := range c.units {
			u := &c.units[i]
			u.lo, u.hi, u.active, u.time = 0, -1, -1, -1
			u.setFloor()
			u.idx.check(u.ic.Tasks)
			u.slack, u.allLines, u.timeMargin, u.reqMargin, u.pending = math.MaxInt64, true, math.MaxInt64, math.MaxInt64, false
			u.nseen, u.next = 0, 0
		}
		return
	}
	c.w = w
	n := len(w.Cores) + 1
	if cap(c.units) < n {
		c.units = make([]unitState, n)
	}
	c.units = c.units[:n]
	if cap(c.idx) < n {
		idx := make([]periodIndex, n)
		copy(idx, c.idx) // their buffers
		c.idx = idx
	}
	c.idx = c.idx[:n]
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
		c.idx[i].invalidate() // another interferer's, or a fresh one: only its buffers are kept
		c.units[i] = unitState{ic: ic, jobs: c.jobs[first : first+len(ic.Tasks)], lo: 0, hi: -1, active: -1, time: -1,
			slack: math.MaxInt64, allLines: true, timeMargin: math.MaxInt64, reqMargin: math.MaxInt64, idx: &c.idx[i]}
		c.units[i].setFloor()
		first += len(ic.Tasks)
	}
}

// setFloor sets u's sums to one job of every task, a lower bound at every
// window length t > 0 whatever the response times, valid until the first
// refresh (allOverlap may already show O = n with it).
func (u *unitState) setFloor() {
	var requests, phases int64
	for k := range u.ic.Tasks {
		d := &u.ic.Tasks[k]
		requests = sat.Add(requests, nonneg(d.Lines))
		phases = sat.Add(phases, sat.Add(nonneg(d.Phases), nonneg(d.Splits)))
	}
	u.requests, u.phases, u.floor = requests, phases, true
}

// sameShape reports whether the units and job states still match c.w:
// the same interferers, each with as many tasks as it has job states.
func (c *Counter) sameShape() bool {
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

// Interference returns Window.Interference(t, n, pauses, count) of the
// Window of the last Reset. Before the first Reset it returns
// math.MaxInt64, no bound, rather than an optimistic value. It never
// allocates.
func (c *Counter) Interference(t, n, pauses int64, count Count) int64 {
	if c.w == nil {
		return math.MaxInt64
	}
	cores, ce := c.Overlaps(t, n, pauses, count)
	w := c.w
	return sat.Add(sat.Mul(nonneg(w.Core.PerCore), cores), sat.Mul(nonneg(w.Core.CopyEngine), ce))
}

// Overlaps returns the two counts that Interference weighs: Σ_c O_c(t)
// over the other cores and O_CE(t) of the copy engine (saturating), for a
// caller that charges them otherwise (for example with a fixed number of
// interfering cores, which caps the first at that number times n). Before
// the first Reset both are n, every access overlapped. It never allocates.
func (c *Counter) Overlaps(t, n, pauses int64, count Count) (cores, copyEngine int64) {
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
				u.active = int8(b2i(u.ic.Active()))
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

// Until returns the longest window length up to which the values of the
// last call to Overlaps (or Interference) hold: for every t' between its t
// and Until, the same n and pauses give the same counts. A response-time iteration
// whose next window lies within it needs no call. It is the call's t when
// nothing is known, and math.MaxInt64 when every count was n or the count
// was the challenge's.
func (c *Counter) Until() int64 { return c.until }

// foldMargins records, for the calls at which unit u overlapped all n
// accesses with its current sums, by how much the time count's comparison
// x ≥ y held, with x = A·Latency and y = (n − pauses − 2·Phases)·baseline
// (the time count was at least n exactly then), and by how much A exceeded
// n: the least margins are those of the largest n − pauses and n. The sums
// may be lower bounds of the exact ones (allOverlap), which only makes the
// margins smaller.
func (c *Counter) foldMargins(u *unitState) {
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
			deficit = sat.Sub(twoP, need)
		}
		margin = sat.Add(x, sat.Mul(deficit, b))
	}
	if b == 0 {
		margin = math.MaxInt64 // the time count is unbounded
	}
	u.timeMargin = min(u.timeMargin, max(margin, 0))
	u.reqMargin = min(u.reqMargin, max(u.requests-n, 0))
}

// Stability says how the response times of one interferer's tasks may
// shrink without changing any value that Interference or Overlaps gave
// under the refined or request count since the last Reset, for the same
// calls in the same order: either every Response shrinks by less than
// Slack (then every job count the Counter computed stays the same, and
// sums it reused past their interval still show the same), or AllLines holds
// (at every call the interferer overlapped all n accesses, or none since
// it had no request in the window) and the shrinking lowers A(t) by at
// most dA and Phases(t) by at most dP at every t, with
//
//	dA·Latency + 2·dP·baseline ≤ TimeMargin   and, under RequestCount,   dA ≤ RequestMargin;
//
// a task whose response shrinks by Δ has at most ceil(Δ/T) jobs fewer at
// any window length. (A count that was 0 stays 0, and one that was n stays
// n.) A caller that iterates across cores uses it to skip an analysis
// whose inputs changed by less.
type Stability struct {
	Slack                     int64
	AllLines                  bool
	TimeMargin, RequestMargin int64
}

// Stability returns the Stability of interferer i (one of the Window's
// Cores, or the CopyEngine for i = len(Cores)); the zero Stability, which
// allows no change, for an unknown i. The challenge count uses no response
// time, and the calls under it are not tracked.
func (c *Counter) Stability(i int) Stability {
	if i < 0 || i >= len(c.units) {
		return Stability{}
	}
	u := &c.units[i]
	c.foldMargins(u)
	return Stability{Slack: u.slack, AllLines: u.allLines, TimeMargin: u.timeMargin, RequestMargin: u.reqMargin}
}

// allOverlap reports whether unit u's cached sums show O = n: the time
// count, and under RequestCount the requests too, are at least n.
func (c *Counter) allOverlap(u *unitState, n, pauses int64, count Count) bool {
	if u.requests <= 0 || (count == RequestCount && u.requests < n) {
		return false
	}
	return c.timeReaches(u, n, pauses)
}

// timeReaches reports whether unit u's time count with pauses reaches n:
// floor(x/b) + 2P + pauses ≥ n holds exactly when n ≤ 2P + pauses or
// x ≥ (n − 2P − pauses)·b, with x = A·Latency in 128 bits.
func (c *Counter) timeReaches(u *unitState, n, pauses int64) bool {
	b := c.w.Core.Baseline
	slack := sat.Add(sat.Mul(2, u.phases), pauses)
	if b <= 0 || n <= slack {
		return true
	}
	xHi, xLo := bits.Mul64(uint64(u.requests), uint64(nonneg(u.ic.Latency)))
	yHi, yLo := bits.Mul64(uint64(n-slack), uint64(b))
	return xHi > yHi || (xHi == yHi && xLo >= yLo)
}

// refined returns min(n, time count + pauses) of unit u, dividing only
// when the time count is the smaller (once per interval: u.time keeps
// floor(x/b) + 2P, without the call's pauses).
func (c *Counter) refined(u *unitState, n, pauses int64) int64 {
	if u.time >= 0 {
		return min(n, sat.Add(u.time, pauses))
	}
	if c.timeReaches(u, n, pauses) {
		return n
	}
	u.time = timeCount(u.requests, u.ic.Latency, c.w.Core.Baseline, u.phases, 0)
	return min(n, sat.Add(u.time, pauses))
}

// refresh recomputes the sums of unit u for a window of length t ≥ 0:
// the grouped tasks' from the period index where it is built, has groups
// and t is within its range, and every other task's from its cached η.
func (c *Counter) refresh(u *unitState, t int64) {
	c.foldMargins(u)
	for k := range u.nseen {
		if s := &u.seen[k]; s.lo < t && t <= s.hi {
			u.lo, u.hi, u.requests, u.phases, u.time, u.floor = s.lo, s.hi, s.requests, s.phases, -1, false
			return
		}
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	var requests, phases int64
	if len(u.jobs) >= minIndexed && t <= maxIndexed && u.idx.ready(u.ic.Tasks) && len(u.idx.groups) > 0 {
		lo, hi, requests, phases = u.idx.sums(t)
		for _, k := range u.idx.other {
			j, d := &u.jobs[k], &u.ic.Tasks[k]
			if !j.holds(d, t) {
				j.update(d, t)
			}
			lo, hi = max(lo, j.lo), min(hi, j.hi)
			requests = mulAdd(requests, j.jobs, nonneg(d.Lines))
			phases = mulAdd(phases, j.jobs, sat.Add(nonneg(d.Phases), nonneg(d.Splits)))
		}
	} else {
		for k := range u.jobs {
			j, d := &u.jobs[k], &u.ic.Tasks[k]
			if !j.holds(d, t) {
				j.update(d, t)
			}
			lo, hi = max(lo, j.lo), min(hi, j.hi)
			requests = mulAdd(requests, j.jobs, nonneg(d.Lines))
			phases = mulAdd(phases, j.jobs, sat.Add(nonneg(d.Phases), nonneg(d.Splits)))
		}
	}
	u.lo, u.hi, u.requests, u.phases, u.time, u.floor = lo, hi, requests, phases, -1, false
	u.seen[u.next] = sums{lo: lo, hi: hi, requests: requests, phases: phases}
	u.next = (u.next + 1) % seenSums
	u.nseen = min(u.nseen+1, seenSums)
}

// holds reports whether j's η is d's at t: computed for d's T and R, on
// an interval that contains t.
func (j *jobState) holds(d *Demand, t int64) bool {
	return j.valid && d.Period == j.period && d.Response == j.response && t > j.lo && t <= j.hi
}

// update sets j to d's η at t ≥ 0: by moving its cached η where T and R
// are unchanged, else with a division.
func (j *jobState) update(d *Demand, t int64) {
	if j.valid && d.Period == j.period && d.Response == j.response {
		j.move(d, t)
		return
	}
	j.valid, j.period, j.response = true, d.Period, d.Response
	j.jobs, j.lo, j.hi = jobsInterval(d, t)
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

// mulAdd returns acc + a·b for acc, a, b ≥ 0, saturating at
// math.MaxInt64: with plain arithmetic where no overflow is possible (the
// common case, kept cheap for the refresh of every window), else with
// sat.Mul and sat.Add.
func mulAdd(acc, a, b int64) int64 {
	if a < 1<<31 && b < 1<<31 && acc < 1<<62 {
		return acc + a*b // a·b < 2^62
	}
	return sat.Add(acc, sat.Mul(a, b))
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
	return jobs, (jobs-1)*d.Period - r, sat.Mul(jobs, d.Period) - r
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
