package results

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/rta"
)

// Manifest records how a search ran, so that a result can be reproduced and
// cited: the tool, the configuration (its hash, and its canonical text in
// config.yaml beside it), the seed and settings, and what the run did.
type Manifest struct {
	Tool         string            `json:"tool"`
	Version      string            `json:"version"`
	GoVersion    string            `json:"go_version"`
	ConfigSource string            `json:"config_source"`
	ConfigSHA256 string            `json:"config_sha256"`
	Algorithm    configs.Algorithm `json:"algorithm"`
	Seed         int64             `json:"seed"`
	Workers      int               `json:"workers"`
	Settings     configs.Search    `json:"settings"`
	Objectives   []string          `json:"objectives"`
	Status       string            `json:"status"`
	Feasible     bool              `json:"feasible"`
	FrontSize    int               `json:"front_size"`
	Evaluations  int               `json:"evaluations"`
	Pruned       int               `json:"pruned,omitempty"`
	Generations  int               `json:"generations,omitempty"`
	// FeasibleMappings: the distinct feasible mappings the search met (up
	// to interchangeable cores); for an exact front, all that exist.
	FeasibleMappings int `json:"feasible_mappings"`
	// ConstructionEvaluations: the part of Evaluations the initial
	// constructions of the genetic search spent.
	ConstructionEvaluations int `json:"construction_evaluations,omitempty"`
	// Analyses: what search.max_evaluations bounds, Evaluations plus the
	// analyses of the priority-order variants and their enumeration
	// (optimizer.Outcome.Analyses); absent in folders written before.
	Analyses int `json:"analyses,omitempty"`
	// PriorityVariants: the priority orders other than the derived ones
	// evaluated for feasible mappings (the front is over mappings and
	// orders).
	PriorityVariants int `json:"priority_variants"`
	// Proof: what the front is proven to be (exact, not exact and why,
	// heuristic, interrupted), as every writer states it.
	Proof ProofJSON `json:"proof"`
	// Exact is results format 1's form of Proof (read only: format 2
	// writes Proof).
	Exact bool `json:"exact,omitempty"`
	// AlgorithmChoice: why an auto search ran the algorithm it ran.
	AlgorithmChoice string `json:"algorithm_choice,omitempty"`
	// StopReason: why a genetic search stopped, in a sentence (StopText):
	// its front stopped improving, or a limit.
	StopReason string `json:"stop_reason,omitempty"`
	// Epsilon: what the front's bound (search.max_front) costs, per
	// objective in its unit (ms for a chain): every feasible mapping met
	// has a point of the front less than ε worse on each objective
	// (optimizer.Outcome.Epsilon); EpsilonText says it in words. Absent
	// when the front holds every non-dominated mapping met.
	Epsilon     []float64 `json:"epsilon,omitempty"`
	EpsilonText string    `json:"epsilon_text,omitempty"`
	// FrontFound: the points of an exact front thinned to
	// search.max_front.
	FrontFound int `json:"front_found,omitempty"`
	// InterruptedIn: the stage a Ctrl-C (or stop signal) ended (Status
	// "interrupted"): the search's (its front is what it had found), or
	// a later one (optimizer.Outcome.InterruptedIn).
	InterruptedIn string `json:"interrupted_in,omitempty"`
	// MarginsMissing: the front's points without a margin, which an
	// interruption (of the search or after it) left out; PointsDropped:
	// the points of the front found
	// that an interrupted run did not analyse in time, and so left out.
	MarginsMissing int     `json:"margins_missing,omitempty"`
	PointsDropped  int     `json:"points_dropped,omitempty"`
	WallTimeMs     float64 `json:"wall_time_ms"`
	StartedUTC     string  `json:"started_utc"`
	ResultsFormat  int     `json:"results_format"`
	// Files: the size and SHA-256 of every file the run wrote before the
	// manifest, by its slash-separated path in the run folder (see
	// FileSum); absent in folders written before.
	Files map[string]FileSum `json:"files,omitempty"`
}

// FrontPointJSON is one mapping of the front (or, when none is feasible,
// one of the least-violating mappings) as front.json records it: what a
// review of the front needs (the objectives, the mapping, the verdict and
// the margins of every unit) and where its files are. Its full evaluation
// (every task's terms, the contention of every response window) is in
// EvaluationFile for the points the report details; for any point
// `hetmap analyze --config config.yaml --mapping MappingFile --json` gives
// it, and `hetmap report DIR --point N` writes its page.
type FrontPointJSON struct {
	ID int `json:"id"`
	// Objectives are the point's objective values; null for a
	// least-violating mapping, which has none (the search gives an
	// infeasible mapping a violation instead, and its chains may have no
	// latency), as analyze --json gives a chain without one null.
	Objectives  []float64       `json:"objectives_ms"`
	ViolationMs float64         `json:"violation_ms"`
	Units       string          `json:"units"`
	Mapping     configs.Mapping `json:"mapping"`
	MappingFile string          `json:"mapping_file"`
	// EvaluationFile is mappings/point-N.json (least-violating-N.json),
	// the point's full evaluation as `hetmap analyze --json` writes it,
	// for the first points (DetailPoints), whose details the report shows;
	// empty for the others.
	EvaluationFile string `json:"evaluation_file,omitempty"`
	// Verdict sums the analysis up (nil in results formats 1 and 2, whose
	// Evaluation holds it).
	Verdict *VerdictJSON `json:"verdict,omitempty"`
	// Utilisation is Σ C/T per unit, C with its per-job contention (the
	// challenge count's); Demand, under the refined and request counts,
	// the share of each CPU core with tasks that count charges in the long
	// run, what the verdicts rest on (AnalysisUnitJSON.Demand), and
	// DemandCount names that count.
	Utilisation map[string]float64      `json:"utilisation"`
	Demand      map[string]float64      `json:"demand,omitempty"`
	DemandCount configs.ContentionCount `json:"demand_count,omitempty"`
	// Evaluation is the full evaluation that results formats 1 and 2
	// wrote into every point (read only: format 3 writes EvaluationFile).
	Evaluation *AnalysisJSON `json:"evaluation,omitempty"`
	// ObjectiveMinima holds, per objective, the lower bound on the minimum
	// of a chain objective's latency (the same paradigm, metric and
	// bound), in ms; null for the other objectives (absent in files
	// written before).
	ObjectiveMinima []*float64 `json:"objective_minima_ms,omitempty"`
	// Margin is the point's margin on execution demand (every task's
	// scaled together; evaluate.Margins), for every point of the front but
	// those an interrupted run left without (manifest.json's
	// margins_missing); the per-kind and per-task margins are in the
	// evaluation file and in hetmap analyze.
	Margin *MarginJSON `json:"margin,omitempty"`
}

