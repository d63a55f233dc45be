package evaluate_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
)

// TestMemoChangesNothing evaluates random mappings (and mutations of
// earlier ones, so that cores repeat and the memo hits) with the per-core
// memo and without it, under every contention count: the results must be
// identical.
func TestMemoChangesNothing(t *testing.T) {
	mutations := 3000
	if testsize.Reduced() {
		mutations = 1000
	}
	for _, name := range []string{"default", "timeslice", string(configs.ContentionChallenge), string(configs.ContentionRefined), string(configs.ContentionRequest)} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		switch name {
		case "timeslice":
			cfg.Analysis.GPUModel = configs.GPUModelTimeSlice
		case string(configs.ContentionChallenge), string(configs.ContentionRefined), string(configs.ContentionRequest):
			cfg.Analysis.Contention = configs.ContentionCount(name)
		}
		with, without := evaluator(t, cfg), evaluator(t, cfg)
		without.SetMemo(false)
		p, err := optimizer.NewProblem(with, cfg.Search)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		g := make([]int, p.NumGenes())
		for k := range g {
			g[k] = rng.IntN(len(p.Domain(k)))
		}
		a := with.NewAssignment()
		r1, r2 := with.NewAnalysis(), without.NewAnalysis()
		for n := 0; n < mutations; n++ {
			// Mostly one or two genes changed: a search's offspring.
			for c := rng.IntN(3); c >= 0; c-- {
				k := rng.IntN(len(g))
				g[k] = rng.IntN(len(p.Domain(k)))
			}
			p.Decode(g, a)
			if err := with.Evaluate(a, r1); err != nil {
				t.Fatal(err)
			}
			if err := without.Evaluate(a, r2); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r1.Tasks, r2.Tasks) || !reflect.DeepEqual(r1.Units, r2.Units) || r1.Violation != r2.Violation || r1.Schedulable != r2.Schedulable {
				t.Fatalf("%s, mapping %d (%v): the memo changes the result", name, n, a.Unit)
			}
		}
	}
}

// BenchmarkEvaluateNoMemo is BenchmarkEvaluate with the per-core memo off:
// every core is analysed on every call.
func BenchmarkEvaluateNoMemo(b *testing.B) {
	e := watersEvaluator(b)
	e.SetMemo(false)
	a, err := e.FromMapping(feasibleWATERS())
	if err != nil {
		b.Fatal(err)
	}
	r := e.NewAnalysis()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := e.Evaluate(a, r); err != nil {
			b.Fatal(err)
		}
	}
}
