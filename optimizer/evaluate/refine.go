package evaluate

import (
	"cmp"
	"math"
	"slices"

	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
	"github.com/hetmap/hetmap/rta/sat"
)

// MaxRounds bounds the cross-core rounds of the refined analysis. Every
// round gives sound bounds, so stopping early only leaves them less tight
// (Analysis.Converged is then false).
const MaxRounds = 16

// refineScratch is the per-evaluation state of the refined contention
// counts (see the package documentation, "Refined contention").
type refineScratch struct {
	// resp holds per task the bound its demand is counted with on the
	// other cores (η_k of memory's package documentation): a response-time bound from the
	// arrival, or math.MaxInt64 when there is none.
	resp []int64
	// The challenge pass, per task (chR, chSt, chRank) and per unit
	// (chUndecided), kept while the refined pass overwrites r.
	chR         []int64
	chSt        []rta.Status
	chRank      []int
	chUndecided []bool
	// demands[u] are the memory demands of unit u's running tasks, in
	// onCore[u] order; ce those of the GPU tasks that copy, ceGPU their
	// GPU-task indices, ceResp per GPU task the bound their copies are
	// counted with.
	demands [][]memory.Demand
	ce      []memory.Demand
	ceGPU   []int
	ceResp  []int64
	// windows[u] is what core u's contention depends on; conts[u] turns
	// it into rta's contention term.
	windows []memory.Window
	conts   []coreContention
	// fixed[u]: the core's priority order is that of the challenge pass
	// (explicit priorities, a policy that does not depend on the analysis,
	// or a derived order that already passes).
	fixed []bool
	hp    []rta.Interferer
	// slot[i] is task i's index in demands of its unit; winUnits[u] the
	// units of windows[u].Cores, in order.
	slot     []int
	winUnits [][]int
	// What core u's last analysis with its window used: the bounds (used,
	// usedCE) and, per interferer of the window, how much they may shrink
	// without changing it (slack, memory.Counter.Slack); valid[u] says
	// there is such an analysis of the current orders.
	used, usedCE [][]int64
	stab         [][]memory.Stability
	valid        []bool
	// moves[v] counts the times core v's bounds moved in the rounds, and
	// copyMoves the copy engine's; seen[u] and seenCopies[u] hold them at
	// core u's last analysis, so that windowChanged passes over the
	// interferers that have not moved since (an exact shortcut: their
	// bounds are those the analysis used).
	moves, seenCopies []uint64
	copyMoves         uint64
	seen              [][]uint64
	// What the windows were last linked with (linksChanged): per core
	// the number of its demands and its line latency, and the copy
	// engine's.
	linked    bool
	linkN     []int
	linkLat   []int64
	linkCE    int
	linkCELat int64
	// offloads[u]: core u hosts the offloading task of a GPU task in ce,
	// whose bound bounds its copies (copyResponse).
	offloads []bool
	// start keeps the unconditional start of refineOnce while it tries the
	// start that assumes every deadline met.
	start []int64
	// order is relaxedOrder's and challengeCores', load challengeCores'
	// estimate per unit.
	order []int
	load  []float64
}

