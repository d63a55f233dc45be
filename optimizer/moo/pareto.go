package moo

import (
	"math"
	"slices"
)

// Dominates reports whether objective vector a Pareto-dominates b: a is no
// worse than b in every objective and better in at least one, all
// objectives minimised. It panics if the lengths differ.
func Dominates(a, b []float64) bool {
	if len(a) != len(b) {
		panic("moo: objective vectors of different lengths")
	}
	better := false
	for k := range a {
		switch {
		case a[k] > b[k]:
			return false
		case a[k] < b[k]:
			better = true
		}
	}
	return better
}

// ConstrainedDominates reports whether a constraint-dominates b (Deb 2000;
// Deb et al. 2002, section VI): a feasible evaluation dominates an infeasible
// one, of two infeasible evaluations the one with the smaller violation
// dominates, and of two feasible evaluations the one that Pareto-dominates
// the other does.
func ConstrainedDominates(a, b *Evaluation) bool {
	if a.Violation > 0 || b.Violation > 0 {
		return a.Violation < b.Violation
	}
	return Dominates(a.Objectives, b.Objectives)
}

// NonDominatedSort sorts evaluations into fronts by constraint domination:
// the first front holds the indices of the evaluations that no other
// dominates, the second those dominated only by members of the first, and so
// on. Every index appears in exactly one front, and each front lists its
// indices in increasing order. The feasible evaluations fill the first
// fronts; the infeasible ones follow, one front per distinct violation, by
// increasing violation (Deb 2000).
//
// The feasible evaluations are sorted by the efficient non-dominated sort
// with binary search, ENS-BS (Zhang, Tian, Cheng and Jin 2015): taken in
// lexicographic order of their objectives, so that every evaluation comes
// after all those that dominate it, each joins the first front none of whose
// members dominates it, found by binary search over the fronts. In one or two
// objectives only a front's last member has to be compared (it has the
// smallest second objective of the front), which makes the sort O(N log N);
// in more it is O(M·N log N) at best and O(M·N²) at worst, against O(M·N²)
// always for the fast non-dominated sort of Deb et al. (2002). TestSortProperty
// checks it against that sort on random populations with ties, duplicates
// and violations.
func NonDominatedSort(evals []Evaluation) [][]int {
	if len(evals) == 0 {
		return nil
	}
	var s sorter
	fronts := s.sort(evals)
	out := make([][]int, len(fronts))
	flat := make([]int, 0, len(evals)) // one allocation for every front
	for k, f := range fronts {
		flat = append(flat, f...)
		out[k] = flat[len(flat)-len(f) : len(flat) : len(flat)]
	}
	return out
}

// sorter sorts into fronts with buffers it keeps from one call to the next,
// so that NSGA-II's survival allocates nothing in steady state. The zero
// value is ready to use.
type sorter struct {
	order  []int   // feasible, then infeasible indices, each part sorted
	fronts [][]int // fronts[:k] is the result; the rest are spare buffers
	reps   [][]int // reps[f]: one member of front f per distinct objective vector
}

