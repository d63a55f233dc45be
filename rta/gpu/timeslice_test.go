package gpu

import (
	"math/rand/v2"
	"testing"
)

func TestTimeSliceThreeTasks(t *testing.T) {
	// threeTasks with slices A 3, B 50, D 2 and a switch overhead of 1.
	// Isolated kernel times E: A 4, B 6, D ceil(12/8)·2 = 4. Copies and
	// their waits as in TestFIFOThreeTasks. Periods 100.
	//
	// Round 1: every reach is the period, so every other channel has
	// jobs = ceil((w + 100)/100) = 1 job in the window at w = 0 and 2 for
	// 0 < w <= 100.
	// A: n = ceil(4/3) = 2 turns.
	//    w = 0: B: min(2, 1·ceil(6/50) = 1) = 1 turn, min(50, 6) = 6.
	//           D: min(2, 1·ceil(4/2) = 2) = 2 turns, min(2·2, 4) = 4.
	//           switches 2 + 1 + 2 = 5; w = 4 + 6 + 4 + 5 = 19.
	//    w = 19: B: 2 turns, min(100, 12) = 12; D: 2 turns, min(4, 8) = 4;
	//           switches 6; w = 4 + 12 + 4 + 6 = 26 (stable).
	// B: n = 1. w = 0: A: 1 turn, min(3, 4) = 3; D: 1 turn, min(2, 4) = 2;
	//    switches 3; w = 14. w = 14: A min(3, 8) = 3, D min(2, 8) = 2: 14.
	// D: n = 2. w = 0: A: 2 turns, min(6, 4) = 4; B: 1 turn, 6; switches 5;
	//    w = 19. w = 19: A: min(6, 8) = 6; B: 2 turns, 12; switches 6; 28.
	// Reaches min(T, copy-in wait + copy in + w): A 4+2+26 = 32,
	// B 3+3+14 = 20, D 5+1+28 = 34.
	//
	// Round 2: jobs = ceil((w + reach)/100) = 1 for every w below 66.
	// A: w = 19 as at w = 0 above (B 1 turn of 6, D 2 turns of 4, 5
	//    switches), stable. Total 4 + 2 + 19 + 4 + 1 = 30.
	// B: w = 14 (one job of each was already enough). Total 3+3+14+3+2 = 25.
	// D: w = 19 (A 2 turns, 4; B 1 turn, 6; 5 switches). Total 5+1+19 = 25.
	// Reaches A 25, B 20, D 25; round 3 gives the same bounds and reaches.
	want := []Response{
		{CopyInWait: 4, CopyIn: 2, KernelQueue: 15, KernelIsolated: 4, CopyOutWait: 4, CopyOut: 1, Total: 30,
			Bounded: true, Bound: BoundTimeSlice, Turns: 2, SwitchOverhead: 5},
		{CopyInWait: 3, CopyIn: 3, KernelQueue: 8, KernelIsolated: 6, CopyOutWait: 3, CopyOut: 2, Total: 25,
			Bounded: true, Bound: BoundTimeSlice, Turns: 1, SwitchOverhead: 3},
		{CopyInWait: 5, CopyIn: 1, KernelQueue: 15, KernelIsolated: 4, Total: 25,
			Bounded: true, Bound: BoundTimeSlice, Turns: 2, SwitchOverhead: 5},
	}
	a := TimeSliceAnalyzer{Device: bigSM, SwitchOverhead: 1}
	out := make([]Response, 3)
	if err := a.Analyze(threeTasks(), out); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		checkResp(t, threeTasks()[i].Name, out[i], want[i])
	}
}

