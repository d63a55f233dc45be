package results

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// The analysis, as text and JSON, shows every task's window contention
// under the challenge and refined counts (and the request count under it),
// per interferer with the binding term; every output of a request number
// names the assumption it rests on, and no other does.
func TestAnalysisShowsTheContentionCounts(t *testing.T) {
	m := synth.FeasibleWATERS()
	for _, count := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined, configs.ContentionRequest} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		e, err := evaluate.NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a, err := e.FromMapping(m)
		if err != nil {
			t.Fatal(err)
		}
		r := e.NewAnalysis()
		if err := e.Evaluate(a, r); err != nil {
			t.Fatal(err)
		}
		e.AnalyzeChains(r)
		if err := e.AnalyzeContention(r); err != nil {
			t.Fatal(err)
		}
		text, got := writeAnalysisBoth(t, cfg, r)
		request := count == configs.ContentionRequest
		names := strings.Contains(text, configs.RequestAssumption)
		if got.Contention.Count != count || (got.Contention.RequestAssumption != "") != request || names != request {
			t.Errorf("%s: count %q, assumption %q in the JSON, named in the text %v", count, got.Contention.Count, got.Contention.RequestAssumption, names)
		}
		windows := 0
		for _, tk := range got.Tasks {
			w := tk.Window
			if tk.Role == evaluate.OnGPU.String() {
				if w != nil {
					t.Errorf("%s: GPU task %s has a window", count, tk.Name)
				}
				continue
			}
			if w == nil {
				t.Errorf("%s: %s has no window contention", count, tk.Name)
				continue
			}
			windows++
			if (w.RequestNs != nil) != request || w.RefinedNs > w.ChallengeNs || len(w.Interferers) != 6 {
				t.Errorf("%s: %s: %+v", count, tk.Name, w)
			}
			for _, io := range w.Interferers {
				want := map[string]bool{"lines": true, "time": true, "none": true, "requests": request}
				if !want[io.Binds] || io.Overlap > io.Lines {
					t.Errorf("%s: %s, %s: overlap %d by %q", count, tk.Name, io.Unit, io.Overlap, io.Binds)
				}
			}
			if !strings.Contains(text, "  "+tk.Name+"  ") {
				t.Errorf("%s: the text has no row for %s", count, tk.Name)
			}
		}
		if windows != 10 || !strings.Contains(text, "contention in the response windows:") {
			t.Errorf("%s: %d windows in the JSON", count, windows)
		}
	}
}

// A response time is shown only where it is a bound: formatR (analyze's
// tables) writes "no bound" for every verdict without one, whatever value
// the analysis stopped at (results/report's TestNoNumberWithoutBound:
// the report's, from the JSON).
func TestNoNumberWithoutBound(t *testing.T) {
	const ms = int64(1_000_000_000) // ps
	for _, c := range []struct {
		verdict evaluate.Verdict
		r       int64
		want    string
	}{
		{evaluate.Meets, 9 * ms, "9 ms"},
		{evaluate.Misses, 17 * ms, "17 ms"}, // a bound above D: shown
		{evaluate.NoBound, 64*ms + 400*ms/1000, "no bound"},
		{evaluate.Overloaded, rta.Infinity, "no bound"},
		{evaluate.InterfererNoBound, 64*ms + 400*ms/1000, "no bound"},
		{evaluate.GPUNoBound, 422 * ms, "no bound"},
		{evaluate.ActivatorNoBound, 5 * ms, "no bound"},
	} {
		tr := evaluate.TaskResult{Verdict: c.verdict, R: c.r}
		if got := formatR(&tr); got != c.want {
			t.Errorf("formatR(%v, %d ps) = %q, want %q", c.verdict, c.r, got, c.want)
		}
	}
}

// TestWaitWithoutBoundIsNoNumber is issue 31's loose end: an offloading
// task waiting for a GPU response without a bound shows no number for that
// wait (nor, waiting actively, for its C) in the JSON (null) and the text
// ("no bound"), as every other place says "no bound": the built-in model's
// own mapping, whose GPU responses pass their periods.
func TestWaitWithoutBoundIsNoNumber(t *testing.T) {
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := cfg.System.OwnMapping()
	a, err := e.FromMapping(&m)
	if err != nil {
		t.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	j := NewAnalysisJSON(cfg, "default", r)
	seen := 0
	for _, tj := range j.Tasks {
		tr := r.Task(tj.Name)
		k := -1
		for i := range r.Tasks {
			if &r.Tasks[i] == tr {
				k = i
			}
		}
		switch {
		case tr.Role == evaluate.OffloadSync && !r.WaitBounded(k):
			seen++
			if tj.GPUWaitNs != nil || tj.WCETNs != nil {
				t.Errorf("%s: GPU wait %v, C %v; want null", tj.Name, tj.GPUWaitNs, tj.WCETNs)
			}
		case tr.Role == evaluate.OffloadAsync && !r.WaitBounded(k):
			seen++
			if tj.SuspensionNs != nil || tj.WCETNs == nil {
				t.Errorf("%s: suspension %v, C %v; want null, a number", tj.Name, tj.SuspensionNs, tj.WCETNs)
			}
		case tj.GPUWaitNs == nil || tj.SuspensionNs == nil || tj.WCETNs == nil:
			t.Errorf("%s: a null term, though it waits for no GPU response without a bound", tj.Name)
		}
	}
	if seen < 2 {
		t.Fatalf("%d offloading tasks wait for a GPU response without a bound", seen)
	}
	var text bytes.Buffer
	if err := WriteAnalysisText(&text, cfg, "default", r); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(text.String(), "\n") {
		if strings.Contains(line, "(sync → SFM)") && strings.Count(line, "no bound") < 3 {
			t.Errorf("C, its GPU wait and R of PRE_SFM_gpu_POST are no bound: %q", line)
		}
	}
}

// writeAnalysisBoth writes r as analyze's text and as its JSON (read back),
// as the feasible WATERS mapping's analysis.
func writeAnalysisBoth(t *testing.T, cfg *configs.Config, r *evaluate.Analysis) (string, AnalysisJSON) {
	t.Helper()
	var text, js bytes.Buffer
	if err := WriteAnalysisText(&text, cfg, "feasible", r); err != nil {
		t.Fatal(err)
	}
	if err := WriteAnalysisJSON(&js, cfg, "feasible", r); err != nil {
		t.Fatal(err)
	}
	var got AnalysisJSON
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	return text.String(), got
}
