package optimizer_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// BenchmarkExhaustive3Obj runs the exhaustive search of the 3-objective
// example (its exact front: 14 mappings) on one worker: the walk, its
// cuts and the evaluations, with the context checks and the progress
// estimate of an interruptible search.
func BenchmarkExhaustive3Obj(b *testing.B) {
	cfg := synth.LoadFile(b, "../configs/examples/waters-3obj.yaml")
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: "exhaustive", Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearch runs whole searches with 1 and 2 workers: the default
// genetic search on the built-in WATERS model (100 100 evaluations), and the
// exhaustive search under the time-slice GPU model
// (configs/examples/waters-timeslice.yaml) on a 3 ms slice grid, which is
// about 40 times shorter than the default 1 ms grid (14 484 evaluations).
func BenchmarkSearch(b *testing.B) {
	def, err := configs.Default()
	if err != nil {
		b.Fatal(err)
	}
	timeSlice, err := configs.LoadFile("../configs/examples/waters-timeslice.yaml")
	if err != nil {
		b.Fatal(err)
	}
	timeSlice.Analysis.TimeSliceStep = 3 * configs.Millisecond
	for _, c := range []struct {
		name      string
		cfg       *configs.Config
		algorithm configs.Algorithm
	}{
		{"NSGA2Default", def, configs.AlgorithmNSGA2},
		{"ExhaustiveTimeSlice3ms", timeSlice, configs.AlgorithmExhaustive},
	} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(b *testing.B) {
				e, err := evaluate.NewEvaluator(c.cfg)
				if err != nil {
					b.Fatal(err)
				}
				evaluations := 0
				for b.Loop() {
					out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: c.algorithm, Workers: workers})
					if err != nil || !out.Feasible {
						b.Fatalf("feasible %v, error %v", out != nil && out.Feasible, err)
					}
					evaluations = out.Evaluations
				}
				b.ReportMetric(float64(evaluations)*float64(b.N)/b.Elapsed().Seconds(), "evaluations/s")
			})
		}
	}
}

// BenchmarkSearchScale runs the genetic search of 1 000 analyses
// (search.max_evaluations, constructions and priority-order variants
// included) on one worker on the synthetic systems of 60 and 250 tasks,
// under each count: the search alone (Options.NoMargins), as
// 82431cd ran it, and the whole run with the front's margins.
func BenchmarkSearchScale(b *testing.B) {
	for _, count := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined} {
		for _, sz := range searchScaleSystems {
			n := sz.tasks + 2*sz.gpu
			for _, margins := range []bool{false, true} {
				b.Run(fmt.Sprintf("count=%s/tasks=%d/margins=%v", count, n, margins), func(b *testing.B) {
					cfg := searchScaleConfig(b, sz.tasks, sz.gpu, sz.a57, sz.denver, count)
					cfg.Search.MaxEvaluations = 1000
					e, err := evaluate.NewEvaluator(cfg)
					if err != nil {
						b.Fatal(err)
					}
					for b.Loop() {
						if _, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Workers: 1, NoMargins: !margins}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// searchScaleSystems are the synthetic systems of BenchmarkSearchScale, as
// in evaluate's scale benchmarks.
var searchScaleSystems = []struct {
	tasks, gpu, a57, denver int
}{
	{56, 2, 4, 2},
	{240, 5, 4, 2},
}

func searchScaleConfig(b *testing.B, tasks, gpu, a57, denver int, count configs.ContentionCount) *configs.Config {
	b.Helper()
	s := synth.Settings{Tasks: tasks, GPUTasks: gpu, A57: a57, Denver: denver, Chains: 8, ChainLength: 4,
		Utilisation: 0.5 * float64(a57+denver), Contention: count}
	cfg, _, err := synth.Config(s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	return cfg
}
