//go:build unix

package results

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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

// writeLegacyOwner writes what an older version's claim folder holds.
func writeLegacyOwner(t *testing.T, tmp string, o legacyOwner) {
	t.Helper()
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(o)
	if err := os.WriteFile(filepath.Join(tmp, ownerFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// plantClaim writes the claim of final that a process described by h
// holds: its marker, its lease (unless noLease) and its work folder with
// a file.
func plantClaim(t *testing.T, final string, h holder, noLease bool) (work string) {
	t.Helper()
	dir := filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+claimSuffix)
	work = filepath.Join(dir, workName(h.Generation, h.Token))
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(h)
	files := map[string][]byte{markerName(h.Generation): data, workName(h.Generation, h.Token) + "/front.json": make([]byte, 3000)}
	if !noLease {
		files[leaseName(h.Generation, h.Token)] = data
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return work
}

func entryNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestClaimDir: a claim fails at once, naming the problem, for a folder
// that exists, a path under a file, and a folder another live run holds;
// Commit puts the folder in place complete and leaves nothing else; a
// failing write and Release leave nothing; a second Commit is refused.
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

	runs := filepath.Join(root, "runs")
	out := filepath.Join(runs, "one")
	c, err := ClaimDir(out)
	if err != nil {
		t.Fatal(err)
	}
	// A second run into the same folder, while this process holds it.
	_, err = ClaimDir(out)
	if !errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), "is being written by another hetmap run (process "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), "claim generation 1") {
		t.Errorf("second claim: %v", err)
	}
	if err := c.Commit(func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "a.txt"), []byte("a"), 0o666) }); err != nil {
		t.Fatal(err)
	}
	if got := entryNames(t, out); strings.Join(got, " ") != "a.txt" {
		t.Errorf("the committed folder holds %v, want a.txt alone", got)
	}
	if got := entryNames(t, runs); strings.Join(got, " ") != "one" {
		t.Errorf("after Commit the parent holds %v, want the run folder alone", got)
	}
	c.Release() // after Commit: nothing to do
	if err := c.Commit(func(string) error { return nil }); err == nil || !strings.Contains(err.Error(), "used already") {
		t.Errorf("a second Commit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "a.txt")); err != nil {
		t.Errorf("Release after Commit removed the folder: %v", err)
	}

	// Release leaves nothing, and the folder can be claimed again at once.
	two := filepath.Join(runs, "two")
	c, err = ClaimDir(two)
	if err != nil {
		t.Fatal(err)
	}
	c.Release()
	c.Release()
	if got := entryNames(t, runs); strings.Join(got, " ") != "one" {
		t.Errorf("after Release the parent holds %v", got)
	}
	// A failing write releases the claim.
	c, err = ClaimDir(two)
	if err != nil {
		t.Fatalf("claim after a release: %v", err)
	}
	if err := c.Commit(func(string) error { return errors.New("disk full") }); err == nil || errors.Is(err, ErrLost) {
		t.Errorf("Commit of a failing write: %v", err)
	}
	if got := entryNames(t, runs); strings.Join(got, " ") != "one" {
		t.Errorf("a failed Commit left %v", got)
	}
}

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

