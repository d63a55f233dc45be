package evaluate

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/hetmap/hetmap/rta/sat"

	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
	"github.com/hetmap/hetmap/rta/gpu"
)

// Evaluate analyses the mapping a and writes its analysis into r (use
// NewAnalysis once and pass the same Analysis again: in steady state Evaluate
// then does not allocate). An unschedulable mapping is a result, never an
// error; the error reports an assignment that cannot be evaluated (a task
// unplaced or on a unit it has no ticks for, mismatched slice lengths) or an
// analysis input out of range.
//
// With Options.RefuteFirst, under the refined and request counts, the
// mapping first takes the relaxed test (EvaluatePartial's, here of a
// complete mapping), core after core, the most utilised first: a core that
// fails it, with its priority search decided, refutes the mapping (no
// priority order of its cores meets every deadline; see the package
// documentation, "Joint priority orders"), and Evaluate keeps that
// analysis, whose verdicts, violation and response times are the relaxed
// test's on the cores analysed up to the failing one (the search's
// violation measure: the failing core's excess over its deadlines under
// lower bounds of the contention). Only a mapping that passes takes the
// full analysis.
func (e *Evaluator) Evaluate(a *Assignment, r *Analysis) error {
	if e.refuteFirst && e.count != memory.ChallengeCount && !e.activated && (e.maxLimit == rta.LimitRank || e.maxLimit == rta.LimitDeadline) {
		// The challenge pass first: where it meets every deadline the
		// relaxed test passes (challengeMeets), and the full analysis goes
		// on from it; the relaxed test counts as an analysis all the same,
		// so that the budgets charged by Analyses do not depend on how its
		// verdict was known.
		meets, prepared := false, false
		if useChallengeFirst {
			var err error
			if meets, prepared, err = e.startFull(a, r); err != nil {
				return err
			}
		}
		if meets {
			e.analyses += 2
			if err := e.refine(a, r); err != nil {
				return err
			}
			e.settleVerdicts(r)
			return nil
		}
		if prepared {
			// The relaxed test (Refutes') from the mapping as startFull
			// prepared it: a complete mapping is placed alike whether
			// partial or not, and the test rewrites every core's tasks.
			e.analyses++
			r.partial = true
			if err := e.analyseCores(a, r, true, true, false); err != nil {
				return err
			}
			e.settleVerdicts(r)
		} else if err := e.evaluate(a, r, true, true, false); err != nil {
			return err
		}
		if e.refuted(r) {
			return nil
		}
	}
	return e.evaluate(a, r, false, false, false)
}

// useChallengeFirst turns the challenge pass before the relaxed test on
// (Evaluate with Options.RefuteFirst, and Refutes); a test turns it off
// to compare.
var useChallengeFirst = true

// startFull begins the full analysis of the complete mapping a under the
// refined counts (evaluate's, up to the challenge pass of every core, whose
// results it leaves in e.coreOut for refine) and reports challengeMeets,
// and whether it prepared r (prepare: a checked before). Where it does
// not meet, it takes back what the challenge pass wrote that the relaxed
// test reads without writing (the cores' Undecided).
func (e *Evaluator) startFull(a *Assignment, r *Analysis) (meets, prepared bool, err error) {
	if e.check(a, false) != nil {
		return false, false, nil // Refutes and evaluate say what is wrong
	}
	if err := e.prepare(a, r, false); err != nil {
		return false, false, err
	}
	r.Rounds, r.Converged = 0, true
	e.initJitter(r)
	meets, err = e.challengePass(a, r)
	return meets, true, err
}

// challengePass analyses every core under the challenge count (core,
// its results left in e.coreOut) and reports challengeMeets. It gives up
// as soon as that cannot hold, where the relaxed test decides instead
// (most mappings a search meets are infeasible, and where the relaxed
// test's analyses are memoised the challenge pass would cost the most):
// at once where a core's utilisation under the challenge count exceeds 1,
// else at the first core, the most utilised first, that misses a
// deadline. Where it does not meet, it takes back what it wrote that the
// relaxed test reads without writing (the cores' Undecided, which
// placeTasks cleared).
func (e *Evaluator) challengePass(a *Assignment, r *Analysis) (bool, error) {
	meets, err := e.challengeCores(a, r)
	if err != nil || meets {
		return meets, err
	}
	for u := range r.Units {
		r.Units[u].Undecided = false
	}
	return false, nil
}

