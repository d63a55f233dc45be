package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Comparing two designs (hetmap compare). A review brings the last
// design revision and this one: which mappings of one beat which of the
// other, how far each objective and the margin moved, and what changed in
// the model and the analysis to explain it. A side is the front of an
// optimize run folder, or one mapping of a configuration. Points are
// compared on the objectives both sides minimise (by name), and on their
// margin on execution demand (evaluate.Margins, recomputed from each
// point's mapping with its side's configuration, so a run of any results
// format compares).

// Side is one side of a comparison.
type Side struct {
	// Label names the side for people ("A", "B"), Source where it comes
	// from (a run folder, or a configuration and a mapping file).
	Label, Source string
	Cfg           *configs.Config
	// What says what the side is: the algorithm, the proof and the
	// number of points of a run; "one mapping" for a mapping.
	What string
	// Objectives are the side's objectives (configs.Objective.Name).
	Objectives []configs.Objective
	Points     []Point
}

// Point is one mapping of a side.
type Point struct {
	ID int
	// Values are the objectives, in the order of the side's Objectives
	// (chain latencies in ms, the margin objective as its negative).
	Values []float64
	// Minima are, per objective, the lower bound on the minimum of a chain
	// objective's latency (ms; the same paradigm, metric and bound), nil
	// for the other objectives.
	Minima []*float64
	// Feasible: the mapping meets every deadline and requirement.
	Feasible bool
	Margin   evaluate.Margin
	Units    string
}

// ReadRun reads an optimize run folder as a side of a comparison:
// its configuration and its front (or, when nothing was feasible, its
// least-violating mappings), each point re-evaluated for its margin. A
// folder that is not a run is an error (*runfolder.Error).
func ReadRun(label, dir string) (*Side, error) {
	run, err := runfolder.ReadPoints(dir)
	if err != nil {
		return nil, err
	}
	side := &Side{Label: label, Source: dir, Cfg: run.Config}
	m := &run.Manifest
	if run.Feasible {
		side.What = fmt.Sprintf("%s search, front %s, %d point(s)", m.Algorithm, results.RunProof(m).Exactness, len(run.Mappings))
	} else {
		side.What = fmt.Sprintf("%s search, no feasible mapping; its %d least-violating mapping(s)", m.Algorithm, len(run.Mappings))
	}
	if err := side.evaluate(run.Evaluator, run.Mappings, run.IDs); err != nil {
		return nil, &runfolder.Error{Dir: dir, Err: fmt.Errorf("%s: %v", dir, err)}
	}
	return side, nil
}

// MappingSide makes one mapping of a configuration a side.
func MappingSide(label, source string, cfg *configs.Config, mapping configs.Mapping) (*Side, error) {
	side := &Side{Label: label, Source: source, Cfg: cfg, What: "one mapping"}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		return nil, err
	}
	if err := side.evaluate(e, []configs.Mapping{mapping}, []int{1}); err != nil {
		return nil, err
	}
	return side, nil
}

// evaluate fills the side's points: every mapping evaluated by e, the
// side's configuration's evaluator, with its objectives and its margin.
func (s *Side) evaluate(e *evaluate.Evaluator, maps []configs.Mapping, ids []int) error {
	p, err := optimizer.NewProblem(e, s.Cfg.Search)
	if err != nil {
		return err
	}
	s.Objectives = p.Search().Objectives
	for k := range maps {
		a, err := e.FromMapping(&maps[k])
		if err != nil {
			return fmt.Errorf("point %d: %v", ids[k], err)
		}
		r := e.NewAnalysis()
		if err := e.Evaluate(a, r); err != nil {
			return fmt.Errorf("point %d: %v", ids[k], err)
		}
		vals, feasible := p.Objectives(a, r)
		e.AnalyzeChains(r)
		minima := results.ObjectiveMinima(s.Objectives, r)
		m, err := e.Margins(a, r, evaluate.MarginOptions{OnlyExecutionScale: true, NoConsequences: true})
		if err != nil {
			return fmt.Errorf("point %d: %v", ids[k], err)
		}
		s.Points = append(s.Points, Point{ID: ids[k], Values: vals, Minima: minima, Feasible: feasible, Margin: m.ExecutionScale, Units: results.CompactUnits(r)})
	}
	return nil
}

