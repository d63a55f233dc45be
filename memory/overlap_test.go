package memory

import (
	"errors"
	"math"
	"testing"
)

// Times in these tests are picoseconds; 1 µs = 1_000_000 ps.
const (
	us = int64(1_000_000)
	ms = 1000 * us
)

// counts are the three counts in the order the tests list their values.
var counts = [3]Count{ChallengeCount, RefinedCount, RequestCount}

// overlapCase is one interferer's expected overlap under the three counts.
type overlapCase struct {
	name string
	w    Window
	c    *Interferer // nil: the copy engine
	t, n int64
	want [3]Overlap // challenge, refined, request
}

func checkOverlap(t *testing.T, tc overlapCase) {
	t.Helper()
	c := tc.c
	if c == nil {
		c = &tc.w.CopyEngine
	}
	for k, count := range counts {
		got := tc.w.Overlap(c, tc.t, tc.n, 0, count)
		if got != tc.want[k] {
			t.Errorf("%s, %v: Overlap = %+v, want %+v", tc.name, count, got, tc.want[k])
		}
	}
}

// oneCore is an observed A57 core p (baseline 20 ns, K = 20 ns, sGPU =
// 100 ns) and one interfering core with a single task of period 10 µs,
// response-time bound 2 µs, two memory phases and one split per job.
func oneCore(latency, lines int64) Window {
	return Window{
		Core: A57(),
		Cores: []Interferer{{Latency: latency, Tasks: []Demand{
			{Period: 10 * us, Response: 2 * us, Lines: lines, Phases: 2, Splits: 1},
		}}},
	}
}

// TestOverlapTwoCores checks two cores with one task each, where each term
// of the minimum binds in turn. p is an A57 core: baseline(p) = 20 000 ps.
func TestOverlapTwoCores(t *testing.T) {
	denver := oneCore(10_000, 100) // c a Denver core, Lat_c = 8 + 2 ns
	a57 := oneCore(40_000, 100)    // c an A57 core, Lat_c = 20 + 20 ns
	for _, tc := range []overlapCase{{
		// t = 5 µs: η = ceil((5 + 2)/10) = 1 job. A = 1·100 = 100 lines.
		// Busy = 100·10 000 = 1 000 000 ps; floor(1e6/20 000) = 50.
		// Phases = 1·(2 + 1) = 3; time count = 50 + 2·3 = 56.
		// N_p = 30 < 56 < 100: N_p binds under every count.
		name: "N_p binds", w: denver, t: 5 * us, n: 30,
		want: [3]Overlap{
			{Count: 30, Lines: 30, Time: 56, Requests: 100, By: ByLines},
			{Count: 30, Lines: 30, Time: 56, Requests: 100, By: ByLines},
			{Count: 30, Lines: 30, Time: 56, Requests: 100, By: ByLines},
		},
	}, {
		// As above with N_p = 1000: the time count 56 < A = 100 binds
		// under refined and request; the challenge charges all 1000.
		name: "time binds", w: denver, t: 5 * us, n: 1000,
		want: [3]Overlap{
			{Count: 1000, Lines: 1000, Time: 56, Requests: 100, By: ByLines},
			{Count: 56, Lines: 1000, Time: 56, Requests: 100, By: ByTime},
			{Count: 56, Lines: 1000, Time: 56, Requests: 100, By: ByTime},
		},
	}, {
		// c an A57 core: Busy = 100·40 000 = 4 000 000 ps → 200;
		// time count = 200 + 2·3 = 206 > A = 100: the request count binds
		// under request, the time count under refined.
		name: "requests bind", w: a57, t: 5 * us, n: 1000,
		want: [3]Overlap{
			{Count: 1000, Lines: 1000, Time: 206, Requests: 100, By: ByLines},
			{Count: 206, Lines: 1000, Time: 206, Requests: 100, By: ByTime},
			{Count: 100, Lines: 1000, Time: 206, Requests: 100, By: ByRequests},
		},
	}, {
		// t = 25 µs: η = ceil((25 + 2)/10) = 3 jobs (one carried in).
		// A = 300; Busy = 300·40 000 = 12 000 000 ps → 600; Phases =
		// 3·3 = 9; time count = 600 + 18 = 618.
		name: "three jobs", w: a57, t: 25 * us, n: 1000,
		want: [3]Overlap{
			{Count: 1000, Lines: 1000, Time: 618, Requests: 300, By: ByLines},
			{Count: 618, Lines: 1000, Time: 618, Requests: 300, By: ByTime},
			{Count: 300, Lines: 1000, Time: 618, Requests: 300, By: ByRequests},
		},
	}, {
		// A tie goes to N_p: N_p = 56 = the time count.
		name: "tie", w: denver, t: 5 * us, n: 56,
		want: [3]Overlap{
			{Count: 56, Lines: 56, Time: 56, Requests: 100, By: ByLines},
			{Count: 56, Lines: 56, Time: 56, Requests: 100, By: ByLines},
			{Count: 56, Lines: 56, Time: 56, Requests: 100, By: ByLines},
		},
	}} {
		tc.c = &tc.w.Cores[0]
		checkOverlap(t, tc)
	}
	// I(t) = K(p)·O_c with K = 20 000 ps, "requests bind" above:
	// challenge 20 000·1000, refined 20 000·206, request 20 000·100.
	w := a57
	for k, want := range [3]int64{20_000_000, 4_120_000, 2_000_000} {
		if got := w.Interference(5*us, 1000, 0, counts[k]); got != want {
			t.Errorf("I(5 µs) under %v = %d, want %d", counts[k], got, want)
		}
	}
}

