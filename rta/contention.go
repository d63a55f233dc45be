package rta

import (
	"math"

	"github.com/hetmap/hetmap/rta/sat"
)

// Contention bounds the delay that the memory accesses of other units (other
// cores, a copy engine) add to the jobs of the analysed core within a window:
// the window-dependent contention term I(t) of the package documentation
// ("Window-dependent contention"). hetmap's optimizer implements it with
// package memory's window-aware counts; rta does not import memory.
type Contention interface {
	// Delay returns I(t, n, pauses), an upper bound on the total time by
	// which the accesses of the core's jobs are slowed by other units in
	// any window of length t in which those jobs make at most n accesses,
	// at most pauses of which a preemption pauses and resumes. It must be
	// non-negative and non-decreasing in t, n and pauses; it may saturate
	// at math.MaxInt64. It also returns until ≥ t, a window length up to
	// which I(t', n, pauses) = I(t, n, pauses) for every t' in [t, until]
	// (t when it does not know), which spares the iteration a call. The
	// analysis calls it on its hot path, so it should not allocate.
	Delay(t, n, pauses int64) (delay, until int64)
}

// windowInfo receives what the contention term gave at the fixed point.
type windowInfo struct {
	accesses, pauses, delay int64
	fromC                   bool
}

// ResponseTimeWith is ResponseTime with a window-dependent contention term
// c (nil: ResponseTime). The task and its interferers carry C0, Lines,
// Access (task) and C0, Lines, J0 (interferers, as Task.Interferer builds
// them), and the response time is the least fixed point of
//
//	w = min( C + S + B + Σ_{j∈hp} ceil((w + J_j)/T_j)·C_j,
//	         C0 + S + B + Σ_{j∈hp} ceil((w + J0_j)/T_j)·C0_j + I(w, N(w), P(w)) ),
//	N(w) = Lines + Σ_{j∈hp} ceil((w + J0_j)/T_j)·Lines_j,   R = w + J
//	P(w) = Σ_{j∈hp} (ceil((w + J0_j)/T_j) + [j suspends])·Readies_j
//
// (see the package documentation, "Window-dependent contention"). The
// Result's Accesses, Pauses and Delay are N(w), P(w) and I at the fixed
// point (or where the iteration stopped), and FromC reports that the first
// form, with the contention C charges per job, gave the fixed point. Rank
// is 0.
// It allocates only as ResponseTime does, and for more than eight
// interferers.
func ResponseTimeWith(t Task, hp []Interferer, limit int64, c Contention) Result {
	if c == nil {
		r, st := ResponseTime(t, hp, limit)
		return Result{R: r, Status: st}
	}
	if !t.valid() {
		return Result{Status: Invalid}
	}
	for _, h := range hp {
		if !h.valid() {
			return Result{Status: Invalid}
		}
	}
	var x windowInfo
	var r int64
	var st Status
	if len(hp) <= smallHP {
		var s [4 * smallHP]int64
		r, st = contended(&t, hp, limit, s[:], c, &x)
	} else {
		r, st = contended(&t, hp, limit, make([]int64, 4*len(hp)), c, &x)
	}
	return Result{R: r, Status: inputStatus(&t, st), Accesses: x.accesses, Pauses: x.pauses, Delay: x.delay, FromC: x.fromC}
}

// valid reports whether h satisfies the preconditions of an interferer.
func (h Interferer) valid() bool {
	return h.T > 0 && h.T <= MaxTime && inRange(h.C) && inRange(h.J) &&
		h.C0 >= 0 && h.C0 <= h.C && inRange(h.Lines) && inRange(h.J0) && inRange(h.Readies)
}

