package optimizer

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// clone of the evaluator; report, if not nil, is called with the points
// done and their number, from one goroutine at a time. Once stop says so
// (an interrupted run past its grace), no more points are analysed, and
// the front holds those that were (dropped counts the others).
func (p *Problem) front(found []moo.Point, out *Outcome, workers int, stop func() bool, report func(done, total int, since time.Time)) (front []Point, dropped int) {
	type cand struct {
		pt      moo.Point
		variant *sidePoint
	}
	var cands []cand
	for _, pt := range found {
		if v, ok := pt.Payload.(*sidePoint); ok && pt.Variant > 0 {
			// A genetic search's variant (worker.report).
			cands = append(cands, cand{variant: v})
			continue
		}
		cands = append(cands, cand{pt: pt})
	}
	// Workers may meet the same mapping; each mapping counts once, with
	// what the worker allowed the most learnt of it (mappingSeen): the
	// first to meet it in the search, since no later genome is allowed
	// more, so the counts do not depend on the number of workers.
	seen, undecided, side, open := p.merged()
	out.Undecided += undecided
	for _, v := range side {
		cands = append(cands, cand{variant: v})
	}
	out.undecided = out.undecided[:0]
	for _, d := range open {
		out.undecided = append(out.undecided, d)
	}
	slices.Sort(out.undecided)
	for _, m := range seen {
		if m.feasible {
			out.FeasibleMappings++
		}
		out.Variants += int(m.variants)
		if m.incomplete {
			out.VariantsIncomplete++
		}
	}
	obj := func(c cand) []float64 {
		if c.variant != nil {
			return c.variant.obj
		}
		return c.pt.Objectives
	}
	// The search's own points first, in its order; then the variants by key.
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.variant == nil && b.variant == nil:
			return 0
		case a.variant == nil:
			return -1
		case b.variant == nil:
			return 1
		}
		return slices.Compare(a.variant.key, b.variant.key)
	})
	var kept []cand
	for i, c := range cands {
		keep := true
		for j, d := range cands {
			if i == j || !weaklyDominates(obj(d), obj(c)) {
				continue
			}
			if !slices.Equal(obj(d), obj(c)) || j < i {
				keep = false
				break
			}
		}
		if keep {
			kept = append(kept, c)
		}
	}
	if limit := p.search.FrontLimit(true); p.exhaustive && limit > 0 && len(kept) > limit {
		// Asked to thin the exact front (search.max_front): an
		// ε-dominance archive offered its points in their order.
		pts := make([]moo.Point, len(kept))
		for i, c := range kept {
			pts[i] = moo.Point{Genome: []int{i}, Evaluation: moo.Evaluation{Objectives: obj(c)}}
		}
		thin, eps := moo.Thin(pts, len(p.objectives), limit)
		out.FrontFound, out.Epsilon = len(kept), eps
		var chosen []cand
		for _, q := range thin {
			chosen = append(chosen, kept[q.Genome[0]])
		}
		kept = chosen
	}
	points := make([]Point, len(kept))
	began := time.Now()
	if report != nil {
		report(0, len(kept), began)
	}
	var mu sync.Mutex
	done := 0
	evaluate.OnWorkers(workers, len(kept), p.e.Clone, stop, func(e *evaluate.Evaluator, i int) {
		if c := kept[i]; c.variant == nil {
			points[i] = p.pointWith(e, c.pt)
		} else {
			points[i] = p.variantPoint(e, c.variant)
		}
		if report != nil {
			mu.Lock()
			done++
			report(done, len(kept), began)
			mu.Unlock()
		}
	})
	analysed := points[:0]
	for _, pt := range points {
		if pt.Analysis != nil {
			analysed = append(analysed, pt)
		}
	}
	dropped = len(points) - len(analysed)
	points = analysed
	slices.SortStableFunc(points, func(a, b Point) int { return slices.Compare(a.Objectives, b.Objectives) })
	if stop == nil || !stop() {
		p.detail(points)
	}
	return points, dropped
}

// DetailPoints is how many points of a front, and of the least-violating
// mappings, get the contention of their response windows
// (AnalyzeContention) from Run: the points a report details. The others'
// are computed by whoever needs them (hetmap report --point). An
// interrupted run details none (results writes no evaluation file for
// it), and so skips them once its grace has passed.
const DetailPoints = 5

// detail analyses the contention of the first DetailPoints points.
func (p *Problem) detail(points []Point) {
	for _, pt := range points[:min(len(points), DetailPoints)] {
		if err := p.e.AnalyzeContention(pt.Analysis); err != nil {
			panic(fmt.Sprintf("optimizer: the contention of a front point: %v", err))
		}
	}
}

// MaxTaskMarginTasks bounds the running tasks of a system whose detailed
// front points get a margin per task (frontMargins): each costs about two
// analyses of one core, which for the first DetailPoints points of a
// system of a few hundred tasks would cost more than the search. Beyond it
// their evaluation files say that the per-task margins are left out
// (hetmap analyze gives them).
const MaxTaskMarginTasks = 50