// copyEngineWindow is an observed A57 core, an interfering core whose only
// task moves no line, and one GPU task on the copy engine: period 33 ms,
// response-time bound 10 ms, 1000 lines in and 500 out, with Lat(CE) =
// 3 ns + 0.5 ns·1 = 3 500 ps.
func copyEngineWindow() Window {
	return Window{
		Core: A57(),
		Cores: []Interferer{{Latency: 40_000, Tasks: []Demand{
			{Period: 10 * us, Response: 3 * us, Lines: 0, Phases: 0, Splits: 1},
		}}},
		CopyEngine: Interferer{Latency: 3_500, Tasks: []Demand{CopyDemand(33*ms, 10*ms, 1000, 500)}},
	}
}

// TestOverlapCopyEngine checks the copy-engine term.
func TestOverlapCopyEngine(t *testing.T) {
	w := copyEngineWindow()
	// t = 20 ms: η = ceil((20 + 10)/33) = 1. A_CE = 1500 lines.
	// Busy_CE = 1500·3 500 = 5 250 000 ps; floor(5 250 000/20 000) = 262.
	// Phases_CE = 1·2 (copy in, copy out; no split) → time = 262 + 4 = 266.
	// N_p = 5000: the time count binds under refined and request.
	checkOverlap(t, overlapCase{name: "copy engine", w: w, t: 20 * ms, n: 5000,
		want: [3]Overlap{
			{Count: 5000, Lines: 5000, Time: 266, Requests: 1500, By: ByLines},
			{Count: 266, Lines: 5000, Time: 266, Requests: 1500, By: ByTime},
			{Count: 266, Lines: 5000, Time: 266, Requests: 1500, By: ByTime},
		}})
	// The core's task moves no line: nothing overlaps it under any count
	// (the challenge does not count it in #C either). Its split count
	// alone gives Time = 2·η·1 = 2·ceil(20.003/0.01) = 2·2001 = 4002.
	checkOverlap(t, overlapCase{name: "core without lines", w: w, c: &w.Cores[0], t: 20 * ms, n: 5000,
		want: [3]Overlap{
			{Lines: 5000, Time: 4002, By: NoAccess},
			{Lines: 5000, Time: 4002, By: NoAccess},
			{Lines: 5000, Time: 4002, By: NoAccess},
		}})
	// I = sGPU(p)·O_CE with sGPU = 100 000 ps: challenge 100 000·5000 =
	// 500 µs, refined and request 100 000·266 = 26.6 µs.
	for k, want := range [3]int64{500_000_000, 26_600_000, 26_600_000} {
		if got := w.Interference(20*ms, 5000, 0, counts[k]); got != want {
			t.Errorf("I(20 ms) under %v = %d, want %d", counts[k], got, want)
		}
	}
}

// TestOverlapRefinedEqualsChallenge checks a case where N_p binds for the
// core and the copy engine, so refined = request = challenge.
func TestOverlapRefinedEqualsChallenge(t *testing.T) {
	w := copyEngineWindow()
	w.Cores = oneCore(10_000, 100).Cores
	// Core: time count 56 at t = 5 µs (TestOverlapTwoCores), A = 100.
	// CE at t = 5 µs: η = ceil((5 µs + 10 ms)/33 ms) = 1: time count 266,
	// A = 1500. With N_p = 30 both counts are 30:
	// I = 20 000·30 + 100 000·30 = 3 600 000 ps under every count.
	for _, count := range counts {
		if got := w.Interference(5*us, 30, 0, count); got != 3_600_000 {
			t.Errorf("I under %v = %d, want 3600000", count, got)
		}
	}
}