// challengeCores is challengePass's analysis of the cores, the most
// loaded first by challengeLoad (an estimate serves: it only orders the
// cores and gives up early, where the relaxed test then decides).
func (e *Evaluator) challengeCores(a *Assignment, r *Analysis) (bool, error) {
	order := e.ref.order[:0]
	for _, u := range e.cores {
		if len(e.onCore[u]) == 0 {
			continue
		}
		load := e.challengeLoad(r, u)
		if load > 1 {
			e.ref.order = order
			return false, nil
		}
		e.ref.load[u] = load
		order = append(order, u)
	}
	e.ref.order = order
	slices.SortStableFunc(order, func(u, v int) int { return cmp.Compare(e.ref.load[v], e.ref.load[u]) })
	for _, u := range order {
		if err := e.core(a, r, u, false); err != nil {
			return false, err
		}
		if r.Units[u].Undecided || !allMeet(e.coreOut[u][:len(e.onCore[u])]) {
			return false, nil
		}
	}
	return e.challengeMeets(r), nil
}

// challengeLoad is core u's utilisation under the challenge count without
// the GPU's part (an offloading task's wait for it): Σ (compute + lines ·
// line latency) / T over its tasks, at most the utilisation that
// coreTasksOf computes.
func (e *Evaluator) challengeLoad(r *Analysis, u int) float64 {
	lat := r.Units[u].LineLatency
	load := 0.0
	for _, i := range e.onCore[u] {
		c := &e.tasks[i].cpu[u]
		load += float64(sat.Add(c.exec, sat.Mul(r.Tasks[i].Lines, lat))) / float64(e.tasks[i].period)
	}
	return load
}

// challengeMeets reports whether the challenge pass just made (e.coreOut)
// meets every deadline on every core, each core's priority search
// decided, and every GPU task on the GPU has a bound within its deadline.
// The relaxed test of Refutes then passes: on every core it is the
// refined test (the minimum of the challenge's per-job form and the
// window form, so never above the challenge's bound for an order) under
// rta's exact priority assignment, which finds an order where one passes
// (the challenge pass's order does) or stays undecided, and the GPU
// tasks' verdicts are the same in both.
func (e *Evaluator) challengeMeets(r *Analysis) bool {
	for _, u := range e.cores {
		ids := e.onCore[u]
		if len(ids) == 0 {
			continue
		}
		if r.Units[u].Undecided {
			return false
		}
		for k := range ids {
			if e.coreOut[u][k].Status != rta.Schedulable {
				return false
			}
		}
	}
	for g := range r.GPU {
		gr := &r.GPU[g]
		if gr.OnGPU && (!gr.Bound(r) || r.Tasks[e.gpus[g].task].R > r.Tasks[e.gpus[g].task].D) {
			return false
		}
	}
	return true
}

// Refutes reports whether the partial mapping a (as for EvaluatePartial)
// has no completion that meets every deadline: some core fails the test
// of EvaluatePartial with its priority search decided. It analyses the
// cores the most utilised first and stops at the first that fails, so r
// then holds the analysis of the cores up to that one only. A core of
// another that stayed undecided does not keep the failing one from
// refuting the mapping: what fails in every order of its own core fails in
// every completion.
//
// Under the refined counts it tries the challenge pass first: where that
// meets every deadline the relaxed test passes (challengeMeets), and r
// holds the challenge pass's analysis of the mapping instead.
func (e *Evaluator) Refutes(a *Assignment, r *Analysis) (bool, error) {
	if err := e.evaluate(a, r, true, true, true); err != nil {
		return false, err
	}
	return e.refuted(r), nil
}

// refuted settles Refutes' verdict on the analysis r of its test.
func (e *Evaluator) refuted(r *Analysis) bool {
	if !r.Schedulable && r.Undecided == 0 {
		r.refuted = true // every core analysed (the challenge count's test)
	}
	return r.refuted
}

// setRefuteFirst sets Options.RefuteFirst of an evaluator (a margin's
// probes switch it per probe).
func (e *Evaluator) setRefuteFirst(on bool) { e.refuteFirst = on }

// Refuted reports whether the relaxed test decided the analysis (Evaluate
// with Options.RefuteFirst): no priority order of the mapping's cores meets
// every deadline, so no other order need be tried.
func (r *Analysis) Refuted() bool { return r.refuted }

