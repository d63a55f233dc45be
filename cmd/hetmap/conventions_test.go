package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPriorityConventionBrakeByWire: the AmaltheaToRCM brake-by-wire model
// numbers its priorities lower first (rate-monotonic only when read that
// way). Under conventions.priorities: model-lower-first, analyze
// --mapping default orders its core rate-monotonically; under model (the
// default) the other way round; under derived by analysis.priorities
// (Audsley's OPA). model and analyze say which convention was used, and
// export under model-lower-first writes priorities that read back the
// same.
func TestPriorityConventionBrakeByWire(t *testing.T) {
	needShared(t)
	model, err := filepath.Abs(examples(t) + "rcm097_bbw_mpc5744p.amxmi")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	config := func(convention, path string) string {
		c := filepath.Join(dir, convention+".yaml")
		if err := os.WriteFile(c, []byte("model: "+path+"\nconventions: {priorities: "+convention+"}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return c
	}
	type task struct {
		Name     string `json:"name"`
		Priority *int   `json:"priority"`
		Unit     string `json:"unit"`
	}
	var periods = map[string]int{} // ms
	out, _, code := hetmap(t, "model", "--json", "--model", model)
	if code != 0 {
		t.Fatalf("model: exit %d", code)
	}
	var m struct {
		Tasks []struct {
			Name     string `json:"name"`
			PeriodNs int64  `json:"period_ns"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, tk := range m.Tasks {
		periods[tk.Name] = int(tk.PeriodNs / 1e6)
	}
	for _, c := range []struct {
		convention string
		origin     string // how the core's priorities were set
		order      int    // +1: shorter period more urgent (RM), -1: the reverse, 0: not checked
	}{
		{"model-lower-first", "mapping", +1},
		{"model", "mapping", -1},
		{"derived", "opa", 0},
	} {
		t.Run(c.convention, func(t *testing.T) {
			out, errOut, code := hetmap(t, "analyze", "--json", "--config", config(c.convention, model), "--mapping", "default")
			if code != 0 && code != 1 {
				t.Fatalf("analyze: exit %d: %s", code, errOutLines(errOut))
			}
			var a struct {
				ModelPriorities string `json:"model_priorities"`
				Tasks           []task `json:"tasks"`
				Units           []struct {
					Priorities string `json:"priorities"`
				} `json:"units"`
			}
			if err := json.Unmarshal([]byte(out), &a); err != nil {
				t.Fatal(err)
			}
			if a.ModelPriorities != c.convention || len(a.Units) != 1 || a.Units[0].Priorities != c.origin {
				t.Errorf("model_priorities %q, the core's priorities from %+v; want %s, from %s", a.ModelPriorities, a.Units, c.convention, c.origin)
			}
			for _, x := range a.Tasks {
				for _, y := range a.Tasks {
					if x.Priority == nil || y.Priority == nil || periods[x.Name] >= periods[y.Name] || c.order == 0 {
						continue
					}
					if (*x.Priority > *y.Priority) != (c.order > 0) {
						t.Errorf("%s (%d ms) has priority %d, %s (%d ms) %d", x.Name, periods[x.Name], *x.Priority, y.Name, periods[y.Name], *y.Priority)
					}
				}
			}
			text, _, _ := hetmap(t, "analyze", "--config", config(c.convention, model), "--mapping", "default")
			if want := "the model's own priorities (conventions.priorities = " + c.convention + "): "; !strings.Contains(text, want) {
				t.Errorf("analyze does not say %q", want)
			}
			text, _, _ = hetmap(t, "model", "--config", config(c.convention, model))
			if want := "conventions: deadlines = period; priorities = " + c.convention + " (the model's: "; !strings.Contains(text, want) {
				t.Errorf("model does not say %q", want)
			}
			if c.convention != "model-lower-first" {
				return
			}
			// The own mapping as a mapping file (hetmap's convention: higher
			// first), written back under model-lower-first.
			var b strings.Builder
			b.WriteString("units:\n")
			for _, x := range a.Tasks {
				fmt.Fprintf(&b, "  - {task: %s, unit: %s, priority: %d}\n", x.Name, x.Unit, *x.Priority)
			}
			mapping := filepath.Join(dir, "own.yaml")
			if err := os.WriteFile(mapping, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			written := filepath.Join(dir, "written.amxmi")
			if _, errOut, code := hetmap(t, "export", "--config", config(c.convention, model), "--mapping", mapping, "-o", written); code != 0 {
				t.Fatalf("export: exit %d: %s", code, errOutLines(errOut))
			}
			want, _ := analyzeJSON(t, "--config", config(c.convention, model), "--mapping", mapping)
			got, _ := analyzeJSON(t, "--config", config(c.convention, written), "--mapping", "default")
			sameAnalysis(t, "written under model-lower-first", want, got)
			data, err := os.ReadFile(written)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), `<schedulingParameters priority="1"/>`) {
				t.Errorf("the written model does not give the most urgent task priority 1, as the model did")
			}
		})
	}
}
