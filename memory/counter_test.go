package memory

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/rta/sat"
)

// TestCounterMatchesWindow checks the incremental Counter against the
// plain definition Window.Interference on random windows, with window
// lengths that rise in small steps (a fixed-point iteration), jump back
// (the next task of the core) and jump far (saturation), under every
// count.
func TestCounterMatchesWindow(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var ctr Counter
	calls := 0
	for i := 0; i < 3000; i++ {
		w := randWindow(rng)
		ctr.Reset(&w)
		tw, n := randTN(rng)
		for step := 0; step < 40; step++ {
			switch rng.Intn(10) {
			case 0:
				tw = rng.Int63n(10 * ms) // the next task starts lower
			case 1:
				tw = math.MaxInt64 - rng.Int63n(1000) // far out
			case 2:
				tw = -rng.Int63n(100) // negative: as 0
			default:
				tw = sat.Add(nonneg(tw), rng.Int63n(2*ms))
				n += rng.Int63n(100)
			}
			pz := int64(0)
			if rng.Intn(2) == 0 {
				pz = rng.Int63n(200) // accesses paused by preemptions
			}
			for _, count := range counts {
				want := w.Interference(tw, n, pz, count)
				if got := ctr.Interference(tw, n, pz, count); got != want {
					t.Fatalf("window %d step %d, t = %d, n = %d, %v: Counter %d, Window %d (%+v)", i, step, tw, n, count, got, want, w)
				}
				var cores int64
				for k := range w.Cores {
					cores = sat.Add(cores, w.Overlap(&w.Cores[k], tw, n, pz, count).Count)
				}
				ce := w.Overlap(&w.CopyEngine, tw, n, pz, count).Count
				if gc, gce := ctr.Overlaps(tw, n, pz, count); gc != cores || gce != ce {
					t.Fatalf("window %d step %d, t = %d, n = %d, %v: Overlaps %d, %d; Window %d, %d", i, step, tw, n, count, gc, gce, cores, ce)
				}
				calls++
			}
		}
		// A changed window needs a Reset, after which the values follow
		// it: a shorter response time (the next round), or other tasks in
		// the same slots (the next mapping), with the cached η kept.
		if len(w.Cores) > 0 && len(w.Cores[0].Tasks) > 0 {
			w.Cores[0].Tasks[0].Response /= 2
			ctr.Reset(&w)
			for _, count := range counts {
				if got, want := ctr.Interference(tw, n, 0, count), w.Interference(tw, n, 0, count); got != want {
					t.Fatalf("after Reset: Counter %d, Window %d", got, want)
				}
			}
		}
		if i%2 == 1 {
			continue // the next window reuses the slots
		}
		v := randWindow(rng)
		ctr.Reset(&v)
		for _, count := range counts {
			if got, want := ctr.Interference(tw, n, 0, count), v.Interference(tw, n, 0, count); got != want {
				t.Fatalf("another window in the same Counter: Counter %d, Window %d", got, want)
			}
		}
	}
	t.Logf("%d calls compared", calls)
}

func TestJobsInterval(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 100_000; i++ {
		d := Demand{Period: 1 + rng.Int63n(1000), Response: rng.Int63n(3000)}
		tw := rng.Int63n(10_000)
		switch rng.Intn(20) {
		case 0:
			d.Response = math.MaxInt64 - rng.Int63n(5000)
		case 1:
			tw = math.MaxInt64 - rng.Int63n(5000)
		case 2:
			d.Period = math.MaxInt64 - rng.Int63n(5)
		}
		n, lo, hi := jobsInterval(&d, tw)
		if n != d.Jobs(tw) || !(lo < tw && tw <= hi) {
			t.Fatalf("%+v, t = %d: η %d in (%d, %d], want η %d", d, tw, n, lo, hi, d.Jobs(tw))
		}
		// η holds at both ends of the interval; below saturation the
		// interval is the largest one (η changes just outside it).
		if d.Jobs(hi) != n || (lo+1 >= 0 && d.Jobs(lo+1) != n) {
			t.Fatalf("%+v: η %d does not hold on (%d, %d]", d, n, lo, hi)
		}
		if n < math.MaxInt64 && ((hi < math.MaxInt64 && d.Jobs(hi+1) == n) || (lo >= 0 && d.Jobs(lo) == n)) {
			t.Fatalf("%+v: η %d holds beyond (%d, %d]", d, n, lo, hi)
		}
	}
}

