package evaluate

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
)

// The margin search. A margin is the largest factor k (in thousandths)
// at which the mapping holds, every deadline and requirement met, with
// the execution demand of the tasks a scaling reaches multiplied by
// k/1000 (margins.go). Bisection over whole analyses finds it in a dozen
// of them; the search below needs about two, and a per-task margin none,
// from three facts.
//
//  1. A start from the sensitivity of the fixed-point tests (rta
//     .Sensitivity: Bini, Di Natale and Buttazzo 2008). Every core a
//     scaling reaches is analysed at factor 1 with its window (the other
//     cores' bounds) and its jitters fixed, which gives the largest factor
//     each task's test tolerates; the least over the tasks, and over the
//     GPU tasks' responses (their kernel share grown), is the start. With
//     everything it holds fixed growing with the factor (the other cores'
//     bounds, a suspending task's jitter, the GPU responses), the start is
//     an upper bound of the margin; where nothing grows but the demand
//     scaled (the challenge count, no suspending task whose response the
//     scaling reaches, no GPU task scaled), it is the margin up to the
//     rounding of the scaled times.
//  2. Monotonicity: the analysis at a factor k comes down from above to
//     the greatest of its fixed points below its start (refine.go), and
//     both grow with the demand, so the bounds of the analysis at any
//     factor above k are upper bounds of those at k, and those at any
//     factor below it lower bounds.
//  3. Certificates from the cores the scaling reaches alone: analysed at k
//     with every other core's bounds at upper bounds of theirs at k, a
//     core that meets every deadline (with every other core meeting
//     theirs where they were got) shows the mapping holding at k (certify,
//     taskHolds); analysed with lower bounds, a core that misses one shows
//     it failing (taskFails). Under the challenge count the cores do not
//     see each other's bounds, and a certificate is the analysis itself.
//
// The execution scale and the kinds (margin1) analyse the mapping in whole
// just above the start, which should fail, and certify the factor below
// from the cores the scaling reaches with the bounds of that analysis;
// where the start is off they walk from it, up by whole analyses while
// they pass, down by certificates and whole analyses while they fail,
// halving the interval once it has both ends. A per-task margin
// (marginOfTask) is decided by the two certificates of its core from the
// mapping's analysis at factor 1 (see "Per-task margins by certificates"
// below), by whole analyses only where they do not agree. Every factor
// reported has been shown to hold and the one above it to fail: the same
// margin as bisection over whole analyses wherever the analysis is
// monotone in the demand, which TestMarginsFastEqualBisection checks on
// random systems against the bisection kept in the tests.
//
// What binds is the task whose own test fails just above the margin
// (Analysis.Cause), and of those one that fails so with every other core's
// bounds held where they are at the margin (bindingAlone; issue 32): not
// one that fails only because another core's bounds grew too, where some
// task fails on its own (TestCausesOnRandomMappings). Its consequences
// come from the whole analysis above the margin, which a per-task margin
// does without (it names what binds only).

// marginBase readies e.margin's probe evaluator in the state of the whole
// analysis of the mapping (e.margin.b, its priorities written out) at
// factor 1, from r, the mapping's analysis, in which every task meets its
// deadline, instead of analysing it again: its analysis into e.margin.rb,
// every core's tasks and results and, under the refined counts, every
// core's window with the other cores' bounds and the copies' (the state
// the sensitivities and the certificates read). The mapping analysed with
// its priorities written out is analysed as it was (TestExplicitEquals
// Derived), so the state is the same.
func (e *Evaluator) marginBase(r *Analysis) {
	ms := &e.margin
	clear(ms.pinned)
	se := ms.sc.at(scaling{ppm: scaleOne, task: -1})
	rb := ms.rb
	if ms.placed == nil {
		ms.placed = e.NewAnalysis()
	}
	se.placeTasks(ms.b, ms.placed, false) // the cores' tasks (placeTasks resets what it writes into)
	rb.copyFrom(r)
	for _, u := range se.cores {
		for k, i := range se.onCore[u] {
			se.coreOut[u][k] = rta.Result{R: r.Tasks[i].R, Status: rta.Schedulable, Rank: r.Tasks[i].Rank}
		}
	}
	if se.count == memory.ChallengeCount {
		return
	}
	rs := &se.ref
	se.buildDemands(rb)
	for _, u := range se.cores {
		ids := se.onCore[u]
		se.setSplits(rb, u, func(k int) int { return ms.b.Priority[ids[k]] })
	}
	for i := range rs.resp {
		rs.resp[i] = math.MaxInt64
		if tr := &r.Tasks[i]; tr.Role.OnCPU() {
			rs.resp[i] = tr.R
		}
	}
	se.syncDemands(rb)
}

