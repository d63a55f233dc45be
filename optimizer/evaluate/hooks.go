package evaluate

// Hooks are switches for tests: each makes the evaluator, or the search
// that uses it, deliberately incomplete or unsound, so that a test can show
// that it notices. They are all off unless a test sets them (SetHooks);
// Clone and With copy them.
//
// They are set with a function rather than a method, so that they stay off
// the Evaluator's face: the optimizer's tests, in another package, set
// them on the evaluator they give the search, whose every clone keeps
// them; the search reads its own two (NoVariants, NoDecide) once, when it
// builds its problem (HooksOf).
type Hooks struct {
	// PartialByChallenge makes EvaluatePartial and Refutes judge a partial
	// mapping under the challenge count even when the evaluator's count is
	// a refined one: a stricter test than the relaxed one (the challenge
	// count charges every access every other memory user), cheaper, and
	// memoised per core. A partial mapping that passes it passes the
	// relaxed test, so a heuristic that looks for feasible mappings loses
	// no mapping it accepts; but it may reject partial mappings with
	// feasible completions, so a search that must be exact (the exhaustive
	// one) must not use it, and the genetic search's constructions no
	// longer do (on the WATERS model it rejects 12 of the 22 points of the
	// exact front): an unsound cut that the exhaustive search's tests must
	// be able to catch.
	PartialByChallenge bool
	// NoVariants turns the priority-order variants of the search off.
	NoVariants bool
	// JointBroken breaks JointOrders on purpose: each core keeps only its
	// first order that passes the relaxed test.
	JointBroken bool
	// NoDecide turns the exhaustive search's decision of a mapping over
	// its joint orders off.
	NoDecide bool
}

// HooksOf returns the test hooks of e.
func HooksOf(e *Evaluator) Hooks {
	return Hooks{PartialByChallenge: e.partialByChallenge, NoVariants: e.noVariants, JointBroken: e.jointBroken, NoDecide: e.noDecide}
}

// SetHooks sets the test hooks of e, for tests only.
func SetHooks(e *Evaluator, h Hooks) {
	e.testHooks = testHooks{partialByChallenge: h.PartialByChallenge, noVariants: h.NoVariants, jointBroken: h.JointBroken, noDecide: h.NoDecide}
}
