package configs

import (
	"strings"
	"testing"
)

// TestRequirementCheckedUnder: the paradigm and bound a requirement is
// checked under, which analyze, optimize and hetmap model all state.
func TestRequirementCheckedUnder(t *testing.T) {
	s := &System{Tasks: []Task{{Name: "A"}, {Name: "B"}, {Name: "L1", LET: true}, {Name: "L2", LET: true}}}
	mixed := &Chain{Name: "AB", Tasks: []string{"A", "L1"}}
	let := &Chain{Name: "LL", Tasks: []string{"L1", "L2"}}
	for _, c := range []struct {
		name     string
		chain    *Chain
		req      ChainRequirement
		a        Analysis
		paradigm ChainParadigm
		bound    ChainBound
	}{
		{"default", mixed, ChainRequirement{}, Analysis{}, "implicit", BoundAnyOffset},
		{"named", mixed, ChainRequirement{Bound: BoundSynchronous}, Analysis{}, "implicit", BoundSynchronous},
		{"davare", mixed, ChainRequirement{Bound: BoundDavare}, Analysis{}, "implicit", BoundDavare},
		{"LET paradigm", mixed, ChainRequirement{}, Analysis{ChainLatency: ChainLatency{Paradigm: "let"}}, "let", BoundAnyOffset},
		// A chain of LET tasks naming no bound: the LET value at the
		// model's offsets; naming one keeps it.
		{"LET chain", let, ChainRequirement{}, Analysis{}, "let", BoundSynchronous},
		{"LET chain, bound named", let, ChainRequirement{Bound: BoundDavare}, Analysis{}, "implicit", BoundDavare},
		// analysis.requirement_bound wins over everything.
		{"override", let, ChainRequirement{Bound: BoundSynchronous}, Analysis{RequirementBound: BoundAnyOffset}, "implicit", BoundAnyOffset},
		{"override mixed", mixed, ChainRequirement{}, Analysis{RequirementBound: BoundDavare}, "implicit", BoundDavare},
	} {
		p, b := c.req.CheckedUnder(c.chain, s, &c.a)
		if p != c.paradigm || b != c.bound {
			t.Errorf("%s: %s, %s; want %s, %s", c.name, p, b, c.paradigm, c.bound)
		}
	}
}

// TestChainBoundDefaults: any-offset is the default bound of the chain
// objectives and of the requirements; the three bounds load, another is
// refused with the list; an objective's name says the bound unless it is
// the default.
func TestChainBoundDefaults(t *testing.T) {
	var a Analysis
	a.Defaults()
	if a.ChainLatency.Bound != BoundAnyOffset || (ChainRequirement{}).WithDefaults().Bound != BoundAnyOffset {
		t.Errorf("default bounds %q, %q", a.ChainLatency.Bound, (ChainRequirement{}).WithDefaults().Bound)
	}
	for _, b := range ChainBounds {
		cl := ChainLatency{Paradigm: "implicit", Metric: "data-age", Bound: b}
		if err := cl.Validate("analysis.chain_latency"); err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
	cl := ChainLatency{Paradigm: "implicit", Metric: "data-age", Bound: "hopeful"}
	if err := cl.Validate("analysis.chain_latency"); err == nil || !strings.Contains(err.Error(), `"hopeful" is not one of any-offset, synchronous, davare`) {
		t.Errorf("unknown bound: %v", err)
	}
	for b, want := range map[ChainBound]string{
		BoundAnyOffset:   "SF-P-DA reaction-time",
		BoundSynchronous: "SF-P-DA reaction-time (synchronous release)",
		BoundDavare:      "SF-P-DA reaction-time davare",
	} {
		o := Objective{Kind: ObjectiveChain, Chain: "SF-P-DA", Paradigm: "implicit", Metric: "reaction-time", Bound: b}
		if got := o.Name(); got != want {
			t.Errorf("%s: name %q, want %q", b, got, want)
		}
	}
	cfg, err := Load(strings.NewReader("model: builtin\n"), "b.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Search.WithDefaults(cfg.System, cfg.Analysis.ChainLatency)
	for _, o := range s.Objectives {
		if o.Bound != BoundAnyOffset {
			t.Errorf("default objective %s: bound %q", o.Name(), o.Bound)
		}
	}
}
