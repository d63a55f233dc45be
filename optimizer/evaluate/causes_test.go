package evaluate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
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
		if tm.PerMille != 1118 || tm.Binding != "task PRE_SFM_gpu_POST misses its deadline" {
			t.Errorf("Lidar_Grabber's margin %v, binding %q; want ×1.118, PRE_SFM_gpu_POST", tm.Margin, tm.Binding)
		}
		if then := strings.Join(tm.Consequences, "; "); !strings.Contains(then, "OS_Overhead") {
			t.Errorf("Lidar_Grabber's margin: consequences %q", then)
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
