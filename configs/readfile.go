package configs

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// MaxInputSize bounds every file hetmap reads as input (configurations,
// mappings, sweep files, Amalthea models): the real models are tens of
// kilobytes, and a bound keeps a wrong path (a device such as /dev/zero, a
// log, a disk image) from filling the memory.
const MaxInputSize = 64 << 20

// ReadInput reads a whole input file through the size limit. what names
// the file's role in messages ("the configuration").
//
// The file must be a regular file: a FIFO, a device, a socket or a folder
// is refused before it is opened (opening a FIFO would wait for a writer
// for ever). An empty file (nothing but white space) is refused, saying so.
func ReadInput(path, what string) ([]byte, error) {
	if path == "" {
		return nil, &InputError{What: fmt.Sprintf("no file named for %s (an empty name)", what)}
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	if !st.Mode().IsRegular() {
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
		return nil, &InputError{File: path, What: fmt.Sprintf("%s is %s, not a regular file: give a file", what, kind)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	// A regular file is read into a buffer of its size (io.ReadAll grows
	// its buffer by doubling: up to twice the file in memory).
	size := int64(0)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= MaxInputSize {
		size = st.Size()
	}
	data, err := readSized(f, path, what, size)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("cannot read %s: %w", what, cerr)
	}
	if err == nil && len(bytes.TrimSpace(data)) == 0 {
		return nil, &InputError{File: path, What: fmt.Sprintf("the file is empty: %s has no content", what)}
	}
	return data, err
}

// readLimited reads r through the size limit; name and what say what r is.
func readLimited(r io.Reader, name, what string) ([]byte, error) {
	return readSized(r, name, what, 0)
}

// readSized is readLimited with the expected size of r (0: unknown).
func readSized(r io.Reader, name, what string, size int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(r, MaxInputSize+1))
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s: %w", what, name, err)
	}
	if len(data) > MaxInputSize {
		return nil, &InputError{File: name, What: fmt.Sprintf("%s is larger than %d MiB, the limit for an input file: is it the right file?", what, MaxInputSize>>20)}
	}
	return data, nil
}
