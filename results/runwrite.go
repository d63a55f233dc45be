package results

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"gopkg.in/yaml.v3"
)

// DetailPoints is how many points of a front (or least-violating
// mappings) a run folder details: the first ones get their full
// evaluation file (mappings/point-N.json) and their section in
// report.html. The others are a row of the front's table with their
// verdict and margins in front.json; `hetmap report DIR --point N` writes
// the page of any of them, `hetmap analyze --json` its full evaluation. An
// interrupted run details none, so that it ends promptly.
const DetailPoints = optimizer.DetailPoints

// WriteProgress says how far writing a run folder has come: Done of Total
// steps of Stage.
type WriteProgress struct {
	Stage       string // StagePoints or StageReport
	Done, Total int
}

// The stages of writing a run folder.
const (
	// StagePoints: front.json, front.csv and the mapping files, one point
	// after the other.
	StagePoints = "points"
	// StageReport: report.html, one detailed point after the other.
	StageReport = "report"
)

func (p WriteProgress) String() string {
	if p.Stage == StageReport {
		return fmt.Sprintf("writing report.html: %d of %d detailed point(s)", p.Done, p.Total)
	}
	return fmt.Sprintf("writing front.json, front.csv and the mappings: %d of %d point(s)", p.Done, p.Total)
}

// writeRunFiles writes a search's files into dir (RunFiles), point by
// point: what it holds in memory does not grow with the front beyond the
// outcome itself.
func writeRunFiles(dir string, cfg *configs.Config, out *optimizer.Outcome, info RunInfo) error {
	progress := info.Progress
	if progress == nil {
		progress = func(WriteProgress) {}
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
	text, sum, err := ConfigYAML(cfg)
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
	front := newFrontWriter(fj.w, FrontJSON{System: cfg.System.Name, Objectives: out.Objectives, Feasible: out.Feasible,
		Proof: NewProofJSON(out.Proof, out.Feasible)})
	rows := newFrontCSV(fc.w, cfg, out)
	if err := rows.head(); err != nil {
		return err
	}
	total := len(out.Front) + len(out.LeastViolating)
	done := 0
	progress(WriteProgress{Stage: StagePoints, Total: total})
	last := time.Now()
	mappings := newMappingYAML()
	point := func(least bool, id int, p optimizer.Point) error {
		file := mappingFile(id)
		header := fmt.Sprintf("front point %d: hetmap analyze --config config.yaml --mapping %s", id, file)
		if least {
			file = leastFile(id)
			header = fmt.Sprintf("least-violating mapping %d (misses %s)", id, FormatDuration(configs.Duration(p.Violation*1e9)))
		}
		evaluation := ""
		if id <= DetailPoints && !out.Interrupted() && !stopped() {
			// An interrupted run details no point (its report has no
			// section, which would cost a re-evaluation and a simulation
			// each): hetmap report --point N writes any point's page.
			evaluation = evaluationFile(file)
			data, err := json.Marshal(NewAnalysisJSON(cfg, file, p.Analysis))
			if err != nil {
				return err
			}
			if err := sums.write(dir, evaluation, append(data, '\n')); err != nil {
				return err
			}
		}
		pj := NewFrontPointJSON(id, p, file, evaluation)
		pj.ObjectiveMinima = ObjectiveMinima(out.Search.Objectives, p.Analysis)
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
			if err := rows.row(id, p); err != nil {
				return err
			}
		}
		done++
		if time.Since(last) >= 100*time.Millisecond || done == total {
			last = time.Now()
			progress(WriteProgress{Stage: StagePoints, Done: done, Total: total})
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
	if err := errors.Join(front.end(), rows.end(), fj.close(), fc.close()); err != nil {
		return err
	}
	stopped()
	marked := out.Interrupted()
	if err := writeJSON(filepath.Join(dir, "manifest.json"), manifestWithFiles(NewManifest(cfg, out, info, sum), sums)); err != nil {
		return err
	}
	// The report reads the files just written, as `hetmap report` does, so
	// that regenerating it gives the same bytes.
	if err := writeReportFile(dir, progress); err != nil {
		return err
	}
	if stopped() && !marked {
		// Interrupted while the report was written: the run is marked,
		// the manifest and the report say so.
		if err := writeJSON(filepath.Join(dir, "manifest.json"), manifestWithFiles(NewManifest(cfg, out, info, sum), sums)); err != nil {
			return err
		}
		return writeReportFile(dir, nil)
	}
	return nil
}

// manifestWithFiles is m listing the files of the run folder with their
// sizes and SHA-256 (report and compare check them).
func manifestWithFiles(m Manifest, sums fileSums) Manifest {
	m.Files = sums
	return m
}

// NewManifest is the manifest of a search's outcome written with info;
// configSHA256 is the hash of the configuration's canonical text.
func NewManifest(cfg *configs.Config, out *optimizer.Outcome, info RunInfo, configSHA256 string) Manifest {
	m := Manifest{Tool: "hetmap", Version: info.Version, GoVersion: runtime.Version(), ConfigSource: cfg.Source, ConfigSHA256: configSHA256,
		Algorithm: out.Search.Algorithm, Seed: out.Search.Seed, Workers: info.Workers, Settings: out.Search, Objectives: out.Objectives,
		Status: statusToken(out.Status), Feasible: out.Feasible, FrontSize: len(out.Front), Evaluations: out.Evaluations,
		Pruned: out.Pruned, Generations: out.Generations, WallTimeMs: float64(out.Wall.Microseconds()) / 1000,
		FeasibleMappings: out.FeasibleMappings, PriorityVariants: out.Variants, Proof: NewProofJSON(out.Proof, out.Feasible),
		ConstructionEvaluations: out.ConstructionEvaluations, Analyses: out.Analyses, AlgorithmChoice: out.AlgorithmChoice,
		StopReason: StopText(out), Epsilon: out.Epsilon, FrontFound: out.FrontFound, PointsDropped: out.Dropped,
		StartedUTC: info.Started.UTC().Format(time.RFC3339), ResultsFormat: ResultsFormat}
	if out.Epsilon != nil {
		m.EpsilonText = EpsilonText(out.Search.Objectives, out.Epsilon)
	}
	if out.Interrupted() {
		m.Status, m.InterruptedIn = StatusInterrupted, out.InterruptedIn
	}
	if out.Interrupted() {
		m.MarginsMissing = len(out.Front) - out.Margins
	}
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
	head  FrontJSON
	state int // 0: nothing written; 1: in points; 2: in least_violating
	n     int // points written in the current list
	err   error
}

func newFrontWriter(w io.Writer, head FrontJSON) *frontWriter {
	head.ResultsFormat = ResultsFormat
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
		ResultsFormat int       `json:"results_format"`
		System        string    `json:"system"`
		Objectives    []string  `json:"objectives"`
		Feasible      bool      `json:"feasible"`
		Proof         ProofJSON `json:"proof"`
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
func (f *frontWriter) point(least bool, p *FrontPointJSON) error {
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

// frontCSV writes front.csv a row at a time (WriteFrontCSV).
type frontCSV struct {
	w      *csv.Writer
	cfg    *configs.Config
	out    *optimizer.Outcome
	chains []int // the chain objectives' indices
	cpus   []int // the CPU units with a demand column
}

func newFrontCSV(w io.Writer, cfg *configs.Config, out *optimizer.Outcome) *frontCSV {
	return &frontCSV{w: csv.NewWriter(w), cfg: cfg, out: out}
}

func (c *frontCSV) end() error {
	c.w.Flush()
	return c.w.Error()
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
