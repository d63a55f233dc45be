package chains

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"
)

// The evidence for the bounds on whole systems: random task sets on 1 to 4
// processors scheduled by preemptive fixed priorities, simulated job by
// job with random release jitter, execution times and suspensions; a chain
// of 2 to 6 of their tasks is then analysed with the response times the
// simulation showed (the largest and the smallest), so that every premise
// of the analysis holds for the trace and the bounds are as tight as they
// can be for it. Every forward and backward job chain of the trace must lie
// within the bounds: the job-level ones at the simulated offsets, the ones
// for any offsets, and the minima.

// schedTask is a task of a simulated system. Times are in units of 10 µs.
type schedTask struct {
	unit, prio     int // prio: lower is more urgent, distinct on a unit
	period, offset int64
	jitter         int64 // release up to jitter after the arrival
	bcet, wcet     int64 // execution demand, drawn per job in [bcet, wcet]
	suspends       bool  // a job runs part of its demand, suspends, runs the rest
	sLo, sHi       int64 // the suspension, drawn per job
}

// schedJob is one job of the trace: arrival, start (its read), finish (its
// write); finish < 0 when the job did not finish before the horizon.
type schedJob struct{ arrival, start, finish int64 }

// simulateUnit runs the tasks of one processor (their indices in ts) from 0
// to horizon and returns every task's jobs in arrival order.
func simulateUnit(ts []schedTask, idx []int, horizon int64, rng *rand.Rand) [][]schedJob {
	type pending struct {
		release, c1, c2, susp int64
	}
	n := len(idx)
	jobs := make([][]schedJob, n)
	plans := make([][]pending, n)
	for i, k := range idx {
		t := &ts[k]
		count := (horizon-t.offset)/t.period + 1
		plans[i] = make([]pending, 0, count)
		jobs[i] = make([]schedJob, 0, count)
		for a := t.offset; a < horizon; a += t.period {
			c := t.bcet + rng.Int64N(t.wcet-t.bcet+1)
			p := pending{release: a + rng.Int64N(t.jitter+1), c1: c}
			if t.suspends {
				p.c1 = rng.Int64N(c + 1)
				p.c2 = c - p.c1
				p.susp = t.sLo + rng.Int64N(t.sHi-t.sLo+1)
			}
			plans[i] = append(plans[i], p)
			jobs[i] = append(jobs[i], schedJob{arrival: a, start: -1, finish: -1})
		}
	}
	// The state of each task's oldest unfinished job (jobs of a task run
	// in order).
	head := make([]int, n)
	left := make([]int64, n)   // demand left in the current part
	second := make([]bool, n)  // in its second part
	wakeAt := make([]int64, n) // suspended until
	for i := range n {
		if len(plans[i]) > 0 {
			left[i] = plans[i][0].c1
		}
	}
	t := int64(0)
	for t < horizon {
		// The most urgent ready job, and the next event.
		run, next := -1, int64(math.MaxInt64)
		for i, k := range idx {
			h := head[i]
			if h >= len(plans[i]) {
				continue
			}
			p := &plans[i][h]
			switch {
			case p.release > t:
				next = min(next, p.release)
			case wakeAt[i] > t:
				next = min(next, wakeAt[i])
			default:
				if run < 0 || ts[k].prio < ts[idx[run]].prio {
					run = i
				}
			}
		}
		if run < 0 {
			t = next
			continue
		}
		h := head[run]
		j := &jobs[run][h]
		if j.start < 0 {
			j.start = t
		}
		step := min(left[run], next-t)
		t += step
		left[run] -= step
		if left[run] > 0 {
			continue // preempted by a release or a wake-up
		}
		p := &plans[run][h]
		if ts[idx[run]].suspends && !second[run] {
			second[run], left[run], wakeAt[run] = true, p.c2, t+p.susp
			if p.susp > 0 || p.c2 > 0 {
				continue
			}
		}
		j.finish = t
		head[run]++
		second[run], wakeAt[run] = false, 0
		if head[run] < len(plans[run]) {
			left[run] = plans[run][head[run]].c1
		}
	}
	return jobs
}

