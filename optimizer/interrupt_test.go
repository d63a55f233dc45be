package optimizer_test

import (
	"context"
	"slices"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// TestInterruptedInEveryStage cancels a run's context from inside its
// progress callback at the first report of each stage (no clock
// involved) and checks that the run stops there, with Status Interrupted,
// instead of finishing the stage: the constructions of the initial
// population stop building (fewer analyses than an uninterrupted run's,
// none by the search), the genetic search stops before its first
// generation, and the exhaustive search before its walk when cancelled
// while it estimates its size, within its walk otherwise. Every stage
// reports itself, and the reports name the stages in order.
func TestInterruptedInEveryStage(t *testing.T) {
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	cfg.Search.Generations = 50
	run := func(alg string, at func(moo.Progress) bool) (*optimizer.Outcome, []string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var stages []string
		out, err := optimizer.Run(ctx, evaluator(t, cfg), optimizer.Options{Algorithm: alg, Workers: 2, Progress: func(p moo.Progress) {
			if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
				stages = append(stages, p.Stage)
			}
			if at != nil && at(p) {
				cancel()
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		return out, stages
	}
	full, stages := run(configs.AlgorithmNSGA2, nil)
	if want := []string{optimizer.StageConstruct, "", optimizer.StageFront}; !slices.Equal(stages, want) || full.Interrupted() {
		t.Errorf("uninterrupted genetic run: stages %q (%v), want %q", stages, full.Status, want)
	}

	out, _ := run(configs.AlgorithmNSGA2, func(p moo.Progress) bool { return p.Stage == optimizer.StageConstruct && p.Step == 1 })
	if out.Status != moo.Interrupted || out.ConstructionEvaluations >= full.ConstructionEvaluations || out.Evaluations != out.ConstructionEvaluations {
		t.Errorf("cancelled in the constructions: %v, %d analyses by them (uninterrupted %d), %d in all; want Interrupted, fewer, none by the search",
			out.Status, out.ConstructionEvaluations, full.ConstructionEvaluations, out.Evaluations)
	}

	out, _ = run(configs.AlgorithmNSGA2, func(p moo.Progress) bool { return p.Stage == "" })
	if out.Status != moo.Interrupted || out.Generations != 0 || out.Evaluations-out.ConstructionEvaluations > out.Search.Population {
		t.Errorf("cancelled at the first report of the search: %v after %d generations, %d evaluations; want Interrupted after the initial population", out.Status, out.Generations, out.Evaluations)
	}

	out, stages = run(configs.AlgorithmExhaustive, func(p moo.Progress) bool { return p.Stage == moo.StageEstimate })
	if out.Status != moo.Interrupted || out.Evaluations != 0 || len(stages) == 0 || stages[0] != moo.StageEstimate {
		t.Errorf("exhaustive, cancelled while estimating its size: %v, %d evaluations, stages %q; want Interrupted, none", out.Status, out.Evaluations, stages)
	}

	exact, _ := run(configs.AlgorithmExhaustive, nil)
	out, _ = run(configs.AlgorithmExhaustive, func(p moo.Progress) bool { return p.Stage == "" && p.Evaluations > 0 })
	if out.Status != moo.Interrupted || out.Evaluations >= exact.Evaluations || out.Proof.Exactness != optimizer.Stopped {
		t.Errorf("exhaustive, cancelled in its walk: %v, %d evaluations of %d, proof %v; want Interrupted, fewer", out.Status, out.Evaluations, exact.Evaluations, out.Proof.Exactness)
	}
}
