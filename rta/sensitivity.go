package rta

import (
	"math"
	"slices"

	"github.com/hetmap/hetmap/rta/sat"
)

// Sensitivity analysis: how far execution times may grow before a task
// fails its test (Bini, Di Natale and Buttazzo, "Sensitivity analysis for
// fixed-priority real-time systems", Real-Time Systems 39, 2008).
//
// A task meets the test of ResponseTimeWith exactly when some window
// w ≤ limit − J has min(f_C(w), f_0(w)) ≤ w (the least fixed point lies at
// or below the first such w, since both forms are non-decreasing; the
// package documentation, "Window-dependent contention", gives them). Let
// the parts e of the task's execution time and e_j of each interferer's be
// multiplied by λ, every C and C0 becoming C + (λ − 1)·part, and nothing
// else change: periods, jitters, memory accesses and the contention term
// I. Then each form grows by (λ − 1)·E(w), with E(w) the scaled parts of
// the jobs the form counts in w (e + Σ_j ceil((w + J_j)/T_j)·e_j, with J0_j
// for f_0), and the task meets the test at λ exactly when
//
//	λ ≤ 1 + max_w max( (w − f_C(w)) / E_C(w), (w − f_0(w)) / E_0(w) ).
//
// The forms, the job counts and I are step functions of w, so the
// maximum is taken at the right ends of the intervals where they are
// constant: w = m·T_j − J_j (the scheduling points of Bini and Buttazzo),
// the points where I changes (Contention's until) and limit − J. A form
// is left out where an interferer's C reaches its period, as
// ResponseTimeWith does; at the factor where an interferer's C0 reaches
// it, the task has no bound, and the factor stays below it.
//
// The result holds the jitters fixed: where an interferer suspends, its
// jitter R − C grows with its response, and λ is then only an upper bound
// of the factor the task tolerates (the caller analyses again at the
// factor to be sure). It is exact for the test as the caller gives it.

// maxSensitivityPoints bounds the windows one sensitivity sweep visits;
// past it the result is the maximum over the windows visited, a lower
// bound of the exact factor.
const maxSensitivityPoints = 1 << 20

// Sensitivity returns the largest factor λ ≥ 0 at which task t, with its
// interferers hp (as ResponseTimeWith takes them; c nil for the classic
// form alone), still responds within limit when its own part e and every
// interferer's part eh[j] are multiplied by λ (see above). It returns
// +Inf when no part grows (e and every eh[j] zero) and the task meets the
// test, 0 when the task fails it whatever λ. Inputs outside the
// preconditions of ResponseTimeWith give 0.
func Sensitivity(t Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention) float64 {
	var z Sensitivities
	return z.Sensitivity(t, e, hp, eh, limit, c)
}

// SensitivityEach returns the largest factor of t's own part e alone
// (every interferer's part unscaled), and writes into out[j] the largest
// factor of hp[j]'s part eh[j] alone, as Sensitivity defines them. out
// must be at least as long as hp.
func SensitivityEach(t Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention, out []float64) float64 {
	var z Sensitivities
	return z.SensitivityEach(t, e, hp, eh, limit, c, out)
}

// Sensitivities computes sensitivities (Sensitivity, SensitivityEach) with
// buffers it keeps from one call to the next, so that in steady state it
// does not allocate. Its zero value is ready to use; it must not be used
// by two goroutines at once.
type Sensitivities struct {
	s      sweep
	mC, m0 []float64
}

// Sensitivity is the function Sensitivity.
func (z *Sensitivities) Sensitivity(t Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention) float64 {
	return z.SensitivityBelow(t, e, hp, eh, limit, c, 1, math.Inf(1))
}

