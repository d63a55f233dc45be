package chains

import "testing"

const milli = int64(1_000_000_000) // one millisecond in picoseconds

// watersTask gives the WATERS 2019 periods (waters2019.md) with plausible,
// made-up response times in picoseconds (not an analysis result).
func watersTask(name string) Member {
	switch name {
	case "DASM":
		return Member{Name: name, Period: 5 * milli, BCRT: 1_104_000_000, WCRT: 1_733_500_001}
	case "CANbus_polling":
		return Member{Name: name, Period: 10 * milli, BCRT: 512_000_000, WCRT: 911_250_000}
	case "EKF":
		return Member{Name: name, Period: 15 * milli, BCRT: 4_020_000_000, WCRT: 6_204_666_667}
	case "Planner":
		return Member{Name: name, Period: 15 * milli, BCRT: 12_440_000_000, WCRT: 13_967_000_000}
	case "Lidar_Grabber":
		return Member{Name: name, Period: 33 * milli, BCRT: 10_010_000_000, WCRT: 12_487_333_334}
	case "SFM":
		return Member{Name: name, Period: 33 * milli, BCRT: 19_870_000_000, WCRT: 27_412_000_000}
	case "Lane_detection":
		return Member{Name: name, Period: 66 * milli, BCRT: 40_300_000_000, WCRT: 58_310_500_000}
	case "Detection":
		return Member{Name: name, Period: 200 * milli, BCRT: 150_000_000_000, WCRT: 182_006_000_000}
	case "Localization":
		return Member{Name: name, Period: 400 * milli, BCRT: 151_000_000_000, WCRT: 290_750_000_000}
	}
	panic("unknown WATERS task " + name)
}

type namedChain struct {
	name string
	ms   []Member
}

// watersChains returns the eight chains of waters2019.md.
func watersChains() []namedChain {
	spec := []struct {
		name  string
		tasks []string
	}{
		{"Li-Lo-EK-P-DA", []string{"Lidar_Grabber", "Localization", "EKF", "Planner", "DASM"}},
		{"CA-Lo-EK-P-DA", []string{"CANbus_polling", "Localization", "EKF", "Planner", "DASM"}},
		{"CA-EK-P-DA", []string{"CANbus_polling", "EKF", "Planner", "DASM"}},
		{"CA-P-DA", []string{"CANbus_polling", "Planner", "DASM"}},
		{"Li-P-DA", []string{"Lidar_Grabber", "Planner", "DASM"}},
		{"SF-P-DA", []string{"SFM", "Planner", "DASM"}},
		{"LD-P-DA", []string{"Lane_detection", "Planner", "DASM"}},
		{"D-P-DA", []string{"Detection", "Planner", "DASM"}},
	}
	out := make([]namedChain, len(spec))
	for i, c := range spec {
		out[i].name = c.name
		for _, n := range c.tasks {
			out[i].ms = append(out[i].ms, watersTask(n))
		}
	}
	return out
}

func TestWATERSChains(t *testing.T) {
	hyper := map[string]int64{ // LCM of the chain's periods, in ms
		"Li-Lo-EK-P-DA": 13200, "CA-Lo-EK-P-DA": 1200, "CA-EK-P-DA": 30, "CA-P-DA": 30,
		"Li-P-DA": 165, "SF-P-DA": 165, "LD-P-DA": 330, "D-P-DA": 600,
	}
	for _, c := range watersChains() {
		r := Analyze(c.ms, Options{})
		if r.Status != OK {
			t.Fatalf("%s: %s", c.name, r.Reason())
		}
		if r.Hyperperiod != hyper[c.name]*milli {
			t.Errorf("%s: hyperperiod %d, want %d ms", c.name, r.Hyperperiod, hyper[c.name])
		}
		checkInvariants(t, c.ms, &r)
		t.Logf("%-14s H %6d ms  implicit RT %8.3f age %8.3f | LET RT %8.3f age %8.3f | Davare %8.3f ms",
			c.name, r.Hyperperiod/milli, float64(r.Implicit.MaxReactionTime)/1e9, float64(r.Implicit.MaxDataAge)/1e9,
			float64(r.LET.MaxReactionTime)/1e9, float64(r.LET.MaxDataAge)/1e9, float64(r.AnyOffset.MaxReactionTime)/1e9)
	}
	// 13.2 s in picoseconds is the WATERS hyperperiod; it fits comfortably.
	if r := Analyze(watersChains()[0].ms, Options{}); r.Hyperperiod != 13_200_000_000_000 || r.ForwardJobs != 400 || r.BackwardJobs != 2640 {
		t.Errorf("Li-Lo-EK-P-DA: H %d, jobs %d/%d", r.Hyperperiod, r.ForwardJobs, r.BackwardJobs)
	}
}

func BenchmarkWATERSChains(b *testing.B) {
	chains := watersChains()
	b.ReportAllocs()
	var sink int64
	for b.Loop() {
		for i := range chains {
			r := Analyze(chains[i].ms, Options{})
			sink += r.Implicit.MaxReactionTime + r.LET.MaxDataAge
		}
	}
	if sink == 0 {
		b.Fatal("no result")
	}
}

// BenchmarkWATERSEval is the optimizer's inner loop: the default objective
// (implicit, maximum reaction time, synchronous release) of all eight chains.
func BenchmarkWATERSEval(b *testing.B) {
	chains := watersChains()
	b.ReportAllocs()
	var sink int64
	for b.Loop() {
		for i := range chains {
			v, _ := Eval(chains[i].ms, Options{})
			sink += v
		}
	}
	if sink == 0 {
		b.Fatal("no result")
	}
}

// BenchmarkWATERSEvalAnyOffsets is the optimizer's inner loop under the
// default bound of the configuration: the least bound for any offsets of
// the maximum reaction time of all eight chains.
func BenchmarkWATERSEvalAnyOffsets(b *testing.B) {
	chains := watersChains()
	opts := Options{Objective: Objective{Bound: AnyOffsets}}
	b.ReportAllocs()
	var sink int64
	for b.Loop() {
		for i := range chains {
			v, _ := Eval(chains[i].ms, opts)
			sink += v
		}
	}
	if sink == 0 {
		b.Fatal("no result")
	}
}

func BenchmarkWorstChain(b *testing.B) {
	chains := watersChains()
	buf := make([]Hop, 0, 8)
	b.ReportAllocs()
	for b.Loop() {
		for i := range chains {
			WorstChain(chains[i].ms, Options{}, Implicit, MaxDataAge, buf)
		}
	}
}
