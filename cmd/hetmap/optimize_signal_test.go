//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
)

// longSearch is a configuration whose genetic search runs for minutes: a
// million generations, none stopped for want of progress; a population of
// 8 reaches its first generation after a few thousand analyses of initial
// constructions (a hundred members' take 75 000).
const longSearch = "model: builtin\nsearch: {algorithm: nsga2, generations: 1000000, stall_generations: 0, population: 8}\n"

// lockedBuffer is a buffer that a process's output goroutine writes while
// the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls until cond holds, failing the test after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within a minute", what)
		}
	}
}

// startLong starts `hetmap optimize` on longSearch as a process and waits
// until its search runs (its claim on the output folder exists).
func startLong(t *testing.T, out string) (*exec.Cmd, *lockedBuffer, *lockedBuffer) {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "long.yaml")
	if err := os.WriteFile(cfg, []byte(longSearch), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := hetmapCommand(t, "", "optimize", "--config", cfg, "--out", out)
	cmd.Env = append(cmd.Env, "HETMAP_TEST_PROGRESS_EVERY=20ms")
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	claim := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".tmp")
	waitFor(t, "the search starts", func() bool { _, err := os.Stat(claim); return err == nil })
	// Into the generations: a progress line after the first generation
	// (whatever the load, no fixed delay).
	waitFor(t, "a generation of the search", func() bool {
		for _, line := range strings.Split(stderr.String(), "\n") {
			if strings.HasPrefix(line, "progress: generation ") && !strings.HasPrefix(line, "progress: generation 0/") {
				return true
			}
		}
		return false
	})
	return cmd, &stdout, &stderr
}

// wait waits for the process and returns its exit code.
func wait(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		t.Fatalf("hetmap did not end within %s of the signal", limit)
	}
	return cmd.ProcessState.ExitCode()
}

// TestOptimizeCtrlC presses Ctrl-C (SIGINT) during a search of a million
// generations: the search stops, the front found so far is written as a
// complete run folder whose manifest and report say "interrupted", the
// front is printed, marked so, and the exit code is 130. SIGTERM does the
// same.
func TestOptimizeCtrlC(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		out := filepath.Join(t.TempDir(), "run")
		cmd, stdout, stderr := startLong(t, out)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		if code := wait(t, cmd, 30*time.Second); code != exitInterrupted {
			t.Fatalf("%v: exit %d, stderr:\n%s", sig, code, stderr)
		}
		if !strings.Contains(stderr.String(), "interrupted: stopping the search; the front found so far goes to "+out) ||
			!strings.Contains(stderr.String(), "hetmap: interrupted: what the search found in ") {
			t.Errorf("%v: stderr:\n%s", sig, stderr)
		}
		if !strings.HasPrefix(stdout.String(), "Interrupted after ") || !strings.Contains(stdout.String(), "Pareto front: ") {
			t.Errorf("%v: stdout:\n%s", sig, stdout)
		}
		var manifest struct {
			Status      string `json:"status"`
			Generations int    `json:"generations"`
			FrontSize   int    `json:"front_size"`
		}
		data, err := os.ReadFile(filepath.Join(out, "manifest.json"))
		if err != nil {
			t.Fatalf("%v: no complete run folder: %v", sig, err)
		}
		if err := json.Unmarshal(data, &manifest); err != nil || manifest.Status != "interrupted" || manifest.Generations >= 1000000 || manifest.FrontSize == 0 {
			t.Errorf("%v: manifest %+v (%v)", sig, manifest, err)
		}
		front := readFront(t, out)
		if len(front.Points) != manifest.FrontSize || front.Proof.Exactness != "interrupted" {
			t.Errorf("%v: front.json has %d points (%v), the manifest %d", sig, len(front.Points), front.Proof.Exactness, manifest.FrontSize)
		}
		report, err := os.ReadFile(filepath.Join(out, "report.html"))
		if err != nil || !strings.Contains(string(report), `<div class="warn" id="interrupted"><strong>Interrupted: interrupted (Ctrl-C or a stop signal) after `) {
			t.Errorf("%v: the report does not say that the run was interrupted (%v)", sig, err)
		}
	}
}