// marginStart is the start of the search of scaling s: the sensitivity of
// the tests of the cores and GPU tasks s reaches, as a factor on the
// demand of the analysis e.margin.rb holds (its probe evaluator's state,
// at factor cur in thousandths), in thousandths, rounded down, at least
// 1. perTask, when not nil, holds every task's start (perTaskStarts) for
// per-task scalings.
//
// It also returns the task whose test gave the start (-1 if none is
// known), where the search looks first for what fails above it.
func (e *Evaluator) marginStart(s scaling, cur int64, perTask []float64) (int64, int) {
	var f float64
	hint := -1
	if s.task >= 0 && perTask != nil {
		f = perTask[s.task]
	} else {
		f, hint = e.margin.sc.e.sensitivity(e.margin.b, e.margin.rb, s)
	}
	k := math.Floor(float64(cur) * f)
	switch {
	case math.IsNaN(k) || k > maxPerMille:
		return maxPerMille, hint
	case k < 1:
		return 1, hint
	}
	return int64(k), hint
}

// sensitivity returns the least factor, on the demand e (a probe
// evaluator after a whole analysis of a into r) analysed, at which a test
// that scaling s reaches fails, by the sensitivity of each (see above); at
// most configs.MaxExecutionScale·1000 times over, +Inf where nothing
// scaled binds; and the task whose test gives it (-1: none).
func (e *Evaluator) sensitivity(a *Assignment, r *Analysis, s scaling) (float64, int) {
	gpuPart, f, hint := e.gpuSensitivity(r, s)
	for _, u := range e.cores {
		if !e.reaches(r, s, u, gpuPart) {
			continue
		}
		ids, ts, c := e.coreForSensitivity(a, r, u)
		order := e.byPriority(ids, ts)
		out := e.coreOut[u]
		// The tasks nearest their deadline first: the least factor so far
		// lets the others' sweeps stop early (SensitivityBelow), as does
		// starting each from its response window where it meets its test.
		seq := append(e.margin.seq[:0], order...)
		for n := range seq {
			seq[n] = n
		}
		slack := func(n int) float64 {
			k := order[n]
			if out[k].Status != rta.Schedulable {
				return -1
			}
			return float64(ts[k].D-out[k].R) / float64(ts[k].D)
		}
		slices.SortStableFunc(seq, func(x, y int) int { return cmp.Compare(slack(x), slack(y)) })
		e.margin.seq = seq
		// Where the priorities are distinct, the interferers of the task
		// at position n of order are the n tasks above it, in order, with
		// the jitters of their responses: one list per core serves every
		// task as its prefix (what interferers would build for each).
		all, allEh, distinct := e.coreInterferers(r, u, ids, ts, order, s, gpuPart)
		for _, n := range seq {
			k := order[n]
			var hp []rta.Interferer
			var eh []int64
			if distinct {
				hp, eh = all[:n], allEh[:n]
			} else {
				hp, eh = e.interferers(r, u, ids, ts, order, n, s, gpuPart, e.margin.hp[:0], e.margin.eh[:0])
				e.margin.hp, e.margin.eh = hp, eh
			}
			own := e.scaledPart(r, s, u, ids[k], gpuPart, true)
			from := int64(1)
			if out[k].Status == rta.Schedulable {
				from = out[k].R - ts[k].J
			}
			if g := e.margin.sens.SensitivityBelow(ts[k], own, hp, eh, ts[k].D, c, from, f); g < f {
				f, hint = g, ids[k]
			}
		}
	}
	return f, hint
}

// coreInterferers returns every task of core u in order (most urgent
// first) as an interferer with the jitter of its response in the analysis
// e holds, with its part that s scales (as interferers gives them), and
// whether the priorities are distinct along order, so that the
// interferers of the task at position n are the first n of them.
func (e *Evaluator) coreInterferers(r *Analysis, u int, ids []int, ts []rta.Task, order []int, s scaling, gpuPart []int64) ([]rta.Interferer, []int64, bool) {
	out := e.coreOut[u]
	hp, eh := e.margin.allHP[:0], e.margin.allEh[:0]
	distinct := true
	for m, k := range order {
		if m > 0 && ts[k].Priority >= ts[order[m-1]].Priority {
			distinct = false
		}
		hp = append(hp, ts[k].Interferer(min(max(out[k].R, 0), rta.MaxTime)))
		eh = append(eh, e.scaledPart(r, s, u, ids[k], gpuPart, false))
	}
	e.margin.allHP, e.margin.allEh = hp, eh
	return hp, eh, distinct
}

// perTaskStarts returns, per task, the sensitivity of the tests of its
// core to its demand alone (the least over its own test and those of the
// tasks below it), from the state of e after a whole analysis of a into r,
// as factors on the demand analysed; +Inf for a task that does not run.
// A GPU task on the GPU gets the sensitivity of its response and of its
// offloading task's core to its kernel.
func (e *Evaluator) perTaskStarts(a *Assignment, r *Analysis) []float64 {
	out := make([]float64, len(e.tasks))
	for i := range out {
		out[i] = math.Inf(1)
	}
	for g := range e.gpus {
		if t := e.gpus[g].task; r.Tasks[t].Role == OnGPU {
			out[t], _ = e.sensitivity(a, r, scaling{ppm: scaleOne, task: t})
		}
	}
	for _, u := range e.cores {
		ids, ts, c := e.coreForSensitivity(a, r, u)
		order := e.byPriority(ids, ts)
		all := scaling{ppm: scaleOne, task: -1}
		each := e.margin.out
		for n, k := range order {
			var hp []rta.Interferer
			var eh []int64
			hp, eh = e.interferers(r, u, ids, ts, order, n, all, nil, e.margin.hp[:0], e.margin.eh[:0])
			e.margin.hp, e.margin.eh = hp, eh
			each = slices.Grow(each[:0], len(hp))[:len(hp)]
			own := e.scaledPart(r, all, u, ids[k], nil, true)
			self := e.margin.sens.SensitivityEach(ts[k], own, hp, eh, ts[k].D, c, each)
			out[ids[k]] = min(out[ids[k]], self)
			for j, x := range e.margin.hpIdx {
				out[ids[x]] = min(out[ids[x]], each[j])
			}
		}
		e.margin.out = each
	}
	return out
}

