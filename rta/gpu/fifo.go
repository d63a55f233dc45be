package gpu

import (
	"fmt"
	"math"

	"github.com/hetmap/hetmap/rta/sat"
)

// DefaultMaxEnumerate is the largest number of other kernels whose EE queue
// orders FIFOAnalyzer enumerates exactly by default (6! = 720 orders).
const DefaultMaxEnumerate = 6

// MaxEnumerateLimit caps FIFOAnalyzer.MaxEnumerate (8! = 40,320 orders).
const MaxEnumerateLimit = 8

// maxIter caps the fixed-point iterations of one bound.
const maxIter = 1 << 16

// FIFOAnalyzer bounds the GPU response of periodic GPU tasks that are
// threads of one process (one CUDA context, one stream per task), under the
// TX2 rules of Amert et al. (RTSS 2017) with stream priorities (the fifo
// model).
// See the package documentation for the analysis. The zero value analyses
// on the TX2 with DefaultMaxEnumerate. Reuse one analyzer in a hot loop: once
// its buffers have grown, Analyze does not allocate. An analyzer must not be
// used by two goroutines at once.
type FIFOAnalyzer struct {
	// Device is the GPU; the zero Device means TX2().
	Device Device
	// MaxEnumerate is the largest number of other kernels ahead whose queue
	// orders are enumerated exactly (capped at MaxEnumerateLimit); beyond it
	// only the workload bound is used. 0 means DefaultMaxEnumerate; a
	// negative value disables enumeration.
	MaxEnumerate int

	s     Scratch
	info  []taskInfo
	set   []int   // tasks ahead, counted once each
	per   []int   // high-priority tasks, counted per job in the window
	reach []int64 // per task, see reach (high-priority tasks only)
	ks    []Kernel
	eff   []int64
	perm  []int
	cnt   []int
	worst []int
	f     []int64
}

func (a *FIFOAnalyzer) device() Device {
	if a.Device == (Device{}) {
		return TX2()
	}
	return a.Device
}

// Analyze writes the worst-case GPU response of every task into out (which
// must have room for len(tasks) values). The bounds hold under the
// assumption that every job completes by its nominal release plus its
// period (package documentation); without jitter, check Total <= Period for
// every task (Bounded false means it is not), with jitter
// Total <= Period − Jitter suffices.
func (a *FIFOAnalyzer) Analyze(tasks []Task, out []Response) error {
	dev := a.device()
	var err error
	if a.info, err = prepare(dev, tasks, out, a.info, false); err != nil {
		return err
	}
	var ceSum int64
	for i := range a.info {
		ceSum += a.info[i].ce
	}
	a.reach = a.reach[:0]
	for range tasks {
		a.reach = append(a.reach, 0)
	}
	// High-priority tasks first: their bounds do not depend on low-priority
	// ones, and a low-priority kernel's bound counts the jobs of every
	// high-priority task through that task's reach, which its bound gives.
	for _, high := range [2]bool{true, false} {
		for i := range tasks {
			if (tasks[i].Priority == High) != high {
				continue
			}
			if err := a.analyzeTask(dev, tasks, i, ceSum, &out[i]); err != nil {
				return err
			}
			if high {
				a.reach[i] = reach(&tasks[i], &out[i])
			}
		}
	}
	return nil
}

// analyzeTask bounds the response of task i into r; the reach of every
// high-priority task must be known when i has low priority.
func (a *FIFOAnalyzer) analyzeTask(dev Device, tasks []Task, i int, ceSum int64, r *Response) error {
	t, ti := &tasks[i], &a.info[i]
	order := r.WorstOrder[:0]
	*r = Response{CopyIn: t.CopyIn, CopyOut: t.CopyOut, KernelIsolated: ti.iso, Bounded: true}
	copies, kHorizon := copyWaits(t, ti, ceSum, r)

	a.set, a.per = a.set[:0], a.per[:0]
	var k int64
	var bound Bound
	var ok bool
	var err error
	if t.Priority == High {
		// Waits for one kernel of every other high task (FIFO high
		// queue) and for low blocks already running, which all finish
		// within the longest low block time; no low block is assigned
		// while this kernel is in the high queue (A2).
		for j := range tasks {
			if j == i {
				continue
			}
			if tasks[j].Priority == High {
				a.set = append(a.set, j)
			} else {
				r.Blocking = max(r.Blocking, tasks[j].BlockTime)
			}
		}
		k, bound, ok, order, err = a.kernelPart(dev, tasks, i, true, kHorizon-r.Blocking, order)
		k = sat.Add(k, r.Blocking)
	} else {
		// Waits for one kernel of every other low task and for every
		// job of a high task that can be in the window.
		for j := range tasks {
			if j == i {
				continue
			}
			if tasks[j].Priority == High {
				a.per = append(a.per, j)
			} else {
				a.set = append(a.set, j)
			}
		}
		k, bound, ok, order, err = a.kernelPart(dev, tasks, i, len(a.per) == 0, kHorizon, order)
	}
	if err != nil {
		return err
	}
	k = max(k, ti.iso)
	r.KernelQueue = k - ti.iso
	r.Bound, r.Bounded = bound, ok
	r.Total = sat.Add(copies, k)
	r.WorstOrder = order
	return nil
}

