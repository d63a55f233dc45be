package moo

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sync"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// randomFrontPoints draws n points of m objectives near a front: a random
// direction on the unit simplex scaled to the surface Σ f_k = scale, pushed
// back by a random amount, and rounded to a grid of step (0: no rounding),
// so that many points are non-dominated, some repeat and some dominate
// others. A share of them is infeasible. Every objective is positive
// unless negative is set, when it is negative.
func randomFrontPoints(rng *rand.Rand, n, m int, scale, step float64, negative bool) []Point {
	pts := make([]Point, n)
	for i := range pts {
		obj := make([]float64, m)
		sum := 0.0
		for k := range obj {
			obj[k] = -math.Log(1 - rng.Float64())
			sum += obj[k]
		}
		back := 1 + 0.3*rng.Float64()*rng.Float64()
		for k := range obj {
			v := scale * back * obj[k] / sum
			if step > 0 {
				v = math.Round(v/step) * step
			}
			if negative {
				v = -v - 1
			}
			obj[k] = v
		}
		pts[i] = Point{Genome: []int{i}, Evaluation: Evaluation{Objectives: obj}}
		if rng.Intn(10) == 0 {
			pts[i].Violation = 1
		}
	}
	return pts
}

// epsDominates reports whether a ε-dominates f as the archive guarantees:
// a_k < f_k + ε_k for every k, or a weakly dominates f where eps is nil.
func epsDominates(a, f, eps []float64) bool {
	for k := range a {
		if eps == nil && a[k] > f[k] || eps != nil && !(a[k] < f[k]+eps[k]) {
			return false
		}
	}
	return true
}

// TestBoundedArchiveProperty is the archive's guarantee on random point sets
// (2 to 6 objectives, up to 600 points, limits 1 to 80): every feasible
// point offered is ε-dominated by a member (a_k < f_k + ε_k), the archive
// never holds more than its limit, its members are mutually non-dominated,
// every ε is a power of two, and the hypervolume of the members is at least
// that of the exact archive of the same points less EpsilonLoss: the
// members shifted by −ε dominate everything the exact archive does. It
// checks the guarantee after every addition, not only at the end, through
// the grid's coarsening and refining.
func TestBoundedArchiveProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(27))
	cases := 400
	if testsize.Reduced() {
		cases = 60
	}
	gridded, refined := 0, 0
	for c := range cases {
		m := 2 + rng.Intn(5)
		n := 1 + rng.Intn(600)
		limit := 1 + rng.Intn(80)
		step := 0.0
		if rng.Intn(3) == 0 {
			step = 0.5
		}
		negative := rng.Intn(4) == 0
		pts := randomFrontPoints(rng, n, m, 10+90*rng.Float64(), step, negative)
		if rng.Intn(2) == 0 {
			// A search that progresses: later points better, so that
			// members leave and the grid refines (every value keeping
			// its sign).
			for i := range pts {
				for k := range pts[i].Objectives {
					if !negative {
						pts[i].Objectives[k] += 40
					}
					pts[i].Objectives[k] -= 40 * float64(i) / float64(n)
				}
			}
		}
		name := fmt.Sprintf("case %d (%d objectives, %d points, limit %d)", c, m, n, limit)
		a := NewBoundedArchive(m, limit)
		exact := NewArchive(m)
		for i, p := range pts {
			a.Add(p)
			exact.Add(p)
			if a.Len() > limit {
				t.Fatalf("%s: %d members after %d points", name, a.Len(), i+1)
			}
			// The guarantee holds after every addition, for every point
			// offered so far (checked on a sample, to keep it quick).
			if i%17 == 0 || i == len(pts)-1 {
				eps, members := a.Epsilon(), a.Points()
				for _, f := range pts[:i+1] {
					if f.Feasible() && !slices.ContainsFunc(members, func(q Point) bool { return epsDominates(q.Objectives, f.Objectives, eps) }) {
						t.Fatalf("%s: after %d points, %v is ε-dominated (ε %v) by no member of %v", name, i+1, f.Objectives, eps, Objectives(members))
					}
				}
			}
		}
		eps, members := a.Epsilon(), a.Points()
		if !slices.Equal(a.exp, a.widest) {
			refined++
		}
		if eps != nil {
			gridded++
			for k, e := range eps {
				if _, exp := math.Frexp(e); math.Ldexp(1, exp-1) != e {
					t.Errorf("%s: ε_%d = %v is no power of two", name, k, e)
				}
			}
		} else if !sameGenomes(members, exact.Points()) {
			t.Errorf("%s: an archive that never reached its limit is not the exact archive: %v, want %v", name, members, exact.Points())
		}
		for i, p := range members {
			for j, q := range members {
				if i != j && Dominates(p.Objectives, q.Objectives) {
					t.Fatalf("%s: member %v dominates member %v", name, p.Objectives, q.Objectives)
				}
			}
		}
		// Hypervolume: in at most 4 objectives (exact hypervolume of many
		// points is slow beyond).
		if m <= 4 && len(members) > 0 {
			ref := make([]float64, m)
			for _, p := range pts {
				for k := range ref {
					ref[k] = max(ref[k], p.Objectives[k]+1)
				}
			}
			all := Objectives(exact.Points())
			hvAll, hv := Hypervolume(all, ref), Hypervolume(Objectives(members), ref)
			loss := EpsilonLoss(Objectives(members), eps, ref)
			if hv+loss < hvAll*(1-1e-12) {
				t.Errorf("%s: hypervolume %v + ε loss %v < %v, the exact archive's", name, hv, loss, hvAll)
			}
			if eps == nil && (loss != 0 || math.Abs(hv-hvAll) > 1e-9*hvAll) {
				t.Errorf("%s: exact archive, hypervolume %v, want %v (loss %v)", name, hv, hvAll, loss)
			}
		}
	}
	if gridded < cases/4 || refined < cases/20 {
		t.Errorf("%d of %d cases needed a grid, %d refined it: the test does not exercise them", gridded, cases, refined)
	}
	t.Logf("%d cases, %d gridded, %d refined", cases, gridded, refined)
}