// coreForSensitivity returns core u's tasks (onCore order), as rta
// analyses them under the mapping a with the priorities it gives, and its
// contention term: the window of the analysis e holds (the other cores'
// bounds, the copies'), nil under the challenge count.
func (e *Evaluator) coreForSensitivity(a *Assignment, r *Analysis, u int) ([]int, []rta.Task, rta.Contention) {
	ids := e.onCore[u]
	ts := e.coreTasksOf(a, r, u, true)
	if e.count == memory.ChallengeCount {
		return ids, ts, nil
	}
	c := &e.ref.conts[u]
	c.ctr.Reset(&e.ref.windows[u])
	return ids, ts, c
}

// byPriority returns the positions in ids of core u's tasks, most urgent
// first (e.margin.order).
func (e *Evaluator) byPriority(ids []int, ts []rta.Task) []int {
	o := e.margin.order[:0]
	for k := range ids {
		o = append(o, k)
	}
	slices.SortStableFunc(o, func(x, y int) int { return ts[y].Priority - ts[x].Priority })
	e.margin.order = o
	return o
}

// interferers appends to hp and eh the interferers of the task at
// position n of order on core u, as rta's explicit analysis counts them
// (the tasks of higher priority with the jitter of their response in the
// analysis e holds, those of the same priority with their deadline's),
// with their parts that s scales; e.margin.hpIdx gets their positions in
// ids.
func (e *Evaluator) interferers(r *Analysis, u int, ids []int, ts []rta.Task, order []int, n int, s scaling, gpuPart []int64, hp []rta.Interferer, eh []int64) ([]rta.Interferer, []int64) {
	out := e.coreOut[u]
	idx := e.margin.hpIdx[:0]
	p := ts[order[n]].Priority
	for m, k := range order {
		if m == n || ts[k].Priority < p {
			continue
		}
		if ts[k].Priority == p {
			hp = append(hp, ts[k].InterfererAtDeadline())
		} else {
			hp = append(hp, ts[k].Interferer(min(max(out[k].R, 0), rta.MaxTime)))
		}
		eh = append(eh, e.scaledPart(r, s, u, ids[k], gpuPart, false))
		idx = append(idx, k)
	}
	e.margin.hpIdx = idx
	return hp, eh
}

// scaledPart returns the part of task i's execution time on core u that
// scaling s multiplies, in the state e holds: its compute time (with the
// runnables after an asynchronous offloading task's wait) where s scales
// it, and for an offloading task the share of its GPU response that the
// scaled kernels make, gpuPart (in its C when it waits actively, as its
// own part also when it suspends: self).
func (e *Evaluator) scaledPart(r *Analysis, s scaling, u, i int, gpuPart []int64, self bool) int64 {
	tr := &r.Tasks[i]
	var p int64
	if s.applies(e, i, u) {
		c := &e.tasks[i].cpu[u]
		p = c.exec
		if tr.Role == OffloadAsync {
			p += c.waitExec
		}
	}
	if gpuPart != nil && (tr.Role == OffloadSync || (tr.Role == OffloadAsync && self)) {
		p += gpuPart[tr.GPU]
	}
	return p
}

// reaches reports whether scaling s changes a task of core u: one it
// scales, or an offloading task whose GPU response it changes.
func (e *Evaluator) reaches(r *Analysis, s scaling, u int, gpuPart []int64) bool {
	for _, i := range e.onCore[u] {
		if s.applies(e, i, u) {
			return true
		}
		if tr := &r.Tasks[i]; gpuPart != nil && (tr.Role == OffloadSync || tr.Role == OffloadAsync) && gpuPart[tr.GPU] > 0 {
			return true
		}
	}
	return false
}

