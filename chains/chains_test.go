package chains

import (
	"strings"
	"testing"
)

// mem builds a member with offset 0, BCRT 0, LET = deadline = period.
func mem(name string, t, wcrt int64) Member {
	return Member{Name: name, Period: t, WCRT: wcrt}
}

// want is a hand-computed expectation: implicit, LET, Davare (which is also
// the bound for any offsets of chains without a shared unit), and Davare
// under LET as {ReactionFromActivation, MaxReactionTime, MaxDataAge}.
type want struct {
	imp, let, dav, davLET [3]int64
}

func vals(v Values) [3]int64 {
	return [3]int64{v.ReactionFromActivation, v.MaxReactionTime, v.MaxDataAge}
}

// Conventions in the comments: "τk@r" is the job of τk released at r;
// "w" its write (r + WCRT implicit, r + L under LET). Forward hops take the
// first job released at or after w; backward hops the last job with
// release + R ≤ the reader's release. Values repeat every hyperperiod H, so
// one H of starting (τ1) / ending (τm) jobs suffices.
var handCases = []struct {
	name string
	ms   []Member
	want want
}{
	{
		// Single task, T=10, R=4.
		// Implicit: forward τ1@0 w=4 → RFA 4, MRT 4+10=14; backward τ1@0: 4−0=4.
		// LET: w=10 → RFA 10, MRT 20, MDA 10.
		// Davare Σ(T+R)=14; RFA 14−T1=4; MDA 14−Tm=4. DavareLET 20, 10, 10.
		name: "one task",
		ms:   []Member{mem("a", 10, 4)},
		want: want{imp: [3]int64{4, 14, 4}, let: [3]int64{10, 20, 10},
			dav: [3]int64{4, 14, 4}, davLET: [3]int64{10, 20, 10}},
	},
	{
		// Harmonic, τ1 T=10 R=3, τ2 T=20 R=5; H=20.
		// Implicit forward:
		//   τ1@0  w=3  → τ2@20 w=25: 25−0  = 25
		//   τ1@10 w=13 → τ2@20 w=25: 25−10 = 15        → RFA 25, MRT 35
		// Implicit backward:
		//   τ2@0:  τ1 r+3 ≤ 0  → τ1@−10: 5−(−10) = 15
		//   τ2@20: τ1 r+3 ≤ 20 → τ1@10:  25−10  = 15    → MDA 15
		// LET forward:
		//   τ1@0  w=10 → τ2@20 w=40: 40
		//   τ1@10 w=20 → τ2@20 w=40: 30                 → RFA 40, MRT 50
		// LET backward:
		//   τ2@0:  τ1 r+10 ≤ 0  → τ1@−10: 20+10 = 30
		//   τ2@20: τ1 r+10 ≤ 20 → τ1@10:  40−10 = 30    → MDA 30
		// Davare (10+3)+(20+5)=38; RFA 38−10=28; MDA 38−20=18.
		// DavareLET (10+10)+(20+20)=60; 50; 40.
		name: "two tasks harmonic",
		ms:   []Member{mem("a", 10, 3), mem("b", 20, 5)},
		want: want{imp: [3]int64{25, 35, 15}, let: [3]int64{40, 50, 30},
			dav: [3]int64{28, 38, 18}, davLET: [3]int64{50, 60, 40}},
	},
	{
		// Read at the same instant as a write: τ1 T=10 R=10 (= deadline),
		// τ2 T=10 R=2; H=10.
		// Implicit forward: τ1@0 w=10 → τ2@10 reads at 10 = w and sees the
		//   value → w=12: RFA 12 (an exclusive rule would give τ2@20, 22).
		// Implicit backward: τ2@0: τ1 r+10 ≤ 0 → τ1@−10 (writes at 0, read at
		//   0): 2−(−10) = 12.
		// LET forward: τ1@0 w=10 → τ2@10 w=20: RFA 20, MRT 30.
		// LET backward: τ2@0: τ1 r+10 ≤ 0 → τ1@−10: 10+10 = 20.
		// Davare (10+10)+(10+2)=32, 22, 22. DavareLET 40, 30, 30.
		name: "read at write instant",
		ms:   []Member{mem("a", 10, 10), mem("b", 10, 2)},
		want: want{imp: [3]int64{12, 22, 12}, let: [3]int64{20, 30, 20},
			dav: [3]int64{22, 32, 22}, davLET: [3]int64{30, 40, 30}},
	},
	{
		// Non-harmonic, τ1 T=3 R=1, τ2 T=2 R=1; H=6.
		// Implicit forward:
		//   τ1@0 w=1 → τ2@2 w=3: 3
		//   τ1@3 w=4 → τ2@4 w=5: 2                      → RFA 3, MRT 6
		// Implicit backward (τ2@0,2,4):
		//   τ2@0: τ1 r ≤ −1 → τ1@−3: 1+3 = 4
		//   τ2@2: τ1 r ≤ 1  → τ1@0:  3−0 = 3
		//   τ2@4: τ1 r ≤ 3  → τ1@3:  5−3 = 2            → MDA 4
		// LET forward:
		//   τ1@0 w=3 → τ2@4 w=6: 6
		//   τ1@3 w=6 → τ2@6 w=8: 5                      → RFA 6, MRT 9
		// LET backward:
		//   τ2@0: τ1 r ≤ −3 → τ1@−3: 2+3 = 5
		//   τ2@2: τ1 r ≤ −1 → τ1@−3: 4+3 = 7
		//   τ2@4: τ1 r ≤ 1  → τ1@0:  6−0 = 6            → MDA 7
		// Davare (3+1)+(2+1)=7; 7−3=4; 7−2=5. DavareLET 6+4=10; 7; 8.
		name: "two tasks non-harmonic",
		ms:   []Member{mem("a", 3, 1), mem("b", 2, 1)},
		want: want{imp: [3]int64{3, 6, 4}, let: [3]int64{6, 9, 7},
			dav: [3]int64{4, 7, 5}, davLET: [3]int64{7, 10, 8}},
	},
	{
		// Non-harmonic, τ1 T=4 R=1, τ2 T=6 R=2, τ3 T=3 R=1; H=12.
		// Implicit forward (τ1@0,4,8):
		//   τ1@0 w=1 → τ2@6  w=8  → τ3@9  w=10: 10
		//   τ1@4 w=5 → τ2@6  w=8  → τ3@9  w=10: 6
		//   τ1@8 w=9 → τ2@12 w=14 → τ3@15 w=16: 8      → RFA 10, MRT 14
		// Implicit backward (τ3@0,3,6,9):
		//   τ3@0: τ2 r+2 ≤ 0 → τ2@−6; τ1 r+1 ≤ −6 → τ1@−8: 1+8 = 9
		//   τ3@3: τ2 r ≤ 1   → τ2@0;  τ1 r ≤ −1   → τ1@−4: 4+4 = 8
		//   τ3@6: τ2 r ≤ 4   → τ2@0;  τ1@−4:              7+4 = 11
		//   τ3@9: τ2 r ≤ 7   → τ2@6;  τ1 r ≤ 5    → τ1@4:  10−4 = 6 → MDA 11
		// LET forward:
		//   τ1@0 w=4  → τ2@6  w=12 → τ3@12 w=15: 15
		//   τ1@4 w=8  → τ2@12 w=18 → τ3@18 w=21: 17
		//   τ1@8 w=12 → τ2@12 w=18 → τ3@18 w=21: 13   → RFA 17, MRT 21
		// LET backward:
		//   τ3@0: τ2 r+6 ≤ 0 → τ2@−6; τ1 r+4 ≤ −6 → τ1@−12: 3+12 = 15
		//   τ3@3: τ2 r ≤ −3  → τ2@−6; τ1@−12:               6+12 = 18
		//   τ3@6: τ2 r ≤ 0   → τ2@0;  τ1 r ≤ −4  → τ1@−4:  9+4  = 13
		//   τ3@9: τ2 r ≤ 3   → τ2@0;  τ1@−4:               12+4 = 16 → MDA 18
		// Davare 5+8+4=17; 17−4=13; 17−3=14. DavareLET 8+12+6=26; 22; 23.
		name: "three tasks non-harmonic",
		ms:   []Member{mem("a", 4, 1), mem("b", 6, 2), mem("c", 3, 1)},
		want: want{imp: [3]int64{10, 14, 11}, let: [3]int64{17, 21, 18},
			dav: [3]int64{13, 17, 14}, davLET: [3]int64{22, 26, 23}},
	},
	{
		// Harmonic three tasks, τ1 T=5 R=2, τ2 T=10 R=4, τ3 T=20 R=5; H=20.
		// Implicit forward (τ1@0,5,10,15):
		//   τ1@0  w=2  → τ2@10 w=14 → τ3@20 w=25: 25
		//   τ1@5  w=7  → τ2@10 w=14 → τ3@20 w=25: 20
		//   τ1@10 w=12 → τ2@20 w=24 → τ3@40 w=45: 35
		//   τ1@15 w=17 → τ2@20 w=24 → τ3@40 w=45: 30   → RFA 35, MRT 40
		// Implicit backward (τ3@0):
		//   τ3@0: τ2 r+4 ≤ 0 → τ2@−10; τ1 r+2 ≤ −10 → τ1@−15: 5+15 = 20 → MDA 20
		// LET forward:
		//   τ1@0  w=5  → τ2@10 w=20 → τ3@20 w=40: 40
		//   τ1@5  w=10 → τ2@10 w=20 → τ3@20 w=40: 35
		//   τ1@10 w=15 → τ2@20 w=30 → τ3@40 w=60: 50
		//   τ1@15 w=20 → τ2@20 w=30 → τ3@40 w=60: 45   → RFA 50, MRT 55
		// LET backward: τ3@0: τ2 r+10 ≤ 0 → τ2@−10; τ1 r+5 ≤ −10 → τ1@−15:
		//   20+15 = 35                                 → MDA 35
		// Davare 7+14+25=46; 41; 26. DavareLET 10+20+40=70; 65; 50.
		name: "three tasks harmonic",
		ms:   []Member{mem("a", 5, 2), mem("b", 10, 4), mem("c", 20, 5)},
		want: want{imp: [3]int64{35, 40, 20}, let: [3]int64{50, 55, 35},
			dav: [3]int64{41, 46, 26}, davLET: [3]int64{65, 70, 50}},
	},
	{
		// Offsets: τ1 T=10 O=0 R=2, τ2 T=10 O=5 R=1; H=10.
		// Implicit forward: τ1@0 w=2 → τ2@5 w=6: RFA 6, MRT 16.
		// Implicit backward: τ2@5: τ1 r+2 ≤ 5 → τ1@0: 6−0 = 6.
		// LET forward: τ1@0 w=10 → τ2@15 w=25: RFA 25, MRT 35.
		// LET backward: τ2@5: τ1 r+10 ≤ 5 → τ1@−10: 15+10 = 25.
		// Davare (offset-free) 12+11=23; 13; 13. DavareLET 40; 30; 30.
		name: "offsets",
		ms:   []Member{mem("a", 10, 2), {Name: "b", Period: 10, Offset: 5, WCRT: 1}},
		want: want{imp: [3]int64{6, 16, 6}, let: [3]int64{25, 35, 25},
			dav: [3]int64{13, 23, 13}, davLET: [3]int64{30, 40, 30}},
	},
	{
		// Offset equal to a write: τ1 T=10 O=0 R=2, τ2 T=10 O=2 R=1.
		// Implicit forward: τ1@0 w=2 → τ2@2 (reads at the write instant)
		//   w=3: RFA 3, MRT 13. Backward: τ2@2: τ1 r+2 ≤ 2 → τ1@0: 3.
		// LET forward: τ1@0 w=10 → τ2@12 w=22: 22, 32. Backward: τ2@2:
		//   τ1 r+10 ≤ 2 → τ1@−10: 12+10 = 22.
		// Davare 12+11=23; 13; 13. DavareLET 40; 30; 30.
		name: "offset at write instant",
		ms:   []Member{mem("a", 10, 2), {Name: "b", Period: 10, Offset: 2, WCRT: 1}},
		want: want{imp: [3]int64{3, 13, 3}, let: [3]int64{22, 32, 22},
			dav: [3]int64{13, 23, 13}, davLET: [3]int64{30, 40, 30}},
	},
	{
		// LET interval shorter than the period: τ1 T=10 L=4 R=3, τ2 T=5 R=2
		// (L=5); H=10.
		// Implicit forward: τ1@0 w=3 → τ2@5 w=7: RFA 7, MRT 17.
		// Implicit backward: τ2@0: τ1 r+3 ≤ 0 → τ1@−10: 2+10 = 12;
		//   τ2@5: τ1 r ≤ 2 → τ1@0: 7 → MDA 12.
		// LET forward: τ1@0 w=4 → τ2@5 w=10: RFA 10, MRT 20.
		// LET backward: τ2@0: τ1 r+4 ≤ 0 → τ1@−10: 5+10 = 15;
		//   τ2@5: τ1 r ≤ 1 → τ1@0: 10 → MDA 15.
		// Davare 13+7=20; 10; 15. DavareLET (10+4)+(5+5)=24; 14; 19.
		name: "short LET interval",
		ms:   []Member{{Name: "a", Period: 10, LET: 4, WCRT: 3}, mem("b", 5, 2)},
		want: want{imp: [3]int64{7, 17, 12}, let: [3]int64{10, 20, 15},
			dav: [3]int64{10, 20, 15}, davLET: [3]int64{14, 24, 19}},
	},
}

