package gpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// threeTasks is the hand-computed three-task case (gmax = 8 on bigSM).
func threeTasks() []Task {
	return []Task{
		{Name: "A", Period: 100, CopyIn: 2, CopyOut: 1, BlockTime: 4, Blocks: 8, ThreadsPerBlock: 512, Slice: 3},
		{Name: "B", Period: 100, CopyIn: 3, CopyOut: 2, BlockTime: 6, Blocks: 4, ThreadsPerBlock: 512, Slice: 50},
		{Name: "D", Period: 100, CopyIn: 1, CopyOut: 0, BlockTime: 2, Blocks: 12, ThreadsPerBlock: 512, Slice: 2},
	}
}

func checkResp(t *testing.T, name string, got, want Response) {
	t.Helper()
	got.WorstOrder, want.WorstOrder = slices.Clone(got.WorstOrder), slices.Clone(want.WorstOrder)
	if len(got.WorstOrder) == 0 {
		got.WorstOrder = nil
	}
	if len(want.WorstOrder) == 0 {
		want.WorstOrder = nil
	}
	if !slices.Equal(got.WorstOrder, want.WorstOrder) {
		t.Errorf("%s: WorstOrder %v, want %v", name, got.WorstOrder, want.WorstOrder)
	}
	got.WorstOrder, want.WorstOrder = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
	}
	sum := got.CopyInWait + got.CopyIn + got.KernelQueue + got.KernelIsolated + got.CopyOutWait + got.CopyOut
	if sum != got.Total {
		t.Errorf("%s: breakdown sums to %d, Total %d", name, sum, got.Total)
	}
}

func TestFIFOThreeTasks(t *testing.T) {
	// CE: max(in, out) = A 2, B 3, D 1; sum 6. The waits are the sum of the
	// other tasks' values: A 4, B 3, D 5 (D has no copy out: no wait).
	//
	// Kernels (all low priority, gmax = 8), every order of the others ahead:
	// A: ahead {B, D}.
	//   B, D, A: B 4 blocks 0..6; D 4 at 0, 4 at 2, 4 at 4 (f_D = 6); A's
	//            8 blocks wait for 6: f_A = 10.
	//   D, B, A: D 8 at 0, 4 at 2 (f_D = 4); B 4 at 2..8; A 4 at 4..8 (D's
	//            last 4 free), 4 at 8: f_A = 12.  <- worst, not the given order
	//   workload: W = 24 + 24 + 7·4 = 76, L = ceil(76/8) = 10, 10 + 4 = 14.
	//   Kernel part 12, isolated 4, queue 8. Total 4+2+12+4+1 = 23.
	// B: ahead {A, D}.
	//   A, D, B: A 8 at 0..4; D 8 at 4, 4 at 6 (f_D = 8); B 4 at 6: f_B = 12.
	//   D, A, B: D 8 at 0, 4 at 2; A 4 at 2, 4 at 4 (f_A = 8); B waits for
	//            6 (A's first 4): f_B = 12.
	//   workload: 32 + 24 + 3·6 = 74, ceil(74/8) = 10, 10 + 6 = 16.
	//   Kernel part 12, isolated 6, queue 6. Total 3+3+12+3+2 = 23.
	// D: ahead {A, B}.
	//   A, B, D: A 0..4; B 4..10; D 4 at 4, 4 at 6, 4 at 8: f_D = 10.
	//   B, A, D: B 0..6; A 4 at 0, 4 at 4 (f_A = 8); D 4 at 6, 8 at 8: 10.
	//   workload: 32 + 24 + 11·2 = 78, ceil(78/8) = 10, 10 + 2 = 12.
	//   Kernel part 10, isolated ceil(12/8)·2 = 4, queue 6. Total 5+1+10 = 16.
	want := []Response{
		{CopyInWait: 4, CopyIn: 2, KernelQueue: 8, KernelIsolated: 4, CopyOutWait: 4, CopyOut: 1, Total: 23,
			Bounded: true, Bound: BoundOrders, WorstOrder: []int{2, 1, 0}},
		{CopyInWait: 3, CopyIn: 3, KernelQueue: 6, KernelIsolated: 6, CopyOutWait: 3, CopyOut: 2, Total: 23,
			Bounded: true, Bound: BoundOrders, WorstOrder: []int{0, 2, 1}},
		{CopyInWait: 5, CopyIn: 1, KernelQueue: 6, KernelIsolated: 4, Total: 16,
			Bounded: true, Bound: BoundOrders, WorstOrder: []int{0, 1, 2}},
	}
	a := FIFOAnalyzer{Device: bigSM}
	out := make([]Response, 3)
	if err := a.Analyze(threeTasks(), out); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		checkResp(t, threeTasks()[i].Name, out[i], want[i])
	}

	// With enumeration disabled only the workload bound is left:
	// A 14, B 16, D 12 as computed above.
	a = FIFOAnalyzer{Device: bigSM, MaxEnumerate: -1}
	if err := a.Analyze(threeTasks(), out); err != nil {
		t.Fatal(err)
	}
	for i, k := range []int64{14, 16, 12} {
		if out[i].Bound != BoundWorkload || out[i].KernelQueue+out[i].KernelIsolated != k {
			t.Errorf("workload only, task %d: %+v, want kernel part %d", i, out[i], k)
		}
	}
}

