//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hetmap/hetmap/internal/golden"
)

// liveClaim returns a claim folder of a run in out (.run-….tmp) that
// holds a claim (a generation marker and its work folder), or "".
func liveClaim(out string) string {
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), ".run-") && strings.HasSuffix(e.Name(), ".tmp") {
			marker, _ := filepath.Glob(filepath.Join(out, e.Name(), "gen-*"))
			work, _ := filepath.Glob(filepath.Join(out, e.Name(), "work-*"))
			if len(marker) > 0 && len(work) > 0 {
				return filepath.Join(out, e.Name())
			}
		}
	}
	return ""
}

// TestShardKilledRetriedElsewhere: shard 1/2 of the 12-run sweep, on host
// node-a, is killed with SIGKILL while it holds a run's claim; the claim
// stays. The shard run again on host node-b (HETMAP_HOST) takes the claim
// over once its lease (HETMAP_CLAIM_LEASE) has expired and completes its
// runs; with shard 2/2 the sweep is complete and its summary is that of the
// sweep run in one process (the golden of TestSweepCommand). A shard of
// another count is refused, naming the count the folder records; before
// shard 2/2 has run, --summarize names the shard that owns each missing run.
func TestShardKilledRetriedElsewhere(t *testing.T) {
	skipShardProcesses(t)
	out := filepath.Join(t.TempDir(), "sweep")
	shard := func(host string, args ...string) *exec.Cmd {
		cmd := hetmapCommand(t, "", append([]string{"sweep", sweepFile, "--out", out}, args...)...)
		cmd.Env = append(cmd.Env, "HETMAP_HOST="+host, "HETMAP_CLAIM_LEASE=2s")
		return cmd
	}
	var leftover string
	for try := 0; leftover == "" && try < 5; try++ {
		cmd := shard("node-a", "--shard", "1/2")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		claim := ""
	wait:
		for claim == "" {
			select {
			case <-exited:
				break wait
			case <-time.After(2 * time.Millisecond):
			}
			claim = liveClaim(out)
		}
		if claim == "" {
			t.Fatalf("shard 1/2 ended (exit %d) before a claim was seen", cmd.ProcessState.ExitCode())
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		if _, err := os.Stat(claim); err == nil {
			leftover = claim // else the run was committed before the kill: again
		}
	}
	if leftover == "" {
		t.Fatal("in 5 tries no shard was killed while holding a claim")
	}
	run := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(leftover), "."), ".tmp")

	// A shard of another count is refused.
	if o, err := shard("node-b", "--shard", "1/3").CombinedOutput(); err == nil || !strings.Contains(string(o), "is split into 2 shards (shards.json); give --shard K/2") {
		t.Errorf("--shard 1/3 in a folder of 2 shards: %v\n%s", err, o)
	}
	stdout, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--summarize")
	if code != 1 || !strings.Contains(stdout, run+"  (shard 1/2)") || !strings.Contains(stdout, "(shard 2/2)") || !strings.Contains(errOut, "run again the shards that own them (their complete runs are kept): hetmap sweep "+sweepFile+" --out "+out+" --shard 1/2; the same with --shard 2/2") {
		t.Errorf("--summarize before the retry: exit %d\n%s%s", code, stdout, errOut)
	}

	retry := shard("node-b", "--shard", "1/2")
	o, err := retry.CombinedOutput()
	if err != nil {
		t.Fatalf("the retry on node-b: %v\n%s", err, o)
	}
	t.Logf("retry on node-b:\n%s", o)
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("the killed shard's claim %s is still there", leftover)
	}
	if _, err := os.Stat(filepath.Join(out, run, "sweep-run.json")); err != nil {
		t.Errorf("the run the killed shard held is not complete: %v", err)
	}
	finishShards(t, out)
}

// finishShards runs shard 2/2 of the 12-run sweep into out and checks that
// the summary is that of the sweep run in one process (the golden of
// TestSweepCommand).
func finishShards(t *testing.T, out string) {
	t.Helper()
	if _, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--shard", "2/2"); code != 0 {
		t.Fatalf("shard 2/2: exit %d: %s", code, errOut)
	}
	if _, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--summarize"); code != 0 {
		t.Fatalf("--summarize: exit %d: %s", code, errOut)
	}
	golden.Check(t, "sweep_summary.csv", sweepCSV(t, out))
}

