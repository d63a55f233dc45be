package results

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestClaimCheckpoint: a claim whose holder stopped (its lease expired, by
// an injected clock) is taken over with its newest checkpoint, which the
// new claim holds in its own work folder at once; the stalled holder can
// no longer save one. A suspended claim is taken over at once, its
// checkpoint adopted; CleanStale keeps a claim folder with a checkpoint
// whose holder has ended, and a published folder holds no checkpoint.
func TestClaimCheckpoint(t *testing.T) {
	root := t.TempDir()
	final := filepath.Join(root, "run")
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tokens := 0
	cfg := claimConfig{now: func() time.Time { return clock }, lease: time.Minute, host: "node", renew: false,
		token: func() string { tokens++; return string(rune('a'+tokens)) + "000000000000000000000000" }}

	a, err := claimDir(final, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Checkpoint() != nil {
		t.Fatal("a first claim has a checkpoint")
	}
	for _, s := range []string{"first", "second"} {
		if err := a.SaveCheckpoint([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	clock = clock.Add(2 * time.Minute) // a's lease expires
	b, err := claimDir(final, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b.Checkpoint()); got != "second" {
		t.Fatalf("the claim that took over adopted %q, want the newest checkpoint %q", got, "second")
	}
	if data, err := os.ReadFile(filepath.Join(b.work, checkpointName)); err != nil || string(data) != "second" {
		t.Errorf("the new claim's work folder holds %q (%v), want the adopted checkpoint", data, err)
	}
	if err := a.SaveCheckpoint([]byte("late")); !errors.Is(err, ErrLost) {
		t.Errorf("the stalled holder saved a checkpoint: error %v, want ErrLost", err)
	}

	// b suspends: the next claim takes over at once, with b's checkpoint.
	if err := b.SaveCheckpoint([]byte("third")); err != nil {
		t.Fatal(err)
	}
	b.Suspend()
	if removed := cleanStale(root, cfg, ""); len(removed) > 0 {
		t.Errorf("CleanStale removed %v, a claim with a checkpoint", removed)
	}
	c, err := claimDir(final, cfg)
	if err != nil {
		t.Fatalf("a suspended claim is not taken over at once: %v", err)
	}
	if got := string(c.Checkpoint()); got != "third" {
		t.Fatalf("the claim after a suspended one adopted %q, want %q", got, "third")
	}
	if err := c.Commit(func(dir string) error { return os.WriteFile(filepath.Join(dir, "front.csv"), []byte("x"), 0o644) }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(final, checkpointName)); err == nil {
		t.Error("the published folder holds the checkpoint")
	}
	if got := entryNames(t, final); len(got) != 1 {
		t.Errorf("the published folder holds %v, want front.csv alone", got)
	}

	// A suspended claim without a checkpoint is released.
	d, err := claimDir(filepath.Join(root, "other"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	d.Suspend()
	if got := entryNames(t, root); strings.Join(got, " ") != "run" {
		t.Errorf("the folder holds %v after a claim without a checkpoint was suspended, want run alone", got)
	}
}
