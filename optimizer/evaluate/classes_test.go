package evaluate_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// TestClassesChangeNothing evaluates random mappings of synthetic systems
// whose cores hold from a few to about 40 tasks (with self-suspending
// asynchronous offloading tasks), under every CPU priority policy and every
// limit, with the analysis iterating over interferer classes and over every
// interferer (rta.Analyzer.ByTask, the obvious path): the whole Analysis must
// be identical.
func TestClassesChangeNothing(t *testing.T) {
	systems := []struct{ tasks, gpu, a57, denver int }{{56, 2, 4, 2}, {240, 5, 4, 2}, {100, 3, 1, 1}}
	mappings := 40
	if testsize.Reduced() {
		mappings = 10
	}
	for _, sz := range systems {
		for _, policy := range []configs.PriorityAssignment{configs.PrioritiesOPA, configs.PrioritiesDM, configs.PrioritiesRM} {
			s := synth.Settings{Tasks: sz.tasks, GPUTasks: sz.gpu, A57: sz.a57, Denver: sz.denver, Chains: 4, ChainLength: 3,
				Utilisation: 0.55 * float64(sz.a57+sz.denver), Contention: configs.ContentionChallenge}
			cfg, _, err := synth.Config(s, rand.New(rand.NewPCG(uint64(sz.tasks), 13)))
			if err != nil {
				t.Fatal(err)
			}
			cfg.Analysis.Priorities = policy
			classes, byTask := evaluator(t, cfg), evaluator(t, cfg)
			evaluate.SetByTask(byTask, true)
			rng := rand.New(rand.NewPCG(5, uint64(sz.tasks)))
			r1, r2 := classes.NewAnalysis(), byTask.NewAnalysis()
			for _, limit := range []rta.Limit{rta.LimitDeadline, rta.LimitPeriod, rta.LimitNone, rta.LimitRank} {
				classes.SetLimit(limit)
				byTask.SetLimit(limit)
				for n := range mappings {
					a := randomAssignment(classes, rng)
					if err := classes.Evaluate(a, r1); err != nil {
						t.Fatal(err)
					}
					if err := byTask.Evaluate(a, r2); err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(r1, r2) {
						t.Fatalf("%d tasks, %s, limit %d, mapping %d: the classes change the result", sz.tasks, policy, limit, n)
					}
				}
			}
		}
	}
}