func TestTimeSliceJobsInWindow(t *testing.T) {
	// X: E = 10 (1 wave of 10), slice 2: n = 5 turns. Y: E = 1, slice 5,
	// period 4, no overhead. Round 1, every reach the period:
	//   w = 0:  jobs ceil((0 + 4)/4) = 1: 1 turn, min(5, 1) = 1; w = 11
	//   w = 11: jobs ceil(15/4) = 4: 4 turns, min(20, 4) = 4; w = 14
	//   w = 14: jobs ceil(18/4) = 5: min(5, 5) turns, min(25, 5) = 5; w = 15
	//   w = 15: jobs ceil(19/4) = 5: stable. Total 15.
	// Round 2 (Y's reach min(4, 0 + 3) = 3, see below): jobs ceil((w+3)/4)
	// = 1, 4, 5, 5 at w = 0, 11, 14, 15: the same w = 15.
	tasks := []Task{
		{Name: "X", Period: 100, BlockTime: 10, Blocks: 1, ThreadsPerBlock: 256, Slice: 2},
		{Name: "Y", Period: 4, BlockTime: 1, Blocks: 1, ThreadsPerBlock: 256, Slice: 5},
	}
	var a TimeSliceAnalyzer
	out := make([]Response, 2)
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	checkResp(t, "X", out[0], Response{KernelQueue: 5, KernelIsolated: 10, Total: 15, Bounded: true, Bound: BoundTimeSlice, Turns: 5})
	// Y: n = 1; X: jobs ceil((3 + 100)/100) = 2 in round 1 and
	// ceil((3 + 15)/100) = 1 in round 2, 1 turn either way, min(2, 10) = 2;
	// w = 3.
	checkResp(t, "Y", out[1], Response{KernelQueue: 2, KernelIsolated: 1, Total: 3, Bounded: true, Bound: BoundTimeSlice, Turns: 1})
}

// sliceTasks draws n GPU tasks of one block each (one SM of 1024 threads in
// simDevices), with kernels of 1 to 40, slices of 1 to 40 and copies in of
// up to 60: kernels that need several turns next to kernels that fit one,
// and copies long enough to hold a kernel back past another's start.
func sliceTasks(rng *rand.Rand, n int) []Task {
	ts := tightTasks(rng, n, simDevices[1])
	for i := range ts {
		ts[i].Blocks, ts[i].ThreadsPerBlock = 1, 1024
		ts[i].BlockTime = 1 + rng.Int64N(40)
		ts[i].Slice = 1 + rng.Int64N(40)
		ts[i].CopyIn *= 1 + rng.Int64N(5)
	}
	return ts
}

// TestSimTimeSliceSound: simulated round-robin responses stay within the
// time-slice bounds, with random phases, sporadic releases and release
// jitter (see jobCheck). Every other set has one-block kernels (sliceTasks),
// periods close to the bounds and short runs whose first jobs are launched
// close together (randJobs with focus), where a count of jobs one too small
// shows: with the count of the jobs launched in the window, ceil((w + J)/T),
// instead of the reach, this test fails (on 5 sets, 7 runs, when it was
// written; TestTimeSliceCarryInJob is such a set by hand).
func TestSimTimeSliceSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	var c jobCheck
	for it := range 16000 {
		tight := it%2 == 1
		var ts []Task
		a := &TimeSliceAnalyzer{Device: bigSM, SwitchOverhead: int64(it % 3)}
		if tight {
			ts = sliceTasks(rng, 2+rng.IntN(3))
			a.Device = simDevices[1].dev
		} else {
			if it%8 != 0 {
				continue // fewer sets of many blocks: they take longer
			}
			ts = randTasks(rng, 2+rng.IntN(4), false)
		}
		if !withPeriods(rng, a, ts, it%4 < 2, tight) {
			continue
		}
		out := make([]Response, len(ts))
		if err := a.Analyze(ts, out); err != nil {
			t.Fatal(err)
		}
		iso := make([]int64, len(ts))
		var maxT int64
		for i := range ts {
			iso[i] = out[i].KernelIsolated
			maxT = max(maxT, ts[i].Period)
		}
		runs, horizon := 3, 12*maxT
		if tight {
			runs, horizon = 8, 2*maxT
		}
		for rep := range runs {
			nominal, launch := randJobs(rng, ts, horizon, tight)
			resp := simTimeSlice(ts, iso, a.SwitchOverhead, launch, rng, rep%4 == 2)
			if err := c.run(ts, out, nominal, launch, resp, nil); err != nil {
				t.Fatalf("set %d (cs %d), run %d: %v", it, a.SwitchOverhead, rep, err)
			}
		}
	}
	if c.checked < 1000 {
		t.Fatalf("only %d jobs checked", c.checked)
	}
	t.Logf("%d simulated jobs within their bounds, %d met it exactly; %d runs checked only up to a job past its nominal release + period",
		c.checked, c.tight, c.truncated)
}

