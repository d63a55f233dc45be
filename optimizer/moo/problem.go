package moo

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Problem is a multi-objective minimisation problem over integer genes.
//
// A genome is a slice of NumGenes integers; gene i takes one of the values
// Domain(i) lists, and the search never produces any other value. Every
// genome is evaluated into NumObjectives objectives, all minimised, and a
// constraint violation.
//
// Evaluation runs concurrently on several workers. Rather than requiring a
// concurrency-safe Evaluate, a Problem hands each worker its own Evaluator
// from NewWorker, which may hold scratch buffers that it reuses from one
// genome to the next; the methods of Problem itself are only called from the
// goroutine that called Minimize.
type Problem interface {
	// NumGenes returns the number of genes of a genome, at least 1.
	NumGenes() int

	// Domain returns the values gene i may take: at least one, none
	// repeated, in the order mutation and enumeration use them. The slice
	// is read once, when a run starts, and not retained.
	Domain(i int) []int

	// NumObjectives returns the number of objectives, at least 1.
	NumObjectives() int

	// NewWorker returns an Evaluator for the exclusive use of one worker.
	// Minimize calls it once per worker when a run starts.
	NewWorker() Evaluator
}

// Evaluator evaluates genomes for one worker. Different Evaluators of a
// Problem are used concurrently; one Evaluator is never used by two
// goroutines at once.
type Evaluator interface {
	// Evaluate writes the evaluation of genome into out. On entry
	// out.Objectives has length NumObjectives, out.Violation and
	// out.Tiebreak are 0 and out.Payload is nil. Evaluate fills out.Objectives with finite values,
	// sets out.Violation to 0 when the genome is feasible and to how much it
	// misses its constraints otherwise, and may attach out.Payload. It must
	// neither modify nor retain genome, and must give the same result for
	// the same genome every time: that is what makes runs reproducible.
	Evaluate(genome []int, out *Evaluation)
}

// Evaluation is what a genome evaluates to.
type Evaluation struct {
	// Objectives holds the objective values, all minimised.
	Objectives []float64

	// Violation is 0 for a feasible genome and, for an infeasible one, a
	// positive measure of how much it misses its constraints; smaller is
	// better (Deb 2000).
	Violation float64

	// Tiebreak ranks infeasible genomes of equal Violation among those a
	// run keeps as least violating (Result.LeastViolating), smaller first,
	// before the genome order decides; for example the load of the most
	// loaded resource, when many ways to miss the constraints miss them by
	// the same amount. It must be finite. The search itself (domination,
	// selection) ignores it.
	Tiebreak float64

	// Payload is whatever the Evaluator attached, for example the detailed
	// analysis behind the objectives. The package stores it with the point
	// and never looks inside; an Evaluator must not reuse what it attaches.
	Payload any

	// EvaluationsLeft and Unlimited are set by the run before Evaluate:
	// how many analyses beyond the genome's own the Evaluator may make for
	// it (for example of variants of the genome that the Problem keeps
	// besides it, such as other priority orders of one mapping), what is
	// left of Settings.MaxEvaluations; Unlimited, with EvaluationsLeft 0,
	// when the run has no bound (NoLimit). Evaluate must not change them.
	EvaluationsLeft int
	Unlimited       bool

	// Cost is set by Evaluate: how many analyses beyond the genome's own
	// it made, at most EvaluationsLeft (unless Unlimited). The run counts 1 + Cost
	// against Settings.MaxEvaluations. Like the rest of the evaluation it
	// must depend only on the genome and EvaluationsLeft, not on what the
	// Evaluator remembers from earlier genomes, or runs with different
	// numbers of workers would stop at different points.
	Cost int

	// Variants may be set by Evaluate (NSGA-II): feasible points that the
	// evaluation found besides the genome's own, for example the genome's
	// mapping under other settings that the Problem varies itself (other
	// priority orders). NSGA-II offers them to its archive once the
	// batch's genomes are recorded, ordered by Group and then by their
	// order here, each as a Point of no genome (the payload says what it
	// is), and a group only once: an Evaluator may report a group's
	// variants only the first time it meets the group (what it remembers
	// may differ from worker to worker), and the variants of one Group
	// must always be the same list. Exhaustive ignores them.
	Variants []Variant
}

// Variant is a point an evaluation found besides its genome's own
// (Evaluation.Variants).
type Variant struct {
	// Group identifies the variants that are always found together, for
	// example a hash of the mapping whose priority orders they are.
	Group uint64
	// Objectives holds the variant's objective values, all minimised; the
	// variant is feasible.
	Objectives []float64
	// Payload is whatever the Evaluator attached, as Evaluation.Payload.
	Payload any
}

