package chains

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// randChain draws a valid chain: 1..5 members, periods 1..12 times a common
// scale (1, 1000 or 1e9, so picosecond-sized numbers occur), offsets in
// [0, 2T) (zero a third of the time), 0 ≤ BCRT ≤ WCRT ≤ T, jitter and BCET
// at most WCRT, LET interval either the default or in [max(WCRT,1), T];
// half the chains place their members on units (randBestAndUnit).
func randChain(rng *rand.Rand) []Member {
	scale := []int64{1, 1, 1000, 1_000_000_000}[rng.IntN(4)]
	placed := rng.IntN(2) == 0
	ms := make([]Member, 1+rng.IntN(5))
	for k := range ms {
		t := (1 + rng.Int64N(12)) * scale
		m := Member{Period: t, WCRT: rng.Int64N(t + 1)}
		m.BCRT = rng.Int64N(m.WCRT + 1)
		randBestAndUnit(rng, &m, placed)
		if rng.IntN(3) != 0 {
			m.Offset = rng.Int64N(2 * t)
		}
		if rng.IntN(2) == 0 {
			m.LET = max(m.WCRT, 1) + rng.Int64N(t-max(m.WCRT, 1)+1)
		}
		if rng.IntN(4) == 0 {
			m.Deadline = t
		}
		ms[k] = m
	}
	return ms
}

// sharesUnit reports whether two consecutive members share a unit, so that
// a hop may be ordered one way or the other.
func sharesUnit(ms []Member) bool {
	for k := 1; k < len(ms); k++ {
		if ms[k].Unit != 0 && ms[k].Unit == ms[k-1].Unit {
			return true
		}
	}
	return false
}

// checkInvariants checks what must hold for every analysed chain.
func checkInvariants(t *testing.T, ms []Member, r *Result) {
	t.Helper()
	checkInvariantsOpts(t, ms, r, Options{})
}