func (rs *refineScratch) init(e *Evaluator) {
	n, units := len(e.tasks), len(e.units)
	rs.resp = make([]int64, n)
	rs.chR, rs.chSt, rs.chRank = make([]int64, n), make([]rta.Status, n), make([]int, n)
	rs.chUndecided = make([]bool, units)
	rs.demands = make([][]memory.Demand, units)
	for u := range rs.demands {
		rs.demands[u] = make([]memory.Demand, 0, n)
	}
	rs.ce = make([]memory.Demand, 0, len(e.gpus))
	rs.ceGPU = make([]int, 0, len(e.gpus))
	rs.ceResp = make([]int64, len(e.gpus))
	rs.windows = make([]memory.Window, units)
	rs.conts = make([]coreContention, units)
	for u := range rs.windows {
		rs.windows[u].Cores = make([]memory.Interferer, 0, units)
		rs.conts[u] = coreContention{count: e.count, perCore: e.units[u].mem.PerCore, copyEngine: e.units[u].mem.CopyEngine,
			fixedC: int64(e.fixedC), fixedCE: e.fixedCE}
	}
	rs.fixed = make([]bool, units)
	rs.hp = make([]rta.Interferer, 0, n)
	rs.slot = make([]int, n)
	rs.winUnits = make([][]int, units)
	rs.used, rs.usedCE, rs.stab = make([][]int64, units), make([][]int64, units), make([][]memory.Stability, units)
	for u := range rs.winUnits {
		rs.winUnits[u] = make([]int, 0, units)
		rs.used[u], rs.usedCE[u], rs.stab[u] = make([]int64, n), make([]int64, len(e.gpus)), make([]memory.Stability, units+1)
	}
	rs.valid = make([]bool, units)
	rs.load = make([]float64, units)
	rs.offloads = make([]bool, units)
	rs.linkN, rs.linkLat = make([]int, units), make([]int64, units)
	rs.moves, rs.seenCopies, rs.seen = make([]uint64, units), make([]uint64, units), make([][]uint64, units)
	for u := range rs.seen {
		rs.seen[u] = make([]uint64, units)
	}
}

// coreContention is rta's contention term of one core: memory's
// window-aware counts under the configured count, with a fixed number of
// interfering cores (analysis.interfering_cores, a what-if in which no
// access is slowed by more cores) capping the cores' term at #C per access
// and a fixed bGPU (analysis.copy_engine_active) charging the copy engine
// for no access or for every one.
type coreContention struct {
	ctr                 memory.Counter
	count               memory.Count
	perCore, copyEngine int64 // K(p), sGPU(p)
	fixedC              int64 // -1: the convention
	fixedCE             int8  // -1: the convention
}

// Delay implements rta.Contention.
func (c *coreContention) Delay(t, n, pauses int64) (int64, int64) {
	cores, ce := c.ctr.Overlaps(t, n, pauses, c.count)
	if c.fixedC >= 0 {
		cores = min(cores, sat.Mul(max(n, 0), c.fixedC))
	}
	switch c.fixedCE {
	case 0:
		ce = 0
	case 1:
		ce = max(n, 0)
	}
	return sat.Add(sat.Mul(c.perCore, cores), sat.Mul(c.copyEngine, ce)), max(t, c.ctr.Until())
}

// refine computes the response times under the refined or request count,
// starting from the challenge pass in r, and withdraws, as
// missedAssumptions does under the challenge count, the GPU bounds whose
// assumptions the refined verdicts refute, analysing again until none is
// withdrawn.
func (e *Evaluator) refine(a *Assignment, r *Analysis) error {
	for _, u := range e.cores {
		if len(e.onCore[u]) > 0 {
			e.saveChallenge(r, u)
		}
	}
	for attempt := 0; ; attempt++ {
		if err := e.refineOnce(a, r); err != nil {
			return err
		}
		if attempt == len(e.gpus) || !e.withdrawMissed(r) {
			return nil
		}
		for _, u := range e.cores {
			if !e.waitsForUnbounded(r, u) {
				continue
			}
			if err := e.core(a, r, u, false); err != nil {
				return err
			}
			e.saveChallenge(r, u)
		}
	}
}

// saveChallenge keeps core u's challenge-pass results, which core has
// just left in e.coreOut[u] (without writing them into r: the refined pass
// writes every verdict).
func (e *Evaluator) saveChallenge(r *Analysis, u int) {
	rs := &e.ref
	out := e.coreOut[u]
	for k, i := range e.onCore[u] {
		rs.chR[i], rs.chSt[i], rs.chRank[i] = out[k].R, out[k].Status, out[k].Rank
	}
	rs.chUndecided[u] = r.Units[u].Undecided
}

