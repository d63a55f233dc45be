package evaluate

import (
	"errors"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta"
	"github.com/hetmap/hetmap/rta/gpu"
)

var errShape = errors.New("optimizer: the assignment's slices do not match the evaluator's tasks and GPU tasks (use Evaluator.NewAssignment)")

// Role is how a task runs under a mapping.
type Role uint8

const (
	// NotRunning: the offloading task of a GPU task that is merged onto a
	// core; the merged task stands for both.
	NotRunning Role = iota
	// Periodic: a periodic task on a core.
	Periodic
	// OffloadSync: an offloading task whose GPU task is on the GPU, waiting
	// actively; its core is busy for the whole GPU response.
	OffloadSync
	// OffloadAsync: as OffloadSync, but the task suspends while it waits.
	OffloadAsync
	// OnGPU: a GPU task on the GPU.
	OnGPU
	// Merged: a GPU task on a core, merged with its offloading task into
	// one periodic task (the merge convention of the package documentation).
	Merged
)

var roleNames = [...]string{NotRunning: "not running", Periodic: "periodic", OffloadSync: "offloads synchronously",
	OffloadAsync: "offloads asynchronously", OnGPU: "on the GPU", Merged: "merged onto a core"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "Role(?)"
}

// OnCPU reports whether a task in this role runs on a CPU core.
func (r Role) OnCPU() bool {
	return r == Periodic || r == OffloadSync || r == OffloadAsync || r == Merged
}

// Verdict is the outcome for one task.
type Verdict uint8

const (
	// Meets: R is a sound bound on the response time and R ≤ D.
	Meets Verdict = iota
	// Misses: R is a sound bound and R > D; the deadline is missed by at
	// most R − D.
	Misses
	// NoBound: the response-time iteration passed the period, where the
	// single-job analysis stops being a bound; R is a lower bound of the
	// analysis value.
	NoBound
	// Overloaded: the tasks of higher priority use the whole core (their
	// utilisation is at least 100 %); R is infinite.
	Overloaded
	// InterfererNoBound: a self-suspending task of higher priority has no
	// bound, so the interference it causes cannot be bounded.
	InterfererNoBound
	// GPUNoBound: the GPU response of the task (or of the GPU task it
	// waits for) is no bound: it passes the period, where the GPU analysis
	// stops being a bound; or another GPU task's does, which the analysis
	// assumes none does; or it is withdrawn because an offloading task does
	// not meet its deadline (GPUResult.AssumptionMissedBy).
	// Analysis.VerdictWords says which.
	GPUNoBound
	// Absent: the task does not run (see NotRunning).
	Absent
	// ActivatorNoBound: the task is released by another task's
	// InterProcessTrigger, and that task has no bound, so neither has the
	// release jitter of this one.
	ActivatorNoBound
)

var verdictNames = [...]string{Meets: "meets its deadline", Misses: "misses its deadline", NoBound: "no bound (passes its period)",
	Overloaded: "no bound (higher priorities overload the core)", InterfererNoBound: "no bound (a suspending task above has none)",
	GPUNoBound: "no bound (its GPU response is none)", Absent: "not running",
	ActivatorNoBound: "no bound (the task that activates it has none)"}

func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "Verdict(?)"
}

// Bounded reports whether R is a sound bound on the response time.
func (v Verdict) Bounded() bool { return v == Meets || v == Misses }

