package memory

import (
	"math"
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/rta/sat"
)

// TestCounterMatchesReference drives the Counter and refCounter (the
// Counter before the period index) with the same random windows and call
// sequences and requires every value they return to be the same.
func TestCounterMatchesReference(t *testing.T) {
	calls := 0
	for seed := int64(0); seed < 400; seed++ {
		calls += driveCounters(t, rand.New(rand.NewSource(seed)), 6, 60)
	}
	t.Logf("%d calls compared", calls)
}

// driveCounters runs a Counter and a refCounter through the same sequence
// of windows, Resets and calls, failing at the first value in which they
// differ, and returns the number of calls compared. Per window it draws
// steps operations: Overlaps or Interference with t rising a little (a
// fixed-point iteration), restarting lower (the next task), jumping far,
// hitting a boundary of some task exactly or just beside it, or
// negative; Stability of some interferer (in range or not); and a Reset
// after changing some response times (a cross-core round), other
// demands, the number of tasks, or nothing.
func driveCounters(t *testing.T, rng *rand.Rand, windows, steps int) int {
	t.Helper()
	var got Counter
	var ref refCounter
	calls := 0
	ws := make([]Window, 0, windows)
	for range windows {
		ws = append(ws, randIndexedWindow(rng))
	}
	tw, n := int64(0), int64(0)
	for wi := range ws {
		w := &ws[wi]
		got.Reset(w)
		ref.Reset(w)
		for step := range steps {
			units := interferers(w)
			switch op := rng.Intn(20); {
			case op == 0:
				// A cross-core round: some response times change.
				for _, ic := range units {
					for k := range ic.Tasks {
						if rng.Intn(3) == 0 {
							ic.Tasks[k].Response = randResponse(rng, ic.Tasks[k].Period)
						}
					}
				}
				got.Reset(w)
				ref.Reset(w)
				continue
			case op == 1:
				// Another demand in a slot, or the same window unchanged.
				if len(units) > 0 && rng.Intn(2) == 0 {
					ic := units[rng.Intn(len(units))]
					if len(ic.Tasks) > 0 {
						ic.Tasks[rng.Intn(len(ic.Tasks))] = randIndexedDemand(rng, randPeriod(rng, nil))
					}
				}
				got.Reset(w)
				ref.Reset(w)
				continue
			case op == 2:
				// A task more or fewer on some interferer.
				ic := units[rng.Intn(len(units))]
				if len(ic.Tasks) > 0 && rng.Intn(2) == 0 {
					ic.Tasks = ic.Tasks[:len(ic.Tasks)-1]
				} else {
					ic.Tasks = append(ic.Tasks, randIndexedDemand(rng, randPeriod(rng, nil)))
				}
				got.Reset(w)
				ref.Reset(w)
				continue
			case op == 3 && wi > 0:
				// Back to an earlier window, as another core's analysis.
				v := &ws[rng.Intn(wi)]
				got.Reset(v)
				ref.Reset(v)
				for range 1 + rng.Intn(5) {
					tv, nv := rng.Int63n(300*ms), rng.Int63n(1_000_000)
					a, b := got.Overlaps(tv, nv, 0, RefinedCount)
					c, d := ref.Overlaps(tv, nv, 0, RefinedCount)
					if a != c || b != d || got.Until() != ref.Until() {
						t.Fatalf("window %d (earlier), t %d, n %d: Counter (%d, %d) until %d, reference (%d, %d) until %d", wi, tv, nv, a, b, got.Until(), c, d, ref.Until())
					}
				}
				got.Reset(w)
				ref.Reset(w)
				continue
			case op == 4:
				i := rng.Intn(len(units)+2) - 1
				if g, r := got.Stability(i), ref.Stability(i); g != r {
					t.Fatalf("window %d step %d: Stability(%d) %+v, reference %+v", wi, step, i, g, r)
				}
				continue
			case op < 7:
				tw = rng.Int63n(max(tw, 1)) // the next task starts lower
			case op == 7:
				tw = boundary(rng, units)
			case op == 8:
				switch rng.Intn(4) {
				case 0:
					tw = math.MaxInt64 - rng.Int63n(1000)
				case 1:
					tw = maxIndexed - 2 + rng.Int63n(5)
				case 2:
					tw = -rng.Int63n(100)
				default:
					tw = 0
				}
			default:
				tw = sat.Add(nonneg(tw), rng.Int63n(2*ms)>>rng.Intn(20))
			}
			switch rng.Intn(4) {
			case 0:
				n = rng.Int63n(1000)
			case 1:
				n = rng.Int63n(10_000_000)
			case 2:
				n = sat.Add(n, rng.Int63n(10_000))
			}
			if rng.Intn(50) == 0 {
				n = math.MaxInt64 - rng.Int63n(3)
			}
			pz := int64(0)
			if rng.Intn(3) == 0 {
				pz = rng.Int63n(200) - 10
			}
			count := counts[rng.Intn(len(counts))]
			if rng.Intn(4) == 0 {
				g, r := got.Interference(tw, n, pz, count), ref.Interference(tw, n, pz, count)
				if g != r {
					t.Fatalf("window %d step %d, t %d, n %d, pauses %d, %v: Interference %d, reference %d", wi, step, tw, n, pz, count, g, r)
				}
			} else {
				a, b := got.Overlaps(tw, n, pz, count)
				c, d := ref.Overlaps(tw, n, pz, count)
				if a != c || b != d {
					t.Fatalf("window %d step %d, t %d, n %d, pauses %d, %v: Overlaps (%d, %d), reference (%d, %d)", wi, step, tw, n, pz, count, a, b, c, d)
				}
			}
			if g, r := got.Until(), ref.Until(); g != r {
				t.Fatalf("window %d step %d, t %d, n %d, %v: Until %d, reference %d", wi, step, tw, n, count, g, r)
			}
			calls++
		}
		for i := -1; i <= len(w.Cores)+1; i++ {
			if g, r := got.Stability(i), ref.Stability(i); g != r {
				t.Fatalf("window %d, end: Stability(%d) %+v, reference %+v", wi, i, g, r)
			}
		}
	}
	return calls
}

