package optimizer

import (
	"fmt"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// Options are the run-time choices of a search; the zero value takes the
// configuration's search settings.
type Options struct {
	// Algorithm, Seed and Workers override the configuration when set
	// (Workers when positive; a negative Workers is an error).
	Algorithm configs.Algorithm
	Seed      *int64
	Workers   int
	// Progress, if set, is called as the search goes (see moo.Settings),
	// and through the stages around it, whose reports name them in
	// moo.Progress.Stage (StageChoose, StageConstruct, moo.StageEstimate,
	// StageFront). The stages' reports may come from other goroutines than
	// Run's, but one call at a time.
	Progress func(moo.Progress)
	// NoMargins skips the margins of the front's points, which Run
	// otherwise computes for every one (a bisection each: report work
	// after the search, which a caller that reads only the front, such as
	// a benchmark of the search, need not pay for).
	NoMargins bool
	// Checkpoint, when not nil, saves the genetic search's state as it
	// goes and may resume it from a saved one (see Checkpoint).
	Checkpoint *Checkpoint
}

// Point is a mapping of the front with its full evaluation.
type Point struct {
	Mapping    configs.Mapping
	Assignment *evaluate.Assignment
	Analysis   *evaluate.Analysis // with Chains and every core's Demand analysed; Windows for the first DetailPoints points (EvaluateForReport analyses one in full)
	// Objectives are the values minimised, in the objectives' order
	// (chain latencies in ms).
	Objectives []float64
	Violation  float64 // ms; 0 for a feasible point
}

// Outcome is what a search found.
type Outcome struct {
	Search     configs.Search // the settings in force
	Objectives []string       // the objectives' names
	// Status says why the search stopped; moo.Interrupted when its context
	// ended it, and then Front (or LeastViolating) is what it had found.
	Status moo.Status
	// Feasible: some mapping meets every deadline. Front is then the
	// Pareto front (exact where Proof says so); otherwise LeastViolating
	// lists the mappings that miss the least, and where Proof is Exact
	// that is a proof that no feasible mapping exists.
	Feasible       bool
	Front          []Point
	LeastViolating []Point
	// Epsilon, when not nil, is what the front's bound
	// (search.max_front) costs, per objective in its units: every feasible
	// mapping the search met (for an exhaustive search, every point of the
	// exact front, and so every feasible mapping) has a point of Front that
	// is less than Epsilon[k] worse on every objective k. nil when Front
	// holds every non-dominated mapping met.
	Epsilon []float64
	// FrontFound is, when an exhaustive search's exact front was thinned
	// to search.max_front, how many points it had; 0 otherwise.
	FrontFound  int
	Evaluations int
	// FeasibleEvaluations counts the evaluations of feasible mappings;
	// with the exhaustive algorithm, the distinct feasible mappings it
	// visited.
	FeasibleEvaluations int
	Pruned              int
	Generations         int
	Wall                time.Duration
	// LeastViolatingBy says which algorithm found LeastViolating: the
	// exhaustive search cuts partial mappings without completing them, so
	// when it proves that none is feasible a short genetic search supplies
	// complete mappings to show.
	LeastViolatingBy configs.Algorithm

	// FeasibleMappings is the number of distinct feasible mappings the
	// search met (up to interchangeable cores; priorities derived). For a
	// complete exhaustive search it is the number that exist.
	FeasibleMappings int
	// ConstructionEvaluations is the part of Evaluations that the genetic
	// search's initial constructions spent (complete and partial mappings
	// analysed); they count in the evaluation budget too.
	ConstructionEvaluations int
	// Analyses is what search.max_evaluations bounds: Evaluations plus the
	// analyses that the priority-order variants and joint orders of the
	// feasible mappings cost (evaluate.Budget).
	Analyses int
	// Variants is the number of priority-order variants of feasible
	// mappings evaluated (variants.go); VariantsIncomplete the number of
	// feasible mappings whose variants were not all enumerated (a core of
	// more than 8 tasks, or a limit).
	Variants, VariantsIncomplete int
	// Undecided is the number of evaluations in which a core's exact
	// priority search stopped undecided (rta.Analyzer.Decided).
	Undecided int
	// Proof says what the front is proven to be (exact, not exact and
	// why, heuristic, interrupted): the one statement every writer
	// renders.
	Proof Proof
	// undecided describes the mappings the exhaustive search left
	// undecided (decide), sorted.
	undecided []string
	// AlgorithmChoice says, when the configuration left the algorithm to
	// auto, which one ran and why.
	AlgorithmChoice string
	// InterruptedIn names the stage in which the run found its context
	// ended: StageConstruct or StageSearch (Status is then moo.Interrupted,
	// and the front is what the search had found), StageFront,
	// StageMargins (the search had ended: its front is complete but for
	// the points Dropped, and the points given their margins so far have
	// them), StageWriting (set by the writer). Empty for a run that ran to
	// its end.
	InterruptedIn string
	// Margins counts the front's points whose margin was computed: all
	// unless the run was interrupted (or asked for none).
	Margins int
	// Dropped counts the points of the front found that an interrupted
	// run did not analyse within its grace, and so does not report.
	Dropped int
}

// Interrupted reports whether the run's context ended it before its end:
// the search before its own criteria did (Status moo.Interrupted), or a
// later stage (InterruptedIn).
func (o *Outcome) Interrupted() bool { return o.Status == moo.Interrupted || o.InterruptedIn != "" }

// StageSearch and StageWriting name, in Outcome.InterruptedIn, the search
// itself and the writing of its files (results/runwrite).
const (
	StageSearch  = "searching"
	StageWriting = "writing the run's files"
)

// Exact reports whether the front is proven exact (Proof).
func (o *Outcome) Exact() bool { return o.Proof.Exactness == Exact }

// proof states what the run proved: a genetic search nothing, an
// interrupted one nothing; a complete exhaustive search an exact front
// unless something stayed undecided, which the reasons name.
func (p *Problem) proof(e *evaluate.Evaluator, st moo.Status, out *Outcome) Proof {
	pr := Proof{Algorithm: p.search.Algorithm}
	if p.search.Algorithm != configs.AlgorithmExhaustive {
		pr.Selection = out.Search.Selection
	}
	switch {
	case st == moo.Interrupted || out.Dropped > 0:
		pr.Exactness = Stopped
		return pr
	case p.search.Algorithm != configs.AlgorithmExhaustive:
		pr.Exactness = Heuristic
		return pr
	case st != moo.Exhausted:
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("the enumeration stopped at search.max_evaluations (%d) before its end, so the mappings it did not reach are undecided", p.search.MaxEvaluations))
	}
	if n := len(out.undecided); n > 0 {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("%d mapping(s) stay undecided: they miss a deadline under their derived priorities, and more combinations of the cores' priority orders pass the relaxed test than search.max_joint_orders (%d) allows, or a core has more than %d tasks", n, p.search.MaxJointOrders, evaluate.MaxVariantTasks))
		pr.UndecidedCount = n
		pr.Undecided = out.undecided[:min(n, maxNamedUndecided)]
	}
	if out.VariantsIncomplete > 0 {
		pr.Reasons = append(pr.Reasons, fmt.Sprintf("%d feasible mapping(s) have a core of more than %d tasks or more priority orders than search.max_joint_orders (%d) allows, so not every order that can change an objective was tried", out.VariantsIncomplete, evaluate.MaxVariantTasks, p.search.MaxJointOrders))
	}
	if e.Model().Activated() {
		// JointOrders varies the activators' orders too, but no brute-force
		// test checks the claim for activated tasks (activation.go).
		pr.Reasons = append(pr.Reasons, "tasks activated by tasks of other cores couple the cores' priority orders, and the joint search over them is not checked against brute force")
	}
	pr.Exactness = Exact
	if len(pr.Reasons) > 0 {
		pr.Exactness = NotExact
	}
	pr.ThinnedFrom = out.FrontFound
	return pr
}

// leastViolatingShown is how many least-violating mappings an Outcome
// lists; the search keeps leastViolatingKept, since several genomes can
// decode to one mapping.
const (
	leastViolatingShown = 10
	leastViolatingKept  = 50
)

// Check reports what Run would refuse in the options and the search
// settings before any search starts (an unknown algorithm, a negative
// number of workers, a search with nothing to minimise), so that a caller
// can fail before it creates anything.

// ReferencePoint is the reference point hetmap uses for hypervolumes: 10 %
// beyond the worst value of every objective over the given front (1 beyond
// where that value is 0), so that every point of the front contributes.
func ReferencePoint(front [][]float64) []float64 {
	if len(front) == 0 {
		return nil
	}
	ref := make([]float64, len(front[0]))
	for k := range ref {
		for _, p := range front {
			ref[k] = max(ref[k], p[k])
		}
		if ref[k] == 0 {
			ref[k] = 1
		} else {
			ref[k] *= 1.1
		}
	}
	return ref
}
