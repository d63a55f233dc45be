package optimizer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

func objectives(front []optimizer.Point) [][]float64 {
	var out [][]float64
	for _, p := range front {
		out = append(out, p.Objectives)
	}
	return out
}

// TestHandProblemEnumerationSymmetryAndGeneticSearchAgree: the exhaustive
// search of synth.HandProblem evaluates its 14 distinct mappings (27
// genomes up to the interchangeable A57 cores) but one: every task on one
// A57 core (U = 0.4 + 0.5 + 0.5 = 1.4), which the enumeration leaves out
// because the core's demand without contention already exceeds its
// capacity; nothing is cut before the leaves, and the genetic search
// finds the same front.
func TestHandProblemEnumerationSymmetryAndGeneticSearchAgree(t *testing.T) {
	cfg := synth.Load(t, synth.HandProblem)
	e := evaluator(t, cfg)
	want := [][]float64{{1, 0.8}, {2, 0.5}}

	ex, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: "exhaustive"})
	if err != nil {
		t.Fatal(err)
	}
	if got := objectives(ex.Front); !reflect.DeepEqual(got, want) || ex.Status != moo.Exhausted {
		t.Errorf("exhaustive front %v (%s), want %v", got, ex.Status, want)
	}
	if ex.Evaluations != 13 || ex.Pruned != 0 {
		t.Errorf("exhaustive evaluated %d mappings and pruned %d, want 13 distinct mappings (the 14th overloads its core) and no cut", ex.Evaluations, ex.Pruned)
	}
	// D0 carries T1 and T3 in the 2-core point: 2 ms/10 ms + 6 ms/20 ms = 0.5.
	if u := ex.Front[1].Analysis.Units[2].Utilisation; u != 0.5 && ex.Front[1].Analysis.Units[0].Utilisation != 0.5 {
		t.Errorf("2-core point: utilisations %v", ex.Front[1].Analysis.Units)
	}

	// Brute force over all 27 genomes, without symmetry breaking or pruning.
	p, err := optimizer.NewProblem(e, cfg.Search)
	if err != nil {
		t.Fatal(err)
	}
	w := p.NewWorker()
	arch := moo.NewArchive(2)
	var rec func(g []int, i int)
	count := 0
	rec = func(g []int, i int) {
		if i == len(g) {
			ev := moo.Evaluation{Objectives: make([]float64, 2)}
			w.Evaluate(g, &ev)
			count++
			arch.Add(moo.Point{Genome: append([]int(nil), g...), Evaluation: ev})
			return
		}
		for v := range p.Domain(i) {
			g[i] = v
			rec(g, i+1)
		}
	}
	rec(make([]int, p.NumGenes()), 0)
	if count != 27 || !reflect.DeepEqual(moo.Objectives(arch.Points()), want) {
		t.Errorf("brute force: %d genomes, front %v", count, moo.Objectives(arch.Points()))
	}

	ga, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmNSGA2})
	if err != nil {
		t.Fatal(err)
	}
	if got := objectives(ga.Front); !reflect.DeepEqual(got, want) {
		t.Errorf("genetic front %v, want %v", got, want)
	}
}