// withdrawMissed marks every GPU task on the GPU whose analysis assumes
// that the offloading task of another GPU task meets its deadline, where
// that task does not (see missedAssumptions); it reports whether it marked
// any.
func (e *Evaluator) withdrawMissed(r *Analysis) bool {
	if !r.GPUSound {
		return false
	}
	e.markWithdrawers(r)
	changed := false
	for g := range r.GPU {
		gr := &r.GPU[g]
		if !gr.OnGPU || gr.AssumptionMissedBy >= 0 {
			continue
		}
		for h := range r.GPU {
			if h != g && r.GPU[h].OnGPU && !r.Tasks[e.gpus[h].pre].Schedulable() {
				gr.AssumptionMissedBy = h
				changed = true
				break
			}
		}
	}
	return changed
}

// waitsForUnbounded reports whether core u hosts an offloading task whose
// GPU response is no bound.
func (e *Evaluator) waitsForUnbounded(r *Analysis, u int) bool {
	for _, i := range e.onCore[u] {
		tr := &r.Tasks[i]
		if (tr.Role == OffloadSync || tr.Role == OffloadAsync) && !r.GPU[tr.GPU].Bound(r) {
			return true
		}
	}
	return false
}

// refineOnce is one refined analysis of the mapping, from the challenge
// pass saved in e.ref: the priority orders, a sound start, and the
// cross-core rounds (see the package documentation, "Refined
// contention").
func (e *Evaluator) refineOnce(a *Assignment, r *Analysis) error {
	rs := &e.ref
	e.buildDemands(r)
	// Orders. A core keeps the challenge pass's order where it does not
	// depend on the analysis, or where it already passes (it passes the
	// refined test too, which is never stricter). Its start is the
	// challenge pass's bounds, sound for that order. The other cores'
	// orders are derived anew below.
	allMeet := true
	selecting := false
	clear(rs.valid)
	for _, u := range e.cores {
		ids := e.onCore[u]
		if len(ids) == 0 {
			continue
		}
		meets := !rs.chUndecided[u]
		for _, i := range ids {
			meets = meets && rs.chSt[i] == rta.Schedulable
		}
		rs.fixed[u] = r.Units[u].Explicit || e.policy != rta.OPA || meets
		if !rs.fixed[u] {
			selecting = true
			continue
		}
		allMeet = allMeet && meets
		ts := e.coreTasks[u]
		for k, i := range ids {
			rs.resp[i] = boundOr(rs.chR[i], rs.chSt[i])
			if !r.Units[u].Explicit {
				ts[k].Priority = len(ids) - rs.chRank[i]
			}
		}
		e.setSplits(r, u, func(k int) int { return ts[k].Priority })
	}
	if selecting {
		if err := e.selectOrders(r, &allMeet); err != nil {
			return err
		}
		// The selected orders make the cut phases of those cores known:
		// the demands shrink, and every core is analysed again.
		for _, u := range e.cores {
			if ids := e.onCore[u]; len(ids) > 0 && !rs.fixed[u] {
				ts := e.coreTasks[u]
				e.setSplits(r, u, func(k int) int { return ts[k].Priority })
			}
		}
		clear(rs.valid)
	}
	done := false
	if !allMeet {
		// The start has a deadline miss, so it holds unconditionally
		// (challenge bounds) but may be far from tight. Try first the
		// start that holds provided every task meets its deadline: each
		// bound capped at the task's deadline. If the rounds from there
		// show every task meeting its deadline, the assumption holds (at
		// a first miss, if there were one, every job up to it would have
		// respected the bounds used, so the analysis would apply up to it
		// and exclude the miss), and the rounds' bounds are sound. This
		// is the argument of selectOrders, for every order: an order
		// given explicitly gets the bounds its derivation would have
		// found, so that a mapping written back with its priorities
		// analyses as it did when derived.
		saved := append(rs.start[:0], rs.resp...)
		rs.start = saved
		for u := range e.units {
			if !e.units[u].gpu {
				for _, i := range e.onCore[u] {
					rs.resp[i] = min(rs.resp[i], r.Tasks[i].D)
				}
			}
		}
		clear(rs.valid)
		if err := e.rounds(r); err != nil {
			return err
		}
		switch {
		case e.everyTaskMeets():
			done = true
		case e.maxLimit == rta.LimitRank || e.maxLimit == rta.LimitDeadline:
			// The assumption fails, and with it the mapping: the bounds
			// from the unconditional start are at least these, so the
			// same task misses there too. A search needs no more than
			// the verdicts and a rank (Options.Limit), and keeps these.
			done = true
		default:
			// The assumption fails: the unconditional start, rounds again.
			copy(rs.resp, saved)
			clear(rs.valid)
		}
	}
	if !done {
		if err := e.rounds(r); err != nil {
			return err
		}
	}
	for _, u := range e.cores {
		ids := e.onCore[u]
		if len(ids) == 0 {
			continue
		}
		if err := e.verdicts(a, r, u, ids, r.Units[u].Explicit, e.coreOut[u][:len(ids)]); err != nil {
			return err
		}
	}
	return nil
}

