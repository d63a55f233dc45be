package moo

import (
	"bytes"
	"encoding/gob"
	"math"
	"math/rand"
	"slices"
	"testing"
)

// TestReferenceDirections: the number of directions is the Das–Dennis
// count C(m+p−1, p) nearest the population, plus the inner layer of p−1
// divisions where p < m; every direction lies on the unit simplex, and no
// two are equal.
//
//	m = 2, n = 100: p + 1 directions, p = 99: 100.
//	m = 3, n = 100: C(p+2, 2): 91 (p = 12) or 105 (p = 13), nearer 105.
//	m = 8, n = 100: 36 (p = 2) or 120 (p = 3), nearer 120; p < 8, so the
//	                inner layer of p = 2 adds C(9, 2) = 36: 156 (Deb and
//	                Jain's layers for 8 objectives, 3 and 2).
//	m = 4, n = 10:  C(5, 2) = 10 (p = 2), and the inner layer of p = 1, 4.
func TestReferenceDirections(t *testing.T) {
	for _, tc := range []struct{ m, n, want int }{{2, 100, 100}, {3, 100, 105}, {8, 100, 156}, {4, 10, 14}} {
		dirs := referenceDirections(tc.m, tc.n)
		if len(dirs) != tc.want {
			t.Errorf("%d objectives, population %d: %d directions, want %d", tc.m, tc.n, len(dirs), tc.want)
		}
		for i, d := range dirs {
			sum := 0.0
			for _, x := range d {
				sum += x
				if x < 0 {
					t.Errorf("direction %v has a negative component", d)
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("direction %v sums to %v", d, sum)
			}
			for _, e := range dirs[:i] {
				if slices.Equal(e, d) {
					t.Errorf("direction %v twice", d)
				}
			}
		}
	}
}

// TestIntercepts: the plane through (2, 0, 0), (0, 4, 0) and (0, 0, 5)
// meets the axes at 2, 4 and 5; through (3, 1, 1), (1, 3, 1) and (1, 1, 3)
// (x + y + z = 5) at 5 each, which the ideal point (1, 1, 1) makes 3 from
// it; two equal extreme points span no plane.
func TestIntercepts(t *testing.T) {
	for _, tc := range []struct {
		extreme    [][]float64
		ideal      []float64
		want       []float64
		degenerate bool
	}{
		{[][]float64{{2, 0, 0}, {0, 4, 0}, {0, 0, 5}}, []float64{0, 0, 0}, []float64{2, 4, 5}, false},
		{[][]float64{{3, 1, 1}, {1, 3, 1}, {1, 1, 3}}, []float64{1, 1, 1}, []float64{2, 2, 2}, false},
		{[][]float64{{2, 0, 0}, {2, 0, 0}, {0, 0, 5}}, []float64{0, 0, 0}, nil, true},
	} {
		got := intercepts(tc.extreme, tc.ideal)
		if tc.degenerate != (got == nil) || !tc.degenerate && !slices.EqualFunc(got, tc.want, func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }) {
			t.Errorf("intercepts of %v from %v = %v, want %v", tc.extreme, tc.ideal, got, tc.want)
		}
	}
}

// TestReferenceCut by hand, two objectives, directions (1, 0), (½, ½) and
// (0, 1). The members kept, (0, 4) and (1, 3), both lie nearest (0, 1)
// once normalised by the ideal point (0, 0) and the extent 4 (extreme
// points (0, 4) and (4, 0)). Of the last front, (4, 0) lies on (1, 0),
// (2.2, 1.8) and (1.95, 2.05) nearest (½, ½), normalised (0.55, 0.45) and
// (0.4875, 0.5125) at 0.05·√2 and 0.0125·√2 from it. Two members to keep:
// the directions without a member, (1, 0) and (½, ½), each get their
// nearest, in either order.
func TestReferenceCut(t *testing.T) {
	evals := []Evaluation{
		{Objectives: []float64{0, 4}}, {Objectives: []float64{1, 3}},
		{Objectives: []float64{4, 0}}, {Objectives: []float64{2.2, 1.8}}, {Objectives: []float64{1.95, 2.05}},
	}
	dirs := [][]float64{{1, 0}, {0.5, 0.5}, {0, 1}}
	for seed := range int64(10) {
		got := referenceCut(evals, []int{0, 1}, []int{2, 3, 4}, 2, dirs, rand.New(rand.NewSource(seed)))
		slices.Sort(got)
		if !slices.Equal(got, []int{0, 2}) {
			t.Errorf("seed %d: kept positions %v of the last front, want [0 2] ((4, 0) and (1.95, 2.05))", seed, got)
		}
	}
}

// TestNSGA3Knapsack: NSGA-II with reference-direction survival reaches the
// exact front of the tri-objective knapsack as closely as the crowding
// distance does (hypervolume ratio at least 0.98 per seed), and gives the
// same result with 1, 2 and 4 workers.
func TestNSGA3Knapsack(t *testing.T) {
	exact, _, _ := bruteForce(newKnapsack(3))
	ref := []float64{1, 1, 1}
	for seed := range int64(10) {
		res, err := Minimize(newKnapsack(3), &NSGA2{Selection: ReferenceSelection}, &Settings{MaxEvaluations: 2500, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if ratio := HypervolumeRatio(Objectives(res.Front), Objectives(exact), ref); ratio < 0.98 {
			t.Errorf("seed %d: hypervolume ratio %v < 0.98", seed, ratio)
		}
		checkFront(t, newKnapsack(3), res.Front)
	}
	gob.Register(knapsackPayload{})
	var first []byte
	for _, w := range []int{1, 2, 4} {
		k := newKnapsack(3)
		k.jitter = true
		res, err := Minimize(k, &NSGA2{Population: 40, Selection: ReferenceSelection}, &Settings{Generations: 25, Workers: w, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(res); err != nil {
			t.Fatal(err)
		}
		if w == 1 {
			first = buf.Bytes()
		} else if !bytes.Equal(first, buf.Bytes()) {
			t.Errorf("1 and %d workers give different results", w)
		}
	}
	if _, err := Minimize(newKnapsack(3), &NSGA2{Selection: 7}, nil); err == nil {
		t.Error("an unknown selection accepted")
	}
}
