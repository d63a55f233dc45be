//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/results"
)

// quickSearch is a search for the tests of what a run does around its
// search (folders, claims, progress lines, notes): a population of 8,
// whose initial constructions take a few thousand analyses (a hundred
// members' take 75 000), and 3 generations.
const quickSearch = "model: builtin\nsearch: {algorithm: nsga2, generations: 3, population: 8}\n"

// TestOptimizeDefaultFolder: without --out a run goes to runs/<UTC time>/
// in the working directory (not into the results package of the source
// tree), created with the user's umask; it removes the temporary folder a
// killed run left in runs/, and a second run in the same second gets a
// name of its own.
func TestOptimizeDefaultFolder(t *testing.T) {
	wd := t.TempDir()
	cfg := writeConfig(t, quickSearch)
	// What a run killed with SIGKILL leaves: its claim, whose process is gone.
	stale := filepath.Join(wd, "runs", ".20260101T000000Z.tmp")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	gone := hetmapCommand(t, wd, "--version")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	owner, _ := json.Marshal(map[string]any{"host": host, "pid": gone.Process.Pid, "started_utc": "2026-01-01T00:00:00Z"})
	if err := os.WriteFile(filepath.Join(stale, ".hetmap-owner.json"), owner, 0o644); err != nil {
		t.Fatal(err)
	}
	var folders []string
	for range 2 {
		cmd := hetmapCommand(t, wd, "optimize", "--config", cfg)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		m := regexp.MustCompile(`Files in (runs/[0-9TZ-]+): `).FindSubmatch(out)
		if m == nil {
			t.Fatalf("no runs/<time> folder in the output:\n%s", out)
		}
		folders = append(folders, string(m[1]))
	}
	if folders[0] == folders[1] {
		t.Errorf("two runs wrote into %s", folders[0])
	}
	for _, f := range folders {
		st, err := os.Stat(filepath.Join(wd, f, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		dir, _ := os.Stat(filepath.Join(wd, f))
		// The test process's umask is the usual 022: 0777 &^ 022.
		if dir.Mode().Perm() != 0o755 || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %o, manifest.json %o; want 755 and 644 (0777 and 0666 less umask 022)", f, dir.Mode().Perm(), st.Mode().Perm())
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("the claim of the killed run is still in runs/")
	}
}

// TestOptimizeStdoutFails: with standard output on a full disk
// (/dev/full), the run folder is still written complete, and the error
// says where it is.
func TestOptimizeStdoutFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	out := filepath.Join(t.TempDir(), "run")
	cmd := hetmapCommand(t, "", "optimize", "--config", writeConfig(t, quickSearch), "--out", out)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = full, &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "cannot write to standard output") || !strings.Contains(stderr.String(), "the results are complete in "+out) {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	for _, f := range []string{"report.html", "front.csv", "front.json", "manifest.json", "config.yaml", "mappings/point-1.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
}

// TestWorkersCapped: more workers than CPUs is not an error but is capped,
// with a note, for the flag and the configuration key alike; the manifest
// records the number used.
func TestWorkersCapped(t *testing.T) {
	for _, tt := range []struct {
		args []string
		note string
	}{
		{[]string{"--workers", "100000"}, "note: --workers 100000 is more than the "},
		{[]string{"--config", writeConfig(t, "model: builtin\nsearch: {generations: 3, population: 8, workers: 100000}\n")}, "note: search.workers 100000 is more than the "},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"optimize", "--out", out}, tt.args...)
		if !strings.Contains(strings.Join(args, " "), "--config") {
			args = append(args, "--config", writeConfig(t, quickSearch))
		}
		_, errOut, code := hetmap(t, args...)
		if code != 0 || !strings.Contains(errOut, tt.note) {
			t.Errorf("%v: exit %d, stderr %q", tt.args, code, errOut)
		}
		var m struct {
			Workers int `json:"workers"`
		}
		data, _ := os.ReadFile(filepath.Join(out, "manifest.json"))
		json.Unmarshal(data, &m)
		if m.Workers != runtimeCPUs() {
			t.Errorf("%v: manifest says %d workers, want %d", tt.args, m.Workers, runtimeCPUs())
		}
	}
	_, errOut, code := hetmap(t, "sweep", sweepFile, "--workers", "100000", "--dry-run")
	if code != 0 || !strings.Contains(errOut, "note: --workers 100000 is more than the ") {
		t.Errorf("sweep --workers 100000: exit %d, %q", code, errOut)
	}
}

// TestProgressLines: when stderr is not a terminal (a log, CI), the search
// writes a plain progress line every plainProgressEvery: the generation,
// evaluations, feasible mappings, front size and elapsed time; the
// exhaustive search adds the cuts and the share of the tree walked.
func TestProgressLines(t *testing.T) {
	old := plainProgressEvery
	plainProgressEvery = 0
	defer func() { plainProgressEvery = old }()
	_, errOut, code := hetmap(t, "optimize", "--config", writeConfig(t, quickSearch), "--out", filepath.Join(t.TempDir(), "run"))
	line := regexp.MustCompile(`(?m)^progress: generation 3/3, [0-9]+ evaluations, [0-9]+ feasible, front [0-9]+, [0-9.]+m?s$`)
	if code != 0 || !line.MatchString(errOut) {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	_, errOut, code = hetmap(t, "optimize", "--config", "../../configs/examples/waters-3obj.yaml", "--algorithm", "exhaustive", "--out", filepath.Join(t.TempDir(), "run"))
	line = regexp.MustCompile(`(?m)^progress: [0-9]+ evaluations, [0-9]+ feasible, front [0-9]+, [0-9]+ cuts, [0-9.]+% walked, [0-9.]+m?s(, about .* left)?$`)
	if code != 0 || !line.MatchString(errOut) || !strings.Contains(errOut, "100% walked") {
		t.Errorf("exhaustive: exit %d, stderr:\n%s", code, errOut)
	}
}

// TestClaimDefaultNextName: a default run folder that exists, or that
// another run holds (results.ErrHeld, matched with errors.Is rather than
// by its text), gives way to the same name with -2; a folder that cannot
// be made fails at once.
func TestClaimDefaultNextName(t *testing.T) {
	parent := t.TempDir()
	exists := filepath.Join(parent, "20260101T000000Z")
	if err := os.Mkdir(exists, 0o755); err != nil {
		t.Fatal(err)
	}
	held := filepath.Join(parent, "20260101T000001Z")
	other, err := results.ClaimDir(held)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	for _, dir := range []string{exists, held} {
		c, err := claimDefault(dir)
		if err != nil || c.Dir() != dir+"-2" {
			t.Errorf("%s: %v, %v; want %s-2", dir, c, err, dir)
		}
		c.Release()
	}
	file := filepath.Join(parent, "file")
	os.WriteFile(file, nil, 0o644)
	if c, err := claimDefault(filepath.Join(file, "run")); err == nil {
		c.Release()
		t.Error("a folder under a file was claimed")
	}
}
