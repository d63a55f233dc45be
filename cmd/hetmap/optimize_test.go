package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/internal/golden"
)

type frontFile struct {
	Feasible bool `json:"feasible"`
	Proof    struct {
		Exactness string `json:"exactness"`
		Statement string `json:"statement"`
	} `json:"proof"`
	Objectives []string `json:"objectives"`
	Points     []struct {
		ID             int       `json:"id"`
		Objectives     []float64 `json:"objectives_ms"`
		MappingFile    string    `json:"mapping_file"`
		EvaluationFile string    `json:"evaluation_file"`
		Verdict        struct {
			Schedulable bool `json:"schedulable"`
		} `json:"verdict"`
	} `json:"points"`
	LeastViolating []struct {
		MappingFile string  `json:"mapping_file"`
		ViolationMs float64 `json:"violation_ms"`
	} `json:"least_violating"`
}

type analysis struct {
	Schedulable bool `json:"schedulable"`
	Tasks       []struct {
		Name           string `json:"name"`
		Unit           string `json:"unit"`
		ResponseTimeNs *int64 `json:"response_time_ns"`
	} `json:"tasks"`
	Chains []struct {
		Name        string `json:"name"`
		ObjectiveNs *int64 `json:"objective_ns"`
	} `json:"chains"`
}