// rounds analyses every core, its order fixed, with the other cores'
// current bounds (e.ref.resp); a bound that shrinks replaces the old one at
// once (every value in use is a sound bound), until a whole round changes
// none or MaxRounds. A core whose window changed by less than the slack of
// its last analysis would give the same results, and is not analysed
// again. The cores' results are left in e.coreOut.
func (e *Evaluator) rounds(r *Analysis) error {
	rs := &e.ref
	e.syncDemands(r)
	if !e.noMemo {
		e.fingerprintAll(r)
	}
	// The bounds may have been set anew since any analysis recorded: count
	// a move of every unit, so that windowChanged's shortcut only serves
	// analyses of these rounds.
	for v := range rs.moves {
		rs.moves[v]++
	}
	rs.copyMoves++
	r.Rounds, r.Converged = 0, false
	for round := 1; round <= MaxRounds; round++ {
		r.Rounds = round
		changed := false
		for _, u := range e.cores {
			ids := e.onCore[u]
			if len(ids) == 0 || (rs.valid[u] && !e.windowChanged(u)) {
				continue
			}
			out := e.coreOut[u][:len(ids)]
			if _, err := e.analyseMemo(r, u, rta.Explicit, out); err != nil {
				return err
			}
			moved := false
			for k, i := range ids {
				if b := boundOr(out[k].R, out[k].Status); b < rs.resp[i] {
					rs.resp[i] = b
					rs.demands[u][k].Response = b
					moved = true
				}
			}
			if moved {
				changed = true
				rs.moves[u]++
				// The copies' bounds rest on their offloading tasks'.
				copies := rs.offloads[u] && e.syncCopies(r)
				if copies {
					rs.copyMoves++
				}
				if !e.noMemo {
					e.fingerprintCore(u)
					if copies {
						e.fingerprintCopies()
					}
				}
			}
		}
		if !changed {
			r.Converged = true
			break
		}
	}
	return nil
}

// everyTaskMeets reports whether the cores' last analyses (e.coreOut) show
// every task on a CPU core meeting its deadline.
func (e *Evaluator) everyTaskMeets() bool {
	for _, u := range e.cores {
		ids := e.onCore[u]
		for k := range ids {
			if e.coreOut[u][k].Status != rta.Schedulable {
				return false
			}
		}
	}
	return true
}

