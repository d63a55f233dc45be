package syssim

import (
	"container/heap"
	"math/rand/v2"
	"slices"

	"github.com/hetmap/hetmap/rta/sat"
)

// Simulate runs the system from 0 to its End and returns what happened. It
// returns an error, naming the core, task and field, for an input out of
// range; it never panics and always terminates (every instant it processes
// either moves time forward or completes some work, and releases stop at
// the horizon).
func Simulate(s *System) (*Result, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	m := newSim(s)
	m.run()
	return m.res, nil
}

type stepKind uint8

const (
	stepRead stepKind = iota
	stepCompute
	stepWrite
	stepWait
)

// step is one phase of a job: a read or write phase of n lines, an execute
// phase of at most n ps (at least best), or the wait for the GPU job.
type step struct {
	kind    stepKind
	seg     SegmentKind
	n, best int64
}

func (s *step) memory() bool { return s.kind == stepRead || s.kind == stepWrite }

type taskState struct {
	spec      *Task
	core, idx int
	steps     []step
	next      int64 // the next release
	jobs      int
	queue     []*jobState // released, unfinished jobs; the head may run
}

// access is the memory state of a client (the running job of a core, or
// the copy on the copy engine) during a memory phase.
type access struct {
	active bool  // an access has started and not ended
	paused bool  // its job was preempted during the access: end holds the time the access has left
	end    int64 // when the active access ends (as charged so far)
	left   int64 // lines of the phase not yet started
	// charged: the clients that have slowed the active access (cores counts
	// the cores among them); used (Request): the clients whose access the
	// active one has slowed.
	charged, used uint64
	cores         int
	rec           int   // the result Job its contention is added to
	phase         int64 // numbers the memory phases of the simulation
	// Set by settle for the interval up to the next event: the duration d
	// of every access that starts in it and the clients charged to it
	// (d = 0: none starts in it, the next event is the active access's
	// end).
	d           int64
	stable      uint64
	stableCores int
}

func (a *access) done() bool { return !a.active && a.left == 0 }

type jobState struct {
	t         *taskState
	n, rec    int
	si        int  // current step
	entered   bool // the current step has started
	remaining int64
	acc       access
	gpuDone   bool
	suspended int64 // start of the open suspension, −1 when none
}

// waiting reports whether the job is suspended, waiting for its GPU job.
func (j *jobState) waiting() bool {
	return j.si < len(j.t.steps) && j.t.steps[j.si].kind == stepWait && j.entered &&
		j.t.spec.Offload.Async && !j.gpuDone
}

type gpuJobState struct {
	spec  *GPUJob
	cpu   *jobState
	rec   int
	stage int // −1 before the copy in, 0 copy in, 1 kernel, 2 copy out, 3 done
	acc   access
	// FIFO: blocks not yet assigned and running; seq orders the kernels'
	// last block assignments; thr, smem, regs are one block's needs.
	unassigned, running int
	seq                 int64
	thr, smem, regs     int
	// TimeSlice: GPU time the kernel still needs, and what is left of its
	// slice.
	remaining, sliceLeft int64
}

type smState struct{ threads, smem, regs, blocks int }

type runningBlock struct {
	end, seq int64
	g        *gpuJobState
	sm       int
}

type blockHeap []runningBlock

func (h blockHeap) Len() int { return len(h) }
func (h blockHeap) Less(i, j int) bool {
	if h[i].end != h[j].end {
		return h[i].end < h[j].end
	}
	return h[i].seq < h[j].seq
}
func (h blockHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *blockHeap) Push(x any)   { *h = append(*h, x.(runningBlock)) }
func (h *blockHeap) Pop() any {
	old := *h
	b := old[len(old)-1]
	*h = old[:len(old)-1]
	return b
}

type coreState struct {
	tasks []*taskState // most urgent first
	run   *jobState    // the job holding the core, nil when idle
}

