package report

import (
	"fmt"
	"html/template"
	"image/color"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
)

// The view model of report.html: everything the template shows, formatted,
// with units.

type reportView struct {
	Title    string
	System   string
	Subtitle string
	// Interrupted says why the run is incomplete, when it was stopped.
	Interrupted string
	// Proof is what the front is proven to be, stated near the top.
	Proof    results.ProofJSON
	Feasible bool
	// FrontID, FrontTitle and FrontIntro head the front (or
	// least-violating) section.
	FrontID    string
	FrontTitle string
	FrontIntro string
	FrontSVG   template.HTML
	FrontKind  string // "bars", "scatter" or "heatmap"
	FrontHead  []string
	FrontRows  []frontRow
	Summary    summaryView
	// Details counts the points whose sections the page holds (the
	// first DetailPoints); Others the rest, a row of the table each.
	Details int
	// DetailsCut counts the points the run details whose sections would
	// take the page past MaxBytes (MaxBytes, in MB), and which it
	// leaves out.
	DetailsCut int
	MaxBytes   string
	Manifest   []keyValue
	Settings   []keyValue
	Notes      []string
}

type keyValue struct {
	Key   string
	Value string
	Code  bool
}

type frontRow struct {
	ID int
	// Href links the point's section, or its mapping file when the page
	// does not detail it.
	Href    string
	Values  []string
	MaxUtil string
	// Margin is the point's margin on execution demand ("×1.019").
	Margin string
	Units  string
	Misses []string
}

type summaryView struct {
	Facts    []keyValue
	Units    []unitRow
	Tasks    []taskRow
	Chains   []chainDef
	Warnings []string
}

type unitRow struct {
	Name, Kind, Type, Frequency, Memory, Resources string
}

type taskRow struct {
	Name, Kind, Period, Deadline, Units, Offload string
	Colour                                       string
}

type chainDef struct {
	Name  string
	Tasks string
}

type legendItem struct {
	Name   string
	Colour string
}

type pointView struct {
	ID          int
	Anchor      string
	Open        bool
	Heading     string
	Objectives  string
	Violation   string
	Units       string
	Reasons     []string
	Differs     []string
	MappingFile string
	// Reading links the report's "How to read" section.
	Reading string

	Legend   []legendItem
	Mapping  mappingTable
	UtilSVG  template.HTML
	SlackSVG template.HTML
	// Margin says the point's margin on execution demand and what binds.
	Margin   string
	RT       []rtGroup
	GPU      []gpuRow
	GPUKnob  string
	Timeline template.HTML
	TLNote   string
	Chains   template.HTML
	ChainObj string
	Hops     []chainRow
	Windows  windowTable
}

// windowTable is the contention of the tasks' response windows
// (AnalysisTaskJSON.Window): per task its window, accesses, the contention
// under the counts, and per other unit the accesses charged, by term.
type windowTable struct {
	Request bool // the request count is in force: its column is shown
	// Challenge: the challenge count is in force (the captions say what
	// the other counts change).
	Challenge bool
	Units     []string // the interfering units' columns
	Rows      []windowRow
	Count     configs.ContentionCount // the count in force
}

type windowRow struct {
	Task, Colour, Window, Accesses, Challenge, Refined, Request, From string
	ShowRequest                                                       bool // the table has a request column
	Cells                                                             []numCell
}

type mappingTable struct {
	Units []string
	Rows  []mappingRow
}

type mappingRow struct {
	Task   string
	Colour string
	Cells  []mappingCell
	Note   string
}

type mappingCell struct {
	Text  string
	Class string
}

type rtGroup struct {
	Head string
	Rows []rtRow
}

type rtRow struct {
	Task, Role, Prio, C string
	// Terms: compute, memory, contention, GPU wait, suspension.
	Terms    []numCell
	R, D, OK string
	Miss     bool
	Colour   string
}

// numCell is a number in a table; zeros are shown dimmed.
type numCell struct {
	Text string
	Zero bool
}

func nsCell(ns int64) numCell { return numCell{Text: dns(ns), Zero: ns == 0} }

// nsCellOrNoBound is nsCell, or "no bound" where the JSON form has null
// (a wait for a GPU response without a bound).
func nsCellOrNoBound(ns *int64) numCell {
	if ns == nil {
		return numCell{Text: results.NoBound}
	}
	return nsCell(*ns)
}

// nsOrNoBound is dns, or "no bound" for null.
func nsOrNoBound(ns *int64) string {
	if ns == nil {
		return results.NoBound
	}
	return dns(*ns)
}

func deref(ns *int64) int64 {
	if ns == nil {
		return 0
	}
	return *ns
}

type gpuRow struct {
	Task, Knob, Geometry, CopyInWait, CopyIn, KernelQueue, Kernel, CopyOutWait, CopyOut, R, D, OK string
	Miss                                                                                          bool
	Colour                                                                                        string
}

type chainRow struct {
	Name    string
	Members string
	// Latency is the objective's latency, min – max; Synchronous the
	// job-level one at the model's offsets; AnyOffset the least bound for
	// any offsets with each analysis; Hops the worst job chain at the
	// model's offsets.
	Latency, Synchronous, AnyOffset string
	Hops                            string
}

// dns formats nanoseconds.
func dns(ns int64) string { return results.FormatDuration(configs.Duration(ns) * configs.Nanosecond) }

// ms converts picoseconds or nanoseconds to milliseconds for the plots.
func psToMs(ps int64) float64 { return float64(ps) / float64(configs.Millisecond) }
func nsToMs(ns int64) float64 { return float64(ns) / 1e6 }

// colours gives every task its colour: a GPU task takes its offloading
// task's, so that a GPU job looks like part of the job that offloads it.
type colours map[string]color.RGBA

func taskColours(s *configs.System) colours {
	c := colours{}
	n := 0
	for i := range s.Tasks {
		if !s.Tasks[i].IsGPUTask() {
			c[s.Tasks[i].Name] = paletteColor(n)
			n++
		}
	}
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if t.IsGPUTask() {
			if pc, ok := c[t.TriggeredBy]; ok {
				c[t.Name] = pc
			} else {
				c[t.Name] = paletteColor(n)
				n++
			}
		}
	}
	return c
}

func (c colours) css(task string) string { return cssColor(c[task]) }