func TestHandComputed(t *testing.T) {
	for _, c := range handCases {
		t.Run(c.name, func(t *testing.T) {
			r := Analyze(c.ms, Options{})
			if r.Status != OK {
				t.Fatalf("status %v: %s", r.Status, r.Reason())
			}
			for _, x := range []struct {
				what string
				v    Values
				want [3]int64
			}{
				{"implicit", r.Implicit, c.want.imp},
				{"LET", r.LET, c.want.let},
				{"Davare", r.Analyses[Davare2007], c.want.dav},
				{"Dürr", r.Analyses[Duerr2019], c.want.dav},
				{"per hop", r.Analyses[PerHop], c.want.dav},
				{"any offsets", r.AnyOffset, c.want.dav},
				{"any offsets, LET", r.AnyOffsetLET, c.want.davLET},
			} {
				if x.v.Status != OK || vals(x.v) != x.want {
					t.Errorf("%s = %v %v, want [RFA MRT MDA] %v", x.what, x.v.Status, vals(x.v), x.want)
				}
			}
			if r.Reason() != "" || r.Err() != nil || r.Member != -1 {
				t.Errorf("OK result has reason %q / member %d", r.Reason(), r.Member)
			}
		})
	}
}

func TestWorstChainHand(t *testing.T) {
	ms := []Member{mem("a", 4, 1), mem("b", 6, 2), mem("c", 3, 1)}
	buf := make([]Hop, 0, 3)
	// Implicit reaction (see "three tasks non-harmonic"): τ1@0 w=1 → τ2@6 w=8
	// → τ3@9 w=10, plus Lead T1 = 4: 14.
	b, r := WorstChain(ms, Options{}, Implicit, MaxReactionTime, buf)
	if r.Status != OK {
		t.Fatal(r.Reason())
	}
	wantF := []Hop{{0, 0, 0, 1, 0}, {1, 6, 6, 8, 5}, {2, 9, 9, 10, 1}}
	if b.Length != 14 || b.Lead != 4 || !equalHops(b.Hops, wantF) {
		t.Errorf("forward = %+v, want Length 14 Lead 4 hops %v", b, wantF)
	}
	// Implicit data age: τ3@6 ← τ2@0 ← τ1@−4, shifted by H=12: τ1@8 w=9,
	// τ2@12 w=14 (wait 3), τ3@18 w=19 (wait 4): 19−8 = 11.
	b, _ = WorstChain(ms, Options{}, Implicit, MaxDataAge, buf)
	wantB := []Hop{{0, 8, 8, 9, 0}, {1, 12, 12, 14, 3}, {2, 18, 18, 19, 4}}
	if b.Length != 11 || b.Lead != 0 || !equalHops(b.Hops, wantB) {
		t.Errorf("backward = %+v, want Length 11 hops %v", b, wantB)
	}
	// LET reaction from activation: τ1@4 w=8 → τ2@12 w=18 → τ3@18 w=21: 17.
	b, _ = WorstChain(ms, Options{}, LET, ReactionFromActivation, buf)
	wantL := []Hop{{0, 4, 4, 8, 0}, {1, 12, 12, 18, 4}, {2, 18, 18, 21, 0}}
	if b.Length != 17 || !equalHops(b.Hops, wantL) {
		t.Errorf("LET forward = %+v, want Length 17 hops %v", b, wantL)
	}
	// The buffer was used, not reallocated.
	if &b.Hops[0] != &buf[:1][0] {
		t.Error("WorstChain did not use the caller's buffer")
	}
}

