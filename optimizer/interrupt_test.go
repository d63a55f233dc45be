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
// while it estimates its size, within its walk otherwise. After the
// search, the margins stop (the front complete, the run marked interrupted
// there), and the front's analysis stops once its grace has passed (the
// points not analysed dropped, the proof no longer the search's); with
// its grace (a second), a front of a few points is analysed whole. Every
// stage reports itself, and the reports name the stages in order.
func TestInterruptedInEveryStage(t *testing.T) {
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	cfg.Search.Generations = 50
	run := func(alg configs.Algorithm, at func(moo.Progress) bool) (*optimizer.Outcome, []string) {
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
	if want := []string{optimizer.StageConstruct, "", optimizer.StageFront, optimizer.StageMargins}; !slices.Equal(stages, want) || full.Interrupted() {
		t.Errorf("uninterrupted genetic run: stages %q (%v), want %q", stages, full.Status, want)
	}

	// After the search: its front is complete; the margins stop at once,
	// the front's analysis after its grace (none here), dropping the
	// points it did not analyse, and the run says which stage it was in.
	out, _ := run(configs.AlgorithmNSGA2, func(p moo.Progress) bool { return p.Stage == optimizer.StageMargins })
	if out.InterruptedIn != optimizer.StageMargins || !out.Interrupted() || out.Status == moo.Interrupted || len(out.Front) != len(full.Front) ||
		out.Margins >= len(out.Front) || out.Proof.Exactness != full.Proof.Exactness {
		t.Errorf("cancelled in the margins: stage %q, %v, %d points of %d, %d margins, proof %v", out.InterruptedIn, out.Status, len(out.Front), len(full.Front), out.Margins, out.Proof.Exactness)
	}
	restore := optimizer.SetFrontGrace(0)
	out, _ = run(configs.AlgorithmNSGA2, func(p moo.Progress) bool { return p.Stage == optimizer.StageFront })
	restore()
	if out.InterruptedIn != optimizer.StageFront || out.Dropped == 0 || len(out.Front)+out.Dropped != len(full.Front) || out.Margins != 0 || out.Proof.Exactness != optimizer.Stopped {
		t.Errorf("cancelled in the front's analysis without grace: stage %q, %d points and %d dropped of %d, %d margins, proof %v", out.InterruptedIn, len(out.Front), out.Dropped, len(full.Front), out.Margins, out.Proof.Exactness)
	}
	for _, p := range out.Front {
		if p.Analysis == nil {
			t.Error("a point reported without its analysis")
		}
	}
	out, _ = run(configs.AlgorithmNSGA2, func(p moo.Progress) bool { return p.Stage == optimizer.StageFront })
	if out.InterruptedIn != optimizer.StageFront || out.Dropped != 0 || len(out.Front) != len(full.Front) || out.Margins != 0 {
		t.Errorf("cancelled in the front's analysis, with its grace: stage %q, %d points and %d dropped of %d", out.InterruptedIn, len(out.Front), out.Dropped, len(full.Front))
	}

	out, _ = run(configs.AlgorithmNSGA2, func(p moo.Progress) bool { return p.Stage == optimizer.StageConstruct && p.Step == 1 })
	if out.Status != moo.Interrupted || out.InterruptedIn != optimizer.StageConstruct || out.ConstructionEvaluations >= full.ConstructionEvaluations || out.Evaluations != out.ConstructionEvaluations {
		t.Errorf("cancelled in the constructions: %v, %d analyses by them (uninterrupted %d), %d in all; want Interrupted, fewer, none by the search",
			out.Status, out.ConstructionEvaluations, full.ConstructionEvaluations, out.Evaluations)
	}

	out, _ = run(configs.AlgorithmNSGA2, func(p moo.Progress) bool { return p.Stage == "" })
	if out.Status != moo.Interrupted || out.InterruptedIn != optimizer.StageSearch || out.Generations != 0 || out.Evaluations-out.ConstructionEvaluations > out.Search.Population {
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