type sim struct {
	s                 *System
	now, horizon      int64
	end               int64
	cores             []coreState
	tasks             []*taskState
	res               *Result
	rng               *rand.Rand
	vary              bool
	maxDelay          int64
	limit             int // MaxInterferingCores
	record            bool
	segments          int
	ceLane, gpuLane   int
	cl                []*access // memory clients in a phase: the cores, then the copy engine (nil: not in a phase)
	base              []int64   // their baselines
	ceQ               []*gpuJobState
	ceCur             *gpuJobState
	ee                [2][]*gpuJobState // FIFO: the high and the low EE queue
	sms               []smState
	blocks            blockHeap
	seq               int64
	resident          []*gpuJobState // FIFO: kernels with running blocks
	rr                []*gpuJobState // TimeSlice: channels with a kernel, the holder first
	tsCur             *gpuJobState
	tsEnd, tsChunk    int64
	warp, blocksPerSM int
	phases            int64       // memory phases started
	cycles            cycleFinder // Request: repeated memory states
}

func newSim(s *System) *sim {
	m := &sim{s: s, horizon: s.Horizon, end: s.End, record: s.MaxSegments > 0, limit: s.MaxInterferingCores, ceLane: -1, gpuLane: -1}
	if m.end == 0 {
		m.end = s.Horizon
	}
	if v := s.Vary; v != nil {
		m.rng = rand.New(rand.NewPCG(v.Seed, v.Seed^0x9e3779b97f4a7c15))
		m.vary, m.maxDelay = v.Exec, v.MaxDelay
	}
	n := len(s.Cores)
	m.res = &Result{}
	m.cores = make([]coreState, n)
	m.cl = make([]*access, n+1)
	m.base = make([]int64, n+1)
	for c := range s.Cores {
		core := &s.Cores[c]
		m.base[c] = core.Memory.Baseline
		m.res.Lanes = append(m.res.Lanes, Lane{Kind: LaneCore, Core: c})
		for i := range core.Tasks {
			t := &taskState{spec: &core.Tasks[i], core: c, idx: i, next: core.Tasks[i].Offset}
			t.steps = buildSteps(t.spec)
			m.cores[c].tasks = append(m.cores[c].tasks, t)
			m.tasks = append(m.tasks, t)
		}
	}
	m.base[n] = s.CopyEngine.Baseline
	if g := s.GPU; g != nil {
		m.ceLane = len(m.res.Lanes)
		m.res.Lanes = append(m.res.Lanes, Lane{Kind: LaneCopyEngine, Core: -1})
		m.gpuLane = len(m.res.Lanes)
		m.res.Lanes = append(m.res.Lanes, Lane{Kind: LaneGPU, Core: -1})
		if g.Model == FIFO {
			m.sms = make([]smState, g.Device.SMs)
			m.warp = max(1, g.Device.WarpSize)
			m.blocksPerSM = g.Device.MaxBlocksPerSM
		}
	}
	return m
}

// buildSteps lays out a task's job as steps: per runnable its read,
// execute and write phases (empty ones left out), then for an offloading
// task the wait and the post-processing.
func buildSteps(t *Task) []step {
	var steps []step
	add := func(rs []Runnable, seg SegmentKind) {
		for _, r := range rs {
			if r.Read > 0 {
				steps = append(steps, step{kind: stepRead, seg: seg, n: r.Read})
			}
			if r.Compute > 0 {
				steps = append(steps, step{kind: stepCompute, seg: seg, n: r.Compute, best: r.ComputeBest})
			}
			if r.Write > 0 {
				steps = append(steps, step{kind: stepWrite, seg: seg, n: r.Write})
			}
		}
	}
	if t.Offload == nil {
		add(t.Runnables, SegmentRun)
		return steps
	}
	add(t.Runnables, SegmentPre)
	wait := SegmentBusyWait
	if t.Offload.Async {
		wait = SegmentSuspended
	}
	steps = append(steps, step{kind: stepWait, seg: wait})
	add(t.Offload.Post, SegmentPost)
	return steps
}

