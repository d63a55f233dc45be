//go:build unix

package results

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// endedPID returns the process ID of a process that has ended.
func endedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func writeOwner(t *testing.T, tmp string, o owner) {
	t.Helper()
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(o)
	if err := os.WriteFile(filepath.Join(tmp, ownerFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestClaimDir: a claim fails at once, naming the problem, for a folder
// that exists, a path under a file, and a folder another live run holds;
// it takes over the claim of a run whose process has ended; Commit puts
// the folder in place complete, with the owner file gone; Release leaves
// nothing.
func TestClaimDir(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, want string }{
		{root, "exists already"},
		{filepath.Join(file, "run"), "cannot create the output folder " + filepath.Join(file, "run") + ": " + file + " is a file, not a folder"},
		{filepath.Join(file, "a", "b", "run"), file + " is a file, not a folder"},
	} {
		var ce *ClaimError
		if _, err := ClaimDir(tt.dir); !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ClaimDir(%s): %v; want a ClaimError with %q", tt.dir, err, tt.want)
		}
	}

	out := filepath.Join(root, "runs", "one")
	c, err := ClaimDir(out)
	if err != nil {
		t.Fatal(err)
	}
	// A second run into the same folder, while this process holds it.
	if _, err := ClaimDir(out); err == nil || !strings.Contains(err.Error(), "is being written by another hetmap run (process") {
		t.Errorf("second claim: %v", err)
	}
	if err := c.Commit(func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "a.txt"), []byte("a"), 0o666) }); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || entries[0].Name() != "a.txt" {
		t.Errorf("the committed folder holds %v, want a.txt alone", entries)
	}
	c.Release() // after Commit: nothing to do
	if _, err := os.Stat(filepath.Join(out, "a.txt")); err != nil {
		t.Errorf("Release after Commit removed the folder: %v", err)
	}

	// The claim of a run that has ended is taken over.
	dead := filepath.Join(root, "runs", "dead")
	writeOwner(t, filepath.Join(root, "runs", ".dead.tmp"), owner{Host: hostname(), PID: endedPID(t), Started: "2026-01-01T00:00:00Z"})
	c, err = ClaimDir(dead)
	if err != nil {
		t.Fatalf("claim over a dead run's: %v", err)
	}
	c.Release()
	if entries, _ := os.ReadDir(filepath.Join(root, "runs")); len(entries) != 1 {
		t.Errorf("after Release: %v, want the folder one alone", entries)
	}
	// A failing write releases the claim.
	c, err = ClaimDir(dead)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(func(string) error { return errors.New("disk full") }); err == nil {
		t.Error("Commit passed a failing write")
	}
	if _, err := os.Stat(filepath.Join(root, "runs", ".dead.tmp")); !os.IsNotExist(err) || fileExists(dead) {
		t.Error("a failed Commit left its folder")
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestClaimDirNotWritable: a parent the user cannot write fails at once.
func TestClaimDirNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into any folder")
	}
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if _, err := ClaimDir(filepath.Join(ro, "run")); err == nil || !strings.Contains(err.Error(), "cannot write into "+ro+" (permission denied)") {
		t.Errorf("claim in a read-only folder: %v", err)
	}
}

// TestCleanStale removes what ended runs left and nothing else: the claim
// of an ended process and an hour-old temporary folder of an older hetmap
// go; the claim of this live process, the claim of a run on another host
// (which this host cannot judge), a fresh temporary folder and ordinary
// folders stay.
func TestCleanStale(t *testing.T) {
	dir := t.TempDir()
	writeOwner(t, filepath.Join(dir, ".ended.tmp"), owner{Host: hostname(), PID: endedPID(t)})
	writeOwner(t, filepath.Join(dir, ".live.tmp"), owner{Host: hostname(), PID: os.Getpid()})
	writeOwner(t, filepath.Join(dir, ".elsewhere.tmp"), owner{Host: hostname() + "-other", PID: endedPID(t)})
	for _, name := range []string{".old.tmp-123", ".fresh.tmp-456", "20260101T000000Z", ".hidden"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, ".old.tmp-123"), hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	stale := ".report.html.tmp-" + hostname() + "-" + "1" + "-7" // pid 1 lives: kept
	if err := os.WriteFile(filepath.Join(dir, stale), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	endedFile := ".front.csv.tmp-" + hostname() + "-" + strconv.Itoa(endedPID(t)) + "-3"
	if err := os.WriteFile(filepath.Join(dir, endedFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	CleanStale(dir)
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{".elsewhere.tmp", ".fresh.tmp-456", ".hidden", ".live.tmp", stale, "20260101T000000Z"}
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("after CleanStale: %v, want %v", left, want)
	}
}

// TestUmask: folders and files take the user's umask, not a fixed mode:
// with umask 002 a run folder is 775 and its files 664 (they were 700 and
// 644 before).
func TestUmask(t *testing.T) {
	old := syscall.Umask(0o002)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "run")
	c, err := ClaimDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(func(tmp string) error {
		if err := os.Mkdir(filepath.Join(tmp, "mappings"), dirMode); err != nil {
			return err
		}
		return WriteFileAtomic(filepath.Join(tmp, "report.html"), []byte("x"))
	}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o775, filepath.Join(dir, "mappings"): 0o775, filepath.Join(dir, "report.html"): 0o664} {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %o, want %o", path, st.Mode().Perm(), want)
		}
	}
}

