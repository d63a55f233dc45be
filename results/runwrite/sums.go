package runwrite

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/hetmap/hetmap/results"
)

// Folders and files are created with modes 0777 and 0666, so that the
// user's umask decides, as for any other program (and as results' claims
// do).
const (
	dirMode  = 0o777
	fileMode = 0o666
)

// fileSums collects the FileSum of every file a run writes, by its
// slash-separated path in the run folder.
type fileSums map[string]results.FileSum

// write writes the file name (slash-separated) of the folder dir and
// records its sum.
func (s fileSums) write(dir, name string, data []byte) error {
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, fileMode); err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	s[name] = results.FileSum{Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
	return nil
}

// summingWriter passes what is written on to w and sums it.
type summingWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func newSummingWriter(w io.Writer) *summingWriter { return &summingWriter{w: w, h: sha256.New()} }

func (s *summingWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.h.Write(p[:n])
	s.n += int64(n)
	return n, err
}

func (s *summingWriter) sum() results.FileSum {
	return results.FileSum{Bytes: s.n, SHA256: hex.EncodeToString(s.h.Sum(nil))}
}