// TestClaimJudged: a claim is judged by its lease and, under this kernel
// (the same boot ID and PID namespace), by its process; never by a host
// name or a PID alone. Held: a fresh lease of another kernel, of a live
// process here, of another PID namespace here even with an ended PID, and
// of a retried pod (the same host name, PID 1) on another kernel. Taken
// over, generation 2, the holder named and its work folder fenced: an
// expired lease (whatever the host), an ended process under this kernel.
// Taken at once, nothing to name: a released claim (no lease). Claims of
// older versions are judged as they were.
func TestClaimJudged(t *testing.T) {
	if bootID() == "" {
		t.Skip("no boot ID on this system")
	}
	root := t.TempDir()
	now := time.Now().UTC()
	fresh, expired := now.Format(time.RFC3339Nano), now.Add(-time.Hour).Format(time.RFC3339Nano)
	here := func(pid int, renewed string) holder {
		return holder{Generation: 1, Token: "t0", Host: hostname(), PID: pid, PIDNamespace: pidNamespace(), BootID: bootID(), Started: "2026-01-01T00:00:00Z", Lease: "2m0s", Renewed: renewed}
	}
	elsewhere := func(host string, pid int, renewed string) holder {
		return holder{Generation: 1, Token: "t0", Host: host, PID: pid, PIDNamespace: pidNamespace(), BootID: "another-boot", Started: "2026-01-01T00:00:00Z", Lease: "2m0s", Renewed: renewed}
	}
	otherNS := here(endedPID(t), fresh)
	otherNS.PIDNamespace = "pid:[1]x"
	for _, tt := range []struct {
		name    string
		h       holder
		noLease bool
		want    string // held, takeover, free
	}{
		{"other-kernel-fresh", elsewhere("node-a", 1, fresh), false, "held"},
		{"other-kernel-expired", elsewhere("node-a", 1, expired), false, "takeover"},
		{"retried-pod-fresh", elsewhere(hostname(), 1, fresh), false, "held"},
		{"retried-pod-expired", elsewhere(hostname(), 1, expired), false, "takeover"},
		{"here-ended-fresh", here(endedPID(t), fresh), false, "takeover"},
		{"here-live-expired", here(os.Getpid(), expired), false, "takeover"},
		{"here-live-fresh", here(os.Getpid(), fresh), false, "held"},
		{"other-namespace-ended-fresh", otherNS, false, "held"},
		{"released", here(os.Getpid(), fresh), true, "free"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			final := filepath.Join(root, tt.name)
			work := plantClaim(t, final, tt.h, tt.noLease)
			if tt.noLease {
				os.RemoveAll(work) // as Release leaves it
			}
			c, err := ClaimDir(final)
			if tt.want == "held" {
				var ce *ClaimError
				if !errors.Is(err, ErrHeld) || !errors.As(err, &ce) || !strings.Contains(ce.Holder, fmt.Sprintf("process %d on %s", tt.h.PID, tt.h.Host)) {
					t.Errorf("claim: %v; want ErrHeld naming the holder", err)
				}
				if !fileExists(work) {
					t.Error("a held claim's work folder was touched")
				}
				return
			}
			if err != nil {
				t.Fatalf("claim: %v", err)
			}
			defer c.Release()
			if c.gen != 2 || fileExists(work) || !fileExists(c.work) {
				t.Errorf("generation %d, old work folder there: %v; want 2, fenced", c.gen, fileExists(work))
			}
			if got := c.TookOver != ""; got != (tt.want == "takeover") || (got && !strings.Contains(c.TookOver, "claim generation 1")) {
				t.Errorf("TookOver %q", c.TookOver)
			}
		})
	}

	for _, tt := range []struct {
		name string
		o    legacyOwner
		held bool
	}{
		{"legacy-other-host-fresh", legacyOwner{Host: "node-a", PID: 1, Lease: "2m0s", Renewed: fresh}, true},
		{"legacy-other-host-expired", legacyOwner{Host: "node-a", PID: 1, Lease: "2m0s", Renewed: expired}, false},
		{"legacy-here-ended-fresh", legacyOwner{Host: hostname(), PID: endedPID(t), Lease: "2m0s", Renewed: fresh, PIDNamespace: pidNamespace()}, false},
		{"legacy-here-live-fresh", legacyOwner{Host: hostname(), PID: os.Getpid(), Lease: "2m0s", Renewed: fresh, PIDNamespace: pidNamespace()}, true},
		{"legacy-other-host", legacyOwner{Host: "node-a", PID: 1, Started: "2026-01-01T00:00:00Z"}, true},
		{"legacy-here-ended", legacyOwner{Host: hostname(), PID: endedPID(t), Started: "2026-01-01T00:00:00Z"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(root, tt.name)
			writeLegacyOwner(t, filepath.Join(root, "."+tt.name+".tmp"), tt.o)
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
}

// TestClaimRenewedAndLost: the claiming process renews its lease in the
// background; when another run takes the claim over (its clock an hour
// ahead, so the lease has expired for it), the first learns of it at its
// next renewal (Lost is closed), and its Commit discards its work and says
// so, while the new holder commits.
func TestClaimRenewedAndLost(t *testing.T) {
	if err := SetClaimIdentity("", 400*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	defer SetClaimIdentity("", 0)
	if err := SetClaimIdentity("", 10*time.Millisecond); err == nil {
		t.Error("a lease of 10ms was taken")
	}
	if err := SetClaimIdentity("", 400*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	final := filepath.Join(t.TempDir(), "run")
	a, err := ClaimDir(final)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	read := func() holder {
		h, _ := readHolder(a.leaseFile)
		return h
	}
	first := read()
	if first.Lease != "400ms" || first.Token == "" || first.Renewed == "" || first.BootID != bootID() {
		t.Fatalf("lease file %+v", first)
	}
	for read().Renewed == first.Renewed {
		time.Sleep(10 * time.Millisecond)
	}
	later := processClaimConfig()
	later.renew = false
	later.now = func() time.Time { return time.Now().Add(time.Hour) }
	b, err := claimDir(final, later)
	if err != nil {
		t.Fatalf("takeover: %v", err)
	}
	if !strings.Contains(b.TookOver, fmt.Sprintf("process %d", os.Getpid())) {
		t.Errorf("TookOver %q", b.TookOver)
	}
	select {
	case <-a.Lost():
	case <-time.After(time.Minute):
		t.Fatal("the first claim did not learn of the takeover")
	}
	err = a.Commit(func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "a.txt"), nil, 0o666) })
	if !errors.Is(err, ErrLost) || !strings.Contains(err.Error(), "another run took it over") || !strings.Contains(err.Error(), "discarded") || fileExists(final) {
		t.Errorf("commit after a takeover: %v", err)
	}
	if err := b.Commit(func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "b.txt"), nil, 0o666) }); err != nil {
		t.Fatal(err)
	}
	if got := entryNames(t, final); strings.Join(got, " ") != "b.txt" {
		t.Errorf("the folder holds %v, want the new holder's b.txt alone", got)
	}
	if got := entryNames(t, filepath.Dir(final)); strings.Join(got, " ") != "run" {
		t.Errorf("the parent holds %v", got)
	}
}

