package evaluate

import (
	"fmt"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta/sat"
)

// Chain latency requirements (configs.ChainRequirement: Amalthea's
// EventChainLatencyConstraint and ProcessChainRequirement, YAML
// chains[].max) are constraints of a mapping, like deadlines: Evaluate
// checks each one under its bound and paradigm (configs.ChainRequirement.
// CheckedUnder: by default the least bound valid for any release offsets,
// package chains, "Bounds for any offsets"), records it in Analysis.Requirements,
// and adds the excess of a missed one to Analysis.Violation (in ps, like the
// excess of a missed deadline; a chain without a latency adds its limit),
// so that the search ranks a mapping that misses a requirement as
// infeasible, by how much.

// requirementSpec is one requirement as the evaluator checks it.
type requirementSpec struct {
	chain int // index into Evaluator.chains
	cfg   configs.ChainRequirement
	label string
	obj   chains.Objective
	limit int64
}

// RequirementResult is a chain latency requirement under a mapping.
type RequirementResult struct {
	// Chain is the chain's name, Name the requirement's label
	// (configs.ChainRequirement.Label).
	Chain, Name string
	// Metric and Bound are the latency checked (configs.ChainMetrics and
	// ChainBounds); Limit is the largest allowed value (ps). Paradigm is
	// the communication it is checked under: implicit, or let for a
	// chain of LET tasks (and under analysis.chain_latency.paradigm let).
	Metric   configs.ChainMetric
	Bound    configs.ChainBound
	Paradigm configs.ChainParadigm
	Limit    int64
	// HasValue: the chain has a latency under Bound (its members are
	// bounded and schedulable); Value is that latency (ps) and Status the
	// chains package's status when it has none. Checked is false when a
	// partial evaluation could not check the requirement (a member not yet
	// placed).
	Checked  bool
	HasValue bool
	Value    int64
	Status   chains.Status
	// Met: Value ≤ Limit. Margin = Limit − Value, negative by as much as
	// the requirement is missed (valid with HasValue).
	Met    bool
	Margin int64
}

func (e *Evaluator) initRequirements(s *configs.System) {
	for c := range s.Chains {
		ch := &s.Chains[c]
		for _, req := range ch.Max {
			d := req.WithDefaults()
			var paradigm configs.ChainParadigm
			paradigm, d.Bound = req.CheckedUnder(ch, s, &e.cfg.Analysis)
			obj := ChainObjective(configs.ChainLatency{Paradigm: paradigm, Metric: d.Metric, Bound: d.Bound})
			e.reqs = append(e.reqs, requirementSpec{chain: c, cfg: d, label: req.Label(ch.Name), obj: obj, limit: int64(d.Limit)})
		}
	}
}

func (e *Evaluator) newRequirementResults() []RequirementResult {
	out := make([]RequirementResult, len(e.reqs))
	for k, q := range e.reqs {
		paradigm := configs.ParadigmImplicit
		if q.obj.Paradigm == chains.LET {
			paradigm = configs.ParadigmLET
		}
		out[k] = RequirementResult{Chain: e.cfg.System.Chains[q.chain].Name, Name: q.label, Metric: q.cfg.Metric, Bound: q.cfg.Bound, Paradigm: paradigm, Limit: q.limit}
	}
	return out
}

// NumRequirements returns the number of chain latency requirements.
func (e *Model) NumRequirements() int { return len(e.reqs) }

// checkRequirements evaluates the requirements for the mapping evaluated
// in r (called at the end of Evaluate; it does not allocate once the
// evaluator's member buffer has grown to the longest chain).
func (e *Evaluator) checkRequirements(r *Analysis) {
	r.RequirementsMet = true
	for k := range e.reqs {
		q := &e.reqs[k]
		rr := &r.Requirements[k]
		rr.Checked, rr.HasValue, rr.Value, rr.Met, rr.Margin, rr.Status = false, false, 0, true, 0, chains.OK
		if r.partial && !e.chainPlaced(r, q.chain) {
			continue // a member is not placed yet: nothing to check
		}
		rr.Checked = true
		e.chainBuf = e.ChainMembers(r, q.chain, e.chainBuf)
		v, st := e.chainPlans[q.chain].Eval(e.chainBuf, chains.Options{Objective: q.obj})
		rr.Status = st
		var excess int64
		if st == chains.OK {
			rr.HasValue, rr.Value, rr.Margin = true, v, q.limit-v
			rr.Met = v <= q.limit
			excess = max(0, v-q.limit)
		} else {
			rr.Met, excess = false, q.limit
		}
		if !rr.Met {
			r.RequirementsMet = false
			r.Violation = sat.Add(r.Violation, max(excess, 1))
		}
	}
}

