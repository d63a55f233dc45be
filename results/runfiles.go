package results

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// A run folder's manifest records the size and SHA-256 of every file the
// run wrote before it (Manifest.Files): config.yaml, front.json, front.csv
// and every file of mappings/. report and compare check them before they
// read the folder, so that a file changed after the run (a point's
// evaluation replaced by another point's, or by {}) is refused, naming
// it, instead of reported as if the run had written it. report.html,
// written after the manifest from the files it lists, and the manifest
// itself are not listed. Folders written before hetmap recorded the files
// have no list and are read as they are.

// FileSum is what the manifest records of a file: its size and SHA-256.
type FileSum struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// fileSums collects the FileSum of every file a run writes, by its
// slash-separated path in the run folder.
type fileSums map[string]FileSum

// write writes the file name (slash-separated) of the folder dir and
// records its sum.
func (s fileSums) write(dir, name string, data []byte) error {
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, fileMode); err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	s[name] = FileSum{Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
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

func (s *summingWriter) sum() FileSum {
	return FileSum{Bytes: s.n, SHA256: hex.EncodeToString(s.h.Sum(nil))}
}

// checkRunFiles checks every file that the manifest of the run folder dir
// lists against its recorded size and SHA-256: each must be a regular file
// (read through configs.OpenInput) of that size and checksum. The error
// (a *ReportError) names the first file that is not.
func checkRunFiles(dir string, files map[string]FileSum) error {
	manifest := filepath.Join(dir, "manifest.json")
	for _, name := range slices.Sorted(maps.Keys(files)) {
		want := files[name]
		local := filepath.FromSlash(name)
		if strings.Contains(name, `\`) || !filepath.IsLocal(local) {
			return &ReportError{Dir: dir, Err: fmt.Errorf("%s: lists %q, which is not a file of the run folder", manifest, name)}
		}
		path := filepath.Join(dir, local)
		got, err := sumFile(path, "the run's "+name, want.Bytes)
		if err != nil {
			return &ReportError{Dir: dir, Err: atPath(path, err)}
		}
		if got != want {
			return &ReportError{Dir: dir, Err: fmt.Errorf("%s: not the file the run wrote: %s, where manifest.json records %s; the folder was changed after the run (restore the file, or run the search again)",
				path, describeSum(got), describeSum(want))}
		}
	}
	return nil
}

// sumFile returns the size and SHA-256 of the file path; a file of another
// size than want's is not read (its checksum is left empty).
func sumFile(path, what string, want int64) (FileSum, error) {
	f, st, err := configs.OpenInput(path, what)
	if err != nil {
		return FileSum{}, err
	}
	defer f.Close()
	if st.Size() != want {
		return FileSum{Bytes: st.Size()}, nil
	}
	s := newSummingWriter(io.Discard)
	// One more byte than recorded: a file that grew since its Stat differs.
	if _, err := io.Copy(s, io.LimitReader(f, want+1)); err != nil {
		return FileSum{}, err
	}
	return s.sum(), nil
}

// describeSum is a FileSum for a message: its size, and the first 16 hex
// digits of its checksum when known.
func describeSum(s FileSum) string {
	d := fmt.Sprintf("%d bytes", s.Bytes)
	if len(s.SHA256) >= 16 {
		d += " of SHA-256 " + s.SHA256[:16] + "…"
	}
	return d
}
