package chains

import (
	"math"
	"math/rand/v2"
	"testing"
)

// enumerated returns the reference job-level values of a model by job
// enumeration (maxForward, maxBackward over one hyperperiod): reaction
// latency from activation and maximum data age.
func enumerated(ms []Member, md model, pl *plan) (rfa, age int64) {
	rfa, _ = maxForward(ms, hopsOf(ms, md), pl.n1, math.MaxInt64)
	age, _ = maxBackward(ms, hopsOf(ms, md), pl.nm, math.MaxInt64)
	return rfa, age
}

// hopsOf returns model md's hop delays for chain ms.
func hopsOf(ms []Member, md model) *hops {
	var h hops
	h.set(ms, md)
	return &h
}

// TestHopsLongChains: the delays kept for the first hops and computed for
// the others of a chain longer than maxSplitMembers are the model's.
func TestHopsLongChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	ms := make([]Member, maxSplitMembers+5)
	for k := range ms {
		m := Member{Period: 1 + rng.Int64N(20)}
		m.WCRT = rng.Int64N(m.Period + 1)
		m.BCRT = rng.Int64N(m.WCRT + 1)
		randBestAndUnit(rng, &m, true)
		ms[k] = m
	}
	for _, md := range []model{upper, letModel, lower} {
		h := hopsOf(ms, md)
		for k := range len(ms) - 1 {
			if h.at(ms, k) != md.hop(ms, k) {
				t.Fatalf("model %d, hop %d: %d, want %d", md, k, h.at(ms, k), md.hop(ms, k))
			}
		}
		if h.end != md.end(&ms[len(ms)-1]) {
			t.Fatalf("model %d: end %d", md, h.end)
		}
	}
	// Analyze of a long chain (the planner takes an end) equals enumeration.
	r := Analyze(ms, Options{})
	checkInvariants(t, ms, &r)
}

// minForward and minBackward are the shortest forward and backward job
// chains of a model over the n jobs of the first (last) member in one
// hyperperiod, by job enumeration: the references of the class method's
// shortest job chain, which both equal (package doc, "Minima").
func minForward(ms []Member, h *hops, n int64) int64 {
	m0 := &ms[0]
	best := int64(math.MaxInt64)
	for i, r1 := int64(0), m0.Offset; i < n; i, r1 = i+1, r1+m0.Period {
		best = min(best, forwardEnd(ms, h, r1)-r1)
	}
	return best
}

func minBackward(ms []Member, h *hops, n int64) int64 {
	mm := &ms[len(ms)-1]
	best := int64(math.MaxInt64)
	for i, rm := int64(0), mm.Offset; i < n; i, rm = i+1, rm+mm.Period {
		best = min(best, rm+h.end-backwardStart(ms, h, rm))
	}
	return best
}

// splitAt returns the class method's split of a validated chain at member
// k, whatever its cost: p and s from LCMs computed here, the moduli by the
// production code.
func splitAt(ms []Member, k int) classSplit {
	n := len(ms)
	pre, suf := ms[0].Period, ms[n-1].Period
	for i := 1; i <= k; i++ {
		pre, _, _, _ = lcmParts(pre, ms[i].Period)
	}
	for i := n - 2; i >= k; i-- {
		suf, _, _, _ = lcmParts(suf, ms[i].Period)
	}
	sp := classSplit{k: k, p: pre / ms[k].Period, s: suf / ms[k].Period}
	var dPre, dSuf int64
	if n >= 2 {
		dPre, dSuf = gcd(ms[0].Period, ms[1].Period), gcd(ms[n-2].Period, ms[n-1].Period)
	}
	sp.moduli(n, dPre, dSuf)
	return sp
}

