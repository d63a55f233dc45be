package optimizer

import (
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// TestCanonicalFormSameObjectives: a mapping's canonical form
// (canonicalise: interchangeable cores renamed in order of first use) has
// the mapping's objectives, schedulability, violation and busiest core,
// which the genetic search relies on when it analyses the canonical form
// in place of the genome's mapping (worker.Evaluate), on random genomes of
// the 60-task synthetic system under each count and of WATERS.
func TestCanonicalFormSameObjectives(t *testing.T) {
	systems := map[string]*configs.Config{"waters": synth.Load(t, "model: builtin\n")}
	for _, count := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined, configs.ContentionRequest} {
		systems["60 tasks, "+string(count)] = synthetic60(t, count)
	}
	n := 100
	if testsize.Reduced() {
		n = 20
	}
	for name, cfg := range systems {
		e, err := evaluate.NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p, err := problemOf(e, Options{Algorithm: configs.AlgorithmNSGA2})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewSource(27))
		a, ca := e.NewAssignment(), e.NewAssignment()
		r, rc := e.NewAnalysis(), e.NewAnalysis()
		rename, next := make([]int, len(p.units)), make([]int, len(p.units))
		renamed, schedulable := 0, 0
		check := func(what string) {
			p.canonicalise(a, ca, rename, next)
			if !slices.Equal(a.Unit, ca.Unit) {
				renamed++
			}
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			obj, _ := p.Objectives(a, r)
			if err := e.Evaluate(ca, rc); err != nil {
				t.Fatal(err)
			}
			cobj, _ := p.Objectives(ca, rc)
			if r.Schedulable {
				schedulable++
			}
			if r.Schedulable != rc.Schedulable || r.RequirementsMet != rc.RequirementsMet || r.Violation != rc.Violation ||
				r.MaxCoreUtilisation() != rc.MaxCoreUtilisation() || (r.Schedulable && !slices.Equal(obj, cobj)) {
				t.Fatalf("%s: %s %v: the mapping (schedulable %v, violation %d, objectives %v) and its canonical form (%v, %d, %v) differ",
					name, what, a.Unit, r.Schedulable, r.Violation, obj, rc.Schedulable, rc.Violation, cobj)
			}
		}
		genome := make([]int, p.NumGenes())
		for range n {
			for g := range genome {
				genome[g] = rng.Intn(len(p.genes[g].values))
			}
			p.Decode(genome, a)
			check("random genome")
		}
		// Schedulable mappings, renamed at random within their classes:
		// the front of a short search.
		short := *cfg
		short.Search.Generations, short.Search.Seed = 5, 27
		if testsize.Reduced() {
			// The initial constructions of a population of 100 cost
			// more than the rest of this test.
			short.Search.Population = 20
		}
		se, err := evaluate.NewEvaluator(&short)
		if err != nil {
			t.Fatal(err)
		}
		out, err := Run(context.Background(), se, Options{Algorithm: configs.AlgorithmNSGA2, Workers: 1, NoMargins: true})
		if err != nil {
			t.Fatal(err)
		}
		perm := make([]int, len(p.units))
		for _, pt := range out.Front {
			for range 5 {
				for u := range perm {
					perm[u] = u
				}
				for _, cores := range p.classCores {
					shuffled := slices.Clone(cores)
					rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
					for k, u := range cores {
						perm[u] = shuffled[k]
					}
				}
				a.CopyFrom(pt.Assignment)
				for i, u := range a.Unit {
					if u >= 0 {
						a.Unit[i] = perm[u]
					}
				}
				check("a front point renamed")
			}
		}
		if renamed == 0 || schedulable == 0 {
			t.Errorf("%s: of %d genomes %d were renamed and %d schedulable: the test compares nothing", name, n, renamed, schedulable)
		}
	}
}
