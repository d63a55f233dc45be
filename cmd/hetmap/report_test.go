package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// optimize writes report.html into the run folder; `hetmap report DIR`
// writes the same file again from the folder's files alone.
func TestReportCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	if _, errOut, code := hetmap(t, "optimize", "--config", "../../configs/examples/waters-3obj.yaml", "--algorithm", "exhaustive", "--out", out); code != 0 {
		t.Fatalf("optimize: exit %d: %s", code, errOut)
	}
	report := filepath.Join(out, "report.html")
	first, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("optimize wrote no report: %v", err)
	}
	if err := os.Remove(report); err != nil {
		t.Fatal(err)
	}
	stdout, errOut, code := hetmap(t, "report", out)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, "wrote "+report) {
		t.Errorf("output: %q", stdout)
	}
	again, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(first) {
		t.Error("hetmap report wrote a different report than optimize")
	}
	for _, want := range []string{"<h2>Pareto front</h2>", `id="point-5"`, `<a href="mappings/point-14.yaml">14</a>`, "<h2>Run</h2>"} {
		if !strings.Contains(string(again), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(string(again), `id="point-6"`) {
		t.Error("the report details more than the first 5 points")
	}
	// Any other point's details: its own page.
	stdout, errOut, code = hetmap(t, "report", out, "--point", "14")
	page := filepath.Join(out, "points", "point-14.html")
	if code != 0 || !strings.Contains(stdout, "wrote "+page) {
		t.Fatalf("report --point 14: exit %d, %q, %s", code, stdout, errOut)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<details id="point-14" class="point" open>`, "<h3>Timeline</h3>", `href="../report.html#point-14"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("points/point-14.html lacks %q", want)
		}
	}
	if _, errOut, code := hetmap(t, "report", out, "--point", "99"); code != exitInput || !strings.Contains(errOut, "has no front point 99 (there are ") {
		t.Errorf("report --point 99: exit %d, %s", code, errOut)
	}
}

// A bad folder is bad input: exit 2, a message that says why, and no
// report file.
func TestReportCommandErrors(t *testing.T) {
	tmp := t.TempDir()
	notRun := filepath.Join(tmp, "not-a-run")
	if err := os.Mkdir(notRun, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notRun, "config.yaml"), []byte("model: builtin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"report"}, "accepts 1 arg(s)"},
		{[]string{"report", filepath.Join(tmp, "missing")}, "no such folder"},
		{[]string{"report", notRun}, "not an optimize run folder: manifest.json is missing"},
	} {
		_, errOut, code := hetmap(t, c.args...)
		if code != exitInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errOut, exitInput, c.want)
		}
	}
	entries, _ := os.ReadDir(notRun)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files after a failed report, want only config.yaml", len(entries))
	}
}