// Comparison is what compare reports on two sides.
type Comparison struct {
	A, B *Side
	// Common are the objectives both sides minimise, by name, with their
	// index on each side.
	Common []Objective
	// Dominates[i] lists, for point i of A (then of B, after A's), the
	// points of the other side it dominates on the common objectives (and
	// the margin): at least as good on all, better on one.
	DominatesA, DominatesB [][]int
	// Equal lists the pairs of points with the same values.
	Equal [][2]int
	// OnlyA and OnlyB are the objectives one side has and the other not.
	OnlyA, OnlyB []string
	// Differences say what differs between the two configurations.
	Differences []string
}

// Objective is an objective both sides minimise.
type Objective struct {
	Objective configs.Objective
	A, B      int
}

// New compares two sides: dominance between their feasible
// points on the objectives both minimise, and what differs between their
// configurations. Two sides of different systems compare on what they
// share.
func New(a, b *Side) *Comparison {
	c := &Comparison{A: a, B: b}
	nb := map[string]int{}
	for k, o := range b.Objectives {
		nb[o.Name()] = k
	}
	na := map[string]bool{}
	for k, o := range a.Objectives {
		na[o.Name()] = true
		if j, ok := nb[o.Name()]; ok {
			c.Common = append(c.Common, Objective{Objective: o, A: k, B: j})
		} else {
			c.OnlyA = append(c.OnlyA, o.Name())
		}
	}
	for _, o := range b.Objectives {
		if !na[o.Name()] {
			c.OnlyB = append(c.OnlyB, o.Name())
		}
	}
	vec := func(s *Side, p *Point, side int) []float64 {
		var v []float64
		for _, o := range c.Common {
			k := o.A
			if side == 1 {
				k = o.B
			}
			v = append(v, p.Values[k])
		}
		return v
	}
	c.DominatesA = make([][]int, len(a.Points))
	c.DominatesB = make([][]int, len(b.Points))
	if len(c.Common) > 0 {
		for i := range a.Points {
			pa := &a.Points[i]
			for j := range b.Points {
				pb := &b.Points[j]
				if !pa.Feasible || !pb.Feasible {
					continue
				}
				va, vb := vec(a, pa, 0), vec(b, pb, 1)
				switch {
				case reflect.DeepEqual(va, vb):
					c.Equal = append(c.Equal, [2]int{pa.ID, pb.ID})
				case dominatesVec(va, vb):
					c.DominatesA[i] = append(c.DominatesA[i], pb.ID)
				case dominatesVec(vb, va):
					c.DominatesB[j] = append(c.DominatesB[j], pa.ID)
				}
			}
		}
	}
	c.Differences = configDifferences(a.Cfg, b.Cfg)
	return c
}

// dominatesVec reports whether a is at most b everywhere and below once.
func dominatesVec(a, b []float64) bool {
	better := false
	for i := range a {
		if a[i] > b[i] {
			return false
		}
		better = better || a[i] < b[i]
	}
	return better
}

// Best returns the best (least) value of objective k over a side's
// feasible points, and whether there is one, with the lower bound on the
// minimum at the first point that has it (nil but for a chain objective).
func (c *Comparison) best(s *Side, k int) (float64, *float64, bool) {
	v, ok := math.Inf(1), false
	var lo *float64
	for _, p := range s.Points {
		if p.Feasible && p.Values[k] < v {
			v, ok, lo = p.Values[k], true, nil
			if k < len(p.Minima) {
				lo = p.Minima[k]
			}
		}
	}
	return v, lo, ok
}

// bestMargin returns a side's largest margin over its feasible points
// (over all its points when none is feasible).
func bestMargin(s *Side) (evaluate.Margin, bool) {
	var best evaluate.Margin
	found := false
	for _, feasibleOnly := range []bool{true, false} {
		for _, p := range s.Points {
			if feasibleOnly && !p.Feasible || p.Margin.Status == evaluate.MarginNone {
				continue
			}
			if !found || p.Margin.PerMille > best.PerMille {
				best, found = p.Margin, true
			}
		}
		if found {
			break
		}
	}
	return best, found
}