// schedSystem draws a system and its chain: 1 to 4 units, 2 to 6 chain
// members and 0 to 3 other tasks, each on a random unit with distinct
// random priorities there; periods from the automotive set of Kramer,
// Ziegenbein and Hamann (WATERS 2015: 1, 2, 5, 10, 20, 50, 100, 200 and
// 1000 ms) or from WATERS 2019's, up to 66 ms (5, 10, 15, 30, 33, 66 ms);
// each unit loaded to 30–80 % by its tasks' largest demands, BCET a random
// share of WCET; a quarter of the tasks with release jitter, a sixth
// suspending; offsets all zero a third of the time, else random in
// [0, T).
func schedSystem(rng *rand.Rand) (ts []schedTask, chain []int, units int) {
	units = 1 + rng.IntN(4)
	m := 2 + rng.IntN(5)
	n := m + rng.IntN(4)
	set := []int64{100, 200, 500, 1000, 2000, 5000, 10000, 20000, 100000}
	if rng.IntN(3) == 0 {
		set = []int64{500, 1000, 1500, 3000, 3300, 6600}
	}
	zero := rng.IntN(3) == 0
	ts = make([]schedTask, n)
	for i := range ts {
		t := &ts[i]
		t.unit = rng.IntN(units)
		t.period = set[rng.IntN(len(set))]
		if !zero {
			t.offset = rng.Int64N(t.period)
		}
		if rng.IntN(4) == 0 {
			t.jitter = rng.Int64N(t.period/5 + 1)
		}
		if rng.IntN(6) == 0 {
			t.suspends = true
			t.sHi = rng.Int64N(t.period/10 + 1)
			t.sLo = rng.Int64N(t.sHi + 1)
		}
	}
	for u := range units {
		var on []int
		for i := range ts {
			if ts[i].unit == u {
				on = append(on, i)
			}
		}
		// UUniFast (Bini and Buttazzo, 2005) shares the unit's load.
		load := 0.3 + 0.5*rng.Float64()
		for k, i := range on {
			share := load
			if k < len(on)-1 {
				next := load * math.Pow(rng.Float64(), 1/float64(len(on)-1-k))
				share, load = load-next, next
			}
			t := &ts[i]
			t.wcet = max(1, int64(share*float64(t.period)))
			t.bcet = max(1, int64(float64(t.wcet)*(0.2+0.8*rng.Float64())))
		}
		for p, k := range rng.Perm(len(on)) {
			ts[on[k]].prio = p
		}
	}
	chain = rng.Perm(n)[:m]
	return ts, chain, units
}

// schedChains are the extremes of the job chains of a trace.
type schedChains struct {
	rfa, mrt, age int64 // maxima; −1 when the trace has no chain
	minRT, minAge int64 // shortest chains, from the first read
	forward, back int   // chains met
}

// traceChains follows the definitions of chains.md through the trace of a
// chain's tasks: forward from every job of the first task whose chain ends
// within the trace, backward from every job of the last whose chain starts
// within it.
func traceChains(jobs [][]schedJob) schedChains {
	s := schedChains{-1, -1, -1, math.MaxInt64, math.MaxInt64, 0, 0}
	m := len(jobs)
	for i := 1; i < len(jobs[0]); i++ {
		j := jobs[0][i]
		if j.finish < 0 || jobs[0][i-1].finish < 0 {
			continue
		}
		w, ok := j.finish, true
		for k := 1; k < m && ok; k++ {
			js := jobs[k]
			x := sort.Search(len(js), func(x int) bool { return js[x].start >= w || js[x].start < 0 })
			if ok = x < len(js) && js[x].start >= 0 && js[x].finish >= 0; ok {
				w = js[x].finish
			}
		}
		if !ok {
			continue
		}
		s.forward++
		s.rfa = max(s.rfa, w-j.arrival)
		s.mrt = max(s.mrt, w-jobs[0][i-1].start)
		s.minRT = min(s.minRT, w-j.start)
	}
	for _, j := range jobs[m-1] {
		if j.finish < 0 {
			continue
		}
		rd, ok := j.start, true
		for k := m - 2; k >= 0 && ok; k-- {
			js := jobs[k]
			x := sort.Search(len(js), func(x int) bool { return js[x].finish > rd || js[x].finish < 0 }) - 1
			if ok = x >= 0; ok {
				rd = js[x].start
			}
		}
		if !ok {
			continue
		}
		s.back++
		s.age = max(s.age, j.finish-rd)
		s.minAge = min(s.minAge, j.finish-rd)
	}
	return s
}

// schedCase is one simulated system with its chain analysed.
type schedCase struct {
	ts     []schedTask
	chain  []int
	ms     []Member // the chain's members, from the trace
	traced schedChains
}

