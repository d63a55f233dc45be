package gpusim

import (
	"container/heap"
	"fmt"
	"slices"
)

// KernelRun is what happened to one kernel launch.
type KernelRun struct {
	Name     string   `json:"name"`
	Host     int      `json:"host"` // index into Scenario.Hosts
	Op       int      `json:"op"`   // index into Hosts[Host].Ops
	Stream   int      `json:"stream"`
	Priority Priority `json:"priority"`
	Null     bool     `json:"null_stream,omitempty"`
	Kernel   Kernel   `json:"kernel"`
	// Issued is false when the host stopped before making the call (Op.StopAt);
	// the times are then 0.
	Issued bool `json:"issued"`
	// Seq is the launch order of the call among all calls of the scenario.
	Seq int `json:"seq"`
	// Launch: the call was made and the kernel entered its stream queue (G1).
	Launch int64 `json:"launch_ns"`
	// Queued: the kernel entered the EE queue (G2, N1, N2).
	Queued int64 `json:"queued_ns"`
	// Start: its first block was assigned (the kernel was dispatched).
	Start int64 `json:"start_ns"`
	// Dispatched: its last block was assigned (it left the EE queue, G3).
	Dispatched int64 `json:"dispatched_ns"`
	// Completion: its last block finished (it left its stream queue, G4).
	Completion int64 `json:"completion_ns"`
	// FirstBlock is the index in Result.Blocks of block 0 of this kernel; the
	// kernel's blocks follow in index order. -1 when not issued.
	FirstBlock int `json:"first_block"`
}

// Response returns Completion − Launch.
func (k KernelRun) Response() int64 { return k.Completion - k.Launch }

// CopyRun is what happened to one copy.
type CopyRun struct {
	Name   string `json:"name"`
	Host   int    `json:"host"`
	Op     int    `json:"op"`
	Stream int    `json:"stream"`
	Issued bool   `json:"issued"`
	Seq    int    `json:"seq"`
	Launch int64  `json:"launch_ns"` // entered the stream queue (G1)
	Queued int64  `json:"queued_ns"` // entered the CE queue (C1)
	Start  int64  `json:"start_ns"`  // assigned to the copy engine (C2, C3)
	End    int64  `json:"end_ns"`    // finished (C4)
}

// BlockRun is one thread block: the SM it ran on and when.
type BlockRun struct {
	Kernel  int   `json:"kernel"` // index into Result.Kernels
	Index   int   `json:"index"`  // block index within the kernel
	SM      int   `json:"sm"`
	Threads int   `json:"threads"` // thread slots it occupied (whole warps)
	Start   int64 `json:"start_ns"`
	End     int64 `json:"end_ns"`
	// Order is the rank of the block among all block assignments of the run.
	Order int `json:"order"`
}

// Result is the outcome of Simulate. Kernels and Copies are in the order of
// the hosts and, within a host, of its ops; Blocks are grouped by kernel in
// that order, then by block index.
type Result struct {
	Name     string      `json:"name"`
	Device   Device      `json:"device"` // with the TX2 defaults filled in
	Streams  []Stream    `json:"streams"`
	Hosts    []string    `json:"hosts"`
	Kernels  []KernelRun `json:"kernels"`
	Copies   []CopyRun   `json:"copies"`
	Blocks   []BlockRun  `json:"blocks"`
	Makespan int64       `json:"makespan_ns"` // the last completion
	Events   int         `json:"events"`      // events processed
}

// Kernel returns the first kernel run with the given name.
func (r Result) Kernel(name string) (KernelRun, bool) {
	for _, k := range r.Kernels {
		if k.Name == name {
			return k, true
		}
	}
	return KernelRun{}, false
}

// KernelBlocks returns the blocks of kernel i of r.Kernels.
func (r Result) KernelBlocks(i int) []BlockRun {
	if i < 0 || i >= len(r.Kernels) || !r.Kernels[i].Issued {
		return nil
	}
	k := r.Kernels[i]
	return r.Blocks[k.FirstBlock : k.FirstBlock+k.Kernel.Blocks]
}

// ---------------------------------------------------------------------------

type evKind uint8

const (
	evBlockEnd evKind = iota
	evCopyEnd
	evWake
)

