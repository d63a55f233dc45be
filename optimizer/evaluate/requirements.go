package evaluate

import (
	"fmt"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/sat"
)

// Chain latency requirements (configs.ChainRequirement: Amalthea's
// EventChainLatencyConstraint and ProcessChainRequirement, YAML
// chains[].max) are constraints of a mapping, like deadlines: Evaluate
// checks each one under its bound (Davare's by default, valid for any
// release offsets; or the synchronous-release value; package chains) with the
// paradigm of analysis.chain_latency, records it in Analysis.Requirements,
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
	// the communication it is checked under: "implicit", or "let" for a
	// chain of LET tasks (and under analysis.chain_latency.paradigm let).
	Metric, Bound, Paradigm string
	Limit                   int64
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
	p := chains.Implicit
	if e.cfg.Analysis.ChainLatency.Paradigm == "let" {
		p = chains.LET
	}
	for c, ch := range s.Chains {
		// A chain of LET tasks communicates at the LET instants: its
		// latency is the LET value, exact at the model's release offsets
		// and independent of the response times, so a requirement that
		// names no bound is checked there, not under Davare's
		// implicit-communication bound.
		allLET := len(ch.Tasks) > 0
		for _, name := range ch.Tasks {
			if t := s.Task(name); t == nil || !t.LET {
				allLET = false
			}
		}
		for _, req := range ch.Max {
			d := req.WithDefaults()
			cp := p
			if b := e.cfg.Analysis.RequirementBound; b != "" {
				d.Bound = b
			} else if allLET && req.Bound == "" {
				cp, d.Bound = chains.LET, "synchronous"
			}
			obj := ChainObjective(configs.ChainLatency{Metric: d.Metric, Bound: d.Bound})
			obj.Paradigm = cp
			e.reqs = append(e.reqs, requirementSpec{chain: c, cfg: d, label: req.Label(ch.Name), obj: obj, limit: int64(d.Limit)})
		}
	}
}

func (e *Evaluator) newRequirementResults() []RequirementResult {
	out := make([]RequirementResult, len(e.reqs))
	for k, q := range e.reqs {
		paradigm := "implicit"
		if q.obj.Paradigm == chains.LET {
			paradigm = "let"
		}
		out[k] = RequirementResult{Chain: e.cfg.System.Chains[q.chain].Name, Name: q.label, Metric: q.cfg.Metric, Bound: q.cfg.Bound, Paradigm: paradigm, Limit: q.limit}
	}
	return out
}

// NumRequirements returns the number of chain latency requirements.
func (e *Evaluator) NumRequirements() int { return len(e.reqs) }

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
		if t := &r.Tasks[e.Representative(r, k)]; t.Role == NotRunning || t.Verdict == Absent {
			return false
		}
	}
	return true
}

// RequirementReport is a requirement with the chain's latency under both
// bounds, for reports: the synchronous-release value (valid while every task
// is released at its model offset) and Davare's bound (valid for any
// offsets); the requirement is checked against the one its Bound names.
type RequirementReport struct {
	RequirementResult
	// Synchronous and Davare are the chain's latency by the requirement's
	// metric under each bound; the OK flags say whether it exists.
	Synchronous, Davare     int64
	SynchronousOK, DavareOK bool
	// Why says why the checked bound has no value.
	Why string
}

// RequirementReports explains the requirements of the mapping evaluated in
// r with both bounds. It allocates: it is for reports and the analyze
// command.
func (e *Evaluator) RequirementReports(r *Analysis) []RequirementReport {
	out := make([]RequirementReport, len(e.reqs))
	for k, q := range e.reqs {
		rep := RequirementReport{RequirementResult: r.Requirements[k]}
		members := e.ChainMembers(r, q.chain, nil)
		a := chains.Analyze(members, chains.Options{Objective: q.obj})
		sync := q.obj
		sync.Bound = chains.AtOffsets
		dav := q.obj
		dav.Bound = chains.Davare
		if v, st := sync.Value(&a); st == chains.OK {
			rep.Synchronous, rep.SynchronousOK = v, true
		}
		if v, st := dav.Value(&a); st == chains.OK {
			rep.Davare, rep.DavareOK = v, true
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

// requirementReasons explains the missed requirements, for Reasons.
func (r *Analysis) requirementReasons() []string {
	var out []string
	for _, q := range r.Requirements {
		if !q.Checked || q.Met {
			continue
		}
		bound := "Davare's bound, any release offsets"
		if q.Bound == "synchronous" {
			bound = "synchronous release"
		}
		if q.Paradigm == "let" {
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