// TestCleanStale removes what ended runs left and nothing else: the claim
// of an ended process, a claim expired an hour ago, the claim folder of a
// published run, the trash of a claim and an hour-old temporary folder of
// an older hetmap go; a live claim, a claim expired 5 minutes ago (which
// the next run into its folder takes over, saying so), a claim on its way
// (its work folder made, its marker not yet), the claim of an older
// version on another host (which this host cannot judge), fresh temporary
// names and ordinary folders stay.
func TestCleanStale(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC().Format(time.RFC3339Nano)
	h := func(pid int, renewed string) holder {
		return holder{Generation: 3, Token: "tok", Host: hostname(), PID: pid, PIDNamespace: pidNamespace(), BootID: bootID(), Started: "2026-01-01T00:00:00Z", Lease: "2m0s", Renewed: renewed}
	}
	plantClaim(t, filepath.Join(dir, "ended"), h(endedPID(t), now), false)
	other := h(1, time.Now().Add(-time.Hour).Format(time.RFC3339Nano))
	other.BootID = "another-boot"
	plantClaim(t, filepath.Join(dir, "expired"), other, false)
	recent := other
	recent.Renewed = time.Now().Add(-5 * time.Minute).Format(time.RFC3339Nano)
	plantClaim(t, filepath.Join(dir, "recently-expired"), recent, false)
	plantClaim(t, filepath.Join(dir, "live"), h(os.Getpid(), now), false)
	plantClaim(t, filepath.Join(dir, "published"), h(os.Getpid(), now), false)
	if err := os.Mkdir(filepath.Join(dir, "published"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".onitsway.tmp", workName(1, "x")), 0o755); err != nil {
		t.Fatal(err)
	}
	writeLegacyOwner(t, filepath.Join(dir, ".legacy-ended.tmp"), legacyOwner{Host: hostname(), PID: endedPID(t)})
	writeLegacyOwner(t, filepath.Join(dir, ".legacy-elsewhere.tmp"), legacyOwner{Host: hostname() + "-other", PID: endedPID(t)})
	for _, name := range []string{".old.tmp-123", ".fresh.tmp-456", "20260101T000000Z", ".hidden", ".x.tmp" + trashTag + "abc"} {
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
	removed := CleanStale(dir)
	want := []string{".fresh.tmp-456", ".hidden", ".legacy-elsewhere.tmp", ".live.tmp", ".onitsway.tmp", ".recently-expired.tmp", stale, "20260101T000000Z", "published"}
	if got := entryNames(t, dir); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("after CleanStale: %v, want %v", got, want)
	}
	sort.Strings(removed)
	if len(removed) != 6 || !strings.HasPrefix(removed[0], filepath.Join(dir, ".ended.tmp")+" (3.") {
		t.Errorf("removed %v", removed)
	}
}

