package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/internal/golden"
	"github.com/hetmap/hetmap/internal/testsize"
)

const sweepFile = "testdata/sweep_waters.yaml"

// runSweep is the sweep that the tests which run a whole sweep run: the
// 12 runs of sweepFile, or in the reduced run (-short, -race:
// testsize.Reduced) its seed-1 runs alone (4), whose summary has a golden
// of its own that agrees with the 12-run one (checkSweepSummary).
type runSweep struct {
	file, golden string
	runs         int
	// sample is a run folder's name, of the run at index sample.i.
	sample struct {
		i    int
		name string
	}
}

func sweepUnderTest() runSweep {
	if testsize.Reduced() {
		s := runSweep{file: "testdata/sweep_waters_seed1.yaml", golden: "sweep_summary_seed1.csv", runs: 4}
		s.sample.i, s.sample.name = 1, "run-002_memory.per_core.A57=10ns_analysis.gpu_model=timeslice_search.seed=1"
		return s
	}
	s := runSweep{file: sweepFile, golden: "sweep_summary.csv", runs: 12}
	s.sample.i, s.sample.name = 4, "run-005_memory.per_core.A57=10ns_analysis.gpu_model=timeslice_search.seed=2"
	return s
}

// checkSweepSummary compares a sweep's summary.csv (sweepCSV's text) with
// its golden; the seed-1 sweep's must also agree, row by row, with the
// seed-1 rows of the 12-run sweep's golden in every column but the run's
// number and folder (numbered within the sweep) and the hypervolume (its
// reference point is that of the sweep's own runs).
func (s runSweep) checkSweepSummary(t *testing.T, csv string) {
	t.Helper()
	golden.Check(t, s.golden, csv)
	if s.file == sweepFile {
		return
	}
	full, err := os.ReadFile(filepath.Join("testdata", "sweep_summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	const seed, hypervolume = 4, 9
	comparable := func(line string) string {
		f := strings.Split(line, ",")
		f[0], f[1], f[hypervolume] = "", "", ""
		return strings.Join(f, ",")
	}
	var want, got []string
	for i, line := range strings.Split(strings.TrimSpace(string(full)), "\n") {
		if f := strings.Split(line, ","); i > 0 && f[seed] == "1" {
			want = append(want, comparable(line))
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(csv), "\n")[1:] {
		got = append(got, comparable(line))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the seed-1 sweep's rows differ from the 12-run sweep's seed-1 rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// skipShardProcesses skips, in the reduced run (-short, -race:
// testsize.Reduced), a test whose hetmap processes meet only through the
// sweep folder: each runs the 12-run sweep once or twice more (a sixth of
// the short run's CPU, and past go test's 10 minutes under the race
// detector, which sees no race between processes anyway). The sweep's own
// concurrency stays in the reduced run: TestSweepCommand (two workers)
// and TestSweepCtrlC.
func skipShardProcesses(t *testing.T) {
	t.Helper()
	if testsize.Reduced() {
		t.Skip("reduced run (-short or -race): the shards' processes meet only through the folder; go test ./... runs this")
	}
}

// sweepCSV reads summary.csv with the wall-time column (the last) masked.
func sweepCSV(t *testing.T, out string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "summary.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		cut := strings.LastIndexByte(line, ',')
		if i == 0 {
			b.WriteString(line + "\n")
		} else {
			b.WriteString(line[:cut] + ",(wall)\n")
		}
	}
	return b.String()
}

func sweepRuns(t *testing.T, out string) []string {
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

// TestSweepCommand: the 12-run sweep of testdata/sweep_waters.yaml on the
// WATERS model (its 4 seed-1 runs in the reduced run) from the command
// line: every run folder as optimize writes
// it, summary.csv with one row per run (golden, wall times masked) and
// summary.html; resuming the complete sweep redoes nothing; a second sweep
// into the folder without --resume is refused.
func TestSweepCommand(t *testing.T) {
	sw := sweepUnderTest()
	out := filepath.Join(t.TempDir(), "sweep")
	stdout, errOut, code := hetmap(t, "sweep", sw.file, "--out", out, "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, fmt.Sprintf("%d runs (0 complete already, %d run now)", sw.runs, sw.runs)) || !strings.Contains(stdout, "summary in "+filepath.Join(out, "summary.csv")) {
		t.Errorf("output:\n%s", stdout)
	}
	runs := sweepRuns(t, out)
	if len(runs) != sw.runs {
		t.Fatalf("%d run folders, want %d", len(runs), sw.runs)
	}
	for _, f := range []string{"front.csv", "front.json", "manifest.json", "config.yaml", "sweep-run.json"} {
		if _, err := os.Stat(filepath.Join(out, runs[sw.sample.i], f)); err != nil {
			t.Errorf("%s: missing %s", runs[sw.sample.i], f)
		}
	}
	if runs[sw.sample.i] != sw.sample.name {
		t.Errorf("run %d is %s, want %s", sw.sample.i+1, runs[sw.sample.i], sw.sample.name)
	}
	csv := sweepCSV(t, out)
	if n := strings.Count(csv, "\n"); n != sw.runs+1 {
		t.Errorf("summary.csv has %d lines, want a header and %d rows", n, sw.runs)
	}
	sw.checkSweepSummary(t, csv)
	page, err := os.ReadFile(filepath.Join(out, "summary.html"))
	if err != nil {
		t.Fatal(err)
	}
	// 3 best values, front size, hypervolume, feasible share × 2 parameters.
	if n := strings.Count(string(page), "<svg"); n != 12 {
		t.Errorf("summary.html has %d plots, want 12", n)
	}
	// A run folder is an optimize run folder: analyze takes its files.
	if _, errOut, code := hetmap(t, "analyze", "--config", filepath.Join(out, runs[0], "config.yaml"), "--mapping", filepath.Join(out, runs[0], "mappings/point-1.yaml")); code != 0 {
		t.Errorf("analyze of run 1's first point: exit %d: %s", code, errOut)
	}

	stdout, errOut, code = hetmap(t, "sweep", sw.file, "--out", out, "--resume")
	if code != 0 || strings.Count(stdout, "complete already, kept") != sw.runs || !strings.Contains(stdout, fmt.Sprintf("%d runs (%d complete already, 0 run now)", sw.runs, sw.runs)) {
		t.Errorf("resume of a complete sweep: exit %d, %s\n%s", code, errOut, stdout)
	}
	if sweepCSV(t, out) != csv {
		t.Error("resuming a complete sweep changed its summary")
	}
	_, errOut, code = hetmap(t, "sweep", sw.file, "--out", out)
	if code != 2 || !strings.Contains(errOut, "exists already") || !strings.Contains(errOut, "--resume") {
		t.Errorf("second sweep into the folder: exit %d, %s", code, errOut)
	}
}

// TestSweepBadFiles: bad sweep files fail with exit code 2 before any run,
// naming the file and the key path, and create no output folder.
func TestSweepBadFiles(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, text, want string }{
		{"unknown parameter", "base: builtin\nparameters: [{name: memory.percore, kind: A57, values: [10ns]}]\n",
			`parameters[0].name: "memory.percore" is not a sweep parameter`},
		{"empty range", "base: builtin\nparameters: [{name: time_slice.max, range: {from: 10ms, to: 2ms, step: 2ms}}]\n",
			"parameters[0].range: empty: from 10ms is beyond to 2ms"},
		{"empty values", "base: builtin\nparameters: [{name: memory.per_core, kind: A57, values: []}]\n",
			"parameters[0].values: empty: give at least one value"},
		{"wrong type", "base: builtin\nparameters: [{name: frequency, kind: A57, values: [2GHz, 1500]}]\n",
			"parameters[0].values[1]: 1500 is not a frequency"},
		{"unknown kind", "base: builtin\nparameters: [{name: frequency, kind: Cortex-A57, values: [1GHz]}]\n",
			`parameters[0].kind: "Cortex-A57" is not a unit kind of the base system (Denver, A57, GPU_def)`},
		{"unknown task", "base: builtin\nparameters: [{name: time_slice, task: SLAM, values: [2ms]}]\n",
			`parameters[0].task: "SLAM" is not a GPU task of the base system`},
		{"unknown key", "base: builtin\nparameters: [{name: search.seed, values: [1], step: 1}]\n",
			"parameters[0]: unknown key(s) step"},
		{"impossible value", "base: builtin\nparameters: [{name: search.population, values: [50, 1]}]\n",
			"parameters[0].values[1]: search.population=1: search.population: must be between 2 and 100000, got 1"},
		{"run-level conflict", "base: builtin\nparameters: [{name: time_slice, task: SFM, values: [5ms]}]\n",
			"parameters: run 1 (time_slice[SFM]=5ms): time_slice[SFM] (parameters[0]) fixes a time slice, which only the timeslice GPU model uses"},
		{"bad base", "base: missing.yaml\nseeds: [1]\n", "base: cannot read the configuration"},
	}
	for i, tt := range tests {
		file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".yaml")
		if err := os.WriteFile(file, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out", strings.ReplaceAll(tt.name, " ", "-"))
		stdout, errOut, code := hetmap(t, "sweep", file, "--out", out)
		if code != 2 || !strings.Contains(errOut, file+": "+tt.want) {
			t.Errorf("%d %s: exit %d, stderr %q\nwant exit 2 and %q", i, tt.name, code, errOut, file+": "+tt.want)
		}
		if stdout != "" {
			t.Errorf("%s: wrote to stdout: %q", tt.name, stdout)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: the output folder was created", tt.name)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", filepath.Join(dir, "absent.yaml")}, "cannot read the sweep file"},
		{[]string{"sweep", sweepFile, "--resume"}, "--resume needs --out"},
		{[]string{"sweep", sweepFile, "--out", filepath.Join(dir, "nothing"), "--resume"}, "nothing to resume"},
		{[]string{"sweep"}, "accepts 1 arg(s)"},
	} {
		_, errOut, code := hetmap(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("hetmap %v: exit %d, %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Error("an output folder was created")
	}
}

// TestSweepShards runs the 12-run sweep as 3 shards, 3 processes at once
// into one folder (as the tasks of a Slurm array or a Kubernetes Indexed
// Job would): each runs its 4 runs, and --summarize then writes the summary
// of the sweep run in one process (the golden of TestSweepCommand, wall
// times masked). With a run folder missing, --summarize lists it and exits
// with code 1, writing no summary.
func TestSweepShards(t *testing.T) {
	skipShardProcesses(t)
	out := filepath.Join(t.TempDir(), "sweep")
	type result struct {
		k      int
		code   int
		stdout string
		stderr string
	}
	done := make(chan result, 3)
	for k := 1; k <= 3; k++ {
		cmd := hetmapCommand(t, "", "sweep", sweepFile, "--out", out, "--shard", fmt.Sprintf("%d/3", k))
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			cmd.Wait()
			done <- result{k, cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
		}()
	}
	for range 3 {
		r := <-done
		if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("shard %d/3: 4 runs (0 complete already, 4 run now)", r.k)) ||
			!strings.Contains(r.stdout, "when every shard is done: hetmap sweep "+sweepFile+" --out "+out+" --summarize") {
			t.Errorf("shard %d: exit %d\n%s\n%s", r.k, r.code, r.stdout, r.stderr)
		}
		// Shard k runs k, k+3, k+6, k+9.
		for i := r.k; i <= 12; i += 3 {
			if !strings.Contains(r.stdout, fmt.Sprintf("run-%03d_", i)) {
				t.Errorf("shard %d did not run run %d:\n%s", r.k, i, r.stdout)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, "summary.csv")); !os.IsNotExist(err) {
		t.Error("a shard wrote the summary")
	}
	runs := sweepRuns(t, out)
	if len(runs) != 12 {
		t.Fatalf("%d run folders, want 12", len(runs))
	}
	// A run missing: listed, no summary.
	aside := filepath.Join(t.TempDir(), "aside")
	if err := os.Rename(filepath.Join(out, runs[6]), aside); err != nil {
		t.Fatal(err)
	}
	stdout, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--summarize")
	if code != 1 || !strings.Contains(stdout, "1 of 12 runs are not complete in "+out+":\n  "+runs[6]+"  (shard 1/3)\n") || !strings.Contains(errOut, "run again the shards that own them (their complete runs are kept): hetmap sweep "+sweepFile+" --out "+out+" --shard 1/3\n") || !strings.Contains(errOut, "no summary yet: 1 runs are missing") {
		t.Errorf("summarize with a run missing: exit %d\n%s\n%s", code, stdout, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.csv")); !os.IsNotExist(err) {
		t.Error("--summarize wrote a summary with a run missing")
	}
	if err := os.Rename(aside, filepath.Join(out, runs[6])); err != nil {
		t.Fatal(err)
	}
	stdout, errOut, code = hetmap(t, "sweep", sweepFile, "--out", out, "--summarize")
	if code != 0 || !strings.Contains(stdout, "12 runs, ") {
		t.Fatalf("summarize: exit %d\n%s\n%s", code, stdout, errOut)
	}
	golden.Check(t, "sweep_summary.csv", sweepCSV(t, out))
	// A shard run again keeps its complete runs.
	stdout, errOut, code = hetmap(t, "sweep", sweepFile, "--out", out, "--shard", "2/3")
	if code != 0 || strings.Count(stdout, "complete already, kept") != 4 {
		t.Errorf("shard 2 again: exit %d\n%s\n%s", code, stdout, errOut)
	}
}

// TestSweepDryRun lists the runs, of the sweep or of a shard (given as
// K/N or, counted from 0, as --shard-index I/N), and writes nothing; a
// shard index out of range, in another form, or given both ways is
// refused.
func TestSweepDryRun(t *testing.T) {
	dir := t.TempDir()
	stdout, errOut, code := hetmap(t, "sweep", sweepFile, "--dry-run", "--shard", "2/5", "--out", filepath.Join(dir, "s"))
	want := "run-002_memory.per_core.A57=10ns_analysis.gpu_model=fifo_search.seed=2\n" +
		"run-007_memory.per_core.A57=40ns_analysis.gpu_model=fifo_search.seed=1\n" +
		"run-012_memory.per_core.A57=40ns_analysis.gpu_model=timeslice_search.seed=3\n" +
		"shard 2/5: 3 of the 12 runs; nothing run (--dry-run)\n"
	if code != 0 || stdout != want {
		t.Errorf("exit %d, %s\n%s\nwant\n%s", code, errOut, stdout, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("--dry-run wrote %v", entries)
	}
	// --shard-index counts from 0: 1/5 is shard 2/5.
	if stdout, errOut, code := hetmap(t, "sweep", sweepFile, "--dry-run", "--shard-index", "1/5"); code != 0 || stdout != want {
		t.Errorf("--shard-index 1/5: exit %d, %s\n%s\nwant\n%s", code, errOut, stdout, want)
	}
	for _, tt := range []struct{ args, want string }{
		{"--shard-index 5/5", "--shard-index 5/5: I must be between 0 and N-1"},
		{"--shard-index -1/5", "I must be between 0 and N-1"},
		{"--shard-index 1/0", "I must be between 0 and N-1, and N at least 1"},
		{"--shard-index 1", `--shard-index "1": write I/N, for example 2/8`},
		{"--shard-index 1/5x", "write I/N"},
		{"--shard 2/5 --shard-index 1/5", "--shard and --shard-index name the same shard two ways: give one"},
	} {
		_, errOut, code := hetmap(t, append([]string{"sweep", sweepFile, "--dry-run"}, strings.Fields(tt.args)...)...)
		if code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestSweepProgressLines: a sweep whose output is not a terminal (a log)
// writes progress lines: the runs complete and each run's search.
func TestSweepProgressLines(t *testing.T) {
	old := plainProgressEvery
	plainProgressEvery = time.Millisecond
	defer func() { plainProgressEvery = old }()
	out := filepath.Join(t.TempDir(), "sweep")
	_, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--shard", "1/6")
	if code != 0 || !strings.Contains(errOut, "progress: ") || !strings.Contains(errOut, "/2 runs complete, ") || !strings.Contains(errOut, "progress:   run-") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// TestSweepLogsWorkers: a sweep always says in its log how many runs go at
// a time and how many evaluation workers each search uses on how many
// CPUs, not only when a scheduler's grant lowered them: with
// SLURM_CPUS_PER_TASK=1 one worker on one CPU, and without it every CPU.
func TestSweepLogsWorkers(t *testing.T) {
	cmd := hetmapCommand(t, "", "sweep", sweepFile, "--out", filepath.Join(t.TempDir(), "sweep"), "--shard", "12/12")
	cmd.Env = append(cmd.Env, "SLURM_CPUS_PER_TASK=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "workers: 1 run(s) at a time, each search with 1 evaluation worker(s), on 1 CPU(s)") {
		t.Errorf("with SLURM_CPUS_PER_TASK=1:\n%s", stderr.String())
	}
	_, errOut, code := hetmap(t, "sweep", sweepFile, "--out", filepath.Join(t.TempDir(), "sweep"), "--shard", "12/12")
	want := fmt.Sprintf("workers: 1 run(s) at a time, each search with %d evaluation worker(s), on %d CPU(s), ", runtimeCPUs(), runtimeCPUs())
	if code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %q", code, errOut, want)
	}
}
