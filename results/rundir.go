package results

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// A run folder appears only complete, and only one run writes it: the run
// claims it when it starts (ClaimDir) and publishes it by renaming its
// private work folder into place (see claim.go). Temporary files of an
// atomic write (WriteFileAtomic) live beside their target under a name of
// their own.
//
// Folders and files are created with modes 0777 and 0666, so that the
// user's umask decides, as for any other program.

const (
	// claimSuffix ends the name of a claim folder (.NAME.tmp) and, with
	// a suffix after a dash, of temporary files and folders.
	claimSuffix = ".tmp"
	// legacyTempAge: temporary folders and files of older hetmap versions
	// (.NAME.tmp-NNN, without an owner file) existed only for the last
	// moments of a run; one older than this is a dead run's.
	legacyTempAge = 10 * time.Minute
	dirMode       = 0o777
	fileMode      = 0o666
)

// claimFolderOf is the claim folder of the output folder dir: .NAME.tmp
// beside it.
func claimFolderOf(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+claimSuffix)
}

// IsTemp reports whether a name in an output folder's parent is a
// temporary folder or file of a run: a claim (.NAME.tmp) or what older
// versions and atomic file writes use (.NAME.tmp-SUFFIX).
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && (strings.HasSuffix(name, claimSuffix) || strings.Contains(name, claimSuffix+"-"))
}

// CleanStale removes from dir the temporary folders and files that runs
// which have ended left behind: claim folders in which no claim may still
// be going (see ClaimDir), the trash of claims, and temporary names of
// older versions and of atomic writes whose process has ended, or older
// than legacyTempAge. It leaves everything else alone and returns what it
// removed (with its size), for a note; a stale folder it cannot remove
// only takes room.
func CleanStale(dir string) []string {
	return cleanStale(dir, processClaimConfig(), "")
}

// cleanStale is CleanStale with the claims' configuration, leaving alone
// the claim folder named skip (that of a claim about to be taken, which
// takes over what it finds there itself).
func cleanStale(dir string, cfg claimConfig, skip string) []string {
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
		if !IsTemp(name) || name == skip {
			continue
		}
		path := filepath.Join(dir, name)
		switch {
		case en.IsDir() && strings.HasSuffix(name, claimSuffix):
			final := filepath.Join(dir, strings.TrimSuffix(strings.TrimPrefix(name, "."), claimSuffix))
			removed = append(removed, cleanClaimFolder(path, final, cfg)...)
			continue
		case strings.Contains(name, claimSuffix+trashTag):
			os.RemoveAll(path) // its claim is removing it too, or has died doing so
			continue
		}
		if pid, ok := tempFilePID(name); ok {
			if !processAlive(pid) {
				remove(path)
			}
			continue
		}
		if info, err := en.Info(); err == nil && cfg.now().Sub(info.ModTime()) > legacyTempAge {
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
	return WriteFileAtomicFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileAtomicFunc writes path as WriteFileAtomic does, with what write
// writes through a buffer into the temporary file (a report is written as
// it is rendered). An error of write, as one of writing the file, is
// "cannot write PATH: …".
func WriteFileAtomicFunc(path string, write func(io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".%s%s-%s-%d-%d", base, claimSuffix, hostname(), os.Getpid(), tempCounter.Add(1)))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return PlainPathError(err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	werr := write(bw)
	if werr == nil {
		werr = bw.Flush()
	}
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, PlainPathError(err))
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return PlainPathError(err)
	}
	return nil
}

// PlainPathError drops the operation of a *fs.PathError ("mkdir x: not a
// directory" becomes "x: not a directory").
func PlainPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}
