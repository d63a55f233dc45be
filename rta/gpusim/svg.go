package gpusim

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// WriteSVG draws the block timeline of r in the style of the figures of
// Amert et al. (RTSS 2017): time on the x axis, one lane per SM, and in a
// lane the SM's thread slots (0 to ThreadsPerSM) on the y axis. Each block is
// a box labelled "K:j" (kernel K, block j) spanning its start and end, as
// high as its threads, at the thread slots it occupies on its SM (lowest free
// slots first; a block that finds no contiguous run of free slots is drawn in
// pieces, which the hardware allows since warps need not be contiguous).
// One colour per kernel, with a legend. Arrows under the lanes mark the
// launch times, and a "CE" lane on top shows the copies when there are any.
// Kernel names longer than 8 characters are abbreviated "K<n>" in the boxes;
// the legend gives the full name, with "[high]" and "[NULL]" marks.
func WriteSVG(w io.Writer, r Result) error {
	tl := newTimeline(r)
	p := plot.New()
	p.Title.Text = r.Name
	if p.Title.Text == "" {
		p.Title.Text = "GPU block timeline"
	}
	p.X.Label.Text = "time [" + tl.unit.name + "]"
	p.Y.Label.Text = "threads per SM"
	p.X.Min, p.X.Max = 0, tl.xmax
	p.Y.Min, p.Y.Max = tl.ymin, tl.ymax
	p.Y.Tick.Marker = laneTicks{tl}
	p.X.Tick.Marker = timeTicks{}
	sans := func(f *font.Font) { f.Variant = "Sans" }
	sans(&p.Title.TextStyle.Font)
	sans(&p.X.Label.TextStyle.Font)
	sans(&p.Y.Label.TextStyle.Font)
	sans(&p.X.Tick.Label.Font)
	sans(&p.Y.Tick.Label.Font)
	p.Add(tl)

	height := 3*vg.Centimeter + vg.Length(tl.r.Device.SMs)*4.5*vg.Centimeter + 1.5*vg.Centimeter
	if len(r.Copies) > 0 {
		height += 1.5 * vg.Centimeter
	}
	entries := tl.legendEntries()
	// Leave room for the legend when it is taller than the plot.
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font.Size = vg.Points(8)
	leg.TextStyle.Font.Variant = "Sans"
	leg.ThumbnailWidth = 0.5 * vg.Centimeter
	leg.Padding = vg.Points(2)
	for _, e := range entries {
		leg.Add(e.text, swatch{e.color})
	}
	size := leg.Rectangle(draw.Canvas{}).Size()
	if need := size.Y + 2*vg.Centimeter; need > height {
		height = need
	}
	// Slack: a viewer without Liberation fonts substitutes a wider one.
	legendWidth := min(max(6*vg.Centimeter, size.X*5/4+vg.Centimeter), 18*vg.Centimeter)
	width := 26*vg.Centimeter + legendWidth
	canvas := vgsvg.New(width, height)
	dc := draw.New(canvas)
	white := dc
	white.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	plotArea := draw.Crop(dc, 0, -legendWidth, 0, 0)
	legendArea := draw.Crop(dc, width-legendWidth+0.3*vg.Centimeter, 0, 0, -1.2*vg.Centimeter)
	p.Draw(plotArea)
	leg.Draw(legendArea)
	_, err := canvas.WriteTo(w)
	return err
}

// palette holds light fill colours that keep black labels readable.
var palette = []color.RGBA{
	{0x8d, 0xd3, 0xc7, 0xff}, {0xfb, 0x80, 0x72, 0xff}, {0x80, 0xb1, 0xd3, 0xff},
	{0xfd, 0xb4, 0x62, 0xff}, {0xb3, 0xde, 0x69, 0xff}, {0xfc, 0xcd, 0xe5, 0xff},
	{0xbe, 0xba, 0xda, 0xff}, {0xff, 0xff, 0xb3, 0xff}, {0xcc, 0xeb, 0xc5, 0xff},
	{0xff, 0xed, 0x6f, 0xff}, {0xd9, 0xd9, 0xd9, 0xff}, {0xbc, 0x80, 0xbd, 0xff},
}

func kernelColor(i int) color.RGBA {
	i = max(i, 0)
	c := palette[i%len(palette)]
	if round := i / len(palette); round > 0 { // darken on later rounds
		f := math.Pow(0.85, float64(round%4))
		c.R, c.G, c.B = uint8(float64(c.R)*f), uint8(float64(c.G)*f), uint8(float64(c.B)*f)
	}
	return c
}

