package evaluate

import (
	"errors"
	"math"

	"github.com/hetmap/hetmap/rta/sat"

	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
)

// InterfererOverlap is one interferer's share of the contention in a task's
// response window: how many of the window's accesses it is charged for,
// with the terms of the minimum (memory's package documentation,
// "Window-aware contention counts"). Refined and Request are
// memory.Window.Overlap under the refined and the request count; their
// terms Lines (N_p), Time (the time count) and Requests (A_c) are the
// same, and By says which one binds.
type InterfererOverlap struct {
	// Unit is the interfering core's index in System.Units, or the GPU's
	// for its copy engine (CopyEngine true).
	Unit       int
	Name       string
	CopyEngine bool
	// Active: the interferer accesses memory at all (the challenge's #C
	// and bGPU count exactly the active ones).
	Active           bool
	Refined, Request memory.Overlap
}

// TaskContention is the contention of one task's response window under
// the three counts, for reports (Evaluator.contentionDetail).
type TaskContention struct {
	Task int // index into Analysis.Tasks
	// Window is the length w of the task's level-i window (its R; hetmap's
	// CPU tasks have no release jitter), Accesses N_p(w), the memory
	// accesses of its job and of the jobs above it there, and Pauses how
	// many of them a preemption may pause (the releases and resumptions of
	// the jobs above).
	Window, Accesses, Pauses int64
	// Challenge, Refined and Request are the contention charged for those
	// accesses under each count (ps): the challenge's every access at
	// K·#C + sGPU·bGPU, and I(w) of memory's package documentation with
	// the refined and the
	// request count (a fixed #C or bGPU in the configuration applies to
	// all three). Request rests on round-robin arbitration
	// (configs.RequestAssumption).
	Challenge, Refined, Request int64
	// PerJobBound: under the count in force the per-job form (C, the
	// challenge's charge) gave R (TaskResult.PerJobBound).
	PerJobBound bool
	// Interferers are the other cores with tasks, then the copy engine
	// when a GPU task copies.
	Interferers []InterfererOverlap
}

// contentionDetail returns, per running CPU task with a response-time
// bound, the contention of its response window under the three counts and
// the overlap of every interferer with the term of its minimum that binds.
// Under the refined and request counts the windows are the analysed ones,
// counted with the final response bounds of the other cores (those of the
// last round; Analysis.Converged says whether a further round would have
// changed them); under the challenge count they are the challenge's
// response times, and the refined and request figures show what those
// counts would charge for the same windows. It allocates; call it for
// reports, not in a search loop. r must come from Evaluate of this
// Evaluator (not EvaluatePartial).
func (e *Evaluator) contentionDetail(r *Analysis) ([]TaskContention, error) {
	if err := e.rebuildWindows(r); err != nil {
		return nil, err
	}
	rs := &e.ref
	var out []TaskContention
	for u := range e.units {
		if e.units[u].gpu {
			continue
		}
		w := &rs.windows[u]
		k, sGPU := e.units[u].mem.PerCore, e.units[u].mem.CopyEngine
		for _, i := range e.onCore[u] {
			tr := &r.Tasks[i]
			if !tr.Verdict.Bounded() {
				continue
			}
			tc := TaskContention{Task: i, Window: tr.R, Accesses: tr.WindowAccesses, Pauses: tr.WindowPauses, PerJobBound: tr.PerJobBound}
			if e.count == memory.ChallengeCount {
				tc.Accesses, tc.Pauses = e.windowAccesses(r, u, i)
			}
			n, p := tc.Accesses, tc.Pauses
			var cores [3]int64
			var ce [3]int64
			for c := range w.Cores {
				v := rs.winUnits[u][c]
				io := InterfererOverlap{Unit: v, Name: e.units[v].name, Active: w.Cores[c].Active(),
					Refined: w.Overlap(&w.Cores[c], tc.Window, n, p, memory.RefinedCount),
					Request: w.Overlap(&w.Cores[c], tc.Window, n, p, memory.RequestCount)}
				cores[0] = sat.Add(cores[0], w.Overlap(&w.Cores[c], tc.Window, n, p, memory.ChallengeCount).Count)
				cores[1] = sat.Add(cores[1], io.Refined.Count)
				cores[2] = sat.Add(cores[2], io.Request.Count)
				tc.Interferers = append(tc.Interferers, io)
			}
			if len(w.CopyEngine.Tasks) > 0 {
				io := InterfererOverlap{Unit: e.gpuUnit, Name: "copy engine", CopyEngine: true, Active: w.CopyEngine.Active(),
					Refined: w.Overlap(&w.CopyEngine, tc.Window, n, p, memory.RefinedCount),
					Request: w.Overlap(&w.CopyEngine, tc.Window, n, p, memory.RequestCount)}
				ce = [3]int64{w.Overlap(&w.CopyEngine, tc.Window, n, p, memory.ChallengeCount).Count, io.Refined.Count, io.Request.Count}
				tc.Interferers = append(tc.Interferers, io)
			}
			charge := func(c int) int64 {
				cc, cce := cores[c], ce[c]
				if e.fixedC >= 0 {
					cc = sat.Mul(n, int64(e.fixedC))
					if c > 0 {
						cc = min(cores[c], cc)
					}
				}
				switch e.fixedCE {
				case 0:
					cce = 0
				case 1:
					cce = n
				}
				return sat.Add(sat.Mul(k, cc), sat.Mul(sGPU, cce))
			}
			tc.Challenge, tc.Refined, tc.Request = charge(0), charge(1), charge(2)
			out = append(out, tc)
		}
	}
	return out, nil
}

