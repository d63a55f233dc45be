package syssim

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/rta/gpu"
)

// randomSystem draws a small system: 1 to 4 cores of two kinds, 1 to 3
// tasks each (some offloading), runnables with up to 300 or 5,000 lines, a GPU under
// either model, either memory mode, offsets, and a horizon of 2 ms.
func randomSystem(rng *rand.Rand) *System {
	kinds := []CoreMemory{a57, {Baseline: 8 * ns, PerCore: 2 * ns, CopyEngine: 20 * ns}}
	s := &System{CopyEngine: ce, Horizon: 2 * ms, Memory: Memory(rng.IntN(2))}
	s.GPU = &GPU{Model: GPUModel(rng.IntN(2)), Device: gpu.TX2()}
	periods := []int64{200 * us, 500 * us, ms, 2 * ms}
	runs := func() []Runnable {
		var rs []Runnable
		for range rng.IntN(3) + 1 {
			c := rng.Int64N(50 * us)
			lines := int64(300)
			if rng.IntN(3) == 0 {
				lines = 5000 // long phases, where the request mode finds cycles
			}
			rs = append(rs, Runnable{Read: rng.Int64N(lines), Write: rng.Int64N(lines), Compute: c, ComputeBest: c / 2})
		}
		return rs
	}
	id := 0
	for c := range rng.IntN(4) + 1 {
		core := Core{Name: string(rune('a' + c)), Memory: kinds[rng.IntN(2)]}
		for range rng.IntN(3) + 1 {
			id++
			t := Task{ID: id, Period: periods[rng.IntN(len(periods))], Runnables: runs()}
			t.Offset = rng.Int64N(t.Period)
			if rng.IntN(3) == 0 {
				bt := rng.Int64N(100*us) + 1
				g := GPUJob{ID: 100 + id, CopyIn: rng.Int64N(100), CopyOut: rng.Int64N(100), High: rng.IntN(2) == 0, Slice: rng.Int64N(100*us) + 1,
					Kernel: Kernel{Blocks: rng.IntN(40) + 1, ThreadsPerBlock: []int{128, 256, 512, 1024}[rng.IntN(4)], BlockTime: bt, BlockTimeBest: bt / 3,
						Time: 4 * bt, TimeBest: bt}}
				t.Offload = &Offload{Async: rng.IntN(2) == 0, GPU: g, Post: runs()}
			}
			core.Tasks = append(core.Tasks, t)
		}
		s.Cores = append(s.Cores, core)
	}
	return s
}

// Batching runs of accesses changes nothing: the batched simulation and the
// one that makes every access an event give the same jobs (times and
// contention) and the same lanes, in both memory modes, with and without
// drawn execution times and sporadic releases.
func TestPropertyBatchingIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	skips, skipped := 0, 0
	systems := 200
	if testsize.Reduced() {
		systems = 70
	}
	for i := range systems {
		s := randomSystem(rng)
		s.MaxSegments = 1 << 20
		if i%2 == 1 {
			s.Vary = &Variation{Seed: uint64(i), Exec: true, MaxDelay: 100 * us}
		}
		fast, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		s.stepAccesses = true
		slow, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast.Jobs, slow.Jobs) || !reflect.DeepEqual(fast.Lanes, slow.Lanes) || fast.End != slow.End {
			for k := range min(len(fast.Jobs), len(slow.Jobs)) {
				if fast.Jobs[k] != slow.Jobs[k] {
					t.Fatalf("system %d (%v): job %d batched %+v, access by access %+v", i, s.Memory, k, fast.Jobs[k], slow.Jobs[k])
				}
			}
			t.Fatalf("system %d (%v): %d jobs batched, %d access by access; lanes equal %v", i, s.Memory, len(fast.Jobs), len(slow.Jobs), reflect.DeepEqual(fast.Lanes, slow.Lanes))
		}
		if fast.Events > slow.Events {
			t.Errorf("system %d: batching took more events (%d) than stepping (%d)", i, fast.Events, slow.Events)
		}
		if fast.skips > 0 {
			skips += fast.skips
			skipped++
		}
	}
	// The request mode's cycle skipping must have been exercised.
	if skipped < 20*systems/200 {
		t.Errorf("cycles were skipped in %d systems only (%d times)", skipped, skips)
	}
	t.Logf("cycles skipped %d times in %d systems", skips, skipped)
}