// EvaluatePartial evaluates an assignment in which some tasks are not yet
// placed (Unit NoUnit): they do not run. Since a task added to a mapping
// only adds interference, contention and GPU work, a partial assignment
// that is not schedulable has no schedulable completion; the exhaustive
// search prunes on that.
func (e *Evaluator) EvaluatePartial(a *Assignment, r *Analysis) error {
	return e.evaluate(a, r, true, false, false)
}

// evaluate is Evaluate, or with partial EvaluatePartial, and with refute
// too the test of Refutes, which stops at the first core that fails; with
// challengeFirst as well, the refined counts' test is known to pass where
// the challenge pass meets every deadline (Refutes).
func (e *Evaluator) evaluate(a *Assignment, r *Analysis, partial, refute, challengeFirst bool) error {
	if err := e.check(a, partial); err != nil {
		return err
	}
	e.analyses++
	if err := e.prepare(a, r, partial); err != nil {
		return err
	}
	if err := e.analyseCores(a, r, partial, refute, challengeFirst); err != nil {
		return err
	}
	e.settleVerdicts(r)
	return nil
}

// prepare resets r for the analysis of the mapping a (checked), places its
// tasks, decides the contention counts and analyses the GPU side.
func (e *Evaluator) prepare(a *Assignment, r *Analysis, partial bool) error {
	if r.owner != e.cfg || len(r.Tasks) != len(e.tasks) || len(r.GPU) != len(e.gpus) || len(r.Units) != len(e.units) || len(r.Requirements) != len(e.reqs) {
		e.initAnalysis(r)
	}
	r.partial = partial
	r.Schedulable, r.Misses, r.Violation, r.Undecided, r.refuted = true, 0, 0, 0, false
	r.Chains, r.Windows, r.Margins = r.Chains[:0], r.Windows[:0], nil
	r.RequirementReports = r.RequirementReports[:0]

	bGPU := e.placeTasks(a, r, partial)
	nCE, ceLat := e.countContention(r, bGPU)
	// 3. The GPU.
	return e.gpuSide(a, r, nCE, ceLat)
}

// placeTasks decides every task's role and unit under the mapping a (a
// partial mapping's unplaced tasks do not run), lists every core's tasks
// in deadline-monotonic order, marks the units that access memory and
// reports bGPU: whether a GPU task on the GPU copies a line.
func (e *Evaluator) placeTasks(a *Assignment, r *Analysis, partial bool) bool {
	// 1. Roles, the tasks of every core, and who accesses memory.
	for u := range e.onCore {
		e.onCore[u] = e.onCore[u][:0]
		ur := &r.Units[u]
		ur.Tasks, ur.AccessesMemory, ur.Utilisation, ur.CopyUtilisation, ur.Explicit, ur.Undecided = 0, false, 0, 0, false, false
		ur.Demand = 0
	}
	bGPU := false
	// In deadline-monotonic order, so that every core's list comes sorted
	// the way rta orders its tasks first.
	for _, i := range e.dmOrder {
		ti := &e.tasks[i]
		tr := &r.Tasks[i]
		u := a.Unit[i]
		// The static fields (Name, GPU, T, D, HasDeadline, Offset) were set
		// by initAnalysis; reset the others.
		tr.Role, tr.Unit, tr.UnitName, tr.Priority, tr.Rank, tr.Explicit = Periodic, u, "", NoPriority, 0, false
		tr.C, tr.Compute, tr.Lines, tr.Memory, tr.Contention, tr.GPUWait, tr.Suspension = 0, 0, 0, 0, 0, 0, 0
		tr.R, tr.BCRT, tr.Verdict, tr.Status = 0, 0, Meets, rta.Schedulable
		tr.WindowAccesses, tr.WindowPauses, tr.WindowContention, tr.PerJobBound = 0, 0, 0, false
		tr.Because, tr.withdrew, tr.withdrewVerdict = -1, false, Meets
		var lines int64
		if u == NoUnit && partial && ti.kind != kindOffloading {
			tr.Role, tr.Verdict = NotRunning, Absent
			continue
		}
		switch ti.kind {
		case kindPeriodic:
			tr.Role = Periodic
			lines = ti.cpu[u].lines
		case kindOffloading:
			g := &e.gpus[ti.gpu]
			if a.Unit[g.task] != e.gpuUnit || (u == NoUnit && partial) {
				tr.Role, tr.Unit, tr.Verdict = NotRunning, NoUnit, Absent
				continue
			}
			lines = ti.cpu[u].lines
			tr.Role = OffloadSync
			if a.Async[ti.gpu] {
				tr.Role = OffloadAsync
				lines += ti.cpu[u].waitLines
			}
		case kindGPU:
			if u == e.gpuUnit {
				tr.Role = OnGPU
				g := &e.gpus[ti.gpu]
				if g.copyInLines+g.copyOutLines > 0 {
					bGPU = true
				}
				r.Units[u].Tasks++
				continue
			}
			tr.Role = Merged
			lines = ti.cpu[u].lines
		}
		tr.Lines = lines
		tr.UnitName = e.units[u].name
		e.onCore[u] = append(e.onCore[u], i)
		r.Units[u].Tasks++
		if lines > 0 {
			r.Units[u].AccessesMemory = true
		}
	}
	return bGPU
}

