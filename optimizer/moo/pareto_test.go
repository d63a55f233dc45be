package moo

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

func ev(v float64, objs ...float64) Evaluation {
	return Evaluation{Objectives: objs, Violation: v}
}

func TestConstrainedDominates(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b Evaluation
		want bool
	}{
		{"Pareto", ev(0, 1, 2), ev(0, 2, 2), true},
		{"equal", ev(0, 1, 2), ev(0, 1, 2), false},
		{"incomparable", ev(0, 1, 3), ev(0, 2, 2), false},
		{"dominated", ev(0, 2, 2), ev(0, 1, 2), false},
		{"feasible beats infeasible", ev(0, 9, 9), ev(0.1, 0, 0), true},
		{"infeasible loses to feasible", ev(0.1, 0, 0), ev(0, 9, 9), false},
		{"smaller violation wins", ev(1, 9, 9), ev(2, 0, 0), true},
		{"larger violation loses", ev(2, 0, 0), ev(1, 9, 9), false},
		{"equal violation", ev(1, 0, 0), ev(1, 9, 9), false},
	} {
		if got := ConstrainedDominates(&c.a, &c.b); got != c.want {
			t.Errorf("%s: ConstrainedDominates(%v, %v) = %v", c.name, c.a, c.b, got)
		}
	}
}

// naiveSort peels fronts off by testing every pair anew.
func naiveSort(evals []Evaluation) [][]int {
	left := make([]int, len(evals))
	for i := range left {
		left[i] = i
	}
	var fronts [][]int
	for len(left) > 0 {
		var front, rest []int
		for _, i := range left {
			dominated := false
			for _, j := range left {
				if ConstrainedDominates(&evals[j], &evals[i]) {
					dominated = true
					break
				}
			}
			if dominated {
				rest = append(rest, i)
			} else {
				front = append(front, i)
			}
		}
		fronts = append(fronts, front)
		left = rest
	}
	return fronts
}

// fastNonDominatedSort is the fast non-dominated sort of Deb et al. (2002),
// O(M·N²), the reference for NonDominatedSort: it counts for every
// evaluation how many others constraint-dominate it, then peels the fronts
// off by decrementing the counts of those each front dominates.
func fastNonDominatedSort(evals []Evaluation) [][]int {
	n := len(evals)
	if n == 0 {
		return nil
	}
	count := make([]int, n)
	dominated := make([][]int, n) // dominated[i]: the evaluations i dominates
	for i := range n {
		for j := range n {
			if ConstrainedDominates(&evals[i], &evals[j]) {
				dominated[i] = append(dominated[i], j)
				count[j]++
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
			for _, j := range dominated[i] {
				if count[j]--; count[j] == 0 {
					next = append(next, j)
				}
			}
		}
		slices.Sort(next)
		front = next
	}
	return fronts
}

func TestNonDominatedSort(t *testing.T) {
	evals := []Evaluation{
		ev(0, 1, 4), // 0: front 0
		ev(0, 2, 2), // 1: front 0
		ev(0, 4, 1), // 2: front 0
		ev(0, 3, 3), // 3: front 1, dominated by 1
		ev(0, 2, 2), // 4: front 0, equal to 1
		ev(0, 4, 4), // 5: front 2, dominated by 3
		ev(2, 0, 0), // 6: front 4, infeasible
		ev(1, 5, 5), // 7: front 3, less infeasible
	}
	want := [][]int{{0, 1, 2, 4}, {3}, {5}, {7}, {6}}
	if got := NonDominatedSort(evals); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("NonDominatedSort = %v, want %v", got, want)
	}
	if got := NonDominatedSort(nil); got != nil {
		t.Errorf("NonDominatedSort(nil) = %v", got)
	}
	// Three objectives, where the last member of a front is not the one
	// that dominates: (1,1,5) and (2,5,1) form front 0; (3,2,6) is
	// dominated by the first only, (3,6,2) by the second only.
	evals = []Evaluation{ev(0, 3, 2, 6), ev(0, 1, 1, 5), ev(0, 2, 5, 1), ev(0, 3, 6, 2)}
	want = [][]int{{1, 2}, {0, 3}}
	if got := NonDominatedSort(evals); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("NonDominatedSort = %v, want %v", got, want)
	}
}

