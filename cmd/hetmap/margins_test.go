package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMarginRecheckedByHand is issue 18's check as a reviewer does it:
// analyze --json reports margins.execution_scale for the first point of
// the default front with a margin above ×1 (front.json's margin; a point
// can also hold just at its demand, ×1.000), the configuration
// analysis.execution_scale at that factor gives schedulable: true, and
// 2 % more gives false.
func TestMarginRecheckedByHand(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if _, errOut, code := hetmap(t, "optimize", "--out", run); code != 0 {
		t.Fatalf("optimize: exit %d: %s", code, errOut)
	}
	var front struct {
		Points []struct {
			MappingFile string `json:"mapping_file"`
			Margin      *struct {
				ExecutionScale float64 `json:"execution_scale"`
			} `json:"margin"`
		} `json:"points"`
	}
	data, err := os.ReadFile(filepath.Join(run, "front.json"))
	if err != nil || json.Unmarshal(data, &front) != nil {
		t.Fatalf("front.json: %v", err)
	}
	point := ""
	for _, p := range front.Points {
		if p.Margin != nil && p.Margin.ExecutionScale > 1 {
			point = filepath.Join(run, p.MappingFile)
			break
		}
	}
	if point == "" {
		t.Fatal("no point of the default front has a margin above ×1")
	}
	out, errOut, code := hetmap(t, "analyze", "--mapping", point, "--json")
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	var a struct {
		Schedulable bool `json:"schedulable"`
		Margins     *struct {
			ExecutionScale *float64 `json:"execution_scale"`
			Status         string   `json:"status"`
			Binding        string   `json:"binding"`
			Kinds          []struct {
				Kind           string   `json:"kind"`
				ExecutionScale *float64 `json:"execution_scale"`
			} `json:"kinds"`
			Tasks []struct {
				Task    string `json:"task"`
				SlackNs *int64 `json:"slack_ns"`
			} `json:"tasks"`
		} `json:"margins"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Margins == nil || a.Margins.ExecutionScale == nil || a.Margins.Status != "found" || len(a.Margins.Kinds) != 3 || len(a.Margins.Tasks) == 0 {
		t.Fatalf("margins %+v", a.Margins)
	}
	scale := *a.Margins.ExecutionScale
	if scale <= 1 || !strings.Contains(a.Margins.Binding, "misses its deadline") {
		t.Errorf("execution scale %v, binding %q: a feasible point has a margin above 1 and something that binds", scale, a.Margins.Binding)
	}
	for _, c := range []struct {
		factor float64
		want   bool
	}{{scale, true}, {scale * 1.02, false}} {
		cfg := filepath.Join(dir, fmt.Sprintf("scale-%v.yaml", c.factor))
		if err := os.WriteFile(cfg, []byte(fmt.Sprintf("model: builtin\nanalysis: {execution_scale: %v}\n", c.factor)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := hetmap(t, "analyze", "--config", cfg, "--mapping", point, "--json")
		var b struct {
			Schedulable bool `json:"schedulable"`
		}
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatalf("execution_scale %v: %v (exit %d, %s)", c.factor, err, code, errOut)
		}
		if b.Schedulable != c.want || (code == 0) != c.want {
			t.Errorf("execution_scale %v: schedulable %v, exit %d; want %v", c.factor, b.Schedulable, code, c.want)
		}
	}
}

// TestAnalyzeMarginsFlag: --margins all gives the execution scale, the
// kinds and every task; kinds the first two; none no margins at all; any
// other word is a usage error in one line (exit 2), with nothing written.
func TestAnalyzeMarginsFlag(t *testing.T) {
	type out struct {
		Margins *struct {
			Kinds []json.RawMessage `json:"kinds"`
			Tasks []json.RawMessage `json:"tasks"`
		} `json:"margins"`
	}
	for _, c := range []struct {
		flag         string
		margins      bool
		kinds, tasks bool
	}{{"all", true, true, true}, {"kinds", true, true, false}, {"none", false, false, false}} {
		stdout, errOut, code := hetmap(t, "analyze", "--mapping", "testdata/waters_feasible.yaml", "--json", "--margins", c.flag)
		if code != 0 {
			t.Fatalf("--margins %s: exit %d: %s", c.flag, code, errOut)
		}
		var o out
		if err := json.Unmarshal([]byte(stdout), &o); err != nil {
			t.Fatal(err)
		}
		if (o.Margins != nil) != c.margins || (o.Margins != nil && ((len(o.Margins.Kinds) > 0) != c.kinds || (len(o.Margins.Tasks) > 0) != c.tasks)) {
			t.Errorf("--margins %s: %+v", c.flag, o.Margins)
		}
	}
	stdout, errOut, code := hetmap(t, "analyze", "--mapping", "testdata/waters_feasible.yaml", "--margins", "some")
	if code != 2 || stdout != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, `--margins: "some" is not all, kinds or none`) {
		t.Errorf("--margins some: exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
}

// TestPointJSONMarginsAsAnalyze is issue 29's item: mappings/point-N.json,
// which the README calls the full evaluation as analyze --json writes it,
// carries the same margins as analyze --json of that point's mapping: the
// execution scale, per kind of unit and per task, with what binds.
func TestPointJSONMarginsAsAnalyze(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if _, errOut, code := hetmap(t, "optimize", "--out", run); code != 0 {
		t.Fatalf("optimize: exit %d: %s", code, errOut)
	}
	type margins struct {
		Margins json.RawMessage `json:"margins"`
	}
	raw, err := os.ReadFile(filepath.Join(run, "mappings", "point-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var written margins
	if err := json.Unmarshal(raw, &written); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := hetmap(t, "analyze", "--mapping", filepath.Join(run, "mappings", "point-1.yaml"), "--json")
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	var analysed margins
	if err := json.Unmarshal([]byte(out), &analysed); err != nil {
		t.Fatal(err)
	}
	var m struct {
		Kinds []json.RawMessage `json:"kinds"`
		Tasks []json.RawMessage `json:"tasks"`
	}
	if err := json.Unmarshal(written.Margins, &m); err != nil || len(m.Kinds) == 0 || len(m.Tasks) == 0 {
		t.Fatalf("point-1.json's margins lack the kinds or the tasks: %s (%v)", written.Margins, err)
	}
	var a, b bytes.Buffer
	if err := json.Compact(&a, written.Margins); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&b, analysed.Margins); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("point-1.json's margins differ from analyze --json's:\n%s\n%s", a.String(), b.String())
	}
}