// TestBoundedArchiveMixedSigns: where an objective takes values of both
// signs, boxes at −1 and 0 can never merge; the archive then stops
// coarsening instead of looping, above its limit by at most the mutually
// non-dominated corners of a cube ({−1, 0}^m: C(m, ⌊m/2⌋)).
func TestBoundedArchiveMixedSigns(t *testing.T) {
	a := NewBoundedArchive(2, 1)
	a.Add(Point{Genome: []int{0}, Evaluation: Evaluation{Objectives: []float64{-0.5, 0.5}}})
	a.Add(Point{Genome: []int{1}, Evaluation: Evaluation{Objectives: []float64{0.5, -0.5}}})
	if a.Len() != 2 {
		t.Errorf("%d members, want both points, whose boxes cannot merge", a.Len())
	}
	// A point that both could merge with does reduce them.
	a = NewBoundedArchive(2, 1)
	a.Add(Point{Genome: []int{0}, Evaluation: Evaluation{Objectives: []float64{1, 2}}})
	a.Add(Point{Genome: []int{1}, Evaluation: Evaluation{Objectives: []float64{2, 1}}})
	if a.Len() != 1 {
		t.Errorf("%d members of positive points, want 1", a.Len())
	}
}

// TestBoundedArchiveHand follows a small archive by hand. Limit 2, points
// (1, 8), (5, 5), (8, 1): the third exceeds the limit, so the archive sets
// its grid at about 2·limit boxes per objective's spread (7 on both), ε =
// 2^(ilogb(7) − ilogb(2) − 2) = 2^(2−1−2) = 0.5, where the points are in
// the boxes (2, 16), (10, 10), (16, 2); then it doubles an ε at a time, the
// one that keeps the most members while removing some, or where none
// removes any, that of the objective with the most boxes across the spread
// (spread/ε; the first on ties):
//
//	ε (1, 0.5): (1, 16) (5, 10) (8, 2)  no doubling removes a point
//	ε (1, 1):   (1, 8)  (5, 5)  (8, 1)
//	ε (2, 1):   (0, 8)  (2, 5)  (4, 1)
//	ε (2, 2):   (0, 4)  (2, 2)  (4, 0)
//	ε (4, 2):   (0, 4)  (1, 2)  (2, 0)  doubling ε_1 would give (0, 4) (0, 2) (1, 0)
//	ε (8, 2):   (0, 4)  (0, 2)  (1, 0): (5, 5)'s box dominates (1, 8)'s.
func TestBoundedArchiveHand(t *testing.T) {
	a := NewBoundedArchive(2, 2)
	for i, o := range [][]float64{{1, 8}, {5, 5}, {8, 1}} {
		a.Add(Point{Genome: []int{i}, Evaluation: Evaluation{Objectives: o}})
	}
	got := Objectives(a.Points())
	if want := [][]float64{{5, 5}, {8, 1}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("members %v, want %v", got, want)
	}
	if eps := a.Epsilon(); !slices.Equal(eps, []float64{8, 2}) {
		t.Errorf("ε %v, want [8 2]", eps)
	}
	// (1, 8) is ε-dominated by (5, 5): 5 < 1 + 8 and 5 < 8 + 2.
	if !epsDominates([]float64{5, 5}, []float64{1, 8}, a.Epsilon()) {
		t.Error("the hand example's guarantee fails")
	}
}

