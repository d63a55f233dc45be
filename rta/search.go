package rta

// DefaultMaxSearchNodes is the number of partial orders the exact priority
// search examines on one core before it gives up undecided (see
// Analyzer.MaxSearchNodes and the package documentation, "Exact priority
// assignment").
const DefaultMaxSearchNodes = 1 << 14

// orderSearch is the scratch state of the exact priority search: a depth-first
// walk over priority orders from the most urgent level down.
type orderSearch struct {
	placed []bool       // task is in the prefix
	prefIf []Interferer // the prefix's tasks as interferers, with their final jitters
	lowIf  []Interferer // per stuck task: the smallest jitter it can have below the prefix
	upIf   []Interferer // per task: jitter at its deadline (InterfererAtDeadline)
	byDM   []int        // all tasks, deadline-monotonic order
	opa    []int        // OPA's order, kept while the search runs
	cand   []int        // subOPA: the unplaced tasks, largest deadline first
	susp   []int        // per task: its index among the suspending tasks, or -1
	bottom []bool       // walk: placed at the bottom by the upper test
	stuck  []int        // walk: the stuck tasks of every depth, stacked
	stuckR []int64      // walk: their response times below the prefix, likewise
	vec    []int64      // per suspending task in the prefix: its response time
	memo   map[uint64]int32
	memoE  []memoEntry
	pool   []int64 // vectors of the failed states, len(vec) each
	nodes  int
	max    int
	capped bool
}

// memoEntry is a failed state: a set of tasks placed above the rest (the
// map key) and the response times of its suspending members (pool[off:]).
type memoEntry struct {
	next int32 // next entry of the same set, -1 at the end
	off  int32
}

// SearchNodes returns the number of partial orders the exact priority search
// of the last Analyze examined (0 when OPA's order passed at once or the
// search was not needed).
func (a *Analyzer) SearchNodes() int { return a.srch.nodes }

// Decided reports whether the last Analyze decided the core: true unless the
// exact priority search stopped at MaxSearchNodes before it found an order or
// proved that none exists. An undecided core is reported with the order OPA
// left, which fails; it is not proven unschedulable.
func (a *Analyzer) Decided() bool { return !a.srch.capped }

// searchOrder looks for a strict priority order of ts in which every task
// meets its deadline under the final test (the one evaluate applies: a
// self-suspending task above is an interferer with jitter R − C). It writes
// the order found to a.order and reports whether it found one. When it does
// not, a.srch.capped says whether it gave up before deciding. The argument
// for its exactness is in the package documentation ("Exact priority
// assignment").
func (a *Analyzer) searchOrder(ts []Task) bool {
	n := len(ts)
	s := &a.srch
	s.nodes, s.capped = 0, false
	s.max = a.MaxSearchNodes
	if s.max <= 0 {
		s.max = DefaultMaxSearchNodes
	}
	m := 0
	for i := range ts {
		if ts[i].NoBound {
			return false // that task is never shown schedulable
		}
		if ts[i].S > 0 {
			m++
		}
	}
	if m == 0 {
		// Without suspension the final test is OPA's own test, for which
		// OPA is optimal: it has already failed.
		return false
	}
	if a.Contention == nil && utilisation(ts) > 1+1e-9 {
		// The tasks certainly need more than the core: every job may
		// execute its C (without a contention term C is what each job
		// may take), and then some job misses its deadline in any order,
		// so no order passes a sound test. (The float sum's error is far
		// below the margin. Under a contention term a job's bound may
		// stay below its C, and the search decides.)
		return false
	}
	a.growSearch(n)
	for i := range ts {
		s.placed[i], s.bottom[i] = false, false
		s.upIf[i] = ts[i].InterfererAtDeadline()
		s.lowIf[i] = ts[i].lowestInterferer(a.Contention != nil)
		s.susp[i] = -1
	}
	s.vec = s.vec[:0]
	for i := range ts {
		if ts[i].S > 0 {
			s.susp[i] = len(s.vec)
			s.vec = append(s.vec, 0)
		}
	}
	copy(s.opa, a.order) // OPA's order, restored when the search fails
	a.sortDM(ts)
	copy(s.byDM, a.order)
	s.prefIf, s.stuck, s.stuckR = s.prefIf[:0], s.stuck[:0], s.stuckR[:0]
	if s.memo == nil {
		s.memo = make(map[uint64]int32)
	}
	clear(s.memo)
	s.memoE, s.pool = s.memoE[:0], s.pool[:0]
	if a.walk(ts, 0, 0) {
		return true
	}
	copy(a.order, s.opa)
	return false
}