// gpuSensitivity returns, when scaling s reaches a GPU task on the GPU,
// per GPU task the share of its response that the scaled kernels make
// (its own kernel, and the kernels queued before it where those are
// scaled too), and the factor at which the first response, so grown,
// passes its deadline or its period, with that GPU task; nil, +Inf and -1
// otherwise. It is a
// start, not a bound: the GPU analysis itself is not linear in the
// kernels.
func (e *Evaluator) gpuSensitivity(r *Analysis, s scaling) ([]int64, float64, int) {
	if e.gpuUnit < 0 {
		return nil, math.Inf(1), -1
	}
	var part []int64
	others := false // some GPU task is scaled, so the queues grow too
	for g := range e.gpus {
		if r.GPU[g].OnGPU && s.applies(e, e.gpus[g].task, e.gpuUnit) {
			others = true
		}
	}
	if !others {
		return nil, math.Inf(1), -1
	}
	part = e.margin.gpuPart[:0]
	f, hint := math.Inf(1), -1
	for g := range e.gpus {
		gr := &r.GPU[g]
		var p int64
		if gr.OnGPU {
			if s.applies(e, e.gpus[g].task, e.gpuUnit) {
				p += gr.Response.KernelIsolated
			}
			if s.task < 0 { // every GPU task of the kind: the queue's kernels too
				p += gr.Response.KernelQueue
			}
			t := &r.Tasks[gr.Task]
			if lim := min(t.D, t.T); p > 0 && 1+float64(lim-gr.Response.Total)/float64(p) < f {
				f, hint = 1+float64(lim-gr.Response.Total)/float64(p), gr.Task
			}
		}
		part = append(part, p)
	}
	e.margin.gpuPart = part
	return part, max(f, 0), hint
}

// certify reports whether the mapping holds at factor k (thousandths) of
// scaling s, where the whole analysis in e.margin (e.margin.sc.e's state
// and e.margin.rb), at a factor above k, failed; see the notes at the top
// of this file. It reports false where it cannot tell (the caller then
// analyses in full): a factor below 1, chain latency requirements or
// activated tasks (which it does not check), a GPU bound withdrawn, an
// undecided core or rounds that did not converge in that analysis, or a
// test that fails in its own analysis at k. It changes e.margin's state
// (the tasks scaled to k, the cores' results), but not the bounds that a
// later certificate below k reads.
func (e *Evaluator) certify(s scaling, k int64, passed []bool) (bool, error) {
	ms := &e.margin
	se, r, a := ms.sc.e, ms.rb, ms.b
	if k < 1000 || se.activated || len(se.reqs) > 0 || r.Undecided > 0 || (se.count != memory.ChallengeCount && !r.Converged) {
		return false, nil
	}
	for g := range r.GPU {
		if r.GPU[g].AssumptionMissedBy >= 0 {
			return false, nil
		}
	}
	gpuScaled := false
	for g := range se.gpus {
		if r.GPU[g].OnGPU && s.applies(se, se.gpus[g].task, se.gpuUnit) {
			gpuScaled = true
		}
	}
	if !gpuScaled && !r.GPUSound {
		return false, nil
	}
	se = ms.sc.at(scaling{ppm: k * 1000, kind: s.kind, task: s.task})
	if gpuScaled {
		if err := se.gpuSide(a, r, r.InterferingCoresCE, r.Units[se.gpuUnit].LineLatency); err != nil {
			return false, err
		}
		for g := range r.GPU {
			if gr := &r.GPU[g]; gr.OnGPU && (!gr.Bound(r) || gr.Response.Total > r.Tasks[gr.Task].D) {
				return false, nil
			}
		}
	}
	for _, u := range se.cores {
		ids := se.onCore[u]
		if len(ids) == 0 {
			continue
		}
		affected := false
		for _, i := range ids {
			tr := &r.Tasks[i]
			affected = affected || s.applies(se, i, u) || (gpuScaled && (tr.Role == OffloadSync || tr.Role == OffloadAsync))
		}
		if !affected {
			if !passed[u] {
				return false, nil
			}
			continue
		}
		ts := se.coreTasksOf(a, r, u, true)
		out := se.coreOut[u][:len(ids)]
		var c rta.Contention
		if se.count != memory.ChallengeCount {
			cc := &se.ref.conts[u]
			cc.ctr.Reset(&se.ref.windows[u])
			c = cc
		}
		se.an.Limit, se.an.Contention = rta.LimitDeadline, c
		_, err := se.an.Analyze(rta.Explicit, ts, out)
		se.an.Contention = nil
		if err != nil {
			return false, err
		}
		if !allMeet(out) {
			return false, nil
		}
	}
	return true, nil
}

// passedCores writes into passed, per unit, whether every task on it
// meets its deadline in the analysis r (certify reads it for the cores
// a scaling does not reach).
func passedCores(r *Analysis, passed []bool) []bool {
	passed = slices.Grow(passed[:0], len(r.Units))[:len(r.Units)]
	for u := range passed {
		passed[u] = true
	}
	for i := range r.Tasks {
		if tr := &r.Tasks[i]; tr.Role.OnCPU() && tr.Unit >= 0 && tr.Verdict != Meets {
			passed[tr.Unit] = false
		}
	}
	return passed
}