// TaskResult is the analysis of one task under a mapping. Times are in
// picoseconds.
type TaskResult struct {
	Name     string
	Role     Role
	Unit     int // index into System.Units, NoUnit when not running
	UnitName string
	// GPU is the index into Analysis.GPU of the GPU task this task offloads
	// or is; -1 for a periodic task.
	GPU int

	// Priority is the priority used on the core, higher = more urgent:
	// the mapping's explicit value, or (tasks on the core − Rank) when
	// derived. Rank is the number of tasks of strictly higher priority.
	Priority int
	Rank     int
	Explicit bool

	// C = Compute + Memory + Contention + GPUWait: the CPU execution time
	// (for a GPU task on the GPU: copies + kernel on an idle GPU).
	C int64
	// Compute is the execute phase: the ticks of the computing runnables at
	// the unit's frequency (on the GPU: the isolated kernel time).
	Compute int64
	// Lines is the number of DRAM lines read and written (on the GPU: the
	// lines copied in and out).
	Lines int64
	// Memory is Lines at the uncontended latency (#C = 0, bGPU = 0).
	Memory int64
	// Contention is what the contention adds: Lines · (K·#C + sGPU·bGPU)
	// (on the GPU: the copy engine's per-core term).
	Contention int64
	// GPUWait is, for synchronous offloading, the GPU response the core
	// busy-waits for (part of C).
	GPUWait int64
	// Suspension is, for asynchronous offloading, the GPU response the
	// task suspends for (not part of C; S in the response-time analysis).
	Suspension int64

	// R is the worst-case response time from the job's arrival; read it
	// with Verdict (rta.Infinity when Overloaded).
	R int64
	// Under the refined and request counts (Analysis.Contention), a task on
	// a core is analysed with the contention of its response window rather
	// than the per-job Contention in C: WindowAccesses is the number of
	// memory accesses of its job and of the jobs above it in the window
	// (N_p of memory's package documentation), WindowPauses how many of them a preemption
	// may pause (the releases and resumptions of the jobs above),
	// WindowContention the contention charged for them under the count, and
	// PerJobBound reports that the per-job form (C, as under the challenge
	// count) gave R because the window term gave no less. All zero under
	// the challenge count. See contentionDetail for the terms per
	// interfering unit.
	WindowAccesses   int64
	WindowPauses     int64
	WindowContention int64
	PerJobBound      bool
	// BCRT is a lower bound on the response time (best-case ticks, no
	// contention, no interference), for chain analyses.
	BCRT int64
	D    int64 // deadline checked (the period when the model has none)
	// HasDeadline: the model gives the task a deadline (under the default
	// convention every task has one, its period).
	HasDeadline bool
	T           int64 // period (a GPU task: its offloading task's)
	Offset      int64
	// Jitter is the release jitter the analysis used: the task's own
	// (its stimulus's) plus, for a task activated by another task's
	// InterProcessTrigger, that task's response time. R counts from the
	// arrival, so it includes Jitter.
	Jitter  int64
	Verdict Verdict
	// Because is, for a task that does not meet its deadline, the task its
	// verdict follows from: itself when its own test fails, else the task
	// whose missing bound (or missed deadline, for a withdrawn GPU
	// response) took this one's; -1 when it meets its deadline or does not
	// run. Analysis.Cause follows the links (causes.go).
	Because int
	// Status is the CPU analysis status (rta) of a task on a core.
	Status rta.Status

	// withdrew: the task is an offloading task that did not meet its
	// deadline while every GPU response was still a bound, so that GPU
	// responses were withdrawn because of it; withdrewVerdict is the
	// verdict it had then (causes.go).
	withdrew        bool
	withdrewVerdict Verdict
}

// Schedulable reports whether the task runs and meets its deadline (or does
// not run).
func (t *TaskResult) Schedulable() bool { return t.Verdict == Meets || t.Verdict == Absent }

// Excess returns by how much R passes D (0 when it does not; rta.Infinity
// when R is infinite).
func (t *TaskResult) Excess() int64 {
	if t.R == rta.Infinity {
		return rta.Infinity
	}
	return max(0, t.R-t.D)
}

// violation is what task t, which does not meet its deadline, adds to
// Analysis.Violation: R − D where R is a bound; for a task without a bound
// (its iteration passed the period, the tasks above overload its core, or
// its bound is withdrawn because of another task) its period, or R − D
// where the analysis went further than that.
func (t *TaskResult) violation() int64 {
	ex := t.Excess()
	if t.Verdict.Bounded() {
		return ex
	}
	if ex == rta.Infinity {
		return t.T
	}
	return max(t.T, ex)
}

