package optimizer_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// outcomeText is what a resumed search must reproduce of an outcome: the
// front's mappings and objectives, the status, the proof and every count
// (the wall time and the settings' workers aside).
func outcomeText(t *testing.T, out *optimizer.Outcome) string {
	t.Helper()
	type point struct {
		Mapping    configs.Mapping
		Objectives []float64
	}
	v := struct {
		Status                                                             string
		Front                                                              []point
		Epsilon                                                            []float64
		Evaluations, Construction, Feasible, Generations, Analyses         int
		FeasibleMappings, Variants, VariantsIncomplete, Undecided, Dropped int
		Pruned, FrontFound                                                 int
		Proof                                                              optimizer.Proof
	}{Pruned: out.Pruned, FrontFound: out.FrontFound, Proof: out.Proof, Status: out.Status.String(), Epsilon: out.Epsilon, Evaluations: out.Evaluations, Construction: out.ConstructionEvaluations,
		Feasible: out.FeasibleEvaluations, Generations: out.Generations, Analyses: out.Analyses, FeasibleMappings: out.FeasibleMappings,
		Variants: out.Variants, VariantsIncomplete: out.VariantsIncomplete, Undecided: out.Undecided, Dropped: out.Dropped}
	for _, p := range out.Front {
		v.Front = append(v.Front, point{p.Mapping, p.Objectives})
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkpointedRun returns a function that runs the search of algorithm
// with seed on e, without margins, with the given workers, checkpoints and
// progress.
func checkpointedRun(t *testing.T, e *evaluate.Evaluator, algorithm configs.Algorithm, seed int64) func(ctx context.Context, workers int, cp *optimizer.Checkpoint, progress func(moo.Progress)) *optimizer.Outcome {
	return func(ctx context.Context, workers int, cp *optimizer.Checkpoint, progress func(moo.Progress)) *optimizer.Outcome {
		t.Helper()
		out, err := optimizer.Run(ctx, e, optimizer.Options{Algorithm: algorithm, Seed: &seed, Workers: workers, NoMargins: true,
			Checkpoint: cp, Progress: progress})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// save returns a Checkpoint.Save that appends each checkpoint to states.
func save(states *[][]byte) func([]byte) error {
	return func(data []byte) error { *states = append(*states, data); return nil }
}

// TestCheckpointResume: on the 3-objective WATERS example (priority-order
// variants in the archive; in the second case an evaluation budget that
// ends the search), a genetic search resumed from the checkpoint of any generation,
// or killed at random evaluations and resumed from its newest checkpoint
// again and again, ends with the outcome of the uninterrupted search, on
// 1 to 3 workers. A checkpoint of another seed or configuration is
// refused.
func TestCheckpointResume(t *testing.T) {
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	cfg.Search.Generations, cfg.Search.Population = 16, 24
	if testsize.Reduced() {
		cfg.Search.Generations = 8
	}
	budget := *cfg
	budget.Search.MaxEvaluations = 300
	rng := rand.New(rand.NewSource(30))
	for _, c := range []struct {
		name string
		cfg  *configs.Config
	}{{"generations", cfg}, {"budget", &budget}} {
		t.Run(c.name, func(t *testing.T) {
			e := evaluator(t, c.cfg)
			run := checkpointedRun(t, e, configs.AlgorithmNSGA2, 5)
			var states [][]byte
			full := run(context.Background(), 2, &optimizer.Checkpoint{Generations: 1, Save: save(&states)}, nil)
			want := outcomeText(t, full)
			if len(states) < 3 || c.cfg == cfg && full.Variants == 0 || c.cfg == &budget && full.Status != moo.EvaluationLimit {
				t.Fatalf("%d checkpoints, %d variants, status %v: the search is too short to tell", len(states), full.Variants, full.Status)
			}
			for _, k := range []int{0, rng.Intn(len(states)), len(states) - 1} {
				workers := 1 + rng.Intn(3)
				if got := outcomeText(t, run(context.Background(), workers, &optimizer.Checkpoint{Resume: states[k]}, nil)); got != want {
					t.Fatalf("resumed from checkpoint %d on %d workers:\n%s\nwant the uninterrupted search's\n%s", k, workers, got, want)
				}
			}
			for trial := range 3 {
				var resume []byte
				for kills := 0; ; kills++ {
					ctx, cancel := context.WithCancel(context.Background())
					at := -1
					if kills < 3 {
						at = rng.Intn(full.Evaluations - full.ConstructionEvaluations + 20)
					}
					var saved [][]byte
					out := run(ctx, 1+rng.Intn(3), &optimizer.Checkpoint{Generations: 1 + rng.Intn(3), Save: save(&saved), Resume: resume}, func(p moo.Progress) {
						if p.Stage == "" && at >= 0 && p.Evaluations >= at {
							cancel()
						}
					})
					cancel()
					if len(saved) > 0 {
						resume = saved[len(saved)-1]
					}
					if !out.Interrupted() {
						if got := outcomeText(t, out); got != want {
							t.Fatalf("trial %d, after %d kills:\n%s\nwant the uninterrupted search's\n%s", trial, kills, got, want)
						}
						break
					}
				}
			}

			other := int64(6)
			_, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &other, NoMargins: true,
				Checkpoint: &optimizer.Checkpoint{Resume: states[1]}})
			if !errors.Is(err, optimizer.ErrCheckpoint) {
				t.Errorf("a checkpoint of seed 5 resumed with seed 6: error %v, want ErrCheckpoint", err)
			}
		})
	}
}