// TestOverlapRequest checks a request case with two interfering cores and
// the copy engine. p is a Denver core: baseline 8 000 ps, K = 2 000 ps,
// sGPU = 20 000 ps; t = 2 ms; N_p = 700.
func TestOverlapRequest(t *testing.T) {
	w := Window{
		Core: Denver(),
		Cores: []Interferer{
			// c1, an A57 core at 20 + 2·20 + 100 = 160 ns per line: one task,
			// T = 5 ms, R = 1 ms, 50 lines in 2 phases.
			// η = ceil(3/5) = 1; A = 50; Busy = 8 000 000 → /8 000 = 1000;
			// Phases = 1·(2 + 1) = 3; time = 1006.
			// challenge 700; refined min(700, 1006) = 700 (lines);
			// request min(700, 1006, 50) = 50 (requests).
			{Latency: 160_000, Tasks: []Demand{{Period: 5 * ms, Response: 1 * ms, Lines: 50, Phases: 2, Splits: 1}}},
			// c2, a Denver core at 8 + 2·2 + 20 = 32 ns per line: an
			// asynchronous task (T = 1 ms, R = 0.5 ms, 10 lines, 1 phase,
			// splits 1 + 1 suspension) and a task without lines (T = 15 ms,
			// R = 3 ms, splits 1).
			// η_a = ceil(2.5/1) = 3: A = 30, Phases 3·(1 + 2) = 9;
			// η_b = ceil(5/15) = 1: A = 0, Phases 1·(0 + 1) = 1.
			// A = 30; Busy = 30·32 000 = 960 000 → 120; time = 120 + 2·10 = 140.
			// challenge 700; refined 140 (time); request 30 (requests).
			{Latency: 32_000, Tasks: []Demand{
				{Period: 1 * ms, Response: 500 * us, Lines: 10, Phases: 1, Splits: 2},
				{Period: 15 * ms, Response: 3 * ms, Splits: 1},
			}},
		},
		// CE at 3 + 3·0.5 = 4.5 ns per line: T = 33 ms, R = 12 ms, 200 lines
		// in, 100 out. η = ceil(14/33) = 1; A = 300; Busy = 1 350 000 →
		// floor(168.75) = 168; Phases 2; time = 172.
		// challenge 700; refined and request 172 (time).
		CopyEngine: Interferer{Latency: 4_500, Tasks: []Demand{CopyDemand(33*ms, 12*ms, 200, 100)}},
	}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	const tw, n = 2 * ms, 700
	wantBy := [3][3]Binding{ // [interferer][count]
		{ByLines, ByLines, ByRequests},
		{ByLines, ByTime, ByRequests},
		{ByLines, ByTime, ByTime},
	}
	wantO := [3][3]int64{{700, 700, 50}, {700, 140, 30}, {700, 172, 172}}
	for k, count := range counts {
		for c, ic := range []*Interferer{&w.Cores[0], &w.Cores[1], &w.CopyEngine} {
			o := w.Overlap(ic, tw, n, 0, count)
			if o.Count != wantO[c][k] || o.By != wantBy[c][k] {
				t.Errorf("interferer %d under %v: O = %d by %v, want %d by %v", c, count, o.Count, o.By, wantO[c][k], wantBy[c][k])
			}
		}
	}
	// challenge: 2 000·(700 + 700) + 20 000·700 = 16 800 000 ps
	// refined:   2 000·(700 + 140) + 20 000·172 =  5 120 000 ps
	// request:   2 000·(50 + 30)   + 20 000·172 =  3 600 000 ps
	for k, want := range [3]int64{16_800_000, 5_120_000, 3_600_000} {
		if got := w.Interference(tw, n, 0, counts[k]); got != want {
			t.Errorf("I under %v = %d, want %d", counts[k], got, want)
		}
	}
	// The terms one by one.
	c2 := &w.Cores[1]
	if a, b, p := c2.Requests(tw), c2.Busy(tw), c2.Phases(tw); a != 30 || b != 960_000 || p != 10 {
		t.Errorf("c2: A = %d, Busy = %d, Phases = %d; want 30, 960000, 10", a, b, p)
	}
}