// interleaving is one execution of TestClaimInterleavings: two processes
// (actors) sweep one run; a scheduler picks, at every point where another
// process may act, who goes on: one of the actors, the clock (which jumps
// past the lease: every process stalls), or the renewal of an actor's
// lease after a stall (its wake-up).
type interleaving struct {
	clock  time.Time
	lease  time.Duration
	parked chan parkedAt
	actors []*claimActor
}

type parkedAt struct {
	actor int
	point string
}

// claimActor is one process: it claims the run, searches (the search is
// the reference run's, whose files it writes in two halves), publishes,
// and when its claim is held or lost, waits and tries again, until the
// run is complete.
type claimActor struct {
	name      string
	index     int
	it        *interleaving
	resume    chan struct{}
	cfg       claimConfig
	claim     *Claim // held now: the scheduler renews it
	published bool
	complete  bool
	lost      []string
	lostAt    []string // where the loss was noticed
	failure   error
	tokens    int
}

func (a *claimActor) yield(point string) {
	a.it.parked <- parkedAt{a.index, point}
	<-a.resume
}

// refFile is a file of the reference run folder.
type refFile struct {
	path string // relative, with slashes
	data []byte
}

func writeRef(dir string, files []refFile) error {
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.Mkdir(filepath.Dir(path), 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		// O_EXCL: a file some other process wrote into this folder fails.
		out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return err
		}
		_, err = out.Write(f.data)
		if err := errors.Join(err, out.Close()); err != nil {
			return err
		}
	}
	return nil
}

func (a *claimActor) run(final string, files []refFile) {
	defer func() { a.it.parked <- parkedAt{a.index, "done"} }()
	a.yield("start")
	for {
		c, err := claimDir(final, a.cfg)
		var ce *ClaimError
		switch {
		case err == nil:
		case errors.Is(err, ErrHeld):
			a.yield("held")
			continue
		case errors.As(err, &ce) && strings.Contains(err.Error(), "exists already"):
			a.complete = true
			return
		default:
			a.failure = err
			return
		}
		a.claim = c
		a.yield("searching")
		err = c.Commit(func(work string) error { return writeRef(work, files) })
		a.claim = nil
		switch {
		case err == nil:
			a.published = true
			return
		case errors.Is(err, ErrLost) && strings.Contains(err.Error(), "discarded"):
			a.lost = append(a.lost, err.Error())
			c.mu.Lock()
			a.lostAt = append(a.lostAt, c.lostAt)
			c.mu.Unlock()
			a.yield("held")
		default:
			a.failure = err
			return
		}
	}
}

// option is one choice of the scheduler.
type option struct {
	kind  string // actor, tick, renew
	actor int
}