// VerdictJSON sums up a point's analysis: whether every task meets its
// deadline, how many miss and by how much in all, what each one misses,
// the busiest CPU core with the load its verdicts rest on (the demand
// under the refined and request counts, else Σ C/T), and the running task
// closest to its deadline.
type VerdictJSON struct {
	Schedulable bool     `json:"schedulable"`
	Misses      int      `json:"misses"`
	ViolationNs int64    `json:"violation_ns"`
	Reasons     []string `json:"reasons"`
	BusiestCore string   `json:"busiest_core,omitempty"`
	BusiestLoad float64  `json:"busiest_load"`
	// LeastSlack is the task with a bound whose deadline is nearest to
	// its response time (D − R least; negative when it misses).
	LeastSlack *SlackJSON `json:"least_slack,omitempty"`
}

// SlackJSON is one task's margin to its deadline.
type SlackJSON struct {
	Task           string `json:"task"`
	Unit           string `json:"unit"`
	ResponseTimeNs int64  `json:"response_time_ns"`
	DeadlineNs     int64  `json:"deadline_ns"`
	SlackNs        int64  `json:"slack_ns"`
}

// FrontJSON is front.json.
type FrontJSON struct {
	// ResultsFormat is the manifest's (format 3 on; absent before).
	ResultsFormat int              `json:"results_format,omitempty"`
	System        string           `json:"system"`
	Objectives    []string         `json:"objectives"`
	Feasible      bool             `json:"feasible"`
	Proof         ProofJSON        `json:"proof"`
	Points        []FrontPointJSON `json:"points"`
	// LeastViolating lists, when no mapping is feasible, those that miss the
	// least, with the constraints each one misses.
	LeastViolating []FrontPointJSON `json:"least_violating,omitempty"`
}

// CompactUnits writes a mapping by unit on one line, e.g.
// "Core0: Planner | Core1: Lidar_Grabber, PRE_SFM_gpu_POST (async) | GP10B: SFM (high priority), Detection":
// every unit's tasks with what else the mapping sets for them: the
// offloading mode (async; sync is not marked), a GPU task merged with its
// offloading task, the stream priority of a GPU task (fifo model; low is not
// marked) and its time slice (timeslice model). A core whose priorities the
// mapping gives lists its tasks most urgent first, separated by " > "
// ("Core4: EKF > PRE_Detection_gpu_POST (async)").
func CompactUnits(r *evaluate.Analysis) string { return strings.Join(unitParts(r), " | ") }

// unitParts is CompactUnits unit by unit.
func unitParts(r *evaluate.Analysis) []string {
	var parts []string
	for u := range r.Units {
		ur := &r.Units[u]
		var names []string
		ids := make([]int, 0, len(r.Tasks))
		for k := range r.Tasks {
			ids = append(ids, k)
		}
		sep := ", "
		if ur.Explicit { // the mapping's priorities: most urgent first
			sort.SliceStable(ids, func(a, b int) bool { return r.Tasks[ids[a]].Rank < r.Tasks[ids[b]].Rank })
			sep = " > "
		}
		for _, k := range ids {
			t := &r.Tasks[k]
			if t.Role == evaluate.NotRunning || t.Unit != u {
				continue
			}
			n := t.Name
			switch t.Role {
			case evaluate.OnGPU:
				g := &r.GPU[t.GPU]
				switch {
				case r.GPUModel == configs.GPUModelFIFO && g.High:
					n += " (high priority)"
				case r.GPUModel == configs.GPUModelTimeSlice && g.Slice > 0:
					n += " (slice " + FormatDuration(configs.Duration(g.Slice)) + ")"
				}
			case evaluate.OffloadAsync:
				n += " (async)"
			case evaluate.Merged:
				n += " (merged)"
			}
			names = append(names, n)
		}
		if len(names) > 0 {
			parts = append(parts, ur.Name+": "+strings.Join(names, sep))
		}
	}
	return parts
}

func utilisation(r *evaluate.Analysis) map[string]float64 {
	out := map[string]float64{}
	for u := range r.Units {
		out[r.Units[u].Name] = r.Units[u].Utilisation
	}
	return out
}