// randClassChain draws a valid chain of 1..6 members for the class method's
// property test. Periods come from one of four families, times a scale of
// 1, 1000 or 1e9: harmonic (b·2^e), harmonic with factor 3 (b·3^e·2^f),
// non-harmonic (1..12) and WATERS-like (5, 10, 15, 33, 66, 100, 200, 400).
// Offsets are all zero (a third of the chains) or random in [0, 2T); then
// 0 ≤ BCRT ≤ WCRT ≤ D ≤ T, 0 ≤ BCET, jitter ≤ WCRT, and the LET interval is
// the period or random in [max(WCRT, 1), T]. Half the chains place their
// members on units 0 to 2 with random ranks (some suspending), so that
// ordered hops occur in either direction; the values are then not checked
// against a schedule (the response times are not those of one), only the
// class method against enumeration.
func randClassChain(rng *rand.Rand) []Member {
	scale := []int64{1, 1, 1000, 1_000_000_000}[rng.IntN(4)]
	family := rng.IntN(4)
	base := []int64{1, 2, 3, 5}[rng.IntN(4)]
	zeroOffsets := rng.IntN(3) == 0
	placed := rng.IntN(2) == 0
	ms := make([]Member, 1+rng.IntN(6))
	for k := range ms {
		var t int64
		switch family {
		case 0:
			t = base << rng.IntN(5)
		case 1:
			t = base * []int64{1, 3, 9}[rng.IntN(3)] << rng.IntN(3)
		case 2:
			t = 1 + rng.Int64N(12)
		default:
			t = []int64{5, 10, 15, 33, 66, 100, 200, 400}[rng.IntN(8)]
		}
		t *= scale
		d := t
		if rng.IntN(3) == 0 {
			d = 1 + rng.Int64N(t)
		}
		m := Member{Period: t, Deadline: d, WCRT: rng.Int64N(d + 1)}
		m.BCRT = rng.Int64N(m.WCRT + 1)
		randBestAndUnit(rng, &m, placed)
		if !zeroOffsets {
			m.Offset = rng.Int64N(2 * t)
		}
		if rng.IntN(2) == 0 {
			m.LET = max(m.WCRT, 1) + rng.Int64N(t-max(m.WCRT, 1)+1)
		}
		ms[k] = m
	}
	return ms
}

// randBestAndUnit gives a member drawn with its period and response times a
// jitter and a BCET (each zero a third of the time, else at most WCRT) and,
// when placed, a unit among 1 and 2 (0 a third of the time), a rank in
// [0, 4) and, one time in six, Suspends.
func randBestAndUnit(rng *rand.Rand, m *Member, placed bool) {
	if rng.IntN(3) != 0 {
		m.Jitter = rng.Int64N(m.WCRT + 1)
	}
	if rng.IntN(3) != 0 {
		m.BCET = rng.Int64N(m.WCRT + 1)
	}
	if placed {
		m.Unit, m.Rank, m.Suspends = rng.IntN(3), rng.IntN(4), rng.IntN(6) == 0
	}
}

