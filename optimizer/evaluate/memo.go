package evaluate

import (
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
)

// The per-core memo. The analysis of one core under the challenge count
// depends only on which tasks run there and in which role, the core's DRAM
// line latency, and the GPU responses of the offloading tasks among them
// (with the evaluator's fixed policy and limit); a search's offspring share
// most cores with their parents, so remembering a core's result under
// exactly those inputs saves most of an evaluation. Cores with explicit
// priorities, more than memoTasks tasks, or systems with more than memoGPUs
// GPU tasks are always analysed. Under the refined counts the memo keeps
// this challenge pass, their start, with the core's tasks as rta analyses
// them and their fingerprint in the challenge pass's order (windowmemo.go),
// which the rounds' keys use while the core keeps that order; the rounds
// themselves depend on every other core's bounds and are memoised by the
// windowed memo.

const (
	memoTasks   = 12      // tasks per core that a key holds
	memoGPUs    = 4       // GPU tasks whose responses a key holds
	memoEntries = 1 << 14 // cores the memo holds; it starts over when full
	// memoTaskEntries bounds the tasks of the cores it holds (what it
	// stores grows with them: under the refined counts each task is
	// about 180 bytes, so at most about 6 MB per evaluator).
	memoTaskEntries = 1 << 15
)

type coreKey struct {
	unit, n uint8
	roles   uint32 // 2 bits per task: its Role minus Periodic
	lat     int64  // the core's line latency
	noBound uint16 // 1 bit per task: its GPU response is no bound (rta.Task.NoBound)
	ids     [memoTasks]uint8
	gpu     [memoGPUs]int64 // GPU response of an offloading task on the core, by GPU index
}

// taskMemo is what core computes for one task.
type taskMemo struct {
	C, Compute, Memory, Contention, GPUWait, Suspension, BCRT, R int64
	Status                                                       rta.Status
	Rank                                                         int
}

type coreMemo struct {
	key         coreKey // checked on every hit: the map is keyed by its hash
	blk, off, n int32   // the tasks' run in Evaluator.memoTasks
	rtaBlk      int32   // … and in memoRTA under the refined counts (rtaOff)
	rtaOff      int32
	own         windowKey // the tasks' fingerprint in the challenge order (refined counts)
	utilisation float64
	policy      rta.Policy
	undecided   bool
}

// mix folds v into the hash h (the multiply-xorshift step of splitmix64).
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>31
}

// memoKey builds the key of core u and its hash, or reports that the core
// is not memoised.
func (e *Evaluator) memoKey(r *Analysis, u int, ids []int) (coreKey, uint64, bool) {
	var k coreKey
	if len(ids) > memoTasks || len(e.gpus) > memoGPUs || len(e.tasks) > 256 || len(e.units) > 256 {
		return k, 0, false
	}
	// The jitter of an activated task depends on another core's analysis
	// (activation.go): such a core is not memoised.
	for _, i := range ids {
		if e.tasks[i].activator >= 0 {
			return k, 0, false
		}
	}
	k.unit, k.n, k.lat = uint8(u), uint8(len(ids)), r.Units[u].LineLatency
	h := mix(uint64(u)<<8|uint64(len(ids)), uint64(k.lat))
	for j, i := range ids {
		tr := &r.Tasks[i]
		k.ids[j] = uint8(i)
		role := uint32(tr.Role - Periodic)
		k.roles |= role << (2 * j)
		h = mix(h, uint64(i)<<2|uint64(role))
		if tr.Role == OffloadSync || tr.Role == OffloadAsync {
			g := e.tasks[i].gpu
			k.gpu[g] = r.GPU[g].Response.Total
			h = mix(h, uint64(k.gpu[g]))
			if !r.GPU[g].Bound(r) {
				k.noBound |= 1 << j
				h = mix(h, uint64(j))
			}
		}
	}
	return k, h, true
}

// recall copies a memoised core result into r and out; it reports false
// on a miss.
func (e *Evaluator) recall(k coreKey, h uint64, r *Analysis, u int, ids []int, out []rta.Result) bool {
	idx, ok := e.memo[h]
	if !ok || e.memoCores[idx].key != k {
		return false
	}
	m := &e.memoCores[idx]
	ur := &r.Units[u]
	ur.Utilisation, ur.Explicit, ur.Policy, ur.Undecided = m.utilisation, false, m.policy, m.undecided
	ms := e.memoTasks.at(m.blk, m.off, m.n)
	for j, i := range ids {
		t := &ms[j]
		tr := &r.Tasks[i]
		tr.C, tr.Compute, tr.Memory, tr.Contention, tr.GPUWait, tr.Suspension, tr.BCRT = t.C, t.Compute, t.Memory, t.Contention, t.GPUWait, t.Suspension, t.BCRT
		out[j] = rta.Result{R: t.R, Status: t.Status, Rank: t.Rank}
	}
	if e.count != memory.ChallengeCount {
		// The refined rounds need the core's tasks, and their
		// fingerprint in this order (the one the rounds start from).
		e.coreTasks[u] = append(e.coreTasks[u][:0], e.memoRTA.at(m.rtaBlk, m.rtaOff, m.n)...)
		e.wmemo.pre[u], e.wmemo.preSet[u] = m.own, true
	}
	return true
}

// remember stores core u's result as computed into r and out. On a hash
// collision the newer result takes the place.
func (e *Evaluator) remember(k coreKey, h uint64, r *Analysis, u int, ids []int, out []rta.Result) {
	if len(e.memoCores) >= memoEntries || e.memoTasks.len()+len(ids) > memoTaskEntries {
		e.resetCoreMemo()
	}
	m := coreMemo{key: k, n: int32(len(ids)), utilisation: r.Units[u].Utilisation, policy: r.Units[u].Policy, undecided: r.Units[u].Undecided}
	var run []taskMemo
	run, m.blk, m.off = e.memoTasks.grow(len(ids))
	for j, i := range ids {
		tr := &r.Tasks[i]
		res := out[j]
		run[j] = taskMemo{C: tr.C, Compute: tr.Compute, Memory: tr.Memory, Contention: tr.Contention,
			GPUWait: tr.GPUWait, Suspension: tr.Suspension, BCRT: tr.BCRT, R: res.R, Status: res.Status, Rank: res.Rank}
	}
	if e.count != memory.ChallengeCount {
		ts := e.coreTasks[u][:len(ids)]
		m.rtaBlk, m.rtaOff = e.memoRTA.add(ts)
		m.own = ownFingerprint(ts, func(k int) int { return len(ids) - out[k].Rank })
		e.wmemo.pre[u], e.wmemo.preSet[u] = m.own, true
	}
	e.memo[h] = int32(len(e.memoCores))
	e.memoCores = append(e.memoCores, m)
}

// resetMemo empties both memos (the configuration of the analysis
// changed).
func (e *Evaluator) resetMemo() {
	e.wmemo.reset()
	e.resetCoreMemo()
}

// resetCoreMemo empties the per-core memo of the challenge pass.
func (e *Evaluator) resetCoreMemo() {
	clear(e.memo)
	e.memoCores = e.memoCores[:0]
	e.memoTasks.reset()
	e.memoRTA.reset()
}
