package sharedtest

import (
	"fmt"
	"path/filepath"
	"strings"
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

// TestAbsentFailsUnlessShort: with ../shared absent, a test that needs it
// fails with a message naming where ../shared is expected (it was skipped
// silently before, and go test printed ok); under -short it is skipped.
func TestAbsentFailsUnlessShort(t *testing.T) {
	old := root
	defer func() { root = old }()
	root = filepath.Join(t.TempDir(), "shared")
	var r recorder
	Require(&r)
	switch {
	case testing.Short():
		if r.skip == "" || r.fatal != "" {
			t.Errorf("under -short: skip %q, fatal %q; want a skip", r.skip, r.fatal)
		}
	case !strings.Contains(r.fatal, "the reference inputs are missing: they are expected in "+root+" (../shared beside the checkout") ||
		!strings.Contains(r.fatal, "go run ./internal/fetchshared") || !strings.Contains(r.fatal, "go test -short ./...") || r.skip != "":
		t.Errorf("fatal %q, skip %q; want a failure naming %s, the fetch command and -short", r.fatal, r.skip, root)
	default:
		// The next failure refers to the first.
		var again recorder
		Require(&again)
		if !strings.Contains(again.fatal, "is absent (see the first failure above: go run ./internal/fetchshared, or go test -short)") {
			t.Errorf("second failure: %q", again.fatal)
		}
	}
	root = old
	if Present() {
		r = recorder{}
		Require(&r)
		if r.fatal != "" || r.skip != "" {
			t.Errorf("../shared is there, yet fatal %q, skip %q", r.fatal, r.skip)
		}
	}
}
