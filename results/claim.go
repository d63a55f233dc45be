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
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
)

// Claims: one run writes an output folder, and it appears only complete.
//
// A run claims its output folder NAME before it searches (ClaimDir) and
// publishes it at the end (Claim.Commit) in one atomic step: it renames
// its private work folder to NAME, a name that does not exist yet. The
// claim lives beside the output folder, in the claim folder .NAME.tmp:
//
//	.NAME.tmp/gen-000001               generation markers, each created whole and
//	.NAME.tmp/gen-000002               at most once (a hard link of a finished
//	                                   file), naming the claim that holds it
//	.NAME.tmp/lease-000002-TOKEN.json  the holder's lease, renewed (rewritten
//	                                   whole) every quarter of the lease
//	.NAME.tmp/work-000002-TOKEN/       the holder's private work folder
//
// A claim is told from every other by its token (96 random bits), never by
// a process ID or a host name: a retried Kubernetes pod keeps its host
// name, and hetmap may be PID 1 in both pods.
//
// A claim takes generation g+1 once the holder of generation g is gone: it
// released the claim or published, its lease expired (it did not renew it
// for ClaimLease: it was killed, its node died, or it was stopped), or it
// ran under this kernel (the same boot ID and PID namespace) and its
// process has ended. Before it creates its marker, the new holder fences
// every earlier holder: it renames their work folders away, and since a
// name can be renamed away only once, an earlier holder that wakes up
// finds its work folder gone. It can neither write into a folder that is
// not its own (its folder's name holds its token) nor publish: its rename
// into place finds no folder, so it discards its work and says so
// (ErrLost). So a publication succeeds only for the current holder: no
// later generation exists when it does. A holder also learns of the loss
// when it renews its lease (Claim.Lost), so that it stops working on a run
// that is no longer its own. Since a publication renames onto a name that
// does not exist, at most one output folder appears whatever the clocks
// say: the leases only decide when a claim may be taken over, and clocks
// that disagree by more than a fraction of the lease make a live holder
// lose its claim and its work, never a run. The storage must rename
// atomically and create hard links exclusively (local disks, NFS, Lustre,
// CephFS, GPFS and EFS do).
//
// What a later holder takes over from an earlier one is in the work
// folder: the search's checkpoint (SaveCheckpoint writes it there). The
// holder that fences a folder renames it to lost-…, reads the checkpoint
// there, where its old holder can no longer write, and keeps the newest
// one of the folders it fenced (Checkpoint), written into its own work
// folder before it marks its generation; then it removes the folder. A
// run that stops before it is complete (a time limit's SIGTERM in a sweep)
// suspends its claim (Suspend): its lease goes, its work folder and
// checkpoint stay, and the run's next claim takes over at once. A complete
// folder is published without its checkpoint.
//
// CleanStale, which every claim runs on the parent folder, removes claim
// folders that no claim may need: that of a published folder, or one
// whose holder is gone for good (its process ended under this kernel, or
// its lease expired longer than legacyTempAge ago), unless its work
// folder holds a checkpoint; a recently expired claim is left to the run
// that takes it over, which says so (TookOver).
//
// Claims of older hetmap versions (.NAME.tmp with an owner file,
// .hetmap-owner.json, and the run's files) are judged as those versions
// did: held while their lease runs, or while their process runs on this
// host.

// DefaultClaimLease is the lease of a claim unless SetClaimIdentity sets
// another.
const DefaultClaimLease = 2 * time.Minute

const (
	genPrefix   = "gen-"
	leasePrefix = "lease-"
	workPrefix  = "work-"
	// lostPrefix names a fenced work folder on its way out.
	lostPrefix = "lost-"
	// newPrefix names a file on its way to becoming a marker or a lease.
	newPrefix = "new-"
	// trashTag: .NAME.tmp-trash-TOKEN is a claim folder on its way out.
	trashTag = "-trash-"
	// ownerFile, at the top of an older version's claim folder, names the
	// run that holds it.
	ownerFile = ".hetmap-owner.json"
	// claimTries bounds the attempts of a claim whose folder keeps
	// changing under it (other claims coming and going).
	claimTries = 50
)

var (
	claimMu    sync.Mutex
	claimHost  string        // "" for the system's host name
	claimLease time.Duration = DefaultClaimLease
)