func TestFIFOHighOvertakesLow(t *testing.T) {
	// gmax = 8. L: 16 blocks of 10 (isolated 20). H: 8 blocks of 2.
	//
	// H high: waits only for low blocks already running (all finish within
	// the longest low block time, 10), then runs alone: 2. Kernel part 12.
	// The same H at low priority queues behind all of L: L 8 at 0, 8 at 10,
	// H at 20: 22.
	//
	// L low, with H high (T = 1000): H's reach is min(T, J + Δ) = 12 (its
	// kernel completes within 12 of its launch), so jobs(1000, x) =
	// ceil((x + 12)/1000) = 1 while x <= 988. Workload W(x) = 15·10 + 1·16 =
	// 166, x = ceil(166/8) = 21, kernel part 21 + 10 = 31.
	tasks := []Task{
		{Name: "L", Period: 1000, BlockTime: 10, Blocks: 16, ThreadsPerBlock: 512},
		{Name: "H", Period: 1000, BlockTime: 2, Blocks: 8, ThreadsPerBlock: 512, Priority: High},
	}
	a := FIFOAnalyzer{Device: bigSM}
	out := make([]Response, 2)
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	checkResp(t, "H", out[1], Response{KernelQueue: 10, KernelIsolated: 2, Total: 12, Bounded: true,
		Bound: BoundOrders, Blocking: 10, WorstOrder: []int{1}})
	checkResp(t, "L", out[0], Response{KernelQueue: 11, KernelIsolated: 20, Total: 31, Bounded: true,
		Bound: BoundWorkload})

	tasks[1].Priority = Low
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	if out[1].Total != 22 {
		t.Errorf("H at low priority: %d, want 22", out[1].Total)
	}

	// The simulator shows the overtaking: L enters at 0 and runs 8 blocks
	// until 10; H enters at 5 and takes all 8 slots at 10 (A2) until 12;
	// L's last 8 blocks run 12..22.
	tasks[1].Priority = High
	c := simConfig{dev: bigSM, tasks: tasks, releases: [][]int64{{0}, {5}}}
	r := c.run()
	if r.kDone[1][0] != 12 || r.kDone[0][0] != 22 {
		t.Errorf("simulated completions H %d, L %d, want 12, 22", r.kDone[1][0], r.kDone[0][0])
	}
	if r.resp[1][0] > out[1].Total || r.resp[0][0] > out[0].Total {
		t.Errorf("simulation exceeds the bounds")
	}
}