func buildView(run *reportRun) *reportView {
	cfg, m, f := run.Config, &run.Manifest, &run.Front
	s := cfg.System
	col := taskColours(s)
	v := &reportView{System: s.Name, Feasible: f.Feasible}
	v.Title = "hetmap report: " + s.Name
	v.Proof = results.RunProof(m)
	if f.Feasible {
		v.Subtitle = fmt.Sprintf("%d Pareto-optimal mapping(s); %s search, seed %d, %d evaluations in %s; started %s.",
			len(run.points), m.Algorithm, m.Seed, m.Evaluations, results.FormatDuration(configs.Duration(m.WallTimeMs*float64(configs.Millisecond))), m.StartedUTC)
	} else {
		v.Subtitle = fmt.Sprintf("No feasible mapping; %s search, seed %d, %d evaluations in %s; started %s.",
			m.Algorithm, m.Seed, m.Evaluations, results.FormatDuration(configs.Duration(m.WallTimeMs*float64(configs.Millisecond))), m.StartedUTC)
	}
	if results.IsInterrupted(m) {
		v.Interrupted = "Interrupted: " + results.StatusText(m) + "."
		switch m.InterruptedIn {
		case optimizer.StageMargins, optimizer.StageWriting:
		default:
			v.Interrupted += " A complete search may find other mappings."
		}
	}
	v.Summary = buildSummary(run, col)
	buildFront(v, run)
	for _, p := range run.points {
		if p.detail {
			v.Details++
		}
	}
	v.Manifest, v.Settings = manifestRows(m)
	v.MaxBytes = strconv.FormatFloat(float64(reportBudget)/1e6, 'f', -1, 64)
	return v
}

func buildSummary(run *reportRun, col colours) summaryView {
	cfg, m := run.Config, &run.Manifest
	s := cfg.System
	a := cfg.Analysis
	a.Defaults()
	conv := cfg.Conventions
	conv.Defaults()
	var sv summaryView
	contention := "#C of a core = the other cores with label accesses (sound convention)"
	if a.InterferingCores != nil {
		contention = fmt.Sprintf("#C fixed to %d (analysis.interfering_cores)", *a.InterferingCores)
	}
	bgpu := "1 when a GPU task on the GPU copies (sound convention)"
	if a.CopyEngineActive != nil {
		bgpu = fmt.Sprintf("fixed to %d (analysis.copy_engine_active)", b2i(*a.CopyEngineActive))
	}
	sv.Facts = []keyValue{
		{Key: "System", Value: s.Name},
		{Key: "Configuration", Value: m.ConfigSource + " (config.yaml in this folder; SHA-256 " + shortHash(m.ConfigSHA256) + ")"},
		{Key: "GPU model", Value: a.GPUModel.String()},
		{Key: "Priorities", Value: a.Priorities.String() + " (per core, fixed-priority preemptive)"},
		{Key: "Deadlines", Value: deadlineConvention(conv.Deadlines)},
		{Key: "Memory contention", Value: contention + "; bGPU " + bgpu},
		{Key: "Contention count", Value: contentionCount(a.Contention)},
		{Key: "Chain latency", Value: a.ChainLatency.Paradigm.String() + " communication, " + a.ChainLatency.Metric.String() + ", " + a.ChainLatency.Bound.String() + " bound"},
	}
	notApplied := map[string]configs.NotApplied{}
	if nas := cfg.NotAppliedRequirements(); len(nas) > 0 {
		var lines []string
		for _, na := range nas {
			notApplied[na.Task] = na
			lines = append(lines, results.NotAppliedLine(na, s.Task(na.Task).Period))
		}
		sv.Facts = append(sv.Facts[:5:5], append([]keyValue{{Key: "Model requirements not applied", Value: strings.Join(lines, ". ")}}, sv.Facts[5:]...)...)
	}
	if s.TimeSlice.Max > 0 {
		sv.Facts = append(sv.Facts, keyValue{Key: "GPU time slices", Value: results.FormatDuration(s.TimeSlice.Min) + " to " + results.FormatDuration(s.TimeSlice.Max)})
	}
	for _, u := range s.Units {
		row := unitRow{Name: u.Name, Kind: u.Kind, Type: string(u.Type), Frequency: results.FormatFrequency(u.Frequency)}
		if u.GPU != nil {
			g := u.GPU
			row.Resources = fmt.Sprintf("%d SMs × %d cores, %d threads and %s shared memory per SM, %d copy engine(s)",
				g.SMs, g.CoresPerSM, g.ThreadsPerSM, results.FormatSize(g.SharedMemoryPerSM), g.CopyEngines)
			ce := s.Memory.CopyEngine
			row.Memory = "copy engine: " + results.FormatDuration(ce.Baseline) + " + " + results.FormatDuration(ce.PerCore) + "·#C"
		} else if cm := s.CoreMemory(u.Kind); cm != nil {
			row.Memory = results.FormatDuration(cm.Baseline) + " + " + results.FormatDuration(cm.PerCore) + "·#C + " + results.FormatDuration(cm.CopyEngine) + "·bGPU"
		}
		sv.Units = append(sv.Units, row)
	}
	mj := results.NewModelJSON(cfg)
	for _, t := range mj.Tasks {
		row := taskRow{Name: t.Name, Kind: t.Kind, Period: dns(t.PeriodNs), Deadline: dns(t.DeadlineNs), Units: unitRange(s, t.AllowedUnits),
			Colour: col.css(t.Name)}
		if t.DeadlineNs == 0 {
			row.Deadline = "= period"
		}
		if na, ok := notApplied[t.Name]; ok {
			row.Deadline += " (model requirement " + results.FormatDuration(na.Requirement) + ": " + results.NotAppliedStatus + ")"
		}
		switch {
		case t.Offload != nil:
			wait := "synchronous (busy-wait)"
			if t.Offload.Wait == configs.WaitPassive {
				wait = "asynchronous (suspends)"
			}
			row.Offload = "offloads " + t.Offload.GPUTask + ", " + wait + " by default"
		case t.TriggeredBy != "":
			row.Offload = "GPU task of " + t.TriggeredBy
		}
		sv.Tasks = append(sv.Tasks, row)
	}
	for _, c := range s.Chains {
		sv.Chains = append(sv.Chains, chainDef{Name: c.Name, Tasks: strings.Join(c.Tasks, " → ")})
	}
	for _, w := range cfg.Warnings {
		sv.Warnings = append(sv.Warnings, w.String())
	}
	return sv
}