// TestSortProperty checks NonDominatedSort against the fast non-dominated
// sort of Deb et al. (2002) and against peeling, on random populations of
// 1 to 5 objectives with many ties (objectives drawn from a few values, so
// that duplicates are common), including -0 next to +0, and a quarter of
// infeasible members with tied violations; one sorter is reused throughout,
// as NSGA-II reuses its own, and must give what a fresh one gives.
func TestSortProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var s sorter
	for trial := range 3000 {
		n := 1 + rng.Intn(60)
		if trial%10 == 0 {
			n = 100 + rng.Intn(150)
		}
		m := 1 + rng.Intn(5)
		levels := 2 + rng.Intn(6)
		evals := make([]Evaluation, n)
		for i := range evals {
			evals[i].Objectives = make([]float64, m)
			for k := range m {
				evals[i].Objectives[k] = float64(rng.Intn(levels))
				if evals[i].Objectives[k] == 0 && rng.Intn(2) == 0 {
					evals[i].Objectives[k] = math.Copysign(0, -1)
				}
			}
			if i > 0 && rng.Intn(8) == 0 { // an exact duplicate
				evals[i] = evals[rng.Intn(i)]
			}
			if rng.Intn(4) == 0 {
				evals[i].Violation = float64(1+rng.Intn(3)) / 2
			}
		}
		want := fastNonDominatedSort(evals)
		got := NonDominatedSort(evals)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("NonDominatedSort(%v) = %v, the fast non-dominated sort gives %v", evals, got, want)
		}
		if trial%10 == 1 {
			if peeled := naiveSort(evals); !slices.EqualFunc(got, peeled, slices.Equal) {
				t.Fatalf("NonDominatedSort(%v) = %v, peeling gives %v", evals, got, peeled)
			}
		}
		if reused := s.sort(evals); !slices.EqualFunc(reused, want, slices.Equal) {
			t.Fatalf("a reused sorter gives %v for %v, want %v", reused, evals, want)
		}
	}
}

func TestCrowdingDistance(t *testing.T) {
	inf := math.Inf(1)
	evals := []Evaluation{
		ev(0, 0, 10), // 0: an end
		ev(0, 1, 6),  // 1: (2−0)/10 + (10−4)/10 = 0.8
		ev(0, 9, 9),  // 2: not in the front
		ev(0, 2, 4),  // 3: (5−1)/10 + (6−2)/10 = 0.8
		ev(0, 5, 2),  // 4: (10−2)/10 + (4−0)/10 = 1.2
		ev(0, 10, 0), // 5: an end
	}
	front := []int{0, 1, 3, 4, 5}
	want := []float64{inf, 0.8, 0.8, 1.2, inf}
	got := CrowdingDistance(evals, front)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 && got[i] != want[i] {
			t.Errorf("CrowdingDistance = %v, want %v", got, want)
			break
		}
	}
	if got := CrowdingDistance(evals, []int{2, 4}); got[0] != inf || got[1] != inf {
		t.Errorf("crowding distances of a front of two = %v, want +Inf", got)
	}
	// Buffers reused from a larger front give the same distances.
	dist, order := crowding(evals, []int{0, 1, 2, 3, 4, 5}, nil, nil)
	for i := range dist {
		dist[i], order[i] = -7, 99
	}
	if reused, _ := crowding(evals, front, dist, order); !slices.Equal(reused, got) {
		t.Errorf("crowding with reused buffers = %v, want %v", reused, got)
	}
	// A constant objective adds nothing; ties are broken by index.
	flat := []Evaluation{ev(0, 1, 5), ev(0, 1, 5), ev(0, 1, 5)}
	if got := CrowdingDistance(flat, []int{0, 1, 2}); got[0] != inf || got[1] != 0 || got[2] != inf {
		t.Errorf("crowding distances of equal points = %v, want [+Inf 0 +Inf]", got)
	}
}

