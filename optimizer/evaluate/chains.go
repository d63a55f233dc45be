package evaluate

import (
	"slices"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
)

// representative returns the task that stands for task k in a chain under
// the mapping evaluated in r: a GPU task on the GPU is represented by its
// offloading (PRE) task, whose response includes the GPU's; the PRE task of
// a merged GPU task by the merged task; every other task by itself.
func (e *Evaluator) representative(r *Analysis, k int) int {
	ti := &e.tasks[k]
	switch {
	case ti.kind == kindGPU && r.Tasks[k].Role == OnGPU:
		return ti.pre
	case ti.kind == kindOffloading && r.Tasks[k].Role == NotRunning:
		return e.gpus[ti.gpu].task
	}
	return k
}

// chainMember writes into *m task k as a chain analysis sees it under the
// mapping evaluated in r (see representative): period, offset, release
// jitter, best- and worst-case response time, deadline, and Unbounded with
// the verdict when its response time is not a sound bound; for a task on a
// CPU core, the core (Unit, the unit's index + 1), its priority rank there
// and whether it suspends (asynchronous offloading), which order its hops
// to the chain's other tasks of that core (package chains, "Same-core
// hops": every core is scheduled by preemptive fixed priorities, and a
// task reads its inputs when it starts and writes its outputs when it
// finishes).
//
// A LET task (configs.Task.LET) that meets its deadline reads at its release
// and writes exactly at the end of its period: it is a member with
// BCRT = BCET = WCRT = T (and deadline T) and no unit, which the implicit
// analysis then treats exactly as LET (package chains, "Model"), so a chain
// may mix LET and implicit tasks.
//
// It clears *m and sets the fields one by one: in the search's inner loop this is cheaper than
// returning the struct and appending it, or assigning a composite literal,
// which the compiler builds in a temporary and copies.
func (e *Evaluator) chainMember(r *Analysis, k int, m *chains.Member) {
	rep := e.representative(r, k)
	t := &r.Tasks[rep]
	*m = chains.Member{}
	m.Name, m.Period, m.Offset, m.Deadline = t.Name, t.T, t.Offset, t.D
	switch {
	case !t.Verdict.Bounded():
		m.Unbounded, m.Why = true, t.Verdict.String()
	case e.tasks[rep].let && t.R <= t.D:
		// A LET task reads at its release and writes at the end of its
		// period (its logical execution time), whatever its response: it
		// reads by WCRT − BCET = 0 after its release.
		m.BCRT, m.BCET, m.WCRT, m.Deadline = t.T, t.T, t.T, t.T
	default:
		// TaskResult.BCRT is the job's best-case execution (doc.go, "Best
		// case"): a lower bound on its time from start to finish too. R
		// counts from the arrival and includes the release jitter.
		m.BCRT, m.WCRT = min(t.BCRT, t.R), t.R
		m.BCET, m.Jitter = m.BCRT, min(t.Jitter, t.R)
		if t.Role.OnCPU() {
			m.Unit, m.Rank, m.Suspends = t.Unit+1, t.Rank, t.Role == OffloadAsync
		}
	}
}

// NumChains returns the number of chains of the system (System.Chains).
func (e *Model) NumChains() int { return len(e.chains) }

// ChainMembers writes the members of chain c (System.Chains order) under
// the mapping evaluated in r into buf[:0] and returns it; with a buffer of
// sufficient capacity it does not allocate.
func (e *Evaluator) ChainMembers(r *Analysis, c int, buf []chains.Member) []chains.Member {
	idx := e.chains[c]
	buf = slices.Grow(buf[:0], len(idx))[:len(idx)]
	for i, k := range idx {
		e.chainMember(r, k, &buf[i])
	}
	return buf
}

// ChainObjective converts the configuration's choice of chain latency to
// the chains package's objective (an empty bound is the default,
// any-offset).
func ChainObjective(c configs.ChainLatency) chains.Objective {
	var o chains.Objective
	if c.Paradigm == configs.ParadigmLET {
		o.Paradigm = chains.LET
	}
	switch c.Metric {
	case configs.MetricReactionFromActivation:
		o.Metric = chains.ReactionFromActivation
	case configs.MetricDataAge:
		o.Metric = chains.MaxDataAge
	default:
		o.Metric = chains.MaxReactionTime
	}
	switch c.Bound {
	case configs.BoundSynchronous:
		o.Bound = chains.AtOffsets
	case configs.BoundDavare:
		o.Bound = chains.Davare
	default: // configs.BoundAnyOffset, the default
		o.Bound = chains.AnyOffsets
	}
	return o
}

// ChainResult is the end-to-end latency of one chain under an evaluated
// mapping: every metric under both paradigms, at the model's offsets and
// for any offsets (each analysis, and the least), the minima, the members
// as the analysis saw them, and the worst job chain of the configured
// objective's metric split into its hops.
type ChainResult struct {
	Name string
	// Tasks are the chain's tasks as the system names them; Members are
	// what stands for them under the mapping (see representative).
	Tasks   []string
	Members []chains.Member
	// Units[k] is the unit Members[k] runs on.
	Units    []string
	Analysis chains.Result
	// Objective is the configured latency and Value its value (valid when
	// Status is chains.OK).
	Objective chains.Objective
	Value     int64
	Status    chains.Status
	// Worst is the worst job chain of the objective's paradigm and metric
	// at the model's offsets (job level, whatever the objective's bound;
	// empty when the job-level value has no number).
	Worst chains.Breakdown
}

// AnalyzeChains computes every chain's latencies for the mapping evaluated
// in r and stores them in r.Chains. It allocates (it is for reports and
// the analyze command); the search uses ChainMembers and ChainLatency.
func (e *Evaluator) AnalyzeChains(r *Analysis) []ChainResult {
	obj := ChainObjective(e.cfg.Analysis.ChainLatency)
	opts := chains.Options{Objective: obj}
	r.Chains = r.Chains[:0]
	for c, idx := range e.chains {
		cr := ChainResult{Name: e.cfg.System.Chains[c].Name, Tasks: e.cfg.System.Chains[c].Tasks, Objective: obj}
		cr.Members = e.ChainMembers(r, c, nil)
		for _, k := range idx {
			cr.Units = append(cr.Units, r.Tasks[e.representative(r, k)].UnitName)
		}
		cr.Analysis = chains.Analyze(cr.Members, opts)
		cr.Value, cr.Status = obj.Value(&cr.Analysis)
		if cr.Analysis.Values(obj.Paradigm, chains.AtOffsets).Status == chains.OK {
			cr.Worst, _ = chains.WorstChain(cr.Members, opts, obj.Paradigm, obj.Metric, make([]chains.Hop, 0, len(cr.Members)))
		}
		r.Chains = append(r.Chains, cr)
	}
	r.RequirementReports = e.requirementReports(r)
	return r.Chains
}

// chainObjectives writes the configured latency of every chain for the
// mapping evaluated in r into out (one entry per chain) and returns, per
// chain, whether it has a value (a chain with an unschedulable or unbounded
// member has none). It does not allocate once the evaluator's buffer has
// grown to the longest chain.
func (e *Evaluator) chainObjectives(r *Analysis, out []int64, ok []bool) {
	opts := chains.Options{Objective: e.chainObjective}
	for c := range e.chains {
		e.chainBuf = e.ChainMembers(r, c, e.chainBuf)
		v, st := e.chainPlans[c].Eval(e.chainBuf, opts)
		out[c], ok[c] = v, st == chains.OK
	}
}
