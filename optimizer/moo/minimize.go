package moo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"time"
)

// Settings holds the termination criteria and the run-wide options of
// Minimize. The zero value of every field selects its documented default, so
// a nil *Settings runs with defaults.
type Settings struct {
	// Generations is the number of generations NSGA-II evolves after its
	// initial population. The default, for 0 or less, is 100. Exhaustive
	// ignores it.
	Generations int

	// MaxEvaluations bounds the analyses made: every genome evaluated
	// counts one, plus the Cost its Evaluator reports for it (see
	// Evaluation.EvaluationsLeft). 0 (NoLimit), the default, means no bound. NSGA-II never
	// exceeds it: its initial population is made no larger, a generation
	// breeds only the offspring the remaining budget can evaluate, and
	// every genome of a batch of n (at most the population) is allowed
	// ⌊(remaining − n)/n⌋ analyses more, never more than a genome of an
	// earlier batch (so that the first genome to meet something is always
	// allowed the most). Exhaustive, which then runs on one worker, allows
	// each genome what remains after it.
	MaxEvaluations int

	// Stall stops NSGA-II, with Status Converged, once its front has
	// stopped moving (see Stall); the zero value never stops a run early.
	Stall Stall

	// MaxFront bounds the points NSGA-II keeps in its archive, and so in
	// Result.Front: an ε-dominance archive (see Archive) that keeps at most
	// MaxFront points, every point evaluated being ε-dominated by one of
	// them (Result.Epsilon). 0, the default, keeps every non-dominated
	// point. Exhaustive ignores it: its front is exact, and Thin thins it
	// where a caller asks.
	MaxFront int

	// Workers is the number of goroutines that evaluate genomes, each with
	// its own Evaluator (and, for Exhaustive, that walk the enumeration
	// tree, each with its own Walker). The default, for 0 or less, is
	// runtime.GOMAXPROCS(0). The result does not depend on it.
	Workers int

	// Seed seeds the random generator from which every random choice of a
	// run is drawn, when Rand is nil. The default is 0, itself a seed: runs
	// are reproducible unless the caller varies it.
	Seed int64

	// Rand, when not nil, is the random generator used instead of one
	// seeded by Seed. The run draws from it, changing its state.
	Rand *rand.Rand

	// KeepInfeasible is how many of the least-violating genomes a run keeps
	// to report when it finds no feasible one. The default, for 0, is 10;
	// a negative value keeps none.
	KeepInfeasible int

	// Progress, when not nil, is called from the goroutine that called
	// Minimize after the initial population and after every generation
	// (NSGA-II), or whenever a worker has merged a batch of evaluations into
	// the run's and at least every progressInterval while the walk only cuts
	// (Exhaustive).
	Progress func(Progress)

	// Context, when not nil, ends the run early once it is done (cancelled
	// or past its deadline): every worker looks at it before each
	// evaluation (NSGA-II drops the rest of its batch, the evaluations
	// made are kept), and Exhaustive at every node of its walk and between
	// the probes of its size estimate, so that a run stops within about
	// one evaluation (or one Prune call) of each worker. The run then
	// returns the front found so far with Status Interrupted, not an
	// error. nil never ends a run.
	Context context.Context

	// Checkpoint, when not nil, makes NSGA-II save its state between
	// generations, and Exhaustive between top-level subtrees, and continue
	// from a saved one (see Checkpoint).
	Checkpoint *Checkpoint
}