// SetClaimIdentity sets the host name that claims record (empty: the
// system's; it names the holder in messages, nothing more) and their lease
// (0: DefaultClaimLease). Claims made before keep theirs.
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

var bootID = sync.OnceValue(func() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
})

// newToken returns a name no other claim has.
func newToken() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	}
	return hex.EncodeToString(b[:])
}

// claimConfig is what a claim depends on besides the files: the clock, the
// lease, the host name it records, where its tokens come from, and whether
// it renews its lease itself (false: the caller calls renew, as the
// interleaving tests do with their clock).
type claimConfig struct {
	now   func() time.Time
	lease time.Duration
	host  string
	token func() string
	renew bool
	// yield, when set, is called at the points where another process may
	// act in between (the interleaving tests' scheduler runs other claims
	// there).
	yield func(point string)
}

func (cfg claimConfig) pause(point string) {
	if cfg.yield != nil {
		cfg.yield(point)
	}
}

func processClaimConfig() claimConfig {
	return claimConfig{now: time.Now, lease: ClaimLease(), host: hostname(), token: newToken, renew: true}
}

// holder is what a marker and a lease file hold: who holds a generation
// of a claim, and until when.
type holder struct {
	Generation   int    `json:"generation"`
	Token        string `json:"token"`
	Host         string `json:"host"`
	PID          int    `json:"pid"`
	PIDNamespace string `json:"pid_namespace,omitempty"`
	BootID       string `json:"boot_id,omitempty"`
	Started      string `json:"started_utc"`
	// Lease is how long the claim stays held after its last renewal (a Go
	// duration), Renewed when that was (RFC 3339, UTC, with nanoseconds).
	Lease   string `json:"lease"`
	Renewed string `json:"renewed_utc"`
}

func (h holder) String() string {
	s := fmt.Sprintf("process %d on %s, started %s, claim generation %d", h.PID, h.Host, h.Started, h.Generation)
	if h.Renewed != "" {
		s += ", lease renewed " + h.Renewed
	}
	return s
}

// underThisKernel reports whether h's process ran under this kernel and
// in this PID namespace, where its PID names it.
func (h holder) underThisKernel() bool {
	return h.BootID != "" && h.BootID == bootID() && h.PIDNamespace == pidNamespace()
}

// expired reports whether h's lease has run out at now.
func (h holder) expired(now time.Time) bool {
	lease, lerr := time.ParseDuration(h.Lease)
	renewed, rerr := time.Parse(time.RFC3339Nano, h.Renewed)
	if lerr != nil || rerr != nil {
		return false // not judged: held, the message names it
	}
	return now.Sub(renewed) > lease
}

// The names in a claim folder: a generation's marker, and the lease file
// and work folder of the claim of a generation and token.
func markerName(gen int) string { return fmt.Sprintf("%s%06d", genPrefix, gen) }

func leaseName(gen int, token string) string {
	return fmt.Sprintf("%s%06d-%s.json", leasePrefix, gen, token)
}

func workName(gen int, token string) string {
	return fmt.Sprintf("%s%06d-%s", workPrefix, gen, token)
}

// genToken reads "000002-TOKEN" (after a prefix).
func genToken(rest string) (int, string, bool) {
	i := strings.IndexByte(rest, '-')
	if i <= 0 || i == len(rest)-1 {
		return 0, "", false
	}
	g, err := strconv.Atoi(rest[:i])
	return g, rest[i+1:], err == nil && g > 0
}

// claimFolder is what a claim folder holds.
type claimFolder struct {
	gens   []int       // markers, ascending
	works  []claimItem // work folders
	leases []claimItem // lease files
	lost   []string    // fenced work folders on their way out
	news   []string    // files on their way to a marker or a lease
	legacy bool        // an older version's owner file
}

type claimItem struct {
	gen   int
	token string
	name  string
}