// countContention decides the contention of every unit: #C of every core
// and of the copy engine, bGPU (the configuration may fix both) and the
// line latencies that follow; it returns the copy engine's #C and line
// latency.
func (e *Evaluator) countContention(r *Analysis, bGPU bool) (int, int64) {
	// 2. Contention: #C per core, #C of the copy engine, bGPU.
	memCores := 0
	for u := range e.units {
		if r.Units[u].AccessesMemory {
			memCores++
		}
	}
	switch e.fixedCE {
	case 0:
		bGPU = false
	case 1:
		bGPU = true
	}
	r.CopyEngineActive = bGPU
	nCE := memCores
	if e.fixedC >= 0 {
		nCE = e.fixedC
	}
	r.InterferingCoresCE = nCE
	ceLat := memory.CopyLineLatency(e.ce, nCE)
	for u := range e.units {
		ur := &r.Units[u]
		if e.units[u].gpu {
			ur.InterferingCores, ur.CopyEngineActive, ur.LineLatency = nCE, bGPU, ceLat
			continue
		}
		n := memCores
		if ur.AccessesMemory {
			n--
		}
		if e.fixedC >= 0 {
			n = e.fixedC
		}
		ur.InterferingCores, ur.CopyEngineActive = n, bGPU
		ur.LineLatency = memory.LineLatency(e.units[u].mem, n, bGPU)
	}
	return nCE, ceLat
}

// analyseCores analyses every core that hosts tasks: under the challenge
// count, then, under the refined counts, the refined rounds (or, for a
// partial mapping, the relaxed test); under the challenge count the
// activation jitters and the withdrawal of the bounds that rest on a
// missed assumption, until neither changes anything.
func (e *Evaluator) analyseCores(a *Assignment, r *Analysis, partial, refute, challengeFirst bool) error {
	// 4. Every core: under the challenge's count, which is also where the
	// refined counts start (refine.go); a partial mapping under the refined
	// counts only needs its cores' tasks for the relaxed test.
	refined := e.count != memory.ChallengeCount && !(partial && e.partialByChallenge)
	r.Rounds, r.Converged = 0, true
	e.initJitter(r)
	if refined && partial && refute && challengeFirst && useChallengeFirst && !e.activated {
		// Refutes: where the challenge pass meets every deadline the
		// relaxed test passes (challengeMeets); r keeps that pass.
		meets, err := e.challengePass(a, r)
		if err != nil {
			return err
		}
		if meets {
			for _, u := range e.cores {
				if ids := e.onCore[u]; len(ids) > 0 {
					if err := e.verdicts(a, r, u, ids, r.Units[u].Explicit, e.coreOut[u][:len(ids)]); err != nil {
						return err
					}
				}
			}
			return nil
		}
	}
	for _, u := range e.cores {
		if len(e.onCore[u]) == 0 {
			continue
		}
		if refined && partial {
			explicit, _, err := e.corePolicy(a, r, u)
			if err != nil {
				return err
			}
			e.coreTasksOf(a, r, u, explicit)
			continue
		}
		// Under the refined counts the refined pass starts from the
		// challenge pass's results (saveChallenge) and writes every verdict.
		if err := e.core(a, r, u, !refined); err != nil {
			return err
		}
	}
	switch {
	case refined && partial:
		if err := e.activations(a, r); err != nil {
			return err
		}
		if err := e.relaxed(a, r, refute); err != nil {
			return err
		}
	case refined:
		// Activated tasks take their jitter from the challenge pass,
		// which the refined rounds only tighten for the orders they keep
		// (NewEvaluator uses the challenge count for a system with
		// activated tasks; see activation.go).
		if err := e.refine(a, r); err != nil {
			return err
		}
	default:
		// Activation jitters to their fixed point, then the bounds that
		// rest on a missed assumption withdrawn; a withdrawal can take an
		// activator's bound and so its activated tasks', so the two repeat
		// until neither changes anything (only verdicts that fail get
		// here).
		for round := 0; ; round++ {
			if err := e.activations(a, r); err != nil {
				return err
			}
			changed, err := e.missedAssumptions(a, r)
			if err != nil {
				return err
			}
			if !changed || !e.activated || round > len(e.tasks) {
				break
			}
		}
	}
	return nil
}