// TestPropertyClassesEqualEnumeration is the evidence that the class method
// equals job enumeration: over thousands of random chains (see
// randClassChain), both paradigms and both directions, at the split the
// planner chooses and at every other member as the split (which exercises
// the walks of both sides and the closed forms of a one-hop side at either
// end); and Eval and Analyze, which use the class method, against the
// enumerated values for every metric.
func TestPropertyClassesEqualEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	chains, splits := 10000, 0
	for range chains {
		ms := randClassChain(rng)
		var r Result
		var pl plan
		prepare(ms, Options{}, &r, &pl)
		if r.Implicit.Status != OK {
			t.Fatalf("valid chain got %v: %s\n%+v", r.Implicit.Status, r.Reason(), ms)
		}
		an := Analyze(ms, Options{})
		for _, md := range []model{upper, letModel, lower} {
			p := Implicit
			if md == letModel {
				p = LET
			}
			if r.Values(p, AtOffsets).Status != OK {
				continue
			}
			rfa, age := enumerated(ms, md, &pl)
			short, shortB := minForward(ms, hopsOf(ms, md), pl.n1), minBackward(ms, hopsOf(ms, md), pl.nm)
			if short != shortB {
				t.Fatalf("model %d: shortest forward job chain %d, backward %d\n%+v", md, short, shortB, ms)
			}
			for k := -1; k < len(ms); k++ {
				sp := pl.split
				if k >= 0 {
					sp = splitAt(ms, k)
					splits++
				}
				f, a := byClasses(ms, hopsOf(ms, md), longestForward, &sp), byClasses(ms, hopsOf(ms, md), longestBackward, &sp)
				lo := byClasses(ms, hopsOf(ms, md), shortest, &sp)
				if f != rfa || a != age || lo != short {
					t.Fatalf("model %d, split %+v (chosen %d): classes give reaction %d, age %d, shortest %d; enumeration %d, %d, %d\n%+v",
						md, sp, pl.split.k, f, a, lo, rfa, age, short, ms)
				}
			}
			if md == lower {
				if got, want := an.Implicit.MinReactionTime, lowestLatency(ms, short); got != want || an.Implicit.MinDataAge != want {
					t.Fatalf("Analyze minima %+v, enumeration %d\n%+v", an.Implicit, want, ms)
				}
				continue
			}
			got := an.Values(p, AtOffsets)
			want := Values{OK, rfa, rfa + ms[0].Period, age, got.MinReactionTime, got.MinDataAge}
			if md == letModel {
				want.MinReactionTime, want.MinDataAge = short, short
			}
			if got != want {
				t.Fatalf("Analyze %v = %+v, enumeration %+v\n%+v", p, got, want, ms)
			}
			for _, m := range []Metric{MaxReactionTime, ReactionFromActivation, MaxDataAge} {
				if v, st := Eval(ms, Options{Objective: Objective{p, m, AtOffsets}}); v != want.Get(m) || st != OK {
					t.Fatalf("Eval %v/%v = %d %v, enumeration %d\n%+v", p, m, v, st, want.Get(m), ms)
				}
			}
		}
	}
	t.Logf("%d chains, %d forced splits", chains, splits)
}

// closedCase is a chain split at member 1 with both sides one hop long, so
// that both sides are closed forms; per residue ρ of the job index of
// member 1 modulo g, pre and suf are the prefix and suffix maxima and the
// value is the maximum of their sums.
type closedCase struct {
	name     string
	ms       []Member
	md       model
	ex       extreme
	g        int64
	pre, suf []int64 // per ρ
	want     int64
}