func equalHops(a, b []Hop) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestStatus(t *testing.T) {
	ok := mem("ok", 10, 2)
	cases := []struct {
		name       string
		ms         []Member
		opts       Options
		status     Status
		member     int
		imp, let   Status // per-paradigm job-level statuses
		dav        Status
		reasonHave string
	}{
		{"empty", nil, Options{}, InvalidInput, -1, InvalidInput, InvalidInput, InvalidInput, "empty chain"},
		{"zero period", []Member{ok, {Name: "z", WCRT: 1}}, Options{}, InvalidInput, 1, InvalidInput, InvalidInput, InvalidInput, "period must be positive"},
		{"negative offset", []Member{{Name: "n", Period: 5, Offset: -1}}, Options{}, InvalidInput, 0, InvalidInput, InvalidInput, InvalidInput, "offset"},
		{"BCRT > WCRT", []Member{{Name: "n", Period: 5, BCRT: 3, WCRT: 2}}, Options{}, InvalidInput, 0, InvalidInput, InvalidInput, InvalidInput, "BCRT"},
		{"jitter > WCRT", []Member{{Name: "n", Period: 5, Jitter: 3, WCRT: 2}}, Options{}, InvalidInput, 0, InvalidInput, InvalidInput, InvalidInput, "jitter must be between 0 and WCRT"},
		{"negative BCET", []Member{{Name: "n", Period: 5, BCET: -1, WCRT: 2}}, Options{}, InvalidInput, 0, InvalidInput, InvalidInput, InvalidInput, "BCET must be between 0 and WCRT"},
		{"unbounded", []Member{ok, {Name: "EKF", Period: 15, Unbounded: true, Why: "RTA diverged"}, ok},
			Options{}, MemberUnbounded, 1, MemberUnbounded, MemberUnbounded, MemberUnbounded, "member 2 (EKF) has no response-time bound: RTA diverged"},
		{"WCRT > period", []Member{ok, {Name: "P", Period: 15, WCRT: 16}}, Options{}, MemberUnschedulable, 1,
			MemberUnschedulable, MemberUnschedulable, MemberUnschedulable, "member 2 (P): WCRT 16 exceeds its deadline 15"},
		{"WCRT > model deadline", []Member{{Name: "Planner", Period: 15, Deadline: 12, WCRT: 13}, ok}, Options{}, MemberUnschedulable, 0,
			MemberUnschedulable, MemberUnschedulable, MemberUnschedulable, "WCRT 13 exceeds its deadline 12"},
		{"LET overrun", []Member{ok, {Name: "L", Period: 10, LET: 3, WCRT: 4}}, Options{}, LETOverrun, 1,
			OK, LETOverrun, OK, "member 2 (L): WCRT 4 exceeds its LET interval 3"},
		// 4000000007 and 4000000009 are coprime (odd, differ by 2): their LCM
		// ≈ 1.6e19 does not fit, but Davare's sum does.
		{"LCM overflow", []Member{mem("a", 4000000007, 1), mem("b", 4000000009, 1)}, Options{}, Overflow, -1,
			Overflow, Overflow, OK, "hyperperiod"},
		{"sum overflow", []Member{mem("a", 1<<62, 1), mem("b", 1<<62, 1)}, Options{}, Overflow, -1,
			Overflow, Overflow, Overflow, "Σ"},
		// H = lcm(3, 37) = 111: 37 jobs of τ1 > 10.
		{"too many jobs", []Member{mem("a", 3, 1), mem("b", 37, 1)}, Options{MaxJobs: 10}, TooManyJobs, -1,
			TooManyJobs, TooManyJobs, OK, "37 jobs per hyperperiod exceed the limit 10"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Analyze(c.ms, c.opts)
			if r.Status != c.status || r.Member != c.member || r.Implicit.Status != c.imp ||
				r.LET.Status != c.let || r.AnyOffset.Status != c.dav || r.Analyses[Davare2007].Status != c.dav {
				t.Errorf("got status %v member %d implicit %v LET %v any offsets %v; want %v %d %v %v %v",
					r.Status, r.Member, r.Implicit.Status, r.LET.Status, r.AnyOffset.Status,
					c.status, c.member, c.imp, c.let, c.dav)
			}
			if !strings.Contains(r.Reason(), c.reasonHave) || r.Err() == nil {
				t.Errorf("reason %q does not contain %q", r.Reason(), c.reasonHave)
			}
			// No number without OK.
			for _, v := range []Values{r.Implicit, r.LET, r.AnyOffset, r.AnyOffsetLET, r.Analyses[0], r.Analyses[1], r.Analyses[2]} {
				if v.Status != OK && v != (Values{Status: v.Status}) {
					t.Errorf("non-OK values carry numbers: %+v", v)
				}
			}
			if r.Implicit.Status == OK && vals(r.Implicit) == [3]int64{} {
				t.Errorf("implicit OK but empty: %+v", r.Implicit)
			}
			var buf [4]Hop
			b, r2 := WorstChain(c.ms, c.opts, LET, MaxDataAge, buf[:0])
			if r2.Status != r.Status || (r2.LET.Status != OK) != (len(b.Hops) == 0) {
				t.Errorf("WorstChain: status %v, %d hops", r2.Status, len(b.Hops))
			}
		})
	}
}