func checkInvariantsOpts(t *testing.T, ms []Member, r *Result, opts Options) {
	t.Helper()
	all := []Values{r.Implicit, r.LET, r.AnyOffset, r.AnyOffsetLET}
	all = append(all, r.Analyses[:]...)
	for _, v := range all {
		if v.Status != OK {
			if v != (Values{Status: v.Status}) {
				t.Fatalf("non-OK values with numbers %+v", v)
			}
			continue
		}
		if v.ReactionFromActivation < 0 || v.MaxDataAge < 0 || v.MinReactionTime != v.MinDataAge ||
			v.MaxReactionTime != v.ReactionFromActivation+ms[0].Period {
			t.Fatalf("bad values %+v (T1 %d) for %+v", v, ms[0].Period, ms)
		}
	}
	// Job level is never looser than any offsets, metric by metric; the
	// bound for any offsets is the least of the analyses, which never
	// exceed Davare's; every metric is within the reaction-time bound; the
	// minima for any offsets are below the job-level ones.
	le := func(a, b Values) bool {
		return a.ReactionFromActivation <= b.ReactionFromActivation && a.MaxReactionTime <= b.MaxReactionTime &&
			a.MaxDataAge <= b.MaxDataAge
	}
	for _, p := range []struct {
		name   string
		v, any Values
	}{{"implicit", r.Implicit, r.AnyOffset}, {"LET", r.LET, r.AnyOffsetLET}} {
		if p.v.Status == OK && p.any.Status == OK && (!le(p.v, p.any) || p.any.MaxDataAge > p.any.MaxReactionTime ||
			p.any.MinReactionTime > p.v.MinReactionTime) {
			t.Fatalf("%s: %+v exceeds the bound for any offsets %+v for %+v", p.name, p.v, p.any, ms)
		}
	}
	if r.AnyOffset.Status == OK {
		for a := range NumAnalyses {
			v := r.Analyses[a]
			if !le(r.AnyOffset, v) || !le(v, r.Analyses[Davare2007]) || v.MinReactionTime != r.AnyOffset.MinReactionTime {
				t.Fatalf("analysis %v %+v against the least %+v and Davare %+v", a, v, r.AnyOffset, r.Analyses[Davare2007])
			}
		}
		if r.AnyOffset.MaxReactionTime != r.Analyses[r.ReactionBy].MaxReactionTime || r.AnyOffset.MaxDataAge != r.Analyses[r.DataAgeBy].MaxDataAge {
			t.Fatalf("AnyOffset %+v is not by %v/%v: %+v", r.AnyOffset, r.ReactionBy, r.DataAgeBy, r.Analyses)
		}
		var s, sl int64
		for _, m := range ms {
			s += m.Period + m.WCRT
			sl += m.Period + m.letInterval()
		}
		if r.Analyses[Davare2007].MaxReactionTime != s || (r.AnyOffsetLET.Status == OK && r.AnyOffsetLET.MaxReactionTime != sl) {
			t.Fatalf("Davare %d/%d, want Σ(T+R) %d, Σ(T+L) %d", r.Analyses[Davare2007].MaxReactionTime, r.AnyOffsetLET.MaxReactionTime, s, sl)
		}
		if !sharesUnit(ms) && (r.AnyOffset != r.Analyses[Davare2007] || r.ReactionBy != Davare2007 || r.DataAgeBy != Davare2007) {
			t.Fatalf("without a shared unit every bound is Davare's: %+v", r.Analyses)
		}
	}
	// Minima below maxima, where the members' numbers can be those of one
	// schedule (no shared unit: with one, random ranks and response times
	// can contradict each other).
	for _, v := range []Values{r.Implicit, r.LET, r.AnyOffset, r.AnyOffsetLET} {
		if v.Status == OK && !sharesUnit(ms) && (v.MinReactionTime > v.MaxReactionTime || v.MinDataAge > v.MaxDataAge) {
			t.Fatalf("minimum above maximum: %+v for %+v", v, ms)
		}
	}
	// The job-level values (the class method) equal job enumeration.
	for _, p := range []Paradigm{Implicit, LET} {
		if v := r.Values(p, AtOffsets); v.Status == OK {
			md := upper
			if p == LET {
				md = letModel
			}
			f, _ := maxForward(ms, hopsOf(ms, md), r.ForwardJobs, math.MaxInt64)
			a, _ := maxBackward(ms, hopsOf(ms, md), r.BackwardJobs, math.MaxInt64)
			if v.ReactionFromActivation != f || v.MaxDataAge != a {
				t.Fatalf("%v: %+v, enumeration gives reaction %d, age %d for %+v", p, v, f, a, ms)
			}
		}
	}
	if r.Implicit.Status == OK && r.LET.Status == OK && !sharesUnit(ms) {
		// LET is the implicit computation with R := L ≥ WCRT; monotone.
		a, b := vals(r.Implicit), vals(r.LET)
		for i := range a {
			if a[i] > b[i] {
				t.Fatalf("implicit %v > LET %v for %+v", a, b, ms)
			}
		}
	}
	// Eval agrees with Analyze on every objective.
	for _, p := range []Paradigm{Implicit, LET} {
		for _, m := range []Metric{MaxReactionTime, ReactionFromActivation, MaxDataAge} {
			for _, b := range []Bound{AtOffsets, AnyOffsets, Davare} {
				o := opts
				o.Objective = Objective{p, m, b}
				v, st := Eval(ms, o)
				v2, st2 := o.Objective.Value(r)
				if v != v2 || st != st2 {
					t.Fatalf("Eval %v = %d %v, Analyze gives %d %v", o.Objective, v, st, v2, st2)
				}
			}
		}
	}
	// WorstChain reproduces the values, hop by hop.
	buf := make([]Hop, 0, len(ms))
	for _, p := range []Paradigm{Implicit, LET} {
		v := r.Values(p, AtOffsets)
		for _, m := range []Metric{MaxReactionTime, ReactionFromActivation, MaxDataAge} {
			b, r2 := WorstChain(ms, opts, p, m, buf)
			if r2.Values(p, AtOffsets).Status != v.Status {
				t.Fatalf("WorstChain status %v, Analyze %v", r2.Values(p, AtOffsets).Status, v.Status)
			}
			if v.Status != OK {
				continue
			}
			checkBreakdown(t, ms, r.Hyperperiod, b, v.Get(m))
		}
	}
}

