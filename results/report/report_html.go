package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"

	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
)

// MaxBytes bounds report.html: a page headless Chromium opens in a
// few seconds whatever the system (about a second a megabyte on a loaded
// machine of 2 cores, most of it building the tables and the SVG of the
// detailed sections). The sections of the points the run details (their
// timelines and tables grow with the tasks: most of a megabyte each at 250
// tasks) are kept, in order, while the page stays within it; the others'
// are left to hetmap report --point, and the page says so.
const MaxBytes = 3_000_000

// reportBudget is MaxBytes, lowered by tests.
var reportBudget = MaxBytes

// renderReport writes report.html: one self-contained page (inline CSS and
// SVG, no script, nothing fetched) with the front's table and plots and
// the sections of the points it details, as many as fit MaxBytes.
func renderReport(w io.Writer, run *reportRun, progress func(results.WriteProgress)) error {
	v := buildView(run)
	axes := objectiveAxes(run)
	col := taskColours(run.Config.System)
	var head, tail bytes.Buffer
	if err := reportTemplate.ExecuteTemplate(&head, "top", v); err != nil {
		return err
	}
	if err := reportTemplate.ExecuteTemplate(&tail, "bottom", v); err != nil {
		return err
	}
	// The sections, each built and written to memory in turn, while they
	// fit; a margin for the rows' links that change when some do not.
	size := head.Len() + tail.Len() + 64*len(run.points)
	var sections []*bytes.Buffer
	done, full := 0, false
	for i, row := range run.points {
		if !row.detail {
			continue
		}
		if progress != nil {
			progress(results.WriteProgress{Stage: results.StageReport, Done: done, Total: v.Details})
		}
		done++
		if full {
			run.points[i].detail = false // the sections shown are the first ones
			continue
		}
		p, err := run.loadPoint(row.ID)
		if err != nil {
			return err
		}
		var b bytes.Buffer
		if err := reportTemplate.ExecuteTemplate(&b, "point", buildPoint(run, i, p, axes, col)); err != nil {
			return err
		}
		if size+b.Len() > reportBudget {
			run.points[i].detail, full = false, true
			continue
		}
		size += b.Len()
		sections = append(sections, &b)
	}
	if progress != nil {
		progress(results.WriteProgress{Stage: results.StageReport, Done: done, Total: v.Details})
	}
	if len(sections) < v.Details {
		// Some did not fit: the table links their mapping files.
		cut := v.Details
		v = buildView(run)
		v.DetailsCut = cut - v.Details
		head.Reset()
		if err := reportTemplate.ExecuteTemplate(&head, "top", v); err != nil {
			return err
		}
	}
	if _, err := head.WriteTo(w); err != nil {
		return err
	}
	for _, b := range sections {
		if _, err := b.WriteTo(w); err != nil {
			return err
		}
	}
	_, err := tail.WriteTo(w)
	return err
}

// renderPointPage writes the page of point id (pointPage): its section,
// open, under a head that names the run.
func renderPointPage(w io.Writer, run *reportRun, id int) error {
	i := -1
	for k, row := range run.points {
		if row.ID == id {
			i = k
		}
	}
	if i < 0 {
		what := "front point"
		if !run.Front.Feasible {
			what = "least-violating mapping"
		}
		return &runfolder.Error{Dir: run.Dir, Err: fmt.Errorf("%s has no %s %d (there are %d)", run.Dir, what, id, len(run.points))}
	}
	p, err := run.loadPoint(id)
	if err != nil {
		return err
	}
	pv := buildPoint(run, i, p, objectiveAxes(run), taskColours(run.Config.System))
	pv.Open, pv.Reading = true, "../"+results.ReportFile+"#reading"
	v := buildView(run)
	return reportTemplate.ExecuteTemplate(w, "page", struct {
		Run   *reportView
		Point pointView
		Back  string
	}{v, pv, "../" + results.ReportFile + "#" + pv.Anchor})
}

var reportTemplate = template.Must(template.New("report").Parse(reportHTML))