// TestPropertyTimeSliceMonotone: responses do not decrease, and no unbounded
// one becomes bounded, when a block time, block count, copy or release
// jitter grows (a slice is a knob, not a cost: a longer own slice can
// shorten the response).
func TestPropertyTimeSliceMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	var a TimeSliceAnalyzer
	for range 2000 {
		n := 1 + rng.IntN(5)
		ts := randTasks(rng, n, false)
		randPeriods(rng, &a, ts)
		out0 := make([]Response, n)
		if err := a.Analyze(ts, out0); err != nil {
			t.Fatal(err)
		}
		g := growOne(rng, ts)
		out1 := make([]Response, n)
		if err := a.Analyze(g, out1); err != nil {
			t.Fatal(err)
		}
		for j := range out0 {
			switch {
			case out0[j].Bounded && out1[j].Bounded && out1[j].Total < out0[j].Total:
				t.Fatalf("%+v -> %+v: task %d %d -> %d", ts, g, j, out0[j].Total, out1[j].Total)
			case !out0[j].Bounded && out1[j].Bounded:
				t.Fatalf("%+v -> %+v: task %d became bounded", ts, g, j)
			}
		}
	}
}

// TestTimeSliceCarryInJob: the time-slice model counts the jobs of another
// channel by its reach too; counting only the jobs launched in the window,
// ceil((w + J)/T), is too small here. No switch overhead.
//
//	I: copy in 50, E = 100 (one block of 100), slice 10 (10 turns), period 300.
//	J: copy in 1, E = 20, slice 20, period 120, no jitter.
//
// Run: both launch at 0, I's copy first (task order): I's kernel starts its
// window at t1 = 50, J's kernel is launched at 51. I runs 50..60, J 60..80,
// I 80..130; J's next job launches at 120 and its kernel at 121, so J runs
// 130..150 and I 150..190: w = 140, I's response 190.
//
// J's bound: it waits for I's copy (50), copies (1) and runs 20 after at
// most one turn of I (10): Δ = 81, Total 81 <= 120; reach min(120, 81) = 81.
// I's bound: n = 10 turns, no context switch.
//   - Jobs launched in the window, at least one: ceil(w/120) = 1 at
//     w = 100 + min(10·20, 1·20) = 120, so w = 120 and I's bound would be
//     1 (J's copy) + 50 + 120 = 171 < 190.
//   - With the reach: ceil((w + 81)/120) = 1 at w = 0, giving w = 120;
//     2 at w = 120: min(10, 2·1) = 2 turns of J, min(2·20, 2·20) = 40,
//     w = 140; stable. I's bound 1 + 50 + 140 = 191 >= 190.
func TestTimeSliceCarryInJob(t *testing.T) {
	tasks := []Task{
		{Name: "I", Period: 300, CopyIn: 50, BlockTime: 100, Blocks: 1, ThreadsPerBlock: 1024, Slice: 10},
		{Name: "J", Period: 120, CopyIn: 1, BlockTime: 20, Blocks: 1, ThreadsPerBlock: 1024, Slice: 20},
	}
	var a TimeSliceAnalyzer
	out := make([]Response, 2)
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	checkResp(t, "I", out[0], Response{CopyInWait: 1, CopyIn: 50, KernelQueue: 40, KernelIsolated: 100, Total: 191,
		Bounded: true, Bound: BoundTimeSlice, Turns: 10})
	checkResp(t, "J", out[1], Response{CopyInWait: 50, CopyIn: 1, KernelQueue: 10, KernelIsolated: 20, Total: 81,
		Bounded: true, Bound: BoundTimeSlice, Turns: 1})
	resp := simTimeSlice(tasks, []int64{100, 20}, 0, [][]int64{{0}, {0, 120}}, nil, false)
	if resp[0][0] != 190 {
		t.Errorf("simulated response of I %d, want 190", resp[0][0])
	}
	if resp[1][0] > out[1].Total || resp[1][1] > out[1].Total {
		t.Errorf("simulated responses of J %v exceed its bound %d", resp[1], out[1].Total)
	}
}