// WaitBounded reports whether task i's wait for a GPU response is a bound:
// false for an offloading task whose GPU response has none (it passes the
// period, another's does, or it was withdrawn), whose GPUWait (in C, when
// it waits actively) or Suspension is then the value the analysis stopped
// at, no number to show as a bound; true for every other task.
func (r *Analysis) WaitBounded(i int) bool {
	t := &r.Tasks[i]
	return !(t.Role == OffloadSync || t.Role == OffloadAsync) || r.GPU[t.GPU].Bound(r)
}

// GPUResult is the analysis of one GPU task.
type GPUResult struct {
	Task  int // index into System.Tasks
	Name  string
	OnGPU bool
	// Stream priority (fifo model) and time slice (timeslice model, ps).
	High  bool
	Slice int64
	// Launch geometry of the kernel and its block time (ps).
	Blocks, ThreadsPerBlock int
	BlockTime               int64
	CopyInLines             int64
	CopyOutLines            int64
	// Response is the GPU response from the copy-in call to the end of
	// the copy out, with its terms (WorstOrder is not filled in).
	Response gpu.Response
	// WithinPeriod: the analysis bounded the response and it is at most
	// the period, as the GPU analyses assume of every GPU task.
	WithinPeriod bool
	// AssumptionMissedBy is, when the response is no bound because an
	// assumption of its analysis fails, the GPU task (index into
	// Analysis.GPU) whose offloading task misses its deadline, so that its
	// GPU jobs may be launched later, or run longer past their release,
	// than this task's analysis assumes; -1 otherwise.
	AssumptionMissedBy int
}

// Bound reports whether the GPU response is a sound bound: the analysis
// bounded it within the period, every GPU task on the GPU responds within
// its period (r.GPUSound), and no assumption of its analysis fails.
func (g *GPUResult) Bound(r *Analysis) bool {
	return g.OnGPU && g.WithinPeriod && r.GPUSound && g.AssumptionMissedBy < 0
}

// UnitResult describes a unit under a mapping.
type UnitResult struct {
	Name, Kind string
	GPU        bool
	Tasks      int // tasks placed on the unit
	// AccessesMemory: a task on this core reads or writes labels.
	AccessesMemory bool
	// InterferingCores is the #C used for this core (for the GPU: for its
	// copy engine) and CopyEngineActive the bGPU.
	InterferingCores int
	CopyEngineActive bool
	// LineLatency is the time to move one line (ps) under that contention;
	// for the GPU, the copy engine's.
	LineLatency int64
	// Utilisation is Σ C/T of the unit's tasks, C with its per-job
	// contention (every access charged every other memory user: the
	// challenge count's); for the GPU the kernels' isolated times, and
	// CopyUtilisation the copies'.
	Utilisation     float64
	CopyUtilisation float64
	// Demand is, for a CPU core with tasks once AnalyzeContention has run,
	// the share of the core the count in force (Analysis.ContentionCount)
	// charges in the long run: Σ C⁰/T (compute, lines at the baseline,
	// busy-wait) plus the contention that count charges per unit of time
	// for all the core's accesses (CountedDemand). Under the challenge
	// count it equals Utilisation; under refined and request it is what the
	// verdicts rest on, at most Utilisation. Zero otherwise.
	Demand float64
	// Explicit: the mapping's priorities are used on this core; otherwise
	// Policy derived them.
	Explicit bool
	Policy   rta.Policy
	// Undecided: the exact priority search of the OPA policy stopped at
	// its bound before it found an order or proved that none exists; the
	// core is reported with OPA's failing order but is not proven
	// unschedulable (rta.Analyzer.Decided).
	Undecided bool
}

