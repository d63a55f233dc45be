package rta

import (
	"math"
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// perAccess charges every access k: I(t, n) = k·n, the challenge's
// convention as a window term.
type perAccess struct{ k int64 }

func (c perAccess) Delay(_, n, _ int64) (int64, int64) { return c.k * n, math.MaxInt64 }

// cappedAccesses charges k for at most max accesses: an interferer whose
// memory activity can overlap at most max accesses in any window.
type cappedAccesses struct{ k, max int64 }

func (c cappedAccesses) Delay(_, n, _ int64) (int64, int64) {
	return c.k * min(n, c.max), math.MaxInt64
}

// windowed charges k per access, for at most one access per per units of
// window length plus one per pause (and at most n): I(t, n, p) =
// k·min(n, ceil(t/per) + p), an interferer that is active for a bounded
// share of any window. The value holds up to the next multiple of per, or
// for good once n binds.
type windowed struct{ k, per int64 }

func (c windowed) Delay(t, n, p int64) (int64, int64) {
	m := (t+c.per-1)/c.per + p
	if m >= n {
		return c.k * n, math.MaxInt64
	}
	return c.k * m, max(t, (m-p)*c.per)
}

// uninformed is windowed without the until: every iterate calls Delay.
type uninformed struct{ windowed }

func (c uninformed) Delay(t, n, p int64) (int64, int64) {
	d, _ := c.windowed.Delay(t, n, p)
	return d, t
}

func TestResponseTimeWith(t *testing.T) {
	// hp: a non-suspending task, C0 = 2 plus 2 lines at contention 1 each.
	plain := Interferer{C: 4, T: 10, C0: 2, Lines: 2}
	// A suspending one: C = 4, C0 = 2, its 2 lines take Access = 2 at the
	// uncontended latency, S = 3; with R = 9 its jitters are J = R − C = 5
	// and J0 = R − Access = 7.
	susp := Task{C: 4, C0: 2, Lines: 2, Access: 2, S: 3, T: 10, D: 10}.Interferer(9)
	for _, tc := range []struct {
		name     string
		task     Task
		hp       []Interferer
		c        Contention
		want     Result
		classicR int64 // ResponseTime without the window term
	}{
		{
			// Alone, every access charged: C0 + 2·5 = 10 + 10 = 20 = C, a
			// tie, reported as the classic form's.
			name: "alone, every access", task: Task{C: 20, C0: 10, Lines: 5, Access: 5, T: 30, D: 30}, c: perAccess{2},
			want: Result{R: 20, Status: Schedulable, Accesses: 5, Delay: 10, FromC: true}, classicR: 20,
		},
		{
			// Alone, at most 2 accesses overlap: 10 + 2·2 = 14 < C = 20.
			name: "alone, capped", task: Task{C: 20, C0: 10, Lines: 5, Access: 5, T: 30, D: 30}, c: cappedAccesses{2, 2},
			want: Result{R: 14, Status: Schedulable, Accesses: 5, Delay: 4}, classicR: 20,
		},
		{
			// Alone, one overlapping access per 10 of window: w0 = 10,
			// I(10) = 2·min(5, 1) = 2 → 12; I(12) = 2·min(5, 2) = 4 → 14;
			// I(14) = 2·2 = 4 → 14.
			name: "alone, windowed", task: Task{C: 20, C0: 10, Lines: 5, Access: 5, T: 30, D: 30}, c: windowed{2, 10},
			want: Result{R: 14, Status: Schedulable, Accesses: 5, Delay: 4}, classicR: 20,
		},
		{
			// Every access charged 1, C = C0 + lines: both forms agree.
			// w = 10 + ceil(w/10)·4: 18. Window form at 18: 6 + 2·2 +
			// (4 + 2·2)·1 = 18.
			name: "interferer, every access", task: Task{C: 10, C0: 6, Lines: 4, Access: 4, T: 30, D: 30},
			hp: []Interferer{plain}, c: perAccess{1},
			want: Result{R: 18, Status: Schedulable, Accesses: 8, Delay: 8, FromC: true}, classicR: 18,
		},
		{
			// At most 3 accesses overlap: w0 = C0 + C0_hp = 8; 6 + 1·2 +
			// min(4 + 1·2, 3) = 11; at 11 two hp jobs: 6 + 4 + 3 = 13; 13.
			name: "interferer, capped", task: Task{C: 10, C0: 6, Lines: 4, Access: 4, T: 30, D: 30},
			hp: []Interferer{plain}, c: cappedAccesses{1, 3},
			want: Result{R: 13, Status: Schedulable, Accesses: 8, Delay: 3}, classicR: 18,
		},
		{
			// The window form counts the suspending task's jobs with J0 = 7,
			// the classic form with J = 5. Classic: 12 + ceil((w+5)/10)·4
			// has its fixed point at 24. Window form, every access charged:
			// 8 + m·2 + (4 + 2m) with m = ceil((w+7)/10); at 24, m = 4: 28.
			// Iteration from w0 = 8 + 2 = 10: min(20, 20) = 20; min(24, 24)
			// = 24; min(24, 28) = 24. The minimum keeps the classic 24 (the
			// window form alone would give 28). The suspending task becomes
			// ready twice per job, and one carried-in job more may do so:
			// P = (4 + 1)·2 = 10 pauses.
			name: "suspending interferer, classic form binds", task: Task{C: 12, C0: 8, Lines: 4, Access: 4, T: 40, D: 40},
			hp: []Interferer{susp}, c: perAccess{1},
			want: Result{R: 24, Status: Schedulable, Accesses: 12, Pauses: 10, Delay: 12, FromC: true}, classicR: 24,
		},
		{
			// C0 of the interferer ≥ its period: no fixed point.
			name: "overloaded without contention", task: Task{C: 1, C0: 1, T: 30, D: 30},
			hp: []Interferer{{C: 10, C0: 10, T: 10}}, c: perAccess{1},
			want: Result{R: Infinity, Status: Unbounded}, classicR: Infinity,
		},
		{
			// C ≥ T but C0 < T: the classic form has no fixed point, the
			// window form does: 2 + ceil(w/10)·5 + min(n, 1): w0 = 7; 2 + 5
			// + 1 = 8; 8.
			name: "overloaded only with per-job contention", task: Task{C: 3, C0: 2, Lines: 1, Access: 1, T: 30, D: 30},
			hp: []Interferer{{C: 12, C0: 5, Lines: 7, T: 10}}, c: cappedAccesses{1, 1},
			want: Result{R: 8, Status: Schedulable, Accesses: 8, Delay: 1}, classicR: Infinity,
		},
		{
			// No work: the job completes when released, R = J.
			name: "no work", task: Task{T: 10, D: 10, J: 3}, hp: []Interferer{plain}, c: perAccess{1},
			want: Result{R: 3, Status: Schedulable}, classicR: 3,
		},
		{
			name: "invalid contention fields", task: Task{C: 3, C0: 4, T: 10, D: 10}, c: perAccess{1},
			want: Result{Status: Invalid}, classicR: 0,
		},
	} {
		got := ResponseTimeWith(tc.task, tc.hp, tc.task.D, tc.c)
		if got != tc.want {
			t.Errorf("%s: ResponseTimeWith = %+v, want %+v", tc.name, got, tc.want)
		}
		if r, _ := ResponseTime(tc.task, tc.hp, tc.task.D); r != tc.classicR {
			t.Errorf("%s: ResponseTime = %d, want %d", tc.name, r, tc.classicR)
		}
	}
}

// contendedTasks adds contention fields to random tasks: C0 = C minus k per
// line (the challenge's per-job charge), Access up to C0.
func contendedTasks(rng *rand.Rand, ts []Task, k int64) {
	for i := range ts {
		x := &ts[i]
		x.Lines = rng.Int63n(x.C/k + 1)
		x.C0 = x.C - k*x.Lines
		x.Access = rng.Int63n(x.C0 + 1)
	}
}

// With every access charged k and C = C0 + k·Lines, the window form is
// never below the classic one (its job counts use J0 ≥ J), so every policy
// gives the classic analysis: the same order, and the same response time
// and status wherever the classic one is a bound (elsewhere neither is).
func TestContentionEveryAccessIsClassic(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	var classic, cont Analyzer
	for iter := 0; iter < 5000; iter++ {
		n := 1 + rng.Intn(6)
		ts := tightTasks(rng, n)
		k := int64(1 + rng.Intn(3))
		contendedTasks(rng, ts, k)
		cont.Contention = perAccess{k}
		p := allPolicies[rng.Intn(len(allPolicies))]
		for i := range ts {
			ts[i].Priority = rng.Intn(n)
		}
		want, got := make([]Result, n), make([]Result, n)
		okW, err := classic.Analyze(p, ts, want)
		if err != nil {
			t.Fatal(err)
		}
		okG, err := cont.Analyze(p, ts, got)
		if err != nil {
			t.Fatal(err)
		}
		if okW != okG {
			t.Fatalf("%v: schedulable %v classic, %v with the window term; %+v", p, okW, okG, ts)
		}
		for i := range ts {
			w, g := want[i], got[i]
			if w.Rank != g.Rank || w.Status.Bounded() != g.Status.Bounded() || (w.Status.Bounded() && (w.R != g.R || w.Status != g.Status)) {
				t.Fatalf("%v: task %d: classic %+v, window term %+v; tasks %+v", p, i, w, g, ts)
			}
			if g.Status.Bounded() && !g.FromC {
				t.Fatalf("%v: task %d: the window form is reported binding: %+v", p, i, g)
			}
		}
	}
}

// A window term never gives a larger response time than the classic
// analysis of the same order (the minimum of the two forms, and smaller
// jitters above), and a larger contention never a smaller one.
func TestContentionBelowClassicAndMonotone(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	var a Analyzer
	for iter := 0; iter < 5000; iter++ {
		n := 1 + rng.Intn(6)
		ts := tightTasks(rng, n)
		k := int64(1 + rng.Intn(3))
		contendedTasks(rng, ts, k)
		per := int64(1 + rng.Intn(20))
		order := rng.Perm(n)
		for rank, i := range order {
			ts[i].Priority = n - rank
		}
		classic := make([]Result, n)
		a.Contention = nil
		if _, err := a.Analyze(Explicit, ts, classic); err != nil {
			t.Fatal(err)
		}
		var prev []Result
		for _, c := range []Contention{windowed{k, 2 * per}, windowed{k, per}, perAccess{k}} {
			a.Contention = c
			out := make([]Result, n)
			if _, err := a.Analyze(Explicit, ts, out); err != nil {
				t.Fatal(err)
			}
			for i := range ts {
				if classic[i].Status.Bounded() && (!out[i].Status.Bounded() || out[i].R > classic[i].R) {
					t.Fatalf("%+v: task %d: %+v above the classic %+v; tasks %+v", c, i, out[i], classic[i], ts)
				}
				if prev != nil && out[i].Status.Bounded() && (!prev[i].Status.Bounded() || prev[i].R > out[i].R) {
					t.Fatalf("%+v: task %d: %+v below %+v with less contention; tasks %+v", c, i, out[i], prev[i], ts)
				}
			}
			prev = out
		}
	}
}

// TestContendedExactPriorityAssignment is TestExactPriorityAssignment with a
// window term that depends on the window length: the OPA policy finds an
// order exactly when brute force over every order finds one, and the order
// it reports passes when analysed explicitly. This re-checks the four facts
// of the exact search (package documentation) for the contended test.
func TestContendedExactPriorityAssignment(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	var a, ref Analyzer
	counts := map[string]int{}
	cases := 3000
	if testsize.Reduced() {
		cases = 800
	}
	for iter := 0; iter < cases; iter++ {
		n := 2 + rng.Intn(5) // 2..6 tasks
		ts := tightTasks(rng, n)
		k := int64(1 + rng.Intn(3))
		contendedTasks(rng, ts, k)
		c := windowed{k, int64(1 + rng.Intn(10))}
		a.Contention, ref.Contention = c, c
		out := make([]Result, n)
		ok, err := a.Analyze(OPA, ts, out)
		if err != nil {
			t.Fatal(err)
		}
		if !a.Decided() {
			t.Fatalf("search undecided after %d nodes on %+v", a.SearchNodes(), ts)
		}
		if want := anyOrderPasses(&ref, ts); ok != want {
			t.Fatalf("OPA policy says %v, brute force over all orders %v; tasks %+v, contention %+v", ok, want, ts, c)
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
			check := make([]Result, n)
			if !passesOrder(&ref, ts, a.Order(), check) {
				t.Fatalf("the reported order %v fails; tasks %+v", a.Order(), ts)
			}
			for i := range out {
				if out[i].R != check[i].R || out[i].Status != check[i].Status {
					t.Fatalf("task %d: reported %+v, explicit analysis of the order %+v", i, out[i], check[i])
				}
			}
		}
	}
	t.Logf("%v", counts)
	if counts["found by the search"] < cases/100 {
		t.Fatalf("only %d of %d cores needed the search", counts["found by the search"], cases)
	}
}

// The lower test of the exact search must be a relaxation: in every order,
// a suspending task's jitters R − C and R − Access are at least those of
// lowestInterferer(true), where the window term may put R below C + S + B.
func TestContendedLowestJitters(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	var a Analyzer
	for iter := 0; iter < 5000; iter++ {
		n := 1 + rng.Intn(5)
		ts := tightTasks(rng, n)
		k := int64(1 + rng.Intn(3))
		contendedTasks(rng, ts, k)
		a.Contention = cappedAccesses{k, int64(rng.Intn(3))}
		for rank, i := range rng.Perm(n) {
			ts[i].Priority = n - rank
		}
		out := make([]Result, n)
		if _, err := a.Analyze(Explicit, ts, out); err != nil {
			t.Fatal(err)
		}
		for i, x := range ts {
			if x.S == 0 || !out[i].Status.Bounded() {
				continue
			}
			low, got := x.lowestInterferer(true), x.Interferer(out[i].R)
			if got.J < low.J || got.J0 < low.J0 {
				t.Fatalf("task %+v with R = %d: jitters %d, %d below the lowest %d, %d", x, out[i].R, got.J, got.J0, low.J, low.J0)
			}
		}
	}
}

func TestContendedNoAllocs(t *testing.T) {
	ts := benchTasks()
	for i := range ts {
		ts[i].Lines = 1000
		ts[i].Access = 1000 * 20_000
		ts[i].C0 = ts[i].C - 1000*20_000
	}
	a := Analyzer{Contention: windowed{20_000, 50_000}}
	out := make([]Result, len(ts))
	for _, p := range allPolicies {
		if _, err := a.Analyze(p, ts, out); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { a.Analyze(p, ts, out) }); n != 0 {
			t.Errorf("%v: %v allocations per Analyze", p, n)
		}
	}
}

