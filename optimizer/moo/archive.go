package moo

import (
	"cmp"
	"math"
	"slices"
)

// Archive holds the feasible non-dominated points among all those added to
// it: the best known approximation of the Pareto front.
//
// An archive made by NewArchive is exact: it keeps every non-dominated point,
// one per objective vector. When several points have the same objectives,
// the one that comes first by key stays (a genome's own point before the
// variants its evaluation found, then the lexicographically smaller genome;
// see Point), so adding the same point twice changes nothing. Its content
// then depends only on the set of points added, not on the order in which
// they were added.
//
// An archive made by NewBoundedArchive keeps at most its limit of points,
// with a stated loss: an ε-dominance archive (Laumanns, Thiele, Deb and
// Zitzler 2002, the box-based archive of their section 4). Objective k is
// cut into boxes of width ε_k, box_k(f) = ⌊f_k/ε_k⌋; the archive keeps at most
// one point per box and no point whose box another member's box dominates;
// a point joins a box already held only when it dominates the holder (or
// has its objectives and comes first by key). Under one grid every point
// ever added is then ε-dominated by a member a, box(a) ≤ box(f), so that
//
//	a_k < f_k + ε_k for every objective k:
//
// no point met is more than ε_k better than a reported one on any
// objective. The archive starts exact (ε = 0) and sets a grid only when it
// would exceed its limit. Each ε_k is a power of two; when the members do
// not fit, the ε of the objective whose boxes are finest relative to the
// members' spread doubles until they do, and when a search's progress has
// left the archive less than half full (members removed by better points),
// the ε of the objective whose boxes are coarsest relative to the spread
// halves, so that the front keeps its resolution as it narrows. Since a box
// of width 2ε is the union of two of width ε, the boxes of any two grids
// nest, box dominance under a finer grid implies it under a coarser one,
// and the guarantee holds for the coarsest ε each objective has had:
// Epsilon reports that (TestBoundedArchiveProperty checks it on random
// point sets). It follows that the hypervolume of the points added is at
// most that of the members shifted by −ε (EpsilonLoss gives the difference
// to the members' own). Members are also mutually non-dominated. The limit
// can be exceeded only where an objective takes values of both signs, whose
// boxes cannot all merge, and then by at most the number of mutually
// non-dominated corners of a unit cube.
//
// The zero value is not usable; call NewArchive or NewBoundedArchive. An
// Archive is not safe for concurrent use. Its state is plain values (the
// points, the limit, the grid's exponents), which a checkpoint can write.
type Archive struct {
	m       int
	points  []Point
	version int

	// limit is the most points kept, 0 for no limit.
	limit int
	// gridded: the ε-grid is in force, ε_k = 2^exp[k]; otherwise the
	// archive is exact. widest[k] is the largest exp[k] has been: the ε
	// of the guarantee.
	gridded bool
	exp     []int
	widest  []int
	// boxes holds the members' boxes, boxes[i*m:(i+1)*m] for points[i],
	// when gridded.
	boxes []float64
	// scratch for a point's box, and for the boxes of a coarser grid.
	box, scratch []float64
}

// NewArchive returns an empty exact archive for points of numObjectives
// objectives.
func NewArchive(numObjectives int) *Archive {
	return &Archive{m: numObjectives}
}

// NewBoundedArchive returns an empty ε-dominance archive for points of
// numObjectives objectives that keeps at most limit points (see Archive); a
// limit of 0 or less gives an exact archive, as NewArchive does.
func NewBoundedArchive(numObjectives, limit int) *Archive {
	return &Archive{m: numObjectives, limit: max(0, limit)}
}

// Limit returns the most points the archive keeps, 0 for no limit.
func (a *Archive) Limit() int { return a.limit }

// Epsilon returns the ε of every objective (a new slice): every point added
// is ε-dominated by a member. It is nil while the archive is exact (no point
// added has been left out for the limit).
func (a *Archive) Epsilon() []float64 {
	if !a.gridded {
		return nil
	}
	eps := make([]float64, a.m)
	for k, e := range a.widest {
		eps[k] = math.Ldexp(1, e)
	}
	return eps
}

