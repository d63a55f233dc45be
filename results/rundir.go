package results

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hetmap/hetmap/configs"
)

// A run folder appears only complete: a run writes into a temporary folder
// beside it, .NAME.tmp, and renames that into place at the end. The run
// takes that temporary folder when it starts, before it searches (ClaimDir):
// creating a folder is atomic, so of two runs into one folder only one gets
// it, and the other learns at once instead of after its search.
//
// The temporary folder holds an owner file naming the host, the process
// and a lease: the claiming process renews it every quarter of the lease
// (ClaimLease, 2 minutes by default) until it commits or releases the
// claim. A later claim that finds the folder takes it over when the lease
// has expired, whatever the host (a shard killed with SIGKILL and retried
// on another node of a cluster, a pod retried by Kubernetes), or at once
// when the owner ran on this host and its process is gone. Otherwise the
// claim is held, and ClaimDir's error wraps ErrHeld. The hosts' clocks
// must agree within a fraction of the lease (NTP); a process that finds
// its claim taken over (it was stopped for longer than the lease) does not
// commit. The same goes for every claim in the parent folder, so the
// temporary folders of dead runs do not pile up.
//
// Folders and files are created with modes 0777 and 0666, so that the
// user's umask decides, as for any other program.

const (
	// claimSuffix ends the name of a claimed temporary folder.
	claimSuffix = ".tmp"
	// ownerFile, in a claimed folder, names the run that holds it.
	ownerFile = ".hetmap-owner.json"
	// legacyTempAge: temporary folders and files of older hetmap versions
	// (.NAME.tmp-NNN, without an owner file) existed only for the last
	// moments of a run; one older than this is a dead run's.
	legacyTempAge = 10 * time.Minute
	dirMode       = 0o777
	fileMode      = 0o666
)

// owner is the content of the owner file. Lease, Renewed, Token and
// PIDNamespace are empty in the owner files of older versions, whose
// claims are judged as then: live while their process runs on this host,
// and always on another host.
type owner struct {
	Host    string `json:"host"`
	PID     int    `json:"pid"`
	Started string `json:"started_utc"`
	// Lease is how long the claim stays held after its last renewal
	// (a Go duration), Renewed when that was (RFC 3339, UTC, with
	// nanoseconds).
	Lease   string `json:"lease,omitempty"`
	Renewed string `json:"renewed_utc,omitempty"`
	// Token tells this claim from a later one of the same folder.
	Token string `json:"token,omitempty"`
	// PIDNamespace tells the processes of containers that share a host
	// name apart (Linux: the target of /proc/self/ns/pid).
	PIDNamespace string `json:"pid_namespace,omitempty"`
}

func (o owner) String() string {
	s := fmt.Sprintf("process %d on %s, started %s", o.PID, o.Host, o.Started)
	if o.Renewed != "" {
		s += ", lease renewed " + o.Renewed
	}
	return s
}

// DefaultClaimLease is the lease of a claim unless SetClaimIdentity sets
// another.
const DefaultClaimLease = 2 * time.Minute

var (
	claimMu    sync.Mutex
	claimHost  string        // "" for the system's host name
	claimLease time.Duration = DefaultClaimLease
)

// SetClaimIdentity sets the host name that claims record (empty: the
// system's) and their lease (0: DefaultClaimLease); a test or a site whose
// nodes share a host name sets them. Claims made before keep theirs.
func SetClaimIdentity(host string, lease time.Duration) error {
	if lease < 0 || (lease > 0 && lease < 100*time.Millisecond) {
		return fmt.Errorf("a claim lease of %s is too short: give at least 100ms", lease)
	}
	if lease == 0 {
		lease = DefaultClaimLease
	}
	claimMu.Lock()
	defer claimMu.Unlock()
	claimHost, claimLease = host, lease
	return nil
}

