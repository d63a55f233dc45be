package sweep

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/golden"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
)

// syntheticSweep is a 2 × 2 sweep on the built-in system with two
// objectives and made-up run folders: run 3 does not know its feasible
// evaluations, nor its analyses (a folder written before hetmap recorded
// them), run 4 has no feasible mapping; runs 2 and 4 analysed priority
// variants beyond their evaluations.
func syntheticSweep(t *testing.T) (*configs.Sweep, []*runfolder.SweepRunData) {
	t.Helper()
	sw, err := configs.LoadSweep([]byte(`
description: synthetic
base: builtin
parameters:
  - {name: memory.per_core, kind: A57, values: [10ns, 20ns]}
seeds: [1, 2]
search:
  objectives: [{chain: SF-P-DA}, {kind: cores-used}]
`), "synthetic.yaml", ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	search := sw.Runs[0].Config.Search.WithDefaults(sw.Runs[0].Config.System, sw.Runs[0].Config.Analysis.ChainLatency)
	fronts := [][][]float64{
		{{10, 4}, {20, 2}},
		{{12, 3}},
		{{30, 2}, {11, 5}},
		nil,
	}
	var runs []*runfolder.SweepRunData
	for i, r := range sw.Runs {
		d := &runfolder.SweepRunData{Front: fronts[i], Report: i == 1}
		feasible := 100 * (i + 1)
		d.Record = results.SweepRunRecord{Index: r.Index, Name: r.Name, Settings: r.Settings, FeasibleEvaluations: &feasible, Evaluations: 1000, ResultsFormat: 1}
		if i == 2 {
			d.Record.FeasibleEvaluations = nil
		}
		d.Manifest = results.Manifest{Objectives: []string{"SF-P-DA reaction-time", "cores-used"}, Settings: search, Seed: r.Config.Search.Seed,
			Feasible: fronts[i] != nil, FrontSize: len(fronts[i]), Evaluations: 1000, Analyses: 1000 + 250*(i%2), WallTimeMs: 12.5 + float64(i)}
		if i == 2 {
			d.Manifest.Analyses = 0
		}
		runs = append(runs, d)
	}
	return sw, runs
}

func TestSweepSummary(t *testing.T) {
	sw, runs := syntheticSweep(t)
	s, err := NewSummary(sw, runs)
	if err != nil {
		t.Fatal(err)
	}
	// One reference point for the sweep: 10 % beyond the worst of every
	// objective over all fronts.
	if want := []float64{33, 5.5}; !reflect.DeepEqual(s.Reference, want) {
		t.Errorf("reference %v, want %v", s.Reference, want)
	}
	// Run 1: (10,4), (20,2) under (33, 5.5): 23·1.5 + 13·2 = 60.5.
	if hv := s.Rows[0].Hypervolume; math.Abs(hv-60.5) > 1e-9 {
		t.Errorf("run 1 hypervolume %v, want 60.5", hv)
	}
	if hv := s.Rows[2].Hypervolume; math.Abs(hv-moo.Hypervolume(runs[2].Front, s.Reference)) > 1e-12 {
		t.Errorf("run 3 hypervolume %v", hv)
	}
	if r := s.Rows[3]; r.Feasible || r.FrontSize != 0 || r.Hypervolume != 0 || r.Best != nil {
		t.Errorf("infeasible run: %+v", r)
	}
	if r := s.Rows[2]; !reflect.DeepEqual(r.Best, []float64{11, 2}) || !math.IsNaN(r.FeasibleShare) {
		t.Errorf("run 3: best %v, share %v", r.Best, r.FeasibleShare)
	}
	// evaluations counts the mappings, analyses what the budget counts.
	if got := []int{s.Rows[0].Analyses, s.Rows[1].Analyses, s.Rows[2].Analyses, s.Rows[3].Analyses}; !reflect.DeepEqual(got, []int{1000, 1250, -1, 1250}) || s.Rows[1].Evaluations != 1000 {
		t.Errorf("analyses %v, evaluations %d", got, s.Rows[1].Evaluations)
	}
	if len(s.Parameters) != 1 || s.Parameters[0].Label != "memory.per_core[A57]" {
		t.Errorf("parameters %+v (the seed has its own column)", s.Parameters)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, s); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "sweep_summary.csv", buf.String())
}