// schedCases simulates systems until n have a chain with forward and
// backward job chains in the trace and every job done within three
// periods (the others are overloaded: their traces say little), and
// returns them.
func schedCases(rng *rand.Rand, n int) []schedCase {
	var out []schedCase
	for len(out) < n {
		ts, chain, units := schedSystem(rng)
		h := int64(1)
		var maxT int64
		for i := range ts {
			h = h / gcd(h, ts[i].period) * ts[i].period
			maxT = max(maxT, ts[i].period)
		}
		horizon := 2*h + 2*maxT
		jobs := make([][]schedJob, len(ts))
		for u := range units {
			var idx []int
			for i := range ts {
				if ts[i].unit == u {
					idx = append(idx, i)
				}
			}
			for k, js := range simulateUnit(ts, idx, horizon, rng) {
				jobs[idx[k]] = js
			}
		}
		c := schedCase{ts: ts, chain: chain}
		overloaded := false
		for _, i := range chain {
			t := &ts[i]
			m := Member{Period: t.period, Offset: t.offset, Jitter: t.jitter, BCET: t.bcet + t.sLo,
				BCRT: math.MaxInt64, Unit: t.unit + 1, Rank: t.prio, Suspends: t.suspends}
			for _, j := range jobs[i] {
				switch {
				case j.finish >= 0:
					m.WCRT = max(m.WCRT, j.finish-j.arrival)
					m.BCRT = min(m.BCRT, j.finish-j.arrival)
				case j.arrival < horizon-3*t.period:
					overloaded = true
				}
			}
			m.Jitter = min(m.Jitter, m.WCRT) // a jitter never reached
			m.Deadline = max(m.WCRT, t.period)
			m.LET = m.Deadline
			overloaded = overloaded || m.WCRT > 3*t.period || m.WCRT == 0
			c.ms = append(c.ms, m)
		}
		if overloaded {
			continue
		}
		trace := make([][]schedJob, len(chain))
		for k, i := range chain {
			trace[k] = jobs[i]
		}
		c.traced = traceChains(trace)
		if c.traced.forward == 0 || c.traced.back == 0 {
			continue
		}
		out = append(out, c)
	}
	return out
}

// simulatedSystems are the 2 000 systems both property tests analyse,
// simulated once.
var simulatedSystems = sync.OnceValue(func() []schedCase {
	return schedCases(rand.New(rand.NewPCG(28, 2019)), 2000)
})

// violation says which bound of r the trace passes, or "".
func violation(r *Result, s schedChains) string {
	for _, x := range []struct {
		what string
		v    Values
	}{{"job level at the offsets", r.Implicit}, {"any offsets", r.AnyOffset}} {
		v := x.v
		switch {
		case v.Status != OK:
			return "no value: " + v.Status.String()
		case s.rfa > v.ReactionFromActivation || s.mrt > v.MaxReactionTime || s.age > v.MaxDataAge:
			return "a maximum above the bound for " + x.what
		case s.minRT < v.MinReactionTime || s.minAge < v.MinDataAge:
			return "a minimum below the bound for " + x.what
		}
	}
	return ""
}

// TestPropertySchedule: over 2 000 simulated systems, no job chain of the
// trace is longer than the bounds (job level at the simulated offsets, any
// offsets) or shorter than the minima. At least a fifth of the systems have
// an ordered hop (package doc, "Same-core hops"), so the rule is exercised.
func TestPropertySchedule(t *testing.T) {
	cases := simulatedSystems()
	orderedHops, systems := 0, 0
	for _, c := range cases {
		r := Analyze(c.ms, Options{})
		if v := violation(&r, c.traced); v != "" {
			t.Fatalf("%s: trace %+v, analysis implicit %+v, any offsets %+v\nmembers %+v\ntasks %+v (chain %v)",
				v, c.traced, r.Implicit, r.AnyOffset, c.ms, c.ts, c.chain)
		}
		has := false
		for k := 1; k < len(c.ms); k++ {
			has = has || ordered(&c.ms[k-1], &c.ms[k])
		}
		if has {
			orderedHops++
		}
		systems++
	}
	if orderedHops*5 < systems {
		t.Errorf("only %d of %d systems have an ordered hop", orderedHops, systems)
	}
	t.Logf("%d systems, %d with an ordered hop", systems, orderedHops)
}

// TestPropertyScheduleRefutes shows that the simulation can refute an
// unsound rule: the same systems, analysed with every unit's priorities
// reversed (so that hops are ordered the wrong way), or with suspending
// producers taken as not suspending, or with the producers' jitter
// ignored, show job chains above the bounds.
func TestPropertyScheduleRefutes(t *testing.T) {
	cases := simulatedSystems()
	for _, wrong := range []struct {
		name   string
		change func(c *schedCase, m *Member, k int)
	}{
		{"priorities reversed", func(c *schedCase, m *Member, _ int) { m.Rank = -m.Rank }},
		{"suspensions ignored", func(c *schedCase, m *Member, _ int) { m.Suspends = false }},
		{"jitter ignored", func(c *schedCase, m *Member, _ int) { m.Jitter = 0 }},
	} {
		refuted := 0
		for _, c := range cases {
			ms := slices.Clone(c.ms)
			for k := range ms {
				wrong.change(&c, &ms[k], k)
			}
			r := Analyze(ms, Options{})
			if violation(&r, c.traced) != "" {
				refuted++
			}
		}
		if refuted == 0 {
			t.Errorf("%s: no trace passes the bounds", wrong.name)
		}
		t.Logf("%s: %d of %d traces pass the bounds", wrong.name, refuted, len(cases))
	}
}
