package configs

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxInputSize bounds every file hetmap reads as input (configurations,
// mappings, sweep files, Amalthea models, kernel sets, the JSON files of a
// run folder): the real models are tens of kilobytes, and a bound keeps a
// wrong path (a log, a disk image) from filling the memory.
const MaxInputSize = 64 << 20

// OpenInput opens the input file path for reading, the one way hetmap
// opens what it is given: what names the file's role in messages ("the
// configuration"). Only a regular file is opened: a FIFO, a device, a
// socket or a folder is refused before anything is read from it, with a
// message that names the file and what it is. The path is looked at before
// it is opened (opening a device can have effects of its own) and the open
// file again after (a FIFO put in its place in between would make a
// blocking open wait for a writer for ever: the open does not block, see
// openFlags). The caller closes the file; st is its information.
func OpenInput(path, what string) (f *os.File, st fs.FileInfo, err error) {
	if path == "" {
		return nil, nil, &InputError{What: fmt.Sprintf("no file named for %s (an empty name)", what)}
	}
	st, err = os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	if err := regularFile(path, what, st); err != nil {
		return nil, nil, err
	}
	f, err = os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	if st, err = f.Stat(); err == nil {
		err = regularFile(path, what, st)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// regularFile refuses what is not a regular file, saying what it is.
func regularFile(path, what string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case st.IsDir():
		kind = "a folder"
	case st.Mode()&os.ModeNamedPipe != 0:
		kind = "a FIFO (named pipe)"
	case st.Mode()&os.ModeSocket != 0:
		kind = "a socket"
	case st.Mode()&os.ModeDevice != 0:
		kind = "a device"
	}
	return &InputError{File: path, What: fmt.Sprintf("%s is %s, not a regular file: give a file", what, kind)}
}

// ReadInput reads a whole input file (OpenInput) through the size limit:
// a file larger than MaxInputSize is refused from its size, before it is
// read, and one that grows past the limit while it is read is refused
// there. An empty file (nothing but white space) is refused, saying so.
func ReadInput(path, what string) ([]byte, error) {
	f, st, err := OpenInput(path, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > MaxInputSize {
		return nil, tooLarge(path, what)
	}
	// Read into a buffer of the file's size (io.ReadAll grows its buffer
	// by doubling: up to twice the file in memory).
	data, err := readSized(f, path, what, st.Size())
	if err == nil && len(bytes.TrimSpace(data)) == 0 {
		return nil, &InputError{File: path, What: fmt.Sprintf("the file is empty: %s has no content", what)}
	}
	return data, err
}

// ReadLimited reads r through the size limit; name and what say what r is.
func ReadLimited(r io.Reader, name, what string) ([]byte, error) {
	return readSized(r, name, what, 0)
}

// readSized is ReadLimited with the expected size of r (0: unknown).
func readSized(r io.Reader, name, what string, size int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(r, MaxInputSize+1))
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s: %w", what, name, err)
	}
	if len(data) > MaxInputSize {
		return nil, tooLarge(name, what)
	}
	return data, nil
}

func tooLarge(name, what string) error {
	return &InputError{File: name, What: fmt.Sprintf("%s is larger than %d MiB, the limit for an input file: is it the right file?", what, MaxInputSize>>20)}
}
