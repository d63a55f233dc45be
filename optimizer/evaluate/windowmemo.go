package evaluate

import (
	"math/bits"

	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
)

// The windowed memo. In the cross-core rounds of the refined counts a
// core's analysis depends only on its own tasks (as rta.Tasks, with their
// explicit order), on its window (memory.Window: every other core's and the
// copy engine's demands with the bounds they are counted with, and their
// line latencies) and on the evaluator's limit. A search meets the same
// core with the same window again and again (offspring share most cores
// with their parents, and most of their bounds), and one evaluation's
// rounds analyse a core again after another core's bounds moved by too
// little to matter to it. The memo keeps, per fingerprint of those inputs,
// the results, and the Stability of every interferer that the rounds'
// skipping rule reads (windowChanged). The fingerprint is 128 bits, two
// independent 64-bit hashes of every input; a collision of both would give
// a wrong result, at odds of about 2⁻¹²⁸ per pair of distinct inputs.
// Every core's demands (an interferer of every other core) are
// fingerprinted once when the rounds or the relaxed test start, and again
// only when the core's bounds move, then only their bounds (the rest, the
// shape, stays); its own tasks when a key first needs them, or from the
// challenge memo (memo.go). So a core's key costs one fingerprint per
// unit, not every task of the system.
// TestWindowMemoChangesNothing checks the results against the evaluator
// with the memo off.

// windowMemoEntries bounds the memo's entries; it starts over when full.
const windowMemoEntries = 1 << 14

// windowMemoResults bounds the task results the memo's entries hold (about
// 56 bytes each: at most about 30 MB per evaluator, whatever the size of
// the cores); it starts over when the next entry would pass it. (A
// variable so that a test can reach it quickly.)
var windowMemoResults = 1 << 19

type windowKey [2]uint64

type windowEntry struct {
	key                     windowKey
	blk, off, n             int32 // the results' run in windowMemo.results
	stabBlk, stabOff, stabN int32 // the Stabilities' run in windowMemo.stabs
	decided                 bool  // rta.Analyzer.Decided after the analysis
}

type windowMemo struct {
	// fp holds, per unit, the fingerprint of its demands as an interferer
	// (its line latency and its demands), and at len(units) the copy
	// engine's; rounds keeps them current.
	fp []windowKey
	// shape holds the same without the response bounds (shapeOf), which
	// the rounds do not change.
	shape []windowKey
	// own holds, per unit, the fingerprint of its own tasks as rta
	// analyses them (they do not change while the rounds or the relaxed
	// test run).
	own    []windowKey
	ownSet []bool // own[u] is computed (ownKey computes it when first asked)
	// pre holds, per unit, the fingerprint of its tasks in the challenge
	// pass's order, which the challenge memo knew (recall, remember):
	// preSet[u] says it is that of e.coreTasks[u] with the priorities
	// refineOnce gives a fixed core. coreTasksOf and a change of the
	// priorities (selectOrders) clear it.
	pre    []windowKey
	preSet []bool
	// shapeOK, shapeLat and shapeIn hold, per unit and the copy engine,
	// what its shape was last computed from (shapeFor).
	shapeOK  []bool
	shapeLat []int64
	shapeIn  [][]memory.Demand
	// seeds holds, per core, the start of its window keys (seedOf).
	seeds []windowKey
	// slots is an open-addressing table of entries+1 by key (find,
	// insert), windowMemoSlots long: 0 is empty.
	slots   []int32
	entries []windowEntry
	results chunks[rta.Result]
	stabs   chunks[memory.Stability]
}

func (m *windowMemo) reset() {
	clear(m.slots)
	m.entries = m.entries[:0]
	m.results.reset()
	m.stabs.reset()
}

// windowMemoSlots is the length of the memo's table, twice its entries so
// that linear probing stays short.
const windowMemoSlots = 2 * windowMemoEntries

