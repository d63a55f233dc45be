//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hetmap/hetmap/internal/testsize"
)

// checkpointIn returns the checkpoint file in the claim folder of the
// output folder out, or "".
func checkpointIn(out string) string {
	found, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".tmp", "work-*", "checkpoint.hmc"))
	if len(found) > 0 {
		return found[0]
	}
	return ""
}

// stopOnceSaved starts cmd, sends it sig once saved names a checkpoint,
// waits for it to end, and reports whether a checkpoint is left (false
// when the command ended first, or published its folder).
func stopOnceSaved(t *testing.T, cmd *exec.Cmd, sig syscall.Signal, saved func() string) bool {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	for saved() == "" {
		select {
		case <-exited:
			return false
		case <-time.After(2 * time.Millisecond):
		}
	}
	cmd.Process.Signal(sig)
	<-exited
	return saved() != ""
}

// manifestCounts reads what a run folder's manifest says of the search
// (its evaluations and generations), which a resumed run must equal.
func manifestCounts(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, k := range []string{"evaluations", "construction_evaluations", "analyses", "generations", "status", "feasible_mappings", "priority_variants", "front_size", "stop_reason"} {
		b.WriteString(k + "=" + mustJSON(t, m[k]) + " ")
	}
	return b.String()
}

// TestOptimizeKilledResumes: optimize killed with SIGKILL once it has saved
// a checkpoint (every 5 generations, --checkpoint-generations) leaves it in
// its output folder's claim; optimize --resume continues from it on another
// number of workers and writes the front.csv and counts of the run that was
// not killed. --resume of a folder without a checkpoint, with another seed
// or with the exhaustive algorithm fails with exit code 2 in one line, the
// checkpoint kept.
func TestOptimizeKilledResumes(t *testing.T) {
	root := t.TempDir()
	args := []string{"optimize", "--config", "../../configs/examples/waters-3obj.yaml", "--algorithm", "nsga2", "--seed", "3", "--checkpoint-generations", "5"}
	ref := filepath.Join(root, "ref")
	if _, errOut, code := hetmap(t, append(args, "--out", ref, "--workers", "2")...); code != 0 {
		t.Fatalf("the uninterrupted run: exit %d\n%s", code, errOut)
	}

	out := filepath.Join(root, "run")
	killOnceSaved(t, args, out)

	// Resumed with another seed, or by the exhaustive search: refused,
	// the checkpoint kept.
	other := append(append([]string(nil), args...), "--resume", out)
	other[6] = "4" // --seed 4
	_, errOut, code := hetmap(t, other...)
	if code != 2 || !strings.Contains(errOut, "written for another configuration") || strings.Count(strings.TrimSpace(errOut), "\n") > 1 || checkpointIn(out) == "" {
		t.Errorf("--resume with another seed: exit %d, checkpoint kept %v, stderr:\n%s\nwant exit 2, one line naming another configuration, the checkpoint kept", code, checkpointIn(out) != "", errOut)
	}
	other = append(append([]string(nil), args...), "--resume", out)
	other[4] = "exhaustive" // --algorithm exhaustive
	_, errOut, code = hetmap(t, other...)
	if code != 2 || !strings.Contains(errOut, "checkpoint of the nsga2 search") || strings.Count(strings.TrimSpace(errOut), "\n") > 1 || checkpointIn(out) == "" {
		t.Errorf("--resume of a genetic checkpoint by the exhaustive search: exit %d, checkpoint kept %v, stderr:\n%s\nwant exit 2, one line naming the genetic search, the checkpoint kept", code, checkpointIn(out) != "", errOut)
	}

	resumedMatches(t, append(args, "--resume", out, "--workers", "3"), out, ref, "after generation")

	// Nothing to resume.
	_, errOut, code = hetmap(t, append(args, "--resume", filepath.Join(root, "none"))...)
	if code != 2 || !strings.Contains(errOut, "no checkpoint") {
		t.Errorf("--resume of a folder without a checkpoint: exit %d, stderr:\n%s", code, errOut)
	}
}

// TestOptimizeExhaustiveKilledResumes: the exhaustive search of the
// 3-objective WATERS example killed with SIGKILL once it has saved a
// checkpoint (every 20 of its top-level subtrees) continues from it with
// optimize --resume, on another number of workers, to the front.csv and
// counts of the run that was not killed.
func TestOptimizeExhaustiveKilledResumes(t *testing.T) {
	root := t.TempDir()
	args := []string{"optimize", "--config", "../../configs/examples/waters-3obj.yaml", "--algorithm", "exhaustive", "--checkpoint-generations", "20"}
	ref := filepath.Join(root, "ref")
	if _, errOut, code := hetmap(t, append(args, "--out", ref, "--workers", "2")...); code != 0 {
		t.Fatalf("the uninterrupted run: exit %d\n%s", code, errOut)
	}
	out := filepath.Join(root, "run")
	killOnceSaved(t, args, out)
	resumedMatches(t, append(args, "--resume", out, "--workers", "2"), out, ref, "subtrees")
}