// selectOrders derives the priority orders of the cores that are not
// fixed, under the refined test. The test needs the response bounds of the
// tasks on other cores, and those depend on orders not yet known, so it
// counts them with bounds that hold in any order provided every task meets
// its deadline: the deadline D_k, or the challenge bound of the task at
// the lowest priority of its core if smaller. The selection only chooses
// the orders: the start of the rounds is the challenge bounds of those
// orders, which hold unconditionally, as for explicit priorities (and
// refineOnce then tries the bounds capped at the deadlines, by the same
// argument as here). *allMeet is cleared when some task misses in that
// start.
func (e *Evaluator) selectOrders(r *Analysis, allMeet *bool) error {
	rs := &e.ref
	for _, u := range e.cores {
		ids := e.onCore[u]
		if len(ids) == 0 || rs.fixed[u] {
			continue
		}
		ts := e.coreTasks[u]
		for k, i := range ids {
			hp := rs.hp[:0]
			for j := range ts {
				if j != k {
					hp = append(hp, ts[j].InterfererAtDeadline())
				}
			}
			rs.hp = hp
			d := r.Tasks[i].D
			if low, st := rta.ResponseTime(ts[k], hp, d); st == rta.Schedulable {
				d = low
			}
			rs.resp[i] = d
		}
	}
	e.syncDemands(r)
	for _, u := range e.cores {
		ids := e.onCore[u]
		if len(ids) == 0 || rs.fixed[u] {
			continue
		}
		// Only whether every task meets its deadline matters here: the
		// bounds are used only then (and the iterations stop at D).
		out := e.coreOut[u][:len(ids)]
		limit := e.maxLimit
		e.maxLimit = rta.LimitDeadline
		err := e.analyseWindowed(r, u, e.policy, out)
		e.maxLimit = limit
		if err != nil {
			return err
		}
		r.Units[u].Undecided = !e.an.Decided()
		ts := e.coreTasks[u]
		for rank, k := range e.an.Order() {
			ts[k].Priority = len(ids) - rank
		}
		e.wmemo.preSet[u] = false // another order than the challenge pass's
	}
	// The start of the selected orders is their challenge bounds, which
	// hold unconditionally, as for an order given explicitly: the rounds
	// then treat both alike (refineOnce), so that a mapping whose derived
	// orders are written out as explicit priorities analyses as it did.
	for _, u := range e.cores {
		ids := e.onCore[u]
		if len(ids) == 0 || rs.fixed[u] {
			continue
		}
		out := e.coreOut[u][:len(ids)]
		e.an.Limit, e.an.Contention = e.maxLimit, nil
		if _, err := e.an.Analyze(rta.Explicit, e.coreTasks[u], out); err != nil {
			return err
		}
		rs.valid[u] = false
		for k, i := range ids {
			rs.resp[i] = boundOr(out[k].R, out[k].Status)
			*allMeet = *allMeet && out[k].Status == rta.Schedulable
		}
	}
	return nil
}

// analyseWindowed analyses core u under policy with its contention term,
// the other cores' demands counted with the bounds in e.ref.resp (as
// syncDemands wrote them), and records what the analysis used.
func (e *Evaluator) analyseWindowed(r *Analysis, u int, policy rta.Policy, out []rta.Result) error {
	rs := &e.ref
	c := &rs.conts[u]
	c.ctr.Reset(&rs.windows[u])
	e.an.Limit, e.an.Contention = e.maxLimit, c
	_, err := e.an.Analyze(policy, e.coreTasks[u], out)
	e.an.Contention = nil
	if err != nil {
		return err
	}
	copy(rs.used[u], rs.resp)
	copy(rs.usedCE[u], rs.ceResp)
	for k := range len(rs.winUnits[u]) + 1 {
		rs.stab[u][k] = c.ctr.Stability(k)
	}
	rs.valid[u] = true
	rs.sawWindow(u)
	return nil
}

// windowShortcut turns windowChanged's shortcut on (a test turns it off to
// compare).
var windowShortcut = true

// sawWindow records, for core u just analysed, how often every unit's
// bounds had moved (windowChanged).
func (rs *refineScratch) sawWindow(u int) {
	copy(rs.seen[u], rs.moves)
	rs.seenCopies[u] = rs.copyMoves
}

