package gpusim

import (
	"reflect"
	"strings"
	"testing"
)

const (
	us = int64(1_000)
	ms = int64(1_000_000)
)

// kern returns a kernel of n blocks of t threads running bt each.
func kern(n, t int, bt int64) Kernel {
	return Kernel{Blocks: n, ThreadsPerBlock: t, BlockTime: bt}
}

// single adds a stream and a host with one kernel launch, and returns s.
func single(s *Scenario, name string, prio Priority, at int64, k Kernel) {
	st := s.AddStream(name, prio, false)
	s.AddHost(name, KernelCall(name, st, at, k))
}

func mustSim(t *testing.T, s Scenario) Result {
	t.Helper()
	r, err := Simulate(s)
	if err != nil {
		t.Fatalf("Simulate: %v", err)
	}
	return r
}

// wantKernel checks a kernel's start and completion.
func wantKernel(t *testing.T, r Result, name string, start, completion int64) {
	t.Helper()
	k, ok := r.Kernel(name)
	if !ok {
		t.Fatalf("no kernel %q", name)
	}
	if k.Start != start || k.Completion != completion {
		t.Errorf("%s: start %v completion %v, want %v and %v", name, fmtNS(k.Start), fmtNS(k.Completion), fmtNS(start), fmtNS(completion))
	}
}

// wantBlock checks one block's SM and start.
func wantBlock(t *testing.T, r Result, name string, j, sm int, start int64) {
	t.Helper()
	for i, k := range r.Kernels {
		if k.Name != name {
			continue
		}
		b := r.KernelBlocks(i)[j]
		if b.SM != sm || b.Start != start {
			t.Errorf("%s:%d on SM%d at %v, want SM%d at %v", name, j, b.SM, fmtNS(b.Start), sm, fmtNS(start))
		}
		return
	}
	t.Fatalf("no kernel %q", name)
}

func fmtNS(v int64) string { return FormatDuration(v) }

// The worked example of gpu-block-rta.md (gmax = 8, b = 512): f = {4, 10, 12, 11}.
func TestThesisWorkedExample(t *testing.T) {
	var s Scenario
	single(&s, "t1", PriorityLow, 0, kern(2, 512, 4*ms))
	single(&s, "t2", PriorityLow, 0, kern(7, 512, 6*ms))
	single(&s, "t3", PriorityLow, 0, kern(2, 512, 6*ms))
	single(&s, "t4", PriorityLow, 0, kern(5, 512, 5*ms))
	r := mustSim(t, s)
	// t=0: t1 takes 2 of the 8 slots, t2 6 of its 7 blocks; t2 heads the EE queue.
	// t=4: t1 ends; t2:6 takes a slot (ends 10), t2 leaves the queue, t3:0 takes the other (ends 10).
	// t=6: t2:0..5 end; t3:1 (ends 12), then t4's 5 blocks (end 11).
	wantKernel(t, r, "t1", 0, 4*ms)
	wantKernel(t, r, "t2", 0, 10*ms)
	wantKernel(t, r, "t3", 4*ms, 12*ms)
	wantKernel(t, r, "t4", 6*ms, 11*ms)
}

// X1: blocks of the second kernel wait although they would fit, because the
// first kernel, at the head of the EE queue, is not fully dispatched.
func TestX1HeadOfLineBlocking(t *testing.T) {
	var s Scenario
	single(&s, "K1", PriorityLow, 0, kern(5, 768, ms))
	single(&s, "K2", PriorityLow, 0, kern(1, 256, ms))
	r := mustSim(t, s)
	// t=0: K1:0 SM0 (tie: lowest index), K1:1 SM1, K1:2 SM0, K1:3 SM1: 1536 of
	// 2048 threads used on each SM, 512 free. K1:4 (768) fits nowhere and K1
	// stays at the head of the EE queue: K2 (256 threads, which would fit)
	// may not be dispatched (X1).
	// t=1: K1:0..3 end; K1:4 goes to SM0 (2048 free on both, lowest index),
	// K1 leaves the EE queue; K2:0 goes to SM1 (2048 free > 1280).
	wantKernel(t, r, "K1", 0, 2*ms)
	wantKernel(t, r, "K2", ms, 2*ms)
	wantBlock(t, r, "K1", 0, 0, 0)
	wantBlock(t, r, "K1", 1, 1, 0)
	wantBlock(t, r, "K1", 2, 0, 0)
	wantBlock(t, r, "K1", 3, 1, 0)
	wantBlock(t, r, "K1", 4, 0, ms)
	wantBlock(t, r, "K2", 0, 1, ms)
	k2, _ := r.Kernel("K2")
	if k2.Queued != 0 || k2.Launch != 0 {
		t.Errorf("K2 entered the EE queue at %d, launched at %d; want 0 and 0", k2.Queued, k2.Launch)
	}
}

