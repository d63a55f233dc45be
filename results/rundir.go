package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// A run folder appears only complete: a run writes into a temporary folder
// beside it, .NAME.tmp, and renames that into place at the end. The run
// takes that temporary folder when it starts, before it searches (ClaimDir):
// creating a folder is atomic, so of two runs into one folder only one gets
// it, and the other fails at once instead of after its search. The
// temporary folder holds an owner file naming the host, the process and the
// start time; a later claim that finds it removes it when that process is
// gone (a run killed with SIGKILL, a power cut), and otherwise names the run
// that holds it. The same goes for every claim in the parent folder, so the
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

// owner is the content of the owner file.
type owner struct {
	Host    string `json:"host"`
	PID     int    `json:"pid"`
	Started string `json:"started_utc"`
}

func (o owner) String() string {
	return fmt.Sprintf("process %d on %s, started %s", o.PID, o.Host, o.Started)
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown-host"
	}
	return h
}

// Claim is a run's hold on the output folder it will write: the temporary
// folder that becomes the output folder on Commit.
type Claim struct {
	final, tmp string
	done       bool
}

// ClaimError says why an output folder cannot be claimed: it exists, its
// parent cannot hold it, or another run holds it. Nothing was created.
type ClaimError struct {
	Dir string
	Err error
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
	CleanStale(parent)
	c := &Claim{final: dir, tmp: filepath.Join(parent, "."+filepath.Base(dir)+claimSuffix)}
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
			return nil, fail("output folder %s is being written by another hetmap run (%s); choose another --out, or remove %s if no such run is in progress", dir, o, c.tmp)
		}
		if err := os.RemoveAll(c.tmp); err != nil {
			return nil, fail("cannot remove %s, left by a run that ended: %v", c.tmp, err)
		}
	}
	o := owner{Host: hostname(), PID: os.Getpid(), Started: time.Now().UTC().Format(time.RFC3339)}
	data, _ := json.Marshal(o)
	if err := os.WriteFile(filepath.Join(c.tmp, ownerFile), data, fileMode); err != nil {
		os.RemoveAll(c.tmp)
		return nil, fail("cannot write into %s: %v", parent, plainPathError(err))
	}
	return c, nil
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
	os.RemoveAll(c.tmp)
}

// claimOwner reads a claimed folder's owner and reports whether that run
// may still be going: on this host, whether its process exists; on
// another host (a shared folder of a cluster), always, since this host
// cannot tell. A folder without a readable owner file is live while it is
// younger than legacyTempAge (its owner may be about to write the file).
func claimOwner(tmp string) (owner, bool) {
	var o owner
	data, err := os.ReadFile(filepath.Join(tmp, ownerFile))
	if err != nil || json.Unmarshal(data, &o) != nil || o.PID <= 0 {
		st, err := os.Stat(tmp)
		return owner{Host: "?", Started: "?"}, err == nil && time.Since(st.ModTime()) < legacyTempAge
	}
	if o.Host != hostname() {
		return o, true
	}
	return o, processAlive(o.PID)
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
// It leaves everything else alone and reports nothing: a stale folder it
// cannot remove only takes room.
func CleanStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, en := range entries {
		name := en.Name()
		if !IsTemp(name) {
			continue
		}
		path := filepath.Join(dir, name)
		if en.IsDir() && strings.HasSuffix(name, claimSuffix) {
			if _, live := claimOwner(path); !live {
				os.RemoveAll(path)
			}
			continue
		}
		if pid, ok := tempFilePID(name); ok {
			if !processAlive(pid) {
				os.RemoveAll(path)
			}
			continue
		}
		if info, err := en.Info(); err == nil && time.Since(info.ModTime()) > legacyTempAge {
			os.RemoveAll(path)
		}
	}
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
