package chains

import "testing"

// on places a member on unit 1 with a rank (0 = the most urgent).
func on(m Member, rank int) Member {
	m.Unit, m.Rank = 1, rank
	return m
}

// sameCoreCases are two-member chains P → C on one unit, offsets 0 unless
// stated, no jitter, in both priority orders. Notation as in handCases;
// "ordered" is P of higher priority than C (package doc, "Same-core
// hops"): a job of C released at or after the release of a job of P reads
// after that job wrote, so the forward hop from P@r goes to the first job
// of C released at or after r + J_P (δ = J_P = 0 here) instead of
// r + R_P, and the backward hop from C@r to the last job of P released at
// or before r − J_P. Otherwise δ = R_P, as on two units.
//
// For any offsets, with δ the hop's delay:
//
//	Davare   reaction T_P + R_P + T_C + R_C           age T_P + R_P + R_C
//	Dürr     reaction T_P + max(R_P, T_C + δ) + R_C    age T_P + δ + R_C
//	per hop  reaction T_P + T_C + δ + R_C              age T_P + δ + R_C
//
// and the reaction from activation is the reaction time − T_P.
var sameCoreCases = []struct {
	name string
	ms   []Member
	// imp is the implicit job-level {RFA, MRT, MDA}; dav, duerr, hop
	// the bounds for any offsets as {reaction time, data age}; by the
	// analyses the least comes from, reaction then data age.
	imp             [3]int64
	dav, duerr, hop [2]int64
	by              [2]Analysis
}{
	{
		// Equal periods, ordered: P (T 10, R 3, rank 0) → C (T 10, R 5,
		// rank 1); H = 10.
		// Forward: P@0, δ 0 → C@0 (it starts after P@0 finished) w=5:
		// RFA 5, MRT 5 + 10 = 15. Backward: C@0 reads P@0 (released at
		// 0 ≤ 0 − 0): 5 − 0 = 5.
		// Davare 13 + 15 = 28, age 28 − 10 = 18. Dürr 10 + max(3, 10) + 5 =
		// 25, age 10 + 0 + 5 = 15. Per hop 10 + 10 + 5 = 25, age 15. Least:
		// 25 and 15, Dürr first among equals.
		name: "equal periods, ordered",
		ms:   []Member{on(mem("P", 10, 3), 0), on(mem("C", 10, 5), 1)},
		imp:  [3]int64{5, 15, 5}, dav: [2]int64{28, 18}, duerr: [2]int64{25, 15}, hop: [2]int64{25, 15},
		by: [2]Analysis{Duerr2019, Duerr2019},
	},
	{
		// Equal periods, C of higher priority (rank 0), P rank 1: C@0
		// preempts P@0 and reads before it writes; δ = R_P = 3.
		// Forward: P@0 w=3 → C@10 w=15: RFA 15, MRT 25. Backward: C@0:
		// P r+3 ≤ 0 → P@−10: 5 + 10 = 15.
		// Every bound for any offsets is Davare's: 28, age 18.
		name: "equal periods, reversed",
		ms:   []Member{on(mem("P", 10, 3), 1), on(mem("C", 10, 5), 0)},
		imp:  [3]int64{15, 25, 15}, dav: [2]int64{28, 18}, duerr: [2]int64{28, 18}, hop: [2]int64{28, 18},
	},
	{
		// Harmonic, ordered: P (T 5, R 2, rank 0) → C (T 10, R 4, rank 1);
		// H = 10.
		// Forward: P@0 → C@0 w=4: 4; P@5 → C@10 w=14: 9. RFA 9, MRT 14.
		// Backward: C@0 ← P@0: 4; C@10 ← P@10: 4. MDA 4.
		// Davare 7 + 14 = 21, age 11. Dürr 5 + max(2, 10) + 4 = 19, age
		// 5 + 0 + 4 = 9. Per hop 5 + 10 + 4 = 19, age 9.
		name: "harmonic, ordered",
		ms:   []Member{on(mem("P", 5, 2), 0), on(mem("C", 10, 4), 1)},
		imp:  [3]int64{9, 14, 4}, dav: [2]int64{21, 11}, duerr: [2]int64{19, 9}, hop: [2]int64{19, 9},
		by: [2]Analysis{Duerr2019, Duerr2019},
	},
	{
		// Harmonic, reversed (C rank 0): δ = 2.
		// Forward: P@0 w=2 → C@10 w=14: 14; P@5 w=7 → C@10: 9. RFA 14,
		// MRT 19. Backward: C@0: P r+2 ≤ 0 → P@−5: 4 + 5 = 9; C@10 ← P@5:
		// 14 − 5 = 9. MDA 9.
		// Any offsets: Davare's 21, 11.
		name: "harmonic, reversed",
		ms:   []Member{on(mem("P", 5, 2), 1), on(mem("C", 10, 4), 0)},
		imp:  [3]int64{14, 19, 9}, dav: [2]int64{21, 11}, duerr: [2]int64{21, 11}, hop: [2]int64{21, 11},
	},
	{
		// Non-harmonic, ordered: P (T 4, R 1, rank 0) → C (T 6, R 2,
		// rank 1); H = 12.
		// Forward: P@0 → C@0 w=2: 2; P@4 → C@6 w=8: 4; P@8 → C@12 w=14: 6.
		// RFA 6, MRT 10. Backward: C@0 ← P@0: 2; C@6 ← P@4 (≤ 6): 8 − 4 =
		// 4. MDA 4.
		// Davare 5 + 8 = 13, age 7. Dürr 4 + max(1, 6) + 2 = 12, age
		// 4 + 0 + 2 = 6. Per hop 4 + 6 + 2 = 12, age 6.
		name: "non-harmonic, ordered",
		ms:   []Member{on(mem("P", 4, 1), 0), on(mem("C", 6, 2), 1)},
		imp:  [3]int64{6, 10, 4}, dav: [2]int64{13, 7}, duerr: [2]int64{12, 6}, hop: [2]int64{12, 6},
		by: [2]Analysis{Duerr2019, Duerr2019},
	},
	{
		// Non-harmonic, reversed (C rank 0): δ = 1.
		// Forward: P@0 w=1 → C@6 w=8: 8; P@4 w=5 → C@6: 4; P@8 w=9 →
		// C@12 w=14: 6. RFA 8, MRT 12. Backward: C@0: P r+1 ≤ 0 → P@−4:
		// 2 + 4 = 6; C@6: P r ≤ 5 → P@4: 8 − 4 = 4. MDA 6.
		// Any offsets: Davare's 13, 7.
		name: "non-harmonic, reversed",
		ms:   []Member{on(mem("P", 4, 1), 1), on(mem("C", 6, 2), 0)},
		imp:  [3]int64{8, 12, 6}, dav: [2]int64{13, 7}, duerr: [2]int64{13, 7}, hop: [2]int64{13, 7},
	},
	{
		// The producer's response exceeds the consumer's period, ordered:
		// P (T 20, R 12, rank 0) → C (T 10, R 15, deadline and LET 20, rank 1);
		// H = 20.
		// Forward: P@0 → C@0 w=15: RFA 15, MRT 35. Backward: C@0 ← P@0:
		// 15; C@10 ← P@0 (released at 0 ≤ 10: C@10 starts after P@0
		// finished): 25 − 0 = 25. MDA 25.
		// Davare 32 + 25 = 57, age 47. Dürr 20 + max(12, 10) + 15 = 47,
		// age 20 + 0 + 15 = 35. Per hop 20 + 10 + 15 = 45, age 35: the
		// least reaction time is per hop's, the least data age Dürr's.
		name: "long producer, ordered",
		ms:   []Member{on(mem("P", 20, 12), 0), on(Member{Name: "C", Period: 10, WCRT: 15, Deadline: 20, LET: 20}, 1)},
		imp:  [3]int64{15, 35, 25}, dav: [2]int64{57, 47}, duerr: [2]int64{47, 35}, hop: [2]int64{45, 35},
		by: [2]Analysis{PerHop, Duerr2019},
	},
	{
		// Release jitter of the producer: P (T 10, R 3, J 2, rank 0) → C
		// (T 10, O 1, R 5, rank 1). C@1 may be released before P@0 (up to
		// 2), start and read first: δ = J_P = 2.
		// Forward: P@0 → first C ≥ 2: C@11 w=16: RFA 16, MRT 26 (with no
		// jitter: C@1, 6). Backward: C@1: P r ≤ 1 − 2 → P@−10: 6 + 10 =
		// 16.
		// Davare 13 + 15 = 28, age 18. Dürr 10 + max(3, 10 + 2) + 5 = 27,
		// age 10 + 2 + 5 = 17. Per hop 10 + 12 + 5 = 27, age 17.
		name: "producer jitter, ordered",
		ms: []Member{on(Member{Name: "P", Period: 10, WCRT: 3, Jitter: 2}, 0),
			on(Member{Name: "C", Period: 10, Offset: 1, WCRT: 5}, 1)},
		imp: [3]int64{16, 26, 16}, dav: [2]int64{28, 18}, duerr: [2]int64{27, 17}, hop: [2]int64{27, 17},
		by: [2]Analysis{Duerr2019, Duerr2019},
	},
	{
		// A suspending producer of higher priority (asynchronous
		// offloading): C can start while P waits for the GPU, so the hop
		// is not ordered: the values of two units, as "equal periods,
		// reversed".
		name: "suspending producer",
		ms: []Member{func() Member { m := on(mem("P", 10, 3), 0); m.Suspends = true; return m }(),
			on(mem("C", 10, 5), 1)},
		imp: [3]int64{15, 25, 15}, dav: [2]int64{28, 18}, duerr: [2]int64{28, 18}, hop: [2]int64{28, 18},
	},
	{
		// Three members, the first hop ordered, the second across units:
		// A (T 10, R 2, unit 1 rank 0) → B (T 15, R 6, unit 1 rank 1) → D
		// (T 5, R 1, unit 2); H = 30. δ_A = 0, δ_B = 6.
		// Forward: A@0 → B@0 (w 6) → D@10 w=11: 11; A@10 → B@15 (w 21) →
		// D@25 w=26: 16; A@20 → B@30 (w 36) → D@40 w=41: 21. RFA 21,
		// MRT 31 (Davare's hop would have sent A@20, written by 22, to
		// B@30 as well; A@0 to B@15: 26).
		// Backward (D@0, 5, …, 25): D@r reads B's last job released by
		// r − 6, which read A's last released at or before its own release:
		// D@0 ← B@−15 ← A@−20: 1 + 20 = 21; D@5 ← B@−15: 26; D@10 ← B@0 ←
		// A@0: 11; D@15 ← B@0: 16; D@20 ← B@0: 21; D@25 ← B@15 ← A@10:
		// 26 − 10 = 16. MDA 26.
		// Davare (10+2) + (15+6) + (5+1) = 39, age 34. Dürr 10 +
		// max(2, 15) + (5 + 6) + 1 = 37, age (10 + 0) + (15 + 6) + 1 = 32.
		// Per hop 10 + 15 + 11 + 1 = 37, age 32.
		name: "three members, one hop ordered",
		ms:   []Member{on(mem("A", 10, 2), 0), on(mem("B", 15, 6), 1), {Name: "D", Period: 5, WCRT: 1, Unit: 2}},
		imp:  [3]int64{21, 31, 26}, dav: [2]int64{39, 34}, duerr: [2]int64{37, 32}, hop: [2]int64{37, 32},
		by: [2]Analysis{Duerr2019, Duerr2019},
	},
}