// contended computes the response time of a valid t with valid interferers
// hp under the contention term c: the least fixed point of the minimum of
// the classic form (with C) and the window form (with C0 and I), both
// non-decreasing in w, iterated from below. scratch must hold 4·len(hp)
// values; x, if not nil, receives N and I at the fixed point.
//
// Overflow: a sum is no longer updated once it exceeds lim ≤ 2^60 (w only
// grows, so it stays above), and every term added is below w + J + T ≤
// 3·2^60 (C0_j ≤ C_j < T_j); N saturates, and so does I, which the caller
// may return as math.MaxInt64.
func contended(t *Task, hp []Interferer, limit int64, scratch []int64, c Contention, x *windowInfo) (int64, Status) {
	a := t.C + t.S + t.B
	a0 := t.C0 + t.S + t.B
	limit = max(0, min(limit, MaxTime))
	if a == 0 { // the job completes when released (C0, Lines work ≤ C = 0)
		if t.J > limit {
			return t.J, Exceeded
		}
		return t.J, classify(t, t.J)
	}
	lim := limit - t.J // stop as soon as w > lim, i.e. R = w + J > limit
	// One pass over the interferers: the start w (the sum of the C0
	// stops once past lim), whether some C0_j ≥ T_j (no fixed point at
	// all) or C_j ≥ T_j (the classic form has none: it lies above the
	// diagonal everywhere, and the minimum's fixed points are the window
	// form's; useA false leaves it out), and the job counts with their
	// sums. Where useA turns out false, what was summed for the classic
	// form is never read (overA is set below).
	useA, unbounded := true, false
	w := a0
	n, m := len(hp), scratch[:4*len(hp)]
	nA, bA, nB, bB := m[:n], m[n:2*n], m[2*n:3*n], m[3*n:]
	var sumA, sumB, lines int64 // Σ nA·C, Σ nB·C0, Σ nB·Lines
	var pauses int64            // Σ (nB + [suspends])·Readies: the preemptions that may pause an access
	overA := false              // sumA > lim − a: the classic form passed the limit
	overB := false              // sumB > lim − a0: the window form passed it
	// below is at most every bound bA[k], bB[k] that a count can still
	// cross: while w ≤ below no count changes, and the scan of the
	// interferers is skipped.
	below := int64(math.MaxInt64)
	for k := range hp {
		h := &hp[k]
		if h.C0 >= h.T {
			unbounded = true
		}
		if h.C >= h.T {
			useA = false
		}
		if w <= lim {
			w += h.C0
		}
		nA[k], bA[k], nB[k], bB[k] = 1, h.T-h.J, 1, h.T-h.J0
		below = min(below, bA[k], bB[k])
		if !overA {
			sumA += h.C
			overA = sumA > lim-a
		}
		sumB += h.C0 // ≤ lim − a0 where used: it was summed into w
		lines = sat.Add(lines, h.Lines)
		// A suspending task's carried-in job may become ready in the
		// window without its work counting there: one job more.
		jobs := int64(1)
		if h.Readies > 1 {
			jobs = 2
		}
		pauses = sat.Add(pauses, sat.Mul(jobs, h.Readies))
	}
	if unbounded {
		return Infinity, Unbounded
	}
	w = max(w, 1) // a window has a positive length
	if w > lim {
		return exceededC(w+t.J, hp)
	}
	overA = overA || !useA
	// The last value of I with the window lengths it holds for (at the
	// same n): an iterate within them needs no call.
	lastN, lastP, lastDelay, lastUntil := int64(-1), int64(-1), int64(0), int64(-1)
	for i := range MaxIterations {
		if i == unboundedCheck && utilisationC0AtLeastOne(hp) {
			return Infinity, Unbounded
		}
		if w+t.J > t.T {
			// Past the period the single-job analysis gives no bound
			// whatever the fixed point; stop rather than crawl towards
			// it (R is a lower bound of the analysis value).
			return w + t.J, Exceeded
		}
		if w > below {
			below = math.MaxInt64
			for k := range hp {
				h := &hp[k]
				if !overA && w > bA[k] {
					nA[k], bA[k], sumA = step(nA[k], bA[k], sumA, w, h.T, h.J, h.C)
					overA = sumA > lim-a
				}
				if !overB && w > bB[k] {
					old := nB[k]
					nB[k], bB[k], sumB = step(nB[k], bB[k], sumB, w, h.T, h.J0, h.C0)
					lines = sat.Add(lines, sat.Mul(nB[k]-old, h.Lines))
					pauses = sat.Add(pauses, sat.Mul(nB[k]-old, h.Readies))
					overB = sumB > lim-a0
				}
				if !overA {
					below = min(below, bA[k])
				}
				if !overB {
					below = min(below, bB[k])
				}
			}
		}
		if overA && overB { // both forms, and so their minimum, passed the limit
			stop := a0 + sumB
			if useA {
				stop = min(stop, a+sumA)
			}
			return exceededC(stop+t.J, hp)
		}
		nAcc := sat.Add(t.Lines, lines)
		var delay int64
		next := int64(math.MaxInt64)
		if !overB {
			if nAcc != lastN || pauses != lastP || w > lastUntil {
				d, until := c.Delay(w, nAcc, pauses)
				lastN, lastP, lastDelay, lastUntil = nAcc, pauses, max(0, d), until
			}
			delay = lastDelay
			next = sat.Add(a0+sumB, delay) // a0 + sumB ≤ 2^62
		}
		fromC := false
		if !overA && a+sumA <= next {
			next, fromC = a+sumA, true
		}
		if next <= w { // the fixed point (a non-monotone Delay stops here too)
			if x != nil {
				x.accesses, x.pauses, x.delay, x.fromC = nAcc, pauses, delay, fromC
			}
			return w + t.J, classify(t, w+t.J)
		}
		if next > lim {
			if x != nil {
				x.accesses, x.pauses, x.delay, x.fromC = nAcc, pauses, delay, fromC
			}
			return exceededC(next+t.J, hp)
		}
		w = next
	}
	return exceededC(w+t.J, hp)
}

// step moves a job count n, valid for window lengths up to bound =
// n·T − J, to the window w > bound, and adds the change times c to sum: by
// one job without a division when w is within a period of the bound.
func step(n, bound, sum, w, T, J, c int64) (int64, int64, int64) {
	var m int64
	if w-bound <= T {
		m = n + 1
		bound += T
	} else {
		m = (w + J + T - 1) / T
		bound = m*T - J
	}
	return m, bound, sum + (m-n)*c
}

// exceededC is exceeded for the contended iteration: Unbounded when the
// interferers' utilisation without contention, Σ C0_j/T_j, is at least 1
// (then neither form has a fixed point), Exceeded otherwise.
func exceededC(r int64, hp []Interferer) (int64, Status) {
	if utilisationC0AtLeastOne(hp) {
		return Infinity, Unbounded
	}
	return r, Exceeded
}

// utilisationC0AtLeastOne reports whether Σ C0_j/T_j ≥ 1 exactly, as
// utilisationAtLeastOne does for C.
func utilisationC0AtLeastOne(hp []Interferer) bool {
	return demandAtLeastOne(hp, func(h *Interferer) (int64, int64) { return h.C0, h.T })
}