// Version changes whenever the archive's content does.
func (a *Archive) Version() int { return a.version }

// comparePointKeys orders points of equal objectives: a genome's own point
// before any variant, own points by genome, variants by group and index
// (the same variant found twice is the same point).
func comparePointKeys(p, q *Point) int {
	switch {
	case p.Variant == 0 && q.Variant != 0:
		return -1
	case p.Variant != 0 && q.Variant == 0:
		return 1
	case p.Variant == 0:
		return slices.Compare(p.Genome, q.Genome)
	}
	return cmp.Or(cmp.Compare(p.Group, q.Group), cmp.Compare(p.Variant, q.Variant))
}

// precedes reports whether p takes q's place in a box: p dominates q, or
// has its objectives and comes first by key. It is a strict partial order.
func precedes(p, q *Point) bool {
	if slices.Equal(p.Objectives, q.Objectives) {
		return comparePointKeys(p, q) < 0
	}
	return Dominates(p.Objectives, q.Objectives)
}

// boxOf writes into dst the box of objectives f under the grid.
func (a *Archive) boxOf(f []float64, dst []float64) []float64 {
	dst = dst[:0]
	for k, v := range f {
		dst = append(dst, math.Floor(math.Ldexp(v, -a.exp[k])))
	}
	return dst
}

// memberBox returns the box of member i: its objectives while the archive
// is exact.
func (a *Archive) memberBox(i int) []float64 {
	if !a.gridded {
		return a.points[i].Objectives
	}
	return a.boxes[i*a.m : (i+1)*a.m]
}

// Add offers a point to the archive and reports whether the archive changed.
// An infeasible point, or one that a member's box dominates, is refused;
// otherwise the point takes the place of the members whose boxes its box
// dominates, or of the member of its own box that it precedes (see
// Archive). The archive stores copies of the genome and objectives; the
// payload is kept as is, the variants are not. Add panics if the point has
// the wrong number of objectives.
func (a *Archive) Add(p Point) bool {
	if len(p.Objectives) != a.m {
		panic("moo: point with the wrong number of objectives added to an archive")
	}
	if !p.Feasible() {
		return false
	}
	pb := p.Objectives
	if a.gridded {
		a.box = a.boxOf(p.Objectives, a.box)
		pb = a.box
	}
	// Members' boxes are mutually non-dominated, so p can only be refused
	// before it has displaced any member: kept aliases a.points (and kb
	// a.boxes) and is only written behind the read position.
	kept := a.points[:0]
	kb := a.boxes[:0]
	for i := range a.points {
		q := &a.points[i]
		qb := a.memberBox(i)
		if slices.Equal(qb, pb) {
			// Its box holds no other member, and no other member's box
			// dominates it or is dominated by it.
			if !precedes(&p, q) {
				return false
			}
			a.points[i] = a.stored(p)
			a.version++
			return true
		}
		if Dominates(qb, pb) {
			return false
		}
		if !Dominates(pb, qb) {
			kept = append(kept, *q)
			if a.gridded {
				kb = append(kb, qb...)
			}
		}
	}
	removed := len(a.points) - len(kept)
	clear(a.points[len(kept):])
	a.points = append(kept, a.stored(p))
	if a.gridded {
		a.boxes = append(kb, pb...)
	}
	a.version++
	switch {
	case a.limit > 0 && len(a.points) > a.limit:
		a.coarsen()
	case a.gridded && removed > 0 && 2*len(a.points) < a.limit:
		a.refine()
	}
	return true
}

// stored is the copy of p that the archive keeps.
func (a *Archive) stored(p Point) Point {
	return Point{
		Genome:     slices.Clone(p.Genome),
		Evaluation: Evaluation{Objectives: slices.Clone(p.Objectives), Payload: p.Payload},
		Variant:    p.Variant,
		Group:      p.Group,
	}
}