// windowChanged reports whether the bounds that core u's window counts
// have shrunk, since the core's last analysis, by enough to change a value
// of its contention term (memory.Stability): otherwise the analysis would
// give the same results.
func (e *Evaluator) windowChanged(u int) bool {
	rs := &e.ref
	w := &rs.windows[u]
	used := rs.used[u]
	for k, v := range rs.winUnits[u] {
		if rs.seen[u][v] == rs.moves[v] && windowShortcut {
			continue // not moved since: nothing shrank
		}
		var sh shrinkage
		for j, i := range e.onCore[v] {
			sh.add(&w.Cores[k].Tasks[j], used[i]-rs.resp[i])
		}
		if sh.matters(&rs.stab[u][k], w.Cores[k].Latency, w.Core.Baseline, e.count) {
			return true
		}
	}
	if rs.seenCopies[u] == rs.copyMoves && windowShortcut {
		return false
	}
	var sh shrinkage
	for j, g := range rs.ceGPU {
		sh.add(&w.CopyEngine.Tasks[j], rs.usedCE[u][g]-rs.ceResp[g])
	}
	return sh.matters(&rs.stab[u][len(rs.winUnits[u])], w.CopyEngine.Latency, w.Core.Baseline, e.count)
}

// shrinkage sums how much an interferer's counts can fall when its tasks'
// response bounds shrink: the largest shrink, and the requests and phases
// of the jobs that may drop out of a window (a task whose bound shrinks by
// d has at most ceil(d/T) jobs fewer at any window length).
type shrinkage struct{ most, requests, phases int64 }

func (s *shrinkage) add(t *memory.Demand, d int64) {
	if d <= 0 {
		return
	}
	s.most = max(s.most, d)
	jobs := (d-1)/t.Period + 1
	s.requests = sat.Add(s.requests, sat.Mul(jobs, t.Lines))
	s.phases = sat.Add(s.phases, sat.Mul(jobs, sat.Add(t.Phases, t.Splits)))
}

// matters reports whether the shrinkage could change a count that the
// analysis with Stability st obtained (memory.Stability).
func (s *shrinkage) matters(st *memory.Stability, latency, baseline int64, count memory.Count) bool {
	switch {
	case s.most == 0 || s.most < st.Slack:
		return false
	case !st.AllLines:
		return true
	}
	if sat.Add(sat.Mul(s.requests, latency), sat.Mul(sat.Mul(2, s.phases), baseline)) > st.TimeMargin {
		return true
	}
	return count == memory.RequestCount && s.requests > st.RequestMargin
}

// relaxed is the refined test of a partial mapping (EvaluatePartial): every
// core under its policy, with the demand of every task on another core
// counted with a lower bound of its response time that no order and no
// further task can lower (its own execution without contention and its
// suspension; a GPU task's best-case GPU job), and with no phase cut by a
// preemption (setSplits: a cut needs a task below it, which a completion
// may or may not place). Adding a task only adds
// demand, and a complete mapping's sound bounds are at least these, so a
// partial mapping that fails this test has no completion that passes the
// refined analysis (see the package documentation). With refute it stops at
// the first core that fails with its priority search decided (Refutes).
func (e *Evaluator) relaxed(a *Assignment, r *Analysis, refute bool) error {
	rs := &e.ref
	e.buildDemands(r)
	for _, u := range e.cores {
		for k, i := range e.onCore[u] {
			tr := &r.Tasks[i]
			rs.resp[i] = sat.Add(sat.Add(sat.Add(tr.Compute, tr.Memory), tr.GPUWait), tr.Suspension)
			rs.demands[u][k].Splits = 0 // a lower bound in every order and completion
		}
	}
	e.syncDemands(r)
	if !e.noMemo {
		e.fingerprintAll(r)
	}
	order := e.relaxedOrder(r, refute)
	for _, u := range order {
		ids := e.onCore[u]
		if e.units[u].gpu || len(ids) == 0 {
			continue
		}
		out := e.coreOut[u][:len(ids)]
		decided, err := e.analyseMemo(r, u, r.Units[u].Policy, out)
		if err != nil {
			return err
		}
		r.Units[u].Undecided = !decided
		if err := e.verdicts(a, r, u, ids, r.Units[u].Explicit, out); err != nil {
			return err
		}
		if refute && decided && !allMeet(out) {
			// Refutes: one core that fails refutes the mapping (the
			// verdicts and the violation are then this core's).
			r.refuted = true
			return nil
		}
	}
	return nil
}