// The until of Delay only spares calls: with it and without it every
// policy gives the same results.
func TestContentionUntilChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	var a, b Analyzer
	for iter := 0; iter < 3000; iter++ {
		n := 1 + rng.Intn(6)
		ts := tightTasks(rng, n)
		k := int64(1 + rng.Intn(3))
		contendedTasks(rng, ts, k)
		w := windowed{k, int64(1 + rng.Intn(10))}
		a.Contention, b.Contention = w, uninformed{w}
		p := allPolicies[rng.Intn(len(allPolicies))]
		for i := range ts {
			ts[i].Priority = rng.Intn(n)
		}
		x, y := make([]Result, n), make([]Result, n)
		if _, err := a.Analyze(p, ts, x); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Analyze(p, ts, y); err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if x[i] != y[i] {
				t.Fatalf("%v: task %d: %+v with until, %+v without; tasks %+v", p, i, x[i], y[i], ts)
			}
		}
	}
}

// TestClassicAfterContended: an Analyzer that analysed with a contention
// term and then without one reports what a fresh Analyzer reports: no
// window information (Accesses, Pauses, Delay, FromC are zero without a
// contention term), also for the tasks whose OPA test result is reused.
// It once kept the contended analysis's window information for those.
func TestClassicAfterContended(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for trial := range 300 {
		n := 2 + rng.Intn(16)
		ts := make([]Task, n)
		for i := range ts {
			c0 := 1 + rng.Int63n(20)
			lines := rng.Int63n(5)
			ts[i] = Task{C: c0 + lines, C0: c0, Lines: lines, Access: min(lines, c0), T: 50 * (1 + rng.Int63n(8))}
			ts[i].D = ts[i].T
		}
		var reused, fresh Analyzer
		out := make([]Result, n)
		reused.Contention = perAccess{1}
		if _, err := reused.Analyze(OPA, ts, out); err != nil {
			t.Fatal(err)
		}
		reused.Contention = nil
		want := make([]Result, n)
		if _, err := fresh.Analyze(OPA, ts, want); err != nil {
			t.Fatal(err)
		}
		if _, err := reused.Analyze(OPA, ts, out); err != nil {
			t.Fatal(err)
		}
		for i := range out {
			if out[i] != want[i] {
				t.Fatalf("trial %d, task %d of %d: after a contended analysis %+v, fresh %+v", trial, i, n, out[i], want[i])
			}
		}
	}
}
