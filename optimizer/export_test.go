package optimizer

// SetPartialByChallenge makes EvaluatePartial judge partial mappings by the
// challenge count under every count: a deliberately unsound cut for the
// refined counts, with which the exhaustive search's brute-force test must
// fail (TestExhaustiveMatchesBruteForceRefined).
func SetPartialByChallenge(e *Evaluator, on bool) { e.partialByChallenge = on }
