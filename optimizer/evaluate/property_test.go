package evaluate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// randomAssignment places every task of the evaluator's model at random on a
// unit it can run on; GPU tasks go to the GPU or are merged onto a core, and
// offloading modes and stream priorities are drawn too.
func randomAssignment(e *evaluate.Evaluator, rng *rand.Rand) *evaluate.Assignment {
	a := e.NewAssignment()
	specs := e.Model().Tasks()
	for i, s := range specs {
		switch s.Kind {
		case evaluate.PeriodicTask:
			a.Unit[i] = s.Units[rng.IntN(len(s.Units))]
		case evaluate.GPUTask:
			u := s.Units[rng.IntN(len(s.Units))]
			a.Unit[i] = u
			if u == e.Model().GPUUnit() {
				pre := specs[s.Offloader]
				a.Unit[s.Offloader] = pre.Units[rng.IntN(len(pre.Units))]
			} else {
				a.Unit[s.Offloader] = evaluate.NoUnit
			}
			a.Async[s.GPU] = rng.IntN(2) == 0
			a.High[s.GPU] = rng.IntN(2) == 0
		}
	}
	return a
}

// dmConfig is the built-in WATERS configuration with deadline-monotonic
// priorities (an order that does not depend on execution times, so that the
// monotonicity properties hold task by task) and a fixed kernel geometry
// (with the default geometry, a longer kernel can get more, shorter blocks).
func dmConfig(t *testing.T) *configs.Config {
	t.Helper()
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Analysis.Priorities = configs.PrioritiesDM
	for _, g := range []string{"SFM", "Localization", "Lane_detection", "Detection"} {
		cfg.Analysis.Kernels = append(cfg.Analysis.Kernels, configs.KernelGeometry{Task: g, Blocks: 160, ThreadsPerBlock: 256})
	}
	return cfg
}

// noLower checks that no time of a task got smaller from before to after:
// C (unless it holds a GPU response that is no bound: where the GPU analysis
// stops past a period its value is not monotone), and R wherever the later
// result is a bound (then the earlier is one too).
func noLower(t *testing.T, what string, before, after *evaluate.Analysis) {
	t.Helper()
	for i := range before.Tasks {
		b, a := &before.Tasks[i], &after.Tasks[i]
		if b.Role == evaluate.NotRunning {
			continue
		}
		if a.C < b.C && (after.GPUSound || a.GPUWait == 0 && b.GPUWait == 0) {
			t.Errorf("%s: %s's C fell from %d to %d (GPU sound %v → %v; GPU wait %d → %d)", what, b.Name, b.C, a.C, before.GPUSound, after.GPUSound, b.GPUWait, a.GPUWait)
		}
		if a.Verdict.Bounded() {
			if !b.Verdict.Bounded() {
				t.Errorf("%s: %s became bounded (%v → %v)", what, b.Name, b.Verdict, a.Verdict)
			} else if a.R < b.R {
				t.Errorf("%s: %s's R fell from %d to %d", what, b.Name, b.R, a.R)
			}
		}
	}
}

// Every bound is at least the task's execution (under the challenge count
// C, under the refined counts, which charge contention by window, C
// without the contention of other units) plus its suspension, and at least
// its best case; C is the sum of its terms.
func TestPropertyResponseAtLeastExecution(t *testing.T) {
	for _, count := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined, configs.ContentionRequest} {
		testResponseAtLeastExecution(t, count)
	}
}

func testResponseAtLeastExecution(t *testing.T, count configs.ContentionCount) {
	for _, policy := range []configs.PriorityAssignment{configs.PrioritiesOPA, configs.PrioritiesDM} {
		for _, model := range []configs.GPUModel{configs.GPUModelFIFO, configs.GPUModelTimeSlice} {
			cfg, _ := configs.Default()
			cfg.Analysis.Priorities, cfg.Analysis.GPUModel, cfg.Analysis.Contention = policy, model, count
			e := evaluator(t, cfg)
			rng := rand.New(rand.NewPCG(1, 2))
			r := e.NewAnalysis()
			for n := 0; n < 300; n++ {
				a := randomAssignment(e, rng)
				if err := e.Evaluate(a, r); err != nil {
					t.Fatal(err)
				}
				for i := range r.Tasks {
					tr := &r.Tasks[i]
					if tr.Role == evaluate.NotRunning {
						continue
					}
					least := tr.C
					if count != configs.ContentionChallenge && tr.Role != evaluate.OnGPU {
						least = tr.Compute + tr.Memory + tr.GPUWait
					}
					if tr.R < least+tr.Suspension || tr.BCRT > tr.R || tr.C != tr.Compute+tr.Memory+tr.Contention+tr.GPUWait && tr.Role != evaluate.OnGPU {
						t.Fatalf("%s, %s/%s: %s: R %d, C %d, S %d, BCRT %d, terms %d+%d+%d+%d", count, policy, model, tr.Name, tr.R, tr.C, tr.Suspension, tr.BCRT,
							tr.Compute, tr.Memory, tr.Contention, tr.GPUWait)
					}
				}
				if r.Schedulable != (r.Misses == 0) {
					t.Fatalf("schedulable %v with %d misses", r.Schedulable, r.Misses)
				}
			}
		}
	}
}

