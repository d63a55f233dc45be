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

// scaleSystems are the synthetic systems of the scale benchmarks: the size
// of WATERS (14 tasks on 6 cores), then 60, 120 and 250 tasks on the same
// six cores and 500 on twelve, each with a GPU, asynchronous and
// synchronous offloading and eight chains of four tasks; utilisation 50 %
// per core. The benchmarks run each under the challenge's contention count
// and the refined one (the default).

// scaleLimit is the limit a search's evaluators use.
var scaleLimit = rta.LimitRank

var scaleSystems = []struct {
	tasks, gpu, a57, denver int
}{
	{10, 2, 4, 2},
	{56, 2, 4, 2},
	{112, 4, 4, 2},
	{240, 5, 4, 2},
	{490, 5, 8, 4},
}

// scaleCounts are the contention counts the scale benchmarks run under.
var scaleCounts = []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined}

func scaleConfig(b *testing.B, tasks, gpu, a57, denver int, count configs.ContentionCount) *configs.Config {
	b.Helper()
	s := synth.Settings{Tasks: tasks, GPUTasks: gpu, A57: a57, Denver: denver, Chains: 8, ChainLength: 4,
		Utilisation: 0.5 * float64(a57+denver), Contention: count}
	cfg, _, err := synth.Config(s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	return cfg
}

func scaleEvaluator(b *testing.B, tasks, gpu, a57, denver int, count configs.ContentionCount) *evaluate.Evaluator {
	b.Helper()
	e, err := evaluate.NewEvaluator(scaleConfig(b, tasks, gpu, a57, denver, count))
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkEvaluateScale evaluates random mappings of synthetic systems of
// growing size, as a search meets them (most infeasible; with the search's
// limit, rta.LimitRank, and the relaxed test first), so that the growth of
// the cost in tasks and cores is tracked. The name gives the count, the
// number of tasks (periodic + offloading + GPU) and cores; go run
// ./internal/growth fits the growth exponent from the output.
func BenchmarkEvaluateScale(b *testing.B) {
	for _, count := range scaleCounts {
		for _, sz := range scaleSystems {
			n := sz.tasks + 2*sz.gpu
			b.Run(fmt.Sprintf("count=%s/tasks=%d/cores=%d", count, n, sz.a57+sz.denver), func(b *testing.B) {
				benchmarkEvaluateScale(b, scaleEvaluator(b, sz.tasks, sz.gpu, sz.a57, sz.denver, count))
			})
		}
	}
}

func benchmarkEvaluateScale(b *testing.B, e *evaluate.Evaluator) {
	e.SetLimit(scaleLimit)
	e.SetRefuteFirst(true)
	rng := rand.New(rand.NewPCG(3, 4))
	as := make([]*evaluate.Assignment, 256)
	for i := range as {
		as[i] = randomAssignment(e, rng)
	}
	r := e.NewAnalysis()
	for _, a := range as { // warm the caches and buffers
		if err := e.Evaluate(a, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if err := e.Evaluate(as[i%len(as)], r); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