// TestSweepHTML: summary.html is self-contained and has its sections, one
// SVG per plot: per measure (best of each objective, front size,
// hypervolume, feasible share) one per varied parameter, the seeds aside.
func TestSweepHTML(t *testing.T) {
	sw, runs := syntheticSweep(t)
	s, err := NewSummary(sw, runs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, s); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{`<section id="overview">`, `<section id="plots">`, `<section id="runs">`, "<style>",
		"<h3>best SF-P-DA reaction-time [ms]</h3>", "<h3>best cores-used</h3>", "<h3>front size</h3>", "<h3>hypervolume [ms]</h3>", "in ms (the product of the objectives' units", "<h3>feasible share</h3>",
		"synthetic", `<a href="run-001_memory.per_core.A57=10ns_search.seed=1/" title="run-001_memory.per_core.A57=10ns_search.seed=1">1</a>`,
		`<a href="run-002_memory.per_core.A57=10ns_search.seed=2/report.html" title="run-002_memory.per_core.A57=10ns_search.seed=2">2</a>`} {
		if !strings.Contains(page, want) {
			t.Errorf("summary.html lacks %q", want)
		}
	}
	if n := strings.Count(page, "<svg"); n != 5 {
		t.Errorf("%d SVG plots, want 5 (5 measures × 1 parameter)", n)
	}
	if n := strings.Count(page, "<figure>"); n != 5 {
		t.Errorf("%d figures, want 5", n)
	}
	if n := strings.Count(page, `<tr class="infeasible">`); n != 1 {
		t.Errorf("%d infeasible rows, want 1", n)
	}
	for _, bad := range []string{"<script", "<link", " src=", "<?xml", `href="http`} {
		if strings.Contains(page, bad) {
			t.Errorf("summary.html holds %q: it must be self-contained", bad)
		}
	}
	// The same summary, the same page.
	var again bytes.Buffer
	if err := WriteHTML(&again, s); err != nil {
		t.Fatal(err)
	}
	if again.String() != page {
		t.Error("summary.html is not deterministic")
	}
}

// TestSweepHTMLRequestAssumption: a sweep with runs under the request
// count names its assumption in the overview, one without does not.
func TestSweepHTMLRequestAssumption(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   bool
	}{{[]string{"challenge", "refined"}, false}, {[]string{"refined", "request"}, true}} {
		s := &Summary{File: "s.yaml", Base: "builtin", Parameters: []Column{{Label: "analysis.contention", Values: c.values, Display: c.values}}}
		var buf bytes.Buffer
		if err := WriteHTML(&buf, s); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), "one outstanding request per client"); got != c.want {
			t.Errorf("values %v: assumption named %v, want %v", c.values, got, c.want)
		}
	}
}

func TestSweepQuantile(t *testing.T) {
	for _, tt := range []struct {
		x    []float64
		p    float64
		want float64
	}{
		{[]float64{1, 2}, 0.5, 1.5}, {[]float64{1, 2, 3}, 0.5, 2}, {[]float64{1, 2, 3, 4, 5}, 0.25, 2},
		{[]float64{1, 2, 3, 4}, 0.25, 1.75}, {[]float64{7}, 0.75, 7}, {[]float64{1, 9}, 1, 9},
	} {
		if got := sweepQuantile(tt.x, tt.p); got != tt.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", tt.x, tt.p, got, tt.want)
		}
	}
}

