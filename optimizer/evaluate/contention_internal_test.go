package evaluate

import (
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// The window's accesses and pauses as rta counts them at the fixed point
// equal the plain recomputation of ContentionDetail (windowAccesses), which
// the detail uses under the challenge count, for every bounded task of
// random WATERS mappings under the refined and request counts, with
// derived and with deadline-monotonic priorities.
func TestWindowAccessesMatchRTA(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 20))
	checked := 0
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest} {
		for _, policy := range []configs.PriorityAssignment{configs.PrioritiesOPA, configs.PrioritiesDM} {
			cfg, err := configs.Default()
			if err != nil {
				t.Fatal(err)
			}
			cfg.Analysis.Contention, cfg.Analysis.Priorities = count, policy
			e, err := NewEvaluator(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := e.NewAnalysis()
			for range 200 {
				a := e.NewAssignment()
				placeAnywhere(e, a, rng)
				if err := e.Evaluate(a, r); err != nil {
					t.Fatal(err)
				}
				for u := range e.units {
					for _, i := range e.onCore[u] {
						tr := &r.Tasks[i]
						if !tr.Verdict.Bounded() {
							continue
						}
						n, p := e.windowAccesses(r, u, i)
						if n != tr.WindowAccesses || p != tr.WindowPauses {
							t.Fatalf("%s, %s: %s: recomputed %d accesses and %d pauses, rta %d and %d", count, policy, tr.Name, n, p, tr.WindowAccesses, tr.WindowPauses)
						}
						checked++
					}
				}
			}
		}
	}
	t.Logf("%d windows compared", checked)
}
