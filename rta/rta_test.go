package rta

import (
	"errors"
	"testing"
)

// tk builds a task with D = T.
func tk(c, t int64) Task { return Task{C: c, T: t, D: t} }

func TestResponseTime(t *testing.T) {
	for _, tc := range []struct {
		name   string
		task   Task
		hp     []Interferer
		limit  int64
		want   int64
		status Status
	}{
		{
			// Alone: w = C = 3.
			name: "alone", task: tk(3, 10), limit: 10, want: 3, status: Schedulable,
		},
		{
			// w0 = 2 + 1 = 3; w1 = 2 + ceil(3/4)·1 = 3 → R = 3.
			name: "one interferer", task: tk(2, 6), hp: []Interferer{{C: 1, T: 4, J: 0}},
			limit: 6, want: 3, status: Schedulable,
		},
		{
			// Classic C = (1,2,3), T = (4,6,12), third task:
			// w0 = 3+1+2 = 6
			// w1 = 3 + ceil(6/4)·1 + ceil(6/6)·2 = 3+2+2 = 7
			// w2 = 3 + ceil(7/4)·1 + ceil(7/6)·2 = 3+2+4 = 9
			// w3 = 3 + ceil(9/4)·1 + ceil(9/6)·2 = 3+3+4 = 10
			// w4 = 3 + ceil(10/4)·1 + ceil(10/6)·2 = 3+3+4 = 10 → R = 10.
			name: "classic three tasks", task: tk(3, 12), hp: []Interferer{{C: 1, T: 4, J: 0}, {C: 2, T: 6, J: 0}},
			limit: 12, want: 10, status: Schedulable,
		},
		{
			// Limit 9 < 10: the iteration stops at w3 = 10 > 9.
			name: "limit stops", task: tk(3, 12), hp: []Interferer{{C: 1, T: 4, J: 0}, {C: 2, T: 6, J: 0}},
			limit: 9, want: 10, status: Exceeded,
		},
		{
			// Interferer jitter 2, own jitter 1:
			// w0 = 2 + 1 = 3; w1 = 2 + ceil((3+2)/4)·1 = 4;
			// w2 = 2 + ceil((4+2)/4)·1 = 4 → R = 4 + 1 = 5.
			name: "jitter", task: Task{C: 2, T: 10, D: 10, J: 1}, hp: []Interferer{{C: 1, T: 4, J: 2}},
			limit: 10, want: 5, status: Schedulable,
		},
		{
			// Blocking 2: w0 = 2+2+1 = 5; w1 = 4 + ceil(5/4)·1 = 6;
			// w2 = 4 + ceil(6/4)·1 = 6 → R = 6.
			name: "blocking", task: Task{C: 2, T: 10, D: 10, B: 2}, hp: []Interferer{{C: 1, T: 4, J: 0}},
			limit: 10, want: 6, status: Schedulable,
		},
		{
			// Own suspension counts as execution: w = C + S = 2 + 3 = 5.
			name: "own suspension", task: Task{C: 2, S: 3, T: 10, D: 10}, limit: 10, want: 5, status: Schedulable,
		},
		{
			// hp: C=2, T=10, J=0, S=3 alone has R = 5, so jitter R−C = 3.
			// w0 = 7 + 2 = 9; w1 = 7 + ceil((9+3)/10)·2 = 11;
			// w2 = 7 + ceil((11+3)/10)·2 = 11 → R = 11 (9 without the jitter).
			name: "suspending interferer", task: tk(7, 20),
			hp:    []Interferer{Task{C: 2, S: 3, T: 10, D: 10}.Interferer(5)},
			limit: 20, want: 11, status: Schedulable,
		},
		{
			// D = 7 < T = 10, hp C=2, T=5: w0 = 6; w1 = 4 + ceil(6/5)·2 = 8;
			// w2 = 4 + ceil(8/5)·2 = 8 → R = 8: misses by 1, sound (≤ T).
			name: "deadline miss", task: Task{C: 4, T: 10, D: 7}, hp: []Interferer{{C: 2, T: 5, J: 0}},
			limit: 10, want: 8, status: DeadlineMiss,
		},
		{
			// Same with limit D: w1 = 8 > 7 stops.
			name: "deadline miss, limit D", task: Task{C: 4, T: 10, D: 7}, hp: []Interferer{{C: 2, T: 5, J: 0}},
			limit: 7, want: 8, status: Exceeded,
		},
		{
			// T = D = 7: converges at 8 > T, not a bound any more.
			name: "beyond period", task: tk(4, 7), hp: []Interferer{{C: 2, T: 5, J: 0}},
			limit: MaxTime, want: 8, status: Exceeded,
		},
		{
			// hp utilisation 2/4 + 2/4 = 1.
			name: "unbounded", task: tk(1, 100), hp: []Interferer{{C: 2, T: 4, J: 0}, {C: 2, T: 4, J: 0}},
			limit: MaxTime, want: Infinity, status: Unbounded,
		},
		{
			// 1/3 + 2/3 = 1 exactly (the float sum lands in the band and is
			// decided exactly).
			name: "unbounded exact thirds", task: tk(1, 100), hp: []Interferer{{C: 1, T: 3, J: 0}, {C: 2, T: 3, J: 0}},
			limit: MaxTime, want: Infinity, status: Unbounded,
		},
		{
			// (1e9−1)/1e9 + 1/(1e9+1) < 1 by about 1e-18: bounded, but the
			// fixed point is far beyond the limit.
			name: "utilisation just below 1", task: tk(1, 1_000_000_000_000),
			hp:    []Interferer{{C: 999_999_999, T: 1_000_000_000, J: 0}, {C: 1, T: 1_000_000_001, J: 0}},
			limit: 1_000_000_000_000, want: -1, status: Exceeded,
		},
		{
			// No work: the job completes when released, R = J.
			name: "no work", task: Task{T: 10, D: 10, J: 3}, hp: []Interferer{{C: 5, T: 5, J: 0}},
			limit: 10, want: 3, status: Schedulable,
		},
		{
			name: "invalid interferer", task: tk(1, 10), hp: []Interferer{{C: 1, T: 0, J: 0}},
			limit: 10, want: 0, status: Invalid,
		},
		{
			name: "invalid task", task: Task{C: 1, T: 10, D: 11},
			limit: 10, want: 0, status: Invalid,
		},
	} {
		got, st := ResponseTime(tc.task, tc.hp, tc.limit)
		if st != tc.status || (tc.want >= 0 && got != tc.want) {
			t.Errorf("%s: ResponseTime = %d, %v; want %d, %v", tc.name, got, st, tc.want, tc.status)
		}
		if st == Exceeded && tc.want < 0 && got <= tc.limit {
			t.Errorf("%s: Exceeded with R = %d ≤ limit %d", tc.name, got, tc.limit)
		}
	}
}

