package evaluate

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestVariantsKeepOrderedHops: the Pareto filter of a core's orders keeps
// an order that is worse on every relevant WCRT when it orders a hop of a
// chain the other does not (variants.go, "Which orders can matter"), and
// drops it when the hop is not a chain's.
func TestVariantsKeepOrderedHops(t *testing.T) {
	ids := []int{0, 1}
	relevant := []bool{true, true}
	for _, c := range []struct {
		name  string
		pairs []int
		want  int // options kept
	}{
		// Task 0 feeds task 1 on this core: the order putting 0 first
		// orders the hop, so it is kept though the other order has
		// smaller WCRTs for both.
		{"a hop", []int{0, 1}, 2},
		// No hop: the order with the smaller WCRTs dominates.
		{"no hop", nil, 1},
	} {
		var v variantScratch
		v.pairs = append(v.pairs, c.pairs...)
		core := variantCore{k: 2, h: len(c.pairs) / 2}
		v.insert(&core, ids, relevant, []int{0, 1}, []int64{3, 4}) // 0 first: the hop ordered
		v.insert(&core, ids, relevant, []int{1, 0}, []int64{2, 1}) // 1 first
		if core.opt != c.want {
			t.Errorf("%s: %d options kept, want %d (priorities %v, WCRTs %v, hops %v)", c.name, core.opt, c.want, v.prio, v.rv, v.hv)
		}
		// An order no better on the WCRTs and the hop is not added.
		v.insert(&core, ids, relevant, []int{1, 0}, []int64{2, 2})
		if core.opt != c.want {
			t.Errorf("%s: a dominated order was added: %d options", c.name, core.opt)
		}
	}
}

// TestInsertMatchesTwoPasses: insert's one pass keeps the options, in the
// same arrangement, that the obvious two passes keep (a first that drops
// the order when an option is at least as good, a second that removes the
// options the order is at least as good as), on random orders of random
// cores with and without hops and irrelevant tasks.
func TestInsertMatchesTwoPasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 1))
	for trial := range 2000 {
		k := 2 + rng.IntN(5)
		ids := make([]int, k)
		relevant := make([]bool, k)
		for x := range ids {
			ids[x], relevant[x] = x, rng.IntN(4) > 0
		}
		var pairs []int
		for range rng.IntN(3) {
			x, y := rng.IntN(k), rng.IntN(k)
			if x != y {
				pairs = append(pairs, x, y)
			}
		}
		var one, two variantScratch
		one.pairs, two.pairs = pairs, pairs
		c1 := variantCore{k: k, h: len(pairs) / 2}
		c2 := c1
		for range 1 + rng.IntN(60) {
			order := rng.Perm(k)
			rs := make([]int64, k)
			for x := range rs {
				rs[x] = int64(1 + rng.IntN(4)) // few values: ties and equal vectors
			}
			one.insert(&c1, ids, relevant, order, rs)
			two.insertTwoPasses(&c2, ids, relevant, order, rs)
		}
		if c1.opt != c2.opt || !slices.Equal(one.prio, two.prio) || !slices.Equal(one.rv, two.rv) || !slices.Equal(one.hv, two.hv) {
			t.Fatalf("trial %d: one pass kept %d options (priorities %v, WCRTs %v, hops %v), two passes %d (%v, %v, %v)",
				trial, c1.opt, one.prio, one.rv, one.hv, c2.opt, two.prio, two.rv, two.hv)
		}
	}
}

// insertTwoPasses is insert as two passes over the options (drop and add
// are insert's), the oracle of TestInsertMatchesTwoPasses.
func (v *variantScratch) insertTwoPasses(c *variantCore, ids []int, relevant []bool, order []int, rs []int64) {
	k, h := c.k, c.h
	v.hopValues(c, order)
	noWorse := func(off, hoff int, optionFirst bool) bool {
		at := func(a, b int64) bool {
			if optionFirst {
				return a <= b
			}
			return b <= a
		}
		for x, i := range ids {
			if relevant[i] && !at(v.rv[off+x], rs[x]) {
				return false
			}
		}
		for j, b := range v.hops {
			if !at(v.hv[hoff+j], b) {
				return false
			}
		}
		return true
	}
	for o := 0; o < c.opt; o++ {
		if noWorse(c.off+o*k, c.hoff+o*h, true) {
			return
		}
	}
	for o := 0; o < c.opt; {
		if noWorse(c.off+o*k, c.hoff+o*h, false) {
			v.drop(c, o)
			continue
		}
		o++
	}
	v.add(c, order, rs)
}
