package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/internal/golden"
)

// optimizeInto runs optimize with the configuration text into dir/name and
// returns the run folder.
func optimizeInto(t *testing.T, dir, name, config string) string {
	t.Helper()
	cfg := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	if _, errOut, code := hetmap(t, "optimize", "--config", cfg, "--out", out); code != 0 {
		t.Fatalf("optimize %s: exit %d: %s", name, code, errOut)
	}
	return out
}

// TestCompareContentionCounts is issue 18's comparison: the default run
// (refined count, an exact front of 22 points) against one under the
// challenge count (10 points): what differs (the count), which points
// dominate (every point of B is dominated by one of A: the refined count's
// response times are never above the challenge's for the same priority
// order, and the latencies bounded for any offsets grow with them), and
// the best values, with the lower bounds on the minima, and margins side
// by side.
func TestCompareContentionCounts(t *testing.T) {
	dir := t.TempDir()
	a := optimizeInto(t, dir, "refined", "model: builtin\n")
	b := optimizeInto(t, dir, "challenge", "model: builtin\nanalysis: {contention: challenge}\n")
	page := filepath.Join(dir, "compare.html")
	out, errOut, code := hetmap(t, "compare", a, b, "--html", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, "compare_counts.txt", strings.ReplaceAll(out, dir+string(filepath.Separator), ""))
	for _, want := range []string{
		"analysis.contention: refined (A), challenge (B)",
		"A2     ×1.019  B1",
		"0 of B's 10 one of A; 0 of A's and 10 of B's points",
		"D-P-DA reaction-time  ",
		"CA-EK-P-DA reaction-time                              69.202 ms (min 15.380 ms)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the comparison lacks %q", want)
		}
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h2>Which points dominate which</h2>", "<svg", "analysis.contention: refined (A), challenge (B)"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("compare.html lacks %q", want)
		}
	}
}

// TestCompareDominance: the default run against one whose tasks execute
// 1 % longer (analysis.execution_scale 1.01): the points of the default
// front with a margin of ×1.019 stay feasible with longer latencies, those
// with ×1.000 and ×1.005 do not; every point of B is dominated by a point
// of A, none of B's dominates, and B's margins are about ×1.019 / 1.01.
func TestCompareDominance(t *testing.T) {
	dir := t.TempDir()
	a := optimizeInto(t, dir, "refined", "model: builtin\n")
	b := optimizeInto(t, dir, "longer", "model: builtin\nanalysis: {execution_scale: 1.01}\n")
	out, errOut, code := hetmap(t, "compare", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"analysis.execution_scale: 1 (A), 1.01 (B)", "A2     ×1.019  B1", "A1     ×1.000  –", "B1     ×1.009  –",
		"18 of A's 22 point(s) dominate a point of B, 0 of B's 18 one of A; 0 of A's and 18 of B's points"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}

// TestCompareMappingAndOtherSystems: a run folder against one mapping of a
// configuration (its own point 1: the same values), and against a run of
// another system, which compares on what the two share and says what
// differs.
func TestCompareMappingAndOtherSystems(t *testing.T) {
	dir := t.TempDir()
	a := optimizeInto(t, dir, "refined", "model: builtin\n")
	// A run folder against one mapping: point 1 of the front itself.
	out, errOut, code := hetmap(t, "compare", a, "--mapping", filepath.Join(a, "mappings", "point-1.yaml"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"one mapping", "A1 and B1 have the same objective values", "The two configurations are the same"} {
		if !strings.Contains(out, want) {
			t.Errorf("run against its own point 1: lacks %q:\n%s", want, out)
		}
	}
	// Two systems: the built-in model against a small one of its own.
	small := optimizeInto(t, dir, "small", handSystem)
	out, errOut, code = hetmap(t, "compare", a, small)
	if code != 0 {
		t.Fatalf("different systems: exit %d: %s", code, errOut)
	}
	for _, want := range []string{`system: "WATERS 2019 (Jetson TX2)" (A), "hand" (B)`, "task Planner only in A", "unit A0 (A57) only in B",
		"The sides minimise no objective in common", "Objectives of one side only"} {
		if !strings.Contains(out, want) {
			t.Errorf("different systems: lacks %q:\n%s", want, out)
		}
	}
}

// handSystem is a small system of its own (two A57 cores, two tasks).
const handSystem = `name: hand
units:
  - {name: A0, kind: A57, type: cpu, frequency: 1GHz, read_latency_cycles: 40, write_latency_cycles: 40}
  - {name: A1, kind: A57, type: cpu, frequency: 1GHz, read_latency_cycles: 40, write_latency_cycles: 40}
memory:
  line_size: 64
  cores:
    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
runnables:
  - {name: r1, ticks: [{kind: A57, lower: 2000000, upper: 2000000}]}
  - {name: r2, ticks: [{kind: A57, lower: 3000000, upper: 3000000}]}
tasks:
  - {name: T1, period: 10ms, runnables: [r1]}
  - {name: T2, period: 20ms, runnables: [r2]}
search:
  objectives: [{kind: cores-used}, {kind: margin}]
`

// TestCompareNotARun: a folder that optimize did not write is bad input
// (exit 2), named.
func TestCompareNotARun(t *testing.T) {
	dir := t.TempDir()
	_, errOut, code := hetmap(t, "compare", dir, dir)
	if code != 2 || !strings.Contains(errOut, "is not an optimize run folder: manifest.json is missing") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	_, errOut, code = hetmap(t, "compare", filepath.Join(dir, "nowhere"), "--mapping", "default")
	if code != 2 || !strings.Contains(errOut, "no such folder") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestCompareWritesOnlyWhenAsked: compare prints the comparison and writes
// nothing, in the working directory or elsewhere, unless --html names a
// page (it wrote compare.html into the working directory before); --html
// and the old --no-html together are refused.
func TestCompareWritesOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	a := optimizeInto(t, dir, "refined", "model: builtin\n")
	wd := t.TempDir()
	cmd := hetmapCommand(t, wd, "compare", a, a)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "A1 and B1 have the same objective values") {
		t.Fatalf("compare: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Errorf("compare wrote %s into the working directory", entries[0].Name())
	}
	if _, errOut, code := hetmap(t, "compare", a, a, "--no-html", "--html", filepath.Join(wd, "c.html")); code != exitInput ||
		!strings.Contains(errOut, "--html and --no-html: give --html FILE for a page, or neither") {
		t.Errorf("--html with --no-html: exit %d, %s", code, errOut)
	}
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Errorf("a refused compare wrote %s", entries[0].Name())
	}
}
