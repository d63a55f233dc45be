package memory

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/hetmap/hetmap/rta/sat"
)

// randDemand draws a task of an interfering core (or, with copy, a GPU
// task's copies) in picoseconds: periods from 1 µs to 0.5 s, response
// times up to twice the period, up to 2000 lines in 1 to 6 phases, a
// quarter of the tasks without lines. Now and then a value is extreme, to
// exercise saturation.
func randDemand(rng *rand.Rand, copy bool) Demand {
	period := 1 + rng.Int63n(500*ms)
	if rng.Intn(2) == 0 {
		period = 1*us + rng.Int63n(10*ms)
	}
	resp := rng.Int63n(2 * period)
	if rng.Intn(100) == 0 {
		resp = math.MaxInt64
	}
	if copy {
		return CopyDemand(period, resp, rng.Int63n(3000)*int64(rng.Intn(2)), rng.Int63n(3000)*int64(rng.Intn(2)))
	}
	var f Footprint
	if rng.Intn(4) > 0 {
		f = Footprint{Lines: 1 + rng.Int63n(2000), Phases: 1 + rng.Int63n(6)}
	}
	return f.OnCore(period, resp, int64(rng.Intn(2)))
}

// randWindow draws an observed core, 0 to 5 interfering cores with 0 to 4
// tasks each and a copy engine with 0 to 4 GPU tasks.
func randWindow(rng *rand.Rand) Window {
	w := Window{Core: CoreParams{Baseline: 1 + rng.Int63n(50_000), PerCore: rng.Int63n(50_000), CopyEngine: rng.Int63n(200_000)}}
	if rng.Intn(50) == 0 {
		w.Core = CoreParams{Baseline: rng.Int63n(3), PerCore: math.MaxInt64 / 4, CopyEngine: math.MaxInt64}
	}
	lat := func() int64 {
		if rng.Intn(100) == 0 {
			return math.MaxInt64
		}
		return rng.Int63n(250_000)
	}
	w.Cores = make([]Interferer, rng.Intn(6))
	for c := range w.Cores {
		w.Cores[c].Latency = lat()
		for range rng.Intn(5) {
			w.Cores[c].Tasks = append(w.Cores[c].Tasks, randDemand(rng, false))
		}
	}
	w.CopyEngine.Latency = lat()
	for range rng.Intn(5) {
		w.CopyEngine.Tasks = append(w.CopyEngine.Tasks, randDemand(rng, true))
	}
	return w
}

func cloneWindow(w Window) Window {
	v := w
	v.Cores = slices.Clone(w.Cores)
	for c := range v.Cores {
		v.Cores[c].Tasks = slices.Clone(w.Cores[c].Tasks)
	}
	v.CopyEngine.Tasks = slices.Clone(w.CopyEngine.Tasks)
	return v
}

// randT draws a window length up to 1 s, and n = N_p(t) up to 10⁶ lines.
func randTN(rng *rand.Rand) (int64, int64) {
	return rng.Int63n(1000 * ms), rng.Int63n(1_000_000)
}

// interferers returns pointers to every interferer of w, the copy engine
// last.
func interferers(w *Window) []*Interferer {
	var all []*Interferer
	for c := range w.Cores {
		all = append(all, &w.Cores[c])
	}
	return append(all, &w.CopyEngine)
}

// TestOverlapOrder checks on random windows that request ≤ refined ≤
// challenge for every interferer and for I(t), that the challenge count is
// the challenge's convention K·N_p·#C + sGPU·N_p·bGPU, that I(t) is the sum
// of the Overlap counts, and that each Overlap's Count is the minimum of
// its terms that its Binding names.
func TestOverlapOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20_000; i++ {
		w := randWindow(rng)
		tw, n := randTN(rng)
		var total [3]int64
		for k, count := range counts {
			total[k] = w.Interference(tw, n, 0, count)
			if total[k] < 0 {
				t.Fatalf("%+v: I(%d) under %v = %d < 0", w, tw, count, total[k])
			}
		}
		if !(total[2] <= total[1] && total[1] <= total[0]) {
			t.Fatalf("%+v, t = %d, n = %d: I request %d, refined %d, challenge %d", w, tw, n, total[2], total[1], total[0])
		}
		active := int64(0)
		for c := range w.Cores {
			if w.Cores[c].Active() {
				active++
			}
		}
		conv := sat.Mul(w.Core.PerCore, sat.Mul(n, active))
		if w.CopyEngine.Active() {
			conv = sat.Add(conv, sat.Mul(w.Core.CopyEngine, n))
		}
		// The sums may saturate in a different order; compare only
		// where neither does.
		if conv < math.MaxInt64/2 && total[0] != conv {
			t.Fatalf("%+v: challenge I = %d, convention K·N_p·#C + sGPU·N_p·bGPU = %d", w, total[0], conv)
		}
		all := interferers(&w)
		for k, count := range counts {
			var cores, ce int64
			for j, c := range all {
				o := w.Overlap(c, tw, n, 0, count)
				if j == len(all)-1 {
					ce = o.Count
				} else {
					cores = sat.Add(cores, o.Count)
				}
				checkTerms(t, o, count)
				if k > 0 {
					prev := w.Overlap(c, tw, n, 0, counts[k-1])
					if o.Count > prev.Count {
						t.Fatalf("interferer %d: O under %v = %d > %d under %v", j, count, o.Count, prev.Count, counts[k-1])
					}
				}
			}
			if want := sat.Add(sat.Mul(w.Core.PerCore, cores), sat.Mul(w.Core.CopyEngine, ce)); want != total[k] {
				t.Fatalf("%+v: I under %v = %d, from Overlap %d", w, count, total[k], want)
			}
		}
	}
}

