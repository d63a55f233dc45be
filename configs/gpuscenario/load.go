package gpuscenario

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hetmap/hetmap/rta/gpusim"
)

// LoadFile reads a scenario in either format, chosen by the file's
// extension: .yaml or .yml is a kernel set, .json a CUDA Scheduling
// Examiner scenario. It returns the simulator input and, for .json, the
// warnings about skipped or approximated benchmarks.
func LoadFile(path string, opts Options) (gpusim.Scenario, []Warning, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		ks, err := LoadKernelSet(path)
		if err != nil {
			return gpusim.Scenario{}, nil, err
		}
		return ks.Scenario(), nil, nil
	case ".json":
		return LoadExaminer(path, opts)
	}
	return gpusim.Scenario{}, nil, fmt.Errorf("%s: unknown scenario format: use .yaml/.yml (kernel set) or .json (CUDA Scheduling Examiner)", path)
}
