package optimizer

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

var longBruteForce = flag.Bool("long-brute-force", false, "compare the exhaustive search with brute force on more random systems")

// bruteForce evaluates every genome of p (the whole product of the gene
// domains: no symmetry breaking, no pruning) under every combination of
// per-core priority orders (every permutation, given explicitly), and
// returns the Pareto front of the feasible ones as sorted objective
// vectors, with the number of distinct feasible mappings (mappingKey) among
// them.
func bruteForce(t *testing.T, p *Problem) ([][]float64, int) {
	t.Helper()
	e := p.e.Clone()
	n := p.NumGenes()
	genome := make([]int, n)
	a, b := e.NewAssignment(), e.NewAssignment()
	r := e.NewAnalysis()
	obj := make([]float64, p.NumObjectives())
	rename, next := make([]int, len(e.Model().Units())), make([]int, len(e.Model().Units()))
	canon := e.NewAssignment()
	var all [][]float64
	feasible := map[string]bool{}
	for {
		p.Decode(genome, a)
		if err := e.Evaluate(a, r); err != nil {
			t.Fatal(err)
		}
		forEachOrder(t, e, a, b, r, func() {
			p.objectivesOf(e, b, r, obj, nil)
			if r.Schedulable {
				all = append(all, slices.Clone(obj))
				// The canonical form, written out in full (not hashed):
				// GPU settings only for the GPU tasks on the GPU.
				p.canonicalise(a, canon, rename, next)
				key := fmt.Sprint(canon.Unit)
				for g, task := range e.Model().GPUTasks() {
					if canon.Unit[task] == e.Model().GPUUnit() {
						key += fmt.Sprint(g, canon.Async[g], canon.High[g], canon.Slice[g])
					}
				}
				feasible[key] = true
			}
		})
		g := 0
		for ; g < n; g++ {
			if genome[g]++; genome[g] < len(p.genes[g].values) {
				break
			}
			genome[g] = 0
		}
		if g == n {
			break
		}
	}
	return paretoSet(all), len(feasible)
}

// forEachOrder evaluates a into r with every combination of per-core
// priority orders (every permutation, given explicitly, in b) and calls fn
// after each evaluation that is schedulable.
func forEachOrder(t *testing.T, e *evaluate.Evaluator, a, b *evaluate.Assignment, r *evaluate.Analysis, fn func()) {
	t.Helper()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	var cores [][]int
	var perms [][][]int
	for u, unit := range e.Model().Units() {
		if unit.GPU || len(e.OnCore(u)) == 0 {
			continue
		}
		ids := slices.Clone(e.OnCore(u))
		cores = append(cores, ids)
		perms = append(perms, permutations(len(ids)))
	}
	pick := make([]int, len(cores))
	for {
		b.CopyFrom(a)
		for c, ids := range cores {
			for rank, x := range perms[c][pick[c]] {
				b.Priority[ids[x]] = len(ids) - rank
			}
		}
		if err := e.Evaluate(b, r); err != nil {
			t.Fatal(err)
		}
		if r.Schedulable {
			fn()
		}
		c := 0
		for ; c < len(pick); c++ {
			if pick[c]++; pick[c] < len(perms[c]) {
				break
			}
			pick[c] = 0
		}
		if c == len(pick) {
			return
		}
	}
}

// paretoSet returns the distinct non-dominated vectors of vs, sorted.
func paretoSet(vs [][]float64) [][]float64 {
	var out [][]float64
	for i, v := range vs {
		keep := true
		for j, w := range vs {
			if weaklyDominates(w, v) && (!slices.Equal(w, v) || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return slices.Compare(out[i], out[j]) < 0 })
	return out
}

// permutations returns every permutation of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for k := 0; k <= len(p); k++ {
			q := append(append(append([]int(nil), p[:k]...), n-1), p[k:]...)
			out = append(out, q)
		}
	}
	return out
}

