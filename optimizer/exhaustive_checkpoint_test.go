package optimizer_test

import (
	"context"
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// TestExhaustiveCheckpointResume: the exhaustive search of the 3-objective
// WATERS example (27 612 evaluations), killed at random evaluations and
// resumed from its newest checkpoint again and again, on 1 and 2 workers,
// ends with the outcome of the uninterrupted search: the front's mappings
// and objectives, the proof, the cuts and every count; so does one resumed
// from a checkpoint in the middle. A checkpoint of the genetic search is
// refused.
func TestExhaustiveCheckpointResume(t *testing.T) {
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	e := evaluator(t, cfg)
	seed := int64(1)
	run := checkpointedRun(t, e, configs.AlgorithmExhaustive, seed)
	var states [][]byte
	full := run(context.Background(), 2, &optimizer.Checkpoint{Generations: 1, Save: save(&states)}, nil)
	want := outcomeText(t, full)
	if !full.Exact() || full.Evaluations != 27612 || len(states) < 10 {
		t.Fatalf("exact %v, %d evaluations, %d checkpoints: not the search the test is for", full.Exact(), full.Evaluations, len(states))
	}
	if got := outcomeText(t, run(context.Background(), 1, nil, nil)); got != want {
		t.Fatalf("without checkpoints:\n%s\nwant the same as with\n%s", got, want)
	}
	t.Logf("%d checkpoints, the last of %d bytes", len(states), len(states[len(states)-1]))
	mid := len(states) / 2
	if got := outcomeText(t, run(context.Background(), 1, &optimizer.Checkpoint{Resume: states[mid]}, nil)); got != want {
		t.Fatalf("resumed from checkpoint %d of %d:\n%s\nwant the uninterrupted search's\n%s", mid, len(states), got, want)
	}

	rng := rand.New(rand.NewSource(30))
	// The reduced run (-short, -race) kills the search on 2 workers alone,
	// where the workers share the subtrees out and a checkpoint waits for
	// them; one worker resumed is the case of the middle checkpoint above.
	workerCounts := []int{1, 2}
	if testsize.Reduced() {
		workerCounts = workerCounts[1:]
	}
	for _, workers := range workerCounts {
		var resume []byte
		resumed := 0 // resumes from a checkpoint with subtrees completed
		for kills := 0; ; kills++ {
			ctx, cancel := context.WithCancel(context.Background())
			at := -1
			if kills < 4 {
				at = rng.Intn(full.Evaluations)
			}
			var saved [][]byte
			out := run(ctx, workers, &optimizer.Checkpoint{Generations: 1 + rng.Intn(8), Save: save(&saved), Resume: resume}, func(p moo.Progress) {
				if p.Stage == "" && at >= 0 && p.Evaluations >= at {
					cancel()
				}
			})
			cancel()
			if resume != nil {
				resumed++
			}
			if len(saved) > 0 {
				resume = saved[len(saved)-1]
			}
			if !out.Interrupted() {
				if got := outcomeText(t, out); got != want {
					t.Fatalf("%d workers, after %d kills:\n%s\nwant the uninterrupted search's\n%s", workers, kills, got, want)
				}
				if resumed == 0 {
					t.Fatalf("%d workers: no run resumed from a checkpoint, the test shows nothing", workers)
				}
				break
			}
		}
	}

	var genetic [][]byte
	short := *cfg
	short.Search.Generations, short.Search.Population = 2, 8
	if _, err := optimizer.Run(context.Background(), evaluator(t, &short), optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, NoMargins: true,
		Checkpoint: &optimizer.Checkpoint{Generations: 1, Save: save(&genetic)}}); err != nil || len(genetic) == 0 {
		t.Fatalf("the genetic search saved %d checkpoints, error %v", len(genetic), err)
	}
	_, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmExhaustive, Seed: &seed, NoMargins: true,
		Checkpoint: &optimizer.Checkpoint{Resume: genetic[0]}})
	if !errors.Is(err, optimizer.ErrCheckpoint) || !strings.Contains(err.Error(), "nsga2") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a genetic search's checkpoint resumed by the exhaustive search: error %v, want one line of ErrCheckpoint naming the algorithm", err)
	}
}
