package sweep_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/sweep"
)

// watersSweep: 2 contention values × 2 GPU models × 3 seeds = 12 runs on the
// built-in WATERS 2019 system, three objectives, a short search. Under -short
// (and -race) the population is 20 instead of the default 100 and the seeds
// are 1 and 2 (8 runs): the runs cost a fifth, and the tests' checks (runs
// kept, stopped, resumed, summaries equal) are the same.
func watersSweep() string {
	seeds, population := "[1, 2, 3]", ""
	if testsize.Reduced() {
		seeds, population = "[1]", "\n  population: 20"
	}
	return `
base: builtin
parameters:
  - {name: memory.per_core, kind: A57, values: [10ns, 40ns]}
  - {name: analysis.gpu_model, values: [fifo, timeslice]}
seeds: ` + seeds + `
search:
  generations: 30` + population + `
  objectives: [{chain: SF-P-DA}, {chain: LD-P-DA}, {chain: Li-Lo-EK-P-DA}]
`
}

func writeSweep(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sweep.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func load(t *testing.T, text string) *configs.Sweep {
	t.Helper()
	sw, err := sweep.Load(writeSweep(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

// runFolders returns the complete run folders of a sweep folder.
func runFolders(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "run-") {
			runs = append(runs, e.Name())
		}
	}
	return runs
}

// maskWall drops the wall-time column (the last) of summary.csv.
func maskWall(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		b.WriteString(line[:strings.LastIndexByte(line, ',')] + "\n")
	}
	return b.String()
}

// TestInterruptAndResume: a sweep of 12 runs on the WATERS model (4 in the
// reduced run) is stopped by its context after 4 runs (1), then resumed: the complete runs are kept
// untouched, the others run, and the summary (wall times aside) is the
// summary of the same sweep run in one go, one run at a time.
func TestInterruptAndResume(t *testing.T) {
	sw := load(t, watersSweep())
	n, stopAt := 12, 4
	if testsize.Reduced() {
		// The two runs the leftovers below name are still to run after
		// the stop (at most stopAt+1 complete).
		n, stopAt = 4, 1
	}
	if len(sw.Runs) != n {
		t.Fatalf("%d runs, want %d", len(sw.Runs), n)
	}
	out := filepath.Join(t.TempDir(), "sweep")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rep, err := sweep.Run(ctx, sw, sweep.Options{Out: out, Workers: 2, OnRun: func(ev sweep.Event) {
		if ev.Done == stopAt {
			cancel()
		}
	}})
	if !errors.Is(err, sweep.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped sweep: %v", err)
	}
	first := runFolders(t, out)
	// The stopAt-th run to complete cancels; the run beside it in progress
	// stops and is dropped (unless it completed first).
	if len(first) < stopAt || len(first) > stopAt+1 || rep.Ran != len(first) || rep.Complete {
		t.Fatalf("after the stop: %d run folders, report %+v", len(first), rep)
	}
	if _, err := os.Stat(filepath.Join(out, sweep.SummaryCSV)); !os.IsNotExist(err) {
		t.Error("a stopped sweep wrote a summary")
	}
	type stamp struct {
		mod      time.Time
		manifest []byte
	}
	before := map[string]stamp{}
	for _, name := range first {
		fi, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		m, err := os.ReadFile(filepath.Join(out, name, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		before[name] = stamp{fi.ModTime(), m}
	}
	// What killed runs leave behind: the claim of a run whose process is
	// gone, and the temporary folder of an older hetmap, an hour old.
	leftover := filepath.Join(out, "."+sw.Runs[n-1].Name+".tmp")
	if err := os.MkdirAll(filepath.Join(leftover, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	owner := fmt.Sprintf(`{"host": %q, "pid": %d, "started_utc": "2026-01-01T00:00:00Z"}`, host, deadPID(t))
	if err := os.WriteFile(filepath.Join(leftover, ".hetmap-owner.json"), []byte(owner), 0o644); err != nil {
		t.Fatal(err)
	}
	legacy := filepath.Join(out, "."+sw.Runs[n-2].Name+".tmp-123")
	if err := os.MkdirAll(filepath.Join(legacy, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(legacy, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	// Without Resume the folder is refused.
	if _, err := sweep.Run(context.Background(), sw, sweep.Options{Out: out}); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second sweep into the folder: %v", err)
	}

	var kept []string
	rep, err = sweep.Run(context.Background(), sw, sweep.Options{Out: out, Resume: true, Workers: 2, OnRun: func(ev sweep.Event) {
		if ev.Outcome == nil {
			kept = append(kept, ev.Run.Name)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Resumed != len(first) || rep.Ran != n-len(first) || len(kept) != len(first) {
		t.Errorf("resumed: report %+v, kept %v", rep, kept)
	}
	if got := runFolders(t, out); len(got) != n {
		t.Errorf("%d run folders, want %d", len(got), n)
	}
	for name, st := range before {
		fi, err := os.Stat(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		m, _ := os.ReadFile(filepath.Join(out, name, "manifest.json"))
		if !fi.ModTime().Equal(st.mod) || !bytes.Equal(m, st.manifest) {
			t.Errorf("%s was redone", name)
		}
	}
	for _, dir := range []string{leftover, legacy} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the leftover temporary folder %s is still there", dir)
		}
	}
	if len(rep.Summary.Rows) != n {
		t.Errorf("summary has %d rows", len(rep.Summary.Rows))
	}
	feasible := 0
	for _, r := range rep.Summary.Rows {
		if r.Feasible {
			feasible++
		}
	}
	if feasible == 0 || rep.Summary.Reference == nil {
		t.Errorf("%d feasible runs, reference %v", feasible, rep.Summary.Reference)
	}

	// The same sweep in one go, one run at a time: the same summary.
	fresh := filepath.Join(t.TempDir(), "fresh")
	if _, err := sweep.Run(context.Background(), sw, sweep.Options{Out: fresh, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	a, b := maskWall(t, filepath.Join(out, sweep.SummaryCSV)), maskWall(t, filepath.Join(fresh, sweep.SummaryCSV))
	if a != b {
		t.Errorf("the resumed sweep's summary differs from the sweep run in one go:\n%s\n---\n%s", a, b)
	}
	if lines := strings.Count(a, "\n"); lines != n+1 {
		t.Errorf("summary.csv has %d lines, want a header and %d rows", lines, n)
	}
	// Resuming a complete sweep runs nothing and writes the same summary.
	rep, err = sweep.Run(context.Background(), sw, sweep.Options{Out: fresh, Resume: true})
	if err != nil || rep.Ran != 0 || rep.Resumed != n {
		t.Errorf("resuming a complete sweep: %+v, %v", rep, err)
	}
	if maskWall(t, filepath.Join(fresh, sweep.SummaryCSV)) != b {
		t.Error("resuming a complete sweep changed its summary")
	}
}

// TestResumeChecks: resuming refuses a folder that is not this sweep's.
func TestResumeChecks(t *testing.T) {
	tiny := "base: builtin\nsearch: {population: 6, generations: 2}\nseeds: [1, 2]\n"
	sw := load(t, tiny)
	dir := t.TempDir()
	out := filepath.Join(dir, "s")
	if _, err := sweep.Run(context.Background(), sw, sweep.Options{Out: out, Resume: true}); err == nil || !strings.Contains(err.Error(), "nothing to resume") {
		t.Errorf("resume of nothing: %v", err)
	}
	if _, err := sweep.Run(context.Background(), sw, sweep.Options{Out: dir, Resume: true}); err == nil || !strings.Contains(err.Error(), "is not a sweep folder") {
		t.Errorf("resume of a folder that is not a sweep's: %v", err)
	}
	if _, err := sweep.Run(context.Background(), sw, sweep.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	// Another search setting: the run folders hold other configurations.
	other := load(t, strings.Replace(tiny, "generations: 2", "generations: 3", 1))
	if _, err := sweep.Run(context.Background(), other, sweep.Options{Out: out, Resume: true}); err == nil || !strings.Contains(err.Error(), "was written from another configuration") {
		t.Errorf("resume with another configuration: %v", err)
	}
	// Other parameters: the run folders are not this sweep's runs.
	more := load(t, strings.Replace(tiny, "seeds: [1, 2]", "seeds: [1, 2]\nparameters: [{name: analysis.gpu_model, values: [fifo]}]", 1))
	if _, err := sweep.Run(context.Background(), more, sweep.Options{Out: out, Resume: true}); err == nil || !strings.Contains(err.Error(), "not runs of this sweep") {
		t.Errorf("resume with other parameters: %v", err)
	}
}

// TestLoadChecksEveryRun: a configuration the analysis cannot take fails
// before any run, naming the run.
func TestLoadChecksEveryRun(t *testing.T) {
	// 1024 threads with 64 registers each need 65536 registers: with 255
	// the block does not fit on an SM.
	path := writeSweep(t, "base: builtin\nparameters:\n  - {name: kernel.threads_per_block, task: SFM, values: [1024]}\n  - {name: kernel.registers_per_thread, task: SFM, values: [32, 255]}\n")
	_, err := sweep.Load(path)
	if err == nil || !strings.Contains(err.Error(), "kernel.registers_per_thread[SFM]=255") || !strings.Contains(err.Error(), "does not fit on an SM") {
		t.Errorf("got %v", err)
	}
}

// TestKernelDefaults: the default geometry is what the analysis uses.
func TestKernelDefaults(t *testing.T) {
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	g, err := sweep.KernelDefaults(cfg, "SFM")
	if err != nil {
		t.Fatal(err)
	}
	// SFM: 11 850 000 ticks at 1.5 GHz = 7.9 ms, 8 waves of 16 blocks of 256 threads.
	if g.Blocks != 128 || g.ThreadsPerBlock != 256 {
		t.Errorf("SFM default geometry %+v", g)
	}
	if _, err := sweep.KernelDefaults(cfg, "Planner"); err == nil {
		t.Error("Planner is not a GPU task")
	}
}

// TestExampleSweep: the example sweep file loads: 3 × 2 × 2 × 3 runs on the
// three-objective example.
func TestExampleSweep(t *testing.T) {
	sw, err := sweep.Load("../../configs/examples/sweep-contention.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Runs) != 36 || sw.Runs[0].Config.Search.Generations != 200 || len(sw.Runs[0].Config.Search.Objectives) != 3 {
		t.Errorf("%d runs, search %+v", len(sw.Runs), sw.Runs[0].Config.Search)
	}
}

// deadPID returns the process ID of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestCountsSweep: the example sweep of the contention counts loads: 3
// counts × 3 × 2 × 3 seeds = 54 runs on the three-objective example, the
// counts outermost, the copy engine by the sound convention.
func TestCountsSweep(t *testing.T) {
	sw, err := sweep.Load("../../configs/examples/sweep-counts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Runs) != 54 || sw.Runs[0].Config.Search.Generations != 200 || len(sw.Runs[0].Config.Search.Objectives) != 3 {
		t.Errorf("%d runs, search %+v", len(sw.Runs), sw.Runs[0].Config.Search)
	}
	if c := sw.Runs[0].Config.Analysis; c.Contention != "challenge" || c.CopyEngineActive != nil || sw.Runs[53].Config.Analysis.Contention != "request" {
		t.Errorf("first run's analysis %+v, last run's count %q", c, sw.Runs[53].Config.Analysis.Contention)
	}
}

// TestHeldRunLast: a shard that meets a run whose claim a live process
// holds does its other runs first, then waits for that run and takes its
// claim once the holder gives it up; the held run is reported once.
func TestHeldRunLast(t *testing.T) {
	sw := load(t, watersSweep())
	// Shard 1/4 holds runs 1, 5 and 9; of the reduced run's 4, shard 1/2
	// holds runs 1 and 3.
	shards := 4
	if len(sw.Runs) <= 4 {
		shards = 2
	}
	var others []string
	for i := shards; i < len(sw.Runs); i += shards {
		others = append(others, sw.Runs[i].Name)
	}
	out := filepath.Join(t.TempDir(), "sweep")
	if err := results.SetClaimIdentity("", 400*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	defer results.SetClaimIdentity("", 0)
	holder, err := results.ClaimDir(filepath.Join(out, sw.Runs[0].Name))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	var held, order []string
	rep, err := sweep.Run(context.Background(), sw, sweep.Options{Out: out, Shard: &sweep.Shard{K: 1, N: shards},
		OnHeld: func(run *configs.SweepRun, err error) {
			held = append(held, run.Name)
			if !errors.Is(err, results.ErrHeld) {
				t.Errorf("held: %v", err)
			}
		},
		OnRun: func(ev sweep.Event) {
			order = append(order, ev.Run.Name)
			if ev.Done == len(others) {
				holder.Release()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := append(others, sw.Runs[0].Name)
	if strings.Join(order, " ") != strings.Join(want, " ") || rep.Ran != len(want) || len(held) != 1 || held[0] != sw.Runs[0].Name {
		t.Errorf("runs in the order %v (want %v), held %v, report %+v", order, want, held, rep)
	}
	if n, err := sweep.RecordedShards(out); n != shards || err != nil {
		t.Errorf("recorded shards: %d, %v", n, err)
	}
}