func TestPropertyMoreInterferenceNeverLowersATime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	evals := make([]*evaluate.Evaluator, 6)
	for c := range evals {
		cfg := dmConfig(t)
		k := c
		cfg.Analysis.InterferingCores = &k
		evals[c] = evaluator(t, cfg)
	}
	for n := 0; n < 200; n++ {
		a := randomAssignment(evals[0], rng)
		var prev *evaluate.Analysis
		for c, e := range evals {
			r := e.NewAnalysis()
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			if prev != nil {
				noLower(t, "#C "+string(rune('0'+c-1))+" → "+string(rune('0'+c)), prev, r)
			}
			prev = r
		}
	}
	// bGPU 0 → 1.
	off, on := false, true
	c0, c1 := dmConfig(t), dmConfig(t)
	c0.Analysis.CopyEngineActive, c1.Analysis.CopyEngineActive = &off, &on
	e0, e1 := evaluator(t, c0), evaluator(t, c1)
	for n := 0; n < 200; n++ {
		a := randomAssignment(e0, rng)
		r0, r1 := e0.NewAnalysis(), e1.NewAnalysis()
		if err := e0.Evaluate(a, r0); err != nil {
			t.Fatal(err)
		}
		if err := e1.Evaluate(a, r1); err != nil {
			t.Fatal(err)
		}
		noLower(t, "bGPU 0 → 1", r0, r1)
	}
}

func TestPropertyLongerExecutionNeverLowersAResponse(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	base := evaluator(t, dmConfig(t))
	nRun := len(base.Model().Config().System.Runnables)
	raises := 150
	if testsize.Reduced() {
		raises = 50
	}
	for n := 0; n < raises; n++ {
		// Raise the upper ticks of one runnable on every kind by 1–50 %.
		cfg := dmConfig(t)
		k := rng.IntN(nRun)
		run := &cfg.System.Runnables[k]
		if len(run.Ticks) == 0 {
			continue
		}
		ticks := append([]configs.Ticks(nil), run.Ticks...)
		for j := range ticks {
			ticks[j].Upper += ticks[j].Upper * int64(1+rng.IntN(50)) / 100
		}
		run.Ticks = ticks
		raised := evaluator(t, cfg)
		for m := 0; m < 10; m++ {
			a := randomAssignment(base, rng)
			r0, r1 := base.NewAnalysis(), raised.NewAnalysis()
			if err := base.Evaluate(a, r0); err != nil {
				t.Fatal(err)
			}
			if err := raised.Evaluate(a, r1); err != nil {
				t.Fatal(err)
			}
			noLower(t, "raising "+run.Name, r0, r1)
		}
	}
}

// Adding a lowest-priority task that does not access memory (OS_Overhead,
// D = 100 ms, below every task of deadline ≤ 66 ms under deadline-monotonic
// order) changes no other task.
func TestPropertyLowestPriorityTaskChangesNoOther(t *testing.T) {
	e := evaluator(t, dmConfig(t))
	rng := rand.New(rand.NewPCG(7, 8))
	specs := e.Model().Tasks()
	os := -1
	for i, s := range specs {
		if s.Name == "OS_Overhead" {
			os = i
		}
	}
	tested := 0
	for n := 0; n < 200; n++ {
		a := randomAssignment(e, rng)
		// Put OS_Overhead on a core where every other task has D < 100 ms,
		// then on a core of its own, if there are such cores.
		host, alone := -1, -1
		for _, u := range specs[os].Units {
			ok, empty := true, true
			for i := range a.Unit {
				if i == os || a.Unit[i] != u {
					continue
				}
				empty = false
				if specs[i].Deadline >= specs[os].Deadline {
					ok = false
				}
			}
			switch {
			case empty && alone < 0:
				alone = u
			case !empty && ok && host < 0:
				host = u
			}
		}
		if host < 0 || alone < 0 {
			continue
		}
		a.Unit[os] = alone
		r0 := e.NewAnalysis()
		if err := e.Evaluate(a, r0); err != nil {
			t.Fatal(err)
		}
		a.Unit[os] = host
		r1 := e.NewAnalysis()
		if err := e.Evaluate(a, r1); err != nil {
			t.Fatal(err)
		}
		for i := range r0.Tasks {
			if i != os && (r0.Tasks[i].R != r1.Tasks[i].R || r0.Tasks[i].C != r1.Tasks[i].C) {
				t.Fatalf("adding OS_Overhead to %s changed %s: R %d → %d", r1.Units[host].Name, r0.Tasks[i].Name, r0.Tasks[i].R, r1.Tasks[i].R)
			}
		}
		if r1.Tasks[os].Rank != r1.Units[host].Tasks-1 && r1.Tasks[os].R != rta.Infinity {
			t.Fatalf("OS_Overhead is not the lowest priority on %s", r1.Units[host].Name)
		}
		tested++
	}
	if tested < 20 {
		t.Errorf("only %d random mappings had a core for the test", tested)
	}
}