// R2: a block needs enough free threads on one SM; free threads spread over
// two SMs do not count ("one big SM" would place it).
func TestR2ThreadsPerSM(t *testing.T) {
	var s Scenario
	single(&s, "K1", PriorityLow, 0, kern(3, 768, ms))
	single(&s, "K2", PriorityLow, 0, kern(2, 896, ms))
	r := mustSim(t, s)
	// t=0: K1:0 SM0, K1:1 SM1, K1:2 SM0 (tie at 1280 free): SM0 has 512
	// free, SM1 1280. K2:0 (896) goes to SM1 (384 left). K2:1 needs 896: 512 +
	// 384 = 896 are free in total but on no single SM (R2); it waits.
	// t=1: K1 ends; K2:1 goes to SM0 (2048 free > 1152); K2 completes at 2.
	wantKernel(t, r, "K1", 0, ms)
	wantKernel(t, r, "K2", 0, 2*ms)
	wantBlock(t, r, "K2", 0, 1, 0)
	wantBlock(t, r, "K2", 1, 0, ms)
}

// R3: shared memory per SM limits placement (the sm_plot_1_2 situation).
func TestR3SharedMemory(t *testing.T) {
	var s Scenario
	k1 := kern(2, 128, ms)
	k1.SharedMemoryPerBlock = 40 << 10
	k2 := kern(1, 128, ms)
	k2.SharedMemoryPerBlock = 32 << 10
	single(&s, "K1", PriorityLow, 0, k1)
	single(&s, "K2", PriorityLow, 0, k2)
	r := mustSim(t, s)
	// t=0: K1:0 SM0, K1:1 SM1, each uses 40 of 64 KiB: 24 KiB free per SM.
	// K2:0 needs 32 KiB: threads are plenty (1920 free) but no SM has the
	// shared memory (R3). t=1: K1 ends, K2:0 goes to SM0.
	wantKernel(t, r, "K1", 0, ms)
	wantKernel(t, r, "K2", ms, 2*ms)
}

// Registers limit placement like threads and shared memory.
func TestRegisters(t *testing.T) {
	var s Scenario
	k1 := kern(4, 256, ms)
	k1.RegistersPerThread = 96 // 24,576 registers per block
	k2 := kern(1, 256, ms)
	k2.RegistersPerThread = 80 // 20,480 registers per block
	single(&s, "K1", PriorityLow, 0, k1)
	single(&s, "K2", PriorityLow, 0, k2)
	r := mustSim(t, s)
	// t=0: two K1 blocks per SM: 512 threads and 49,152 of 65,536 registers
	// used, 16,384 free. K2:0 has threads (1536 free) but needs 20,480
	// registers: it waits. t=1: K1 ends; K2:0 runs 1..2.
	wantKernel(t, r, "K1", 0, ms)
	wantKernel(t, r, "K2", ms, 2*ms)
}

// C1..C4: copies go through one FIFO CE queue, one at a time, and keep their
// stream order with the kernels.
func TestCopyEngine(t *testing.T) {
	var s Scenario
	a := s.AddStream("A", PriorityLow, false)
	b := s.AddStream("B", PriorityLow, false)
	s.AddHost("A",
		CopyCall("A.in", a, 0, 2*ms),
		KernelCall("K1", a, 0, kern(1, 256, ms)),
		CopyCall("A.out", a, 0, ms))
	s.AddHost("B", CopyCall("B.copy", b, 0, 3*ms))
	r := mustSim(t, s)
	// t=0: A.in (launched first: host A) and B.copy head their streams and
	// enter the CE queue in launch order (C1); A.in gets the CE (C2, C3).
	// t=2: A.in ends (C4); K1 heads stream A and runs 2..3; B.copy gets the CE, 2..5.
	// t=3: K1 ends; A.out heads stream A and enters the CE queue, the CE is busy.
	// t=5: B.copy ends; A.out runs 5..6.
	wantKernel(t, r, "K1", 2*ms, 3*ms)
	want := map[string][4]int64{ // launch, queued, start, end
		"A.in":   {0, 0, 0, 2 * ms},
		"B.copy": {0, 0, 2 * ms, 5 * ms},
		"A.out":  {0, 3 * ms, 5 * ms, 6 * ms},
	}
	for _, c := range r.Copies {
		w := want[c.Name]
		if got := [4]int64{c.Launch, c.Queued, c.Start, c.End}; got != w {
			t.Errorf("%s: launch/queued/start/end %v, want %v", c.Name, got, w)
		}
	}
	if r.Makespan != 6*ms {
		t.Errorf("makespan %d, want %d", r.Makespan, 6*ms)
	}
}