// settleVerdicts decides the mapping's verdict from its tasks': the
// undecided cores, the GPU tasks' verdicts, whether every task meets its
// deadline, the misses and the violation that ranks an infeasible mapping,
// then the chains' latency requirements.
func (e *Evaluator) settleVerdicts(r *Analysis) {
	// 5. Verdicts and the ranking measure.
	for u := range r.Units {
		if r.Units[u].Undecided {
			r.Undecided++
		}
	}
	for i := range r.Tasks {
		tr := &r.Tasks[i]
		if tr.Role == NotRunning {
			continue
		}
		if tr.Role == OnGPU {
			switch {
			case !r.GPU[tr.GPU].Bound(r):
				tr.Verdict = GPUNoBound
			case tr.R > tr.D:
				tr.Verdict = Misses
			}
		}
		if tr.Verdict == Meets {
			continue
		}
		r.Schedulable = false
		r.Misses++
		r.Violation = sat.Add(r.Violation, tr.violation())
	}
	e.settleCauses(r)
	e.checkRequirements(r)
}

// gpuSide fills r.GPU and the GPU unit, from the cache when it can.
func (e *Evaluator) gpuSide(a *Assignment, r *Analysis, nCE int, ceLat int64) error {
	r.GPUSound = true
	key := append(e.key[:0], byte(nCE))
	on := 0
	for g := range e.gpus {
		gi := &e.gpus[g]
		gr := &r.GPU[g]
		gr.OnGPU = e.gpuUnit >= 0 && a.Unit[gi.task] == e.gpuUnit
		gr.High, gr.Slice, gr.WithinPeriod, gr.AssumptionMissedBy = false, 0, false, -1
		if !gr.OnGPU {
			key = append(key, 0)
			continue
		}
		on++
		if e.fifo {
			gr.High = a.High[g]
			if gr.High {
				key = append(key, 2)
			} else {
				key = append(key, 1)
			}
		} else {
			gr.Slice = a.Slice[g]
			key = append(key, 1)
			key = binary.LittleEndian.AppendUint64(key, uint64(gr.Slice))
		}
	}
	e.key = key
	if on == 0 {
		for g := range r.GPU {
			r.GPU[g].Response = gpu.Response{}
		}
		return nil
	}
	off, ok := e.cache[string(key)]
	if !ok {
		var err error
		if off, err = e.analyseGPU(a, r, ceLat); err != nil {
			return err
		}
		e.cache[string(key)] = off
	}
	gu := &r.Units[e.gpuUnit]
	for g := range r.GPU {
		gr := &r.GPU[g]
		gr.Response = e.cacheR[int(off)+g]
		if !gr.OnGPU {
			continue
		}
		gi := &e.gpus[g]
		resp := &gr.Response
		gr.WithinPeriod = resp.Bounded && resp.Total <= gi.period
		if !gr.WithinPeriod {
			r.GPUSound = false
		}
		tr := &r.Tasks[gi.task]
		tr.UnitName = e.units[e.gpuUnit].name
		tr.Compute = resp.KernelIsolated
		tr.Lines = gi.copyInLines + gi.copyOutLines
		tr.Memory = sat.Mul(tr.Lines, e.ce.Baseline)
		tr.Contention = sat.Mul(tr.Lines, ceLat-e.ce.Baseline)
		tr.C = sat.Add(resp.CopyIn, sat.Add(resp.KernelIsolated, resp.CopyOut))
		tr.R = resp.Total
		tr.BCRT = sat.Add(sat.Mul(tr.Lines, e.ce.Baseline), gi.kernelBest)
		gu.Utilisation += float64(resp.KernelIsolated) / float64(gi.period)
		gu.CopyUtilisation += float64(resp.CopyIn+resp.CopyOut) / float64(gi.period)
	}
	return nil
}

