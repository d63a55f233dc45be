package rta

// FeasibleOrders enumerates the strict priority orders of ts (most urgent
// first) in which every task meets its deadline under the final test (the
// one Analyze reports: a self-suspending task above is an interferer with
// jitter R − C). For each it calls visit with the order and the response
// times, indexed like ts; both slices belong to the Analyzer and are valid
// only during the call. The enumeration fixes the levels from the most
// urgent down and cuts a prefix as soon as its last task misses its
// deadline, which loses no order: a task's response time depends only on
// the tasks above it and their order (see "Exact priority assignment" in
// the package documentation). It stops when visit returns false or after
// maxOrders orders (0: no limit) and reports whether it visited every
// feasible order (false also when it stopped at the limit exactly after the
// last one). A task with NoBound is never schedulable, so such a core
// has none. FeasibleOrders allocates nothing once the Analyzer's buffers
// have grown; ts must be valid (see Task.Validate).
func (a *Analyzer) FeasibleOrders(ts []Task, maxOrders int, visit func(order []int, r []int64) bool) (complete bool) {
	complete, _ = a.FeasibleOrdersWithin(ts, maxOrders, 0, visit)
	return complete
}

// FeasibleOrdersWithin is FeasibleOrders with a bound on its work: it
// makes at most maxSteps response-time analyses of one task at one
// priority level (0: no bound), and returns, besides whether it visited
// every feasible order, how many such analyses it made. A caller that
// budgets whole analyses of a system can so charge the enumeration for what
// it cost (a core of k tasks takes up to k + k(k−1) + … + k! steps).
func (a *Analyzer) FeasibleOrdersWithin(ts []Task, maxOrders, maxSteps int, visit func(order []int, r []int64) bool) (complete bool, steps int) {
	n := len(ts)
	for i := range ts {
		if ts[i].NoBound || !ts[i].valid() {
			return true, 0
		}
	}
	a.grow(n)
	a.growSearch(n)
	s := &a.srch
	for i := range ts {
		s.placed[i] = false
	}
	if cap(s.stuckR) < n {
		s.stuckR = make([]int64, 0, n*n)
	}
	o := orderWalk{a: a, ts: ts, r: s.stuckR[:n], max: maxOrders, maxSteps: maxSteps, visit: visit}
	s.prefIf = s.prefIf[:0]
	o.walk(0)
	a.ordered = false // a.order no longer holds the last Analyze's order
	return !o.stopped, o.steps
}

// orderWalk is the state of one FeasibleOrders enumeration.
type orderWalk struct {
	a       *Analyzer
	ts      []Task
	r       []int64
	max     int
	visited int
	stopped bool
	// maxSteps bounds steps, the response-time analyses made (0: none).
	maxSteps, steps int
	visit           func(order []int, r []int64) bool
}

func (o *orderWalk) walk(depth int) {
	a, s := o.a, &o.a.srch
	if depth == len(o.ts) {
		o.visited++
		if !o.visit(a.order, o.r) || (o.max > 0 && o.visited >= o.max) {
			o.stopped = true
		}
		return
	}
	for c := range o.ts {
		if s.placed[c] {
			continue
		}
		if o.maxSteps > 0 && o.steps >= o.maxSteps {
			o.stopped = true
			return
		}
		o.steps++
		t := &o.ts[c]
		rc, st := respond(t, s.prefIf, t.D, a.scratch)
		if st != Schedulable {
			continue
		}
		a.order[depth], o.r[c], s.placed[c] = c, rc, true
		s.prefIf = append(s.prefIf, t.Interferer(rc))
		o.walk(depth + 1)
		s.placed[c] = false
		s.prefIf = s.prefIf[:len(s.prefIf)-1]
		if o.stopped {
			return
		}
	}
}
