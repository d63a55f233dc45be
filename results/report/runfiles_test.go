package report_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/report"
	"github.com/hetmap/hetmap/results/runfolder"
)

// copyRun copies the run folder dir into a new temporary folder.
func copyRun(t *testing.T, dir string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "run")
	if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return to
}

// testRunFilesChecked: the manifest lists every file the run wrote before
// it with its size and SHA-256, and report, a point's page and compare
// refuse a folder where one of them changed, naming the file, and write
// nothing: a point's evaluation file replaced by {} or by another point's
// (which made a wrong report with exit 0 before, blaming another hetmap
// version), a file missing, a list naming a file outside the folder.
func testRunFilesChecked(t *testing.T, dir string) {
	var m results.Manifest
	readJSONFile(t, filepath.Join(dir, "manifest.json"), &m)
	for _, name := range []string{"config.yaml", "front.json", "front.csv", "mappings/point-1.yaml", "mappings/point-1.json", "mappings/point-2.json"} {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.Files[name], (results.FileSum{Bytes: int64(len(data)), SHA256: sha256Hex(data)}); got != want {
			t.Errorf("the manifest records %s as %+v, the file is %+v", name, got, want)
		}
	}
	for _, name := range []string{"manifest.json", results.ReportFile} {
		if _, ok := m.Files[name]; ok {
			t.Errorf("the manifest lists %s, written after it", name)
		}
	}
	other, _ := os.ReadFile(filepath.Join(dir, "mappings", "point-2.json"))
	for _, c := range []struct {
		name   string
		change func(run string)
		want   string
	}{
		{"evaluation replaced by {}", func(run string) {
			os.WriteFile(filepath.Join(run, "mappings", "point-1.json"), []byte("{}\n"), 0o644)
		}, "mappings/point-1.json: not the file the run wrote: 3 bytes, where manifest.json records "},
		{"evaluation replaced by another point's", func(run string) {
			os.WriteFile(filepath.Join(run, "mappings", "point-1.json"), other, 0o644)
		}, "mappings/point-1.json: not the file the run wrote: "},
		{"a mapping edited in place", func(run string) {
			path := filepath.Join(run, "mappings", "point-3.yaml")
			data, _ := os.ReadFile(path)
			os.WriteFile(path, bytes.Replace(data, []byte("Core"), []byte("Cpre"), 1), 0o644)
		}, "mappings/point-3.yaml: not the file the run wrote: "},
		{"a file missing", func(run string) {
			os.Remove(filepath.Join(run, "front.csv"))
		}, "front.csv: no such file or directory"},
		{"a file outside the folder", func(run string) {
			var m results.Manifest
			readJSONFile(t, filepath.Join(run, "manifest.json"), &m)
			m.Files["../secret"] = results.FileSum{Bytes: 1, SHA256: strings.Repeat("0", 64)}
			data, _ := json.MarshalIndent(m, "", "  ")
			os.WriteFile(filepath.Join(run, "manifest.json"), data, 0o644)
		}, `manifest.json: lists "../secret", which is not a file of the run folder`},
	} {
		run := copyRun(t, dir)
		before, _ := os.ReadFile(filepath.Join(run, results.ReportFile))
		c.change(run)
		for what, do := range map[string]func() error{
			"report":     func() error { return report.WriteFile(run, nil) },
			"point page": func() error { _, err := report.WritePointPage(run, 7); return err },
			"compare":    func() error { _, err := runfolder.ReadPoints(run); return err },
		} {
			err := do()
			var re *runfolder.Error
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &re) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s, %s: %v; want one line saying %q", c.name, what, err, c.want)
			}
		}
		if after, _ := os.ReadFile(filepath.Join(run, results.ReportFile)); !bytes.Equal(after, before) {
			t.Errorf("%s: report.html changed", c.name)
		}
		if _, err := os.Stat(filepath.Join(run, "points")); err == nil {
			t.Errorf("%s: a point page was written", c.name)
		}
	}
	// The folder as the run wrote it passes (TestReport's Deterministic
	// regenerates its report).
	if _, err := report.LoadRun(copyRun(t, dir)); err != nil {
		t.Errorf("an unchanged copy of the run folder: %v", err)
	}
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