// NoLimit is the one value of an evaluation budget that bounds nothing:
// Settings.MaxEvaluations (and search.max_evaluations, which sets it) is 0
// by default, and 0 means no limit. What is left of a budget can be 0
// (nothing left), so it says "no limit" with a flag of its own
// (Evaluation.Unlimited, evaluate.Budget.Unlimited), never with a
// negative number.
const NoLimit = 0

// Feasible reports whether the evaluation satisfies every constraint.
func (e *Evaluation) Feasible() bool { return e.Violation == 0 }

// Point is an evaluated genome, or a variant an evaluation found.
type Point struct {
	// Genome holds the value of every gene; nil for a variant.
	Genome []int
	Evaluation
	// Variant is 0 for a genome's own evaluation, and k for the k-th
	// variant of group Group (Evaluation.Variants), whose objectives and
	// payload the point then holds: a variant found by several
	// evaluations is one point. Of points with equal objectives an
	// archive keeps a genome's own point before a variant (see Archive).
	Variant int
	Group   uint64
}

// Objectives returns the objective vectors of points, in their order, for
// Hypervolume and the Pareto utilities. The vectors are shared, not copied.
func Objectives(points []Point) [][]float64 {
	objs := make([][]float64, len(points))
	for i := range points {
		objs[i] = points[i].Objectives
	}
	return objs
}

// space is a validated copy of a Problem's genes and domains.
type space struct {
	n, m   int
	values [][]int       // values[i]: the domain of gene i
	index  []map[int]int // index[i][v]: the position of v in values[i]
	size   int           // the number of genomes, math.MaxInt when larger
}

func newSpace(p Problem) (*space, error) {
	if p == nil {
		return nil, errors.New("moo: nil problem")
	}
	n, m := p.NumGenes(), p.NumObjectives()
	if n < 1 {
		return nil, fmt.Errorf("moo: problem has %d genes, need at least 1", n)
	}
	if m < 1 {
		return nil, fmt.Errorf("moo: problem has %d objectives, need at least 1", m)
	}
	sp := &space{n: n, m: m, values: make([][]int, n), index: make([]map[int]int, n), size: 1}
	for i := range n {
		d := slices.Clone(p.Domain(i))
		if len(d) == 0 {
			return nil, fmt.Errorf("moo: gene %d has an empty domain", i)
		}
		idx := make(map[int]int, len(d))
		for k, v := range d {
			if _, dup := idx[v]; dup {
				return nil, fmt.Errorf("moo: gene %d lists value %d twice", i, v)
			}
			idx[v] = k
		}
		sp.values[i], sp.index[i] = d, idx
		if sp.size > math.MaxInt/len(d) {
			sp.size = math.MaxInt
		} else {
			sp.size *= len(d)
		}
	}
	return sp, nil
}

// check returns an error unless g is a genome of the space.
func (sp *space) check(g []int) error {
	if len(g) != sp.n {
		return fmt.Errorf("moo: genome %v has %d genes, the problem %d", g, len(g), sp.n)
	}
	for i, v := range g {
		if _, ok := sp.index[i][v]; !ok {
			return fmt.Errorf("moo: genome %v: gene %d takes %d, not one of %v", g, i, v, sp.values[i])
		}
	}
	return nil
}

// checkEvaluation returns an error unless e is a valid evaluation of g.
func (sp *space) checkEvaluation(g []int, e *Evaluation) error {
	if len(e.Objectives) != sp.m {
		return fmt.Errorf("moo: evaluation of genome %v has %d objectives, the problem %d", g, len(e.Objectives), sp.m)
	}
	for k, f := range e.Objectives {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("moo: evaluation of genome %v: objective %d is %v, must be finite", g, k, f)
		}
	}
	if !(e.Violation >= 0) {
		return fmt.Errorf("moo: evaluation of genome %v: violation is %v, must be 0 or positive", g, e.Violation)
	}
	if math.IsNaN(e.Tiebreak) || math.IsInf(e.Tiebreak, 0) {
		return fmt.Errorf("moo: evaluation of genome %v: tiebreak is %v, must be finite", g, e.Tiebreak)
	}
	for i, v := range e.Variants {
		if len(v.Objectives) != sp.m {
			return fmt.Errorf("moo: evaluation of genome %v: variant %d has %d objectives, the problem %d", g, i+1, len(v.Objectives), sp.m)
		}
		for k, f := range v.Objectives {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("moo: evaluation of genome %v: variant %d: objective %d is %v, must be finite", g, i+1, k, f)
			}
		}
	}
	if e.Cost < 0 || (!e.Unlimited && e.Cost > e.EvaluationsLeft) {
		return fmt.Errorf("moo: evaluation of genome %v: cost %d, allowance %d", g, e.Cost, e.EvaluationsLeft)
	}
	return nil
}
