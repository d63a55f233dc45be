package sweep

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// sweepMetric is one measure of a run that summary.html plots.
type sweepMetric struct {
	Name string
	Unit string
	Axis string // the y axis label
	None string // why a parameter value may have no value: "no feasible run"
	of   func(r *Row) (float64, bool)
}

// sweepMetrics lists what summary.html plots: the best value of every
// objective, the front size, the hypervolume (when computed) and the
// feasible share (when known).
func (s *Summary) sweepMetrics() []sweepMetric {
	var ms []sweepMetric
	for i, o := range s.Objectives {
		axis := "best value"
		if s.Units[i] != "" {
			axis += " [" + s.Units[i] + "]"
		}
		ms = append(ms, sweepMetric{Name: "best " + o, Unit: s.Units[i], Axis: axis, None: "no feasible run", of: func(r *Row) (float64, bool) {
			if r.Best == nil {
				return 0, false
			}
			return r.Best[i], true
		}})
	}
	ms = append(ms, sweepMetric{Name: "front size", Axis: "Pareto-optimal mappings", of: func(r *Row) (float64, bool) { return float64(r.FrontSize), true }})
	if s.Reference != nil {
		ms = append(ms, sweepMetric{Name: "hypervolume", Unit: s.HypervolumeUnit(), Axis: "hypervolume [" + s.HypervolumeUnit() + "]", None: "not computed", of: func(r *Row) (float64, bool) { return r.Hypervolume, !math.IsNaN(r.Hypervolume) }})
	}
	known := false
	for i := range s.Rows {
		known = known || !math.IsNaN(s.Rows[i].FeasibleShare)
	}
	if known {
		ms = append(ms, sweepMetric{Name: "feasible share", Axis: "feasible / evaluated", None: "not recorded", of: func(r *Row) (float64, bool) { return r.FeasibleShare, !math.IsNaN(r.FeasibleShare) }})
	}
	return ms
}

// sweepAxis is a parameter the plots put on their x axis: its values and,
// per run, the index of the run's value.
type sweepAxis struct {
	Label   string
	Values  []string
	Display []string // the values for people
	of      func(r *Row) string
}

// sweepAxes are the parameters with at least two values; with none, the
// seed when there are several.
func (s *Summary) sweepAxes() []sweepAxis {
	var axes []sweepAxis
	for k, p := range s.Parameters {
		if len(p.Values) >= 2 {
			axes = append(axes, sweepAxis{Label: p.Label, Values: p.Values, Display: p.Display, of: func(r *Row) string { return r.Settings[k] }})
		}
	}
	if len(axes) == 0 {
		seen := map[int64]bool{}
		var seeds []int64
		for _, r := range s.Rows {
			if !seen[r.Seed] {
				seen[r.Seed] = true
				seeds = append(seeds, r.Seed)
			}
		}
		if len(seeds) >= 2 {
			sort.Slice(seeds, func(a, b int) bool { return seeds[a] < seeds[b] })
			var vals []string
			for _, x := range seeds {
				vals = append(vals, strconv.FormatInt(x, 10))
			}
			axes = append(axes, sweepAxis{Label: "seed", Values: vals, Display: vals, of: func(r *Row) string { return strconv.FormatInt(r.Seed, 10) }})
		}
	}
	return axes
}

// sweepStat is the spread of a measure over the runs with one value of a
// parameter: the seeds and every value of the other parameters.
type sweepStat struct {
	X                     float64
	N                     int
	Min, Q1, Med, Q3, Max float64
	HasBox                bool
}