// ClaimLease is the lease of the claims this process makes.
func ClaimLease() time.Duration {
	claimMu.Lock()
	defer claimMu.Unlock()
	return claimLease
}

func hostname() string {
	claimMu.Lock()
	h := claimHost
	claimMu.Unlock()
	if h != "" {
		return h
	}
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown-host"
	}
	return h
}

// pidNamespace names this process's PID namespace, or "" where the system
// does not tell.
func pidNamespace() string {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return ns
}

// ErrHeld is wrapped by the error of ClaimDir when another run, which may
// still be going, holds the folder's claim.
var ErrHeld = errors.New("the claim is held by another run")

// Claim is a run's hold on the output folder it will write: the temporary
// folder that becomes the output folder on Commit.
type Claim struct {
	final, tmp string
	done       bool
	owner      owner
	stop       chan struct{} // closed to end the renewals
	stopped    chan struct{} // closed when they have ended
	lost       atomic.Bool   // another claim took the folder over
	// Removed lists what runs that ended had left in the parent folder
	// and the claim removed (see CleanStale), for a note.
	Removed []string
}

// ClaimError says why an output folder cannot be claimed: it exists, its
// parent cannot hold it, or another run holds it. Nothing was created.
type ClaimError struct {
	Dir string
	Err error
	// Holder names the run that holds the claim (with ErrHeld).
	Holder string
}

func (e *ClaimError) Error() string { return e.Err.Error() }
func (e *ClaimError) Unwrap() error { return e.Err }

