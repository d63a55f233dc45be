//go:build unix

package results

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

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
