package results

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// feasibleAnalysis evaluates the feasible WATERS mapping (README,
// synth.FeasibleWATERS) under cfg, chains and requirements included.
func feasibleAnalysis(t *testing.T, cfg *configs.Config) *evaluate.Analysis {
	t.Helper()
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.FromMapping(synth.FeasibleWATERS())
	if err != nil {
		t.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	e.AnalyzeChains(r)
	return r
}

// TestChainsShown: analyze shows, per chain, every analysis (the job level
// at the model's offsets, Davare, Dürr, per hop, LET) with the minima, the
// value the objectives use marked, the ordered hop, and the worst job
// chain; the JSON carries the same numbers.
func TestChainsShown(t *testing.T) {
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	r := feasibleAnalysis(t, cfg)
	s, got := writeAnalysisBoth(t, cfg, r)
	var ca *ChainJSON
	for i := range got.Chains {
		if got.Chains[i].Name == "CA-EK-P-DA" {
			ca = &got.Chains[i]
		}
	}
	if ca == nil {
		t.Fatal("no CA-EK-P-DA in the JSON")
	}
	// CANbus_polling ⇒ EKF on Core3 (the hop ordered), the others not.
	for k, m := range ca.Members {
		if m.Ordered != (k == 1) {
			t.Errorf("member %d %+v: hop ordered %v", k, m, m.Ordered)
		}
	}
	if ca.Implicit == nil || ca.Implicit.MaxReactionTimeNs != 51_874_075 || ca.Implicit.MinReactionTimeNs == nil ||
		*ca.Implicit.MinReactionTimeNs <= 0 || *ca.Implicit.MinReactionTimeNs > ca.Implicit.MaxReactionTimeNs {
		t.Errorf("CA-EK-P-DA job level %+v", ca.Implicit)
	}
	if a := ca.Analyses; a == nil || a.ReactionBy != "duerr" || a.Duerr.MaxReactionTimeNs >= a.Davare.MaxReactionTimeNs ||
		ca.AnyOffset.MaxReactionTimeNs != a.Duerr.MaxReactionTimeNs || *ca.DavareNs != a.Davare.MaxReactionTimeNs {
		t.Errorf("CA-EK-P-DA any offsets %+v by %+v", ca.AnyOffset, ca.Analyses)
	}
	if ca.Objective != "implicit/reaction-time/any-offset" || *ca.ObjectiveNs != ca.AnyOffset.MaxReactionTimeNs ||
		*ca.ObjectiveMinNs != *ca.AnyOffset.MinReactionTimeNs || len(ca.WorstChain) != 4 {
		t.Errorf("CA-EK-P-DA objective %s = %d (min %d), worst chain %+v", ca.Objective, *ca.ObjectiveNs, *ca.ObjectiveMinNs, ca.WorstChain)
	}
	for _, want := range []string{
		"CANbus_polling (Core3) ⇒ EKF (Core3) → Planner (Core0) → DASM (Core3)",
		"Maximum reaction time (min – max)",
		"Maximum data age (min – max)",
		"synchronous  ", "any offsets", "Davare", "Dürr", "per hop", "LET synchronous", "LET any offsets",
		"– 51.8741 ms ", "69.2067 ms *", // the job level, and Dürr's value marked as the one used
		"CA-EK-P-DA = 51.8741 ms: 10 ms sampling + CANbus_polling 20 ms→22.4773 ms, (+7.5227 ms) EKF 30 ms→39.1427 ms",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the text lacks %q", want)
		}
	}
	// Under the synchronous bound the job-level value is the one marked.
	cfg.Analysis.ChainLatency.Bound = configs.BoundSynchronous
	r = feasibleAnalysis(t, cfg)
	if s, _ := writeAnalysisBoth(t, cfg, r); !strings.Contains(s, "– 51.8741 ms *") || strings.Contains(s, "69.2067 ms *") {
		t.Errorf("synchronous objective: the job-level value is not the one marked:\n%s", s)
	}
}

// TestFormatLow: a lower bound is shown rounded down to the digits shown.
func TestFormatLow(t *testing.T) {
	for _, c := range []struct {
		ps   int64
		want string
	}{
		{24_224_099_999, "24.224 ms"},  // 24.2240999… ms: rounded down, not up to 24.2241
		{24_224_150_000, "24.2241 ms"}, // 24.22415 ms
		{1_500_000, "1.5 µs"},
		{0, "0 ms"},
	} {
		if got := FormatLow(c.ps); got != c.want {
			t.Errorf("FormatLow(%d) = %q, want %q", c.ps, got, c.want)
		}
	}
}

// TestRequirementBounds: a requirement is shown under every bound, the
// least for any offsets with the analysis that gives it, checked under the
// default any-offset; where the bounds disagree, the text says so; hetmap
// model names the bound (and the communication) each is checked under.
func TestRequirementBounds(t *testing.T) {
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	ms := configs.Millisecond
	for i := range cfg.System.Chains {
		switch c := &cfg.System.Chains[i]; c.Name {
		case "CA-EK-P-DA":
			// 51.874 ms synchronous, 69.207 any offsets, 71.684 Davare.
			c.Max = []configs.ChainRequirement{{Name: "tight", Limit: 70 * ms}, {Name: "by-davare", Bound: configs.BoundDavare, Limit: 70 * ms}}
		case "CA-P-DA":
			c.Max = []configs.ChainRequirement{{Name: "sync", Bound: configs.BoundSynchronous, Limit: 45 * ms}}
		}
	}
	r := feasibleAnalysis(t, cfg)
	var text bytes.Buffer
	if err := WriteAnalysisText(&text, cfg, "feasible", r); err != nil {
		t.Fatal(err)
	}
	s := text.String()
	for _, want := range []string{
		"synchronous  any-offset",
		"69.2067 ms (duerr)",
		"tight: met under synchronous release (51.8741 ms) and the least bound for any offsets (69.2067 ms), missed under Davare's bound (71.684 ms)",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the text lacks %q:\n%s", want, s)
		}
	}
	reqs := NewRequirementsJSON(r)
	if len(reqs) != 3 || !reqs[0].Met || reqs[0].Bound != configs.BoundAnyOffset || reqs[0].AnyOffsetBy != chains.Duerr2019.String() ||
		reqs[1].Met || reqs[1].Bound != configs.BoundDavare || !reqs[2].Met {
		t.Errorf("requirements %+v", reqs)
	}
	// hetmap model: the bound each is checked under; LET chains under LET.
	for _, name := range []string{"CANbus_polling", "Planner", "DASM"} {
		cfg.System.Task(name).LET = true
	}
	cfg.System.Chains[3].Max = []configs.ChainRequirement{{Name: "let", Limit: 60 * ms}}
	var model bytes.Buffer
	if err := WriteModelText(&model, cfg); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"requires reaction-time ≤ 70 ms (any-offset bound): tight",
		"requires reaction-time ≤ 70 ms (davare bound): by-davare",
		"requires reaction-time ≤ 60 ms (LET communication, synchronous bound): let",
	} {
		if !strings.Contains(model.String(), want) {
			t.Errorf("hetmap model lacks %q:\n%s", want, model.String())
		}
	}
	cfg.Analysis.RequirementBound = configs.BoundSynchronous
	model.Reset()
	if err := WriteModelText(&model, cfg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(model.String(), "requires reaction-time ≤ 60 ms (synchronous bound): let") {
		t.Errorf("analysis.requirement_bound not named:\n%s", model.String())
	}
}
