package optimizer

import (
	"fmt"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// Exactness is what a search proved about its front, as gonum's optimize
// carries a Status: one value that every writer renders, so that the
// console, the report, manifest.json, front.json and a sweep's summary
// say the same.
type Exactness int

const (
	// Heuristic: a genetic search's front, the best mappings it met; no
	// claim that no other mapping is better.
	Heuristic Exactness = iota
	// Exact: the exhaustive search ran to its end and decided every
	// mapping under every priority order: the front is the exact Pareto
	// front over mappings and priority orders (or, with no feasible point,
	// it is proven that no mapping meets every deadline and requirement).
	Exact
	// NotExact: the exhaustive search ran to its end, but some mappings or
	// priority orders stayed undecided (Proof.Reasons, Proof.Undecided).
	NotExact
	// Stopped: the search was interrupted before its end.
	Stopped
)

// String returns the word a reviewer quotes: "exact", "not exact",
// "heuristic" or "interrupted" (also the token of manifest.json,
// front.json and summary.csv).
func (x Exactness) String() string {
	switch x {
	case Exact:
		return "exact"
	case NotExact:
		return "not exact"
	case Stopped:
		return "interrupted"
	}
	return "heuristic"
}

// ParseExactness reads the token String writes.
func ParseExactness(s string) (Exactness, error) {
	for _, x := range []Exactness{Heuristic, Exact, NotExact, Stopped} {
		if x.String() == s {
			return x, nil
		}
	}
	return Heuristic, fmt.Errorf("unknown exactness %q (exact, not exact, heuristic or interrupted)", s)
}

// maxNamedUndecided bounds the undecided mappings a Proof names; the
// count says how many there were.
const maxNamedUndecided = 20

// Proof is what a search's front is proven to be, and why not more.
type Proof struct {
	Exactness Exactness `json:"exactness"`
	// Algorithm is the algorithm that ran (nsga2 or exhaustive), and
	// Selection, for the genetic search, how it chose its survivors
	// (configs.SelectionCrowding: NSGA-II; configs.SelectionReference:
	// NSGA-III).
	Algorithm configs.Algorithm `json:"algorithm"`
	Selection configs.Selection `json:"selection,omitempty"`
	// Reasons say why the front is not exact (empty for an exact one).
	Reasons []string `json:"reasons,omitempty"`
	// Undecided names the mappings the exhaustive search could not
	// decide (at most 20, in a stable order; UndecidedCount says how many
	// there were), each by unit as CompactUnits writes it.
	Undecided      []string `json:"undecided_mappings,omitempty"`
	UndecidedCount int      `json:"undecided_count,omitempty"`
	// ThinnedFrom is, when the exact front was thinned to
	// search.max_front (Outcome.FrontFound), how many points it had: the
	// front reported is then a part of it (Outcome.Epsilon).
	ThinnedFrom int `json:"thinned_from,omitempty"`
}

// Statement is the proof in one sentence: what it claims and why not more.
// feasible says whether the search found a feasible mapping.
func (p Proof) Statement(feasible bool) string {
	switch p.Exactness {
	case Exact:
		if !feasible {
			return "exact: the exhaustive search proves that no mapping meets every deadline and requirement, under any priority order"
		}
		if p.ThinnedFrom > 0 {
			return fmt.Sprintf("exact: every distinct mapping, with every priority order that can pass, was enumerated or proven unschedulable; the exact front's %d points are thinned to those shown (search.max_front), every other within the stated ε of one of them", p.ThinnedFrom)
		}
		return "exact: every distinct mapping, with every priority order that can pass, was enumerated or proven unschedulable"
	case NotExact:
		return "not exact: " + strings.Join(p.Reasons, "; ")
	case Stopped:
		return "not exact: the search was interrupted before its end"
	}
	method := "NSGA-II"
	if p.Selection == configs.SelectionReference {
		method = "NSGA-III"
	}
	return "not exact: a genetic search (" + method + ") returns the best mappings it met, with no proof that none is better"
}

// MarshalText writes the token String returns.
func (x Exactness) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// UnmarshalText reads the token String returns.
func (x *Exactness) UnmarshalText(b []byte) error {
	v, err := ParseExactness(string(b))
	if err != nil {
		return err
	}
	*x = v
	return nil
}
