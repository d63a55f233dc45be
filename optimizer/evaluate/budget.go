package evaluate

// Budget charges the analyses that the priority-order variants and joint
// orders of one mapping make against an allowance, in the unit
// search.max_evaluations counts: one analysis is one evaluation of a whole
// mapping. The enumerations of a core's priority orders analyse one task at
// one priority level at a time; they are charged one analysis for every
// len(tasks) such steps (rounded up), which is what one evaluation of a
// mapping makes at the least (every task analysed once).
//
// The charge depends only on the mapping and the allowance, never on what an
// evaluator remembers, so a search that counts it stops at the same point
// with any number of workers (moo.Evaluation.Cost).
type Budget struct {
	// EvaluationsLeft is what the search leaves the variants: the analyses
	// they may make, unless Unlimited (moo.NoLimit: no bound).
	EvaluationsLeft int
	Unlimited       bool
	// Analyses made so far, and Steps: the task-level response-time
	// analyses of the order enumerations, charged ⌈Steps/perAnalysis⌉.
	Analyses, Steps int
	perAnalysis     int
}

// Unbounded is the Budget of a caller that counts nothing.
func Unbounded() *Budget { return &Budget{Unlimited: true} }

// Cost is what the budget has charged: the whole analyses plus the steps
// in whole analyses.
func (b *Budget) Cost() int {
	per := max(1, b.perAnalysis)
	return b.Analyses + (b.Steps+per-1)/per
}

// stepsLeft is how many more enumeration steps the budget pays for (0:
// none), and whether any number (Unlimited; steps is then 0, which
// rta.Analyzer.FeasibleOrdersWithin reads as no bound).
func (b *Budget) stepsLeft() (steps int, unlimited bool) {
	if b.Unlimited {
		return 0, true
	}
	per := max(1, b.perAnalysis)
	return max(0, (b.EvaluationsLeft-b.Analyses)*per-b.Steps), false
}

// Left is how many more whole analyses the budget pays for (0: none), and
// whether any number (Unlimited; evaluations is then 0).
func (b *Budget) Left() (evaluations int, unlimited bool) {
	if b.Unlimited {
		return 0, true
	}
	return max(0, b.EvaluationsLeft-b.Cost()), false
}