// Per-task margins by certificates. A task's demand reaches its own core
// first: the other cores see it only through the bounds of that core's
// tasks, which their windows count. The mapping holds at a factor k when
// the task's core, analysed at k with every other core's tasks counted at
// upper bounds of their bounds at k, meets every deadline; and it fails
// when the core, analysed with lower bounds of them, misses one. Both come
// from the mapping's analysis at factor 1, so that a per-task margin needs
// no whole analysis but where the two disagree:
//
//   - lower: the bounds at factor 1. The analysis is monotone in the
//     demand, so every bound at a factor k ≥ 1 is at least its bound at 1;
//     so is every bound the analysis at k uses on its way, since it comes
//     down from above to the greatest of its fixed points below its start
//     (refine.go), and the analysis of the core with these bounds is a
//     lower bound of its analysis at k.
//   - upper: every core analysed with every other core's tasks (and the
//     copies) counted at their deadlines, its bounds capped at theirs. At a
//     factor where every task meets its deadline the analysis uses only
//     bounds at most the deadlines (its start is capped at them, refine.go),
//     and one step of the analysis from there, which this is, keeps them
//     above every bound it reaches. If every other core meets its deadlines
//     so (upperOK), their analysis with these bounds does too, and the
//     task's core meeting its own with them shows every deadline met at k.
//
// Under the challenge count a core does not see the others' bounds: both
// are its analysis at k. On a 1 000-task system of eight cores the starts
// from the two bounds (perTaskStarts) agree for every task, so that each
// margin costs two analyses of one core; where they differ, the factors
// between are decided by the same certificates, and by whole analyses
// where neither tells. What binds is the task whose own test fails in the
// analysis of the core with the lower bounds just above the margin: it
// fails there with every other core's bounds at any factor at least 1, the
// margin's included. The consequences of its failure need a whole
// analysis, so a per-task margin names only what binds (the execution
// scale and the kinds name what follows too).

// taskCerts holds what the per-task certificates of one mapping read.
type taskCerts struct {
	// upper and upperOK are computed when first needed (certUpper).
	upperOnce    sync.Once
	lower, upper []int64     // per task: the bounds (see above)
	deadlines    []int64     // per task on a core: its deadline
	upperOK      []bool      // per unit: it meets its deadlines with the others at theirs
	gpu          []GPUResult // the GPU tasks' analysis at factor 1 (a task's demand does not reach it)
	gpuSound     bool
	startUp      []float64 // per task: its start from the lower bounds (an upper bound of its margin)
	startLo      []float64 // … from the upper bounds (a lower bound)
}

// prepareTaskCerts computes the certificates' bounds from e.margin's state
// after the whole analysis at factor 1 of a mapping that holds, with the
// per-task starts where perTask; nil where certificates do not apply
// (activated tasks, chain latency requirements, rounds that did not
// converge, an undecided core).
func (e *Evaluator) prepareTaskCerts(perTask bool) *taskCerts {
	ms := &e.margin
	se, r, b := ms.sc.e, ms.rb, ms.b
	if se.activated || len(se.reqs) > 0 || r.Undecided > 0 || (se.count != memory.ChallengeCount && !r.Converged) {
		return nil
	}
	tc := &taskCerts{gpu: slices.Clone(r.GPU), gpuSound: r.GPUSound, upperOK: make([]bool, len(se.units))}
	if perTask {
		tc.startUp = se.perTaskStarts(b, r)
	}
	for u := range tc.upperOK {
		tc.upperOK[u] = true
	}
	if se.count == memory.ChallengeCount {
		tc.startLo = tc.startUp
		return tc
	}
	rs := &se.ref
	tc.lower = slices.Clone(rs.resp)
	deadlines := slices.Clone(rs.resp)
	for _, u := range se.cores {
		for _, i := range se.onCore[u] {
			deadlines[i] = r.Tasks[i].D
		}
	}
	tc.deadlines = deadlines
	if perTask {
		e.certUpper(tc)
		copy(rs.resp, tc.upper)
		se.syncDemands(r)
		tc.startLo = se.perTaskStarts(b, r)
		copy(rs.resp, tc.lower)
		se.syncDemands(r)
	}
	return tc
}

// certUpper computes tc.upper and tc.upperOK (under the refined counts),
// once, from the state of the analysis at factor 1, which it restores first
// (any evaluator of the mapping's margins may ask, the first one computes
// them).
func (e *Evaluator) certUpper(tc *taskCerts) {
	tc.upperOnce.Do(func() {
		ms := &e.margin
		se := ms.sc.at(scaling{ppm: scaleOne, task: -1})
		r := ms.rb
		if se.count == memory.ChallengeCount {
			return
		}
		copy(r.GPU, tc.gpu)
		r.GPUSound = tc.gpuSound
		upper := slices.Clone(tc.deadlines)
		for _, u := range se.cores {
			ids := se.onCore[u]
			if len(ids) == 0 {
				continue
			}
			out := se.coreAgainst(ms.b, r, u, tc.deadlines, false)
			for k, i := range ids {
				upper[i] = min(boundOr(out[k].R, out[k].Status), r.Tasks[i].D)
				tc.upperOK[u] = tc.upperOK[u] && out[k].Status == rta.Schedulable
			}
		}
		tc.upper = upper
	})
}