// SensitivityBelow is Sensitivity for a caller that needs the factor only
// where it is below atMost (the least of several so far, say): it returns
// the factor where that is below atMost, and otherwise some value at least
// atMost, and it may stop early. from is a window length at or below the
// least window in which the task meets its test at factor 1 where it
// does (its response time less its jitter, which it knows): the windows
// below it cannot raise the factor above 1, and are skipped. With from 1
// and atMost +Inf it is Sensitivity.
//
// It stops as soon as the factor so far reaches atMost, and once no
// window left can raise it: every window w' after w has w' ≤ lim and forms
// and scaled parts at least those at w, so its ratio is at most
// (lim − f(w))/E(w) (below 0 when that is, where the factor so far is at
// least 1).
func (z *Sensitivities) SensitivityBelow(t Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention, from int64, atMost float64) float64 {
	s := &z.s
	if !s.init(&t, e, hp, eh, limit, c, false) {
		return 0
	}
	bestC, best0 := math.Inf(-1), math.Inf(-1)
	if c := s.c; c != nil && s.useC {
		// The classic form first, which needs no contention term: where
		// it alone reaches atMost, so does the factor; otherwise its
		// growth is where the window form has to beat.
		s.c = nil
		s.run(max(1, from), func(w, fC, eC, _, _, _ int64) bool {
			bestC = max(bestC, ratio(w, fC, eC))
			return min(1+bestC, s.capC) < atMost
		})
		s.c = c
		if s.factor(bestC, best0, s.capC, s.capAll) >= atMost {
			return s.factor(bestC, best0, s.capC, s.capAll)
		}
	}
	// The window form's contention term only lowers its ratio: where the
	// form without it cannot beat the best so far over a whole interval
	// of the job counts, the term is not asked for there (s.skip).
	s.skip = func(w, fB0, eB int64) bool { return ratio(w, fB0, eB) <= max(bestC, best0) }
	s.run(max(1, from), func(w, fC, eC, fB, eB, fB0 int64) bool {
		bestC, best0 = max(bestC, ratio(w, fC, eC)), max(best0, ratio(w, fB, eB))
		if s.factor(bestC, best0, s.capC, s.capAll) >= atMost {
			return false
		}
		if fB < 0 {
			fB = fB0 // skipped: at least fB0 from here on
		}
		upC, up0 := ratio(s.lim, fC, eC), ratio(s.lim, fB, eB)
		if s.lim < fC {
			upC = min(upC, 0)
		}
		if s.lim < fB {
			up0 = min(up0, 0)
		}
		return max(upC, up0) > max(bestC, best0) || max(bestC, best0) < 0
	})
	s.skip = nil
	return s.factor(bestC, best0, s.capC, s.capAll)
}

// SensitivityEach is the function SensitivityEach.
func (z *Sensitivities) SensitivityEach(t Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention, out []float64) float64 {
	s := &z.s
	if !s.init(&t, e, hp, eh, limit, c, true) {
		for j := range hp {
			out[j] = 0
		}
		return 0
	}
	// The interferers of a class have the same job counts: one running
	// maximum per class.
	z.mC, z.m0 = slices.Grow(z.mC[:0], len(s.cls))[:len(s.cls)], slices.Grow(z.m0[:0], len(s.cls))[:len(s.cls)]
	mC, m0 := z.mC, z.m0
	for k := range s.cls {
		mC[k], m0[k] = math.Inf(-1), math.Inf(-1)
	}
	self := math.Inf(-1)
	s.run(1, func(w, fC, _, fB, _, _ int64) bool {
		for k := range s.cls {
			cl := &s.cls[k]
			if fC >= 0 {
				mC[k] = max(mC[k], float64(w-fC)/float64(cl.nC))
			}
			if fB >= 0 && s.c != nil { // without a window term fB is fC
				m0[k] = max(m0[k], float64(w-fB)/float64(cl.n0))
			}
		}
		if fC >= 0 {
			self = max(self, float64(w-fC))
		}
		if fB >= 0 {
			self = max(self, float64(w-fB))
		}
		return true
	})
	for j := range hp {
		k := s.of[j]
		if eh[j] <= 0 {
			out[j] = math.Inf(1)
			if max(mC[k], m0[k]) < 0 {
				out[j] = 0
			}
			continue
		}
		out[j] = s.factor(mC[k]/float64(eh[j]), m0[k]/float64(eh[j]), s.capEachC[j], s.capEach0[j])
	}
	if e <= 0 {
		if self >= 0 {
			return math.Inf(1)
		}
		return 0
	}
	return max(0, 1+self/float64(e))
}