// TestThin: thinning an exact front keeps every point when it fits (and
// says so with a nil ε), and at most the limit otherwise.
func TestThin(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	pts := randomFrontPoints(rng, 300, 3, 50, 0, false)
	all, eps := Thin(pts, 3, 0)
	if eps != nil || len(all) == 0 {
		t.Fatalf("no limit: %d points, ε %v", len(all), eps)
	}
	same, eps := Thin(pts, 3, len(all))
	if eps != nil || !sameGenomes(same, all) {
		t.Errorf("a limit the front fits: %d points of %d, ε %v", len(same), len(all), eps)
	}
	few, eps := Thin(pts, 3, 10)
	if eps == nil || len(few) > 10 || len(few) == 0 {
		t.Errorf("limit 10: %d points, ε %v", len(few), eps)
	}
}

// variantKnapsack is the tri-objective knapsack whose evaluations also
// report variants, as the mapping search reports a mapping's other priority
// orders: the "mapping" of a genome is its canonical form, items 0 and 2
// sorted and item 6 left out (eight genomes a mapping), the variants of a feasible mapping are three points derived
// from the canonical form alone (its objectives shifted by −1, +0.5 and
// −0.25 on one objective each), and a worker reports them only the first
// time it meets the mapping, as the search's workers do.
type variantKnapsack struct {
	*knapsack
	mu      sync.Mutex
	offered []Point // every feasible point evaluated, own and variant
}

func (v *variantKnapsack) NewWorker() Evaluator {
	return &variantEvaluator{v: v, inner: v.knapsack.NewWorker(), met: map[uint64]bool{}}
}

type variantEvaluator struct {
	v     *variantKnapsack
	inner Evaluator
	met   map[uint64]bool
}

func (e *variantEvaluator) Evaluate(x []int, out *Evaluation) {
	e.inner.Evaluate(x, out)
	if !out.Feasible() {
		return
	}
	canon := slices.Clone(x)
	if canon[0] > canon[2] {
		canon[0], canon[2] = canon[2], canon[0]
	}
	canon[6] = 0
	group := hashGenome(canon)
	// The variants are the canonical mapping's: a function of the group.
	ce := Evaluation{Objectives: make([]float64, len(out.Objectives))}
	e.inner.Evaluate(canon, &ce)
	var vs []Variant
	for k, shift := range []float64{-1, 0.5, -0.25} {
		o := slices.Clone(ce.Objectives)
		o[k%len(o)] += shift
		o[(k+1)%len(o)] += float64(canon[0] - canon[2])
		vs = append(vs, Variant{Group: group, Objectives: o, Payload: k})
	}
	e.v.mu.Lock()
	e.v.offered = append(e.v.offered, Point{Genome: slices.Clone(x), Evaluation: Evaluation{Objectives: slices.Clone(out.Objectives)}})
	for _, v := range vs {
		e.v.offered = append(e.v.offered, Point{Genome: slices.Clone(x), Evaluation: Evaluation{Objectives: v.Objectives}})
	}
	e.v.mu.Unlock()
	if !e.met[group] {
		e.met[group] = true
		out.Variants = vs
	}
}

