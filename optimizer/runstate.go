package optimizer

import "sync"

// runState is what one run of a search (Run) changes as it goes, apart
// from the Problem, which says what is searched and does not change: why
// an auto search chose its algorithm, whether the run is interrupted, its
// workers, and what the run a checkpoint continues had met.
type runState struct {
	// choice says why an auto search chose its algorithm (chooseAlgorithm).
	choice string
	// stop, when set, says that the run is interrupted (Run sets it from
	// its context): the evaluators of the workers and the constructions
	// get it (evaluate.Options.Stop).
	stop func() bool

	mu      sync.Mutex
	workers []*worker // the workers of the run in progress

	// resumed is what the workers of the run a checkpoint continues had
	// met (RestoreState): read-only, every worker's as well as its own.
	resumed          map[uint64]mappingSeen
	resumedUndecided int
	resumedSide      []sidePoint       // the exhaustive search's variants kept (worker.side)
	resumedOpen      map[uint64]string // and mappings left undecided (worker.open)
}
