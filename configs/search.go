package configs

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Search configures `hetmap optimize`. The zero value means the defaults.
type Search struct {
	// Algorithm is "auto" (default: the exhaustive search when an estimate
	// says it finishes quickly, NSGA-II otherwise), "nsga2" or "exhaustive".
	Algorithm Algorithm `json:"algorithm" yaml:"algorithm,omitempty"`
	// Objectives are minimised together; the default is every chain's
	// latency as analysis.chain_latency chooses it (maximum reaction time
	// under implicit communication, bounded for any release offsets), and for a
	// system without chains the highest CPU core utilisation
	// (max-utilisation: the mapping with the most slack on its busiest core).
	Objectives []Objective `json:"objectives" yaml:"objectives,omitempty"`
	// Free lists the genes the search may change: "units", "offloading",
	// "gpu_priorities" (fifo model), "time_slices" (timeslice model). The
	// default is all of them; a gene not free keeps the model's mapping.
	Free []Gene `json:"free" yaml:"free,omitempty"`
	// Population (default 100), Generations (default 1000) and
	// MaxEvaluations (default 0: no limit) bound NSGA-II.
	Population     int `json:"population" yaml:"population,omitempty"`
	Generations    int `json:"generations" yaml:"generations,omitempty"`
	MaxEvaluations int `json:"max_evaluations" yaml:"max_evaluations,omitempty"`
	// Seed seeds the one random generator of the search (default 1).
	Seed int64 `json:"seed" yaml:"seed,omitempty"`
	// Workers evaluate, and build NSGA-II's initial constructions, in
	// parallel (default: the number of CPUs). The same seed gives the same
	// front with any number of workers.
	Workers int `json:"workers" yaml:"workers,omitempty"`
	// MaxJointOrders bounds, per mapping, the combinations of the cores'
	// priority orders the exhaustive search evaluates where the orders
	// interact (default 4096, at most 1 000 000); a mapping with more stays
	// undecided, and the front is then not exact.
	MaxJointOrders int `json:"max_joint_orders" yaml:"max_joint_orders,omitempty"`
	// MaxFront bounds the points a genetic search reports: it keeps an
	// ε-dominance archive of at most this many, every feasible mapping it
	// met being within a stated ε of a reported one on every objective
	// (default DefaultMaxFront; 0 keeps every non-dominated mapping). An
	// exhaustive search's exact front is thinned the same way only when
	// the key is given. nil: left out.
	MaxFront *int `json:"max_front,omitempty" yaml:"max_front,omitempty"`
	// StallGenerations and StallTolerance end a genetic search once its
	// front has stopped improving: once it improved on the front
	// StallGenerations generations before (default
	// DefaultStallGenerations; 0 runs every generation) by at most
	// StallTolerance of its extent (default DefaultStallTolerance; the
	// mean IGD+ distance, moo.Stall). Generations and MaxEvaluations stay
	// hard limits.
	StallGenerations *int    `json:"stall_generations,omitempty" yaml:"stall_generations,omitempty"`
	StallTolerance   float64 `json:"stall_tolerance,omitempty" yaml:"stall_tolerance,omitempty"`
	// Selection is how the genetic search keeps, of the last front of a
	// generation that fits only in part, the members that survive:
	// SelectionCrowding (NSGA-II's crowding distance),
	// SelectionReference (NSGA-III's reference directions) or
	// SelectionAuto (the default; see SelectionFor).
	Selection Selection `json:"selection,omitempty" yaml:"selection,omitempty"`
	// CheckpointSeconds is how often a search saves its state into its
	// claim's work folder (the genetic search between generations, the
	// exhaustive one between its top-level subtrees), so that a run killed, stopped at its time
	// limit or requeued continues from there (default
	// DefaultCheckpointSeconds when left out; CheckpointEvery). It does not
	// change the front.
	CheckpointSeconds int `json:"checkpoint_seconds,omitempty" yaml:"checkpoint_seconds,omitempty"`
}

// DefaultCheckpointSeconds is search.checkpoint_seconds when left out:
// five minutes, a few seconds' writing of a checkpoint of at most 64 MiB
// in hours of search. MaxCheckpointSeconds bounds it (a week).
const (
	DefaultCheckpointSeconds = 300
	MaxCheckpointSeconds     = 7 * 24 * 3600
)

// CheckpointEvery is how often a search saves its state
// (search.checkpoint_seconds, or its default).
func (s Search) CheckpointEvery() time.Duration {
	if s.CheckpointSeconds <= 0 {
		return DefaultCheckpointSeconds * time.Second
	}
	return time.Duration(s.CheckpointSeconds) * time.Second
}

// Objective is one thing the search minimises: a chain's latency (Chain
// set; Paradigm, Metric and Bound override analysis.chain_latency), or Kind
// "cores-used" (the CPU cores with a task), "max-utilisation" (the busiest
// CPU core's load as the verdicts count it: Σ C/T under the challenge
// count, the demand of the count under refined and request) or "margin"
// (the margin on execution demand, maximised: minimised as its negative).
type Objective struct {
	Kind     ObjectiveKind `json:"kind,omitempty" yaml:"kind,omitempty"`
	Chain    string        `json:"chain,omitempty" yaml:"chain,omitempty"`
	Paradigm ChainParadigm `json:"paradigm,omitempty" yaml:"paradigm,omitempty"`
	Metric   ChainMetric   `json:"metric,omitempty" yaml:"metric,omitempty"`
	Bound    ChainBound    `json:"bound,omitempty" yaml:"bound,omitempty"`
}