// relaxedOrder is the order in which relaxed analyses the cores: the units
// in their order, or, when the test refutes (stopping at the first core
// that fails), the most utilised first (ties by unit), the likeliest to
// fail.
func (e *Evaluator) relaxedOrder(r *Analysis, refute bool) []int {
	o := e.ref.order[:0]
	for u := range e.units {
		o = append(o, u)
	}
	if refute {
		slices.SortStableFunc(o, func(a, b int) int { return cmp.Compare(r.Units[b].Utilisation, r.Units[a].Utilisation) })
	}
	e.ref.order = o
	return o
}

// allMeet reports whether every result in out meets its deadline.
func allMeet(out []rta.Result) bool {
	for k := range out {
		if out[k].Status != rta.Schedulable {
			return false
		}
	}
	return true
}

// buildDemands fills e.ref's demands of the running tasks (without their
// response bounds, which syncDemands writes) and links every core's window.
func (e *Evaluator) buildDemands(r *Analysis) {
	rs := &e.ref
	for u := range e.units {
		d := rs.demands[u][:0]
		for k, i := range e.onCore[u] {
			rs.slot[i] = k
			tr := &r.Tasks[i]
			c := &e.tasks[i].cpu[u]
			f := memory.Footprint{Lines: tr.Lines, Phases: c.phases}
			var susp int64
			if tr.Role == OffloadAsync {
				f.Phases += c.waitPhases
				susp = 1
			}
			d = append(d, f.OnCore(tr.T, math.MaxInt64, susp))
		}
		rs.demands[u] = d
	}
	rs.ce, rs.ceGPU = rs.ce[:0], rs.ceGPU[:0]
	clear(rs.offloads)
	for g := range e.gpus {
		gi := &e.gpus[g]
		if r.GPU[g].OnGPU && gi.copyInLines+gi.copyOutLines > 0 {
			rs.ce = append(rs.ce, memory.CopyDemand(gi.period, math.MaxInt64, gi.copyInLines, gi.copyOutLines))
			rs.ceGPU = append(rs.ceGPU, g)
			if u := r.Tasks[gi.pre].Unit; u >= 0 {
				rs.offloads[u] = true
			}
		}
	}
	ceLat := int64(0)
	if e.gpuUnit >= 0 {
		ceLat = r.Units[e.gpuUnit].LineLatency
	}
	if !e.linksChanged(r, ceLat) {
		return
	}
	for _, u := range e.cores {
		w := &rs.windows[u]
		w.Core = e.units[u].mem
		w.Cores, rs.winUnits[u] = w.Cores[:0], rs.winUnits[u][:0]
		for _, v := range e.cores {
			if v != u && len(rs.demands[v]) > 0 {
				w.Cores = append(w.Cores, memory.Interferer{Latency: r.Units[v].LineLatency, Tasks: rs.demands[v]})
				rs.winUnits[u] = append(rs.winUnits[u], v)
			}
		}
		w.CopyEngine = memory.Interferer{Latency: ceLat, Tasks: rs.ce}
	}
}

// linksChanged reports whether the windows must be linked anew: whether a
// core's number of demands or line latency, or the copy engine's, differs
// from those the windows were last linked with (it records the new ones).
// The windows hold the demands' slices, whose arrays, sized for every
// task, are reused: with the same lengths and latencies the links are the
// same.
func (e *Evaluator) linksChanged(r *Analysis, ceLat int64) bool {
	rs := &e.ref
	changed := !rs.linked || len(rs.ce) != rs.linkCE || ceLat != rs.linkCELat
	for _, v := range e.cores {
		n, lat := len(rs.demands[v]), r.Units[v].LineLatency
		if n != rs.linkN[v] || (n > 0 && lat != rs.linkLat[v]) {
			changed = true
		}
		rs.linkN[v], rs.linkLat[v] = n, lat
	}
	rs.linked, rs.linkCE, rs.linkCELat = true, len(rs.ce), ceLat
	return changed
}