// A three-member chain τ0 (T 4, O 1, R 1), τ1 (T 2, O 0, R 1), τ2 (T 4,
// O 3, R 2); H = 4. Split at τ1: p = lcm(4, 2)/2 = 2, s = lcm(2, 4)/2 = 2,
// g = 2; gPre = gcd(g·T1, T0) = gcd(4, 4) = 4, gSuf = gcd(g·T1, T2) = 4.
// Residue ρ covers τ1's jobs at u0 + 4i with u0 = O1 + ρ·T1 = 2ρ. Under LET
// R is the period: 4, 2, 4.
var closedCases = []closedCase{
	{
		// Reaction, implicit. Prefix: c = T1 + R0 − 1 = 2, value c −
		// (O0 − u0 + c) mod 4: ρ 0: 2 − (1+2) mod 4 = −1 (τ1@0 is reached by
		// no τ0 job; τ0@1 reaches τ1@2); ρ 1: 2 − (1−2+2) mod 4 = 1 (τ0@1
		// writes at 2, τ1@2 reads it: 2 − 1).
		// Suffix: R1 + R2 + (O2 − u0 − R1) mod 4 + T2 − 4: ρ 0: 3 + 2 = 5
		// (τ1@0 writes at 1 → τ2@3 writes at 5); ρ 1: 3 + 0 = 3 (τ1@2 writes
		// at 3 → τ2@3 reads at 3, writes at 5).
		// Sums 4 and 4: reaction from activation 4 = the chain τ0@1 → τ1@2
		// → τ2@3, 5 − 1.
		name: "implicit reaction", ms: closedChain, g: 2,
		pre: []int64{-1, 1}, suf: []int64{5, 3}, want: 4,
	},
	{
		// Data age, implicit. Prefix: R0 + (u0 − R0 − O0) mod 4 + T0 − 4:
		// ρ 0: 1 + (−2 mod 4) = 3 (τ1@0 reads τ0@−3, written at −2); ρ 1:
		// 1 + 0 = 1 (τ1@2 reads τ0@1, written at 2).
		// Suffix: c = T1 + R1 − 1 = 2, value c + R2 − (u0 + c − O2) mod 4:
		// ρ 0: 4 − (−1 mod 4) = 1 (the latest τ2 job reading τ1@0 or
		// earlier is τ2@−1, written at 1); ρ 1: 4 − 1 = 3 (τ2@3 reads τ1@2,
		// writes at 5).
		// Sums 4 and 4: data age 4 = τ2@3 ← τ1@2 ← τ0@1, 5 − 1.
		name: "implicit data age", ms: closedChain, ex: longestBackward, g: 2,
		pre: []int64{3, 1}, suf: []int64{1, 3}, want: 4,
	},
	{
		// Reaction, LET. Prefix: c = 2 + 4 − 1 = 5: ρ 0: 5 − (1+5) mod 4 =
		// 3; ρ 1: 5 − (1−2+5) mod 4 = 5. Suffix: R1 + R2 = 6, + (3 − u0 − 2)
		// mod 4: ρ 0: 6 + 1 = 7; ρ 1: 6 + 3 = 9.
		// Sums 10 and 14: 14 = τ0@1 (writes 5) → τ1@6 (writes 8) → τ2@11
		// (writes 15), 15 − 1.
		name: "LET reaction", ms: closedChain, md: letModel, g: 2,
		pre: []int64{3, 5}, suf: []int64{7, 9}, want: 14,
	},
	{
		// Data age, LET. Prefix: 4 + (u0 − 4 − 1) mod 4: ρ 0: 4 + 3 = 7;
		// ρ 1: 4 + 1 = 5. Suffix: c = 2 + 2 − 1 = 3, value 3 + 4 − (u0 + 3
		// − 3) mod 4: ρ 0: 7; ρ 1: 7 − 2 = 5.
		// Sums 14 and 10: 14 = τ2@3 ← τ1@0 (writes 2) ← τ0@−7 (writes −3),
		// 7 − (−7).
		name: "LET data age", ms: closedChain, md: letModel, ex: longestBackward, g: 2,
		pre: []int64{7, 5}, suf: []int64{7, 5}, want: 14,
	},
	{
		// Shortest, LET. Prefix as for the data age, its smallest value:
		// 4 + (u0 − 4 − 1) mod gPre, which is the largest, as gPre = T0:
		// ρ 0: 7; ρ 1: 5. Suffix as for the reaction, its smallest:
		// 6 + (3 − u0 − 2) mod 4: ρ 0: 7; ρ 1: 9.
		// Sums 14 and 14: every job chain of this chain is 14 long under
		// LET (H = 4 = T0: one job of τ0 per hyperperiod); τ0@1 (writes 5)
		// → τ1@6 (writes 8) → τ2@11 (writes 15).
		name: "LET shortest", ms: closedChain, md: letModel, ex: shortest, g: 2,
		pre: []int64{7, 5}, suf: []int64{7, 9}, want: 14,
	},
	{
		// Shortest, lower model. With BCRT = BCET = 0, δk = 0 − (Rk+1 −
		// 0): δ0 = −1, δ1 = −2, and the last member writes at its release.
		// Prefix: δ0 + (u0 − δ0 − O0) mod 4: ρ 0: −1 + 0 = −1 (τ1@0 may
		// read the value of τ0@1, which it reads by 1); ρ 1: −1 + 2 = 1
		// (τ1@2 ← τ0@1). Suffix: δ1 + 0 + (O2 − u0 − δ1) mod 4: ρ 0:
		// −2 + 1 = −1 (τ1@0, writing at 0 at the earliest, → τ2@−1, which
		// reads by 1); ρ 1: −2 + 3 = 1 (τ1@2 → τ2@3, 3 − 2).
		// Sums −2 and 2: the shortest is −2 in the lower model (τ0@1 →
		// τ1@0 → τ2@−1), which lowestLatency raises to Σ BCET = 0.
		name: "lower shortest", ms: closedChain, md: lower, ex: shortest, g: 2,
		pre: []int64{-1, 1}, suf: []int64{-1, 1}, want: -2,
	},
}

