package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
)

// The files of a sweep's summary, in the sweep folder.
const (
	SummaryCSV  = "summary.csv"
	SummaryHTML = "summary.html"
)

// Summary is the table of a sweep: one row per run.
type Summary struct {
	Description string
	// File is the sweep file's name (without its folder), Base the base as
	// the sweep file writes it.
	File, Base string
	// Parameters are the varied parameters other than the seed, in the
	// sweep file's order, with their values.
	Parameters []Column
	// Objectives names the objectives; Units their unit ("ms" or "").
	Objectives []string
	Units      []string
	// Reference is the hypervolume reference point common to the sweep
	// (optimizer.ReferencePoint over the union of all fronts); nil when
	// there are not 2 to 4 objectives or no run is feasible.
	Reference []float64
	Rows      []Row
}

// Column is a varied parameter and its values: as the run folders
// and summary.csv write them ("1500MHz"), and for people, every value in
// the unit its magnitude calls for ("1.5 GHz" beside "1 GHz").
type Column struct {
	Label   string
	Values  []string
	Display []string
	// Type is the values' kind (configs.SweepParameter.ValueType).
	Type string
}

// displayValue writes a parameter value for people: durations, frequencies
// and sizes as the rest of hetmap's pages write them.
func displayValue(valueType, text string) string {
	switch valueType {
	case "duration":
		if d, err := configs.ParseDuration(text); err == nil {
			return results.FormatDuration(d)
		}
	case "frequency":
		if f, err := configs.ParseFrequency(text); err == nil {
			return results.FormatFrequency(f)
		}
	case "size":
		if z, err := configs.ParseSize(text); err == nil {
			return results.FormatSize(z)
		}
	}
	return text
}

// Row is one run in the summary.
type Row struct {
	Run      int
	Folder   string
	Settings []string // per Summary.Parameters
	Seed     int64
	// Algorithm is the algorithm that ran (nsga2 or exhaustive), and
	// Exactness what its front is proven to be (optimizer.Exactness's
	// token: exact, not exact, heuristic, interrupted), so that a genetic
	// search's statistics are never read as an exhaustive one's.
	Algorithm, Exactness string
	Feasible             bool
	// FrontSize is 0 for an infeasible run; Hypervolume (NaN when not
	// computed) is then 0; Best (the least value of every objective over
	// the front) is nil.
	FrontSize     int
	Hypervolume   float64
	Best          []float64
	FeasibleShare float64 // NaN when unknown
	// Evaluations counts the mappings the search evaluated (its genomes);
	// Analyses what search.max_evaluations bounds, the evaluations and the
	// analyses of the priority-order variants and their enumeration
	// (optimizer.Outcome.Analyses), -1 when the run folder does not record
	// it (written before hetmap did).
	Evaluations int
	Analyses    int
	WallMs      float64
	// Report: the run folder has a report.html (summary.html links it).
	Report bool
}

// NewSummary builds the summary of a sweep from its run folders,
// given in run order.
func NewSummary(sw *configs.Sweep, runs []*runfolder.SweepRunData) (*Summary, error) {
	s := &Summary{Description: sw.Description, File: filepath.Base(sw.File), Base: sw.Base}
	var keep []int
	for k := range sw.Parameters {
		p := &sw.Parameters[k]
		if !p.IsSeed() {
			keep = append(keep, k)
			col := Column{Label: p.Label(), Values: p.Texts(), Type: p.ValueType()}
			for _, v := range col.Values {
				col.Display = append(col.Display, displayValue(p.ValueType(), v))
			}
			s.Parameters = append(s.Parameters, col)
		}
	}
	if len(runs) == 0 {
		return s, nil
	}
	s.Objectives = runs[0].Manifest.Objectives
	for _, o := range runs[0].Manifest.Settings.Objectives {
		unit := ""
		if o.Kind == configs.ObjectiveChain {
			unit = "ms"
		}
		s.Units = append(s.Units, unit)
	}
	var union [][]float64
	for _, r := range runs {
		if strings.Join(r.Manifest.Objectives, "\x00") != strings.Join(s.Objectives, "\x00") {
			return nil, fmt.Errorf("run %s has the objectives %v, run %s %v: a sweep compares runs with the same objectives",
				r.Record.Name, r.Manifest.Objectives, runs[0].Record.Name, s.Objectives)
		}
		union = append(union, r.Front...)
	}
	if m := len(s.Objectives); m >= 2 && m <= 4 && len(union) > 0 {
		s.Reference = optimizer.ReferencePoint(union)
	}
	for _, r := range runs {
		proof := results.RunProof(&r.Manifest)
		row := Row{Run: r.Record.Index, Folder: r.Record.Name, Seed: r.Manifest.Seed, Feasible: r.Manifest.Feasible,
			Algorithm: r.Manifest.Algorithm.String(), Exactness: proof.Exactness.String(),
			FrontSize: len(r.Front), Hypervolume: math.NaN(), FeasibleShare: math.NaN(), Evaluations: r.Manifest.Evaluations, Analyses: -1,
			WallMs: r.Manifest.WallTimeMs, Report: r.Report}
		if r.Manifest.Analyses >= r.Manifest.Evaluations { // absent (0) in folders written before
			row.Analyses = r.Manifest.Analyses
		}
		for _, k := range keep {
			if k >= len(r.Record.Settings) {
				return nil, fmt.Errorf("run %s: %s lists %d parameters, the sweep %d", r.Record.Name, results.SweepRunFileName, len(r.Record.Settings), len(sw.Parameters))
			}
			row.Settings = append(row.Settings, r.Record.Settings[k].Value)
		}
		if s.Reference != nil {
			row.Hypervolume = 0
			if len(r.Front) > 0 {
				row.Hypervolume = moo.Hypervolume(r.Front, s.Reference)
			}
		}
		if r.Manifest.Feasible && len(r.Front) > 0 {
			row.Best = append([]float64(nil), r.Front[0]...)
			for _, p := range r.Front[1:] {
				for j, v := range p {
					row.Best[j] = min(row.Best[j], v)
				}
			}
		}
		if fe := r.Record.FeasibleEvaluations; fe != nil && r.Manifest.Evaluations > 0 {
			row.FeasibleShare = float64(*fe) / float64(r.Manifest.Evaluations)
		}
		s.Rows = append(s.Rows, row)
	}
	return s, nil
}