// TestWriteFileAtomic: the file appears whole; nothing temporary stays,
// also when the write fails; a folder as the target is refused by name.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.yaml")
	if err := WriteFileAtomic(path, []byte("a: 1\n")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("a: 2\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "a: 2\n" {
		t.Errorf("content %q", data)
	}
	if err := WriteFileAtomic(dir, []byte("x")); err == nil || !strings.Contains(err.Error(), dir+" is a folder: give a file name") {
		t.Errorf("write to a folder: %v", err)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x.yaml"), []byte("x")); err == nil {
		t.Error("write into a missing folder passed")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %v, want out.yaml alone", entries)
	}
}

// TestClaimLease: a claim with a lease is judged by it, whatever the host:
// the claim of another host whose lease runs is held (ErrHeld), one whose
// lease has expired is taken over; on this host an ended process's claim
// is taken over at once, and a live process that no longer renews (its
// PID reused) once the lease has expired. The claiming process renews its
// lease, and a claim taken over from it does not commit.
func TestClaimLease(t *testing.T) {
	root := t.TempDir()
	now := time.Now().UTC()
	fresh, expired := now.Format(time.RFC3339Nano), now.Add(-time.Hour).Format(time.RFC3339Nano)
	for _, tt := range []struct {
		name string
		o    owner
		held bool
	}{
		{"other-host-fresh", owner{Host: "node-a", PID: 1, Lease: "2m0s", Renewed: fresh}, true},
		{"other-host-expired", owner{Host: "node-a", PID: 1, Lease: "2m0s", Renewed: expired}, false},
		{"here-ended-fresh", owner{Host: hostname(), PID: endedPID(t), Lease: "2m0s", Renewed: fresh, PIDNamespace: pidNamespace()}, false},
		{"here-live-expired", owner{Host: hostname(), PID: os.Getpid(), Lease: "2m0s", Renewed: expired, PIDNamespace: pidNamespace()}, false},
		{"here-live-fresh", owner{Host: hostname(), PID: os.Getpid(), Lease: "2m0s", Renewed: fresh, PIDNamespace: pidNamespace()}, true},
		{"other-namespace-ended-fresh", owner{Host: hostname(), PID: endedPID(t), Lease: "2m0s", Renewed: fresh, PIDNamespace: "pid:[1]x"}, true},
		{"legacy-other-host", owner{Host: "node-a", PID: 1, Started: "2026-01-01T00:00:00Z"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(root, tt.name)
			writeOwner(t, filepath.Join(root, "."+tt.name+".tmp"), tt.o)
			c, err := ClaimDir(dir)
			if tt.held {
				if !errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), "being written by another hetmap run (process") {
					t.Errorf("claim: %v; want ErrHeld", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("claim over a dead run's: %v", err)
			}
			c.Release()
		})
	}

	// Renewals: the owner file's Renewed moves on while the claim lasts.
	if err := SetClaimIdentity("", 400*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	defer SetClaimIdentity("", 0)
	dir := filepath.Join(root, "renewed")
	c, err := ClaimDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	read := func() owner {
		var o owner
		data, _ := os.ReadFile(filepath.Join(root, ".renewed.tmp", ownerFile))
		json.Unmarshal(data, &o)
		return o
	}
	first := read()
	if first.Lease != "400ms" || first.Token == "" || first.Renewed == "" {
		t.Fatalf("owner file %+v", first)
	}
	for read().Renewed == first.Renewed {
		time.Sleep(10 * time.Millisecond)
	}
	// Another claim takes the folder over (as after a lease that expired
	// while this process was stopped): this claim does not commit.
	o := read()
	o.Token = "someone-else"
	writeOwner(t, filepath.Join(root, ".renewed.tmp"), o)
	err = c.Commit(func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "a.txt"), nil, 0o666) })
	if err == nil || !strings.Contains(err.Error(), "taken over by another run") || fileExists(dir) {
		t.Errorf("commit after a take-over: %v", err)
	}
	if read().Token != "someone-else" {
		t.Error("the claim that lost the folder removed the other's")
	}
	if err := SetClaimIdentity("", 10*time.Millisecond); err == nil {
		t.Error("a lease of 10ms was taken")
	}
}
