package report

import (
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/hetmap/hetmap/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The report's plots are drawn as results' plots are (results.RenderSVG,
// results.NewPlot, results.TextStyle), one SVG per plot, inlined into the
// page.

// plotWidth is the width of a full-width plot (900 pt = 1200 CSS px).
const plotWidth = 900 * vg.Length(1)

func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
}

func closed(pts []vg.Point) []vg.Point { return append(pts, pts[0]) }

// taskPalette holds mid-tone fills that keep black labels readable; a GPU
// task takes its offloading task's colour.
var taskPalette = []color.RGBA{
	{0x7a, 0xa6, 0xd6, 0xff}, {0xf3, 0xa1, 0x5a, 0xff}, {0x8f, 0xc1, 0x70, 0xff}, {0xe2, 0x7c, 0x7c, 0xff},
	{0xc3, 0x9b, 0xc8, 0xff}, {0xed, 0xc9, 0x48, 0xff}, {0x7c, 0xc6, 0xc0, 0xff}, {0xff, 0x9d, 0xa7, 0xff},
	{0xb9, 0xa4, 0x8e, 0xff}, {0x9e, 0xca, 0xe9, 0xff}, {0xd4, 0xb9, 0xda, 0xff}, {0xb5, 0xd6, 0x8f, 0xff},
}

func paletteColor(i int) color.RGBA {
	i = max(i, 0)
	c := taskPalette[i%len(taskPalette)]
	if round := i / len(taskPalette); round > 0 { // darker on later rounds
		f := math.Pow(0.8, float64(round%3))
		c.R, c.G, c.B = uint8(float64(c.R)*f), uint8(float64(c.G)*f), uint8(float64(c.B)*f)
	}
	return c
}

// lighten mixes c with white (f = 1: white).
func lighten(c color.RGBA, f float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(math.Round(float64(v) + (255-float64(v))*f)) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

func darken(c color.RGBA, f float64) color.RGBA {
	mul := func(v uint8) uint8 { return uint8(math.Round(float64(v) * (1 - f))) }
	return color.RGBA{mul(c.R), mul(c.G), mul(c.B), 0xff}
}

func cssColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

var (
	gridGrey = color.Gray{Y: 0xdd}
	laneGrey = color.Gray{Y: 0xf3}
	edgeGrey = color.Gray{Y: 0x55}
	missRed  = color.RGBA{0xc6, 0x28, 0x28, 0xff}
	// contentionFill is the part of a core's demand bar the contention
	// count charges (refined, request), hatched.
	contentionFill = color.RGBA{0x9e, 0x9e, 0x9e, 0xff}
	inkColour      = color.Gray{Y: 0x22}
)

// hatch strokes diagonal lines over a rectangle (busy-waits, sampling).
func hatch(c draw.Canvas, x0, y0, x1, y1 vg.Length, clr color.Color) {
	if x1-x0 < vg.Points(1.5) {
		return
	}
	// One path for all the lines keeps the SVG small.
	c.SetLineStyle(draw.LineStyle{Color: clr, Width: vg.Points(0.6)})
	var path vg.Path
	step := vg.Points(4)
	h := y1 - y0
	for x := x0 - h; x < x1; x += step {
		ax, ay, bx, by := x, y0, x+h, y1
		if ax < x0 { // clip to the rectangle
			ay += x0 - ax
			ax = x0
		}
		if bx > x1 {
			by -= bx - x1
			bx = x1
		}
		if bx > ax {
			path.Move(vg.Point{X: ax, Y: ay})
			path.Line(vg.Point{X: bx, Y: by})
		}
	}
	if len(path) > 0 {
		c.Stroke(path)
	}
}

// fitText writes s centred in [x0, x1] at y when it fits.
func fitText(c draw.Canvas, sty text.Style, x0, x1, y vg.Length, s string) bool {
	if sty.Width(s)+vg.Points(3) > x1-x0 {
		return false
	}
	c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: y}, s)
	return true
}

// laneAxis makes p's Y axis one of n lanes (bars, timeline rows), lane i
// named name(i), the first on top: lane i is at y = n−1−i, labelled, with
// no tick marks, axis line or padding.
func laneAxis(p *plot.Plot, n int, name func(i int) string) {
	names := make([]string, n)
	for i := range n {
		names[n-1-i] = name(i)
	}
	p.Y.Tick.Marker = laneTicks(names)
	p.Y.Tick.Length = 0
	p.Y.LineStyle.Width = 0
	p.Y.Padding = 0
}