// checkTerms checks that o.Count is the minimum of the terms count takes
// and that o.By names a term equal to it, preferring N_p on ties.
func checkTerms(t *testing.T, o Overlap, count Count) {
	t.Helper()
	if o.By == NoAccess {
		if o.Count != 0 {
			t.Fatalf("%+v: no access but a count", o)
		}
		return
	}
	want := o.Lines
	if count != ChallengeCount {
		want = min(want, o.Time)
	}
	if count == RequestCount {
		want = min(want, o.Requests)
	}
	var term int64
	switch o.By {
	case ByLines:
		term = o.Lines
	case ByTime:
		term = o.Time
	case ByRequests:
		term = o.Requests
	}
	if o.Count != want || term != want || (o.By != ByLines && o.Lines == want) {
		t.Fatalf("%+v under %v: want count %d and the first binding term", o, count, want)
	}
}

// TestOverlapMonotone checks on random windows that I(t) under every count
// does not decrease when t, N_p, an interferer's lines, phases, splits,
// latency or response time grow, a period shrinks, or a task or a core is
// added: a longer window or more interfering demand never lowers the
// bound, which the response-time fixed point and the cross-core iteration
// rely on.
func TestOverlapMonotone(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	type mutation struct {
		name string
		f    func(w *Window, d *Demand)
	}
	grow := func() int64 { return 1 + rng.Int63n(1000) }
	mutations := []mutation{
		{"lines", func(w *Window, d *Demand) {
			d.Lines += grow()
			d.Phases = max(d.Phases, 1)
		}},
		{"phases", func(w *Window, d *Demand) { d.Phases += 1 + rng.Int63n(3) }},
		{"splits", func(w *Window, d *Demand) { d.Splits += 1 }},
		{"response", func(w *Window, d *Demand) { d.Response = sat.Add(d.Response, grow()*us) }},
		{"period", func(w *Window, d *Demand) { d.Period = max(1, d.Period-rng.Int63n(d.Period)) }},
		{"latency", func(w *Window, d *Demand) {
			for _, c := range interferers(w) {
				c.Latency = sat.Add(c.Latency, rng.Int63n(10_000))
			}
		}},
		{"task", func(w *Window, d *Demand) {
			c := interferers(w)
			k := rng.Intn(len(c))
			c[k].Tasks = append(c[k].Tasks, randDemand(rng, k == len(c)-1))
		}},
		{"core", func(w *Window, d *Demand) {
			w.Cores = append(w.Cores, Interferer{Latency: rng.Int63n(250_000), Tasks: []Demand{randDemand(rng, false)}})
		}},
	}
	var demands []*Demand
	for i := 0; i < 10_000; i++ {
		w := randWindow(rng)
		tw, n := randTN(rng)
		dt, dn := rng.Int63n(10*ms), rng.Int63n(1000)
		pz, dp := rng.Int63n(50), rng.Int63n(50)
		for k, count := range counts {
			base := w.Interference(tw, n, pz, count)
			for _, v := range []struct {
				name    string
				t, n, p int64
			}{
				{"t", tw + dt, n, pz}, {"N_p", tw, n + dn, pz}, {"t and N_p", tw + dt, n + dn, pz}, {"pauses", tw, n, pz + dp},
			} {
				if got := w.Interference(v.t, v.n, v.p, count); got < base {
					t.Fatalf("%+v under %v: I(%d, %d, %d) = %d < I(%d, %d, %d) = %d after growing %s",
						w, counts[k], v.t, v.n, v.p, got, tw, n, pz, base, v.name)
				}
			}
		}
		m := mutations[rng.Intn(len(mutations))]
		v := cloneWindow(w)
		demands = demands[:0]
		for _, c := range interferers(&v) {
			for j := range c.Tasks {
				demands = append(demands, &c.Tasks[j])
			}
		}
		if len(demands) == 0 && m.name != "task" && m.name != "core" {
			continue
		}
		var d *Demand
		if len(demands) > 0 {
			d = demands[rng.Intn(len(demands))]
		}
		m.f(&v, d)
		if err := v.Validate(); err != nil {
			t.Fatalf("mutation %s made an invalid window: %v", m.name, err)
		}
		for _, count := range counts {
			if before, after := w.Interference(tw, n, 0, count), v.Interference(tw, n, 0, count); after < before {
				t.Fatalf("%+v under %v: growing %s lowered I from %d to %d (%+v)", w, count, m.name, before, after, v)
			}
		}
	}
}

// TestOverlapNoAllocs checks that the counts never allocate.
func TestOverlapNoAllocs(t *testing.T) {
	w := watersWindow()
	var sink int64
	allocs := testing.AllocsPerRun(100, func() {
		for _, count := range counts {
			sink += w.Interference(7*ms, 12345, 0, count)
			sink += w.Overlap(&w.Cores[1], 7*ms, 12345, 0, count).Count
		}
		sink += w.Cores[0].Busy(3*ms) + w.Cores[0].Phases(3*ms) + w.Cores[0].Requests(3*ms)
		sink += w.CopyEngine.Tasks[0].Jobs(5 * ms)
		if w.Validate() != nil {
			sink++
		}
	})
	if allocs != 0 {
		t.Errorf("the counts allocate %.1f times per run", allocs)
	}
	_ = sink
}
