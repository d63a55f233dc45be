package optimizer

// SetPartialByChallenge makes EvaluatePartial judge partial mappings by the
// challenge count under every count: a deliberately unsound cut for the
// refined counts, with which the exhaustive search's brute-force test must
// fail (TestExhaustiveMatchesBruteForceRefined).
func SetPartialByChallenge(e *Evaluator, on bool) { e.partialByChallenge = on }

// SetPriorityVariants turns the priority-order variants of feasible
// mappings (variants.go) on (the default) or off, so that a test can compare
// a search over derived priorities with a brute force over them.
func SetPriorityVariants(e *Evaluator, on bool) { e.noVariants = !on }

// SetByTask makes the evaluator's analysis iterate over every interferer
// instead of interferer classes (rta.Analyzer.ByTask): the reference that
// TestClassesChangeNothing compares with.
func SetByTask(e *Evaluator, on bool) { e.an.ByTask = on }

// EvaluateScaled evaluates a with the execution demand of the tasks on
// units of kind ("" every kind) and of task (-1 every task) scaled by
// perMille/1000, as Margins' probes do.
func (e *Evaluator) EvaluateScaled(a *Assignment, kind string, task int, perMille int64, r *Result) error {
	return newScaler(e).at(scaling{ppm: perMille * 1000, kind: kind, task: task}).Evaluate(a, r)
}
