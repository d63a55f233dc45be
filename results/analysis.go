package results

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// AnalysisJSON is the machine-readable analysis of one mapping. Times are
// nanoseconds rounded up from the internal picoseconds, so a bound stays a
// bound; a response time that is no bound (bounded false: the task's
// verdict is one of the "no bound" ones) is null, whatever value the
// analysis stopped at.
type AnalysisJSON struct {
	System      string                     `json:"system"`
	Source      string                     `json:"source"`
	Mapping     string                     `json:"mapping"`
	GPUModel    configs.GPUModel           `json:"gpu_model"`
	Priorities  configs.PriorityAssignment `json:"priorities"`
	Schedulable bool                       `json:"schedulable"`
	// Misses counts the running tasks that miss their deadline or have no
	// bound; ViolationNs sums by how much (see evaluate.Analysis.Violation).
	Misses      int   `json:"misses"`
	ViolationNs int64 `json:"violation_ns"`
	Contention  struct {
		// Count is analysis.contention: challenge, refined or request;
		// under request, RequestAssumption names what its numbers rest on.
		Count             configs.ContentionCount `json:"count"`
		RequestAssumption string                  `json:"request_assumption,omitempty"`
		// Rounds and Converged: the refined analysis's cross-core rounds
		// (0 under the challenge count).
		Rounds           int  `json:"rounds"`
		Converged        bool `json:"converged"`
		CopyEngineActive bool `json:"copy_engine_active"`
		CopyEngineCores  int  `json:"copy_engine_interfering_cores"`
	} `json:"contention"`
	GPUSound bool               `json:"gpu_sound"`
	Tasks    []AnalysisTaskJSON `json:"tasks"`
	Merged   []MergedJSON       `json:"merged"`
	GPU      []AnalysisGPUJSON  `json:"gpu"`
	Units    []AnalysisUnitJSON `json:"units"`
	Reasons  []string           `json:"reasons"`
	// ModelPriorities is conventions.priorities, how the model's own
	// priorities were read, for the model's own mapping (mapping
	// "default"); empty for a mapping file.
	ModelPriorities configs.PriorityConvention `json:"model_priorities,omitempty"`
	// Chains holds the end-to-end latencies (after evaluate.Evaluator.AnalyzeChains).
	Chains []ChainJSON `json:"chains"`
	// Requirements holds the chains' latency requirements; a missed one
	// makes the mapping infeasible.
	Requirements []RequirementJSON `json:"requirements,omitempty"`
	// NotApplied lists the tasks' requirements of the model that the
	// deadline convention sets aside: the verdicts do not check them.
	NotApplied []NotAppliedJSON `json:"requirements_not_applied"`
	// Margins are the mapping's margins (evaluate.Margins), when they
	// were computed.
	Margins *MarginsJSON `json:"margins,omitempty"`
}

// AnalysisTaskJSON is one running task. WCETNs = ComputeNs + MemoryNs +
// ContentionNs + GPUWaitNs up to rounding (each is rounded up on its own).
// An offloading task whose GPU response has no bound has no bound of its
// GPU wait or suspension either, nor, waiting actively, of its C: those
// are null (evaluate.Analysis.WaitBounded).
type AnalysisTaskJSON struct {
	Name     string `json:"name"`
	Unit     string `json:"unit"`
	Role     string `json:"role"`
	Priority *int   `json:"priority,omitempty"`
	PeriodNs int64  `json:"period_ns"`
	// DeadlineNs is the model's deadline, 0 when it has none (the period
	// is then checked).
	DeadlineNs   int64  `json:"deadline_ns"`
	WCETNs       *int64 `json:"wcet_ns"`
	ComputeNs    int64  `json:"compute_ns"`
	MemoryNs     int64  `json:"memory_ns"`
	ContentionNs int64  `json:"contention_ns"`
	GPUWaitNs    *int64 `json:"gpu_wait_ns"`
	SuspensionNs *int64 `json:"suspension_ns"`
	Lines        int64  `json:"lines"`
	// ResponseTimeNs is the response-time bound R, null when Bounded is
	// false (the analysis gives no bound: no number is one).
	ResponseTimeNs *int64 `json:"response_time_ns"`
	BCRTNs         int64  `json:"bcrt_ns"`
	Bounded        bool   `json:"bounded"`
	// Verdict says what happened (evaluate.Analysis.VerdictWords: a GPU
	// response that is no bound says whether it passes the period or was
	// withdrawn, and why).
	Verdict     string `json:"verdict"`
	Schedulable bool   `json:"schedulable"`
	// Cause names, for a task that does not meet its deadline, the task
	// whose own test fails and from which its verdict follows (itself when
	// its own test fails; evaluate.Analysis.Cause); empty when it meets.
	Cause string `json:"cause,omitempty"`
	// Window is the contention of the task's response window under the
	// counts (evaluate.TaskContention), for a task on a core with a bound
	// once the analysis ran evaluate.Evaluator.AnalyzeContention.
	Window *WindowJSON `json:"window_contention,omitempty"`
}