var closedChain = []Member{
	{Name: "τ0", Period: 4, Offset: 1, WCRT: 1},
	{Name: "τ1", Period: 2, Offset: 0, WCRT: 1},
	{Name: "τ2", Period: 4, Offset: 3, WCRT: 2},
}

func TestClosedFormsHand(t *testing.T) {
	for _, c := range closedCases {
		t.Run(c.name, func(t *testing.T) {
			var r Result
			var pl plan
			prepare(c.ms, Options{}, &r, &pl)
			sp := pl.split
			// Split at τ1 costs min(p, s) = 2 steps, at τ0 s = H/T0 = 1
			// walk of two hops plus one residue (3), at τ2 p = H/T2 = 1
			// walk of two hops plus one (3).
			if sp != (classSplit{k: 1, p: 2, s: 2, g: c.g, gPre: 4, gSuf: 4}) {
				t.Fatalf("split %+v", sp)
			}
			best := worst(c.ex)
			for rho := range sp.g {
				pre, suf := sp.prefixBest(c.ms, hopsOf(c.ms, c.md), c.ex, rho), sp.suffixBest(c.ms, hopsOf(c.ms, c.md), c.ex, rho)
				if pre != c.pre[rho] || suf != c.suf[rho] {
					t.Errorf("ρ %d: prefix %d, suffix %d; want %d, %d", rho, pre, suf, c.pre[rho], c.suf[rho])
				}
				best = better(c.ex, best, pre+suf)
			}
			if got := byClasses(c.ms, hopsOf(c.ms, c.md), c.ex, &sp); got != c.want || best != c.want {
				t.Errorf("value %d (residues %d), want %d", got, best, c.want)
			}
			rfa, age := enumerated(c.ms, c.md, &pl)
			if enum := map[extreme]int64{longestForward: rfa, longestBackward: age, shortest: minForward(c.ms, hopsOf(c.ms, c.md), pl.n1)}[c.ex]; enum != c.want {
				t.Errorf("enumeration gives %d", enum)
			}
		})
	}
}

// TestChooseSplit checks that the planner takes the cheaper method,
// including the plain walk where it has fewer steps than the closed forms.
func TestChooseSplit(t *testing.T) {
	mk := func(ts ...int64) []Member {
		ms := make([]Member, len(ts))
		for i, p := range ts {
			ms[i] = Member{Period: p}
		}
		return ms
	}
	for _, c := range []struct {
		name string
		ms   []Member
		want classSplit
	}{
		// H = 30. Split at τ0: p 1, s 30/10 = 3: min 1 + 3 walks × 2 hops =
		// 7. At τ1: p = s = 30/3 = 10, both sides closed forms: min 10.
		// At τ2: p 3 walks × 2 hops + min 1 = 7. The first of the cheapest:
		// the plain walk over τ0's three jobs, not the ten residues.
		{"plain walk cheaper", mk(10, 3, 10), classSplit{k: 0, p: 1, s: 3, g: 1}},
		// H = 12. At τ1 (T 3): p = lcm(4, 3)/3 = 4, s = lcm(3, 6)/3 = 2:
		// min 2, closed forms, g = 2, gPre = gcd(4, 3)·2 = 2, gSuf =
		// gcd(3, 6)·2 = 6. At τ0: s = 12/4 = 3 walks × 2 = 6 + 1; at τ2:
		// p = 12/6 = 2 walks × 2 + 1 = 5.
		{"closed forms", mk(4, 3, 6), classSplit{k: 1, p: 4, s: 2, g: 2, gPre: 2, gSuf: 6}},
		// One member: nothing to walk.
		{"one member", mk(7), classSplit{k: 0, p: 1, s: 1, g: 1}},
		// Two members, T 6 and 4, H 12: at τ0 p 1, s 2, the suffix one
		// hop: min 1; at τ1 p 3, s 1: min 1. The first: τ0, with gSuf =
		// gcd(6, 4)·1 = 2.
		{"two members", mk(6, 4), classSplit{k: 0, p: 1, s: 2, g: 1, gSuf: 2}},
		// Li-Lo-EK-P-DA's periods in ms: at Localization (T 400) p =
		// lcm(33, 400)/400 = 33, s = lcm(400, 15, 15, 5)/400 = 3, g = 3:
		// min 3 + 3 walks × 3 hops = 12 steps, against 400 walks × 4 hops
		// over Lidar's jobs of H = 13 200.
		{"Li-Lo-EK-P-DA", mk(33, 400, 15, 15, 5), classSplit{k: 1, p: 33, s: 3, g: 3, gPre: 3}},
	} {
		var pl plan
		if !planPeriods(c.ms, &pl) || pl.split != c.want {
			t.Errorf("%s: split %+v, want %+v", c.name, pl.split, c.want)
		}
	}
	// Longer than maxSplitMembers: the cheaper end. Periods 1, …, 1, 2:
	// H = 2, one job of the last member against two of the first.
	long := mk(make([]int64, maxSplitMembers+1)...)
	for i := range long {
		long[i].Period = 1
	}
	long[len(long)-1].Period = 2
	var pl plan
	if !planPeriods(long, &pl) || pl.split != (classSplit{k: len(long) - 1, p: 1, s: 1, g: 1}) || pl.hyper != 2 || pl.n1 != 2 || pl.nm != 1 {
		t.Errorf("long chain: %+v", pl)
	}
}