func checkBreakdown(t *testing.T, ms []Member, h int64, b Breakdown, want int64) {
	t.Helper()
	if len(b.Hops) != len(ms) || b.Length != want {
		t.Fatalf("%v/%v breakdown %+v, want length %d", b.Paradigm, b.Metric, b, want)
	}
	md := upper
	if b.Paradigm == LET {
		md = letModel
	}
	sum := b.Lead
	for k, hp := range b.Hops {
		m := &ms[k]
		if hp.Member != k || hp.Wait < 0 || (hp.Release-m.Offset)%m.Period != 0 || hp.Read < hp.Release ||
			hp.Response() != md.end(m) || (k == 0 && (hp.Wait != 0 || hp.Read != hp.Release)) ||
			(k > 0 && hp.Read != hp.Release && !(md == upper && ordered(&ms[k-1], m))) {
			t.Fatalf("bad hop %d %+v in %+v of %+v", k, hp, b, ms)
		}
		sum += hp.Wait + hp.Span()
	}
	if sum != b.Length || b.Hops[0].Release < 0 || b.Hops[0].Release >= h {
		t.Fatalf("hops sum to %d, length %d, first release %d (H %d)", sum, b.Length, b.Hops[0].Release, h)
	}
}

func TestPropertyInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		ms := randChain(rng)
		r := Analyze(ms, Options{})
		if r.Status != OK && r.Status != LETOverrun {
			t.Fatalf("valid chain got %v: %s", r.Status, r.Reason())
		}
		checkInvariants(t, ms, &r)
	}
}

// LET values depend on periods, LET intervals and offsets only.
func TestPropertyLETIgnoresResponseTimes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		ms := randChain(rng)
		r := Analyze(ms, Options{})
		ms2 := append([]Member(nil), ms...)
		for k := range ms2 {
			l := ms2[k].letInterval()
			ms2[k].WCRT = rng.Int64N(l + 1)
			ms2[k].BCRT = rng.Int64N(ms2[k].WCRT + 1)
			ms2[k].BCET = rng.Int64N(ms2[k].WCRT + 1)
			ms2[k].Jitter = rng.Int64N(ms2[k].WCRT + 1)
		}
		r2 := Analyze(ms2, Options{})
		if r.LET.Status == OK && r2.LET != r.LET {
			t.Fatalf("LET changed with response times: %+v → %+v\n%+v\n%+v", r.LET, r2.LET, ms, ms2)
		}
		// The best cases never matter for the upper bounds.
		for k := range ms2 {
			ms2[k] = ms[k]
			ms2[k].BCRT = rng.Int64N(ms[k].WCRT + 1)
			ms2[k].BCET = rng.Int64N(ms[k].WCRT + 1)
		}
		r3 := Analyze(ms2, Options{})
		if vals(r3.Implicit) != vals(r.Implicit) || r3.LET != r.LET || vals(r3.AnyOffset) != vals(r.AnyOffset) {
			t.Fatalf("BCRT changed a bound: %+v → %+v", r, r3)
		}
	}
}