// NewFrontPointJSON is front point id of a search (file: its mapping
// file) as front.json records it; evaluation names its full evaluation's
// file, or is empty.
func NewFrontPointJSON(id int, p optimizer.Point, file, evaluation string) FrontPointJSON {
	objectives := p.Objectives
	if p.Violation > 0 {
		objectives = nil // a least-violating mapping: no objective value is one
	}
	pj := FrontPointJSON{ID: id, Objectives: objectives, ViolationMs: p.Violation, Units: CompactUnits(p.Analysis),
		Mapping: p.Mapping, MappingFile: file, EvaluationFile: evaluation, Utilisation: utilisation(p.Analysis),
		Verdict: newVerdictJSON(p.Analysis)}
	if m := p.Analysis.Margins; m != nil {
		mj := marginJSON(m.ExecutionScale)
		pj.Margin = &mj
	}
	for u := range p.Analysis.Units {
		if d, ok := countedDemand(p.Analysis, u); ok {
			if pj.Demand == nil {
				pj.Demand, pj.DemandCount = map[string]float64{}, p.Analysis.ContentionCount
			}
			pj.Demand[p.Analysis.Units[u].Name] = d
		}
	}
	return pj
}

func newVerdictJSON(r *evaluate.Analysis) *VerdictJSON {
	v := &VerdictJSON{Schedulable: r.Schedulable, Misses: r.Misses, ViolationNs: ns(r.Violation), Reasons: r.Reasons()}
	if v.Reasons == nil {
		v.Reasons = []string{}
	}
	for u := range r.Units {
		if !r.Units[u].GPU && r.Units[u].Tasks > 0 {
			if l := unitLoad(r, u); v.BusiestCore == "" || l > v.BusiestLoad {
				v.BusiestCore, v.BusiestLoad = r.Units[u].Name, l
			}
		}
	}
	for k := range r.Tasks {
		t := &r.Tasks[k]
		if t.Role == evaluate.NotRunning || !t.Verdict.Bounded() || t.R == rta.Infinity {
			continue
		}
		s := SlackJSON{Task: t.Name, Unit: t.UnitName, ResponseTimeNs: ns(t.R), DeadlineNs: ns(t.D)}
		s.SlackNs = s.DeadlineNs - s.ResponseTimeNs
		if v.LeastSlack == nil || s.SlackNs < v.LeastSlack.SlackNs {
			v.LeastSlack = &s
		}
	}
	return v
}

// ResultsFormat is the version of the run folder's files that this hetmap
// writes: 2 states the proof (ProofJSON) where 1 had a boolean exact; 3
// writes front.json compact, each point with its verdict and margins
// instead of its full evaluation, which is in mappings/point-N.json for
// the points the report details (DetailPoints).
const ResultsFormat = 3

// ProofJSON is optimizer.Proof as manifest.json and front.json carry it,
// with the sentence every writer prints.
type ProofJSON struct {
	optimizer.Proof
	Statement string `json:"statement"`
}

// NewProofJSON states p for a run that found a feasible mapping or not.
func NewProofJSON(p optimizer.Proof, feasible bool) ProofJSON {
	return ProofJSON{Proof: p, Statement: p.Statement(feasible)}
}

// RunProof returns the proof of a run folder's manifest: format 2's own,
// or for format 1 what its boolean exact and its algorithm say.
func RunProof(m *Manifest) ProofJSON {
	if m.ResultsFormat >= 2 {
		return m.Proof
	}
	p := optimizer.Proof{Algorithm: m.Algorithm, Exactness: optimizer.Heuristic}
	switch {
	case IsInterrupted(m):
		p.Exactness = optimizer.Stopped
	case m.Exact:
		p.Exactness = optimizer.Exact
	case m.Algorithm == configs.AlgorithmExhaustive:
		p.Exactness = optimizer.NotExact
		p.Reasons = []string{"a run of results format 1 does not say why"}
	}
	return NewProofJSON(p, m.Feasible)
}

// FrontCSV writes front.csv a row at a time: Head, a Row per front
// point, End.
type FrontCSV struct {
	w      *csv.Writer
	cfg    *configs.Config
	out    *optimizer.Outcome
	chains []int // the chain objectives' indices
	cpus   []int // the CPU units with a demand column
}

// NewFrontCSV writes the front.csv of a search's outcome to w.
func NewFrontCSV(w io.Writer, cfg *configs.Config, out *optimizer.Outcome) *FrontCSV {
	return &FrontCSV{w: csv.NewWriter(w), cfg: cfg, out: out}
}

// End writes what is buffered.
func (c *FrontCSV) End() error {
	c.w.Flush()
	return c.w.Error()
}

// Head writes front.csv's header.
func (c *FrontCSV) Head() error {
	s, out := c.cfg.System, c.out
	head := []string{"point"}
	for k, o := range out.Objectives {
		unit := " [ms]"
		if k < len(out.Search.Objectives) {
			switch out.Search.Objectives[k].Kind {
			case configs.ObjectiveMargin:
				unit = " [×, maximised: minimised as its negative]"
			case configs.ObjectiveMaxUtilisation:
				unit = " [share of the core]"
			case configs.ObjectiveCoresUsed:
				unit = " [cores]"
			}
		}
		head = append(head, o+unit)
	}
	head = append(head, "margin on execution demand [×]", "margin binds")
	// Per chain objective the lower bound on its minimum, and, where it is
	// not the bound for any offsets, that bound too.
	for k, o := range out.Search.Objectives {
		if o.Kind == configs.ObjectiveChain {
			c.chains = append(c.chains, k)
			head = append(head, o.Name()+" minimum, a lower bound [ms]")
			if o.Bound != configs.BoundAnyOffset {
				head = append(head, anyOffsetName(o)+" [ms]")
			}
		}
	}
	// Σ C/T carries the count its C is charged under; under refined and
	// request the demand of that count follows, per CPU core.
	for _, u := range s.Units {
		head = append(head, "utilisation "+u.Name)
	}
	if count, demand := DemandShown(c.cfg); demand {
		for i, u := range s.Units {
			if u.GPU == nil {
				c.cpus = append(c.cpus, i)
				head = append(head, "demand "+u.Name+" ("+count.String()+" count)")
			}
		}
	}
	for _, t := range s.Tasks {
		head = append(head, "unit "+t.Name)
	}
	return c.w.Write(head)
}

