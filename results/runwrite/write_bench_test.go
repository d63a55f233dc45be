package runwrite

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/scalerun"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/report"
	"gopkg.in/yaml.v3"
)

// The run folder at scale: the 250-task synthetic system of the scale
// benchmarks (optimizer/scale_bench_test.go: 240 periodic tasks and 5 GPU
// tasks with their offloading tasks on 4 A57 and 2 Denver cores and a
// GPU, 8 chains of 4 tasks, each an objective), searched by NSGA-II for
// 1000 evaluations; its front of a few hundred points, and that front
// repeated to 2000 points (the writer does not check that a front is one).

// Bounds of a run folder per front point at 250 tasks (issue 22):
// front.json at most 20 kB per point, report.html at most 10 MB.
const (
	maxFrontJSONPerPoint = 20_000
	maxReport            = 10_000_000
)

var scaleRun = sync.OnceValues(func() (*configs.Config, *optimizer.Outcome) {
	cfg, out, err := scalerun.Search(1000, 0, optimizer.Options{})
	if err != nil {
		panic(err)
	}
	return cfg, out
})

// withFront returns out with its front repeated up to n points (n = 0:
// as found).
func withFront(out *optimizer.Outcome, n int) *optimizer.Outcome {
	if n == 0 || len(out.Front) == 0 {
		return out
	}
	o := *out
	o.Front = make([]optimizer.Point, n)
	for i := range o.Front {
		o.Front[i] = out.Front[i%len(out.Front)]
	}
	return &o
}

func fileSize(tb testing.TB, path string) int64 {
	tb.Helper()
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

// BenchmarkWriteRun writes the run folder of the 250-task system's front
// (points=found) and of that front repeated to 2000 points, and reports
// front.json's and report.html's size. HETMAP_BENCH_KEEP names a folder
// to keep the last folder written in (for a browser, or /usr/bin/time).
func BenchmarkWriteRun(b *testing.B) {
	cfg, out := scaleRun()
	if !out.Feasible {
		b.Fatal("the 250-task system has no feasible mapping")
	}
	for _, n := range []int{0, 2000} {
		name := "points=found"
		if n > 0 {
			name = "points=" + strconv.Itoa(n)
		}
		b.Run(name, func(b *testing.B) {
			o := withFront(out, n)
			tmp := b.TempDir()
			var dir string
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				dir = filepath.Join(tmp, strconv.Itoa(i))
				if err := Write(dir, cfg, o, results.RunInfo{Version: "bench", Started: time.Unix(0, 0)}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if i > 1 {
					os.RemoveAll(filepath.Join(tmp, strconv.Itoa(i-1)))
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(len(o.Front)), "points")
			b.ReportMetric(float64(fileSize(b, filepath.Join(dir, "front.json")))/float64(len(o.Front)), "front.json-B/point")
			b.ReportMetric(float64(fileSize(b, filepath.Join(dir, results.ReportFile))), "report-B")
			if keep := os.Getenv("HETMAP_BENCH_KEEP"); keep != "" {
				os.RemoveAll(filepath.Join(keep, name))
				if err := os.MkdirAll(keep, 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.Rename(dir, filepath.Join(keep, name)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRunFileSizes: at 250 tasks front.json takes at most 20 kB per point,
// for the front the search found and for 2000 points; the first
// DetailPoints points have their evaluation file; report.html details the
// first of them as far as report.MaxBytes allows (at least one for the
// front found, a bounded one) and links the others' mapping files, saying
// how many sections it left out; it stays within report.MaxBytes for the
// front found, and within 10 MB for 2000 points (their table alone is 4
// MB).
func TestRunFileSizes(t *testing.T) {
	if testsize.Reduced() {
		t.Skip("a search of 1000 evaluations on 250 tasks")
	}
	cfg, out := scaleRun()
	if !out.Feasible || len(out.Front) <= results.DetailPoints {
		t.Fatalf("feasible %v, %d points: want a front of more than %d", out.Feasible, len(out.Front), results.DetailPoints)
	}
	for _, n := range []int{0, 2000} {
		o := withFront(out, n)
		dir := filepath.Join(t.TempDir(), "run")
		var last results.WriteProgress
		info := results.RunInfo{Version: "test", Started: time.Unix(0, 0), Progress: func(p results.WriteProgress) { last = p }}
		if err := Write(dir, cfg, o, info); err != nil {
			t.Fatal(err)
		}
		points := len(o.Front)
		if last.Stage != results.StageReport || last.Done != results.DetailPoints || last.Total != results.DetailPoints {
			t.Errorf("%d points: the last progress report is %+v", points, last)
		}
		limit := maxReport
		if n == 0 {
			limit = report.MaxBytes
		}
		if per := fileSize(t, filepath.Join(dir, "front.json")) / int64(points); per > maxFrontJSONPerPoint {
			t.Errorf("%d points: front.json takes %d bytes per point, more than %d", points, per, maxFrontJSONPerPoint)
		}
		data, err := os.ReadFile(filepath.Join(dir, results.ReportFile))
		if err != nil {
			t.Fatal(err)
		}
		html := string(data)
		if len(html) > limit {
			t.Errorf("%d points: report.html has %d bytes, more than %d", points, len(html), limit)
		}
		got := strings.Count(html, `<details id="point-`)
		if n == 0 && got == 0 || got > results.DetailPoints ||
			got < results.DetailPoints && !strings.Contains(html, fmt.Sprintf("The sections of %d more would take this page past", results.DetailPoints-got)) {
			t.Errorf("%d points: report.html details %d points (%d bytes)", points, got, len(html))
		}
		t.Logf("%d points: report.html %d bytes, %d sections", points, len(html), got)
		for id := 1; id <= points; id++ {
			_, err := os.Stat(filepath.Join(dir, "mappings", fmt.Sprintf("point-%d.json", id)))
			if (err == nil) != (id <= results.DetailPoints) {
				t.Fatalf("%d points: mappings/point-%d.json: %v", points, id, err)
			}
		}
		if want := fmt.Sprintf(`<a href="mappings/point-%d.yaml">%d</a>`, points, points); !strings.Contains(html, want) {
			t.Errorf("%d points: the table does not link the last point's mapping file (%s)", points, want)
		}
	}
}

// TestMappingYAML: the mapping files are what yaml.v3 writes, for the
// 250-task front and for names that need quoting or another line.
func TestMappingYAML(t *testing.T) {
	y := newMappingYAML()
	prio := 3
	ms := []configs.Mapping{
		{Units: []configs.Placement{{Task: "T0", Unit: "A1"}, {Task: "yes", Unit: "Core 1", Priority: &prio}, {Task: "a: b", Unit: "#x"},
			{Task: "ünï", Unit: "1e3"}, {Task: "two\nlines", Unit: "A0"}, {Task: "", Unit: "null"}}},
		{Units: []configs.Placement{{Task: "K", Unit: "GPU"}}, Offloading: []configs.OffloadChoice{{Task: "P", Mode: configs.Async}},
			TimeSlices: []configs.TimeSliceSet{{Task: "K", Slice: 2 * configs.Millisecond}}, GPUPriorities: []configs.GPUPrioritySet{{Task: "K", Priority: "high"}}},
		{},
	}
	if !testsize.Reduced() {
		_, out := scaleRun()
		for _, p := range out.Front {
			ms = append(ms, p.Mapping)
		}
	}
	for i, m := range ms {
		want, err := yaml.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := y.marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("mapping %d:\n%s\nyaml.v3:\n%s", i, got, want)
		}
	}
}