// N1 and N2: the NULL stream waits for earlier work of every stream, and
// later work of every stream waits for it.
func TestNullStream(t *testing.T) {
	var s Scenario
	single(&s, "K1", PriorityLow, 0, kern(1, 1024, 2*ms))
	null := s.AddStream("NULL", PriorityLow, true)
	s.AddHost("null", KernelCall("K2", null, ms/2, kern(1, 256, ms)))
	single(&s, "K3", PriorityLow, ms, kern(1, 256, ms))
	single(&s, "K4", PriorityLow, ms/4, kern(1, 256, ms))
	r := mustSim(t, s)
	// K1 0..2 on SM0. K4 (launched at 0.25, before K2) is not held back by
	// the NULL stream (N2: the NULL queue is empty): 0.25..1.25 on SM1.
	// K2 (NULL, launched 0.5) would fit, but the heads of K1's and K4's
	// streams were launched before it (N1): it enters the EE queue when K1
	// completes at 2 (K4 completed at 1.25) and runs 2..3.
	// K3 (launched 1, after K2) waits until the NULL queue is empty (N2): 3..4.
	wantKernel(t, r, "K1", 0, 2*ms)
	wantKernel(t, r, "K4", ms/4, ms/4+ms)
	wantKernel(t, r, "K2", 2*ms, 3*ms)
	wantKernel(t, r, "K3", 3*ms, 4*ms)
	k2, _ := r.Kernel("K2")
	if k2.Launch != ms/2 || k2.Queued != 2*ms {
		t.Errorf("K2 launched %d queued %d, want %d and %d", k2.Launch, k2.Queued, ms/2, 2*ms)
	}
}

// A2: high-priority kernels take every slot that frees up and starve a
// running low-priority kernel of its remaining blocks.
func TestPriorityStarvation(t *testing.T) {
	var s Scenario
	single(&s, "K1", PriorityLow, 0, kern(8, 1024, ms))
	single(&s, "K2", PriorityHigh, ms/2, kern(4, 1024, ms))
	single(&s, "K3", PriorityHigh, 3*ms/2, kern(4, 1024, ms))
	r := mustSim(t, s)
	// t=0: K1:0..3 fill both SMs (2 x 1024 each); K1:4..7 wait.
	// t=0.5: K2 (high) enters the high EE queue.
	// t=1: four slots free; the high queue is not empty (A2): K2:0..3 take
	// them, 1..2. K2 is fully dispatched, the high queue is empty, no slot is left.
	// t=1.5: K3 (high) enters the high queue.
	// t=2: K3:0..3 take the four slots, 2..3; K1 starves again.
	// t=3: K1:4..7 run 3..4.
	wantKernel(t, r, "K1", 0, 4*ms)
	wantKernel(t, r, "K2", ms, 2*ms)
	wantKernel(t, r, "K3", 2*ms, 3*ms)
}

// A2: a high-priority kernel that waits for resources also holds back a
// low-priority kernel that would fit.
func TestPriorityHighWaitingBlocksLow(t *testing.T) {
	var s Scenario
	k1 := kern(3, 1024, 2*ms)
	k1.SharedMemoryPerBlock = 32 << 10
	k2 := kern(1, 256, ms)
	k2.SharedMemoryPerBlock = 48 << 10
	single(&s, "K1", PriorityLow, 0, k1)
	single(&s, "K2", PriorityHigh, ms/4, k2)
	single(&s, "K3", PriorityLow, ms/2, kern(1, 256, ms))
	r := mustSim(t, s)
	// t=0: K1:0 SM0, K1:1 SM1, K1:2 SM0: SM0 is full, SM1 has 1024 threads
	// and 32 KiB free. t=0.25: K2 (high) needs 48 KiB: it waits.
	// t=0.5: K3 (low, 256 threads, no shared memory) would fit on SM1, but
	// the high EE queue is not empty (A2): it waits.
	// t=2: K1 ends; K2:0 on SM0, then K3:0 on SM1.
	wantKernel(t, r, "K1", 0, 2*ms)
	wantKernel(t, r, "K2", 2*ms, 3*ms)
	wantKernel(t, r, "K3", 2*ms, 3*ms)
	wantBlock(t, r, "K2", 0, 0, 2*ms)
	wantBlock(t, r, "K3", 0, 1, 2*ms)
}