// coreAgainst analyses core u of the mapping a (analysed into r), at the
// demand e holds, with every other core's tasks counted at bounds, and
// the copies of the GPU tasks at what their offloading tasks' bounds give
// them. A copy whose offloading task runs on u itself is counted at that
// task's deadline with atDeadlines (an upper bound wherever it meets it);
// otherwise at its bound in bounds, and then, the copies being part of
// the offloading task's own demand in the window, again at the bound this
// analysis gives it, as long as that grows and every task meets its
// deadline (each step stays below the bound the analysis at this demand
// reaches: it comes down to it from above). It returns the tasks'
// results, in onCore order.
func (e *Evaluator) coreAgainst(a *Assignment, r *Analysis, u int, bounds []int64, atDeadlines bool) []rta.Result {
	ts := e.coreTasksOf(a, r, u, true)
	out := e.coreOut[u][:len(ts)]
	rs := &e.ref
	refined := e.count != memory.ChallengeCount
	if refined {
		copy(rs.resp, bounds)
		if atDeadlines {
			for _, i := range e.onCore[u] {
				rs.resp[i] = r.Tasks[i].D
			}
		}
		e.syncDemands(r)
	}
	for {
		var c rta.Contention
		if refined {
			cc := &rs.conts[u]
			cc.ctr.Reset(&rs.windows[u])
			c = cc
		}
		e.an.Limit, e.an.Contention = rta.LimitDeadline, c
		_, err := e.an.Analyze(rta.Explicit, ts, out)
		e.an.Contention = nil
		if err != nil {
			// The mapping was analysed at factor 1 with these tasks: an
			// error here is a bug, as in the search's evaluation.
			panic("evaluate: a margin's certificate: " + err.Error())
		}
		if !refined || atDeadlines || !rs.offloads[u] || !allMeet(out) {
			return out
		}
		grew := false
		for k, i := range e.onCore[u] {
			if b := min(r.Tasks[i].D, boundOr(out[k].R, out[k].Status)); b > rs.resp[i] {
				rs.resp[i], grew = b, true
			}
		}
		if !grew || !e.syncCopies(r) {
			return out
		}
	}
}

// taskCore returns the core whose analysis task i's demand reaches first
// (its own), or -1 for a task on the GPU.
func (e *Evaluator) taskCore(r *Analysis, i int) int {
	if tr := &r.Tasks[i]; tr.Role.OnCPU() {
		return tr.Unit
	}
	return -1
}

// taskAt analyses task i's core at factor k of its demand alone with the
// other cores' tasks counted at bounds, in e.margin's state after the
// whole analysis at factor 1 (restoring what a whole analysis at another
// factor changed there): the core's results, in onCore order.
func (e *Evaluator) taskAt(tc *taskCerts, i int, k int64, bounds []int64, upper bool) []rta.Result {
	ms := &e.margin
	se := ms.sc.at(scaling{ppm: k * 1000, task: i})
	r := ms.rb
	copy(r.GPU, tc.gpu)
	r.GPUSound = true
	return se.coreAgainst(ms.b, r, e.taskCore(r, i), bounds, upper)
}

// taskFails reports whether the core of task i misses a deadline at
// factor k with the lower bounds, and which task then binds (a Margin's
// Binding and BindingTask): the first, in the model's order, whose own
// test fails (its response passes its deadline, or the tasks above it
// overload the core).
func (e *Evaluator) taskFails(tc *taskCerts, i int, k int64) (bool, Margin) {
	out := e.taskAt(tc, i, k, tc.lower, false)
	se, r := e.margin.sc.e, e.margin.rb
	f := failedTask{first: -1, other: -1}
	f.scan(se.onCore[e.taskCore(r, i)], out)
	return f.binding(r)
}

// failedTask is the task a failing certificate names as what binds: the
// first, in the model's order, whose own test fails (its response passes
// its deadline, or the tasks above it overload its core); else the first
// without a bound because of a task above (-1: none).
type failedTask struct {
	first, other int
	overload     bool
}

// scan takes in a core's results (out, for the tasks ids).
func (f *failedTask) scan(ids []int, out []rta.Result) {
	for n, j := range ids {
		switch st := out[n].Status; st {
		case rta.Schedulable:
		case rta.DeadlineMiss, rta.Exceeded, rta.Unbounded:
			if f.first < 0 || j < f.first {
				f.first, f.overload = j, st == rta.Unbounded
			}
		default: // no bound because of a task above: not its own test
			if f.other < 0 || j < f.other {
				f.other = j
			}
		}
	}
}

// binding reports whether a task failed, and what binds then (a Margin's
// Binding and BindingTask).
func (f *failedTask) binding(r *Analysis) (bool, Margin) {
	b := f.first
	if b < 0 {
		b = f.other
	}
	if b < 0 {
		return false, Margin{}
	}
	t := &r.Tasks[b]
	words := "task " + t.Name + " misses its deadline"
	if f.first >= 0 && f.overload {
		words += " (the tasks above it overload " + t.UnitName + ")"
	}
	return true, Margin{Binding: words, BindingTask: b}
}

// taskHolds reports whether the certificate with the upper bounds shows
// the mapping holding at factor k of task i's demand alone: with tc.upper,
// or where that is too far above, with the tighter bounds of pinnedUpper.
func (e *Evaluator) taskHolds(tc *taskCerts, i int, k int64) bool {
	u := e.taskCore(e.margin.rb, i)
	if e.count == memory.ChallengeCount { // no bounds are counted
		return allMeet(e.taskAt(tc, i, k, tc.lower, true))
	}
	e.certUpper(tc)
	upperOK := true
	for v, ok := range tc.upperOK {
		upperOK = upperOK && (v == u || ok)
	}
	if upperOK && allMeet(e.taskAt(tc, i, k, tc.upper, true)) {
		return true
	}
	pinned := e.pinnedUpper(tc, u)
	return pinned != nil && allMeet(e.taskAt(tc, i, k, pinned, true))
}