// Progress reports how far a run has got.
type Progress struct {
	Generation  int // generations evolved so far
	Evaluations int // distinct genomes evaluated so far
	Feasible    int // how many of them were feasible
	ArchiveSize int // points in the archive of non-dominated feasible points
	Pruned      int // partial assignments Exhaustive cut so far
	// Elapsed is the time since Minimize started.
	Elapsed time.Duration
	// Done estimates the share of the run completed, from 0 to 1. For
	// NSGA-II it is the generations evolved over Settings.Generations, or
	// the evaluations over Settings.MaxEvaluations when that is nearer;
	// with a Stall window, the generations evolved over those evolved and
	// an estimate of those left before the front stops improving (Stall),
	// which can fall when the front improves faster again.
	// For Exhaustive it is the children the walk has examined over an
	// estimate of all it will examine (Knuth's estimator of a backtrack
	// tree, from random probes before the walk; see estimateExamined):
	// rough where pruning makes subtrees unequal, at most 0.95 until the
	// walk ends, never falling, and 1 at the end.
	Done float64
	// Uncertain: Done is too rough a guess to tell the time left from.
	// Exhaustive sets it when its size estimate is loose (the probes
	// disagree), exceeds MaxEstimate, or has been passed by the walk.
	Uncertain bool

	// Improvement is how much the front improved over the last
	// StallWindow generations, the last time it was measured (NSGA-II
	// with Settings.Stall; see Stall); the run stops once it is at most
	// StallTolerance. +Inf before the first measure.
	Improvement    float64
	StallWindow    int
	StallTolerance float64

	// Exhaustive: the report is of an Exhaustive walk (else NSGA-II, or a
	// caller's Stage).
	Exhaustive bool
	// Examined is the number of children the walk has examined so far
	// (Exhaustive); Size the estimate of how many it examines in all,
	// 0 when it was not estimated or is more than MaxEstimate.
	Examined int64
	Size     float64

	// Stage, when not empty, names a stage of the caller's before or
	// after the search (for example "building the initial population"),
	// reported through the same callback: Elapsed is then the time since
	// the stage began, Step of Steps its steps done (Steps 0: unknown),
	// and the other fields are zero. Minimize itself reports the stage
	// "estimating the size of the enumeration" (Exhaustive, before its
	// walk) and otherwise leaves Stage empty.
	Stage       string
	Step, Steps int
}

// StageEstimate is the Stage of the progress report Exhaustive makes
// before it estimates the size of its walk.
const StageEstimate = "estimating the size of the enumeration"

// Status says why a run stopped.
type Status int

const (
	// NotTerminated is the zero Status; no finished run has it.
	NotTerminated Status = iota
	// GenerationLimit: NSGA-II evolved Settings.Generations generations.
	GenerationLimit
	// EvaluationLimit: the run evaluated Settings.MaxEvaluations genomes.
	EvaluationLimit
	// Converged: the front did not move for Settings.Stall's window of
	// generations.
	Converged
	// Exhausted: every genome of the space (for Exhaustive, every one not
	// pruned) was evaluated, so the front is the exact Pareto front.
	Exhausted
	// Interrupted: Settings.Context ended the run before any other
	// criterion; the front is what the run found until then.
	Interrupted
)