// Bounds of the search settings, checked before a search starts. The
// genetic search keeps every genome it evaluates (to evaluate each once):
// about a hundred bytes per gene and objective each, so
// population × generations, not time alone, bounds a run's memory; the
// bounds keep a typing slip (a population of 10^12) from growing the
// memory until the machine gives out.
const (
	MaxPopulation  = 100_000
	MaxGenerations = 10_000_000
	MaxEvaluations = 1_000_000_000
	// MaxJointOrders bounds search.max_joint_orders: the evaluations of
	// one mapping's orders, at a few microseconds each.
	MaxJointOrders = 1_000_000
	// DefaultJointOrders is search.max_joint_orders when left out.
	DefaultJointOrders = 4096
	// DefaultMaxFront is search.max_front when left out (genetic search):
	// a front a reviewer can read in a table, and whose every point gets
	// its margins and a mapping file.
	DefaultMaxFront = 200
	// MaxFront bounds search.max_front: every reported point is analysed
	// in full, with its margins, and written.
	MaxFront = 1_000_000
	// DefaultStallGenerations and DefaultStallTolerance are
	// search.stall_generations and search.stall_tolerance when left out:
	// the window and the tolerance of pymoo's default termination.
	DefaultStallGenerations = 50
	DefaultStallTolerance   = 0.005
)

// WithDefaults returns the search with its zero values replaced by the
// documented defaults; the chain objectives need the system's chains and the
// analysis's chain latency. The configuration keeps what the user gave, so
// that writing it back does not freeze the defaults.
func (s Search) WithDefaults(sys *System, latency ChainLatency) Search {
	s.Objectives = append([]Objective(nil), s.Objectives...)
	s.Free = append([]Gene(nil), s.Free...)
	s.defaults(sys, latency)
	return s
}

