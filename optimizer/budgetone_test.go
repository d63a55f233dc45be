package optimizer_test

import (
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
)

// TestSmallBudgetHolds: search.max_evaluations bounds the whole run, the
// constructions included, down to a budget of 1, whose half for the
// constructions is none (0 would be moo.NoLimit: the built-in model's
// constructions once made 17 478 analyses under a budget of 1).
func TestSmallBudgetHolds(t *testing.T) {
	for _, budget := range []int{1, 2, 3} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Search.MaxEvaluations, cfg.Search.Population = budget, 20
		out := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Workers: 1, NoMargins: true})
		if out.Analyses > budget || out.Analyses < 1 {
			t.Errorf("search.max_evaluations %d: %d analyses (%d evaluations)", budget, out.Analyses, out.Evaluations)
		}
	}
}
