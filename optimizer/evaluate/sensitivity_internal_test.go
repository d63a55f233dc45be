package evaluate

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// TestCoreInterferersArePrefixes: where a core's priorities are distinct,
// the interferers the sensitivity gives the task at position n of the
// priority order (the first n of coreInterferers) are those interferers
// builds for it, with the same scaled parts, in the same order, on random
// schedulable mappings of WATERS (challenge count) and of small synthetic
// systems under the refined and request counts.
func TestCoreInterferersArePrefixes(t *testing.T) {
	def, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfgs := append([]*configs.Config{def}, refinedSystems(t, 47, 4)...)
	compared := 0
	for c, cfg := range cfgs {
		e, err := NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(53, uint64(c)))
		a, r := e.NewAssignment(), e.NewAnalysis()
		for range 60 {
			placeAnywhere(e, a, rng)
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			if !r.Schedulable {
				continue
			}
			e.prepareMargins(a, r)
			e.marginBase(r)
			se, b, rb := e.margin.sc.e, e.margin.b, e.margin.rb
			s := scaling{ppm: scaleOne, task: -1}
			for _, u := range se.cores {
				ids, ts, _ := se.coreForSensitivity(b, rb, u)
				order := se.byPriority(ids, ts)
				all, allEh, distinct := se.coreInterferers(rb, u, ids, ts, order, s, nil)
				if !distinct {
					continue
				}
				for n := range order {
					hp, eh := se.interferers(rb, u, ids, ts, order, n, s, nil, nil, nil)
					if len(hp) != n || !slices.Equal(hp, all[:n]) || !slices.Equal(eh, allEh[:n]) {
						t.Fatalf("config %d, mapping %v, core %d, position %d: the prefix %v (parts %v) is not the interferers %v (parts %v)",
							c, e.Model().Mapping(a), u, n, all[:n], allEh[:n], hp, eh)
					}
					compared++
				}
			}
		}
	}
	if compared < 100 {
		t.Fatalf("only %d tasks compared: the test does not reach the distinct priorities", compared)
	}
	t.Logf("%d tasks compared", compared)
}