// sweepQuantile is the p-quantile of sorted data, interpolated linearly
// between order statistics (the common definition, R's type 7 and numpy's
// default), so that the median of an even count is the mean of the middle
// two.
func sweepQuantile(sorted []float64, p float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

func sweepStats(s *Summary, ax sweepAxis, m sweepMetric) []sweepStat {
	by := make([][]float64, len(ax.Values))
	index := map[string]int{}
	for i, v := range ax.Values {
		index[v] = i
	}
	for i := range s.Rows {
		r := &s.Rows[i]
		k, ok := index[ax.of(r)]
		if !ok {
			continue
		}
		if v, ok := m.of(r); ok {
			by[k] = append(by[k], v)
		}
	}
	stats := make([]sweepStat, len(ax.Values))
	for i, vs := range by {
		st := sweepStat{X: float64(i), N: len(vs)}
		if len(vs) > 0 {
			sort.Float64s(vs)
			st.Min, st.Max = vs[0], vs[len(vs)-1]
			st.Q1, st.Med, st.Q3 = sweepQuantile(vs, 0.25), sweepQuantile(vs, 0.5), sweepQuantile(vs, 0.75)
			st.HasBox = true
		}
		stats[i] = st
	}
	return stats
}

// sweepSpread draws, per x, the min–max whisker, the quartile box and the
// median, and joins the medians with a line; a value without any run that
// has the measure (a best value where no run is feasible) says so, rather
// than leaving an empty column.
type sweepSpread struct {
	stats []sweepStat
	color color.Color
	none  string // what a value without runs lacks, e.g. "no feasible run"
}

const sweepBoxHalf = vg.Length(7)

func (sp *sweepSpread) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	thin := draw.LineStyle{Color: sp.color, Width: vg.Points(1)}
	thick := draw.LineStyle{Color: sp.color, Width: vg.Points(2.5)}
	fill := color.NRGBA{R: 0x4c, G: 0x78, B: 0xa8, A: 0x40}
	var medians []vg.Point
	note := results.TextStyle(8)
	note.Color = color.Gray{Y: 0x70}
	note.Rotation = math.Pi / 2
	note.XAlign, note.YAlign = draw.XCenter, draw.YCenter
	for _, st := range sp.stats {
		if !st.HasBox {
			c.FillText(note, vg.Point{X: trX(st.X), Y: (c.Min.Y + c.Max.Y) / 2}, sp.none)
			continue
		}
		x := trX(st.X)
		c.StrokeLine2(thin, x, trY(st.Min), x, trY(st.Max))
		c.StrokeLine2(thin, x-sweepBoxHalf/2, trY(st.Min), x+sweepBoxHalf/2, trY(st.Min))
		c.StrokeLine2(thin, x-sweepBoxHalf/2, trY(st.Max), x+sweepBoxHalf/2, trY(st.Max))
		box := vg.Rectangle{Min: vg.Point{X: x - sweepBoxHalf, Y: trY(st.Q1)}, Max: vg.Point{X: x + sweepBoxHalf, Y: trY(st.Q3)}}
		c.SetColor(fill)
		c.Fill(box.Path())
		c.StrokeLines(thin, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}, box.Min})
		c.StrokeLine2(thick, x-sweepBoxHalf, trY(st.Med), x+sweepBoxHalf, trY(st.Med))
		medians = append(medians, vg.Point{X: x, Y: trY(st.Med)})
	}
	if len(medians) > 1 {
		c.StrokeLines(draw.LineStyle{Color: sp.color, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}, medians)
	}
}

func (sp *sweepSpread) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = -0.5, float64(len(sp.stats))-0.5
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, st := range sp.stats {
		if st.HasBox {
			ymin, ymax = min(ymin, st.Min), max(ymax, st.Max)
		}
	}
	switch {
	case math.IsInf(ymin, 1):
		ymin, ymax = 0, 1
	case ymin == ymax:
		d := math.Max(math.Abs(ymin)*0.05, 0.5)
		ymin, ymax = ymin-d, ymax+d
	}
	return xmin, xmax, ymin, ymax
}

func (sp *sweepSpread) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	var out []plot.GlyphBox
	for _, st := range sp.stats {
		if !st.HasBox {
			continue
		}
		for _, y := range []float64{st.Min, st.Max} {
			out = append(out, plot.GlyphBox{X: plt.X.Norm(st.X), Y: plt.Y.Norm(y),
				Rectangle: vg.Rectangle{Min: vg.Point{X: -sweepBoxHalf, Y: -2}, Max: vg.Point{X: sweepBoxHalf, Y: 2}}})
		}
	}
	return out
}

// sweepPlotSVG draws one measure against one parameter as inline SVG.
func sweepPlotSVG(ax sweepAxis, m sweepMetric, stats []sweepStat) (string, error) {
	p := plot.New()
	sans := func(f *font.Font) { f.Typeface, f.Variant = "Liberation", "Sans" }
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font, &p.X.Tick.Label.Font, &p.Y.Tick.Label.Font} {
		sans(f)
	}
	p.X.Label.Text = ax.Label
	// The section names the measure; the axis says what it counts.
	p.Y.Label.Text = m.Axis
	p.NominalX(ax.Display...)
	p.Y.Tick.Marker = results.NiceTicks{N: 5}
	p.Add(&sweepSpread{stats: stats, color: color.NRGBA{R: 0x1f, G: 0x4e, B: 0x79, A: 0xff}, none: m.None})
	p.Y.Padding = vg.Points(4)
	c := vgsvg.New(4.2*vg.Inch, 2.8*vg.Inch)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", err
	}
	svg := buf.String()
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:] // no XML prolog inside HTML
	}
	return svg, nil
}