const reportHTML = `{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="hetmap">
<title>{{.}}</title>
<style>
` + reportCSS + `
</style>
</head>
<body>
{{end}}{{define "top"}}{{template "head" .Title}}<header>
<h1>{{.Title}}</h1>
<p class="lead">{{.Subtitle}}</p>
{{if .Interrupted}}<div class="warn" id="interrupted"><strong>{{.Interrupted}}</strong></div>{{end}}
<div class="{{if eq .Proof.Exactness 1}}proof{{else}}warn{{end}}" id="proof"><strong>Front {{.Proof.Statement}}.</strong>{{if .Proof.Undecided}} Undecided mappings{{if gt .Proof.UndecidedCount (len .Proof.Undecided)}} (the first {{len .Proof.Undecided}} of {{.Proof.UndecidedCount}}){{end}}:<ul>{{range .Proof.Undecided}}<li>{{.}}</li>{{end}}</ul>{{end}}</div>
<nav><a href="#summary">System</a> · <a href="#{{.FrontID}}">{{.FrontTitle}}</a> · <a href="#mappings">Mappings</a> · <a href="#run">Run</a> · <a href="#reading">How to read</a></nav>
</header>

<section id="summary">
<h2>System</h2>
<div class="cols">
<div>
<dl class="facts">{{range .Summary.Facts}}<dt>{{.Key}}</dt><dd>{{.Value}}</dd>{{end}}</dl>
</div>
<div>
{{if .Summary.Chains}}<h3>Chains</h3>
<table class="grid">
<thead><tr><th>chain</th><th>tasks (cause → effect)</th></tr></thead>
<tbody>{{range .Summary.Chains}}<tr><td class="name">{{.Name}}</td><td>{{.Tasks}}</td></tr>
{{end}}</tbody>
</table>{{end}}
</div>
</div>
<h3>Units</h3>
<table class="grid">
<thead><tr><th>unit</th><th>kind</th><th>type</th><th>frequency</th><th>DRAM access per 64-byte line</th><th>resources</th></tr></thead>
<tbody>{{range .Summary.Units}}<tr><td>{{.Name}}</td><td>{{.Kind}}</td><td>{{.Type}}</td><td class="num">{{.Frequency}}</td><td>{{.Memory}}</td><td>{{.Resources}}</td></tr>
{{end}}</tbody>
</table>
<h3>Tasks</h3>
<table class="grid">
<thead><tr><th>task</th><th>kind</th><th>period</th><th>deadline</th><th>can run on</th><th>offloading</th></tr></thead>
<tbody>{{range .Summary.Tasks}}<tr><td class="task"><span class="chip" style="background:{{.Colour}}"></span>{{.Name}}</td><td>{{.Kind}}</td><td class="num">{{.Period}}</td><td class="num">{{.Deadline}}</td><td>{{.Units}}</td><td>{{.Offload}}</td></tr>
{{end}}</tbody>
</table>
{{if .Summary.Warnings}}<details class="warnings"><summary>{{len .Summary.Warnings}} warning(s) of the model, resolved by convention</summary>
<ul>{{range .Summary.Warnings}}<li>{{.}}</li>{{end}}</ul>
</details>{{end}}
</section>

<section id="{{.FrontID}}">
<h2>{{.FrontTitle}}</h2>
<p>{{.FrontIntro}}</p>
{{if .FrontSVG}}<figure class="plot" data-plot="front-{{.FrontKind}}">
{{.FrontSVG}}
<figcaption>{{if eq .FrontKind "bars"}}The front has one point: every objective's value (lower is better).{{else if eq .FrontKind "scatter"}}The front projected on every pair of objectives (row: the objective on the vertical axis; column: on the horizontal axis); lower is better on every axis. Numbers are the points.{{else}}The front as a normalised table: a row per point, a column per objective, each cell shaded from the front's best value of its objective (light) to its worst (dark); lower is better.{{end}}</figcaption>
</figure>{{end}}
<table class="grid front">
<thead><tr><th>#</th>{{if .Feasible}}{{range .FrontHead}}<th>{{.}}</th>{{end}}{{else}}<th>violation</th><th>misses</th>{{end}}<th>busiest core</th><th>margin</th><th>mapping (unit: tasks)</th></tr></thead>
<tbody>{{range .FrontRows}}<tr><td><a href="{{.Href}}">{{.ID}}</a></td>{{range .Values}}<td class="num">{{.}}</td>{{end}}{{if .Misses}}<td><ul class="misses">{{range .Misses}}<li>{{.}}</li>{{end}}</ul></td>{{end}}<td class="num">{{.MaxUtil}}</td><td class="num">{{.Margin}}</td><td class="units">{{.Units}}</td></tr>
{{end}}</tbody>
</table>
</section>

<section id="mappings">
<h2>Mappings</h2>
<p>{{if eq .Details (len .FrontRows)}}One section per {{if .Feasible}}point of the front{{else}}least-violating mapping{{end}}{{else}}The first {{.Details}} {{if .Feasible}}points of the front{{else}}least-violating mappings{{end}} of {{len .FrontRows}}, one section each{{end}}; click a heading to open or close it. Colours stand for tasks throughout (a GPU task shares the colour of the task that offloads it).{{if .DetailsCut}} The sections of {{.DetailsCut}} more would take this page past {{.MaxBytes}} MB.{{end}}{{if lt .Details (len .FrontRows)}} Any other: <code>hetmap report . --point N</code>, run in this folder, writes its section as the page points/point-N.html; <code>hetmap analyze --config config.yaml --mapping mappings/point-N.yaml --json</code> gives its full evaluation.{{end}}</p>
{{end}}{{define "point"}}<details id="{{.Anchor}}" class="point"{{if .Open}} open{{end}}>
<summary><span class="ptitle">{{.Heading}}</span>{{if .Objectives}} <span class="pobj">{{.Objectives}}</span>{{end}}{{if .Violation}} <span class="pviol">{{.Violation}}</span>{{end}}</summary>
<div class="pbody">
<p class="units">{{.Units}} <span class="file">({{.MappingFile}}: <code>hetmap analyze --config config.yaml --mapping {{.MappingFile}}</code>)</span></p>
{{if .Reasons}}<div class="warn"><strong>Misses:</strong><ul>{{range .Reasons}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
{{if .Differs}}<div class="warn">This hetmap re-evaluates the mapping differently from the evaluation the folder records in {{range $i, $d := .Differs}}{{if $i}}, {{end}}{{$d}}{{end}}: the folder was written by another version. The tables show the recorded evaluation; the timeline shows the re-evaluation.</div>{{end}}
<div class="legend">{{range .Legend}}<span class="item"><span class="chip" style="background:{{.Colour}}"></span>{{.Name}}</span>{{end}}</div>
<h3>Mapping</h3>
<table class="grid mapping">
<thead><tr><th>task</th>{{range .Mapping.Units}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Mapping.Rows}}<tr><td class="task"><span class="chip" style="background:{{.Colour}}"></span>{{.Task}}</td>{{if .Note}}<td class="note" colspan="{{len .Cells}}">{{.Note}}</td>{{else}}{{range .Cells}}<td class="{{.Class}}">{{.Text}}</td>{{end}}{{end}}</tr>
{{end}}</tbody>
</table>
<h3>Utilisation</h3>
<figure class="plot" data-plot="utilisation">
{{.UtilSVG}}
<figcaption>Σ C/T per unit, split by task (busy-waiting offloading tasks hatched: their C includes the GPU response). GPU: the kernels' isolated times and the copies, per period.</figcaption>
</figure>
{{if .Margin}}<p class="margin">{{.Margin}}</p>{{end}}
{{if .SlackSVG}}<h3>Slack</h3>
<figure class="plot" data-plot="slack">
{{.SlackSVG}}
<figcaption>Per task its slack, D − R: how much later it could respond and still meet its deadline, as a share of D (the margin above scales execution instead).</figcaption>
</figure>{{end}}
<h3>Response times</h3>
<table class="grid rt">
<thead><tr><th>task</th><th>role</th><th>prio</th><th>C</th><th>compute</th><th>memory</th><th>contention</th><th>GPU wait</th><th>suspension</th><th>R</th><th>D</th><th>ok</th></tr></thead>
{{range .RT}}<tbody><tr class="group"><th colspan="12">{{.Head}}</th></tr>
{{range .Rows}}<tr{{if .Miss}} class="miss"{{end}}><td class="task"><span class="chip" style="background:{{.Colour}}"></span>{{.Task}}</td><td>{{.Role}}</td><td class="num">{{.Prio}}</td><td class="num strong">{{.C}}</td>{{range .Terms}}<td class="num{{if .Zero}} zero{{end}}">{{.Text}}</td>{{end}}<td class="num strong">{{.R}}</td><td class="num">{{.D}}</td><td>{{.OK}}</td></tr>
{{end}}</tbody>{{end}}
</table>
<p class="caption">C = compute + memory (uncontended) + contention + GPU wait (synchronous offloading: the core spins for the GPU response); the suspension of asynchronous offloading is not part of C. R is the worst-case response time, D the deadline; priorities: higher = more urgent.{{if not .Windows.Challenge}} Under the {{.Windows.Count}} count R charges the contention of its response window (below) instead of C's per-job contention, so it can be below C.{{end}}</p>
{{if .Windows.Rows}}<h3>Contention in the response windows</h3>
<table class="grid rt windows">
<thead><tr><th>task</th><th>window</th><th>accesses</th><th>challenge</th><th>refined</th>{{if .Windows.Request}}<th>request</th>{{end}}<th>R from</th>{{range .Windows.Units}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Windows.Rows}}<tr><td class="task"><span class="chip" style="background:{{.Colour}}"></span>{{.Task}}</td><td class="num">{{.Window}}</td><td class="num">{{.Accesses}}</td><td class="num">{{.Challenge}}</td><td class="num">{{.Refined}}</td>{{if .ShowRequest}}<td class="num">{{.Request}}</td>{{end}}<td>{{.From}}</td>{{range .Cells}}<td class="num{{if .Zero}} zero{{end}}">{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
<p class="caption">A task's window is its response time; its accesses are those of its job and of the jobs above it there. Challenge charges each of them every other memory user; refined only as many as can overlap each unit's memory phases there{{if .Windows.Request}}; request also at most one per line request of the unit (it assumes round-robin memory arbitration with one outstanding request per client, which the challenge does not state){{end}}. R from: the window term, or C where it gave no less. Per other core and the copy engine: the accesses charged its contention{{if .Windows.Challenge}} under the refined count{{end}}, with the term that binds (L, lines: all of them; T, time: its busy time and memory phases{{if .Windows.Request}}; R, requests: its line requests{{end}}; –: it moves no line there; ·: the task's own core).</p>{{end}}
{{if .GPU}}<table class="grid rt">
<thead><tr><th>GPU task</th><th>{{.GPUKnob}}</th><th>kernel geometry</th><th>copy-in wait</th><th>copy in</th><th>kernel queue</th><th>kernel</th><th>copy-out wait</th><th>copy out</th><th>R</th><th>D</th><th>ok</th></tr></thead>
<tbody>{{range .GPU}}<tr{{if .Miss}} class="miss"{{end}}><td class="task"><span class="chip" style="background:{{.Colour}}"></span>{{.Task}}</td><td>{{.Knob}}</td><td>{{.Geometry}}</td><td class="num">{{.CopyInWait}}</td><td class="num">{{.CopyIn}}</td><td class="num">{{.KernelQueue}}</td><td class="num">{{.Kernel}}</td><td class="num">{{.CopyOutWait}}</td><td class="num">{{.CopyOut}}</td><td class="num strong">{{.R}}</td><td class="num">{{.D}}</td><td>{{.OK}}</td></tr>
{{end}}</tbody>
</table>
<p class="caption">R of a GPU task: from the copy-in call to the end of the copy out (the offloading task's R includes it).</p>{{end}}
<h3>Timeline</h3>
<figure class="plot" data-plot="timeline">
{{.Timeline}}
<figcaption>{{.TLNote}}Solid: execution (offloading tasks: pre-, then post-processing); hatched: busy-wait for the GPU; dashed line under a lane: suspended (asynchronous offloading); outlined on the copy engine: copies. See <a href="{{.Reading}}">How to read</a> for the simulation's rules.</figcaption>
</figure>
{{if .Hops}}<h3>Chains</h3>
<figure class="plot" data-plot="chains">
{{.Chains}}
<figcaption>Bars: the worst job chain of every chain's metric ({{.ChainObj}}) with every task released at its model offset (synchronous release), split into its hops: the sampling delay (the cause arrives just after the first task read), each job's response after it read, and the waits until the next task samples the data. Line under a bar: the latency the optimizer minimises, from a lower bound on its minimum to its maximum. ⇒ in the table: a hop between two tasks of one core ordered by their priorities (the consumer reads after the producer wrote).</figcaption>
</figure>
<table class="grid chains">
<thead><tr><th>chain</th><th>members (unit)</th><th>latency, min – max</th><th>synchronous release, min – max</th><th>any offsets, min – max</th><th>hops (synchronous release)</th></tr></thead>
<tbody>{{range .Hops}}<tr><td class="name">{{.Name}}</td><td>{{.Members}}</td><td class="num strong">{{.Latency}}</td><td class="num">{{.Synchronous}}</td><td class="num">{{.AnyOffset}}</td><td>{{.Hops}}</td></tr>
{{end}}</tbody>
</table>{{end}}
</div>
</details>
{{end}}{{define "bottom"}}</section>

<section id="run">
<h2>Run</h2>
<table class="grid kv">
<tbody>{{range .Manifest}}<tr><th>{{.Key}}</th><td>{{if .Code}}<code>{{.Value}}</code>{{else}}{{.Value}}{{end}}</td></tr>
{{end}}</tbody>
</table>
<h3>Search settings</h3>
<table class="grid kv">
<tbody>{{range .Settings}}<tr><th>{{.Key}}</th><td>{{.Value}}</td></tr>
{{end}}</tbody>
</table>
<p class="caption">From manifest.json. <code>hetmap report DIR</code> writes this page again from the folder's files (config.yaml, front.json, manifest.json and the evaluation files of the detailed points, mappings/point-N.json).</p>
</section>

<section id="reading">
<h2>How to read</h2>
<ul>
<li><strong>Response times</strong> are the analysis's sound bounds (memory-contention-aware fixed-priority response-time analysis of the cores, the block-level analysis of the GPU); a mapping is feasible when every task's R ≤ D.</li>
<li><strong>The timeline is a simulation, not a bound.</strong> Every task is released at 0 (offsets ignored) and then periodically; every job takes its worst-case ticks. The window is the longest period among the running tasks (at most 1 s). Cores: fixed-priority preemptive in the analysed priority order. A job reads, computes and writes runnable by runnable, and each DRAM line takes the baseline plus K for every other core in a memory phase during it and sGPU if the copy engine transfers during it (the challenge's semantics; the analysis charges every line the worst case of that, so a simulated job can take less than its analysed C). An offloading job runs its pre-processing, submits its GPU job (copy in on the copy engine, kernel on the GPU, copy out), busy-waits (synchronous; the spinning job can be preempted) or suspends (asynchronous), then runs its post-processing. The copy engine serves one copy at a time, first come first served, line by line. Under the fifo model kernels are dispatched block by block onto the SMs by the TX2's rules (FIFO per stream priority, a high-priority kernel takes the slots that free up, blocks are not preempted); under the timeslice model kernels take turns for at most their slice. The analysis covers the releases, execution times and orders this simulation does not show.</li>
<li><strong>Chains</strong>: the latency the optimizer minimises, from a lower bound on its shortest to its longest; the chain table also gives the job-level values, which assume every task released at its model offset, and the bounds for any offsets of Davare et al. (DAC 2007), Dürr et al. (EMSOFT 2019) and per hop, the least of which holds whatever the offsets.</li>
</ul>
</section>
</body>
</html>
{{end}}{{define "page"}}{{template "head" (printf "%s: %s" .Run.Title .Point.Heading)}}<header>
<h1>{{.Run.Title}}: {{.Point.Heading}}</h1>
<p class="lead">{{.Run.Subtitle}}</p>
{{if .Run.Interrupted}}<div class="warn" id="interrupted"><strong>{{.Run.Interrupted}}</strong></div>{{end}}
<nav><a href="{{.Back}}">Back to the report</a> (its front table and the rules of the analysis and of the timeline)</nav>
</header>
<section id="mappings">
{{template "point" .Point}}</section>
</body>
</html>
{{end}}`