// Analysis is the analysis of one mapping of the system: per task, GPU
// task and unit what the evaluation found, and whether the mapping is
// schedulable. It is what evaluate computes, not what a search finds
// (optimizer.Outcome holds a search's front, each point with its
// Analysis). It is a separate value from the system and from the
// mapping; Evaluate fills it in place.
//
// Evaluate fills what a search needs and no more: the verdicts, the
// response times and their terms, the ranking measure and the checked
// requirements. Chains, RequirementReports, Windows, every UnitResult's
// Demand and Margins stay empty until a second call fills them
// (AnalyzeChains, AnalyzeContention, AnalyzeMargins); EvaluateForReport
// makes the first two in one call, for reports.
type Analysis struct {
	// Schedulable: every task that runs meets its deadline with a sound
	// bound.
	Schedulable bool
	// Misses counts the tasks that do not; Violation sums by how much
	// (R − D per task that misses; for a task without a bound, whether of
	// its own or withdrawn because of another task, its period, or R − D
	// where the analysis went past that), with the excess of every missed
	// chain latency requirement, so that infeasible mappings can be
	// ranked: it is at least the periods of the tasks without a bound.
	Misses    int
	Violation int64
	// Tasks per task of the model (System.Tasks order), GPU per GPU task
	// (Model.GPUTasks order), Units per unit (System.Units order).
	Tasks []TaskResult
	GPU   []GPUResult
	Units []UnitResult
	// GPUSound: every GPU task on the GPU responds within its period. The
	// GPU analyses assume it of all of them (at most one job of every other
	// GPU task is ahead in a queue), so otherwise no GPU response is a
	// bound, and the tasks on the GPU and those that wait for them get
	// the verdict GPUNoBound.
	GPUSound bool
	// CopyEngineActive is bGPU; InterferingCoresCE the #C of the copy engine.
	CopyEngineActive   bool
	InterferingCoresCE int
	// GPUModel is the GPU model used (analysis.gpu_model).
	GPUModel configs.GPUModel
	// ContentionCount is the contention count used (analysis.contention).
	ContentionCount configs.ContentionCount
	// Rounds is the number of cross-core rounds the refined analysis took
	// (0 under the challenge count), Converged whether the last round
	// changed no response time (otherwise it stopped at MaxRounds, with
	// sound but not the tightest bounds).
	Rounds    int
	Converged bool
	// Undecided counts the cores whose priority search stopped undecided
	// (UnitResult.Undecided): the mapping is then reported unschedulable
	// without a proof.
	Undecided int
	// Chains holds the end-to-end latencies of the system's chains
	// (System.Chains order) once AnalyzeChains has run on this analysis;
	// Evaluate empties it, since the latencies depend on the response times.
	Chains []ChainResult
	// Requirements holds the chains' latency requirements (in the order of
	// System.Chains and their Max lists) as Evaluate checked them;
	// RequirementsMet says whether every one is met. A missed requirement
	// adds its excess to Violation: the mapping is infeasible.
	Requirements    []RequirementResult
	RequirementsMet bool
	// RequirementReports explains the requirements with the latency under
	// both bounds, once AnalyzeChains has run on this analysis.
	RequirementReports []RequirementReport
	// Windows holds the contention of every running task's response
	// window under the three counts once AnalyzeContention has run on this
	// analysis (see contentionDetail); Evaluate empties it.
	Windows []TaskContention
	// Margins holds the mapping's margins once AnalyzeMargins has run on
	// this analysis; Evaluate empties it.
	Margins *Margins

	owner *configs.Config // the configuration the static fields are for
	// refuted: the relaxed test decided the mapping (Evaluate with
	// Options.RefuteFirst): no priority order of its cores meets every deadline.
	refuted bool
	// partial: this is EvaluatePartial's analysis of a partial mapping
	// (set by every evaluation, read while it runs).
	partial bool
}

// copyFrom makes r a copy of o (another analysis of the same
// configuration), reusing r's slices where they are long enough.
func (r *Analysis) copyFrom(o *Analysis) {
	tasks, gpus, units, reqs := r.Tasks, r.GPU, r.Units, r.Requirements
	*r = *o
	r.Tasks = append(tasks[:0], o.Tasks...)
	r.GPU = append(gpus[:0], o.GPU...)
	r.Units = append(units[:0], o.Units...)
	r.Requirements = append(reqs[:0], o.Requirements...)
	r.Chains, r.RequirementReports, r.Windows, r.Margins = nil, nil, nil, nil
}