// analyseGPU runs the GPU analysis for the GPU tasks on the GPU and stores
// the responses in the cache; it returns their offset there.
func (e *Evaluator) analyseGPU(a *Assignment, r *Analysis, ceLat int64) (int32, error) {
	e.gpuTasks, e.gpuIdx = e.gpuTasks[:0], e.gpuIdx[:0]
	for g := range e.gpus {
		if !r.GPU[g].OnGPU {
			continue
		}
		gi := &e.gpus[g]
		t := gpu.Task{Name: e.tasks[gi.task].name, Period: gi.period, Jitter: gi.jitter,
			CopyIn: sat.Mul(gi.copyInLines, ceLat), CopyOut: sat.Mul(gi.copyOutLines, ceLat),
			BlockTime: gi.blockTime, Blocks: gi.blocks, ThreadsPerBlock: gi.threads,
			SharedMemPerBlock: gi.sharedMem, RegistersPerBlock: gi.registers}
		if e.fifo {
			if a.High[g] {
				t.Priority = gpu.High
			}
		} else {
			t.Slice = a.Slice[g]
		}
		e.gpuTasks = append(e.gpuTasks, t)
		e.gpuIdx = append(e.gpuIdx, g)
	}
	out := e.gpuOut[:len(e.gpuTasks)]
	var err error
	if e.fifo {
		err = e.fifoAn.Analyze(e.gpuTasks, out)
	} else {
		err = e.sliceAn.Analyze(e.gpuTasks, out)
	}
	if err != nil {
		return 0, fmt.Errorf("GPU analysis: %w", err)
	}
	if len(e.cache) >= maxCacheEntries {
		clear(e.cache)
		e.cacheR = e.cacheR[:0]
	}
	off := len(e.cacheR)
	for range e.gpus {
		e.cacheR = append(e.cacheR, gpu.Response{})
	}
	for k, g := range e.gpuIdx {
		resp := out[k]
		resp.WorstOrder = nil
		e.cacheR[off+g] = resp
	}
	return int32(off), nil
}

// core analyses the tasks of CPU unit u under the challenge's contention
// count (for the refined counts, the start of the refined analysis, which
// asks for no verdicts: its results stay in e.coreOut[u], for
// saveChallenge, and the refined pass writes every verdict).
func (e *Evaluator) core(a *Assignment, r *Analysis, u int, verdicts bool) error {
	ids := e.onCore[u]
	explicit, policy, err := e.corePolicy(a, r, u)
	if err != nil {
		return err
	}
	var key coreKey
	var hash uint64
	memo := false
	if !explicit && !e.noMemo {
		key, hash, memo = e.memoKey(r, u, ids)
	}
	out := e.coreOut[u][:len(ids)]
	// Under the refined counts the memo restores the core's tasks too.
	if memo && e.recall(key, hash, r, u, ids, out) {
		if !verdicts {
			return nil
		}
		return e.verdicts(a, r, u, ids, explicit, out)
	}
	ts := e.coreTasksOf(a, r, u, explicit)
	e.an.Limit, e.an.Contention = e.maxLimit, nil
	if _, err := e.an.Analyze(policy, ts, out); err != nil {
		return fmt.Errorf("%s: %w", e.units[u].name, err)
	}
	r.Units[u].Undecided = !e.an.Decided()
	if memo {
		e.remember(key, hash, r, u, ids, out)
	}
	if !verdicts {
		return nil
	}
	return e.verdicts(a, r, u, ids, explicit, out)
}

// corePolicy says how core u's priorities are set: by the mapping
// (explicit, when it gives every task of the core a priority) or by the
// configured policy; it records both in r.Units[u].
func (e *Evaluator) corePolicy(a *Assignment, r *Analysis, u int) (bool, rta.Policy, error) {
	explicit := true
	for _, i := range e.onCore[u] {
		if a.Priority[i] == NoPriority {
			explicit = false
			break
		}
	}
	policy := e.policy
	if explicit {
		policy = rta.Explicit
	} else if e.model {
		return false, 0, fmt.Errorf("analysis.priorities is model, but a task on %s has no priority", e.units[u].name)
	}
	r.Units[u].Explicit, r.Units[u].Policy = explicit, policy
	return explicit, policy, nil
}