// kernelPart bounds the completion of task i's kernel, relative to the time
// it enters the EE queue, given a.set (kernels ahead, one job each) and a.per
// (high-priority tasks counted per job). enumerate allows the exact
// enumeration of queue orders, which is sound only when no kernel can
// overtake i (no tasks in a.per).
func (a *FIFOAnalyzer) kernelPart(dev Device, tasks []Task, i int, enumerate bool, kHorizon int64, order []int) (k int64, b Bound, ok bool, _ []int, err error) {
	k, ok = a.workload(dev, tasks, i, kHorizon)
	b = BoundWorkload
	order = order[:0]
	limit := a.MaxEnumerate
	switch {
	case limit == 0:
		limit = DefaultMaxEnumerate
	case limit > MaxEnumerateLimit:
		limit = MaxEnumerateLimit
	}
	if enumerate && len(a.set) <= limit {
		ke, err := a.worstOrder(dev, tasks, i)
		if err != nil {
			return 0, BoundNone, false, order, err
		}
		if !ok || ke <= k {
			k, b, ok = ke, BoundOrders, true
			order = append(order, a.worst...)
		}
	}
	return k, b, ok, order, nil
}

// workload is the busy-window bound. Let s be the time task i's last block
// is assigned and L = s - t1 (t1: the kernel enters the EE queue). At
// almost every instant of [t1, s) the head kernel of the eligible EE queue
// cannot place its next block (dispatch is immediate when a block fits, and
// task i's kernel keeps an EE queue non-empty). Then at least
// S* = SMs · floor(TPS/Emax) blocks are resident (else some SM has room for
// any block, see Scratch.slots), and more than SMs·(TPS-Emax) effective
// threads are used. Integrating over the window, the blocks that can run in
// it, whose total block time is W(L), give S*·L <= W(L); likewise with
// threads. W(L) = Σ_set g·C + Σ_per jobs(T, L)·g·C + (g_i - 1)·C_i. The
// least fixed point of L = ceil(W(L)/S*) bounds L (standard argument: at
// the least fixed point the window cannot still be busy). Returns L + C_i.
func (a *FIFOAnalyzer) workload(dev Device, tasks []Task, i int, kHorizon int64) (int64, bool) {
	ti := &a.info[i]
	c := tasks[i].BlockTime
	emax := ti.eff
	mixed := false
	base := sat.Mul(int64(tasks[i].Blocks-1), c)
	baseU := sat.Mul(base, ti.eff)
	for _, j := range a.set {
		emax = max(emax, a.info[j].eff)
		mixed = mixed || a.info[j].eff != ti.eff
		base, baseU = sat.Add(base, a.info[j].work), sat.Add(baseU, a.info[j].workU)
	}
	for _, j := range a.per {
		emax = max(emax, a.info[j].eff)
		mixed = mixed || a.info[j].eff != ti.eff
	}
	sms, tps := int64(dev.SMs), int64(dev.ThreadsPerSM)
	sStar := sms * (tps / emax)
	uStar := sms*(tps-emax) + 1
	best, ok := a.fixedPoint(tasks, base, sStar, false, c, kHorizon)
	if mixed {
		if lu, oku := a.fixedPoint(tasks, baseU, uStar, true, c, kHorizon); oku && (!ok || lu < best) {
			best, ok = lu, true
		}
	}
	return best, ok
}