func readClaimFolder(dir string) (claimFolder, error) {
	var f claimFolder
	entries, err := os.ReadDir(dir)
	if err != nil {
		return f, err
	}
	for _, en := range entries {
		name := en.Name()
		switch {
		case name == ownerFile:
			f.legacy = true
		case strings.HasPrefix(name, genPrefix):
			if g, err := strconv.Atoi(name[len(genPrefix):]); err == nil && g > 0 {
				f.gens = append(f.gens, g)
			}
		case strings.HasPrefix(name, workPrefix):
			if g, tok, ok := genToken(name[len(workPrefix):]); ok {
				f.works = append(f.works, claimItem{g, tok, name})
			}
		case strings.HasPrefix(name, leasePrefix) && strings.HasSuffix(name, ".json"):
			if g, tok, ok := genToken(strings.TrimSuffix(name[len(leasePrefix):], ".json")); ok {
				f.leases = append(f.leases, claimItem{g, tok, name})
			}
		case strings.HasPrefix(name, lostPrefix):
			f.lost = append(f.lost, name)
		case strings.HasPrefix(name, newPrefix):
			f.news = append(f.news, name)
		}
	}
	sort.Ints(f.gens)
	return f, nil
}

// lastGen is the newest generation of a claim folder: the largest marker
// listed, then any later one that a listing cached by a network file
// system missed (looked up by name, which such a system checks afresh).
func lastGen(dir string, f claimFolder) int {
	g := 0
	if len(f.gens) > 0 {
		g = f.gens[len(f.gens)-1]
	}
	for {
		if _, err := os.Lstat(filepath.Join(dir, markerName(g+1))); err != nil {
			return g
		}
		g++
	}
}

// readHolder reads a marker or a lease file.
func readHolder(path string) (holder, error) {
	var h holder
	data, err := configs.ReadInput(path, "a claim's marker or lease file")
	if err == nil {
		err = json.Unmarshal(data, &h)
	}
	if err == nil && (h.Token == "" || h.Generation < 1) {
		err = errors.New("no holder")
	}
	return h, err
}

// judge reads who holds generation gen of the claim folder dir and whether
// that claim may still be going (see the package's claims above).
func judge(dir string, gen int, cfg claimConfig) (holder, bool) {
	marker := filepath.Join(dir, markerName(gen))
	m, err := readHolder(marker)
	if err != nil {
		// Unreadable for a moment, or damaged: held while it is young.
		st, serr := os.Stat(marker)
		return holder{Generation: gen, Host: "?", Started: "?"}, serr == nil && cfg.now().Sub(st.ModTime()) < cfg.lease
	}
	if _, err := os.Lstat(filepath.Join(dir, workName(gen, m.Token))); err != nil {
		return m, false // released, fenced or published
	}
	h, err := readHolder(filepath.Join(dir, leaseName(gen, m.Token)))
	if errors.Is(err, fs.ErrNotExist) {
		return m, false // released, fenced or published
	}
	if err != nil || h.Token != m.Token {
		h = m // unreadable for a moment: judged by the marker
	}
	if h.expired(cfg.now()) {
		return h, false
	}
	if h.underThisKernel() && !processAlive(h.PID) {
		return h, false
	}
	return h, true
}

// ErrHeld is wrapped by the error of ClaimDir when another run, which may
// still be going, holds the folder's claim.
var ErrHeld = errors.New("the claim is held by another run")

// ErrLost is wrapped by the errors of Claim.Commit (and Claim.LostError)
// when the claim was taken over by another run, or another run published
// the folder: this run's work on it is discarded.
var ErrLost = errors.New("the claim was taken over by another run")

// errRetry: the claim folder changed while a claim looked; look again.
var errRetry = errors.New("the claim folder changed")

// Claim is a run's hold on the output folder it will write: a private work
// folder that becomes the output folder on Commit.
type Claim struct {
	final, dir, work, leaseFile string
	gen                         int
	token                       string
	cfg                         claimConfig

	mu      sync.Mutex
	rec     holder // this claim's lease, as last written
	done    bool
	lostWhy string        // why the claim was lost ("" while held)
	lostAt  string        // where that was noticed: renewal, before publishing, publishing
	lost    chan struct{} // closed once the claim is lost

	stop    chan struct{} // closed to end the renewals
	stopped chan struct{} // closed when they have ended

	// Removed lists what runs that ended had left in the parent folder
	// and the claim removed (see CleanStale), for a note.
	Removed []string
	// TookOver names the claim this one took over (whose lease had
	// expired, or whose process had ended), "" when there was none.
	TookOver string

	// adopted is the checkpoint this claim took over from an earlier
	// holder's work folder (Checkpoint), nil when there was none.
	adopted []byte
}

// checkpointName is the search's checkpoint in a claim's work folder.
const checkpointName = optimizer.CheckpointFile