// sort returns the fronts of evals as NonDominatedSort defines them. The
// result is valid until the next call.
func (s *sorter) sort(evals []Evaluation) [][]int {
	s.order = s.order[:0]
	for i := range evals {
		if evals[i].Feasible() {
			s.order = append(s.order, i)
		}
	}
	nf := len(s.order)
	for i := range evals {
		if !evals[i].Feasible() {
			s.order = append(s.order, i)
		}
	}
	feasible, infeasible := s.order[:nf], s.order[nf:]
	slices.SortFunc(feasible, func(a, b int) int {
		if c := compareLex(evals[a].Objectives, evals[b].Objectives); c != 0 {
			return c
		}
		return a - b
	})
	slices.SortFunc(infeasible, func(a, b int) int {
		if c := compareFinite(evals[a].Violation, evals[b].Violation); c != 0 {
			return c
		}
		return a - b
	})

	k := 0    // fronts in use
	last := 0 // the front of the previous evaluation
	for i, p := range feasible {
		// An evaluation equal to the previous one (they are adjacent in
		// lexicographic order) joins its front; only distinct vectors, the
		// front's representatives, need comparing.
		if i > 0 && compareLex(evals[p].Objectives, evals[feasible[i-1]].Objectives) == 0 {
			s.fronts[last] = append(s.fronts[last], p)
			continue
		}
		// The fronts that dominate p form a prefix: a member of front f
		// that dominates p is dominated by a member of every earlier
		// front, which then dominates p too.
		lo, hi := 0, k
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if s.frontDominates(evals, s.reps[mid], p) {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo == k {
			k = s.newFront(k)
		}
		s.fronts[lo] = append(s.fronts[lo], p)
		s.reps[lo] = append(s.reps[lo], p)
		last = lo
	}
	for i, p := range infeasible {
		if i == 0 || evals[p].Violation != evals[infeasible[i-1]].Violation {
			k = s.newFront(k)
		}
		s.fronts[k-1] = append(s.fronts[k-1], p)
	}
	for _, f := range s.fronts[:k] {
		slices.Sort(f)
	}
	return s.fronts[:k]
}

// newFront opens front k, empty, reusing spare buffers, and returns k+1.
func (s *sorter) newFront(k int) int {
	if k == len(s.fronts) {
		s.fronts = append(s.fronts, nil)
		s.reps = append(s.reps, nil)
	}
	s.fronts[k], s.reps[k] = s.fronts[k][:0], s.reps[k][:0]
	return k + 1
}

// frontDominates reports whether a member of front, a list of feasible
// evaluations that all come before p in lexicographic order (and differ from
// it), dominates p. In
// one or two objectives the last member has the smallest last objective of
// the front (its members do not dominate one another), so it dominates p if
// any member does. In more, the members are tried from the last, the closest
// to p in lexicographic order.
func (s *sorter) frontDominates(evals []Evaluation, front []int, p int) bool {
	x := evals[p].Objectives
	if len(x) <= 2 {
		return dominates(evals[front[len(front)-1]].Objectives, x)
	}
	for i := len(front) - 1; i >= 0; i-- {
		if dominates(evals[front[i]].Objectives, x) {
			return true
		}
	}
	return false
}

// compareFinite compares two numbers that are not NaN, as cmp.Compare does
// without its NaN checks: -1, 0 or 1.
func compareFinite(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// compareLex compares two objective vectors of the same length, free of NaN,
// lexicographically.
func compareLex(a, b []float64) int {
	b = b[:len(a)]
	for k, x := range a {
		if c := compareFinite(x, b[k]); c != 0 {
			return c
		}
	}
	return 0
}

// dominates is Dominates without the length check, for vectors of the same
// length.
func dominates(a, b []float64) bool {
	b = b[:len(a)]
	better := false
	for k, x := range a {
		switch y := b[k]; {
		case x > y:
			return false
		case x < y:
			better = true
		}
	}
	return better
}

// CrowdingDistance returns the crowding distance of each member of front, a
// list of indices into evals, in the order of front (Deb et al. 2002, section
// III-B): the sum over the objectives of the distance between a member's two
// neighbours along that objective, normalised by the objective's range over
// the front. The members at either end of some objective get +Inf, as do all
// members of a front of one or two. Ties are broken by index, so the result
// does not depend on anything but its arguments.
func CrowdingDistance(evals []Evaluation, front []int) []float64 {
	dist, _ := crowding(evals, front, nil, nil)
	return dist
}

// crowding is CrowdingDistance writing into dist and sorting in order,
// buffers that it reuses when they have the capacity and returns.
func crowding(evals []Evaluation, front []int, dist []float64, order []int) ([]float64, []int) {
	k := len(front)
	dist = slices.Grow(dist[:0], k)[:k]
	if k <= 2 {
		for t := range dist {
			dist[t] = math.Inf(1)
		}
		return dist, order
	}
	clear(dist)
	order = slices.Grow(order[:0], k)[:k] // positions in front
	m := len(evals[front[0]].Objectives)
	for obj := range m {
		for t := range order {
			order[t] = t
		}
		slices.SortFunc(order, func(a, b int) int {
			if c := compareFinite(evals[front[a]].Objectives[obj], evals[front[b]].Objectives[obj]); c != 0 {
				return c
			}
			return front[a] - front[b]
		})
		value := func(t int) float64 { return evals[front[order[t]]].Objectives[obj] }
		dist[order[0]] = math.Inf(1)
		dist[order[k-1]] = math.Inf(1)
		lo, hi := value(0), value(k-1)
		if hi == lo {
			continue
		}
		for t := 1; t < k-1; t++ {
			dist[order[t]] += (value(t+1) - value(t-1)) / (hi - lo)
		}
	}
	return dist, order
}