// Row writes front point id's row.
func (c *FrontCSV) Row(id int, p optimizer.Point) error {
	row := []string{strconv.Itoa(id)}
	for _, v := range p.Objectives {
		if p.Violation > 0 {
			row = append(row, "") // a least-violating mapping has no objective value
			continue
		}
		row = append(row, strconv.FormatFloat(v, 'f', -1, 64))
	}
	switch m := p.Analysis.Margins; {
	case m == nil: // an interrupted run's, or no margins asked for
		row = append(row, "-", "not computed")
	case m.ExecutionScale.Status == evaluate.MarginNone:
		row = append(row, "none", m.ExecutionScale.Binding)
	default:
		row = append(row, strconv.FormatFloat(m.ExecutionScale.Factor(), 'f', 3, 64), m.ExecutionScale.Binding)
	}
	objs := c.out.Search.Objectives
	for _, k := range c.chains {
		o := objs[k]
		row = append(row, chainMs(p.Analysis, o, true))
		if o.Bound != configs.BoundAnyOffset {
			o.Bound = configs.BoundAnyOffset
			row = append(row, chainMs(p.Analysis, o, false))
		}
	}
	for u := range p.Analysis.Units {
		row = append(row, strconv.FormatFloat(p.Analysis.Units[u].Utilisation, 'f', -1, 64))
	}
	for _, u := range c.cpus {
		v := "-" // an idle core
		if d, ok := countedDemand(p.Analysis, u); ok {
			v = strconv.FormatFloat(d, 'f', -1, 64)
		}
		row = append(row, v)
	}
	for k := range p.Analysis.Tasks {
		t := &p.Analysis.Tasks[k]
		unit := "-"
		if t.Role != evaluate.NotRunning {
			unit = p.Analysis.Units[t.Unit].Name
		}
		row = append(row, unit)
	}
	return c.w.Write(row)
}

// TextWidth is the width the front's text fits by default.
const TextWidth = 100

// TextOptions shape WriteFrontText.
type TextOptions struct {
	// Wide prints one table with every objective's full name and every
	// unit's utilisation, however wide, instead of fitting TextWidth.
	Wide bool
	// MaxLines bounds the lines written (0: no bound): the tables then
	// show the first points only, as many as leave room for at least one
	// mapping, and the mappings of as many of them as fit; a last line
	// says where the rest is. The summary lines come first, whatever the
	// bound.
	MaxLines int
}

// maxRowsShown is the most points whose rows a bounded front text
// (TextOptions.MaxLines) shows: a table a person reads at a glance.
const maxRowsShown = 20

// WriteFrontText writes the front for a person: a table of the points'
// objectives, a table of every unit's utilisation, and every point's
// mapping by unit, all within TextWidth columns (opts.Wide: one wide table).
// When nothing is feasible it lists the least-violating mappings with
// their violation, the utilisation of the busiest core, the number of
// tasks that miss, and what each one misses. An interrupted search says so
// first; a front bounded by search.max_front says within what ε it covers
// every mapping met, and a genetic search why it stopped. With
// opts.MaxLines the text shows the first points only (see TextOptions).
func WriteFrontText(w io.Writer, cfg *configs.Config, out *optimizer.Outcome, opts TextOptions) error {
	t := newFrontText(cfg, out, opts)
	n := len(t.points)
	shown, mapped := n, n
	if opts.MaxLines > 0 {
		shown, mapped = t.fit(opts.MaxLines)
	}
	p := &printer{w: w}
	for _, l := range t.lines(shown, mapped) {
		p.f("%s\n", l)
	}
	return p.err
}

// frontText is the front's text in parts, so that a bound on its lines can
// choose how many points to show.
type frontText struct {
	cfg     *configs.Config
	out     *optimizer.Outcome
	opts    TextOptions
	points  []optimizer.Point
	head    []string   // the summary
	maps    [][]string // per point, its mapping's lines
	mapHead []string
}