// boundary returns a window length at which, or next to which, some task
// of units gains a job (m·T − R), or a random one without tasks.
func boundary(rng *rand.Rand, units []*Interferer) int64 {
	ic := units[rng.Intn(len(units))]
	if len(ic.Tasks) == 0 {
		return rng.Int63n(100 * ms)
	}
	d := ic.Tasks[rng.Intn(len(ic.Tasks))]
	if d.Period <= 0 {
		return rng.Int63n(100 * ms)
	}
	m := rng.Int63n(12)
	return sat.Add(sat.Mul(m, d.Period), 0) - nonneg(d.Response) + rng.Int63n(3) - 1
}

// randPeriod draws a period: from pool where one is given (tasks of a
// system share a few periods), else a small, an automotive or an extreme
// one.
func randPeriod(rng *rand.Rand, pool []int64) int64 {
	if len(pool) > 0 && rng.Intn(8) > 0 {
		return pool[rng.Intn(len(pool))]
	}
	switch rng.Intn(12) {
	case 0:
		return 1 + rng.Int63n(20) // boundaries every few ps
	case 1:
		return -rng.Int63n(3) // invalid: η saturates
	case 2:
		return maxIndexedPeriod - 1 + rng.Int63n(3)
	case 3:
		return math.MaxInt64 - rng.Int63n(3)
	}
	return (1 + rng.Int63n(200)) * ms
}

// randResponse draws a response time for period p: mostly within a few
// periods, sometimes 0, no bound, around the index's limit, or negative.
func randResponse(rng *rand.Rand, p int64) int64 {
	switch rng.Intn(16) {
	case 0:
		return 0
	case 1:
		return math.MaxInt64
	case 2:
		return maxIndexedResponse - 1 + rng.Int63n(3)
	case 3:
		return -rng.Int63n(5)
	case 4:
		return math.MaxInt64 - rng.Int63n(1000)
	}
	return rng.Int63n(3*max(p, 1) + 1)
}