// laneTicks labels a categorical axis: value i carries names[i].
type laneTicks []string

// Ticks implements plot.Ticker.
func (l laneTicks) Ticks(_, _ float64) []plot.Tick {
	ts := make([]plot.Tick, len(l))
	for i, n := range l {
		ts[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return ts
}

// noTicks draws no tick at all.
type noTicks struct{}

// Ticks implements plot.Ticker.
func (noTicks) Ticks(_, _ float64) []plot.Tick { return nil }

// plotterFunc adapts a function and a data range to plot.Plotter.
type plotterFunc struct {
	draw                   func(draw.Canvas, *plot.Plot)
	xmin, xmax, ymin, ymax float64
}

func (f plotterFunc) Plot(c draw.Canvas, p *plot.Plot) { f.draw(c, p) }

func (f plotterFunc) DataRange() (xmin, xmax, ymin, ymax float64) {
	return f.xmin, f.xmax, f.ymin, f.ymax
}

// gridX draws vertical grid lines at the labelled ticks of the x axis.
func gridX(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if t.Label == "" || t.Value < p.X.Min || t.Value > p.X.Max {
			continue
		}
		x := trX(t.Value)
		c.StrokeLine2(draw.LineStyle{Color: gridGrey, Width: vg.Points(0.5)}, x, c.Min.Y, x, c.Max.Y)
	}
}

// A bar is one stacked bar of a horizontal bar chart: its parts, from 0.
type bar struct {
	label string
	parts []barPart
	// total is written at the bar's end.
	total string
	// note replaces the bar when it has no parts (e.g. a chain without a
	// latency).
	note string
	// lo and hi, when hi > 0, are a range drawn as a line under the bar
	// (a chain's minimum to maximum).
	lo, hi float64
}

type barPart struct {
	value float64
	fill  color.RGBA
	// hatched parts are drawn light with diagonal lines.
	hatched bool
	label   string
}

// barChart draws horizontal stacked bars, one row per bar, the first on top.
func barChart(bars []bar, xlabel string, xmax float64, refLine float64, ariaLabel string) template.HTML {
	p := results.NewPlot()
	p.X.Label.Text = xlabel
	laneAxis(p, len(bars), func(i int) string { return bars[i].label })
	totalStyle := results.TextStyle(8.5)
	totalStyle.XAlign = draw.XLeft
	labelStyle := results.TextStyle(7.5)
	// Room for the totals written after the bars.
	longest := vg.Length(0)
	for _, b := range bars {
		longest = max(longest, totalStyle.Width(b.total))
	}
	n := float64(len(bars))
	p.Add(plotterFunc{xmin: 0, xmax: xmax, ymin: -0.5, ymax: n - 0.5, draw: func(c draw.Canvas, p *plot.Plot) {
		gridX(c, p)
		trX, trY := p.Transforms(&c)
		if refLine > 0 && refLine <= p.X.Max {
			x := trX(refLine)
			c.StrokeLine2(draw.LineStyle{Color: missRed, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}, x, c.Min.Y, x, c.Max.Y)
		}
		for i, b := range bars {
			y := float64(len(bars) - 1 - i)
			y0, y1 := trY(y-0.32), trY(y+0.32)
			at := 0.0
			for _, part := range b.parts {
				x0, x1 := trX(at), trX(at+part.value)
				at += part.value
				if x1 <= x0 {
					continue
				}
				fill := part.fill
				if part.hatched {
					fill = lighten(part.fill, 0.55)
				}
				c.FillPolygon(fill, rect(x0, y0, x1, y1))
				if part.hatched {
					hatch(c, x0, y0, x1, y1, darken(part.fill, 0.15))
				}
				if x1-x0 > vg.Points(1.2) {
					c.StrokeLines(draw.LineStyle{Color: edgeGrey, Width: vg.Points(0.4)}, closed(rect(x0, y0, x1, y1)))
				}
				if part.label != "" {
					fitText(c, labelStyle, x0, x1, (y0+y1)/2, part.label)
				}
			}
			if b.hi > 0 {
				// The range, in the gap under the bar, with end ticks.
				ry, tick := trY(y-0.42), vg.Points(2.5)
				x0, x1 := trX(b.lo), trX(b.hi)
				ls := draw.LineStyle{Color: edgeGrey, Width: vg.Points(1.2)}
				c.StrokeLine2(ls, x0, ry, x1, ry)
				c.StrokeLine2(ls, x0, ry-tick, x0, ry+tick)
				c.StrokeLine2(ls, x1, ry-tick, x1, ry+tick)
			}
			if b.note != "" && len(b.parts) == 0 {
				c.FillText(totalStyle, vg.Point{X: trX(0) + vg.Points(4), Y: (y0 + y1) / 2}, b.note)
			}
			if b.total != "" {
				// After the bar, or after the reference line where the
				// text would cross it.
				x := trX(at) + vg.Points(4)
				if refLine > 0 && refLine <= p.X.Max {
					if line := trX(refLine); x < line+vg.Points(3) && x+totalStyle.Width(b.total) > line-vg.Points(3) {
						x = line + vg.Points(4)
					}
				}
				c.FillText(totalStyle, vg.Point{X: x, Y: (y0 + y1) / 2}, b.total)
			}
		}
	}})
	p.X.Min, p.X.Max = 0, xmax
	h := vg.Length(n)*vg.Points(24) + vg.Points(58)
	// Leave the totals room on the right: extend the axis by their width.
	return results.RenderSVG(plotWidth, h, ariaLabel, func(dc draw.Canvas) {
		area := draw.Crop(dc, 0, -longest-vg.Points(12), 0, 0)
		p.Draw(area)
	})
}

// ganttLane is one row of a timeline.
type ganttLane struct {
	name     string
	segments []ganttSegment
	waits    []ganttSegment // drawn as a line under the lane (suspensions)
	misses   []float64      // ms: a job's deadline passed unfinished
}

type ganttSegment struct {
	start, end float64 // ms
	fill       color.RGBA
	hatched    bool
	outline    bool // copies: a darker edge
	label      string
}

// ganttChart draws lanes (the first on top) over [0, window] ms.
func ganttChart(lanes []ganttLane, window float64, ariaLabel string) template.HTML {
	p := results.NewPlot()
	p.X.Label.Text = "time since the synchronous release [ms]"
	laneAxis(p, len(lanes), func(i int) string { return lanes[i].name })
	p.X.Tick.Marker = results.NiceTicks{N: 16}
	labelStyle := results.TextStyle(7.5)
	n := float64(len(lanes))
	p.Add(plotterFunc{xmin: 0, xmax: window, ymin: -0.5, ymax: n - 0.5, draw: func(c draw.Canvas, p *plot.Plot) {
		trX, trY := p.Transforms(&c)
		x0, x1 := trX(0), trX(window)
		for i := range lanes {
			y := float64(len(lanes) - 1 - i)
			c.FillPolygon(laneGrey, rect(x0, trY(y-0.38), x1, trY(y+0.38)))
		}
		gridX(c, p)
		edge := draw.LineStyle{Color: edgeGrey, Width: vg.Points(0.35)}
		for i, l := range lanes {
			y := float64(len(lanes) - 1 - i)
			y0, y1 := trY(y-0.3), trY(y+0.3)
			for _, s := range l.segments {
				sx0, sx1 := trX(s.start), trX(s.end)
				if sx1-sx0 < vg.Points(0.4) { // keep every segment visible
					sx1 = sx0 + vg.Points(0.4)
				}
				fill := s.fill
				if s.hatched {
					fill = lighten(s.fill, 0.5)
				}
				c.FillPolygon(fill, rect(sx0, y0, sx1, y1))
				if s.hatched {
					hatch(c, sx0, y0, sx1, y1, darken(s.fill, 0.2))
				}
				if s.outline {
					c.StrokeLines(draw.LineStyle{Color: inkColour, Width: vg.Points(0.6)}, closed(rect(sx0, y0, sx1, y1)))
				} else if sx1-sx0 > vg.Points(2) {
					c.StrokeLines(edge, closed(rect(sx0, y0, sx1, y1)))
				}
				if s.label != "" {
					fitText(c, labelStyle, sx0, sx1, (y0+y1)/2, s.label)
				}
			}
			wy := trY(y - 0.36)
			for _, w := range l.waits {
				c.StrokeLine2(draw.LineStyle{Color: darken(w.fill, 0.25), Width: vg.Points(1.6), Dashes: []vg.Length{vg.Points(3), vg.Points(1.5)}},
					trX(w.start), wy, trX(w.end), wy)
			}
			for _, m := range l.misses {
				c.DrawGlyph(draw.GlyphStyle{Color: missRed, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}, vg.Point{X: trX(m), Y: trY(y + 0.38)})
			}
		}
	}})
	p.X.Min, p.X.Max = 0, window
	h := vg.Length(n)*vg.Points(30) + vg.Points(52)
	return results.RenderSVG(plotWidth, h, ariaLabel, func(dc draw.Canvas) { p.Draw(dc) })
}

// frontAxis is one objective of the front plots.
type frontAxis struct {
	name string    // short, e.g. the chain's name
	unit string    // "ms", "cores", "%"
	vals []float64 // per point, in the axis unit
}

func (a frontAxis) label() string {
	if a.unit == "" {
		return a.name
	}
	return a.name + " [" + a.unit + "]"
}

// span returns the axis range padded by 8 % (a constant axis gets ±1 or
// ±5 %).
func span(vals []float64) (float64, float64) {
	lo, hi := slices.Min(vals), slices.Max(vals)
	if hi-lo < 1e-9*math.Max(1, math.Abs(hi)) {
		d := math.Max(math.Abs(hi)*0.05, 1)
		return lo - d, hi + d
	}
	pad := (hi - lo) * 0.08
	return lo - pad, hi + pad
}

// labelGroups joins the IDs of points at the same place: "2, 5".
func labelGroups(xs, ys []float64, ids []int) (gx, gy []float64, labels []string) {
	type key struct{ x, y float64 }
	at := map[key]int{}
	for i := range xs {
		k := key{xs[i], ys[i]}
		if j, ok := at[k]; ok {
			labels[j] += ", " + strconv.Itoa(ids[i])
			continue
		}
		at[k] = len(gx)
		gx, gy, labels = append(gx, xs[i]), append(gy, ys[i]), append(labels, strconv.Itoa(ids[i]))
	}
	return gx, gy, labels
}

// scatterTile draws the points of a front projected on two objectives, each
// numbered.
func scatterTile(x, y frontAxis, ids []int, xLabel, yLabel bool) *plot.Plot {
	p := results.NewPlot()
	if xLabel {
		p.X.Label.Text = x.label()
	}
	if yLabel {
		p.Y.Label.Text = y.label()
	}
	p.X.Tick.Marker = results.NiceTicks{N: 4}
	p.Y.Tick.Marker = results.NiceTicks{N: 4}
	p.X.Min, p.X.Max = span(x.vals)
	p.Y.Min, p.Y.Max = span(y.vals)
	gx, gy, labels := labelGroups(x.vals, y.vals, ids)
	idStyle := results.TextStyle(8.5)
	idStyle.XAlign, idStyle.YAlign = draw.XLeft, draw.YBottom
	p.Add(plotterFunc{xmin: p.X.Min, xmax: p.X.Max, ymin: p.Y.Min, ymax: p.Y.Max, draw: func(c draw.Canvas, p *plot.Plot) {
		gridX(c, p)
		trX, trY := p.Transforms(&c)
		pts := make([]vg.Point, len(gx))
		for i := range gx {
			pts[i] = vg.Point{X: trX(gx[i]), Y: trY(gy[i])}
			c.DrawGlyph(draw.GlyphStyle{Color: color.RGBA{0x2b, 0x5c, 0x9e, 0xff}, Radius: vg.Points(3.2), Shape: draw.CircleGlyph{}}, pts[i])
		}
		// Points whose markers touch get one label, listing them.
		boxes, clabels := clusterLabels(pts, labels, vg.Points(3.2))
		for i, pl := range placeLabels(c.Rectangle, boxes, clabels, idStyle) {
			if pl.far {
				centre := vg.Point{X: (boxes[i].Min.X + boxes[i].Max.X) / 2, Y: (boxes[i].Min.Y + boxes[i].Max.Y) / 2}
				c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 0x88}, Width: vg.Points(0.4)}, centre.X, centre.Y, pl.anchor.X, pl.anchor.Y)
			}
			c.FillText(idStyle, pl.at, clabels[i])
		}
	}})
	return p
}