func deadlineConvention(c configs.DeadlineConvention) string {
	switch c {
	case configs.DeadlinesPeriod:
		return "every task's deadline is its period (conventions.deadlines: period)"
	case configs.DeadlinesModel:
		return "the model's requirements (conventions.deadlines: model)"
	}
	return c.String()
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// unitRange writes a list of units compactly: "Core0–Core5, GP10B" when
// consecutive units of the system are all allowed.
func unitRange(s *configs.System, units []string) string {
	idx := map[string]int{}
	for i, u := range s.Units {
		idx[u.Name] = i
	}
	var parts []string
	for i := 0; i < len(units); {
		j := i
		for j+1 < len(units) && idx[units[j+1]] == idx[units[j]]+1 && s.Units[idx[units[j+1]]].Type == s.Units[idx[units[i]]].Type {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, units[i]+"–"+units[j])
		} else {
			parts = append(parts, units[i:j+1]...)
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// objectiveAxes turns the front's objectives into plot axes.
func objectiveAxes(run *reportRun) []frontAxis {
	if !run.Front.Feasible {
		return nil // least-violating mappings have no objective values
	}
	objs := run.Manifest.Settings.Objectives
	var axes []frontAxis
	for k, name := range run.Front.Objectives {
		a := frontAxis{name: name, unit: "ms"}
		if k < len(objs) {
			switch objs[k].Kind {
			case configs.ObjectiveChain, "":
				// The chain's name, with what differs from the configured
				// chain latency (e.g. "LD-P-DA data-age").
				def := run.Config.Analysis.ChainLatency
				def.Defaults()
				a.name = objs[k].Chain
				for _, d := range [][2]string{{objs[k].Paradigm.String(), def.Paradigm.String()}, {objs[k].Metric.String(), def.Metric.String()}, {objs[k].Bound.String(), def.Bound.String()}} {
					if d[0] != "" && d[0] != d[1] {
						a.name += " " + d[0]
					}
				}
			case configs.ObjectiveCoresUsed:
				a.name, a.unit = "cores used", "cores"
			case configs.ObjectiveMaxUtilisation:
				a.name, a.unit = "max. core utilisation", "%"
				if count, demand := results.DemandShown(run.Config); demand {
					a.name = "busiest core's demand (" + count.String() + " count)"
				}
			case configs.ObjectiveMargin:
				a.name, a.unit = "margin on execution demand", "×"
			}
		}
		for _, p := range run.points {
			val := p.Objectives[k]
			switch a.unit {
			case "%":
				val *= 100
			case "×":
				val = -val // the margin, minimised as its negative
			}
			a.vals = append(a.vals, val)
		}
		axes = append(axes, a)
	}
	return axes
}

func buildFront(v *reportView, run *reportRun) {
	f, m := &run.Front, &run.Manifest
	axes := objectiveAxes(run)
	if f.Feasible {
		v.FrontID, v.FrontTitle = "front", "Pareto front"
		v.FrontIntro = fmt.Sprintf("The %d mapping(s) that meet every deadline and that no other mapping beats on all objectives (each minimised). Every point is numbered as in the table and in the sections below.", len(run.points))
		for _, o := range run.Manifest.Settings.Objectives {
			if o.Kind == configs.ObjectiveChain && o.Bound == configs.BoundSynchronous {
				v.FrontIntro += " Chain latencies are job-level values that assume synchronous release (every task released at its offset); with other offsets a chain can take longer, and the least bound for any offsets, shown in each point's chain table and in front.csv, holds for any offsets."
				break
			}
		}
		if results.RunProof(m).Exactness == optimizer.Exact {
			v.FrontIntro += " The front is exact: the exhaustive search enumerated every distinct mapping (identical cores merged), each with every priority order that passes the schedulability test and can change an objective, or cut it as unschedulable."
		}
		if c := results.ManifestCoverageText(m); c != "" {
			v.FrontIntro += " " + c
		}
		if m.StopReason != "" && !results.IsInterrupted(m) {
			v.FrontIntro += " " + m.StopReason
		}
		if m.MarginsMissing > 0 {
			v.FrontIntro += fmt.Sprintf(" A margin shown as “–” was not computed: the run was interrupted before it was (%d points have none; hetmap analyze --config config.yaml --mapping mappings/point-N.yaml computes one).", m.MarginsMissing)
		}
		var ids []int
		for _, p := range run.points {
			ids = append(ids, p.ID)
		}
		allMs := true
		for _, a := range axes {
			allMs = allMs && a.unit == "ms"
		}
		if len(ids) == 1 && allMs && len(axes) > 0 {
			// One point: its objective values side by side say more than a
			// scatter plot of one dot.
			var bars []bar
			xmax := 0.0
			for _, a := range axes {
				bars = append(bars, bar{label: a.name, total: axisValue(a.vals[0], a.unit),
					parts: []barPart{{value: a.vals[0], fill: color.RGBA{0x7a, 0xa6, 0xd6, 0xff}}}})
				xmax = max(xmax, a.vals[0])
			}
			v.FrontSVG, v.FrontKind = barChart(bars, "objective value of the front's only point [ms]", xmax*1.01, 0, "the objective values of the front's only point"), "bars"
		} else if len(ids) > 0 && len(axes) > 0 {
			if len(axes) <= 4 {
				v.FrontSVG, v.FrontKind = scatterMatrix(axes, ids), "scatter"
			} else {
				v.FrontSVG, v.FrontKind = heatmapFront(axes, ids), "heatmap"
			}
		}
		for _, a := range axes {
			v.FrontHead = append(v.FrontHead, a.label())
		}
	} else {
		v.FrontID, v.FrontTitle = "least-violating", "No feasible mapping"
		switch {
		case m.Algorithm == configs.AlgorithmExhaustive:
			v.FrontIntro = "The exhaustive search proves that no mapping meets every deadline. These are the mappings that miss the least (the sum of R − D over the tasks that miss), with what each one misses."
		default:
			v.FrontIntro = "The search found no mapping that meets every deadline (a genetic search proves nothing: a longer run or the exhaustive algorithm may find one). These are the mappings it saw that miss the least (the sum of R − D over the tasks that miss), with what each one misses."
		}
	}
	for i, p := range run.points {
		row := frontRow{ID: p.ID, Href: "#" + pointAnchor(f.Feasible, p.ID), Units: tableUnits(p.Units)}
		if !p.detail {
			row.Href = p.MappingFile
		}
		if f.Feasible {
			for k := range axes {
				row.Values = append(row.Values, axisValue(axes[k].vals[i], axes[k].unit))
			}
		} else {
			row.Values = []string{results.FormatDuration(configs.Duration(p.ViolationMs * float64(configs.Millisecond)))}
			row.Misses = p.Verdict.Reasons
		}
		row.MaxUtil = results.FormatPercent(p.Verdict.BusiestLoad)
		row.Margin = marginText(p.Margin)
		v.FrontRows = append(v.FrontRows, row)
	}
}

// tableUnitsMax is the longest mapping text the front's table shows in
// full; a longer one (a system of many tasks) is shown as the number of
// tasks per unit, the full text being in front.json and the point's
// section or page.
const tableUnitsMax = 240

// tableUnits is a mapping by unit (CompactUnits) as the front's table
// shows it: in full, or when longer than tableUnitsMax as the number of
// tasks per unit ("A0: 41 · A1: 38 · GP10B: 5 tasks").
func tableUnits(units string) string {
	if utf8.RuneCountInString(units) <= tableUnitsMax {
		return units
	}
	var parts []string
	for _, u := range strings.Split(units, " | ") {
		name, tasks, ok := strings.Cut(u, ": ")
		if !ok {
			continue
		}
		n := 1 + strings.Count(tasks, ", ") + strings.Count(tasks, " > ")
		parts = append(parts, name+": "+strconv.Itoa(n))
	}
	return strings.Join(parts, " · ") + " tasks"
}

func isGPUUnit(s *configs.System, name string) bool {
	u := s.Unit(name)
	return u != nil && u.Type == configs.GPU
}

func pointAnchor(feasible bool, id int) string {
	if feasible {
		return "point-" + strconv.Itoa(id)
	}
	return "least-violating-" + strconv.Itoa(id)
}

// buildPoint builds the section of point p, the i-th of the run (the
// first one open).
func buildPoint(run *reportRun, i int, p *reportPoint, axes []frontAxis, col colours) pointView {
	s := run.Config.System
	ev := &p.Evaluation
	pv := pointView{ID: p.ID, Anchor: pointAnchor(run.Front.Feasible, p.ID), Open: i == 0, Units: p.Units, MappingFile: p.MappingFile,
		Reading: "#reading"}
	if run.Front.Feasible {
		pv.Heading = "Point " + strconv.Itoa(p.ID)
		var parts []string
		for _, a := range axes {
			parts = append(parts, a.name+" "+axisValue(a.vals[i], a.unit))
		}
		pv.Objectives = strings.Join(parts, " · ")
	} else {
		pv.Heading = "Least-violating mapping " + strconv.Itoa(p.ID)
		pv.Violation = "misses by " + results.FormatDuration(configs.Duration(p.ViolationMs*float64(configs.Millisecond))) + " in all"
		pv.Reasons = ev.Reasons
	}
	pv.Differs = p.differs

	// Legend: the tasks that run (or stand merged), in model order.
	running := map[string]bool{}
	for _, t := range ev.Tasks {
		running[t.Name] = true
	}
	for _, t := range s.Tasks {
		if running[t.Name] {
			pv.Legend = append(pv.Legend, legendItem{Name: t.Name, Colour: col.css(t.Name)})
		}
	}

	pv.Mapping = mappingOf(s, ev, col)
	pv.UtilSVG = utilisationChart(s, ev, col, p.ID)
	pv.SlackSVG = slackChart(ev, col, p.ID)
	if m := p.Margin; m != nil {
		pv.Margin = "Margin on execution demand: " + marginText(m)
		if m.Binding != "" {
			pv.Margin += "; just above it, " + strings.Join(append([]string{m.Binding}, m.Consequences...), "; ")
		}
		pv.Margin += ". Every task's CPU compute and GPU kernel time scaled together, with these priorities; per kind of unit and per task: hetmap analyze --config config.yaml --mapping " + p.MappingFile + "."
	}
	pv.RT, pv.GPU, pv.GPUKnob = responseTables(s, ev, col)
	pv.Timeline, pv.TLNote = timelineChart(s, p, col)
	pv.Chains, pv.Hops, pv.ChainObj = chainsChart(ev, col, p.ID)
	pv.Windows = windowsOf(ev, col)
	return pv
}

// windowsOf builds the table of the tasks' window contention, in the order
// of the response-time tables.
func windowsOf(ev *results.AnalysisJSON, col colours) windowTable {
	wt := windowTable{Request: ev.Contention.Count == configs.ContentionRequest, Challenge: ev.Contention.Count == configs.ContentionChallenge, Count: ev.Contention.Count}
	column := map[string]int{}
	for i := range ev.Tasks {
		w := ev.Tasks[i].Window
		if w == nil {
			continue
		}
		for _, io := range w.Interferers {
			if _, ok := column[io.Unit]; !ok {
				column[io.Unit] = len(wt.Units)
				wt.Units = append(wt.Units, io.Unit)
			}
		}
	}
	// Cores in the units' order, the copy engine last.
	var order []string
	for _, u := range ev.Units {
		if _, ok := column[u.Name]; ok {
			order = append(order, u.Name)
		}
	}
	if _, ok := column["copy engine"]; ok {
		order = append(order, "copy engine")
	}
	wt.Units = order
	for k, u := range order {
		column[u] = k
	}
	for i := range ev.Tasks {
		t := &ev.Tasks[i]
		w := t.Window
		if w == nil {
			continue
		}
		row := windowRow{Task: t.Name, Colour: col.css(t.Name), Window: dns(w.WindowNs), Accesses: strconv.FormatInt(w.Accesses, 10),
			Challenge: dns(w.ChallengeNs), Refined: dns(w.RefinedNs), From: "window", ShowRequest: wt.Request, Cells: make([]numCell, len(order))}
		if w.RequestNs != nil {
			row.Request = dns(*w.RequestNs)
		}
		switch {
		case ev.Contention.Count == configs.ContentionChallenge:
			row.From = "C"
		case w.PerJobBound:
			row.From = "C (no gain)"
		}
		for k := range row.Cells {
			row.Cells[k] = numCell{Text: "·", Zero: true}
		}
		for _, io := range w.Interferers {
			c := numCell{Text: "–", Zero: true}
			if io.Binds != "none" {
				c = numCell{Text: strconv.FormatInt(io.Overlap, 10) + " " + bindsLetter(io.Binds), Zero: io.Overlap == 0}
			}
			row.Cells[column[io.Unit]] = c
		}
		wt.Rows = append(wt.Rows, row)
	}
	return wt
}

// bindsLetter abbreviates the term that binds an overlap in the window
// table (its caption says what each letter means), so that a column per
// other unit fits the page: L lines, T time, R requests.
func bindsLetter(binds string) string {
	switch binds {
	case "lines":
		return "L"
	case "time":
		return "T"
	case "requests":
		return "R"
	}
	return binds
}

func roleCell(t *results.AnalysisTaskJSON, gpu map[string]results.AnalysisGPUJSON) mappingCell {
	prio := ""
	if t.Priority != nil {
		prio = " · prio " + strconv.Itoa(*t.Priority)
	}
	switch t.Role {
	case evaluate.OffloadSync.String():
		return mappingCell{Text: "sync offload" + prio, Class: "role-sync"}
	case evaluate.OffloadAsync.String():
		return mappingCell{Text: "async offload" + prio, Class: "role-async"}
	case evaluate.Merged.String():
		return mappingCell{Text: "merged" + prio, Class: "role-merged"}
	case evaluate.OnGPU.String():
		g := gpu[t.Name]
		knob := ""
		switch {
		case g.StreamPriority != "":
			knob = " · " + g.StreamPriority + " stream"
		case g.TimeSliceNs > 0:
			knob = " · slice " + dns(g.TimeSliceNs)
		}
		return mappingCell{Text: "kernel" + knob, Class: "role-gpu"}
	}
	return mappingCell{Text: "runs" + prio, Class: "role-run"}
}

func mappingOf(s *configs.System, ev *results.AnalysisJSON, col colours) mappingTable {
	var mt mappingTable
	unitIdx := map[string]int{}
	for i, u := range s.Units {
		mt.Units = append(mt.Units, u.Name+" · "+u.Kind)
		unitIdx[u.Name] = i
	}
	byName := map[string]*results.AnalysisTaskJSON{}
	for i := range ev.Tasks {
		byName[ev.Tasks[i].Name] = &ev.Tasks[i]
	}
	gpu := map[string]results.AnalysisGPUJSON{}
	for _, g := range ev.GPU {
		gpu[g.Name] = g
	}
	merged := map[string]results.MergedJSON{}
	for _, m := range ev.Merged {
		merged[m.OffloadingTask] = m
	}
	for _, t := range s.Tasks {
		row := mappingRow{Task: t.Name, Colour: col.css(t.Name), Cells: make([]mappingCell, len(s.Units))}
		if tj, ok := byName[t.Name]; ok {
			if u, ok := unitIdx[tj.Unit]; ok {
				row.Cells[u] = roleCell(tj, gpu)
			}
		} else if mj, ok := merged[t.Name]; ok {
			row.Note = "does not run: merged into " + mj.MergedInto + " on " + mj.Unit
		} else {
			row.Note = "does not run"
		}
		mt.Rows = append(mt.Rows, row)
	}
	return mt
}

func utilisationChart(s *configs.System, ev *results.AnalysisJSON, col colours, id int) template.HTML {
	period := map[string]int64{}
	for _, t := range ev.Tasks {
		period[t.Name] = t.PeriodNs
	}
	var bars []bar
	xmax := 100.0
	for _, u := range ev.Units {
		if isGPUUnit(s, u.Name) {
			kern := bar{label: u.Name + " kernels", total: results.FormatPercent(u.Utilisation)}
			copies := bar{label: u.Name + " copy engine", total: results.FormatPercent(u.CopyUtilisation)}
			for _, g := range ev.GPU {
				T := float64(period[g.Name])
				if T <= 0 {
					continue
				}
				kern.parts = append(kern.parts, barPart{value: 100 * float64(g.KernelNs) / T, fill: col[g.Name], label: g.Name})
				copies.parts = append(copies.parts, barPart{value: 100 * float64(g.CopyInNs+g.CopyOutNs) / T, fill: col[g.Name], label: g.Name})
			}
			bars = append(bars, kern, copies)
			xmax = max(xmax, 100*u.Utilisation, 100*u.CopyUtilisation)
			continue
		}
		b := bar{label: u.Name + " (" + u.Kind + ")", total: results.FormatPercent(jsonLoad(&u))}
		if u.Tasks == 0 {
			b.total = "idle"
		}
		// Under the refined and request counts a task's part is C⁰/T and
		// the contention the count charges is one part of its own, so the
		// bar is the demand the verdicts rest on; else C/T per task (Σ C/T).
		var sum0 float64
		for _, t := range ev.Tasks {
			if t.Unit != u.Name || t.PeriodNs <= 0 {
				continue
			}
			// A GPU wait without a bound (null) adds no number.
			wait := deref(t.GPUWaitNs)
			c := t.ComputeNs + t.MemoryNs + t.ContentionNs + wait
			if t.WCETNs != nil && u.Demand == nil {
				c = *t.WCETNs
			}
			if u.Demand != nil {
				c = t.ComputeNs + t.MemoryNs + wait
			}
			sum0 += float64(c) / float64(t.PeriodNs)
			b.parts = append(b.parts, barPart{value: 100 * float64(c) / float64(t.PeriodNs), fill: col[t.Name], label: t.Name,
				hatched: wait > 0})
		}
		if u.Demand != nil {
			b.total += " (Σ C/T, challenge count: " + results.FormatPercent(u.Utilisation) + ")"
			if extra := *u.Demand - sum0; extra > 0 {
				b.parts = append(b.parts, barPart{value: 100 * extra, fill: contentionFill, label: "contention (" + u.DemandCount.String() + " count)", hatched: true})
			}
		}
		bars = append(bars, b)
		xmax = max(xmax, 100*jsonLoad(&u))
	}
	title := "utilisation Σ C/T [%] (100 % dashed)"
	if count := ev.Contention.Count; count != "" && count != configs.ContentionChallenge {
		title = "demand under the " + count.String() + " count: Σ C⁰/T per task + the contention it charges [%] (100 % dashed)"
	}
	return barChart(bars, title, xmax*1.02, 100, fmt.Sprintf("utilisation per unit, mapping %d", id))
}

// marginText writes a front point's margin ("×1.019", "none"), "–"
// where none was computed.
func marginText(m *results.MarginJSON) string {
	switch {
	case m == nil:
		return "–"
	case m.ExecutionScale == nil:
		return "none"
	case m.Status == "at least":
		return "≥ ×" + strconv.FormatFloat(*m.ExecutionScale, 'f', 0, 64)
	}
	return "×" + strconv.FormatFloat(*m.ExecutionScale, 'f', 3, 64)
}

// slackChart draws every running task's slack, D − R, as a share of its
// deadline: how close each task is to missing, beside the utilisation.
func slackChart(ev *results.AnalysisJSON, col colours, id int) template.HTML {
	var bars []bar
	for _, t := range ev.Tasks { // the running tasks
		b := bar{label: t.Name}
		switch {
		case t.ResponseTimeNs == nil || !t.Bounded:
			b.note = "no bound"
			if t.Cause != "" && t.Cause != t.Name {
				b.note = "no bound: follows from " + t.Cause
			}
		case *t.ResponseTimeNs > t.DeadlineNs:
			b.note = "misses D by " + results.FormatDuration(configs.Duration((*t.ResponseTimeNs-t.DeadlineNs)*1000))
		default:
			slack := t.DeadlineNs - *t.ResponseTimeNs
			share := 100 * float64(slack) / float64(max(t.DeadlineNs, 1))
			b.parts = []barPart{{value: share, fill: col[t.Name], label: t.Name}}
			b.total = results.FormatDuration(configs.Duration(slack*1000)) + " of D " + results.FormatDuration(configs.Duration(t.DeadlineNs*1000)) + " (" + strconv.FormatFloat(share, 'f', 1, 64) + " %)"
		}
		bars = append(bars, b)
	}
	if len(bars) == 0 {
		return ""
	}
	return barChart(bars, "slack D − R as a share of the deadline [%]", 100, 0, fmt.Sprintf("slack per task, mapping %d", id))
}

// formatRns is formatR for the JSON form: "no bound" where the analysis
// gives none.
// jsonLoad is unitLoad for the JSON form: the demand where the count has
// one, else Σ C/T.
func jsonLoad(u *results.AnalysisUnitJSON) float64 {
	if u.Demand != nil {
		return *u.Demand
	}
	return u.Utilisation
}

func formatRns(t *results.AnalysisTaskJSON) string {
	if !t.Bounded || t.ResponseTimeNs == nil {
		return results.NoBound
	}
	return dns(*t.ResponseTimeNs)
}

// okText is the verdict in the words of hetmap analyze (okWord), read
// from the JSON form's verdict words and cause.
func okText(t *results.AnalysisTaskJSON) string {
	var w string
	switch {
	case t.Schedulable:
		return "yes"
	case t.Bounded:
		w = "MISS"
	case strings.Contains(t.Verdict, "overload"):
		w = "NO BOUND (overload)"
	case strings.Contains(t.Verdict, "GPU response"):
		w = "NO BOUND (GPU)"
	default:
		w = "NO BOUND"
	}
	if t.Cause != "" && t.Cause != t.Name {
		w += " ← " + t.Cause
	}
	return w
}

func deadlineText(t *results.AnalysisTaskJSON) string {
	if t.DeadlineNs == 0 {
		return dns(t.PeriodNs) + " (T)"
	}
	return dns(t.DeadlineNs)
}

func responseTables(s *configs.System, ev *results.AnalysisJSON, col colours) ([]rtGroup, []gpuRow, string) {
	var groups []rtGroup
	for _, u := range ev.Units {
		if isGPUUnit(s, u.Name) {
			continue
		}
		g := rtGroup{Head: fmt.Sprintf("%s (%s): utilisation %s", u.Name, u.Kind, results.FormatPercent(u.Utilisation))}
		if u.Demand != nil {
			g.Head = fmt.Sprintf("%s (%s): %s", u.Name, u.Kind, results.DemandWords(*u.Demand, u.Utilisation, u.DemandCount))
		}
		if u.Tasks == 0 {
			g.Head += "; no task"
			groups = append(groups, g)
			continue
		}
		mem := "no label accesses"
		if u.AccessesMemory {
			mem = "accesses memory"
		}
		g.Head += fmt.Sprintf("; %s; #C = %d, bGPU = %d: %s per line; priorities from %s", mem, u.InterferingCores, b2i(u.CopyEngineActive),
			results.FormatDuration(configs.Duration(u.LineLatencyPs)), u.Priorities)
		for i := range ev.Tasks {
			t := &ev.Tasks[i]
			if t.Unit != u.Name || t.Role == evaluate.OnGPU.String() {
				continue
			}
			row := rtRow{Task: t.Name, Role: shortRole(t.Role), C: nsOrNoBound(t.WCETNs),
				Terms: []numCell{nsCell(t.ComputeNs), nsCell(t.MemoryNs), nsCell(t.ContentionNs), nsCellOrNoBound(t.GPUWaitNs), nsCellOrNoBound(t.SuspensionNs)},
				R:     formatRns(t), D: deadlineText(t), OK: okText(t), Miss: !t.Schedulable, Colour: col.css(t.Name)}
			if t.Priority != nil {
				row.Prio = strconv.Itoa(*t.Priority)
			}
			g.Rows = append(g.Rows, row)
		}
		groups = append(groups, g)
	}
	knob := "stream"
	if ev.GPUModel == configs.GPUModelTimeSlice {
		knob = "time slice"
	}
	var gpu []gpuRow
	byName := map[string]*results.AnalysisTaskJSON{}
	for i := range ev.Tasks {
		byName[ev.Tasks[i].Name] = &ev.Tasks[i]
	}
	for _, g := range ev.GPU {
		row := gpuRow{Task: g.Name, Knob: g.StreamPriority, Geometry: fmt.Sprintf("%d × %d threads, %s blocks", g.Blocks, g.ThreadsPerBlock, dns(g.BlockTimeNs)),
			CopyInWait: dns(g.CopyInWaitNs), CopyIn: dns(g.CopyInNs), KernelQueue: dns(g.KernelQueueNs), Kernel: dns(g.KernelNs),
			CopyOutWait: dns(g.CopyOutWaitNs), CopyOut: dns(g.CopyOutNs), R: results.NoBound, Colour: col.css(g.Name)}
		if g.ResponseNs != nil {
			row.R = dns(*g.ResponseNs)
		}
		if ev.GPUModel == configs.GPUModelTimeSlice {
			row.Knob = dns(g.TimeSliceNs)
		}
		if t := byName[g.Name]; t != nil {
			row.R, row.D, row.OK, row.Miss = formatRns(t), deadlineText(t), okText(t), !t.Schedulable
		}
		gpu = append(gpu, row)
	}
	return groups, gpu, knob
}

// contentionCount says what analysis.contention means for the report.
func contentionCount(count configs.ContentionCount) string {
	switch count {
	case configs.ContentionRefined:
		return "refined: a response time charges the contention of its window, only for the accesses that can overlap another core's or the copy engine's memory phases there (docs/contention.md)"
	case configs.ContentionRequest:
		return "request: as refined, and at most one access per line request of the other unit; this assumes " + configs.RequestAssumption
	}
	return "challenge: every access is charged every other memory user, as in C"
}

func shortRole(role string) string {
	switch role {
	case evaluate.OffloadSync.String():
		return "sync offload"
	case evaluate.OffloadAsync.String():
		return "async offload"
	case evaluate.Merged.String():
		return "merged"
	}
	return ""
}

func timelineChart(s *configs.System, p *reportPoint, col colours) (template.HTML, string) {
	tl := p.timeline
	window := psToMs(tl.Window)
	var lanes []ganttLane
	laneOf := map[int]int{} // unit → lane (the GPU: its kernel lane)
	for _, l := range tl.Lanes {
		gl := ganttLane{name: l.Name}
		switch l.Kind {
		case evaluate.LaneCore:
			gl.name = l.Name + " (" + s.Units[l.Unit].Kind + ")"
			laneOf[l.Unit] = len(lanes)
		case evaluate.LaneGPU:
			laneOf[l.Unit] = len(lanes)
		}
		for _, sg := range l.Segments {
			name := s.Tasks[sg.Task].Name
			seg := ganttSegment{start: psToMs(sg.Start), end: psToMs(sg.End), fill: col[name], label: name}
			switch sg.Kind {
			case evaluate.SegmentBusyWait:
				seg.hatched, seg.label = true, name+" (busy-wait)"
			case evaluate.SegmentCopyIn, evaluate.SegmentCopyOut:
				seg.outline = true
			}
			gl.segments = append(gl.segments, seg)
		}
		for _, sg := range l.Suspended {
			gl.waits = append(gl.waits, ganttSegment{start: psToMs(sg.Start), end: psToMs(sg.End), fill: col[s.Tasks[sg.Task].Name]})
		}
		lanes = append(lanes, gl)
	}
	misses := 0
	for _, j := range tl.Jobs {
		missed := (j.Finish < 0 && j.Deadline <= tl.Window) || j.Finish > j.Deadline
		if !missed {
			continue
		}
		misses++
		if li, ok := laneOf[j.Unit]; ok {
			lanes[li].misses = append(lanes[li].misses, psToMs(j.Deadline))
		}
	}
	note := fmt.Sprintf("Window 0–%s: ", results.FormatDuration(configs.Duration(tl.Window)))
	switch {
	case tl.Truncated:
		note += "cut short after the simulation's limit of segments. "
	case tl.Capped:
		note += fmt.Sprintf("the longest period is longer; the timeline stops at the cap of %s. ", results.FormatDuration(configs.Duration(evaluate.TimelineCap)))
	default:
		note += "the longest period among the running tasks. "
	}
	if misses > 0 {
		note += fmt.Sprintf("%d job(s) miss their deadline in this simulation (red ×, at the deadline). ", misses)
	} else {
		note += "No job misses its deadline in this simulation. "
	}
	return ganttChart(lanes, window, fmt.Sprintf("timeline of one window, mapping %d", p.ID)), note
}

func chainsChart(ev *results.AnalysisJSON, col colours, id int) (template.HTML, []chainRow, string) {
	if len(ev.Chains) == 0 {
		return "", nil, ""
	}
	var bars []bar
	var rows []chainRow
	xmax := 0.0
	obj := ev.Chains[0].Objective
	for _, c := range ev.Chains {
		var members []string
		for k, m := range c.Members {
			s := m.Task
			if m.StandsFor != m.Task {
				s += "=" + m.StandsFor
			}
			s += " (" + m.Unit + ")"
			switch {
			case k == 0:
			case m.Ordered:
				s = "⇒ " + s
			default:
				s = "→ " + s
			}
			members = append(members, s)
		}
		row := chainRow{Name: c.Name, Members: strings.Join(members, " "), Latency: "no latency", Synchronous: "-", AnyOffset: "-"}
		b := bar{label: c.Name}
		if c.ObjectiveNs == nil {
			b.note = "no latency (a member has no bound or misses its deadline; see the table)"
			row.Hops = c.Reason
			bars, rows = append(bars, b), append(rows, row)
			continue
		}
		paradigm, metric := chainObjectiveParts(c.Objective)
		row.Latency = nsSpan(c.ObjectiveMinNs, *c.ObjectiveNs)
		values, anyValues := c.Implicit, c.AnyOffset
		if paradigm == chains.LET {
			values, anyValues = c.LET, c.AnyOffsetLET
		}
		sync, syncOK := chainValueNs(values, metric)
		if syncOK {
			row.Synchronous = nsSpan(chainMinNs(values, metric), sync)
		}
		if v, ok := chainValueNs(anyValues, metric); ok {
			row.AnyOffset = nsSpan(chainMinNs(anyValues, metric), v) + analysesText(c, paradigm, metric)
		}
		// The bar: the worst job chain at the model's offsets; the line
		// under it: the objective's minimum to maximum.
		b.lo, b.hi = nsToMs(max(0, deref(c.ObjectiveMinNs))), nsToMs(*c.ObjectiveNs)
		xmax = max(xmax, b.hi)
		if len(c.WorstChain) == 0 || !syncOK {
			b.total = row.Latency
			row.Hops = "(no job chain at the model's offsets)"
			bars, rows = append(bars, b), append(rows, row)
			continue
		}
		b.total = dns(sync)
		xmax = max(xmax, nsToMs(sync))
		first, last := c.WorstChain[0], c.WorstChain[len(c.WorstChain)-1]
		lead := sync - (last.WriteNs - first.ReleaseNs)
		var hops []string
		if lead > 0 {
			b.parts = append(b.parts, barPart{value: nsToMs(lead), fill: color.RGBA{0x9e, 0x9e, 0x9e, 0xff}, hatched: true, label: "sampling"})
			hops = append(hops, "sampling "+dns(lead))
		}
		for k, h := range c.WorstChain {
			if h.WaitNs > 0 {
				b.parts = append(b.parts, barPart{value: nsToMs(h.WaitNs), fill: color.RGBA{0xd6, 0xd6, 0xd6, 0xff}, label: "wait"})
				hops = append(hops, "wait "+dns(h.WaitNs))
			}
			span := h.WriteNs - h.Read()
			b.parts = append(b.parts, barPart{value: nsToMs(span), fill: col[h.Task], label: h.Task})
			unit := ""
			if k < len(c.Members) {
				unit = " on " + c.Members[k].Unit
			}
			hops = append(hops, fmt.Sprintf("%s %s%s", h.Task, dns(span), unit))
		}
		row.Hops = strings.Join(hops, " + ")
		bars, rows = append(bars, b), append(rows, row)
	}
	if xmax <= 0 {
		xmax = 1
	}
	return barChart(bars, "end-to-end latency [ms]: sampling (hatched), waits (grey) and each hop's response; under it, min – max", xmax*1.01, 0,
		fmt.Sprintf("chain latencies split into hops, mapping %d", id)), rows, obj
}

// chainObjectiveParts reads the paradigm and metric of a chain objective
// as ChainJSON names it ("implicit/reaction-time/any-offset"); an unknown
// part reads as the default.
func chainObjectiveParts(name string) (chains.Paradigm, chains.Metric) {
	parts := strings.Split(name, "/")
	p, _ := chains.ParseParadigm(parts[0])
	var m chains.Metric
	if len(parts) > 1 {
		m, _ = chains.ParseMetric(parts[1])
	}
	return p, m
}

// chainValueNs returns a metric of v (ns) and whether it has one.
func chainValueNs(v *results.ChainValuesJSON, m chains.Metric) (int64, bool) {
	if v == nil {
		return 0, false
	}
	switch m {
	case chains.ReactionFromActivation:
		return v.ReactionFromActivationNs, true
	case chains.MaxDataAge:
		return v.MaxDataAgeNs, true
	}
	return v.MaxReactionTimeNs, true
}

// chainMinNs returns the lower bound that goes with metric m in v, nil in
// a file written before minima were.
func chainMinNs(v *results.ChainValuesJSON, m chains.Metric) *int64 {
	if m == chains.MaxDataAge {
		return v.MinDataAgeNs
	}
	return v.MinReactionTimeNs
}

// nsSpan writes "min – max", or the maximum alone without a minimum.
func nsSpan(lo *int64, hi int64) string {
	if lo == nil {
		return dns(hi)
	}
	return results.FormatLow(*lo*int64(configs.Nanosecond)) + " – " + dns(hi)
}

// analysesText names, for implicit communication, the analysis that gives
// the bound for any offsets and the value of each: " (Dürr; Davare 71.684
// ms, Dürr 69.2067 ms, per hop 69.2067 ms)".
func analysesText(c results.ChainJSON, p chains.Paradigm, m chains.Metric) string {
	a := c.Analyses
	if p == chains.LET || a == nil {
		return ""
	}
	by := a.ReactionBy
	if m == chains.MaxDataAge {
		by = a.DataAgeBy
	}
	var each []string
	for _, x := range []struct {
		name string
		v    *results.ChainValuesJSON
	}{{"Davare", a.Davare}, {"Dürr", a.Duerr}, {"per hop", a.PerHop}} {
		if v, ok := chainValueNs(x.v, m); ok {
			each = append(each, x.name+" "+dns(v))
		}
	}
	names := map[string]string{"davare": "Davare", "duerr": "Dürr", "per-hop": "per hop"}
	if d, ok1 := chainValueNs(a.Davare, m); ok1 {
		if p, ok2 := chainValueNs(a.PerHop, m); ok2 && p == d {
			return " (Davare = Dürr = per hop)" // the least is the largest
		}
	}
	return " (" + names[by] + "; " + strings.Join(each, ", ") + ")"
}

func manifestRows(m *results.Manifest) ([]keyValue, []keyValue) {
	rows := []keyValue{
		{Key: "Tool", Value: m.Tool + " " + m.Version + " (" + m.GoVersion + ")"},
		{Key: "Configuration", Value: m.ConfigSource},
		{Key: "Configuration SHA-256", Value: m.ConfigSHA256, Code: true},
		{Key: "Algorithm", Value: m.Algorithm.String()},
		{Key: "Seed", Value: strconv.FormatInt(m.Seed, 10)},
		{Key: "Workers", Value: strconv.Itoa(m.Workers)},
		{Key: "Status", Value: results.StatusText(m)},
		{Key: "Proof", Value: results.RunProof(m).Statement},
		{Key: "Feasible", Value: strconv.FormatBool(m.Feasible)},
		{Key: "Front size", Value: strconv.Itoa(m.FrontSize)},
		{Key: "Evaluations", Value: strconv.Itoa(m.Evaluations)},
		{Key: "Distinct feasible mappings met", Value: strconv.Itoa(m.FeasibleMappings)},
		{Key: "Priority-order variants evaluated", Value: strconv.Itoa(m.PriorityVariants)},
	}
	if m.Pruned > 0 {
		rows = append(rows, keyValue{Key: "Partial mappings cut", Value: strconv.Itoa(m.Pruned)})
	}
	if m.Generations > 0 {
		rows = append(rows, keyValue{Key: "Generations", Value: strconv.Itoa(m.Generations)})
	}
	rows = append(rows,
		keyValue{Key: "Wall time", Value: results.FormatDuration(configs.Duration(m.WallTimeMs * float64(configs.Millisecond)))},
		keyValue{Key: "Started (UTC)", Value: m.StartedUTC},
		keyValue{Key: "Results format", Value: strconv.Itoa(m.ResultsFormat)})
	st := m.Settings
	var objs []string
	for _, o := range st.Objectives {
		objs = append(objs, o.Name())
	}
	settings := []keyValue{
		{Key: "Objectives", Value: strings.Join(objs, "; ")},
		{Key: "Free genes", Value: st.FreeGenes()},
	}
	if st.Algorithm != configs.AlgorithmExhaustive {
		limit := "none"
		if st.MaxEvaluations > 0 {
			limit = strconv.Itoa(st.MaxEvaluations)
		}
		settings = append(settings,
			keyValue{Key: "Population", Value: strconv.Itoa(st.Population)},
			keyValue{Key: "Generations (limit)", Value: strconv.Itoa(st.Generations)},
			keyValue{Key: "Evaluation limit", Value: limit})
	}
	return rows, settings
}

// b2i writes a flag as the analysis's 0 or 1 (bGPU).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
