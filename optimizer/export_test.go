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
