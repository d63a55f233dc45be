package rta

// Interferer classes. Under the classic analysis (no Contention term) the
// demand of the interferers in a window w is
//
//	Σ_j ceil((w + J_j)/T_j)·C_j = Σ_classes ceil((w + J)/T)·Σ_{j∈class} C_j,
//
// where a class holds the interferers with the same period T and jitter J.
// Task sets of real systems use few periods (WATERS and the automotive
// benchmarks of Kramer et al. 2015 about ten; a core of hetmap's synthetic
// 250-task system holds about 40 tasks in 7 classes), so iterating over the
// classes instead of the tasks makes every step of the fixed-point iteration
// several times cheaper. The iterates are the same numbers: integer sums in
// another order. Only two things depend on the order of the interferers:
// where respond stops when an iteration passes its limit (it reports the
// partial sum at which it noticed), and nothing else; respondClasses
// reproduces that partial sum from the two last iterates in one pass over
// the interferers in their order (exceededAt), so that its result is
// respond's bit for bit. TestClassesEqualRespond and TestClassesChangeNothing
// check this against respond and against the Analyzer without classes.

// classMinTasks is the number of tasks from which an Analyzer iterates over
// classes.
const classMinTasks = 12

// classSet is a set of interferer classes: each element is an Interferer
// whose C is the sum of its members' C (other fields of the members are
// ignored: classes serve only the analysis without Contention).
type classSet struct {
	cls []Interferer
}

func (s *classSet) reset() { s.cls = s.cls[:0] }

// add adds h to its class, which it creates if needed, and returns the
// class's index.
func (s *classSet) add(h *Interferer) int {
	for k := range s.cls {
		if c := &s.cls[k]; c.T == h.T && c.J == h.J {
			c.C += h.C
			return k
		}
	}
	s.cls = append(s.cls, Interferer{C: h.C, T: h.T, J: h.J})
	return len(s.cls) - 1
}

// classesFit reports whether the classes of ts's tasks can be summed
// without overflow and keep respond's arithmetic bounds: Σ C ≤ MaxTime.
// (A class whose sum reaches its period makes the utilisation at least 1,
// which respondClasses reports at once, as respond does.)
func classesFit(ts []Task) bool {
	var sum int64
	for i := range ts {
		sum += ts[i].C // each C ≤ MaxTime: the sum cannot overflow before it passes MaxTime
		if sum > MaxTime {
			return false
		}
	}
	return true
}

// respondClasses returns respond(t, hp, limit, …) for a valid t, where cls
// are the classes of hp (classes with C = 0 may be present). Without hp
// (nil) it answers only whether t is Schedulable (with its exact R) and
// reports any other outcome as Exceeded or Unbounded with an unspecified R;
// OPA's tests need no more. n and bound are scratch, len(cls) each.
func respondClasses(t *Task, cls, hp []Interferer, limit int64, n, bound []int64) (int64, Status) {
	a := t.C + t.S + t.B
	limit = max(0, min(limit, MaxTime))
	if a == 0 { // the job completes when released
		if t.J > limit {
			return t.J, Exceeded
		}
		return t.J, classify(t, t.J)
	}
	lim := limit - t.J
	w := a
	over := false
	for k := range cls {
		c := &cls[k]
		if c.C >= c.T {
			// The utilisation is at least 1: respond finds no fixed point
			// and reports Unbounded on every path.
			return Infinity, Unbounded
		}
		if !over {
			w += c.C
			over = w > lim
		}
	}
	if over || w > lim { // w > lim: a alone passes lim
		return exceededAt(t, a, hp, lim, 0, 0, -1)
	}
	for k := range cls {
		n[k] = 1
		bound[k] = cls[k].T - cls[k].J
	}
	inter := w - a
	prev := w // the iterate before w (none before w0: its counts are 1)
	for i := range MaxIterations {
		if i == unboundedCheck && utilisationAtLeastOne(cls) {
			return Infinity, Unbounded
		}
		for k := range cls {
			if w <= bound[k] {
				continue
			}
			c := &cls[k]
			var m int64
			if w-bound[k] <= c.T {
				m = n[k] + 1
				bound[k] += c.T
			} else {
				m = (w + c.J + c.T - 1) / c.T
				bound[k] = m*c.T - c.J
			}
			inter += (m - n[k]) * c.C // < w + J + T ≤ 3·2^60
			n[k] = m
			if inter > lim-a {
				return exceededAt(t, a, hp, lim, w, prev, i)
			}
		}
		next := a + inter
		if next == w {
			return w + t.J, classify(t, w+t.J)
		}
		prev, w = w, next
	}
	return exceeded(w+t.J, cls)
}

// exceededAt returns what respond returns when its iteration passes lim
// (lim = limit − J, a = C + S + B): Unbounded if hp's utilisation is at
// least 1, otherwise Exceeded with the partial sum at which
// iterateIncremental notices, found by replaying its pass over hp in order.
// With pass < 0 the start value w0 = a + Σ C_j passed lim, and respond
// reports the first prefix a + C_1 + … + C_k above it (a itself without
// interferers); otherwise pass i
// (from the iterate w, whose predecessor is prev, or, for pass 0, counts of
// one job each) did, and the counts of hp's interferers move from
// prev's to w's one interferer at a time. Without hp it reports Exceeded
// with an unspecified R.
func exceededAt(t *Task, a int64, hp []Interferer, lim, w, prev int64, pass int) (int64, Status) {
	if hp == nil {
		return lim + 1 + t.J, Exceeded
	}
	if utilisationAtLeastOne(hp) {
		return Infinity, Unbounded
	}
	if pass < 0 {
		s := a
		for k := range hp {
			s += hp[k].C
			if s > lim {
				return s + t.J, Exceeded
			}
		}
		return s + t.J, Exceeded // no interferers: a alone passed lim
	}
	inter := w - a
	for k := range hp {
		h := &hp[k]
		m := (w + h.J + h.T - 1) / h.T
		p := int64(1)
		if pass > 0 {
			p = (prev + h.J + h.T - 1) / h.T
		}
		if m > p {
			inter += (m - p) * h.C
			if inter > lim-a {
				return a + inter + t.J, Exceeded
			}
		}
	}
	// Not reached: the classes' sums are hp's, which passed lim.
	return lim + 1 + t.J, Exceeded
}