// ratio is (w − f)/E, the growth of the factor a window allows a form
// (−Inf where the form is left out, f < 0; ±Inf where nothing grows).
func ratio(w, f, e int64) float64 {
	switch {
	case f < 0:
		return math.Inf(-1)
	case e > 0:
		return float64(w-f) / float64(e)
	case w >= f:
		return math.Inf(1)
	}
	return math.Inf(-1)
}

// sweep visits the windows of a sensitivity analysis: the right end of
// every interval on which both forms, their scaled parts and the
// contention term are constant, up to lim. It counts the interferers by
// class: those with the same period and jitters release their jobs
// together, so a class's job counts are its members', its sums theirs.
type sweep struct {
	t *Task
	c Contention
	// skip, when set, says whether the window form without its contention
	// term (fB0 with scaled part eB) ending at w cannot matter, so that the
	// term need not be asked for on the interval up to w.
	skip     func(w, fB0, eB int64) bool
	e        int64
	lim      int64
	useC     bool
	cls      []sweepClass
	of       []int   // per interferer, its class
	capAll   float64 // the factor at which an interferer's C0 reaches its period
	capC     float64 // … at which its C does (the classic form is left out from there)
	capEachC []float64
	capEach0 []float64
}

// sweepClass is a class of interferers: their common period and jitters,
// the sums of their execution times, scaled parts, memory accesses and
// readies (extra: the readies of the suspending ones, whose carried-in
// job may become ready in the window), and the job counts of the classic
// and the window form with the largest window they hold for.
type sweepClass struct {
	T, J, J0                        int64
	C, C0, e, lines, readies, extra int64
	nC, n0, bC, b0                  int64
}

// init prepares the sweep; it reports false when the task fails whatever
// the factor (invalid input, or an interferer that already saturates the
// core without contention).
func (s *sweep) init(t *Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention, each bool) bool {
	if !t.valid() || len(eh) < len(hp) || e < 0 {
		return false
	}
	s.t, s.c, s.e = t, c, e
	s.lim = max(0, min(limit, MaxTime)) - t.J
	if s.lim < 1 {
		return false
	}
	s.useC, s.capAll, s.capC = true, math.Inf(1), math.Inf(1)
	s.capEachC, s.capEach0 = s.capEachC[:0], s.capEach0[:0]
	if each {
		s.capEachC = slices.Grow(s.capEachC, len(hp))[:len(hp)]
		s.capEach0 = slices.Grow(s.capEach0, len(hp))[:len(hp)]
	}
	s.cls, s.of = s.cls[:0], slices.Grow(s.of[:0], len(hp))[:len(hp)]
	for j := range hp {
		h := &hp[j]
		if !h.valid() || eh[j] < 0 || eh[j] > h.C || (c != nil && (eh[j] > h.C0 || h.C0 >= h.T)) {
			return false
		}
		if h.C >= h.T {
			s.useC = false
		}
		c0, cC := math.Inf(1), math.Inf(1)
		if eh[j] > 0 {
			// The factor stays below the one at which C0 (or C) reaches T
			// (without a window term, C alone counts).
			cC = 1 + float64(h.T-h.C)/float64(eh[j])
			c0 = cC
			if c != nil {
				c0 = 1 + float64(h.T-h.C0)/float64(eh[j])
			}
		}
		s.capAll, s.capC = min(s.capAll, c0), min(s.capC, cC)
		if each {
			s.capEach0[j], s.capEachC[j] = c0, cC
		}
		k := -1
		for m := range s.cls {
			if cl := &s.cls[m]; cl.T == h.T && cl.J == h.J && cl.J0 == h.J0 {
				k = m
				break
			}
		}
		if k < 0 {
			k = len(s.cls)
			s.cls = append(s.cls, sweepClass{T: h.T, J: h.J, J0: h.J0})
		}
		cl := &s.cls[k]
		cl.C, cl.C0, cl.e = sat.Add(cl.C, h.C), sat.Add(cl.C0, h.C0), sat.Add(cl.e, eh[j])
		cl.lines, cl.readies = sat.Add(cl.lines, h.Lines), sat.Add(cl.readies, h.Readies)
		if h.Readies > 1 {
			cl.extra = sat.Add(cl.extra, h.Readies)
		}
		s.of[j] = k
	}
	return true
}