// find returns the index of k's entry, or -1. The key is a hash already:
// its first word picks the slot.
func (m *windowMemo) find(k windowKey) int32 {
	if m.slots == nil {
		return -1
	}
	for s := k[0] & (windowMemoSlots - 1); ; s = (s + 1) & (windowMemoSlots - 1) {
		i := m.slots[s] - 1
		if i < 0 {
			return -1
		}
		if m.entries[i].key == k {
			return i
		}
	}
}

// insert files entry i under k, in place of an entry with the same key:
// the table, at most half full, always has an empty slot.
func (m *windowMemo) insert(k windowKey, i int32) {
	if m.slots == nil {
		m.slots = make([]int32, windowMemoSlots)
	}
	s := k[0] & (windowMemoSlots - 1)
	for m.slots[s] != 0 && m.entries[m.slots[s]-1].key != k {
		s = (s + 1) & (windowMemoSlots - 1)
	}
	m.slots[s] = i + 1
}

// hasher folds int64 values into two independent 64-bit hashes, each a
// multiply-rotate step with its own odd constant (one multiplication per
// value and lane, the lanes independent so that they run side by side).
type hasher struct{ a, b uint64 }

func (h *hasher) add(v int64) {
	x := uint64(v)
	h.a = bits.RotateLeft64((h.a^x)*0x9e3779b97f4a7c15, 27)
	h.b = bits.RotateLeft64((h.b+x)*0xc2b2ae3d27d4eb4f, 31) ^ x
}

// add2 folds two values in at the cost of one step in each lane's chain:
// the second value is multiplied apart and mixed in after the first's
// multiplication.
func (h *hasher) add2(v, w int64) {
	x, y := uint64(v), uint64(w)
	h.a = bits.RotateLeft64((h.a^x)*0x9e3779b97f4a7c15^y*0xd6e8feb86659fd93, 27)
	h.b = bits.RotateLeft64((h.b+x)*0xc2b2ae3d27d4eb4f+y*0x165667b19e3779f9, 31) ^ x
}

// addKey2 folds two fingerprints in at the cost of one step in each lane,
// as add2 folds two values.
func (h *hasher) addKey2(k, l windowKey) {
	h.a = bits.RotateLeft64((h.a^k[0])*0x9e3779b97f4a7c15^l[0]*0xd6e8feb86659fd93, 27)
	h.b = bits.RotateLeft64((h.b+k[1])*0xc2b2ae3d27d4eb4f+l[1]*0x165667b19e3779f9, 31) ^ k[1]
}

// addKey folds a fingerprint in, each lane its own half: every lane of a
// key then still depends on every input, through its lane of the
// fingerprint.
func (h *hasher) addKey(k windowKey) {
	h.a = bits.RotateLeft64((h.a^k[0])*0x9e3779b97f4a7c15, 27)
	h.b = bits.RotateLeft64((h.b+k[1])*0xc2b2ae3d27d4eb4f, 31) ^ k[1]
}

func (h *hasher) addTask(t *rta.Task, priority int) {
	nb := int64(0)
	if t.NoBound {
		nb = 1
	}
	h.add2(t.C, t.T)
	h.add2(t.D, t.J)
	h.add2(t.B, t.S)
	h.add2(int64(priority), nb)
	h.add2(t.C0, t.Lines)
	h.add2(t.Access, t.Suspensions)
}

// shapeOf is the fingerprint of an interferer's demands without their
// response bounds, the only values that move while the rounds run.
func shapeOf(seed windowKey, ic *memory.Interferer) windowKey {
	h := hasher{seed[0], seed[1]}
	h.add2(ic.Latency, int64(len(ic.Tasks)))
	for k := range ic.Tasks {
		d := &ic.Tasks[k]
		h.add2(d.Period, d.Lines)
		h.add2(d.Phases, d.Splits)
	}
	return windowKey{h.a, h.b}
}

// withBounds folds the demands' response bounds into their shape's
// fingerprint (shapeOf): the interferer's whole fingerprint.
func withBounds(shape windowKey, ds []memory.Demand) windowKey {
	h := hasher{shape[0], shape[1]}
	k := 0
	for ; k+1 < len(ds); k += 2 {
		h.add2(ds[k].Response, ds[k+1].Response)
	}
	if k < len(ds) {
		h.add(ds[k].Response)
	}
	return windowKey{h.a, h.b}
}