// killOnceSaved runs optimize with args into out on one worker and kills
// it with SIGKILL once it has saved a checkpoint, trying again (5 times at
// most) while the run ends first.
func killOnceSaved(t *testing.T, args []string, out string) {
	t.Helper()
	for try := 0; ; try++ {
		if try == 5 {
			t.Fatal("in 5 tries no run was killed after its first checkpoint and before its end")
		}
		os.RemoveAll(out)
		os.RemoveAll(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".tmp"))
		cmd := hetmapCommand(t, "", append(args, "--out", out, "--workers", "1")...)
		if stopOnceSaved(t, cmd, syscall.SIGKILL, func() string { return checkpointIn(out) }) {
			return // else the run ended first: again
		}
	}
}

// resumedMatches runs optimize with args (a --resume of out), which must
// say it continues from its checkpoint (the note naming where), and checks
// that out then holds the front.csv and counts of the run into ref, and no
// checkpoint, and that nothing else is left beside the two folders.
func resumedMatches(t *testing.T, args []string, out, ref, where string) {
	t.Helper()
	_, errOut, code := hetmap(t, args...)
	if code != 0 || !strings.Contains(errOut, "note: continuing the search from its checkpoint after") || !strings.Contains(errOut, where) {
		t.Fatalf("--resume: exit %d, stderr:\n%s", code, errOut)
	}
	want, err := os.ReadFile(filepath.Join(ref, "front.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "front.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("the resumed run's front.csv differs from the uninterrupted run's:\n%s\nwant\n%s", got, want)
	}
	if g, w := manifestCounts(t, out), manifestCounts(t, ref); g != w {
		t.Errorf("the resumed run's manifest: %s\nwant the uninterrupted run's %s", g, w)
	}
	if _, err := os.Stat(filepath.Join(out, "checkpoint.hmc")); err == nil {
		t.Error("the complete folder holds the checkpoint")
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 2 {
		t.Errorf("the folder holds %d entries after the resumed run, want ref and run alone", len(entries))
	}
}

// TestSweepResumesFromCheckpoint: a sweep whose runs save a checkpoint
// every 2 generations is stopped once one has (SIGTERM, as a time limit
// stops a task: the run suspends its claim; SIGKILL: the claim stays as it
// was); the sweep resumed says that the run continues from its checkpoint,
// and its summary is that of the sweep run in one process (the golden of
// TestSweepCommand). Each signal costs a whole sweep: the reduced
// run (-short, -race) sends SIGTERM alone; SIGKILL's claim left as it was is
// also what TestOptimizeKilledResumes resumes from, in every run. The
// sweep is sweepUnderTest's (its seed-1 runs in the reduced run).
func TestSweepResumesFromCheckpoint(t *testing.T) {
	if testsize.Race {
		t.Skip("under -race: the sweep's workers and claims race in TestSweepCommand and TestSweepCtrlC, a checkpoint resumed in TestOptimizeKilledResumes")
	}
	signals := []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL}
	if testsize.Reduced() {
		signals = signals[:1]
	}
	sw := sweepUnderTest()
	for _, sig := range signals {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sweep")
			args := []string{"sweep", sw.file, "--out", out, "--checkpoint-generations", "2"}
			stopped := false
			for try := 0; !stopped; try++ {
				if try == 5 {
					t.Fatal("in 5 tries no sweep was stopped while a run had a checkpoint")
				}
				os.RemoveAll(out)
				stopped = stopOnceSaved(t, hetmapCommand(t, "", args...), sig, func() string {
					found, _ := filepath.Glob(filepath.Join(out, ".run-*.tmp", "work-*", "checkpoint.hmc"))
					return strings.Join(found, " ")
				})
			}
			stdout, errOut, code := hetmap(t, append(args, "--resume")...)
			if code != 0 || !strings.Contains(errOut, "the run continues from its checkpoint after generation") {
				t.Fatalf("the sweep resumed: exit %d, stderr:\n%s\n%s", code, errOut, stdout)
			}
			sw.checkSweepSummary(t, sweepCSV(t, out))
			if left, _ := filepath.Glob(filepath.Join(out, ".*")); len(left) > 0 {
				t.Errorf("left in the sweep folder: %v", left)
			}
		})
	}
}