// pinnedUpper returns, for the tasks of every core but u, bounds that hold
// at every factor of the demand of a task of u at which every deadline is
// met: those cores analysed again and again, u's tasks counted at their
// deadlines, from tc.upper down, until no bound moves (each analysis of a
// core with bounds at least those the analysis at such a factor reaches
// gives bounds at least its own, so none falls below them); nil where one
// of those cores misses a deadline so. It is tighter than tc.upper, one
// such step from every task at its deadline, and computed once per core
// and evaluator (e.margin.pinned).
func (e *Evaluator) pinnedUpper(tc *taskCerts, u int) []int64 {
	ms := &e.margin
	if b, ok := ms.pinned[u]; ok {
		return b
	}
	if ms.pinned == nil {
		ms.pinned = map[int][]int64{}
	}
	se := ms.sc.at(scaling{ppm: scaleOne, task: -1})
	r := ms.rb
	copy(r.GPU, tc.gpu)
	r.GPUSound = true
	rs := &se.ref
	copy(rs.resp, tc.upper)
	for _, i := range se.onCore[u] {
		rs.resp[i] = r.Tasks[i].D
	}
	se.syncDemands(r)
	var bounds []int64
	for range MaxRounds {
		moved := false
		for _, v := range se.cores {
			ids := se.onCore[v]
			if v == u || len(ids) == 0 {
				continue
			}
			ts := se.coreTasksOf(ms.b, r, v, true)
			out := se.coreOut[v][:len(ids)]
			c := &rs.conts[v]
			c.ctr.Reset(&rs.windows[v])
			se.an.Limit, se.an.Contention = rta.LimitDeadline, c
			_, err := se.an.Analyze(rta.Explicit, ts, out)
			se.an.Contention = nil
			if err != nil || !allMeet(out) {
				ms.pinned[u] = nil
				return nil
			}
			for k, i := range ids {
				if b := boundOr(out[k].R, out[k].Status); b < rs.resp[i] {
					rs.resp[i], rs.demands[v][k].Response, moved = b, b, true
				}
			}
			se.syncCopies(r)
		}
		if !moved {
			bounds = slices.Clone(rs.resp)
			break
		}
	}
	ms.pinned[u] = bounds
	return bounds
}

// marginOfTask finds the margin of task i's demand alone by certificates
// (see above), in e.margin's state after the whole analysis at factor 1 of
// a mapping that holds; where they cannot tell, by margin1's search.
func (e *Evaluator) marginOfTask(tc *taskCerts, i int) (Margin, error) {
	s := scaling{task: i}
	toFactor := func(f float64) int64 {
		k := math.Floor(1000 * f)
		if math.IsNaN(k) || k > maxPerMille {
			return maxPerMille
		}
		return max(int64(k), 1000)
	}
	up := toFactor(tc.startUp[i])
	if e.taskCore(e.margin.rb, i) < 0 {
		return e.margin1(s, true, up, -1)
	}
	if up >= maxPerMille {
		if e.taskHolds(tc, i, maxPerMille) {
			return Margin{Status: MarginAtLeast, PerMille: maxPerMille, BindingTask: -1}, nil
		}
		up = maxPerMille - 1
	}
	hi := up + 1
	fails, binding := e.taskFails(tc, i, hi)
	if !fails {
		return e.margin1(s, true, up, -1)
	}
	lo := min(toFactor(tc.startLo[i]), up)
	for !e.taskHolds(tc, i, lo) {
		if lo == 1000 { // the certificate fails at factor 1: the mapping's own analysis holds
			break
		}
		lo = max(1000, lo-(up-lo)-1)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		switch {
		case e.taskHolds(tc, i, mid):
			lo = mid
		default:
			if f, b := e.taskFails(tc, i, mid); f {
				hi, binding = mid, b
				continue
			}
			ok, err := e.probe(s, mid, false)
			if err != nil {
				return Margin{}, err
			}
			if ok {
				lo = mid
			} else {
				hi = mid
				binding = e.binding()
			}
		}
	}
	binding.Status, binding.PerMille = MarginFound, lo
	return binding, nil
}

// Certificates of the execution scale and the kinds. A scaling of every
// task, or of the tasks on the units of a kind, reaches every core it
// scales and, through the kernels, the GPU, whose analysis depends on no
// core's bound: it is analysed again at the factor, exactly. The cores it
// reaches are analysed at the factor with the other cores' bounds from the
// analysis at factor 1 (lower bounds: scaleFails) or with every other task
// at its deadline, then with the cores it reaches at what that gave and
// the others at tc.upper (upper bounds: scaleHolds); the cores it does not
// reach must meet their deadlines with every other task at its deadline
// (tc.upperOK). Where both tell, the margin costs two analyses of the
// cores the scaling reaches and none of the mapping.