// TestArchive checks the archive against a brute-force filter, and that its
// content does not depend on the order of insertion.
func TestArchive(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for range 200 {
		m := 1 + rng.Intn(3)
		pts := make([]Point, 1+rng.Intn(60))
		for i := range pts {
			pts[i].Genome = []int{rng.Intn(4), rng.Intn(4)}
			pts[i].Objectives = make([]float64, m)
			// The objectives are a function of the genome, as they
			// are for a problem.
			for k := range m {
				pts[i].Objectives[k] = float64((pts[i].Genome[0]*(k+1) + pts[i].Genome[1]*(3-k)) % 5)
			}
			if pts[i].Genome[0] == 3 && pts[i].Genome[1] == 0 {
				pts[i].Violation = 1
			}
		}
		// Brute force: feasible, not dominated by a feasible point, and
		// the smallest genome of its objective vector.
		var want []Point
		for i, p := range pts {
			keep := p.Feasible()
			for j, q := range pts {
				if !keep {
					break
				}
				if i != j && q.Feasible() && (Dominates(q.Objectives, p.Objectives) ||
					slices.Equal(q.Objectives, p.Objectives) && slices.Compare(q.Genome, p.Genome) < 0) {
					keep = false
				}
			}
			if keep && !slices.ContainsFunc(want, func(w Point) bool { return slices.Equal(w.Genome, p.Genome) }) {
				want = append(want, p)
			}
		}
		var first []Point
		for trial := range 3 {
			a := NewArchive(m)
			for _, i := range rng.Perm(len(pts)) {
				a.Add(pts[i])
			}
			got := a.Points()
			if len(got) != len(want) {
				t.Fatalf("archive of %v holds %v, want the %d points %v", pts, got, len(want), want)
			}
			for _, w := range want {
				if !slices.ContainsFunc(got, func(g Point) bool { return slices.Equal(g.Genome, w.Genome) }) {
					t.Fatalf("archive of %v holds %v, lacks %v", pts, got, w)
				}
			}
			if trial == 0 {
				first = got
			} else if !sameGenomes(first, got) {
				t.Fatalf("archive order depends on insertion: %v, then %v", first, got)
			}
		}
	}
}

func TestArchiveCopies(t *testing.T) {
	a := NewArchive(2)
	g, o := []int{1, 2}, []float64{3, 4}
	if !a.Add(Point{Genome: g, Evaluation: Evaluation{Objectives: o}}) {
		t.Fatal("first point refused")
	}
	g[0], o[0] = 9, 9
	if p := a.Points()[0]; p.Genome[0] != 1 || p.Objectives[0] != 3 {
		t.Errorf("archive shares its point with the caller: %v", p)
	}
	if a.Add(Point{Genome: []int{1, 2}, Evaluation: Evaluation{Objectives: []float64{3, 4}}}) {
		t.Error("the same point added twice")
	}
	if a.Add(Point{Genome: []int{0, 0}, Evaluation: Evaluation{Objectives: []float64{0, 0}, Violation: 1}}) {
		t.Error("infeasible point added")
	}
	if !a.Add(Point{Genome: []int{0, 5}, Evaluation: Evaluation{Objectives: []float64{3, 4}}}) || a.Points()[0].Genome[1] != 5 || a.Len() != 1 {
		t.Errorf("a smaller genome with the same objectives does not take the place of the larger: %v", a.Points())
	}
}

func TestLeastViolating(t *testing.T) {
	l := leastViolating{k: 2}
	for _, p := range []Point{
		{Genome: []int{3}, Evaluation: ev(2, 0)},
		{Genome: []int{2}, Evaluation: ev(1, 0)},
		{Genome: []int{4}, Evaluation: ev(0, 0)},
		{Genome: []int{1}, Evaluation: ev(1, 0)},
		{Genome: []int{1}, Evaluation: ev(1, 0)},
		{Genome: []int{0}, Evaluation: ev(3, 0)},
	} {
		l.add(p)
	}
	if got := l.points; len(got) != 2 || got[0].Genome[0] != 1 || got[1].Genome[0] != 2 {
		t.Errorf("least violating = %v, want genomes [1] and [2]", got)
	}
}
