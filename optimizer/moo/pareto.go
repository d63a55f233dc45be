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

// NonDominatedSort sorts evaluations into fronts by constraint domination
// with the fast non-dominated sorting of Deb et al. (2002): the first front
// holds the indices of the evaluations that no other dominates, the second
// those dominated only by members of the first, and so on. Every index
// appears in exactly one front, and each front lists its indices in
// increasing order. It takes O(M·N²) time for N evaluations of M objectives.
func NonDominatedSort(evals []Evaluation) [][]int {
	n := len(evals)
	if n == 0 {
		return nil
	}
	count := make([]int, n)        // count[j]: how many evaluations dominate j
	dominates := make([]bool, n*n) // dominates[i*n+j]: i dominates j
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch constrainedCompare(&evals[i], &evals[j]) {
			case 1:
				dominates[i*n+j] = true
				count[j]++
			case -1:
				dominates[j*n+i] = true
				count[i]++
			}
		}
	}
	var fronts [][]int
	var front []int
	for i, c := range count {
		if c == 0 {
			front = append(front, i)
		}
	}
	for len(front) > 0 {
		fronts = append(fronts, front)
		var next []int
		for _, i := range front {
			for j, d := range dominates[i*n : (i+1)*n] {
				if d {
					if count[j]--; count[j] == 0 {
						next = append(next, j)
					}
				}
			}
		}
		slices.Sort(next)
		front = next
	}
	return fronts
}

// constrainedCompare returns 1 when a constraint-dominates b, -1 when b
// constraint-dominates a, and 0 otherwise, in one pass over the objectives.
func constrainedCompare(a, b *Evaluation) int {
	if a.Violation > 0 || b.Violation > 0 {
		switch {
		case a.Violation < b.Violation:
			return 1
		case a.Violation > b.Violation:
			return -1
		}
		return 0
	}
	aBetter, bBetter := false, false
	for k, x := range a.Objectives {
		switch y := b.Objectives[k]; {
		case x < y:
			aBetter = true
		case x > y:
			bBetter = true
		}
		if aBetter && bBetter {
			return 0
		}
	}
	switch {
	case aBetter:
		return 1
	case bBetter:
		return -1
	}
	return 0
}

// CrowdingDistance returns the crowding distance of each member of front, a
// list of indices into evals, in the order of front (Deb et al. 2002, section
// III-B): the sum over the objectives of the distance between a member's two
// neighbours along that objective, normalised by the objective's range over
// the front. The members at either end of some objective get +Inf, as do all
// members of a front of one or two. Ties are broken by index, so the result
// does not depend on anything but its arguments.
func CrowdingDistance(evals []Evaluation, front []int) []float64 {
	k := len(front)
	dist := make([]float64, k)
	if k <= 2 {
		for t := range dist {
			dist[t] = math.Inf(1)
		}
		return dist
	}
	order := make([]int, k) // positions in front
	m := len(evals[front[0]].Objectives)
	for obj := range m {
		for t := range order {
			order[t] = t
		}
		value := func(t int) float64 { return evals[front[t]].Objectives[obj] }
		slices.SortFunc(order, func(a, b int) int {
			va, vb := value(a), value(b)
			switch {
			case va < vb:
				return -1
			case va > vb:
				return 1
			}
			return front[a] - front[b]
		})
		dist[order[0]] = math.Inf(1)
		dist[order[k-1]] = math.Inf(1)
		lo, hi := value(order[0]), value(order[k-1])
		if hi == lo {
			continue
		}
		for t := 1; t < k-1; t++ {
			dist[order[t]] += (value(order[t+1]) - value(order[t-1])) / (hi - lo)
		}
	}
	return dist
}
