package optimizer_test

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// bruteForceFront evaluates every genome of the problem, without symmetry
// breaking or cuts, and returns the objectives of the feasible front,
// sorted.
func bruteForceFront(t *testing.T, e *evaluate.Evaluator, s configs.Search) ([][]float64, int) {
	t.Helper()
	p, err := optimizer.NewProblem(e, s)
	if err != nil {
		t.Fatal(err)
	}
	w := p.NewWorker()
	arch := moo.NewArchive(p.NumObjectives())
	g := make([]int, p.NumGenes())
	feasible := 0
	var rec func(i int)
	rec = func(i int) {
		if i == len(g) {
			ev := moo.Evaluation{Objectives: make([]float64, p.NumObjectives())}
			w.Evaluate(g, &ev)
			if ev.Feasible() {
				feasible++
				arch.Add(moo.Point{Genome: slices.Clone(g), Evaluation: ev})
			}
			return
		}
		for v := range p.Domain(i) {
			g[i] = v
			rec(i + 1)
		}
	}
	rec(0)
	return sortedObjectives(moo.Objectives(arch.Points())), feasible
}

func sortedObjectives(o [][]float64) [][]float64 {
	o = slices.Clone(o)
	slices.SortFunc(o, func(a, b []float64) int { return slices.Compare(a, b) })
	return o
}

// The exhaustive search, which cuts partial mappings that fail
// EvaluatePartial's relaxed refined test, finds the same front as brute
// force over every genome, on random small systems under the refined and
// request counts with derived (OPA) and deadline-monotonic priorities.
// The same comparison with a deliberately unsound cut (partial mappings
// judged by the challenge count) must fail on some system, which shows
// that the test can catch an unsound cut.
func TestExhaustiveMatchesBruteForceRefined(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 10))
	systems := 40
	if testsize.Reduced() {
		systems = 12
	}
	caught, cuts, nonTrivial := 0, 0, 0
	for n := range systems {
		count := []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest}[n%2]
		policy := []configs.PriorityAssignment{configs.PrioritiesOPA, configs.PrioritiesDM}[(n/2)%2]
		yml := synth.SmallYAML(rng, count, policy)
		cfg := synth.Load(t, yml)
		e := evaluator(t, cfg)
		// Derived priorities only on both sides: under the refined counts
		// the priority-order variants are no exhaustive search of the
		// orders (which TestExhaustiveEqualsJointBruteForce covers), and the brute force derives them too.
		optimizer.SetPriorityVariants(e, false)
		want, feasible := bruteForceFront(t, e, cfg.Search)
		ex, err := optimizer.Run(context.Background(), e, optimizer.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := sortedObjectives(objectives(ex.Front))
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("system %d (%s, %s): exhaustive front %v, brute force %v\n%s", n, count, policy, got, want, yml)
		}
		cuts += ex.Pruned
		if feasible > 0 {
			nonTrivial++
		}
		// The unsound cut.
		bad := evaluator(t, synth.Load(t, yml))
		optimizer.SetPriorityVariants(bad, false)
		optimizer.SetPartialByChallenge(bad, true)
		exBad, err := optimizer.Run(context.Background(), bad, optimizer.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if g := sortedObjectives(objectives(exBad.Front)); !reflect.DeepEqual(g, want) && !(len(g) == 0 && len(want) == 0) {
			caught++
		}
	}
	t.Logf("%d systems (%d with a feasible mapping), %d partial mappings cut; the challenge's cut gives a wrong front on %d", systems, nonTrivial, cuts, caught)
	if caught == 0 {
		t.Error("the unsound cut went unnoticed on every system: the test cannot catch one")
	}
	if nonTrivial < systems/3 || cuts == 0 {
		t.Errorf("only %d systems with a feasible mapping and %d cuts: the generator exercises too little", nonTrivial, cuts)
	}
}
