package evaluate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
)

// TestExplicitEqualsDerived: a mapping whose derived priority orders are
// written out as explicit priorities (as mappings/point-N.yaml and
// point-N.amxmi carry them) analyses exactly as it did with the orders
// derived: every task's response time, status and verdict, under the
// challenge, refined and request counts, on random mappings of the
// built-in WATERS model and of small random systems. Without it a point of
// the front would change when written back and analysed again (the
// refined analysis of a derived order started from the selection's bounds,
// of an explicit one from the challenge bounds).
func TestExplicitEqualsDerived(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 19))
	samples := 600
	if testsize.Reduced() {
		samples = 150
	}
	checked, schedulable := 0, 0
	for _, count := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined, configs.ContentionRequest} {
		var cfgs []*configs.Config
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		cfgs = append(cfgs, cfg)
		for range 4 {
			cfgs = append(cfgs, synth.Load(t, synth.SmallYAML(rng, count, configs.PrioritiesOPA)))
		}
		for _, cfg := range cfgs {
			e := evaluator(t, cfg)
			r, rb := e.NewAnalysis(), e.NewAnalysis()
			for range samples {
				a := randomAssignment(e, rng)
				if err := e.Evaluate(a, r); err != nil {
					t.Fatal(err)
				}
				if r.Undecided > 0 {
					continue
				}
				b := e.NewAssignment()
				r.WithPriorities(a, b)
				if err := e.Evaluate(b, rb); err != nil {
					t.Fatal(err)
				}
				checked++
				if r.Schedulable {
					schedulable++
				}
				if r.Schedulable != rb.Schedulable {
					t.Errorf("%s: schedulable %v derived, %v explicit: %+v", count, r.Schedulable, rb.Schedulable, e.Model().Mapping(b))
				}
				for i := range r.Tasks {
					d, x := &r.Tasks[i], &rb.Tasks[i]
					if d.R != x.R || d.Status != x.Status || d.Verdict != x.Verdict {
						t.Errorf("%s: %s: R %d %v %v derived, %d %v %v explicit: %+v", count, d.Name, d.R, d.Status, d.Verdict, x.R, x.Status, x.Verdict, e.Model().Mapping(b))
						break
					}
				}
			}
		}
	}
	t.Logf("%d mappings compared, %d of them schedulable", checked, schedulable)
	if schedulable < checked/50 {
		t.Errorf("only %d of %d mappings schedulable: the comparison covers too few", schedulable, checked)
	}
}
