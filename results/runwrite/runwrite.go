package runwrite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/report"
	"gopkg.in/yaml.v3"
)

// writeRunFiles writes a search's files into dir (results.RunFiles), point by
// point: what it holds in memory does not grow with the front beyond the
// outcome itself.
func writeRunFiles(dir string, cfg *configs.Config, out *optimizer.Outcome, info results.RunInfo) error {
	progress := info.Progress
	if progress == nil {
		progress = func(results.WriteProgress) {}
	}
	// stopped reports an interruption of the writing, and marks the run.
	stopped := func() bool {
		if info.Context == nil || info.Context.Err() == nil {
			return false
		}
		if !out.Interrupted() {
			out.InterruptedIn = optimizer.StageWriting
		}
		return true
	}
	text, sum, err := results.ConfigYAML(cfg)
	if err != nil {
		return err
	}
	sums := fileSums{}
	if err := sums.write(dir, "config.yaml", text); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(dir, "mappings"), dirMode); err != nil {
		return err
	}
	fj, err := createBuffered(dir, "front.json", sums)
	if err != nil {
		return err
	}
	defer fj.close()
	fc, err := createBuffered(dir, "front.csv", sums)
	if err != nil {
		return err
	}
	defer fc.close()
	front := newFrontWriter(fj.w, results.FrontJSON{System: cfg.System.Name, Objectives: out.Objectives, Feasible: out.Feasible,
		Proof: results.NewProofJSON(out.Proof, out.Feasible)})
	rows := results.NewFrontCSV(fc.w, cfg, out)
	if err := rows.Head(); err != nil {
		return err
	}
	total := len(out.Front) + len(out.LeastViolating)
	done := 0
	progress(results.WriteProgress{Stage: results.StagePoints, Total: total})
	last := time.Now()
	mappings := newMappingYAML()
	point := func(least bool, id int, p optimizer.Point) error {
		file := mappingFile(id)
		header := fmt.Sprintf("front point %d: hetmap analyze --config config.yaml --mapping %s", id, file)
		if least {
			file = leastFile(id)
			header = fmt.Sprintf("least-violating mapping %d (misses %s)", id, results.FormatDuration(configs.Duration(p.Violation*1e9)))
		}
		evaluation := ""
		if id <= results.DetailPoints && !out.Interrupted() && !stopped() {
			// An interrupted run details no point (its report has no
			// section, which would cost a re-evaluation and a simulation
			// each): hetmap report --point N writes any point's page.
			evaluation = evaluationFile(file)
			data, err := json.Marshal(results.NewAnalysisJSON(cfg, file, p.Analysis))
			if err != nil {
				return err
			}
			if err := sums.write(dir, evaluation, append(data, '\n')); err != nil {
				return err
			}
		}
		pj := results.NewFrontPointJSON(id, p, file, evaluation)
		pj.ObjectiveMinima = results.ObjectiveMinima(out.Search.Objectives, p.Analysis)
		data, err := mappings.marshal(pj.Mapping)
		if err != nil {
			return err
		}
		if err := sums.write(dir, file, append([]byte("# "+header+"\n"), data...)); err != nil {
			return err
		}
		if !least && info.Model != nil && !stopped() {
			if err := writeModelFiles(dir, id, info.Model, p, sums); err != nil {
				return err
			}
		}
		if err := front.point(least, &pj); err != nil {
			return err
		}
		if !least {
			if err := rows.Row(id, p); err != nil {
				return err
			}
		}
		done++
		if time.Since(last) >= 100*time.Millisecond || done == total {
			last = time.Now()
			progress(results.WriteProgress{Stage: results.StagePoints, Done: done, Total: total})
		}
		return nil
	}
	for i, p := range out.Front {
		if err := point(false, i+1, p); err != nil {
			return err
		}
	}
	for i, p := range out.LeastViolating {
		if err := point(true, i+1, p); err != nil {
			return err
		}
	}
	if err := errors.Join(front.end(), rows.End(), fj.close(), fc.close()); err != nil {
		return err
	}
	stopped()
	marked := out.Interrupted()
	if err := writeJSON(filepath.Join(dir, "manifest.json"), manifestWithFiles(results.NewManifest(cfg, out, info, sum), sums)); err != nil {
		return err
	}
	// The report reads the files just written, as `hetmap report` does, so
	// that regenerating it gives the same bytes.
	if err := report.WriteFile(dir, progress); err != nil {
		return err
	}
	if stopped() && !marked {
		// Interrupted while the report was written: the run is marked,
		// the manifest and the report say so.
		if err := writeJSON(filepath.Join(dir, "manifest.json"), manifestWithFiles(results.NewManifest(cfg, out, info, sum), sums)); err != nil {
			return err
		}
		return report.WriteFile(dir, nil)
	}
	return nil
}