// TestOptimizeCtrlCTwice: a second Ctrl-C ends the process at once, with
// exit code 130, writing nothing more; the next run into the same parent
// folder removes what it left.
func TestOptimizeCtrlCTwice(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "run")
	cmd, _, stderr := startLong(t, out)
	cmd.Process.Signal(syscall.SIGINT)
	// Two signals sent at once may reach the process as one: the second
	// follows the notice of the first.
	waitFor(t, "the notice of the first signal", func() bool { return strings.Contains(stderr.String(), "Ctrl-C again to stop at once") })
	cmd.Process.Signal(syscall.SIGINT)
	if code := wait(t, cmd, 10*time.Second); code != exitInterrupted {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "hetmap: stopped at once") {
		if strings.Contains(stderr.String(), "marked interrupted") {
			t.Skip("the run had written its folder before the second signal")
		}
		t.Errorf("stderr:\n%s", stderr)
	}
	// The next run cleans the claim of the ended process.
	if _, _, code := hetmap(t, "optimize", "--out", filepath.Join(parent, "next"), "--config", writeConfig(t, "model: builtin\nsearch: {generations: 2, population: 8}\n")); code != 0 {
		t.Fatalf("next run: exit %d", code)
	}
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "next" && strings.Join(names, " ") != "next run" {
		t.Errorf("after the next run the folder holds %v", names)
	}
}

// TestOptimizeSameOut: a second run into the --out that a running search
// has claimed fails at once (exit 2), naming the process that holds it,
// instead of searching for as long and failing at the end: it writes no
// progress line, where every report of a search would write one (no
// wall-clock bound, which a loaded machine could exceed).
func TestOptimizeSameOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	cmd, _, _ := startLong(t, out)
	every := plainProgressEvery
	plainProgressEvery = 0 // a line at every report of the search
	defer func() { plainProgressEvery = every }()
	_, errOut, code := hetmap(t, "optimize", "--out", out)
	if code != 2 || !strings.Contains(errOut, "output folder "+out+" is being written by another hetmap run (process ") || strings.Contains(errOut, "progress:") {
		t.Errorf("second run: exit %d, stderr:\n%s\nwant exit 2 before any search, naming the other run", code, errOut)
	}
	cmd.Process.Signal(syscall.SIGINT)
	wait(t, cmd, 30*time.Second)
}