func (m *sim) run() {
	for {
		m.res.Events++
		m.instant()
		m.settle()
		if m.s.Memory == Request && !m.s.stepAccesses {
			m.skipCycles()
		}
		next := m.nextEvent()
		m.advance(next)
		m.now = next
		if m.now >= m.end {
			break
		}
		if m.record && m.segments >= m.s.MaxSegments {
			m.res.Truncated = true
			break
		}
	}
	m.res.End = m.now
	for _, t := range m.tasks {
		for _, j := range t.queue {
			m.closeSuspension(j)
		}
	}
}

// instant processes everything that happens at m.now: completions (copy
// engine, GPU blocks or slices, the cores' phases, with the steps of the
// running job that follow and take no time), releases, the cores'
// scheduling decisions (which also start GPU jobs), then the GPU's and the
// copy engine's dispatch. Within each group, cores and tasks go in index
// order, queues in FIFO order: the result is deterministic.
func (m *sim) instant() {
	if g := m.ceCur; g != nil && g.acc.done() {
		m.ceCur = nil
		m.nextStage(g)
	}
	m.gpuCompletions()
	for c := range m.cores {
		if j := m.cores[c].run; j != nil && j.entered {
			st := &j.t.steps[j.si]
			if (st.kind == stepCompute && j.remaining == 0) || (st.memory() && j.acc.done()) {
				// The job held its core up to now: the steps that take no
				// time (to its end, or to the submission of its GPU job)
				// happen now, before any release can preempt it.
				j.si++
				j.entered = false
				m.enter(j)
			}
		}
	}
	for _, t := range m.tasks {
		for t.next <= m.now && t.next < m.horizon {
			m.release(t)
		}
	}
	for c := range m.cores {
		m.schedule(c)
	}
	m.dispatchGPU()
	if m.ceCur == nil && len(m.ceQ) > 0 {
		g := m.ceQ[0]
		m.ceQ = m.ceQ[1:]
		m.ceCur = g
		m.started(g.rec)
	}
}

func (m *sim) release(t *taskState) {
	d := t.spec.Deadline
	if d == 0 {
		d = t.spec.Period
	}
	rec := len(m.res.Jobs)
	m.res.Jobs = append(m.res.Jobs, Job{ID: t.spec.ID, Job: t.jobs, Core: t.core, Task: t.idx,
		Release: t.next, Deadline: t.next + d, Start: -1, Finish: -1})
	t.queue = append(t.queue, &jobState{t: t, n: t.jobs, rec: rec, suspended: -1})
	t.jobs++
	t.next += t.spec.Period
	if m.maxDelay > 0 {
		t.next += m.rng.Int64N(m.maxDelay + 1)
	}
}

func (m *sim) started(rec int) {
	if m.res.Jobs[rec].Start < 0 {
		m.res.Jobs[rec].Start = m.now
	}
}

// draw returns an execution time in [best, worst]: worst, unless Variation
// draws one.
func (m *sim) draw(best, worst int64) int64 {
	if !m.vary || worst <= best || m.rng.IntN(2) == 0 {
		return worst
	}
	return best + m.rng.Int64N(worst-best+1)
}

// ready returns the job that should hold core c: the head job of the most
// urgent task whose head job is not suspended.
func (m *sim) ready(c int) *jobState {
	for _, t := range m.cores[c].tasks {
		if len(t.queue) > 0 && !t.queue[0].waiting() {
			return t.queue[0]
		}
	}
	return nil
}

// schedule gives core c to its most urgent ready job, pausing the access of
// a preempted job, and lets that job take the steps that need no time.
func (m *sim) schedule(c int) {
	cs := &m.cores[c]
	for {
		j := m.ready(c)
		if j != cs.run {
			if cs.run != nil {
				m.pause(cs.run)
			}
			cs.run = j
			if j != nil && j.acc.paused {
				j.acc.end += m.now
				j.acc.paused = false
			}
		}
		if j == nil {
			return
		}
		m.started(j.rec)
		if !m.enter(j) {
			return
		}
	}
}