// coarsen sets the grid, if there is none yet, and doubles an ε at a time
// until the members fit the limit: the one that removes the fewest
// members, so that the archive stays near its limit (in many objectives a
// doubling can merge half the boxes), preferring an objective whose ε was
// wider before (the guarantee is not weakened), then the objective whose
// boxes are the finest relative to the members' spread on it, the first
// such objective on ties. An objective whose ε exceeds twice every
// member's magnitude is left alone: its boxes cannot merge further.
func (a *Archive) coarsen() {
	lo, hi := make([]float64, a.m), make([]float64, a.m)
	spread := func() {
		for k := range a.m {
			lo[k], hi[k] = math.Inf(1), math.Inf(-1)
			for i := range a.points {
				v := a.points[i].Objectives[k]
				lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
			}
		}
	}
	spread()
	if !a.gridded {
		// About two boxes per member along each objective's spread: fine
		// enough that the first coarsenings decide what merges.
		a.exp = make([]int, a.m)
		for k := range a.m {
			if s := hi[k] - lo[k]; s > 0 {
				a.exp[k] = math.Ilogb(s) - math.Ilogb(float64(a.limit)) - 2
			} else {
				// A constant objective: any width keeps it one box.
				a.exp[k] = math.Ilogb(max(math.Abs(hi[k]), 1)) - 40
			}
		}
		a.widest = slices.Clone(a.exp)
		a.gridded = true
		a.regrid()
		spread()
	}
	for len(a.points) > a.limit {
		// The doubling that keeps the most members while removing some,
		// one within the widest ε the objective has had first (it costs
		// the guarantee nothing); else, where no doubling alone removes
		// any, that of the objective whose boxes are the finest.
		best, ratio, kept, free := -1, 0.0, -1, false
		for k := range a.m {
			eps := math.Ldexp(1, a.exp[k])
			if eps > 2*max(math.Abs(lo[k]), math.Abs(hi[k])) {
				continue // every member in box 0 or −1 already
			}
			r := (hi[k] - lo[k]) / eps
			n := a.keptIfDoubled(k)
			if n == len(a.points) {
				n = -1 // removes none
			}
			f := n >= 0 && a.exp[k] < a.widest[k]
			better := cmp.Or(cmpBool(f, free), cmp.Compare(n, kept), cmp.Compare(r, ratio))
			if best < 0 || better > 0 {
				best, ratio, kept, free = k, r, n, f
			}
		}
		if best < 0 {
			return // only values of both signs keep boxes apart
		}
		a.exp[best]++
		a.widest[best] = max(a.widest[best], a.exp[best])
		a.regrid()
		spread()
	}
}

// keptIfDoubled returns how many members the archive would keep if the ε
// of objective k doubled: one per box of the coarser grid, and none whose
// box another's dominates.
func (a *Archive) keptIfDoubled(k int) int {
	m, n := a.m, len(a.points)
	nb := a.scratch[:0]
	for i := range n {
		b := a.boxes[i*m : (i+1)*m]
		nb = append(nb, b...)
		nb[i*m+k] = math.Floor(b[k] / 2)
	}
	a.scratch = nb
	kept := 0
	for i := range n {
		bi := nb[i*m : (i+1)*m]
		out := false
		for j := range n {
			if i == j {
				continue
			}
			bj := nb[j*m : (j+1)*m]
			// Of members sharing a box, the first stands for them.
			if Dominates(bj, bi) || j < i && slices.Equal(bi, bj) {
				out = true
				break
			}
		}
		if !out {
			kept++
		}
	}
	return kept
}

