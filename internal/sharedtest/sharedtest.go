// Package sharedtest locates, for tests, the reference inputs in ../shared
// beside the checkout (the WATERS 2019 models, the Amalthea examples, the
// CUDA Scheduling Examiner scenarios). A test that needs them and does not
// find them fails, saying where ../shared is expected, so that `go test`
// never reports ok for tests that did not run; `go test -short` skips them
// instead, for a checkout without ../shared. `go run ./internal/fetchshared`
// fetches them from their public sources, pinned by commit and checked by
// SHA-256.
package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// root is ../shared, found from this source file, so that it is the same
// for the tests of every package; a variable for this package's tests.
var root = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "shared")
	}
	// file is <module>/internal/sharedtest/sharedtest.go.
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", "..", "shared"))
}()

// Root returns the absolute path of ../shared: the folder beside the
// module's root.
func Root() string { return root }

// Present reports whether ../shared is there.
func Present() bool {
	st, err := os.Stat(Root())
	return err == nil && st.IsDir()
}

// Path returns the path of name inside ../shared. When ../shared is absent,
// it fails the test with a message that says where ../shared is expected,
// or, under -short, skips it.
func Path(t testing.TB, name string) string {
	t.Helper()
	Require(t)
	return filepath.Join(Root(), name)
}

// told is set once a test of this process has failed with the whole
// message: the others refer to it.
var told sync.Once

// Require fails the test when ../shared is absent, saying where it is
// expected and the two ways out (fetch it, or go test -short), or, under
// -short, skips it. The first failure of a test binary says it in full,
// the later ones in a line that refers to it.
func Require(t testing.TB) {
	t.Helper()
	if Present() {
		return
	}
	if testing.Short() {
		t.Skipf("skipped under -short: the reference inputs are expected in %s (../shared beside the checkout)", Root())
		return
	}
	msg := fmt.Sprintf("the reference inputs are missing: %s (../shared beside the checkout) is absent (see the first failure above: go run ./internal/fetchshared, or go test -short)", Root())
	told.Do(func() {
		msg = fmt.Sprintf("the reference inputs are missing: they are expected in %s (../shared beside the checkout, with waters2019/, amalthea-examples/ and cuda_scheduling_examiner/). "+
			"Fetch them from their public sources with `go run ./internal/fetchshared` (pinned by commit, checked by SHA-256), "+
			"or run `go test -short ./...` to skip the tests that need them", Root())
	})
	t.Fatal(msg)
}