func TestObjective(t *testing.T) {
	ms := handCases[4].ms // three tasks non-harmonic
	r := Analyze(ms, Options{})
	for _, c := range []struct {
		o    Objective
		want int64
	}{
		{Objective{}, 14}, // default: implicit, reaction time, at offsets
		{Objective{Implicit, ReactionFromActivation, AtOffsets}, 10},
		{Objective{Implicit, MaxDataAge, AtOffsets}, 11},
		{Objective{LET, MaxReactionTime, AtOffsets}, 21},
		{Objective{LET, MaxDataAge, AtOffsets}, 18},
		{Objective{Implicit, MaxReactionTime, AnyOffsets}, 17},
		{Objective{Implicit, MaxReactionTime, Davare}, 17},
		{Objective{Implicit, MaxDataAge, Davare}, 14},
		{Objective{LET, MaxReactionTime, AnyOffsets}, 26},
		{Objective{LET, MaxDataAge, AnyOffsets}, 23},
		{Objective{LET, MaxDataAge, Davare}, 23},
	} {
		if v, st := c.o.Value(&r); v != c.want || st != OK {
			t.Errorf("%v: %d %v, want %d", c.o, v, st, c.want)
		}
		p, err := ParseObjective(c.o.String())
		if err != nil || p != c.o {
			t.Errorf("ParseObjective(%q) = %v, %v", c.o.String(), p, err)
		}
	}
	if o, err := ParseObjective("LET"); err != nil || o != (Objective{Paradigm: LET}) {
		t.Errorf("ParseObjective(LET) = %v, %v", o, err)
	}
	for _, bad := range []string{"", "explicit", "let/latency", "let/data-age/sometimes", "a/b/c/d"} {
		if _, err := ParseObjective(bad); err == nil {
			t.Errorf("ParseObjective(%q) accepted", bad)
		}
	}
	// A LET objective on a LET-overrun chain reports the status, not a number.
	r = Analyze([]Member{{Period: 10, LET: 3, WCRT: 4}}, Options{})
	if v, st := (Objective{Paradigm: LET}).Value(&r); v != 0 || st != LETOverrun {
		t.Errorf("LET objective on overrun: %d %v", v, st)
	}
	if v, st := (Objective{}).Value(&r); v != 14 || st != OK {
		t.Errorf("implicit objective on LET overrun: %d %v, want 14 OK", v, st)
	}
}

func TestNoAllocs(t *testing.T) {
	ms := watersChains()[0].ms
	buf := make([]Hop, 0, len(ms))
	bad := append([]Member(nil), ms...)
	bad[2].WCRT = bad[2].Period + 1
	var sink int64
	if n := testing.AllocsPerRun(20, func() {
		r := Analyze(ms, Options{})
		r2 := Analyze(bad, Options{})
		b, _ := WorstChain(ms, Options{}, Implicit, MaxDataAge, buf)
		v, _ := Objective{}.Value(&r)
		e, _ := Eval(ms, Options{Objective: Objective{LET, MaxDataAge, AtOffsets}})
		sink += v + e + b.Length + int64(r2.Status)
	}); n != 0 {
		t.Errorf("Analyze/Eval/WorstChain allocate %v times per run", n)
	}
	_ = sink
}