const reportCSS = `:root { --ink: #1d232b; --muted: #5b6470; --line: #d5dae1; --band: #f4f6f9; --accent: #2b5c9e; --bad: #c62828; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1260px; padding: 24px 32px 64px; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; }
h1 { font-size: 28px; margin: 0 0 4px; }
h2 { font-size: 22px; margin: 40px 0 12px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 17px; margin: 24px 0 8px; }
a { color: var(--accent); }
.lead { color: var(--muted); margin: 0 0 8px; }
nav { font-size: 14px; }
code { font: 13px/1.4 "Liberation Mono", Menlo, Consolas, monospace; background: var(--band); padding: 1px 4px; border-radius: 3px; }
.cols { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 8px 40px; align-items: start; }
.cols h3:first-child { margin-top: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
table.grid { border-collapse: collapse; margin: 8px 0; font-size: 13.5px; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
table.grid thead th { background: var(--band); font-weight: 600; }
table.grid td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.grid td.strong { font-weight: 600; }
table.grid td.zero { color: #a0a7b1; }
table.grid td.task, table.grid td.name { white-space: nowrap; }
table.grid tr.group th { background: #eef2f7; font-weight: 600; }
table.grid tr.miss td { background: #fdecea; }
table.grid tr.miss td:last-child { color: var(--bad); font-weight: 700; }
table.windows { font-size: 12.5px; }
table.windows th, table.windows td { padding: 3px 6px; }
table.windows td { white-space: nowrap; }
table.kv th { background: var(--band); font-weight: 600; width: 220px; }
table.mapping td { white-space: nowrap; }
table.mapping td.note { color: var(--muted); font-style: italic; }
td.role-run { background: #eef5ec; }
td.role-sync { background: #fff1e0; }
td.role-async { background: #e7f0fb; }
td.role-merged { background: #f3eaf6; }
td.role-gpu { background: #e6f6f4; }
td.units, p.units { font-size: 13px; }
.file { color: var(--muted); }
ul.misses { margin: 0; padding-left: 18px; }
.chip { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; border: 1px solid rgba(0,0,0,.35); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; margin: 8px 0; padding: 6px 10px; background: var(--band); border-radius: 4px; }
figure.plot { margin: 8px 0 16px; }
figure.plot figcaption, p.caption { color: var(--muted); font-size: 13px; max-width: 1200px; }
svg.plot { display: block; max-width: 100%; height: auto; }
svg.plot text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
details.point { border: 1px solid var(--line); border-radius: 6px; margin: 12px 0; }
details.point > summary { cursor: pointer; padding: 10px 14px; background: var(--band); border-radius: 6px; font-size: 15px; }
details.point[open] > summary { border-bottom: 1px solid var(--line); border-radius: 6px 6px 0 0; }
.ptitle { font-weight: 700; font-size: 17px; margin-right: 8px; }
.pobj { color: var(--ink); font-variant-numeric: tabular-nums; }
.pviol { color: var(--bad); font-weight: 600; }
.pbody { padding: 4px 16px 12px; overflow-x: auto; }
.warn { background: #fff4e5; border-left: 4px solid #f0a030; padding: 8px 12px; margin: 8px 0; }
.warn ul { margin: 4px 0 0; padding-left: 20px; }
.proof { background: #eaf5ea; border-left: 4px solid #3a9a3a; padding: 8px 12px; margin: 8px 0; }
details.warnings { margin-top: 12px; font-size: 13.5px; }
#reading li { margin-bottom: 6px; }
@media (min-width: 1700px) { body { max-width: 1640px; } }
@media print { details.point { break-inside: avoid; } }`
