package evaluate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// countEvaluators returns evaluators of the three counts for configurations
// that base builds.
func countEvaluators(t *testing.T, base func(t *testing.T) *configs.Config) [3]*evaluate.Evaluator {
	t.Helper()
	var es [3]*evaluate.Evaluator
	for k, c := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined, configs.ContentionRequest} {
		cfg := base(t)
		cfg.Analysis.Contention = c
		es[k] = evaluator(t, cfg)
	}
	return es
}

// defaultConfig is the built-in configuration (OPA priorities).
func defaultConfig(t *testing.T) *configs.Config {
	t.Helper()
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// notAbove checks, per task, that the bound under the looser count is one
// wherever the tighter count's is, and not above it.
func notAbove(t *testing.T, what string, lower, upper *evaluate.Analysis) {
	t.Helper()
	for i := range upper.Tasks {
		u, l := &upper.Tasks[i], &lower.Tasks[i]
		if u.Role == evaluate.NotRunning || !u.Verdict.Bounded() {
			continue
		}
		if !l.Verdict.Bounded() || l.R > u.R {
			t.Errorf("%s: %s: %v R = %d below, %v R = %d above", what, u.Name, l.Verdict, l.R, u.Verdict, u.R)
		}
	}
}

// request ≤ refined ≤ challenge for every task of random mappings, with
// priorities that do not depend on the analysis (deadline-monotonic), in
// both GPU models; and with the derived (OPA) priorities, for every mapping
// that the stricter count shows schedulable, the looser one does too. The
// rounds the refined analysis takes are logged.
func TestPropertyRequestRefinedChallenge(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	n := 300
	if testsize.Reduced() {
		n = 80
	}
	rounds := map[int]int{}
	for _, model := range []configs.GPUModel{configs.GPUModelFIFO, configs.GPUModelTimeSlice} {
		dm := countEvaluators(t, func(t *testing.T) *configs.Config {
			cfg := dmConfig(t)
			cfg.Analysis.GPUModel = model
			return cfg
		})
		for range n {
			a := randomAssignment(dm[0], rng)
			var rs [3]*evaluate.Analysis
			for k, e := range dm {
				rs[k] = e.NewAnalysis()
				if err := e.Evaluate(a, rs[k]); err != nil {
					t.Fatal(err)
				}
			}
			notAbove(t, string(model)+", refined ≤ challenge", rs[1], rs[0])
			notAbove(t, string(model)+", request ≤ refined", rs[2], rs[1])
			rounds[rs[1].Rounds]++
			if !rs[1].Converged {
				t.Errorf("%s: not converged after %d rounds", model, rs[1].Rounds)
			}
		}
	}
	// Derived priorities: feasibility only (the orders may differ).
	opa := countEvaluators(t, defaultConfig)
	start := mustMapping(t, opa[0], feasibleWATERS())
	mappings := feasibleWalk(t, opa[2], start, 60, 3000, 7)
	for range n {
		mappings = append(mappings, randomAssignment(opa[0], rng))
	}
	feasible := [3]int{}
	for _, a := range mappings {
		var ok [3]bool
		for k, e := range opa {
			r := e.NewAnalysis()
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			ok[k] = r.Schedulable
			if ok[k] {
				feasible[k]++
			}
		}
		if ok[0] && !ok[1] || ok[1] && !ok[2] {
			t.Errorf("mapping %v: schedulable under challenge %v, refined %v, request %v", a.Unit, ok[0], ok[1], ok[2])
		}
	}
	t.Logf("refined rounds over %d random mappings: %v; schedulable of %d OPA mappings: challenge %d, refined %d, request %d",
		2*n, rounds, len(mappings), feasible[0], feasible[1], feasible[2])
}

// Under the refined count (deadline-monotonic priorities, a fixed kernel
// geometry) no bound falls when a runnable's worst-case ticks grow, when a
// label grows by some lines, or when a task that only interferes joins a
// core: execution time, lines and interfering demand.
func TestPropertyRefinedMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	refined := func(t *testing.T) *configs.Config {
		cfg := dmConfig(t)
		cfg.Analysis.Contention = configs.ContentionRefined
		return cfg
	}
	base := evaluator(t, refined(t))
	cases := 60
	if testsize.Reduced() {
		cases = 20
	}
	sys := base.Model().Config().System
	for range cases {
		// Execution time.
		cfg := refined(t)
		run := &cfg.System.Runnables[rng.IntN(len(sys.Runnables))]
		if len(run.Ticks) > 0 {
			ticks := append([]configs.Ticks(nil), run.Ticks...)
			for j := range ticks {
				ticks[j].Upper += ticks[j].Upper * int64(1+rng.IntN(50)) / 100
			}
			run.Ticks = ticks
		}
		longer := evaluator(t, cfg)
		// Lines: one label grows by 1 to 20 % (at least a line).
		cfg = refined(t)
		l := &cfg.System.Labels[rng.IntN(len(sys.Labels))]
		l.Size += max(64, l.Size*configs.Size(1+rng.IntN(20))/100)
		bigger := evaluator(t, cfg)
		for range 5 {
			a := randomAssignment(base, rng)
			r0 := base.NewAnalysis()
			if err := base.Evaluate(a, r0); err != nil {
				t.Fatal(err)
			}
			for _, x := range []struct {
				what string
				e    *evaluate.Evaluator
			}{{"raising " + run.Name, longer}, {"growing " + l.Name, bigger}} {
				r1 := x.e.NewAnalysis()
				if err := x.e.Evaluate(a, r1); err != nil {
					t.Fatal(err)
				}
				noLower(t, x.what, r0, r1)
			}
		}
	}
	// Interfering demand: a task Extra that reads a label every second joins
	// a random core, below every other task there (deadline-monotonic).
	withExtra := func(t *testing.T) *configs.Config {
		cfg := refined(t)
		s := cfg.System
		s.Labels = append(s.Labels, configs.Label{Name: "Extra_data", Size: 640000})
		s.Runnables = append(s.Runnables, configs.Runnable{Name: "Extra_Function", Reads: []string{"Extra_data"},
			Ticks: []configs.Ticks{{Kind: "A57", Lower: 2_000_000, Upper: 2_000_000}, {Kind: "Denver", Lower: 2_000_000, Upper: 2_000_000}}})
		s.Tasks = append(s.Tasks, configs.Task{Name: "Extra", Period: configs.Second, Deadline: configs.Second, Runnables: []string{"Extra_Function"}})
		return cfg
	}
	extra := evaluator(t, withExtra(t))
	cores := []int{}
	for u, unit := range sys.Units {
		if unit.Type == configs.CPU {
			cores = append(cores, u)
		}
	}
	for range 4 * cases {
		a := randomAssignment(base, rng)
		r0 := base.NewAnalysis()
		if err := base.Evaluate(a, r0); err != nil {
			t.Fatal(err)
		}
		b := extra.NewAssignment()
		copy(b.Unit, a.Unit)
		copy(b.Async, a.Async)
		copy(b.High, a.High)
		copy(b.Slice, a.Slice)
		b.Unit[len(b.Unit)-1] = cores[rng.IntN(len(cores))]
		r1 := extra.NewAnalysis()
		if err := extra.Evaluate(b, r1); err != nil {
			t.Fatal(err)
		}
		r1.Tasks = r1.Tasks[:len(r0.Tasks)]
		noLower(t, "adding Extra", r0, r1)
	}
}

