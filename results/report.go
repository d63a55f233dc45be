package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
)

// ReportFile is the name of the report in a run folder.
const ReportFile = "report.html"

// reportRun is an optimize run folder as the report reads it: the
// configuration, the front and the manifest, and every point re-evaluated
// from its mapping (for the timeline, which front.json does not hold).
type reportRun struct {
	cfg      *configs.Config
	front    FrontJSON
	manifest Manifest
	// points are the front's points, or the least-violating mappings when
	// no mapping is feasible.
	points []reportPoint
}

type reportPoint struct {
	FrontPointJSON
	result   *optimizer.Result
	timeline *optimizer.Timeline
	// differs lists what the re-evaluation gives differently from
	// front.json (a folder written by another hetmap version).
	differs []string
}

// ReportError is a run folder that cannot be reported on: missing, not a
// run folder, or with files that do not read.
type ReportError struct {
	Dir string
	Err error
}

func (e *ReportError) Error() string { return e.Err.Error() }
func (e *ReportError) Unwrap() error { return e.Err }

// loadRun reads an optimize run folder: config.yaml, front.json and
// manifest.json.
func loadRun(dir string) (*reportRun, error) {
	fail := func(format string, args ...any) error {
		return &ReportError{Dir: dir, Err: fmt.Errorf(format, args...)}
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
	read := func(name string, v any) error {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return fail("%s is not an optimize run folder: %s is missing", dir, name)
		}
		if err != nil {
			return fail("%s: %v", path, err)
		}
		if v == nil {
			return nil
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(v); err != nil {
			return fail("%s: not the JSON hetmap writes: %v", path, err)
		}
		return nil
	}
	run := &reportRun{}
	if err := read("manifest.json", &run.manifest); err != nil {
		return nil, err
	}
	if err := read("front.json", &run.front); err != nil {
		return nil, err
	}
	if err := read("config.yaml", nil); err != nil {
		return nil, err
	}
	m := &run.manifest
	if m.Tool != "hetmap" {
		return nil, fail("%s: tool %q: not a manifest written by hetmap optimize", filepath.Join(dir, "manifest.json"), m.Tool)
	}
	if m.ResultsFormat != 1 && m.ResultsFormat != ResultsFormat {
		return nil, fail("%s: results format %d; this hetmap reads formats 1 and %d", filepath.Join(dir, "manifest.json"), m.ResultsFormat, ResultsFormat)
	}
	if len(run.front.Objectives) != len(m.Objectives) {
		return nil, fail("%s: %d objectives, but the manifest names %d", filepath.Join(dir, "front.json"), len(run.front.Objectives), len(m.Objectives))
	}
	cfg, err := configs.LoadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return nil, &ReportError{Dir: dir, Err: err}
	}
	run.cfg = cfg
	e, err := optimizer.NewEvaluator(cfg)
	if err != nil {
		return nil, fail("%s: %v", filepath.Join(dir, "config.yaml"), err)
	}
	points := run.front.Points
	if !run.front.Feasible {
		points = run.front.LeastViolating
	}
	for i := range points {
		p := reportPoint{FrontPointJSON: points[i]}
		if len(p.Objectives) != len(run.front.Objectives) {
			return nil, fail("%s: point %d has %d objective values for %d objectives", filepath.Join(dir, "front.json"), p.ID, len(p.Objectives), len(run.front.Objectives))
		}
		a, err := e.FromMapping(&p.Mapping)
		if err != nil {
			return nil, fail("%s: the mapping of point %d: %v", filepath.Join(dir, "front.json"), p.ID, err)
		}
		r := e.NewResult()
		if err := e.Evaluate(a, r); err != nil {
			return nil, fail("%s: point %d: %v", filepath.Join(dir, "front.json"), p.ID, err)
		}
		e.AnalyzeChains(r)
		if err := e.AnalyzeContention(r); err != nil {
			return nil, fail("point %d: %v", p.ID, err)
		}
		if p.timeline, err = e.Timeline(r); err != nil {
			return nil, fail("point %d: %v", p.ID, err)
		}
		p.result = r
		again := NewAnalysisJSON(cfg, p.MappingFile, r)
		rec := &p.Evaluation
		for _, d := range []struct {
			what   string
			a, b   any
			differ bool
		}{
			{what: "the tasks' execution and response times", a: again.Tasks, b: rec.Tasks},
			{what: "the GPU responses", a: again.GPU, b: rec.GPU},
			{what: "the chain latencies", a: again.Chains, b: rec.Chains},
		} {
			if !reflect.DeepEqual(normaliseJSON(d.a), normaliseJSON(d.b)) {
				p.differs = append(p.differs, d.what)
			}
		}
		run.points = append(run.points, p)
	}
	return run, nil
}

// normaliseJSON round-trips a value through JSON, so that a recorded and a
// recomputed evaluation compare equal when they would be written alike.
func normaliseJSON(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return err.Error()
	}
	return out
}

// WriteReport writes the report of the optimize run folder dir to w, from
// its files alone (config.yaml, front.json, manifest.json; the timelines
// re-evaluate the mappings with this hetmap). The same folder gives the
// same bytes.
func WriteReport(w io.Writer, dir string) error {
	run, err := loadRun(dir)
	if err != nil {
		return err
	}
	return renderReport(w, run)
}

// WriteReportFile writes dir/report.html for the optimize run folder dir:
// into a temporary file beside it, renamed into place, so that the report
// appears only complete and a failed run leaves none behind.
func WriteReportFile(dir string) error {
	var buf bytes.Buffer
	if err := WriteReport(&buf, dir); err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(dir, ReportFile), buf.Bytes()); err != nil {
		return &ReportError{Dir: dir, Err: err}
	}
	return nil
}