func (a *Analyzer) growSearch(n int) {
	s := &a.srch
	if cap(s.placed) < n {
		s.placed = make([]bool, n)
		s.prefIf = make([]Interferer, 0, n)
		s.lowIf = make([]Interferer, n)
		s.upIf = make([]Interferer, n)
		s.byDM = make([]int, n)
		s.opa = make([]int, n)
		s.cand = make([]int, 0, n)
		s.susp = make([]int, n)
		s.vec = make([]int64, 0, n)
		s.bottom = make([]bool, n)
		s.stuck = make([]int, 0, n*n)
		s.stuckR = make([]int64, 0, n*n)
	}
	s.bottom = s.bottom[:n]
	s.placed, s.lowIf, s.upIf, s.byDM, s.opa, s.susp = s.placed[:n], s.lowIf[:n], s.upIf[:n], s.byDM[:n], s.opa[:n], s.susp[:n]
}

// lowestInterferer returns t as an interferer with the smallest jitters it
// can have in any order. A self-suspending task's R is at least J + C + S +
// B, so R − C ≥ J + S + B; with a window-dependent contention term
// (contended) R is only at least J + C0 + S + B, so R − C ≥ J + S + B −
// (C − C0) and R − Access ≥ J + S + B + C0 − Access (each at least J).
func (t Task) lowestInterferer(contended bool) Interferer {
	j, j0 := t.J, t.J
	if t.S > 0 {
		if contended {
			j = min(t.J+max(0, t.S+t.B-(t.C-t.C0)), MaxTime)
			j0 = min(t.J+t.S+t.B+t.C0-t.Access, MaxTime)
		} else {
			j = min(t.J+t.S+t.B, MaxTime)
		}
	}
	return Interferer{C: t.C, T: t.T, J: j, C0: t.C0, Lines: t.Lines, J0: j0, Readies: t.readies()}
}

// walk explores the states below the prefix a.order[:depth] (whose set is
// mask when ts has at most 64 tasks).
func (a *Analyzer) walk(ts []Task, depth int, mask uint64) bool {
	n := len(ts)
	s := &a.srch
	if depth == n {
		return true
	}
	s.nodes++
	if s.nodes > s.max {
		s.capped = true
		return false
	}
	useMemo := n <= 64
	if useMemo && depth > 0 && a.dominated(mask) {
		return false
	}
	// The levels that the upper test fills from the bottom may keep their
	// tasks in every feasible completion; only the rest (stuck) is searched.
	filled := a.subOPA(ts, depth, s.upIf, nil, true)
	if depth+filled == n {
		return true
	}
	stuckAt := len(s.stuck)
	// Self-suspending tasks first: they gain most from a high level (the
	// canonical orders of swapDominates put them as high as they fit).
	for pass := range 2 {
		for _, c := range s.byDM {
			if !s.placed[c] && !s.bottom[c] && (ts[c].S > 0) == (pass == 0) {
				s.stuck = append(s.stuck, c)
				s.stuckR = append(s.stuckR, 0)
			}
		}
	}
	for _, c := range a.order[n-filled:] {
		s.bottom[c] = false
	}
	stuck := s.stuck[stuckAt:]
	defer func() { s.stuck, s.stuckR = s.stuck[:stuckAt], s.stuckR[:stuckAt] }()
	// Lower test on the stuck tasks: each suspending one gets the smallest
	// jitter it can have below this prefix.
	for k, c := range stuck {
		t := &ts[c]
		r, st := a.respond(t, s.prefIf, t.D, nil)
		if st != Schedulable {
			// It misses with the prefix alone above it, wherever it goes.
			if useMemo {
				a.remember(mask)
			}
			return false
		}
		s.lowIf[c] = t.lowestInterferer(a.Contention != nil)
		if t.S > 0 {
			s.lowIf[c].J = max(s.lowIf[c].J, r-t.C)
			s.lowIf[c].J0 = max(s.lowIf[c].J0, r-t.Access)
		}
		s.stuckR[stuckAt+k] = r
	}
	if a.subOPA(ts, depth, s.lowIf, stuck, false) < len(stuck) {
		if useMemo {
			a.remember(mask)
		}
		return false
	}
	for k := range stuck {
		c, r := s.stuck[stuckAt+k], s.stuckR[stuckAt+k]
		t := &ts[c]
		if depth > 0 && t.S > 0 && a.swapDominates(ts, depth, c) {
			continue
		}
		a.order[depth] = c
		s.placed[c] = true
		s.prefIf = append(s.prefIf, t.Interferer(r))
		if k := s.susp[c]; k >= 0 {
			s.vec[k] = r
		}
		bit := uint64(0)
		if useMemo {
			bit = 1 << uint(c)
		}
		if a.walk(ts, depth+1, mask|bit) {
			return true
		}
		s.placed[c] = false
		s.prefIf = s.prefIf[:len(s.prefIf)-1]
		if k := s.susp[c]; k >= 0 {
			s.vec[k] = 0
		}
		if s.capped {
			return false
		}
	}
	if useMemo {
		a.remember(mask)
	}
	return false
}

