package report_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/golden"
	"github.com/hetmap/hetmap/internal/scalerun"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/report"
	"github.com/hetmap/hetmap/results/runwrite"
)

// runFolder writes the run folder of a search on a configuration into a
// temporary folder of the test.
func runFolder(t *testing.T, config string, algorithm configs.Algorithm) string {
	t.Helper()
	cfg, err := configs.LoadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: algorithm, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := runwrite.Write(dir, cfg, out, results.RunInfo{Version: "test", Started: started, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	return dir
}

const (
	threeObjectives = "../../configs/examples/waters-3obj.yaml"
	infeasible      = "testdata/report_infeasible.yaml"
)

var (
	reSection = regexp.MustCompile(`^<section id="([^"]+)">`)
	reDetails = regexp.MustCompile(`^<details id="([^"]+)"`)
	reHeading = regexp.MustCompile(`^<(h[123])>([^<]*)</h[123]>`)
	reFigure  = regexp.MustCompile(`^<figure class="plot" data-plot="([^"]+)">`)
	reTag     = regexp.MustCompile(`<(section|details|h[123]|figure|/figure|svg|/section|/details)[ >]`)
)

// skeleton extracts the structure of a report: its sections, the headings,
// the collapsible mapping sections and in every figure the number of SVG
// elements (one per plot). It fails the test on an SVG outside a figure.
func skeleton(t *testing.T, html string) string {
	t.Helper()
	var b strings.Builder
	figure, svgs, sectionSVGs := "", 0, 0
	indent := ""
	for _, loc := range reTag.FindAllStringIndex(html, -1) {
		rest := html[loc[0]:]
		switch {
		case strings.HasPrefix(rest, "<section"):
			m := reSection.FindStringSubmatch(rest)
			fmt.Fprintf(&b, "section %s\n", m[1])
			indent, sectionSVGs = "  ", 0
		case strings.HasPrefix(rest, "</section"):
			fmt.Fprintf(&b, "  (%d svg)\n", sectionSVGs)
			indent = ""
		case strings.HasPrefix(rest, "<details"):
			if m := reDetails.FindStringSubmatch(rest); m != nil {
				fmt.Fprintf(&b, "  details %s\n", m[1])
				indent = "    "
			}
		case strings.HasPrefix(rest, "</details"):
			indent = "  "
		case strings.HasPrefix(rest, "<h"):
			m := reHeading.FindStringSubmatch(rest)
			if m == nil {
				t.Fatalf("heading without plain text at %q", rest[:min(len(rest), 60)])
			}
			fmt.Fprintf(&b, "%s%s %s\n", indent, m[1], m[2])
		case strings.HasPrefix(rest, "<figure"):
			m := reFigure.FindStringSubmatch(rest)
			if m == nil {
				t.Fatalf("figure without data-plot at %q", rest[:min(len(rest), 60)])
			}
			figure, svgs = m[1], 0
		case strings.HasPrefix(rest, "</figure"):
			fmt.Fprintf(&b, "%sfigure %s: %d svg\n", indent, figure, svgs)
			if svgs != 1 {
				t.Errorf("figure %s holds %d SVG elements, want one per plot", figure, svgs)
			}
			figure = ""
		case strings.HasPrefix(rest, "<svg"):
			if figure == "" {
				t.Errorf("an SVG outside a figure at %q", rest[:min(len(rest), 80)])
			}
			svgs++
			sectionSVGs++
		}
	}
	return b.String()
}

func readReport(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, results.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestReport checks the report of the exact 3-objective front of
// configs/examples/waters-3obj.yaml.
func TestReport(t *testing.T) {
	dir := runFolder(t, threeObjectives, configs.AlgorithmExhaustive)
	t.Run("Structure", func(t *testing.T) { testReportStructure(t, dir) })
	t.Run("Deterministic", func(t *testing.T) { testReportDeterministic(t, dir) })
	t.Run("FrontCSVColumns", func(t *testing.T) { testReportFrontCSVColumns(t, dir) })
	t.Run("Errors", func(t *testing.T) { testReportErrors(t, dir) })
	t.Run("FilesChecked", func(t *testing.T) { testRunFilesChecked(t, dir) })
	t.Run("Screenshot", func(t *testing.T) { testReportScreenshot(t, dir) })
}

// The report of the exact 3-objective front: every section, a scatter
// matrix, and per point its mapping, utilisation, response times, timeline
// and chains, one SVG per plot.
func testReportStructure(t *testing.T, dir string) {
	html := readReport(t, dir)
	golden.Check(t, "report_structure_3obj.txt", skeleton(t, html))
	for _, want := range []string{`data-plot="front-scatter"`, "<h2>Pareto front</h2>", `<details id="point-1" class="point" open>`,
		"C = compute + memory (uncontended) + contention + GPU wait", "time since the synchronous release [ms]",
		// The model's requirement that deadlines: period sets aside, near
		// the top and in the task table (WATERS: Planner 12 ms, T = 15 ms).
		"<dt>Model requirements not applied</dt><dd>Planner: requirement 12 ms: not applied (convention); D = 15 ms (its period) is checked; set conventions.deadlines: model to apply it</dd>",
		"15 ms (model requirement 12 ms: not applied (convention))"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	// Self-contained: nothing fetched, no script.
	for _, bad := range []string{"<script", "<link", "src=\"http", "href=\"http", "@import", "url("} {
		if strings.Contains(html, bad) {
			t.Errorf("the report is not self-contained: it contains %q", bad)
		}
	}
}

// With no feasible mapping the report shows the least-violating mappings
// and what they miss instead of a front.
func TestReportInfeasible(t *testing.T) {
	dir := runFolder(t, infeasible, "")
	html := readReport(t, dir)
	golden.Check(t, "report_structure_infeasible.txt", skeleton(t, html))
	for _, want := range []string{"<h2>No feasible mapping</h2>", `<details id="least-violating-1"`, "Planner on", "exceeds D = 12 ms"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(html, `data-plot="front-`) {
		t.Error("an infeasible run's report plots a front")
	}
}

// The report depends on the folder's files only: written again it is the
// same, byte for byte, as the one optimize wrote, holds no time but the
// manifest's and does not name the folder.
func testReportDeterministic(t *testing.T, dir string) {
	first := readReport(t, dir)
	var again bytes.Buffer
	if err := report.WriteReport(&again, dir); err != nil {
		t.Fatal(err)
	}
	if again.String() != first {
		t.Error("the report written again differs from the one optimize wrote")
	}
	if strings.Contains(first, filepath.Dir(dir)) {
		t.Error("the report names its folder")
	}
	stamps := regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}`).FindAllString(first, -1)
	for _, s := range stamps {
		if s != "2026-01-02T03:04" {
			t.Errorf("a time stamp %s that is not the manifest's", s)
		}
	}
	if len(stamps) == 0 {
		t.Error("the manifest's start time is missing")
	}
}

// readFrontCSV reads the run folder's front.csv.
func readFrontCSV(t *testing.T, dir string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "front.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// front.csv: the point, one column per objective (ms), the utilisation of
// every unit and the unit of every task.
func testReportFrontCSVColumns(t *testing.T, dir string) {
	rows := readFrontCSV(t, dir)
	var front struct {
		Points []json.RawMessage `json:"points"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &front); err != nil {
		t.Fatal(err)
	}
	if len(front.Points) < 2 || len(rows) != 1+len(front.Points) {
		t.Fatalf("%d rows, want a header and the %d points of front.json", len(rows), len(front.Points))
	}
	for i, r := range rows {
		if len(r) != len(rows[0]) {
			t.Errorf("row %d has %d columns, the header %d", i, len(r), len(rows[0]))
		}
	}
	golden.Check(t, "front_csv_columns.txt", strings.Join(rows[0], "\n")+"\n")
}

// writeOlderManifest writes the manifest of the run folder from into the
// folder to as a hetmap before the list of files wrote it (without Files),
// so that to's files are read as they are, not checked against the list.
func writeOlderManifest(t *testing.T, from, to string) {
	t.Helper()
	var m results.Manifest
	readJSONFile(t, filepath.Join(from, "manifest.json"), &m)
	m.Files = nil
	data, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(to, "manifest.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A folder that is not a run folder is an error that says why, and no
// report (nor a temporary file) is left behind. The folders with a broken
// front.json have a manifest without the list of files (as before hetmap
// recorded it), which would refuse them before their front.json is read
// (TestRunFilesChecked).
func testReportErrors(t *testing.T, dir string) {
	good := dir
	tmp := t.TempDir()
	copyFile := func(dst, name string) {
		data, err := os.ReadFile(filepath.Join(good, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	noFront := filepath.Join(tmp, "no-front")
	badJSON := filepath.Join(tmp, "bad-json")
	badMapping := filepath.Join(tmp, "bad-mapping")
	for _, d := range []string{noFront, badJSON, badMapping} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(d, "config.yaml")
		writeOlderManifest(t, good, d)
	}
	if err := os.WriteFile(filepath.Join(badJSON, "front.json"), []byte("{\"points\": [}"), 0o644); err != nil {
		t.Fatal(err)
	}
	front, _ := os.ReadFile(filepath.Join(good, "front.json"))
	front = bytes.Replace(front, []byte(`"unit":"GP10B"`), []byte(`"unit":"Core9"`), 1)
	if err := os.WriteFile(filepath.Join(badMapping, "front.json"), front, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(tmp, "missing"), "no such folder"},
		{file, "is not a folder"},
		{noFront, "not an optimize run folder: front.json is missing"},
		{badJSON, "front.json: not the JSON hetmap writes"},
		{badMapping, "the mapping of point 1"},
	} {
		err := report.WriteFile(c.dir, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one that says %q", filepath.Base(c.dir), err, c.want)
		}
		entries, _ := os.ReadDir(c.dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), results.ReportFile) {
				t.Errorf("%s: %s left behind", filepath.Base(c.dir), e.Name())
			}
		}
	}
}

// The report in a real browser: headless Chromium renders report.html to a
// PNG. Set HETMAP_REPORT_SCREENSHOT to a file name to keep the picture.
func testReportScreenshot(t *testing.T, dir string) {
	if testsize.Reduced() {
		t.Skip("renders the report in a headless browser (seconds): not in the reduced run (-short, -race)")
	}
	var browser string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no headless browser: install Chromium (apt-get install chromium) to render the report to a screenshot")
	}
	shot := os.Getenv("HETMAP_REPORT_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "report.png")
	}
	abs, err := filepath.Abs(filepath.Join(dir, results.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--screenshot="+shot, "--window-size=1400,4000", "file://"+filepath.ToSlash(abs))
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir()) // a profile of its own
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1400 || b.Dy() != 4000 {
		t.Errorf("screenshot %d × %d, want 1400 × 4000", b.Dx(), b.Dy())
	}
	// The page rendered with its plots: the scatter matrix's marker blue
	// and enough ink.
	blue, ink := 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 0xf0 || g < 0xf0 || bl < 0xf0 {
				ink++
			}
			if r >= 0x22 && r <= 0x34 && g >= 0x53 && g <= 0x65 && bl >= 0x95 && bl <= 0xa7 {
				blue++
			}
		}
	}
	if blue < 50 {
		t.Errorf("the screenshot shows no front markers (%d marker pixels): the SVG plots did not render", blue)
	}
	if ink < 20000 {
		t.Errorf("the screenshot is nearly blank (%d inked pixels of %d sampled)", ink, b.Dx()*b.Dy()/4)
	}
	t.Logf("screenshot: %s", shot)
}

// TestReportRefinedWindows: under the refined count (the default) the
// report shows the contention of every response window, with the binding
// term per other core and the copy engine.
func TestReportRefinedWindows(t *testing.T) {
	dir := runFolder(t, "testdata/builtin.yaml", configs.AlgorithmExhaustive)
	page, err := os.ReadFile(filepath.Join(dir, results.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Contention in the response windows", "refined", "challenge"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// Under the default, refined count every writer shows the demand the
// verdicts rest on beside Σ C/T, each labelled with its count: front.json
// (utilisation, demand, demand_count per point and per unit of the
// evaluation), front.csv (demand columns named with the count) and the
// report (the bars' title and totals, the busiest-core column). Every
// schedulable core's demand is at most 100 % (TestDemandOfTheCount checks
// the figure itself).
func TestDemandShownWithItsCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "refined.yaml")
	if err := os.WriteFile(path, []byte("model: builtin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := runFolder(t, path, configs.AlgorithmExhaustive)
	data, err := os.ReadFile(filepath.Join(dir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}
	var front struct {
		Points []results.FrontPointJSON `json:"points"`
	}
	if err := json.Unmarshal(data, &front); err != nil {
		t.Fatal(err)
	}
	if len(front.Points) == 0 {
		t.Fatal("no front point")
	}
	for _, p := range front.Points {
		if p.DemandCount != configs.ContentionRefined || len(p.Demand) != 6 {
			t.Errorf("point %d: demand %v of the %q count, want the 6 cores' under refined", p.ID, p.Demand, p.DemandCount)
		}
		if p.EvaluationFile == "" {
			continue
		}
		var ev results.AnalysisJSON
		readJSONFile(t, filepath.Join(dir, p.EvaluationFile), &ev)
		for _, u := range ev.Units {
			if u.Kind == "GPU_def" || u.Tasks == 0 {
				continue
			}
			if u.Demand == nil || u.DemandCount != configs.ContentionRefined || *u.Demand != p.Demand[u.Name] || *u.Demand > 1 || *u.Demand > u.Utilisation {
				t.Errorf("point %d, %s: demand %v (%q), Σ C/T %v", p.ID, u.Name, u.Demand, u.DemandCount, u.Utilisation)
			}
		}
	}
	rows := readFrontCSV(t, dir)
	head := strings.Join(rows[0], "|")
	if !strings.Contains(head, "|utilisation Core0|") || !strings.Contains(head, "|demand Core0 (refined count)|") || strings.Contains(head, "demand GP10B") {
		t.Errorf("front.csv columns: %s", head)
	}
	html := readReport(t, dir)
	for _, want := range []string{"demand under the refined count: Σ C⁰/T per task + the contention it charges [%]", "(Σ C/T, challenge count: "} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// TestReportOlderFormats: a folder of results format 2 (every point's
// full evaluation in front.json, pretty-printed; no evaluation files)
// gives the report of the same run in format 3, but for the format it
// names; a format this hetmap does not know is refused, naming the
// version that wrote it.
func TestReportOlderFormats(t *testing.T) {
	dir := runFolder(t, threeObjectives, configs.AlgorithmExhaustive)
	run, err := report.LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "format2")
	if err := os.MkdirAll(filepath.Join(old, "mappings"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"config.yaml", "front.csv"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(old, name), data, 0o644)
	}
	var f results.FrontJSON
	for _, id := range run.PointIDs() {
		rp, err := run.LoadPoint(id)
		if err != nil {
			t.Fatal(err)
		}
		q := rp.FrontPointJSON
		q.Verdict, q.EvaluationFile, q.Evaluation = nil, "", &rp.Evaluation
		f.Points = append(f.Points, q)
	}
	head := run.Front
	f.System, f.Objectives, f.Feasible, f.Proof = head.System, head.Objectives, head.Feasible, head.Proof
	data, _ := json.MarshalIndent(f, "", "  ")
	os.WriteFile(filepath.Join(old, "front.json"), data, 0o644)
	var m results.Manifest
	readJSONFile(t, filepath.Join(dir, "manifest.json"), &m)
	m.ResultsFormat, m.Files = 2, nil
	data, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(old, "manifest.json"), data, 0o644)
	var got bytes.Buffer
	if err := report.WriteReport(&got, old); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(readReport(t, dir), "<tr><th>Results format</th><td>3</td></tr>", "<tr><th>Results format</th><td>2</td></tr>", 1)
	if got.String() != want {
		t.Error("the report of the run in results format 2 differs from that of format 3")
	}
	// A later format.
	m.ResultsFormat, m.Version = 4, "v9.0.0"
	data, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(old, "manifest.json"), data, 0o644)
	err = report.WriteReport(&got, old)
	if err == nil || !strings.Contains(err.Error(), "results format 4, written by hetmap v9.0.0; this hetmap reads formats 1 to 3") {
		t.Errorf("format 4: %v", err)
	}
}

// TestLeastViolatingHaveNoObjectives: a run where no mapping is feasible
// writes its least-violating mappings without objective values (the search
// computes none for an infeasible mapping, and a chain with a member
// without a bound has no latency): null in front.json, an empty cell in
// front.csv, as analyze --json writes a chain's objective_ns; the report
// still reads the folder.
func TestLeastViolatingHaveNoObjectives(t *testing.T) {
	dir := runFolder(t, infeasible, "")
	raw, err := os.ReadFile(filepath.Join(dir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}
	var front struct {
		Objectives     []string `json:"objectives"`
		Feasible       bool     `json:"feasible"`
		LeastViolating []struct {
			Objectives *[]float64 `json:"objectives_ms"`
		} `json:"least_violating"`
	}
	if err := json.Unmarshal(raw, &front); err != nil {
		t.Fatal(err)
	}
	if front.Feasible || len(front.LeastViolating) == 0 || len(front.Objectives) == 0 {
		t.Fatalf("feasible %v, %d least-violating mappings, %d objectives", front.Feasible, len(front.LeastViolating), len(front.Objectives))
	}
	for i, p := range front.LeastViolating {
		if p.Objectives != nil {
			t.Errorf("least-violating mapping %d: objectives_ms %v, want null", i+1, *p.Objectives)
		}
	}
	rows := readFrontCSV(t, dir)
	for _, row := range rows[1:] {
		for k := range front.Objectives {
			if row[1+k] != "" {
				t.Errorf("front.csv point %s: objective %q has %q, want an empty cell", row[0], rows[0][1+k], row[1+k])
			}
		}
	}
	readReport(t, dir)
}

// TestReportBounded: a report whose detailed sections would pass its byte
// budget keeps the first ones that fit, links the others' rows to their
// mapping files, says how many it left out, and stays within the budget;
// hetmap report regenerates it byte for byte. The synthetic system of 250
// tasks: a section takes most of a megabyte (timelines and tables of 250
// tasks), so that a budget of 2 MB holds one or two of the five.
func TestReportBounded(t *testing.T) {
	if testsize.Reduced() {
		t.Skip("a search on 250 tasks")
	}
	cfg, out, err := scalerun.Search(1500, 20, optimizer.Options{Workers: 2, NoMargins: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Front) <= results.DetailPoints {
		t.Fatalf("a front of %d points: too few to detail %d", len(out.Front), results.DetailPoints)
	}
	defer func(b int) { *report.Budget = b }(*report.Budget)
	*report.Budget = 2_000_000
	dir := filepath.Join(t.TempDir(), "run")
	if err := runwrite.Write(dir, cfg, out, results.RunInfo{Version: "test", Workers: 1}); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, results.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	sections := strings.Count(string(html), `<details id="point-`)
	if len(html) > *report.Budget || sections == 0 || sections >= results.DetailPoints ||
		!strings.Contains(string(html), fmt.Sprintf("The sections of %d more would take this page past 2 MB.", results.DetailPoints-sections)) ||
		!strings.Contains(string(html), fmt.Sprintf(`href="mappings/point-%d.yaml"`, sections+1)) {
		t.Errorf("report of %d bytes with %d sections (budget %d)", len(html), sections, *report.Budget)
	}
	var again bytes.Buffer
	if err := report.WriteReport(&again, dir); err != nil || !bytes.Equal(again.Bytes(), html) {
		t.Errorf("hetmap report does not regenerate the bounded report (%v)", err)
	}
	t.Logf("%d bytes, %d of %d sections", len(html), sections, results.DetailPoints)
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