// TestExhaustiveEqualsBruteForce checks the exhaustive search's claim on
// small random systems (2–4 periodic tasks, up to two GPU tasks with their
// offloading tasks, 2–3 cores of one or two kinds, synchronous and
// asynchronous offloading, both GPU models): its front, found with symmetry
// breaking, pruning of partial mappings, derived priorities and their
// variants, equals the front of a brute-force enumeration of every genome
// under every priority order, and it counts the same distinct feasible
// mappings. An unsound cut, a priority assignment that misses a feasible
// order, or a missing order variant makes the fronts differ.
func TestExhaustiveEqualsBruteForce(t *testing.T) {
	// The short run (and the race detector's, testsize.Reduced) draws from
	// the same sequence of systems and stops once it has checked 30 of them
	// (10 under -race, where each costs ten times as much) and they
	// exercised pruning and order variants as often as the coverage check
	// below asks of its size (at most the full run's 150 systems): a check
	// of fewer systems demands proportionally less, never nothing.
	systems, least := 150, 30
	if testsize.Race {
		least = 10
	}
	rng := rand.New(rand.NewPCG(10, 10))
	stats := map[string]int{}
	covered := func(n int) bool {
		return stats["feasible, pruned"] >= n/10 && stats["with order variants"] >= n/20
	}
	for sys := range systems {
		if testsize.Reduced() && sys >= least && covered(sys) {
			systems = sys
			break
		}
		s := synth.Settings{
			Tasks:       2 + rng.IntN(3),
			GPUTasks:    rng.IntN(3),
			A57:         1 + rng.IntN(2),
			Denver:      rng.IntN(2),
			Chains:      1 + rng.IntN(2),
			ChainLength: 2 + rng.IntN(2),
			MaxSlice:    2 * configs.Millisecond,
			// The claim of an exact front over every priority order is
			// made under the challenge's count, where the cores' orders
			// do not interact (TestExhaustiveEqualsJointBruteForce covers the others).
			Contention: configs.ContentionChallenge,
		}
		if s.Tasks+2*s.GPUTasks > 6 {
			s.GPUTasks = 1
		}
		s.Utilisation = (0.3 + 0.6*rng.Float64()) * float64(s.A57+s.Denver)
		if rng.IntN(2) == 0 {
			s.GPUModel = configs.GPUModelTimeSlice
		}
		cfg, y, err := synth.Config(s, rng)
		if err != nil {
			t.Fatal(err)
		}
		// The chain objectives under each bound in turn: the job-level
		// values and the bounds for any offsets depend on a core's order
		// through the order of the hops between its chain members too
		// (evaluate's variants.go), not only through response times.
		cfg.Analysis.ChainLatency.Bound = configs.ChainBounds[sys%len(configs.ChainBounds)]
		e, err := evaluate.NewEvaluator(cfg)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", sys, err, y)
		}
		p, err := NewProblem(e, cfg.Search)
		if err != nil {
			t.Fatalf("system %d: %v\n%s", sys, err, y)
		}
		want, wantFeasible := bruteForce(t, p)
		out, err := Run(context.Background(), e, Options{Algorithm: configs.AlgorithmExhaustive, Workers: 1 + sys%2})
		if err != nil {
			t.Fatal(err)
		}
		var got [][]float64
		for _, pt := range out.Front {
			got = append(got, pt.Objectives)
		}
		got = paretoSet(got)
		if fmt.Sprint(got) != fmt.Sprint(want) || out.FeasibleMappings != wantFeasible || !out.Exact() {
			t.Fatalf("system %d: exhaustive front %v (%d feasible mappings, exact %v), brute force %v (%d)\n%s",
				sys, got, out.FeasibleMappings, out.Exact(), want, wantFeasible, y)
		}
		switch {
		case len(want) == 0:
			stats["no feasible mapping"]++
		case out.Pruned == 0:
			stats["feasible, nothing pruned"]++
		default:
			stats["feasible, pruned"]++
		}
		if out.Variants > 0 {
			stats["with order variants"]++
		}
	}
	t.Logf("%d systems: %v", systems, stats)
	if !covered(systems) {
		t.Errorf("the systems no longer exercise pruning and order variants: %v", stats)
	}
}

// TestExactFrontDominatesEveryOrder is the claim of the exact front of
// WATERS problems as a user checks it with hetmap analyze: every mapping
// analyze accepts, with any priorities given explicitly, is weakly
// dominated by a point of the front, and the front is the Pareto front of
// those (mapping, order) pairs. The problems: configs/examples/waters-3obj.yaml
// (challenge count) and the built-in model under the refined (default) and
// request counts, where the cores' orders interact. The mappings are those
// the exhaustive enumeration reaches (its pruning only cuts partial
// mappings without a feasible completion, which the brute-force tests on
// random systems check); each is evaluated under every combination of
// per-core priority orders.
func TestExactFrontDominatesEveryOrder(t *testing.T) {
	cases := []struct {
		name, yaml string
		minPairs   int
	}{
		{name: "waters-3obj, challenge", yaml: "model: ../configs/examples/waters-3obj.yaml\n", minPairs: 1000},
		{name: "built-in, refined", yaml: "model: builtin\n", minPairs: 20},
		{name: "built-in, request", yaml: "model: builtin\nanalysis: {contention: request}\n", minPairs: 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if testsize.Reduced() && tc.minPairs >= 1000 {
				t.Skip("27612 mappings, each under every order: the reduced run (-short, -race) checks the built-in model's cases; TestExhaustiveEqualsJointBruteForce checks the challenge count too")
			}
			if testsize.Reduced() && strings.Contains(tc.name, "request") {
				t.Skip("the reduced run (-short, -race) checks the refined case alone: the request count takes the same paths, and TestExhaustiveMatchesBruteForceRefined checks it on random systems")
			}
			var cfg *configs.Config
			var err error
			if strings.HasPrefix(tc.yaml, "model: ../") {
				cfg, err = configs.LoadFile(strings.TrimSpace(strings.TrimPrefix(tc.yaml, "model: ")))
			} else {
				cfg, err = configs.Load(strings.NewReader(tc.yaml), "test.yaml", ".")
			}
			if err != nil {
				t.Fatal(err)
			}
			exactFrontDominatesEveryOrder(t, cfg, tc.minPairs)
		})
	}
}

