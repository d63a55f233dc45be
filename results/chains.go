package results

import (
	"fmt"
	"strings"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// ChainValuesJSON are a chain's three latency metrics under one paradigm.
type ChainValuesJSON struct {
	ReactionFromActivationNs int64 `json:"reaction_from_activation_ns"`
	MaxReactionTimeNs        int64 `json:"max_reaction_time_ns"`
	MaxDataAgeNs             int64 `json:"max_data_age_ns"`
}

// ChainMemberJSON is a chain member under the mapping: the task the chain
// names, the task that stands for it (a GPU task on the GPU is represented
// by its offloading task), and its unit.
type ChainMemberJSON struct {
	Task      string `json:"task"`
	StandsFor string `json:"represented_by"`
	Unit      string `json:"unit"`
}

// ChainHopJSON is one job of the worst job chain of the objective.
type ChainHopJSON struct {
	Task      string `json:"task"`
	ReleaseNs int64  `json:"release_ns"`
	WriteNs   int64  `json:"write_ns"`
	WaitNs    int64  `json:"wait_ns"`
}

// ChainJSON is one chain's end-to-end latency. A chain with an
// unschedulable or unbounded member has no latency: Implicit, LET and
// DavareNs are null and Reason says why.
type ChainJSON struct {
	Name     string            `json:"name"`
	Members  []ChainMemberJSON `json:"members"`
	Status   string            `json:"status"`
	Reason   string            `json:"reason,omitempty"`
	Implicit *ChainValuesJSON  `json:"implicit"`
	LET      *ChainValuesJSON  `json:"let"`
	// Assumes says what the job-level values (Implicit, LET) assume:
	// synchronous release; DavareNs holds for any offsets.
	Assumes string `json:"job_level_values_assume"`
	// DavareNs is Davare et al.'s bound on the maximum reaction time
	// (implicit communication, any offsets).
	DavareNs *int64 `json:"davare_ns"`
	// Objective names the latency the optimizer minimises; ObjectiveNs is
	// its value and WorstChain its worst job chain, hop by hop.
	Objective   string         `json:"objective"`
	ObjectiveNs *int64         `json:"objective_ns"`
	WorstChain  []ChainHopJSON `json:"worst_chain,omitempty"`
}

// SynchronousRelease says what a job-level chain value assumes
// (package chains, "Job-level values"; for any offsets, Davare et al.'s
// bound, DAC 2007).
const SynchronousRelease = "synchronous release: every task released at its model offset; with other offsets a chain can take longer, and davare_ns is the bound for any offsets"

func valuesJSON(v chains.Values) *ChainValuesJSON {
	if v.Status != chains.OK {
		return nil
	}
	return &ChainValuesJSON{ns(v.ReactionFromActivation), ns(v.MaxReactionTime), ns(v.MaxDataAge)}
}

// objectiveName writes an objective as the configuration names it.
func objectiveName(o chains.Objective) string {
	bound := "synchronous"
	if o.Bound == chains.Davare {
		bound = "davare"
	}
	return o.Paradigm.String() + "/" + o.Metric.String() + "/" + bound
}

// NewChainsJSON converts the chain results of an evaluated mapping.
func NewChainsJSON(r *evaluate.Analysis) []ChainJSON {
	out := make([]ChainJSON, 0, len(r.Chains))
	for _, c := range r.Chains {
		cj := ChainJSON{Name: c.Name, Status: c.Analysis.Status.String(), Objective: objectiveName(c.Objective), Assumes: SynchronousRelease}
		if c.Analysis.Status != chains.OK {
			cj.Reason = ChainReason(c)
		}
		for k, t := range c.Tasks {
			cj.Members = append(cj.Members, ChainMemberJSON{Task: t, StandsFor: c.Members[k].Name, Unit: c.Units[k]})
		}
		cj.Implicit, cj.LET = valuesJSON(c.Analysis.Implicit), valuesJSON(c.Analysis.LET)
		if c.Analysis.Analyses[chains.Davare2007].Status == chains.OK {
			d := ns(c.Analysis.Analyses[chains.Davare2007].MaxReactionTime)
			cj.DavareNs = &d
		}
		if c.Status == chains.OK {
			v := ns(c.Value)
			cj.ObjectiveNs = &v
		}
		for _, h := range c.Worst.Hops {
			cj.WorstChain = append(cj.WorstChain, ChainHopJSON{Task: c.Members[h.Member].Name, ReleaseNs: ns(h.Release), WriteNs: ns(h.Write), WaitNs: ns(h.Wait)})
		}
		out = append(out, cj)
	}
	return out
}

// ChainReason says why a chain has no latency, with times in units (the
// chains package is unit-agnostic and writes raw numbers).
func ChainReason(c evaluate.ChainResult) string {
	a := &c.Analysis
	if a.Status == chains.MemberUnschedulable && a.Member >= 0 && a.Member < len(c.Members) {
		m := c.Members[a.Member]
		d := m.Deadline
		if d == 0 {
			d = m.Period
		}
		return fmt.Sprintf("member %d (%s) is not schedulable: R = %s > D = %s", a.Member+1, m.Name,
			FormatDuration(configs.Duration(m.WCRT)), FormatDuration(configs.Duration(d)))
	}
	return a.Reason()
}

func latency(v chains.Values, get func(chains.Values) int64) string {
	if v.Status != chains.OK {
		return "-"
	}
	return FormatDuration(configs.Duration(get(v)))
}

// writeChainTable writes one line per chain: its members with their units,
// the three metrics under implicit communication and LET (job-level, all
// tasks released at their offsets), Davare's bound, and the worst job chain
// of the configured objective split into its hops.
func writeChainTable(p *printer, r *evaluate.Analysis) {
	if len(r.Chains) == 0 {
		return
	}
	p.f("\nEnd-to-end latencies. The implicit and LET values are job-level and assume synchronous release (every task\nreleased at its offset): exact for LET, a bound for implicit. Davare's bound holds for any release offsets.\n")
	tw := p.table()
	fmt.Fprintln(tw, "  chain\tmembers (unit)\timplicit: reaction from act.\treaction time\tdata age\tLET: reaction from act.\treaction time\tdata age\tDavare reaction\t")
	react := func(v chains.Values) int64 { return v.ReactionFromActivation }
	reaction := func(v chains.Values) int64 { return v.MaxReactionTime }
	age := func(v chains.Values) int64 { return v.MaxDataAge }
	var notes []string
	for _, c := range r.Chains {
		var ms []string
		for k, t := range c.Tasks {
			m := t
			if c.Members[k].Name != t {
				m += "=" + c.Members[k].Name
			}
			ms = append(ms, m+" ("+c.Units[k]+")")
		}
		a := &c.Analysis
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.Name, strings.Join(ms, " → "),
			latency(a.Implicit, react), latency(a.Implicit, reaction), latency(a.Implicit, age),
			latency(a.LET, react), latency(a.LET, reaction), latency(a.LET, age), latency(a.Analyses[chains.Davare2007], reaction))
		if a.Status != chains.OK {
			notes = append(notes, c.Name+": no latency: "+ChainReason(c))
		}
	}
	p.flush(tw)
	if len(notes) > 0 {
		for _, n := range notes {
			p.f("  %s\n", n)
		}
	}
	anyOK := false
	for _, c := range r.Chains {
		anyOK = anyOK || c.Status == chains.OK
	}
	if !anyOK {
		return
	}
	obj := r.Chains[0].Objective
	p.f("\nWorst job chain of the optimizer's objective (%s), hop by hop: release → write (wait before the hop)\n", objectiveName(obj))
	for _, c := range r.Chains {
		if c.Status != chains.OK {
			continue
		}
		if len(c.Worst.Hops) == 0 {
			p.f("  %s: %s\n", c.Name, FormatDuration(configs.Duration(c.Value)))
			continue
		}
		var hops []string
		for _, h := range c.Worst.Hops {
			hop := fmt.Sprintf("%s %s→%s", c.Members[h.Member].Name, FormatDuration(configs.Duration(h.Release)), FormatDuration(configs.Duration(h.Write)))
			if h.Wait > 0 {
				hop = fmt.Sprintf("(+%s) ", FormatDuration(configs.Duration(h.Wait))) + hop
			}
			hops = append(hops, hop)
		}
		lead := ""
		if c.Worst.Lead > 0 {
			lead = FormatDuration(configs.Duration(c.Worst.Lead)) + " sampling + "
		}
		p.f("  %s = %s: %s%s\n", c.Name, FormatDuration(configs.Duration(c.Value)), lead, strings.Join(hops, ", "))
	}
}