// ClaimDir claims dir, which must not exist, for a run: it checks that the
// folder can be created (its parent is a folder, or can be made one, and
// is writable), removes the temporary folders that dead runs left in the
// parent, and creates dir's temporary folder with its owner file. The
// error is a *ClaimError naming the problem: dir exists, a path element is
// a file, the parent is not writable, or another live run holds dir.
func ClaimDir(dir string) (*Claim, error) {
	fail := func(format string, args ...any) error {
		return &ClaimError{Dir: dir, Err: fmt.Errorf(format, args...)}
	}
	if _, err := os.Lstat(dir); err == nil {
		return nil, fail("output folder %s exists already; choose another with --out", dir)
	}
	parent := filepath.Dir(dir)
	// The nearest existing path element must be a folder (a missing one,
	// or one under a file, fails Stat alike).
	for p := parent; ; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil {
			if !st.IsDir() {
				return nil, fail("cannot create the output folder %s: %s is a file, not a folder", dir, p)
			}
			break
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	if err := os.MkdirAll(parent, dirMode); err != nil {
		return nil, fail("cannot create the output folder %s: %v", dir, plainPathError(err))
	}
	removed := CleanStale(parent)
	c := &Claim{final: dir, tmp: filepath.Join(parent, "."+filepath.Base(dir)+claimSuffix), Removed: removed}
	for try := 0; ; try++ {
		err := os.Mkdir(c.tmp, dirMode)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || try > 0 {
			if errors.Is(err, fs.ErrPermission) {
				return nil, fail("cannot write into %s (permission denied): choose another --out", parent)
			}
			return nil, fail("cannot create the output folder %s: %v", dir, plainPathError(err))
		}
		// Held already: by a live run, or by a dead one's leftovers.
		if o, live := claimOwner(c.tmp); live {
			how := "remove " + c.tmp + " if no such run is in progress"
			if o.Lease != "" {
				how = "it is taken over once its lease expires, when that run has ended"
			}
			return nil, &ClaimError{Dir: dir, Holder: o.String(), Err: fmt.Errorf("output folder %s is being written by another hetmap run (%s); choose another --out, or wait: %s: %w", dir, o, how, ErrHeld)}
		}
		if err := os.RemoveAll(c.tmp); err != nil {
			return nil, fail("cannot remove %s, left by a run that ended: %v", c.tmp, err)
		}
	}
	now := time.Now().UTC()
	lease := ClaimLease()
	c.owner = owner{Host: hostname(), PID: os.Getpid(), Started: now.Format(time.RFC3339), Lease: lease.String(),
		Renewed: now.Format(time.RFC3339Nano), Token: newToken(), PIDNamespace: pidNamespace()}
	if err := c.writeOwner(); err != nil {
		os.RemoveAll(c.tmp)
		return nil, fail("cannot write into %s: %v", parent, plainPathError(err))
	}
	c.stop, c.stopped = make(chan struct{}), make(chan struct{})
	go c.renew(lease / 4)
	return c, nil
}

// newToken returns a name no other claim has.
func newToken() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Sprintf("%s-%d-%d", hostname(), os.Getpid(), time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// writeOwner writes the owner file whole (through a temporary file in the
// claimed folder renamed over it), so that a reader never sees half of it.
func (c *Claim) writeOwner() error {
	data, _ := json.Marshal(c.owner)
	path := filepath.Join(c.tmp, ownerFile)
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, fileMode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// renew renews the lease every interval until the claim ends; once the
// owner file names another claim, the folder was taken over (this process
// did not renew in time) and the claim is lost.
func (c *Claim) renew(interval time.Duration) {
	defer close(c.stopped)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		if !c.stillOwned() {
			c.lost.Store(true)
			return
		}
		c.owner.Renewed = time.Now().UTC().Format(time.RFC3339Nano)
		_ = c.writeOwner() // a failed renewal is retried at the next tick
	}
}

// stillOwned reports whether the owner file is still this claim's: false
// only when it names another claim.
func (c *Claim) stillOwned() bool {
	var o owner
	data, err := configs.ReadInput(filepath.Join(c.tmp, ownerFile), "the claim's owner file")
	if err != nil || json.Unmarshal(data, &o) != nil {
		return true // gone (Commit removes it) or unreadable for a moment
	}
	return o.Token == c.owner.Token
}

// endRenewal stops the lease's renewals and waits for them to end.
func (c *Claim) endRenewal() {
	if c.stop == nil {
		return
	}
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	<-c.stopped
}

// Dir is the output folder claimed.
func (c *Claim) Dir() string { return c.final }

// Commit writes the folder's files with write, which receives the
// temporary folder, and renames the temporary folder into place, so that
// the output folder appears complete or not at all. On failure the claim
// is released.
func (c *Claim) Commit(write func(tmp string) error) error {
	if c.done {
		return fmt.Errorf("the claim on %s is used already", c.final)
	}
	if err := write(c.tmp); err != nil {
		c.Release()
		return err
	}
	c.endRenewal()
	if c.lost.Load() || !c.stillOwned() {
		c.done = true // the folder is another run's now: leave it
		return fmt.Errorf("the claim on %s was taken over by another run while this one wrote it (this process did not renew its lease of %s in time); nothing was written", c.final, c.owner.Lease)
	}
	if err := os.Remove(filepath.Join(c.tmp, ownerFile)); err != nil {
		c.Release()
		return err
	}
	if err := os.Rename(c.tmp, c.final); err != nil {
		c.Release()
		return err
	}
	c.done = true
	return nil
}

// Release gives the claim up, removing the temporary folder, unless
// Commit has renamed it into place. It may be called more than once.
func (c *Claim) Release() {
	if c == nil || c.done {
		return
	}
	c.done = true
	c.endRenewal()
	if c.lost.Load() || !c.stillOwned() {
		return // another run's now
	}
	os.RemoveAll(c.tmp)
}

// claimOwner reads a claimed folder's owner and reports whether that run
// may still be going. With a lease (see ClaimDir): while the lease runs,
// unless the owner ran on this host (in this PID namespace) and its
// process is gone. Without one (an older version's claim): on this host,
// while its process exists; on another host always, since this host
// cannot tell. A folder without a readable owner file is live while it is
// younger than the lease (its owner may be about to write the file).
func claimOwner(tmp string) (owner, bool) {
	var o owner
	data, err := configs.ReadInput(filepath.Join(tmp, ownerFile), "the claim's owner file")
	if err != nil || json.Unmarshal(data, &o) != nil || o.PID <= 0 {
		st, err := os.Stat(tmp)
		return owner{Host: "?", Started: "?"}, err == nil && time.Since(st.ModTime()) < max(ClaimLease(), legacyTempAge)
	}
	here := o.Host == hostname() && o.PIDNamespace == pidNamespace()
	lease, lerr := time.ParseDuration(o.Lease)
	renewed, rerr := time.Parse(time.RFC3339Nano, o.Renewed)
	if o.Lease == "" || lerr != nil || rerr != nil {
		if o.Host != hostname() {
			return o, true
		}
		return o, processAlive(o.PID)
	}
	if time.Since(renewed) > lease {
		return o, false
	}
	if here && !processAlive(o.PID) {
		return o, false
	}
	return o, true
}

// IsTemp reports whether a name in an output folder's parent is a
// temporary folder or file of a run: a claim (.NAME.tmp) or what older
// versions and atomic file writes use (.NAME.tmp-SUFFIX).
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && (strings.HasSuffix(name, claimSuffix) || strings.Contains(name, claimSuffix+"-"))
}

// CleanStale removes from dir the temporary folders and files that runs
// which have ended left behind (see ClaimDir): claims whose owner process
// is gone, and temporary names without an owner older than legacyTempAge.
// It leaves everything else alone and returns what it removed (with its
// size), for a note; a stale folder it cannot remove only takes room.
func CleanStale(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	remove := func(path string) {
		size := diskSize(path)
		if os.RemoveAll(path) == nil {
			removed = append(removed, fmt.Sprintf("%s (%s)", path, sizeText(size)))
		}
	}
	for _, en := range entries {
		name := en.Name()
		if !IsTemp(name) {
			continue
		}
		path := filepath.Join(dir, name)
		if en.IsDir() && strings.HasSuffix(name, claimSuffix) {
			if _, live := claimOwner(path); !live {
				remove(path)
			}
			continue
		}
		if pid, ok := tempFilePID(name); ok {
			if !processAlive(pid) {
				remove(path)
			}
			continue
		}
		if info, err := en.Info(); err == nil && time.Since(info.ModTime()) > legacyTempAge {
			remove(path)
		}
	}
	return removed
}

// diskSize is the size of the files under path, in bytes.
func diskSize(path string) int64 {
	var n int64
	filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// sizeText writes a size in bytes as a person reads it.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// tempFilePID reads the process of a temporary file name that
// WriteFileAtomic made on this host: .NAME.tmp-HOST-PID-N.
func tempFilePID(name string) (int, bool) {
	i := strings.LastIndex(name, claimSuffix+"-")
	parts := strings.Split(name[i+len(claimSuffix)+1:], "-")
	if len(parts) < 3 || strings.Join(parts[:len(parts)-2], "-") != hostname() {
		return 0, false
	}
	pid, err := strconv.Atoi(parts[len(parts)-2])
	return pid, err == nil && pid > 0
}

var tempCounter atomic.Int64

// WriteFileAtomic writes data to path through a temporary file of a unique
// name in path's folder, renamed into place: the file appears complete or
// not at all, and a failure leaves no temporary file behind. The file's
// mode is 0666 less the umask. Writing to a folder is an error that says
// so.
func WriteFileAtomic(path string, data []byte) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a folder: give a file name", path)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".%s%s-%s-%d-%d", base, claimSuffix, hostname(), os.Getpid(), tempCounter.Add(1)))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return plainPathError(err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, plainPathError(err))
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return plainPathError(err)
	}
	return nil
}

// plainPathError drops the operation of a *fs.PathError ("mkdir x: not a
// directory" becomes "x: not a directory").
func plainPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