// The window term as the analysis charged it (rta's N and I at the fixed
// point, through memory.Counter) equals the detail's recomputation from the
// plain definitions (the hp jobs counted one by one, memory.Window.Overlap)
// for every bounded task of random mappings whose rounds converged.
func TestRefinedDetailMatchesAnalysis(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 3))
	checked := 0
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest} {
		e := countEvaluator(t, count, nil)
		start := mustMapping(t, e, feasibleWATERS())
		mappings := feasibleWalk(t, e, start, 20, 2000, 9)
		for range 100 {
			mappings = append(mappings, randomAssignment(e, rng))
		}
		for _, a := range mappings {
			r := e.NewAnalysis()
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			d, err := e.ContentionDetail(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range d {
				tr := &r.Tasks[tc.Task]
				want := tc.Refined
				if count == configs.ContentionRequest {
					want = tc.Request
				}
				if !r.Converged || tc.Accesses != tr.WindowAccesses {
					t.Errorf("%s, %s: detail %d accesses, analysis %d (converged %v)", count, tr.Name, tc.Accesses, tr.WindowAccesses, r.Converged)
					continue
				}
				if want != tr.WindowContention || tc.Request > tc.Refined || tc.Refined > tc.Challenge {
					t.Errorf("%s, %s: detail %+v, analysis charged %d", count, tr.Name, tc, tr.WindowContention)
				}
				checked++
			}
		}
	}
	t.Logf("%d task windows compared", checked)
}