// A high-priority kernel cuts ahead of low-priority kernels queued before it
// (RTSS 2017, Fig. 7), but never preempts a running block.
func TestPriorityCutsAhead(t *testing.T) {
	var s Scenario
	single(&s, "K1", PriorityLow, 0, kern(8, 1024, ms))
	single(&s, "K2", PriorityLow, ms/5, kern(4, 1024, ms))
	single(&s, "K3", PriorityHigh, 3*ms/10, kern(4, 1024, ms))
	r := mustSim(t, s)
	// t=0: K1:0..3 run 0..1. K2 queues behind K1 (low), K3 in the high queue.
	// t=1: K3 takes the four slots (1..2). t=2: K1:4..7 (2..3). t=3: K2 (3..4).
	wantKernel(t, r, "K3", ms, 2*ms)
	wantKernel(t, r, "K1", 0, 3*ms)
	wantKernel(t, r, "K2", 3*ms, 4*ms)
}

// The host program: Sync waits for the host's work, Delay sleeps after it,
// StopAt ends the host, Barrier waits for all hosts.
func TestHostProgram(t *testing.T) {
	var s Scenario
	a := s.AddStream("A", PriorityLow, false)
	b := s.AddStream("B", PriorityLow, false)
	k := kern(1, 256, ms)
	a2 := KernelCall("A2", a, 0, k)
	a2.Sync, a2.Delay = true, ms/2
	a3 := KernelCall("A3", a, 0, k)
	a3.Sync, a3.StopAt = true, 2*ms // would be called at 2.5: not issued
	s.AddHost("A", KernelCall("A1", a, 0, k), a2, a3)
	// Host B: B1 (3 ms), then B2 after a barrier that host C also reaches.
	b2 := KernelCall("B2", b, 0, k)
	b2.Sync, b2.Barrier = true, true
	s.AddHost("B", KernelCall("B1", b, 0, kern(1, 256, 3*ms)), b2)
	c := s.AddStream("C", PriorityLow, false)
	c2 := KernelCall("C2", c, 0, k)
	c2.Sync, c2.Barrier = true, true
	s.AddHost("C", KernelCall("C1", c, 0, k), c2)
	r := mustSim(t, s)
	// A1 0..1; A2 called at 1 + 0.5 = 1.5, runs 1.5..2.5; A3 would be
	// called at 2.5 >= StopAt = 2: the host stops.
	wantKernel(t, r, "A1", 0, ms)
	wantKernel(t, r, "A2", 3*ms/2, 5*ms/2)
	a3r, _ := r.Kernel("A3")
	if a3r.Issued {
		t.Errorf("A3 was issued at %d; the host should have stopped", a3r.Launch)
	}
	// C reaches the barrier at 1, B at 3: both calls are made at 3.
	wantKernel(t, r, "B2", 3*ms, 4*ms)
	wantKernel(t, r, "C2", 3*ms, 4*ms)
	if len(r.Blocks) != 6 {
		t.Errorf("%d blocks, want 6 (A3 not issued)", len(r.Blocks))
	}
}

// Blocks per SM (32 on compute capability 6.2) limit tiny blocks.
func TestBlocksPerSM(t *testing.T) {
	var s Scenario
	single(&s, "K1", PriorityLow, 0, kern(65, 32, ms))
	r := mustSim(t, s)
	// 64 blocks of one warp fit (32 per SM, 1024 threads each); the 65th waits.
	wantKernel(t, r, "K1", 0, 2*ms)
}

// Threads are allocated in whole warps: 33 threads take 64 thread slots.
func TestWarpGranularity(t *testing.T) {
	var s Scenario
	single(&s, "K1", PriorityLow, 0, kern(64, 33, ms))
	r := mustSim(t, s)
	// 64 slots per block: 32 blocks per SM by threads and by the block limit;
	// all 64 fit at once.
	wantKernel(t, r, "K1", 0, ms)
	if r.Blocks[0].Threads != 64 {
		t.Errorf("block occupies %d thread slots, want 64", r.Blocks[0].Threads)
	}
}