// WindowJSON is the contention of one task's response window: the window
// (the task's R), the memory accesses of its job and of the jobs above it
// there, and the contention charged for them under the challenge count
// (every access, every other memory user) and the refined count (and the
// request count when it is the count in force); per other core and the
// copy engine, the overlap under the count in force (refined under the
// challenge count) with the terms of its minimum and the one that binds.
type WindowJSON struct {
	WindowNs    int64  `json:"window_ns"`
	Accesses    int64  `json:"accesses"`
	ChallengeNs int64  `json:"challenge_ns"`
	RefinedNs   int64  `json:"refined_ns"`
	RequestNs   *int64 `json:"request_ns,omitempty"`
	// PerJobBound: the challenge's per-job charge gave R (the window term
	// gave no less); false under the challenge count.
	PerJobBound bool                   `json:"per_job_bound"`
	Interferers []WindowInterfererJSON `json:"interferers"`
}

// WindowInterfererJSON is one interferer's overlap with a task's window:
// Overlap accesses charged, the least of Lines (the window's accesses),
// TimeCount (floor(busy time / baseline) + 2·phases) and, under the request
// count, Requests (the interferer's line requests in the window); Binds
// names the term that gives it ("lines", "time", "requests", or "none"
// when the interferer moves no line in the window).
type WindowInterfererJSON struct {
	Unit      string `json:"unit"`
	Overlap   int64  `json:"overlap"`
	Binds     string `json:"binds"`
	Lines     int64  `json:"lines"`
	TimeCount int64  `json:"time_count"`
	Requests  int64  `json:"requests"`
}

// MergedJSON names an offloading task that does not run because its GPU
// task is merged onto a core.
type MergedJSON struct {
	OffloadingTask string `json:"offloading_task"`
	MergedInto     string `json:"merged_into"`
	Unit           string `json:"unit"`
}

// AnalysisGPUJSON is one GPU task on the GPU with its response terms.
type AnalysisGPUJSON struct {
	Name            string `json:"name"`
	StreamPriority  string `json:"stream_priority,omitempty"`
	TimeSliceNs     int64  `json:"time_slice_ns,omitempty"`
	Blocks          int    `json:"blocks"`
	ThreadsPerBlock int    `json:"threads_per_block"`
	BlockTimeNs     int64  `json:"block_time_ns"`
	CopyInWaitNs    int64  `json:"copy_in_wait_ns"`
	CopyInNs        int64  `json:"copy_in_ns"`
	KernelQueueNs   int64  `json:"kernel_queue_ns"`
	KernelNs        int64  `json:"kernel_ns"`
	CopyOutWaitNs   int64  `json:"copy_out_wait_ns"`
	CopyOutNs       int64  `json:"copy_out_ns"`
	// ResponseNs is the GPU response (copy-in call to the end of the copy
	// out), null when it is no bound (the GPU task's bounded is false);
	// the terms above are what the analysis computed either way.
	ResponseNs   *int64 `json:"response_ns"`
	BlockingNs   int64  `json:"blocking_ns,omitempty"`
	Bound        string `json:"bound"`
	WithinPeriod bool   `json:"within_period"`
}