func TestLCMParts(t *testing.T) {
	for _, c := range []struct {
		a, b, l, perB, d int64
		ok               bool
	}{
		{12, 4, 12, 3, 4, true}, // b divides a
		{4, 12, 12, 1, 4, true}, // a divides b
		{6, 4, 12, 3, 2, true},  // Euclid: 6 mod 4 = 2, 4 mod 2 = 0
		{33, 400, 13200, 33, 1, true},
		{7, 7, 7, 1, 7, true},
		{4000000007, 4000000009, 0, 0, 1, false}, // coprime, ≈ 1.6e19
		{1 << 62, 3, 0, 0, 1, false},
	} {
		l, perB, d, ok := lcmParts(c.a, c.b)
		if ok != c.ok || ok && (l != c.l || perB != c.perB || d != c.d) {
			t.Errorf("lcmParts(%d, %d) = %d, %d, %d, %v; want %d, %d, %d, %v", c.a, c.b, l, perB, d, ok, c.l, c.perB, c.d, c.ok)
		}
	}
}

// TestPlannerEqualsEval: a Planner, reused across chains whose periods
// sometimes repeat (its plan kept) and sometimes change (planned anew),
// gives what Eval gives, for every objective.
func TestPlannerEqualsEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var objs []Objective
	for _, p := range []Paradigm{Implicit, LET} {
		for _, m := range []Metric{ReactionFromActivation, MaxReactionTime, MaxDataAge} {
			for _, b := range []Bound{AtOffsets, AnyOffsets, Davare} {
				objs = append(objs, Objective{Paradigm: p, Metric: m, Bound: b})
			}
		}
	}
	var planners [4]Planner
	var prev []Member
	for iter := 0; iter < 20000; iter++ {
		ms := randClassChain(rng)
		if prev != nil && rng.IntN(2) == 0 && len(prev) > 0 {
			// The same periods with other response times: the plan is kept.
			ms = append([]Member(nil), prev...)
			for i := range ms {
				ms[i].WCRT = max(ms[i].BCRT, ms[i].Jitter, ms[i].BCET) + rng.Int64N(ms[i].Period-max(ms[i].BCRT, ms[i].Jitter, ms[i].BCET)+1)
				if rng.IntN(20) == 0 {
					ms[i].Unbounded, ms[i].Why = true, "test"
				}
			}
		}
		prev = ms
		o := objs[rng.IntN(len(objs))]
		p := &planners[rng.IntN(len(planners))]
		v1, s1 := Eval(ms, Options{Objective: o})
		v2, s2 := p.Eval(ms, Options{Objective: o})
		if v1 != v2 || s1 != s2 {
			t.Fatalf("%v on %+v: Eval %d %v, Planner %d %v", o, ms, v1, s1, v2, s2)
		}
	}
}
