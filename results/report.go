package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// ReportFile is the name of the report in a run folder.
const ReportFile = "report.html"

// reportRun is an optimize run folder as the report reads it: the
// configuration, the head of the front and the manifest, and a row per
// point (the front's, or the least-violating mappings when no mapping is
// feasible) with what the front's table and plots show. The points'
// details are read one at a time (loadPoint).
type reportRun struct {
	dir      string
	cfg      *configs.Config
	eval     *evaluate.Evaluator
	front    FrontJSON // without its points
	manifest Manifest
	points   []reportRow
}

// reportRow is a point as the front's table and plots show it.
type reportRow struct {
	ID          int
	Objectives  []float64
	ViolationMs float64
	Units       string
	MappingFile string
	Verdict     VerdictJSON
	Margin      *MarginJSON
	// detail: the point's section is in report.html: its full evaluation
	// and mapping, read again by loadPoint.
	detail bool
}

// reportPoint is a point with its details: the full evaluation, and the
// mapping evaluated again (for the timeline, which no file holds).
type reportPoint struct {
	FrontPointJSON
	Evaluation AnalysisJSON
	result     *evaluate.Analysis
	timeline   *evaluate.Timeline
	// differs lists what the re-evaluation gives differently from the
	// evaluation recorded (a folder written by another hetmap version).
	differs []string
	// recorded: the evaluation is the folder's; else it is the
	// re-evaluation (a point without an evaluation file).
	recorded bool
}

// ReportError is a run folder that cannot be reported on: missing, not a
// run folder, or with files that do not read.
type ReportError struct {
	Dir string
	Err error
}

func (e *ReportError) Error() string { return e.Err.Error() }
func (e *ReportError) Unwrap() error { return e.Err }

// loadRun reads an optimize run folder: config.yaml, manifest.json and
// front.json, as a stream, keeping a row per point.
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
	for _, name := range []string{"manifest.json", "front.json", "config.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			return nil, fail("%s is not an optimize run folder: %s is missing", dir, name)
		}
	}
	run := &reportRun{dir: dir}
	if err := readRunJSON(dir, "manifest.json", &run.manifest); err != nil {
		return nil, err
	}
	m := &run.manifest
	if m.Tool != "hetmap" {
		return nil, fail("%s: tool %q: not a manifest written by hetmap optimize", filepath.Join(dir, "manifest.json"), m.Tool)
	}
	if m.ResultsFormat < 1 || m.ResultsFormat > ResultsFormat {
		by := "a newer hetmap"
		if m.Version != "" {
			by = "hetmap " + m.Version
		}
		return nil, fail("%s: results format %d, written by %s; this hetmap reads formats 1 to %d: run that version's hetmap report, or a newer one", filepath.Join(dir, "manifest.json"), m.ResultsFormat, by, ResultsFormat)
	}
	// The files are checked against the manifest before any is read.
	if err := checkRunFiles(dir, m.Files); err != nil {
		return nil, err
	}
	cfg, err := configs.LoadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return nil, &ReportError{Dir: dir, Err: err}
	}
	run.cfg = cfg
	if run.eval, err = evaluate.NewEvaluator(cfg); err != nil {
		return nil, fail("%s: %v", filepath.Join(dir, "config.yaml"), err)
	}
	frontPath := filepath.Join(dir, "front.json")
	details := 0
	err = readFront(frontPath, &run.front, func(least bool, p *FrontPointJSON) error {
		if least == run.front.Feasible {
			return nil // the front of an infeasible run, or the reverse: not shown
		}
		if len(p.Objectives) != len(run.front.Objectives) && !(least && p.Objectives == nil) {
			return fail("%s: point %d has %d objective values for %d objectives", frontPath, p.ID, len(p.Objectives), len(run.front.Objectives))
		}
		// The mappings of the points detailed are checked when they are
		// evaluated again (loadPoint).
		row := reportRow{ID: p.ID, Objectives: p.Objectives, ViolationMs: p.ViolationMs, Units: p.Units, MappingFile: p.MappingFile,
			Verdict: verdictOf(cfg, p), Margin: p.Margin}
		// Format 3 details the points with an evaluation file, formats 1
		// and 2 the first DetailPoints.
		row.detail = p.EvaluationFile != "" || (p.Evaluation != nil && details < DetailPoints)
		if row.detail {
			details++
		}
		run.points = append(run.points, row)
		return nil
	})
	var syntax *frontSyntaxError
	switch {
	case errors.As(err, &syntax):
		return nil, fail("%s: not the JSON hetmap writes: %v", frontPath, syntax.err)
	case err != nil:
		var re *ReportError
		if errors.As(err, &re) {
			return nil, err
		}
		return nil, &ReportError{Dir: dir, Err: atPath(frontPath, err)}
	}
	if len(run.front.Objectives) != len(m.Objectives) {
		return nil, fail("%s: %d objectives, but the manifest names %d", frontPath, len(run.front.Objectives), len(m.Objectives))
	}
	return run, nil
}

// readRunJSON reads a run folder's JSON file into v.
func readRunJSON(dir, name string, v any) error {
	path := filepath.Join(dir, name)
	data, err := configs.ReadInput(path, "the run's "+filepath.ToSlash(name))
	if err != nil {
		return &ReportError{Dir: dir, Err: atPath(path, err)}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &ReportError{Dir: dir, Err: fmt.Errorf("%s: not the JSON hetmap writes: %v", path, err)}
	}
	return nil
}