// clusterLabels groups markers (of the given radius) that touch or nearly
// touch, transitively, and returns per group the box around its markers
// and one label listing theirs, "1, 2, 6", in the order given.
func clusterLabels(pts []vg.Point, labels []string, radius vg.Length) ([]vg.Rectangle, []string) {
	group := make([]int, len(pts))
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			i = group[i]
		}
		return i
	}
	near := 2*radius + vg.Points(2)
	for i := range pts {
		for j := range i {
			if dx, dy := pts[i].X-pts[j].X, pts[i].Y-pts[j].Y; dx*dx+dy*dy < near*near {
				if a, b := find(i), find(j); a != b {
					group[max(a, b)] = min(a, b)
				}
			}
		}
	}
	var boxes []vg.Rectangle
	var out []string
	at := map[int]int{}
	for i, p := range pts {
		r := vg.Rectangle{Min: vg.Point{X: p.X - radius, Y: p.Y - radius}, Max: vg.Point{X: p.X + radius, Y: p.Y + radius}}
		g := find(i)
		k, ok := at[g]
		if !ok {
			at[g] = len(boxes)
			boxes, out = append(boxes, r), append(out, labels[i])
			continue
		}
		b := &boxes[k]
		b.Min.X, b.Min.Y = min(b.Min.X, r.Min.X), min(b.Min.Y, r.Min.Y)
		b.Max.X, b.Max.Y = max(b.Max.X, r.Max.X), max(b.Max.Y, r.Max.Y)
		out[k] += ", " + labels[i]
	}
	return boxes, out
}