func TestJobs(t *testing.T) {
	for _, tc := range []struct {
		d    Demand
		t    int64
		want int64
	}{
		{Demand{Period: 10, Response: 0}, 0, 0},                            // empty window, no carry-in
		{Demand{Period: 10, Response: 0}, 1, 1},                            // ceil(1/10)
		{Demand{Period: 10, Response: 0}, 10, 1},                           // ceil(10/10)
		{Demand{Period: 10, Response: 0}, 11, 2},                           // ceil(11/10)
		{Demand{Period: 10, Response: 3}, 7, 1},                            // ceil(10/10)
		{Demand{Period: 10, Response: 3}, 8, 2},                            // ceil(11/10): one carried in
		{Demand{Period: 10, Response: 25}, 0, 3},                           // ceil(25/10)
		{Demand{Period: 10, Response: -5}, 8, 1},                           // negative R as 0
		{Demand{Period: 10, Response: 3}, -4, 1},                           // negative t as 0: ceil(3/10)
		{Demand{Period: 0, Response: 3}, 4, math.MaxInt64},                 // invalid period: every job
		{Demand{Period: 7, Response: math.MaxInt64}, 1, math.MaxInt64},     // t + R overflows
		{Demand{Period: 7, Response: math.MaxInt64}, 0, math.MaxInt64 / 7}, // 7 divides 2^63 − 1
	} {
		if got := tc.d.Jobs(tc.t); got != tc.want {
			t.Errorf("%+v.Jobs(%d) = %d, want %d", tc.d, tc.t, got, tc.want)
		}
	}
}

// TestOverlapFallback checks that inputs without a bound fall back to
// the challenge's count N_p instead of failing or undercounting.
func TestOverlapFallback(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    Window
	}{
		{"unbounded response", Window{Core: A57(), Cores: []Interferer{{Latency: 1, Tasks: []Demand{{Period: 10, Response: math.MaxInt64, Lines: 1, Phases: 1, Splits: 1}}}}}},
		{"zero period", Window{Core: A57(), Cores: []Interferer{{Latency: 1, Tasks: []Demand{{Period: 0, Lines: 1, Phases: 1}}}}}},
		{"zero baseline", Window{Core: CoreParams{PerCore: 1}, Cores: []Interferer{{Latency: 1, Tasks: []Demand{{Period: 10, Lines: 1, Phases: 1}}}}}},
		{"saturated latency", Window{Core: A57(), Cores: []Interferer{{Latency: math.MaxInt64, Tasks: []Demand{{Period: 10, Lines: 3, Phases: 1}}}}}},
	} {
		o := tc.w.Overlap(&tc.w.Cores[0], 100, 12345, 0, RefinedCount)
		if o.Count != 12345 || o.By != ByLines {
			t.Errorf("%s: refined O = %+v, want N_p = 12345 by lines", tc.name, o)
		}
	}
}

func TestWindowValidate(t *testing.T) {
	ok := Demand{Period: 10, Response: 3, Lines: 2, Phases: 1, Splits: 1}
	for _, tc := range []struct {
		name string
		w    Window
		err  error
	}{
		{"valid", Window{Core: A57(), Cores: []Interferer{{Latency: 1, Tasks: []Demand{ok}}}}, nil},
		{"negative baseline", Window{Core: CoreParams{Baseline: -1}}, ErrNegative},
		{"negative latency", Window{Core: A57(), CopyEngine: Interferer{Latency: -1}}, ErrNegative},
		{"zero period", Window{Core: A57(), Cores: []Interferer{{Tasks: []Demand{{Period: 0}}}}}, ErrPeriod},
		{"negative response", Window{Core: A57(), Cores: []Interferer{{Tasks: []Demand{{Period: 1, Response: -1}}}}}, ErrNegative},
		{"negative splits", Window{Core: A57(), Cores: []Interferer{{Tasks: []Demand{{Period: 1, Splits: -1}}}}}, ErrNegative},
		{"lines without phase", Window{Core: A57(), Cores: []Interferer{{Tasks: []Demand{{Period: 1, Lines: 4}}}}}, ErrPhases},
	} {
		if err := tc.w.Validate(); !errors.Is(err, tc.err) {
			t.Errorf("%s: Validate = %v, want %v", tc.name, err, tc.err)
		}
	}
}

