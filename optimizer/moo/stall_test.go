package moo

import (
	"math"
	"testing"
)

// TestFrontImprovement computes improvements by hand, two objectives.
func TestFrontImprovement(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cur, old []float64
		want     float64
	}{
		// The same front: nothing improved.
		{"same", []float64{0, 10, 10, 0}, []float64{10, 0, 0, 10}, 0},
		// Points lost (a thinned archive), none better: nothing improved.
		{"thinned", []float64{0, 10}, []float64{0, 10, 10, 0, 5, 6}, 0},
		// (0, 10) was (0, 11): extents 10 and 11 (both fronts); the old
		// front falls short of (0, 10) by 1/11 on the second objective,
		// of (10, 0) by nothing: (1/11 + 0)/2.
		{"closer", []float64{0, 10, 10, 0}, []float64{0, 11, 10, 0}, 1.0 / 22},
		// A point that the old front does not reach on both objectives:
		// (4, 4) against (0, 10) and (10, 0), extents 10: from (0, 10)
		// √(0.6²) = 0.6, from (10, 0) 0.6; the nearest 0.6; with (0, 10)
		// and (10, 0) themselves unchanged, 0.6/3 = 0.2.
		{"better", []float64{0, 10, 10, 0, 4, 4}, []float64{0, 10, 10, 0}, 0.2},
		// A worse point improves nothing: (6, 11) against (0, 10), (10, 0):
		// (0, 10) weakly dominates it.
		{"worse", []float64{0, 10, 10, 0, 6, 11}, []float64{0, 10, 10, 0}, 0},
	} {
		if got := frontImprovement(tc.cur, tc.old, 2); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: improvement %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestStallLeft: measures that fall as 0.1·e^(−(g−50)/100), at
// generations 50, 55, …, 95 (made up: the first comes at twice the
// window), reach the tolerance 0.005 at g = 50 +
// 100·ln(20) = 349.57: 249.57 generations after 100. Measures that do not
// fall give the limit; before the first measure, the generations to it.
func TestStallLeft(t *testing.T) {
	s := Stall{Generations: 50}
	var st stallState
	for g := 50; g <= 95; g += 5 {
		st.measured = append(st.measured, stallMeasure{g, 0.1 * math.Exp(-float64(g-50)/100)})
	}
	if got, want := st.left(100, s, 1000), 100*math.Log(20)-50; math.Abs(got-want) > 1e-9 {
		t.Errorf("falling measures: %v generations left, want %v", got, want)
	}
	if got := st.left(100, s, 200); got != 200 {
		t.Errorf("the limit nearer: %v left, want 200", got)
	}
	for i := range st.measured {
		st.measured[i].value = 0.1
	}
	if got := st.left(100, s, 700); got != 700 {
		t.Errorf("flat measures: %v left, want the limit 700", got)
	}
	if got := st.left(20, s, 700); got != 80 {
		t.Errorf("before the first measure: %v left, want 80 (to generation 100, twice the window)", got)
	}
	if got := st.left(95, Stall{}, 700); got != 700 {
		t.Errorf("no window: %v left, want the limit", got)
	}
}

// TestStallConverges: a run with a window stops, Converged, at a measure
// (every stallStep generations, from twice the window on) of at most the
// tolerance, the measures before it above; a run shorter than twice the
// window never stops early; a run that finds nothing feasible stops once its least
// violation has stopped improving.
func TestStallConverges(t *testing.T) {
	var measures []Progress
	s := &Settings{Generations: 2000, Stall: Stall{Generations: 15}, Seed: 2,
		Progress: func(p Progress) {
			if n := len(measures); n == 0 || measures[n-1].Improvement != p.Improvement {
				measures = append(measures, p)
			}
		}}
	res, err := Minimize(newKnapsack(3), &NSGA2{Population: 20}, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Converged || res.Generations >= 2000 || res.Generations < 30 || res.Generations%stallStep != 0 {
		t.Fatalf("status %v after %d generations, want Converged at a multiple of %d", res.Status, res.Generations, stallStep)
	}
	last := measures[len(measures)-1]
	if last.Improvement > DefaultStallTolerance || last.Generation != res.Generations || last.StallWindow != 15 || last.StallTolerance != DefaultStallTolerance {
		t.Errorf("the last report: %+v", last)
	}
	for _, p := range measures[:len(measures)-1] {
		if p.Improvement <= DefaultStallTolerance && p.Generation >= 30 {
			t.Errorf("generation %d measured %v, at most the tolerance: the run should have stopped there", p.Generation, p.Improvement)
		}
	}
	res, err = Minimize(newKnapsack(3), &NSGA2{Population: 20}, &Settings{Generations: 25, Stall: Stall{Generations: 15}, Seed: 2})
	if err != nil || res.Status != GenerationLimit || res.Generations != 25 {
		t.Errorf("a window longer than the run: %v after %d generations (%v)", res.Status, res.Generations, err)
	}
	none := newKnapsack(2)
	none.capacity = -1 // every knapsack too heavy, the empty one the least
	res, err = Minimize(none, &NSGA2{Population: 10}, &Settings{Generations: 1000, Stall: Stall{Generations: 10}, Seed: 1})
	if err != nil || res.Status != Converged || res.Feasible || res.Generations > 100 {
		t.Errorf("nothing feasible: %v after %d generations (%v)", res.Status, res.Generations, err)
	}
}