// compareRow is one line of the table of best values.
type compareRow struct{ Name, A, B, Delta string }

// bestRows are the best value of every common objective and the margin,
// per side, with B − A.
func (c *Comparison) bestRows() []compareRow {
	var rows []compareRow
	for _, o := range c.Common {
		a, loA, okA := c.best(c.A, o.A)
		b, loB, okB := c.best(c.B, o.B)
		row := compareRow{Name: o.Objective.Name(), A: "–", B: "–", Delta: "–"}
		format := func(v float64, lo *float64) string {
			s := results.ObjectiveValue(o.Objective, v)
			switch o.Objective.Kind {
			case configs.ObjectiveChain, "":
				s += " ms"
				if lo != nil {
					// A lower bound, rounded down.
					s += " (min " + strconv.FormatFloat(math.Floor(*lo*1000)/1000, 'f', 3, 64) + " ms)"
				}
			}
			return s
		}
		if okA {
			row.A = format(a, loA)
		}
		if okB {
			row.B = format(b, loB)
		}
		if okA && okB {
			d := b - a
			switch o.Objective.Kind {
			case configs.ObjectiveMaxUtilisation:
				row.Delta = signed(d*100, 1) + " points"
			case configs.ObjectiveMargin:
				row.Delta = signed(-d, 3)
			case configs.ObjectiveCoresUsed:
				row.Delta = signed(d, 0)
			default:
				row.Delta = signed(d, 3) + " ms"
			}
		}
		rows = append(rows, row)
	}
	ma, okA := bestMargin(c.A)
	mb, okB := bestMargin(c.B)
	row := compareRow{Name: "margin on execution demand (the largest of the side)", A: "none", B: "none", Delta: "–"}
	if okA {
		row.A = ma.String()
	}
	if okB {
		row.B = mb.String()
	}
	if okA && okB {
		row.Delta = signed(float64(mb.PerMille-ma.PerMille)/1000, 3)
	}
	return append(rows, row)
}

func signed(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if v > 0 {
		return "+" + s
	}
	if v == 0 {
		return strconv.FormatFloat(0, 'f', prec, 64)
	}
	return "−" + strings.TrimPrefix(s, "-")
}

// configDifferences says what differs between two configurations: the
// system's name, units, tasks (added, removed, period, deadline, offset,
// runnables), runnables' ticks and the analysis, convention and search
// options.
func configDifferences(a, b *configs.Config) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	sa, sb := a.System, b.System
	if sa.Name != sb.Name {
		add("system: %q (A), %q (B)", sa.Name, sb.Name)
	}
	ua, ub := map[string]configs.Unit{}, map[string]configs.Unit{}
	for _, u := range sa.Units {
		ua[u.Name] = u
	}
	for _, u := range sb.Units {
		ub[u.Name] = u
		x, ok := ua[u.Name]
		switch {
		case !ok:
			add("unit %s (%s) only in B", u.Name, u.Kind)
		case x.Kind != u.Kind || x.Frequency != u.Frequency:
			add("unit %s: %s at %s (A), %s at %s (B)", u.Name, x.Kind, results.FormatFrequency(x.Frequency), u.Kind, results.FormatFrequency(u.Frequency))
		}
	}
	for _, u := range sa.Units {
		if _, ok := ub[u.Name]; !ok {
			add("unit %s (%s) only in A", u.Name, u.Kind)
		}
	}
	ta := map[string]*configs.Task{}
	for i := range sa.Tasks {
		ta[sa.Tasks[i].Name] = &sa.Tasks[i]
	}
	tb := map[string]bool{}
	for i := range sb.Tasks {
		t := &sb.Tasks[i]
		tb[t.Name] = true
		x, ok := ta[t.Name]
		if !ok {
			add("task %s only in B", t.Name)
			continue
		}
		if x.Period != t.Period {
			add("task %s: period %s (A), %s (B)", t.Name, results.FormatDuration(x.Period), results.FormatDuration(t.Period))
		}
		if x.Deadline != t.Deadline {
			add("task %s: deadline %s (A), %s (B)", t.Name, results.FormatDuration(x.Deadline), results.FormatDuration(t.Deadline))
		}
		if x.Offset != t.Offset {
			add("task %s: offset %s (A), %s (B)", t.Name, results.FormatDuration(x.Offset), results.FormatDuration(t.Offset))
		}
		if !reflect.DeepEqual(x.Runnables, t.Runnables) {
			add("task %s: runnables %v (A), %v (B)", t.Name, x.Runnables, t.Runnables)
		}
	}
	for _, t := range sa.Tasks {
		if !tb[t.Name] {
			add("task %s only in A", t.Name)
		}
	}
	ra := map[string]configs.Runnable{}
	for _, r := range sa.Runnables {
		ra[r.Name] = r
	}
	changed := 0
	var first string
	for _, r := range sb.Runnables {
		if x, ok := ra[r.Name]; ok && !reflect.DeepEqual(x, r) {
			if changed == 0 {
				first = r.Name
			}
			changed++
		}
	}
	if changed > 0 {
		add("%d runnable(s) differ in ticks or label accesses (the first: %s)", changed, first)
	}
	out = append(out, jsonDifferences("conventions", a.Conventions, b.Conventions)...)
	out = append(out, jsonDifferences("analysis", a.Analysis, b.Analysis)...)
	return append(out, jsonDifferences("search", a.Search, b.Search)...)
}

