//go:build unix

package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hetmap/hetmap/internal/golden"
	"github.com/hetmap/hetmap/internal/testsize"
)

// TestSweepCtrlC presses Ctrl-C (SIGINT to this process) during the 12-run
// sweep: the run in progress stops and is dropped, no other starts, the exit
// code is 130 with the command that resumes; --resume then keeps the complete runs and
// gives the summary of the sweep run in one go (the golden of
// TestSweepCommand): not in the reduced run (-short, -race), where the
// rest of the sweep would cost more runs, and the interrupt comes after
// the first run (after the third in the plain run).
func TestSweepCtrlC(t *testing.T) {
	// While this test runs, SIGINT never ends the test process, whatever
	// the command does with its own handler.
	guard := make(chan os.Signal, 8)
	signal.Notify(guard, os.Interrupt)
	defer signal.Stop(guard)

	out := filepath.Join(t.TempDir(), "sweep")
	type result struct {
		stdout, stderr string
		code           int
	}
	done := make(chan result, 1)
	go func() {
		o, e, c := hetmap(t, "sweep", sweepFile, "--out", out)
		done <- result{o, e, c}
	}()
	complete := func() int {
		entries, _ := os.ReadDir(out)
		n := 0
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "run-") {
				n++
			}
		}
		return n
	}
	before := 3
	if testsize.Reduced() {
		before = 1
	}
	deadline := time.Now().Add(2 * time.Minute)
	var r result
	interrupted := false
	for !interrupted {
		select {
		case r = <-done:
			t.Skipf("the sweep finished (exit %d) before the interrupt reached it", r.code)
		case <-time.After(5 * time.Millisecond):
		}
		if complete() >= before {
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			interrupted = true
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %d runs complete in 2 minutes", before)
		}
	}
	r = <-done
	if r.code == 0 {
		t.Skip("the sweep finished before the interrupt reached it")
	}
	n := complete()
	want := "finish with: hetmap sweep " + sweepFile + " --out " + out + " --resume"
	if r.code != 130 || !strings.Contains(r.stderr, "interrupted: stopping the runs in progress") || !strings.Contains(r.stderr, want) || n >= 12 {
		t.Fatalf("after Ctrl-C: exit %d, %d runs complete, stderr:\n%s", r.code, n, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.csv")); !os.IsNotExist(err) {
		t.Error("an interrupted sweep wrote a summary")
	}
	if testsize.Reduced() {
		return // the reduced run resumes a stopped sweep in TestSweepResumesFromCheckpoint
	}
	stdout, errOut, code := hetmap(t, "sweep", sweepFile, "--out", out, "--resume")
	if code != 0 || strings.Count(stdout, "complete already, kept") != n {
		t.Fatalf("resume: exit %d, %s\n%s", code, errOut, stdout)
	}
	if len(sweepRuns(t, out)) != 12 {
		t.Errorf("%d run folders after resuming", len(sweepRuns(t, out)))
	}
	golden.Check(t, "sweep_summary.csv", sweepCSV(t, out))
}
