package runfolder

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/results"
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

// checkRunFiles checks every file that the manifest of the run folder dir
// lists against its recorded size and SHA-256: each must be a regular file
// (read through configs.OpenInput) of that size and checksum. The error
// (a *Error) names the first file that is not.
func checkRunFiles(dir string, files map[string]results.FileSum) error {
	manifest := filepath.Join(dir, "manifest.json")
	for _, name := range slices.Sorted(maps.Keys(files)) {
		want := files[name]
		local := filepath.FromSlash(name)
		if strings.Contains(name, `\`) || !filepath.IsLocal(local) {
			return &Error{Dir: dir, Err: fmt.Errorf("%s: lists %q, which is not a file of the run folder", manifest, name)}
		}
		path := filepath.Join(dir, local)
		got, err := sumFile(path, "the run's "+name, want.Bytes)
		if err != nil {
			return &Error{Dir: dir, Err: atPath(path, err)}
		}
		if got != want {
			return &Error{Dir: dir, Err: fmt.Errorf("%s: not the file the run wrote: %s, where manifest.json records %s; the folder was changed after the run (restore the file, or run the search again)",
				path, describeSum(got), describeSum(want))}
		}
	}
	return nil
}

// sumFile returns the size and SHA-256 of the file path; a file of another
// size than want's is not read (its checksum is left empty).
func sumFile(path, what string, want int64) (results.FileSum, error) {
	f, st, err := configs.OpenInput(path, what)
	if err != nil {
		return results.FileSum{}, err
	}
	defer f.Close()
	if st.Size() != want {
		return results.FileSum{Bytes: st.Size()}, nil
	}
	h := sha256.New()
	// One more byte than recorded: a file that grew since its Stat differs.
	n, err := io.Copy(h, io.LimitReader(f, want+1))
	if err != nil {
		return results.FileSum{}, err
	}
	return results.FileSum{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// describeSum is a FileSum for a message: its size, and the first 16 hex
// digits of its checksum when known.
func describeSum(s results.FileSum) string {
	d := fmt.Sprintf("%d bytes", s.Bytes)
	if len(s.SHA256) >= 16 {
		d += " of SHA-256 " + s.SHA256[:16] + "…"
	}
	return d
}