type sweepFigure struct {
	SVG     template.HTML
	Caption string
}

type sweepSection struct {
	Metric  string
	Figures []sweepFigure
}

type sweepHTMLRow struct {
	Run        int
	Folder     string
	Cells      []string // after the run: the parameters, then the measures
	Infeasible bool
	Link       string // the run folder, or its report.html
}

type sweepPage struct {
	S         *Summary
	Feasible  int
	Seeds     string
	Reference string
	Header    []string
	Rows      []sweepHTMLRow
	Sections  []sweepSection
	NoPlots   bool
	// Request names the request count's hardware assumption when a run
	// of the sweep uses that count (analysis.contention: request).
	Request string
	// Proofs counts the runs by what their fronts are proven to be
	// ("2 exact (exhaustive), 4 heuristic (nsga2)"); Mixed says that the
	// plots pool fronts of different kinds.
	Proofs string
	Mixed  bool
}

// WriteHTML writes summary.html: a self-contained page (inline SVG
// drawn with gonum/plot, inline CSS, no scripts, nothing fetched) with the
// sweep's overview, one plot per measure and parameter (the best value of
// every objective, front size, hypervolume, feasible share against each
// parameter with at least two values: median, quartiles and min–max over
// the runs with that value) and the table of runs.
func WriteHTML(w io.Writer, s *Summary) error {
	pg := sweepPage{S: s, Header: s.CSVHeader()}
	seeds := map[int64]bool{}
	var seedList []string
	for _, r := range s.Rows {
		if r.Feasible {
			pg.Feasible++
		}
		if !seeds[r.Seed] {
			seeds[r.Seed] = true
			seedList = append(seedList, strconv.FormatInt(r.Seed, 10))
		}
	}
	pg.Seeds = strings.Join(seedList, ", ")
	kinds := map[string]int{}
	var kindList []string
	for _, r := range s.Rows {
		k := r.Exactness + " (" + r.Algorithm + ")"
		if kinds[k] == 0 {
			kindList = append(kindList, k)
		}
		kinds[k]++
	}
	sort.Strings(kindList)
	var proofs []string
	for _, k := range kindList {
		proofs = append(proofs, fmt.Sprintf("%d %s", kinds[k], k))
	}
	pg.Proofs, pg.Mixed = strings.Join(proofs, ", "), len(kindList) > 1
	for _, p := range s.Parameters {
		if p.Label != "analysis.contention" {
			continue
		}
		for _, v := range p.Values {
			if v == configs.ContentionRequest.String() {
				pg.Request = configs.RequestAssumption
			}
		}
	}
	if s.Reference != nil {
		var parts []string
		for _, v := range s.Reference {
			parts = append(parts, strconv.FormatFloat(v, 'g', 8, 64))
		}
		pg.Reference = "(" + strings.Join(parts, ", ") + ")"
	}
	// The runs table: summary.csv's columns less the folder, which the run
	// number links (and names on hover), and the parameters for people.
	pg.Header = append([]string{pg.Header[0]}, pg.Header[2:]...)
	for i := range s.Rows {
		r := &s.Rows[i]
		link := r.Folder + "/"
		if r.Report {
			link += "report.html"
		}
		cells := s.csvRow(r)[2:]
		for k := range r.Settings {
			cells[k] = displayValue(s.Parameters[k].Type, r.Settings[k])
		}
		pg.Rows = append(pg.Rows, sweepHTMLRow{Run: r.Run, Folder: r.Folder, Cells: cells, Infeasible: !r.Feasible, Link: link})
	}
	axes := s.sweepAxes()
	for _, m := range s.sweepMetrics() {
		sec := sweepSection{Metric: m.Name}
		if m.Unit != "" {
			sec.Metric += " [" + m.Unit + "]"
		}
		for _, ax := range axes {
			stats := sweepStats(s, ax, m)
			svg, err := sweepPlotSVG(ax, m, stats)
			if err != nil {
				return err
			}
			var counts []string
			for i, st := range stats {
				counts = append(counts, fmt.Sprintf("%s: %d", ax.Display[i], st.N))
			}
			sec.Figures = append(sec.Figures, sweepFigure{SVG: template.HTML(svg),
				Caption: fmt.Sprintf("%s against %s (runs with a value: %s)", m.Name, ax.Label, strings.Join(counts, ", "))})
		}
		if len(sec.Figures) > 0 {
			pg.Sections = append(pg.Sections, sec)
		}
	}
	pg.NoPlots = len(pg.Sections) == 0
	return sweepTemplate.Execute(w, pg)
}

