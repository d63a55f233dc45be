package evaluate

import (
	"slices"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta/syssim"
)

// TimelineCap is the longest window Timeline simulates (1 s): the window is
// the longest period among the running tasks, cut to this cap.
const TimelineCap = int64(configs.Second)

// maxTimelineSegments bounds the work and the size of a timeline: the
// simulation stops (Timeline.Truncated) once it has recorded this many
// segments.
const maxTimelineSegments = 50000

// SegmentKind is what a timeline segment shows.
type SegmentKind uint8

// Segment kinds (those of rta/syssim). On a core: Run (a periodic or
// merged job), Pre, BusyWait
// (synchronous offloading: the core spins while the GPU job runs) and Post
// (with the runnables that run only after a passive wait); Suspended
// (asynchronous offloading: the job waits without the core) is recorded
// apart, since the core is free meanwhile. On the copy engine CopyIn and
// CopyOut; on the GPU Kernel.
const (
	SegmentRun SegmentKind = iota
	SegmentPre
	SegmentBusyWait
	SegmentSuspended
	SegmentPost
	SegmentCopyIn
	SegmentKernel
	SegmentCopyOut
)

var segmentNames = [...]string{SegmentRun: "run", SegmentPre: "pre-processing", SegmentBusyWait: "busy-wait for the GPU",
	SegmentSuspended: "suspended (waits for the GPU)", SegmentPost: "post-processing", SegmentCopyIn: "copy in",
	SegmentKernel: "kernel", SegmentCopyOut: "copy out"}

func (k SegmentKind) String() string {
	if int(k) < len(segmentNames) {
		return segmentNames[k]
	}
	return "SegmentKind(?)"
}

// LaneKind is what a timeline lane stands for.
type LaneKind uint8

// Lane kinds.
const (
	LaneCore       LaneKind = iota // a CPU core
	LaneCopyEngine                 // the GPU's copy engine
	LaneGPU                        // the GPU's execution engine (kernels)
)

// TimelineSegment is an interval during which a job of a task holds a
// lane (or, for SegmentSuspended, waits). On the GPU under the fifo model,
// where blocks of several kernels can be resident at once, a segment shows
// the resident kernel whose block was assigned last.
type TimelineSegment struct {
	// Task indexes System.Tasks; on the copy engine and the GPU it is the
	// GPU task.
	Task int
	// Job numbers the task's jobs from 0 (released at Job · period).
	Job        int
	Kind       SegmentKind
	Start, End int64 // ps
}

// TimelineLane is one core, the copy engine or the GPU.
type TimelineLane struct {
	Name string
	Unit int // index into System.Units
	Kind LaneKind
	// Segments, by start time, never overlap.
	Segments []TimelineSegment
	// Suspended holds the intervals in which an asynchronously offloading
	// task of this core waits for its GPU job, without the core.
	Suspended []TimelineSegment
}

// TimelineJob is one job released in the window.
type TimelineJob struct {
	Task, Job         int
	Unit              int   // the core (the GPU for a GPU task's job)
	Release, Deadline int64 // absolute, ps
	// Finish is when the job completed, -1 when it did not within the
	// window.
	Finish int64
}

// Response returns Finish − Release, or -1.
func (j TimelineJob) Response() int64 {
	if j.Finish < 0 {
		return -1
	}
	return j.Finish - j.Release
}

// Timeline is one window of the schedule of an evaluated mapping, as
// Evaluator.Timeline simulates it.
type Timeline struct {
	// Window is the simulated interval [0, Window) in ps.
	Window int64
	// Capped: the longest period exceeds TimelineCap, which is the window.
	Capped bool
	// Truncated: the simulation stopped early (Window is then where) after
	// recording the maximum number of segments.
	Truncated bool
	// Lanes: the CPU units in System.Units order, then, when the system has
	// a GPU, its copy engine and its execution engine.
	Lanes []TimelineLane
	// Jobs of the CPU tasks and of the GPU tasks on the GPU, by task, then
	// job.
	Jobs []TimelineJob
}