func TestSameCoreHand(t *testing.T) {
	for _, c := range sameCoreCases {
		t.Run(c.name, func(t *testing.T) {
			r := Analyze(c.ms, Options{})
			if r.Status != OK {
				t.Fatalf("status %v: %s", r.Status, r.Reason())
			}
			if got := vals(r.Implicit); got != c.imp {
				t.Errorf("implicit [RFA MRT MDA] = %v, want %v", got, c.imp)
			}
			for _, x := range []struct {
				a    Analysis
				want [2]int64
			}{{Davare2007, c.dav}, {Duerr2019, c.duerr}, {PerHop, c.hop}} {
				v := r.Analyses[x.a]
				if got := [2]int64{v.MaxReactionTime, v.MaxDataAge}; got != x.want || v.ReactionFromActivation != v.MaxReactionTime-c.ms[0].Period {
					t.Errorf("%v: [reaction age] = %v (from activation %d), want %v", x.a, got, v.ReactionFromActivation, x.want)
				}
			}
			least := [2]int64{min(c.dav[0], c.duerr[0], c.hop[0]), min(c.dav[1], c.duerr[1], c.hop[1])}
			if got := [2]int64{r.AnyOffset.MaxReactionTime, r.AnyOffset.MaxDataAge}; got != least ||
				r.ReactionBy != c.by[0] || r.DataAgeBy != c.by[1] {
				t.Errorf("any offsets %v by %v/%v, want %v by %v", got, r.ReactionBy, r.DataAgeBy, least, c.by)
			}
			// The job level with no shared unit: never below, and the rule
			// changes the values only where a hop is ordered.
			free := append([]Member(nil), c.ms...)
			for k := range free {
				free[k].Unit = 0
			}
			rf := Analyze(free, Options{})
			orderedHop := false
			for k := 1; k < len(c.ms); k++ {
				orderedHop = orderedHop || ordered(&c.ms[k-1], &c.ms[k])
			}
			if f := vals(rf.Implicit); f[0] < c.imp[0] || f[2] < c.imp[2] || !orderedHop && f != c.imp {
				t.Errorf("on separate units %v, shared %v (an ordered hop: %v)", f, c.imp, orderedHop)
			}
			checkInvariants(t, c.ms, &r)
		})
	}
}