// AnalysisUnitJSON is one unit under the mapping.
type AnalysisUnitJSON struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Tasks int    `json:"tasks"`
	// Utilisation (Σ C/T, 1 = 100 %, C with its per-job contention: the
	// challenge count's) and CopyUtilisation are exact, not rounded:
	// whoever prints them rounds once (FormatPercent).
	Utilisation     float64 `json:"utilisation"`
	CopyUtilisation float64 `json:"copy_utilisation,omitempty"`
	// Demand is, on a CPU core with tasks under the refined and request
	// counts, the share of the core that count charges in the long run
	// (Σ C⁰/T plus its contention per unit of time; evaluate.UnitResult
	// .Demand), what the verdicts rest on; DemandCount names the count.
	// Absent under the challenge count, where it is Utilisation.
	Demand           *float64                `json:"demand,omitempty"`
	DemandCount      configs.ContentionCount `json:"demand_count,omitempty"`
	AccessesMemory   bool                    `json:"accesses_memory"`
	InterferingCores int                     `json:"interfering_cores"`
	CopyEngineActive bool                    `json:"copy_engine_active"`
	LineLatencyPs    int64                   `json:"line_latency_ps"`
	Priorities       string                  `json:"priorities,omitempty"`
}

func ns(ps int64) int64 { return configs.Duration(ps).Nanoseconds() }

// NewAnalysisJSON builds the JSON form of an evaluated mapping. mapping
// names it ("default" or the file).
func NewAnalysisJSON(cfg *configs.Config, mapping string, r *evaluate.Analysis) AnalysisJSON {
	out := AnalysisJSON{System: cfg.System.Name, Source: cfg.Source, Mapping: mapping, GPUModel: r.GPUModel,
		Priorities: cfg.Analysis.Priorities, Schedulable: r.Schedulable, Misses: r.Misses, ViolationNs: ns(r.Violation),
		GPUSound: r.GPUSound, Tasks: []AnalysisTaskJSON{}, Merged: []MergedJSON{}, GPU: []AnalysisGPUJSON{}, Reasons: r.Reasons()}
	if mapping == "default" {
		out.ModelPriorities = cfg.Conventions.Priorities
	}
	out.Chains = NewChainsJSON(r)
	out.Requirements = NewRequirementsJSON(r)
	out.NotApplied = NewNotAppliedJSON(cfg)
	out.Margins = NewMarginsJSON(r.Margins)
	if out.Reasons == nil {
		out.Reasons = []string{}
	}
	out.Contention.CopyEngineActive = r.CopyEngineActive
	out.Contention.CopyEngineCores = r.InterferingCoresCE
	out.Contention.Count, out.Contention.Rounds, out.Contention.Converged = r.ContentionCount, r.Rounds, r.Converged
	if r.ContentionCount == configs.ContentionRequest {
		out.Contention.RequestAssumption = configs.RequestAssumption
	}
	windows := map[int]*evaluate.TaskContention{}
	for i := range r.Windows {
		windows[r.Windows[i].Task] = &r.Windows[i]
	}
	for u := range r.Units {
		for _, k := range tasksOn(r, u) {
			t := &r.Tasks[k]
			c, wait, susp := ns(t.C), ns(t.GPUWait), ns(t.Suspension)
			tj := AnalysisTaskJSON{Name: t.Name, Unit: t.UnitName, Role: t.Role.String(), PeriodNs: ns(t.T), WCETNs: &c,
				ComputeNs: ns(t.Compute), MemoryNs: ns(t.Memory), ContentionNs: ns(t.Contention), GPUWaitNs: &wait,
				SuspensionNs: &susp, Lines: t.Lines, BCRTNs: ns(t.BCRT), Bounded: t.Verdict.Bounded(),
				Verdict: r.VerdictWords(k), Schedulable: t.Verdict == evaluate.Meets}
			if c := r.Cause(k); c >= 0 {
				tj.Cause = r.Tasks[c].Name
			}
			if !r.WaitBounded(k) {
				tj.GPUWaitNs, tj.SuspensionNs = nil, nil
				if t.GPUWait > 0 {
					tj.WCETNs = nil
				}
			}
			if t.HasDeadline {
				tj.DeadlineNs = ns(t.D)
			}
			if t.Role.OnCPU() {
				p := t.Priority
				tj.Priority = &p
			}
			if t.Verdict.Bounded() && t.R != rta.Infinity {
				v := ns(t.R)
				tj.ResponseTimeNs = &v
			}
			if w := windows[k]; w != nil {
				tj.Window = windowJSON(r, w)
			}
			out.Tasks = append(out.Tasks, tj)
		}
	}
	for k := range r.Tasks {
		t := &r.Tasks[k]
		if t.Role == evaluate.NotRunning {
			g := &r.GPU[t.GPU]
			out.Merged = append(out.Merged, MergedJSON{OffloadingTask: t.Name, MergedInto: g.Name, Unit: r.Tasks[g.Task].UnitName})
		}
	}
	for g := range r.GPU {
		gr := &r.GPU[g]
		if !gr.OnGPU {
			continue
		}
		resp := &gr.Response
		gj := AnalysisGPUJSON{Name: gr.Name, Blocks: gr.Blocks, ThreadsPerBlock: gr.ThreadsPerBlock, BlockTimeNs: ns(gr.BlockTime),
			CopyInWaitNs: ns(resp.CopyInWait), CopyInNs: ns(resp.CopyIn), KernelQueueNs: ns(resp.KernelQueue), KernelNs: ns(resp.KernelIsolated),
			CopyOutWaitNs: ns(resp.CopyOutWait), CopyOutNs: ns(resp.CopyOut), BlockingNs: ns(resp.Blocking),
			Bound: resp.Bound.String(), WithinPeriod: gr.WithinPeriod}
		if r.Tasks[gr.Task].Verdict.Bounded() {
			v := ns(resp.Total)
			gj.ResponseNs = &v
		}
		if r.GPUModel == configs.GPUModelFIFO {
			gj.StreamPriority = streamPriority(gr.High)
		} else {
			gj.TimeSliceNs = ns(gr.Slice)
		}
		out.GPU = append(out.GPU, gj)
	}
	for u := range r.Units {
		ur := &r.Units[u]
		uj := AnalysisUnitJSON{Name: ur.Name, Kind: ur.Kind, Tasks: ur.Tasks, Utilisation: ur.Utilisation,
			CopyUtilisation: ur.CopyUtilisation, AccessesMemory: ur.AccessesMemory, InterferingCores: ur.InterferingCores,
			CopyEngineActive: ur.CopyEngineActive, LineLatencyPs: ur.LineLatency}
		if !ur.GPU && ur.Tasks > 0 {
			uj.Priorities = priorityOrigin(ur)
		}
		if d, ok := countedDemand(r, u); ok {
			uj.Demand, uj.DemandCount = &d, r.ContentionCount
		}
		out.Units = append(out.Units, uj)
	}
	return out
}