// jsonDifferences lists the keys whose values differ between two option
// sections, as JSON writes them: "analysis.contention: refined (A),
// challenge (B)".
func jsonDifferences(prefix string, a, b any) []string {
	flat := func(v any) map[string]string {
		data, _ := json.Marshal(v)
		var m map[string]any
		_ = json.Unmarshal(data, &m)
		out := map[string]string{}
		for k, x := range m {
			t, _ := json.Marshal(x)
			out[k] = string(t)
		}
		return out
	}
	fa, fb := flat(a), flat(b)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []string
	show := func(s string) string {
		if s == "" || s == "null" {
			return "(not set)"
		}
		return strings.Trim(s, `"`)
	}
	for _, k := range names {
		if fa[k] != fb[k] {
			out = append(out, fmt.Sprintf("%s.%s: %s (A), %s (B)", prefix, k, show(fa[k]), show(fb[k])))
		}
	}
	return out
}

// WriteText writes a comparison for people.
func WriteText(w io.Writer, c *Comparison) error {
	var b strings.Builder // written to w at once, at the end
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("Comparing\n")
	for _, s := range []*Side{c.A, c.B} {
		p("  %s  %s: %s, %s\n", s.Label, s.Source, s.Cfg.System.Name, s.What)
	}
	if len(c.Differences) == 0 {
		p("\nThe two configurations are the same: the differences are the search's.\n")
	} else {
		p("\nWhat differs between the two configurations:\n")
		for _, d := range c.Differences {
			p("  %s\n", d)
		}
	}
	if len(c.OnlyA) > 0 || len(c.OnlyB) > 0 {
		p("\nObjectives of one side only (not compared): A %s; B %s\n", listOrNone(c.OnlyA), listOrNone(c.OnlyB))
	}
	if len(c.Common) == 0 {
		p("\nThe sides minimise no objective in common: no point dominates another.\n")
	} else {
		p("\nDominance on the %d objective(s) both minimise (at least as good on every one, better on one):\n", len(c.Common))
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  point\tmargin\tdominates")
		for i, pt := range c.A.Points {
			fmt.Fprintf(tw, "  A%d\t%s\t%s\n", pt.ID, pt.Margin, pointList(c.B.Label, c.DominatesA[i], pt.Feasible))
		}
		for j, pt := range c.B.Points {
			fmt.Fprintf(tw, "  B%d\t%s\t%s\n", pt.ID, pt.Margin, pointList(c.A.Label, c.DominatesB[j], pt.Feasible))
		}
		tw.Flush()
		for _, e := range c.Equal {
			p("  A%d and B%d have the same objective values\n", e[0], e[1])
		}
		for _, l := range results.WrapWords(c.summary(), results.TextWidth-2) {
			p("  %s\n", l)
		}
	}
	p("\nMappings (unit: tasks)\n")
	for _, s := range []*Side{c.A, c.B} {
		for _, pt := range s.Points {
			for i, l := range results.PackParts(strings.Split(pt.Units, " | "), " | ", results.TextWidth-6) {
				if i == 0 {
					p("  %-3s %s\n", s.Label+strconv.Itoa(pt.ID), l)
				} else {
					p("      | %s\n", l)
				}
			}
		}
	}
	p("\nBest value of each side (B − A; each objective minimised, the margin maximised; for a chain, the lower\nbound on its minimum at that point):\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  objective\tA\tB\tB − A")
	for _, r := range c.bestRows() {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Name, r.A, r.B, r.Delta)
	}
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