func TestFIFOHighJobsInWindow(t *testing.T) {
	// L low: 8 blocks of 10 (gmax 8: isolated 10). H high: 8 blocks of 10,
	// period 25. H itself: blocking 10 (L's block time) + 10 alone = 20 <= 25,
	// so H's reach is min(25, 0 + 20) = 20 and
	// W(x) = 7·10 + jobs(25, x)·80 with jobs = ceil((x + 20)/25):
	//   x = 0:  jobs 1, W = 150, x = ceil(150/8) = 19
	//   x = 19: jobs 2, W = 230, x = 29
	//   x = 29: jobs 2, converged. Kernel part 29 + 10 = 39 (isolated 10).
	// L's period is 100: bounded. With period 38 the fixed point passes the
	// horizon (39 > 38): Bounded false.
	tasks := []Task{
		{Name: "L", Period: 100, BlockTime: 10, Blocks: 8, ThreadsPerBlock: 512},
		{Name: "H", Period: 25, BlockTime: 10, Blocks: 8, ThreadsPerBlock: 512, Priority: High},
	}
	a := FIFOAnalyzer{Device: bigSM}
	out := make([]Response, 2)
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	checkResp(t, "L", out[0], Response{KernelQueue: 29, KernelIsolated: 10, Total: 39, Bounded: true, Bound: BoundWorkload})
	tasks[0].Period = 38
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	if out[0].Bounded || out[0].Total <= 38 {
		t.Errorf("period 38: %+v, want unbounded above 38", out[0])
	}
}

func TestFIFOInvalid(t *testing.T) {
	ok := Task{Name: "t", Period: 10, BlockTime: 1, Blocks: 1, ThreadsPerBlock: 256}
	cases := []struct {
		mod  func(*Task)
		want string
	}{
		{func(t *Task) { t.BlockTime = 0 }, `gpu: task 1 ("t"): BlockTime = 0: must be > 0`},
		{func(t *Task) { t.Blocks = -1 }, `gpu: task 1 ("t"): Blocks = -1: must be > 0`},
		{func(t *Task) { t.Period = -1 }, `gpu: task 1 ("t"): Period = -1: must be >= 0 (0: a single job)`},
		{func(t *Task) { t.CopyIn = -1 }, `gpu: task 1 ("t"): CopyIn = -1: must be >= 0 (0: no copy)`},
		{func(t *Task) { t.CopyOut = -2 }, `gpu: task 1 ("t"): CopyOut = -2: must be >= 0 (0: no copy)`},
		{func(t *Task) { t.Priority = 7 }, `gpu: task 1 ("t"): Priority = 7: must be Low (0) or High (1)`},
		{func(t *Task) { t.ThreadsPerBlock = 1025 }, `gpu: task 1 ("t"): ThreadsPerBlock = 1025: exceeds the CUDA limit of 1024 threads per block`},
		{func(t *Task) { t.Slice = -1 }, `gpu: task 1 ("t"): Slice = -1: must be > 0 in the time-slice model`},
		{func(t *Task) { t.Period = 1 << 62 }, `gpu: task 1 ("t"): Period = 4611686018427387904: exceeds the analysed time range (2^62)`},
		{func(t *Task) { t.BlockTime, t.Blocks = 1<<40, 1<<30 }, `gpu: task 1 ("t"): BlockTime = 1099511627776: the kernels' work up to here exceeds the analysed time range (2^62)`},
	}
	var a FIFOAnalyzer
	out := make([]Response, 2)
	for _, tc := range cases {
		bad := ok
		tc.mod(&bad)
		err := a.Analyze([]Task{ok, bad}, out)
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
	}
	if err := a.Analyze([]Task{ok, ok}, out[:1]); err == nil || !strings.Contains(err.Error(), "1 responses for 2 tasks") {
		t.Errorf("short out: %v", err)
	}
	var ts TimeSliceAnalyzer
	if err := ts.Analyze([]Task{ok}, out); err == nil || err.Error() != `gpu: task 0 ("t"): Slice = 0: must be > 0 in the time-slice model` {
		t.Errorf("time slice 0: %v", err)
	}
	ts.SwitchOverhead = -1
	if err := ts.Analyze([]Task{ok}, out); err == nil || !strings.Contains(err.Error(), "SwitchOverhead = -1") {
		t.Errorf("negative switch overhead: %v", err)
	}
}

