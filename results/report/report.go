package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
)

// reportRun is an optimize run folder as the report reads it: the
// configuration, the head of the front and the manifest (runfolder.Run),
// and a row per point (the front's, or the least-violating mappings when
// no mapping is feasible) with what the front's table and plots show. The
// points' details are read one at a time (loadPoint).
type reportRun struct {
	*runfolder.Run
	points []reportRow
}

// reportRow is a point as the front's table and plots show it.
type reportRow struct {
	ID          int
	Objectives  []float64
	ViolationMs float64
	Units       string
	MappingFile string
	Verdict     results.VerdictJSON
	Margin      *results.MarginJSON
	// detail: the point's section is in report.html: its full evaluation
	// and mapping, read again by loadPoint.
	detail bool
}

// reportPoint is a point with its details: the full evaluation, and the
// mapping evaluated again (for the timeline, which no file holds).
type reportPoint struct {
	results.FrontPointJSON
	Evaluation results.AnalysisJSON
	result     *evaluate.Analysis
	timeline   *evaluate.Timeline
	// differs lists what the re-evaluation gives differently from the
	// evaluation recorded (a folder written by another hetmap version).
	differs []string
	// recorded: the evaluation is the folder's; else it is the
	// re-evaluation (a point without an evaluation file).
	recorded bool
}

// loadRun reads an optimize run folder (runfolder.Open), keeping a row
// per point.
func loadRun(dir string) (*reportRun, error) {
	var points []reportRow
	details := 0
	run, err := runfolder.Open(dir, func(run *runfolder.Run, p *results.FrontPointJSON) error {
		// The mappings of the points detailed are checked when they are
		// evaluated again (loadPoint).
		row := reportRow{ID: p.ID, Objectives: p.Objectives, ViolationMs: p.ViolationMs, Units: p.Units, MappingFile: p.MappingFile,
			Verdict: verdictOf(run.Config, p), Margin: p.Margin}
		// Format 3 details the points with an evaluation file, formats 1
		// and 2 the first DetailPoints.
		row.detail = p.EvaluationFile != "" || (p.Evaluation != nil && details < results.DetailPoints)
		if row.detail {
			details++
		}
		points = append(points, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &reportRun{Run: run, points: points}, nil
}

// loadPoint reads point id of the run (a least-violating mapping when the
// run found no feasible one) with its details: its recorded evaluation
// (the evaluation file, or in results formats 1 and 2 front.json's),
// and its mapping evaluated again, for the timeline and, where no
// evaluation is recorded, for everything.
func (run *reportRun) loadPoint(id int) (*reportPoint, error) {
	dir := run.Dir
	fail := func(format string, args ...any) error {
		return &runfolder.Error{Dir: dir, Err: fmt.Errorf(format, args...)}
	}
	frontPath := filepath.Join(dir, "front.json")
	fp, err := run.FindPoint(id)
	if err != nil {
		return nil, err
	}
	if fp == nil {
		what := "front point"
		if !run.Front.Feasible {
			what = "least-violating mapping"
		}
		return nil, fail("%s: no %s %d (there are %d)", frontPath, what, id, len(run.points))
	}
	p := &reportPoint{FrontPointJSON: *fp}
	e := run.Evaluator
	a, err := e.FromMapping(&p.Mapping)
	if err != nil {
		return nil, fail("%s: the mapping of point %d: %v", frontPath, p.ID, err)
	}
	switch {
	case p.EvaluationFile != "":
		if err := run.ReadJSON(filepath.FromSlash(p.EvaluationFile), &p.Evaluation); err != nil {
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
	again := results.NewAnalysisJSON(run.Config, p.MappingFile, r)
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

// writeReport writes the report of the optimize run folder dir to w, from
// its files alone (config.yaml, front.json, manifest.json, and the
// evaluation files of the points it details; the timelines re-evaluate
// their mappings with this hetmap). The same folder gives the same bytes.
// It holds one detailed point at a time.
func writeReport(w io.Writer, dir string) error {
	run, err := loadRun(dir)
	if err != nil {
		return err
	}
	return renderReport(w, run, nil)
}

// WriteFile writes dir/report.html for the optimize run folder dir (see
// writeReport): into a temporary file beside it, renamed into place, so
// that the report appears only complete and a failed run leaves none
// behind. progress, when not nil, is called as it goes.
func WriteFile(dir string, progress func(results.WriteProgress)) error {
	run, err := loadRun(dir)
	if err != nil {
		return err
	}
	return writeFileAtomicWith(dir, filepath.Join(dir, results.ReportFile), func(w io.Writer) error { return renderReport(w, run, progress) })
}

// pointPage is the page of front point (or least-violating mapping) N in
// a run folder, which WritePointPage writes.
func pointPage(id int) string { return fmt.Sprintf("points/point-%d.html", id) }

// WritePointPage writes the page of point id of the optimize run folder
// dir, pointPage(id): its details as report.html shows those of the first
// points, from its evaluation file when the folder has one, else from its
// mapping evaluated by this hetmap. It returns the page's path.
func WritePointPage(dir string, id int) (string, error) {
	run, err := loadRun(dir)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, filepath.FromSlash(pointPage(id)))
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil { // the umask decides, as for the run folder
		return "", &runfolder.Error{Dir: dir, Err: results.PlainPathError(err)}
	}
	return path, writeFileAtomicWith(dir, path, func(w io.Writer) error { return renderPointPage(w, run, id) })
}

// writeFileAtomicWith writes path through write, as results.WriteFileAtomic
// does: into a temporary file beside it, renamed into place. An error is a
// *runfolder.Error: write's own, as it is, or the file's.
func writeFileAtomicWith(dir, path string, write func(io.Writer) error) error {
	var failed error // write's own error
	err := results.WriteFileAtomicFunc(path, func(w io.Writer) error {
		failed = write(w)
		return failed
	})
	var re *runfolder.Error
	switch {
	case err == nil:
		return nil
	case errors.As(failed, &re):
		return failed
	}
	return &runfolder.Error{Dir: dir, Err: err}
}

// verdictOf is a point's verdict: its own, or for results formats 1 and 2
// what its evaluation says.
func verdictOf(cfg *configs.Config, p *results.FrontPointJSON) results.VerdictJSON {
	if p.Verdict != nil {
		return *p.Verdict
	}
	var v results.VerdictJSON
	if ev := p.Evaluation; ev != nil {
		v = results.VerdictJSON{Schedulable: ev.Schedulable, Misses: ev.Misses, ViolationNs: ev.ViolationNs, Reasons: ev.Reasons}
		for _, u := range ev.Units {
			if !isGPUUnit(cfg.System, u.Name) && u.Tasks > 0 {
				if l := jsonLoad(&u); v.BusiestCore == "" || l > v.BusiestLoad {
					v.BusiestCore, v.BusiestLoad = u.Name, l
				}
			}
		}
	}
	return v
}