// setSplits sets the Splits of core u's demands from the priorities prio
// (prio(k) of its k-th task, higher = more urgent). A job cuts a memory
// phase of another job on its core only by preempting it, when it is
// released or resumes: the other job has a priority at most its own
// (equal under explicit priorities, which may be dispatched either way).
// So a task cuts none when no other task at or below its priority moves a
// line, and its Splits, 1 + suspensions per job otherwise
// (memory.Footprint.OnCore), is then 0.
func (e *Evaluator) setSplits(r *Analysis, u int, prio func(k int) int) {
	d := e.ref.demands[u]
	// A task cuts when another task that moves a line has a priority at
	// most its own: the least such priority over the other tasks is the
	// least of all (at lo), or, for the task at lo, the second least.
	lo, lo2 := -1, -1
	var pLo, pLo2 int
	for j := range d {
		if d[j].Lines <= 0 {
			continue
		}
		switch p := prio(j); {
		case lo < 0 || p < pLo:
			lo2, pLo2 = lo, pLo
			lo, pLo = j, p
		case lo2 < 0 || p < pLo2:
			lo2, pLo2 = j, p
		}
	}
	for k, i := range e.onCore[u] {
		p := prio(k)
		cuts := lo >= 0 && lo != k && pLo <= p || lo == k && lo2 >= 0 && pLo2 <= p
		d[k].Splits = 0
		if cuts {
			d[k].Splits = 1
			if r.Tasks[i].Role == OffloadAsync {
				d[k].Splits = 2
			}
		}
	}
}

// syncDemands writes the current response bounds (e.ref.resp) into the
// demands that the windows count.
func (e *Evaluator) syncDemands(r *Analysis) {
	rs := &e.ref
	for v := range e.units {
		for k, i := range e.onCore[v] {
			if k < len(rs.demands[v]) {
				rs.demands[v][k].Response = rs.resp[i]
			}
		}
	}
	e.syncCopies(r)
}

// syncCopies writes the bounds of the GPU tasks' copies (copyResponse)
// into the copy engine's demands, and reports whether one changed.
func (e *Evaluator) syncCopies(r *Analysis) (changed bool) {
	rs := &e.ref
	for k, g := range rs.ceGPU {
		rs.ceResp[g] = e.copyResponse(r, g)
		changed = changed || rs.ce[k].Response != rs.ceResp[g]
		rs.ce[k].Response = rs.ceResp[g]
	}
	return changed
}

// copyResponse bounds the time from the arrival of GPU task g's offloading
// job to the end of its copy out, or returns math.MaxInt64. A GPU task's
// copies lie within its offloading task's job, so that task's bound bounds
// them; while the offloading task meets its deadline, the GPU job also
// ends within its release jitter plus its GPU response.
func (e *Evaluator) copyResponse(r *Analysis, g int) int64 {
	if r.partial {
		return r.Tasks[e.gpus[g].task].BCRT // a lower bound: the relaxed test
	}
	if !r.GPU[g].Bound(r) {
		return math.MaxInt64
	}
	gi := &e.gpus[g]
	pre := e.ref.resp[gi.pre]
	if pre <= r.Tasks[gi.pre].D {
		return min(pre, sat.Add(gi.jitter, r.GPU[g].Response.Total))
	}
	return pre
}

// boundOr returns r where st says it is a bound, else math.MaxInt64.
func boundOr(r int64, st rta.Status) int64 {
	if st.Bounded() {
		return r
	}
	return math.MaxInt64
}
