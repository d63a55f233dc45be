package results

import (
	"path/filepath"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// RunPoints is an optimize run folder read back for another look at the
// points its report shows (compare): its configuration and evaluator, its
// manifest, and the mappings of its front or, when nothing was feasible,
// of its least-violating mappings, with their numbers.
type RunPoints struct {
	Config    *configs.Config
	Evaluator *evaluate.Evaluator
	Manifest  Manifest
	Feasible  bool // the front is feasible: Mappings are its points
	Mappings  []configs.Mapping
	IDs       []int // the point numbers of Mappings
}

// ReadRunPoints reads the run folder dir: the folder, its files and its
// results format are checked as for a report (a *ReportError otherwise).
func ReadRunPoints(dir string) (*RunPoints, error) {
	run, err := loadRun(dir)
	if err != nil {
		return nil, err
	}
	out := &RunPoints{Config: run.cfg, Evaluator: run.eval, Manifest: run.manifest, Feasible: run.front.Feasible}
	frontPath := filepath.Join(dir, "front.json")
	var head FrontJSON
	err = readFront(frontPath, &head, func(least bool, p *FrontPointJSON) error {
		if least == out.Feasible {
			return nil // the points loadRun does not show either
		}
		out.Mappings, out.IDs = append(out.Mappings, p.Mapping), append(out.IDs, p.ID)
		return nil
	})
	if err != nil {
		return nil, &ReportError{Dir: dir, Err: atPath(frontPath, err)}
	}
	return out, nil
}