func newFrontText(cfg *configs.Config, out *optimizer.Outcome, opts TextOptions) *frontText {
	t := &frontText{cfg: cfg, out: out, opts: opts, points: out.Front}
	add := func(format string, args ...any) { t.head = append(t.head, fmt.Sprintf(format, args...)) }
	wrapped := func(s string) { t.head = append(t.head, WrapWords(s, TextWidth)...) }
	if out.Interrupted() {
		add("%s", InterruptedText(out))
	}
	if !out.Feasible {
		t.points = out.LeastViolating
		meets := feasibleMeans(cfg.System)
		switch {
		case out.Interrupted():
			add("No feasible mapping found before the interruption. The least-violating mappings it saw:")
		case out.Search.Algorithm != configs.AlgorithmExhaustive:
			add("No feasible mapping: the search found no mapping that meets %s.", meets)
			add("The least-violating mappings it saw:")
		case out.Proof.Exactness == optimizer.NotExact:
			wrapped("No feasible mapping found, but this is no proof: " + strings.Join(out.Proof.Reasons, "; ") + ". The least-violating mappings:")
		case out.LeastViolatingBy == configs.AlgorithmExhaustive:
			add("No feasible mapping: the exhaustive search proves that no mapping meets %s.", meets)
			add("The least-violating mappings:")
		default:
			add("No feasible mapping: the exhaustive search proves that no mapping meets %s (it cut", meets)
			add("every partial mapping that misses a deadline, %d cuts). The least-violating complete mappings,", out.Pruned)
			add("found by a short genetic search:")
		}
	} else {
		wrapped(fmt.Sprintf("Pareto front: %d mapping(s) (%s)", len(t.points), out.Proof.Statement(true)))
		if s := CoverageText(out); s != "" {
			wrapped(s)
		}
	}
	if s := StopText(out); s != "" {
		wrapped(s)
	}
	width := TextWidth
	if opts.Wide {
		width = 1 << 30
	}
	for i, pt := range t.points {
		num := fmt.Sprintf("  %-*d", len(strconv.Itoa(len(t.points)))+2, i+1)
		indent := strings.Repeat(" ", len(num)+2)
		var lines []string
		packed, cont := packMapping(unitParts(pt.Analysis), width-len(num)-2)
		for j, line := range packed {
			switch {
			case j == 0:
				lines = append(lines, num+line)
			case cont[j]:
				lines = append(lines, indent[:len(num)]+"  "+line)
			default:
				lines = append(lines, indent[:len(num)]+"| "+line)
			}
		}
		if !out.Feasible {
			for _, reason := range pt.Analysis.Reasons() {
				// The first line full width, the others indented two more.
				wrapped := WrapWords("misses: "+reason, width-len(indent))
				if len(wrapped) > 1 {
					rest := WrapWords(strings.Join(wrapped[1:], " "), width-len(indent)-2)
					wrapped = wrapped[:1]
					for _, l := range rest {
						wrapped = append(wrapped, "  "+l)
					}
				}
				for _, line := range wrapped {
					lines = append(lines, indent+line)
				}
			}
		}
		t.maps = append(t.maps, lines)
	}
	head := "Mappings (unit: tasks)"
	for _, pt := range t.points {
		if explicitOrder(pt.Analysis) {
			// Say once what the order means (CompactUnits).
			head = "Mappings (unit: tasks; \"A > B\": A has a higher priority than B on that core)"
			break
		}
	}
	t.mapHead = append([]string{""}, WrapWords(head, TextWidth)...)
	return t
}