func TestFIFOEnumerationLimit(t *testing.T) {
	// 8 low tasks: 7 others ahead > DefaultMaxEnumerate, so the workload
	// bound is used; with MaxEnumerate 7 the orders are enumerated and the
	// result can only be smaller or equal.
	rng := rand.New(rand.NewPCG(11, 12))
	tasks := randTasks(rng, 8, false)
	var a FIFOAnalyzer
	out := make([]Response, 8)
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	b := FIFOAnalyzer{MaxEnumerate: 7}
	out2 := make([]Response, 8)
	if err := b.Analyze(tasks, out2); err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if out[i].Bound != BoundWorkload {
			t.Errorf("task %d: bound %v, want workload", i, out[i].Bound)
		}
		if out2[i].Total > out[i].Total {
			t.Errorf("task %d: enumerated %d > workload %d", i, out2[i].Total, out[i].Total)
		}
	}
}

// randTasks draws n GPU tasks with small numbers and no periods yet.
func randTasks(rng *rand.Rand, n int, prio bool) []Task {
	ts := make([]Task, n)
	sizes := []int{128, 256, 512, 1024}
	uniform := rng.IntN(2) == 0
	for i := range ts {
		ts[i] = Task{
			Name:            string(rune('A' + i)),
			BlockTime:       1 + rng.Int64N(12),
			Blocks:          1 + rng.IntN(40),
			ThreadsPerBlock: sizes[rng.IntN(len(sizes))],
			Slice:           1 + rng.Int64N(20),
		}
		if uniform {
			ts[i].ThreadsPerBlock = 256
		}
		if rng.IntN(4) > 0 {
			ts[i].CopyIn = 1 + rng.Int64N(8)
		}
		if rng.IntN(4) > 0 {
			ts[i].CopyOut = 1 + rng.Int64N(8)
		}
		if prio && rng.IntN(3) == 0 {
			ts[i].Priority = High
		}
	}
	return ts
}

// analyzer is FIFOAnalyzer or TimeSliceAnalyzer.
type analyzer interface {
	Analyze([]Task, []Response) error
}

// withPeriods gives the tasks periods under which the analysis says every
// task meets them (Bounded, Total <= Period), or reports false. With jitter,
// about half of the tasks get a release jitter of up to 0.9 of their period
// (the analysis of the others depends on it). Periods are up to three times
// the bound, or with tight up to 1.5 times, where interference from more jobs
// than the analysis counts would show sooner.
func withPeriods(rng *rand.Rand, a analyzer, ts []Task, jitter, tight bool) bool {
	out := make([]Response, len(ts))
	frac := make([]float64, len(ts))
	for i := range ts {
		ts[i].Period, ts[i].Jitter = 1<<40, 0
		if jitter && rng.IntN(2) == 0 {
			frac[i] = 0.9 * rng.Float64()
		}
	}
	if a.Analyze(ts, out) != nil {
		return false
	}
	setPeriod := func(i int, slack int64) {
		ts[i].Period = out[i].Total + rng.Int64N(slack+1)
		ts[i].Jitter = int64(frac[i] * float64(ts[i].Period))
	}
	for i := range ts {
		if tight {
			setPeriod(i, out[i].Total/2)
		} else {
			setPeriod(i, 2*out[i].Total)
		}
	}
	for range 10 {
		if a.Analyze(ts, out) != nil {
			return false
		}
		okAll := true
		for i := range ts {
			if !out[i].Bounded || out[i].Total > ts[i].Period {
				okAll = false
				if tight {
					setPeriod(i, out[i].Total/4)
				} else {
					setPeriod(i, out[i].Total)
				}
			}
		}
		if okAll {
			return true
		}
	}
	return false
}

// randJobs draws the jobs of every task that are launched before horizon:
// sporadic nominal releases (a phase, then at least the period apart) and
// launches after them by at most the task's jitter (none, all of it, or a
// random part). Phases are random in [0, T], or 0; with focus, one task's
// first job is launched at 0 and the others' first jobs mostly around the
// time its kernel enters the EE queue (0 or its copy in), where jobs of
// other tasks that have just started or are still copying hurt it most.
func randJobs(rng *rand.Rand, ts []Task, horizon int64, focus bool) (nominal, launch [][]int64) {
	nominal, launch = make([][]int64, len(ts)), make([][]int64, len(ts))
	f := rng.IntN(len(ts))
	entry := ts[f].CopyIn
	for i, t := range ts {
		r := rng.Int64N(t.Period + 1)
		switch {
		case focus && i == f:
			r = 0
		case focus:
			switch rng.IntN(4) {
			case 0:
				r = 0
			case 1:
				r = max(0, entry-1-rng.Int64N(3))
			case 2:
				r = rng.Int64N(entry + 2)
			}
		case rng.IntN(3) == 0:
			r = 0
		}
		for {
			a := r
			switch rng.IntN(3) {
			case 0:
				a += t.Jitter
			case 1:
				a += rng.Int64N(t.Jitter + 1)
			}
			if a >= horizon {
				break
			}
			nominal[i] = append(nominal[i], r)
			launch[i] = append(launch[i], a)
			r += t.Period
			if rng.IntN(4) == 0 {
				r += rng.Int64N(t.Period/2 + 1)
			}
		}
	}
	return nominal, launch
}