// placedLabel is where placeLabels puts a label: the lower-left corner of
// its text, and, for a label set apart from its markers, the point of the
// label's box nearest to them, for a leader line.
type placedLabel struct {
	at     vg.Point
	far    bool
	anchor vg.Point
}

// labelGap is the least space between a label and any other label or
// marker.
const labelGap = vg.Length(3)

// placeLabels places the label of every group of markers (its box) next to
// it where it comes no closer than labelGap to any marker or label placed
// before and stays inside the area: right, left, above, below or
// diagonally, at three distances (the farthest with a leader line); where
// every place overlaps, the one that overlaps least.
func placeLabels(area vg.Rectangle, boxes []vg.Rectangle, labels []string, sty text.Style) []placedLabel {
	taken := append([]vg.Rectangle(nil), boxes...)
	overlap := func(a vg.Rectangle) vg.Length {
		var sum vg.Length
		for _, b := range taken {
			w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X) + labelGap
			h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y) + labelGap
			if w > 0 && h > 0 {
				sum += w * h
			}
		}
		// Outside the area counts as overlap too.
		if a.Min.X < area.Min.X || a.Max.X > area.Max.X || a.Min.Y < area.Min.Y || a.Max.Y > area.Max.Y {
			sum += (a.Max.X - a.Min.X) * (a.Max.Y - a.Min.Y)
		}
		return sum
	}
	out := make([]placedLabel, len(boxes))
	for i, box := range boxes {
		w, h := sty.Width(labels[i]), sty.Height(labels[i])
		mid := vg.Point{X: (box.Min.X + box.Max.X) / 2, Y: (box.Min.Y + box.Max.Y) / 2}
		var best vg.Rectangle
		bestFar := false
		bestCost := vg.Length(math.Inf(1))
		for ring, d := range []vg.Length{vg.Points(1.5), vg.Points(5), vg.Points(14)} {
			for _, c := range []vg.Point{
				{X: box.Max.X + d, Y: mid.Y + vg.Points(0.5)}, {X: box.Max.X + d, Y: mid.Y - h - vg.Points(0.5)},
				{X: box.Min.X - d - w, Y: mid.Y + vg.Points(0.5)}, {X: box.Min.X - d - w, Y: mid.Y - h - vg.Points(0.5)},
				{X: mid.X - w/2, Y: box.Max.Y + d}, {X: mid.X - w/2, Y: box.Min.Y - d - h},
				{X: box.Max.X + d, Y: box.Max.Y + d}, {X: box.Min.X - d - w, Y: box.Max.Y + d},
				{X: box.Max.X + d, Y: box.Min.Y - d - h}, {X: box.Min.X - d - w, Y: box.Min.Y - d - h},
			} {
				r := vg.Rectangle{Min: c, Max: vg.Point{X: c.X + w, Y: c.Y + h}}
				if cost := overlap(r); cost < bestCost {
					best, bestCost, bestFar = r, cost, ring == 2
				}
				if bestCost == 0 {
					break
				}
			}
			if bestCost == 0 {
				break
			}
		}
		taken = append(taken, best)
		anchor := vg.Point{X: min(max(mid.X, best.Min.X), best.Max.X), Y: min(max(mid.Y, best.Min.Y), best.Max.Y)}
		out[i] = placedLabel{at: best.Min, far: bestFar, anchor: anchor}
	}
	return out
}