// tables returns the lines of the tables of the first n points.
func (t *frontText) tables(n int) []string {
	var buf strings.Builder
	p := &printer{w: &buf}
	cfg, out, opts := t.cfg, t.out, t.opts
	points := t.points[:n]
	units := cfg.System.Units
	var heads []string
	var legend []string
	rows := make([][]string, len(points))
	if out.Feasible {
		for i, pt := range points {
			for k, v := range pt.Objectives {
				rows[i] = append(rows[i], ObjectiveValue(out.Search.Objectives[k], v))
			}
		}
		var note string
		heads, legend, note = objectiveHeads(out.Search.Objectives, rows, opts.Wide)
		if _, demand := DemandShown(cfg); demand {
			// The objective is the demand of the count, as the load table
			// shows it; say so.
			for i, h := range heads {
				if h == "busiest core" {
					heads[i] = "busiest core demand"
				}
			}
		}
		for _, l := range WrapWords("Objectives, each minimised"+note+":", TextWidth) {
			p.f("%s\n", l)
		}
	} else {
		heads = []string{"violation (Σ R − D)", "busiest core", "tasks missing"}
		for i, pt := range points {
			rows[i] = []string{FormatDuration(configs.Duration(pt.Violation * 1e9)), FormatPercent(maxCoreUtilisation(pt.Analysis)), strconv.Itoa(pt.Analysis.Misses)}
		}
	}
	count, demand := DemandShown(cfg)
	loadHead := "utilisation "
	if demand {
		loadHead = "load "
	}
	if opts.Wide {
		for _, u := range units {
			heads = append(heads, loadHead+u.Name)
		}
		for i, pt := range points {
			for u := range pt.Analysis.Units {
				rows[i] = append(rows[i], FormatPercent(unitLoad(pt.Analysis, u)))
			}
		}
		if demand {
			p.f("%s\n", strings.Join(WrapWords(loadNote(count), TextWidth), "\n"))
		}
		writeTable(p, heads, rows)
	} else {
		for _, l := range legend {
			p.f("%s\n", l)
		}
		writeTable(p, heads, rows)
		if dheads, drows := anyOffsetTable(out, points); len(dheads) > 0 {
			p.f("\nThe least bound for any release offsets on the same latencies, ms\n")
			writeTable(p, dheads, drows)
		}
		if demand {
			p.f("\n%s\n", strings.Join(WrapWords(loadNote(count), TextWidth), "\n"))
		} else {
			p.f("\nUtilisation of each unit (Σ C/T; the GPU's: its kernels)\n")
		}
		var uheads []string
		for _, u := range units {
			uheads = append(uheads, u.Name)
		}
		urows := make([][]string, len(points))
		for i, pt := range points {
			for u := range pt.Analysis.Units {
				urows[i] = append(urows[i], FormatPercent(unitLoad(pt.Analysis, u)))
			}
		}
		writeTable(p, uheads, urows)
	}
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

// lines returns the text with the tables of the first shown points and the
// mappings of the first mapped, and a last line naming the files that hold
// the rest when that is not every point.
func (t *frontText) lines(shown, mapped int) []string {
	out := slices.Clone(t.head)
	if len(t.points) == 0 {
		return out
	}
	out = append(out, t.tables(shown)...)
	if mapped > 0 {
		out = append(out, t.mapHead...)
		for _, m := range t.maps[:mapped] {
			out = append(out, m...)
		}
	}
	return append(out, t.rest(shown, mapped)...)
}

// rest says where the points not shown are.
func (t *frontText) rest(shown, mapped int) []string {
	n := len(t.points)
	if shown == n && mapped == n {
		return nil
	}
	what, file := "points", "mappings/point-N.yaml"
	if !t.out.Feasible {
		what, file = "least-violating mappings", "mappings/least-violating-N.yaml"
	}
	var s string
	switch {
	case shown < n:
		s = fmt.Sprintf("Shown: the first %d of the %d %s, the mappings of %s; every one is in front.csv and front.json, its mapping in %s (hetmap optimize --all prints them here).",
			shown, n, what, countOf(mapped), file)
	default:
		s = fmt.Sprintf("Shown: the mappings of the first %d of the %d %s; every mapping is in %s (hetmap optimize --all prints them here).", mapped, n, what, file)
	}
	return append([]string{""}, WrapWords(s, TextWidth)...)
}

// countOf says how many of the points shown have their mapping shown.
func countOf(mapped int) string {
	switch mapped {
	case 0:
		return "none"
	case 1:
		return "the first"
	}
	return fmt.Sprintf("the first %d", mapped)
}

// fit chooses how many points' rows and mappings fit in max lines: the
// most rows (at most maxRowsShown) that leave room for one mapping, or for
// none where not even one fits beside a single row; then as many mappings
// as fit.
func (t *frontText) fit(max int) (shown, mapped int) {
	n := len(t.points)
	if n == 0 || len(t.lines(n, n)) <= max {
		return n, n
	}
	count := func(shown, mapped int) int { return len(t.lines(shown, mapped)) }
	for _, need := range []int{1, 0} {
		for shown = min(n, maxRowsShown); shown >= 1; shown-- {
			if count(shown, min(need, shown)) <= max {
				mapped = min(need, shown)
				for mapped < shown && count(shown, mapped+1) <= max {
					mapped++
				}
				return shown, mapped
			}
		}
	}
	return 1, 0
}

// explicitOrder reports whether a core of r runs its tasks in the
// mapping's priority order, which CompactUnits writes with " > ".
func explicitOrder(r *evaluate.Analysis) bool {
	for u := range r.Units {
		if r.Units[u].Explicit && r.Units[u].Tasks > 1 {
			return true
		}
	}
	return false
}

// anyOffsetTable returns, when the front is feasible and some chain
// objective is a synchronous-release value, the least bound for any
// release offsets on the same latency of each such chain per point (a
// column per chain objective, in ms with three decimals), the value to
// quote when release offsets are not controlled.
func anyOffsetTable(out *optimizer.Outcome, points []optimizer.Point) (heads []string, rows [][]string) {
	if !out.Feasible {
		return nil, nil
	}
	var idx []int
	for k, o := range out.Search.Objectives {
		if o.Kind == configs.ObjectiveChain && o.Bound == configs.BoundSynchronous {
			idx = append(idx, k)
			heads = append(heads, o.Chain)
		}
	}
	if len(idx) == 0 {
		return nil, nil
	}
	rows = make([][]string, len(points))
	for i, pt := range points {
		for _, k := range idx {
			o := out.Search.Objectives[k]
			o.Bound = configs.BoundAnyOffset
			v := "-"
			if ps, ok := chainValue(pt.Analysis, o, false); ok {
				v = strconv.FormatFloat(float64(ps)/1e9, 'f', 3, 64)
			}
			rows[i] = append(rows[i], v)
		}
	}
	return heads, rows
}

// anyOffsetName names chain objective o's latency under the least bound
// for any offsets, for column heads.
func anyOffsetName(o configs.Objective) string {
	o.Bound = configs.BoundAnyOffset
	return o.Name() + ", least bound for any offsets"
}

// chainMs writes chain objective o's latency in r (low: the lower bound
// on its minimum), in ms, or "-" when the chain has none.
func chainMs(r *evaluate.Analysis, o configs.Objective, low bool) string {
	if v, ok := chainValue(r, o, low); ok {
		return strconv.FormatFloat(float64(v)/1e9, 'f', -1, 64)
	}
	return "-"
}

// chainValue returns chain objective o's latency in r (low: the lower
// bound on its minimum, under the same bound), in ps, and whether the
// chain has one.
func chainValue(r *evaluate.Analysis, o configs.Objective, low bool) (int64, bool) {
	obj := evaluate.ChainObjective(configs.ChainLatency{Paradigm: o.Paradigm, Metric: o.Metric, Bound: o.Bound})
	for _, c := range r.Chains {
		if c.Name != o.Chain {
			continue
		}
		v := c.Analysis.Values(obj.Paradigm, obj.Bound)
		if v.Status != chains.OK {
			return 0, false
		}
		if low {
			return v.Min(obj.Metric), true
		}
		return v.Get(obj.Metric), true
	}
	return 0, false
}

// ObjectiveMinima returns, per objective of objs, the lower bound on the
// minimum of a chain objective's latency in r (the same paradigm, metric
// and bound), in ms, and nil for the other objectives and for a chain
// without a latency (front.json's objective_minima_ms).
func ObjectiveMinima(objs []configs.Objective, r *evaluate.Analysis) []*float64 {
	out := make([]*float64, len(objs))
	for k, o := range objs {
		if o.Kind != configs.ObjectiveChain {
			continue
		}
		if v, ok := chainValue(r, o, true); ok {
			ms := float64(v) / 1e9
			out[k] = &ms
		}
	}
	return out
}

// objectiveHeads returns the column heads of the objectives: the chains'
// names when the chain objectives share their metric, paradigm and bound
// (said once, in note), else each objective's full name; and, when those
// do not fit TextWidth above the rows' values (and not wide), numbered
// heads O1, O2, … with a legend line per objective.
func objectiveHeads(objs []configs.Objective, rows [][]string, wide bool) (heads, legend []string, note string) {
	var common *configs.Objective
	same := true
	for i := range objs {
		o := &objs[i]
		if o.Kind != configs.ObjectiveChain {
			continue
		}
		if common == nil {
			common = o
		} else if o.Metric != common.Metric || o.Paradigm != common.Paradigm || o.Bound != common.Bound {
			same = false
		}
	}
	for _, o := range objs {
		switch {
		case o.Kind == configs.ObjectiveChain && same:
			heads = append(heads, o.Chain)
		case o.Kind == configs.ObjectiveMaxUtilisation:
			heads = append(heads, "busiest core")
		case o.Kind == configs.ObjectiveMargin:
			heads = append(heads, "margin")
		default:
			heads = append(heads, o.Name())
		}
	}
	if common != nil {
		if same {
			note = fmt.Sprintf("; chain latencies in ms: %s", latencyWords(*common))
		} else {
			note = "; chain latencies in ms"
		}
	}
	if wide || tableWidth(heads, rows) <= TextWidth {
		return heads, nil, note
	}
	numbered := make([]string, len(heads))
	for k, h := range heads {
		numbered[k] = fmt.Sprintf("O%d", k+1)
		legend = append(legend, fmt.Sprintf("  %-4s %s", numbered[k], h))
	}
	return numbered, legend, note
}

// latencyWords says what a chain objective's latency is, in words.
func latencyWords(o configs.Objective) string {
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(o.Metric.String(), "-", " "))
	if o.Paradigm == configs.ParadigmLET {
		b.WriteString(", LET communication")
	} else {
		b.WriteString(", implicit communication")
	}
	switch o.Bound {
	case configs.BoundDavare:
		b.WriteString(", Davare's bound (any offsets)")
	case configs.BoundSynchronous:
		b.WriteString(", job-level values that assume synchronous release (every task released at its offset; the bound below holds for any offsets)")
	default:
		b.WriteString(", the least bound for any release offsets")
	}
	return b.String()
}