// TestWorstChainOrderedHop: on an ordered hop the consumer reads after the
// producer's write, and the hops still add up to the length.
func TestWorstChainOrderedHop(t *testing.T) {
	// "three members, one hop ordered": the longest forward job chain is
	// A@20 (w 22) → B@30 (w 36) → D@40 (w 41), 21 from activation; B@30 is
	// released after A's write, so it reads at its release. The longest
	// backward one, D@5 ← B@−15 ← A@−20, is shifted by H = 30: A@10 (w 12)
	// → B@15 (w 21) → D@35 (w 36): 26.
	ms := sameCoreCases[9].ms
	b, _ := WorstChain(ms, Options{}, Implicit, ReactionFromActivation, nil)
	want := []Hop{{0, 20, 20, 22, 0}, {1, 30, 30, 36, 8}, {2, 40, 40, 41, 4}}
	if b.Length != 21 || !equalHops(b.Hops, want) {
		t.Errorf("forward %+v, want 21 with %v", b, want)
	}
	b, _ = WorstChain(ms, Options{}, Implicit, MaxDataAge, nil)
	want = []Hop{{0, 10, 10, 12, 0}, {1, 15, 15, 21, 3}, {2, 35, 35, 36, 14}}
	if b.Length != 26 || !equalHops(b.Hops, want) {
		t.Errorf("backward %+v, want 26 with %v", b, want)
	}
	// "equal periods, ordered": P@0 (w 3) → C@0, which reads at 3, after
	// P wrote, and writes at 5: wait 0, span 2, length 5 (+ T1 = 15).
	b, _ = WorstChain(sameCoreCases[0].ms, Options{}, Implicit, MaxReactionTime, nil)
	want = []Hop{{0, 0, 0, 3, 0}, {1, 0, 3, 5, 0}}
	if b.Length != 15 || b.Lead != 10 || !equalHops(b.Hops, want) || b.Hops[1].Span() != 2 || b.Hops[1].Response() != 5 {
		t.Errorf("ordered hop %+v, want 15 with %v", b, want)
	}
}

