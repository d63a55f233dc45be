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
// only when the core's bounds move; its own tasks when a key first needs
// them. So a core's key costs one fingerprint per unit, not every task of
// the system.
// TestWindowMemoChangesNothing checks the results against the evaluator
// with the memo off.

// windowMemoEntries bounds the memo; it starts over when full.
const windowMemoEntries = 1 << 14

type windowKey [2]uint64

type windowEntry struct {
	off, n, stabOff, stabN int32
	decided                bool // rta.Analyzer.Decided after the analysis
}

type windowMemo struct {
	// fp holds, per unit, the fingerprint of its demands as an interferer
	// (its line latency and its demands), and at len(units) the copy
	// engine's; rounds keeps them current.
	fp []windowKey
	// own holds, per unit, the fingerprint of its own tasks as rta
	// analyses them (they do not change while the rounds or the relaxed
	// test run).
	own     []windowKey
	ownSet  []bool // own[u] is computed (ownKey computes it when first asked)
	index   map[windowKey]int32
	entries []windowEntry
	results []rta.Result
	stabs   []memory.Stability
}

func (m *windowMemo) reset() {
	clear(m.index)
	m.entries, m.results, m.stabs = m.entries[:0], m.results[:0], m.stabs[:0]
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

// addKey folds a fingerprint in, each lane its own half: every lane of a
// key then still depends on every input, through its lane of the
// fingerprint.
func (h *hasher) addKey(k windowKey) {
	h.a = bits.RotateLeft64((h.a^k[0])*0x9e3779b97f4a7c15, 27)
	h.b = bits.RotateLeft64((h.b+k[1])*0xc2b2ae3d27d4eb4f, 31) ^ k[1]
}

func (h *hasher) addTask(t *rta.Task) {
	nb := int64(0)
	if t.NoBound {
		nb = 1
	}
	h.add2(t.C, t.T)
	h.add2(t.D, t.J)
	h.add2(t.B, t.S)
	h.add2(int64(t.Priority), nb)
	h.add2(t.C0, t.Lines)
	h.add2(t.Access, t.Suspensions)
}

func (h *hasher) addInterferer(ic *memory.Interferer) {
	h.add(ic.Latency)
	h.add(int64(len(ic.Tasks)))
	for k := range ic.Tasks {
		d := &ic.Tasks[k]
		h.add2(d.Period, d.Response)
		h.add2(d.Lines, d.Phases)
		h.add(d.Splits)
	}
}

// fingerprintAll fingerprints every unit's demands and the copy engine's
// (windowMemo.fp); rounds calls it when it starts.
func (e *Evaluator) fingerprintAll(r *Analysis) {
	m := &e.wmemo
	m.fp, m.own, m.ownSet = m.fp[:0], m.own[:0], m.ownSet[:0]
	for range len(e.units) + 1 {
		m.fp = append(m.fp, windowKey{})
		m.own = append(m.own, windowKey{})
		m.ownSet = append(m.ownSet, false)
	}
	for v := range e.units {
		if !e.units[v].gpu {
			e.fingerprintCore(r, v)
		}
	}
	e.fingerprintCopies()
}

// ownKey returns the fingerprint of core u's own tasks, as rta analyses
// them, computing it the first time it is asked after fingerprintAll (the
// tasks do not change while the rounds or the relaxed test run, and the
// relaxed test, which stops at the first core that fails, seldom asks for
// every core's).
func (e *Evaluator) ownKey(u int) windowKey {
	m := &e.wmemo
	if !m.ownSet[u] {
		h := hasher{a: 0x9b05688c, b: 0x1f83d9ab}
		ts := e.coreTasks[u][:len(e.onCore[u])]
		h.add(int64(len(ts)))
		for k := range ts {
			h.addTask(&ts[k])
		}
		m.own[u], m.ownSet[u] = windowKey{h.a, h.b}, true
	}
	return m.own[u]
}

// fingerprintCore fingerprints core v's demands as every window counts
// them (see buildDemands).
func (e *Evaluator) fingerprintCore(r *Analysis, v int) {
	h := hasher{a: 0x51ed27, b: 0x3c6ef372}
	h.addInterferer(&memory.Interferer{Latency: r.Units[v].LineLatency, Tasks: e.ref.demands[v]})
	e.wmemo.fp[v] = windowKey{h.a, h.b}
}

// fingerprintCopies fingerprints the copy engine's demands, as every
// window counts them.
func (e *Evaluator) fingerprintCopies() {
	h := hasher{a: 0xa54ff53a, b: 0x510e527f}
	for u := range e.units {
		if !e.units[u].gpu {
			h.addInterferer(&e.ref.windows[u].CopyEngine)
			break
		}
	}
	e.wmemo.fp[len(e.units)] = windowKey{h.a, h.b}
}

// windowKeyOf is the fingerprint of core u's analysis under policy: its
// tasks (in their explicit order, under rta.Explicit), its window (its
// parameters and the fingerprints of its interferers), and the limit.
func (e *Evaluator) windowKeyOf(u int, policy rta.Policy) windowKey {
	w := &e.ref.windows[u]
	fp := e.wmemo.fp
	h := hasher{a: uint64(u) + 1, b: uint64(u)*0x9e3779b97f4a7c15 + 7}
	h.add(int64(e.maxLimit))
	h.add(int64(policy))
	h.addKey(e.ownKey(u))
	h.add(w.Core.Baseline)
	h.add(w.Core.PerCore)
	h.add(w.Core.CopyEngine)
	h.add(int64(len(w.Cores)))
	// Which units the interferers are does not matter to the analysis,
	// only their demands and latencies, in order.
	for _, v := range e.ref.winUnits[u] {
		h.addKey(fp[v])
	}
	h.addKey(fp[len(e.units)])
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
	if i, ok := m.index[k]; ok {
		en := &m.entries[i]
		if int(en.n) == len(out) && int(en.stabN) == len(stab) {
			copy(out, m.results[en.off:en.off+en.n])
			copy(stab, m.stabs[en.stabOff:en.stabOff+en.stabN])
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
	if len(m.entries) >= windowMemoEntries {
		m.reset()
	}
	if m.index == nil {
		m.index = make(map[windowKey]int32)
	}
	m.index[k] = int32(len(m.entries))
	m.entries = append(m.entries, windowEntry{off: int32(len(m.results)), n: int32(len(out)), stabOff: int32(len(m.stabs)), stabN: int32(len(stab)), decided: decided})
	m.results = append(m.results, out...)
	m.stabs = append(m.stabs, stab...)
	return decided, nil
}
