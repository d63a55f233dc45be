package runfolder

import (
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
)

// Points is an optimize run folder read back for another look at the
// points its report shows (compare): its configuration and evaluator, its
// manifest, and the mappings of its front or, when nothing was feasible,
// of its least-violating mappings, with their numbers.
type Points struct {
	Config    *configs.Config
	Evaluator *evaluate.Evaluator
	Manifest  results.Manifest
	Feasible  bool // the front is feasible: Mappings are its points
	Mappings  []configs.Mapping
	IDs       []int // the point numbers of Mappings
}

// ReadPoints reads the run folder dir: the folder, its files and its
// results format are checked as for a report (Open; a *Error otherwise).
func ReadPoints(dir string) (*Points, error) {
	out := &Points{}
	run, err := Open(dir, func(_ *Run, p *results.FrontPointJSON) error {
		out.Mappings, out.IDs = append(out.Mappings, p.Mapping), append(out.IDs, p.ID)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Config, out.Evaluator, out.Manifest, out.Feasible = run.Config, run.Evaluator, run.Manifest, run.Front.Feasible
	return out, nil
}
