package evaluate

import "testing"

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