// breakable is a column head that may break after "_", "." and "/",
// and before "[", where a long parameter or column name can wrap instead
// of spilling into the next column.
func breakable(s string) template.HTML {
	var b strings.Builder
	for _, r := range s {
		if r == '[' {
			b.WriteString("<wbr>")
		}
		b.WriteString(template.HTMLEscapeString(string(r)))
		if r == '_' || r == '.' || r == '/' {
			b.WriteString("<wbr>")
		}
	}
	return template.HTML(b.String())
}

var sweepTemplate = template.Must(template.New("sweep").Funcs(template.FuncMap{"breakable": breakable}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>hetmap sweep {{.S.File}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; margin: 1.5em 1.5em; color: #1d2430; background: #fff; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; border-bottom: 1px solid #c8d0dc; padding-bottom: 0.2em; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
p.note { color: #4a5568; max-width: 60em; }
p.warn { background: #fff4e5; border-left: 4px solid #f0a030; padding: 6px 10px; max-width: 60em; }
table { border-collapse: collapse; font-size: 0.85em; }
table.runs { font-size: 0.8em; }
th, td { border: 1px solid #d5dbe3; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #eef2f7; }
table.runs td { font-variant-numeric: tabular-nums; white-space: nowrap; }
table.runs th { white-space: normal; max-width: 8em; vertical-align: bottom; }
table.runs th, table.runs td { padding: 0.2em 0.35em; }
table.runs tr.infeasible td { color: #9b2c2c; }
div.wide { overflow-x: auto; }
div.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; border: 1px solid #e2e8f0; padding: 0.4em; background: #fbfcfd; }
figure svg { display: block; }
figcaption { font-size: 0.8em; color: #4a5568; max-width: 30em; }
</style>
</head>
<body>
<h1>hetmap sweep: {{.S.File}}</h1>
{{if .S.Description}}<p>{{.S.Description}}</p>{{end}}
<section id="overview">
<h2>Overview</h2>
<table>
<tr><th>base</th><td>{{.S.Base}}</td></tr>
<tr><th>runs</th><td>{{len .S.Rows}} ({{.Feasible}} with a feasible mapping)</td></tr>
{{range .S.Parameters}}<tr><th>{{.Label}}</th><td>{{range $i, $v := .Display}}{{if $i}}, {{end}}{{$v}}{{end}}</td></tr>
{{end}}<tr><th>seeds</th><td>{{.Seeds}}</td></tr>
<tr><th>fronts</th><td>{{.Proofs}}</td></tr>
<tr><th>objectives</th><td>{{range $i, $o := .S.Objectives}}{{if $i}}; {{end}}{{$o}}{{end}}</td></tr>
{{if .Reference}}<tr><th>hypervolume</th><td>the volume of the objective space that a run's front dominates, up to the reference point, in {{.S.HypervolumeUnit}} (the product of the objectives' units: ms per latency; counts and shares have none); larger is better</td></tr>
<tr><th>hypervolume reference</th><td>{{.Reference}} (10 % beyond the worst value of every objective over the fronts of all runs)</td></tr>
{{end}}</table>
{{if .Request}}<p class="note">The runs with analysis.contention request count at most one contended access per line request of another memory user; this assumes {{.Request}}.</p>{{end}}
</section>
<section id="plots">
<h2>How the results move with each parameter</h2>
<p class="note">Each plot groups the runs by one parameter's value. The box spans the quartiles, the thick line is the median (the dashed line joins the medians), the whiskers reach the least and the greatest value, over the seeds and every value of the other parameters. Best values count only the runs with a feasible mapping; an infeasible run has front size 0 and hypervolume 0.</p>
{{if .Mixed}}<p class="warn">The runs' fronts are not of one kind ({{.Proofs}}): an exact front is the best there is, a heuristic one the best a genetic search met. The plots pool them; compare values of one kind (the runs table's algorithm and exactness columns).</p>{{end}}
{{if .NoPlots}}<p class="note">No parameter has two values or more: nothing to plot.</p>{{end}}
{{range .Sections}}<h3>{{.Metric}}</h3>
<div class="plots">
{{range .Figures}}<figure>
{{.SVG}}
<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}</div>
{{end}}</section>
<section id="runs">
<h2>Runs</h2>
<div class="wide"><table class="runs">
<tr>{{range .Header}}<th>{{breakable .}}</th>{{end}}</tr>
{{range .Rows}}<tr{{if .Infeasible}} class="infeasible"{{end}}><td><a href="{{.Link}}" title="{{.Folder}}">{{.Run}}</a></td>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></div>
</section>
</body>
</html>
`))