// TestMinimaHand works the minima (package doc, "Minima") by hand.
func TestMinimaHand(t *testing.T) {
	best := func(name string, period, offset, bc, wcrt int64) Member {
		return Member{Name: name, Period: period, Offset: offset, BCRT: bc, BCET: bc, WCRT: wcrt}
	}
	for _, c := range []struct {
		name            string
		ms              []Member
		min, anyMin     int64
		letMin, letAnyM int64
	}{
		{
			// P (T 10, best 2, WCRT 4) → C (T 10, O 6, best 3, WCRT 5), two
			// units. C reads at most 5 − 3 = 2 after its release, P writes
			// at least 2 after its own: δ = 2 − 2 = 0. Shortest job chain
			// in the lower model: P@0 → C@6 (first release ≥ 0), written
			// at 6 + 3 = 9: 9. P reads at most 4 − 2 = 2 after its release:
			// 9 − 2 = 7, above Σ BCET = 5. (P@0 reads at 2, writes at 4;
			// C@6 reads at 6 and writes at 9: 7 happens.)
			// For any offsets: max(Σ BCET, Σ δ + 3 − 2) = max(5, 1) = 5.
			// LET (L = T): P@0 w=10 → C@16 w=26: 26; for any offsets
			// Σ L = 20.
			name: "two units",
			ms:   []Member{best("P", 10, 0, 2, 4), best("C", 10, 6, 3, 5)},
			min:  7, anyMin: 5, letMin: 26, letAnyM: 20,
		},
		{
			// The same with C at offset 1 on P's unit, of higher priority:
			// a job of C released before P's write reads before it, so C
			// reads P's value only when released after it; with no jitter,
			// C's read slack is 0 and δ = 2 − 0 = 2. Shortest: P@0 → C@11
			// (first release ≥ 2), written at 14: 14 − 2 = 12. (On two
			// units: C@1 might read by 3, after P@0 wrote at 2: δ 0, C@1,
			// 4 − 2 = 2, raised to Σ BCET = 5.)
			// For any offsets: max(5, 2 + 3 − 2) = 5. LET: P@0 w=10 →
			// C@11 w=21: 21; for any offsets 20.
			name: "higher-priority consumer",
			ms:   []Member{on(best("P", 10, 0, 2, 4), 1), on(best("C", 10, 1, 3, 5), 0)},
			min:  12, anyMin: 5, letMin: 21, letAnyM: 20,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Analyze(c.ms, Options{})
			if r.Status != OK {
				t.Fatal(r.Reason())
			}
			for _, x := range []struct {
				what string
				v    Values
				want int64
			}{{"implicit", r.Implicit, c.min}, {"any offsets", r.AnyOffset, c.anyMin},
				{"LET", r.LET, c.letMin}, {"LET, any offsets", r.AnyOffsetLET, c.letAnyM}} {
				if x.v.MinReactionTime != x.want || x.v.MinDataAge != x.want {
					t.Errorf("%s: minima %d, %d; want %d", x.what, x.v.MinReactionTime, x.v.MinDataAge, x.want)
				}
			}
			checkInvariants(t, c.ms, &r)
		})
	}
}