// scatterMatrix draws the front as a scatter plot (2 objectives), a scatter
// matrix (3 or 4), a strip (1), each point numbered.
func scatterMatrix(axes []frontAxis, ids []int) template.HTML {
	k := len(axes)
	if k == 1 {
		y := frontAxis{vals: make([]float64, len(ids))}
		p := scatterTile(axes[0], y, ids, true, false)
		p.Y.Tick.Marker = noTicks{}
		return results.RenderSVG(plotWidth, vg.Points(150), "the front on its objective", func(dc draw.Canvas) { p.Draw(dc) })
	}
	if k == 2 {
		p := scatterTile(axes[0], axes[1], ids, true, true)
		return results.RenderSVG(vg.Points(560), vg.Points(400), "the front on its two objectives", func(dc draw.Canvas) { p.Draw(dc) })
	}
	tile := min(vg.Points(235), (plotWidth-vg.Points(40))/vg.Length(k))
	size := tile*vg.Length(k) + vg.Points(40)
	plots := make([][]*plot.Plot, k)
	for i := range k { // row i: objective i on y
		plots[i] = make([]*plot.Plot, k)
		for j := range k { // column j: objective j on x
			if i == j {
				plots[i][j] = diagonalTile(axes[i])
				continue
			}
			// Axis names on the bottom row and the left column, or next to
			// the diagonal where it takes their place.
			xName := i == k-1 || (j == k-1 && i == k-2)
			yName := j == 0 || (i == 0 && j == 1)
			plots[i][j] = scatterTile(axes[j], axes[i], ids, xName, yName)
		}
	}
	return results.RenderSVG(size, size, fmt.Sprintf("scatter matrix of the front on its %d objectives", k), func(dc draw.Canvas) {
		tiles := draw.Tiles{Rows: k, Cols: k, PadX: vg.Points(10), PadY: vg.Points(10), PadTop: vg.Points(6), PadRight: vg.Points(6)}
		canvases := plot.Align(plots, tiles, dc)
		for i := range k {
			for j := range k {
				if plots[i][j] != nil {
					plots[i][j].Draw(canvases[i][j])
				}
			}
		}
	})
}