// largeConfig writes the configuration of the synthetic system of 250
// tasks (internal/synth, 8 chains) with the search keys given, and
// returns its path.
func largeConfig(t *testing.T, search ...string) string {
	t.Helper()
	s := synth.Settings{Tasks: 240, GPUTasks: 5, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 3}
	_, y, err := synth.Config(s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	keys := ""
	for _, k := range search {
		keys += "  " + k + "\n"
	}
	cfg := filepath.Join(t.TempDir(), "large.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(y, "\nsearch:\n", "\nsearch:\n"+keys, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestOptimizeCtrlCLarge presses Ctrl-C while a 250-task synthetic system
// (internal/synth) builds its initial population, a stage that reported
// nothing and ignored the signal until it had built every mapping: the
// stage shows progress lines, and the run stops, writes its folder marked
// interrupted and exits with 130. The limit is generous (a minute, for
// -race on a loaded machine); TestInterruptedInEveryStage and
// moo's TestInterruptedWithinABatch check without a clock that the search
// stops within an analysis.
func TestOptimizeCtrlCLarge(t *testing.T) {
	if testsize.Reduced() {
		t.Skip("a 250-task system: skipped in the reduced run (-short, -race)")
	}
	cfg := largeConfig(t, "generations: 1000000")
	out := filepath.Join(t.TempDir(), "run")
	cmd := hetmapCommand(t, "", "optimize", "--config", cfg, "--out", out, "--workers", "2")
	cmd.Env = append(cmd.Env, "HETMAP_TEST_PROGRESS_EVERY=20ms")
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	waitFor(t, "a progress line of the constructions", func() bool {
		return strings.Contains(stderr.String(), "progress: building the initial population: ")
	})
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := wait(t, cmd, time.Minute); code != exitInterrupted {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil || !strings.Contains(string(data), `"status": "interrupted"`) {
		t.Errorf("manifest (%v):\n%s", err, data)
	}
}

// TestOptimizeCtrlCEveryStage presses Ctrl-C (SIGINT) in each stage of a
// run on the synthetic system of 250 tasks: the constructions of the
// initial population, the search, the full analysis of the front, its
// margins and the writing of the files. The run is held in the stage
// until the signal comes (stageHook, HETMAP_TEST_HOLD_IN), so that the
// signal reaches that stage whatever the machine's load. Each time the
// process exits with 130, its folder is complete, marked interrupted in
// that stage (manifest.json), readable (hetmap report regenerates its
// report byte for byte), and its front is that of a search that found one
// (none when the constructions were cut before any mapping). The time
// from the signal to the exit is logged (a user-facing figure, 2 s on a
// quiet machine); the test allows a minute, for -race on a loaded machine.
func TestOptimizeCtrlCEveryStage(t *testing.T) {
	if testsize.Reduced() {
		t.Skip("five runs on a 250-task system: skipped in the reduced run (-short, -race)")
	}
	// A small population and few generations: the stages after the search
	// come soon; the system, the analyses and the files are full size.
	cfg := largeConfig(t, "population: 20", "generations: 4")
	for _, stage := range []string{optimizer.StageConstruct, optimizer.StageSearch, optimizer.StageFront, optimizer.StageMargins, optimizer.StageWriting} {
		t.Run(stage, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			cmd := hetmapCommand(t, "", "optimize", "--config", cfg, "--out", out, "--workers", "2")
			cmd.Env = append(cmd.Env, "HETMAP_TEST_HOLD_IN="+stage)
			var stdout, stderr lockedBuffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill() })
			waitFor(t, "the run held in "+stage, func() bool { return strings.Contains(stderr.String(), "test: held in "+stage+"\n") })
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			if code := wait(t, cmd, time.Minute); code != exitInterrupted {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
			}
			t.Logf("%s: exit 130 %s after the signal", stage, time.Since(sent).Round(time.Millisecond))
			var manifest struct {
				Status        string `json:"status"`
				InterruptedIn string `json:"interrupted_in"`
				FrontSize     int    `json:"front_size"`
			}
			data, err := os.ReadFile(filepath.Join(out, "manifest.json"))
			if err != nil {
				t.Fatalf("no complete run folder: %v", err)
			}
			if err := json.Unmarshal(data, &manifest); err != nil || manifest.Status != "interrupted" || manifest.InterruptedIn != stage {
				t.Errorf("manifest %+v (%v), want interrupted in %s", manifest, err, stage)
			}
			front := readFront(t, out)
			if stage != optimizer.StageConstruct && (len(front.Points) == 0 || len(front.Points) != manifest.FrontSize) {
				t.Errorf("front.json has %d points, the manifest %d", len(front.Points), manifest.FrontSize)
			}
			report, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil || !strings.Contains(string(report), `<div class="warn" id="interrupted"><strong>Interrupted: interrupted (Ctrl-C or a stop signal) `) {
				t.Errorf("the report does not say that the run was interrupted (%v)", err)
			}
			if _, errOut, code := hetmap(t, "report", out); code != 0 {
				t.Errorf("hetmap report: exit %d: %s", code, errOut)
			} else if again, _ := os.ReadFile(filepath.Join(out, "report.html")); !bytes.Equal(again, report) {
				t.Error("hetmap report writes another report than the run")
			}
			if !strings.Contains(stdout.String(), "Interrupted ") {
				t.Errorf("stdout does not say the run was interrupted:\n%.300s", stdout.String())
			}
		})
	}
}
