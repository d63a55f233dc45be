package chains

import (
	"fmt"
	"strconv"
	"strings"
)

// Paradigm is the communication semantics.
type Paradigm uint8

const (
	// Implicit communication (the challenge default): read at start, write at
	// completion; bounded by read at release, write at release + WCRT.
	Implicit Paradigm = iota
	// LET: read exactly at release r, write exactly at r + LET interval.
	LET
)

// Metric is one of the three chain latencies.
type Metric uint8

const (
	// MaxReactionTime = ReactionFromActivation + T1 (the default objective).
	MaxReactionTime Metric = iota
	// ReactionFromActivation is the longest forward job chain.
	ReactionFromActivation
	// MaxDataAge is the longest backward job chain.
	MaxDataAge
)

// Bound says which value of a chain an objective takes, and what it
// assumes about the release offsets.
type Bound uint8

const (
	// AtOffsets: job-level values with every member released at its Offset
	// (synchronous release when all offsets are zero).
	AtOffsets Bound = iota
	// AnyOffsets: the least of the bounds valid whatever the release
	// offsets are (Result.AnyOffset).
	AnyOffsets
	// Davare: the bound of Davare et al. alone (Result.Analyses[Davare2007];
	// under LET, Result.AnyOffsetLET), valid for any offsets.
	Davare
)

// Objective selects the number an optimizer minimises for a chain. The zero
// value is implicit communication, maximum reaction time, job-level at the
// members' offsets (synchronous release).
type Objective struct {
	Paradigm Paradigm
	Metric   Metric
	Bound    Bound
}

// Options tunes Analyze and WorstChain. The zero value is the default.
type Options struct {
	// Objective is the value an optimizer minimises (extract it with
	// Objective.Value); Analyze computes every value regardless.
	Objective Objective
	// MaxJobs caps the number of τ1 (and τm) jobs per hyperperiod that the
	// job-level enumeration may visit; 0 means DefaultMaxJobs. Above it the
	// job-level values get TooManyJobs (the values for any offsets stay
	// valid).
	MaxJobs int64
}

// Values returns the value set of a paradigm and bound.
func (r *Result) Values(p Paradigm, b Bound) Values {
	switch {
	case b != AtOffsets && p == LET:
		return r.AnyOffsetLET
	case b == AnyOffsets:
		return r.AnyOffset
	case b == Davare:
		return r.Analyses[Davare2007]
	case p == LET:
		return r.LET
	default:
		return r.Implicit
	}
}

// Value extracts the objective's number from a Result, with the Status of the
// value set it comes from (the number is 0 unless that Status is OK).
func (o Objective) Value(r *Result) (int64, Status) {
	v := r.Values(o.Paradigm, o.Bound)
	return v.Get(o.Metric), v.Status
}

var (
	paradigmNames = [...]string{Implicit: "implicit", LET: "let"}
	metricNames   = [...]string{
		MaxReactionTime:        "reaction-time",
		ReactionFromActivation: "reaction-from-activation",
		MaxDataAge:             "data-age",
	}
	boundNames = [...]string{AtOffsets: "offsets", AnyOffsets: "any-offsets", Davare: "davare"}
)

func name(names []string, i int, typ string) string {
	if i < len(names) {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}

func parse(names []string, s, typ string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("chains: unknown %s %q (want one of %s)", typ, s, strings.Join(names, ", "))
}

// String returns "implicit" or "let".
func (p Paradigm) String() string { return name(paradigmNames[:], int(p), "Paradigm") }

// String returns "reaction-time", "reaction-from-activation" or "data-age".
func (m Metric) String() string { return name(metricNames[:], int(m), "Metric") }

// String returns "offsets", "any-offsets" or "davare".
func (b Bound) String() string { return name(boundNames[:], int(b), "Bound") }

// String returns "paradigm/metric/bound", the form ParseObjective reads.
func (o Objective) String() string {
	return o.Paradigm.String() + "/" + o.Metric.String() + "/" + o.Bound.String()
}

// ParseParadigm reads "implicit" or "let" (case-insensitive).
func ParseParadigm(s string) (Paradigm, error) {
	i, err := parse(paradigmNames[:], s, "paradigm")
	return Paradigm(i), err
}

// ParseMetric reads "reaction-time", "reaction-from-activation" or "data-age".
func ParseMetric(s string) (Metric, error) {
	i, err := parse(metricNames[:], s, "metric")
	return Metric(i), err
}

// ParseBound reads "offsets", "any-offsets" or "davare".
func ParseBound(s string) (Bound, error) {
	i, err := parse(boundNames[:], s, "bound")
	return Bound(i), err
}

// ParseObjective reads "paradigm[/metric[/bound]]"; omitted parts take the
// defaults (reaction-time, offsets).
func ParseObjective(s string) (Objective, error) {
	var o Objective
	parts := strings.Split(s, "/")
	if len(parts) > 3 {
		return o, fmt.Errorf("chains: objective %q has more than three parts", s)
	}
	var err error
	if o.Paradigm, err = ParseParadigm(parts[0]); err != nil {
		return o, err
	}
	if len(parts) > 1 {
		if o.Metric, err = ParseMetric(parts[1]); err != nil {
			return o, err
		}
	}
	if len(parts) > 2 {
		if o.Bound, err = ParseBound(parts[2]); err != nil {
			return o, err
		}
	}
	return o, nil
}
