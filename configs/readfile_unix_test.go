//go:build unix

package configs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenInputRefusesNonRegular: a FIFO, a folder, a device and a link to
// a device are refused before anything is read, naming the file and what
// it is (a FIFO opened for reading would wait for a writer for ever, a
// link to /dev/urandom fill the memory).
func TestOpenInputRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	random := filepath.Join(dir, "random.yaml")
	if err := os.Symlink("/dev/urandom", random); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, kind string }{
		{fifo, "a FIFO (named pipe)"},
		{dir, "a folder"},
		{"/dev/null", "a device"},
		{random, "a device"},
	} {
		f, _, err := OpenInput(tt.path, "the mapping")
		var ie *InputError
		if !errors.As(err, &ie) || ie.File != tt.path || !strings.Contains(err.Error(), "the mapping is "+tt.kind+", not a regular file") {
			t.Errorf("%s: %v; want the mapping is %s", tt.path, err, tt.kind)
		}
		if f != nil {
			f.Close()
			t.Errorf("%s: a file was returned", tt.path)
		}
	}
}

// TestOpenFlagsDoNotBlock: the open that follows OpenInput's Stat does not
// wait for a writer when a FIFO has taken the file's place in between (a
// blocking open would hang this test until go test's timeout).
func TestOpenFlagsDoNotBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(fifo, openFlags, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	f.Close()
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("stat of the open FIFO: %v, %v", st, err)
	}
	if err := regularFile(fifo, "the model", st); err == nil || !strings.Contains(err.Error(), "the model is a FIFO (named pipe)") {
		t.Errorf("the open FIFO: %v", err)
	}
}
