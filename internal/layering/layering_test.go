package layering

import (
	"go/build"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/hetmap/hetmap/"

// library names the packages under internal/ that are not helpers of tests:
// every package of the module may import them (none today).
var library = map[string]bool{}

// layer of every package, lowest first (DEVELOPERS.md): the saturating
// arithmetic, the system description and the analysis leaves, then what
// builds on them, up to the command line. A package may import only
// packages of a lower layer; a new package must be placed here.
var layer = map[string]int{
	"rta/sat":             0,
	"configs":             1,
	"memory":              1,
	"rta":                 1,
	"rta/gpu":             1,
	"rta/gpusim":          1,
	"chains":              1,
	"optimizer/moo":       1,
	"configs/gpuscenario": 2,
	"configs/amalthea":    2,
	"rta/syssim":          2,
	"optimizer/evaluate":  3,
	"optimizer":           4,
	"results":             5,
	"results/runfolder":   6,
	"results/report":      7,
	"results/runwrite":    8,
	"results/sweep":       9,
	"results/compare":     9,
	"cmd/hetmap":          10,
	// Helpers of tests only.
	"internal/sharedtest":  1,
	"internal/testsize":    1,
	"internal/golden":      1,
	"internal/layering":    1,
	"internal/fetchshared": 1,
	"internal/synth":       2,
	"internal/scalerun":    5,
	// Tools for developers.
	"internal/growth":     2,
	"internal/growth/fit": 1,
}

// TestLayers reads every package of the module (its non-test files) and
// checks that it imports only packages of lower layers. optimizer/sweep
// imported results, a layer above the optimizer, before the sweep moved to
// results/sweep; results wrote the report and the report read the run
// folder in one package before the run folder's reading
// (results/runfolder), the report (results/report) and the writer of a
// run folder (results/runwrite) each had a package of their own.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs" || name == "runs") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		mine, ok := layer[rel]
		if !ok {
			t.Errorf("package %s has no layer: place it in the layer map of this test and in DEVELOPERS.md", rel)
			return nil
		}
		seen[rel] = true
		for _, imp := range pkg.Imports {
			dep, internal := strings.CutPrefix(imp, module)
			if !internal {
				continue
			}
			if strings.HasPrefix(dep, "internal/") && !library[dep] && !strings.HasPrefix(rel, "internal/") {
				t.Errorf("%s imports %s, a helper of tests", rel, dep)
				continue
			}
			if l, ok := layer[dep]; !ok || l >= mine {
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only lower layers", rel, mine, dep, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(layer)) {
		if !seen[name] {
			t.Errorf("the layer map names %s, which is not a package of the module", name)
		}
	}
}