func readFront(t *testing.T, dir string) frontFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f frontFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestOptimizeDefault runs the main job on the built-in model and checks
// that every front point, analysed again from its mapping file by `hetmap
// analyze`, gives the numbers front.json and its evaluation file (the
// first points) report.
func TestOptimizeDefault(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	stdout, errOut, code := hetmap(t, "optimize", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The default algorithm is auto, which chooses the exhaustive search on
	// the built-in model (a few thousand nodes) and says so.
	if !strings.Contains(stdout, "Search: auto: the exhaustive search, estimated at ") || !strings.Contains(stdout, "Pareto front:") || !strings.Contains(stdout, "Files in "+out+": report.html, front.csv, front.json, manifest.json, config.yaml, mappings/") {
		t.Errorf("output:\n%s", stdout)
	}
	for _, f := range []string{"front.csv", "front.json", "manifest.json", "config.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	front := readFront(t, out)
	if !front.Feasible || len(front.Points) == 0 || len(front.Objectives) != 8 {
		t.Fatalf("front: feasible %v, %d points, %d objectives", front.Feasible, len(front.Points), len(front.Objectives))
	}
	for _, p := range front.Points {
		js, errOut, code := hetmap(t, "analyze", "--config", filepath.Join(out, "config.yaml"), "--mapping", filepath.Join(out, p.MappingFile), "--json")
		if code != 0 {
			t.Fatalf("point %d: analyze exit %d: %s", p.ID, code, errOut)
		}
		var again analysis
		if err := json.Unmarshal([]byte(js), &again); err != nil {
			t.Fatal(err)
		}
		if !p.Verdict.Schedulable || !again.Schedulable {
			t.Errorf("point %d: schedulable %v in front.json, %v by analyze", p.ID, p.Verdict.Schedulable, again.Schedulable)
		}
		if (p.EvaluationFile != "") != (p.ID <= 5) {
			t.Errorf("point %d: evaluation file %q; the first 5 points have one", p.ID, p.EvaluationFile)
		}
		if p.EvaluationFile != "" {
			var rec analysis
			data, err := os.ReadFile(filepath.Join(out, p.EvaluationFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &rec); err != nil {
				t.Fatal(err)
			}
			a, b := mustJSON(t, rec.Tasks), mustJSON(t, again.Tasks)
			if a != b || mustJSON(t, rec.Chains) != mustJSON(t, again.Chains) {
				t.Errorf("point %d: analyze gives other numbers:\n%s: %s\nanalyze: %s", p.ID, p.EvaluationFile, a, b)
			}
		}
		// The objectives are the chains' latencies in ms.
		for k, c := range again.Chains {
			if float64(*c.ObjectiveNs)/1e6 != roundNs(p.Objectives[k]) {
				t.Errorf("point %d, %s: objective %v ms, analyze %d ns", p.ID, c.Name, p.Objectives[k], *c.ObjectiveNs)
			}
		}
	}
	var manifest struct {
		Seed        int64  `json:"seed"`
		Evaluations int    `json:"evaluations"`
		Sum         string `json:"config_sha256"`
		Algorithm   string `json:"algorithm"`
	}
	data, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err := json.Unmarshal(data, &manifest); err != nil || manifest.Seed != 1 || manifest.Evaluations == 0 || len(manifest.Sum) != 64 || manifest.Algorithm != "exhaustive" {
		t.Errorf("manifest %+v (%v)", manifest, err)
	}
	// The folder exists now: a second run into it is refused, leaving it alone.
	_, errOut, code = hetmap(t, "optimize", "--out", out, "--algorithm", "exhaustive")
	if code != 2 || !strings.Contains(errOut, "exists already") {
		t.Errorf("second run into the same folder: exit %d, %s", code, errOut)
	}
}

// roundNs rounds a latency in ms up to whole nanoseconds, as JSON reports them.
func roundNs(ms float64) float64 {
	ps := int64(ms*1e9 + 0.5)
	ns := (ps + 999) / 1000
	return float64(ns) / 1e6
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var wallTime = regexp.MustCompile(`evaluations( \([^)]*\))? in [^;]+;([^\n]*)\.\nFiles in .*`)

// TestOptimizeExhaustiveGolden: the exact front of the 3-objective example,
// every point with --all (as optimize printed it before its output was
// bounded), and by default within 80 lines: the summary, the 15 rows of
// each table, the first mappings and where the others are.
func TestOptimizeExhaustiveGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{{"optimize_exhaustive_3obj.txt", []string{"--all"}}, {"optimize_exhaustive_3obj_default.txt", nil}} {
		out := filepath.Join(t.TempDir(), "run")
		stdout, errOut, code := hetmap(t, append([]string{"optimize", "--config", "../../configs/examples/waters-3obj.yaml", "--algorithm", "exhaustive", "--out", out}, tc.args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		golden.Check(t, tc.golden, wallTime.ReplaceAllString(stdout, "evaluations$1 in (time);$2.\nFiles in (folder)"))
		if n := strings.Count(stdout, "\n"); tc.args == nil && n > consoleLines {
			t.Errorf("%d lines by default, more than %d", n, consoleLines)
		}
		front := readFront(t, out)
		if front.Proof.Exactness != "exact" || len(front.Points) != 28 {
			t.Errorf("exact %v, %d points, want 28", front.Proof.Exactness, len(front.Points))
		}
	}
}

// TestOptimizeInfeasible: with the model's own requirements, Planner's 12 ms
// cannot be met (12.44 ms of compute on a Denver core, 13.24 ms on an A57):
// the exhaustive search proves that no mapping is feasible, exit code 1,
// with the least-violating mappings and what they miss.
func TestOptimizeInfeasible(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "strict.yaml")
	os.WriteFile(cfg, []byte("model: builtin\nconventions: {deadlines: model}\n"), 0o644)
	out := filepath.Join(dir, "run")
	stdout, errOut, code := hetmap(t, "optimize", "--config", cfg, "--algorithm", "exhaustive", "--out", out)
	if code != 1 || !strings.Contains(errOut, "no feasible mapping") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(stdout, "the exhaustive search proves that no mapping meets every deadline") || !strings.Contains(stdout, "misses: ") || !strings.Contains(stdout, "Planner") {
		t.Errorf("output:\n%s", stdout)
	}
	front := readFront(t, out)
	if front.Feasible || len(front.Points) != 0 || len(front.LeastViolating) == 0 {
		t.Errorf("front: feasible %v, %d points, %d least violating", front.Feasible, len(front.Points), len(front.LeastViolating))
	}
}
