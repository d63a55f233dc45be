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
	if _, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--shard", "2/2"); code != 0 {
		t.Fatalf("shard 2/2: exit %d: %s", code, errOut)
	}
	if _, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--summarize"); code != 0 {
		t.Fatalf("--summarize: exit %d: %s", code, errOut)
	}
	golden(t, "sweep_summary.csv", sweepCSV(t, out))
}
