package gpu

// A small reference simulator of the TX2 rules of gpu-scheduling.md, used
// only to test the analyses: per-SM resources (warp-rounded threads,
// resident-block limit, shared memory, registers), one FIFO CE queue, one
// stream per task, two EE queues with stream priorities (A1, A2), immediate
// dispatch whenever the head block fits on some SM. Which SM gets a block is
// a parameter (the hardware's choice is not documented), so the tests can
// check that the bounds hold for every choice.

import (
	"math"
	"math/rand/v2"
)

type fitPolicy int

const (
	firstFit  fitPolicy = iota // lowest-numbered SM with room
	worstFit                   // SM with the most free threads
	bestFit                    // SM with the fewest free threads that fits
	randomFit                  // any SM with room, at random
	numPolicies
)

type simSM struct{ threads, blocks, smem, regs int }

type simBlock struct {
	end int64
	sm  int
	k   *simKernel
}

type simKernel struct {
	toGo, running int   // blocks not yet assigned, blocks running
	need          simSM // per block
	blockTime     int64
}

type simJob struct {
	rel    int64
	stage  int // 0 copy in, 1 kernel, 2 copy out, 3 done
	inCE   bool
	kernel *simKernel
	kDone  int64 // kernel completion time
}

type simCopy struct {
	j   *simJob
	dur int64
}

// simConfig drives one simulation run.
type simConfig struct {
	dev      Device
	tasks    []Task
	releases [][]int64 // per task, ascending job release times
	policy   fitPolicy
	rng      *rand.Rand
	// blockDur and copyDur return the actual time of one block or copy,
	// given its worst case (nil: the worst case).
	blockDur func(c int64) int64
	copyDur  func(c int64) int64
}

// simResult holds, per task and job, the response (end of copy out minus
// release) and the kernel completion time.
type simResult struct {
	resp  [][]int64
	kDone [][]int64
}

func (c *simConfig) need(t *Task) simSM {
	th := t.ThreadsPerBlock
	if w := c.dev.WarpSize; w > 1 {
		th = (th + w - 1) / w * w
	}
	return simSM{threads: th, blocks: 1, smem: t.SharedMemPerBlock, regs: t.RegistersPerBlock}
}

func (c *simConfig) fits(sm *simSM, n simSM) bool {
	d := c.dev
	if sm.threads+n.threads > d.ThreadsPerSM {
		return false
	}
	if d.MaxBlocksPerSM > 0 && sm.blocks+1 > d.MaxBlocksPerSM {
		return false
	}
	if d.SharedMemPerSM > 0 && sm.smem+n.smem > d.SharedMemPerSM {
		return false
	}
	if d.RegistersPerSM > 0 && sm.regs+n.regs > d.RegistersPerSM {
		return false
	}
	return true
}

func (c *simConfig) pick(sms []simSM, n simSM) int {
	best := -1
	cand := 0
	for i := range sms {
		if !c.fits(&sms[i], n) {
			continue
		}
		cand++
		switch c.policy {
		case firstFit:
			if best < 0 {
				best = i
			}
		case worstFit:
			if best < 0 || sms[i].threads < sms[best].threads {
				best = i
			}
		case bestFit:
			if best < 0 || sms[i].threads > sms[best].threads {
				best = i
			}
		case randomFit:
			if c.rng.IntN(cand) == 0 { // reservoir sampling
				best = i
			}
		}
	}
	return best
}

