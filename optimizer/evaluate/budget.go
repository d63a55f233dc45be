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
	// they may make; negative, no bound.
	EvaluationsLeft int
	// Analyses made so far, and Steps: the task-level response-time
	// analyses of the order enumerations, charged ⌈Steps/perAnalysis⌉.
	Analyses, Steps int
	perAnalysis     int
}

// Unbounded is the Budget of a caller that counts nothing.
func Unbounded() *Budget { return &Budget{EvaluationsLeft: -1} }

// Cost is what the budget has charged: the whole analyses plus the steps
// in whole analyses.
func (b *Budget) Cost() int {
	per := max(1, b.perAnalysis)
	return b.Analyses + (b.Steps+per-1)/per
}

// bounded reports whether the budget has an allowance.
func (b *Budget) bounded() bool { return b.EvaluationsLeft >= 0 }

// stepsLeft is how many more enumeration steps the allowance pays for (0:
// none; -1: no bound).
func (b *Budget) stepsLeft() int {
	if !b.bounded() {
		return -1
	}
	per := max(1, b.perAnalysis)
	return max(0, (b.EvaluationsLeft-b.Analyses)*per-b.Steps)
}

// Left is how many more whole analyses the allowance pays for, or
// -1 for no bound.
func (b *Budget) Left() int {
	if !b.bounded() {
		return -1
	}
	return max(0, b.EvaluationsLeft-b.Cost())
}
