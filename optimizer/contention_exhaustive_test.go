package optimizer_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// randomSmallSystem writes a random small system: 2 or 3 cores of random
// kinds, 4 to 6 periodic tasks that read and write labels, sometimes a GPU
// with one offloading task (its GPU task can also be merged onto a core),
// two chains as the objectives, under the given contention count and
// priority policy. The tasks' utilisations are drawn so that many but not
// all mappings are schedulable, which makes the exhaustive search cut.
func randomSmallSystem(rng *rand.Rand, count, priorities string) string {
	var b strings.Builder
	cores := 2 + rng.IntN(2)
	kinds := map[string]bool{}
	b.WriteString("name: small\nunits:\n")
	for c := range cores {
		kind := []string{"A57", "Denver"}[rng.IntN(2)]
		kinds[kind] = true
		fmt.Fprintf(&b, "  - {name: C%d, kind: %s, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}\n", c, kind)
	}
	withGPU := rng.IntN(2) == 0
	if withGPU {
		b.WriteString(gpuUnit[1:])
	}
	b.WriteString("memory:\n  line_size: 64\n  cores:\n")
	if kinds["A57"] {
		b.WriteString("    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}\n")
	}
	if kinds["Denver"] {
		b.WriteString("    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}\n")
	}
	b.WriteString("  copy_engine: {baseline: 3ns, per_core: 500ps}\nlabels:\n")
	const labels = 6
	for l := range labels {
		fmt.Fprintf(&b, "  - {name: L%d, size_bytes: %d}\n", l, 64*(100+rng.IntN(20000)))
	}
	tasks := 4 + rng.IntN(3)
	periods := []int{5, 10, 20, 40}
	b.WriteString("runnables:\n")
	type task struct {
		name   string
		period int
	}
	var ts []task
	ticks := func(us float64, extra string) string {
		a57 := int64(us * 2000 * 1.3) // 2 GHz, the A57 slower
		den := int64(us * 2000)
		var ks []string
		if extra != "" {
			ks = append(ks, extra)
		}
		if kinds["A57"] {
			ks = append(ks, fmt.Sprintf("{kind: A57, lower: %d, upper: %d}", a57/2, a57))
		}
		if kinds["Denver"] {
			ks = append(ks, fmt.Sprintf("{kind: Denver, lower: %d, upper: %d}", den/2, den))
		}
		return "[" + strings.Join(ks, ", ") + "]"
	}
	for k := range tasks {
		p := periods[rng.IntN(len(periods))]
		u := 0.15 + 0.35*rng.Float64() // 15–50 % of a Denver core
		r1, r2 := rng.IntN(labels), rng.IntN(labels)
		writes := ""
		if rng.IntN(2) == 0 {
			writes = fmt.Sprintf(", writes: [L%d]", rng.IntN(labels))
		}
		fmt.Fprintf(&b, "  - {name: R%d, ticks: %s, reads: [L%d, L%d]%s}\n", k, ticks(u*float64(p)*1000, ""), r1, r2, writes)
		ts = append(ts, task{fmt.Sprintf("T%d", k), p})
	}
	if withGPU {
		fmt.Fprintf(&b, "  - {name: Pre, ticks: %s, reads: [L0]}\n", ticks(500, ""))
		fmt.Fprintf(&b, "  - {name: Post, ticks: %s, writes: [L1]}\n", ticks(500, ""))
		b.WriteString("  - {name: H2D, reads: [L2], writes: [L2]}\n")
		fmt.Fprintf(&b, "  - {name: Kern, ticks: %s}\n", ticks(2000+float64(rng.IntN(2000)), fmt.Sprintf("{kind: GPU_def, lower: 1500000, upper: %d}", 1500000+rng.IntN(6000000))))
		b.WriteString("  - {name: D2H, reads: [L3], writes: [L3]}\n")
	}
	b.WriteString("tasks:\n")
	for k, x := range ts {
		fmt.Fprintf(&b, "  - {name: %s, period: %dms, runnables: [R%d]}\n", x.name, x.period, k)
	}
	if withGPU {
		wait := []string{"active", "passive"}[rng.IntN(2)]
		fmt.Fprintf(&b, "  - {name: P, period: 20ms, runnables: [Pre], offload: {gpu_task: G, wait: %s, post_runnables: [Post]}}\n", wait)
		b.WriteString("  - {name: G, runnables: [H2D, Kern, D2H], triggered_by: P}\n")
		ts = append(ts, task{"G", 20})
	}
	b.WriteString("chains:\n")
	for c := range 2 {
		perm := rng.Perm(len(ts))[:2+rng.IntN(2)]
		var names []string
		for _, k := range perm {
			names = append(names, ts[k].name)
		}
		fmt.Fprintf(&b, "  - {name: X%d, tasks: [%s]}\n", c, strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "analysis: {contention: %s, priorities: %s}\nsearch: {algorithm: exhaustive}\n", count, priorities)
	return b.String()
}

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
	if testing.Short() {
		systems = 12
	}
	caught, cuts, nonTrivial := 0, 0, 0
	for n := range systems {
		count := []string{configs.ContentionRefined, configs.ContentionRequest}[n%2]
		policy := []string{configs.PrioritiesOPA, configs.PrioritiesDM}[(n/2)%2]
		yml := randomSmallSystem(rng, count, policy)
		cfg := loadYAML(t, yml)
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
		bad := evaluator(t, loadYAML(t, yml))
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