// watersFront runs the default search on a configuration.
func watersRun(t *testing.T, cfg *configs.Config, opts optimizer.Options) *optimizer.Outcome {
	t.Helper()
	out, err := optimizer.Run(context.Background(), evaluator(t, cfg), opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFrontIsFeasibleNonDominatedAndReproducible: every front point meets
// every deadline, no point dominates another, and evaluating the point's
// mapping again (as `hetmap analyze --mapping` does) gives the same numbers.
func TestFrontIsFeasibleNonDominatedAndReproducible(t *testing.T) {
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	cfg.Search.Generations = 200
	out := watersRun(t, cfg, optimizer.Options{})
	if !out.Feasible || len(out.Front) == 0 {
		t.Fatal("no feasible front")
	}
	e := evaluator(t, cfg)
	p, err := optimizer.NewProblem(e, cfg.Search)
	if err != nil {
		t.Fatal(err)
	}
	_ = p
	for i, a := range out.Front {
		if !a.Analysis.Schedulable || a.Violation != 0 {
			t.Errorf("point %d is not feasible", i)
		}
		for j, b := range out.Front {
			if i != j && moo.Dominates(a.Objectives, b.Objectives) {
				t.Errorf("point %d dominates point %d", i, j)
			}
		}
		m := a.Mapping
		asg, err := e.FromMapping(&m)
		if err != nil {
			t.Fatalf("point %d: its mapping does not load: %v", i, err)
		}
		r := e.NewAnalysis()
		if err := e.Evaluate(asg, r); err != nil {
			t.Fatal(err)
		}
		e.AnalyzeChains(r)
		for k := range r.Tasks {
			if r.Tasks[k].R != a.Analysis.Tasks[k].R || r.Tasks[k].Unit != a.Analysis.Tasks[k].Unit {
				t.Errorf("point %d, task %s: re-evaluated R %d on %d, front says %d on %d", i, r.Tasks[k].Name, r.Tasks[k].R, r.Tasks[k].Unit, a.Analysis.Tasks[k].R, a.Analysis.Tasks[k].Unit)
			}
		}
		// The objectives are chains' maximum reaction times, the
		// analysis's chain latency, so AnalyzeChains gives the same values.
		value := map[string]int64{}
		for _, ch := range r.Chains {
			value[ch.Name] = ch.Value
		}
		for k, o := range cfg.Search.Objectives {
			if v := value[o.Chain]; float64(v)/1e9 != a.Objectives[k] {
				t.Errorf("point %d, chain %s: re-evaluated %d ps, objective %v ms", i, o.Chain, v, a.Objectives[k])
			}
		}
	}
}

// TestDeterminismAcrossWorkers: the same seed gives the same front (and the
// same counts) with 1, 2 and 4 workers, for the genetic search and for the
// exhaustive one, whose enumeration tree the workers share out. The
// built-in model under the challenge count with seed 7 is a case where two
// workers meet the same feasible mapping, which must count once (it once
// counted its priority-order variants twice).
func TestDeterminismAcrossWorkers(t *testing.T) {
	builtin, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	builtin.Analysis.Contention = configs.ContentionChallenge
	for name, cfg := range map[string]*configs.Config{
		"waters-3obj": synth.LoadFile(t, "../configs/examples/waters-3obj.yaml"),
		"builtin":     builtin,
	} {
		t.Run(name, func(t *testing.T) { determinismAcrossWorkers(t, cfg) })
	}
}

func determinismAcrossWorkers(t *testing.T, cfg *configs.Config) {
	cfg.Search.Generations = 60
	encode := func(out *optimizer.Outcome) []byte {
		var buf bytes.Buffer
		fmt.Fprintln(&buf, out.Status, out.Evaluations, out.FeasibleEvaluations, out.Pruned, out.Generations,
			out.FeasibleMappings, out.Variants, out.VariantsIncomplete, out.Proof.UndecidedCount, out.Undecided)
		for _, p := range out.Front {
			b, _ := json.Marshal(struct {
				O []float64
				M configs.Mapping
			}{p.Objectives, p.Mapping})
			buf.Write(b)
		}
		return buf.Bytes()
	}
	seed := int64(7)
	one := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, Workers: 1})
	ex1 := watersRun(t, cfg, optimizer.Options{Algorithm: "exhaustive", Workers: 1})
	workers := []int{2, 4}
	if testsize.Reduced() {
		workers = workers[:1] // two workers share the work as four do
	}
	for _, w := range workers {
		if other := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, Workers: w}); !bytes.Equal(encode(one), encode(other)) {
			t.Errorf("seed %d: 1 worker gives %s, %d workers %s", seed, encode(one), w, encode(other))
		}
		if other := watersRun(t, cfg, optimizer.Options{Algorithm: "exhaustive", Workers: w}); !bytes.Equal(encode(ex1), encode(other)) {
			t.Errorf("the exhaustive search gives %s with 1 worker, %s with %d", encode(ex1), encode(other), w)
		}
	}
	other := int64(8)
	if diff := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &other, Workers: 1}); bytes.Equal(encode(one), encode(diff)) && len(one.Front) > 1 {
		t.Log("seeds 7 and 8 happen to give the same front")
	}
	if ex1.Status != moo.Exhausted || ex1.FeasibleEvaluations == 0 || ex1.FeasibleEvaluations > ex1.Evaluations {
		t.Errorf("exhaustive search: %v, %d evaluations of which %d feasible", ex1.Status, ex1.Evaluations, ex1.FeasibleEvaluations)
	}
	t.Logf("exhaustive: %d evaluations (%d feasible), %d cuts, %d points", ex1.Evaluations, ex1.FeasibleEvaluations, ex1.Pruned, len(ex1.Front))
}

