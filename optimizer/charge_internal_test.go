package optimizer

import (
	"math/rand"
	randv2 "math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// TestCostIndependentOfMemory: a genome's cost (moo.Evaluation.Cost) is
// the same from a worker that met its mapping before, with a larger
// allowance, as from one that meets it for the first time, and it is
// within the allowance: what makes a budgeted search stop at the same
// point with any number of workers. Charging nothing for a mapping met
// before (a worker that remembers it makes no analysis) fails it.
func TestCostIndependentOfMemory(t *testing.T) {
	e, err := evaluate.NewEvaluator(synthetic60(t, configs.ContentionRefined))
	if err != nil {
		t.Fatal(err)
	}
	p, err := problemOf(e, Options{Algorithm: configs.AlgorithmNSGA2})
	if err != nil {
		t.Fatal(err)
	}
	genomes := p.Construct(rand.New(rand.NewSource(1)), 12)
	evaluation := func(w *worker, g []int, allowance int) moo.Evaluation {
		ev := moo.Evaluation{Objectives: make([]float64, p.NumObjectives()), EvaluationsLeft: allowance}
		w.Evaluate(g, &ev)
		return ev
	}
	charged := 0
	for _, g := range genomes {
		memory := p.NewWorker().(*worker)
		if first := evaluation(memory, g, 40); first.Violation > 0 || first.Cost > 40 {
			continue // infeasible: no variants
		}
		for _, allowance := range []int{40, 12, 3, 0} {
			again := evaluation(memory, g, allowance)
			fresh := evaluation(p.NewWorker().(*worker), g, allowance)
			if again.Cost != fresh.Cost || fresh.Cost > allowance {
				t.Fatalf("genome %v, allowance %d: cost %d from a worker that met it before, %d from a fresh one", g, allowance, again.Cost, fresh.Cost)
			}
			charged += fresh.Cost
		}
	}
	if charged == 0 {
		t.Fatal("no feasible genome had variants to charge: the test shows nothing")
	}
}

// synthetic60 is the synthetic system of 60 tasks (56 and 2 GPU tasks, 4
// A57 and 2 Denver cores, 8 chains) under the contention count given.
func synthetic60(t *testing.T, count configs.ContentionCount) *configs.Config {
	t.Helper()
	s := synth.Settings{Tasks: 56, GPUTasks: 2, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 3, Contention: count}
	cfg, _, err := synth.Config(s, randv2.New(randv2.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
