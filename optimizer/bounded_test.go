package optimizer_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// epsCovered reports whether some point of front is less than eps worse
// than f on every objective (weakly better where eps is nil).
func epsCovered(front [][]float64, f, eps []float64) bool {
	return slices.ContainsFunc(front, func(a []float64) bool {
		for k := range a {
			if eps == nil && a[k] > f[k] || eps != nil && !(a[k] < f[k]+eps[k]) {
				return false
			}
		}
		return true
	})
}

// TestGeneticFrontBounded: on the synthetic system of 60 tasks (8 chain
// objectives, where nearly every mapping met is non-dominated), the genetic
// search with search.max_front reports at most that many points, with the
// ε it guarantees, and its front covers within that ε every point of the
// front of the same search kept whole (search.max_front: 0), which met the
// same mappings: the archive does not steer the search. Every reported
// point is analysed in full, with its margin, and the priority-order
// variants reach the bounded front.
func TestGeneticFrontBounded(t *testing.T) {
	if testsize.Reduced() {
		t.Skip("two searches on 60 tasks")
	}
	s := synth.Settings{Tasks: 56, GPUTasks: 2, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 3}
	cfg, _, err := synth.Config(s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Search.MaxEvaluations = 20000
	run := func(limit int) *optimizer.Outcome {
		c := *cfg
		c.Search.MaxFront = &limit
		out, err := optimizer.Run(context.Background(), evaluator(t, &c), optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	whole, bounded := run(0), run(25)
	if whole.Epsilon != nil || len(whole.Front) <= 25 {
		t.Fatalf("the whole front: %d points, ε %v; want more than 25 and no ε", len(whole.Front), whole.Epsilon)
	}
	if len(bounded.Front) > 25 || len(bounded.Front) == 0 || len(bounded.Epsilon) != 8 || *bounded.Search.MaxFront != 25 {
		t.Fatalf("bounded front: %d points, ε %v, max_front %v", len(bounded.Front), bounded.Epsilon, bounded.Search.MaxFront)
	}
	if whole.Evaluations != bounded.Evaluations || whole.FeasibleMappings != bounded.FeasibleMappings {
		t.Errorf("the bound changed the search: %d/%d evaluations, %d/%d mappings", whole.Evaluations, bounded.Evaluations, whole.FeasibleMappings, bounded.FeasibleMappings)
	}
	got := objectives(bounded.Front)
	for _, f := range objectives(whole.Front) {
		if !epsCovered(got, f, bounded.Epsilon) {
			t.Fatalf("%v of the whole front is not within ε %v of the bounded front", f, bounded.Epsilon)
		}
	}
	variants := 0
	for _, p := range bounded.Front {
		if p.Analysis == nil || p.Analysis.Margins == nil || !p.Analysis.Schedulable {
			t.Fatalf("a reported point lacks its analysis or margin: %+v", p.Objectives)
		}
		for _, u := range p.Mapping.Units {
			if u.Priority != nil {
				variants++
				break
			}
		}
	}
	t.Logf("whole front %d points, bounded %d, ε %v, %d with explicit priorities", len(whole.Front), len(bounded.Front), bounded.Epsilon, variants)
}

// TestExactFrontThinnedWhenAsked: the exact front of the 3-objective
// example (28 points) is reported whole by default, even with the genetic
// search's default bound far below it; with search.max_front: 5 it is
// thinned to at most 5 of its points, every one of the 28 within the ε it
// states, and the proof says that the front shown is thinned.
func TestExactFrontThinnedWhenAsked(t *testing.T) {
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	whole := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmExhaustive, NoMargins: true})
	if len(whole.Front) != 28 || whole.Epsilon != nil || whole.Proof.ThinnedFrom != 0 {
		t.Fatalf("exact front: %d points, ε %v, thinned from %d", len(whole.Front), whole.Epsilon, whole.Proof.ThinnedFrom)
	}
	five := 5
	cfg.Search.MaxFront = &five
	thin := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmExhaustive, NoMargins: true})
	if len(thin.Front) > 5 || len(thin.Front) == 0 || thin.Epsilon == nil || thin.FrontFound != 28 || thin.Proof.ThinnedFrom != 28 || !thin.Exact() {
		t.Fatalf("thinned: %d points, ε %v, found %d, proof %+v", len(thin.Front), thin.Epsilon, thin.FrontFound, thin.Proof)
	}
	exact := objectives(whole.Front)
	got := objectives(thin.Front)
	for _, g := range got {
		if !slices.ContainsFunc(exact, func(x []float64) bool { return slices.Equal(x, g) }) {
			t.Errorf("%v is not a point of the exact front", g)
		}
	}
	for _, f := range exact {
		if !epsCovered(got, f, thin.Epsilon) {
			t.Errorf("%v of the exact front is not within ε %v of the thinned front %v", f, thin.Epsilon, got)
		}
	}
	if st := thin.Proof.Statement(true); !strings.Contains(st, "exact front's 28 points are thinned") {
		t.Errorf("statement %q does not say the front is thinned", st)
	}
}

// TestDefaultGeneticSearchReachesWatersFront: the genetic search with its
// default settings (the bounded front, the stall window, the default
// selection) reaches, for the seeds 1 to 10, the exact front of the
// built-in WATERS model (22 points under the default any-offset chain
// objectives): only its points, every one of them.
func TestDefaultGeneticSearchReachesWatersFront(t *testing.T) {
	if testsize.Reduced() {
		t.Skip("ten genetic searches on WATERS")
	}
	cfg := synth.Load(t, "model: builtin\n")
	e := evaluator(t, cfg)
	ex, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmExhaustive, NoMargins: true})
	if err != nil {
		t.Fatal(err)
	}
	exact := objectives(ex.Front)
	ref := optimizer.ReferencePoint(exact)
	for seed := int64(1); seed <= 10; seed++ {
		out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, NoMargins: true})
		if err != nil {
			t.Fatal(err)
		}
		got := objectives(out.Front)
		reached := 0
		for _, p := range got {
			if slices.ContainsFunc(exact, func(q []float64) bool { return slices.Equal(p, q) }) {
				reached++
			} else {
				t.Errorf("seed %d: %v is not a point of the exact front", seed, p)
			}
		}
		if reached != len(exact) {
			t.Errorf("seed %d: %d of the %d points of the exact front, hypervolume ratio %.4f", seed, reached, len(exact), moo.HypervolumeRatio(got, exact, ref))
		}
		t.Logf("seed %d: %d of the %d points of the exact front; %v after %d generations, %d evaluations", seed, reached, len(exact), out.Status, out.Generations, out.Evaluations)
	}
}
