package configs

import "fmt"

// ChainRequirement is a latency requirement of a chain: the chain's
// latency, by Metric under communication analysis.chain_latency.paradigm,
// bounded as Bound says, must not exceed Limit. In YAML it is an entry of
// chains[].max:
//
//	chains:
//	  - name: FL
//	    tasks: [A, B, C]
//	    max: 20ms                                   # reaction-time, any-offset
//	  - name: RL
//	    tasks: [A, B, D]
//	    max:
//	      - {metric: reaction-from-activation, limit: 20ms}
//	      - {metric: data-age, bound: synchronous, limit: 30ms}
//
// A requirement is a constraint of the search: a mapping that misses one is
// infeasible and ranked by how much it misses, like a missed deadline.
type ChainRequirement struct {
	// Name is the model's name for the requirement (Amalthea's constraint
	// name); empty for one written by hand.
	Name string `json:"name,omitempty" yaml:"name,omitempty"`
	// Metric is reaction-time (default: the maximum reaction time, from an
	// outside event), reaction-from-activation or data-age (ChainMetrics).
	Metric ChainMetric `json:"metric,omitempty" yaml:"metric,omitempty"`
	// Bound is any-offset (default: the least bound valid for any release
	// offsets), synchronous (the job-level value with every task released
	// at its model offset, tighter but valid only while the tasks really
	// are released at those offsets; package chains, "Job-level values")
	// or davare (Davare et al.'s bound alone); ChainBounds. CheckedUnder
	// says what a requirement is checked under.
	Bound ChainBound `json:"bound,omitempty" yaml:"bound,omitempty"`
	// Limit is the largest latency allowed.
	Limit Duration `json:"limit" yaml:"limit"`
}

// Requirement defaults.
const (
	DefaultRequirementMetric = MetricReactionTime
	DefaultRequirementBound  = BoundAnyOffset
)

// WithDefaults returns the requirement with its empty fields set to the
// defaults.
func (r ChainRequirement) WithDefaults() ChainRequirement {
	if r.Metric == "" {
		r.Metric = DefaultRequirementMetric
	}
	if r.Bound == "" {
		r.Bound = DefaultRequirementBound
	}
	return r
}

// CheckedUnder returns the communication paradigm ("implicit" or "let")
// and the bound (ChainBounds) that requirement r of chain c of system s is
// checked under with the analysis options a: analysis.requirement_bound
// when set, else the requirement's bound, else the default; under
// analysis.chain_latency.paradigm. A requirement that names no bound on a
// chain of LET tasks is checked under LET at the model's release offsets
// (synchronous): the chain communicates at the LET instants, so its
// latency is the LET value, exact there and independent of the response
// times.
func (r ChainRequirement) CheckedUnder(c *Chain, s *System, a *Analysis) (paradigm ChainParadigm, bound ChainBound) {
	paradigm, bound = a.ChainLatency.Paradigm, r.WithDefaults().Bound
	if paradigm == "" {
		paradigm = ChainParadigms[0]
	}
	allLET := len(c.Tasks) > 0
	for _, name := range c.Tasks {
		if t := s.Task(name); t == nil || !t.LET {
			allLET = false
		}
	}
	switch {
	case a.RequirementBound != "":
		bound = a.RequirementBound
	case allLET && r.Bound == "":
		paradigm, bound = ParadigmLET, BoundSynchronous
	}
	return paradigm, bound
}

// Label names the requirement in reports: its name, or the chain's name
// with the metric.
func (r ChainRequirement) Label(chain string) string {
	if r.Name != "" {
		return r.Name
	}
	return chain + " " + string(r.WithDefaults().Metric)
}

func (r ChainRequirement) validate(where, chain string) error {
	d := r.WithDefaults()
	switch {
	case !known(ChainMetrics, d.Metric):
		return inputErrorf(where+".metric", "%q is not a chain metric (%s) (chain %s)", r.Metric, joinList(optionStrings(ChainMetrics)), chain)
	case !known(ChainBounds, d.Bound):
		return inputErrorf(where+".bound", "%q is not a bound (%s) (chain %s)", r.Bound, joinList(optionStrings(ChainBounds)), chain)
	case r.Limit <= 0:
		return inputErrorf(where+".limit", "must be positive, got %s (chain %s)", r.Limit, chain)
	}
	return nil
}

func joinList(list []string) string {
	s := ""
	for i, x := range list {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

// requirementsHook lets chains[].max be a single duration ("max: 20ms") or a
// single requirement without the list around it.
func requirementsHook(data any) (any, bool, error) {
	switch v := data.(type) {
	case string:
		d, err := ParseDuration(v)
		if err != nil {
			return nil, true, fmt.Errorf("%q is not a latency limit: write a duration (\"20ms\") or a list of {metric, bound, limit}", v)
		}
		return []map[string]any{{"limit": d.String()}}, true, nil
	case map[string]any:
		return []map[string]any{v}, true, nil
	}
	return data, false, nil
}