// frontMargins computes the margin on execution demand of the points (each
// about two analyses, evaluate.Margins) on the search's workers, each with
// its own evaluator; a margin does not depend on which one computes it.
// The first DetailPoints points, whose full evaluation a run writes
// (mappings/point-N.json, as hetmap analyze --json gives it), get every
// margin: per kind of unit, and per task up to MaxTaskMarginTasks running
// tasks. Once ctx is done (an interrupted run, which must end promptly) it
// computes no more. It returns how many points have their margin; report,
// if not nil, is called as for front.
func (p *Problem) frontMargins(ctx context.Context, points []Point, workers int, report func(done, total int, since time.Time)) (int, error) {
	errs := make([]error, len(points))
	began := time.Now()
	if report != nil {
		report(0, len(points), began)
	}
	var mu sync.Mutex
	done := 0
	evaluate.OnWorkers(workers, len(points), p.e.Clone, func() bool { return ctx.Err() != nil }, func(e *evaluate.Evaluator, i int) {
		opts := evaluate.MarginOptions{OnlyExecutionScale: true, NoConsequences: true}
		if i < DetailPoints {
			running := 0
			for k := range points[i].Analysis.Tasks {
				if points[i].Analysis.Tasks[k].Role != evaluate.NotRunning {
					running++
				}
			}
			opts = evaluate.MarginOptions{Workers: 1, NoTasks: running > MaxTaskMarginTasks}
		}
		errs[i] = e.AnalyzeMargins(points[i].Assignment, points[i].Analysis, opts)
		mu.Lock()
		done++
		if report != nil {
			report(done, len(points), began)
		}
		mu.Unlock()
	})
	return done, errors.Join(errs...)
}

// variantPoint evaluates a priority-order variant in full with e (the
// problem's evaluator or a clone), chains included.
func (p *Problem) variantPoint(e *evaluate.Evaluator, v *sidePoint) Point {
	a := v.a.Clone()
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		panic(fmt.Sprintf("optimizer: re-evaluating a priority variant: %v", err))
	}
	e.AnalyzeChains(r)
	if err := e.AnalyzeDemand(r); err != nil {
		panic(fmt.Sprintf("optimizer: the demand of a priority variant: %v", err))
	}
	return Point{Mapping: e.Model().Mapping(a), Assignment: a, Analysis: r, Objectives: slices.Clone(v.obj)}
}

// distinctLeastViolating evaluates the least-violating genomes in full and
// keeps the leastViolatingShown best distinct mappings (several genomes can
// decode to one mapping), ranked by violation, then the utilisation of the
// most loaded core, then the number of tasks that miss, then the mapping.
func (p *Problem) distinctLeastViolating(pts []moo.Point) []Point {
	type ranked struct {
		pt  Point
		key string
	}
	var all []ranked
	seen := map[string]bool{}
	for _, pt := range pts {
		q := p.point(pt)
		data, err := json.Marshal(q.Mapping)
		if err != nil {
			panic(fmt.Sprintf("optimizer: encoding a mapping: %v", err))
		}
		key := string(data)
		if !seen[key] {
			seen[key] = true
			all = append(all, ranked{q, key})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.pt.Violation, b.pt.Violation),
			cmp.Compare(a.pt.Analysis.MaxCoreUtilisation(), b.pt.Analysis.MaxCoreUtilisation()),
			cmp.Compare(a.pt.Analysis.Misses, b.pt.Analysis.Misses))
	})
	var out []Point
	for _, r := range all[:min(len(all), leastViolatingShown)] {
		out = append(out, r.pt)
	}
	p.detail(out)
	return out
}

// point re-evaluates a genome of the result in full, chains included.
func (p *Problem) point(pt moo.Point) Point { return p.pointWith(p.e, pt) }

// pointWith is point with the evaluator e (the problem's or a clone).
func (p *Problem) pointWith(e *evaluate.Evaluator, pt moo.Point) Point {
	a := e.NewAssignment()
	p.Decode(pt.Genome, a)
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		panic(fmt.Sprintf("optimizer: re-evaluating a front point: %v", err))
	}
	e.AnalyzeChains(r)
	if err := e.AnalyzeDemand(r); err != nil {
		panic(fmt.Sprintf("optimizer: the demand of a front point: %v", err))
	}
	// An infeasible point reports the violation of this full analysis: the
	// search ranked it by its own measure, which for a mapping the relaxed
	// test refuted counts one core (evaluate.Evaluator.Evaluate).
	violation := pt.Violation
	if violation > 0 {
		violation = max(float64(r.Violation)/psPerMs, 1/psPerMs)
	}
	return Point{Mapping: e.Model().Mapping(a), Assignment: a, Analysis: r,
		Objectives: append([]float64(nil), pt.Objectives...), Violation: violation}
}
