package runwrite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
)

// TestWriteSweepRun: a run folder of a sweep is an optimize run folder plus
// sweep-run.json, written complete or not at all, and reads back.
func TestWriteSweepRun(t *testing.T) {
	sw, err := configs.LoadSweep([]byte("base: builtin\nsearch: {population: 6, generations: 2}\nseeds: [3]\n"), "s.yaml", ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	run := &sw.Runs[0]
	res := searchRun(t, run)
	out := t.TempDir()
	if err := writeSweepRun(out, run, res, results.RunInfo{Version: "test", Workers: 1}, 5); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || entries[0].Name() != "run-001_search.seed=3" {
		t.Fatalf("sweep folder holds %v", entries)
	}
	d, err := runfolder.ReadSweepRun(filepath.Join(out, run.Name))
	if err != nil {
		t.Fatal(err)
	}
	if d.Record.Index != 1 || *d.Record.FeasibleEvaluations != 5 || d.Manifest.Seed != 3 || d.Manifest.Evaluations != res.Evaluations || len(d.Front) != len(res.Front) {
		t.Errorf("read back %+v", d.Record)
	}
	_, sum, _ := results.ConfigYAML(run.Config)
	if d.Manifest.ConfigSHA256 != sum {
		t.Error("the manifest's configuration hash is not the run's")
	}
	if err := writeSweepRun(out, run, res, results.RunInfo{}, -1); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("second write: %v", err)
	}
	entries, _ = os.ReadDir(out)
	if len(entries) != 1 {
		t.Errorf("a failed write left %d entries", len(entries))
	}
	if !results.IsSweepTemp(".run-001_x.tmp-123") || !results.IsSweepTemp(".summary.csv.tmp-9") || results.IsSweepTemp("run-001_x") {
		t.Error("IsSweepTemp")
	}
}

// searchRun runs a sweep run's search on one worker.
func searchRun(t *testing.T, run *configs.SweepRun) *optimizer.Outcome {
	t.Helper()
	e, err := evaluate.NewEvaluator(run.Config)
	if err != nil {
		t.Fatal(err)
	}
	res, err := optimizer.Run(context.Background(), e, optimizer.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
