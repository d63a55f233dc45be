package moo

import (
	"math"
)

// Stall is NSGA-II's termination on progress, after pymoo's default
// multi-objective termination (Blank and Deb 2020), which ends a run once
// its front has stopped moving over a window of generations. The front
// here is the run's archive, not the population, so that the measure sees
// every point met, the priority-order variants included; and the
// movement is an improvement, not any change, since a bounded archive
// moves when it thins itself without the search finding anything better.
//
// Every stallStep generations the run measures how much its front improved
// on the front Generations generations before: the mean, over the points of
// the front, of the distance by which the old front falls short of each
// (Ishibuchi et al.'s IGD+ distance, d⁺(p, o) = √Σ max(o_k − p_k, 0)², to the
// nearest old point o; 0 for a point the old front weakly dominates), every
// objective in units of the two fronts' extent on it. While no feasible
// point is known, it is the relative improvement of the least violation
// instead. The first measure is made after twice the window: the initial
// population, which a problem may open with good genomes built for it,
// is not what the first window is compared with. The run stops, with
// Status Converged, at the first measure of at most Tolerance.
// Settings.Generations and Settings.MaxEvaluations stay hard limits.
//
// The zero value never stops a run early.
type Stall struct {
	// Generations is the window: how many generations back the front is
	// compared with. 0, the default, never ends a run this way.
	Generations int
	// Tolerance is the improvement over the window, in extents of the
	// front, at or below which the run stops. The default, for 0, is
	// DefaultStallTolerance.
	Tolerance float64
}

// DefaultStallTolerance is the default of Stall.Tolerance: pymoo's
// default tolerance on the movement of a front (ftol), here on its
// improvement over the window.
const DefaultStallTolerance = 0.005

// stallStep is how many generations apart the front is measured: the
// window's snapshots are that far apart, so that a measure costs little
// and the snapshots kept are few.
const stallStep = 5

// stallPoints bounds the points a snapshot keeps: a larger archive
// (Settings.MaxFront 0) is measured through a copy thinned to this many
// (Thin), so that a measure costs O(stallPoints²) whatever the archive.
const stallPoints = 200

// stallSnapshot is the front at one generation: plain values, which a
// checkpoint can write.
type stallSnapshot struct {
	generation int
	objectives []float64 // n points of m objectives, flattened
	feasible   bool
	violation  float64 // the least violation, where not feasible
}

// stallState is what the termination remembers: the snapshots of the
// window, oldest first, and the measures made.
type stallState struct {
	snaps []stallSnapshot
	// improvement is the last measure (Inf before the first).
	improvement float64
	// measured lists the recent measures' generations and values, for the
	// estimate of the generations left.
	measured []stallMeasure
}

type stallMeasure struct {
	generation int
	value      float64
}

// measure records the generation just evolved (generation 0 is the
// initial population): every stallStep generations a snapshot of the
// archive's front, and, from the window's length on, the improvement on
// the snapshot that far back.
func (st *stallState) measure(r *run, s Stall) {
	g := r.generations
	if s.Generations <= 0 || g%stallStep != 0 {
		return
	}
	m := r.sp.m
	snap := stallSnapshot{generation: g, feasible: r.archive.Len() > 0, violation: math.Inf(1)}
	pts := r.archive.points
	if len(pts) > stallPoints {
		pts, _ = Thin(pts, m, stallPoints)
	}
	for i := range pts {
		snap.objectives = append(snap.objectives, pts[i].Objectives...)
	}
	if !snap.feasible && len(r.least.points) > 0 {
		snap.violation = r.least.points[0].Violation
	}
	// Reuse the memory of the snapshots that leave the window.
	keep := (s.Generations+stallStep-1)/stallStep + 1
	if len(st.snaps) == keep {
		old := st.snaps[0].objectives
		copy(st.snaps, st.snaps[1:])
		st.snaps = st.snaps[:keep-1]
		snap.objectives = append(old[:0], snap.objectives...)
	}
	st.snaps = append(st.snaps, snap)
	st.improvement = math.Inf(1)
	if old := st.snaps[0]; g >= 2*s.Generations && g-old.generation >= s.Generations {
		switch {
		case snap.feasible && old.feasible:
			st.improvement = frontImprovement(snap.objectives, old.objectives, m)
		case !snap.feasible && !old.feasible && old.violation > 0 && !math.IsInf(old.violation, 0):
			st.improvement = (old.violation - snap.violation) / old.violation
		}
		st.measured = append(st.measured, stallMeasure{g, st.improvement})
		if over := len(st.measured) - 10; over > 0 {
			st.measured = append(st.measured[:0], st.measured[over:]...)
		}
	}
}

// stalled reports whether the last measure is at most the tolerance.
func (st *stallState) stalled(s Stall) bool {
	return s.Generations > 0 && len(st.measured) > 0 && st.improvement <= tolerance(s)
}

func tolerance(s Stall) float64 {
	if s.Tolerance <= 0 {
		return DefaultStallTolerance
	}
	return s.Tolerance
}

// left estimates the generations left before the window's improvement
// falls to the tolerance, at most limit: the recent measures' logarithms
// fitted by a line in the generation (least squares) and followed to the
// tolerance, the fewest being the generations to the next measure, or
// before the first measure the generations to it (at twice the window). Where the measures do
// not fall (or are too few), limit.
func (st *stallState) left(g int, s Stall, limit int) float64 {
	if s.Generations <= 0 {
		return float64(limit)
	}
	if g < 2*s.Generations {
		return float64(min(limit, 2*s.Generations-g))
	}
	var n, sx, sy, sxx, sxy float64
	for _, p := range st.measured {
		if !(p.value > 0) || math.IsInf(p.value, 0) {
			continue
		}
		x, y := float64(p.generation), math.Log(p.value)
		n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	if n < 3 || n*sxx == sx*sx {
		return float64(limit)
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	if slope >= 0 {
		return float64(limit)
	}
	at := (math.Log(tolerance(s)) - (sy-slope*sx)/n) / slope
	return min(float64(limit), max(float64(stallStep), at-float64(g)))
}

// frontImprovement is how much the front cur improved on old (both n
// points of m objectives, flattened): the mean over the points p of cur of
// the least, over the points o of old, of d⁺(p, o) = √Σ max(o_k − p_k, 0)²
// (IGD+'s distance: 0 when o weakly dominates p), every objective in units
// of the extent of cur and old together on it (1 where that is 0).
func frontImprovement(cur, old []float64, m int) float64 {
	if len(cur) == 0 || len(old) == 0 {
		return math.Inf(1)
	}
	lo, hi := make([]float64, m), make([]float64, m)
	for k := range m {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	for _, f := range [][]float64{cur, old} {
		for i, v := range f {
			k := i % m
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
	}
	unit := make([]float64, m)
	for k := range m {
		unit[k] = hi[k] - lo[k]
		if !(unit[k] > 1e-300) {
			unit[k] = 1
		}
	}
	sum := 0.0
	for i := 0; i < len(cur); i += m {
		p := cur[i : i+m]
		best := math.Inf(1)
		for j := 0; j < len(old) && best > 0; j += m {
			d := 0.0
			for k, o := range old[j : j+m] {
				if x := (o - p[k]) / unit[k]; x > 0 {
					d += x * x
					if d >= best {
						break
					}
				}
			}
			best = min(best, d)
		}
		sum += math.Sqrt(best)
	}
	return sum / float64(len(cur)/m)
}