// summary says in one sentence how the fronts relate.
func (c *Comparison) summary() string {
	dominating := func(d [][]int) int {
		n := 0
		for i := range d {
			if len(d[i]) > 0 {
				n++
			}
		}
		return n
	}
	da, db := dominating(c.DominatesA), dominating(c.DominatesB)
	dominatedA, dominatedB := map[int]bool{}, map[int]bool{}
	for _, l := range c.DominatesA {
		for _, id := range l {
			dominatedB[id] = true
		}
	}
	for _, l := range c.DominatesB {
		for _, id := range l {
			dominatedA[id] = true
		}
	}
	return fmt.Sprintf("%d of A's %d point(s) dominate a point of B, %d of B's %d one of A; %d of A's and %d of B's points are dominated by the other side.",
		da, len(c.A.Points), db, len(c.B.Points), len(dominatedA), len(dominatedB))
}

func pointList(label string, ids []int, feasible bool) string {
	if !feasible {
		return "(infeasible: not compared)"
	}
	if len(ids) == 0 {
		return "–"
	}
	var s []string
	for _, id := range ids {
		s = append(s, label+strconv.Itoa(id))
	}
	return strings.Join(s, ", ")
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// WriteHTML writes compare.html: a self-contained page with the
// sides, the differences, the dominance table, the best values and both
// fronts on the first two common objectives.
func WriteHTML(w io.Writer, c *Comparison) error {
	type row struct {
		Point, Margin, Dominates, Units string
	}
	var rows []row
	for i, pt := range c.A.Points {
		rows = append(rows, row{fmt.Sprintf("A%d", pt.ID), pt.Margin.String(), pointList(c.B.Label, c.DominatesA[i], pt.Feasible), pt.Units})
	}
	for j, pt := range c.B.Points {
		rows = append(rows, row{fmt.Sprintf("B%d", pt.ID), pt.Margin.String(), pointList(c.A.Label, c.DominatesB[j], pt.Feasible), pt.Units})
	}
	data := struct {
		C       *Comparison
		Rows    []row
		Best    []compareRow
		Summary string
		Plot    template.HTML
	}{C: c, Rows: rows, Best: c.bestRows(), Summary: c.summary(), Plot: c.plot()}
	var buf bytes.Buffer
	if err := compareTemplate.Execute(&buf, data); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// plot draws both sides' feasible points on the first two common
// objectives (nothing when there are fewer than two).
func (c *Comparison) plot() template.HTML {
	if len(c.Common) < 2 {
		return ""
	}
	ox, oy := c.Common[0], c.Common[1]
	p := results.NewPlot()
	p.X.Label.Text, p.Y.Label.Text = compareAxisName(ox.Objective), compareAxisName(oy.Objective)
	var xs, ys []float64
	for _, s := range []struct {
		side   *Side
		kx, ky int
		col    color.RGBA
		shape  draw.GlyphDrawer
	}{
		{c.A, ox.A, oy.A, color.RGBA{0x2b, 0x5c, 0x9e, 0xff}, draw.CircleGlyph{}},
		{c.B, ox.B, oy.B, color.RGBA{0xc0, 0x5a, 0x1e, 0xff}, draw.SquareGlyph{}},
	} {
		var xy plotter.XYs
		for _, pt := range s.side.Points {
			if pt.Feasible {
				xy = append(xy, plotter.XY{X: compareAxisValue(ox.Objective, pt.Values[s.kx]), Y: compareAxisValue(oy.Objective, pt.Values[s.ky])})
			}
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return ""
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: s.col, Radius: vg.Points(3.5), Shape: s.shape}
		p.Add(sc)
		for _, q := range xy {
			xs, ys = append(xs, q.X), append(ys, q.Y)
		}
	}
	if len(xs) == 0 {
		return ""
	}
	// Both sides' points inside the frame, with room around them.
	p.X.Min, p.X.Max = paddedSpan(xs)
	p.Y.Min, p.Y.Max = paddedSpan(ys)
	return results.RenderSVG(600, 400, "both fronts on "+ox.Objective.Name()+" and "+oy.Objective.Name(), func(dc draw.Canvas) { p.Draw(dc) })
}

// paddedSpan is the range of vs widened by 8 % on each side (by 1 when
// all are equal).
func paddedSpan(vs []float64) (float64, float64) {
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	pad := 0.08 * (hi - lo)
	if pad == 0 {
		pad = 1
	}
	return lo - pad, hi + pad
}

func compareAxisName(o configs.Objective) string {
	switch o.Kind {
	case configs.ObjectiveMargin:
		return "margin on execution demand (×)"
	case configs.ObjectiveMaxUtilisation:
		return "busiest core (%)"
	case configs.ObjectiveCoresUsed:
		return "cores used"
	}
	return o.Chain + " (ms)"
}

func compareAxisValue(o configs.Objective, v float64) float64 {
	switch o.Kind {
	case configs.ObjectiveMargin:
		return -v
	case configs.ObjectiveMaxUtilisation:
		return 100 * v
	}
	return v
}

var compareTemplate = template.Must(template.New("compare").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="hetmap">
<title>hetmap compare: {{.C.A.Source}} and {{.C.B.Source}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #1a202c; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border-bottom: 1px solid #e2e8f0; padding: 3px 10px; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
p.note, .note { color: #4a5568; max-width: 60em; }
figure { margin: 0.5em 0 1em; }
</style>
</head>
<body>
<h1>hetmap compare</h1>
<table>
<tr><th>A</th><td>{{.C.A.Source}}</td><td>{{.C.A.Cfg.System.Name}}</td><td>{{.C.A.What}}</td></tr>
<tr><th>B</th><td>{{.C.B.Source}}</td><td>{{.C.B.Cfg.System.Name}}</td><td>{{.C.B.What}}</td></tr>
</table>
<h2>What differs between the two configurations</h2>
{{if .C.Differences}}<ul>{{range .C.Differences}}<li>{{.}}</li>{{end}}</ul>{{else}}<p>Nothing: the differences are the search's.</p>{{end}}
{{if or .C.OnlyA .C.OnlyB}}<p class="note">Objectives of one side only, not compared: A {{range $i, $o := .C.OnlyA}}{{if $i}}, {{end}}{{$o}}{{else}}none{{end}}; B {{range $i, $o := .C.OnlyB}}{{if $i}}, {{end}}{{$o}}{{else}}none{{end}}.</p>{{end}}
<h2>Best value of each side</h2>
<p class="note">Each objective minimised, the margin maximised; B − A. For a chain, in brackets: the lower bound on its minimum at the point with the best value.</p>
<table>
<tr><th>objective</th><th>A</th><th>B</th><th>B − A</th></tr>
{{range .Best}}<tr><td>{{.Name}}</td><td class="num">{{.A}}</td><td class="num">{{.B}}</td><td class="num">{{.Delta}}</td></tr>
{{end}}</table>
<h2>Which points dominate which</h2>
<p class="note">On the {{len .C.Common}} objective(s) both sides minimise: a point dominates another when it is at least as good on every one and better on one. {{.Summary}}</p>
{{if .Plot}}<figure>{{.Plot}}<figcaption class="note">The feasible points of both sides on the first two objectives both minimise: <span style="color:#2b5c9e">● A</span> ({{.C.A.Source}}), <span style="color:#c05a1e">■ B</span> ({{.C.B.Source}}).</figcaption></figure>{{end}}
<table>
<tr><th>point</th><th>margin</th><th>dominates</th><th>mapping</th></tr>
{{range .Rows}}<tr><td>{{.Point}}</td><td class="num">{{.Margin}}</td><td>{{.Dominates}}</td><td>{{.Units}}</td></tr>
{{end}}</table>
{{range .C.Equal}}<p class="note">A{{index . 0}} and B{{index . 1}} have the same objective values.</p>{{end}}
</body>
</html>
`))