func (s *Search) defaults(sys *System, latency ChainLatency) {
	if s.Algorithm == "" {
		s.Algorithm = AlgorithmAuto
	}
	if len(s.Objectives) == 0 {
		for _, c := range sys.Chains {
			s.Objectives = append(s.Objectives, Objective{Chain: c.Name})
		}
		if len(s.Objectives) == 0 {
			s.Objectives = []Objective{{Kind: ObjectiveMaxUtilisation}}
		}
	}
	for i := range s.Objectives {
		o := &s.Objectives[i]
		if o.Kind == "" {
			o.Kind = ObjectiveChain
		}
		if o.Kind == ObjectiveChain {
			if o.Paradigm == "" {
				o.Paradigm = latency.Paradigm
			}
			if o.Metric == "" {
				o.Metric = latency.Metric
			}
			if o.Bound == "" {
				o.Bound = latency.Bound
			}
		}
	}
	if len(s.Free) == 0 {
		s.Free = append([]Gene(nil), AllGenes...)
	}
	if s.Population == 0 {
		s.Population = 100
	}
	if s.Generations == 0 {
		s.Generations = 1000
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.MaxJointOrders == 0 {
		s.MaxJointOrders = DefaultJointOrders
	}
	if s.StallGenerations == nil {
		n := DefaultStallGenerations
		s.StallGenerations = &n
	}
	if s.StallTolerance == 0 {
		s.StallTolerance = DefaultStallTolerance
	}
	if s.Selection == "" {
		s.Selection = SelectionAuto
	}
}

// ManyObjectives is how many objectives make SelectionAuto choose
// SelectionReference: from four on, nearly every mapping a search meets
// is non-dominated and the crowding distance no longer tells a crowded
// region from a sparse one (Deb and Jain 2014).
const ManyObjectives = 4

// SelectionFor is the selection in force (search.selection) with
// objectives objectives: SelectionAuto chooses SelectionReference from
// ManyObjectives objectives on, SelectionCrowding below.
func (s *Search) SelectionFor(objectives int) Selection {
	if s.Selection == SelectionAuto || s.Selection == "" {
		if objectives >= ManyObjectives {
			return SelectionReference
		}
		return SelectionCrowding
	}
	return s.Selection
}

// FrontLimit is the most points the search reports (search.max_front), 0
// for no limit: by default DefaultMaxFront for the genetic search, and no
// limit for the exhaustive one, whose exact front is thinned only when
// asked. exhaustive says which search runs.
func (s *Search) FrontLimit(exhaustive bool) int {
	switch {
	case s.MaxFront != nil:
		return *s.MaxFront
	case exhaustive:
		return 0
	}
	return DefaultMaxFront
}

// FreeGenes names the free genes, "units, offloading, …".
func (s *Search) FreeGenes() string { return strings.Join(optionStrings(s.Free), ", ") }

// IsFree reports whether a gene is free in the search.
func (s *Search) IsFree(gene Gene) bool { return known(s.Free, gene) }

// Name is how tables and files name the objective, e.g.
// "CA-P-DA reaction-time" (the default bound, any-offset, is not named) or
// "cores-used".
func (o Objective) Name() string {
	if o.Kind != ObjectiveChain {
		return string(o.Kind)
	}
	n := o.Chain + " " + string(o.Metric)
	if o.Paradigm != ParadigmImplicit {
		n += " " + string(o.Paradigm)
	}
	switch o.Bound {
	case BoundAnyOffset:
		return n
	case BoundDavare:
		return n + " " + string(o.Bound)
	}
	// A job-level value holds only while every task is released at its
	// model offset (package chains, "Job-level values"): the name says so
	// wherever it is shown.
	return n + " (synchronous release)"
}

// CheckObjectives reports a search with nothing to minimise.
func (s *Search) CheckObjectives() error {
	if len(s.Objectives) == 0 {
		return inputErrorf("search.objectives", "nothing to minimise: the system has no chains; add chains, or give objectives (cores-used, max-utilisation)")
	}
	return nil
}

func (s *Search) validate(sys *System) error {
	if !known(Algorithms, s.Algorithm) {
		return inputErrorf("search.algorithm", "%q is not an algorithm (%s)", s.Algorithm, orList(Algorithms))
	}
	seen := map[string]bool{}
	for i, o := range s.Objectives {
		where := fmt.Sprintf("search.objectives[%d]", i)
		switch o.Kind {
		case ObjectiveChain:
			found := false
			for _, c := range sys.Chains {
				found = found || c.Name == o.Chain
			}
			if !found {
				return inputErrorf(where+".chain", "chain %q is not defined", o.Chain)
			}
			cl := ChainLatency{Paradigm: o.Paradigm, Metric: o.Metric, Bound: o.Bound}
			if err := cl.Validate(where); err != nil {
				return err
			}
		case ObjectiveCoresUsed, ObjectiveMaxUtilisation, ObjectiveMargin:
			if o.Chain != "" || o.Paradigm != "" || o.Metric != "" || o.Bound != "" {
				return inputErrorf(where, "objective %s takes no chain, paradigm, metric or bound", o.Kind)
			}
		default:
			return inputErrorf(where+".kind", "%q is not an objective (%s)", o.Kind, strings.Join(optionStrings(ObjectiveKinds), ", "))
		}
		if seen[o.Name()] {
			return inputErrorf(where, "objective %q is given twice", o.Name())
		}
		seen[o.Name()] = true
	}
	for i, g := range s.Free {
		if !known(AllGenes, g) {
			return inputErrorf(fmt.Sprintf("search.free[%d]", i), "%q is not a gene (%s)", g, strings.Join(optionStrings(AllGenes), ", "))
		}
	}
	switch {
	case s.Population < 2 || s.Population > MaxPopulation:
		return inputErrorf("search.population", "must be between 2 and %d, got %d", MaxPopulation, s.Population)
	case s.Generations < 1 || s.Generations > MaxGenerations:
		return inputErrorf("search.generations", "must be between 1 and %d, got %d", MaxGenerations, s.Generations)
	case s.MaxEvaluations < 0 || s.MaxEvaluations > MaxEvaluations:
		return inputErrorf("search.max_evaluations", "must be 0 (no limit) or up to %d, got %d", MaxEvaluations, s.MaxEvaluations)
	case s.Workers < 0:
		return inputErrorf("search.workers", "must not be negative (0: the number of CPUs), got %d", s.Workers)
	case s.MaxJointOrders < 1 || s.MaxJointOrders > MaxJointOrders:
		return inputErrorf("search.max_joint_orders", "must be between 1 and %d, got %d", MaxJointOrders, s.MaxJointOrders)
	case s.Seed < 0:
		return inputErrorf("search.seed", "must be positive, got %d (seeds are 1, 2, …)", s.Seed)
	case s.StallGenerations != nil && (*s.StallGenerations < 0 || *s.StallGenerations > MaxGenerations):
		return inputErrorf("search.stall_generations", "must be 0 (run every generation) or up to %d, got %d", MaxGenerations, *s.StallGenerations)
	case s.StallTolerance < 0 || s.StallTolerance >= 1 || math.IsNaN(s.StallTolerance):
		return inputErrorf("search.stall_tolerance", "must be a share of the front's extent above 0 and below 1, got %v", s.StallTolerance)
	case s.Selection != "" && !known(Selections, s.Selection):
		return inputErrorf("search.selection", "%q is not a selection (%s)", s.Selection, orList(Selections))
	case s.CheckpointSeconds < 0 || s.CheckpointSeconds > MaxCheckpointSeconds:
		return inputErrorf("search.checkpoint_seconds", "must be between 1 and %d (a week), got %d", MaxCheckpointSeconds, s.CheckpointSeconds)
	case s.MaxFront != nil && (*s.MaxFront < 0 || *s.MaxFront > MaxFront):
		return inputErrorf("search.max_front", "must be 0 (every non-dominated mapping) or up to %d, got %d", MaxFront, *s.MaxFront)
	}
	return nil
}
