package rta

import (
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// passesOrder reports whether every task meets its deadline under the final
// test when the tasks take the strict priority order order (most urgent
// first): the slow, obvious reference, an explicit analysis of that order.
func passesOrder(a *Analyzer, ts []Task, order []int, out []Result) bool {
	x := append([]Task(nil), ts...)
	for rank, i := range order {
		x[i].Priority = len(order) - rank
	}
	ok, err := a.Analyze(Explicit, x, out)
	if err != nil {
		panic(err)
	}
	return ok
}

// anyOrderPasses tries every permutation of ts.
func anyOrderPasses(a *Analyzer, ts []Task) bool {
	n := len(ts)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	out := make([]Result, n)
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == n {
			return passesOrder(a, ts, perm, out)
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			if rec(k + 1) {
				return true
			}
			perm[k], perm[i] = perm[i], perm[k]
		}
		return false
	}
	return rec(0)
}

// tightTasks returns a random core of n tasks whose self-suspending members
// make the order matter: utilisation near the limit, deadlines at or below
// the periods, suspensions of up to half a period.
func tightTasks(rng *rand.Rand, n int) []Task {
	ts := make([]Task, n)
	for i := range ts {
		t := int64(10 + rng.Intn(90))
		d := t
		if rng.Intn(2) == 0 {
			d = t/2 + rng.Int63n(t/2+1)
		}
		x := Task{C: 1 + rng.Int63n(t/int64(n)+1), T: t, D: d}
		if rng.Intn(2) == 0 {
			x.S = rng.Int63n(t/2 + 1)
		}
		if rng.Intn(6) == 0 {
			x.J = rng.Int63n(5)
		}
		ts[i] = x
	}
	return ts
}

// TestExactPriorityAssignment checks the OPA policy (OPA, then the exact
// search) against brute force over every priority order: it finds an order
// exactly when some order passes the final test, and the order it reports
// passes that test when analysed explicitly.
func TestExactPriorityAssignment(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	var a, ref Analyzer
	counts := map[string]int{}
	cases := 4000
	if testsize.Reduced() {
		cases = 1000
	}
	for iter := 0; iter < cases; iter++ {
		n := 2 + rng.Intn(6) // 2..7 tasks
		if n == 7 && rng.Intn(3) != 0 {
			n = 2 + rng.Intn(5) // keep 7-task cores (5040 orders) a third of their share
		}
		ts := tightTasks(rng, n)
		out := make([]Result, n)
		ok, err := a.Analyze(OPA, ts, out)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Decided() {
			t.Fatalf("search undecided after %d nodes on %+v", a.SearchNodes(), ts)
		}
		want := anyOrderPasses(&ref, ts)
		if ok != want {
			t.Fatalf("OPA policy says %v, brute force over all orders %v; tasks %+v", ok, want, ts)
		}
		switch {
		case !ok:
			counts["no order"]++
		case a.SearchNodes() == 0:
			counts["OPA's order"]++
		default:
			counts["found by the search"]++
		}
		if ok {
			order := append([]int(nil), a.Order()...)
			check := make([]Result, n)
			if !passesOrder(&ref, ts, order, check) {
				t.Fatalf("the reported order %v fails the final test; tasks %+v", order, ts)
			}
			for i := range out {
				if out[i].R != check[i].R || out[i].Status != check[i].Status {
					t.Fatalf("task %d: reported %+v, explicit analysis of the order %+v", i, out[i], check[i])
				}
			}
		}
	}
	t.Logf("%v", counts)
	// The test is only evidence if the search had work to do.
	if counts["found by the search"] < cases/100 {
		t.Fatalf("only %d of %d cores needed the search: the generator no longer exercises it", counts["found by the search"], cases)
	}
}

// TestSearchDecides runs the exact priority search on larger random tight
// cores (8–24 tasks, at most 6 of them self-suspending, as many as a core of
// hetmap could carry asynchronous offloading tasks) and requires a decision
// within the default node bound for every one.
func TestSearchDecides(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var a Analyzer
	most, searched := 0, 0
	cores := 1500
	if testsize.Reduced() {
		cores = 300
	}
	for iter := 0; iter < cores; iter++ {
		n := 8 + rng.Intn(17)
		ts := tightTasks(rng, n)
		limit, k := 1+rng.Intn(6), 0
		for i := range ts {
			if ts[i].S > 0 {
				if k++; k > limit {
					ts[i].S = 0
				}
			}
		}
		out := make([]Result, n)
		ok, err := a.Analyze(OPA, ts, out)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Decided() {
			t.Fatalf("undecided after %d nodes: %+v", a.SearchNodes(), ts)
		}
		if a.SearchNodes() > 0 {
			searched++
		}
		most = max(most, a.SearchNodes())
		if ok { // the order found passes when analysed explicitly
			var ref Analyzer
			if !passesOrder(&ref, ts, a.Order(), make([]Result, n)) {
				t.Fatalf("order %v fails the final test: %+v", a.Order(), ts)
			}
		}
	}
	t.Logf("%d of %d cores searched, at most %d states", searched, cores, most)
}