// rebuildWindows rebuilds e.ref's windows from r: the running tasks and
// their demands, each counted with its reported bound (the final bounds
// of the refined rounds; the challenge's under the challenge count).
func (e *Evaluator) rebuildWindows(r *Analysis) error {
	if r == nil || r.owner != e.cfg || len(r.Tasks) != len(e.tasks) || len(r.Units) != len(e.units) {
		return errors.New("optimizer: the contention detail needs a result evaluated by the same evaluator")
	}
	rs := &e.ref
	// Rebuild the running tasks and their demands from r, with every
	// task's demand counted with its reported bound (the final bounds of
	// the refined rounds; the challenge's under the challenge count).
	for u := range e.onCore {
		e.onCore[u] = e.onCore[u][:0]
	}
	for i := range r.Tasks {
		if tr := &r.Tasks[i]; tr.Role.OnCPU() {
			e.onCore[tr.Unit] = append(e.onCore[tr.Unit], i)
		}
	}
	e.buildDemands(r)
	for u := range e.units {
		if !e.units[u].gpu {
			ids := e.onCore[u]
			e.setSplits(r, u, func(k int) int { return r.Tasks[ids[k]].Priority })
		}
		for _, i := range e.onCore[u] {
			tr := &r.Tasks[i]
			rs.resp[i] = math.MaxInt64
			if tr.Verdict.Bounded() {
				rs.resp[i] = tr.R
			}
		}
	}
	e.syncDemands(r)
	return nil
}

// AnalyzeDemand sets every core's UnitResult.Demand, as AnalyzeContention
// does, without the windows' detail (which costs more: a search's front
// gets it only for the points a report details).
func (e *Evaluator) AnalyzeDemand(r *Analysis) error {
	if err := e.rebuildWindows(r); err != nil {
		return err
	}
	e.countedDemand(r)
	return nil
}

// AnalyzeContention fills r.Windows with contentionDetail(r) and every
// core's UnitResult.Demand, for reports.
func (e *Evaluator) AnalyzeContention(r *Analysis) error {
	d, err := e.contentionDetail(r)
	if err != nil {
		return err
	}
	r.Windows = d
	e.countedDemand(r)
	return nil
}

// demandHorizons is how many of the longest period the horizon H of
// countedDemand spans at least.
const demandHorizons = 1000