// cmpBool orders false before true.
func cmpBool(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

// refine halves the ε of the objective whose boxes are the coarsest
// relative to the members' spread on it, the first such objective on
// ties, unless every objective has twice the limit of boxes across its
// spread already. Members stay mutually non-dominated under the finer grid
// (box dominance there implies it under the coarser one), so none leaves.
func (a *Archive) refine() {
	best, ratio := -1, 0.0
	for k := range a.m {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range a.points {
			v := a.points[i].Objectives[k]
			lo, hi = min(lo, v), max(hi, v)
		}
		r := (hi - lo) / math.Ldexp(1, a.exp[k])
		if r <= 0 || r >= float64(2*a.limit) {
			continue
		}
		if best < 0 || r < ratio {
			best, ratio = k, r
		}
	}
	if best < 0 {
		return
	}
	a.exp[best]--
	a.boxes = a.boxes[:0]
	for i := range a.points {
		a.boxes = append(a.boxes, a.boxOf(a.points[i].Objectives, a.box)...)
	}
}

// regrid recomputes the members' boxes under the current grid and keeps,
// of the members that now share a box, the one nearest the box's lower
// corner (in widths of the box; then by objectives), and no member whose
// box another member's box dominates.
func (a *Archive) regrid() {
	n, m := len(a.points), a.m
	a.boxes = a.boxes[:0]
	for i := range a.points {
		a.boxes = append(a.boxes, a.boxOf(a.points[i].Objectives, a.box)...)
	}
	dist := func(i int) float64 {
		d := 0.0
		for k, v := range a.points[i].Objectives {
			x := math.Ldexp(v, -a.exp[k]) - a.boxes[i*m+k]
			d += x * x
		}
		return d
	}
	drop := make([]bool, n)
	for i := range n {
		bi := a.boxes[i*m : (i+1)*m]
		for j := range n {
			if i == j || drop[j] {
				continue
			}
			bj := a.boxes[j*m : (j+1)*m]
			if slices.Equal(bi, bj) {
				if c := cmp.Or(cmp.Compare(dist(j), dist(i)), slices.Compare(a.points[j].Objectives, a.points[i].Objectives)); c < 0 {
					drop[i] = true
					break
				}
				continue
			}
			if Dominates(bj, bi) {
				drop[i] = true
				break
			}
		}
	}
	kept, kb := a.points[:0], a.boxes[:0]
	for i := range n {
		if !drop[i] {
			kept = append(kept, a.points[i])
			kb = append(kb, a.boxes[i*m:(i+1)*m]...)
		}
	}
	clear(a.points[len(kept):])
	a.points, a.boxes = kept, kb
	a.version++
}

// reset empties the archive, keeping its memory (and its grid).
func (a *Archive) reset() {
	clear(a.points)
	a.points = a.points[:0]
	a.boxes = a.boxes[:0]
	a.version++
}

// Len returns the number of points in the archive.
func (a *Archive) Len() int { return len(a.points) }

// Points returns the archive's points sorted lexicographically by their
// objectives, then by key. The slice is new; the points share their genomes
// and objectives with the archive and must not be modified.
func (a *Archive) Points() []Point {
	pts := slices.Clone(a.points)
	slices.SortFunc(pts, func(p, q Point) int {
		if c := slices.Compare(p.Objectives, q.Objectives); c != 0 {
			return c
		}
		return comparePointKeys(&p, &q)
	})
	return pts
}

// Thin returns at most limit of points, chosen by a bounded archive that
// is offered them in their order, and the ε it guarantees (see Archive):
// every point given is ε-dominated by one returned. With no limit (0), or
// when every feasible point fits, it returns the non-dominated feasible
// points and a nil ε. The points returned are the archive's (Points).
func Thin(points []Point, numObjectives, limit int) ([]Point, []float64) {
	a := NewBoundedArchive(numObjectives, limit)
	for _, p := range points {
		a.Add(p)
	}
	return a.Points(), a.Epsilon()
}

// EpsilonLoss bounds what a front of ε-dominance loses: the hypervolume,
// with respect to ref, of the front shifted by −ε less that of the front
// itself. Every point the front ε-dominates lies in what the shifted front
// dominates, so a set of points an archive with this ε reported front for
// has a hypervolume of at most Hypervolume(front, ref) + EpsilonLoss(front,
// eps, ref). A nil eps loses nothing.
func EpsilonLoss(front [][]float64, eps, ref []float64) float64 {
	if eps == nil || len(front) == 0 {
		return 0
	}
	shifted := make([][]float64, len(front))
	for i, p := range front {
		s := make([]float64, len(p))
		for k := range p {
			s[k] = p[k] - eps[k]
		}
		shifted[i] = s
	}
	return Hypervolume(shifted, ref) - Hypervolume(front, ref)
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