// fixedPoint iterates L = ceil((base + Σ_per jobs·work)/den) and returns
// L + c. It stops when L + c passes kHorizon (ok = false).
func (a *FIFOAnalyzer) fixedPoint(tasks []Task, base, den int64, threads bool, c, kHorizon int64) (int64, bool) {
	if len(a.per) == 0 { // nothing depends on L: no iteration
		return sat.Add(ceilDiv(base, den), c), true
	}
	var l int64
	for it := 0; it < maxIter; it++ {
		w := base
		for _, j := range a.per {
			wj := a.info[j].work
			if threads {
				wj = a.info[j].workU
			}
			w = sat.Add(w, sat.Mul(jobs(tasks[j].Period, l, a.reach[j]), wj))
		}
		next := ceilDiv(w, den)
		if next >= maxTime || sat.Add(next, c) > kHorizon {
			return sat.Add(next, c), false
		}
		if next == l && it > 0 {
			return l + c, true
		}
		l = next
	}
	return sat.Add(l, c), false
}

// worstOrder returns the largest completion time of task i's kernel over all
// orders of the kernels of a.set ahead of it, every kernel entering the EE
// queue at 0 on an idle GPU, and leaves that order in a.worst. This is sound
// when no kernel can overtake i: the real kernels ahead are a subset of
// a.set in one of these orders, entered the queue no later and may have run
// partly; by the monotonicity of the block recurrence (package
// documentation) their real assignment times are no later than the model's.
func (a *FIFOAnalyzer) worstOrder(dev Device, tasks []Task, i int) (int64, error) {
	m := len(a.set)
	a.ks, a.eff, a.perm, a.cnt, a.f = a.ks[:0], a.eff[:0], a.perm[:0], a.cnt[:0], a.f[:0]
	uniform := true
	for _, j := range a.set {
		a.perm = append(a.perm, j)
		a.cnt = append(a.cnt, 0)
		uniform = uniform && a.info[j].eff == a.info[i].eff
	}
	a.perm = append(a.perm, i)
	for range m + 1 {
		a.ks = append(a.ks, Kernel{})
		a.eff = append(a.eff, 0)
		a.f = append(a.f, 0)
	}
	worst := int64(math.MinInt64)
	eval := func() error {
		for p, j := range a.perm {
			a.ks[p] = tasks[j].Kernel()
			a.eff[p] = a.info[j].eff
		}
		a.s.eff = append(a.s.eff[:0], a.eff...)
		if err := a.s.run(dev, a.ks, a.f, uniform); err != nil {
			return err
		}
		if f := a.f[m]; f > worst {
			worst = f
			a.worst = append(a.worst[:0], a.perm...)
		}
		return nil
	}
	if err := eval(); err != nil {
		return 0, err
	}
	// Heap's algorithm over the first m positions.
	for p := 1; p < m; {
		if a.cnt[p] < p {
			if p%2 == 0 {
				a.perm[0], a.perm[p] = a.perm[p], a.perm[0]
			} else {
				a.perm[a.cnt[p]], a.perm[p] = a.perm[p], a.perm[a.cnt[p]]
			}
			if err := eval(); err != nil {
				return 0, err
			}
			a.cnt[p]++
			p = 1
		} else {
			a.cnt[p] = 0
			p++
		}
	}
	if worst == math.MinInt64 {
		return 0, fmt.Errorf("gpu: internal error: no queue order evaluated")
	}
	return worst, nil
}

// copyWaits sets the copy-engine waits of task t (info ti) in r, under both
// GPU models, and returns its copies with their waits and the horizon of
// its kernel part: its period (no period: maxTime) less those; kernel parts
// above it exceed the horizon. The copy engine is one FIFO queue, one copy at a
// time: a copy of another task can be ahead only while it heads its
// stream, so at most one copy (in or out) of every other task is in
// service or queued ahead (ceSum is the sum of every task's ce).
func copyWaits(t *Task, ti *taskInfo, ceSum int64, r *Response) (copies, kHorizon int64) {
	ceOthers := ceSum - ti.ce
	if t.CopyIn > 0 {
		r.CopyInWait = ceOthers
	}
	if t.CopyOut > 0 {
		r.CopyOutWait = ceOthers
	}
	copies = sat.Add(sat.Add(r.CopyInWait, r.CopyIn), sat.Add(r.CopyOutWait, r.CopyOut))
	horizon := int64(maxTime)
	if t.Period > 0 {
		horizon = t.Period
	}
	return copies, max(horizon-copies, 0)
}