func TestCounterNoAllocs(t *testing.T) {
	w := watersWindow()
	var ctr Counter
	ctr.Reset(&w)
	var sink int64
	allocs := testing.AllocsPerRun(100, func() {
		ctr.Reset(&w)
		for i := range int64(50) {
			for _, count := range counts {
				sink += ctr.Interference(5*ms+i*100*us, 20_000+i, 0, count)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Counter allocates %.1f times per run", allocs)
	}
	var fresh Counter
	if got := fresh.Interference(1, 1, 0, RefinedCount); got != math.MaxInt64 {
		t.Errorf("a Counter without Reset gives %d, want no bound", got)
	}
	_ = sink
}

// BenchmarkFixedPoint runs the response-time fixed points of the
// WATERS-sized window's observed core as rta would: three tasks
// (Planner-like, 13.2 ms compute and 20 039 lines, with two
// higher-priority tasks of 1 ms / 5 ms / 144 lines and 2 ms / 10 ms / 300
// lines), t ← C⁰ + Σ_hp ceil(t/T_j)·C⁰_j + I(t) from t = C⁰ + Σ C⁰_j until
// it stops moving, once with the plain Window.Interference and once
// through a Counter, with one Reset per op (as one cross-core round
// would). It reports the I(t) calls per op.
func BenchmarkFixedPoint(b *testing.B) {
	w := watersWindow()
	base := w.Core.Baseline
	type task struct{ c, t, lines int64 }
	tasks := []task{{1 * ms, 5 * ms, 144}, {2 * ms, 10 * ms, 300}, {13_200 * us, 33 * ms, 20_039}}
	c0 := func(k int) int64 { return tasks[k].c + tasks[k].lines*base }
	var ctr Counter
	run := func(b *testing.B, count Count, counter bool) {
		b.ReportAllocs()
		calls := 0
		for b.Loop() {
			ctr.Reset(&w)
			for i := range tasks {
				t := int64(0)
				for k := 0; k <= i; k++ {
					t += c0(k)
				}
				for {
					next, n := c0(i), tasks[i].lines
					for k := 0; k < i; k++ {
						jobs := (t + tasks[k].t - 1) / tasks[k].t
						next += jobs * c0(k)
						n += jobs * tasks[k].lines
					}
					if counter {
						next += ctr.Interference(t, n, 0, count)
					} else {
						next += w.Interference(t, n, 0, count)
					}
					calls++
					if next == t || next > 100*ms {
						break
					}
					t = next
				}
			}
		}
		b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
	}
	for _, count := range counts {
		b.Run("plain/"+count.String(), func(b *testing.B) { run(b, count, false) })
		b.Run("counter/"+count.String(), func(b *testing.B) { run(b, count, true) })
	}
}

// FuzzInterference checks on arbitrary inputs (one interfering core with
// two tasks and the copy engine with one) that nothing panics, no count
// is negative, request ≤ refined ≤ challenge, and a Counter agrees with
// the Window across two window lengths; and, from a seed drawn from the
// inputs, that a Counter agrees with refCounter, call for call, on random
// windows and call sequences (driveCounters, as in
// TestCounterMatchesReference).
func FuzzInterference(f *testing.F) {
	f.Add(int64(20_000), int64(40_000), int64(10_000_000), int64(2_000_000), int64(100), int64(2), int64(5_000_000), int64(1000))
	f.Add(int64(0), int64(-1), int64(0), int64(-5), int64(-3), int64(0), int64(-1), int64(-1))
	f.Add(int64(1), int64(math.MaxInt64), int64(1), int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, base, lat, period, resp, lines, phases, tw, n int64) {
		w := Window{
			Core: CoreParams{Baseline: base, PerCore: lat, CopyEngine: lines},
			Cores: []Interferer{{Latency: lat, Tasks: []Demand{
				{Period: period, Response: resp, Lines: lines, Phases: phases, Splits: 1},
				{Period: resp, Response: period, Lines: phases, Phases: lines, Splits: 2},
			}}},
			CopyEngine: Interferer{Latency: base, Tasks: []Demand{CopyDemand(period, tw, lines, n)}},
		}
		var ctr Counter
		ctr.Reset(&w)
		for _, t2 := range []int64{tw, tw / 2, sat.Add(nonneg(tw), period)} {
			var prev int64 = math.MaxInt64
			for _, count := range counts {
				got := w.Interference(t2, n, 0, count)
				if got < 0 || got > prev {
					t.Fatalf("I(%d) under %v = %d (previous count %d)", t2, count, got, prev)
				}
				prev = got
				if c := ctr.Interference(t2, n, 0, count); c != got {
					t.Fatalf("I(%d) under %v: Counter %d, Window %d", t2, count, c, got)
				}
			}
		}
		seed := base ^ lat<<8 ^ period<<16 ^ resp<<24 ^ lines<<32 ^ phases<<40 ^ tw<<48 ^ n<<56
		driveCounters(t, rand.New(rand.NewSource(seed)), 2, 30)
	})
}

// TestCounterSlack: shrinking every response time of an interferer by less
// than its Stability's Slack changes no value the Counter gave since the last Reset,
// for the same calls (the evaluator skips a core's analysis on that); and
// the slack is tight: shrinking one task's response time by exactly the
// slack changes some job count at some window length asked.
func TestCounterSlack(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	type call struct{ t, n, p int64 }
	var ctr Counter
	tight, checked := 0, 0
	for i := 0; i < 3000; i++ {
		w := randWindow(rng)
		ctr.Reset(&w)
		var calls []call
		tw, n := randTN(rng)
		for step := 0; step < 1+rng.Intn(20); step++ {
			if rng.Intn(4) == 0 {
				tw = rng.Int63n(10 * ms)
			} else {
				tw = sat.Add(tw, rng.Int63n(2*ms))
			}
			n += rng.Int63n(100)
			calls = append(calls, call{tw, n, rng.Int63n(3) * rng.Int63n(100)})
		}
		count := counts[1+rng.Intn(2)] // refined or request
		var want [][2]int64
		for _, c := range calls {
			a, b := ctr.Overlaps(c.t, c.n, c.p, count)
			want = append(want, [2]int64{a, b})
		}
		units := append(append([]*Interferer(nil), ptrs(w.Cores)...), &w.CopyEngine)
		slack := make([]int64, len(units))
		for k := range units {
			slack[k] = ctr.Stability(k).Slack
		}
		// Shrink every response by less than its interferer's slack.
		for k, ic := range units {
			for j := range ic.Tasks {
				d := &ic.Tasks[j]
				if s := slack[k]; s > 1 && d.Response > 0 {
					d.Response -= rng.Int63n(min(s-1, d.Response) + 1)
				}
			}
		}
		ctr.Reset(&w)
		for m, c := range calls {
			a, b := ctr.Overlaps(c.t, c.n, c.p, count)
			if a != want[m][0] || b != want[m][1] {
				t.Fatalf("window %d, call %d (t %d, n %d): (%d, %d) after shrinking within the slack, (%d, %d) before", i, m, c.t, c.n, a, b, want[m][0], want[m][1])
			}
			checked++
		}
		// Tightness: some job count changes when one task's response
		// shrinks by the slack itself.
		for k, ic := range units {
			if s := slack[k]; s < math.MaxInt64 && len(ic.Tasks) > 0 {
				changed := false
				for j := range ic.Tasks {
					d := ic.Tasks[j]
					if d.Response < s {
						continue
					}
					e := d
					e.Response -= s
					for _, c := range calls {
						if d.Jobs(c.t) != e.Jobs(c.t) {
							changed = true
						}
					}
				}
				if changed {
					tight++
				}
			}
		}
	}
	if tight == 0 {
		t.Fatal("no slack was tight: the test shows nothing about it")
	}
	t.Logf("%d calls replayed, %d tight slacks", checked, tight)
}

func ptrs(xs []Interferer) []*Interferer {
	out := make([]*Interferer, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}

// TestCounterMargins: shrinking the response times of an interferer that
// overlapped all (or none) of the accesses at every call, within its
// Stability's margins, changes no value the Counter gave since the last
// Reset, for the same calls.
func TestCounterMargins(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	type call struct{ t, n, p int64 }
	var ctr Counter
	checked, shrunk := 0, 0
	for i := 0; i < 4000; i++ {
		w := randWindow(rng)
		ctr.Reset(&w)
		var calls []call
		tw, n := randTN(rng)
		for step := 0; step < 1+rng.Intn(20); step++ {
			if rng.Intn(4) == 0 {
				tw = rng.Int63n(10 * ms)
			} else {
				tw = sat.Add(tw, rng.Int63n(2*ms))
			}
			n += rng.Int63n(100)
			calls = append(calls, call{tw, n, rng.Int63n(3) * rng.Int63n(100)})
		}
		count := counts[1+rng.Intn(2)]
		var want [][2]int64
		for _, c := range calls {
			a, b := ctr.Overlaps(c.t, c.n, c.p, count)
			want = append(want, [2]int64{a, b})
		}
		units := append(ptrs(w.Cores), &w.CopyEngine)
		for k, ic := range units {
			st := ctr.Stability(k)
			if !st.AllLines {
				continue
			}
			// Shrink some responses by up to a few periods, and keep the
			// change if it fits the margins.
			var dA, dP int64
			old := make([]int64, len(ic.Tasks))
			for j := range ic.Tasks {
				d := &ic.Tasks[j]
				old[j] = d.Response
				if rng.Intn(2) == 0 || d.Response == 0 || d.Response == math.MaxInt64 {
					continue
				}
				delta := 1 + rng.Int63n(min(d.Response, 3*d.Period))
				jobs := (delta + d.Period - 1) / d.Period
				dA = sat.Add(dA, sat.Mul(jobs, d.Lines))
				dP = sat.Add(dP, sat.Mul(jobs, d.Phases+d.Splits))
				d.Response -= delta
			}
			fits := sat.Add(sat.Mul(dA, ic.Latency), sat.Mul(2*dP, w.Core.Baseline)) <= st.TimeMargin &&
				(count != RequestCount || dA <= st.RequestMargin)
			if !fits || dA+dP == 0 {
				for j := range ic.Tasks {
					ic.Tasks[j].Response = old[j]
				}
			} else {
				shrunk++
			}
		}
		ctr.Reset(&w)
		for m, c := range calls {
			a, b := ctr.Overlaps(c.t, c.n, c.p, count)
			if a != want[m][0] || b != want[m][1] {
				t.Fatalf("window %d, call %d (t %d, n %d, %v): (%d, %d) after shrinking within the margins, (%d, %d) before", i, m, c.t, c.n, count, a, b, want[m][0], want[m][1])
			}
			checked++
		}
	}
	if shrunk < 100 {
		t.Fatalf("only %d interferers shrunk within their margins: the test shows little", shrunk)
	}
	t.Logf("%d calls replayed, %d interferers shrunk within their margins", checked, shrunk)
}

// BenchmarkCounterOverlaps asks a WATERS-sized window (five cores with two
// tasks each, a copy engine with two GPU tasks) for its counts at window
// lengths drawn between 1 and 31 ms, with a Reset every fourth call, as the
// response-time iterations of a core do.
func BenchmarkCounterOverlaps(b *testing.B) {
	w := Window{Core: A57()}
	periods := []int64{5, 10, 15, 33, 66, 100, 200, 400}
	for c := 0; c < 5; c++ {
		ic := Interferer{Latency: 220_000}
		for k := 0; k < 2; k++ {
			p := periods[(c*2+k)%len(periods)] * ms
			ic.Tasks = append(ic.Tasks, Demand{Period: p, Response: p / 2, Lines: 5000, Phases: 4, Splits: 1})
		}
		w.Cores = append(w.Cores, ic)
	}
	w.CopyEngine = Interferer{Latency: 6000, Tasks: []Demand{
		{Period: 33 * ms, Response: 30 * ms, Lines: 30000, Phases: 2},
		{Period: 200 * ms, Response: 190 * ms, Lines: 40000, Phases: 2}}}
	rng := rand.New(rand.NewSource(1))
	ts := make([]int64, 64)
	for i := range ts {
		ts[i] = 1*ms + rng.Int63n(30*ms)
	}
	var c Counter
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%4 == 0 {
			c.Reset(&w)
		}
		c.Overlaps(ts[i%64], 20000, 0, RefinedCount)
		i++
	}
}

// TestCounterUntil: the counts of a call hold, for the same n, at every
// window length up to Until (checked against the plain definition).
func TestCounterUntil(t *testing.T) {
	rng := rand.New(rand.NewSource(10))
	var ctr Counter
	held := 0
	for i := 0; i < 3000; i++ {
		w := randWindow(rng)
		ctr.Reset(&w)
		tw, n := randTN(rng)
		for step := 0; step < 20; step++ {
			tw = sat.Add(tw, rng.Int63n(2*ms))
			count := counts[rng.Intn(3)]
			pz := rng.Int63n(3) * rng.Int63n(100)
			a, b := ctr.Overlaps(tw, n, pz, count)
			until := ctr.Until()
			if until < tw {
				t.Fatalf("Until %d before t = %d", until, tw)
			}
			for _, u := range []int64{tw, until, tw + rng.Int63n(min(until-tw, 10*ms)+1)} {
				if u == math.MaxInt64 {
					u = sat.Add(tw, 100*ms)
				}
				var cores int64
				for k := range w.Cores {
					cores = sat.Add(cores, w.Overlap(&w.Cores[k], u, n, pz, count).Count)
				}
				ce := w.Overlap(&w.CopyEngine, u, n, pz, count).Count
				if cores != a || ce != b {
					t.Fatalf("window %d: at t = %d the counts are (%d, %d); at %d ≤ Until %d they are (%d, %d)", i, tw, a, b, u, until, cores, ce)
				}
				held++
			}
		}
	}
	t.Logf("%d window lengths checked", held)
}

// BenchmarkCounterGrowth drives a Counter as a core's analysis does, on a
// window with one interfering core of 10, 40 or 160 tasks with periods
// from 5 to 200 ms: either the synthetic systems' automotive periods (5,
// 10, 20, 40, 50, 100 and 200 ms, shared by many tasks) or as many
// distinct periods as tasks (the period index's worst case). One op is
// one analysis of an observed core of 12 tasks under the refined count:
// a Reset, then per task a fixed-point iteration whose window length
// rises from the task's start in halving steps (8 ms, 4 ms, … down to
// 10 µs) and restarts lower for the next task. The interferer's
// response times alternate between two draws from op to op, as the
// rounds of a cross-core iteration change them, so every Reset sees
// changed tasks. The interferer moves few lines per job, so that its
// count stays below N_p(t) and every call needs its sums.
func BenchmarkCounterGrowth(b *testing.B) {
	for _, periods := range []string{"automotive", "distinct"} {
		for _, tasks := range []int{10, 40, 160} {
			b.Run(fmt.Sprintf("periods=%s/tasks=%d", periods, tasks), func(b *testing.B) {
				benchmarkCounterGrowth(b, periods == "distinct", tasks)
			})
		}
	}
}

func benchmarkCounterGrowth(b *testing.B, distinct bool, tasks int) {
	rng := rand.New(rand.NewSource(int64(tasks)))
	auto := []int64{5, 10, 20, 40, 50, 100, 200}
	w := Window{Core: A57(), Cores: []Interferer{{Latency: 120_000}}}
	resp := [2][]int64{}
	for k := range tasks {
		p := auto[rng.Intn(len(auto))] * ms
		if distinct {
			p = 5*ms + int64(k)*195*ms/int64(tasks) + rng.Int63n(100*us)
		}
		w.Cores[0].Tasks = append(w.Cores[0].Tasks, Demand{Period: p, Lines: 1 + rng.Int63n(20), Phases: 2, Splits: 1})
		resp[0] = append(resp[0], p/10+rng.Int63n(p))
		resp[1] = append(resp[1], p/10+rng.Int63n(p))
	}
	// The observed core's tasks start their iterations at rising window
	// lengths (the sums of the higher-priority tasks' execution times).
	starts := make([]int64, 12)
	for i := range starts {
		starts[i] = int64(i+1) * 3 * ms
	}
	var ctr Counter
	b.ReportAllocs()
	calls, op := 0, 0
	for b.Loop() {
		rs := resp[op%2]
		for k := range w.Cores[0].Tasks {
			w.Cores[0].Tasks[k].Response = rs[k]
		}
		ctr.Reset(&w)
		for _, t := range starts {
			for step := 8 * ms; step >= 10*us; step /= 2 {
				ctr.Overlaps(t, t/1000, 0, RefinedCount)
				calls++
				t += step
			}
		}
		op++
	}
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}
