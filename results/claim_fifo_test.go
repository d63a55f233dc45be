//go:build unix

package results

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestClaimFilesFIFO: a claim's marker, lease or older owner file that is
// a FIFO is not read (a read would wait for a writer for ever; go test's
// timeout would report it here): the claim is judged as one whose files
// are unreadable for a moment, held while young, and ClaimDir says so.
func TestClaimFilesFIFO(t *testing.T) {
	root := t.TempDir()
	h := holder{Generation: 1, Token: "t0", Host: "node-a", PID: 1, Started: "2026-01-01T00:00:00Z",
		Lease: "2m0s", Renewed: time.Now().UTC().Format(time.RFC3339Nano)}
	fifo := func(path string) {
		t.Helper()
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	claimFolder := func(final string) string {
		return filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+claimSuffix)
	}
	for _, tt := range []struct {
		name  string
		plant func(final string)
	}{
		{"marker", func(final string) {
			plantClaim(t, final, h, false)
			fifo(filepath.Join(claimFolder(final), markerName(1)))
		}},
		{"lease", func(final string) {
			plantClaim(t, final, h, false)
			fifo(filepath.Join(claimFolder(final), leaseName(1, h.Token)))
		}},
		{"legacy-owner", func(final string) {
			tmp := filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".tmp")
			writeLegacyOwner(t, tmp, legacyOwner{Host: "node-a", PID: 1})
			fifo(filepath.Join(tmp, ownerFile))
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			final := filepath.Join(root, tt.name)
			tt.plant(final)
			c, err := ClaimDir(final)
			if err == nil {
				c.Release()
			}
			if !errors.Is(err, ErrHeld) {
				t.Errorf("claim: %v; want ErrHeld (files unreadable for a moment: held while young)", err)
			}
		})
	}
	CleanStale(root) // reads every claim's files of the folder
}
