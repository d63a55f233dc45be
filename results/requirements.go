package results

import (
	"fmt"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// RequirementJSON is one chain latency requirement under a mapping: the
// latency by its metric under every bound (null where the chain has none),
// the bound it is checked against, and the verdict with the margin.
type RequirementJSON struct {
	Chain  string              `json:"chain"`
	Name   string              `json:"name"`
	Metric configs.ChainMetric `json:"metric"`
	Bound  configs.ChainBound  `json:"bound_checked"`
	// Paradigm is the communication the requirement is checked under:
	// implicit, or let for a chain of LET tasks.
	Paradigm      configs.ChainParadigm `json:"paradigm"`
	LimitNs       int64                 `json:"limit_ns"`
	SynchronousNs *int64                `json:"synchronous_ns"`
	// AnyOffsetNs is the least bound for any offsets and AnyOffsetBy the
	// analysis it comes from (davare, duerr, per-hop).
	AnyOffsetNs *int64 `json:"any_offset_ns"`
	AnyOffsetBy string `json:"any_offset_by,omitempty"`
	DavareNs    *int64 `json:"davare_ns"`
	Met         bool   `json:"met"`
	// MarginNs is limit − value under the checked bound, negative when
	// missed; null when the chain has no latency (Reason says why).
	MarginNs *int64 `json:"margin_ns"`
	Reason   string `json:"reason,omitempty"`
}

// NewRequirementsJSON converts the requirement reports of an analysed
// mapping (after evaluate.Evaluator.AnalyzeChains).
func NewRequirementsJSON(r *evaluate.Analysis) []RequirementJSON {
	out := make([]RequirementJSON, 0, len(r.RequirementReports))
	for _, q := range r.RequirementReports {
		j := RequirementJSON{Chain: q.Chain, Name: q.Name, Metric: q.Metric, Bound: q.Bound, Paradigm: q.Paradigm, LimitNs: ns(q.Limit), Met: q.Met, Reason: q.Why}
		if q.SynchronousOK {
			v := ns(q.Synchronous)
			j.SynchronousNs = &v
		}
		if q.AnyOffsetOK {
			v := ns(q.AnyOffset)
			j.AnyOffsetNs, j.AnyOffsetBy = &v, q.AnyOffsetBy.String()
		}
		if q.DavareOK {
			v := ns(q.Davare)
			j.DavareNs = &v
		}
		if q.HasValue {
			// A margin is rounded toward the requirement being missed.
			v := -ns(-q.Margin)
			j.MarginNs = &v
		}
		out = append(out, j)
	}
	return out
}

// writeRequirementTable writes one line per chain latency requirement: the
// latency under synchronous release, the least bound for any offsets (with
// the analysis that gives it) and Davare's bound, the bound checked, the
// limit and the verdict with its margin.
func writeRequirementTable(p *printer, r *evaluate.Analysis) {
	if len(r.RequirementReports) == 0 {
		return
	}
	p.f("\nChain latency requirements (checked against the bound named; synchronous release holds only while every task is released at its model offset, any-offset and Davare's bound for any offsets)\n")
	tw := p.table()
	fmt.Fprintln(tw, "  requirement\tchain\tmetric\tsynchronous\tany-offset\tDavare\tchecked\tlimit\tverdict\t")
	missed := 0
	for _, q := range r.RequirementReports {
		val := func(ok bool, v int64) string {
			if !ok {
				return "-"
			}
			return FormatDuration(configs.Duration(v))
		}
		verdict := "met, margin " + FormatDuration(configs.Duration(q.Margin))
		switch {
		case !q.HasValue:
			verdict = "MISSED: no latency (" + q.Why + ")"
		case !q.Met:
			verdict = "MISSED by " + FormatDuration(configs.Duration(-q.Margin))
		}
		if !q.Met {
			missed++
		}
		checked := q.Bound.String()
		if q.Paradigm == configs.ParadigmLET {
			checked = "LET " + checked
		}
		anyOffset := val(q.AnyOffsetOK, q.AnyOffset)
		if q.AnyOffsetOK {
			anyOffset += " (" + q.AnyOffsetBy.String() + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", q.Name, q.Chain, q.Metric, val(q.SynchronousOK, q.Synchronous), anyOffset,
			val(q.DavareOK, q.Davare), checked, FormatDuration(configs.Duration(q.Limit)), verdict)
	}
	p.flush(tw)
	// Say where the bounds disagree: met under one, missed under another.
	for _, q := range r.RequirementReports {
		if q.Paradigm == configs.ParadigmLET {
			p.f("  %s: checked under LET communication (its chain's tasks are LET tasks: their latency is exact at the model's release offsets)\n", q.Name)
			continue
		}
		var met, missed []string
		for _, b := range []struct {
			ok    bool
			v     int64
			words string
		}{{q.SynchronousOK, q.Synchronous, "synchronous release"}, {q.AnyOffsetOK, q.AnyOffset, "the least bound for any offsets"},
			{q.DavareOK, q.Davare, "Davare's bound"}} {
			if !b.ok {
				continue
			}
			w := b.words + " (" + FormatDuration(configs.Duration(b.v)) + ")"
			if b.v <= q.Limit {
				met = append(met, w)
			} else {
				missed = append(missed, w)
			}
		}
		if len(met) > 0 && len(missed) > 0 {
			p.f("  %s: met under %s, missed under %s\n", q.Name, strings.Join(met, " and "), strings.Join(missed, " and "))
		}
	}
	if missed > 0 {
		p.f("  %d of %d requirement(s) missed: the mapping is infeasible\n", missed, len(r.RequirementReports))
	}
}

// feasibleMeans says what a feasible mapping of the system meets.
func feasibleMeans(s *configs.System) string {
	for _, c := range s.Chains {
		if len(c.Max) > 0 {
			return "every deadline and every chain latency requirement"
		}
	}
	return "every deadline"
}