// adoption carries, from one try of a claim to the next, the newest
// checkpoint found in the work folders it fenced: that of the claim of
// the latest generation that had one.
type adoption struct {
	gen  int
	data []byte
}

// take keeps the checkpoint of the fenced work folder dir of generation
// gen if it is newer than the one kept.
func (a *adoption) take(dir string, gen int) {
	if a == nil || a.data != nil && gen <= a.gen {
		return
	}
	if data, err := os.ReadFile(filepath.Join(dir, checkpointName)); err == nil && len(data) > 0 {
		a.gen, a.data = gen, data
	}
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
// is writable), removes what dead runs left in the parent (CleanStale),
// and takes the claim (see the claims above). The error is a *ClaimError
// naming the problem: dir exists, a path element is a file, the parent is
// not writable, or another live run holds dir (it wraps ErrHeld).
func ClaimDir(dir string) (*Claim, error) {
	return claimDir(dir, processClaimConfig())
}

func claimDir(dir string, cfg claimConfig) (*Claim, error) {
	fail := func(format string, args ...any) error {
		return &ClaimError{Dir: dir, Err: fmt.Errorf(format, args...)}
	}
	exists := func() error { return fail("output folder %s exists already; choose another with --out", dir) }
	if _, err := os.Lstat(dir); err == nil {
		return nil, exists()
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
		return nil, fail("cannot create the output folder %s: %v", dir, PlainPathError(err))
	}
	cdir := claimFolderOf(dir)
	removed := cleanStale(parent, cfg, filepath.Base(cdir))
	var adopted adoption
	for try := 0; try < claimTries; try++ {
		c, err := tryClaim(dir, cdir, cfg, &adopted)
		switch {
		case err == nil:
			c.Removed = removed
			if cfg.renew {
				c.stop, c.stopped = make(chan struct{}), make(chan struct{})
				go c.renewEvery(cfg.lease / 4)
			}
			return c, nil
		case errors.Is(err, errRetry):
			continue
		case errors.Is(err, fs.ErrExist) && fileExists(dir):
			return nil, exists()
		case errors.Is(err, fs.ErrPermission):
			return nil, fail("cannot write into %s (permission denied): choose another --out", parent)
		}
		var ce *ClaimError
		if errors.As(err, &ce) {
			return nil, err
		}
		return nil, fail("cannot claim the output folder %s: %v", dir, PlainPathError(err))
	}
	return nil, fail("cannot claim the output folder %s: its claim %s kept changing (%d tries); are many runs starting into it at once?", dir, cdir, claimTries)
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// retryIfGone turns "no such file" (the claim folder was removed while the
// claim looked: its run was published or released) into errRetry.
func retryIfGone(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errRetry
	}
	return err
}

// tryClaim makes one attempt at the claim folder cdir of final: it returns
// the claim, an error wrapping ErrHeld, errRetry, or another error.
func tryClaim(final, cdir string, cfg claimConfig, adopted *adoption) (*Claim, error) {
	// A complete folder: what its claim folder may hold is of no use.
	complete := func() error {
		removeAway(cdir, cfg)
		return fs.ErrExist
	}
	if fileExists(final) {
		return nil, complete()
	}
	if err := os.Mkdir(cdir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	f, err := readClaimFolder(cdir)
	if err != nil {
		return nil, retryIfGone(err)
	}
	tookOver := ""
	if f.legacy {
		o, live := legacyClaimLive(cdir, cfg)
		if live {
			return nil, heldError(final, o.String(), o.Lease != "")
		}
		if !removeAway(cdir, cfg) {
			return nil, fmt.Errorf("cannot remove %s, left by a run that ended", cdir)
		}
		return nil, errRetry
	}
	last := lastGen(cdir, f)
	lastToken := ""
	if last > 0 {
		h, live := judge(cdir, last, cfg)
		if live {
			return nil, heldError(final, h.String(), true)
		}
		if fileExists(filepath.Join(cdir, workName(last, h.Token))) {
			tookOver = h.String()
		}
		lastToken = h.Token
	}
	if fileExists(final) {
		return nil, complete()
	}
	cfg.pause("claim: judged")
	// Fence first: no claim of this generation or an earlier one can
	// publish from now on, so that none can once a later marker exists.
	fence(cdir, last, lastToken, cfg, adopted)
	gen := last + 1
	now := cfg.now().UTC()
	c := &Claim{final: final, dir: cdir, gen: gen, token: cfg.token(), cfg: cfg, lost: make(chan struct{}), TookOver: tookOver}
	c.work = filepath.Join(cdir, workName(gen, c.token))
	c.leaseFile = filepath.Join(cdir, leaseName(gen, c.token))
	c.rec = holder{Generation: gen, Token: c.token, Host: cfg.host, PID: os.Getpid(), PIDNamespace: pidNamespace(), BootID: bootID(),
		Started: now.Format(time.RFC3339), Lease: cfg.lease.String(), Renewed: now.Format(time.RFC3339Nano)}
	// The lease and the work folder first, the marker last: a claim that
	// finds the marker finds the holder's lease and folder too.
	if err := c.writeHolder(c.leaseFile, c.rec); err != nil {
		return nil, retryIfGone(err)
	}
	if err := os.Mkdir(c.work, dirMode); err != nil {
		c.discard()
		return nil, retryIfGone(err)
	}
	if adopted.data != nil {
		// The checkpoint taken over goes into this claim's folder before
		// the claim is marked, so that it survives this claim too.
		if err := writeSynced(c.work, checkpointName, adopted.data); err != nil {
			c.discard()
			return nil, retryIfGone(err)
		}
		c.adopted = adopted.data
	}
	if err := c.createMarker(); err != nil {
		c.discard()
		if errors.Is(err, fs.ErrExist) {
			return nil, errRetry // another claim took this generation first
		}
		return nil, retryIfGone(err)
	}
	cfg.pause("claim: marked")
	c.tidy()
	if !fileExists(c.work) {
		c.discard() // a later claim fenced this one already
		return nil, errRetry
	}
	if fileExists(final) {
		c.discard()
		return nil, complete()
	}
	return c, nil
}

func heldError(final, who string, leased bool) error {
	how := "remove " + claimFolderOf(final) + " if no such run is in progress"
	if leased {
		how = "it is taken over once its lease expires, when that run has ended"
	}
	return &ClaimError{Dir: final, Holder: who, Err: fmt.Errorf("output folder %s is being written by another hetmap run (%s); choose another --out, or wait: %s: %w", final, who, how, ErrHeld)}
}

// writeHolder writes a lease file whole: a file of its own renamed over
// the old one, so that a reader never sees half of it.
func (c *Claim) writeHolder(path string, h holder) error {
	data, _ := json.Marshal(h)
	tmp := filepath.Join(c.dir, fmt.Sprintf("%s%s-%d", newPrefix, c.token, tempCounter.Add(1)))
	if err := os.WriteFile(tmp, data, fileMode); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// createMarker creates this claim's generation marker whole, and only if
// no other claim has created it: a hard link of a finished file fails when
// the name exists.
func (c *Claim) createMarker() error {
	data, _ := json.Marshal(c.rec)
	tmp := filepath.Join(c.dir, fmt.Sprintf("%s%s-%d", newPrefix, c.token, tempCounter.Add(1)))
	if err := os.WriteFile(tmp, data, fileMode); err != nil {
		os.Remove(tmp)
		return err
	}
	defer os.Remove(tmp)
	return os.Link(tmp, filepath.Join(c.dir, markerName(c.gen)))
}

// fence renames away the work folders of the claims of generation upTo
// and earlier (that of upTo's holder, token, by its name, which a cached
// listing cannot miss), and removes their leases, so that none of them can
// publish: a name is renamed away only once, and its claim's rename into
// place then finds no folder. Before it removes a folder it renamed away,
// it adopts the folder's checkpoint if it is the newest (adopted): the
// folder's claim can no longer write into it.
func fence(dir string, upTo int, token string, cfg claimConfig, adopted *adoption) {
	by := cfg.token()
	away := func(name string, gen int) {
		lost := filepath.Join(dir, lostPrefix+name+"-"+by)
		if os.Rename(filepath.Join(dir, name), lost) == nil {
			adopted.take(lost, gen)
			os.RemoveAll(lost)
		}
	}
	if token != "" {
		away(workName(upTo, token), upTo)
		os.Remove(filepath.Join(dir, leaseName(upTo, token)))
	}
	f, err := readClaimFolder(dir)
	if err != nil {
		return
	}
	for _, w := range f.works {
		if w.gen <= upTo {
			away(w.name, w.gen)
		}
	}
	for _, l := range f.leases {
		if l.gen <= upTo {
			os.Remove(filepath.Join(dir, l.name))
		}
	}
}

// tidy removes what claims that ended left in the claim folder: fenced
// folders that their claims did not finish removing, and files on their
// way to a lease or marker older than the lease.
func (c *Claim) tidy() {
	f, err := readClaimFolder(c.dir)
	if err != nil {
		return
	}
	for _, name := range f.lost {
		os.RemoveAll(filepath.Join(c.dir, name))
	}
	for _, name := range f.news {
		if st, err := os.Stat(filepath.Join(c.dir, name)); err == nil && c.cfg.now().Sub(st.ModTime()) > c.cfg.lease {
			os.Remove(filepath.Join(c.dir, name))
		}
	}
}

// Dir is the output folder claimed.
func (c *Claim) Dir() string { return c.final }

// Folder is the claim's folder beside the output folder (.NAME.tmp), where
// its work folder and checkpoints live until the run is published.
func (c *Claim) Folder() string { return c.dir }

// Checkpoint returns the checkpoint that the claim took over from an
// earlier holder of the folder (a run killed, stopped or requeued before
// it finished: the newest checkpoint its work folder held), nil when there
// was none. The checkpoint is in the claim's work folder too, until the
// claim saves its own.
func (c *Claim) Checkpoint() []byte { return c.adopted }

// SaveCheckpoint writes a search's checkpoint into the claim's work folder,
// where a later claim of the folder finds it: atomically (a file of its
// own, synced, renamed over the last). It fails once the claim is lost.
func (c *Claim) SaveCheckpoint(data []byte) error {
	if !c.checkHeld("saving a checkpoint") {
		return c.LostError()
	}
	if err := writeSynced(c.work, checkpointName, data); err != nil {
		if !c.checkHeld("saving a checkpoint") {
			return c.LostError()
		}
		return fmt.Errorf("cannot save the search's checkpoint for %s: %v", c.final, PlainPathError(err))
	}
	return nil
}

// Suspend gives the claim up so that a later claim of the folder takes it
// over at once and continues from its checkpoint: the lease is removed and
// the work folder, with the checkpoint, stays (CleanStale keeps it). A
// claim whose work folder holds no checkpoint is released instead. Like
// Release it does nothing once Commit has published.
func (c *Claim) Suspend() {
	if c.used() {
		return
	}
	if !fileExists(filepath.Join(c.work, checkpointName)) {
		c.Release()
		return
	}
	c.finish()
	os.Remove(c.leaseFile)
}

// writeSynced writes dir/name whole and durably: into a file of its own in
// dir, synced, renamed over name, and dir synced (where the system allows),
// so that a crash leaves the old file or the new one.
func writeSynced(dir, name string, data []byte) error {
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.%s%d-%d", name, newPrefix, os.Getpid(), tempCounter.Add(1)))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err := errors.Join(err, f.Close()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // not every system syncs a folder; the rename is done
		d.Close()
	}
	return nil
}

// Lost is closed once the claim is known to be lost: another run took it
// over (this process did not renew its lease in time) or published the
// folder. What the run does for the folder is wasted from then on.
func (c *Claim) Lost() <-chan struct{} { return c.lost }

// LostError is the error that says the claim was lost and why (it wraps
// ErrLost), or nil while the claim is held.
func (c *Claim) LostError() error {
	c.mu.Lock()
	why := c.lostWhy
	c.mu.Unlock()
	if why == "" {
		return nil
	}
	return &lostError{dir: c.final, why: why}
}

type lostError struct{ dir, why string }

func (e *lostError) Error() string {
	return fmt.Sprintf("the claim on %s was lost: %s; this run's work on it is discarded", e.dir, e.why)
}

func (e *lostError) Unwrap() error { return ErrLost }

func (c *Claim) markLost(why, where string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lostWhy == "" {
		c.lostWhy, c.lostAt = why, where
		close(c.lost)
	}
}

// takenBy says why this claim's work folder is gone or superseded.
func (c *Claim) takenBy() string {
	why := fmt.Sprintf("this process had not renewed its lease of %s in time (it was stopped, suspended or cut off for longer)", c.cfg.lease)
	if h, err := readHolder(filepath.Join(c.dir, markerName(c.gen+1))); err == nil {
		return fmt.Sprintf("another run took it over (%s) because %s", h, why)
	}
	if fileExists(c.final) {
		return "another run took it over and completed the folder because " + why
	}
	return "another run took it for dead and removed its work folder because " + why
}

// checkHeld marks the claim lost when its work folder is gone or a later
// generation exists, and reports whether it is still held; where says
// what the claim is doing.
func (c *Claim) checkHeld(where string) bool {
	if c.LostError() != nil {
		return false
	}
	if !fileExists(c.work) || fileExists(filepath.Join(c.dir, markerName(c.gen+1))) {
		c.markLost(c.takenBy(), where)
		return false
	}
	return true
}

// renew renews the lease once, unless the claim is lost; a renewal that
// fails is retried at the next.
func (c *Claim) renew() {
	if !c.checkHeld("renewal") {
		return
	}
	c.mu.Lock()
	c.rec.Renewed = c.cfg.now().UTC().Format(time.RFC3339Nano)
	rec := c.rec
	c.mu.Unlock()
	_ = c.writeHolder(c.leaseFile, rec)
}

// renewEvery renews the lease every interval until the claim ends or is
// lost.
func (c *Claim) renewEvery(interval time.Duration) {
	defer close(c.stopped)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
		}
		c.renew()
		if c.LostError() != nil {
			return
		}
	}
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

// discard removes this claim's work folder and lease (its own names: they
// are no other claim's, whatever happened meanwhile).
func (c *Claim) discard() {
	os.RemoveAll(c.work)
	os.Remove(c.leaseFile)
}

// Commit writes the folder's files with write, which receives the claim's
// work folder, and publishes it: renames it into place, so that the output
// folder appears complete or not at all, and only for the claim's current
// holder. When the claim was lost before or while write ran, or another
// run published the folder, the work is discarded and the error wraps
// ErrLost. On any other failure the claim is released.
func (c *Claim) Commit(write func(tmp string) error) error {
	if err := c.write(write); err != nil {
		return err
	}
	return c.publish()
}

// write is Commit's first step: the files into the work folder.
func (c *Claim) write(write func(tmp string) error) error {
	c.mu.Lock()
	done := c.done
	c.mu.Unlock()
	if done {
		return fmt.Errorf("the claim on %s is used already", c.final)
	}
	if !c.checkHeld("before publishing") {
		c.finish()
		c.discard()
		return c.LostError()
	}
	if err := write(c.work); err != nil {
		if !c.checkHeld("before publishing") {
			c.finish()
			c.discard()
			return c.LostError()
		}
		c.Release()
		return err
	}
	return nil
}

// publish is Commit's second step: the one atomic step, the work folder
// renamed into place, which fails when a later claim has fenced it.
func (c *Claim) publish() error {
	c.finish()
	if !c.checkHeld("before publishing") {
		c.discard()
		return c.LostError()
	}
	c.cfg.pause("publish: checked")
	// A complete folder needs no checkpoint.
	os.Remove(filepath.Join(c.work, checkpointName))
	if err := os.Rename(c.work, c.final); err != nil {
		if fileExists(c.final) || !fileExists(c.work) {
			c.markLost(c.takenBy(), "publishing")
			c.discard()
			return c.LostError()
		}
		c.discard()
		return err
	}
	c.cfg.pause("published")
	os.Remove(c.leaseFile)
	removeAway(c.dir, c.cfg) // the markers and what other claims left: the run is complete
	return nil
}

// finish ends the claim's renewals and marks it used.
func (c *Claim) finish() {
	c.mu.Lock()
	c.done = true
	c.mu.Unlock()
	c.endRenewal()
}

// Release gives the claim up, removing its work folder, unless Commit has
// published it. It may be called more than once.
func (c *Claim) Release() {
	if c.used() {
		return
	}
	c.finish()
	c.discard()
	c.removeIfIdle()
}

// used reports whether the claim is nil, published or given up.
func (c *Claim) used() bool {
	if c == nil {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

// removeIfIdle removes the claim folder when nothing but this claim's
// markers and earlier ones is left in it (a released claim leaves nothing
// behind). A claim starting at that very moment finds its folder gone and
// starts again.
func (c *Claim) removeIfIdle() {
	f, err := readClaimFolder(c.dir)
	if err != nil || len(f.works) > 0 || len(f.leases) > 0 || len(f.news) > 0 || len(f.lost) > 0 || lastGen(c.dir, f) > c.gen {
		return
	}
	removeAway(c.dir, c.cfg)
}

// removeAway removes a folder that another process may still write into:
// it renames it to a name of its own first, then removes that.
func removeAway(path string, cfg claimConfig) bool {
	trash := path + trashTag + cfg.token()
	if err := os.Rename(path, trash); err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	os.RemoveAll(trash)
	return true
}

// cleanClaimFolder removes the claim folder path (of the output folder
// final) when no claim in it may still be going and none is to be taken
// over by a run into final: its run was published, its holder's process
// has ended under this kernel, or its lease expired longer than
// legacyTempAge ago (a run into final takes an expired claim over itself,
// and says so). It returns what it removed.
func cleanClaimFolder(path, final string, cfg claimConfig) []string {
	size := diskSize(path)
	gone := func() []string {
		if removeAway(path, cfg) {
			return []string{fmt.Sprintf("%s (%s)", path, sizeText(size))}
		}
		return nil
	}
	f, err := readClaimFolder(path)
	if err != nil {
		return nil
	}
	if f.legacy {
		if _, live := legacyClaimLive(path, cfg); live {
			return nil
		}
		return gone()
	}
	if fileExists(final) {
		return gone() // left by a run that published and ended before removing it
	}
	// A claim on its way (its lease and work folder made, its marker not
	// yet) keeps the folder.
	young := func(name string, age time.Duration) bool {
		st, err := os.Stat(filepath.Join(path, name))
		return err == nil && cfg.now().Sub(st.ModTime()) < age
	}
	last := lastGen(path, f)
	for _, w := range append(f.works, f.leases...) {
		if w.gen > last && young(w.name, cfg.lease) {
			return nil
		}
	}
	if last == 0 {
		if young(".", cfg.lease) {
			return nil
		}
		return gone()
	}
	h, live := judge(path, last, cfg)
	switch {
	case live:
		return nil
	case !fileExists(filepath.Join(path, workName(last, h.Token))):
		return gone() // released or fenced
	case fileExists(filepath.Join(path, workName(last, h.Token), checkpointName)):
		return nil // a checkpoint, which the run's next claim continues from
	case h.underThisKernel() && !processAlive(h.PID):
		return gone()
	}
	if renewed, err := time.Parse(time.RFC3339Nano, h.Renewed); err == nil {
		if lease, err := time.ParseDuration(h.Lease); err == nil && cfg.now().Sub(renewed) < lease+legacyTempAge {
			return nil
		}
	}
	return gone()
}

// legacyOwner is the owner file of an older version's claim. Lease,
// Renewed and PIDNamespace are empty in the oldest versions' files, whose
// claims are judged as then: live while their process runs on this host,
// and always on another host.
type legacyOwner struct {
	Host         string `json:"host"`
	PID          int    `json:"pid"`
	Started      string `json:"started_utc"`
	Lease        string `json:"lease,omitempty"`
	Renewed      string `json:"renewed_utc,omitempty"`
	PIDNamespace string `json:"pid_namespace,omitempty"`
}

func (o legacyOwner) String() string {
	s := fmt.Sprintf("process %d on %s, started %s", o.PID, o.Host, o.Started)
	if o.Renewed != "" {
		s += ", lease renewed " + o.Renewed
	}
	return s
}

// legacyClaimLive reads an older version's claim folder's owner and
// reports whether that run may still be going, as those versions judged
// it.
func legacyClaimLive(tmp string, cfg claimConfig) (legacyOwner, bool) {
	var o legacyOwner
	data, err := configs.ReadInput(filepath.Join(tmp, ownerFile), "the claim's owner file")
	if err != nil || json.Unmarshal(data, &o) != nil || o.PID <= 0 {
		st, err := os.Stat(tmp)
		return legacyOwner{Host: "?", Started: "?"}, err == nil && cfg.now().Sub(st.ModTime()) < max(cfg.lease, legacyTempAge)
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
	if cfg.now().Sub(renewed) > lease {
		return o, false
	}
	if here && !processAlive(o.PID) {
		return o, false
	}
	return o, true
}
