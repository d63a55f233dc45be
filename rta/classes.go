package rta

// Interferer classes: the classic iteration over classes of interferers
// of equal period and jitter (see the package documentation, "Interferer
// classes").

// classMinTasks is the number of tasks from which an Analyzer iterates over
// classes.
const classMinTasks = 12

// class is an interferer class: the interferers with period T and jitter
// J, C the sum of their execution times; n and bound are respondClasses'
// iteration state (its count of jobs, and the largest window it holds for).
type class struct {
	C, T, J  int64
	n, bound int64
}

// classSet is a set of interferer classes.
type classSet struct {
	cls  []class
	last int // the class add found or made last
}

func (s *classSet) reset() { s.cls, s.last = s.cls[:0], 0 }

// add adds an interferer of execution time c, period t and jitter j to its
// class, which it creates if needed, and returns the class's index. Tasks
// come mostly in deadline-monotonic order, where those of one class follow
// each other: add looks at the last class first.
func (s *classSet) add(c, t, j int64) int {
	if s.last < len(s.cls) {
		if x := &s.cls[s.last]; x.T == t && x.J == j {
			x.C += c
			return s.last
		}
	}
	for k := range s.cls {
		if x := &s.cls[k]; x.T == t && x.J == j {
			x.C += c
			s.last = k
			return k
		}
	}
	s.cls = append(s.cls, class{C: c, T: t, J: j})
	s.last = len(s.cls) - 1
	return s.last
}

// classesAtLeastOne reports whether Σ C/T ≥ 1 exactly over the classes,
// which is the same sum as over their members.
func classesAtLeastOne(cls []class) bool {
	return demandAtLeastOne(cls, func(c *class) (int64, int64) { return c.C, c.T })
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

// passed records where an iteration over classes passed its limit, so that
// replay can report what respond reports there.
type passed struct {
	lim       int64 // limit − J
	w, prev   int64 // the iterate whose pass passed lim, and its predecessor
	pass      int   // that pass (from 0); −1: the start value passed lim
	overLimit bool  // the iteration passed lim (the other fields are set)
}

// respondClasses returns respond(t, hp, limit, …) for a valid t, where cls
// are the classes of hp (classes with C = 0 may be present), except when
// the iteration passes its limit with a utilisation below 1 or unknown:
// then p.overLimit is set, the status is Exceeded and R unspecified, and
// p.replay(t, cls, hp) returns respond's result. OPA's tests, which need
// only whether t is Schedulable (with its exact R), need no replay.
func respondClasses(t *Task, cls []class, limit int64) (r int64, st Status, p passed) {
	a := t.C + t.S + t.B
	limit = max(0, min(limit, MaxTime))
	if a == 0 { // the job completes when released
		if t.J > limit {
			return t.J, Exceeded, p
		}
		return t.J, classify(t, t.J), p
	}
	lim := limit - t.J
	w := a
	over := false
	for k := range cls {
		c := &cls[k]
		if c.C >= c.T {
			// The utilisation is at least 1: respond finds no fixed point
			// and reports Unbounded on every path.
			return Infinity, Unbounded, p
		}
		c.n, c.bound = 1, c.T-c.J
		if !over {
			w += c.C
			over = w > lim
		}
	}
	if over || w > lim { // w > lim: a alone passes lim
		return 0, Exceeded, passed{lim: lim, pass: -1, overLimit: true}
	}
	inter := w - a
	prev := w // the iterate before w (none before w0: its counts are 1)
	for i := range MaxIterations {
		if i == unboundedCheck && classesAtLeastOne(cls) {
			return Infinity, Unbounded, p
		}
		for k := range cls {
			c := &cls[k]
			if w <= c.bound {
				continue
			}
			var m int64
			if w-c.bound <= c.T {
				m = c.n + 1
				c.bound += c.T
			} else {
				m = (w + c.J + c.T - 1) / c.T
				c.bound = m*c.T - c.J
			}
			inter += (m - c.n) * c.C // < w + J + T ≤ 3·2^60
			c.n = m
			if inter > lim-a {
				return 0, Exceeded, passed{lim: lim, w: w, prev: prev, pass: i, overLimit: true}
			}
		}
		next := a + inter
		if next == w {
			return w + t.J, classify(t, w+t.J), p
		}
		prev, w = w, next
	}
	if classesAtLeastOne(cls) {
		return Infinity, Unbounded, p
	}
	return w + t.J, Exceeded, p // as exceeded(w+J, hp) reports
}

// replay returns what respond returns when its iteration passes lim
// (p.lim = limit − J) for t below hp, whose classes are cls: Unbounded if
// the utilisation is at least 1, otherwise Exceeded with the partial sum at
// which iterateIncremental notices, found by replaying its pass over hp in
// order. With p.pass < 0 the start value w0 = C + S + B + Σ C_j passed lim,
// and respond reports the first prefix C + S + B + C_1 + … + C_k above it
// (C + S + B itself without interferers); otherwise pass i (from the
// iterate w, whose predecessor is prev, or, for pass 0, counts of one job
// each) did, and the counts of hp's interferers move from prev's to w's
// one interferer at a time.
func (p *passed) replay(t *Task, cls []class, hp []Interferer) (int64, Status) {
	// cls and hp have the same utilisation; cls has fewer terms.
	if classesAtLeastOne(cls) {
		return Infinity, Unbounded
	}
	a, lim, w := t.C+t.S+t.B, p.lim, p.w
	if p.pass < 0 {
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
		c := int64(1)
		if p.pass > 0 {
			c = (p.prev + h.J + h.T - 1) / h.T
		}
		if m > c {
			inter += (m - c) * h.C
			if inter > lim-a {
				return a + inter + t.J, Exceeded
			}
		}
	}
	// Not reached: the classes' sums are hp's, which passed lim.
	return lim + 1 + t.J, Exceeded
}