type want struct {
	r      int64
	status Status
	rank   int
}

func TestAnalyze(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy Policy
		limit  Limit
		tasks  []Task
		want   []want
		ok     bool
		levels int // OPALevels, for policy OPA
	}{
		{
			name: "alone", policy: OPA, tasks: []Task{tk(3, 10)},
			want: []want{{3, Schedulable, 0}}, ok: true, levels: 1,
		},
		{
			// RM: τ1 R = 1; τ2: w = 2 + ceil(3/4)·1 = 3.
			name: "two tasks", policy: RateMonotonic, tasks: []Task{tk(2, 6), tk(1, 4)},
			want: []want{{3, Schedulable, 1}, {1, Schedulable, 0}}, ok: true,
		},
		{
			// The classic set, iterations in TestResponseTime: 1, 3, 10.
			name: "three tasks RM", policy: RateMonotonic, tasks: []Task{tk(1, 4), tk(2, 6), tk(3, 12)},
			want: []want{{1, Schedulable, 0}, {3, Schedulable, 1}, {10, Schedulable, 2}}, ok: true,
		},
		{
			// OPA keeps the DM order here (it tries the largest deadline
			// first at each level): same numbers.
			name: "three tasks OPA", policy: OPA, tasks: []Task{tk(3, 12), tk(2, 6), tk(1, 4)},
			want: []want{{10, Schedulable, 2}, {3, Schedulable, 1}, {1, Schedulable, 0}}, ok: true, levels: 3,
		},
		{
			// τ1 J=2: R = 1 + 2 = 3. τ2 J=1: w0 = 3; w1 = 2 + ceil(5/4) = 4;
			// w2 = 2 + ceil(6/4) = 4 → R = 5.
			name: "jitter", policy: DeadlineMonotonic,
			tasks: []Task{{C: 1, T: 4, D: 4, J: 2}, {C: 2, T: 10, D: 10, J: 1}},
			want:  []want{{3, Schedulable, 0}, {5, Schedulable, 1}}, ok: true,
		},
		{
			// τ1 B=1: R = 1 + 1 = 2. τ2 B=2: w0 = 4 + 1 = 5;
			// w1 = 4 + ceil(5/4)·1 = 6; w2 = 4 + ceil(6/4)·1 = 6 → R = 6.
			name: "blocking", policy: DeadlineMonotonic,
			tasks: []Task{{C: 1, T: 4, D: 4, B: 1}, {C: 2, T: 10, D: 10, B: 2}},
			want:  []want{{2, Schedulable, 0}, {6, Schedulable, 1}}, ok: true,
		},
		{
			// τ1 suspends: R1 = C + S = 5, jitter seen below R1 − C1 = 3.
			// τ2: w0 = 9; w1 = 7 + ceil((9+3)/10)·2 = 11;
			// w2 = 7 + ceil(14/10)·2 = 11 → R = 11.
			name: "suspending hp", policy: DeadlineMonotonic,
			tasks: []Task{{C: 2, S: 3, T: 10, D: 10}, tk(7, 20)},
			want:  []want{{5, Schedulable, 0}, {11, Schedulable, 1}}, ok: true,
		},
		{
			// DM puts A (D=10) above B (D=12, suspends 6):
			// B: w0 = 2+6+4 = 12; w1 = 8 + ceil(12/10)·4 = 16 > 12.
			name: "DM misses suspending task", policy: DeadlineMonotonic,
			tasks: []Task{tk(4, 10), {C: 2, S: 6, T: 12, D: 12}},
			want:  []want{{4, Schedulable, 0}, {16, Exceeded, 1}}, ok: false,
		},
		{
			// OPA, lowest level: B (largest D) first fails as under DM.
			// A below B with jitter D_B − C_B = 10: w0 = 4 + 2 = 6;
			// w1 = 4 + ceil(16/12)·2 = 8; w2 = 4 + ceil(18/12)·2 = 8 ≤ 10.
			// Level 0: B alone, 8 ≤ 12. Final with the tight jitter
			// R_B − C_B = 8 − 2 = 6: A: w0 = 6; w1 = 4 + ceil(12/12)·2 = 6.
			name: "OPA beats DM", policy: OPA,
			tasks: []Task{tk(4, 10), {C: 2, S: 6, T: 12, D: 12}},
			want:  []want{{6, Schedulable, 1}, {8, Schedulable, 0}}, ok: true, levels: 2,
		},
		{
			// A and B share priority 5 and count each other:
			// A: w = 1 + ceil(3/6)·2 = 3; B: w = 2 + ceil(3/4)·1 = 3.
			// C below both: 10 as in the classic set.
			name: "explicit tie", policy: Explicit,
			tasks: []Task{{C: 1, T: 4, D: 4, Priority: 5}, {C: 2, T: 6, D: 6, Priority: 5}, {C: 3, T: 12, D: 12, Priority: 1}},
			want:  []want{{3, Schedulable, 0}, {3, Schedulable, 0}, {10, Schedulable, 2}}, ok: true,
		},
		{
			// Tie with a suspending member that meets its deadline.
			// A (S=2): w0 = 3 + 2 = 5; w1 = 3 + ceil(5/10)·2 = 5 → 5 ≤ 10.
			// B sees A with jitter D_A − C_A = 9: w0 = 3;
			// w1 = 2 + ceil(12/10)·1 = 4; w2 = 2 + ceil(13/10)·1 = 4.
			name: "explicit tie suspending", policy: Explicit,
			tasks: []Task{{C: 1, S: 2, T: 10, D: 10, Priority: 1}, {C: 2, T: 10, D: 10, Priority: 1}},
			want:  []want{{5, Schedulable, 0}, {4, Schedulable, 0}}, ok: true,
		},
		{
			// Tie with a suspending member that misses: A: w0 = 11 + 3 = 14 > 12.
			// B with A's jitter D_A − C_A = 10: w0 = 5; w1 = 3 + ceil(15/12)·2 = 7;
			// w2 = 3 + ceil(17/12)·2 = 7 ≤ 12, but it relied on A meeting D.
			name: "explicit tie suspending miss", policy: Explicit,
			tasks: []Task{{C: 2, S: 9, T: 12, D: 12, Priority: 1}, {C: 3, T: 12, D: 12, Priority: 1}},
			want:  []want{{14, Exceeded, 0}, {7, InterfererUnbounded, 0}}, ok: false,
		},
		{
			// Priorities given in reverse order of index: higher value wins.
			name: "explicit order", policy: Explicit,
			tasks: []Task{{C: 3, T: 12, D: 12, Priority: 1}, {C: 2, T: 6, D: 6, Priority: 2}, {C: 1, T: 4, D: 4, Priority: 3}},
			want:  []want{{10, Schedulable, 2}, {3, Schedulable, 1}, {1, Schedulable, 0}}, ok: true,
		},
		{
			// τ2: D = 7 < T = 10. w0 = 6; w1 = 4 + ceil(6/5)·2 = 8 > 7:
			// with LimitDeadline the first iterate above D is reported.
			name: "unschedulable, limit deadline", policy: DeadlineMonotonic,
			tasks: []Task{tk(2, 5), {C: 4, T: 10, D: 7}},
			want:  []want{{2, Schedulable, 0}, {8, Exceeded, 1}}, ok: false,
		},
		{
			// Same, iterated to T: w2 = 4 + ceil(8/5)·2 = 8 → R = 8, missing
			// D = 7 by 1 with a sound bound.
			name: "unschedulable, limit period", policy: DeadlineMonotonic, limit: LimitPeriod,
			tasks: []Task{tk(2, 5), {C: 4, T: 10, D: 7}},
			want:  []want{{2, Schedulable, 0}, {8, DeadlineMiss, 1}}, ok: false,
		},
		{
			// OPA cannot place τ2 at the bottom (same test as above) nor τ1
			// (w = 2 + ceil(2/10)·4 = 6 > 5): no level filled, DM fallback.
			name: "unschedulable OPA fallback", policy: OPA, limit: LimitPeriod,
			tasks: []Task{tk(2, 5), {C: 4, T: 10, D: 7}},
			want:  []want{{2, Schedulable, 0}, {8, DeadlineMiss, 1}}, ok: false, levels: 0,
		},
		{
			// τ1, τ2: C=2, T=4 fill the core (hp utilisation of τ3 = 1).
			// τ2: w0 = 4; w1 = 2 + ceil(4/4)·2 = 4 ≤ 4.
			name: "unbounded", policy: RateMonotonic, limit: LimitNone,
			tasks: []Task{tk(2, 4), tk(2, 4), tk(1, 100)},
			want:  []want{{2, Schedulable, 0}, {4, Schedulable, 1}, {Infinity, Unbounded, 2}}, ok: false,
		},
		{
			// τ1 suspends and misses: w0 = 2 + 10 = 12 > 10, no bound. τ2
			// with the lower-bound jitter 12 − 2 = 10: w0 = 3;
			// w1 = 1 + ceil(13/10)·2 = 5; w2 = 1 + ceil(15/10)·2 = 5.
			name: "interferer unbounded", policy: Explicit,
			tasks: []Task{{C: 2, S: 10, T: 10, D: 10, Priority: 2}, {C: 1, T: 20, D: 20, Priority: 1}},
			want:  []want{{12, Exceeded, 0}, {5, InterfererUnbounded, 1}}, ok: false,
		},
		{
			name: "empty core", policy: OPA, ok: true,
		},
	} {
		a := Analyzer{Limit: tc.limit}
		out := make([]Result, len(tc.tasks))
		ok, err := a.Analyze(tc.policy, tc.tasks, out)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ok != tc.ok {
			t.Errorf("%s: ok = %v, want %v", tc.name, ok, tc.ok)
		}
		for i, w := range tc.want {
			if g := out[i]; g.R != w.r || g.Status != w.status || g.Rank != w.rank {
				t.Errorf("%s: task %d = {R %d, %v, rank %d}, want {R %d, %v, rank %d}",
					tc.name, i, g.R, g.Status, g.Rank, w.r, w.status, w.rank)
			}
		}
		if tc.policy == OPA && a.OPALevels() != tc.levels {
			t.Errorf("%s: OPALevels = %d, want %d", tc.name, a.OPALevels(), tc.levels)
		}
		if o := a.Order(); len(o) != len(tc.tasks) {
			t.Errorf("%s: order %v has wrong length", tc.name, o)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	var a Analyzer
	out := make([]Result, 2)
	if _, err := a.Analyze(OPA, []Task{tk(1, 10), {C: 1, T: 10, D: 20}}, out); !errors.Is(err, ErrInvalidTask) {
		t.Errorf("D > T: error %v, want ErrInvalidTask", err)
	}
	if _, err := a.Analyze(OPA, []Task{tk(1, 10), {C: -1, T: 10, D: 10}}, out); !errors.Is(err, ErrInvalidTask) {
		t.Errorf("negative C: error %v, want ErrInvalidTask", err)
	}
	if _, err := a.Analyze(OPA, []Task{tk(1, 10), tk(1, 10), tk(1, 10)}, out); !errors.Is(err, ErrShortOutput) {
		t.Errorf("short output: error %v, want ErrShortOutput", err)
	}
	if _, err := a.Analyze(Policy(42), []Task{tk(1, 10)}, out); !errors.Is(err, ErrPolicy) {
		t.Errorf("bad policy: error %v, want ErrPolicy", err)
	}
	for _, bad := range []Task{
		{C: 1, T: 0, D: 0}, {C: 1, T: MaxTime + 1, D: 1}, {C: 1, T: 10, D: 0},
		{C: MaxTime + 1, T: 10, D: 10}, {C: 1, T: 10, D: 10, J: -1},
		{C: 1, T: 10, D: 10, B: -1}, {C: 1, T: 10, D: 10, S: -1},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if (Task{C: 1, T: 10, D: 10}).Validate() != nil {
		t.Error("valid task rejected")
	}
}

func TestStrings(t *testing.T) {
	if Schedulable.String() != "schedulable" || Status(99).String() != "Status(99)" {
		t.Error("Status.String")
	}
	if OPA.String() != "opa" || Policy(9).String() != "Policy(9)" {
		t.Error("Policy.String")
	}
	if !DeadlineMiss.Bounded() || Exceeded.Bounded() {
		t.Error("Status.Bounded")
	}
}

func TestNoAllocs(t *testing.T) {
	tasks := benchTasks()
	out := make([]Result, len(tasks))
	var a Analyzer
	for _, p := range []Policy{OPA, DeadlineMonotonic, RateMonotonic, Explicit} {
		a.Analyze(p, tasks, out) // grow buffers
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := a.Analyze(p, tasks, out); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%v: Analyze allocates %.1f times per call", p, allocs)
		}
	}
	hp := make([]Interferer, 0, len(tasks))
	for _, x := range tasks[:4] {
		hp = append(hp, x.Interferer(x.C))
	}
	allocs := testing.AllocsPerRun(100, func() { ResponseTime(tasks[4], hp, tasks[4].D) })
	if allocs != 0 {
		t.Errorf("ResponseTime allocates %.1f times per call", allocs)
	}
}

func TestInterferer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		task     Task
		r        int64
		tight    Interferer
		deadline Interferer
	}{
		// No suspension: the release jitter only (J0 too); a job becomes
		// ready once.
		{"plain", Task{C: 2, T: 10, D: 8, J: 1, C0: 1, Lines: 3, Access: 1}, 5,
			Interferer{C: 2, T: 10, J: 1, C0: 1, Lines: 3, J0: 1, Readies: 1}, Interferer{C: 2, T: 10, J: 1, C0: 1, Lines: 3, J0: 1, Readies: 1}},
		// Suspending: R − C = 9 − 2 = 7 and D − C = 8 − 2 = 6; for the
		// window term R − Access = 9 − 1 = 8 and D − Access = 8 − 1 = 7. It
		// suspends once (Suspensions 0 with S > 0 counts one): ready twice.
		{"suspending", Task{C: 2, T: 10, D: 8, J: 1, S: 3, C0: 2, Lines: 4, Access: 1}, 9,
			Interferer{C: 2, T: 10, J: 7, C0: 2, Lines: 4, J0: 8, Readies: 2}, Interferer{C: 2, T: 10, J: 6, C0: 2, Lines: 4, J0: 7, Readies: 2}},
		// Never below J: R − C = 0 and D − C = 1 < J = 4; R − Access = 5 − 4
		// = 1 and D − Access = 2 < 4. Three suspensions: ready four times.
		{"jitter floor", Task{C: 5, T: 10, D: 6, J: 4, S: 1, C0: 4, Access: 4, Suspensions: 3}, 5,
			Interferer{C: 5, T: 10, J: 4, C0: 4, J0: 4, Readies: 4}, Interferer{C: 5, T: 10, J: 4, C0: 4, J0: 4, Readies: 4}},
		// An unbounded R is clipped to MaxTime (both jitters).
		{"clipped", Task{C: 1, T: 10, D: 10, S: 1}, Infinity, Interferer{C: 1, T: 10, J: MaxTime, J0: MaxTime, Readies: 2},
			Interferer{C: 1, T: 10, J: 9, J0: 10, Readies: 2}},
	} {
		if got := tc.task.Interferer(tc.r); got != tc.tight {
			t.Errorf("%s: Interferer(%d) = %+v, want %+v", tc.name, tc.r, got, tc.tight)
		}
		if got := tc.task.InterfererAtDeadline(); got != tc.deadline {
			t.Errorf("%s: InterfererAtDeadline = %+v, want %+v", tc.name, got, tc.deadline)
		}
	}
}

// TestLimitNone: iterating to the fixed point reports a value beyond the
// period as Exceeded (not a bound), with the exact analysis value.
func TestLimitNone(t *testing.T) {
	// τ2: C=4, T=D=7 under C=2, T=5: w0 = 6; w1 = 4 + ceil(6/5)·2 = 8;
	// w2 = 4 + ceil(8/5)·2 = 8 → 8 > T = 7.
	tasks := []Task{tk(2, 5), tk(4, 7)}
	out := make([]Result, 2)
	for _, tc := range []struct {
		limit Limit
		want  Result
	}{
		{LimitDeadline, Result{R: 8, Status: Exceeded, Rank: 1}},
		{LimitPeriod, Result{R: 8, Status: Exceeded, Rank: 1}},
		{LimitNone, Result{R: 8, Status: Exceeded, Rank: 1}},
	} {
		a := Analyzer{Limit: tc.limit}
		if ok, _ := a.Analyze(DeadlineMonotonic, tasks, out); ok || out[1] != tc.want {
			t.Errorf("limit %d: %+v, want %+v", tc.limit, out[1], tc.want)
		}
	}
}
