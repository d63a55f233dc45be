package evaluate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// feasibleWATERS is a schedulable mapping of the built-in WATERS 2019 model
// under the default analysis (the one in cmd/hetmap/testdata/waters_feasible.yaml).
func feasibleWATERS() *configs.Mapping { return synth.FeasibleWATERS() }

func watersEvaluator(tb testing.TB) *evaluate.Evaluator {
	tb.Helper()
	cfg, err := configs.Default()
	if err != nil {
		tb.Fatal(err)
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// BenchmarkEvaluate evaluates a feasible WATERS mapping in steady state (the
// GPU-side result comes from the cache after the first call).
func BenchmarkEvaluate(b *testing.B) {
	e := watersEvaluator(b)
	a, err := e.FromMapping(feasibleWATERS())
	if err != nil {
		b.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil || !r.Schedulable {
		b.Fatalf("err %v, schedulable %v", err, r.Schedulable)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := e.Evaluate(a, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateCounts is BenchmarkEvaluate under each contention
// count, with the cross-core rounds the refined analysis takes.
func BenchmarkEvaluateCounts(b *testing.B) {
	for _, count := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined, configs.ContentionRequest} {
		b.Run(string(count), func(b *testing.B) {
			cfg, err := configs.Default()
			if err != nil {
				b.Fatal(err)
			}
			cfg.Analysis.Contention = count
			e, err := evaluate.NewEvaluator(cfg)
			if err != nil {
				b.Fatal(err)
			}
			a, err := e.FromMapping(feasibleWATERS())
			if err != nil {
				b.Fatal(err)
			}
			r := e.NewAnalysis()
			if err := e.Evaluate(a, r); err != nil || !r.Schedulable {
				b.Fatalf("err %v, schedulable %v", err, r.Schedulable)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := e.Evaluate(a, r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Rounds), "rounds")
		})
	}
}

// BenchmarkEvaluateDefault evaluates the model's own (infeasible) mapping.
func BenchmarkEvaluateDefault(b *testing.B) {
	e := watersEvaluator(b)
	a, err := e.DefaultAssignment()
	if err != nil {
		b.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := e.Evaluate(a, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateRandom evaluates 1000 random WATERS mappings in turn
// (most are infeasible), as a search sees them; the GPU cache is warm after
// the first round.
func BenchmarkEvaluateRandom(b *testing.B) {
	e := watersEvaluator(b)
	rng := rand.New(rand.NewPCG(9, 10))
	as := make([]*evaluate.Assignment, 1000)
	for i := range as {
		as[i] = randomAssignment(e, rng)
	}
	r := e.NewAnalysis()
	for _, a := range as {
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

// BenchmarkChains measures the end-to-end latencies of the eight WATERS
// chains on one evaluated (feasible) mapping: the full analysis for
// reports (every metric, both paradigms, every bound with the minima, the
// worst job chain), and the objective alone, as the search computes it:
// under the default bound (any-offset) and under the synchronous one.
func BenchmarkChains(b *testing.B) {
	e := watersEvaluator(b)
	a, err := e.FromMapping(feasibleWATERS())
	if err != nil {
		b.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		b.Fatal(err)
	}
	b.Run("AnalyzeChains", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			e.AnalyzeChains(r)
		}
	})
	objectives := func(e *evaluate.Evaluator, r *evaluate.Analysis) func(b *testing.B) {
		return func(b *testing.B) {
			out := make([]int64, e.Model().NumChains())
			ok := make([]bool, e.Model().NumChains())
			e.ChainObjectives(r, out, ok)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.ChainObjectives(r, out, ok)
			}
		}
	}
	b.Run("ChainObjectives", objectives(e, r))
	cfg, err := configs.Default()
	if err != nil {
		b.Fatal(err)
	}
	cfg.Analysis.ChainLatency.Bound = configs.BoundSynchronous
	sync, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		b.Fatal(err)
	}
	rs := sync.NewAnalysis()
	if a, err = sync.FromMapping(feasibleWATERS()); err != nil {
		b.Fatal(err)
	}
	if err := sync.Evaluate(a, rs); err != nil {
		b.Fatal(err)
	}
	b.Run("ChainObjectivesSynchronous", objectives(sync, rs))
}