// manifestWithFiles is m listing the files of the run folder with their
// sizes and SHA-256 (report and compare check them).
func manifestWithFiles(m results.Manifest, sums fileSums) results.Manifest {
	m.Files = sums
	return m
}

// bufferedFile is a file of a run folder written through a buffer, its
// sum recorded when it is closed.
type bufferedFile struct {
	f      *os.File
	w      *bufio.Writer
	summed *summingWriter
	name   string
	sums   fileSums
	closed bool
	err    error
}

// createBuffered creates the file name (slash-separated) of the folder dir;
// its sum goes into sums when it is closed.
func createBuffered(dir, name string, sums fileSums) (*bufferedFile, error) {
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(name)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fileMode)
	if err != nil {
		return nil, err
	}
	s := newSummingWriter(f)
	return &bufferedFile{f: f, w: bufio.NewWriterSize(s, 1<<16), summed: s, name: name, sums: sums}, nil
}

// close flushes and closes the file once, recording its sum; later calls
// return the first call's error.
func (b *bufferedFile) close() error {
	if !b.closed {
		b.closed = true
		b.err = errors.Join(b.w.Flush(), b.f.Close())
		if b.err == nil {
			b.sums[b.name] = b.summed.sum()
		}
	}
	return b.err
}

// writeJSON writes a small file (the manifest, sweep-run.json) indented,
// for a person.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), fileMode)
}

// frontWriter writes front.json as it goes: compact JSON with one point
// per line, so that the file reads with a JSON parser, with grep and with
// head alike.
type frontWriter struct {
	w     io.Writer
	head  results.FrontJSON
	state int // 0: nothing written; 1: in points; 2: in least_violating
	n     int // points written in the current list
	err   error
}

func newFrontWriter(w io.Writer, head results.FrontJSON) *frontWriter {
	head.ResultsFormat = results.ResultsFormat
	head.Points, head.LeastViolating = nil, nil
	return &frontWriter{w: w, head: head}
}

func (f *frontWriter) write(s []byte) {
	if f.err == nil {
		_, f.err = f.w.Write(s)
	}
}

func (f *frontWriter) start() {
	if f.state > 0 {
		return
	}
	type headJSON struct {
		ResultsFormat int               `json:"results_format"`
		System        string            `json:"system"`
		Objectives    []string          `json:"objectives"`
		Feasible      bool              `json:"feasible"`
		Proof         results.ProofJSON `json:"proof"`
	}
	h := f.head
	data, err := json.Marshal(headJSON{ResultsFormat: h.ResultsFormat, System: h.System, Objectives: h.Objectives, Feasible: h.Feasible, Proof: h.Proof})
	if err != nil {
		f.err = err
		return
	}
	f.write(data[:len(data)-1]) // without its closing brace
	f.write([]byte(`,"points":[`))
	f.state = 1
}

// point writes the next point of the front, or of the least-violating
// mappings (which come after the front's).
func (f *frontWriter) point(least bool, p *results.FrontPointJSON) error {
	f.start()
	if least && f.state == 1 {
		f.write([]byte("\n],\"least_violating\":["))
		f.state, f.n = 2, 0
	}
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if f.n > 0 {
		f.write([]byte{','})
	}
	f.write([]byte{'\n'})
	f.write(data)
	f.n++
	return f.err
}

// end closes the JSON document.
func (f *frontWriter) end() error {
	f.start()
	f.write([]byte("\n]}\n"))
	return f.err
}

// mappingYAML writes mappings as yaml.v3 does, fast: a front of many
// points over hundreds of tasks spends most of its writing in the YAML
// encoder otherwise. The placements are written by hand with every name
// quoted as yaml.v3 quotes it (memoised: the names repeat from point to
// point); the other sections, a few GPU tasks, go through the encoder.
// A name that yaml.v3 writes on more than one line sends the whole
// mapping through the encoder.
type mappingYAML struct {
	scalars map[string]string
}

func newMappingYAML() *mappingYAML { return &mappingYAML{scalars: map[string]string{}} }

// scalar is s as yaml.v3 writes a string value, and false when that takes
// more than one line.
func (y *mappingYAML) scalar(s string) (string, bool) {
	if q, ok := y.scalars[s]; ok {
		return q, q != ""
	}
	q := ""
	if data, err := yaml.Marshal(s); err == nil {
		q = strings.TrimSuffix(string(data), "\n")
		if strings.Contains(q, "\n") {
			q = ""
		}
	}
	if len(y.scalars) < 1<<16 {
		y.scalars[s] = q
	}
	return q, q != ""
}