// run simulates until every released job is done.
func (c *simConfig) run() simResult {
	n := len(c.tasks)
	res := simResult{resp: make([][]int64, n), kDone: make([][]int64, n)}
	sms := make([]simSM, c.dev.SMs)
	var blocks []simBlock
	streams := make([][]*simJob, n)
	nextRel := make([]int, n)
	var ceQ []simCopy
	var ceCur *simJob
	ceEnd := int64(math.MaxInt64)
	var eeHigh, eeLow []*simKernel
	now := int64(0)
	bdur := func(x int64) int64 {
		if c.blockDur == nil {
			return x
		}
		return c.blockDur(x)
	}
	cdur := func(x int64) int64 {
		if c.copyDur == nil {
			return x
		}
		return c.copyDur(x)
	}
	for {
		// 1. blocks that finish now
		keep := blocks[:0]
		for _, b := range blocks {
			if b.end > now {
				keep = append(keep, b)
				continue
			}
			sm := &sms[b.sm]
			nd := b.k.need
			sm.threads -= nd.threads
			sm.blocks--
			sm.smem -= nd.smem
			sm.regs -= nd.regs
			b.k.running--
		}
		blocks = keep
		// 2. the copy that finishes now
		if ceCur != nil && ceEnd <= now {
			ceCur.inCE = false
			ceCur.stage++ // 0 -> 1 or 2 -> 3
			ceCur, ceEnd = nil, math.MaxInt64
		}
		// 3. releases
		for i := range n {
			for nextRel[i] < len(c.releases[i]) && c.releases[i][nextRel[i]] <= now {
				streams[i] = append(streams[i], &simJob{rel: c.releases[i][nextRel[i]]})
				nextRel[i]++
			}
		}
		// 4. stream heads (in task order), kernels that completed
		for i := range n {
			for len(streams[i]) > 0 {
				j := streams[i][0]
				t := &c.tasks[i]
				if j.stage == 1 && j.kernel != nil && j.kernel.toGo == 0 && j.kernel.running == 0 {
					j.kDone = now
					j.stage = 2
				}
				if j.stage == 0 && t.CopyIn == 0 {
					j.stage = 1
				}
				if j.stage == 2 && t.CopyOut == 0 {
					j.stage = 3
				}
				if j.stage == 3 {
					res.resp[i] = append(res.resp[i], now-j.rel)
					res.kDone[i] = append(res.kDone[i], j.kDone)
					streams[i] = streams[i][1:]
					continue
				}
				if (j.stage == 0 || j.stage == 2) && !j.inCE && ceCur != j {
					w := t.CopyIn
					if j.stage == 2 {
						w = t.CopyOut
					}
					j.inCE = true
					ceQ = append(ceQ, simCopy{j, cdur(w)})
				}
				if j.stage == 1 && j.kernel == nil {
					k := &simKernel{toGo: t.Blocks, need: c.need(t), blockTime: t.BlockTime}
					j.kernel = k
					if t.Priority == High {
						eeHigh = append(eeHigh, k)
					} else {
						eeLow = append(eeLow, k)
					}
				}
				break
			}
		}
		// 5. the copy engine
		if ceCur == nil && len(ceQ) > 0 {
			cp := ceQ[0]
			ceQ = ceQ[1:]
			ceCur, ceEnd = cp.j, now+cp.dur
		}
		// 6. dispatch (X1, A2, R1-R3)
		for {
			var k *simKernel
			high := len(eeHigh) > 0
			if high {
				k = eeHigh[0]
			} else if len(eeLow) > 0 {
				k = eeLow[0]
			} else {
				break
			}
			s := c.pick(sms, k.need)
			if s < 0 {
				break
			}
			sm := &sms[s]
			sm.threads += k.need.threads
			sm.blocks++
			sm.smem += k.need.smem
			sm.regs += k.need.regs
			k.toGo--
			k.running++
			blocks = append(blocks, simBlock{end: now + bdur(k.blockTime), sm: s, k: k})
			if k.toGo == 0 {
				if high {
					eeHigh = eeHigh[1:]
				} else {
					eeLow = eeLow[1:]
				}
			}
		}
		// next event (all durations are >= 1, so time advances)
		next := ceEnd
		for _, b := range blocks {
			next = min(next, b.end)
		}
		for i := range n {
			if nextRel[i] < len(c.releases[i]) {
				next = min(next, c.releases[i][nextRel[i]])
			}
		}
		if next == math.MaxInt64 {
			for i := range n {
				if len(streams[i]) > 0 {
					panic("simulator: work left but no event")
				}
			}
			return res
		}
		now = next
	}
}

// simKernels runs BlockRTA's setting in the simulator: kernel i is the only
// job of its own low-priority stream, released at kernels[i].Release
// (releases must be non-decreasing so that the EE queue order is the slice
// order). It returns the completion times.
func simKernels(dev Device, kernels []Kernel, policy fitPolicy, rng *rand.Rand, blockDur func(int64) int64) []int64 {
	c := simConfig{dev: dev, policy: policy, rng: rng, blockDur: blockDur}
	for _, k := range kernels {
		c.tasks = append(c.tasks, Task{Name: k.Name, BlockTime: k.BlockTime, Blocks: k.Blocks,
			ThreadsPerBlock: k.ThreadsPerBlock, SharedMemPerBlock: k.SharedMemPerBlock, RegistersPerBlock: k.RegistersPerBlock})
		c.releases = append(c.releases, []int64{k.Release})
	}
	r := c.run()
	f := make([]int64, len(kernels))
	for i := range kernels {
		f[i] = r.kDone[i][0]
	}
	return f
}