// TestNSGA2VariantsAcrossWorkers: variants reported by whichever worker
// first meets their group reach a bounded archive in an order that does not
// depend on the workers (by group, at the end of each batch), so that 1, 2
// and 4 workers give the same front, variants included; the front holds
// variants, and every feasible point evaluated, own or variant, is
// ε-dominated by a point of the front.
func TestNSGA2VariantsAcrossWorkers(t *testing.T) {
	gob.Register(knapsackPayload{})
	run := func(workers int, seed int64) (*Result, []byte, []Point) {
		k := newKnapsack(3)
		k.jitter = true
		v := &variantKnapsack{knapsack: k}
		res, err := Minimize(v, &NSGA2{Population: 40}, &Settings{Generations: 40, Workers: workers, Seed: seed, MaxFront: 8})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(res); err != nil {
			t.Fatal(err)
		}
		return res, buf.Bytes(), v.offered
	}
	variants := 0
	for seed := int64(1); seed <= 6; seed++ {
		one, enc, offered := run(1, seed)
		for _, p := range one.Front {
			if p.Variant > 0 {
				variants++
				if p.Payload != p.Variant-1 || p.Genome != nil {
					t.Errorf("seed %d: variant %d carries payload %v, genome %v", seed, p.Variant, p.Payload, p.Genome)
				}
			}
		}
		if len(one.Front) > 8 || one.Epsilon == nil {
			t.Fatalf("seed %d: front of %d points, ε %v: want a front thinned to at most 8", seed, len(one.Front), one.Epsilon)
		}
		for _, f := range offered {
			if !slices.ContainsFunc(one.Front, func(q Point) bool { return epsDominates(q.Objectives, f.Objectives, one.Epsilon) }) {
				t.Fatalf("seed %d: %v is ε-dominated (ε %v) by no point of the front", seed, f.Objectives, one.Epsilon)
			}
		}
		for _, w := range []int{2, 4} {
			if res, other, _ := run(w, seed); !bytes.Equal(enc, other) {
				t.Errorf("seed %d: 1 and %d workers give different fronts:\n%v\n%v", seed, w, Objectives(one.Front), Objectives(res.Front))
			}
		}
	}
	if variants == 0 {
		t.Error("no front holds a variant")
	}
}

// TestVariantsChecked: a variant with the wrong number of objectives, or a
// non-finite one, is an invalid evaluation.
func TestVariantsChecked(t *testing.T) {
	sp := &space{m: 2}
	for _, v := range []Variant{{Objectives: []float64{1}}, {Objectives: []float64{1, math.NaN()}}} {
		e := &Evaluation{Objectives: []float64{1, 2}, Variants: []Variant{v}}
		if err := sp.checkEvaluation([]int{0}, e); err == nil {
			t.Errorf("variant %v accepted", v.Objectives)
		}
	}
}

// TestVariantsOfferedByGroup records random batches whose variant groups
// are carried by different evaluations (as workers that remember different
// mappings report them), and with groups reported again: the archive
// (bounded, small) is the same, since a batch's variants are offered at its
// end by group, and a group only once.
func TestVariantsOfferedByGroup(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	sp := &space{m: 3}
	for c := range 300 {
		type group struct {
			key uint64
			vs  []Variant
		}
		groups := make([]group, 1+rng.Intn(6))
		for g := range groups {
			groups[g].key = uint64(rng.Intn(1000))*10 + uint64(g) // distinct
			for range 1 + rng.Intn(3) {
				groups[g].vs = append(groups[g].vs, Variant{Group: groups[g].key, Objectives: randomFrontPoints(rng, 1, 3, 20, 1, false)[0].Objectives})
			}
		}
		own := randomFrontPoints(rng, 4+rng.Intn(12), 3, 20, 1, false)
		limit := 1 + rng.Intn(4)
		// Each batch: the own points, and each group carried by one of
		// them, chosen at random, in two recordings.
		record := func(r *run, batches [][]int) {
			for _, carriers := range batches {
				for i, p := range own {
					e := p.Evaluation
					e.Variants = nil
					for g, at := range carriers {
						if at == i {
							e.Variants = append(e.Variants, groups[g].vs...)
						}
					}
					r.record(p.Genome, &e)
				}
				r.offerVariants()
			}
		}
		draw := func() [][]int {
			var batches [][]int
			for b := range 2 {
				carriers := make([]int, len(groups))
				for g := range carriers {
					carriers[g] = rng.Intn(len(own))
					if b > 0 && rng.Intn(2) == 0 {
						carriers[g] = -1 // not reported again
					}
				}
				batches = append(batches, carriers)
			}
			return batches
		}
		ra := &run{sp: sp, archive: NewBoundedArchive(3, limit)}
		rb := &run{sp: sp, archive: NewBoundedArchive(3, limit)}
		record(ra, draw())
		record(rb, draw())
		a, b := ra.archive.Points(), rb.archive.Points()
		if !slices.EqualFunc(a, b, func(p, q Point) bool {
			return slices.Equal(p.Objectives, q.Objectives) && p.Variant == q.Variant && p.Group == q.Group
		}) {
			t.Fatalf("case %d: the carriers change the archive:\n%v\n%v", c, Objectives(a), Objectives(b))
		}
	}
}
