package optimizer

import (
	"time"

	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// SetPartialByChallenge makes EvaluatePartial judge partial mappings by the
// challenge count under every count: a deliberately unsound cut for the
// refined counts, with which the exhaustive search's brute-force test must
// fail (TestExhaustiveMatchesBruteForceRefined).
func SetPartialByChallenge(e *evaluate.Evaluator, on bool) {
	h := evaluate.HooksOf(e)
	h.PartialByChallenge = on
	evaluate.SetHooks(e, h)
}

// SetPriorityVariants turns the priority-order variants of feasible
// mappings (evaluate/variants.go) on (the default) or off, so that a test can compare
// a search over derived priorities with a brute force over them.
func SetPriorityVariants(e *evaluate.Evaluator, on bool) {
	h := evaluate.HooksOf(e)
	h.NoVariants = !on
	evaluate.SetHooks(e, h)
}

// SetFrontGrace sets how long an interrupted run still analyses its front
// (frontGrace), and returns what restores it.
func SetFrontGrace(d time.Duration) (restore func()) {
	old := frontGrace
	frontGrace = d
	return func() { frontGrace = old }
}

// SetMaxVariantAnalyses sets what the genetic search allows the
// priority-order variants of one feasible mapping (maxVariantAnalyses),
// and returns what restores it.
func SetMaxVariantAnalyses(n int) (restore func()) {
	old := maxVariantAnalyses
	maxVariantAnalyses = n
	return func() { maxVariantAnalyses = old }
}
