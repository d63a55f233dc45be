package optimizer

import (
	"errors"
	"fmt"
	"slices"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/memory"
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

// Segment kinds. On a core: Run (a periodic or merged job), Pre, BusyWait
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
// lane (or, for SegmentSuspended, waits).
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
// r (by this Evaluator): every task released at 0 (offsets ignored) and
// then strictly periodically, every job taking its worst case. It is an
// illustration of the analysed system, not a proof: the bounds are the
// analysis's.
//
//   - Window: the longest period among the running tasks (including the GPU
//     tasks on the GPU), at most TimelineCap; jobs are released in [0, window)
//     and the schedule is cut at the window's end.
//   - Cores: fixed-priority preemptive, in the analysed order (Rank; equal
//     ranks by task order); jobs of one task run in release order. A
//     periodic or merged job runs its C (worst-case ticks and contention as
//     analysed).
//   - Offloading: the pre-processing runs (its runnables' worst case at the
//     core's line latency), then the GPU job is submitted: the copy in on
//     the copy engine, the kernel on the GPU, the copy out on the copy
//     engine. Synchronous: the job keeps competing for its core and spins
//     while it holds it (a spinning job can be preempted); asynchronous: it
//     suspends. When the GPU job has completed, the post-processing runs
//     (after an asynchronous wait with the runnables that run only then).
//   - Copy engine: one copy at a time, first come first served, each for its
//     analysed duration.
//   - GPU, a documented simplification of the block-level rules: a kernel
//     holds the whole GPU for its isolated time, in waves of its block time.
//     fifo model: kernels run in submission order within their stream
//     priority; a high-priority kernel starts at the next wave boundary of
//     a running low-priority kernel (blocks are not preempted), which
//     resumes afterwards. timeslice model: kernels take turns round-robin,
//     each for at most its time slice while another waits; no switch cost.
func (e *Evaluator) Timeline(r *Result) (*Timeline, error) {
	return e.TimelineWindow(r, 0)
}

// TimelineWindow is Timeline with the given window (ps); window ≤ 0 chooses
// the default (the longest period of the running tasks, cut to TimelineCap).
func (e *Evaluator) TimelineWindow(r *Result, window int64) (*Timeline, error) {
	if r == nil || r.owner != e.cfg || len(r.Tasks) != len(e.tasks) || len(r.GPU) != len(e.gpus) || len(r.Units) != len(e.units) {
		return nil, errors.New("optimizer: Timeline needs a result evaluated by the same evaluator")
	}
	s := newTimelineSim(e, r)
	if err := s.build(); err != nil {
		return nil, err
	}
	tl := &Timeline{Window: window}
	if window <= 0 {
		for _, t := range s.tasks {
			tl.Window = max(tl.Window, t.period)
		}
		if tl.Window > TimelineCap {
			tl.Window, tl.Capped = TimelineCap, true
		}
	}
	s.window = tl.Window
	for u := range e.units {
		if !e.units[u].gpu {
			s.lanes = append(s.lanes, TimelineLane{Name: e.units[u].name, Unit: u, Kind: LaneCore})
			s.laneOf[u] = len(s.lanes) - 1
		}
	}
	if e.gpuUnit >= 0 {
		name := e.units[e.gpuUnit].name
		s.ceLane = len(s.lanes)
		s.lanes = append(s.lanes, TimelineLane{Name: name + " copy engine", Unit: e.gpuUnit, Kind: LaneCopyEngine})
		s.eeLane = len(s.lanes)
		s.lanes = append(s.lanes, TimelineLane{Name: name + " kernels", Unit: e.gpuUnit, Kind: LaneGPU})
	}
	s.run()
	tl.Lanes = s.lanes
	tl.Truncated = s.truncated
	if s.truncated {
		tl.Window = s.now
	}
	tl.Jobs = s.jobs
	slices.SortStableFunc(tl.Jobs, func(a, b TimelineJob) int {
		if a.Task != b.Task {
			return a.Task - b.Task
		}
		return a.Job - b.Job
	})
	return tl, nil
}

type simPhase struct {
	kind SegmentKind
	cost int64 // the exec phases; 0 for the waits
}

func (p simPhase) exec() bool {
	return p.kind == SegmentRun || p.kind == SegmentPre || p.kind == SegmentPost
}

type simJob struct {
	t         *simTask
	job       int
	record    int // index into timelineSim.jobs
	phase     int
	remaining int64 // of the current exec phase
	gpuDone   bool
	done      bool
	suspended int64 // start of the current suspension, -1 when none
}

func (j *simJob) current() simPhase { return j.t.phases[j.phase] }

type simTask struct {
	idx, unit, rank int
	role            Role
	period          int64
	deadline        int64
	phases          []simPhase
	gpu             int // index into Result.GPU, -1
	queue           []*simJob
	next            int64 // next release
	jobs            int
}

type gpuJob struct {
	cpu       *simJob
	g         int
	task      int // the GPU task
	job       int
	record    int // its TimelineJob
	stage     int // 0 copy in, 1 kernel, 2 copy out
	remaining int64
	chunk     int64 // kernel: the running wave or part of a slice
	sliceLeft int64
}

type timelineSim struct {
	e      *Evaluator
	r      *Result
	window int64
	now    int64
	tasks  []*simTask
	cores  map[int][]*simTask // unit → its tasks, most urgent first
	units  []int              // the cores with tasks, in unit order
	laneOf map[int]int
	lanes  []TimelineLane
	ceLane int
	eeLane int
	jobs   []TimelineJob

	ceQueue   []*gpuJob // FIFO; the head runs
	ceEnd     int64
	eeQueues  [2][]*gpuJob // fifo: high, low; timeslice: the round robin in [0]
	eeCur     *gpuJob
	eeEnd     int64
	segments  int
	truncated bool
}

func newTimelineSim(e *Evaluator, r *Result) *timelineSim {
	return &timelineSim{e: e, r: r, cores: map[int][]*simTask{}, laneOf: map[int]int{}, ceLane: -1, eeLane: -1}
}

// build derives the tasks of every core and the phases of their jobs.
func (s *timelineSim) build() error {
	e, r := s.e, s.r
	var lines map[string]int64
	for i := range r.Tasks {
		tr := &r.Tasks[i]
		if !tr.Role.OnCPU() {
			continue
		}
		if tr.Unit < 0 || tr.Unit >= len(e.units) || e.units[tr.Unit].gpu {
			return fmt.Errorf("optimizer: task %s is on no core", tr.Name)
		}
		t := &simTask{idx: i, unit: tr.Unit, rank: tr.Rank, role: tr.Role, period: tr.T, deadline: tr.D, gpu: -1}
		switch tr.Role {
		case OffloadSync, OffloadAsync:
			if lines == nil {
				var err error
				if lines, err = e.labelLines(); err != nil {
					return err
				}
			}
			pre, err := runCost(e.cfg.System, lines, e.cfg.System.Tasks[i].Runnables, &e.units[tr.Unit])
			if err != nil {
				return err
			}
			lat := r.Units[tr.Unit].LineLatency
			c := &e.tasks[i].cpu[tr.Unit]
			postExec, postLines := c.exec-pre.exec, c.lines-pre.lines
			wait := SegmentBusyWait
			if tr.Role == OffloadAsync {
				postExec, postLines = postExec+c.waitExec, postLines+c.waitLines
				wait = SegmentSuspended
			}
			t.gpu = tr.GPU
			t.phases = []simPhase{{SegmentPre, satAdd(pre.exec, satMul(pre.lines, lat))}, {wait, 0},
				{SegmentPost, satAdd(postExec, satMul(postLines, lat))}}
		default: // periodic, merged
			t.phases = []simPhase{{SegmentRun, tr.C}}
		}
		s.tasks = append(s.tasks, t)
		if _, ok := s.cores[t.unit]; !ok {
			s.units = append(s.units, t.unit)
		}
		s.cores[t.unit] = append(s.cores[t.unit], t)
	}
	slices.Sort(s.units)
	for _, ts := range s.cores {
		slices.SortStableFunc(ts, func(a, b *simTask) int {
			if a.rank != b.rank {
				return a.rank - b.rank
			}
			return a.idx - b.idx
		})
	}
	return nil
}

// labelLines recomputes the lines of every label (NewEvaluator does not
// keep them).
func (e *Evaluator) labelLines() (map[string]int64, error) {
	s := e.cfg.System
	lines := make(map[string]int64, len(s.Labels))
	for _, l := range s.Labels {
		n, err := memory.Lines(int64(l.Size), int64(s.Memory.LineSize))
		if err != nil {
			return nil, fmt.Errorf("label %s: %w", l.Name, err)
		}
		lines[l.Name] = n
	}
	return lines, nil
}

// record adds a segment to a lane, merging it with the lane's last segment
// when it continues it.
func (s *timelineSim) record(lane int, seg TimelineSegment) {
	if seg.End <= seg.Start || lane < 0 {
		return
	}
	l := &s.lanes[lane]
	if n := len(l.Segments); n > 0 {
		last := &l.Segments[n-1]
		if last.Task == seg.Task && last.Job == seg.Job && last.Kind == seg.Kind && last.End == seg.Start {
			last.End = seg.End
			return
		}
	}
	l.Segments = append(l.Segments, seg)
	s.segments++
}

// running returns the job that holds core u: the head job of the most
// urgent task whose head job is not suspended.
func (s *timelineSim) running(u int) *simJob {
	for _, t := range s.cores[u] {
		if len(t.queue) > 0 && t.queue[0].current().kind != SegmentSuspended {
			return t.queue[0]
		}
	}
	return nil
}

func (s *timelineSim) run() {
	cur := make([]*simJob, len(s.e.units))
	ranPhase := make([]int, len(s.e.units))
	for {
		// Releases.
		for _, t := range s.tasks {
			for t.next <= s.now && t.next < s.window {
				rec := len(s.jobs)
				s.jobs = append(s.jobs, TimelineJob{Task: t.idx, Job: t.jobs, Unit: t.unit, Release: t.next, Deadline: t.next + t.deadline, Finish: -1})
				j := &simJob{t: t, job: t.jobs, record: rec, suspended: -1}
				t.queue = append(t.queue, j)
				if len(t.queue) == 1 {
					s.enter(j)
				}
				t.jobs++
				t.next += t.period
			}
		}
		s.dispatchGPU()
		// The next event.
		next := s.window
		for _, t := range s.tasks {
			next = min(next, t.next)
		}
		for _, u := range s.units {
			cur[u] = s.running(u)
			if j := cur[u]; j != nil {
				ranPhase[u] = j.phase
				if j.current().exec() {
					next = min(next, s.now+j.remaining)
				}
			}
		}
		if len(s.ceQueue) > 0 {
			next = min(next, s.ceEnd)
		}
		if s.eeCur != nil {
			next = min(next, s.eeEnd)
		}
		// Advance to it.
		dt := next - s.now
		for _, u := range s.units {
			if j := cur[u]; j != nil {
				ph := j.current()
				s.record(s.laneOf[u], TimelineSegment{Task: j.t.idx, Job: j.job, Kind: ph.kind, Start: s.now, End: next})
				if ph.exec() {
					j.remaining -= dt
				}
			}
		}
		if len(s.ceQueue) > 0 {
			g := s.ceQueue[0]
			kind := SegmentCopyIn
			if g.stage == 2 {
				kind = SegmentCopyOut
			}
			s.record(s.ceLane, TimelineSegment{Task: g.task, Job: g.job, Kind: kind, Start: s.now, End: next})
		}
		if g := s.eeCur; g != nil {
			s.record(s.eeLane, TimelineSegment{Task: g.task, Job: g.job, Kind: SegmentKernel, Start: s.now, End: next})
		}
		s.now = next
		if s.now >= s.window {
			break
		}
		if s.segments >= maxTimelineSegments {
			s.truncated = true
			break
		}
		// Completions: the copy engine, the GPU, then the cores.
		if len(s.ceQueue) > 0 && s.ceEnd == s.now {
			g := s.ceQueue[0]
			s.ceQueue = s.ceQueue[1:]
			if len(s.ceQueue) > 0 {
				s.ceEnd = s.now + s.ceQueue[0].remaining
			}
			s.nextStage(g)
		}
		if g := s.eeCur; g != nil && s.eeEnd == s.now {
			s.eeCur = nil
			g.remaining -= g.chunk
			g.sliceLeft -= g.chunk
			switch {
			case g.remaining <= 0:
				s.removeKernel(g)
				s.nextStage(g)
			case !s.e.fifo && g.sliceLeft <= 0:
				g.sliceLeft = s.r.GPU[g.g].Slice
				if q := s.eeQueues[0]; len(q) > 1 && q[0] == g { // round robin: to the back
					s.eeQueues[0] = append(q[1:], g)
				}
			}
		}
		for _, u := range s.units {
			if j := cur[u]; j != nil && !j.done && j.phase == ranPhase[u] && j.current().exec() && j.remaining <= 0 {
				s.advance(j)
			}
		}
	}
	// Suspensions still open at the end.
	for _, t := range s.tasks {
		for _, j := range t.queue {
			if j.suspended >= 0 {
				s.closeSuspension(j)
			}
		}
	}
}

// enter starts job j's current phase, skipping the phases that take no
// time (an empty pre-processing, the wait for a GPU job that has completed)
// and finishing the job after its last phase.
func (s *timelineSim) enter(j *simJob) {
	t := j.t
	for {
		if j.phase >= len(t.phases) {
			j.done = true
			s.jobs[j.record].Finish = s.now
			t.queue = t.queue[1:]
			if len(t.queue) > 0 { // the next job of the task starts now
				s.enter(t.queue[0])
			}
			return
		}
		ph := t.phases[j.phase]
		switch {
		case ph.exec() && ph.cost > 0:
			j.remaining = ph.cost
			return
		case ph.exec(): // nothing to run
			if ph.kind == SegmentPre {
				s.submit(j)
			}
		case !j.gpuDone: // a wait
			if ph.kind == SegmentSuspended {
				j.suspended = s.now
			}
			return
		}
		j.phase++
	}
}

// advance ends job j's current phase and enters the next.
func (s *timelineSim) advance(j *simJob) {
	switch j.current().kind {
	case SegmentPre:
		s.submit(j)
	case SegmentSuspended:
		s.closeSuspension(j)
	}
	j.phase++
	s.enter(j)
}

func (s *timelineSim) closeSuspension(j *simJob) {
	if j.suspended < 0 {
		return
	}
	if s.now > j.suspended {
		l := &s.lanes[s.laneOf[j.t.unit]]
		l.Suspended = append(l.Suspended, TimelineSegment{Task: j.t.idx, Job: j.job, Kind: SegmentSuspended, Start: j.suspended, End: s.now})
	}
	j.suspended = -1
}

// submit hands the GPU job of offloading job j to the GPU: the copy-in
// call happens now.
func (s *timelineSim) submit(j *simJob) {
	gr := &s.r.GPU[j.t.gpu]
	rec := len(s.jobs)
	s.jobs = append(s.jobs, TimelineJob{Task: gr.Task, Job: j.job, Unit: s.e.gpuUnit, Release: s.now, Deadline: s.jobs[j.record].Deadline, Finish: -1})
	s.nextStage(&gpuJob{cpu: j, g: j.t.gpu, task: gr.Task, job: j.job, record: rec, stage: -1, sliceLeft: gr.Slice})
}

// nextStage moves a GPU job to its next stage that takes time, or
// completes it and wakes its offloading job.
func (s *timelineSim) nextStage(g *gpuJob) {
	resp := &s.r.GPU[g.g].Response
	for {
		g.stage++
		switch g.stage {
		case 0:
			if resp.CopyIn > 0 {
				s.toCopyEngine(g, resp.CopyIn)
				return
			}
		case 1:
			if resp.KernelIsolated > 0 {
				g.remaining = resp.KernelIsolated
				q := 0
				if s.e.fifo && !s.r.GPU[g.g].High {
					q = 1
				}
				s.eeQueues[q] = append(s.eeQueues[q], g)
				return
			}
		case 2:
			if resp.CopyOut > 0 {
				s.toCopyEngine(g, resp.CopyOut)
				return
			}
		default:
			s.jobs[g.record].Finish = s.now
			j := g.cpu
			j.gpuDone = true
			if !j.done && j.t.queue[0] == j && !j.current().exec() {
				s.advance(j)
			}
			return
		}
	}
}

func (s *timelineSim) toCopyEngine(g *gpuJob, d int64) {
	g.remaining = d
	s.ceQueue = append(s.ceQueue, g)
	if len(s.ceQueue) == 1 {
		s.ceEnd = s.now + d
	}
}

func (s *timelineSim) removeKernel(g *gpuJob) {
	for q := range s.eeQueues {
		if i := slices.Index(s.eeQueues[q], g); i >= 0 {
			s.eeQueues[q] = slices.Delete(s.eeQueues[q], i, i+1)
			return
		}
	}
}

// dispatchGPU starts the next wave (fifo) or slice part (timeslice) when
// the GPU is idle.
func (s *timelineSim) dispatchGPU() {
	if s.eeCur != nil {
		return
	}
	var g *gpuJob
	for q := range s.eeQueues {
		if len(s.eeQueues[q]) > 0 {
			g = s.eeQueues[q][0]
			break
		}
	}
	if g == nil {
		return
	}
	chunk := g.remaining
	if s.e.fifo {
		if bt := s.r.GPU[g.g].BlockTime; bt > 0 {
			chunk = min(chunk, bt)
		}
	} else if g.sliceLeft > 0 {
		chunk = min(chunk, g.sliceLeft)
	}
	g.chunk = chunk
	s.eeCur, s.eeEnd = g, s.now+chunk
}