// HypervolumeUnit is the unit of the hypervolume: the volume of the
// objective space that a front dominates up to the reference point, the
// product of the objectives' units (ms per latency; a count of cores and a
// share of a core have none): "ms³" for three latencies, "1" for none.
func (s *Summary) HypervolumeUnit() string {
	k := 0
	for _, u := range s.Units {
		if u == "ms" {
			k++
		}
	}
	switch k {
	case 0:
		return "1"
	case 1:
		return "ms"
	}
	sup := []string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}
	e := ""
	for _, d := range strconv.Itoa(k) {
		e += sup[d-'0']
	}
	return "ms" + e
}

// CSVHeader returns the columns of summary.csv.
func (s *Summary) CSVHeader() []string {
	head := []string{"run", "folder"}
	for _, p := range s.Parameters {
		head = append(head, p.Label)
	}
	head = append(head, "seed", "algorithm", "exactness", "feasible", "front_size", "hypervolume ["+s.HypervolumeUnit()+"]")
	for i, o := range s.Objectives {
		h := "best " + o
		if s.Units[i] != "" {
			h += " [" + s.Units[i] + "]"
		}
		head = append(head, h)
	}
	// analyses, new, comes before wall_time_ms, which stays the last
	// column, as in the summaries written before.
	return append(head, "feasible_share", "evaluations", "analyses", "wall_time_ms")
}

// WriteCSV writes summary.csv: one row per run, one column per
// parameter (the seed in its own column) and per measure. Empty cells are
// values that do not exist (the best values of an infeasible run, a
// hypervolume without 2 to 4 objectives, the analyses of a run folder that
// does not record them). Hypervolumes have 10 significant digits, feasible
// shares 4 decimals. evaluations counts the mappings evaluated (the
// feasible share's denominator), analyses what search.max_evaluations
// bounds (Row).
func WriteCSV(w io.Writer, s *Summary) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(s.CSVHeader()); err != nil {
		return err
	}
	for i := range s.Rows {
		if err := cw.Write(s.csvRow(&s.Rows[i])); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvRow is a row of summary.csv, in the order of CSVHeader.
func (s *Summary) csvRow(r *Row) []string {
	row := []string{strconv.Itoa(r.Run), r.Folder}
	row = append(row, r.Settings...)
	row = append(row, strconv.FormatInt(r.Seed, 10), r.Algorithm, r.Exactness, strconv.FormatBool(r.Feasible), strconv.Itoa(r.FrontSize), sweepNum(r.Hypervolume, 'g', 10))
	for i := range s.Objectives {
		if r.Best == nil {
			row = append(row, "")
		} else {
			row = append(row, sweepExact(r.Best[i]))
		}
	}
	analyses := ""
	if r.Analyses >= 0 {
		analyses = strconv.Itoa(r.Analyses)
	}
	return append(row, sweepNum(r.FeasibleShare, 'f', 4), strconv.Itoa(r.Evaluations), analyses, strconv.FormatFloat(r.WallMs, 'f', 3, 64))
}

// sweepExact writes a value with at most 9 decimals, trailing zeros
// dropped: latencies are whole picoseconds, so 9 decimals of a millisecond
// are exact, and the digits that floating point adds beyond them go.
func sweepExact(v float64) string {
	t := strconv.FormatFloat(v, 'f', 9, 64)
	t = strings.TrimRight(t, "0")
	return strings.TrimSuffix(t, ".")
}

func sweepNum(v float64, format byte, prec int) string {
	if v != v { // NaN: not computed
		return ""
	}
	return strconv.FormatFloat(v, format, prec, 64)
}

// WriteSummary writes summary.csv and summary.html into dir, each
// through a temporary file that is renamed into place.
func WriteSummary(dir string, s *Summary) error {
	var csvBuf, htmlBuf bytes.Buffer
	if err := WriteCSV(&csvBuf, s); err != nil {
		return err
	}
	if err := WriteHTML(&htmlBuf, s); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{SummaryCSV, csvBuf.Bytes()}, {SummaryHTML, htmlBuf.Bytes()}} {
		if err := results.WriteFileAtomic(filepath.Join(dir, f.name), f.data); err != nil {
			return err
		}
	}
	return nil
}