// jobCheck compares simulated jobs with their bounds and collects figures.
//
// The bounds assume that every job completes by its nominal release plus its
// period; the argument is an induction over time (package documentation), so
// a bound may only fail after the first instant at which a job is still
// running past that point. A simulated run is therefore checked up to the
// first such instant: a job that exceeds its response bound (launch + Total)
// or its kernel bound (launch + copy-in wait + copy in + kernel part) at or
// before it is a failure; later jobs are not covered by the claim.
type jobCheck struct {
	checked, tight, truncated int
	maxRatio                  float64
}

// run checks one simulated run: resp[i][k] is the response of the k-th job
// of task i from its launch, kDone[i][k] its kernel's completion time (nil:
// not known). It describes the first failure.
func (c *jobCheck) run(ts []Task, out []Response, nominal, launch, resp, kDone [][]int64) error {
	const never = int64(math.MaxInt64)
	assume, bad := never, never
	var why string
	for i := range ts {
		if len(resp[i]) != len(launch[i]) {
			return fmt.Errorf("task %d: %d responses for %d jobs", i, len(resp[i]), len(launch[i]))
		}
		kernel := out[i].CopyInWait + out[i].CopyIn + out[i].KernelIsolated + out[i].KernelQueue
		for k, r := range resp[i] {
			a := launch[i][k]
			if a+r > nominal[i][k]+ts[i].Period {
				assume = min(assume, nominal[i][k]+ts[i].Period)
			}
			if r > out[i].Total && a+out[i].Total < bad {
				bad = a + out[i].Total
				why = fmt.Sprintf("task %d job %d (released %d, launched %d): response %d > bound %+v",
					i, k, nominal[i][k], a, r, out[i])
			}
			if kDone != nil && kDone[i][k]-a > kernel && a+kernel < bad {
				bad = a + kernel
				why = fmt.Sprintf("task %d job %d (released %d, launched %d): kernel completes %d after launch > bound %d of %+v",
					i, k, nominal[i][k], a, kDone[i][k]-a, kernel, out[i])
			}
		}
	}
	if bad != never && bad <= assume {
		return fmt.Errorf("%s\ntasks %+v\nlaunches %v", why, ts, launch)
	}
	if assume != never {
		c.truncated++
	}
	for i := range ts {
		for k, r := range resp[i] {
			if launch[i][k] >= assume {
				continue
			}
			c.checked++
			if r == out[i].Total {
				c.tight++
			}
			c.maxRatio = max(c.maxRatio, float64(r)/float64(out[i].Total))
		}
	}
	return nil
}

// shorter returns a random duration in [1, x] one time in three, else x.
func shorter(rng *rand.Rand) func(int64) int64 {
	return func(x int64) int64 {
		if x > 0 && rng.IntN(3) == 0 {
			return 1 + rng.Int64N(x)
		}
		return x
	}
}

