package optimizer

import (
	"context"
	"slices"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// watersExact returns the genetic search's problem of the built-in WATERS
// model (refined count, any-offset chain objectives) and the points of the
// exact front.
func watersExact(t *testing.T) (*Problem, []Point) {
	t.Helper()
	cfg := synth.Load(t, "model: builtin\n")
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Run(context.Background(), e, Options{Algorithm: configs.AlgorithmExhaustive, NoMargins: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Front) != 22 {
		t.Fatalf("the exact front has %d points, want 22", len(ex.Front))
	}
	p, err := problemOf(e, Options{Algorithm: configs.AlgorithmNSGA2})
	if err != nil {
		t.Fatal(err)
	}
	return p, ex.Front
}

// TestGeneticVariantsReachJointOrders: under the refined count the cores'
// priority orders interact, and a point of WATERS's exact front (the
// mapping with PRE_SFM_gpu_POST > CANbus_polling > Lidar_Grabber on one
// core and DASM > EKF on another) is an order of two cores that no
// per-core variant has. The genetic search's worker, given the genome of
// every mapping of the exact front with its allowance, reports (as its own
// point or a variant) every point of the exact front. With the per-core
// variants alone (before the genetic search enumerated joint orders) that
// point was missing.
func TestGeneticVariantsReachJointOrders(t *testing.T) {
	p, exact := watersExact(t)
	var got [][]float64
	for _, pt := range exact {
		g, ok := p.encode(pt.Assignment)
		if !ok {
			t.Fatalf("the mapping of %v has no genome", pt.Objectives)
		}
		w := p.NewWorker().(*worker) // a fresh worker: none remembers the mapping
		ev := moo.Evaluation{Objectives: make([]float64, p.NumObjectives()), Allowance: moo.NoAllowanceBound}
		w.Evaluate(g, &ev)
		if !ev.Feasible() {
			t.Fatalf("the mapping of %v is not feasible under its derived orders", pt.Objectives)
		}
		if ev.Cost > maxVariantAnalyses {
			t.Errorf("the variants of %v cost %d analyses, more than the allowance %d", pt.Objectives, ev.Cost, maxVariantAnalyses)
		}
		got = append(got, slices.Clone(ev.Objectives))
		for _, v := range ev.Variants {
			got = append(got, v.Objectives)
		}
	}
	for _, pt := range exact {
		if !slices.ContainsFunc(got, func(o []float64) bool { return slices.Equal(o, pt.Objectives) }) {
			t.Errorf("%v of the exact front (%s) is neither a mapping's point nor a variant", pt.Objectives, p.e.Describe(pt.Assignment))
		}
	}
}