func TestCountNames(t *testing.T) {
	for _, c := range counts {
		got, err := ParseCount(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCount(%q) = %v, %v", c.String(), got, err)
		}
	}
	if _, err := ParseCount("Refined"); !errors.Is(err, ErrCount) {
		t.Errorf("ParseCount(Refined) error = %v, want ErrCount", err)
	}
	if Count(9).String() != "unknown" || Binding(9).String() != "unknown" {
		t.Error("out-of-range values must print as unknown")
	}
	for b, want := range []string{"none", "lines", "time", "requests"} {
		if got := Binding(b).String(); got != want {
			t.Errorf("Binding(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestFootprint(t *testing.T) {
	lines := map[string]int64{"a": 2, "b": 5, "c": 0}
	var f Footprint
	// Runnable 1 reads a and b (7 lines, one read phase) and writes a
	// (2 lines, one write phase); runnable 2 reads only c (0 lines: no
	// phase) and writes nothing; runnable 3 writes b twice (10 lines).
	steps := []struct{ reads, writes []string }{
		{[]string{"a", "b"}, []string{"a"}},
		{[]string{"c"}, nil},
		{nil, []string{"b", "b"}},
	}
	for _, s := range steps {
		if err := f.AddLabels(s.reads, s.writes, lines); err != nil {
			t.Fatal(err)
		}
	}
	if f != (Footprint{Lines: 19, Phases: 3}) {
		t.Errorf("footprint %+v, want {Lines:19 Phases:3}", f)
	}
	var ule *UnknownLabelError
	if err := f.AddLabels([]string{"a"}, []string{"zz"}, lines); !errors.As(err, &ule) || ule.Label != "zz" {
		t.Errorf("unknown label: error %v", err)
	}
	if err := f.AddRunnable(-1, 0); !errors.Is(err, ErrNegative) {
		t.Errorf("negative lines: error %v", err)
	}
	if err := f.AddRunnable(math.MaxInt64, 0); !errors.Is(err, ErrOverflow) {
		t.Errorf("overflow: error %v", err)
	}
	if f != (Footprint{Lines: 19, Phases: 3}) {
		t.Errorf("a failed Add changed the footprint: %+v", f)
	}
	// An asynchronous task: the footprint above plus a wait runnable that
	// writes 1 line; one suspension → Splits = 2.
	f.Add(Footprint{Lines: 1, Phases: 1})
	d := f.OnCore(5*ms, 2*ms, 1)
	if d != (Demand{Period: 5 * ms, Response: 2 * ms, Lines: 20, Phases: 4, Splits: 2}) {
		t.Errorf("OnCore = %+v", d)
	}
	if d := (Footprint{}).OnCore(1, 0, 0); d.Splits != 1 || d.Phases != 0 {
		t.Errorf("a task without lines still preempts once per job: %+v", d)
	}
	for _, tc := range []struct {
		in, out int64
		want    Demand
	}{
		{3, 4, Demand{Period: 9, Response: 2, Lines: 7, Phases: 2}},
		{0, 4, Demand{Period: 9, Response: 2, Lines: 4, Phases: 1}},
		{0, 0, Demand{Period: 9, Response: 2}},
	} {
		if got := CopyDemand(9, 2, tc.in, tc.out); got != tc.want {
			t.Errorf("CopyDemand(%d, %d) = %+v, want %+v", tc.in, tc.out, got, tc.want)
		}
	}
}

// watersWindow is a WATERS-sized window: Planner's A57 core (Core3 of the
// model's own mapping) observed, the other five cores with the model's
// mapping of the CPU tasks and four GPU tasks on the copy engine. Lines
// are those of the built-in model (memory time over the baseline in
// `hetmap analyze --mapping default`); latencies are the challenge
// convention's with #C = 4 and bGPU = 1; response times are round guesses
// below the periods, as a cross-core round would supply.
func watersWindow() Window {
	core := func(period, resp, lines, phases, suspensions int64) Demand {
		return Footprint{Lines: lines, Phases: phases}.OnCore(period, resp, suspensions)
	}
	return Window{
		Core: A57(),
		Cores: []Interferer{
			{Latency: 36_000, Tasks: []Demand{ // Core0, Denver
				core(5*ms, 2*ms, 64, 2, 0),         // DASM
				core(10*ms, 3*ms, 16, 2, 0),        // CANbus_polling
				core(33*ms, 25*ms, 94_125, 4, 0),   // PRE_SFM_gpu_POST
				core(100*ms, 90*ms, 0, 0, 0),       // OS_Overhead
				core(400*ms, 300*ms, 47_004, 4, 0), // PRE_Localization_gpu_POST
			}},
			{Latency: 36_000, Tasks: []Demand{core(33*ms, 13*ms, 54_689, 2, 0)}}, // Core1: Lidar_Grabber
			{Latency: 200_000}, // Core2: no task
			{Latency: 200_000, Tasks: []Demand{core(15*ms, 5*ms, 144, 2, 0)}}, // Core4: EKF
			{Latency: 200_000, Tasks: []Demand{ // Core5
				core(66*ms, 40*ms, 62_510, 4, 0),   // PRE_Lane_detection_gpu_POST
				core(200*ms, 150*ms, 85_940, 5, 1), // PRE_Detection_gpu_POST, asynchronous
			}},
		},
		CopyEngine: Interferer{Latency: 5_500, Tasks: []Demand{
			CopyDemand(33*ms, 20*ms, 31_254, 375),      // SFM
			CopyDemand(400*ms, 200*ms, 23_454, 48),     // Localization
			CopyDemand(66*ms, 50*ms, 31_250, 4),        // Lane_detection
			CopyDemand(200*ms, 180*ms, 31_250, 11_718), // Detection
		}},
	}
}

// BenchmarkInterference measures one I(t) of a WATERS-sized window (five
// interfering cores, ten CPU tasks, four GPU tasks) at window lengths that
// vary from call to call, as in a response-time fixed point.
func BenchmarkInterference(b *testing.B) {
	w := watersWindow()
	for _, count := range counts {
		b.Run(count.String(), func(b *testing.B) {
			b.ReportAllocs()
			var sink int64
			for i := 0; b.Loop(); i++ {
				t := 5*ms + int64(i&1023)*10*us
				sink += w.Interference(t, 20_039+int64(i&7)*144, 0, count)
			}
			_ = sink
		})
	}
}

// TestOverlapPauses: every access of the observed core that a preemption
// pauses and resumes may overlap an interferer's busy interval once more
// than the time count allows (package documentation, item 4), so pauses
// add to the time count. c: an A57 core (Lat 40 ns) with one task of
// period 10 µs, R = 2 µs, 100 lines in 2 phases with 1 split; p an A57
// core (baseline 20 ns). At t = 5 µs: η = ceil((5 + 2)/10) = 1, A = 100,
// Busy = 100·40 ns = 4 µs, floor(4 µs/20 ns) = 200, Phases = 1·(2 + 1) = 3:
// time count 200 + 2·3 = 206, + 7 pauses = 213.
func TestOverlapPauses(t *testing.T) {
	w := oneCore(40_000, 100)
	c := &w.Cores[0]
	for _, tc := range []struct {
		n, pauses int64
		want      [3]Overlap
	}{
		{1000, 0, [3]Overlap{{Count: 1000, Lines: 1000, Time: 206, Requests: 100, By: ByLines},
			{Count: 206, Lines: 1000, Time: 206, Requests: 100, By: ByTime},
			{Count: 100, Lines: 1000, Time: 206, Requests: 100, By: ByRequests}}},
		{1000, 7, [3]Overlap{{Count: 1000, Lines: 1000, Time: 213, Requests: 100, By: ByLines},
			{Count: 213, Lines: 1000, Time: 213, Requests: 100, By: ByTime},
			{Count: 100, Lines: 1000, Time: 213, Requests: 100, By: ByRequests}}},
		// 210 accesses: the time count binds without pauses, N with 7.
		{210, 0, [3]Overlap{{Count: 210, Lines: 210, Time: 206, Requests: 100, By: ByLines},
			{Count: 206, Lines: 210, Time: 206, Requests: 100, By: ByTime},
			{Count: 100, Lines: 210, Time: 206, Requests: 100, By: ByRequests}}},
		{210, 7, [3]Overlap{{Count: 210, Lines: 210, Time: 213, Requests: 100, By: ByLines},
			{Count: 210, Lines: 210, Time: 213, Requests: 100, By: ByLines},
			{Count: 100, Lines: 210, Time: 213, Requests: 100, By: ByRequests}}},
	} {
		var ctr Counter
		ctr.Reset(&w)
		for k, count := range counts {
			if got := w.Overlap(c, 5*us, tc.n, tc.pauses, count); got != tc.want[k] {
				t.Errorf("n %d, %d pauses, %v: %+v, want %+v", tc.n, tc.pauses, count, got, tc.want[k])
			}
			if got, want := ctr.Interference(5*us, tc.n, tc.pauses, count), w.Interference(5*us, tc.n, tc.pauses, count); got != want {
				t.Errorf("n %d, %d pauses, %v: Counter %d, Window %d", tc.n, tc.pauses, count, got, want)
			}
		}
	}
}
