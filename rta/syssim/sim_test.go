package syssim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/rta/gpu"
)

const (
	ns = int64(1000)
	us = 1000 * ns
	ms = 1000 * us
)

// The challenge's A57 parameters: baseline 20 ns, K 20 ns, sGPU 100 ns; and
// its copy engine: 3 ns + 0.5 ns per core.
var (
	a57 = CoreMemory{Baseline: 20 * ns, PerCore: 20 * ns, CopyEngine: 100 * ns}
	ce  = CopyEngine{Baseline: 3 * ns, PerCore: 500}
)

// reader is a task that reads lines at offset, once (a long period).
func reader(id int, lines, offset int64) Task {
	return Task{ID: id, Name: fmt.Sprintf("R%d", id), Period: ms, Offset: offset, Runnables: []Runnable{{Read: lines}}}
}

func simulate(t *testing.T, s *System) *Result {
	t.Helper()
	if s.Horizon == 0 {
		s.Horizon = ms
	}
	r, err := Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// job returns the first job (CPU or GPU) with the id.
func job(t *testing.T, r *Result, id int, gpuJob bool) Job {
	t.Helper()
	for _, j := range r.Jobs {
		if j.ID == id && j.GPU == gpuJob {
			return j
		}
	}
	t.Fatalf("no job of %d (GPU %v)", id, gpuJob)
	return Job{}
}

func wantJob(t *testing.T, r *Result, id int, gpuJob bool, response, contention int64) {
	t.Helper()
	j := job(t, r, id, gpuJob)
	if j.Response() != response || j.Contention != contention {
		t.Errorf("job %d (GPU %v): response %d ps, contention %d ps; want %d and %d (hand computation)", id, gpuJob, j.Response(), j.Contention, response, contention)
	}
}

// A job alone: 10 lines read, 1 µs, 5 lines written at the baseline:
// 10·20 ns + 1 µs + 5·20 ns = 1.3 µs.
func TestAlone(t *testing.T) {
	s := &System{Cores: []Core{{Name: "c0", Memory: a57, Tasks: []Task{{ID: 1, Period: ms, Runnables: []Runnable{{Read: 10, Compute: us, Write: 5}}}}}}}
	wantJob(t, simulate(t, s), 1, false, 1300*ns, 0)
}

// The challenge's worked example: two A57 cores read 128 B (2 lines) at the
// same time: each access overlaps the other core's phase, 2 · (20 + 20) =
// 80 ns.
func TestChallengeWorkedExample(t *testing.T) {
	for _, mode := range []Memory{PerAccess, Request} {
		s := &System{Memory: mode, Cores: []Core{{Memory: a57, Tasks: []Task{reader(1, 2, 0)}}, {Memory: a57, Tasks: []Task{reader(2, 2, 0)}}}}
		r := simulate(t, s)
		wantJob(t, r, 1, false, 80*ns, 40*ns)
		wantJob(t, r, 2, false, 80*ns, 40*ns)
	}
}

// A core joins a memory phase half-way through an access of another.
//
// Per access: c0 reads 10 lines from 0, c1 one line from 50 ns.
//
//	c0: [0,20) [20,40) alone; [40,60) is extended by K when c1 enters at 50:
//	    [40,80); [80,120) overlaps c1's access (until 90): 40 ns; then 6
//	    lines alone: 120 + 6·20 = 240 ns. Contention 2·20 = 40 ns.
//	c1: [50, 50+20+20) = [50,90): c0 is in a phase. Response 40 ns.
//
// Request: c1's one request delays one access of c0 only.
//
//	c0: [40,80) as above; [80,100) is not slowed by c1's request [50,90),
//	    which has delayed [40,80) already; then 6 lines alone:
//	    100 + 6·20 = 220 ns. Contention 20 ns.
//	c1: [50,90) (c0's request [40,80) delays it). Response 40 ns.
func TestJoinDuringAccess(t *testing.T) {
	for _, c := range []struct {
		mode      Memory
		r0, cont0 int64
		r1, cont1 int64
	}{
		{PerAccess, 240 * ns, 40 * ns, 40 * ns, 20 * ns},
		{Request, 220 * ns, 20 * ns, 40 * ns, 20 * ns},
	} {
		s := &System{Memory: c.mode, Cores: []Core{{Memory: a57, Tasks: []Task{reader(1, 10, 0)}}, {Memory: a57, Tasks: []Task{reader(2, 1, 50*ns)}}}}
		r := simulate(t, s)
		t.Run(c.mode.String(), func(t *testing.T) {
			wantJob(t, r, 1, false, c.r0, c.cont0)
			wantJob(t, r, 2, false, c.r1, c.cont1)
		})
	}
}

// A preempted access pauses and keeps its charges; the phase boundaries are
// half-open.
//
// c0: L (low) reads 3 lines from 0; H (high, 90 ns) computes 100 ns.
// c1: X reads 10 lines from 0.
//
//	L: [0,40) [40,80) [80,...) each charged K for c1; H preempts at 90 with
//	   30 ns of the access left; H runs [90,190); L resumes at 190 and ends
//	   at 220 (c1 is charged already). Response 220 ns, contention 60 ns.
//	X: [0,40) [40,80) [80,120) charged for c0 (which leaves at 90); alone
//	   [120,140) [140,160) [160,180); [180,200) is extended by K when L
//	   resumes at 190: [180,220); at 220 L's phase ends, so the last 3 are
//	   alone: 220 + 3·20 = 280 ns. Contention 4·20 = 80 ns.
func TestPreemptedAccessPauses(t *testing.T) {
	s := &System{Cores: []Core{
		{Memory: a57, Tasks: []Task{{ID: 9, Period: ms, Offset: 90 * ns, Runnables: []Runnable{{Compute: 100 * ns}}}, reader(1, 3, 0)}},
		{Memory: a57, Tasks: []Task{reader(2, 10, 0)}},
	}}
	r := simulate(t, s)
	wantJob(t, r, 1, false, 220*ns, 60*ns)
	wantJob(t, r, 2, false, 280*ns, 80*ns)
	wantJob(t, r, 9, false, 100*ns, 0)
}

// The copy engine slows a core's access by sGPU, and a core in a memory
// phase slows a copy line by the copy engine's per-core term.
//
// c0: P offloads (no pre-processing): its GPU job copies in 10 lines, then
// runs one block of 1 µs. c1: Q reads 100 lines from 0.
//
//	copy in: 10 lines · (3 + 0.5) ns = 35 ns (Q is in a phase), [0,35);
//	         contention 10 · 0.5 = 5 ns.
//	kernel:  [35, 1035); the GPU job responds in 1035 ns.
//	Q:       [0, 20+100) (the copy engine transfers), then 99 · 20 ns alone:
//	         120 + 1980 = 2100 ns; contention 100 ns.
func TestCopyEngineContention(t *testing.T) {
	for _, async := range []bool{false, true} {
		p := Task{ID: 1, Period: ms, Offload: &Offload{Async: async, GPU: GPUJob{ID: 11, CopyIn: 10,
			Kernel: Kernel{Blocks: 1, ThreadsPerBlock: 256, BlockTime: us}}}}
		s := &System{CopyEngine: ce, GPU: &GPU{Device: gpu.TX2()}, Cores: []Core{{Memory: a57, Tasks: []Task{p}}, {Memory: a57, Tasks: []Task{reader(2, 100, 0)}}}}
		r := simulate(t, s)
		wantJob(t, r, 11, true, 1035*ns, 5*ns)
		wantJob(t, r, 1, false, 1035*ns, 0)
		wantJob(t, r, 2, false, 2100*ns, 100*ns)
	}
}

// Synchronous offloading spins on the core (a more urgent job preempts the
// spinning one); asynchronous offloading frees it.
//
// c0: H (most urgent, from 2 µs, 1 µs), P (pre 1 µs, a 3 µs block, post
// 1 µs), L (least urgent, 2 µs).
//
//	sync:  P pre [0,1), spins [1,2), H [2,3), spins [3,4), post [4,5);
//	       L [5,7). R_P = 5 µs, R_L = 7 µs, R_H = 1 µs.
//	async: P pre [0,1), suspended [1,4); L [1,2), H [2,3), L [3,4): L ends
//	       at 4 µs; P post [4,5). R_P = 5 µs, R_L = 4 µs.
func TestOffloadingModes(t *testing.T) {
	for _, c := range []struct {
		async  bool
		rl     int64
		core0  string
		waited string
	}{
		{false, 7 * us, "P#0 pre 0–1, P#0 busy-wait 1–2, H#0 run 2–3, P#0 busy-wait 3–4, P#0 post 4–5, L#0 run 5–7", ""},
		{true, 4 * us, "P#0 pre 0–1, L#0 run 1–2, H#0 run 2–3, L#0 run 3–4, P#0 post 4–5", "P#0 suspended 1–4"},
	} {
		p := Task{ID: 1, Name: "P", Period: ms, Runnables: []Runnable{{Compute: us}},
			Offload: &Offload{Async: c.async, GPU: GPUJob{ID: 11, Kernel: Kernel{Blocks: 1, ThreadsPerBlock: 256, BlockTime: 3 * us}}, Post: []Runnable{{Compute: us}}}}
		h := Task{ID: 2, Name: "H", Period: ms, Offset: 2 * us, Runnables: []Runnable{{Compute: us}}}
		l := Task{ID: 3, Name: "L", Period: ms, Runnables: []Runnable{{Compute: 2 * us}}}
		s := &System{CopyEngine: ce, GPU: &GPU{Device: gpu.TX2()}, MaxSegments: 100, Horizon: 10 * us,
			Cores: []Core{{Memory: a57, Tasks: []Task{h, p, l}}}}
		r := simulate(t, s)
		wantJob(t, r, 1, false, 5*us, 0)
		wantJob(t, r, 2, false, us, 0)
		wantJob(t, r, 3, false, c.rl, 0)
		names := map[int]string{1: "P", 2: "H", 3: "L", 11: "G"}
		if got := lanes(r.Lanes[0].Segments, names); got != c.core0 {
			t.Errorf("async %v: core 0\n got %s\nwant %s", c.async, got, c.core0)
		}
		if got := lanes(r.Lanes[0].Suspended, names); got != c.waited {
			t.Errorf("async %v: suspended\n got %s\nwant %s", c.async, got, c.waited)
		}
		if got := lanes(r.Lanes[2].Segments, names); got != "G#0 kernel 1–4" {
			t.Errorf("async %v: GPU %s", c.async, got)
		}
	}
}

var kindNames = map[SegmentKind]string{SegmentRun: "run", SegmentPre: "pre", SegmentBusyWait: "busy-wait", SegmentSuspended: "suspended",
	SegmentPost: "post", SegmentCopyIn: "copy-in", SegmentKernel: "kernel", SegmentCopyOut: "copy-out"}

// lanes writes segments as "name#job kind start–end" in µs.
func lanes(segs []Segment, names map[int]string) string {
	var parts []string
	for _, s := range segs {
		parts = append(parts, fmt.Sprintf("%s#%d %s %s–%s", names[s.ID], s.Job, kindNames[s.Kind], usStr(s.Start), usStr(s.End)))
	}
	return strings.Join(parts, ", ")
}

func usStr(v int64) string {
	if v%us == 0 {
		return fmt.Sprint(v / us)
	}
	return fmt.Sprintf("%.3f", float64(v)/float64(us))
}

// gpuTask is an offloading task with no CPU work that submits a kernel at
// offset.
func gpuTask(id int, offset int64, k Kernel, high bool, slice int64) Task {
	return Task{ID: id, Period: 1000 * ms, Offset: offset, Offload: &Offload{GPU: GPUJob{ID: 10 + id, Kernel: k, High: high, Slice: slice}}}
}

// Blocks go to SM slots by the TX2 rules. A (low): 6 blocks of 1024
// threads, 1 µs each: 4 fit on the 2 SMs of 2048 threads. B (high, at
// 0.5 µs): 2 blocks; it waits for free slots, then takes them first (A2).
//
//	[0,1)  A's blocks 0–3;  1: they end, B's 2 blocks and A's last 2 go on.
//	B ends at 2 µs (responds in 1.5 µs), A at 2 µs.
//
// With B low instead, FIFO: A's last 2 blocks go first at 1 µs and B's 2
// blocks fit beside them: the same ends.
// With B's blocks needing 48 KiB of shared memory (one per SM of 64 KiB)
// and 3 of them, high: at 1 µs B's first two take one SM each; its third
// fits nowhere, and as the head of the high queue it holds A back (A2). At
// 2 µs B's third goes to SM0 and A's last two beside it and on SM1: B ends
// at 3 µs (responds in 2.5 µs), A at 3 µs.
func TestFIFOBlockDispatch(t *testing.T) {
	a := Kernel{Blocks: 6, ThreadsPerBlock: 1024, BlockTime: us}
	for _, c := range []struct {
		name   string
		b      Kernel
		high   bool
		ra, rb int64
	}{
		{"high", Kernel{Blocks: 2, ThreadsPerBlock: 1024, BlockTime: us}, true, 2 * us, 1500 * ns},
		{"low", Kernel{Blocks: 2, ThreadsPerBlock: 1024, BlockTime: us}, false, 2 * us, 1500 * ns},
		{"high-whole-SM", Kernel{Blocks: 3, ThreadsPerBlock: 1024, BlockTime: us, SharedMemPerBlock: 48 << 10}, true, 3 * us, 2500 * ns},
	} {
		s := &System{CopyEngine: ce, GPU: &GPU{Device: gpu.TX2()}, Cores: []Core{
			{Memory: a57, Tasks: []Task{gpuTask(1, 0, a, false, 0)}}, {Memory: a57, Tasks: []Task{gpuTask(2, 500*ns, c.b, c.high, 0)}}}}
		r := simulate(t, s)
		t.Run(c.name, func(t *testing.T) {
			wantJob(t, r, 11, true, c.ra, 0)
			wantJob(t, r, 12, true, c.rb, 0)
		})
	}
}

// Time slices: A needs 3 ms, B (from 0.5 ms) 1 ms, both with 1 ms slices.
//
//	A [0,1); its slice ends with B waiting: B [1,2) completes; A [2,4).
func TestTimeSlice(t *testing.T) {
	s := &System{CopyEngine: ce, GPU: &GPU{Model: TimeSlice}, MaxSegments: 100, Horizon: 10 * ms, Cores: []Core{
		{Memory: a57, Tasks: []Task{gpuTask(1, 0, Kernel{Time: 3 * ms}, false, ms)}},
		{Memory: a57, Tasks: []Task{gpuTask(2, 500*us, Kernel{Time: ms}, false, ms)}}}}
	r := simulate(t, s)
	wantJob(t, r, 11, true, 4*ms, 0)
	wantJob(t, r, 12, true, 1500*us, 0)
	if got := lanes(r.Lanes[3].Segments, map[int]string{11: "A", 12: "B"}); got != "A#0 kernel 0–1000, B#0 kernel 1000–2000, A#0 kernel 2000–4000" {
		t.Errorf("GPU lane %s", got)
	}
}

// MaxInterferingCores caps the cores counted per access: three A57 cores read
// 2 lines together; with the cap 1, each access takes 20 + 20 ns, not
// 20 + 2·20.
func TestInterferenceCap(t *testing.T) {
	for _, c := range []struct {
		limit int
		r     int64
	}{{0, 120 * ns}, {1, 80 * ns}} {
		s := &System{MaxInterferingCores: c.limit, Cores: []Core{{Memory: a57, Tasks: []Task{reader(1, 2, 0)}},
			{Memory: a57, Tasks: []Task{reader(2, 2, 0)}}, {Memory: a57, Tasks: []Task{reader(3, 2, 0)}}}}
		wantJob(t, simulate(t, s), 1, false, c.r, c.r-40*ns)
	}
}

// Periodic releases with offsets; jobs of one task run in release order,
// and the window cuts what has not finished.
func TestReleasesAndWindow(t *testing.T) {
	s := &System{Horizon: 10 * us, End: 10 * us, Cores: []Core{{Memory: a57, Tasks: []Task{
		{ID: 1, Period: 4 * us, Offset: us, Runnables: []Runnable{{Compute: 3 * us}}},
		{ID: 2, Period: 20 * us, Runnables: []Runnable{{Compute: 5 * us}}}}}}}
	r := simulate(t, s)
	// T1 at 1, 5, 9 µs (3 µs each); T2 at 0: [0,1), [4,5), [8,9) → 3 of its
	// 5 µs by 10 µs, unfinished.
	var got []string
	for _, j := range r.Jobs {
		finish := "-"
		if j.Finish >= 0 {
			finish = usStr(j.Finish)
		}
		got = append(got, fmt.Sprintf("%d#%d %s→%s", j.ID, j.Job, usStr(j.Release), finish))
	}
	want := "2#0 0→-, 1#0 1→4, 1#1 5→8, 1#2 9→-"
	if strings.Join(got, ", ") != want {
		t.Errorf("jobs %s, want %s", strings.Join(got, ", "), want)
	}
	if r.End != 10*us || r.Truncated {
		t.Errorf("end %d, truncated %v", r.End, r.Truncated)
	}
}

func TestValidation(t *testing.T) {
	good := func() *System {
		return &System{Horizon: ms, CopyEngine: ce, GPU: &GPU{Device: gpu.TX2()}, Cores: []Core{{Name: "c0", Memory: a57, Tasks: []Task{
			{Name: "P", Period: ms, Offload: &Offload{GPU: GPUJob{Name: "G", Kernel: Kernel{Blocks: 1, ThreadsPerBlock: 256, BlockTime: us}}}}}}}}
	}
	if _, err := Simulate(good()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*System)
		want string
	}{
		{func(s *System) { s.Cores[0].Tasks[0].Period = 0 }, "cores[0] (c0): tasks[0] (P): period 0 ps"},
		{func(s *System) { s.Cores[0].Memory.Baseline = -1 }, "cores[0] (c0) memory baseline -1 ps"},
		{func(s *System) { s.Cores[0].Tasks[0].Runnables = []Runnable{{Compute: 5, ComputeBest: 6}} }, "runnables[0]: best compute time 6 ps"},
		{func(s *System) { s.Cores[0].Tasks[0].Offload.GPU.Kernel.ThreadsPerBlock = 4096 }, "GPU job G: a block of 4096 threads"},
		{func(s *System) { s.Cores[0].Tasks[0].Offload.GPU.Kernel.BlockTime = 0 }, "GPU job G: block time 0 ps"},
		{func(s *System) { s.GPU = nil }, "GPU job G: the system has no GPU"},
		{func(s *System) { s.GPU.Model = TimeSlice; s.Cores[0].Tasks[0].Offload.GPU.Kernel.Time = us }, "time slice 0 ps"},
		{func(s *System) { s.End = 1 }, "end 1 ps is not in [horizon"},
		{func(s *System) { s.Memory = 7 }, "memory mode"},
		{func(s *System) { s.Cores[0].Tasks[0].Offload.Post = []Runnable{{Read: -1}} }, "post-processing[0]: lines read -1"},
		{func(s *System) { s.Cores = make([]Core, 64) }, "64 cores"},
	} {
		s := good()
		c.edit(s)
		_, err := Simulate(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}
