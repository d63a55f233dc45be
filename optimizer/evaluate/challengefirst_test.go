package evaluate_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// TestChallengeFirstChangesNothing checks the challenge pass that
// Evaluate with the relaxed test first, and Refutes, try before that test:
// where it meets every deadline the test is known to pass and is not run.
// On random complete and partial mappings of WATERS and of synthetic
// systems under the refined and request counts, two evaluators that see
// the same mappings, one with the challenge pass first and one without,
// give the same analyses (every field), the same verdicts of Refutes and
// the same count of analyses (Analyses, which the constructions' budgets
// charge). Enough mappings must have taken the shortcut, and enough must
// not, or the test shows nothing.
func TestChallengeFirstChangesNothing(t *testing.T) {
	defer evaluate.SetChallengeFirst(true)
	var systems []*configs.Config
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		systems = append(systems, cfg)
		rng := rand.New(rand.NewPCG(31, 32))
		for range 6 {
			s := synth.Settings{Tasks: 6 + rng.IntN(14), GPUTasks: 1 + rng.IntN(4), A57: 2 + rng.IntN(2), Denver: rng.IntN(2),
				Utilisation: 0.4 + rng.Float64(), Chains: 2, ChainLength: 3, Contention: count}
			cfg, _, err := synth.Config(s, rng)
			if err != nil {
				t.Fatal(err)
			}
			systems = append(systems, cfg)
		}
	}
	shortcut, other := 0, 0
	for n, cfg := range systems {
		base, err := evaluate.NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		on, off := base.Clone(), base.Clone()
		for _, e := range []*evaluate.Evaluator{on, off} {
			e.SetLimit(rta.LimitRank)
			e.SetRefuteFirst(true)
		}
		ron, roff := on.NewAnalysis(), off.NewAnalysis()
		rng := rand.New(rand.NewPCG(33, uint64(n)))
		for k := range 200 {
			a := randomAssignment(base, rng)
			partial := k%2 == 1
			if partial {
				for i, s := range base.Model().Tasks() {
					if s.Kind == evaluate.PeriodicTask && rng.IntN(3) == 0 {
						a.Unit[i] = evaluate.NoUnit
					}
				}
			} else if base.ChallengeMeets(a) {
				shortcut++
			} else {
				other++
			}
			what := fmt.Sprintf("system %d, mapping %d (partial %v)", n, k, partial)
			if partial {
				evaluate.SetChallengeFirst(true)
				refOn, err := on.Refutes(a, ron)
				if err != nil {
					t.Fatal(err)
				}
				evaluate.SetChallengeFirst(false)
				refOff, err := off.Refutes(a, roff)
				if err != nil {
					t.Fatal(err)
				}
				if refOn != refOff {
					t.Fatalf("%s: refuted %v with the challenge pass first, %v without", what, refOn, refOff)
				}
			} else {
				evaluate.SetChallengeFirst(true)
				if err := on.Evaluate(a, ron); err != nil {
					t.Fatal(err)
				}
				evaluate.SetChallengeFirst(false)
				if err := off.Evaluate(a, roff); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(ron, roff) {
					t.Fatalf("%s: the analyses differ with the challenge pass first and without:\n%+v\n%+v", what, ron, roff)
				}
			}
			if on.Analyses() != off.Analyses() {
				t.Fatalf("%s: %d analyses counted with the challenge pass first, %d without", what, on.Analyses(), off.Analyses())
			}
		}
	}
	if shortcut < 100 || other < 100 {
		t.Fatalf("%d complete mappings took the shortcut, %d did not: the systems no longer exercise both", shortcut, other)
	}
	t.Logf("%d complete mappings took the shortcut, %d did not", shortcut, other)
}
