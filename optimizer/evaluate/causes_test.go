package evaluate_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// defaultPoint1 returns the evaluator of the built-in model and point 1 of
// its default front (the exhaustive search under the refined count), with
// its priorities written out.
func defaultPoint1(t *testing.T) (*evaluate.Evaluator, *evaluate.Assignment, *evaluate.Analysis) {
	t.Helper()
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	e := evaluator(t, cfg)
	out, err := optimizer.Run(context.Background(), e, optimizer.Options{Workers: 1, NoMargins: true})
	if err != nil {
		t.Fatal(err)
	}
	p := out.Front[0]
	b := e.NewAssignment()
	p.Analysis.WithPriorities(p.Assignment, b)
	r := e.NewAnalysis()
	if err := e.Evaluate(b, r); err != nil {
		t.Fatal(err)
	}
	return e, b, r
}

// TestCauseOfAWithdrawal is issue 32's case: on point 1 of the default
// front, Lidar_Grabber's demand × 1.119 makes PRE_SFM_gpu_POST (below it
// on Core1) miss its 33 ms deadline; so Detection's GPU response, within
// its period, is withdrawn (its analysis assumes every offloading task
// meets its deadline); so PRE_Detection_gpu_POST has no bound; so SFM's
// response is withdrawn too, and OS_Overhead, below PRE_SFM_gpu_POST,
// has no bound. What binds Lidar's margin (×1.118) is PRE_SFM_gpu_POST,
// not OS_Overhead, which only lost its bound; no verdict says a GPU
// response passes the period.
func TestCauseOfAWithdrawal(t *testing.T) {
	e, b, r := defaultPoint1(t)
	lidar := r.Task("Lidar_Grabber")
	if lidar == nil {
		t.Fatal("no Lidar_Grabber")
	}
	li := taskIndex(t, r, "Lidar_Grabber")
	rb := e.NewAnalysis()
	if err := e.EvaluateScaled(b, "", li, 1119, rb); err != nil {
		t.Fatal(err)
	}
	pre := taskIndex(t, rb, "PRE_SFM_gpu_POST")
	if rb.Schedulable {
		t.Fatal("schedulable at ×1.119")
	}
	if c := rb.Cause(pre); c != pre {
		t.Errorf("PRE_SFM_gpu_POST's cause is %d, want itself", c)
	}
	withdrawn := 0
	for i := range rb.Tasks {
		tr := &rb.Tasks[i]
		if tr.Verdict == evaluate.Meets || tr.Role == evaluate.NotRunning {
			continue
		}
		if c := rb.Cause(i); c != pre {
			t.Errorf("%s (%s): its cause is %d, want PRE_SFM_gpu_POST", tr.Name, rb.VerdictWords(i), c)
		}
		words := rb.VerdictWords(i)
		if tr.Role == evaluate.OnGPU {
			g := &rb.GPU[tr.GPU]
			if !g.WithinPeriod || g.AssumptionMissedBy < 0 {
				t.Errorf("%s: within its period %v, withdrawn by %d", tr.Name, g.WithinPeriod, g.AssumptionMissedBy)
			}
			withdrawn++
		}
		if strings.Contains(words, "passes the period") {
			t.Errorf("%s: %q, though every GPU response is within its period", tr.Name, words)
		}
	}
	if withdrawn != 2 {
		t.Errorf("%d GPU responses withdrawn, want SFM's and Detection's", withdrawn)
	}
	if w := rb.VerdictWords(taskIndex(t, rb, "SFM")); !strings.Contains(w, "withdrawn") || !strings.Contains(w, "PRE_SFM_gpu_POST misses its deadline") {
		t.Errorf("SFM: %q", w)
	}
	then := strings.Join(rb.Consequences(pre), "; ")
	if !strings.HasPrefix(then, "so the GPU response of Detection is withdrawn; so PRE_Detection_gpu_POST has no bound; ") || !strings.Contains(then, "OS_Overhead has no bound") {
		t.Errorf("consequences of PRE_SFM_gpu_POST: %q", then)
	}

	m, err := e.Margins(b, r, evaluate.MarginOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range m.Tasks {
		if tm.Name != "Lidar_Grabber" {
			continue
		}
		if tm.PerMille != 1118 || tm.Binding != "task PRE_SFM_gpu_POST misses its deadline" || tm.BindingTask != pre {
			t.Errorf("Lidar_Grabber's margin %v, binding %q; want ×1.118, PRE_SFM_gpu_POST", tm.Margin, tm.Binding)
		}
		if alone, err := e.FailsAlone(b, r, "", li, 1119, pre); err != nil || !alone {
			t.Errorf("PRE_SFM_gpu_POST does not fail alone at ×1.119 (%v)", err)
		}
	}
}

func taskIndex(t *testing.T, r *evaluate.Analysis, name string) int {
	t.Helper()
	for i := range r.Tasks {
		if r.Tasks[i].Name == name {
			return i
		}
	}
	t.Fatalf("no task %s", name)
	return -1
}

// TestCausesOnRandomMappings is issue 32's property test, on random
// mappings of the built-in model (under the refined and the challenge
// count) and of small synthetic systems, most of them infeasible:
//   - every failing task's cause is a task whose own test fails (its
//     Because is itself);
//   - no verdict says a GPU response passes the period where the GPU
//     entry is within it;
//   - the violation is at least the sum of the periods of the tasks
//     without a bound;
//   - the task named as what binds a margin fails its own test just above
//     the margin when every other core's bounds are held at their values
//     at the margin (FailsAlone), where some task does (elsewhere the
//     cores fail only together).
func TestCausesOnRandomMappings(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 32))
	cfgs := watersBothCounts(t)
	for n := range 24 {
		count := []configs.ContentionCount{configs.ContentionRefined, configs.ContentionChallenge}[n%2]
		s := synth.Settings{Tasks: 4 + rng.IntN(6), GPUTasks: 1 + rng.IntN(3), A57: 1 + rng.IntN(2), Denver: rng.IntN(2),
			Chains: 2, ChainLength: 3, Utilisation: 0.5 + rng.Float64(), Contention: count}
		cfg, _, err := synth.Config(s, rng)
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, cfg)
	}
	infeasible, withdrawn, binds, coupled := 0, 0, 0, 0
	for n, cfg := range cfgs {
		e := evaluator(t, cfg)
		r := e.NewAnalysis()
		for range 12 {
			a := randomAssignment(e, rng)
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			if r.Undecided > 0 {
				continue
			}
			if !r.Schedulable {
				infeasible++
			}
			var periods int64
			for i := range r.Tasks {
				tr := &r.Tasks[i]
				if tr.Role == evaluate.NotRunning || tr.Verdict == evaluate.Meets {
					continue
				}
				if c := r.Cause(i); c < 0 || r.Tasks[c].Because != c {
					t.Errorf("system %d: %s (%s): cause %d is no task whose own test fails", n, tr.Name, r.VerdictWords(i), c)
				}
				if !tr.Verdict.Bounded() {
					periods += tr.T
				}
				if tr.GPU >= 0 && tr.Role != evaluate.Merged {
					g := &r.GPU[tr.GPU]
					if g.AssumptionMissedBy >= 0 {
						withdrawn++
					}
					if g.WithinPeriod && strings.Contains(r.VerdictWords(i), "passes the period") {
						t.Errorf("system %d: %s: %q, but its GPU response is within the period", n, tr.Name, r.VerdictWords(i))
					}
				}
			}
			if r.Violation < periods {
				t.Errorf("system %d: violation %d ps below the %d ps of the periods of the tasks without a bound", n, r.Violation, periods)
			}
			m, err := e.Margins(a, r, evaluate.MarginOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			check := func(what, kind string, task int, mg evaluate.Margin) {
				if mg.Status != evaluate.MarginFound || mg.BindingTask < 0 {
					return
				}
				binds++
				alone, err := e.FailsAlone(a, r, kind, task, mg.PerMille+1, mg.BindingTask)
				if err != nil {
					t.Fatal(err)
				}
				if alone {
					return
				}
				// Where no task fails on its own, the cores fail only
				// together: any of those whose own test fails binds.
				coupled++
				any, err := e.AnyFailsAlone(a, r, kind, task, mg.PerMille+1)
				if err != nil {
					t.Fatal(err)
				}
				if any {
					t.Errorf("system %d, %s: %v binds %q, which does not fail its own test just above it with the other bounds held at the margin's, though another task does", n, what, mg, mg.Binding)
				}
			}
			check("execution scale", "", -1, m.ExecutionScale)
			for _, k := range m.Kinds {
				check("kind "+k.Kind, k.Kind, -1, k.Margin)
			}
			for _, tm := range m.Tasks {
				check("task "+tm.Name, "", tm.Task, tm.Margin)
			}
		}
	}
	t.Logf("%d infeasible mappings, %d GPU responses withdrawn, %d bindings checked (%d where the cores fail only together)", infeasible, withdrawn, binds, coupled)
	if infeasible < 100 || withdrawn == 0 || binds < 100 {
		t.Errorf("too few cases: %d infeasible mappings, %d withdrawn GPU responses, %d bindings", infeasible, withdrawn, binds)
	}
}