// TestSimFIFOSound: for random task sets that the analysis finds
// schedulable, with stream priorities and release jitter, no simulated job
// (any SM choice, random phases and sporadic releases, launches anywhere in
// their jitter, blocks and copies at or below their worst case) exceeds its
// response or kernel bound (see jobCheck).
func TestSimFIFOSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	var c jobCheck
	for it := range 600 {
		ts := randTasks(rng, 2+rng.IntN(4), true)
		a := &FIFOAnalyzer{Device: bigSM}
		if it%3 == 0 {
			a.Device = TX2()
		}
		if !withPeriods(rng, a, ts, it%4 != 0, false) {
			continue
		}
		out := make([]Response, len(ts))
		if err := a.Analyze(ts, out); err != nil {
			t.Fatal(err)
		}
		var maxT int64
		for _, x := range ts {
			maxT = max(maxT, x.Period)
		}
		for rep := range 4 {
			nominal, launch := randJobs(rng, ts, 12*maxT, false)
			sc := simConfig{dev: a.Device, tasks: ts, policy: fitPolicy(rep), rng: rng, releases: launch}
			if rep%2 == 1 {
				sc.blockDur, sc.copyDur = shorter(rng), shorter(rng)
			}
			r := sc.run()
			if err := c.run(ts, out, nominal, launch, r.resp, r.kDone); err != nil {
				t.Fatalf("set %d, run %d: %v", it, rep, err)
			}
		}
	}
	if c.checked < 1000 {
		t.Fatalf("only %d jobs checked", c.checked)
	}
	t.Logf("%d simulated jobs within their bounds; %d met it exactly; largest response/bound %.2f; %d runs checked only up to a job past its nominal release + period",
		c.checked, c.tight, c.maxRatio, c.truncated)
}

