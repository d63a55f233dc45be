package rta

import (
	"math"

	"github.com/hetmap/hetmap/internal/sat"
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
	var s sweep
	if !s.init(&t, e, hp, eh, limit, c, false) {
		return 0
	}
	bestC, best0 := math.Inf(-1), math.Inf(-1)
	s.run(func(w, fC, eC, fB, eB int64) {
		bestC, best0 = max(bestC, ratio(w, fC, eC)), max(best0, ratio(w, fB, eB))
	})
	return s.factor(bestC, best0, s.capC, s.capAll)
}

// SensitivityEach returns the largest factor of t's own part e alone
// (every interferer's part unscaled), and writes into out[j] the largest
// factor of hp[j]'s part eh[j] alone, as Sensitivity defines them. out
// must be at least as long as hp.
func SensitivityEach(t Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention, out []float64) float64 {
	var s sweep
	if !s.init(&t, e, hp, eh, limit, c, true) {
		for j := range hp {
			out[j] = 0
		}
		return 0
	}
	// Interferers with the same period and jitters have the same job
	// counts: one running maximum per class.
	type class struct {
		T, J, J0 int64
		mC, m0   float64
	}
	var classes []class
	of := make([]int, len(hp))
	for j := range hp {
		h := &hp[j]
		k := -1
		for c := range classes {
			if classes[c].T == h.T && classes[c].J == h.J && classes[c].J0 == h.J0 {
				k = c
				break
			}
		}
		if k < 0 {
			k = len(classes)
			classes = append(classes, class{T: h.T, J: h.J, J0: h.J0, mC: math.Inf(-1), m0: math.Inf(-1)})
		}
		of[j] = k
	}
	rep := make([]int, len(classes)) // an interferer of each class
	for j := range hp {
		rep[of[j]] = j
	}
	self := math.Inf(-1)
	s.run(func(w, fC, _, fB, _ int64) {
		for k := range classes {
			cl := &classes[k]
			j := rep[k]
			if fC >= 0 {
				cl.mC = max(cl.mC, float64(w-fC)/float64(s.nC[j]))
			}
			if fB >= 0 && s.c != nil { // without a window term fB is fC
				cl.m0 = max(cl.m0, float64(w-fB)/float64(s.n0[j]))
			}
		}
		if fC >= 0 {
			self = max(self, float64(w-fC))
		}
		if fB >= 0 {
			self = max(self, float64(w-fB))
		}
	})
	for j := range hp {
		cl := &classes[of[j]]
		c := s.eh[j]
		if c <= 0 {
			out[j] = math.Inf(1)
			if max(cl.mC, cl.m0) < 0 {
				out[j] = 0
			}
			continue
		}
		out[j] = s.factor(cl.mC/float64(c), cl.m0/float64(c), s.capEachC[j], s.capEach0[j])
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
// contention term are constant, up to lim.
type sweep struct {
	t        *Task
	hp       []Interferer
	eh       []int64
	c        Contention
	e        int64
	lim      int64
	useC     bool
	nC, n0   []int64 // job counts of the classic and the window form
	capAll   float64 // the factor at which an interferer's C0 reaches its period
	capC     float64 // … at which its C does (the classic form is left out from there)
	capEachC []float64
	capEach0 []float64
}

// init prepares the sweep; it reports false when the task fails whatever
// the factor (invalid input, or an interferer that already saturates the
// core without contention).
func (s *sweep) init(t *Task, e int64, hp []Interferer, eh []int64, limit int64, c Contention, each bool) bool {
	if !t.valid() || len(eh) < len(hp) || e < 0 {
		return false
	}
	s.t, s.hp, s.eh, s.c, s.e = t, hp, eh, c, e
	s.lim = max(0, min(limit, MaxTime)) - t.J
	if s.lim < 1 {
		return false
	}
	s.useC, s.capAll, s.capC = true, math.Inf(1), math.Inf(1)
	s.capEachC, s.capEach0 = nil, nil
	if each {
		s.capEachC, s.capEach0 = make([]float64, len(hp)), make([]float64, len(hp))
	}
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
	}
	s.nC, s.n0 = make([]int64, len(hp)), make([]int64, len(hp))
	return true
}

// run calls visit at the right end w of every interval with the forms'
// values there (fC, or −1 where the classic form is left out; fB) and
// their scaled parts (eC, eB).
func (s *sweep) run(visit func(w, fC, eC, fB, eB int64)) {
	t, hp, eh := s.t, s.hp, s.eh
	a := t.C + t.S + t.B
	a0 := t.C0 + t.S + t.B
	bC, b0 := make([]int64, len(hp)), make([]int64, len(hp))
	var sumC, sum0, eC, e0, lines, pauses int64
	count := func(w, T, J int64) (int64, int64) {
		n := (w + J + T - 1) / T
		return n, n*T - J
	}
	w := int64(1)
	for j := range hp {
		h := &hp[j]
		s.nC[j], bC[j] = count(w, h.T, h.J)
		s.n0[j], b0[j] = count(w, h.T, h.J0)
		sumC = sat.Add(sumC, sat.Mul(s.nC[j], h.C))
		eC = sat.Add(eC, sat.Mul(s.nC[j], eh[j]))
		sum0 = sat.Add(sum0, sat.Mul(s.n0[j], h.C0))
		e0 = sat.Add(e0, sat.Mul(s.n0[j], eh[j]))
		lines = sat.Add(lines, sat.Mul(s.n0[j], h.Lines))
		jobs := s.n0[j]
		if h.Readies > 1 {
			jobs++ // a suspending task's carried-in job may become ready in the window
		}
		pauses = sat.Add(pauses, sat.Mul(jobs, h.Readies))
	}
	for range maxSensitivityPoints {
		next := s.lim
		for j := range hp {
			if s.useC {
				next = min(next, bC[j])
			}
			next = min(next, b0[j])
		}
		var delay int64
		if s.c != nil {
			d, until := s.c.Delay(w, sat.Add(t.Lines, lines), pauses)
			delay = max(0, d)
			next = min(next, max(until, w))
		}
		fC := int64(-1)
		if s.useC {
			fC = sat.Add(a, sumC)
		}
		fB, eB := sat.Add(sat.Add(a0, sum0), delay), sat.Add(s.e, e0)
		if s.c == nil {
			fB, eB = fC, sat.Add(s.e, eC) // the classic form alone
		}
		visit(next, fC, sat.Add(s.e, eC), fB, eB)
		if next >= s.lim {
			return
		}
		w = next + 1
		for j := range hp {
			h := &hp[j]
			if w > bC[j] {
				n, b := count(w, h.T, h.J)
				sumC = sat.Add(sumC, sat.Mul(n-s.nC[j], h.C))
				eC = sat.Add(eC, sat.Mul(n-s.nC[j], eh[j]))
				s.nC[j], bC[j] = n, b
			}
			if w > b0[j] {
				n, b := count(w, h.T, h.J0)
				d := n - s.n0[j]
				sum0 = sat.Add(sum0, sat.Mul(d, h.C0))
				e0 = sat.Add(e0, sat.Mul(d, eh[j]))
				lines = sat.Add(lines, sat.Mul(d, h.Lines))
				pauses = sat.Add(pauses, sat.Mul(d, h.Readies))
				s.n0[j], b0[j] = n, b
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