// coreTasksOf fills the execution-time terms of core u's tasks in r and
// returns them as rta tasks (e.coreTasks[u], in the order of e.onCore[u]):
// C under the challenge's count, and C0, Lines and Access for a window
// term.
func (e *Evaluator) coreTasksOf(a *Assignment, r *Analysis, u int, explicit bool) []rta.Task {
	ui := &e.units[u]
	ur := &r.Units[u]
	lat := ur.LineLatency
	base := memory.LineLatency(ui.mem, 0, false)
	ids := e.onCore[u]
	ts := e.coreTasks[u]
	e.wmemo.preSet[u] = false // the challenge memo's fingerprint is not these tasks'
	if cap(ts) < len(ids) {
		ts = make([]rta.Task, len(ids))
	}
	ts = ts[:len(ids)]
	ur.Utilisation = 0 // missedAssumptions may analyse a core again
	for k, i := range ids {
		ti := &e.tasks[i]
		tr := &r.Tasks[i]
		c := &ti.cpu[u]
		exec, bestExec, lines := c.exec, c.bestExec, tr.Lines
		var gpuBest int64
		if tr.Role == OffloadAsync {
			exec, bestExec = exec+c.waitExec, bestExec+c.waitBestExec
		}
		if tr.Role == OffloadSync || tr.Role == OffloadAsync {
			gi := &e.gpus[ti.gpu]
			gpuBest = sat.Add(sat.Mul(gi.copyInLines+gi.copyOutLines, e.ce.Baseline), gi.kernelBest)
			resp := r.GPU[ti.gpu].Response.Total
			if tr.Role == OffloadSync {
				tr.GPUWait = resp
			} else {
				tr.Suspension = resp
			}
		}
		tr.Compute = exec
		tr.Memory = sat.Mul(lines, base)
		tr.Contention = sat.Mul(lines, lat-base)
		tr.C = clampTime(sat.Add(sat.Add(exec, sat.Mul(lines, lat)), tr.GPUWait))
		tr.BCRT = sat.Add(sat.Add(tr.Memory, bestExec), gpuBest)
		// Written in place: the task is large, and a core holds dozens.
		t := &ts[k]
		*t = rta.Task{C: tr.C, T: ti.period, D: tr.D, S: clampTime(tr.Suspension), J: clampTime(tr.Jitter)}
		// Without the contention of other units: compute, the lines at the
		// baseline latency, the busy-wait.
		t.C0 = min(t.C, clampTime(sat.Add(sat.Add(exec, tr.Memory), tr.GPUWait)))
		t.Lines, t.Access = min(lines, rta.MaxTime), min(t.C0, tr.Memory)
		if tr.Role == OffloadAsync {
			t.Suspensions = 1 // it waits once per job for its GPU job
		}
		if tr.Role == OffloadSync || tr.Role == OffloadAsync {
			// A GPU response that is no bound feeds no bound: not this
			// task's, nor, through its C or its jitter, those below it.
			t.NoBound = !r.GPU[ti.gpu].Bound(r)
		}
		if tr.Jitter >= rta.MaxTime {
			// An activation jitter without a bound (the activator has
			// none; activation.go) likewise.
			t.NoBound = true
		}
		if explicit {
			t.Priority = a.Priority[i]
		}
		ur.Utilisation += float64(tr.C) / float64(ti.period)
	}
	e.coreTasks[u] = ts
	return ts
}

