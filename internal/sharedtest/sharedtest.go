// Package sharedtest locates, for tests, the reference inputs in ../shared
// beside the checkout (the WATERS 2019 models, the Amalthea examples, the
// CUDA Scheduling Examiner scenarios) and checks them against the list of
// internal/fetchshared/manifest.txt: every file it names, with its
// SHA-256. A test that needs them and does not find them all fails, saying
// where ../shared is expected, what is missing and what to run, so that
// `go test` never reports ok for tests that did not run; `go test -short`
// skips them instead, for a checkout without ../shared.
// `go run ./internal/fetchshared` fetches them from their public sources,
// pinned by commit and checked by SHA-256.
package sharedtest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// module is the module's root, found from this source file, so that it is
// the same for the tests of every package.
var module = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	// file is <module>/internal/sharedtest/sharedtest.go.
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}()

// root is ../shared beside the module; a variable for this package's
// tests, as is manifest, the list the files are checked against.
var (
	root     = filepath.Join(filepath.Dir(module), "shared")
	manifest = filepath.Join(module, "internal", "fetchshared", "manifest.txt")
)

// Root returns the absolute path of ../shared: the folder beside the
// module's root.
func Root() string { return root }

// Present reports whether ../shared holds every file the manifest lists,
// with its SHA-256.
func Present() bool { return state() == "" }

// Path returns the path of name inside ../shared. When ../shared is absent
// or incomplete, it fails the test with a message that says where
// ../shared is expected, what is missing and what to run, or, under -short,
// skips it.
func Path(t testing.TB, name string) string {
	t.Helper()
	Require(t)
	return filepath.Join(Root(), name)
}

// told is set once a test of this process has failed with the whole
// message: the others refer to it.
var told sync.Once

// Require fails the test when ../shared is absent or does not hold every
// file of the manifest with its SHA-256, saying where it is expected, what
// is wrong and the two ways out (fetch it, or go test -short), or, under
// -short, skips it. The first failure of a test binary says it in full,
// the later ones in a line that refers to it.
func Require(t testing.TB) {
	t.Helper()
	what := state()
	if what == "" {
		return
	}
	if testing.Short() {
		t.Skipf("skipped under -short: the reference inputs in %s (../shared beside the checkout) are %s", Root(), what)
		return
	}
	msg := fmt.Sprintf("the reference inputs in %s (../shared beside the checkout) are %s (see the first failure above: go run ./internal/fetchshared, or go test -short)", Root(), what)
	told.Do(func() {
		msg = fmt.Sprintf("the reference inputs in %s (../shared beside the checkout, with waters2019/, amalthea-examples/ and cuda_scheduling_examiner/) are %s. "+
			"Fetch them from their public sources with `go run ./internal/fetchshared` (pinned by commit, checked by SHA-256; `-check` lists what is missing or wrong), "+
			"or run `go test -short ./...` to skip the tests that need them", Root(), what)
	})
	t.Fatal(msg)
}

// checked holds what check found, by ../shared and manifest: ../shared
// is checked once per test binary.
var checked sync.Map

// state is "" when ../shared is complete, else what is wrong with it.
func state() string {
	key := root + "\x00" + manifest
	if v, ok := checked.Load(key); ok {
		return v.(string)
	}
	v, _ := checked.LoadOrStore(key, check(root, manifest))
	return v.(string)
}

// check compares the folder dir with the manifest's list (one file a line:
// its path in dir, its SHA-256, then where it comes from; '#' comments):
// "" when every file is there with its checksum, else what is wrong, in
// words that follow "are".
func check(dir, list string) string {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "absent"
	}
	text, err := os.ReadFile(list)
	if err != nil {
		return fmt.Sprintf("not checked: the list of them cannot be read (%v)", err)
	}
	var n, bad int
	var first string
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		n++
		path := filepath.Join(dir, filepath.FromSlash(f[0]))
		var data []byte
		st, err := os.Stat(path)
		if err == nil && st.Mode().IsRegular() { // a FIFO would block the read
			data, err = os.ReadFile(path)
		}
		sum := sha256.Sum256(data)
		switch {
		case err != nil:
			if bad++; first == "" {
				first = f[0] + " is missing"
			}
		case hex.EncodeToString(sum[:]) != f[1]:
			if bad++; first == "" {
				first = f[0] + " is not the file the list names (another SHA-256)"
			}
		}
	}
	switch {
	case n == 0:
		return "not checked: " + list + " lists no file"
	case bad > 0:
		return fmt.Sprintf("incomplete: %d of the %d files that internal/fetchshared/manifest.txt lists are missing or differ (%s)", bad, n, first)
	}
	return ""
}
