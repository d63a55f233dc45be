package evaluate_test

import (
	"context"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta/syssim"
)

// countEvaluator is the built-in WATERS configuration under the given
// contention count (and, if edit is not nil, edited).
func countEvaluator(t *testing.T, count configs.ContentionCount, edit func(*configs.Config)) *evaluate.Evaluator {
	t.Helper()
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Analysis.Contention = count
	if edit != nil {
		edit(cfg)
	}
	return evaluator(t, cfg)
}

// exactFront runs the exhaustive search on e's configuration and returns
// the front's mappings.
func exactFront(t *testing.T, e *evaluate.Evaluator) []*evaluate.Assignment {
	t.Helper()
	out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmExhaustive, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var as []*evaluate.Assignment
	for _, p := range out.Front {
		as = append(as, p.Assignment)
	}
	return as
}

// No simulated job responds later than its bound under the refined count
// (simulated per access, the challenge's semantics) and under the request
// count (simulated with round-robin arbitration of one outstanding request
// per client, the assumption it rests on): on every mapping of the exact
// front of the built-in model under that count, on random feasible
// mappings under it (fifo and timeslice GPU models), and on the front of
// the three-objective example (#C fixed to 1, no copy-engine contention).
// The ratios simulated/bound are logged per count (go test -v);
// -long-simulation runs more seeds and mappings.
func TestSimulationNeverExceedsTheRefinedBounds(t *testing.T) {
	seeds, walk, steps := 4, 6, 3000
	if *longSimulation {
		seeds, walk, steps = 40, 40, 20000
	}
	if testsize.Reduced() {
		seeds, walk = 2, 3
	}
	for _, c := range []struct {
		count configs.ContentionCount
		mode  syssim.Memory
	}{{configs.ContentionRefined, syssim.PerAccess}, {configs.ContentionRequest, syssim.Request}} {
		type set struct {
			name     string
			e        *evaluate.Evaluator
			mappings []*evaluate.Assignment
		}
		e := countEvaluator(t, c.count, nil)
		front := exactFront(t, e)
		sets := []set{{"exact front", e, front}}
		start := mustMapping(t, e, feasibleWATERS())
		sets = append(sets, set{"random feasible mappings (fifo)", e, feasibleWalk(t, e, start, walk, steps, 3)})
		ts := countEvaluator(t, c.count, func(cfg *configs.Config) { cfg.Analysis.GPUModel = configs.GPUModelTimeSlice })
		if s := timeSliceStart(t, ts); s != nil {
			sets = append(sets, set{"random feasible mappings (timeslice)", ts, feasibleWalk(t, ts, s, walk, steps, 4)})
		}
		// The reduced run (-short, -race) leaves out the front of the
		// three-objective example: its exhaustive search is most of the
		// test's time.
		if !testsize.Reduced() {
			cfg3 := synth.LoadFile(t, "../../configs/examples/waters-3obj.yaml")
			cfg3.Analysis.Contention = c.count
			e3 := evaluator(t, cfg3)
			sets = append(sets, set{"waters-3obj exact front", e3, exactFront(t, e3)})
		}
		var all simRatios
		for _, s := range sets {
			if len(s.mappings) == 0 {
				t.Errorf("%s, %s: no mapping", c.count, s.name)
				continue
			}
			var per simRatios
			for _, a := range s.mappings {
				per = append(per, checkSimulationNeverExceeds(t, s.e, a, seeds, c.mode)...)
			}
			all = append(all, per...)
			t.Logf("%s count, %v memory, %s (%d mappings): %s", c.count, c.mode, s.name, len(s.mappings), per.summary())
		}
		t.Logf("%s count, %v memory, all: %s", c.count, c.mode, all.summary())
	}
}