// windowJSON is the JSON form of a task's window contention under the
// result's count.
func windowJSON(r *evaluate.Analysis, w *evaluate.TaskContention) *WindowJSON {
	request := r.ContentionCount == configs.ContentionRequest
	wj := &WindowJSON{WindowNs: ns(w.Window), Accesses: w.Accesses, ChallengeNs: ns(w.Challenge), RefinedNs: ns(w.Refined),
		PerJobBound: w.PerJobBound, Interferers: []WindowInterfererJSON{}}
	if request {
		v := ns(w.Request)
		wj.RequestNs = &v
	}
	for _, io := range w.Interferers {
		o := io.Refined
		if request {
			o = io.Request
		}
		wj.Interferers = append(wj.Interferers, WindowInterfererJSON{Unit: io.Name, Overlap: o.Count, Binds: o.By.String(),
			Lines: o.Lines, TimeCount: o.Time, Requests: o.Requests})
	}
	return wj
}

func streamPriority(high bool) string {
	if high {
		return "high"
	}
	return "low"
}

func priorityOrigin(ur *evaluate.UnitResult) string {
	if ur.Explicit {
		return "mapping"
	}
	return ur.Policy.String()
}

// tasksOn returns the running tasks of unit u, most urgent first (on the
// GPU in model order).
func tasksOn(r *evaluate.Analysis, u int) []int {
	var ids []int
	for k := range r.Tasks {
		if r.Tasks[k].Unit == u && r.Tasks[k].Role != evaluate.NotRunning {
			ids = append(ids, k)
		}
	}
	for i := 1; i < len(ids); i++ { // stable insertion sort by rank
		for j := i; j > 0 && r.Tasks[ids[j]].Rank < r.Tasks[ids[j-1]].Rank; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	return ids
}

// WriteAnalysisJSON writes the analysis as indented JSON.
func WriteAnalysisJSON(w io.Writer, cfg *configs.Config, mapping string, r *evaluate.Analysis) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewAnalysisJSON(cfg, mapping, r))
}