// WithPriorities writes into b the mapping a, evaluated into r, with the
// priorities r's analysis used given explicitly on every core (derived
// ones written out): the mapping as it would be deployed, which analyses
// as a does (TestExplicitEqualsDerived).
func (r *Analysis) WithPriorities(a, b *Assignment) {
	b.CopyFrom(a)
	for i := range r.Tasks {
		if tr := &r.Tasks[i]; tr.Role != NotRunning && tr.Role != OnGPU {
			b.Priority[i] = tr.Priority
		}
	}
}

// EvaluateForReport analyses the mapping a in full into r, for a report:
// Evaluate, then AnalyzeChains (Chains, RequirementReports) and
// AnalyzeContention (Windows, UnitResult.Demand). Only the margins, a
// bisection of a dozen evaluations, are left to AnalyzeMargins. A search
// evaluates with Evaluate, which leaves those empty and is much faster.
func (e *Evaluator) EvaluateForReport(a *Assignment, r *Analysis) error {
	if err := e.Evaluate(a, r); err != nil {
		return err
	}
	e.AnalyzeChains(r)
	return e.AnalyzeContention(r)
}

// NewAnalysis returns an Analysis sized for the evaluator, ready for Evaluate.
func (e *Evaluator) NewAnalysis() *Analysis {
	r := &Analysis{}
	e.initAnalysis(r)
	return r
}

func (e *Evaluator) initAnalysis(r *Analysis) {
	r.Tasks = make([]TaskResult, len(e.tasks))
	r.GPU = make([]GPUResult, len(e.gpus))
	r.Units = make([]UnitResult, len(e.units))
	r.Requirements = e.newRequirementResults()
	r.GPUModel = configs.GPUModelTimeSlice
	if e.fifo {
		r.GPUModel = configs.GPUModelFIFO
	}
	r.ContentionCount = e.contention
	for i := range r.Units {
		r.Units[i] = UnitResult{Name: e.units[i].name, Kind: e.units[i].kind, GPU: e.units[i].gpu}
	}
	for g, gi := range e.gpus {
		r.GPU[g] = GPUResult{Task: gi.task, Name: e.tasks[gi.task].name, Blocks: gi.blocks, ThreadsPerBlock: gi.threads,
			BlockTime: gi.blockTime, CopyInLines: gi.copyInLines, CopyOutLines: gi.copyOutLines}
	}
	for i := range e.tasks {
		ti := &e.tasks[i]
		r.Tasks[i] = TaskResult{Name: ti.name, GPU: ti.gpu, T: ti.period, D: ti.deadline, HasDeadline: ti.deadline > 0, Offset: ti.offset}
		if r.Tasks[i].D == 0 {
			r.Tasks[i].D = ti.period
		}
	}
	r.owner = e.cfg
}

// Task returns the result of the task with the name, or nil.
func (r *Analysis) Task(name string) *TaskResult {
	for i := range r.Tasks {
		if r.Tasks[i].Name == name {
			return &r.Tasks[i]
		}
	}
	return nil
}

// GPUTask returns the GPU result of the GPU task with the name, or nil.
func (r *Analysis) GPUTask(name string) *GPUResult {
	for i := range r.GPU {
		if r.GPU[i].Name == name {
			return &r.GPU[i]
		}
	}
	return nil
}

// MaxCoreUtilisation is the utilisation of the most loaded CPU core, the
// measure that ranks unschedulable mappings of equal violation: when every
// task on an overloaded core has no bound, each counts its period, so
// mappings that pile the tasks onto one core or another tie however much
// they overload it.
func (r *Analysis) MaxCoreUtilisation() float64 {
	m := 0.0
	for u := range r.Units {
		if !r.Units[u].GPU {
			m = max(m, r.Units[u].Utilisation)
		}
	}
	return m
}