// loadPoint reads point id of the run (a least-violating mapping when the
// run found no feasible one) with its details: its recorded evaluation
// (the evaluation file, or in results formats 1 and 2 front.json's),
// and its mapping evaluated again, for the timeline and, where no
// evaluation is recorded, for everything.
func (run *reportRun) loadPoint(id int) (*reportPoint, error) {
	dir := run.dir
	fail := func(format string, args ...any) error {
		return &ReportError{Dir: dir, Err: fmt.Errorf(format, args...)}
	}
	frontPath := filepath.Join(dir, "front.json")
	var p *reportPoint
	var head FrontJSON
	err := readFront(frontPath, &head, func(least bool, fp *FrontPointJSON) error {
		if least == run.front.Feasible || fp.ID != id {
			return nil
		}
		p = &reportPoint{FrontPointJSON: *fp}
		return errStop
	})
	if err != nil && err != errStop {
		return nil, &ReportError{Dir: dir, Err: atPath(frontPath, err)}
	}
	if p == nil {
		what := "front point"
		if !run.front.Feasible {
			what = "least-violating mapping"
		}
		return nil, fail("%s: no %s %d (there are %d)", frontPath, what, id, len(run.points))
	}
	e := run.eval
	a, err := e.FromMapping(&p.Mapping)
	if err != nil {
		return nil, fail("%s: the mapping of point %d: %v", frontPath, p.ID, err)
	}
	switch {
	case p.EvaluationFile != "":
		if err := readRunJSON(dir, filepath.FromSlash(p.EvaluationFile), &p.Evaluation); err != nil {
			return nil, err
		}
		p.recorded = true
	case p.FrontPointJSON.Evaluation != nil:
		p.Evaluation, p.recorded = *p.FrontPointJSON.Evaluation, true
	}
	p.FrontPointJSON.Evaluation = nil
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		return nil, fail("%s: point %d: %v", frontPath, p.ID, err)
	}
	e.AnalyzeChains(r)
	if err := e.AnalyzeContention(r); err != nil {
		return nil, fail("point %d: %v", p.ID, err)
	}
	if p.timeline, err = e.Timeline(r); err != nil {
		return nil, fail("point %d: %v", p.ID, err)
	}
	p.result = r
	again := NewAnalysisJSON(run.cfg, p.MappingFile, r)
	if !p.recorded {
		p.Evaluation = again
		return p, nil
	}
	rec := &p.Evaluation
	for _, d := range []struct {
		what string
		a, b any
	}{
		{what: "the tasks' execution and response times", a: again.Tasks, b: rec.Tasks},
		{what: "the GPU responses", a: again.GPU, b: rec.GPU},
		{what: "the chain latencies", a: again.Chains, b: rec.Chains},
	} {
		if !reflect.DeepEqual(normaliseJSON(d.a), normaliseJSON(d.b)) {
			p.differs = append(p.differs, d.what)
		}
	}
	return p, nil
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
// its files alone (config.yaml, front.json, manifest.json, and the
// evaluation files of the points it details; the timelines re-evaluate
// their mappings with this hetmap). The same folder gives the same bytes.
// It holds one detailed point at a time.
func WriteReport(w io.Writer, dir string) error { return writeReport(w, dir, nil) }

func writeReport(w io.Writer, dir string, progress func(WriteProgress)) error {
	run, err := loadRun(dir)
	if err != nil {
		return err
	}
	return renderReport(w, run, progress)
}

// WriteReportFile writes dir/report.html for the optimize run folder dir:
// into a temporary file beside it, renamed into place, so that the report
// appears only complete and a failed run leaves none behind.
func WriteReportFile(dir string) error { return writeReportFile(dir, nil) }

// WriteReportFileProgress is WriteReportFile calling progress as it goes.
func WriteReportFileProgress(dir string, progress func(WriteProgress)) error {
	return writeReportFile(dir, progress)
}

func writeReportFile(dir string, progress func(WriteProgress)) error {
	run, err := loadRun(dir)
	if err != nil {
		return err
	}
	return writeFileAtomicWith(dir, filepath.Join(dir, ReportFile), func(w io.Writer) error { return renderReport(w, run, progress) })
}

// PointPage is the page of front point (or least-violating mapping) N in
// a run folder, which WritePointPage writes.
func PointPage(id int) string { return fmt.Sprintf("points/point-%d.html", id) }

// WritePointPage writes the page of point id of the optimize run folder
// dir, PointPage(id): its details as report.html shows those of the first
// points, from its evaluation file when the folder has one, else from its
// mapping evaluated by this hetmap. It returns the page's path.
func WritePointPage(dir string, id int) (string, error) {
	run, err := loadRun(dir)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, filepath.FromSlash(PointPage(id)))
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return "", &ReportError{Dir: dir, Err: plainPathError(err)}
	}
	return path, writeFileAtomicWith(dir, path, func(w io.Writer) error { return renderPointPage(w, run, id) })
}

// writeFileAtomicWith writes path through write, as WriteFileAtomic does:
// into a temporary file beside it, renamed into place.
func writeFileAtomicWith(dir, path string, write func(io.Writer) error) error {
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s%s-%s-%d-%d", filepath.Base(path), claimSuffix, hostname(), os.Getpid(), tempCounter.Add(1)))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return &ReportError{Dir: dir, Err: plainPathError(err)}
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	werr := write(bw)
	if werr == nil {
		werr = bw.Flush()
	}
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(tmp)
		var re *ReportError
		if errors.As(err, &re) {
			return err
		}
		return &ReportError{Dir: dir, Err: fmt.Errorf("cannot write %s: %w", path, plainPathError(err))}
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return &ReportError{Dir: dir, Err: plainPathError(err)}
	}
	return nil
}