// pause stops the access of job j, which loses its core: the access keeps
// the time it has left and the clients already charged to it.
func (m *sim) pause(j *jobState) {
	if j.si < len(j.t.steps) && j.t.steps[j.si].memory() && j.acc.active && !j.acc.paused {
		j.acc.end -= m.now
		j.acc.paused = true
	}
}

// enter starts the running job j's current step and passes the steps that
// take no time: an execute phase drawn as 0, a memory phase on a core with
// a baseline of 0, the wait for a GPU job that has completed. It submits the
// GPU job on reaching the wait. It reports whether j no longer holds its
// core (it finished or suspended).
func (m *sim) enter(j *jobState) bool {
	t := j.t
	for {
		if j.si == len(t.steps) {
			m.res.Jobs[j.rec].Finish = m.now
			t.queue = t.queue[1:]
			m.cores[t.core].run = nil
			return true
		}
		st := &t.steps[j.si]
		if !j.entered {
			j.entered = true
			switch st.kind {
			case stepCompute:
				j.remaining = m.draw(st.best, st.n)
			case stepRead, stepWrite:
				m.phases++
				j.acc = access{left: st.n, rec: j.rec, phase: m.phases}
				if m.base[t.core] == 0 {
					j.acc.left = 0 // an access that takes no time overlaps nothing
				}
			case stepWait:
				m.submit(j)
				if j.waiting() {
					j.suspended = m.now
					return true
				}
			}
		}
		switch st.kind {
		case stepCompute:
			if j.remaining > 0 {
				return false
			}
		case stepRead, stepWrite:
			if !j.acc.done() {
				return false
			}
		case stepWait:
			if !j.gpuDone {
				return false // busy-waiting
			}
		}
		j.si++
		j.entered = false
	}
}

func (m *sim) closeSuspension(j *jobState) {
	if j.suspended < 0 {
		return
	}
	m.recordSegment(j.t.core, Segment{ID: j.t.spec.ID, Job: j.n, Kind: SegmentSuspended, Start: j.suspended, End: m.now}, true)
	j.suspended = -1
}

// submit hands the GPU job of offloading job j to the GPU now.
func (m *sim) submit(j *jobState) {
	o := j.t.spec.Offload
	rec := len(m.res.Jobs)
	m.res.Jobs = append(m.res.Jobs, Job{ID: o.GPU.ID, Job: j.n, GPU: true, Core: j.t.core, Task: j.t.idx,
		Release: m.now, Deadline: m.res.Jobs[j.rec].Deadline, Start: -1, Finish: -1})
	g := &gpuJobState{spec: &o.GPU, cpu: j, rec: rec, stage: -1}
	if m.s.GPU.Model == FIFO {
		k := &o.GPU.Kernel
		g.thr = (k.ThreadsPerBlock + m.warp - 1) / m.warp * m.warp
		g.smem, g.regs = k.SharedMemPerBlock, k.RegistersPerBlock
	}
	m.nextStage(g)
}

// nextStage moves GPU job g to its next stage that has work, in stream
// order (copy in, kernel, copy out), or completes it and wakes its
// offloading job.
func (m *sim) nextStage(g *gpuJobState) {
	ce := len(m.cores)
	for {
		g.stage++
		switch g.stage {
		case 0, 2:
			lines := g.spec.CopyIn
			if g.stage == 2 {
				lines = g.spec.CopyOut
			}
			if lines > 0 && m.base[ce] > 0 {
				m.phases++
				g.acc = access{left: lines, rec: g.rec, phase: m.phases}
				m.ceQ = append(m.ceQ, g)
				return
			}
		case 1:
			k := &g.spec.Kernel
			if m.s.GPU.Model == FIFO {
				if k.Blocks > 0 {
					g.unassigned = k.Blocks
					lvl := 1
					if g.spec.High {
						lvl = 0
					}
					m.ee[lvl] = append(m.ee[lvl], g)
					return
				}
			} else if d := m.draw(k.TimeBest, k.Time); d > 0 {
				g.remaining, g.sliceLeft = d, g.spec.Slice
				m.rr = append(m.rr, g)
				return
			}
		default:
			m.res.Jobs[g.rec].Finish = m.now
			g.cpu.gpuDone = true
			m.closeSuspension(g.cpu)
			return
		}
	}
}

