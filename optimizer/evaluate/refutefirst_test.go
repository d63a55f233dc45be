package evaluate_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// TestRefuteFirstKeepsVerdicts checks the search's shortcut of Evaluate
// (SetRefuteFirst): the relaxed test first, the full analysis only for a
// mapping that passes it. On random mappings of WATERS and of synthetic
// systems under the refined and request counts, the verdict is the full
// analysis's every time, and a schedulable mapping's response times are
// the same; the shortcut must have decided some mappings, and some must
// have been schedulable, or the test shows nothing.
func TestRefuteFirstKeepsVerdicts(t *testing.T) {
	type system struct {
		name string
		cfg  *configs.Config
	}
	var systems []system
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		systems = append(systems, system{"WATERS/" + string(count), cfg})
		rng := rand.New(rand.NewPCG(21, 22))
		for k := range 8 {
			s := synth.Settings{Tasks: 6 + rng.IntN(10), GPUTasks: rng.IntN(3), A57: 2 + rng.IntN(2), Denver: rng.IntN(2),
				Utilisation: 0.5 + rng.Float64(), Chains: 2, ChainLength: 3, Contention: count}
			cfg, _, err := synth.Config(s, rng)
			if err != nil {
				t.Fatal(err)
			}
			systems = append(systems, system{fmt.Sprintf("synth%d/%s", k, count), cfg})
		}
	}
	refuted, schedulable := 0, 0
	for _, s := range systems {
		full, err := evaluate.NewEvaluator(s.cfg)
		if err != nil {
			t.Fatal(err)
		}
		quick := full.Clone()
		full.SetLimit(rta.LimitRank)
		quick.SetLimit(rta.LimitRank)
		quick.SetRefuteFirst(true)
		rf, rq := full.NewAnalysis(), quick.NewAnalysis()
		rng := rand.New(rand.NewPCG(23, 24))
		for range 300 {
			a := randomAssignment(full, rng)
			if err := full.Evaluate(a, rf); err != nil {
				t.Fatal(err)
			}
			if err := quick.Evaluate(a, rq); err != nil {
				t.Fatal(err)
			}
			if rf.Schedulable != rq.Schedulable {
				t.Fatalf("%s: mapping %v: schedulable %v by the full analysis, %v with the relaxed test first", s.name, full.Model().Mapping(a), rf.Schedulable, rq.Schedulable)
			}
			if rq.Schedulable {
				schedulable++
				for i := range rf.Tasks {
					if rf.Tasks[i].R != rq.Tasks[i].R {
						t.Fatalf("%s: mapping %v: task %d: R %d by the full analysis, %d with the relaxed test first", s.name, full.Model().Mapping(a), i, rf.Tasks[i].R, rq.Tasks[i].R)
					}
				}
			} else if rq.Rounds == 0 && rf.Rounds > 0 {
				refuted++ // the relaxed test decided it: no cross-core rounds
			}
		}
	}
	if refuted < 100 || schedulable < 100 {
		t.Fatalf("%d mappings refuted by the relaxed test, %d schedulable: the systems no longer exercise both", refuted, schedulable)
	}
	t.Logf("%d refuted by the relaxed test, %d schedulable", refuted, schedulable)
}