// fingerprintAll fingerprints every unit's demands and the copy engine's
// (windowMemo.fp, and their shapes in windowMemo.shape); rounds calls it
// when it starts.
func (e *Evaluator) fingerprintAll(r *Analysis) {
	m := &e.wmemo
	clear(m.ownSet)
	for _, v := range e.cores {
		m.shapeFor(v, windowKey{0x51ed27, 0x3c6ef372}, r.Units[v].LineLatency, e.ref.demands[v])
		e.fingerprintCore(v)
	}
	if len(e.cores) > 0 {
		ce := &e.ref.windows[e.cores[0]].CopyEngine
		m.shapeFor(len(e.units), windowKey{0xa54ff53a, 0x510e527f}, ce.Latency, ce.Tasks)
	}
	e.fingerprintCopies()
}

// shapeFor sets shape[slot] to the shape of the demands ds at line
// latency lat (shapeOf), which it computes only when they differ from
// those of its last call for the slot (a core of an offspring is most
// often its parent's).
func (m *windowMemo) shapeFor(slot int, seed windowKey, lat int64, ds []memory.Demand) {
	if m.shapeOK[slot] && m.shapeLat[slot] == lat && sameShape(m.shapeIn[slot], ds) {
		return
	}
	m.shape[slot] = shapeOf(seed, &memory.Interferer{Latency: lat, Tasks: ds})
	m.shapeOK[slot], m.shapeLat[slot], m.shapeIn[slot] = true, lat, append(m.shapeIn[slot][:0], ds...)
}

// sameShape reports whether the demands a and b are the same but for
// their response bounds.
func sameShape(a, b []memory.Demand) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		x, y := &a[k], &b[k]
		if x.Period != y.Period || x.Lines != y.Lines || x.Phases != y.Phases || x.Splits != y.Splits {
			return false
		}
	}
	return true
}

// init sizes the memo's per-unit slices for units units (and the copy
// engine), demands per unit.
func (m *windowMemo) init(units, demands int) {
	n := units + 1
	m.fp, m.shape, m.own, m.pre, m.seeds = make([]windowKey, n), make([]windowKey, n), make([]windowKey, n), make([]windowKey, n), make([]windowKey, n)
	m.ownSet, m.preSet, m.shapeOK = make([]bool, n), make([]bool, n), make([]bool, n)
	m.shapeLat, m.shapeIn = make([]int64, n), make([][]memory.Demand, n)
	for k := range m.shapeIn {
		m.shapeIn[k] = make([]memory.Demand, 0, demands)
	}
}

// ownKey returns the fingerprint of core u's own tasks, as rta analyses
// them, computing it the first time it is asked after fingerprintAll (the
// tasks do not change while the rounds or the relaxed test run, and the
// relaxed test, which stops at the first core that fails, seldom asks for
// every core's).
func (e *Evaluator) ownKey(u int) windowKey {
	m := &e.wmemo
	if !m.ownSet[u] {
		ts := e.coreTasks[u][:len(e.onCore[u])]
		prio := func(k int) int { return ts[k].Priority }
		if m.preSet[u] {
			m.own[u] = m.pre[u]
			if checkPre != nil {
				checkPre(m.pre[u], ownFingerprint(ts, prio))
			}
		} else {
			m.own[u] = ownFingerprint(ts, prio)
		}
		m.ownSet[u] = true
	}
	return m.own[u]
}

// checkPre, when set (by a test), receives every fingerprint ownKey takes
// from the challenge memo with the one computed afresh.
var checkPre func(pre, fresh windowKey)

// ownFingerprint is the fingerprint of a core's tasks ts as rta analyses
// them, with the priority prio(k) for ts[k] in place of its own.
func ownFingerprint(ts []rta.Task, prio func(k int) int) windowKey {
	h := hasher{a: 0x9b05688c, b: 0x1f83d9ab}
	h.add(int64(len(ts)))
	for k := range ts {
		h.addTask(&ts[k], prio(k))
	}
	return windowKey{h.a, h.b}
}