// gpuCompletions ends the blocks (FIFO) or the slice part (TimeSlice) that
// end now.
func (m *sim) gpuCompletions() {
	if m.s.GPU == nil {
		return
	}
	if m.s.GPU.Model == FIFO {
		for len(m.blocks) > 0 && m.blocks[0].end == m.now {
			b := heap.Pop(&m.blocks).(runningBlock)
			g := b.g
			sm := &m.sms[b.sm]
			sm.threads -= g.thr
			sm.smem -= g.smem
			sm.regs -= g.regs
			sm.blocks--
			g.running--
			if g.running == 0 {
				m.resident = slices.DeleteFunc(m.resident, func(x *gpuJobState) bool { return x == g })
				if g.unassigned == 0 {
					m.nextStage(g)
				}
			}
		}
		return
	}
	if g := m.tsCur; g != nil && m.tsEnd == m.now {
		m.tsCur = nil
		g.remaining -= m.tsChunk
		g.sliceLeft -= m.tsChunk
		switch {
		case g.remaining == 0:
			m.rr = m.rr[1:]
			m.nextStage(g)
		case g.sliceLeft == 0:
			g.sliceLeft = g.spec.Slice
			if len(m.rr) > 1 { // round robin: the holder goes to the back
				m.rr = append(m.rr[1:], g)
			}
		}
	}
}

// dispatchGPU assigns blocks (FIFO) or starts the next slice part
// (TimeSlice) now.
func (m *sim) dispatchGPU() {
	if m.s.GPU == nil {
		return
	}
	if m.s.GPU.Model == TimeSlice {
		if m.tsCur == nil && len(m.rr) > 0 {
			g := m.rr[0]
			m.tsCur, m.tsChunk = g, min(g.remaining, g.sliceLeft)
			m.tsEnd = m.now + m.tsChunk
			m.started(g.rec)
		}
		return
	}
	for {
		lvl := 0 // A2: the low queue only while the high one is empty
		if len(m.ee[0]) == 0 {
			lvl = 1
		}
		if len(m.ee[lvl]) == 0 {
			return
		}
		g := m.ee[lvl][0] // X1: only the head kernel
		sm := m.pickSM(g)
		if sm < 0 {
			return // the head waits, and holds back every kernel behind or below it
		}
		s := &m.sms[sm]
		s.threads += g.thr
		s.smem += g.smem
		s.regs += g.regs
		s.blocks++
		if g.running == 0 {
			m.resident = append(m.resident, g)
		}
		g.running++
		g.unassigned--
		m.seq++
		g.seq = m.seq
		m.started(g.rec)
		k := &g.spec.Kernel
		d := max(1, m.draw(k.BlockTimeBest, k.BlockTime))
		heap.Push(&m.blocks, runningBlock{end: m.now + d, seq: m.seq, g: g, sm: sm})
		if g.unassigned == 0 { // G3: fully dispatched, it leaves the EE queue
			m.ee[lvl] = m.ee[lvl][1:]
		}
	}
}

// pickSM returns the SM for the next block of g: among the SMs where it
// fits (threads in whole warps, shared memory, registers, resident
// blocks), the one with the most free threads, the lowest index on a tie
// (rta/gpusim's placement); −1 when it fits nowhere.
func (m *sim) pickSM(g *gpuJobState) int {
	d := &m.s.GPU.Device
	best, bestFree := -1, -1
	for i := range m.sms {
		s := &m.sms[i]
		free := d.ThreadsPerSM - s.threads
		if free < g.thr || (m.blocksPerSM > 0 && s.blocks >= m.blocksPerSM) ||
			(d.SharedMemPerSM > 0 && d.SharedMemPerSM-s.smem < g.smem) ||
			(d.RegistersPerSM > 0 && d.RegistersPerSM-s.regs < g.regs) {
			continue
		}
		if free > bestFree {
			best, bestFree = i, free
		}
	}
	return best
}

