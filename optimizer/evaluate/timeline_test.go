package evaluate_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// segs writes a lane's segments as "task#job kind start–end" in µs (ps
// would hide the structure), for comparison with a hand-computed schedule.
func segs(sys *configs.System, l evaluate.TimelineLane, suspended bool) string {
	list := l.Segments
	if suspended {
		list = l.Suspended
	}
	var b strings.Builder
	for _, s := range list {
		fmt.Fprintf(&b, "%s#%d %s %s–%s\n", sys.Tasks[s.Task].Name, s.Job, s.Kind, us3(s.Start), us3(s.End))
	}
	return b.String()
}

func us3(v int64) string { return fmt.Sprintf("%.3f", float64(v)/float64(us)) }

func lane(t *testing.T, tl *evaluate.Timeline, name string) evaluate.TimelineLane {
	t.Helper()
	for _, l := range tl.Lanes {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("no lane %s", name)
	return evaluate.TimelineLane{}
}

func timeline(t *testing.T, e *evaluate.Evaluator, r *evaluate.Analysis) *evaluate.Timeline {
	t.Helper()
	tl, err := e.Timeline(r)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func wantLane(t *testing.T, sys *configs.System, tl *evaluate.Timeline, name string, suspended bool, want string) {
	t.Helper()
	if got := segs(sys, lane(t, tl, name), suspended); got != want {
		t.Errorf("%s (suspended %v):\n%s\nwant (hand computation):\n%s", name, suspended, got, want)
	}
}

// Three tasks on one core, rate-monotonic by OPA: A (1.002 ms every 5 ms)
// preempts C twice, A and B together once; C ends at 14.006 ms, which is
// its analysed R (the synchronous release is the critical instant).
func TestTimelinePreemption(t *testing.T) {
	e := evaluator(t, load(t, preemptSystem))
	r := evaluatePlaced(t, e, map[string]string{"A": "Core0", "B": "Core0", "C": "Core0"}, nil)
	tl := timeline(t, e, r)
	sys := e.Model().Config().System
	if tl.Window != 20*ms || tl.Capped || tl.Truncated {
		t.Fatalf("window %d ps, capped %v, truncated %v; want the longest period, 20 ms", tl.Window, tl.Capped, tl.Truncated)
	}
	// 0      A0 until 1.002, then B0 for 3 ms until 4.002, then C0
	// 5      A1 preempts C0 (C0 has run 0.998 ms), until 6.002
	// 10     A2 and B1 preempt C0 (3.998 ms more, 4.996 in all)
	// 11.002 B1 until 14.002, C0's last 4 µs until 14.006
	// 15     A3 until 16.002; idle until 20
	wantLane(t, sys, tl, "Core0", false, `A#0 run 0.000–1002.000
B#0 run 1002.000–4002.000
C#0 run 4002.000–5000.000
A#1 run 5000.000–6002.000
C#0 run 6002.000–10000.000
A#2 run 10000.000–11002.000
B#1 run 11002.000–14002.000
C#0 run 14002.000–14006.000
A#3 run 15000.000–16002.000
`)
	wantLane(t, sys, tl, "Core1", false, "")
	for _, j := range tl.Jobs {
		if sys.Tasks[j.Task].Name == "C" && j.Response() != task(t, r, "C").R {
			t.Errorf("C's first job responds in %d ps, want R = %d ps", j.Response(), task(t, r, "C").R)
		}
	}
	if len(tl.Jobs) != 4+2+1 {
		t.Errorf("%d jobs, want 4 of A, 2 of B, 1 of C", len(tl.Jobs))
	}
}

// An offloading task P (sync, then async) above a periodic task L on Core0;
// P's GPU task G copies in 100 lines, runs a 1 ms kernel and copies out 10
// lines (the system of TestOffloadingSyncAsyncMerged). The simulation
// charges contention only when it happens: Core1 is empty and P spins or
// is suspended while the copy engine transfers, so every line of P takes
// the 20 ns baseline and every copy line 3 ns (the analysis charges 120 ns
// and 3.5 ns).
//
//	pre-processing:  In 100 lines · 20 ns + Pre 1 ms               = 1.002 ms
//	GPU job:         100 · 3 ns + 1 ms + 10 · 3 ns                 = 1.00033 ms
//	post-processing: Res 10 · 20 ns + Post 1 ms + Out 100 · 20 ns  = 1.0022 ms
//	async adds AsyncCost 5000 ticks / 2 GHz                        = 2.5 µs
func TestTimelineOffloading(t *testing.T) {
	e := evaluator(t, load(t, challengeCount(offloadSystem)))
	sys := e.Model().Config().System
	onGPU := map[string]string{"P": "Core0", "G": "GPU", "L": "Core0"}

	// Synchronous: P spins on Core0 during the GPU job; L runs only after
	// P's post-processing, and is preempted by P's second job at 5 ms.
	// L: 3.00453–5 (1.99547 ms), then after P#1 (ends 8.00453) the
	// remaining 1.00453 ms: it ends at 9.00906 ms, below its analysed R
	// (9.05117 ms) by twice P's 21.055 µs of contention that did not occur.
	r := evaluatePlaced(t, e, onGPU, nil)
	tl := timeline(t, e, r)
	if tl.Window != 10*ms {
		t.Fatalf("window %d ps, want 10 ms", tl.Window)
	}
	wantLane(t, sys, tl, "Core0", false, `P#0 pre-processing 0.000–1002.000
P#0 busy-wait for the GPU 1002.000–2002.330
P#0 post-processing 2002.330–3004.530
L#0 run 3004.530–5000.000
P#1 pre-processing 5000.000–6002.000
P#1 busy-wait for the GPU 6002.000–7002.330
P#1 post-processing 7002.330–8004.530
L#0 run 8004.530–9009.060
`)
	wantLane(t, sys, tl, "GPU copy engine", false, `G#0 copy in 1002.000–1002.300
G#0 copy out 2002.300–2002.330
G#1 copy in 6002.000–6002.300
G#1 copy out 7002.300–7002.330
`)
	wantLane(t, sys, tl, "GPU kernels", false, `G#0 kernel 1002.300–2002.300
G#1 kernel 6002.300–7002.300
`)
	// The analysed R less the contention it charges and the simulation
	// does not see: 210 lines · 100 ns (sGPU) for P, 110 copied lines ·
	// 0.5 ns for G, and both of P's jobs' for L.
	for _, j := range tl.Jobs {
		name := sys.Tasks[j.Task].Name
		want := map[string]int64{"P": task(t, r, "P").R - 21_055*ns, "L": task(t, r, "L").R - 2*21_055*ns, "G": task(t, r, "G").R - 55*ns}[name]
		if j.Job == 0 && j.Response() != want {
			t.Errorf("%s#0 responds in %d ps, want %d ps", name, j.Response(), want)
		}
	}

	// Asynchronous: P suspends during the GPU job and L runs meanwhile.
	// P#0: pre 0–1.002, suspended 1.002–2.00233, post (2.5 µs + 1.0022 ms)
	// 2.00233–3.00703. L: 1.002–2.00233 (1.00033 ms), 3.00703–5 (1.99297),
	// then the last 6.7 µs after P#1's pre-processing: 6.002–6.0087.
	r = evaluatePlaced(t, e, onGPU, func(a *evaluate.Assignment) { a.Async[0] = true })
	tl = timeline(t, e, r)
	wantLane(t, sys, tl, "Core0", false, `P#0 pre-processing 0.000–1002.000
L#0 run 1002.000–2002.330
P#0 post-processing 2002.330–3007.030
L#0 run 3007.030–5000.000
P#1 pre-processing 5000.000–6002.000
L#0 run 6002.000–6008.700
P#1 post-processing 7002.330–8007.030
`)
	wantLane(t, sys, tl, "Core0", true, `P#0 suspended (waits for the GPU) 1002.000–2002.330
P#1 suspended (waits for the GPU) 6002.000–7002.330
`)
	if p := tl.Jobs[0]; sys.Tasks[p.Task].Name != "P" || p.Response() != task(t, r, "P").R-21_055*ns {
		t.Errorf("P#0 responds in %d ps, want %d ps", p.Response(), task(t, r, "P").R-21_055*ns)
	}

	// Merged: G runs on Core0 as one periodic task; no GPU work at all.
	r = evaluatePlaced(t, e, map[string]string{"G": "Core0", "L": "Core0"}, nil)
	tl = timeline(t, e, r)
	wantLane(t, sys, tl, "GPU kernels", false, "")
	if l := lane(t, tl, "Core0"); len(l.Segments) == 0 || sys.Tasks[l.Segments[0].Task].Name != "G" || l.Segments[0].End != 2_004*us {
		t.Errorf("merged G: %+v", l.Segments)
	}
}

// Two GPU tasks under the fifo model: a high-priority kernel waits for the
// running wave of a low-priority kernel, not for the whole kernel.
func TestTimelineGPUPriority(t *testing.T) {
	const sys2 = "name: two-gpu" + a57Units + gpuUnit + challengeMemory + `
labels:
  - {name: X, size_bytes: 64}
runnables:
  - {name: PreA, ticks: [{kind: A57, lower: 2000, upper: 2000, average: 2000}]}
  - {name: PreB, ticks: [{kind: A57, lower: 200000, upper: 200000, average: 200000}]}
  - {name: KA, ticks: [{kind: GPU_def, lower: 6000000, upper: 6000000, average: 6000000}]}
  - {name: KB, ticks: [{kind: GPU_def, lower: 1500000, upper: 1500000, average: 1500000}]}
tasks:
  - {name: PA, period: 20ms, runnables: [PreA], offload: {gpu_task: GA, wait: active, post_runnables: []}}
  - {name: GA, runnables: [KA], triggered_by: PA}
  - {name: PB, period: 20ms, runnables: [PreB], offload: {gpu_task: GB, wait: active, post_runnables: []}}
  - {name: GB, runnables: [KB], triggered_by: PB}
`
	e := evaluator(t, load(t, sys2))
	sys := e.Model().Config().System
	units := map[string]string{"PA": "Core0", "GA": "GPU", "PB": "Core1", "GB": "GPU"}
	// GA: 4 ms kernel in 1 ms waves (default geometry), submitted at 1 µs;
	// GB: 1 ms kernel, submitted at 100 µs.
	r := evaluatePlaced(t, e, units, func(a *evaluate.Assignment) { a.High[1] = true })
	tl := timeline(t, e, r)
	// GB (high) starts when GA's first wave ends, at 1.001 ms; GA resumes.
	wantLane(t, sys, tl, "GPU kernels", false, `GA#0 kernel 1.000–1001.000
GB#0 kernel 1001.000–2001.000
GA#0 kernel 2001.000–5001.000
`)
	// Both low: FIFO, GB waits for the whole of GA.
	r = evaluatePlaced(t, e, units, nil)
	tl = timeline(t, e, r)
	wantLane(t, sys, tl, "GPU kernels", false, `GA#0 kernel 1.000–4001.000
GB#0 kernel 4001.000–5001.000
`)
}

// On every mapping of the exact 3-objective WATERS front the simulated
// schedule is consistent: segments on a lane never overlap, every finished
// job ran exactly its phases, and no job responds later than its analysed
// bound.
func TestTimelineWATERSFront(t *testing.T) {
	e, out := threeObjectiveFront(t)
	for i, p := range out.Front {
		tl := timeline(t, e, p.Analysis)
		if tl.Window != 400*ms || tl.Capped {
			t.Errorf("point %d: window %d ps, want 400 ms", i+1, tl.Window)
		}
		for _, l := range tl.Lanes {
			for k := 1; k < len(l.Segments); k++ {
				if l.Segments[k].Start < l.Segments[k-1].End {
					t.Errorf("point %d, %s: %+v overlaps %+v", i+1, l.Name, l.Segments[k], l.Segments[k-1])
				}
			}
		}
		for _, j := range tl.Jobs {
			tr := &p.Analysis.Tasks[j.Task]
			if j.Finish < 0 {
				continue
			}
			if j.Response() > tr.R {
				t.Errorf("point %d: %s#%d responds in %d ps, more than its bound R = %d ps", i+1, tr.Name, j.Job, j.Response(), tr.R)
			}
			if j.Finish > j.Deadline {
				t.Errorf("point %d: %s#%d misses its deadline in the simulation", i+1, tr.Name, j.Job)
			}
		}
	}
}

var threeObjective struct {
	sync.Once
	e   *evaluate.Evaluator
	out *optimizer.Outcome
	err error
}

// threeObjectiveFront returns the exact front of
// configs/examples/waters-3obj.yaml (14 mappings), computed once for the
// tests that need it.
func threeObjectiveFront(t *testing.T) (*evaluate.Evaluator, *optimizer.Outcome) {
	t.Helper()
	threeObjective.Do(func() {
		cfg, err := configs.LoadFile("../../configs/examples/waters-3obj.yaml")
		if err != nil {
			threeObjective.err = err
			return
		}
		cfg.Search.Algorithm = configs.AlgorithmExhaustive
		if threeObjective.e, err = evaluate.NewEvaluator(cfg); err != nil {
			threeObjective.err = err
			return
		}
		threeObjective.out, threeObjective.err = optimizer.Run(context.Background(), threeObjective.e, optimizer.Options{Workers: 1})
	})
	if threeObjective.err != nil {
		t.Fatal(threeObjective.err)
	}
	if len(threeObjective.out.Front) == 0 {
		t.Fatal("empty front")
	}
	return threeObjective.e, threeObjective.out
}