// fingerprintCore fingerprints core v's demands as every window counts
// them (see buildDemands), from their shape (fingerprintAll).
func (e *Evaluator) fingerprintCore(v int) {
	e.wmemo.fp[v] = withBounds(e.wmemo.shape[v], e.ref.demands[v])
}

// fingerprintCopies fingerprints the copy engine's demands, as every
// window counts them (the copy engine of every window: rs.ce).
func (e *Evaluator) fingerprintCopies() {
	n := len(e.units)
	e.wmemo.fp[n] = withBounds(e.wmemo.shape[n], e.ref.ce)
}

// windowKeyOf is the fingerprint of core u's analysis under policy: its
// tasks (in their explicit order, under rta.Explicit), its window (its
// parameters, in the unit's seed, and the fingerprints of its
// interferers), and the limit.
func (e *Evaluator) windowKeyOf(u int, policy rta.Policy) windowKey {
	w := &e.ref.windows[u]
	fp := e.wmemo.fp
	seed := e.wmemo.seeds[u]
	h := hasher{seed[0], seed[1]}
	h.add2(int64(e.maxLimit)<<8|int64(policy), int64(len(w.Cores)))
	h.addKey(e.ownKey(u))
	// Which units the interferers are does not matter to the analysis,
	// only their demands and latencies, in order; the copy engine's come
	// last.
	vs := e.ref.winUnits[u]
	k := 0
	for ; k+1 < len(vs); k += 2 {
		h.addKey2(fp[vs[k]], fp[vs[k+1]])
	}
	if k < len(vs) {
		h.addKey2(fp[vs[k]], fp[len(e.units)])
	} else {
		h.addKey(fp[len(e.units)])
	}
	return windowKey{h.a, h.b}
}

// seedOf is the start of core u's window keys: the unit and its memory
// parameters, which every window of the core has (buildDemands).
func seedOf(u int, p memory.CoreParams) windowKey {
	h := hasher{a: uint64(u) + 1, b: uint64(u)*0x9e3779b97f4a7c15 + 7}
	h.add2(p.Baseline, p.PerCore)
	h.add(p.CopyEngine)
	return windowKey{h.a, h.b}
}

// analyseMemo is analyseWindowed through the windowed memo (the caller
// has fingerprinted the interferers: fingerprintAll), for the rounds
// (rta.Explicit) and the relaxed test (the core's policy); it reports
// whether the priority search was decided (rta.Analyzer.Decided), which
// the relaxed test reads.
func (e *Evaluator) analyseMemo(r *Analysis, u int, policy rta.Policy, out []rta.Result) (decided bool, err error) {
	if e.noMemo {
		err := e.analyseWindowed(r, u, policy, out)
		return e.an.Decided(), err
	}
	rs := &e.ref
	m := &e.wmemo
	k := e.windowKeyOf(u, policy)
	stab := rs.stab[u][:len(rs.winUnits[u])+1]
	if i := m.find(k); i >= 0 {
		en := &m.entries[i]
		if int(en.n) == len(out) && int(en.stabN) == len(stab) {
			copy(out, m.results.at(en.blk, en.off, en.n))
			copy(stab, m.stabs.at(en.stabBlk, en.stabOff, en.stabN))
			copy(rs.used[u], rs.resp)
			copy(rs.usedCE[u], rs.ceResp)
			rs.valid[u] = true
			rs.sawWindow(u)
			return en.decided, nil
		}
	}
	if err := e.analyseWindowed(r, u, policy, out); err != nil {
		return false, err
	}
	decided = e.an.Decided()
	if len(m.entries) >= windowMemoEntries || m.results.len()+len(out) > windowMemoResults {
		m.reset()
	}
	m.insert(k, int32(len(m.entries)))
	blk, off := m.results.add(out)
	stabBlk, stabOff := m.stabs.add(stab)
	m.entries = append(m.entries, windowEntry{key: k, blk: blk, off: off, n: int32(len(out)), stabBlk: stabBlk, stabOff: stabOff, stabN: int32(len(stab)), decided: decided})
	return decided, nil
}
