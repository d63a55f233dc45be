package configs

import (
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
func ReadInput(path, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	data, err := readLimited(f, path, what)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("cannot read %s: %w", what, cerr)
	}
	return data, err
}

// readLimited reads r through the size limit; name and what say what r is.
func readLimited(r io.Reader, name, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInputSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %s: %w", what, name, err)
	}
	if len(data) > MaxInputSize {
		return nil, &InputError{File: name, What: fmt.Sprintf("%s is larger than %d MiB, the limit for an input file: is it the right file?", what, MaxInputSize>>20)}
	}
	return data, nil
}
