package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
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

// Manifest records how a search ran, so that a result can be reproduced and
// cited: the tool, the configuration (its hash, and its canonical text in
// config.yaml beside it), the seed and settings, and what the run did.
type Manifest struct {
	Tool          string         `json:"tool"`
	Version       string         `json:"version"`
	GoVersion     string         `json:"go_version"`
	ConfigSource  string         `json:"config_source"`
	ConfigSHA256  string         `json:"config_sha256"`
	Algorithm     string         `json:"algorithm"`
	Seed          int64          `json:"seed"`
	Workers       int            `json:"workers"`
	Settings      configs.Search `json:"settings"`
	Objectives    []string       `json:"objectives"`
	Status        string         `json:"status"`
	Feasible      bool           `json:"feasible"`
	FrontSize     int            `json:"front_size"`
	Evaluations   int            `json:"evaluations"`
	Pruned        int            `json:"pruned,omitempty"`
	Generations   int            `json:"generations,omitempty"`
	WallTimeMs    float64        `json:"wall_time_ms"`
	StartedUTC    string         `json:"started_utc"`
	ResultsFormat int            `json:"results_format"`
}

// FrontPointJSON is one mapping of the front (or, when none is feasible,
// one of the least-violating mappings) with its full evaluation and its
// mapping in the form `hetmap analyze --mapping` reads (also written as
// mappings/point-N.yaml).
type FrontPointJSON struct {
	ID          int                `json:"id"`
	Objectives  []float64          `json:"objectives_ms"`
	ViolationMs float64            `json:"violation_ms"`
	Units       string             `json:"units"`
	Mapping     configs.Mapping    `json:"mapping"`
	MappingFile string             `json:"mapping_file"`
	Utilisation map[string]float64 `json:"utilisation"`
	Evaluation  AnalysisJSON       `json:"evaluation"`
}

// FrontJSON is front.json.
type FrontJSON struct {
	System     string           `json:"system"`
	Objectives []string         `json:"objectives"`
	Feasible   bool             `json:"feasible"`
	Exact      bool             `json:"exact"` // the exhaustive algorithm ran to the end
	Points     []FrontPointJSON `json:"points"`
	// LeastViolating lists, when no mapping is feasible, those that miss the
	// least, with the constraints each one misses.
	LeastViolating []FrontPointJSON `json:"least_violating,omitempty"`
}

// CompactUnits writes a mapping by unit on one line, e.g.
// "Core0: Planner | Core1: Lidar_Grabber, PRE_SFM_gpu_POST | GP10B: SFM (high), Detection".
func CompactUnits(r *optimizer.Result) string {
	var parts []string
	for u := range r.Units {
		ur := &r.Units[u]
		var names []string
		for k := range r.Tasks {
			t := &r.Tasks[k]
			if t.Role == optimizer.NotRunning || t.Unit != u {
				continue
			}
			n := t.Name
			switch t.Role {
			case optimizer.OnGPU:
				if r.GPUModel == configs.GPUModelFIFO && r.GPU[t.GPU].High {
					n += " (high)"
				}
			case optimizer.OffloadAsync:
				n += " (async)"
			case optimizer.Merged:
				n += " (merged)"
			}
			names = append(names, n)
		}
		if len(names) > 0 {
			parts = append(parts, ur.Name+": "+strings.Join(names, ", "))
		}
	}
	return strings.Join(parts, " | ")
}

func utilisation(r *optimizer.Result) map[string]float64 {
	out := map[string]float64{}
	for u := range r.Units {
		out[r.Units[u].Name] = round4(r.Units[u].Utilisation)
	}
	return out
}

func pointJSON(cfg *configs.Config, id int, p optimizer.Point, file string) FrontPointJSON {
	return FrontPointJSON{ID: id, Objectives: p.Objectives, ViolationMs: p.Violation, Units: CompactUnits(p.Result),
		Mapping: p.Mapping, MappingFile: file, Utilisation: utilisation(p.Result),
		Evaluation: NewAnalysisJSON(cfg, file, p.Result)}
}

// NewFrontJSON builds front.json from a search outcome.
func NewFrontJSON(cfg *configs.Config, out *optimizer.Outcome) FrontJSON {
	f := FrontJSON{System: cfg.System.Name, Objectives: out.Objectives, Feasible: out.Feasible,
		Exact: out.Search.Algorithm == configs.AlgorithmExhaustive, Points: []FrontPointJSON{}}
	for i, p := range out.Front {
		f.Points = append(f.Points, pointJSON(cfg, i+1, p, mappingFile(i+1)))
	}
	for i, p := range out.LeastViolating {
		f.LeastViolating = append(f.LeastViolating, pointJSON(cfg, i+1, p, leastFile(i+1)))
	}
	return f
}