// Timeline simulates one window of the schedule of the mapping evaluated in
// r (by this Evaluator) with the system simulator of package rta/syssim:
// every task released at 0 (offsets ignored) and then strictly
// periodically, every job taking its worst-case ticks. It is an
// illustration of the analysed system, not a proof: the bounds are the
// analysis's (the simulation of random releases and execution times
// checks them, see TestSimulationNeverExceedsTheBounds).
//
//   - Window: the longest period among the running tasks (including the GPU
//     tasks on the GPU), at most TimelineCap; jobs are released in [0, window)
//     and the schedule is cut at the window's end.
//   - Cores: fixed-priority preemptive, in the analysed order (Rank; equal
//     ranks by task order); jobs of one task run in release order. A job
//     runs its runnables' read, execute and write phases: the execute phases
//     at their worst-case ticks, every line access as long as the memory it
//     meets makes it (the challenge's semantics: baseline + K per other core
//     in a memory phase during the access + sGPU if the copy engine
//     transfers during it, at most the analysed line latency; the
//     configuration's fixed #C and bGPU are honoured), so a job's contention
//     is what the simulated schedule causes, at most the analysed one.
//   - Offloading: the pre-processing runs, then the GPU job is submitted: the
//     copy in on the copy engine, the kernel on the GPU, the copy out on the
//     copy engine. Synchronous: the job keeps competing for its core and
//     spins while it holds it (a spinning job can be preempted); asynchronous:
//     it suspends. When the GPU job has completed, the post-processing runs
//     (after an asynchronous wait with the runnables that run only then).
//   - Copy engine: one copy at a time, first come first served, line by line
//     (3 ns + 0.5 ns per core in a memory phase during the line).
//   - GPU: fifo model: the TX2 rules, block by block onto the SMs' slots
//     (stream priorities high and low, FIFO per priority, blocks never
//     preempted); timeslice model: kernels take turns round-robin, each for
//     at most its time slice while another waits; no switch cost.
func (e *Evaluator) Timeline(r *Analysis) (*Timeline, error) {
	return e.timelineOver(r, 0)
}

// timelineOver is Timeline with the given window (ps); window ≤ 0 chooses
// the default (the longest period of the running tasks, cut to TimelineCap).
func (e *Evaluator) timelineOver(r *Analysis, window int64) (*Timeline, error) {
	in, err := e.simulationInput(r)
	if err != nil {
		return nil, err
	}
	tl := &Timeline{Window: window}
	if window <= 0 {
		tl.Window, tl.Capped = e.timelineWindow(r)
	}
	in.Horizon, in.End, in.MaxSegments = tl.Window, tl.Window, maxTimelineSegments
	res, err := syssim.Simulate(in)
	if err != nil {
		return nil, err
	}
	cores := e.cpuUnits()
	unitOf := func(c int) int {
		if c < 0 {
			return e.gpuUnit
		}
		return cores[c]
	}
	for _, l := range res.Lanes {
		u := unitOf(l.Core)
		tlane := TimelineLane{Name: e.units[u].name, Unit: u, Segments: timelineSegments(l.Segments), Suspended: timelineSegments(l.Suspended)}
		switch l.Kind {
		case syssim.LaneCopyEngine:
			tlane.Name, tlane.Kind = tlane.Name+" copy engine", LaneCopyEngine
		case syssim.LaneGPU:
			tlane.Name, tlane.Kind = tlane.Name+" kernels", LaneGPU
		}
		tl.Lanes = append(tl.Lanes, tlane)
	}
	tl.Truncated = res.Truncated
	if res.Truncated {
		tl.Window = res.End
	}
	for _, j := range res.Jobs {
		u := unitOf(j.Core)
		if j.GPU {
			u = e.gpuUnit
		}
		tl.Jobs = append(tl.Jobs, TimelineJob{Task: j.ID, Job: j.Job, Unit: u, Release: j.Release, Deadline: j.Deadline, Finish: j.Finish})
	}
	slices.SortStableFunc(tl.Jobs, func(a, b TimelineJob) int {
		if a.Task != b.Task {
			return a.Task - b.Task
		}
		return a.Job - b.Job
	})
	return tl, nil
}

// timelineWindow is the default window: the longest period among the
// running tasks, cut to TimelineCap.
func (e *Evaluator) timelineWindow(r *Analysis) (window int64, capped bool) {
	for i := range r.Tasks {
		if tr := &r.Tasks[i]; tr.Role != NotRunning {
			window = max(window, tr.T)
		}
	}
	if window > TimelineCap {
		return TimelineCap, true
	}
	return window, false
}

var segmentKinds = [...]SegmentKind{syssim.SegmentRun: SegmentRun, syssim.SegmentPre: SegmentPre, syssim.SegmentBusyWait: SegmentBusyWait,
	syssim.SegmentSuspended: SegmentSuspended, syssim.SegmentPost: SegmentPost, syssim.SegmentCopyIn: SegmentCopyIn,
	syssim.SegmentKernel: SegmentKernel, syssim.SegmentCopyOut: SegmentCopyOut}

func timelineSegments(in []syssim.Segment) []TimelineSegment {
	var out []TimelineSegment
	for _, s := range in {
		out = append(out, TimelineSegment{Task: s.ID, Job: s.Job, Kind: segmentKinds[s.Kind], Start: s.Start, End: s.End})
	}
	return out
}

// cpuUnits lists the CPU units in System.Units order: the cores of the
// simulation input, in that order.
func (e *Evaluator) cpuUnits() []int {
	var out []int
	for u := range e.units {
		if !e.units[u].gpu {
			out = append(out, u)
		}
	}
	return out
}
