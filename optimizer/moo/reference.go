package moo

import (
	"math"
	"math/rand"
	"slices"
)

// Selection says how NSGA-II's survival chooses, of the last front that
// fits only in part, the members that stay.
type Selection int

const (
	// CrowdingSelection keeps the members of largest crowding distance
	// (NSGA-II, Deb et al. 2002), and tournaments compare crowding
	// distances after ranks.
	CrowdingSelection Selection = iota
	// ReferenceSelection keeps the members nearest the reference
	// directions that the members kept so far leave the emptiest
	// (NSGA-III, Deb and Jain 2014): with four or more objectives nearly
	// every member is in the first front, and the crowding distance, a sum
	// over the objectives of the gaps to the neighbours along each, no
	// longer tells a crowded region from a sparse one. Tournaments compare
	// violations, then ranks, then toss a coin.
	ReferenceSelection
)

// referenceDirections returns Das and Dennis's structured points on the
// unit simplex of m objectives with p divisions (every vector of m
// non-negative multiples of 1/p that sum to 1: C(m+p−1, p) of them), and,
// when p < m (where those points all lie on the simplex's boundary), the
// points of p−1 divisions shrunk by half towards the simplex's centre, as
// Deb and Jain's two layers do. p is the number of divisions whose count
// of directions (one layer) is nearest n, the population.
func referenceDirections(m, n int) [][]float64 {
	count := func(p int) int { // C(m+p−1, p), saturating
		c := 1.0
		for i := 1; i <= p; i++ {
			c = c * float64(m-1+i) / float64(i)
		}
		return int(min(c, 1e9))
	}
	p := 1
	for count(p+1) <= n {
		p++
	}
	if count(p+1)-n < n-count(p) {
		p++
	}
	dirs := dasDennis(m, p, 1)
	if p < m && p > 1 {
		dirs = append(dirs, dasDennis(m, p-1, 0.5)...)
	}
	return dirs
}

// dasDennis returns the points of m objectives with p divisions, scaled
// by shrink towards the centre of the simplex (1: on the simplex's grid).
func dasDennis(m, p int, shrink float64) [][]float64 {
	var out [][]float64
	v := make([]int, m)
	var rec func(k, left int)
	rec = func(k, left int) {
		if k == m-1 {
			v[k] = left
			d := make([]float64, m)
			for i, x := range v {
				d[i] = shrink*float64(x)/float64(p) + (1-shrink)/float64(m)
			}
			out = append(out, d)
			return
		}
		for x := left; x >= 0; x-- {
			v[k] = x
			rec(k+1, left-x)
		}
	}
	rec(0, p)
	return out
}