// Work is conserved and every access obeys its bound. With worst-case
// execution times, a finished CPU job held its core (busy-waiting aside)
// for exactly its compute + lines·baseline + contention, and a GPU job held
// the copy engine for its lines·baseline + contention. An access is slowed
// at most once per other client, so a job's contention is at most
// lines·(K·(cores − 1) + sGPU), a copy's at most lines·CE.PerCore·cores.
// Segments of a lane never overlap.
func TestPropertyWorkAndContentionBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		s := randomSystem(rng)
		s.MaxSegments = 1 << 20
		r, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		held := map[[3]int]int64{} // (GPU, id, job) → time on its core or the copy engine
		for li, l := range r.Lanes {
			for k, seg := range l.Segments {
				if k > 0 && seg.Start < l.Segments[k-1].End {
					t.Fatalf("system %d, lane %d: %+v overlaps %+v", i, li, seg, l.Segments[k-1])
				}
				switch l.Kind {
				case LaneCore:
					if seg.Kind != SegmentBusyWait {
						held[[3]int{0, seg.ID, seg.Job}] += seg.End - seg.Start
					}
				case LaneCopyEngine:
					held[[3]int{1, seg.ID, seg.Job}] += seg.End - seg.Start
				}
			}
		}
		n := int64(len(s.Cores))
		for _, j := range r.Jobs {
			if j.Finish < 0 {
				continue
			}
			task := &s.Cores[j.Core].Tasks[j.Task]
			mem := s.Cores[j.Core].Memory
			var lines, compute int64
			if j.GPU {
				lines = task.Offload.GPU.CopyIn + task.Offload.GPU.CopyOut
				want := lines*s.CopyEngine.Baseline + j.Contention
				if got := held[[3]int{1, j.ID, j.Job}]; got != want {
					t.Fatalf("system %d: GPU job %d#%d held the copy engine %d ps, want %d", i, j.ID, j.Job, got, want)
				}
				if limit := lines * s.CopyEngine.PerCore * n; j.Contention > limit {
					t.Fatalf("system %d: GPU job %d#%d: contention %d ps > %d", i, j.ID, j.Job, j.Contention, limit)
				}
				continue
			}
			rs := task.Runnables
			if task.Offload != nil {
				rs = append(append([]Runnable(nil), rs...), task.Offload.Post...)
			}
			for _, rn := range rs {
				lines += rn.Read + rn.Write
				compute += rn.Compute
			}
			if got, want := held[[3]int{0, j.ID, j.Job}], compute+lines*mem.Baseline+j.Contention; got != want {
				t.Fatalf("system %d (%v): job %d#%d held its core %d ps, want %d", i, s.Memory, j.ID, j.Job, got, want)
			}
			if limit := lines * (mem.PerCore*(n-1) + mem.CopyEngine); j.Contention > limit {
				t.Fatalf("system %d: job %d#%d: contention %d ps > %d", i, j.ID, j.Job, j.Contention, limit)
			}
		}
	}
}

// The same system and seed give the same result; another seed another one.
func TestPropertyDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	differ := 0
	for i := range 50 {
		s := randomSystem(rng)
		s.Vary = &Variation{Seed: 7, Exec: true, MaxDelay: 50 * us}
		a, _ := Simulate(s)
		b, _ := Simulate(s)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("system %d: two runs differ", i)
		}
		s.Vary.Seed = 8
		c, _ := Simulate(s)
		if !reflect.DeepEqual(a.Jobs, c.Jobs) {
			differ++
		}
	}
	if differ < 40 {
		t.Errorf("only %d of 50 systems changed with the seed", differ)
	}
}

// FuzzSimulate simulates random systems drawn from the fuzzer's seeds: it
// must never panic nor fail on a valid input, and batching must stay exact.
func FuzzSimulate(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(99), uint64(0))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		s := randomSystem(rand.New(rand.NewPCG(a, b)))
		s.Horizon = 500 * us
		s.Vary = &Variation{Seed: a ^ b, Exec: b%2 == 0, MaxDelay: int64(a % uint64(us))}
		fast, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		s.stepAccesses = true
		slow, err := Simulate(s)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast.Jobs, slow.Jobs) {
			t.Fatal("batched and stepped simulations differ")
		}
	})
}
