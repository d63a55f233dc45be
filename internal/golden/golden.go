// Package golden compares a test's output with a golden file in the test's
// testdata folder, or rewrites the file when the test runs with -update.
// It is a helper of tests only.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Check compares got with testdata/name, or rewrites that file (creating
// testdata/) under -update.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run this package's tests with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after checking the change):\n--- got\n%s", path, got)
	}
}