// TestShardStalledWakesUp: shard 1/2 (process A) is stopped with SIGSTOP
// while it searches a run, as a suspended job or a frozen node would be.
// The same shard started again (B, a requeued task) does its other runs,
// takes the stopped run's claim over once A's lease (HETMAP_CLAIM_LEASE)
// has expired, and completes it. A is woken with SIGCONT, in one case
// after B has published that run, in the other as soon as B has taken it
// over: A learns that it lost the claim, drops its search without writing
// anything and says so, and both end with exit 0. Nothing is left but the
// run folders, and with shard 2/2 the summary is that of the sweep run in
// one process (the golden of TestSweepCommand).
func TestShardStalledWakesUp(t *testing.T) {
	skipShardProcesses(t)
	for _, wake := range []string{"after B published it", "when B took it over"} {
		t.Run(strings.ReplaceAll(wake, " ", "-"), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sweep")
			shard := func(host string) (*exec.Cmd, *lockedBuffer, *lockedBuffer) {
				cmd := hetmapCommand(t, "", "sweep", sweepFile, "--out", out, "--shard", "1/2")
				cmd.Env = append(cmd.Env, "HETMAP_HOST="+host, "HETMAP_CLAIM_LEASE=1s")
				var stdout, stderr lockedBuffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cmd.Process.Signal(syscall.SIGCONT); cmd.Process.Kill() })
				return cmd, &stdout, &stderr
			}
			var a *exec.Cmd
			var aOut, aErr *lockedBuffer
			run := ""
			for try := 0; run == "" && try < 5; try++ {
				a, aOut, aErr = shard("node-a")
				claim := ""
				waitFor(t, "a claim of shard 1/2", func() bool { claim = liveClaim(out); return claim != "" || a.ProcessState != nil })
				a.Process.Signal(syscall.SIGSTOP)
				name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(claim), "."), ".tmp")
				if _, err := os.Stat(filepath.Join(out, name)); err != nil && liveClaim(out) == claim {
					run = name
					break
				}
				// The run was published before the stop: again.
				a.Process.Signal(syscall.SIGCONT)
				a.Process.Kill()
				a.Wait()
			}
			if run == "" {
				t.Fatal("in 5 tries no shard was stopped while it searched a run")
			}
			b, bOut, bErr := shard("node-b")
			if wake == "after B published it" {
				waitFor(t, "B publishes "+run, func() bool { _, err := os.Stat(filepath.Join(out, run, "sweep-run.json")); return err == nil })
			} else {
				waitFor(t, "B takes "+run+" over", func() bool { return strings.Contains(bErr.String(), "note: "+run+": took over the claim") })
			}
			a.Process.Signal(syscall.SIGCONT)
			if code := wait(t, a, 2*time.Minute); code != 0 {
				t.Errorf("A, woken up: exit %d\n%s%s", code, aOut, aErr)
			}
			if code := wait(t, b, 2*time.Minute); code != 0 {
				t.Errorf("B: exit %d\n%s%s", code, bOut, bErr)
			}
			t.Logf("A:\n%s%s\nB:\n%s%s", aOut, aErr, bOut, bErr)
			if !strings.Contains(aErr.String(), "note: "+run+": this process lost its claim: the claim on "+filepath.Join(out, run)+" was lost: another run took it over") ||
				!strings.Contains(aErr.String(), "this process had not renewed its lease of 1s in time") || !strings.Contains(aErr.String(), "this run's work on it is discarded") {
				t.Errorf("A does not say that it lost %s to B", run)
			}
			if !strings.Contains(aOut.String(), run+": completed by another process, kept") {
				t.Errorf("A does not say that another process completed %s", run)
			}
			if !strings.Contains(bErr.String(), "took over the claim of another process, whose lease had expired or whose process had ended (process ") || !strings.Contains(bErr.String(), "on node-a") {
				t.Errorf("B does not say that it took %s over from A", run)
			}
			for _, e := range entryNames(t, out) {
				if strings.HasPrefix(e, ".") {
					t.Errorf("left in the sweep folder: %s", e)
				}
			}
			finishShards(t, out)
		})
	}
}

func entryNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