// referenceCut chooses k of the feasible members last (indices into evals)
// to join the members chosen, NSGA-III's niching: the objectives of both
// are normalised (translated by their ideal point, scaled by the
// intercepts of the hyperplane through the extreme points, or by the nadir
// where that is degenerate), every member is associated with the
// reference direction nearest it (perpendicular distance), and k times a
// direction with the fewest chosen members is picked (ties at random) and
// given the member of last nearest it if it has none yet, a random one
// otherwise; a direction with no member of last left drops out. It
// returns the positions in last of the members kept, in the order chosen.
func referenceCut(evals []Evaluation, chosen, last []int, k int, dirs [][]float64, rng *rand.Rand) []int {
	if k >= len(last) {
		out := make([]int, len(last))
		for i := range out {
			out[i] = i
		}
		return out
	}
	all := append(slices.Clone(chosen), last...)
	m := len(evals[all[0]].Objectives)
	ideal, scale := normalisation(evals, all, m)
	// Association.
	niche := func(i int) (int, float64) {
		f := make([]float64, m)
		for j, v := range evals[i].Objectives {
			f[j] = (v - ideal[j]) / scale[j]
		}
		best, dist := -1, math.Inf(1)
		for r, w := range dirs {
			dot, ww := 0.0, 0.0
			for j := range w {
				dot += f[j] * w[j]
				ww += w[j] * w[j]
			}
			d := 0.0
			for j := range w {
				x := f[j] - dot/ww*w[j]
				d += x * x
			}
			if d < dist {
				best, dist = r, d
			}
		}
		return best, dist
	}
	count := make([]int, len(dirs))
	for _, i := range chosen {
		r, _ := niche(i)
		count[r]++
	}
	dirOf, dist := make([]int, len(last)), make([]float64, len(last))
	members := make([][]int, len(dirs)) // positions in last, by direction
	for t, i := range last {
		dirOf[t], dist[t] = niche(i)
		members[dirOf[t]] = append(members[dirOf[t]], t)
	}
	active := make([]bool, len(dirs))
	for r := range dirs {
		active[r] = true
	}
	var out []int
	var fewest []int
	for len(out) < k {
		fewest = fewest[:0]
		least := math.MaxInt
		for r := range dirs {
			switch {
			case !active[r]:
			case count[r] < least:
				least, fewest = count[r], append(fewest[:0], r)
			case count[r] == least:
				fewest = append(fewest, r)
			}
		}
		r := fewest[rng.Intn(len(fewest))]
		ms := members[r]
		if len(ms) == 0 {
			active[r] = false
			continue
		}
		pick := 0
		if count[r] == 0 {
			for q := range ms {
				if dist[ms[q]] < dist[ms[pick]] {
					pick = q
				}
			}
		} else {
			pick = rng.Intn(len(ms))
		}
		out = append(out, ms[pick])
		members[r] = append(ms[:pick], ms[pick+1:]...)
		count[r]++
	}
	return out
}

// normalisation returns the ideal point of the members all (of m
// objectives) and the scale of each objective: the intercepts of the
// hyperplane through the extreme points, or the members' widest spread
// where they span none (Deb and Jain 2014, section IV-C).
func normalisation(evals []Evaluation, all []int, m int) (ideal, scale []float64) {
	ideal = make([]float64, m)
	for j := range ideal {
		ideal[j] = math.Inf(1)
		for _, i := range all {
			ideal[j] = min(ideal[j], evals[i].Objectives[j])
		}
	}
	// Extreme points: the members that minimise the achievement
	// scalarising function along each axis.
	extreme := make([][]float64, m)
	for j := range m {
		best := math.Inf(1)
		for _, i := range all {
			asf := 0.0
			for q, v := range evals[i].Objectives {
				w := 1e-6
				if q == j {
					w = 1
				}
				asf = max(asf, (v-ideal[q])/w)
			}
			if asf < best {
				best, extreme[j] = asf, evals[i].Objectives
			}
		}
	}
	scale = intercepts(extreme, ideal)
	if scale == nil {
		scale = make([]float64, m)
		for _, i := range all {
			for j, v := range evals[i].Objectives {
				scale[j] = max(scale[j], v-ideal[j])
			}
		}
	}
	for j := range scale {
		if !(scale[j] > 1e-10) {
			scale[j] = 1
		}
	}
	return ideal, scale
}

// intercepts returns, per objective, the distance from the ideal point to
// where the hyperplane through the extreme points (translated by ideal)
// meets the objective's axis, or nil when the points do not span a
// hyperplane or an intercept is not positive (Deb and Jain 2014, section
// IV-C).
func intercepts(extreme [][]float64, ideal []float64) []float64 {
	m := len(ideal)
	// Solve E·b = 1 by Gaussian elimination with partial pivoting, E the
	// translated extreme points as rows; the intercepts are 1/b.
	a := make([][]float64, m)
	for i := range m {
		a[i] = make([]float64, m+1)
		for j := range m {
			a[i][j] = extreme[i][j] - ideal[j]
		}
		a[i][m] = 1
	}
	for c := range m {
		p := c
		for r := c + 1; r < m; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil
		}
		a[c], a[p] = a[p], a[c]
		for r := range m {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for q := c; q <= m; q++ {
				a[r][q] -= f * a[c][q]
			}
		}
	}
	out := make([]float64, m)
	for i := range m {
		b := a[i][m] / a[i][i]
		if !(b > 0) || math.IsInf(1/b, 0) {
			return nil
		}
		out[i] = 1 / b
	}
	return out
}