// columnWidths returns the widths of a table's columns: the row numbers,
// then each head's column, the widest of the head and its cells.
func columnWidths(heads []string, rows [][]string) []int {
	widths := make([]int, len(heads)+1)
	widths[0] = max(1, len(strconv.Itoa(len(rows))))
	for k, h := range heads {
		widths[k+1] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for k, c := range r {
			widths[k+1] = max(widths[k+1], utf8.RuneCountInString(c))
		}
	}
	return widths
}

// tableWidth is the width of the table writeTable writes.
func tableWidth(heads []string, rows [][]string) int {
	n := 0
	for _, w := range columnWidths(heads, rows) {
		n += 2 + w
	}
	return n
}

// writeTable writes a table with a "#" column numbering the rows; every
// column is right-aligned to the widest of its head and cells, with two
// spaces before each column.
func writeTable(p *printer, heads []string, rows [][]string) {
	widths := columnWidths(heads, rows)
	line := func(cells []string) {
		var b strings.Builder
		for k, c := range cells {
			b.WriteString("  " + strings.Repeat(" ", max(0, widths[k]-utf8.RuneCountInString(c))) + c)
		}
		p.f("%s\n", b.String())
	}
	line(append([]string{"#"}, heads...))
	for i, r := range rows {
		line(append([]string{strconv.Itoa(i + 1)}, r...))
	}
}