// WriteAnalysisText writes the analysis of a mapping for people: a table
// per unit (task, priority, C with its terms, R, D, verdict), the GPU tasks
// with their response terms, a verdict line and the reasons.
func WriteAnalysisText(w io.Writer, cfg *configs.Config, mapping string, r *evaluate.Analysis) error {
	s := cfg.System
	p := &printer{w: w}
	p.f("Analysis of mapping %s\nsystem: %s, from %s\n", mapping, s.Name, cfg.Source)
	bgpu := "0 (no GPU task on the GPU copies)"
	if r.CopyEngineActive {
		bgpu = "1 (a GPU task on the GPU copies)"
	}
	if cfg.Analysis.CopyEngineActive != nil {
		bgpu = strconv.FormatBool(r.CopyEngineActive) + " (fixed by analysis.copy_engine_active)"
	}
	conv := "#C of a core = the other cores with label accesses"
	if cfg.Analysis.InterferingCores != nil {
		conv = "#C fixed by analysis.interfering_cores"
	}
	p.f("GPU model %s; priorities %s (higher = more urgent); deadlines = %s\n", r.GPUModel, cfg.Analysis.Priorities, cfg.Conventions.Deadlines)
	if mapping == "default" || strings.HasPrefix(mapping, "default (") { // the model's own mapping
		p.f("the model's own priorities (conventions.priorities = %s): %s\n", cfg.Conventions.Priorities, configs.PriorityConventionText(cfg.Conventions.Priorities))
	}
	p.f("contention: %s; bGPU = %s\n", conv, bgpu)
	p.f("C = compute + memory (uncontended) + contention + GPU wait (synchronous offloading); suspension (asynchronous) is not part of C\n")
	if nas := cfg.NotAppliedRequirements(); len(nas) > 0 {
		p.f("requirements of the model not applied (convention: deadlines = %s; the verdicts do not check them):\n", cfg.Conventions.Deadlines)
		for _, na := range nas {
			p.f("  %s\n", NotAppliedLine(na, s.Task(na.Task).Period))
		}
	}
	switch r.ContentionCount {
	case configs.ContentionChallenge:
		p.f("contention count: challenge (every access of a core is charged every other memory user, as in C)\n")
	default:
		p.f("contention count: %s: R charges the contention of the task's response window, only for the accesses that can overlap\n", r.ContentionCount)
		p.f("  another core's or the copy engine's memory phases there (docs/contention.md), not C's per-job contention; %s after %d cross-core round(s)\n",
			convergedWord(r.Converged), r.Rounds)
		if r.ContentionCount == configs.ContentionRequest {
			p.f("  request count: at most one access per line request of the other unit; it assumes %s\n", configs.RequestAssumption)
		}
	}
	if len(r.Windows) > 0 {
		text := "contention in the response windows (below each core): a task's window is its R, its accesses those of its job and of " +
			"the jobs above it there. challenge charges each access every other memory user; refined only the accesses that can " +
			"overlap that unit's memory phases there"
		if r.ContentionCount == configs.ContentionRequest {
			text += "; request also at most one per line request of the unit"
		}
		text += ". R from: the window term, or C where that gave no less (C under the challenge count). Per other core and the " +
			"copy engine: the accesses charged its contention"
		if r.ContentionCount == configs.ContentionChallenge {
			text += " under the refined count"
		}
		text += ", with the binding term (lines: every one; time: as many as its busy time and phases there can overlap"
		if r.ContentionCount == configs.ContentionRequest {
			text += "; requests: one per line request it makes there"
		}
		text += "; –: it moves no line there)"
		for i, line := range wrapText(text, 120) {
			if i > 0 {
				p.f("  ")
			}
			p.f("%s\n", line)
		}
	}

	for u := range r.Units {
		ur := &r.Units[u]
		if ur.GPU {
			writeGPUTable(p, s, r, u)
			continue
		}
		ids := tasksOn(r, u)
		if len(ids) == 0 {
			p.f("\n%s (%s, %s): no task\n", ur.Name, ur.Kind, FormatFrequency(s.Units[u].Frequency))
			continue
		}
		mem := "accesses memory"
		if !ur.AccessesMemory {
			mem = "no label accesses"
		}
		p.f("\n%s (%s, %s): %s; %s; #C = %d, bGPU = %d: %s per line; priorities from %s\n",
			ur.Name, ur.Kind, FormatFrequency(s.Units[u].Frequency), loadWords(r, u), mem, ur.InterferingCores, b2i(ur.CopyEngineActive),
			FormatDuration(configs.Duration(ur.LineLatency)), priorityOrigin(ur))
		tw := p.table()
		fmt.Fprintln(tw, "  task\tprio\tC\tcompute\tmemory\tcontention\tGPU wait\tsuspension\tR\tT\tD\tok")
		for _, k := range ids {
			t := &r.Tasks[k]
			c, wait, susp := FormatDuration(configs.Duration(t.C)), FormatDuration(configs.Duration(t.GPUWait)), FormatDuration(configs.Duration(t.Suspension))
			if !r.WaitBounded(k) { // it waits for a GPU response without a bound
				wait, susp = noBoundIf(t.GPUWait, wait), noBoundIf(t.Suspension, susp)
				c = noBoundIf(t.GPUWait, c)
			}
			fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", taskLabel(r, t), t.Priority, c,
				FormatDuration(configs.Duration(t.Compute)), FormatDuration(configs.Duration(t.Memory)), FormatDuration(configs.Duration(t.Contention)),
				wait, susp, formatR(t), FormatDuration(configs.Duration(t.T)), formatD(t), okWord(r, k))
		}
		p.flush(tw)
		writeWindowTable(p, r, ids)
	}
	var merged []string
	for k := range r.Tasks {
		if t := &r.Tasks[k]; t.Role == evaluate.NotRunning {
			g := &r.GPU[t.GPU]
			merged = append(merged, fmt.Sprintf("%s is merged into %s on %s", t.Name, g.Name, r.Tasks[g.Task].UnitName))
		}
	}
	if len(merged) > 0 {
		p.f("\nNot running on their own (merge convention):\n")
		for _, m := range merged {
			p.f("  %s\n", m)
		}
	}

	running := 0
	for k := range r.Tasks {
		if r.Tasks[k].Role != evaluate.NotRunning {
			running++
		}
	}
	writeChainTable(p, r)
	writeRequirementTable(p, r)
	writeMarginTable(p, r)
	if r.Schedulable && !r.RequirementsMet {
		p.f("\nVerdict: INFEASIBLE: all %d running tasks meet their deadlines, but chain latency requirements are missed (total excess %s).\n",
			running, FormatDuration(configs.Duration(r.Violation)))
		p.f("Why:\n")
		for _, reason := range r.Reasons() {
			p.f("  - %s\n", reason)
		}
		return p.err
	}
	if r.Schedulable {
		p.f("\nVerdict: schedulable: all %d running tasks meet their deadlines.\n", running)
		return p.err
	}
	p.f("\nVerdict: NOT schedulable: %d of %d running tasks miss their deadline or have no bound (total excess %s).\n",
		r.Misses, running, FormatDuration(configs.Duration(r.Violation)))
	p.f("Why:\n")
	for _, reason := range r.Reasons() {
		p.f("  - %s\n", reason)
	}
	return p.err
}

