package evaluate_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// UnitResult.Demand is the share of a core the count in force charges in
// the long run. Under the challenge count it is Σ C/T (Utilisation); under
// refined and request it lies between Σ C⁰/T (no contention) and Σ C/T,
// and a core whose tasks all meet their deadlines never needs more than
// the whole core, also where Σ C/T, with the challenge's per-job
// contention, passes 100 %. By hand for Core3 of the feasible WATERS
// mapping (DASM, CANbus_polling, EKF; C from TestAnalyzeJSON): Σ C/T =
// 1.874075/5 + 0.6032/10 + 4.79135/15 = 0.374815 + 0.06032 + 0.3194233 =
// 0.7545583; it reads the same under the challenge count.
func TestDemandOfTheCount(t *testing.T) {
	es := countEvaluators(t, defaultConfig)
	start := mustMapping(t, es[0], feasibleWATERS())
	mappings := append([]*evaluate.Assignment{start}, feasibleWalk(t, es[2], start, 40, 2000, 11)...)
	rng := rand.New(rand.NewPCG(20, 6))
	n := 120
	if testsize.Reduced() {
		n = 30
	}
	for range n {
		mappings = append(mappings, randomAssignment(es[0], rng))
	}
	over := 0 // schedulable cores with Σ C/T > 100 %
	for mi, a := range mappings {
		for k, e := range es {
			r := e.NewAnalysis()
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			if err := e.AnalyzeContention(r); err != nil {
				t.Fatal(err)
			}
			for u := range r.Units {
				ur := &r.Units[u]
				if ur.GPU || ur.Tasks == 0 {
					if ur.Demand != 0 {
						t.Errorf("%s: %s: demand %v without CPU tasks", r.ContentionCount, ur.Name, ur.Demand)
					}
					continue
				}
				var u0 float64
				meets := true
				for i := range r.Tasks {
					tr := &r.Tasks[i]
					if tr.Unit != u || !tr.Role.OnCPU() {
						continue
					}
					u0 += float64(tr.Compute+tr.Memory+tr.GPUWait) / float64(tr.T)
					meets = meets && tr.Verdict == evaluate.Meets
				}
				const eps = 1e-9
				if k == 0 && math.Abs(ur.Demand-ur.Utilisation) > eps {
					t.Errorf("challenge, mapping %d, %s: demand %.9f, Σ C/T %.9f", mi, ur.Name, ur.Demand, ur.Utilisation)
				}
				if ur.Demand > ur.Utilisation+eps || ur.Demand < u0-eps {
					t.Errorf("%s, mapping %d, %s: demand %.6f outside [Σ C⁰/T %.6f, Σ C/T %.6f]", r.ContentionCount, mi, ur.Name, ur.Demand, u0, ur.Utilisation)
				}
				if meets && ur.Demand > 1+eps {
					t.Errorf("%s, mapping %d, %s: every task meets its deadline, but the demand is %.6f", r.ContentionCount, mi, ur.Name, ur.Demand)
				}
				if meets && ur.Utilisation > 1 {
					over++
				}
				if mi == 0 && ur.Name == "Core3" && k == 0 && math.Abs(ur.Demand-0.7545583) > 1e-6 {
					t.Errorf("Core3: demand %.7f, want 0.7545583 by hand", ur.Demand)
				}
			}
		}
	}
	t.Logf("%d mappings; %d schedulable cores with Σ C/T > 100 %% (all with a demand ≤ 100 %%)", len(mappings), over)
}
