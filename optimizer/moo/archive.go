package moo

import (
	"cmp"
	"slices"
)

// Archive holds the feasible non-dominated points among all those added to
// it: the best known approximation of the Pareto front.
//
// The archive keeps one point per objective vector: when several genomes
// have the same objectives, the one that is smallest lexicographically stays,
// so adding the same genome twice changes nothing. Its content therefore
// depends only on the set of points added, not on the order in which they
// were added, and Points lists it in a deterministic order.
//
// The zero value is not usable; call NewArchive. An Archive is not safe for
// concurrent use.
type Archive struct {
	m       int
	points  []Point
	version int
}

// NewArchive returns an empty archive for points of numObjectives objectives.
func NewArchive(numObjectives int) *Archive {
	return &Archive{m: numObjectives}
}

// Add offers a point to the archive and reports whether the archive changed.
// An infeasible point, or one that a member dominates, is refused; otherwise
// the point takes the place of the members it dominates (and of a member with
// the same objectives and a lexicographically larger genome). The archive
// stores copies of the genome and objectives; the payload is kept as is. Add
// panics if the point has the wrong number of objectives.
func (a *Archive) Add(p Point) bool {
	if len(p.Objectives) != a.m {
		panic("moo: point with the wrong number of objectives added to an archive")
	}
	if !p.Feasible() {
		return false
	}
	// Members are mutually non-dominated, so p can only be refused before
	// it has displaced any member: kept aliases a.points and is only
	// written behind the read position.
	kept := a.points[:0]
	for i := range a.points {
		q := &a.points[i]
		if slices.Equal(q.Objectives, p.Objectives) {
			if slices.Compare(q.Genome, p.Genome) <= 0 {
				return false
			}
			continue
		}
		if Dominates(q.Objectives, p.Objectives) {
			return false
		}
		if !Dominates(p.Objectives, q.Objectives) {
			kept = append(kept, *q)
		}
	}
	clear(a.points[len(kept):])
	a.points = append(kept, Point{
		Genome:     slices.Clone(p.Genome),
		Evaluation: Evaluation{Objectives: slices.Clone(p.Objectives), Payload: p.Payload},
	})
	a.version++
	return true
}

// reset empties the archive, keeping its memory.
func (a *Archive) reset() {
	clear(a.points)
	a.points = a.points[:0]
	a.version++
}

// Len returns the number of points in the archive.
func (a *Archive) Len() int { return len(a.points) }

// Points returns the archive's points sorted lexicographically by their
// objectives. The slice is new; the points share their genomes and
// objectives with the archive and must not be modified.
func (a *Archive) Points() []Point {
	pts := slices.Clone(a.points)
	slices.SortFunc(pts, func(p, q Point) int {
		if c := slices.Compare(p.Objectives, q.Objectives); c != 0 {
			return c
		}
		return slices.Compare(p.Genome, q.Genome)
	})
	return pts
}

// leastViolating keeps the k infeasible points of smallest violation, ties
// broken by the smaller Tiebreak and then the lexicographic order of the
// genomes, so that its content only depends on the set of points offered.
type leastViolating struct {
	k       int
	points  []Point // sorted by (violation, genome)
	version int
}

func comparePoints(p, q *Point) int {
	if c := cmp.Compare(p.Violation, q.Violation); c != 0 {
		return c
	}
	if c := cmp.Compare(p.Tiebreak, q.Tiebreak); c != 0 {
		return c
	}
	return slices.Compare(p.Genome, q.Genome)
}

func (l *leastViolating) add(p Point) {
	if p.Feasible() || l.k <= 0 {
		return
	}
	i, found := slices.BinarySearchFunc(l.points, p, func(a, b Point) int { return comparePoints(&a, &b) })
	if found || i >= l.k {
		return
	}
	p = Point{
		Genome:     slices.Clone(p.Genome),
		Evaluation: Evaluation{Objectives: slices.Clone(p.Objectives), Violation: p.Violation, Tiebreak: p.Tiebreak, Payload: p.Payload},
	}
	l.points = slices.Insert(l.points, i, p)
	if len(l.points) > l.k {
		l.points[l.k] = Point{}
		l.points = l.points[:l.k]
	}
	l.version++
}

// reset empties l, keeping its memory.
func (l *leastViolating) reset() {
	clear(l.points)
	l.points = l.points[:0]
	l.version++
}
