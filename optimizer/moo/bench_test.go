package moo

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// BenchmarkHypervolume3D measures the hypervolume of 100 mutually
// non-dominated points on the unit sphere in three objectives.
func BenchmarkHypervolume3D(b *testing.B) {
	benchmarkHypervolume(b, 3, 100)
}

// BenchmarkHypervolume4D is the same in four objectives.
func BenchmarkHypervolume4D(b *testing.B) {
	benchmarkHypervolume(b, 4, 100)
}

func benchmarkHypervolume(b *testing.B, d, n int) {
	rng := rand.New(rand.NewSource(1))
	front := make([][]float64, n)
	for i := range front {
		front[i] = make([]float64, d)
		sum := 0.0
		for j := range front[i] {
			front[i][j] = rng.Float64()
			sum += front[i][j] * front[i][j]
		}
		for j := range front[i] {
			front[i][j] /= math.Sqrt(sum)
		}
	}
	ref := make([]float64, d)
	for j := range ref {
		ref[j] = 1.1
	}
	b.ReportAllocs()
	for b.Loop() {
		Hypervolume(front, ref)
	}
}

// BenchmarkNSGA2Generation measures one NSGA-II generation (breeding,
// evaluating on one worker and survival) of a population of 100 on the
// three-objective knapsack, whose evaluation is cheap: the machinery's own
// cost. Revisiting is allowed so that the space does not run dry.
func BenchmarkNSGA2Generation(b *testing.B) {
	_, m, pop := newTestModel(b, newKnapsack(3), 100)
	m.revisit = true
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Apply(pop); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNonDominatedSort sorts 200 evaluations (a population and its
// offspring), a tenth of them infeasible, in 2, 3 and 8 objectives drawn
// from 20 levels each, so that fronts have ties.
func BenchmarkNonDominatedSort(b *testing.B) {
	for _, m := range []int{2, 3, 8} {
		b.Run(fmt.Sprint(m, "objectives"), func(b *testing.B) {
			rng := rand.New(rand.NewSource(2))
			evals := make([]Evaluation, 200)
			for i := range evals {
				evals[i].Objectives = make([]float64, m)
				for k := range evals[i].Objectives {
					evals[i].Objectives[k] = float64(rng.Intn(20))
				}
				if rng.Intn(10) == 0 {
					evals[i].Violation = float64(1 + rng.Intn(5))
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				NonDominatedSort(evals)
			}
		})
	}
}
