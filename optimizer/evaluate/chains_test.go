package evaluate_test

import (
	"testing"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// TestWATERSSameCoreHop: on the feasible WATERS mapping, CANbus_polling
// (10 ms) and EKF (15 ms) share Core3, CANbus_polling of higher priority,
// so CA-EK-P-DA's hop between them is ordered (package chains, "Same-core
// hops"): under every contention count its implicit maximum reaction time
// is Kloda et al.'s 51.874 ms, not 56.874 ms. By hand, with the jobs
// released at 0: the event arrives just after CANbus_polling@10 reads and
// waits for CANbus_polling@20 (10 ms); EKF@30, released after it, reads its
// value; Planner (Core0) is released every 15 ms, so the first released
// after EKF@30's write (by 30 + R_EKF < 45) is Planner@45; DASM (Core3)
// then takes Planner@45's write (by 45 + R_Planner < 60) at DASM@60, which
// writes by 60 + R_DASM: 10 + 60 − 20 + R_DASM = 50 ms + R_DASM. Every
// other chain is unchanged or lower than with the rule off (every member
// on a unit of its own), and the bound for any offsets is Dürr et al.'s:
// the hop costs max(R_CAN, T_EKF) = 15 ms instead of T_EKF + R_CAN.
func TestWATERSSameCoreHop(t *testing.T) {
	for _, count := range []configs.ContentionCount{configs.ContentionChallenge, configs.ContentionRefined, configs.ContentionRequest} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		e, err := evaluate.NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		a, err := e.FromMapping(feasibleWATERS())
		if err != nil {
			t.Fatal(err)
		}
		r := e.NewAnalysis()
		if err := e.Evaluate(a, r); err != nil {
			t.Fatal(err)
		}
		if !r.Schedulable {
			t.Fatalf("%s: the feasible mapping misses: %v", count, r.Reasons())
		}
		for _, c := range e.AnalyzeChains(r) {
			free := append([]chains.Member(nil), c.Members...)
			for k := range free {
				free[k].Unit = 0
			}
			old := chains.Analyze(free, chains.Options{})
			got := c.Analysis
			for _, x := range []struct {
				what     string
				now, was chains.Values
			}{{"job level", got.Implicit, old.Implicit}, {"any offsets", got.AnyOffset, old.Analyses[chains.Davare2007]}} {
				if x.now.Status != chains.OK || x.now.MaxReactionTime > x.was.MaxReactionTime ||
					x.now.ReactionFromActivation > x.was.ReactionFromActivation || x.now.MaxDataAge > x.was.MaxDataAge {
					t.Errorf("%s: %s, %s: %+v, above the values without the rule %+v", count, c.Name, x.what, x.now, x.was)
				}
			}
			if c.Name != "CA-EK-P-DA" {
				continue
			}
			can, ekf, dasm := c.Members[0], c.Members[1], c.Members[3]
			if can.Unit != ekf.Unit || can.Rank >= ekf.Rank || can.Suspends {
				t.Fatalf("%s: CANbus_polling %+v and EKF %+v: not an ordered hop", count, can, ekf)
			}
			ms := int64(configs.Millisecond)
			if want := 50*ms + dasm.WCRT; got.Implicit.MaxReactionTime != want || old.Implicit.MaxReactionTime != want+5*ms {
				t.Errorf("%s: CA-EK-P-DA reaction time %s (without the rule %s), want %s", count,
					configs.Duration(got.Implicit.MaxReactionTime), configs.Duration(old.Implicit.MaxReactionTime), configs.Duration(want))
			}
			if got.Implicit.MaxReactionTime > 51_874_500_000 { // the 51.874 ms, to its rounding
				t.Errorf("%s: %s exceeds 51.874 ms", count, configs.Duration(got.Implicit.MaxReactionTime))
			}
			dav := old.Analyses[chains.Davare2007].MaxReactionTime
			if got.ReactionBy != chains.Duerr2019 || got.AnyOffset.MaxReactionTime != dav-can.WCRT {
				t.Errorf("%s: any offsets %s by %v, want Dürr's, Davare's %s − R_CAN", count,
					configs.Duration(got.AnyOffset.MaxReactionTime), got.ReactionBy, configs.Duration(dav))
			}
		}
	}
}