// randIndexedDemand draws a demand of period p with mostly moderate lines,
// phases and splits, sometimes none, huge or negative.
func randIndexedDemand(rng *rand.Rand, p int64) Demand {
	d := Demand{Period: p, Response: randResponse(rng, p), Lines: rng.Int63n(3000), Phases: 1 + rng.Int63n(6), Splits: rng.Int63n(3)}
	switch rng.Intn(12) {
	case 0:
		d.Lines, d.Phases, d.Splits = 0, 0, 0
	case 1:
		d.Lines = math.MaxInt64 / (1 + rng.Int63n(4))
	case 2:
		d.Phases = math.MaxInt64 - rng.Int63n(3)
	case 3:
		d.Lines, d.Splits = -rng.Int63n(3), -1
	}
	return d
}

// randIndexedWindow draws a window of 0 to 5 cores and a copy engine,
// each with 0 to 40 tasks whose periods are mostly drawn from a small
// pool, so that the period index has groups of several tasks.
func randIndexedWindow(rng *rand.Rand) Window {
	w := Window{Core: CoreParams{Baseline: 1 + rng.Int63n(50_000), PerCore: rng.Int63n(50_000), CopyEngine: rng.Int63n(200_000)}}
	if rng.Intn(30) == 0 {
		w.Core.Baseline = rng.Int63n(2)
	}
	pool := make([]int64, rng.Intn(6))
	for i := range pool {
		pool[i] = randPeriod(rng, nil)
	}
	fill := func(ic *Interferer) {
		ic.Latency = rng.Int63n(250_000)
		if rng.Intn(40) == 0 {
			ic.Latency = math.MaxInt64
		}
		for range rng.Intn([]int{3, 10, 41}[rng.Intn(3)]) {
			ic.Tasks = append(ic.Tasks, randIndexedDemand(rng, randPeriod(rng, pool)))
		}
	}
	w.Cores = make([]Interferer, rng.Intn(6))
	for c := range w.Cores {
		fill(&w.Cores[c])
	}
	fill(&w.CopyEngine)
	return w
}

// TestCounterIndexNoAllocs: on interferers large enough for the period
// index, a Counter that is Reset with changed response times (so that it
// rebuilds the indexes) and asked along a fixed-point iteration does not
// allocate once its buffers have grown, and the indexes are used.
func TestCounterIndexNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	w := Window{Core: A57()}
	periods := []int64{5 * ms, 10 * ms, 20 * ms, 50 * ms, 100 * ms}
	for range 3 {
		ic := Interferer{Latency: 120_000}
		for range 40 {
			p := periods[rng.Intn(len(periods))]
			ic.Tasks = append(ic.Tasks, Demand{Period: p, Response: rng.Int63n(p), Lines: 1 + rng.Int63n(10), Phases: 2, Splits: 1})
		}
		w.Cores = append(w.Cores, ic)
	}
	var ctr Counter
	run := func() {
		for c := range w.Cores {
			d := &w.Cores[c].Tasks[rng.Intn(40)]
			d.Response = rng.Int63n(d.Period)
		}
		ctr.Reset(&w)
		for tw := int64(1 * ms); tw < 60*ms; tw += 700 * us {
			ctr.Overlaps(tw, tw/1000, 0, RefinedCount)
		}
	}
	run()
	if allocs := testing.AllocsPerRun(50, run); allocs != 0 {
		t.Errorf("Counter with period indexes allocates %.1f times per run", allocs)
	}
	for c := range w.Cores {
		if x := ctr.units[c].idx; !x.built || len(x.groups) != len(periods) {
			t.Errorf("core %d: index built %v with %d groups, want %d", c, x.built, len(x.groups), len(periods))
		}
	}
}
