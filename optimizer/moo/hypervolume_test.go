package moo

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

func TestHypervolumeHand(t *testing.T) {
	for _, c := range []struct {
		name  string
		front [][]float64
		ref   []float64
		want  float64
	}{
		// Boxes 3·1 + 2·1 + 1·1: (1,3) alone covers [1,4]×[3,4]; (2,2)
		// adds [2,4]×[2,3]; (3,1) adds [3,4]×[1,2].
		{"2-D staircase", [][]float64{{1, 3}, {2, 2}, {3, 1}}, []float64{4, 4}, 6},
		{"2-D unsorted with dominated and repeated points", [][]float64{{3, 1}, {2, 3}, {1, 3}, {2, 2}, {2, 2}, {3.5, 3.5}}, []float64{4, 4}, 6},
		{"2-D on the reference", [][]float64{{4, 0}, {0, 4}, {5, -1}}, []float64{4, 4}, 0},
		{"1-D", [][]float64{{3}, {1}, {2}}, []float64{4}, 3},
		{"3-D single point", [][]float64{{1, 2, 3}}, []float64{4, 4, 4}, 3 * 2 * 1},
		// 2·1·1 + 1·2·1 − their intersection from (2,2,2): 1·1·1.
		{"3-D two overlapping boxes", [][]float64{{1, 2, 2}, {2, 1, 2}}, []float64{3, 3, 3}, 3},
		// In the cube [0,2]³ cut into eight unit cells, (0,1,1) covers
		// the cells at (0,1,1) and (1,1,1), and likewise for the others:
		// the cell at (1,1,1) is shared, so 3 + 1 cells.
		{"3-D three corners", [][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}, []float64{2, 2, 2}, 4},
		{"3-D nested", [][]float64{{1, 1, 1}, {2, 2, 2}, {1, 2, 1}}, []float64{3, 3, 3}, 8},
		{"4-D single point", [][]float64{{0, 0, 0, 0}}, []float64{1, 2, 3, 4}, 24},
		// 2·1·2·2 + 1·2·2·2 − 1·1·2·2.
		{"4-D two overlapping boxes", [][]float64{{0, 1, 0, 0}, {1, 0, 0, 0}}, []float64{2, 2, 2, 2}, 12},
		{"4-D one outside", [][]float64{{0, 0, 0, 0}, {0, 0, 0, 2}}, []float64{1, 1, 1, 2}, 2},
		{"empty", nil, []float64{1, 1, 1}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := clone2(c.front)
			if got := Hypervolume(c.front, c.ref); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("Hypervolume = %v, want %v", got, c.want)
			}
			if !slices.EqualFunc(before, c.front, slices.Equal) {
				t.Errorf("Hypervolume modified its argument: %v, was %v", c.front, before)
			}
		})
	}
}

func clone2(a [][]float64) [][]float64 {
	c := make([][]float64, len(a))
	for i := range a {
		c[i] = slices.Clone(a[i])
	}
	return c
}

// gridHypervolume counts the unit cells [c, c+1] of the grid 0…ref−1 that
// some point weakly dominates: the exact hypervolume of a front of integer
// points with respect to an integer reference.
func gridHypervolume(front [][]float64, ref []float64) float64 {
	d := len(ref)
	cell := make([]float64, d)
	count := 0
	var walk func(j int)
	walk = func(j int) {
		if j == d {
			for _, p := range front {
				if weaklyDominates(p, cell, d) {
					count++
					return
				}
			}
			return
		}
		for v := 0; v < int(ref[j]); v++ {
			cell[j] = float64(v)
			walk(j + 1)
		}
	}
	walk(0)
	return float64(count)
}

func randomIntegerFront(rng *rand.Rand, d, n, side int) [][]float64 {
	front := make([][]float64, n)
	for i := range front {
		front[i] = make([]float64, d)
		for j := range front[i] {
			front[i][j] = float64(rng.Intn(side + 1)) // side itself is on the reference
		}
	}
	return front
}

// TestHypervolumeGrid compares Hypervolume with a count of grid cells on
// random small integer fronts in 2 to 4 objectives, and checks it does not
// depend on the order of the points or of the objectives.
func TestHypervolumeGrid(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := range 600 {
		d := 2 + trial%3
		side := 3 + rng.Intn(4)
		front := randomIntegerFront(rng, d, 1+rng.Intn(12), side)
		ref := make([]float64, d)
		for j := range ref {
			ref[j] = float64(side)
		}
		want := gridHypervolume(front, ref)
		got := Hypervolume(front, ref)
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("front %v, reference %v: Hypervolume = %v, grid count %v", front, ref, got, want)
		}
		perm := rng.Perm(d)
		shuffled := make([][]float64, len(front))
		for i, k := range rng.Perm(len(front)) {
			shuffled[i] = make([]float64, d)
			for j := range d {
				shuffled[i][j] = front[k][perm[j]]
			}
		}
		if got2 := Hypervolume(shuffled, ref); math.Abs(got2-got) > 1e-9 {
			t.Fatalf("front %v: Hypervolume = %v, with points and objectives shuffled %v", front, got, got2)
		}
	}
}

