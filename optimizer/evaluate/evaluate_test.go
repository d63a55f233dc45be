package evaluate_test

import (
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// Time units in picoseconds, for the hand computations below.
const (
	ps = int64(1)
	ns = 1000 * ps
	us = 1000 * ns
	ms = 1000 * us
)

const a57Units = `
units:
  - {name: Core0, kind: A57, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}
  - {name: Core1, kind: A57, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}
`

const gpuUnit = `
  - name: GPU
    kind: GPU_def
    type: gpu
    frequency: 1500MHz
    read_latency_cycles: 5
    write_latency_cycles: 5
    gpu: {sms: 2, cores_per_sm: 128, threads_per_sm: 2048, shared_memory_per_sm: 65536, registers_per_sm: 65536, copy_engines: 1, max_threads_per_block: 1024, max_shared_memory_per_block: 49152}
`

// The challenge's contention values.
const challengeMemory = `
memory:
  line_size: 64
  cores:
    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
`

// challengeCount pins a configuration to the challenge's contention count,
// for the hand computations of the challenge's model (C includes every
// access's contention, and R builds on C).
func challengeCount(yaml string) string { return yaml + "analysis: {contention: challenge}\n" }

func load(t *testing.T, yaml string) *configs.Config {
	t.Helper()
	cfg, err := configs.Load(strings.NewReader(yaml), "test.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func evaluator(t *testing.T, cfg *configs.Config) *evaluate.Evaluator {
	t.Helper()
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// evaluatePlaced places tasks (task → unit; "" leaves a task unplaced) and
// evaluates.
func evaluatePlaced(t *testing.T, e *evaluate.Evaluator, units map[string]string, edit func(*evaluate.Assignment)) *evaluate.Analysis {
	t.Helper()
	a := place(t, e, units)
	if edit != nil {
		edit(a)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	return r
}

func place(t *testing.T, e *evaluate.Evaluator, units map[string]string) *evaluate.Assignment {
	t.Helper()
	a := e.NewAssignment()
	sys := e.Model().Config().System
	for task, unit := range units {
		i, u := -1, -1
		for k := range sys.Tasks {
			if sys.Tasks[k].Name == task {
				i = k
			}
		}
		for k := range sys.Units {
			if sys.Units[k].Name == unit {
				u = k
			}
		}
		if i < 0 || u < 0 {
			t.Fatalf("unknown task %q or unit %q", task, unit)
		}
		a.Unit[i] = u
	}
	return a
}

func task(t *testing.T, r *evaluate.Analysis, name string) *evaluate.TaskResult {
	t.Helper()
	tr := r.Task(name)
	if tr == nil {
		t.Fatalf("no task %s", name)
	}
	return tr
}

func wantTime(t *testing.T, what string, got, want int64) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d ps, want %d ps (hand computation)", what, got, want)
	}
}

// The challenge's worked example: a task on an A57 core reads 128 B. With
// #C = 0 and bGPU = 0 the read phase takes 2 lines · 20 ns = 40 ns; with one
// interfering core 2 · (20 + 20) = 80 ns.
func TestChallenge128ByteExample(t *testing.T) {
	cfg := load(t, "name: example"+a57Units+challengeMemory+`
labels:
  - {name: L128, size_bytes: 128}
  - {name: X, size_bytes: 64}
runnables:
  - {name: ReadL, ticks: [{kind: A57, lower: 2000, upper: 2000, average: 2000}], reads: [L128]}
  - {name: WriteX, ticks: [{kind: A57, lower: 2000, upper: 2000, average: 2000}], writes: [X]}
tasks:
  - {name: A, period: 1ms, runnables: [ReadL]}
  - {name: B, period: 1ms, runnables: [WriteX]}
`)
	e := evaluator(t, cfg)

	// B on A's core: no other core accesses memory, #C = 0, no GPU: bGPU = 0.
	r := evaluatePlaced(t, e, map[string]string{"A": "Core0", "B": "Core0"}, nil)
	a := task(t, r, "A")
	wantTime(t, "A's memory term, #C = 0", a.Memory+a.Contention, 40*ns)
	// C = 40 ns + 2000 ticks / 2 GHz = 40 ns + 1 µs.
	wantTime(t, "A's C, #C = 0", a.C, 1*us+40*ns)
	if r.Units[0].InterferingCores != 0 || r.CopyEngineActive {
		t.Errorf("#C = %d, bGPU = %v; want 0, false", r.Units[0].InterferingCores, r.CopyEngineActive)
	}

	// B on the other core, which then accesses memory: #C = 1 for Core0.
	r = evaluatePlaced(t, e, map[string]string{"A": "Core0", "B": "Core1"}, nil)
	a = task(t, r, "A")
	wantTime(t, "A's memory term, #C = 1", a.Memory+a.Contention, 80*ns)
	wantTime(t, "A's uncontended memory", a.Memory, 40*ns)
	wantTime(t, "A's contention", a.Contention, 40*ns)
	wantTime(t, "A's C, #C = 1", a.C, 1*us+80*ns)
	wantTime(t, "A's R, alone on its core", a.R, a.C)
	// B writes one line: 20 + 20 = 40 ns.
	wantTime(t, "B's C", task(t, r, "B").C, 1*us+40*ns)
}

// EKF alone on Core2 while two other cores (Core3, Core4) access memory and
// the copy engine is active (the GPU tasks on the GPU copy).
func TestWATERSTaskAloneUnderContention(t *testing.T) {
	e := watersEvaluator(t)
	units := map[string]string{
		"EKF": "Core2",
		// every other task with label accesses on Core3 or Core4
		"DASM": "Core3", "CANbus_polling": "Core3", "Planner": "Core3", "Lidar_Grabber": "Core4",
		"PRE_SFM_gpu_POST": "Core3", "PRE_Localization_gpu_POST": "Core4",
		"PRE_Lane_detection_gpu_POST": "Core4", "PRE_Detection_gpu_POST": "Core4",
		// OS_Overhead has no label accesses: Core0 does not count in #C
		"OS_Overhead": "Core0",
		"SFM":         "GP10B", "Localization": "GP10B", "Lane_detection": "GP10B", "Detection": "GP10B",
	}
	r := evaluatePlaced(t, e, units, nil)
	// EKF_Function reads Vehicle_status_host, x_car_host, y_car_host,
	// yaw_car_host and writes x_car_host, y_car_host, yaw_car_host, vel_car,
	// yaw_rate: 9 labels of 1000 B, ceil(1000/64) = 16 lines each, 144 lines.
	// A57 with #C = 2 and bGPU = 1: 20 + 20·2 + 100 = 160 ns per line:
	// 144 · 160 ns = 23.04 µs. Execute: 9 519 340 ticks / 2 GHz = 4 759 670 ns.
	ekf := task(t, r, "EKF")
	if got := r.Units[2].InterferingCores; got != 2 || !r.CopyEngineActive {
		t.Fatalf("Core2: #C = %d, bGPU = %v; want 2, true", got, r.CopyEngineActive)
	}
	wantTime(t, "EKF lines", ekf.Lines, 144)
	wantTime(t, "EKF line latency", r.Units[2].LineLatency, 160*ns)
	wantTime(t, "EKF compute", ekf.Compute, 4_759_670*ns)
	wantTime(t, "EKF memory (20 ns per line)", ekf.Memory, 144*20*ns)
	wantTime(t, "EKF contention (140 ns per line)", ekf.Contention, 144*140*ns)
	wantTime(t, "EKF C", ekf.C, 4_759_670*ns+23_040*ns)
	wantTime(t, "EKF R (alone on its core)", ekf.R, ekf.C)
	if ekf.Verdict != evaluate.Meets || ekf.Priority != 1 {
		t.Errorf("EKF verdict %v, priority %d", ekf.Verdict, ekf.Priority)
	}

	// Fixing #C = 2 and bGPU = 1 in the configuration gives the same.
	cfg, _ := configs.Default()
	two, on := 2, true
	cfg.Analysis.InterferingCores, cfg.Analysis.CopyEngineActive = &two, &on
	r2 := evaluatePlaced(t, evaluator(t, cfg), units, nil)
	wantTime(t, "EKF C with #C fixed to 2", task(t, r2, "EKF").C, ekf.C)
}

// The 3-task core of the tests below: A (T = 5 ms, 1 ms of ticks, reads a
// 6400-byte label), B (T = 10 ms, 3 ms), C (T = 20 ms, 5 ms).
const preemptSystem = "name: preemption" + a57Units + challengeMemory + `
labels:
  - {name: In, size_bytes: 6400}
runnables:
  - {name: FA, ticks: [{kind: A57, lower: 2000000, upper: 2000000, average: 2000000}], reads: [In]}
  - {name: FB, ticks: [{kind: A57, lower: 6000000, upper: 6000000, average: 6000000}]}
  - {name: FC, ticks: [{kind: A57, lower: 10000000, upper: 10000000, average: 10000000}]}
tasks:
  - {name: A, period: 5ms, runnables: [FA]}
  - {name: B, period: 10ms, runnables: [FB]}
  - {name: C, period: 20ms, runnables: [FC]}
`

func TestPreemptionTwoAndThreeTasks(t *testing.T) {
	e := evaluator(t, load(t, preemptSystem))
	// C_A = 100 lines · 20 ns (#C = 0: the other core has no label access;
	// no GPU) + 2 000 000 ticks / 2 GHz = 2 µs + 1 ms = 1.002 ms.
	// C_B = 3 ms, C_C = 5 ms (no labels).

	// Two tasks on Core0 (C alone on Core1):
	//   R_A = 1.002 ms
	//   R_B = 3 + ⌈R/5⌉·1.002: 4.002 → ⌈4.002/5⌉ = 1 → R_B = 4.002 ms.
	r := evaluatePlaced(t, e, map[string]string{"A": "Core0", "B": "Core0", "C": "Core1"}, nil)
	wantTime(t, "C_A", task(t, r, "A").C, 1_002*us)
	wantTime(t, "R_A", task(t, r, "A").R, 1_002*us)
	wantTime(t, "R_B (two tasks)", task(t, r, "B").R, 4_002*us)
	wantTime(t, "R_C (alone)", task(t, r, "C").R, 5*ms)

	// Three tasks on Core0:
	//   R_C = 5 + ⌈R/5⌉·1.002 + ⌈R/10⌉·3:
	//   w0 = 5 + 1.002 + 3 = 9.002 → 5 + 2·1.002 + 1·3 = 10.004
	//   → ⌈10.004/5⌉ = 3, ⌈10.004/10⌉ = 2 → 5 + 3.006 + 6 = 14.006
	//   → ⌈14.006/5⌉ = 3, ⌈14.006/10⌉ = 2 → R_C = 14.006 ms ≤ 20 ms.
	r = evaluatePlaced(t, e, map[string]string{"A": "Core0", "B": "Core0", "C": "Core0"}, nil)
	wantTime(t, "R_A (three tasks)", task(t, r, "A").R, 1_002*us)
	wantTime(t, "R_B (three tasks)", task(t, r, "B").R, 4_002*us)
	wantTime(t, "R_C (three tasks)", task(t, r, "C").R, 14_006*us)
	if !r.Schedulable || task(t, r, "A").Priority != 3 || task(t, r, "C").Priority != 1 {
		t.Errorf("schedulable %v, priorities A %d C %d; want true, 3, 1 (OPA finds rate-monotonic here)", r.Schedulable, task(t, r, "A").Priority, task(t, r, "C").Priority)
	}
	// Utilisation 1.002/5 + 3/10 + 5/20 = 0.2004 + 0.3 + 0.25 = 0.7504.
	if u := r.Units[0].Utilisation; u < 0.7504-1e-9 || u > 0.7504+1e-9 {
		t.Errorf("utilisation %v, want 0.7504", u)
	}

	// Explicit priorities from a mapping: C most urgent. Then
	//   R_C = 5 ms; R_A = 1.002 + ⌈R/20⌉·5 = 6.002 ms > T_A = 5 ms:
	//   the single-job analysis is no bound past the period (NoBound), and
	//   the reason names no response time (6.002 ms is no bound).
	r = evaluatePlaced(t, e, map[string]string{"A": "Core0", "B": "Core0", "C": "Core0"}, func(a *evaluate.Assignment) {
		a.Priority[0], a.Priority[1], a.Priority[2] = 2, 1, 3
	})
	wantTime(t, "R_C (explicit, top)", task(t, r, "C").R, 5*ms)
	wantTime(t, "R_A (explicit, below C)", task(t, r, "A").R, 6_002*us)
	if v := task(t, r, "A").Verdict; v != evaluate.NoBound || r.Schedulable {
		t.Errorf("A: %v, schedulable %v; want NoBound, false", v, r.Schedulable)
	}
	if !task(t, r, "A").Explicit || task(t, r, "A").Priority != 2 || r.Units[0].Policy != rta.Explicit {
		t.Errorf("explicit priorities not used: %+v", task(t, r, "A"))
	}
	if got := strings.Join(r.Reasons(), "\n"); !strings.Contains(got, "A on Core0: no bound: its response-time iteration passes the period 5 ms") || strings.Contains(got, "6.002") {
		t.Errorf("reasons:\n%s", got)
	}
}

// One offloading task P (T = 5 ms) and a periodic task L (T = 10 ms, 3 ms)
// on Core0; P's GPU task G copies in 100 lines, runs a 1 ms kernel and copies
// out 10 lines.
const offloadSystem = "name: offload" + a57Units + gpuUnit + challengeMemory + `
labels:
  - {name: In, size_bytes: 6400}
  - {name: InDev, size_bytes: 6400}
  - {name: ResDev, size_bytes: 640}
  - {name: Res, size_bytes: 640}
  - {name: Out, size_bytes: 6400}
runnables:
  - {name: Pre, ticks: [{kind: A57, lower: 1000000, upper: 2000000, average: 1500000}], reads: [In]}
  - {name: Post, ticks: [{kind: A57, lower: 1000000, upper: 2000000, average: 1500000}], reads: [Res], writes: [Out]}
  - {name: AsyncCost, ticks: [{kind: A57, lower: 5000, upper: 5000, average: 5000}]}
  - {name: H2D, reads: [In], writes: [InDev]}
  - {name: Kernel, ticks: [{kind: GPU_def, lower: 750000, upper: 1500000, average: 1000000}, {kind: A57, lower: 4000000, upper: 4000000, average: 4000000}]}
  - {name: D2H, reads: [ResDev], writes: [Res]}
  - {name: LowF, ticks: [{kind: A57, lower: 6000000, upper: 6000000, average: 6000000}]}
tasks:
  - name: P
    period: 5ms
    runnables: [Pre]
    offload: {gpu_task: G, wait: active, async_runnables: [AsyncCost], post_runnables: [Post]}
  - {name: G, runnables: [H2D, Kernel, D2H], triggered_by: P}
  - {name: L, period: 10ms, runnables: [LowF]}
`

func TestOffloadingSyncAsyncMerged(t *testing.T) {
	e := evaluator(t, load(t, challengeCount(offloadSystem)))
	onGPU := map[string]string{"P": "Core0", "G": "GPU", "L": "Core0"}

	// Contention: only Core0 accesses memory, so #C = 0 for Core0 and 1 for
	// the copy engine; G copies, so bGPU = 1.
	//   A57 line: 20 + 0 + 100 = 120 ns. Copy-engine line: 3 + 0.5 = 3.5 ns.
	// P: Pre reads In (100 lines), Post reads Res (10) and writes Out (100):
	//   210 lines · 120 ns = 25.2 µs; execute 2·(2 000 000 / 2 GHz) = 2 ms.
	// G: copy in max(100 read, 100 written) = 100 lines · 3.5 ns = 350 ns;
	//   kernel 1 500 000 / 1.5 GHz = 1 ms (one wave of 16 blocks of 1 ms);
	//   copy out 10 lines · 3.5 ns = 35 ns. Alone on the GPU, no queueing:
	//   R_gpu = 350 ns + 1 ms + 35 ns = 1.000385 ms.
	const rGPU = 1*ms + 385*ns

	// Synchronous (the model's wait mode): C_P = 2 ms + 25.2 µs + R_gpu
	//   = 3.025585 ms; R_P = C_P (highest priority).
	//   R_L = 3 + ⌈R/5⌉·3.025585: 6.025585 → ⌈6.03/5⌉ = 2 → 9.05117 ms.
	r := evaluatePlaced(t, e, onGPU, nil)
	p, l, g := task(t, r, "P"), task(t, r, "L"), r.GPUTask("G")
	if p.Role != evaluate.OffloadSync {
		t.Fatalf("P's role %v, want synchronous (the model's active wait)", p.Role)
	}
	wantTime(t, "R_gpu", g.Response.Total, rGPU)
	wantTime(t, "copy in", g.Response.CopyIn, 350*ns)
	wantTime(t, "copy out", g.Response.CopyOut, 35*ns)
	wantTime(t, "kernel", g.Response.KernelIsolated, 1*ms)
	wantTime(t, "P's GPU wait", p.GPUWait, rGPU)
	wantTime(t, "C_P sync", p.C, 2*ms+25_200*ns+rGPU)
	wantTime(t, "R_P sync", p.R, 3_025_585*ns)
	wantTime(t, "R_L sync", l.R, 9_051_170*ns)
	wantTime(t, "G's R (the GPU response)", task(t, r, "G").R, rGPU)
	// BCRT_P = 210 lines · 20 ns + 2·(1 000 000 / 2 GHz) + 110 copied lines
	//   · 3 ns + 750 000 / 1.5 GHz = 4.2 µs + 1 ms + 330 ns + 0.5 ms.
	wantTime(t, "BCRT_P", p.BCRT, 4_200*ns+1*ms+330*ns+500*us)

	// Asynchronous: C_P = 2 ms + 25.2 µs + AsyncCost 5000 / 2 GHz = 2.0277 ms,
	//   S = R_gpu; R_P = 2.0277 + 1.000385 = 3.028085 ms.
	//   L sees P with jitter R_P − C_P = 1.000385 ms:
	//   R_L = 3 + ⌈(R + 1.000385)/5⌉·2.0277: 5.0277 → ⌈6.028/5⌉ = 2 →
	//   7.0554 → ⌈8.0558/5⌉ = 2 → R_L = 7.0554 ms.
	r = evaluatePlaced(t, e, onGPU, func(a *evaluate.Assignment) { a.Async[0] = true })
	p, l = task(t, r, "P"), task(t, r, "L")
	if p.Role != evaluate.OffloadAsync {
		t.Fatalf("P's role %v, want asynchronous", p.Role)
	}
	wantTime(t, "C_P async", p.C, 2_027_700*ns)
	wantTime(t, "S_P async", p.Suspension, rGPU)
	wantTime(t, "R_P async", p.R, 3_028_085*ns)
	wantTime(t, "R_L async", l.R, 7_055_400*ns)

	// Merged: G on Core0 (P does not run). G then reads what Pre read (In,
	// 100 lines) and writes what Post wrote (Out, 100 lines); nothing is on
	// the GPU, so bGPU = 0, and Core1 is empty, so #C = 0: 200 · 20 ns = 4 µs;
	// execute 4 000 000 A57 ticks / 2 GHz = 2 ms. C_G = 2.004 ms, T = 5 ms.
	//   R_L = 3 + ⌈R/5⌉·2.004: 5.004 → 2 → 7.008 ms.
	r = evaluatePlaced(t, e, map[string]string{"G": "Core0", "L": "Core0"}, nil)
	gm := task(t, r, "G")
	if gm.Role != evaluate.Merged || task(t, r, "P").Role != evaluate.NotRunning || r.CopyEngineActive {
		t.Fatalf("roles %v / %v, bGPU %v", gm.Role, task(t, r, "P").Role, r.CopyEngineActive)
	}
	wantTime(t, "C_G merged", gm.C, 2_004*us)
	wantTime(t, "T_G merged (P's period)", gm.T, 5*ms)
	wantTime(t, "R_L with merged G", task(t, r, "L").R, 7_008*us)

	if m := e.ChainMember(r, 1); m.Name != "G" || m.WCRT != 2_004*us || m.Unbounded {
		t.Errorf("chain member of merged G: %+v", m)
	}
	if m := e.ChainMember(r, 0); m.Name != "G" {
		t.Errorf("chain member of P when G is merged: %+v, want G", m)
	}

	// The chain view: G on the GPU is represented by P (synchronous).
	r = evaluatePlaced(t, e, onGPU, nil)
	if m := e.ChainMember(r, 1); m.Name != "P" || m.WCRT != 3_025_585*ns || m.Period != 5*ms || m.BCRT != 4_200*ns+1*ms+330*ns+500*us || m.Unbounded {
		t.Errorf("chain member of G on the GPU: %+v", m)
	}
}

// The GPU side is cached under the GPU configuration: evaluating other
// mappings in between gives the same result as a fresh evaluator.
func TestGPUCacheAndClone(t *testing.T) {
	e := watersEvaluator(t)
	feasible, err := e.FromMapping(feasibleWATERS())
	if err != nil {
		t.Fatal(err)
	}
	def, err := e.DefaultAssignment()
	if err != nil {
		t.Fatal(err)
	}
	r1, r2, r3 := e.NewAnalysis(), e.NewAnalysis(), e.NewAnalysis()
	for _, step := range []struct {
		a *evaluate.Assignment
		r *evaluate.Analysis
	}{{feasible, r1}, {def, r2}, {feasible, r3}} {
		if err := e.Evaluate(step.a, step.r); err != nil {
			t.Fatal(err)
		}
	}
	fresh := watersEvaluator(t).Clone()
	r4 := fresh.NewAnalysis()
	if err := fresh.Evaluate(feasible, r4); err != nil {
		t.Fatal(err)
	}
	for i := range r1.Tasks {
		if r1.Tasks[i] != r3.Tasks[i] || r1.Tasks[i] != r4.Tasks[i] {
			t.Errorf("task %s differs: %+v / %+v / %+v", r1.Tasks[i].Name, r1.Tasks[i], r3.Tasks[i], r4.Tasks[i])
		}
	}
	if !r1.Schedulable || r2.Schedulable {
		t.Errorf("schedulable: feasible %v, default %v", r1.Schedulable, r2.Schedulable)
	}
}

func TestEvaluateDoesNotAllocate(t *testing.T) {
	e := watersEvaluator(t)
	a, err := e.FromMapping(feasibleWATERS())
	if err != nil {
		t.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = e.Evaluate(a, r) }); n != 0 {
		t.Errorf("Evaluate allocates %v times per run in steady state", n)
	}
}