func (y *mappingYAML) marshal(m configs.Mapping) ([]byte, error) {
	var b bytes.Buffer
	if len(m.Units) == 0 {
		return yaml.Marshal(m)
	}
	b.WriteString("units:\n")
	for _, p := range m.Units {
		task, ok1 := y.scalar(p.Task)
		unit, ok2 := y.scalar(p.Unit)
		if !ok1 || !ok2 {
			return yaml.Marshal(m)
		}
		b.WriteString("    - task: " + task + "\n      unit: " + unit + "\n")
		if p.Priority != nil {
			b.WriteString("      priority: " + strconv.Itoa(*p.Priority) + "\n")
		}
	}
	rest := m
	rest.Units = nil
	if len(rest.Offloading)+len(rest.TimeSlices)+len(rest.GPUPriorities) > 0 {
		data, err := yaml.Marshal(rest)
		if err != nil {
			return nil, err
		}
		// Without the encoder's "units: []".
		data, ok := bytes.CutPrefix(data, []byte("units: []\n"))
		if !ok {
			return yaml.Marshal(m)
		}
		b.Write(data)
	}
	return b.Bytes(), nil
}

func mappingFile(id int) string { return fmt.Sprintf("mappings/point-%d.yaml", id) }
func leastFile(id int) string   { return fmt.Sprintf("mappings/least-violating-%d.yaml", id) }

// evaluationFile is the file of the full evaluation beside a mapping file.
func evaluationFile(mapping string) string { return strings.TrimSuffix(mapping, ".yaml") + ".json" }

// Write writes a search's files into dir, which must not exist: it
// claims dir (results.ClaimDir) and writes through the claim, so that dir
// appears only complete. Files: results.RunFiles.
func Write(dir string, cfg *configs.Config, out *optimizer.Outcome, info results.RunInfo) error {
	c, err := results.ClaimDir(dir)
	if err != nil {
		return err
	}
	return Commit(c, cfg, out, info)
}

// Commit writes a search's files (results.RunFiles) into the claimed
// folder and puts it in place (Claim.Commit).
func Commit(c *results.Claim, cfg *configs.Config, out *optimizer.Outcome, info results.RunInfo) error {
	return c.Commit(func(tmp string) error { return writeRunFiles(tmp, cfg, out, info) })
}

// writeModelFiles writes front point id's mapping into the Amalthea model:
// mappings/point-N.amxmi, or the folder mappings/point-N/ for a model in
// several files.
func writeModelFiles(dir string, id int, model func(optimizer.Point) (map[string][]byte, error), p optimizer.Point, sums fileSums) error {
	files, err := model(p)
	if err != nil {
		return fmt.Errorf("front point %d: writing its mapping into the model: %w", id, err)
	}
	base := strings.TrimSuffix(mappingFile(id), ".yaml")
	if len(files) == 1 {
		for _, data := range files {
			return sums.write(dir, base+".amxmi", data)
		}
	}
	folder := filepath.Join(dir, base)
	if err := os.Mkdir(folder, 0o755); err != nil {
		return err
	}
	for in, data := range files {
		if err := sums.write(dir, base+"/"+filepath.Base(in), data); err != nil {
			return err
		}
	}
	return nil
}

// sweepResultsFormat is the version of sweep-run.json.
const sweepResultsFormat = 1

// writeSweepRun writes one run of a sweep into out/run.Name, which must not
// exist: the files of an optimize run (Write) and sweep-run.json, through
// a claim on the folder (results.ClaimDir), so that the run folder appears
// only complete. feasible < 0 means unknown.
func writeSweepRun(out string, run *configs.SweepRun, res *optimizer.Outcome, info results.RunInfo, feasible int) error {
	c, err := results.ClaimDir(filepath.Join(out, run.Name))
	if err != nil {
		return err
	}
	return CommitSweepRun(c, run, res, info, feasible)
}

// CommitSweepRun writes one run of a sweep into the claimed folder, the
// files of an optimize run and sweep-run.json, and puts it in place.
// feasible < 0 means unknown.
func CommitSweepRun(c *results.Claim, run *configs.SweepRun, res *optimizer.Outcome, info results.RunInfo, feasible int) error {
	return c.Commit(func(dir string) error {
		if err := writeRunFiles(dir, run.Config, res, info); err != nil {
			return err
		}
		rec := results.SweepRunRecord{Index: run.Index, Name: run.Name, Settings: run.Settings, Evaluations: res.Evaluations, ResultsFormat: sweepResultsFormat}
		if feasible >= 0 {
			rec.FeasibleEvaluations = &feasible
		}
		return writeJSON(filepath.Join(dir, results.SweepRunFileName), rec)
	})
}