// run calls visit at the right end w of every interval from the window
// from on, with the forms' values there (fC, or −1 where the classic form
// is left out; fB, or −1 where s.skip said so, and fB0, the window form
// without its contention term) and their scaled parts (eC, eB), until
// visit returns false.
func (s *sweep) run(from int64, visit func(w, fC, eC, fB, eB, fB0 int64) bool) {
	t := s.t
	a := t.C + t.S + t.B
	a0 := t.C0 + t.S + t.B
	var sumC, sum0, eC, e0, lines, pauses int64
	count := func(w, T, J int64) (int64, int64) {
		n := (w + J + T - 1) / T
		return n, n*T - J
	}
	w := min(from, s.lim)
	for k := range s.cls {
		cl := &s.cls[k]
		cl.nC, cl.bC = count(w, cl.T, cl.J)
		cl.n0, cl.b0 = count(w, cl.T, cl.J0)
		sumC = sat.Add(sumC, sat.Mul(cl.nC, cl.C))
		eC = sat.Add(eC, sat.Mul(cl.nC, cl.e))
		sum0 = sat.Add(sum0, sat.Mul(cl.n0, cl.C0))
		e0 = sat.Add(e0, sat.Mul(cl.n0, cl.e))
		lines = sat.Add(lines, sat.Mul(cl.n0, cl.lines))
		// A suspending task's carried-in job may become ready in the
		// window: one job more of its readies.
		pauses = sat.Add(pauses, sat.Add(sat.Mul(cl.n0, cl.readies), cl.extra))
	}
	for range maxSensitivityPoints {
		next := s.lim
		for k := range s.cls {
			if s.useC {
				next = min(next, s.cls[k].bC)
			}
			next = min(next, s.cls[k].b0)
		}
		fB0, eB := sat.Add(a0, sum0), sat.Add(s.e, e0)
		fB := fB0
		switch {
		case s.c != nil && s.skip != nil && s.skip(next, fB0, eB):
			fB = -1
		case s.c != nil:
			d, until := s.c.Delay(w, sat.Add(t.Lines, lines), pauses)
			fB = sat.Add(fB0, max(0, d))
			next = min(next, max(until, w))
		}
		fC := int64(-1)
		if s.useC {
			fC = sat.Add(a, sumC)
		}
		if s.c == nil {
			fB, fB0, eB = fC, fC, sat.Add(s.e, eC) // the classic form alone
		}
		if !visit(next, fC, sat.Add(s.e, eC), fB, eB, fB0) || next >= s.lim {
			return
		}
		w = next + 1
		for k := range s.cls {
			cl := &s.cls[k]
			if w > cl.bC {
				n, b := count(w, cl.T, cl.J)
				sumC = sat.Add(sumC, sat.Mul(n-cl.nC, cl.C))
				eC = sat.Add(eC, sat.Mul(n-cl.nC, cl.e))
				cl.nC, cl.bC = n, b
			}
			if w > cl.b0 {
				n, b := count(w, cl.T, cl.J0)
				d := n - cl.n0
				sum0 = sat.Add(sum0, sat.Mul(d, cl.C0))
				e0 = sat.Add(e0, sat.Mul(d, cl.e))
				lines = sat.Add(lines, sat.Mul(d, cl.lines))
				pauses = sat.Add(pauses, sat.Mul(d, cl.readies))
				cl.n0, cl.b0 = n, b
			}
		}
	}
}

// factor turns the largest growth of the factor the windows allow each
// form, gC (classic) and g0 (window), into the factor: the classic form's
// only below capC, where an interferer's C reaches its period, and either
// below cap0, where its C0 does.
func (s *sweep) factor(gC, g0, capC, cap0 float64) float64 {
	f := math.Inf(-1)
	if !math.IsInf(gC, -1) {
		f = min(1+gC, math.Nextafter(capC, 0))
	}
	if !math.IsInf(g0, -1) {
		f = max(f, 1+g0)
	}
	if math.IsInf(f, -1) {
		return 0
	}
	return max(0, min(f, math.Nextafter(cap0, 0)))
}