// TestHypervolumeMonteCarlo checks non-integer fronts in 3 and 4 objectives
// against a Monte-Carlo estimate.
func TestHypervolumeMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, d := range []int{3, 4} {
		front := make([][]float64, 30)
		for i := range front {
			front[i] = make([]float64, d)
			sum := 0.0
			for j := range front[i] {
				front[i][j] = rng.Float64()
				sum += front[i][j] * front[i][j]
			}
			for j := range front[i] {
				front[i][j] /= math.Sqrt(sum) // on the unit sphere: non-dominated
			}
		}
		ref := slices.Repeat([]float64{1.1}, d)
		const samples = 200000
		hits := 0
		x := make([]float64, d)
		for range samples {
			for j := range x {
				x[j] = rng.Float64() * 1.1
			}
			for _, p := range front {
				if weaklyDominates(p, x, d) {
					hits++
					break
				}
			}
		}
		est := math.Pow(1.1, float64(d)) * float64(hits) / samples
		got := Hypervolume(front, ref)
		// The estimate's standard error is below 0.003 here.
		if math.Abs(got-est) > 0.015 {
			t.Errorf("%d-D: Hypervolume = %v, Monte-Carlo estimate %v", d, got, est)
		}
	}
}

// TestSweep3 compares the three-objective sweep with the general WFG
// recursion on random non-integer fronts.
func TestSweep3(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	ref := []float64{1, 1, 1}
	for range 200 {
		var pts [][]float64
		for range 1 + rng.Intn(40) {
			p := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
			if rng.Intn(3) == 0 {
				p[rng.Intn(3)] = 0.5 // ties
			}
			pts = append(pts, p)
		}
		pts = nondominated(pts, 3)
		a := sweep3(slices.Clone(pts), ref)
		b := slicesWFG(slices.Clone(pts), ref, 3)
		if math.Abs(a-b) > 1e-12 {
			t.Fatalf("front %v: sweep %v, WFG %v", pts, a, b)
		}
	}
}

func TestHypervolumeRatio(t *testing.T) {
	exact := [][]float64{{1, 3}, {2, 2}, {3, 1}}
	ref := []float64{4, 4}
	if r := HypervolumeRatio(exact, exact, ref); r != 1 {
		t.Errorf("ratio of a front to itself = %v", r)
	}
	if r := HypervolumeRatio([][]float64{{2, 2}}, exact, ref); math.Abs(r-4.0/6) > 1e-15 {
		t.Errorf("ratio = %v, want 4/6", r)
	}
	if r := HypervolumeRatio(nil, [][]float64{{4, 4}}, ref); !math.IsNaN(r) {
		t.Errorf("ratio to an empty hypervolume = %v, want NaN", r)
	}
}

func TestHypervolumePanics(t *testing.T) {
	for name, f := range map[string]func(){
		"empty reference": func() { Hypervolume([][]float64{{1}}, nil) },
		"length mismatch": func() { Hypervolume([][]float64{{1, 2, 3}}, []float64{4, 4}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// FuzzHypervolume compares Hypervolume with the grid count on fronts of
// integer points read from the fuzzer's bytes.
func FuzzHypervolume(f *testing.F) {
	f.Add(uint8(3), []byte{1, 2, 2, 2, 1, 2})
	f.Add(uint8(4), []byte{0, 1, 0, 0, 1, 0, 0, 0, 3, 3, 3, 3})
	f.Add(uint8(2), []byte{1, 3, 2, 2, 3, 1})
	f.Fuzz(func(t *testing.T, d uint8, data []byte) {
		dim := 2 + int(d)%3
		const side = 5
		var front [][]float64
		for len(data) >= dim && len(front) < 16 {
			p := make([]float64, dim)
			for j := range p {
				p[j] = float64(data[j] % (side + 1))
			}
			front = append(front, p)
			data = data[dim:]
		}
		ref := slices.Repeat([]float64{side}, dim)
		if got, want := Hypervolume(front, ref), gridHypervolume(front, ref); math.Abs(got-want) > 1e-9 {
			t.Fatalf("front %v: Hypervolume = %v, grid count %v", front, got, want)
		}
	})
}