// writeWindowTable writes, for the tasks ids of one core that have a
// window contention (evaluate.Evaluator.AnalyzeContention), their windows, the
// contention charged there under the counts, and per other core and the
// copy engine the accesses it is charged for, with the binding term.
func writeWindowTable(p *printer, r *evaluate.Analysis, ids []int) {
	windows := map[int]*evaluate.TaskContention{}
	for i := range r.Windows {
		windows[r.Windows[i].Task] = &r.Windows[i]
	}
	var rows []*evaluate.TaskContention
	for _, k := range ids {
		if w := windows[k]; w != nil {
			rows = append(rows, w)
		}
	}
	if len(rows) == 0 {
		return
	}
	request := r.ContentionCount == configs.ContentionRequest
	p.f("  contention in the response windows:\n")
	tw := p.table()
	head := "  task\twindow\taccesses\tchallenge\trefined"
	if request {
		head += "\trequest"
	}
	head += "\tR from"
	for _, io := range rows[0].Interferers {
		head += "\t" + io.Name
	}
	fmt.Fprintln(tw, head)
	for _, w := range rows {
		t := &r.Tasks[w.Task]
		line := fmt.Sprintf("  %s\t%s\t%d\t%s\t%s", t.Name, FormatDuration(configs.Duration(w.Window)), w.Accesses,
			FormatDuration(configs.Duration(w.Challenge)), FormatDuration(configs.Duration(w.Refined)))
		if request {
			line += "\t" + FormatDuration(configs.Duration(w.Request))
		}
		from := "window"
		switch {
		case r.ContentionCount == configs.ContentionChallenge:
			from = "C"
		case w.PerJobBound:
			from = "C (no gain)"
		}
		line += "\t" + from
		for _, io := range w.Interferers {
			o := io.Refined
			if request {
				o = io.Request
			}
			line += "\t" + overlapCell(o)
		}
		fmt.Fprintln(tw, line)
	}
	p.flush(tw)
}

