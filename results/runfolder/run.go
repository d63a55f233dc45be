package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
)

// Run is an optimize run folder as it is read back: its files checked
// against its manifest, its configuration with an evaluator of it, its
// manifest and the head of its front. Its points are read as a stream
// (Open's each, FindPoint), one at a time.
type Run struct {
	Dir       string
	Config    *configs.Config
	Evaluator *evaluate.Evaluator
	Front     results.FrontJSON // without its points
	Manifest  results.Manifest
}

// Error is a run folder that cannot be reported on: missing, not a
// run folder, or with files that do not read or do not match its
// manifest.
type Error struct {
	Dir string
	Err error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Open reads an optimize run folder: config.yaml, manifest.json and
// front.json, as a stream, calling each with every point a report shows
// (the front's, or the least-violating mappings when no mapping is
// feasible) and the run as read so far (all but its front's end). The files are checked against the manifest before any is
// read; an error (a *Error) names the file.
func Open(dir string, each func(run *Run, p *results.FrontPointJSON) error) (*Run, error) {
	fail := func(format string, args ...any) error {
		return &Error{Dir: dir, Err: fmt.Errorf(format, args...)}
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fail("%s: no such folder", dir)
	case err != nil:
		return nil, fail("%s: %v", dir, err)
	case !st.IsDir():
		return nil, fail("%s is not a folder (give the folder hetmap optimize wrote)", dir)
	}
	for _, name := range []string{"manifest.json", "front.json", "config.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			return nil, fail("%s is not an optimize run folder: %s is missing", dir, name)
		}
	}
	run := &Run{Dir: dir}
	if err := run.ReadJSON("manifest.json", &run.Manifest); err != nil {
		return nil, err
	}
	m := &run.Manifest
	if m.Tool != "hetmap" {
		return nil, fail("%s: tool %q: not a manifest written by hetmap optimize", filepath.Join(dir, "manifest.json"), m.Tool)
	}
	if m.ResultsFormat < 1 || m.ResultsFormat > results.ResultsFormat {
		by := "a newer hetmap"
		if m.Version != "" {
			by = "hetmap " + m.Version
		}
		return nil, fail("%s: results format %d, written by %s; this hetmap reads formats 1 to %d: run that version's hetmap report, or a newer one", filepath.Join(dir, "manifest.json"), m.ResultsFormat, by, results.ResultsFormat)
	}
	// The files are checked against the manifest before any is read.
	if err := checkRunFiles(dir, m.Files); err != nil {
		return nil, err
	}
	cfg, err := configs.LoadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return nil, &Error{Dir: dir, Err: err}
	}
	run.Config = cfg
	if run.Evaluator, err = evaluate.NewEvaluator(cfg); err != nil {
		return nil, fail("%s: %v", filepath.Join(dir, "config.yaml"), err)
	}
	frontPath := filepath.Join(dir, "front.json")
	err = readFront(frontPath, &run.Front, func(least bool, p *results.FrontPointJSON) error {
		if least == run.Front.Feasible {
			return nil // the front of an infeasible run, or the reverse: not shown
		}
		if len(p.Objectives) != len(run.Front.Objectives) && !(least && p.Objectives == nil) {
			return fail("%s: point %d has %d objective values for %d objectives", frontPath, p.ID, len(p.Objectives), len(run.Front.Objectives))
		}
		return each(run, p)
	})
	var syntax *frontSyntaxError
	switch {
	case errors.As(err, &syntax):
		return nil, fail("%s: not the JSON hetmap writes: %v", frontPath, syntax.err)
	case err != nil:
		var re *Error
		if errors.As(err, &re) {
			return nil, err
		}
		return nil, &Error{Dir: dir, Err: atPath(frontPath, err)}
	}
	if len(run.Front.Objectives) != len(m.Objectives) {
		return nil, fail("%s: %d objectives, but the manifest names %d", frontPath, len(run.Front.Objectives), len(m.Objectives))
	}
	return run, nil
}

// ReadJSON reads the run folder's JSON file name (a path in the folder)
// into v.
func (run *Run) ReadJSON(name string, v any) error {
	path := filepath.Join(run.Dir, name)
	data, err := configs.ReadInput(path, "the run's "+filepath.ToSlash(name))
	if err != nil {
		return &Error{Dir: run.Dir, Err: atPath(path, err)}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &Error{Dir: run.Dir, Err: fmt.Errorf("%s: not the JSON hetmap writes: %v", path, err)}
	}
	return nil
}

// FindPoint reads point id of those Open shows (a least-violating mapping
// when the run found no feasible one) from front.json; nil when there is
// none of that number.
func (run *Run) FindPoint(id int) (*results.FrontPointJSON, error) {
	frontPath := filepath.Join(run.Dir, "front.json")
	var p *results.FrontPointJSON
	var head results.FrontJSON
	err := readFront(frontPath, &head, func(least bool, fp *results.FrontPointJSON) error {
		if least == run.Front.Feasible || fp.ID != id {
			return nil
		}
		p = fp
		return errStop
	})
	if err != nil && err != errStop {
		return nil, &Error{Dir: run.Dir, Err: atPath(frontPath, err)}
	}
	return p, nil
}