// diagonalTile names an objective and its range in the scatter matrix.
func diagonalTile(a frontAxis) *plot.Plot {
	p := results.NewPlot()
	p.HideAxes()
	lo, hi := slices.Min(a.vals), slices.Max(a.vals)
	p.Add(plotterFunc{xmin: 0, xmax: 1, ymin: 0, ymax: 1, draw: func(c draw.Canvas, _ *plot.Plot) {
		c.FillPolygon(color.Gray{Y: 0xf5}, rect(c.Min.X, c.Min.Y, c.Max.X, c.Max.Y))
		mid := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
		name := results.TextStyle(12)
		c.FillText(name, vg.Point{X: mid.X, Y: mid.Y + vg.Points(10)}, a.name)
		c.FillText(results.TextStyle(9.5), vg.Point{X: mid.X, Y: mid.Y - vg.Points(10)}, axisValue(lo, a.unit)+" – "+axisValue(hi, a.unit))
	}})
	return p
}

func axisValue(v float64, unit string) string {
	s := results.TrimFloat(v, 3)
	if unit == "" {
		return s
	}
	if unit == "%" {
		// v is 100·u as FormatPercent computes it: the same rounding.
		return strconv.FormatFloat(v, 'f', 1, 64) + " %"
	}
	return s + " " + unit
}