type event struct {
	t    int64
	seq  int64 // insertion order: a deterministic tie-break
	kind evKind
	op   int // evBlockEnd, evCopyEnd
	sm   int // evBlockEnd
	host int // evWake
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

type opState struct {
	host, idx int
	op        *Op
	stream    int
	seq       int // -1 until issued
	issued    bool
	queued    bool // entered the EE or CE queue
	done      bool
	launch    int64
	queuedAt  int64
	start     int64
	dispatch  int64 // kernels: fully dispatched; copies: unused
	end       int64
	next      int // next block to assign
	running   int // blocks assigned and not finished
	thr       int // thread slots of one block
	regs      int // registers of one block
	result    int // index in Kernels or Copies
	blockBase int // index in Blocks of block 0
}

type hostState struct {
	ops       []int // op indices
	next      int
	prevIssue int64
	lastDone  int64
	pending   int // issued and not done
	stopped   bool
	wakeAt    int64   // -1: none scheduled
	barriers  int     // barrier ops in total
	passed    int     // barrier ops issued
	arrivedAt []int64 // arrival time at barrier n; len = barriers reached
}

type smState struct {
	threads, blocks, regs int
	shmem                 int64
}

type sim struct {
	s       *Scenario
	d       Device
	ops     []opState
	hosts   []hostState
	streams [][]int // queue of op indices per stream (with a head pointer)
	heads   []int   // index of the head in streams[i]
	nullSt  int     // index of the NULL stream, or -1
	ee      [2][]int
	ce      []int
	ceBusy  bool
	sms     []smState
	events  eventHeap
	evSeq   int64
	nEvents int
	seq     int
	nAssign int
	// released[n] is the release time of barrier n, once released.
	released []int64
	dirty    []bool
	dirtyL   []int
	waiting  []bool // stream has an unqueued head awaiting N1/N2 or first check
	waitL    []int
	res      *Result
}

// Simulate runs the scenario to completion under the TX2 rules of Amert et
// al. (see the package documentation) and returns every kernel's, copy's and block's times.
// It returns an error for an invalid scenario (naming the host and op), a
// kernel that can never fit on an SM, or a scenario over Scenario.MaxEvents.
// It is deterministic.
func Simulate(s Scenario) (Result, error) {
	d, err := s.prepare()
	if err != nil {
		return Result{}, err
	}
	m := &sim{s: &s, d: d, nullSt: -1}
	for i, st := range s.Streams {
		if st.Null {
			m.nullSt = i
		}
	}
	res := &Result{Name: s.Name, Device: d, Streams: slices.Clone(s.Streams)}
	m.res = res
	m.streams = make([][]int, len(s.Streams))
	m.heads = make([]int, len(s.Streams))
	m.waiting = make([]bool, len(s.Streams))
	m.sms = make([]smState, d.SMs)
	m.hosts = make([]hostState, len(s.Hosts))
	m.dirty = make([]bool, len(s.Hosts))
	nBlocks := 0
	for h := range s.Hosts {
		host := &s.Hosts[h]
		res.Hosts = append(res.Hosts, host.Name)
		hs := &m.hosts[h]
		hs.wakeAt = -1
		for i := range host.Ops {
			op := &host.Ops[i]
			st := opState{host: h, idx: i, op: op, stream: op.Stream, seq: -1, blockBase: -1}
			if op.Barrier {
				hs.barriers++
			}
			if op.Kind == KernelOp {
				st.thr = d.allocThreads(op.Kernel.ThreadsPerBlock)
				st.regs = op.Kernel.RegistersPerThread * op.Kernel.ThreadsPerBlock
				st.result = len(res.Kernels)
				st.blockBase = nBlocks
				nBlocks += op.Kernel.Blocks
				res.Kernels = append(res.Kernels, KernelRun{Name: op.Name, Host: h, Op: i, Stream: op.Stream,
					Priority: s.Streams[op.Stream].Priority, Null: s.Streams[op.Stream].Null, Kernel: op.Kernel, FirstBlock: -1})
			} else {
				st.result = len(res.Copies)
				res.Copies = append(res.Copies, CopyRun{Name: op.Name, Host: h, Op: i, Stream: op.Stream})
			}
			hs.ops = append(hs.ops, len(m.ops))
			m.ops = append(m.ops, st)
		}
		hs.arrivedAt = make([]int64, 0, hs.barriers)
	}
	res.Blocks = make([]BlockRun, nBlocks)
	for h := range m.hosts {
		m.markHost(h)
	}
	now := int64(0)
	m.step(now)
	for m.events.Len() > 0 {
		now = m.events[0].t
		for m.events.Len() > 0 && m.events[0].t == now {
			e := heap.Pop(&m.events).(event)
			m.nEvents++
			m.handle(e, now)
		}
		m.step(now)
	}
	if err := m.check(); err != nil {
		return Result{}, err
	}
	m.record()
	return *res, nil
}

// record writes what the simulation did into its result: the events, the
// makespan and every issued operation's times; the block slots of kernels
// never issued are dropped, keeping the grouping by kernel.
func (m *sim) record() {
	res := m.res
	res.Events = m.nEvents
	for i := range m.ops {
		st := &m.ops[i]
		if !st.issued {
			continue
		}
		res.Makespan = max(res.Makespan, st.end)
		if st.op.Kind == KernelOp {
			k := &res.Kernels[st.result]
			k.Issued, k.Seq, k.Launch, k.Queued, k.Start, k.Dispatched, k.Completion = true, st.seq, st.launch, st.queuedAt, st.start, st.dispatch, st.end
			k.FirstBlock = st.blockBase
		} else {
			c := &res.Copies[st.result]
			c.Issued, c.Seq, c.Launch, c.Queued, c.Start, c.End = true, st.seq, st.launch, st.queuedAt, st.start, st.end
		}
	}
	// Drop the block slots of kernels that were never issued, keeping the
	// grouping by kernel.
	if len(res.Blocks) > 0 {
		kept := res.Blocks[:0]
		for i := range res.Kernels {
			k := &res.Kernels[i]
			if !k.Issued {
				continue
			}
			base := len(kept)
			kept = append(kept, res.Blocks[k.FirstBlock:k.FirstBlock+k.Kernel.Blocks]...)
			for j := base; j < len(kept); j++ {
				kept[j].Kernel = i
			}
			k.FirstBlock = base
		}
		res.Blocks = kept
	}
}

func (m *sim) push(e event) {
	e.seq = m.evSeq
	m.evSeq++
	heap.Push(&m.events, e)
}

func (m *sim) markHost(h int) {
	if !m.dirty[h] {
		m.dirty[h] = true
		m.dirtyL = append(m.dirtyL, h)
	}
}

func (m *sim) markStream(s int) {
	if !m.waiting[s] {
		m.waiting[s] = true
		m.waitL = append(m.waitL, s)
	}
}

// handle applies one event at time now: a block or a copy ends, or a host
// wakes up.
func (m *sim) handle(e event, now int64) {
	switch e.kind {
	case evBlockEnd:
		st := &m.ops[e.op]
		sm := &m.sms[e.sm]
		sm.threads -= st.thr
		sm.shmem -= st.op.Kernel.SharedMemoryPerBlock
		sm.regs -= st.regs
		sm.blocks--
		st.running--
		if st.running == 0 && st.next == st.op.Kernel.Blocks {
			m.complete(e.op, now) // G4
		}
	case evCopyEnd:
		m.ceBusy = false
		m.complete(e.op, now) // C4
	case evWake:
		hs := &m.hosts[e.host]
		if hs.wakeAt == now {
			hs.wakeAt = -1
		}
		m.markHost(e.host)
	}
}

// complete removes a finished op from the head of its stream queue.
func (m *sim) complete(i int, now int64) {
	st := &m.ops[i]
	st.done = true
	st.end = now
	s := st.stream
	m.heads[s]++ // the op was the head: only the head of a stream runs
	if m.heads[s] < len(m.streams[s]) {
		m.markStream(s)
	}
	if m.nullSt >= 0 {
		// A change of any head can release a NULL-stream head (N1) or, when
		// the NULL head leaves, heads of other streams (N2).
		if s == m.nullSt {
			for o := range m.streams {
				if m.heads[o] < len(m.streams[o]) && !m.ops[m.streams[o][m.heads[o]]].queued {
					m.markStream(o)
				}
			}
		} else if m.heads[m.nullSt] < len(m.streams[m.nullSt]) {
			m.markStream(m.nullSt)
		}
	}
	hs := &m.hosts[st.host]
	hs.pending--
	hs.lastDone = max(hs.lastDone, now)
	if hs.pending == 0 {
		m.markHost(st.host)
	}
}

// step runs, at time now and after the events of now, the hosts, the stream
// heads, the copy engine and the block dispatcher, in this order.
func (m *sim) step(now int64) {
	for len(m.dirtyL) > 0 {
		l := m.dirtyL
		m.dirtyL = nil
		slices.Sort(l) // hosts act in index order: calls at one instant are ordered by host
		for _, h := range l {
			m.dirty[h] = false
			m.advanceHost(h, now)
		}
	}
	m.moveHeads(now)
	if !m.ceBusy && len(m.ce) > 0 { // C2, C3
		i := m.ce[0]
		m.ce = m.ce[1:]
		st := &m.ops[i]
		st.start = now
		m.ceBusy = true
		m.push(event{t: now + st.op.CopyTime, kind: evCopyEnd, op: i})
	}
	m.dispatch(now)
}

// advanceHost lets host h make every call it can make by now, and schedules a
// wake-up for the next one.
func (m *sim) advanceHost(h int, now int64) {
	hs := &m.hosts[h]
	for !hs.stopped && hs.next < len(hs.ops) {
		i := hs.ops[hs.next]
		op := m.ops[i].op
		base := hs.prevIssue
		if op.Sync {
			if hs.pending > 0 {
				return // completion of the host's last pending op marks it again
			}
			base = max(base, hs.lastDone)
		}
		if op.Barrier {
			n := hs.passed // the number of this barrier
			if len(hs.arrivedAt) == n {
				hs.arrivedAt = append(hs.arrivedAt, base) // arrive
				m.tryRelease(n)
			}
			if n >= len(m.released) {
				return // the release marks every host again
			}
			base = max(base, m.released[n])
		}
		t := max(op.At, base+op.Delay)
		if op.StopAt > 0 && t >= op.StopAt {
			hs.stopped = true
			m.tryRelease(len(m.released)) // a stopped host no longer holds barriers back
			return
		}
		if t > now {
			if hs.wakeAt != t {
				hs.wakeAt = t
				m.push(event{t: t, kind: evWake, host: h})
			}
			return
		}
		// G1: the call is made; the op enters its stream queue.
		st := &m.ops[i]
		st.issued = true
		st.seq = m.seq
		m.seq++
		st.launch = now
		hs.prevIssue = now
		hs.pending++
		hs.next++
		if op.Barrier {
			hs.passed++
		}
		s := st.stream
		m.streams[s] = append(m.streams[s], i)
		if m.heads[s] == len(m.streams[s])-1 {
			m.markStream(s)
		}
	}
}

// tryRelease releases barrier n (and the ones after it that are complete)
// when every host that takes part in it has arrived. A host takes part in
// barrier n if it has more than n barrier ops and has not stopped.
func (m *sim) tryRelease(n int) {
	for n == len(m.released) {
		var at int64
		takesPart := false
		for h := range m.hosts {
			hs := &m.hosts[h]
			if hs.stopped || hs.barriers <= n {
				continue
			}
			if len(hs.arrivedAt) <= n {
				return
			}
			takesPart = true
			at = max(at, hs.arrivedAt[n])
		}
		if !takesPart {
			return
		}
		m.released = append(m.released, at)
		for h := range m.hosts {
			if m.hosts[h].barriers > n {
				m.markHost(h)
			}
		}
		n++
	}
}

// eligible reports whether the head op i of stream s may leave the stream
// queue for the EE or CE queue: G2/C1 restricted by N1 and N2. The NULL
// stream rules are applied to copies as well as kernels.
func (m *sim) eligible(s, i int) bool {
	if m.nullSt < 0 {
		return true
	}
	seq := m.ops[i].seq
	if s == m.nullSt { // N1
		for o := range m.streams {
			if o == s || m.heads[o] >= len(m.streams[o]) {
				continue
			}
			if m.ops[m.streams[o][m.heads[o]]].seq < seq {
				return false
			}
		}
		return true
	}
	// N2
	ns := m.nullSt
	if m.heads[ns] >= len(m.streams[ns]) {
		return true
	}
	return m.ops[m.streams[ns][m.heads[ns]]].seq > seq
}

// moveHeads moves the stream heads that may go into the EE queues (by
// priority, A1) or the CE queue. Heads that become eligible at the same
// instant enter in launch order.
func (m *sim) moveHeads(now int64) {
	if len(m.waitL) == 0 {
		return
	}
	var ready []int
	for _, s := range m.waitL {
		if m.heads[s] >= len(m.streams[s]) {
			m.waiting[s] = false
			continue
		}
		i := m.streams[s][m.heads[s]]
		if m.ops[i].queued {
			m.waiting[s] = false
			continue
		}
		// A head that is not eligible waits for another head to change;
		// complete() marks its stream again then.
		m.waiting[s] = false
		if m.eligible(s, i) {
			ready = append(ready, i)
		}
	}
	m.waitL = m.waitL[:0]
	slices.SortFunc(ready, func(a, b int) int { return m.ops[a].seq - m.ops[b].seq })
	for _, i := range ready {
		st := &m.ops[i]
		st.queued = true
		st.queuedAt = now
		if st.op.Kind == KernelOp {
			lvl := m.s.Streams[st.stream].Priority.level()
			m.ee[lvl] = append(m.ee[lvl], i) // G2, A1
		} else {
			m.ce = append(m.ce, i) // C1
		}
	}
}

// dispatch assigns blocks at time now: X1 (only the head of an EE queue),
// A2 (only if every higher EE queue is empty), R1..R3 and registers (the block
// must fit on an SM).
func (m *sim) dispatch(now int64) {
	for {
		lvl := -1
		for l := range m.ee {
			if len(m.ee[l]) > 0 {
				lvl = l
				break
			}
		}
		if lvl < 0 {
			return
		}
		i := m.ee[lvl][0]
		st := &m.ops[i]
		sm := m.pickSM(st)
		if sm < 0 {
			return // the head waits; nothing behind it or below it may pass
		}
		k := &st.op.Kernel
		b := st.next
		if b == 0 {
			st.start = now
		}
		st.next++
		st.running++
		s := &m.sms[sm]
		s.threads += st.thr
		s.shmem += k.SharedMemoryPerBlock
		s.regs += st.regs
		s.blocks++
		end := now + k.BlockTime
		m.res.Blocks[st.blockBase+b] = BlockRun{Kernel: st.result, Index: b, SM: sm, Threads: st.thr, Start: now, End: end, Order: m.nAssign}
		m.nAssign++
		m.push(event{t: end, kind: evBlockEnd, op: i, sm: sm})
		if st.next == k.Blocks { // G3
			st.dispatch = now
			m.ee[lvl] = m.ee[lvl][1:]
		}
	}
}

// pickSM returns the SM for the next block of st: among the SMs where the
// block fits, the one with the most free thread slots; on a tie, the lowest
// index. -1 if it fits nowhere.
func (m *sim) pickSM(st *opState) int {
	d := &m.d
	best, bestFree := -1, -1
	for j := range m.sms {
		s := &m.sms[j]
		free := d.ThreadsPerSM - s.threads
		if free < st.thr || s.blocks >= d.BlocksPerSM ||
			d.SharedMemoryPerSM-s.shmem < st.op.Kernel.SharedMemoryPerBlock ||
			d.RegistersPerSM-s.regs < st.regs {
			continue
		}
		if free > bestFree {
			best, bestFree = j, free
		}
	}
	return best
}

// check reports work that never finished; the rules cannot deadlock, so this
// guards against a bug rather than a bad input.
func (m *sim) check() error {
	for i := range m.ops {
		st := &m.ops[i]
		if st.issued && !st.done {
			return fmt.Errorf("internal error: %s %q of host %d never finished (launched at %d ns)", st.op.Kind, st.op.Name, st.host, st.launch)
		}
	}
	for h := range m.hosts {
		hs := &m.hosts[h]
		if !hs.stopped && hs.next < len(hs.ops) {
			return fmt.Errorf("internal error: host %d (%s) never made call %d", h, m.s.Hosts[h].Name, hs.next)
		}
	}
	return nil
}