// simTimeSlice simulates the time-slice model: one channel per task, served
// round-robin in task order; the channel holding the GPU runs until its
// slice is used up or it has no kernel work left, then the next channel
// with kernel work gets a fresh slice. Switching to a different channel
// costs cs. A job's kernel is E_actual of GPU work (preemption keeps
// progress). The copy engine is one FIFO queue as in run. It returns, per
// task, the job responses.
func simTimeSlice(tasks []Task, iso []int64, cs int64, releases [][]int64, rng *rand.Rand, short bool) [][]int64 {
	n := len(tasks)
	resp := make([][]int64, n)
	type job struct {
		rel   int64
		stage int
		inCE  bool
		work  int64 // kernel work left
	}
	streams := make([][]*job, n)
	nextRel := make([]int, n)
	var ceQ []*job
	var ceCur *job
	ceEnd := int64(math.MaxInt64)
	dur := func(x int64) int64 {
		if short && x > 0 && rng.IntN(3) == 0 {
			return 1 + rng.Int64N(x)
		}
		return x
	}
	cur, last := -1, -1 // channel on the GPU, channel that ran last
	var sliceLeft, switchEnd int64
	now := int64(0)
	ready := func(i int) bool {
		return len(streams[i]) > 0 && streams[i][0].stage == 1 && streams[i][0].work > 0
	}
	for {
		if ceCur != nil && ceEnd <= now {
			ceCur.inCE = false
			ceCur.stage++
			ceCur, ceEnd = nil, math.MaxInt64
		}
		for i := range n {
			for nextRel[i] < len(releases[i]) && releases[i][nextRel[i]] <= now {
				streams[i] = append(streams[i], &job{rel: releases[i][nextRel[i]]})
				nextRel[i]++
			}
		}
		for i := range n {
			for len(streams[i]) > 0 {
				j := streams[i][0]
				t := &tasks[i]
				if j.stage == 0 && t.CopyIn == 0 {
					j.stage = 1
				}
				if j.stage == 1 && j.work == 0 {
					j.work = dur(iso[i])
				}
				if j.stage == 1 && j.work < 0 { // kernel finished
					j.stage = 2
				}
				if j.stage == 2 && t.CopyOut == 0 {
					j.stage = 3
				}
				if j.stage == 3 {
					resp[i] = append(resp[i], now-j.rel)
					streams[i] = streams[i][1:]
					continue
				}
				if (j.stage == 0 || j.stage == 2) && !j.inCE && ceCur != j {
					j.inCE = true
					ceQ = append(ceQ, j)
				}
				break
			}
		}
		if ceCur == nil && len(ceQ) > 0 {
			j := ceQ[0]
			ceQ = ceQ[1:]
			var w int64
			for i := range n {
				if len(streams[i]) > 0 && streams[i][0] == j {
					w = tasks[i].CopyIn
					if j.stage == 2 {
						w = tasks[i].CopyOut
					}
				}
			}
			ceCur, ceEnd = j, now+dur(w)
		}
		// GPU: pick a channel when none holds it (or its turn ended)
		if switchEnd <= now && (cur < 0 || sliceLeft == 0 || !ready(cur)) {
			start := cur
			if start < 0 {
				start = last
			}
			cur = -1
			for d := 1; d <= n; d++ {
				c := ((start+d)%n + n) % n
				if ready(c) {
					cur = c
					break
				}
			}
			if cur >= 0 {
				sliceLeft = tasks[cur].Slice
				if cur != last {
					switchEnd = now + cs
				}
				last = cur
			}
		}
		next := ceEnd
		for i := range n {
			if nextRel[i] < len(releases[i]) {
				next = min(next, releases[i][nextRel[i]])
			}
		}
		running := cur >= 0 && switchEnd <= now
		if cur >= 0 && switchEnd > now {
			next = min(next, switchEnd)
		}
		if running {
			next = min(next, now+min(sliceLeft, streams[cur][0].work))
		}
		if next == math.MaxInt64 {
			return resp
		}
		if running {
			dt := next - now
			j := streams[cur][0]
			j.work -= dt
			sliceLeft -= dt
			if j.work == 0 {
				j.work = -1 // done: noticed in the next pass
			}
		}
		now = next
	}
}
