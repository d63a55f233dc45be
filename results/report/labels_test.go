package report

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/results"
	"gonum.org/v1/plot/vg"
)

// TestLabelsDoNotOverlap: markers that touch share one label, and the
// labels of a dense tile (the size of a 4-objective scatter-matrix tile,
// 15 markers scattered in three bands as fronts fall) keep labelGap from
// each other and from every marker.
func TestLabelsDoNotOverlap(t *testing.T) {
	r := vg.Points(3.2)
	// Touching markers: one label.
	boxes, labels := clusterLabels([]vg.Point{{X: 10, Y: 10}, {X: 15, Y: 11}, {X: 60, Y: 60}, {X: 19, Y: 12}}, []string{"1", "2", "3", "4"}, r)
	if len(boxes) != 2 || labels[0] != "1, 2, 4" || labels[1] != "3" {
		t.Fatalf("clusters %v %v", labels, boxes)
	}
	area := vg.Rectangle{Max: vg.Point{X: vg.Points(200), Y: vg.Points(190)}}
	sty := results.TextStyle(8.5)
	rng := rand.New(rand.NewSource(1))
	for trial := range 20 {
		var pts []vg.Point
		var ids []string
		for i := range 15 {
			band := vg.Length(30 + 60*(i%3))
			pts = append(pts, vg.Point{X: vg.Points(10 + 180*rng.Float64()), Y: vg.Points(float64(band) + 8*rng.Float64())})
			ids = append(ids, strconv.Itoa(i+1))
		}
		boxes, labels := clusterLabels(pts, ids, r)
		placed := placeLabels(area, boxes, labels, sty)
		rects := make([]vg.Rectangle, len(placed))
		for i, p := range placed {
			rects[i] = vg.Rectangle{Min: p.at, Max: vg.Point{X: p.at.X + sty.Width(labels[i]), Y: p.at.Y + sty.Height(labels[i])}}
		}
		near := func(a, b vg.Rectangle) bool {
			return min(a.Max.X, b.Max.X)-max(a.Min.X, b.Min.X)+labelGap > 0 && min(a.Max.Y, b.Max.Y)-max(a.Min.Y, b.Min.Y)+labelGap > 0
		}
		for i := range rects {
			for j := range i {
				if near(rects[i], rects[j]) {
					t.Errorf("trial %d: labels %q and %q touch", trial, labels[i], labels[j])
				}
			}
			for j, b := range boxes {
				if near(rects[i], b) {
					t.Errorf("trial %d: label %q touches the markers of %q", trial, labels[i], labels[j])
				}
			}
		}
	}
}

// TestHeatmapFront: with more than 4 objectives the front is a normalised
// table (parallel coordinates crossed beyond reading with 5 objectives and
// 39 points): a numbered row per point, every value printed once in its
// cell, each column's best value in the lightest shade and its worst in
// the darkest.
func TestHeatmapFront(t *testing.T) {
	axes := []frontAxis{
		{name: "A", unit: "ms", vals: []float64{1, 2, 3}},
		{name: "B", unit: "ms", vals: []float64{30, 20, 10}},
		{name: "C", unit: "ms", vals: []float64{5, 5, 5}},
		{name: "D", unit: "ms", vals: []float64{7, 9, 8}},
		{name: "E", unit: "cores", vals: []float64{2, 3, 4}},
	}
	svg := string(heatmapFront(axes, []int{1, 2, 3}))
	for _, a := range axes {
		if !strings.Contains(svg, ">"+a.name+"</text>") {
			t.Errorf("no head %s", a.name)
		}
		for _, v := range a.vals {
			if !strings.Contains(svg, ">"+axisValue(v, "")+"</text>") {
				t.Errorf("%s: value %v not printed", a.name, v)
			}
		}
	}
	for _, id := range []string{"1", "2", "3"} {
		if !strings.Contains(svg, ">"+id+"</text>") {
			t.Errorf("row %s not numbered", id)
		}
	}
	// The lightest and the darkest shade: a column's best and worst.
	if low := strings.ToLower(svg); !strings.Contains(low, "#f4f7fb") || !strings.Contains(low, "#2b5c9e") {
		t.Error("the shades of the best and the worst value are missing")
	}
}