// overlapCell writes an overlap as "count term".
func overlapCell(o memory.Overlap) string {
	if o.By == memory.NoAccess {
		return "–"
	}
	return strconv.FormatInt(o.Count, 10) + " " + o.By.String()
}

// wrapText breaks text into lines of at most width bytes at spaces (the
// first line full width, the others two shorter, for their indent).
func wrapText(text string, width int) []string {
	var lines []string
	w := width
	for len(text) > w {
		cut := strings.LastIndex(text[:w], " ")
		if cut <= 0 {
			break
		}
		lines = append(lines, text[:cut])
		text = text[cut+1:]
		w = width - 2
	}
	return append(lines, text)
}

func convergedWord(c bool) string {
	if c {
		return "converged"
	}
	return "stopped (not converged; sound but not the tightest)"
}

func writeGPUTable(p *printer, s *configs.System, r *evaluate.Analysis, u int) {
	ur := &r.Units[u]
	var ids []int
	for g := range r.GPU {
		if r.GPU[g].OnGPU {
			ids = append(ids, g)
		}
	}
	if len(ids) == 0 {
		p.f("\n%s (GPU): no task\n", ur.Name)
		return
	}
	p.f("\n%s (GPU, %s, %s model): kernels %s and copies %s of the time; copy engine #C = %d: %s per line\n",
		ur.Name, FormatFrequency(s.Units[u].Frequency), r.GPUModel, percent(ur.Utilisation), percent(ur.CopyUtilisation),
		ur.InterferingCores, FormatDuration(configs.Duration(ur.LineLatency)))
	tw := p.table()
	knob := "stream"
	if r.GPUModel != configs.GPUModelFIFO {
		knob = "slice"
	}
	fmt.Fprintf(tw, "  task\t%s\tgeometry\tcopy-in wait\tcopy in\tkernel queue\tkernel\tcopy-out wait\tcopy out\tR\tD\tok\n", knob)
	for _, g := range ids {
		gr := &r.GPU[g]
		t := &r.Tasks[gr.Task]
		resp := &gr.Response
		k := streamPriority(gr.High)
		if r.GPUModel != configs.GPUModelFIFO {
			k = FormatDuration(configs.Duration(gr.Slice))
		}
		geo := fmt.Sprintf("%d × %d threads, %s blocks", gr.Blocks, gr.ThreadsPerBlock, FormatDuration(configs.Duration(gr.BlockTime)))
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", gr.Name, k, geo,
			FormatDuration(configs.Duration(resp.CopyInWait)), FormatDuration(configs.Duration(resp.CopyIn)),
			FormatDuration(configs.Duration(resp.KernelQueue)), FormatDuration(configs.Duration(resp.KernelIsolated)),
			FormatDuration(configs.Duration(resp.CopyOutWait)), FormatDuration(configs.Duration(resp.CopyOut)),
			formatR(t), formatD(t), okWord(r, gr.Task))
	}
	p.flush(tw)
	p.f("  R of a GPU task: from the copy-in call to the end of the copy out (its offloading task's R includes it)\n")
}