// scaledAt readies e.margin's probe evaluator at factor k of scaling s in
// the state of the analysis at factor 1, the GPU analysed again at k where
// s reaches a GPU task on it; it returns the GPU task, if any, that no
// longer responds within its period and deadline there (else -1), and
// which cores s reaches (e.margin.passed, reused).
func (e *Evaluator) scaledAt(tc *taskCerts, s scaling, k int64) (int, []bool, error) {
	ms := &e.margin
	s.ppm = k * 1000
	se := ms.sc.at(s)
	r := ms.rb
	copy(r.GPU, tc.gpu)
	r.GPUSound = tc.gpuSound
	gpuScaled := false
	for g := range se.gpus {
		gpuScaled = gpuScaled || (r.GPU[g].OnGPU && s.applies(se, se.gpus[g].task, se.gpuUnit))
	}
	late := -1
	if gpuScaled {
		if err := se.gpuSide(ms.b, r, r.InterferingCoresCE, r.Units[se.gpuUnit].LineLatency); err != nil {
			return -1, nil, err
		}
		for g := range r.GPU {
			if gr := &r.GPU[g]; gr.OnGPU && (!gr.WithinPeriod || gr.Response.Total > r.Tasks[gr.Task].D) && late < 0 {
				late = gr.Task
			}
		}
	}
	reached := slices.Grow(ms.passed[:0], len(se.units))[:len(se.units)]
	for u := range reached {
		reached[u] = false
		for _, i := range se.onCore[u] {
			tr := &r.Tasks[i]
			reached[u] = reached[u] || s.applies(se, i, u) || (gpuScaled && (tr.Role == OffloadSync || tr.Role == OffloadAsync))
		}
	}
	ms.passed = reached
	return late, reached, nil
}

// scaleFails reports whether the mapping fails at factor k of scaling s by
// the certificate with the lower bounds, and what binds there: a GPU task
// whose response passes its period or deadline, else the first task, in
// the model's order, whose own test fails in the analysis of its core.
//
// It analyses the core of hint (the task the start came from) first, and
// the others only where that one meets every deadline: one core that
// fails shows the mapping failing.
func (e *Evaluator) scaleFails(tc *taskCerts, s scaling, k int64, hint int) (bool, Margin, error) {
	late, reached, err := e.scaledAt(tc, s, k)
	if err != nil {
		return false, Margin{}, err
	}
	ms := &e.margin
	se, r := ms.sc.e, ms.rb
	if late >= 0 {
		return true, Margin{Binding: r.CauseWords(late), BindingTask: late}, nil
	}
	cores := append(ms.order[:0], se.cores...)
	if hint >= 0 {
		if u := r.Tasks[hint].Unit; r.Tasks[hint].Role.OnCPU() && u >= 0 {
			cores = slices.DeleteFunc(cores, func(v int) bool { return v == u })
			cores = slices.Insert(cores, 0, u)
		}
	}
	ms.order = cores
	f := failedTask{first: -1, other: -1}
	for _, u := range cores {
		if reached[u] && f.first < 0 {
			f.scan(se.onCore[u], se.coreAgainst(ms.b, r, u, tc.lower, false))
		}
	}
	fails, m := f.binding(r)
	return fails, m, nil
}

// scaleHolds reports whether the certificate with the upper bounds shows
// the mapping holding at factor k of scaling s (see above).
func (e *Evaluator) scaleHolds(tc *taskCerts, s scaling, k int64) (bool, error) {
	late, reached, err := e.scaledAt(tc, s, k)
	if err != nil || late >= 0 {
		return false, err
	}
	ms := &e.margin
	se, r := ms.sc.e, ms.rb
	somewhere := false // a core s does not reach
	for _, u := range se.cores {
		somewhere = somewhere || (!reached[u] && len(se.onCore[u]) > 0)
	}
	if somewhere {
		e.certUpper(tc) // it restores the state at factor 1: at k again
		if late, reached, err = e.scaledAt(tc, s, k); err != nil || late >= 0 {
			return false, err
		}
		for u, ok := range tc.upperOK {
			if !reached[u] && !ok {
				return false, nil
			}
		}
	}
	if se.count == memory.ChallengeCount { // the cores' analyses are exact
		for _, u := range se.cores {
			if reached[u] && !allMeet(se.coreAgainst(ms.b, r, u, nil, true)) {
				return false, nil
			}
		}
		return true, nil
	}
	// Every other task at its deadline; then the reached cores at what
	// that gave them, the others at tc.upper.
	step := slices.Clone(tc.deadlines)
	if somewhere {
		copy(step, tc.upper)
	}
	level1 := true
	for _, u := range se.cores {
		if !reached[u] {
			continue
		}
		out := se.coreAgainst(ms.b, r, u, tc.deadlines, true)
		for n, i := range se.onCore[u] {
			step[i] = min(r.Tasks[i].D, boundOr(out[n].R, out[n].Status))
		}
		level1 = level1 && allMeet(out)
	}
	if level1 {
		return true, nil
	}
	for _, u := range se.cores {
		if reached[u] && !allMeet(se.coreAgainst(ms.b, r, u, step, true)) {
			return false, nil
		}
	}
	return true, nil
}