// swapDominates reports whether placing the self-suspending task c above
// the task x at level depth−1 instead of below it gives a state at least as
// good: x does not suspend, so the tasks below see the same set and the same
// jitters except c's, whose response time can only shrink when x no longer
// precedes it; if x still meets its deadline below c, the swapped prefix
// dominates this one and is explored in its own right.
func (a *Analyzer) swapDominates(ts []Task, depth int, c int) bool {
	s := &a.srch
	x := a.order[depth-1]
	if ts[x].S > 0 {
		return false
	}
	above := s.prefIf[:depth-1]
	rc, st := a.respond(&ts[c], above, ts[c].D, nil)
	if st != Schedulable {
		return false
	}
	hp := append(append(a.hp[:0], above...), ts[c].Interferer(rc))
	_, st = a.respond(&ts[x], hp, ts[x].D, nil)
	return st == Schedulable
}

// subOPA runs Audsley's algorithm below the prefix of length depth, on the
// given tasks (nil: every unplaced task), each given the interferer ifs[i]
// and every placed one its final one. It fills the levels from the lowest
// (len(ts)−1) up and returns how many it could fill; with record it writes
// their tasks to a.order and marks them in s.bottom.
func (a *Analyzer) subOPA(ts []Task, depth int, ifs []Interferer, tasks []int, record bool) int {
	s := &a.srch
	cand := s.cand[:0]
	if tasks == nil {
		for k := len(s.byDM) - 1; k >= 0; k-- { // largest deadline first
			if c := s.byDM[k]; !s.placed[c] {
				cand = append(cand, c)
			}
		}
	} else {
		for k := len(tasks) - 1; k >= 0; k-- { // any scan order decides the same
			cand = append(cand, tasks[k])
		}
	}
	// With interferer classes (classes.go), the test of candidate c takes
	// its C out of its class; otherwise it builds its interferers anew.
	classes := a.useClasses(ts)
	if classes {
		a.cls.reset()
		for k := range s.prefIf {
			h := &s.prefIf[k]
			a.cls.add(h.C, h.T, h.J)
		}
		for _, x := range cand {
			a.clsOf[x] = a.cls.add(ifs[x].C, ifs[x].T, ifs[x].J)
		}
	}
	cls := a.cls.cls
	filled := 0
	for len(cand) > 0 {
		found := -1
		for ci, c := range cand {
			var st Status
			if classes {
				k := a.clsOf[c]
				cls[k].C -= ts[c].C
				_, st, _ = respondClasses(&ts[c], cls, ts[c].D)
				cls[k].C += ts[c].C
			} else {
				hp := append(a.hp[:0], s.prefIf...)
				for k, x := range cand {
					if k != ci {
						hp = append(hp, ifs[x])
					}
				}
				_, st = a.respond(&ts[c], hp, ts[c].D, nil)
			}
			if st == Schedulable {
				found = ci
				break
			}
		}
		if found < 0 {
			break
		}
		c := cand[found]
		if record {
			a.order[len(ts)-1-filled] = c
			s.bottom[c] = true
		}
		if classes {
			cls[a.clsOf[c]].C -= ts[c].C
		}
		filled++
		cand = append(cand[:found], cand[found+1:]...)
	}
	s.cand = cand
	return filled
}

// dominated reports whether a failed state with the set mask has, for every
// suspending task of the set, a response time at most the current one.
func (a *Analyzer) dominated(mask uint64) bool {
	s := &a.srch
	e, ok := s.memo[mask]
	if !ok {
		return false
	}
	for ; e >= 0; e = s.memoE[e].next {
		f := s.pool[s.memoE[e].off:]
		le := true
		for k, v := range s.vec {
			if f[k] > v {
				le = false
				break
			}
		}
		if le {
			return true
		}
	}
	return false
}

// remember records the current state as failed.
func (a *Analyzer) remember(mask uint64) {
	s := &a.srch
	head, ok := s.memo[mask]
	if !ok {
		head = -1
	}
	off := len(s.pool)
	s.pool = append(s.pool, s.vec...)
	s.memoE = append(s.memoE, memoEntry{next: head, off: int32(off)})
	s.memo[mask] = int32(len(s.memoE) - 1)
}

// utilisation returns Σ C/T over ts.
func utilisation(ts []Task) float64 {
	u := 0.0
	for i := range ts {
		u += float64(ts[i].C) / float64(ts[i].T)
	}
	return u
}