// runInterleaving executes the choices of prefix, then the first option
// at every later point; it returns the choices made, the number of
// options at each, and the actors.
func runInterleaving(t *testing.T, final string, files []refFile, lease time.Duration, maxTicks int, prefix []int) (choices, options []int, actors []*claimActor, trace []string) {
	it := &interleaving{clock: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), lease: lease, parked: make(chan parkedAt)}
	for i, name := range []string{"A", "B"} {
		a := &claimActor{name: name, index: i, it: it, resume: make(chan struct{})}
		a.cfg = claimConfig{now: func() time.Time { return it.clock }, lease: lease, host: "node-" + name, renew: false,
			token: func() string { a.tokens++; return fmt.Sprintf("%s%d", name, a.tokens) }, yield: a.yield}
		it.actors = append(it.actors, a)
		go a.run(final, files)
	}
	at := make([]string, len(it.actors))
	for range it.actors {
		p := <-it.parked
		at[p.actor] = p.point
	}
	changes, ticks := 0, 0
	heldAt := make([]int, len(it.actors))    // changes when the actor was last held
	renewedAt := make([]int, len(it.actors)) // ticks at the actor's last renewal or claim
	lastTick := false
	for {
		var opts []option
		for i, p := range at {
			othersDone := true
			for j, q := range at {
				othersDone = othersDone && (j == i || q == "done")
			}
			// A process that waits tries again once something changed;
			// B starts after A (the processes are alike: the
			// interleavings where B starts first mirror these).
			if p != "done" && (p != "held" || changes > heldAt[i] || othersDone) && (i == 0 || at[0] != "start") {
				opts = append(opts, option{"actor", i})
				// A process that holds a claim and wakes up after a
				// stall may renew its lease first.
				if a := it.actors[i]; a.claim != nil && renewedAt[i] < ticks {
					opts = append(opts, option{"renew", i})
				}
			}
		}
		live := len(opts) > 0
		for _, p := range at {
			live = live || p != "done"
		}
		if !live {
			break
		}
		if ticks < maxTicks && !lastTick {
			opts = append(opts, option{"tick", 0})
		}
		if len(opts) == 0 {
			t.Fatalf("no process can go on: %v", trace)
		}
		k := 0
		if len(choices) < len(prefix) {
			k = prefix[len(choices)]
		}
		choices, options = append(choices, k), append(options, len(opts))
		o := opts[k]
		lastTick = o.kind == "tick"
		switch o.kind {
		case "tick":
			it.clock = it.clock.Add(lease + time.Millisecond)
			ticks++
			changes++
			trace = append(trace, "stall")
		case "renew", "actor":
			a := it.actors[o.actor]
			if o.kind == "renew" {
				a.claim.renew()
				renewedAt[o.actor] = ticks
				changes++ // a lease renewed after a stall is live again
				trace = append(trace, a.name+" renews")
			}
			a.resume <- struct{}{}
			p := <-it.parked
			// What may change another's verdict on the claim: a claim
			// taken (its marker), given up or lost, or a publication.
			if p.point == "claim: marked" || p.point == "published" || p.point == "done" || (p.point == "held" && at[o.actor] != "held" && at[o.actor] != "start") {
				changes++
			}
			if p.point == "published" {
				// Only the current holder publishes: no later
				// generation exists.
				f, _ := readClaimFolder(a.claim.dir)
				if g := lastGen(a.claim.dir, f); g > a.claim.gen {
					t.Fatalf("%s published with generation %d while generation %d exists\ninterleaving: %s", a.name, a.claim.gen, g, strings.Join(trace, ", "))
				}
			}
			at[p.actor] = p.point
			if p.point == "held" {
				heldAt[p.actor] = changes
			}
			if p.point == "searching" {
				renewedAt[p.actor] = ticks
			}
			trace = append(trace, a.name+": "+p.point)
		}
	}
	return choices, options, it.actors, trace
}

var claimStalls = flag.Int("claim-stalls", 1, "TestClaimInterleavings: the most stalls in an interleaving (2: about 10⁵ interleavings)")