func exactFrontDominatesEveryOrder(t *testing.T, cfg *configs.Config, minPairs int) {
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(context.Background(), e, Options{Algorithm: configs.AlgorithmExhaustive})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Exact() {
		t.Fatalf("the exhaustive search does not claim an exact front: %s", out.Proof.Statement(out.Feasible))
	}
	var front [][]float64
	for _, pt := range out.Front {
		front = append(front, pt.Objectives)
	}
	p, err := NewProblem(e, cfg.Search)
	if err != nil {
		t.Fatal(err)
	}
	x := p.Exhaustive()
	wk := x.NewWalker()
	n := p.NumGenes()
	partial := make([]int, n)
	a, b := e.NewAssignment(), e.NewAssignment()
	r := e.NewAnalysis()
	obj := make([]float64, p.NumObjectives())
	mappings, accepted := 0, 0
	var all [][]float64
	var walk func(depth int)
	walk = func(depth int) {
		if depth == n {
			p.Decode(partial, a)
			mappings++
			forEachOrder(t, e, a, b, r, func() {
				p.objectivesOf(e, b, r, obj, nil)
				if !r.Schedulable || !r.RequirementsMet {
					return
				}
				accepted++
				all = append(all, slices.Clone(obj))
				for _, f := range front {
					if weaklyDominates(f, obj) {
						return
					}
				}
				t.Errorf("a mapping with explicit priorities, %v, is not dominated by the front: %+v", obj, e.Model().Mapping(b))
			})
			return
		}
		for _, v := range wk.Values(partial, depth, nil) {
			partial[x.Order[depth]] = v
			if !wk.Prune(partial, depth+1) {
				walk(depth + 1)
			}
		}
	}
	walk(0)
	got := paretoSet(front)
	if want := paretoSet(all); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the front %v is not the Pareto front %v of the (mapping, order) pairs", got, want)
	}
	t.Logf("%d mappings, %d (mapping, priority order) pairs accepted, front of %d points", mappings, accepted, len(front))
	if accepted < minPairs {
		t.Errorf("only %d accepted pairs: the check no longer covers the space", accepted)
	}
}

// jointCounts are the contention counts of jointSystems, in turn.
var jointCounts = []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest, configs.ContentionChallenge}

// jointSystems returns the generator of TestExhaustiveEqualsJointBruteForce's
// random systems: each call the next one (its configuration, its YAML for
// messages and its contention count), the same sequence every time.
func jointSystems(t *testing.T) func() (*configs.Config, string, string) {
	rng := rand.New(rand.NewPCG(20, 20))
	sys := 0
	return func() (*configs.Config, string, string) {
		count := jointCounts[sys%len(jointCounts)]
		s := synth.Settings{
			Tasks:       3 + rng.IntN(3),
			GPUTasks:    rng.IntN(2),
			A57:         1 + rng.IntN(2),
			Denver:      1,
			Chains:      1 + rng.IntN(2),
			ChainLength: 2 + rng.IntN(2),
			MaxSlice:    2 * configs.Millisecond,
			Contention:  count,
		}
		s.Utilisation = (0.5 + 0.6*rng.Float64()) * float64(s.A57+s.Denver)
		if rng.IntN(3) == 0 {
			s.GPUModel = configs.GPUModelTimeSlice
		}
		cfg, y, err := synth.Config(s, rng)
		if err != nil {
			t.Fatal(err)
		}
		if sys%4 == 3 {
			// The margin as an objective too: it depends on every core's
			// order, not only on the chain members' response times.
			cfg.Search.Objectives = append(cfg.Search.Objectives, configs.Objective{Kind: configs.ObjectiveMargin})
			y += "(and the objective {kind: margin})\n"
		}
		sys++
		return cfg, y, string(count)
	}
}