// String returns the status's name.
func (s Status) String() string {
	switch s {
	case NotTerminated:
		return "NotTerminated"
	case GenerationLimit:
		return "GenerationLimit"
	case EvaluationLimit:
		return "EvaluationLimit"
	case Converged:
		return "Converged"
	case Exhausted:
		return "Exhausted"
	case Interrupted:
		return "Interrupted"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of Minimize.
type Result struct {
	// Status says why the run stopped.
	Status Status

	// Feasible reports whether any feasible genome was found.
	Feasible bool

	// Front holds the archive: every feasible point evaluated that no other
	// evaluated point dominates, one per objective vector, sorted
	// lexicographically by objectives (see Archive).
	Front []Point

	// LeastViolating holds, when no feasible genome was found, up to
	// Settings.KeepInfeasible evaluated genomes of smallest violation, by
	// increasing violation, then Tiebreak, then genome. It is empty otherwise.
	LeastViolating []Point

	// Evaluations is the number of calls to Evaluator.Evaluate: of
	// distinct genomes evaluated, except that NSGA-II evaluates again a
	// genome bred after its evaluation left the cache (NSGA2.CacheSize).
	Evaluations int

	// Analyses is what Settings.MaxEvaluations bounds: Evaluations plus
	// the Cost the Evaluators reported.
	Analyses int

	// FeasibleEvaluations is how many of those evaluations were feasible;
	// for Exhaustive, the number of distinct feasible genomes visited.
	FeasibleEvaluations int

	// CacheHits is the number of genomes NSGA-II bred again after they had
	// been evaluated, whose evaluation came from the cache.
	CacheHits int

	// Generations is the number of generations NSGA-II evolved after its
	// initial population; 0 for Exhaustive.
	Generations int

	// Pruned is the number of partial assignments Exhaustive's Prune cut.
	Pruned int

	// Epsilon is the ε of every objective within which Front covers every
	// feasible point evaluated (Settings.MaxFront, Archive): for every
	// such point f a point a of Front has a_k < f_k + ε_k on every
	// objective k. nil when Front holds every non-dominated point.
	Epsilon []float64
}

// Method is a search method for Minimize: *NSGA2 or *Exhaustive. Its
// method is unexported, so only this package's methods implement it.
type Method interface {
	minimize(r *run) (Status, error)
}

// Minimize searches problem p with method m for its Pareto front; a nil
// method means NSGA2 with its defaults, nil settings mean the defaults. The
// error reports an invalid problem, method or setting, or an invalid
// evaluation (wrong number of objectives, a non-finite objective, a negative
// or NaN violation, or a panic in Evaluate); an infeasible problem is not an
// error but a Result whose Feasible is false.
func Minimize(p Problem, m Method, s *Settings) (*Result, error) {
	sp, err := newSpace(p)
	if err != nil {
		return nil, err
	}
	if m == nil {
		m = &NSGA2{}
	}
	var set Settings
	if s != nil {
		set = *s
	}
	if set.Generations <= 0 {
		set.Generations = 100
	}
	if set.MaxEvaluations < 0 {
		return nil, fmt.Errorf("moo: MaxEvaluations is %d, must be 0 (no bound) or positive", set.MaxEvaluations)
	}
	if set.MaxFront < 0 {
		return nil, fmt.Errorf("moo: MaxFront is %d, must be 0 (no bound) or positive", set.MaxFront)
	}
	if set.Stall.Generations < 0 || !(set.Stall.Tolerance >= 0 && set.Stall.Tolerance < math.Inf(1)) {
		return nil, fmt.Errorf("moo: Stall %+v: the window must be 0 (none) or positive, the tolerance 0 (the default) or positive", set.Stall)
	}
	if set.Workers <= 0 {
		set.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case set.KeepInfeasible == 0:
		set.KeepInfeasible = 10
	case set.KeepInfeasible < 0:
		set.KeepInfeasible = 0
	}
	if set.Rand == nil {
		set.Rand = rand.New(rand.NewSource(set.Seed))
	}
	limit := set.MaxFront
	if _, exact := m.(*Exhaustive); exact {
		limit = 0
	}
	r := &run{
		problem: p,
		sp:      sp,
		set:     set,
		archive: NewBoundedArchive(sp.m, limit),
		least:   leastViolating{k: set.KeepInfeasible},
		start:   time.Now(),
	}
	r.workers = make([]Evaluator, set.Workers)
	for i := range r.workers {
		if r.workers[i] = p.NewWorker(); r.workers[i] == nil {
			return nil, errors.New("moo: Problem.NewWorker returned nil")
		}
	}
	status, err := m.minimize(r)
	if err != nil {
		return nil, err
	}
	res := &Result{
		Status:              status,
		Feasible:            r.archive.Len() > 0,
		Front:               r.archive.Points(),
		Evaluations:         r.evaluations,
		Analyses:            r.analyses,
		FeasibleEvaluations: r.feasible,
		CacheHits:           r.cacheHits,
		Generations:         r.generations,
		Pruned:              r.pruned,
		Epsilon:             r.archive.Epsilon(),
	}
	if !res.Feasible {
		res.LeastViolating = r.least.points
	}
	return res, nil
}

// run is the state of one call to Minimize that the methods share.
type run struct {
	problem Problem
	sp      *space
	set     Settings
	workers []Evaluator

	archive *Archive
	least   leastViolating
	start   time.Time
	// variants holds the variants of the batch being recorded, offered
	// the groups whose variants have reached the archive (offerVariants):
	// 8 bytes and a map entry per group, a mapping search's distinct
	// feasible mappings.
	variants []Point
	offered  map[uint64]bool
	// stall is NSGA-II's termination on progress (Settings.Stall).
	stall stallState

	evaluations, feasible, cacheHits, generations, pruned int
	// analyses counts what Settings.MaxEvaluations bounds (Result.Analyses).
	analyses int
	// done is the share of the run completed (Progress.Done), and what
	// else Progress reports of it.
	done       float64
	uncertain  bool
	exhaustive bool
	examined   int64
	size       float64
	cuts       int // Exhaustive: the cuts counted so far, merged or not
}

// stage reports a stage of the run other than the search itself.
func (r *run) stage(name string, step, steps int, since time.Time) {
	if r.set.Progress != nil {
		r.set.Progress(Progress{Stage: name, Step: step, Steps: steps, Elapsed: time.Since(since)})
	}
}

// interrupted reports whether Settings.Context has ended the run.
// It is cheap enough to call before every evaluation: a cancelled
// context's Err is an atomic load.
func (r *run) interrupted() bool {
	return r.set.Context != nil && r.set.Context.Err() != nil
}

// evaluationsLeft returns how many more analyses may be made, and whether
// any number may (no Settings.MaxEvaluations; left is then 0).
func (r *run) evaluationsLeft() (left int, unlimited bool) {
	if r.set.MaxEvaluations == NoLimit {
		return 0, true
	}
	return max(0, r.set.MaxEvaluations-r.analyses), false
}

func (r *run) progress() {
	if r.set.Progress != nil {
		r.set.Progress(r.report())
	}
}

// report is the run's progress so far.
func (r *run) report() Progress {
	return Progress{
		Generation:     r.generations,
		Evaluations:    r.evaluations,
		Feasible:       r.feasible,
		ArchiveSize:    r.archive.Len(),
		Pruned:         max(r.pruned, r.cuts),
		Elapsed:        time.Since(r.start),
		Done:           min(1, max(0, r.done)),
		Uncertain:      r.uncertain,
		Exhaustive:     r.exhaustive,
		Examined:       r.examined,
		Size:           r.size,
		Improvement:    r.stall.improvement,
		StallWindow:    r.set.Stall.Generations,
		StallTolerance: tolerance(r.set.Stall),
	}
}

// record counts an evaluation and offers it to the archive or to the
// least-violating points.
func (r *run) record(g []int, e *Evaluation) {
	r.evaluations++
	r.analyses += 1 + e.Cost
	p := Point{Genome: g, Evaluation: *e}
	p.Variants = nil
	if e.Feasible() {
		r.feasible++
		r.archive.Add(p)
	} else {
		r.least.add(p)
	}
	for k, v := range e.Variants {
		// Its place among its group's variants.
		n := 1
		for _, u := range e.Variants[:k] {
			if u.Group == v.Group {
				n++
			}
		}
		r.variants = append(r.variants, Point{Evaluation: Evaluation{Objectives: v.Objectives, Payload: v.Payload}, Variant: n, Group: v.Group})
	}
}

// offerVariants offers the variants of the evaluations recorded since the
// last call to the archive, by group (Evaluation.Variants): a group first
// found in a batch is offered at the batch's end whichever worker found it,
// and a group found again is not offered again.
func (r *run) offerVariants() {
	slices.SortStableFunc(r.variants, func(p, q Point) int { return cmp.Compare(p.Group, q.Group) })
	if r.offered == nil {
		r.offered = map[uint64]bool{}
	}
	for i := 0; i < len(r.variants); {
		g := r.variants[i].Group
		j := i + 1
		for j < len(r.variants) && r.variants[j].Group == g {
			j++
		}
		if !r.offered[g] {
			r.offered[g] = true
			// The first evaluation's list (another's starts again at 1).
			for k := i; k < j && (k == i || r.variants[k].Variant > r.variants[k-1].Variant); k++ {
				r.archive.Add(r.variants[k])
			}
		}
		i = j
	}
	clear(r.variants)
	r.variants = r.variants[:0]
}