// verdicts turns core u's analysis results (out, in the order of ids)
// into response times, priorities and verdicts.
func (e *Evaluator) verdicts(a *Assignment, r *Analysis, u int, ids []int, explicit bool, out []rta.Result) error {
	ui := &e.units[u]
	n := len(ids)
	for k, i := range ids {
		tr := &r.Tasks[i]
		res := out[k]
		tr.R, tr.Status, tr.Rank, tr.Explicit = res.R, res.Status, res.Rank, explicit
		tr.WindowAccesses, tr.WindowPauses, tr.WindowContention, tr.PerJobBound = res.Accesses, res.Pauses, res.Delay, res.FromC
		if explicit {
			tr.Priority = a.Priority[i]
		} else {
			tr.Priority = n - res.Rank
		}
		switch res.Status {
		case rta.Schedulable:
			tr.Verdict = Meets
		case rta.DeadlineMiss:
			tr.Verdict = Misses
		case rta.Exceeded:
			tr.Verdict = NoBound
		case rta.Unbounded:
			tr.Verdict = Overloaded
		case rta.InterfererUnbounded:
			tr.Verdict = InterfererNoBound
		case rta.InputUnbounded:
			// The inputs hetmap marks as no bound: the GPU response an
			// offloading task waits for, an activated task's jitter.
			tr.Verdict = ActivatorNoBound
			if tr.Role == OffloadSync || tr.Role == OffloadAsync {
				tr.Verdict = GPUNoBound
			}
		default:
			return fmt.Errorf("%s: task %s: analysis status %v", ui.name, tr.Name, res.Status)
		}
		if (tr.Role == OffloadSync || tr.Role == OffloadAsync) && !r.GPU[tr.GPU].Bound(r) {
			tr.Verdict = GPUNoBound
		}
	}
	return nil
}

// missedAssumptions withdraws the bounds that rest on an assumption the
// analysis found false. The GPU analyses assume that every job of every
// other GPU task completes within its period after its nominal release
// (at most one of its jobs is queued at a time) and count another task's
// jobs with the release jitter of its launches; both hold while that
// task's offloading task meets its deadline D ≤ T (rta/gpu, "Jobs of a task
// in a window"; Evaluator doc, "Release jitter of GPU jobs"). When the
// offloading task of GPU task h does not meet its deadline, the responses
// of every other GPU task are no bound; their offloading tasks are analysed
// again with rta.Task.NoBound, which can make more offloading tasks fail,
// so this repeats until nothing changes (at most once per GPU task). Only
// mappings that miss a deadline get here.
func (e *Evaluator) missedAssumptions(a *Assignment, r *Analysis) (changed bool, err error) {
	if !r.GPUSound {
		return false, nil // no GPU response is a bound in the first place
	}
	e.markWithdrawers(r)
	for range e.gpus {
		more := false
		for g := range r.GPU {
			gr := &r.GPU[g]
			if !gr.OnGPU || gr.AssumptionMissedBy >= 0 {
				continue
			}
			for h := range r.GPU {
				if h == g || !r.GPU[h].OnGPU {
					continue
				}
				if !r.Tasks[e.gpus[h].pre].Schedulable() { // Absent in a partial mapping: not yet placed
					gr.AssumptionMissedBy = h
					more = true
					break
				}
			}
		}
		if !more {
			return changed, nil
		}
		changed = true
		for u := range e.units {
			if !e.units[u].gpu {
				e.withdrawBelow(r, u)
			}
		}
	}
	return changed, nil
}

// withdrawBelow applies, on core u, what the analysis with rta.Task.NoBound
// gives an offloading task whose GPU response has just lost its bound: the
// task itself has none (GPUNoBound), nor has any task below it (or, under
// explicit priorities, beside it), whose interference term needs its C or
// its jitter. The priority order and the response times are kept: they are
// those of an analysis that took the GPU response for a bound, now lower
// bounds only, and the mapping misses a deadline anyway (only such mappings
// lose a bound).
func (e *Evaluator) withdrawBelow(r *Analysis, u int) {
	top := -1 // the most urgent rank of a task that lost its bound
	for _, i := range e.onCore[u] {
		tr := &r.Tasks[i]
		if (tr.Role == OffloadSync || tr.Role == OffloadAsync) && !r.GPU[tr.GPU].Bound(r) && tr.Verdict != GPUNoBound {
			tr.Verdict, tr.Status = GPUNoBound, rta.InputUnbounded
			if top < 0 || tr.Rank < top {
				top = tr.Rank
			}
		}
	}
	if top < 0 {
		return
	}
	for _, i := range e.onCore[u] {
		tr := &r.Tasks[i]
		below := tr.Rank > top || (tr.Explicit && tr.Rank == top && tr.Verdict != GPUNoBound)
		if below && tr.Verdict.Bounded() {
			tr.Verdict, tr.Status = InterfererNoBound, rta.InterfererUnbounded
		}
	}
}

func clampTime(v int64) int64 { return min(v, rta.MaxTime) }