// TestClaimInterleavings: two processes run the same run of a sweep into
// one folder, with a clock of the test's. The test executes every
// interleaving of their steps (claim: judged, marked; searching, which
// ends with the run's files written; publish: checked; published)
// with a stall (the clock jumps past the lease, so that every claim may be
// taken over; -claim-stalls sets how many) and the renewals of the stalled
// processes when they wake up, and checks each: one run folder is
// published, by one of them, and only while no later generation of the
// claim exists, equal byte for byte to the run's files; nothing else is
// left; a process that lost
// its claim said so (ErrLost: its work discarded), waited, and found the
// run complete; nothing failed otherwise. It also checks that the losses
// were noticed on every path: at a renewal, before publishing, and by the
// publication itself (the rename of a fenced folder). B starts after A:
// the processes are alike, and the interleavings where B starts first
// mirror these.
func TestClaimInterleavings(t *testing.T) {
	root := fastTempDir(t)
	// The files of a run of a sweep, in its folder's shape, in path order
	// (readTree's): the claims do not read what they publish, and the
	// writer of a run folder (results/runwrite) sits above this package.
	run := struct{ Name string }{"seed-3"}
	ref := []refFile{
		{"config.yaml", []byte("# the configuration of this run, as hetmap read it\nmodel: hand.yaml\n")},
		{"front.csv", []byte("point,objective 1 [ms]\n1,3.5\n")},
		{"front.json", []byte(`{"results_format":3,"system":"hand","points":[` + "\n" + `{"id":1}` + "\n]}\n")},
		{"manifest.json", []byte(`{"tool": "hetmap", "results_format": 3}` + "\n")},
		{"mappings/point-1.json", []byte("{}\n")},
		{"mappings/point-1.yaml", []byte("# front point 1\nunits: []\n")},
		{"report.html", []byte("<!DOCTYPE html>\n")},
		{"sweep-run.json", []byte(`{"index": 1, "name": "seed-3"}` + "\n")},
	}

	var prefix []int
	leaves := 0
	seen := map[string]int{}
	for {
		sweepDir := filepath.Join(root, "sweep")
		final := filepath.Join(sweepDir, run.Name)
		if err := os.MkdirAll(sweepDir, 0o777); err != nil {
			t.Fatal(err)
		}
		choices, options, actors, trace := runInterleaving(t, final, ref, 2*time.Minute, *claimStalls, prefix)
		leaves++
		published := 0
		for _, a := range actors {
			if a.failure != nil {
				t.Fatalf("%s failed: %v\ninterleaving: %s", a.name, a.failure, strings.Join(trace, ", "))
			}
			if a.published {
				published++
			} else if !a.complete {
				t.Fatalf("%s ended without the run complete\ninterleaving: %s", a.name, strings.Join(trace, ", "))
			}
			for _, where := range a.lostAt {
				seen[where]++
			}
		}
		if published != 1 {
			t.Fatalf("%d processes published\ninterleaving: %s", published, strings.Join(trace, ", "))
		}
		if got := entryNames(t, sweepDir); len(got) != 1 || got[0] != run.Name {
			t.Fatalf("the sweep folder holds %v\ninterleaving: %s", got, strings.Join(trace, ", "))
		}
		if diff := diffTrees(ref, readTree(t, final)); diff != "" {
			t.Fatalf("the published folder differs from the one-process run: %s\ninterleaving: %s", diff, strings.Join(trace, ", "))
		}
		if err := os.RemoveAll(sweepDir); err != nil {
			t.Fatal(err)
		}
		// The next interleaving: the last choice that has an option left.
		i := len(choices) - 1
		for i >= 0 && choices[i]+1 >= options[i] {
			i--
		}
		if i < 0 {
			break
		}
		prefix = append(choices[:i:i], choices[i]+1)
	}
	t.Logf("%d interleavings; losses noticed: %v", leaves, seen)
	for _, where := range []string{"renewal", "before publishing", "publishing"} {
		if seen[where] == 0 {
			t.Errorf("no interleaving noticed a loss at %s", where)
		}
	}
}

// fastTempDir is a temporary folder in memory where the system has one
// (/dev/shm, a tmpfs on Linux), else t.TempDir: the interleavings test
// creates and removes some 20 000 files, which a disk of a shared virtual
// machine makes slow. Renames and links behave alike on both.
func fastTempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("/dev/shm", "hetmap-claims-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// readTree reads every file under dir, in path order.
func readTree(t *testing.T, dir string) []refFile {
	t.Helper()
	var files []refFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files = append(files, refFile{filepath.ToSlash(rel), data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func diffTrees(want, got []refFile) string {
	if len(want) != len(got) {
		return fmt.Sprintf("%d files, want %d", len(got), len(want))
	}
	for i := range want {
		if want[i].path != got[i].path || string(want[i].data) != string(got[i].data) {
			return fmt.Sprintf("%s differs", want[i].path)
		}
	}
	return ""
}
