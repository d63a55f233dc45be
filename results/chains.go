package results

import (
	"fmt"
	"strings"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// ChainValuesJSON are a chain's latencies under one paradigm and one
// bound: the three maxima and lower bounds on the two minima (absent in
// files written before hetmap computed them).
type ChainValuesJSON struct {
	ReactionFromActivationNs int64  `json:"reaction_from_activation_ns"`
	MaxReactionTimeNs        int64  `json:"max_reaction_time_ns"`
	MaxDataAgeNs             int64  `json:"max_data_age_ns"`
	MinReactionTimeNs        *int64 `json:"min_reaction_time_ns,omitempty"`
	MinDataAgeNs             *int64 `json:"min_data_age_ns,omitempty"`
}

// ChainAnalysesJSON are a chain's bounds for any release offsets under
// implicit communication, one per analysis (package chains, "Bounds for
// any offsets"), and the analyses the least comes from.
type ChainAnalysesJSON struct {
	Davare     *ChainValuesJSON `json:"davare"`
	Duerr      *ChainValuesJSON `json:"duerr"`
	PerHop     *ChainValuesJSON `json:"per_hop"`
	ReactionBy string           `json:"reaction_by"`
	DataAgeBy  string           `json:"data_age_by"`
}

// ChainMemberJSON is a chain member under the mapping: the task the chain
// names, the task that stands for it (a GPU task on the GPU is represented
// by its offloading task), and its unit. Ordered marks a member whose hop
// from the previous member is ordered by priority on one core (package
// chains, "Same-core hops").
type ChainMemberJSON struct {
	Task      string `json:"task"`
	StandsFor string `json:"represented_by"`
	Unit      string `json:"unit"`
	Ordered   bool   `json:"hop_ordered,omitempty"`
}

// ChainHopJSON is one job of the worst job chain of the objective's metric
// at the model's offsets. ReadNs is when it reads in the bound's model: its
// release, or on an ordered hop the previous job's write when later (absent
// in files written before: the release).
type ChainHopJSON struct {
	Task      string `json:"task"`
	ReleaseNs int64  `json:"release_ns"`
	ReadNs    int64  `json:"read_ns,omitempty"`
	WriteNs   int64  `json:"write_ns"`
	WaitNs    int64  `json:"wait_ns"`
}

// Read is ReadNs, or the release where a file has none.
func (h ChainHopJSON) Read() int64 { return max(h.ReadNs, h.ReleaseNs) }

// ChainJSON is one chain's end-to-end latency. A chain with an
// unschedulable or unbounded member has no latency: the values are null
// and Reason says why.
type ChainJSON struct {
	Name    string            `json:"name"`
	Members []ChainMemberJSON `json:"members"`
	Status  string            `json:"status"`
	Reason  string            `json:"reason,omitempty"`
	// Implicit and LET are the job-level values, every task released at
	// its model offset (Assumes).
	Implicit *ChainValuesJSON `json:"implicit"`
	LET      *ChainValuesJSON `json:"let"`
	// Assumes says what the job-level values (Implicit, LET) assume:
	// synchronous release; the values for any offsets hold whatever the
	// offsets.
	Assumes string `json:"job_level_values_assume"`
	// AnyOffset and AnyOffsetLET hold for any release offsets: under
	// implicit communication the least of Analyses, under LET Σ (T + LET).
	AnyOffset    *ChainValuesJSON   `json:"any_offset,omitempty"`
	AnyOffsetLET *ChainValuesJSON   `json:"any_offset_let,omitempty"`
	Analyses     *ChainAnalysesJSON `json:"any_offset_analyses,omitempty"`
	// DavareNs is Davare et al.'s bound on the maximum reaction time
	// (implicit communication, any offsets), as Analyses.Davare has it.
	DavareNs *int64 `json:"davare_ns"`
	// Objective names the latency the optimizer minimises; ObjectiveNs is
	// its value and ObjectiveMinNs the lower bound on the minimum that goes
	// with it (same paradigm, bound and metric); WorstChain is the worst job
	// chain of its metric at the model's offsets, hop by hop.
	Objective      string         `json:"objective"`
	ObjectiveNs    *int64         `json:"objective_ns"`
	ObjectiveMinNs *int64         `json:"objective_min_ns,omitempty"`
	WorstChain     []ChainHopJSON `json:"worst_chain,omitempty"`
}

// SynchronousRelease says what a job-level chain value assumes
// (package chains, "Job-level values"; for any offsets, "Bounds for any
// offsets").
const SynchronousRelease = "synchronous release: every task released at its model offset; with other offsets a chain can take longer, and any_offset holds for any offsets"

// floorNs is ns rounded down: what a lower bound is written as.
func floorNs(ps int64) int64 { return -ns(-ps) }

func valuesJSON(v chains.Values) *ChainValuesJSON {
	if v.Status != chains.OK {
		return nil
	}
	lo, age := floorNs(v.MinReactionTime), floorNs(v.MinDataAge)
	return &ChainValuesJSON{ns(v.ReactionFromActivation), ns(v.MaxReactionTime), ns(v.MaxDataAge), &lo, &age}
}

// boundName is the configuration's name of a chains.Bound.
func boundName(b chains.Bound) configs.ChainBound {
	switch b {
	case chains.AtOffsets:
		return configs.BoundSynchronous
	case chains.Davare:
		return configs.BoundDavare
	}
	return configs.BoundAnyOffset
}

// objectiveName writes an objective as the configuration names it.
func objectiveName(o chains.Objective) string {
	return o.Paradigm.String() + "/" + o.Metric.String() + "/" + boundName(o.Bound).String()
}

// NewChainsJSON converts the chain results of an evaluated mapping.
func NewChainsJSON(r *evaluate.Analysis) []ChainJSON {
	out := make([]ChainJSON, 0, len(r.Chains))
	for _, c := range r.Chains {
		a := &c.Analysis
		cj := ChainJSON{Name: c.Name, Status: a.Status.String(), Objective: objectiveName(c.Objective), Assumes: SynchronousRelease}
		if a.Status != chains.OK {
			cj.Reason = ChainReason(c)
		}
		for k, t := range c.Tasks {
			m := ChainMemberJSON{Task: t, StandsFor: c.Members[k].Name, Unit: c.Units[k]}
			m.Ordered = k > 0 && chains.Ordered(&c.Members[k-1], &c.Members[k])
			cj.Members = append(cj.Members, m)
		}
		cj.Implicit, cj.LET = valuesJSON(a.Implicit), valuesJSON(a.LET)
		cj.AnyOffset, cj.AnyOffsetLET = valuesJSON(a.AnyOffset), valuesJSON(a.AnyOffsetLET)
		if a.AnyOffset.Status == chains.OK {
			cj.Analyses = &ChainAnalysesJSON{Davare: valuesJSON(a.Analyses[chains.Davare2007]), Duerr: valuesJSON(a.Analyses[chains.Duerr2019]),
				PerHop: valuesJSON(a.Analyses[chains.PerHop]), ReactionBy: a.ReactionBy.String(), DataAgeBy: a.DataAgeBy.String()}
			d := ns(a.Analyses[chains.Davare2007].MaxReactionTime)
			cj.DavareNs = &d
		}
		if c.Status == chains.OK {
			v, lo := ns(c.Value), floorNs(a.Values(c.Objective.Paradigm, c.Objective.Bound).Min(c.Objective.Metric))
			cj.ObjectiveNs, cj.ObjectiveMinNs = &v, &lo
		}
		for _, h := range c.Worst.Hops {
			cj.WorstChain = append(cj.WorstChain, ChainHopJSON{Task: c.Members[h.Member].Name, ReleaseNs: ns(h.Release), ReadNs: ns(h.Read), WriteNs: ns(h.Write), WaitNs: ns(h.Wait)})
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

// FormatLow writes a lower bound for people: FormatDuration of d rounded
// down to the last digit FormatDuration shows (four decimals of its unit),
// so that the number shown is never above the bound.
func FormatLow(d int64) string {
	if d > 0 {
		res := int64(1)
		for _, u := range []configs.Duration{configs.Millisecond, configs.Microsecond, configs.Nanosecond} {
			if configs.Duration(d) >= u {
				res = int64(u) / 10000
				break
			}
		}
		if configs.Duration(d) >= 10*configs.Second {
			res = int64(configs.Second) / 10000
		}
		d -= d % max(res, 1)
	}
	return FormatDuration(configs.Duration(d))
}

// chainMetric is one table of writeChainTable: a metric, its maximum and
// the lower bound that goes with it.
type chainMetric struct {
	title string
	m     chains.Metric
}

// writeChainTable writes the chains with their members and units (an
// ordered hop marked), then one table per metric (the maximum reaction
// time, the maximum data age, and the reaction from activation when it is
// the objective's metric): per chain the job-level value at the model's
// offsets and the least bound for any offsets with their minima, each
// analysis for any offsets, and the same under LET, the value the
// objectives use marked; then the worst job chain of the objective's
// metric at the model's offsets, split into its hops.
func writeChainTable(p *printer, r *evaluate.Analysis) {
	if len(r.Chains) == 0 {
		return
	}
	obj := r.Chains[0].Objective
	intro := "End-to-end latencies. Synchronous: job level, every task released at its model offset (exact for LET, " +
		"a bound for implicit communication). Any offsets: bounds whatever the release offsets, the least of Davare et al. " +
		"(DAC 2007), Dürr et al. (EMSOFT 2019) and per hop. ⇒: a hop between two tasks of one core, ordered by their " +
		"priorities (the consumer reads after the producer wrote; Kloda et al., ETFA 2018). min – max: a lower bound on " +
		"the shortest latency and the bound on the longest. *: the value the objectives use (" + objectiveName(obj) + ")."
	p.f("\n%s\n", strings.Join(WrapWords(intro, TextWidth), "\n"))
	tw := p.table()
	fmt.Fprintln(tw, "  chain\tmembers (unit)\t")
	var notes []string
	for _, c := range r.Chains {
		var ms []string
		for k, t := range c.Tasks {
			m := t
			if c.Members[k].Name != t {
				m += "=" + c.Members[k].Name
			}
			m += " (" + c.Units[k] + ")"
			switch {
			case k == 0:
			case chains.Ordered(&c.Members[k-1], &c.Members[k]):
				m = "⇒ " + m
			default:
				m = "→ " + m
			}
			ms = append(ms, m)
		}
		fmt.Fprintf(tw, "  %s\t%s\t\n", c.Name, strings.Join(ms, " "))
		if c.Analysis.Status != chains.OK {
			notes = append(notes, c.Name+": no latency: "+ChainReason(c))
		}
	}
	p.flush(tw)
	for _, n := range notes {
		p.f("  %s\n", n)
	}
	some := false
	for _, c := range r.Chains {
		some = some || c.Analysis.AnyOffset.Status == chains.OK || c.Analysis.Implicit.Status == chains.OK
	}
	if !some {
		return // no chain has a latency: the notes say why
	}
	metrics := []chainMetric{{"Maximum reaction time", chains.MaxReactionTime}, {"Maximum data age", chains.MaxDataAge}}
	if obj.Metric == chains.ReactionFromActivation {
		metrics = append(metrics, chainMetric{"Reaction from activation", chains.ReactionFromActivation})
	}
	for _, mt := range metrics {
		writeChainMetric(p, r, mt)
	}
	writeWorstChains(p, r)
}

// writeChainMetric writes writeChainTable's table of one metric.
func writeChainMetric(p *printer, r *evaluate.Analysis, mt chainMetric) {
	p.f("\n%s (min – max)\n", mt.title)
	tw := p.table()
	fmt.Fprintln(tw, "  chain\tsynchronous\tany offsets\tDavare\tDürr\tper hop\tLET synchronous\tLET any offsets\t")
	for _, c := range r.Chains {
		a := &c.Analysis
		used := func(p chains.Paradigm, b chains.Bound, an chains.Analysis) bool {
			o := c.Objective
			if o.Metric != mt.m || o.Paradigm != p {
				return false
			}
			switch {
			case p == chains.LET:
				return (o.Bound == chains.AtOffsets) == (b == chains.AtOffsets)
			case o.Bound == chains.AnyOffsets && b == chains.AnyOffsets:
				by := a.ReactionBy
				if mt.m == chains.MaxDataAge {
					by = a.DataAgeBy
				}
				return an == by
			case o.Bound == chains.Davare:
				return b == chains.AnyOffsets && an == chains.Davare2007
			}
			return o.Bound == b && b == chains.AtOffsets
		}
		mark := func(s string, u bool) string {
			if u {
				return s + " *"
			}
			return s
		}
		span := func(v chains.Values, u bool) string {
			if v.Status != chains.OK {
				return "-"
			}
			lo := v.Min(mt.m)
			if mt.m == chains.ReactionFromActivation {
				lo = v.MinReactionTime
			}
			return mark(FormatLow(lo)+" – "+FormatDuration(configs.Duration(v.Get(mt.m))), u)
		}
		one := func(an chains.Analysis) string {
			v := a.Analyses[an]
			if v.Status != chains.OK {
				return "-"
			}
			return mark(FormatDuration(configs.Duration(v.Get(mt.m))), used(chains.Implicit, chains.AnyOffsets, an))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.Name,
			span(a.Implicit, used(chains.Implicit, chains.AtOffsets, 0)), span(a.AnyOffset, false),
			one(chains.Davare2007), one(chains.Duerr2019), one(chains.PerHop),
			span(a.LET, used(chains.LET, chains.AtOffsets, 0)), span(a.AnyOffsetLET, used(chains.LET, chains.AnyOffsets, 0)))
	}
	p.flush(tw)
}

// writeWorstChains writes the worst job chain of the objective's metric at
// the model's offsets, hop by hop.
func writeWorstChains(p *printer, r *evaluate.Analysis) {
	anyOK := false
	for _, c := range r.Chains {
		anyOK = anyOK || len(c.Worst.Hops) > 0
	}
	if !anyOK {
		return
	}
	obj := r.Chains[0].Objective
	head := fmt.Sprintf("Worst job chain of the objective's metric (%s/%s) at the model's offsets (synchronous release), "+
		"hop by hop: release → write (wait before the hop; where a job reads after its release, when)", obj.Paradigm, obj.Metric)
	p.f("\n%s\n", strings.Join(WrapWords(head, TextWidth), "\n"))
	for _, c := range r.Chains {
		if len(c.Worst.Hops) == 0 {
			continue
		}
		var hops []string
		for _, h := range c.Worst.Hops {
			hop := fmt.Sprintf("%s %s→%s", c.Members[h.Member].Name, FormatDuration(configs.Duration(h.Release)), FormatDuration(configs.Duration(h.Write)))
			if h.Read > h.Release {
				hop += " (reads at " + FormatDuration(configs.Duration(h.Read)) + ")"
			}
			if h.Wait > 0 {
				hop = fmt.Sprintf("(+%s) ", FormatDuration(configs.Duration(h.Wait))) + hop
			}
			hops = append(hops, hop)
		}
		lead := ""
		if c.Worst.Lead > 0 {
			lead = FormatDuration(configs.Duration(c.Worst.Lead)) + " sampling + "
		}
		p.f("  %s = %s: %s%s\n", c.Name, FormatDuration(configs.Duration(c.Worst.Length)), lead, strings.Join(hops, ", "))
	}
}