// Raising a member's WCRT never lowers an implicit latency.
func TestPropertyMonotoneInWCRT(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		ms := randChain(rng)
		r := Analyze(ms, Options{})
		ms2 := append([]Member(nil), ms...)
		k := rng.IntN(len(ms2))
		ms2[k].WCRT += rng.Int64N(ms2[k].deadline() - ms2[k].WCRT + 1)
		r2 := Analyze(ms2, Options{})
		if r2.Implicit.Status != OK {
			t.Fatalf("raised chain not OK: %s", r2.Reason())
		}
		a, b := vals(r.Implicit), vals(r2.Implicit)
		for i := range a {
			if b[i] < a[i] {
				t.Fatalf("raising WCRT of member %d lowered %v to %v\n%+v\n%+v", k, a, b, ms, ms2)
			}
		}
		if r2.Analyses[Davare2007].MaxReactionTime < r.Analyses[Davare2007].MaxReactionTime ||
			r2.AnyOffset.MaxReactionTime < r.AnyOffset.MaxReactionTime || r2.AnyOffset.MaxDataAge < r.AnyOffset.MaxDataAge {
			t.Fatal("a bound for any offsets decreased")
		}
	}
}

// Job-level values are a property of the periodic steady state: shifting
// every offset by the same amount, or one offset by whole periods, changes
// nothing; enumerating two hyperperiods finds nothing more.
func TestPropertyOffsetsAndHyperperiod(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		ms := randChain(rng)
		r := Analyze(ms, Options{})
		ms2 := append([]Member(nil), ms...)
		c := rng.Int64N(1000)
		for k := range ms2 {
			ms2[k].Offset += c + ms2[k].Period*rng.Int64N(3)
		}
		r2 := Analyze(ms2, Options{})
		if r2.Implicit != r.Implicit || r2.LET != r.LET {
			t.Fatalf("offset shift changed values: %+v → %+v", r, r2)
		}
		for _, md := range []model{upper, letModel, lower} {
			f1, _ := maxForward(ms, hopsOf(ms, md), r.ForwardJobs, math.MaxInt64)
			f2, _ := maxForward(ms, hopsOf(ms, md), 2*r.ForwardJobs, math.MaxInt64)
			b1, _ := maxBackward(ms, hopsOf(ms, md), r.BackwardJobs, math.MaxInt64)
			b2, _ := maxBackward(ms, hopsOf(ms, md), 2*r.BackwardJobs, math.MaxInt64)
			if f1 != f2 || b1 != b2 {
				t.Fatalf("second hyperperiod differs: %d/%d %d/%d", f1, f2, b1, b2)
			}
		}
	}
}

// simJob is one job of the reference simulation.
type simJob struct{ rel, rd, wr int64 }

// simulated are the extremes of the job chains a simulation met.
type simulated struct {
	rfa, mrt, age int64 // the maxima, as Values names them
	minRT, minAge int64 // the shortest forward and backward job chains, from the first read
}

// simulate is an independent reference: it lists every job with release in
// [lo, hi] with the read/write instants chosen by pick, then follows the
// definitions of chains.md literally (first job that reads at or after the
// write; last job whose write is at or before the read). It returns the
// extremes over the τ1 (forward) and τm (backward) jobs released in
// [from, from+h): reaction from activation (last write − release of the
// first job), reaction time (last write − read of the τ1 job before it),
// data age, and the shortest forward and backward job chains, from the
// read of their first job to the write of their last.
func simulate(ms []Member, lo, hi, from, h int64, pick func(m *Member, rel int64) (rd, wr int64)) simulated {
	jobs := make([][]simJob, len(ms))
	for k := range ms {
		m := &ms[k]
		for rel := lastAtOrBefore(lo, m.Offset, m.Period); rel <= hi; rel += m.Period {
			rd, wr := pick(m, rel)
			if rd < rel || wr < rd {
				panic("pick out of order")
			}
			if n := len(jobs[k]); n > 0 && (jobs[k][n-1].rd > rd || jobs[k][n-1].wr > wr) {
				panic("reads or writes of one task out of release order")
			}
			jobs[k] = append(jobs[k], simJob{rel, rd, wr})
		}
	}
	s := simulated{-1, -1, -1, math.MaxInt64, math.MaxInt64}
	for i, j := range jobs[0] {
		if j.rel < from || j.rel >= from+h {
			continue
		}
		w := j.wr
		for k := 1; k < len(ms); k++ {
			js := jobs[k]
			n := sort.Search(len(js), func(x int) bool { return js[x].rd >= w })
			if n == len(js) {
				panic("window too short (forward)")
			}
			w = js[n].wr
		}
		s.rfa = max(s.rfa, w-j.rel)
		s.mrt = max(s.mrt, w-jobs[0][i-1].rd)
		s.minRT = min(s.minRT, w-j.rd)
	}
	last := len(ms) - 1
	for _, j := range jobs[last] {
		if j.rel < from || j.rel >= from+h {
			continue
		}
		rd := j.rd
		for k := last - 1; k >= 0; k-- {
			js := jobs[k]
			n := sort.Search(len(js), func(x int) bool { return js[x].wr > rd }) - 1
			if n < 0 {
				panic("window too short (backward)")
			}
			rd = js[n].rd
		}
		s.age = max(s.age, j.wr-rd)
		s.minAge = min(s.minAge, j.wr-rd)
	}
	return s
}