// PackParts joins parts with sep into lines of at most width runes,
// breaking only between parts (a part longer than width gets a line of its
// own).
func PackParts(parts []string, sep string, width int) []string {
	var lines []string
	cur := ""
	for _, part := range parts {
		switch {
		case cur == "":
			cur = part
		case utf8.RuneCountInString(cur+sep+part) <= width:
			cur += sep + part
		default:
			lines = append(lines, cur)
			cur = part
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// packMapping is PackParts with " | " for a mapping's parts by unit, where
// a part longer than width (a unit with many tasks) is broken at spaces
// into lines of its own, cont marking those that continue a part.
func packMapping(parts []string, width int) (lines []string, cont []bool) {
	lastLong := false
	for _, part := range parts {
		pieces := []string{part}
		if utf8.RuneCountInString(part) > width {
			pieces = WrapWords(part, width)
		}
		for k, piece := range pieces {
			n := len(lines)
			switch {
			case k > 0:
				lines, cont = append(lines, piece), append(cont, true)
			case n > 0 && len(pieces) == 1 && !lastLong && utf8.RuneCountInString(lines[n-1]+" | "+piece) <= width:
				lines[n-1] += " | " + piece
			default:
				lines, cont = append(lines, piece), append(cont, false)
			}
		}
		lastLong = len(pieces) > 1
	}
	return lines, cont
}

// WrapWords breaks s at spaces into lines of at most width runes.
func WrapWords(s string, width int) []string {
	return PackParts(strings.Fields(s), " ", width)
}

// maxCoreUtilisation is the load of the busiest CPU core (unitLoad: the
// demand under the refined and request counts).
func maxCoreUtilisation(r *evaluate.Analysis) float64 {
	m := 0.0
	for u := range r.Units {
		if !r.Units[u].GPU {
			m = max(m, unitLoad(r, u))
		}
	}
	return m
}

// loadNote heads the load table under the refined and request counts.
func loadNote(count configs.ContentionCount) string {
	return "Load of each unit under the " + count.String() + " count, which the verdicts use (Σ C⁰/T plus the contention that count charges " +
		"per unit of time; the GPU's: its kernels). Σ C/T with C's per-job contention (the challenge count), which may pass 100 % " +
		"on a schedulable core, is in front.csv and front.json (utilisation)."
}

// ObjectiveValue prints the value v of objective o as the front's table
// does: a chain's latency in ms with three decimals, a utilisation in
// percent, a margin as its factor, a count as it is.
func ObjectiveValue(o configs.Objective, v float64) string {
	switch o.Kind {
	case configs.ObjectiveChain:
		return strconv.FormatFloat(v, 'f', 3, 64) // ms, as the heading says
	case configs.ObjectiveMaxUtilisation:
		return FormatPercent(v)
	case configs.ObjectiveMargin:
		return MarginFactor(v)
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
	// front point's mapping into it (amalthea.Export): the new
	// content of every file of the model, by input path. runwrite.Write then
	// writes mappings/point-N.amxmi beside point-N.yaml (for a model in
	// several files, the folder mappings/point-N/ with all of them).
	Model func(optimizer.Point) (map[string][]byte, error)
	// Progress, when set, is called as the files are written (see
	// WriteProgress), from the writing goroutine.
	Progress func(WriteProgress)
	// Context, when set, interrupts the writing (Ctrl-C): once it is
	// done, the points' model files (Model) are no longer written, and
	// the run is marked interrupted in StageWriting (out.InterruptedIn,
	// manifest.json and report.html), unless it was already; the folder
	// is still complete and consistent.
	Context context.Context
}

// ReportFile is the name of the report in a run folder.
const ReportFile = "report.html"

// RunFiles lists what an optimize run folder holds, as the command line
// names them.
var RunFiles = []string{ReportFile, "front.csv", "front.json", "manifest.json", "config.yaml", "mappings/"}

// Run statuses as manifest.json records them.
const (
	StatusInterrupted     = "interrupted"
	StatusGenerationLimit = "generation-limit"
	StatusEvaluationLimit = "evaluation-limit"
	StatusConverged       = "converged"
	StatusExhausted       = "exhausted"
)

// statusToken is how manifest.json records why a search stopped.
func statusToken(s moo.Status) string {
	switch s {
	case moo.Interrupted:
		return StatusInterrupted
	case moo.GenerationLimit:
		return StatusGenerationLimit
	case moo.EvaluationLimit:
		return StatusEvaluationLimit
	case moo.Converged:
		return StatusConverged
	case moo.Exhausted:
		return StatusExhausted
	}
	return strings.ToLower(s.String())
}

// IsInterrupted reports whether the manifest's run was interrupted.
func IsInterrupted(m *Manifest) bool { return m.Status == StatusInterrupted }

// StatusText says in words why a search stopped, from manifest.json's
// status (the tokens above, or the names results format 1 used before
// them, such as "GenerationLimit").
func StatusText(m *Manifest) string {
	status := strings.ToLower(strings.ReplaceAll(m.Status, "-", ""))
	switch {
	case status == "interrupted" && m.InterruptedIn == optimizer.StageFront:
		return fmt.Sprintf("interrupted (Ctrl-C or a stop signal) while analysing the front's mappings, after the search had ended: the %d points analysed in time are shown, %d others dropped", m.FrontSize, m.PointsDropped)
	case status == "interrupted" && m.InterruptedIn == optimizer.StageMargins:
		return fmt.Sprintf("interrupted (Ctrl-C or a stop signal) while computing the margins, after the search had ended: the front is complete, %d of its points have no margin", m.MarginsMissing)
	case status == "interrupted" && m.InterruptedIn == optimizer.StageWriting:
		return "interrupted (Ctrl-C or a stop signal) while writing the run's files, after the search had ended: the front is complete"
	case m.StopReason != "" && status != "interrupted":
		return "complete: " + lowerFirst(strings.TrimSuffix(m.StopReason, "."))
	}
	switch status {
	case "interrupted":
		return fmt.Sprintf("interrupted (Ctrl-C or a stop signal) after %d evaluations: the front is what the search had found by then", m.Evaluations)
	case "generationlimit":
		return fmt.Sprintf("complete: %d generations, the limit (search.generations)", m.Generations)
	case "evaluationlimit":
		if m.Analyses > m.Evaluations {
			return fmt.Sprintf("complete: %d analyses, the limit (search.max_evaluations): %d evaluations and the priority-order variants of the feasible mappings", m.Analyses, m.Evaluations)
		}
		return fmt.Sprintf("complete: %d evaluations, the limit (search.max_evaluations)", m.Evaluations)
	case "converged":
		return "complete: the front stopped changing"
	case "exhausted":
		if m.Algorithm == configs.AlgorithmExhaustive {
			return "complete: every distinct mapping was enumerated or cut as unschedulable"
		}
		return "complete: every mapping of the search space was evaluated"
	}
	return m.Status
}

// lowerFirst lowers a sentence's first letter.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
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
		m.MarginsMissing = len(out.Front) - out.Margins
	}
	return m
}

// FileSum is what the manifest records of a file: its size and SHA-256.
type FileSum struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// DemandShown reports whether a front's tables show the demand of the
// count (refined or request) rather than Σ C/T: the count of its points.
func DemandShown(cfg *configs.Config) (configs.ContentionCount, bool) {
	c := cfg.Analysis.Contention
	return c, c != "" && c != configs.ContentionChallenge
}