// TestPropertyFIFOMonotone: no task's response decreases, and no unbounded
// one becomes bounded, when a block time, a block count, a copy time or the
// release jitter of any task grows.
func TestPropertyFIFOMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	var a, b FIFOAnalyzer
	for range 2000 {
		n := 1 + rng.IntN(6)
		ts := randTasks(rng, n, true)
		randPeriods(rng, &a, ts)
		out0 := make([]Response, n)
		if err := a.Analyze(ts, out0); err != nil {
			t.Fatal(err)
		}
		g := growOne(rng, ts)
		out1 := make([]Response, n)
		if err := b.Analyze(g, out1); err != nil {
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

func TestFIFOReuseNoAlloc(t *testing.T) {
	ts := watersLike()
	var a FIFOAnalyzer
	out := make([]Response, len(ts))
	if err := a.Analyze(ts, out); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(50, func() { _ = a.Analyze(ts, out) })
	if allocs != 0 {
		t.Errorf("FIFOAnalyzer.Analyze allocates %v times per call", allocs)
	}
	var ta TimeSliceAnalyzer
	_ = ta.Analyze(ts, out)
	if allocs := testing.AllocsPerRun(50, func() { _ = ta.Analyze(ts, out) }); allocs != 0 {
		t.Errorf("TimeSliceAnalyzer.Analyze allocates %v times per call", allocs)
	}
	var s Scratch
	ks := benchKernels()
	f := make([]int64, len(ks))
	_ = s.BlockRTA(TX2(), ks, f)
	if allocs := testing.AllocsPerRun(50, func() { _ = s.BlockRTA(TX2(), ks, f) }); allocs != 0 {
		t.Errorf("Scratch.BlockRTA allocates %v times per call", allocs)
	}
}

// TestFIFOHighFirstIsOptimistic: why a low kernel with high-priority
// interference gets the workload bound and not the worst queue order with
// the high kernels moved to the front. Two slots (one SM, 1024-thread
// blocks); one-block low kernels L1 (20), L2 (100), L3 (10), B (10) enter
// the low queue at 0 in this order; the high kernel H (75) arrives at 19.
//
//	real: L1 0..20, L2 0..100; H takes the slot freed at 20: 20..95;
//	      L3 95..105; B 100..110.
//	H first, released at 0: H 0..75, L1 0..20, L2 20..120, L3 75..85,
//	      B 85..95: optimistic.
//
// Workload bound for B: H waits at most for the longest low block (100) and
// runs 75, so its reach is min(1000, 175) and jobs = ceil((L + 175)/1000) = 1:
// S* = 2, W = 20 + 100 + 10 + 1·75 + 0 = 205, L = ceil(205/2) = 103,
// kernel part 113 >= 110.
func TestFIFOHighFirstIsOptimistic(t *testing.T) {
	dev := Device{SMs: 1, ThreadsPerSM: 2048}
	one := func(name string, c int64, p Priority) Task {
		return Task{Name: name, Period: 1000, BlockTime: c, Blocks: 1, ThreadsPerBlock: 1024, Priority: p}
	}
	tasks := []Task{one("L1", 20, Low), one("L2", 100, Low), one("L3", 10, Low), one("B", 10, Low), one("H", 75, High)}
	c := simConfig{dev: dev, tasks: tasks, releases: [][]int64{{0}, {0}, {0}, {0}, {19}}}
	if got := c.run().kDone[3][0]; got != 110 {
		t.Fatalf("simulated B completes at %d, want 110", got)
	}
	hFirst := []Kernel{tasks[4].Kernel(), tasks[0].Kernel(), tasks[1].Kernel(), tasks[2].Kernel(), tasks[3].Kernel()}
	f, err := BlockRTA(dev, hFirst)
	if err != nil || f[4] != 95 {
		t.Fatalf("H first: %v %v, want B at 95", f, err)
	}
	a := FIFOAnalyzer{Device: dev}
	out := make([]Response, len(tasks))
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	if out[3].Bound != BoundWorkload || out[3].Total != 113 {
		t.Errorf("B: %+v, want the workload bound 113", out[3])
	}
}

func TestFIFOHighJobsWithReleaseJitter(t *testing.T) {
	// The case of TestFIFOHighJobsInWindow with H's jobs launched up to
	// J = 12 after their nominal release: H's reach is min(25, 12 + 20) = 25,
	// jobs = ceil((x + 25)/25).
	//   x = 0:  jobs 1, W = 7·10 + 1·80 = 150, x = ceil(150/8) = 19
	//   x = 19: jobs ceil(44/25) = 2, W = 230, x = 29
	//   x = 29: jobs ceil(54/25) = 3, W = 310, x = 39
	//   x = 39: jobs ceil(64/25) = 3, converged. Kernel part 39 + 10 = 49,
	// one job of H more than without jitter (39).
	tasks := []Task{
		{Name: "L", Period: 100, BlockTime: 10, Blocks: 8, ThreadsPerBlock: 512},
		{Name: "H", Period: 25, BlockTime: 10, Blocks: 8, ThreadsPerBlock: 512, Priority: High, Jitter: 12},
	}
	a := FIFOAnalyzer{Device: bigSM}
	out := make([]Response, 2)
	if err := a.Analyze(tasks, out); err != nil {
		t.Fatal(err)
	}
	checkResp(t, "L", out[0], Response{KernelQueue: 39, KernelIsolated: 10, Total: 49, Bounded: true, Bound: BoundWorkload})
	tasks[1].Jitter = -1
	if err := a.Analyze(tasks, out); err == nil || !strings.Contains(err.Error(), "Jitter") {
		t.Errorf("negative jitter: %v", err)
	}
}

// randPeriods gives the tasks random periods from 50 to 2049 and, to about
// half of them, a release jitter below the period; or, one time in two,
// periods close to the bounds of analyser a (withPeriods), where the jobs of
// one task in another's window are counted near a multiple of the period and
// a change of a reach shows.
func randPeriods(rng *rand.Rand, a analyzer, ts []Task) {
	if rng.IntN(2) == 0 && withPeriods(rng, a, ts, true, true) {
		return
	}
	for i := range ts {
		ts[i].Period = 50 + rng.Int64N(2000)
		ts[i].Jitter = 0
		if rng.IntN(2) == 0 {
			ts[i].Jitter = rng.Int64N(ts[i].Period)
		}
	}
}

// growOne returns a copy of ts in which one random task has a longer block
// time, more blocks, a longer copy in or out, or more release jitter: the
// change under which a response must not decrease.
func growOne(rng *rand.Rand, ts []Task) []Task {
	g := slices.Clone(ts)
	i := rng.IntN(len(g))
	switch rng.IntN(5) {
	case 0:
		g[i].BlockTime += 1 + rng.Int64N(5)
	case 1:
		g[i].Blocks += 1 + rng.IntN(10)
	case 2:
		g[i].CopyIn += 1 + rng.Int64N(5)
	case 3:
		g[i].CopyOut += 1 + rng.Int64N(5)
	case 4:
		g[i].Jitter += 1 + rng.Int64N(g[i].Period/4+1)
	}
	return g
}
