package sharedtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// recorder is a testing.TB that records how a test would end.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
}
func (r *recorder) Fatal(args ...any) {
	r.fatal = fmt.Sprint(args...)
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
}

// setShared points the package at the folder dir and the list file list
// for the test, checked afresh, with the first failure's full message to
// say again.
func setShared(t *testing.T, dir, list string) {
	oldRoot, oldList := root, manifest
	root, manifest, told = dir, list, sync.Once{}
	checked.Clear()
	t.Cleanup(func() {
		root, manifest, told = oldRoot, oldList, sync.Once{}
		checked.Clear()
	})
}

// TestAbsentFailsUnlessShort: with ../shared absent, a test that needs it
// fails with a message naming where ../shared is expected (it was skipped
// silently before, and go test printed ok); under -short it is skipped.
func TestAbsentFailsUnlessShort(t *testing.T) {
	setShared(t, filepath.Join(t.TempDir(), "shared"), manifest)
	var r recorder
	Require(&r)
	switch {
	case testing.Short():
		if !strings.Contains(r.skip, "are absent") || r.fatal != "" {
			t.Errorf("under -short: skip %q, fatal %q; want a skip", r.skip, r.fatal)
		}
	case !strings.Contains(r.fatal, "the reference inputs in "+root+" (../shared beside the checkout") || !strings.Contains(r.fatal, ") are absent.") ||
		!strings.Contains(r.fatal, "go run ./internal/fetchshared") || !strings.Contains(r.fatal, "go test -short ./...") || r.skip != "":
		t.Errorf("fatal %q, skip %q; want a failure naming %s, the fetch command and -short", r.fatal, r.skip, root)
	default:
		// The next failure refers to the first.
		var again recorder
		Require(&again)
		if !strings.Contains(again.fatal, "are absent (see the first failure above: go run ./internal/fetchshared, or go test -short)") {
			t.Errorf("second failure: %q", again.fatal)
		}
	}
}

// TestIncompleteFails: a ../shared that lacks a file of the manifest, or
// holds one with another SHA-256, is as good as absent (tests failed one by
// one on an empty ../shared before, which fetchshared left when offline):
// the message says how many files and which one first; a complete one
// passes.
func TestIncompleteFails(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"a/one.json": []byte("{}\n"), "b/two.amxmi": []byte("<xmi/>\n")}
	var list strings.Builder
	list.WriteString("# the list\n\n")
	for _, name := range []string{"a/one.json", "b/two.amxmi"} {
		sum := sha256.Sum256(files[name])
		fmt.Fprintf(&list, "%s %s owner/repo %s %s\n", name, hex.EncodeToString(sum[:]), strings.Repeat("ab", 20), name)
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
	}
	listFile := filepath.Join(t.TempDir(), "manifest.txt")
	os.WriteFile(listFile, []byte(list.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "b", "two.amxmi"), []byte("changed"), 0o644)
	for _, c := range []struct {
		write map[string][]byte
		want  string // "" when complete
	}{
		{nil, "incomplete: 2 of the 2 files that internal/fetchshared/manifest.txt lists are missing or differ (a/one.json is missing)"},
		{map[string][]byte{"a/one.json": files["a/one.json"]}, "incomplete: 1 of the 2 files that internal/fetchshared/manifest.txt lists are missing or differ (b/two.amxmi is not the file the list names (another SHA-256))"},
		{map[string][]byte{"b/two.amxmi": files["b/two.amxmi"]}, ""},
	} {
		for name, data := range c.write {
			os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644)
		}
		setShared(t, dir, listFile)
		var r recorder
		Require(&r)
		switch {
		case c.want == "":
			if r.fatal != "" || r.skip != "" || !Present() {
				t.Errorf("complete: fatal %q, skip %q, present %v", r.fatal, r.skip, Present())
			}
		case testing.Short():
			if !strings.Contains(r.skip, "are "+c.want) || r.fatal != "" {
				t.Errorf("under -short: skip %q, fatal %q; want a skip saying %q", r.skip, r.fatal, c.want)
			}
		case !strings.Contains(r.fatal, ") are "+c.want+". Fetch them") || Present():
			t.Errorf("fatal %q; want one saying %q", r.fatal, c.want)
		}
	}
}

// TestRealShared: the ../shared beside this checkout, when there, is
// checked against the manifest of the repository, which lists every
// folder the tests read.
func TestRealShared(t *testing.T) {
	if what := check(root, manifest); what != "" && what != "absent" && !testing.Short() {
		t.Errorf("../shared: %s", what)
	}
	text, err := os.ReadFile(manifest)
	if err != nil || !strings.Contains(string(text), "waters2019/ChallengeModel_release_fix.amxmi ") {
		t.Errorf("the manifest %s: %v", manifest, err)
	}
}