// piece is a part of a block box: thread slots [lo, hi) of its SM.
type piece struct {
	block  int
	lo, hi int
}

type timeline struct {
	r      Result
	unit   timeUnit
	xmax   float64
	lane   float64 // height of an SM lane in data units (ThreadsPerSM)
	gap    float64
	ymin   float64 // bottom of the launch strip
	ymax   float64
	ceBase float64 // bottom of the CE lane (if any)
	abbr   []string
	pieces []piece
}

func newTimeline(r Result) *timeline {
	// A result built by hand may hold anything: keep the drawing sane.
	r.Device.SMs = min(max(r.Device.SMs, 1), maxSMs)
	r.Device.ThreadsPerSM = min(max(r.Device.ThreadsPerSM, 1), maxResource)
	r.Makespan = max(r.Makespan, 0)
	tl := &timeline{r: r}
	tl.unit = unitFor(r.Makespan)
	if r.Makespan == 0 {
		tl.unit = timeUnits[1]
	}
	tl.xmax = float64(r.Makespan) / float64(tl.unit.ns)
	if tl.xmax <= 0 {
		tl.xmax = 1
	}
	T := float64(max(r.Device.ThreadsPerSM, 1))
	tl.lane = T
	tl.gap = 0.12 * T
	tl.ymin = -0.45 * T
	sms := max(r.Device.SMs, 1)
	tl.ymax = float64(sms)*(T+tl.gap) - tl.gap
	if len(r.Copies) > 0 {
		tl.ceBase = tl.ymax + tl.gap
		tl.ymax = tl.ceBase + 0.3*T
	}
	tl.abbr = abbreviations(r.Kernels)
	tl.pieces = layoutPieces(r)
	return tl
}

// smBase is the y of slot 0 of SM i: SM0 is the top lane.
func (tl *timeline) smBase(sm int) float64 {
	sms := max(tl.r.Device.SMs, 1)
	return float64(sms-1-sm) * (tl.lane + tl.gap)
}

func (tl *timeline) x(ns int64) float64 { return float64(ns) / float64(tl.unit.ns) }

// abbreviations returns the label of each kernel in boxes: its name if it is
// at most 8 characters long, else K<n> (n = index + 1), made unique.
func abbreviations(ks []KernelRun) []string {
	used := map[string]bool{}
	for _, k := range ks {
		if utf8.RuneCountInString(k.Name) <= 8 {
			used[k.Name] = true
		}
	}
	out := make([]string, len(ks))
	for i, k := range ks {
		if utf8.RuneCountInString(k.Name) <= 8 {
			out[i] = k.Name
			continue
		}
		a := "K" + strconv.Itoa(i+1)
		for n := 0; used[a]; n++ {
			a = "#" + strconv.Itoa(i+1) + string(rune('a'+n%26))
		}
		used[a] = true
		out[i] = a
	}
	return out
}

// layoutPieces gives every block the thread slots it occupies on its SM:
// blocks are placed in assignment order, each at the lowest run of free
// slots that holds it, or split over the lowest free runs.
func layoutPieces(r Result) []piece {
	type alloc struct {
		lo, hi int
		end    int64
	}
	bySM := make([][]int, r.Device.SMs)
	for i, b := range r.Blocks {
		if b.SM >= 0 && b.SM < len(bySM) && b.Kernel >= 0 && b.Kernel < len(r.Kernels) && b.Threads > 0 {
			bySM[b.SM] = append(bySM[b.SM], i)
		}
	}
	var out []piece
	for _, blocks := range bySM {
		slices.SortFunc(blocks, func(a, b int) int { return r.Blocks[a].Order - r.Blocks[b].Order })
		var live []alloc // sorted by lo
		for _, bi := range blocks {
			b := r.Blocks[bi]
			live = slices.DeleteFunc(live, func(a alloc) bool { return a.end <= b.Start })
			// Free runs between live allocations.
			need := b.Threads
			var free [][2]int
			pos := 0
			for _, a := range live {
				if a.lo > pos {
					free = append(free, [2]int{pos, a.lo})
				}
				pos = max(pos, a.hi)
			}
			if pos < r.Device.ThreadsPerSM {
				free = append(free, [2]int{pos, r.Device.ThreadsPerSM})
			}
			var got [][2]int
			for _, f := range free { // first fit
				if f[1]-f[0] >= need {
					got = [][2]int{{f[0], f[0] + need}}
					break
				}
			}
			if got == nil { // split over the lowest runs
				for _, f := range free {
					if need == 0 {
						break
					}
					n := min(need, f[1]-f[0])
					got = append(got, [2]int{f[0], f[0] + n})
					need -= n
				}
			}
			for _, g := range got {
				out = append(out, piece{block: bi, lo: g[0], hi: g[1]})
				live = append(live, alloc{g[0], g[1], b.End})
			}
			slices.SortFunc(live, func(a, b alloc) int { return a.lo - b.lo })
		}
	}
	return out
}