// TestPropertySimulation compares Analyze with the reference simulation:
// equal for LET, and for implicit with reads at release and writes at
// release + WCRT; an upper bound for implicit with any reads and writes in
// their windows (write in [r + max(BCRT, BCET), r + WCRT], read in
// [r, write − BCET]), and the minima a lower bound. The members share no
// unit here: this simulation schedules nothing (TestPropertySchedule
// does).
func TestPropertySimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 400 {
		ms := randChain(rng)
		for k := range ms {
			if rng.IntN(2) == 0 { // keep some small-scale chains cheap
				ms[k].Offset %= 3 * ms[k].Period
			}
			ms[k].Unit = 0
		}
		r := Analyze(ms, Options{})
		var w, maxT int64
		for _, m := range ms {
			w += m.Offset + m.Period + max(m.WCRT, m.letInterval())
			maxT = max(maxT, m.Period)
		}
		w += maxT
		h := r.Hyperperiod
		if h/ms[0].Period > 5000 || h/ms[len(ms)-1].Period > 5000 {
			continue
		}
		lo, hi, from := -w, h+4*w, w
		exact := func(md model) func(m *Member, rel int64) (int64, int64) {
			return func(m *Member, rel int64) (int64, int64) { return rel, rel + md.end(m) }
		}
		check := func(what string, v Values, s simulated, equal bool) {
			t.Helper()
			got := [3]int64{s.rfa, s.mrt, s.age}
			if equal && got != vals(v) || !equal && (s.rfa > v.ReactionFromActivation || s.mrt > v.MaxReactionTime || s.age > v.MaxDataAge) ||
				s.minRT < v.MinReactionTime || s.minAge < v.MinDataAge {
				t.Fatalf("%s: simulation %+v, analysis %+v (equal=%v) for %+v", what, s, v, equal, ms)
			}
		}
		if r.LET.Status == OK {
			s := simulate(ms, lo, hi, from, h, exact(letModel))
			check("LET", r.LET, s, true)
			if s.minRT != r.LET.MinReactionTime || s.minAge != r.LET.MinDataAge {
				t.Fatalf("LET minima: simulation %+v, analysis %+v for %+v", s, r.LET, ms)
			}
		}
		check("implicit extreme", r.Implicit, simulate(ms, lo, hi, from, h, exact(upper)), true)
		for range 3 {
			s := simulate(ms, lo, hi, from, h, func(m *Member, rel int64) (int64, int64) {
				b := m.bestWrite()
				wr := rel + b + rng.Int64N(m.WCRT-b+1)
				return rel + rng.Int64N(wr-m.BCET-rel+1), wr
			})
			check("implicit random", r.Implicit, s, false)
		}
	}
}