// TestGeneticSearchAgainstExactFront judges the default genetic search by
// the exact front of the 3-objective example (28 mappings): every point it
// finds is on or behind the exact front (which would catch an unsound cut in
// the enumeration), and its hypervolume ratio is at least 0.99.
func TestGeneticSearchAgainstExactFront(t *testing.T) {
	if testsize.Reduced() {
		t.Skip("runs the default genetic search (about 2 s, ten times that under -race)")
	}
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	ex := watersRun(t, cfg, optimizer.Options{Algorithm: "exhaustive"})
	exact := objectives(ex.Front)
	if len(exact) != 28 {
		t.Errorf("exact front has %d points, want 28", len(exact))
	}
	ref := optimizer.ReferencePoint(exact)
	seed := int64(1)
	ga := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed})
	got := objectives(ga.Front)
	for _, q := range got {
		covered := false
		for _, x := range exact {
			covered = covered || reflect.DeepEqual(x, q) || moo.Dominates(x, q)
		}
		if !covered {
			t.Errorf("the genetic search found %v, which no point of the exact front covers: the enumeration cut too much", q)
		}
	}
	if r := moo.HypervolumeRatio(got, exact, ref); r < 0.99 {
		t.Errorf("hypervolume ratio %.4f < 0.99 (%d of %d points)", r, len(got), len(exact))
	}
}

// TestGeneticSearchFindsTimeSliceRegion: under the timeslice GPU model the
// feasible mappings of WATERS need narrow slices (SFM's long enough for its
// kernel, Detection's short enough for SFM), which random genomes and
// value-by-value constructions missed; the constructions now set the
// slices by coordinate descent, and NSGA-II finds a feasible mapping for
// every seed of 1–10 (seed 1 in the reduced run, -short or -race) even with a
// short run.
func TestGeneticSearchFindsTimeSliceRegion(t *testing.T) {
	cfg := synth.Load(t, "model: builtin\nanalysis: {gpu_model: timeslice}\nsearch: {generations: 5}\n")
	e := evaluator(t, cfg)
	seeds := int64(10)
	if testsize.Reduced() {
		seeds = 1
	}
	for seed := int64(1); seed <= seeds; seed++ {
		out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !out.Feasible {
			t.Errorf("seed %d: no feasible mapping in %d evaluations", seed, out.Evaluations)
		}
	}
}

// TestConstructionsAcrossWorkers: the initial constructions run on the
// search's workers, each genome from its own generator and within its own
// share of the budget, so the population they open, what they cost and the
// front do not depend on the number of workers; the time-slice model (slice
// descents) under an evaluation budget that the constructions reach.
func TestConstructionsAcrossWorkers(t *testing.T) {
	cfg := synth.Load(t, "model: builtin\nanalysis: {gpu_model: timeslice, contention: challenge}\nsearch: {generations: 1000, max_evaluations: 4000}\n")
	e := evaluator(t, cfg)
	encode := func(out *optimizer.Outcome) string {
		s := fmt.Sprintln(out.Evaluations, out.ConstructionEvaluations, out.FeasibleEvaluations, out.Feasible)
		for _, p := range out.Front {
			b, _ := json.Marshal(p.Mapping)
			s += fmt.Sprintln(p.Objectives, string(b))
		}
		return s
	}
	for seed := int64(1); seed <= 3; seed++ {
		var first string
		for _, w := range []int{1, 2, 4} {
			out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			// The constructions stop at half the budget, a genome's last
			// slice descent (never cut short) perhaps beyond it, and the
			// genetic search takes the rest, its priority-order variants
			// included (Analyses).
			if out.ConstructionEvaluations < 2000 || out.ConstructionEvaluations >= 4000 || out.Analyses != 4000 {
				t.Errorf("seed %d, %d workers: %d analyses of which %d by the constructions, want 4000 of which 2000 to 3999", seed, w, out.Analyses, out.ConstructionEvaluations)
			}
			if got := encode(out); w == 1 {
				first = got
			} else if got != first {
				t.Errorf("seed %d: 1 worker gives\n%s%d workers\n%s", seed, first, w, got)
			}
		}
	}
}