// TestNoBoundPropagates: a task whose own C or S is no bound makes itself
// InputUnbounded and every task below it InterfererUnbounded, whether it
// suspends or busy-waits, under every policy; tasks above keep their bounds.
func TestNoBoundPropagates(t *testing.T) {
	for _, s := range []int64{0, 5} {
		ts := []Task{
			{C: 1, T: 10, D: 10, Priority: 3},                      // above: DM puts it first
			{C: 2, T: 20, D: 20, S: s, NoBound: true, Priority: 2}, // the task without a bound
			{C: 1, T: 100, D: 100, Priority: 1},                    // below
		}
		for _, p := range allPolicies {
			var a Analyzer
			out := make([]Result, len(ts))
			ok, err := a.Analyze(p, ts, out)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				t.Errorf("S=%d %v: schedulable with a task that has no bound", s, p)
			}
			rank := func(i int) int { return out[i].Rank }
			for i := range ts {
				var want Status
				switch {
				case i == 1:
					want = InputUnbounded
				case rank(i) > rank(1):
					want = InterfererUnbounded
				default:
					want = Schedulable
				}
				if out[i].Status != want {
					t.Errorf("S=%d %v: task %d (rank %d, the unbounded one at %d): %v, want %v", s, p, i, rank(i), rank(1), out[i].Status, want)
				}
			}
		}
	}
	// ResponseTime alone reports the task's own status.
	if _, st := ResponseTime(Task{C: 1, T: 10, D: 10, NoBound: true}, nil, 10); st != InputUnbounded {
		t.Errorf("ResponseTime: %v, want InputUnbounded", st)
	}
}

// TestFeasibleOrders checks the enumeration of feasible orders against
// brute force over every permutation: the same orders, each with the
// response times an explicit analysis of it reports.
func TestFeasibleOrders(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	var a, ref Analyzer
	total := 0
	for iter := 0; iter < 1500; iter++ {
		n := 1 + rng.Intn(6)
		ts := tightTasks(rng, n)
		got := map[string][]int64{}
		key := func(o []int) string {
			b := make([]byte, len(o))
			for i, x := range o {
				b[i] = byte('a' + x)
			}
			return string(b)
		}
		complete := a.FeasibleOrders(ts, 0, func(o []int, r []int64) bool {
			got[key(o)] = append([]int64(nil), r...)
			return true
		})
		if !complete {
			t.Fatal("incomplete without a limit")
		}
		want := 0
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		out := make([]Result, n)
		var rec func(k int)
		rec = func(k int) {
			if k == n {
				if passesOrder(&ref, ts, perm, out) {
					want++
					r, ok := got[key(perm)]
					if !ok {
						t.Fatalf("order %v passes but was not enumerated; tasks %+v", perm, ts)
					}
					for i := range out {
						if out[i].R != r[i] {
							t.Fatalf("order %v task %d: enumerated R %d, explicit %d", perm, i, r[i], out[i].R)
						}
					}
				}
				return
			}
			for i := k; i < n; i++ {
				perm[k], perm[i] = perm[i], perm[k]
				rec(k + 1)
				perm[k], perm[i] = perm[i], perm[k]
			}
		}
		rec(0)
		if want != len(got) {
			t.Fatalf("%d orders enumerated, %d pass; tasks %+v", len(got), want, ts)
		}
		total += want
		// A bound on the steps stops the enumeration, and says so, exactly
		// there; the unbounded enumeration's step count is its cost: with
		// that bound it is complete, with one step less it is not.
		_, steps := a.FeasibleOrdersWithin(ts, 0, 0, func([]int, []int64) bool { return true })
		if steps < n {
			t.Fatalf("%d steps for %d tasks: every task is analysed at the top level", steps, n)
		}
		if c, s := a.FeasibleOrdersWithin(ts, 0, steps, func([]int, []int64) bool { return true }); !c || s != steps {
			t.Fatalf("bound %d: complete %v after %d steps", steps, c, s)
		}
		if c, s := a.FeasibleOrdersWithin(ts, 0, steps-1, func([]int, []int64) bool { return true }); steps > 1 && (c || s != steps-1) {
			t.Fatalf("bound %d: complete %v after %d steps", steps-1, c, s)
		}
		// A limit stops the enumeration and says so.
		if want > 1 {
			seen := 0
			if a.FeasibleOrders(ts, 1, func([]int, []int64) bool { seen++; return true }) || seen != 1 {
				t.Fatalf("limit 1: visited %d", seen)
			}
		}
	}
	if total < 1000 {
		t.Fatalf("only %d feasible orders in all: the generator no longer exercises the enumeration", total)
	}
}
