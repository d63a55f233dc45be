package chains

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// randChain draws a valid chain: 1..5 members, periods 1..12 times a common
// scale (1, 1000 or 1e9, so picosecond-sized numbers occur), offsets in
// [0, 2T) (zero a third of the time), 0 ≤ BCRT ≤ WCRT ≤ T, LET interval
// either the default or in [max(WCRT,1), T].
func randChain(rng *rand.Rand) []Member {
	scale := []int64{1, 1, 1000, 1_000_000_000}[rng.IntN(4)]
	ms := make([]Member, 1+rng.IntN(5))
	for k := range ms {
		t := (1 + rng.Int64N(12)) * scale
		m := Member{Period: t, WCRT: rng.Int64N(t + 1)}
		m.BCRT = rng.Int64N(m.WCRT + 1)
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

// checkInvariants checks what must hold for every analysed chain.
func checkInvariants(t *testing.T, ms []Member, r *Result) {
	t.Helper()
	checkInvariantsOpts(t, ms, r, Options{})
}

func checkInvariantsOpts(t *testing.T, ms []Member, r *Result, opts Options) {
	t.Helper()
	pairs := []struct {
		name   string
		v, dav Values
	}{{"implicit", r.Implicit, r.Davare}, {"LET", r.LET, r.DavareLET}}
	for _, p := range pairs {
		for _, v := range []Values{p.v, p.dav} {
			if v.Status != OK {
				if vals(v) != [3]int64{} {
					t.Fatalf("%s: non-OK values with numbers %+v", p.name, v)
				}
				continue
			}
			if v.ReactionFromActivation < 0 || v.MaxDataAge < 0 ||
				v.MaxReactionTime != v.ReactionFromActivation+ms[0].Period {
				t.Fatalf("%s: bad values %+v (T1 %d) for %+v", p.name, v, ms[0].Period, ms)
			}
		}
		if p.v.Status == OK && p.dav.Status == OK {
			// Job level is never looser than Davare, metric by metric, and
			// every metric is within Davare's reaction-time bound.
			if p.v.ReactionFromActivation > p.dav.ReactionFromActivation ||
				p.v.MaxReactionTime > p.dav.MaxReactionTime ||
				p.v.MaxDataAge > p.dav.MaxDataAge || p.dav.MaxDataAge > p.dav.MaxReactionTime {
				t.Fatalf("%s: %+v exceeds Davare %+v for %+v", p.name, p.v, p.dav, ms)
			}
		}
	}
	// The job-level values (the class method) equal job enumeration.
	for _, p := range []Paradigm{Implicit, LET} {
		if v := r.Values(p, AtOffsets); v.Status == OK {
			f, _ := maxForward(ms, p == LET, r.ForwardJobs)
			a, _ := maxBackward(ms, p == LET, r.BackwardJobs)
			if v.ReactionFromActivation != f || v.MaxDataAge != a {
				t.Fatalf("%v: %+v, enumeration gives reaction %d, age %d for %+v", p, v, f, a, ms)
			}
		}
	}
	if r.Implicit.Status == OK && r.LET.Status == OK {
		// LET is the implicit computation with R := L ≥ WCRT; monotone.
		a, b := vals(r.Implicit), vals(r.LET)
		for i := range a {
			if a[i] > b[i] {
				t.Fatalf("implicit %v > LET %v for %+v", a, b, ms)
			}
		}
	}
	if r.Davare.Status == OK {
		var s, sl int64
		for _, m := range ms {
			s += m.Period + m.WCRT
			sl += m.Period + m.letInterval()
		}
		if r.Davare.MaxReactionTime != s || (r.DavareLET.Status == OK && r.DavareLET.MaxReactionTime != sl) {
			t.Fatalf("Davare %d/%d, want Σ(T+R) %d, Σ(T+L) %d", r.Davare.MaxReactionTime, r.DavareLET.MaxReactionTime, s, sl)
		}
	}
	// Eval agrees with Analyze on every objective.
	for _, p := range []Paradigm{Implicit, LET} {
		for _, m := range []Metric{MaxReactionTime, ReactionFromActivation, MaxDataAge} {
			for _, rel := range []Release{AtOffsets, AnyOffsets} {
				o := opts
				o.Objective = Objective{p, m, rel}
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
	sum := b.Lead
	for k, hp := range b.Hops {
		m := &ms[k]
		if hp.Member != k || hp.Wait < 0 || (hp.Release-m.Offset)%m.Period != 0 ||
			hp.Response() != resp(m, b.Paradigm == LET) || (k == 0 && hp.Wait != 0) {
			t.Fatalf("bad hop %d %+v in %+v of %+v", k, hp, b, ms)
		}
		sum += hp.Wait + hp.Response()
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
		}
		r2 := Analyze(ms2, Options{})
		if r.LET.Status == OK && r2.LET != r.LET {
			t.Fatalf("LET changed with response times: %+v → %+v\n%+v\n%+v", r.LET, r2.LET, ms, ms2)
		}
		// BCRT never matters for the upper bounds.
		for k := range ms2 {
			ms2[k] = ms[k]
			ms2[k].BCRT = rng.Int64N(ms[k].WCRT + 1)
		}
		if r3 := Analyze(ms2, Options{}); r3.Implicit != r.Implicit || r3.LET != r.LET {
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
		if r2.Davare.MaxReactionTime < r.Davare.MaxReactionTime {
			t.Fatal("Davare decreased")
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
		for _, let := range []bool{false, true} {
			f1, _ := maxForward(ms, let, r.ForwardJobs)
			f2, _ := maxForward(ms, let, 2*r.ForwardJobs)
			b1, _ := maxBackward(ms, let, r.BackwardJobs)
			b2, _ := maxBackward(ms, let, 2*r.BackwardJobs)
			if f1 != f2 || b1 != b2 {
				t.Fatalf("second hyperperiod differs: %d/%d %d/%d", f1, f2, b1, b2)
			}
		}
	}
}

// simJob is one job of the reference simulation.
type simJob struct{ rel, rd, wr int64 }

// simulate is an independent reference: it lists every job with release in
// [lo, hi] with the read/write instants chosen by pick, then follows the
// definitions of chains.md literally (first job that reads at or after the
// write; last job whose write is at or before the read). It returns the
// maxima over the τ1 (forward) and τm (backward) jobs released in
// [from, from+h): reaction from activation (last write − release of the
// first job), reaction time (last write − read of the τ1 job before it) and
// data age.
func simulate(ms []Member, lo, hi, from, h int64, pick func(m *Member, rel int64) (rd, wr int64)) (rfa, mrt, age int64) {
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
	rfa, mrt, age = -1, -1, -1
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
		rfa = max(rfa, w-j.rel)
		mrt = max(mrt, w-jobs[0][i-1].rd)
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
		age = max(age, j.wr-rd)
	}
	return rfa, mrt, age
}

// TestPropertySimulation compares Analyze with the reference simulation:
// equal for LET and for implicit with reads at release and writes at
// release + WCRT; an upper bound for implicit with any reads and writes in
// their windows (read in [r, w], write in [r + BCRT, r + WCRT]).
func TestPropertySimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 400 {
		ms := randChain(rng)
		if rng.IntN(2) == 0 { // keep some small-scale chains cheap
			for k := range ms {
				ms[k].Offset %= 3 * ms[k].Period
			}
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
		exact := func(let bool) func(m *Member, rel int64) (int64, int64) {
			return func(m *Member, rel int64) (int64, int64) { return rel, rel + resp(m, let) }
		}
		check := func(what string, v Values, rfa, mrt, age int64, equal bool) {
			t.Helper()
			got := [3]int64{rfa, mrt, age}
			if equal && got != vals(v) || !equal && (rfa > v.ReactionFromActivation || mrt > v.MaxReactionTime || age > v.MaxDataAge) {
				t.Fatalf("%s: simulation %v, analysis %v (equal=%v) for %+v", what, got, vals(v), equal, ms)
			}
		}
		if r.LET.Status == OK {
			a, b, c := simulate(ms, lo, hi, from, h, exact(true))
			check("LET", r.LET, a, b, c, true)
		}
		a, b, c := simulate(ms, lo, hi, from, h, exact(false))
		check("implicit extreme", r.Implicit, a, b, c, true)
		for range 3 {
			a, b, c := simulate(ms, lo, hi, from, h, func(m *Member, rel int64) (int64, int64) {
				wr := rel + m.BCRT + rng.Int64N(m.WCRT-m.BCRT+1)
				return rel + rng.Int64N(wr-rel+1), wr
			})
			check("implicit random", r.Implicit, a, b, c, false)
		}
	}
}