// DataRange implements plot.DataRanger.
func (tl *timeline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, tl.xmax, tl.ymin, tl.ymax
}

func labelStyle(size vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size),
		XAlign:  draw.XCenter,
		YAlign:  draw.YCenter,
		Handler: plot.DefaultTextHandler,
	}
}

func rect(x0, y0, x1, y1 vg.Length) []vg.Point {
	return []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}
}

// Plot implements plot.Plotter.
func (tl *timeline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	r := tl.r
	edge := draw.LineStyle{Color: color.Black, Width: vg.Points(0.4)}
	laneStyle := draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: vg.Points(0.5)}
	x0, x1 := trX(0), trX(tl.xmax)
	// Lanes.
	for sm := 0; sm < r.Device.SMs; sm++ {
		y0, y1 := trY(tl.smBase(sm)), trY(tl.smBase(sm)+tl.lane)
		c.FillPolygon(color.Gray{Y: 0xf4}, rect(x0, y0, x1, y1))
		c.StrokeLines(laneStyle, rect(x0, y0, x1, y1))
	}
	if len(r.Copies) > 0 {
		y0, y1 := trY(tl.ceBase), trY(tl.ymax)
		c.FillPolygon(color.Gray{Y: 0xf4}, rect(x0, y0, x1, y1))
		c.StrokeLines(laneStyle, rect(x0, y0, x1, y1))
	}
	// Blocks: fill, edge and label of every piece.
	sty := labelStyle(vg.Points(7))
	for _, pc := range tl.pieces {
		b := r.Blocks[pc.block]
		base := tl.smBase(b.SM)
		bx0, bx1 := trX(tl.x(b.Start)), trX(tl.x(b.End))
		by0, by1 := trY(base+float64(pc.lo)), trY(base+float64(pc.hi))
		c.FillPolygon(kernelColor(b.Kernel), rect(bx0, by0, bx1, by1))
		c.StrokeLines(edge, rect(bx0, by0, bx1, by1))
		label := tl.abbr[b.Kernel] + ":" + strconv.Itoa(b.Index)
		if sty.Width(label) > bx1-bx0-vg.Points(2) {
			label = strconv.Itoa(b.Index)
		}
		if sty.Width(label) <= bx1-bx0-vg.Points(1) && sty.Height(label) <= by1-by0 {
			c.FillText(sty, vg.Point{X: (bx0 + bx1) / 2, Y: (by0 + by1) / 2}, label)
		}
	}
	// Copies on the CE lane.
	for _, cp := range r.Copies {
		if !cp.Issued {
			continue
		}
		bx0, bx1 := trX(tl.x(cp.Start)), trX(tl.x(cp.End))
		by0, by1 := trY(tl.ceBase), trY(tl.ymax)
		c.FillPolygon(color.RGBA{0xe0, 0xe0, 0xff, 0xff}, rect(bx0, by0, bx1, by1))
		c.StrokeLines(edge, rect(bx0, by0, bx1, by1))
		if sty.Width(cp.Name) <= bx1-bx0-vg.Points(1) {
			c.FillText(sty, vg.Point{X: (bx0 + bx1) / 2, Y: (by0 + by1) / 2}, cp.Name)
		}
	}
	tl.plotLaunches(c, trX, trY)
}