func taskLabel(r *evaluate.Analysis, t *evaluate.TaskResult) string {
	switch t.Role {
	case evaluate.OffloadSync:
		return t.Name + " (sync → " + r.GPU[t.GPU].Name + ")"
	case evaluate.OffloadAsync:
		return t.Name + " (async → " + r.GPU[t.GPU].Name + ")"
	case evaluate.Merged:
		return t.Name + " (merged)"
	}
	return t.Name
}

// noBoundIf is "no bound" where the term x waits for a GPU response that
// has none (x > 0), else text.
func noBoundIf(x int64, text string) string {
	if x > 0 {
		return NoBound
	}
	return text
}

// formatR writes a task's response-time bound, or "no bound" when the
// analysis gives none: never the value it stopped at (the ok column says
// why).
func formatR(t *evaluate.TaskResult) string {
	if !t.Verdict.Bounded() || t.R == rta.Infinity {
		return NoBound
	}
	return FormatDuration(configs.Duration(t.R))
}

func formatD(t *evaluate.TaskResult) string {
	if !t.HasDeadline {
		return "none"
	}
	return FormatDuration(configs.Duration(t.D))
}

// okWord is the verdict of task k in a word or two; a task that fails
// because of another names the task whose own test fails (Cause).
func okWord(r *evaluate.Analysis, k int) string {
	v := r.Tasks[k].Verdict
	w := v.String()
	switch v {
	case evaluate.Meets:
		return "yes"
	case evaluate.Misses:
		w = "MISS"
	case evaluate.Overloaded:
		w = "NO BOUND (overload)"
	case evaluate.GPUNoBound:
		w = "NO BOUND (GPU)"
	case evaluate.InterfererNoBound, evaluate.NoBound, evaluate.ActivatorNoBound:
		w = "NO BOUND"
	}
	if c := r.Cause(k); c >= 0 && c != k {
		w += " ← " + r.Tasks[c].Name
	}
	return w
}

func percent(u float64) string { return FormatPercent(u) }

// countedDemand returns the long-run demand of CPU core u under the
// refined or request count (evaluate.UnitResult.Demand), and false under
// the challenge count (where it is the utilisation), on the GPU, on an
// idle core, or before evaluate.Evaluator.AnalyzeContention.
func countedDemand(r *evaluate.Analysis, u int) (float64, bool) {
	ur := &r.Units[u]
	if ur.GPU || ur.Tasks == 0 || ur.Demand == 0 || r.ContentionCount == "" || r.ContentionCount == configs.ContentionChallenge {
		return 0, false
	}
	return ur.Demand, true
}

// unitLoad is the share of unit u that its verdicts rest on: the demand
// under the refined or request count, else the utilisation Σ C/T.
func unitLoad(r *evaluate.Analysis, u int) float64 {
	if d, ok := countedDemand(r, u); ok {
		return d
	}
	return r.Units[u].Utilisation
}

// loadWords writes a core's load with its count: "utilisation 87.9 %"
// under the challenge count; under refined and request the demand the
// verdicts rest on first, then Σ C/T labelled with the challenge count.
func loadWords(r *evaluate.Analysis, u int) string {
	ur := &r.Units[u]
	if d, ok := countedDemand(r, u); ok {
		return DemandWords(d, ur.Utilisation, r.ContentionCount)
	}
	return "utilisation " + percent(ur.Utilisation)
}

// DemandWords is loadWords from the figures: a core's demand under count
// and its Σ C/T, in words.
func DemandWords(demand, utilisation float64, count configs.ContentionCount) string {
	return fmt.Sprintf("demand %s under the %s count (Σ C⁰/T + its contention per unit of time; Σ C/T with C's per-job contention, the challenge count: %s)",
		percent(demand), count, percent(utilisation))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