// countedDemand sets UnitResult.Demand of every CPU core with tasks: the
// long-run rate of the demand D(t) that the count in force charges for
// all the core's jobs in a window t,
//
//	D(t) = Σ_j ⌈t/T_j⌉·C⁰_j + I(t),  I(t) = K·Σ_c O_c(t) + sGPU·O_CE(t)
//
// with N_p(t) = Σ_j ⌈t/T_j⌉·lines_j, the pauses Σ_j ⌈t/T_j⌉·readies_j, and
// O_c the overlap of memory.Window under the count (memory's package
// documentation), taken as (D(2H) − D(H)) / H with H a multiple of every
// period on the core of at least demandHorizons longest periods of the
// system: the constant terms
// (the carry-in jobs of other cores, the +2 per phase, the floors) cancel,
// and under the challenge count (O_c = N_p for every active interferer) it
// is Σ C/T exactly. It reads the windows contentionDetail left in e.ref.
func (e *Evaluator) countedDemand(r *Analysis) {
	count := e.count
	rs := &e.ref
	var longest int64
	for i := range r.Tasks {
		if r.Tasks[i].Role != NotRunning {
			longest = max(longest, r.Tasks[i].T)
		}
	}
	for u := range e.units {
		if e.units[u].gpu || len(e.onCore[u]) == 0 || longest <= 0 {
			continue
		}
		// H: the least common multiple of the core's periods, times as
		// many as reach demandHorizons longest periods; without a common
		// multiple within rta.MaxTime/4, demandHorizons longest periods
		// (then the ceilings add at most one job per task over H).
		h := int64(1)
		for _, i := range e.onCore[u] {
			t := r.Tasks[i].T
			g := gcd(h, t)
			if h/g > rta.MaxTime/4/t {
				h = 0
				break
			}
			h = h / g * t
		}
		want := sat.Mul(longest, demandHorizons)
		if h == 0 {
			h = want
		} else if h < want {
			h *= (want + h - 1) / h
		}
		w := &rs.windows[u]
		k, sGPU := e.units[u].mem.PerCore, e.units[u].mem.CopyEngine
		demand := func(t int64) int64 {
			var c0, n, pauses int64
			for _, i := range e.onCore[u] {
				tr := &r.Tasks[i]
				jobs := (t + tr.T - 1) / tr.T
				readies := int64(1)
				if tr.Suspension > 0 {
					readies = 2
				}
				c0 = sat.Add(c0, sat.Mul(jobs, sat.Add(sat.Add(tr.Compute, tr.Memory), tr.GPUWait)))
				n = sat.Add(n, sat.Mul(jobs, tr.Lines))
				pauses = sat.Add(pauses, sat.Mul(jobs, readies))
			}
			var cores, ce int64
			for c := range w.Cores {
				cores = sat.Add(cores, w.Overlap(&w.Cores[c], t, n, pauses, count).Count)
			}
			if len(w.CopyEngine.Tasks) > 0 {
				ce = w.Overlap(&w.CopyEngine, t, n, pauses, count).Count
			}
			if e.fixedC >= 0 {
				fixed := sat.Mul(n, int64(e.fixedC))
				if count == memory.ChallengeCount {
					cores = fixed
				} else {
					cores = min(cores, fixed)
				}
			}
			switch e.fixedCE {
			case 0:
				ce = 0
			case 1:
				ce = n
			}
			return sat.Add(c0, sat.Add(sat.Mul(k, cores), sat.Mul(sGPU, ce)))
		}
		r.Units[u].Demand = float64(demand(2*h)-demand(h)) / float64(h)
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// windowAccesses is N_p(w) of task i on core u in its window w = R as the
// window form counts it (rta, "Window-dependent contention"), and the
// pauses P(w): its own lines and, per task above it (under explicit
// priorities also per peer of equal priority), ceil((w + J0)/T) jobs'
// lines, with J0 = R − Access for a task that suspends (D − Access for a
// peer) and 0 otherwise, and as many jobs (one more for a suspending task)
// times the times each becomes ready.
func (e *Evaluator) windowAccesses(r *Analysis, u, i int) (n, pauses int64) {
	tr := &r.Tasks[i]
	w := tr.R
	n = tr.Lines
	for _, j := range e.onCore[u] {
		o := &r.Tasks[j]
		if j == i || o.Rank > tr.Rank || (o.Rank == tr.Rank && !tr.Explicit) {
			continue
		}
		var j0 int64
		readies, extra := int64(1), int64(0)
		if o.Suspension > 0 {
			readies, extra = 2, 1
			if o.Rank == tr.Rank {
				j0 = max(0, o.D-o.Memory)
			} else {
				j0 = max(0, o.R-o.Memory)
			}
		}
		jobs := int64(math.MaxInt64)
		if j0 < rta.MaxTime && w < rta.MaxTime {
			jobs = (w + j0 + o.T - 1) / o.T
		}
		n = sat.Add(n, sat.Mul(jobs, o.Lines))
		pauses = sat.Add(pauses, sat.Mul(sat.Add(jobs, extra), readies))
	}
	return n, pauses
}