// chainPlaced reports whether every member of chain c runs under the
// (partial) mapping in r.
func (e *Evaluator) chainPlaced(r *Analysis, c int) bool {
	for _, k := range e.chains[c] {
		if t := &r.Tasks[e.representative(r, k)]; t.Role == NotRunning || t.Verdict == Absent {
			return false
		}
	}
	return true
}

// RequirementReport is a requirement with the chain's latency under every
// bound, for reports: the synchronous-release value (valid while every task
// is released at its model offset), the least bound for any offsets (and
// the analysis that gives it) and Davare's bound (both valid for any
// offsets); the requirement is checked against the one its Bound names.
type RequirementReport struct {
	RequirementResult
	// Synchronous, AnyOffset and Davare are the chain's latency by the
	// requirement's metric under each bound; the OK flags say whether it
	// exists. AnyOffsetBy names the analysis AnyOffset comes from
	// (chains.Analysis).
	Synchronous, AnyOffset, Davare       int64
	SynchronousOK, AnyOffsetOK, DavareOK bool
	AnyOffsetBy                          chains.Analysis
	// Why says why the checked bound has no value.
	Why string
}

// requirementReports explains the requirements of the mapping evaluated in
// r under every bound. It allocates: it is for reports and the analyze
// command.
func (e *Evaluator) requirementReports(r *Analysis) []RequirementReport {
	out := make([]RequirementReport, len(e.reqs))
	for k, q := range e.reqs {
		rep := RequirementReport{RequirementResult: r.Requirements[k]}
		members := e.ChainMembers(r, q.chain, nil)
		a := chains.Analyze(members, chains.Options{Objective: q.obj})
		value := func(b chains.Bound) (int64, bool) {
			o := q.obj
			o.Bound = b
			v, st := o.Value(&a)
			return v, st == chains.OK
		}
		rep.Synchronous, rep.SynchronousOK = value(chains.AtOffsets)
		rep.AnyOffset, rep.AnyOffsetOK = value(chains.AnyOffsets)
		rep.Davare, rep.DavareOK = value(chains.Davare)
		rep.AnyOffsetBy = a.ReactionBy
		if q.obj.Metric == chains.MaxDataAge {
			rep.AnyOffsetBy = a.DataAgeBy
		}
		if !rep.HasValue {
			rep.Why = a.Reason()
			if a.Status == chains.MemberUnschedulable && a.Member >= 0 {
				m := members[a.Member]
				d := m.Deadline
				if d == 0 {
					d = m.Period
				}
				rep.Why = fmt.Sprintf("member %s is not schedulable (R = %s > D = %s)", m.Name, configs.Duration(m.WCRT), configs.Duration(d))
			}
		}
		out[k] = rep
	}
	return out
}

// BoundWords says in words what a bound (configs.ChainBounds) assumes, for
// reasons and reports.
func BoundWords(bound configs.ChainBound) string {
	switch bound {
	case configs.BoundSynchronous:
		return "synchronous release"
	case configs.BoundDavare:
		return "Davare's bound, any release offsets"
	}
	return "the least bound for any release offsets"
}

// requirementReasons explains the missed requirements, for Reasons.
func (r *Analysis) requirementReasons() []string {
	var out []string
	for _, q := range r.Requirements {
		if !q.Checked || q.Met {
			continue
		}
		bound := BoundWords(q.Bound)
		if q.Paradigm == configs.ParadigmLET {
			bound = "LET communication, " + bound
		}
		if !q.HasValue {
			out = append(out, fmt.Sprintf("chain %s: requirement %s (%s ≤ %s) cannot hold: the chain has no latency (%s)", q.Chain, q.Name, q.Metric, fmtDur(q.Limit), q.Status))
			continue
		}
		out = append(out, fmt.Sprintf("chain %s: requirement %s missed: %s = %s (%s) > %s (by %s)", q.Chain, q.Name, q.Metric, fmtDur(q.Value), bound, fmtDur(q.Limit), fmtDur(-q.Margin)))
	}
	return out
}
