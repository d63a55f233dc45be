package evaluate

import "github.com/hetmap/hetmap/rta"

// Options are the settings of one evaluator that a search gives the
// evaluators of its workers, once, when it makes them (With), rather than
// switching them on an evaluator in use. NewEvaluator's evaluator, and its
// clones, iterate a miss to the fixed point (rta.LimitNone), analyse in
// full and are never stopped: what a report and the command line need.
type Options struct {
	// Limit is how far the response time of a task that misses its
	// deadline is iterated (rta.Limit). rta.LimitNone iterates to the fixed
	// point so that a search can rank infeasible mappings by how much they
	// miss; rta.LimitDeadline (the zero value) stops at the deadline and
	// is faster on infeasible mappings, and rta.LimitRank (the search's
	// workers) goes only as far as ranking needs. Under these two, the
	// response times of a mapping that misses a deadline serve for the
	// verdicts and the rank only: under the refined counts they may be
	// those of the rounds that assumed every deadline met, which that
	// mapping refutes (refineOnce); it is unschedulable all the same (a
	// task that misses there misses from the unconditional start too), but
	// fewer of its tasks may show a miss.
	Limit rta.Limit
	// RefuteFirst tries the relaxed test before the full analysis of a
	// mapping (see Evaluate) in an evaluator whose limit is rta.LimitRank
	// or rta.LimitDeadline: a search's, which needs of an infeasible
	// mapping its verdict and a rank only. The verdicts do not change
	// (TestRefuteFirstKeepsVerdicts); the response times and the violation
	// of an infeasible mapping may.
	RefuteFirst bool
	// Stop, when set, says that the run the evaluator serves is
	// interrupted: PriorityVariants and JointOrders look at it between
	// their analyses and stop, incomplete. Nil: never.
	Stop func() bool
}

// With returns an evaluator for the same configuration with the options
// o: a clone (Clone) with its own scratch, the memo on, and the test hooks
// of e (SetHooks).
func (e *Evaluator) With(o Options) *Evaluator {
	c := &Evaluator{compiled: e.compiled, testHooks: e.testHooks, maxLimit: o.Limit, refuteFirst: o.RefuteFirst, stop: o.Stop}
	c.initScratch()
	return c
}