func mappingFile(id int) string { return fmt.Sprintf("mappings/point-%d.yaml", id) }
func leastFile(id int) string   { return fmt.Sprintf("mappings/least-violating-%d.yaml", id) }

// WriteFrontCSV writes one row per front point: the objectives (ms), the
// utilisation of every unit and the unit of every task ("-" when it does not
// run on its own).
func WriteFrontCSV(w io.Writer, cfg *configs.Config, out *optimizer.Outcome) error {
	cw := csv.NewWriter(w)
	s := cfg.System
	head := []string{"point"}
	for _, o := range out.Objectives {
		head = append(head, o+" [ms]")
	}
	for _, u := range s.Units {
		head = append(head, "utilisation "+u.Name)
	}
	for _, t := range s.Tasks {
		head = append(head, "unit "+t.Name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for i, p := range out.Front {
		row := []string{strconv.Itoa(i + 1)}
		for _, v := range p.Objectives {
			row = append(row, strconv.FormatFloat(v, 'f', -1, 64))
		}
		for u := range p.Result.Units {
			row = append(row, strconv.FormatFloat(round4(p.Result.Units[u].Utilisation), 'f', -1, 64))
		}
		for k := range p.Result.Tasks {
			t := &p.Result.Tasks[k]
			unit := "-"
			if t.Role != optimizer.NotRunning {
				unit = p.Result.Units[t.Unit].Name
			}
			row = append(row, unit)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteFrontText writes the front for a person: per point the objectives
// and the utilisation of every core, then every point's mapping by unit.
// When nothing is feasible it lists the least-violating mappings with what
// each one misses.
func WriteFrontText(w io.Writer, cfg *configs.Config, out *optimizer.Outcome) error {
	p := &printer{w: w}
	points := out.Front
	if !out.Feasible {
		points = out.LeastViolating
		meets := feasibleMeans(cfg.System)
		switch {
		case out.Search.Algorithm != configs.AlgorithmExhaustive:
			p.f("No feasible mapping: the search found no mapping that meets %s. The least-violating mappings it saw:\n", meets)
		case out.LeastViolatingBy == configs.AlgorithmExhaustive:
			p.f("No feasible mapping: the exhaustive search proves that no mapping meets %s. The least-violating mappings:\n", meets)
		default:
			p.f("No feasible mapping: the exhaustive search proves that no mapping meets %s (it cut every partial mapping as unschedulable, %d cuts).\nThe least-violating complete mappings, found by a short genetic search:\n", meets, out.Pruned)
		}
	} else {
		exact := ""
		if out.Search.Algorithm == configs.AlgorithmExhaustive {
			exact = " (exact: every distinct mapping was enumerated or cut as unschedulable)"
		}
		p.f("Pareto front: %d mapping(s)%s; objectives minimised, in ms where a latency\n", len(points), exact)
	}
	tw := p.table()
	fmt.Fprint(tw, "  #")
	for _, o := range out.Objectives {
		fmt.Fprintf(tw, "\t%s", o)
	}
	if !out.Feasible {
		fmt.Fprint(tw, "\tviolation")
	}
	for _, u := range cfg.System.Units {
		fmt.Fprintf(tw, "\t%s", u.Name)
	}
	fmt.Fprintln(tw, "\t")
	for i, pt := range points {
		fmt.Fprintf(tw, "  %d", i+1)
		for k, v := range pt.Objectives {
			fmt.Fprintf(tw, "\t%s", objectiveValue(out.Search.Objectives[k], v, out.Feasible))
		}
		if !out.Feasible {
			fmt.Fprintf(tw, "\t%s", FormatDuration(configs.Duration(pt.Violation*1e9)))
		}
		for u := range pt.Result.Units {
			fmt.Fprintf(tw, "\t%s", percent(pt.Result.Units[u].Utilisation))
		}
		fmt.Fprintln(tw, "\t")
	}
	p.flush(tw)
	p.f("\nMappings (unit: tasks)\n")
	for i, pt := range points {
		p.f("  %d  %s\n", i+1, CompactUnits(pt.Result))
		if !out.Feasible {
			for _, reason := range pt.Result.Reasons() {
				p.f("       misses: %s\n", reason)
			}
		}
	}
	return p.err
}

func objectiveValue(o configs.Objective, v float64, feasible bool) string {
	if !feasible {
		return "-"
	}
	switch o.Kind {
	case configs.ObjectiveChain:
		return strconv.FormatFloat(v, 'f', 3, 64) + " ms"
	case configs.ObjectiveMaxUtilisation:
		return percent(v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// ConfigYAML is the canonical text of a configuration (what config.yaml in a
// run folder holds) and its SHA-256.
func ConfigYAML(cfg *configs.Config) ([]byte, string, error) {
	var buf bytes.Buffer
	if err := configs.WriteYAML(&buf, cfg, "the configuration of this run, as hetmap read it"); err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	return buf.Bytes(), hex.EncodeToString(sum[:]), nil
}

// RunInfo is what the caller knows of a run beyond the outcome.
type RunInfo struct {
	Version string
	Started time.Time
	Workers int
	// Model, when the system was read from an Amalthea model, writes a
	// front point's mapping into it (configs.ExportAmalthea): the new
	// content of every file of the model, by input path. WriteRun then
	// writes mappings/point-N.amxmi beside point-N.yaml (for a model in
	// several files, the folder mappings/point-N/ with all of them).
	Model func(optimizer.Point) (map[string][]byte, error)
}

// WriteRun writes a search's files into dir, which must not exist: it
// writes everything into a temporary folder beside it and renames that into
// place, so that dir appears only complete. Files: front.csv, front.json,
// manifest.json, config.yaml, mappings/*.yaml and report.html.
func WriteRun(dir string, cfg *configs.Config, out *optimizer.Outcome, info RunInfo) error {
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("output folder %s exists already; choose another with --out", dir)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	if err := writeRunFiles(tmp, cfg, out, info); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

func writeRunFiles(dir string, cfg *configs.Config, out *optimizer.Outcome, info RunInfo) error {
	text, sum, err := ConfigYAML(cfg)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), text, 0o644); err != nil {
		return err
	}
	front := NewFrontJSON(cfg, out)
	if err := writeJSON(filepath.Join(dir, "front.json"), front); err != nil {
		return err
	}
	var csvBuf bytes.Buffer
	if err := WriteFrontCSV(&csvBuf, cfg, out); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "front.csv"), csvBuf.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(dir, "mappings"), 0o755); err != nil {
		return err
	}
	write := func(name string, m configs.Mapping, header string) error {
		data, err := yaml.Marshal(m)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, name), append([]byte("# "+header+"\n"), data...), 0o644)
	}
	for _, p := range front.Points {
		if err := write(p.MappingFile, p.Mapping, fmt.Sprintf("front point %d: hetmap analyze --config config.yaml --mapping %s", p.ID, p.MappingFile)); err != nil {
			return err
		}
	}
	if info.Model != nil {
		for i, p := range out.Front {
			if err := writeModelFiles(dir, i+1, info.Model, p); err != nil {
				return err
			}
		}
	}
	for _, p := range front.LeastViolating {
		if err := write(p.MappingFile, p.Mapping, fmt.Sprintf("least-violating mapping %d (misses %s)", p.ID, FormatDuration(configs.Duration(p.ViolationMs*1e9)))); err != nil {
			return err
		}
	}
	m := Manifest{Tool: "hetmap", Version: info.Version, GoVersion: runtime.Version(), ConfigSource: cfg.Source, ConfigSHA256: sum,
		Algorithm: out.Search.Algorithm, Seed: out.Search.Seed, Workers: info.Workers, Settings: out.Search, Objectives: out.Objectives,
		Status: out.Status.String(), Feasible: out.Feasible, FrontSize: len(out.Front), Evaluations: out.Evaluations,
		Pruned: out.Pruned, Generations: out.Generations, WallTimeMs: float64(out.Wall.Microseconds()) / 1000,
		StartedUTC: info.Started.UTC().Format(time.RFC3339), ResultsFormat: 1}
	if err := writeJSON(filepath.Join(dir, "manifest.json"), m); err != nil {
		return err
	}
	// The report reads the files just written, as `hetmap report` does, so
	// that regenerating it gives the same bytes.
	return WriteReportFile(dir)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// writeModelFiles writes front point id's mapping into the Amalthea model:
// mappings/point-N.amxmi, or the folder mappings/point-N/ for a model in
// several files.
func writeModelFiles(dir string, id int, model func(optimizer.Point) (map[string][]byte, error), p optimizer.Point) error {
	files, err := model(p)
	if err != nil {
		return fmt.Errorf("front point %d: writing its mapping into the model: %w", id, err)
	}
	base := strings.TrimSuffix(mappingFile(id), ".yaml")
	if len(files) == 1 {
		for _, data := range files {
			return os.WriteFile(filepath.Join(dir, base+".amxmi"), data, 0o644)
		}
	}
	folder := filepath.Join(dir, base)
	if err := os.Mkdir(folder, 0o755); err != nil {
		return err
	}
	for in, data := range files {
		if err := os.WriteFile(filepath.Join(folder, filepath.Base(in)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