// exhaustiveFront runs the exhaustive search on cfg, with set (nil: none)
// applied to the evaluator first (a test hook), and returns the outcome
// and its front's objective vectors as paretoSet sorts them.
func exhaustiveFront(t *testing.T, cfg *configs.Config, workers int, set func(*evaluate.Evaluator)) (*Outcome, [][]float64) {
	t.Helper()
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if set != nil {
		set(e)
	}
	out, err := Run(context.Background(), e, Options{Algorithm: configs.AlgorithmExhaustive, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]float64
	for _, pt := range out.Front {
		got = append(got, pt.Objectives)
	}
	return out, paretoSet(got)
}

// bruteForceOf is bruteForce on the problem of cfg.
func bruteForceOf(t *testing.T, cfg *configs.Config) ([][]float64, int) {
	t.Helper()
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProblem(e, cfg.Search)
	if err != nil {
		t.Fatal(err)
	}
	return bruteForce(t, p)
}

// TestDecideMatters: system 234 of jointSystems (refined count) has a
// mapping that misses under its derived orders but meets every deadline
// under another joint order, and that mapping is on the brute-force
// front: without decide (the joint orders of a mapping that misses), the
// exhaustive front differs from brute force there; with it, it is equal.
// The 60 systems of the default brute-force run have no such mapping.
func TestDecideMatters(t *testing.T) {
	next := jointSystems(t)
	var cfg *configs.Config
	var y string
	for range 235 {
		cfg, y, _ = next()
	}
	want, _ := bruteForceOf(t, cfg)
	for _, decide := range []bool{true, false} {
		_, got := exhaustiveFront(t, cfg, 1, func(e *evaluate.Evaluator) { evaluate.SetHooks(e, evaluate.Hooks{NoDecide: !decide}) })
		if equal := fmt.Sprint(got) == fmt.Sprint(want); equal != decide {
			t.Errorf("with decide %v: exhaustive front %v, brute force %v (equal %v)\n%s", decide, got, want, equal, y)
		}
	}
}

// TestExhaustiveEqualsJointBruteForce checks the exhaustive search's claim
// of an exact front under every contention count, where under the refined
// and request counts the cores' priority orders interact: on small random
// systems its front, found with symmetry breaking, the relaxed cut of
// partial mappings, derived priorities and the joint orders of decide and
// JointOrders, equals the front of a brute-force enumeration of every
// genome under every combination of per-core priority orders given
// explicitly, it counts the same distinct feasible mappings, and it says
// the front is exact. With the joint enumeration broken on purpose (each
// core keeps only the first order that passes the relaxed test, as an
// unsound dominance rule would), the fronts differ on some system: the
// test can catch a broken pruning.
func TestExhaustiveEqualsJointBruteForce(t *testing.T) {
	systems := 60
	if *longBruteForce {
		systems = 400
	}
	next := jointSystems(t)
	stats := map[string]int{}
	caught := 0
	// covered: the systems so far exercise every count with feasible
	// mappings and other orders as often as the check below asks of their
	// number, and the broken enumeration was caught.
	covered := func(n int) bool {
		for _, c := range jointCounts {
			if stats[string(c)+": feasible"] < n/12 || stats[string(c)+": with other orders"] == 0 {
				return false
			}
		}
		return caught > 0
	}
	least := 12
	if testsize.Race {
		least = 6
	}
	for sys := range systems {
		// The reduced run (-short, -race) draws from the same sequence and
		// stops after 12 systems (6 under -race) once they cover what the
		// check demands.
		if testsize.Reduced() && sys >= least && covered(sys) {
			systems = sys
			break
		}
		cfg, y, count := next()
		if sys%4 == 3 {
			stats[count+": with the margin objective"]++
		}
		run := func(broken bool) (*Outcome, [][]float64) {
			return exhaustiveFront(t, cfg, 1+sys%2, func(e *evaluate.Evaluator) { evaluate.SetHooks(e, evaluate.Hooks{JointBroken: broken}) })
		}
		want, wantFeasible := bruteForceOf(t, cfg)
		out, got := run(false)
		if fmt.Sprint(got) != fmt.Sprint(want) || out.FeasibleMappings != wantFeasible || !out.Exact() {
			t.Fatalf("system %d (%s): exhaustive front %v (%d feasible mappings, %s), brute force %v (%d)\n%s",
				sys, count, got, out.FeasibleMappings, out.Proof.Statement(out.Feasible), want, wantFeasible, y)
		}
		if _, bad := run(true); fmt.Sprint(bad) != fmt.Sprint(want) {
			caught++
		}
		switch {
		case len(want) == 0:
			stats[count+": no feasible mapping"]++
		default:
			stats[count+": feasible"]++
		}
		if out.Variants > 0 {
			stats[count+": with other orders"]++
		}
	}
	t.Logf("%d systems: %v; the broken joint enumeration gives a wrong front on %d", systems, stats, caught)
	if caught == 0 {
		t.Error("the broken joint enumeration went unnoticed on every system: the test cannot catch one")
	}
	if !covered(systems) {
		t.Errorf("the systems no longer exercise every count with feasible mappings and other orders: %v", stats)
	}
}