// heatmapFront draws the front as a normalised table for many objectives,
// where lines of parallel coordinates would cross beyond reading: a row per
// point, numbered, a column per objective, each cell shaded from the
// front's best value of its objective (light) to its worst (dark) and
// holding the value. Nothing overlaps, whatever the number of points and
// objectives; a row reads as one mapping's profile, a column as the
// spread of one objective.
func heatmapFront(axes []frontAxis, ids []int) template.HTML {
	k, n := len(axes), len(ids)
	const rowH, headH, footH, numW = 15, 34, 22, 34
	colW := (float64(plotWidth.Points()) - numW - 8) / float64(k)
	w := vg.Points(numW + colW*float64(k) + 8)
	h := vg.Points(float64(headH + rowH*n + footH))
	light, dark := color.RGBA{0xf4, 0xf7, 0xfb, 0xff}, color.RGBA{0x2b, 0x5c, 0x9e, 0xff}
	mix := func(f float64) color.RGBA {
		lerp := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + f*(float64(b)-float64(a)))) }
		return color.RGBA{lerp(light.R, dark.R), lerp(light.G, dark.G), lerp(light.B, dark.B), 0xff}
	}
	return results.RenderSVG(w, h, fmt.Sprintf("the front's %d points on its %d objectives, each cell shaded from the objective's best (light) to its worst (dark) value", n, k), func(c draw.Canvas) {
		top := c.Max.Y
		x0 := c.Min.X + vg.Points(numW)
		head := results.TextStyle(9)
		head.XAlign, head.YAlign = draw.XCenter, draw.YCenter
		for j, a := range axes {
			cx := x0 + vg.Points(colW*(float64(j)+0.5))
			name, unit := a.name, "["+a.unit+"]"
			if a.unit == "" {
				unit = ""
			}
			sty := head
			for sty.Width(name) > vg.Points(colW-4) && sty.Font.Size > vg.Points(6) {
				sty.Font.Size -= vg.Points(0.5)
			}
			c.FillText(sty, vg.Point{X: cx, Y: top - vg.Points(11)}, name)
			c.FillText(results.TextStyle(8), vg.Point{X: cx, Y: top - vg.Points(25)}, unit)
		}
		num := results.TextStyle(9)
		num.XAlign, num.YAlign = draw.XRight, draw.YCenter
		cell := results.TextStyle(8.5)
		cell.XAlign, cell.YAlign = draw.XCenter, draw.YCenter
		for i, id := range ids {
			y1 := top - vg.Points(float64(headH+rowH*i))
			y0 := y1 - vg.Points(rowH)
			cy := (y0 + y1) / 2
			c.FillText(num, vg.Point{X: x0 - vg.Points(6), Y: cy}, strconv.Itoa(id))
			for j, a := range axes {
				lo, hi := slices.Min(a.vals), slices.Max(a.vals)
				f := 0.0
				if hi > lo {
					f = (a.vals[i] - lo) / (hi - lo)
				}
				cx0 := x0 + vg.Points(colW*float64(j))
				cx1 := cx0 + vg.Points(colW)
				c.FillPolygon(mix(f), rect(cx0+vg.Points(0.5), y0+vg.Points(0.5), cx1-vg.Points(0.5), y1-vg.Points(0.5)))
				sty := cell
				if f > 0.55 {
					sty.Color = color.White
				}
				c.FillText(sty, vg.Point{X: (cx0 + cx1) / 2, Y: cy}, axisValue(a.vals[i], ""))
			}
		}
		// The key: the shades from best to worst.
		ky := top - vg.Points(float64(headH+rowH*n)) - vg.Points(footH/2+2)
		for s := 0; s < 5; s++ {
			kx := x0 + vg.Points(float64(s)*14)
			c.FillPolygon(mix(float64(s)/4), rect(kx, ky-vg.Points(5), kx+vg.Points(13), ky+vg.Points(5)))
		}
		key := results.TextStyle(8.5)
		key.XAlign, key.YAlign = draw.XLeft, draw.YCenter
		c.FillText(key, vg.Point{X: x0 + vg.Points(76), Y: ky}, "each column from the front's best value of its objective (light) to its worst (dark); lower is better")
	})
}