// TestBudgetAcrossWorkers: on a synthetic system of 60 tasks under the
// refined count, where most feasible mappings have priority-order
// variants, a genetic search bounded by search.max_evaluations counts the
// variants' analyses in it (Analyses above Evaluations, never above the
// bound) and gives the same front and counts with 1, 2 and 4 workers: a
// genome's cost does not depend on which worker met its mapping first.
func TestBudgetAcrossWorkers(t *testing.T) {
	s := synth.Settings{Tasks: 56, GPUTasks: 2, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 3, Contention: configs.ContentionRefined}
	cfg, _, err := synth.Config(s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Search.MaxEvaluations = 1500
	encode := func(out *optimizer.Outcome) string {
		var buf bytes.Buffer
		fmt.Fprintln(&buf, out.Status, out.Evaluations, out.Analyses, out.FeasibleEvaluations, out.FeasibleMappings, out.Variants, out.VariantsIncomplete)
		for _, p := range out.Front {
			b, _ := json.Marshal(struct {
				O []float64
				M configs.Mapping
			}{p.Objectives, p.Mapping})
			buf.Write(b)
		}
		return buf.String()
	}
	var first string
	for _, w := range []int{1, 2, 4} {
		out := watersRun(t, cfg, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Workers: w, NoMargins: true})
		if out.Analyses > cfg.Search.MaxEvaluations || out.Analyses <= out.Evaluations || out.Variants == 0 {
			t.Fatalf("%d workers: %d analyses for %d evaluations and %d variants, bound %d", w, out.Analyses, out.Evaluations, out.Variants, cfg.Search.MaxEvaluations)
		}
		if got := encode(out); first == "" {
			first = got
		} else if got != first {
			t.Fatalf("1 worker:\n%.400s\n%d workers:\n%.400s", first, w, got)
		}
	}
}

// TestMaxUtilisationIsTheCountsLoad is issue 31's loose end: the
// max-utilisation objective is the busiest core's load as the verdicts
// count it, the demand of the count under refined and request (which C's
// per-job contention, the challenge count's Σ C/T, overstates), Σ C/T under
// the challenge count; on the exact fronts of small random systems.
func TestMaxUtilisationIsTheCountsLoad(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 5))
	below := 0
	for n := range 12 {
		count := []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest, configs.ContentionChallenge}[n%3]
		cfg := synth.Load(t, synth.SmallYAML(rng, count, configs.PrioritiesOPA))
		cfg.Search.Objectives = []configs.Objective{{Kind: configs.ObjectiveMaxUtilisation}, {Kind: configs.ObjectiveCoresUsed}}
		e, err := evaluate.NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmExhaustive, Workers: 1, NoMargins: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range out.Front {
			var load, utilisation float64
			for u := range p.Analysis.Units {
				ur := &p.Analysis.Units[u]
				if ur.GPU {
					continue
				}
				l := ur.Utilisation
				if count != configs.ContentionChallenge {
					l = ur.Demand
				}
				load, utilisation = max(load, l), max(utilisation, ur.Utilisation)
			}
			if math.Abs(p.Objectives[0]-load) > 1e-12 {
				t.Errorf("system %d (%s): objective %v, the busiest core's load under the count %v", n, count, p.Objectives[0], load)
			}
			if load < utilisation-1e-9 {
				below++
			}
		}
	}
	if below == 0 {
		t.Error("no front point whose demand is below its Σ C/T")
	}
}