// TestSweepHTMLReadable: the runs table leaves the long folder names to
// the links of the run numbers, so that the measures stay in view; values
// of a parameter read alike (1 GHz, 1.5 GHz, 2 GHz, not 1GHz beside
// 1500MHz); and a value without a feasible run says so in the plots of the
// best values instead of leaving an empty column.
func TestSweepHTMLReadable(t *testing.T) {
	sw, err := configs.LoadSweep([]byte(`
base: builtin
parameters:
  - {name: frequency, kind: A57, range: {from: 1GHz, to: 2GHz, step: 500MHz}}
search:
  objectives: [{chain: SF-P-DA}, {kind: cores-used}]
`), "freq.yaml", ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	search := sw.Runs[0].Config.Search.WithDefaults(sw.Runs[0].Config.System, sw.Runs[0].Config.Analysis.ChainLatency)
	fronts := [][][]float64{nil, {{12, 3}}, {{10, 4}, {20, 2}}}
	var runs []*runfolder.SweepRunData
	for i, r := range sw.Runs {
		d := &runfolder.SweepRunData{Front: fronts[i]}
		d.Record = results.SweepRunRecord{Index: r.Index, Name: r.Name, Settings: r.Settings, Evaluations: 1000, ResultsFormat: 1}
		d.Manifest = results.Manifest{Objectives: []string{"SF-P-DA reaction-time", "cores-used"}, Settings: search, Seed: 1,
			Feasible: fronts[i] != nil, FrontSize: len(fronts[i]), Evaluations: 1000}
		runs = append(runs, d)
	}
	s, err := NewSummary(sw, runs)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Parameters[0].Values; !reflect.DeepEqual(got, []string{"1GHz", "1.5GHz", "2GHz"}) && !reflect.DeepEqual(got, []string{"1GHz", "1500MHz", "2GHz"}) {
		t.Errorf("canonical values %v", got)
	}
	if got := s.Parameters[0].Display; !reflect.DeepEqual(got, []string{"1 GHz", "1.5 GHz", "2 GHz"}) {
		t.Errorf("display values %v, want 1 GHz, 1.5 GHz, 2 GHz", got)
	}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, s); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	runsTable := page[strings.Index(page, `<section id="runs">`):]
	for _, want := range []string{"<td>1 GHz, 1.5 GHz, 2 GHz</td>", "<td>1.5 GHz</td>", ">no feasible run</text>"} {
		if !strings.Contains(page, want) {
			t.Errorf("summary.html lacks %q", want)
		}
	}
	if strings.Contains(page, ">1500MHz<") || strings.Contains(runsTable, "<th>folder</th>") || strings.Contains(runsTable, ">run-001_") {
		t.Error("summary.html shows canonical values or the folder names in the runs table")
	}
}

// TestSummaryStatesRunProof: a row of the summary states the proof that
// results.RunProof reads from the run's manifest (results'
// TestProofAgreesEverywhere checks RunProof against the run itself), for
// every exactness of a manifest of results format 2 and for one of format
// 1, and the run's algorithm.
func TestSummaryStatesRunProof(t *testing.T) {
	sw := &configs.Sweep{File: "sweep.yaml"}
	var manifests []results.Manifest
	for _, e := range []optimizer.Exactness{optimizer.Exact, optimizer.NotExact, optimizer.Heuristic, optimizer.Stopped} {
		p := optimizer.Proof{Algorithm: configs.AlgorithmExhaustive, Exactness: e}
		manifests = append(manifests, results.Manifest{ResultsFormat: 2, Algorithm: configs.AlgorithmExhaustive, Feasible: true, FrontSize: 1, Proof: results.NewProofJSON(p, true)})
	}
	manifests = append(manifests, results.Manifest{ResultsFormat: 1, Algorithm: configs.AlgorithmExhaustive, Feasible: true, FrontSize: 1, Exact: true})
	for _, m := range manifests {
		s, err := NewSummary(sw, []*runfolder.SweepRunData{{Record: results.SweepRunRecord{Index: 1, Name: "run"}, Manifest: m, Front: [][]float64{{1}}}})
		if err != nil {
			t.Fatal(err)
		}
		want := results.RunProof(&m).Exactness.String()
		if r := s.Rows[0]; r.Exactness != want || r.Algorithm != m.Algorithm.String() {
			t.Errorf("format %d: the summary's row says %s (%s), the run %s (%s)", m.ResultsFormat, r.Exactness, r.Algorithm, want, m.Algorithm)
		}
	}
}