// delay is what client q in a memory phase adds to an access of client p:
// for a core, K(p) per other core and sGPU(p) for the copy engine; for the
// copy engine its per-core term.
func (m *sim) delay(p, q int) int64 {
	n := len(m.cores)
	switch {
	case p == n:
		return m.s.CopyEngine.PerCore
	case q == n:
		return m.s.Cores[p].Memory.CopyEngine
	}
	return m.s.Cores[p].Memory.PerCore
}

// charge reports whether client q, in a memory phase, may still slow the
// active access a of client p.
func (m *sim) charge(p int, a *access, q int, b *access) bool {
	switch {
	case a.charged&(1<<q) != 0: // once per other client per access
		return false
	case m.s.Memory == Request && b.used&(1<<p) != 0: // q's request has delayed an access of p already
		return false
	case q < len(m.cores) && m.limit > 0 && a.cores >= m.limit:
		return false
	}
	return m.delay(p, q) > 0
}

// settle brings the memory clients up to date after the instant's
// decisions: a client in a memory phase without an active access starts
// one (at its baseline), every active access is charged for the clients
// in a memory phase now that it has not been charged for, and the
// duration of the accesses that will start before the next event is set.
func (m *sim) settle() {
	n := len(m.cores)
	in := 0
	for c := range m.cores {
		m.cl[c] = nil
		if j := m.cores[c].run; j != nil && j.entered && j.t.steps[j.si].memory() && !j.acc.done() {
			m.cl[c] = &j.acc
			in++
		}
	}
	m.cl[n] = nil
	if g := m.ceCur; g != nil && !g.acc.done() {
		m.cl[n] = &g.acc
		in++
	}
	for p, a := range m.cl {
		if a != nil && !a.active {
			a.active, a.end, a.charged, a.used, a.cores = true, m.now+m.base[p], 0, 0, 0
			a.left--
		}
	}
	for p, a := range m.cl {
		if a == nil {
			continue
		}
		for q, b := range m.cl {
			if q == p || b == nil || !m.charge(p, a, q, b) {
				continue
			}
			d := m.delay(p, q)
			a.end += d
			a.charged |= 1 << q
			if q < n {
				a.cores++
			}
			b.used |= 1 << p
			m.res.Jobs[a.rec].Contention += d
		}
	}
	for p, a := range m.cl {
		if a == nil {
			continue
		}
		a.d, a.stable, a.stableCores = m.base[p], 0, 0
		if m.s.stepAccesses {
			a.d = 0
			continue
		}
		if m.s.Memory == Request {
			// Accesses are stepped one by one while another client is in a
			// memory phase; alone, every access takes the baseline.
			if in > 1 {
				a.d = 0
			}
			continue
		}
		// Per access, the set of clients in a phase is what charges every
		// access that starts before the next event.
		for q, b := range m.cl {
			if q == p || b == nil || (q < n && m.limit > 0 && a.stableCores >= m.limit) {
				continue
			}
			if d := m.delay(p, q); d > 0 {
				a.d += d
				a.stable |= 1 << q
				if q < n {
					a.stableCores++
				}
			}
		}
	}
}

// nextEvent returns the next instant at which something may change.
func (m *sim) nextEvent() int64 {
	next := m.nextExternal()
	for _, a := range m.cl {
		if a == nil {
			continue
		}
		e := a.end
		if a.d > 0 && a.left > 0 {
			e = sat.Add(e, sat.Mul(a.left, a.d)) // the end of the phase
		}
		next = min(next, e)
	}
	return next
}

