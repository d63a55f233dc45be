package results

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The plots of the report, the sweep summary and the comparison are drawn
// with gonum/plot on its SVG canvas, one SVG per plot, inlined into the
// page. Text uses Liberation Sans, whose metrics the layout is computed
// with; the pages' CSS falls back to the metric-compatible Arial and
// Helvetica.

var sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// TextStyle is the style of the report's text in plots (and the sweep
// summary's): the sans font at size points, centred, in black.
func TextStyle(size float64) text.Style {
	return text.Style{Color: color.Black, Font: font.From(sansFont, vg.Points(size)), XAlign: draw.XCenter, YAlign: draw.YCenter,
		Handler: plot.DefaultTextHandler}
}

// NewPlot returns a plot with the report's fonts: 10 pt axis labels, 9 pt
// tick labels.
func NewPlot() *plot.Plot {
	p := plot.New()
	for _, s := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		s.Font.Typeface, s.Font.Variant = sansFont.Typeface, sansFont.Variant
	}
	p.X.Label.TextStyle.Font.Size = vg.Points(10)
	p.Y.Label.TextStyle.Font.Size = vg.Points(10)
	p.X.Tick.Label.Font.Size = vg.Points(9)
	p.Y.Tick.Label.Font.Size = vg.Points(9)
	p.X.Tick.Marker = NiceTicks{}
	p.Y.Tick.Marker = NiceTicks{}
	return p
}

// RenderSVG draws on an SVG canvas of w × h and returns the inline SVG
// element, labelled for screen readers.
func RenderSVG(w, h vg.Length, label string, draw func(draw.Canvas)) (out template.HTML) {
	defer func() { // a plot that fails must not cost the run its report
		if e := recover(); e != nil {
			out = template.HTML(`<p class="warn">This plot could not be drawn: ` + template.HTMLEscapeString(fmt.Sprint(e)) + `</p>`)
		}
	}()
	c := vgsvg.New(w, h)
	dc := drawCanvas(c)
	draw(dc)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return template.HTML("<p class=\"warn\">plot failed: " + template.HTMLEscapeString(err.Error()) + "</p>")
	}
	s := buf.String()
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:] // drop the XML prolog and the generator comment
	}
	s = strings.Replace(s, "<svg ", `<svg class="plot" role="img" aria-label="`+template.HTMLEscapeString(label)+`" `, 1)
	// The page's CSS sets the font family (Liberation Sans or a
	// metric-compatible one); the canvas's per-text defaults only add bytes.
	s = strings.ReplaceAll(s, "font-family:Liberation Sans;font-variant:normal;font-weight:normal;font-style:normal;", "")
	return template.HTML(s)
}

func drawCanvas(c *vgsvg.Canvas) draw.Canvas {
	dc := draw.New(c)
	dc.FillPolygon(color.White, []vg.Point{{X: dc.Min.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Min.Y}, {X: dc.Max.X, Y: dc.Max.Y}, {X: dc.Min.X, Y: dc.Max.Y}})
	return dc
}

// NiceTicks puts about eight labelled ticks at steps of 1, 2 or 5 times a
// power of ten, with a minor tick between them, and labels them without
// float noise. N is the number of steps aimed at (0: eight).
type NiceTicks struct{ N int }

// Ticks implements plot.Ticker.
func (t NiceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) {
		return []plot.Tick{{Value: lo, Label: TrimFloat(lo, 3)}}
	}
	n := t.N
	if n == 0 {
		n = 8
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	dec := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ts []plot.Tick
	first := math.Ceil(lo/step-1e-9) * step
	for i := 0; i <= 4*n; i++ {
		v := first + float64(i)*step
		if v > hi+step*1e-9 {
			break
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', dec, 64)})
		if mid := v + step/2; mid <= hi {
			ts = append(ts, plot.Tick{Value: mid})
		}
	}
	if mid := first - step/2; mid >= lo {
		ts = append([]plot.Tick{{Value: mid}}, ts...)
	}
	return ts
}