// plotLaunches draws the launch arrows: one per distinct launch time,
// labelled with the kernels.
func (tl *timeline) plotLaunches(c draw.Canvas, trX, trY func(float64) vg.Length) {
	r := tl.r
	type launch struct {
		t     int64
		names []string
	}
	var launches []launch
	for i, k := range r.Kernels {
		if !k.Issued {
			continue
		}
		if n := len(launches); n > 0 && launches[n-1].t == k.Launch {
			launches[n-1].names = append(launches[n-1].names, tl.abbr[i])
			continue
		}
		launches = append(launches, launch{k.Launch, []string{tl.abbr[i]}})
	}
	slices.SortStableFunc(launches, func(a, b launch) int { return cmp.Compare(a.t, b.t) })
	merged := launches[:0]
	for _, l := range launches {
		if n := len(merged); n > 0 && merged[n-1].t == l.t {
			merged[n-1].names = append(merged[n-1].names, l.names...)
			continue
		}
		merged = append(merged, l)
	}
	arrow := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
	top, bottom := trY(-0.06*tl.lane), trY(-0.18*tl.lane)
	small := labelStyle(vg.Points(6))
	small.YAlign = draw.YTop
	lineH := small.Height("K") + vg.Points(1)
	// Labels go on the first of three rows where they do not overlap the
	// previous label of the row; a label that fits no row is left out.
	var rowEnd [3]vg.Length
	for i := range rowEnd {
		rowEnd[i] = -1e9
	}
	for _, l := range merged {
		x := trX(tl.x(l.t))
		c.StrokeLines(arrow, []vg.Point{{X: x, Y: bottom}, {X: x, Y: top}})
		c.FillPolygon(color.Black, []vg.Point{{X: x - vg.Points(2), Y: top - vg.Points(4)}, {X: x + vg.Points(2), Y: top - vg.Points(4)}, {X: x, Y: top}})
		label := strings.Join(l.names, ",")
		if len(l.names) > 3 {
			label = strings.Join(l.names[:2], ",") + fmt.Sprintf(",+%d", len(l.names)-2)
		}
		w := small.Width(label)
		for row := range rowEnd {
			if x-w/2 > rowEnd[row]+vg.Points(2) {
				c.FillText(small, vg.Point{X: x, Y: bottom - vg.Points(1) - vg.Length(row)*lineH}, label)
				rowEnd[row] = x + w/2
				break
			}
		}
	}
}

// timeTicks puts about ten labelled ticks on the time axis, at steps of 1, 2
// or 5 times a power of ten, with a minor tick between labels.
type timeTicks struct{}

// Ticks implements plot.Ticker.
func (timeTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	raw := (hi - lo) / 10
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []plot.Tick
	first := math.Ceil(lo/step) * step
	for i := 0; i <= 40; i++ {
		v := first + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		if mid := v + step/2; mid <= hi {
			ts = append(ts, plot.Tick{Value: mid})
		}
	}
	// Labels without float noise: round to the step's decimals.
	dec := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', dec, 64)
		}
	}
	return ts
}

// laneTicks labels the y axis: 0 and ThreadsPerSM at the edges of each SM
// lane, the lane's name in its middle.
type laneTicks struct{ tl *timeline }

// Ticks implements plot.Ticker.
func (lt laneTicks) Ticks(_, _ float64) []plot.Tick {
	tl := lt.tl
	var ts []plot.Tick
	for sm := 0; sm < tl.r.Device.SMs; sm++ {
		b := tl.smBase(sm)
		ts = append(ts,
			plot.Tick{Value: b, Label: "0"},
			plot.Tick{Value: b + tl.lane/4},
			plot.Tick{Value: b + tl.lane/2, Label: "SM" + strconv.Itoa(sm)},
			plot.Tick{Value: b + 3*tl.lane/4},
			plot.Tick{Value: b + tl.lane, Label: strconv.Itoa(tl.r.Device.ThreadsPerSM)})
	}
	if len(tl.r.Copies) > 0 {
		ts = append(ts, plot.Tick{Value: (tl.ceBase + tl.ymax) / 2, Label: "CE"})
	}
	ts = append(ts, plot.Tick{Value: -0.2 * tl.lane, Label: "launch"})
	slices.SortFunc(ts, func(a, b plot.Tick) int { return cmp.Compare(a.Value, b.Value) })
	return ts
}

type legendEntry struct {
	text  string
	color color.Color
}

// maxLegend bounds the legend; the rest is summarised in one line.
const maxLegend = 40

func (tl *timeline) legendEntries() []legendEntry {
	var out []legendEntry
	n := 0
	for i, k := range tl.r.Kernels {
		if !k.Issued {
			continue
		}
		n++
		if len(out) == maxLegend {
			continue
		}
		t := tl.abbr[i]
		if t != k.Name {
			name := k.Name
			if utf8.RuneCountInString(name) > 48 {
				name = string([]rune(name)[:47]) + "…"
			}
			t += " = " + name
		}
		if k.Priority == PriorityHigh {
			t += " [high]"
		}
		if k.Null {
			t += " [NULL]"
		}
		out = append(out, legendEntry{t, kernelColor(i)})
	}
	if n > maxLegend {
		out = append(out, legendEntry{fmt.Sprintf("... and %d more kernels", n-maxLegend), color.White})
	}
	return out
}

// swatch is a legend thumbnail: a filled box with a black edge.
type swatch struct{ c color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	pts := rect(c.Min.X, c.Min.Y, c.Max.X, c.Max.Y)
	c.FillPolygon(s.c, pts)
	c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.4)}, pts)
}