// nextExternal returns the next instant at which something other than the
// memory clients' accesses may change: a release, the end of an execute
// phase, of a block or of a slice part, or the end of the simulation.
func (m *sim) nextExternal() int64 {
	next := m.end
	for _, t := range m.tasks {
		if t.next < m.horizon {
			next = min(next, t.next)
		}
	}
	for c := range m.cores {
		if j := m.cores[c].run; j != nil && j.t.steps[j.si].kind == stepCompute {
			next = min(next, m.now+j.remaining)
		}
	}
	if len(m.blocks) > 0 {
		next = min(next, m.blocks[0].end)
	}
	if m.tsCur != nil {
		next = min(next, m.tsEnd)
	}
	return next
}

// advance moves the state from m.now to t, before which nothing changes,
// and records what every lane did.
func (m *sim) advance(t int64) {
	if t == m.now {
		return
	}
	m.advanceLanes(t)
	for p, a := range m.cl {
		if a != nil {
			m.progress(p, a, t)
		}
	}
}

// advanceLanes records what every lane does from m.now to t and moves the
// execute phases on; the memory clients are moved on by the caller.
func (m *sim) advanceLanes(t int64) {
	for c := range m.cores {
		j := m.cores[c].run
		if j == nil {
			continue
		}
		st := &j.t.steps[j.si]
		kind := st.seg
		if st.kind == stepWait {
			kind = SegmentBusyWait
		}
		m.recordSegment(c, Segment{ID: j.t.spec.ID, Job: j.n, Kind: kind, Start: m.now, End: t}, false)
		if st.kind == stepCompute {
			j.remaining -= t - m.now
		}
	}
	if g := m.ceCur; g != nil {
		kind := SegmentCopyIn
		if g.stage == 2 {
			kind = SegmentCopyOut
		}
		m.recordSegment(m.ceLane, Segment{ID: g.spec.ID, Job: g.cpu.n, Kind: kind, Start: m.now, End: t}, false)
	}
	var shown *gpuJobState
	if m.tsCur != nil {
		shown = m.tsCur
	}
	for _, g := range m.resident {
		if shown == nil || g.seq > shown.seq {
			shown = g
		}
	}
	if shown != nil {
		m.recordSegment(m.gpuLane, Segment{ID: shown.spec.ID, Job: shown.cpu.n, Kind: SegmentKernel, Start: m.now, End: t}, false)
	}
}

// progress completes the accesses of client p that end by t. Accesses that
// start before t take the settled duration a.d; when a.d is 0, t is at most
// the active access's end.
func (m *sim) progress(p int, a *access, t int64) {
	if t < a.end {
		return
	}
	t0 := a.end
	if a.left > 0 && a.d > 0 {
		k := min(a.left, (t-t0)/a.d)
		t0 += k * a.d
		a.left -= k
		extra := a.d - m.base[p]
		m.res.Jobs[a.rec].Contention += k * extra
		if t0 < t { // an access started at t0 and is still running at t
			a.left--
			a.end = t0 + a.d
			a.charged, a.cores, a.used = a.stable, a.stableCores, 0
			m.res.Jobs[a.rec].Contention += extra
			return
		}
	}
	a.active = false // at t the phase ends or the next access starts
}

// recordSegment adds a segment to a lane (or its suspensions), merging it
// with the last one when it continues it.
func (m *sim) recordSegment(lane int, seg Segment, suspended bool) {
	if !m.record || seg.End <= seg.Start || lane < 0 {
		return
	}
	l := &m.res.Lanes[lane]
	list := &l.Segments
	if suspended {
		list = &l.Suspended
	}
	if n := len(*list); n > 0 {
		last := &(*list)[n-1]
		if last.ID == seg.ID && last.Job == seg.Job && last.Kind == seg.Kind && last.End == seg.Start {
			last.End = seg.End
			return
		}
	}
	*list = append(*list, seg)
	if !suspended {
		m.segments++
	}
}