func TestValidation(t *testing.T) {
	base := func() Scenario {
		var s Scenario
		single(&s, "K1", PriorityLow, 0, kern(1, 256, ms))
		return s
	}
	cases := []struct {
		name string
		mod  func(*Scenario)
		want string
	}{
		{"registers per block", func(s *Scenario) {
			s.Hosts[0].Ops[0].Kernel = Kernel{Blocks: 1, ThreadsPerBlock: 1024, RegistersPerThread: 64, BlockTime: ms}
		},
			"can never run on this GPU: 65536 registers per block (1024 threads x 64), more than the 32768"},
		{"threads per block", func(s *Scenario) { s.Hosts[0].Ops[0].Kernel.ThreadsPerBlock = 2048 }, "2048 threads per block, more than the 1024"},
		{"shared memory", func(s *Scenario) { s.Hosts[0].Ops[0].Kernel.SharedMemoryPerBlock = 49153 }, "49153 B of shared memory per block, more than the 49152"},
		{"shared memory of a small SM", func(s *Scenario) {
			s.Device.SharedMemoryPerSM = 16 << 10
			s.Hosts[0].Ops[0].Kernel.SharedMemoryPerBlock = 32 << 10
		}, "more than the 16384 B of an SM"},
		{"registers per thread", func(s *Scenario) { s.Hosts[0].Ops[0].Kernel.RegistersPerThread = 256 }, "256 registers per thread"},
		{"zero blocks", func(s *Scenario) { s.Hosts[0].Ops[0].Kernel.Blocks = 0 }, "hosts[0].ops[0] (K1): blocks must be > 0"},
		{"zero block time", func(s *Scenario) { s.Hosts[0].Ops[0].Kernel.BlockTime = 0 }, "block time must be in (0,"},
		{"bad stream", func(s *Scenario) { s.Hosts[0].Ops[0].Stream = 3 }, "stream 3 does not exist"},
		{"negative at", func(s *Scenario) { s.Hosts[0].Ops[0].At = -1 }, "at must be in [0,"},
		{"zero copy", func(s *Scenario) { s.Hosts[0].Ops = append(s.Hosts[0].Ops, CopyCall("c", 0, 0, 0)) }, "copy time must be in (0,"},
		{"events", func(s *Scenario) { s.MaxEvents = 10; s.Hosts[0].Ops[0].Kernel.Blocks = 100 }, "more than 10 events"},
		{"overflow", func(s *Scenario) {
			s.Hosts[0].Ops[0].Kernel.Blocks = 1 << 20
			s.Hosts[0].Ops[0].Kernel.BlockTime = 1 << 50
		}, "add up to more than"},
		{"two NULL streams", func(s *Scenario) { s.AddStream("n1", PriorityLow, true); s.AddStream("n2", PriorityLow, true) }, "at most one NULL stream"},
		{"high NULL stream", func(s *Scenario) { s.AddStream("n1", PriorityHigh, true) }, "the NULL stream has low priority"},
		{"bad priority", func(s *Scenario) { s.Streams[0].Priority = 3 }, "priority must be -1 (high) or 0 (low)"},
		{"negative device", func(s *Scenario) { s.Device.SMs = -1 }, "device.sms: must be >= 0"},
	}
	for _, c := range cases {
		s := base()
		c.mod(&s)
		_, err := Simulate(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	var s Scenario
	for i := 0; i < 6; i++ {
		p := PriorityLow
		if i%3 == 2 {
			p = PriorityHigh
		}
		single(&s, string(rune('A'+i)), p, int64(i)*ms/3, kern(3+i, 128*(1+i%4), ms+int64(i)*us))
	}
	r1 := mustSim(t, s)
	for i := 0; i < 5; i++ {
		r2 := mustSim(t, s)
		if !reflect.DeepEqual(r1, r2) {
			t.Fatal("two runs differ")
		}
	}
}

func TestEmptyScenario(t *testing.T) {
	r := mustSim(t, Scenario{})
	if len(r.Kernels) != 0 || r.Makespan != 0 || r.Device.SMs != 2 {
		t.Errorf("unexpected result %+v", r)
	}
}
