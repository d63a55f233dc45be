package evaluate_test

import (
	"fmt"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta/syssim"
)

// twoCoreSystem has a core P0 of kind kind0 running task A, which reads
// linesA lines and computes 1 µs every 1 ms, and a Denver core P1 running
// task B, which reads linesB lines and computes 1 µs every 1 ms; the
// challenge's memory parameters (A57: 20/20/100 ns, Denver: 8/2/20 ns per
// line) and no GPU. countLine sets analysis.contention.
func twoCoreSystem(kind0 string, linesA, linesB int, count configs.ContentionCount) string {
	a57 := ""
	if kind0 == "A57" {
		a57 = "\n    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}"
	}
	return fmt.Sprintf(`name: two cores
units:
  - {name: P0, kind: %s, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}
  - {name: P1, kind: Denver, type: cpu, frequency: 2GHz, read_latency_cycles: 16, write_latency_cycles: 16}
memory:
  line_size: 64
  cores:%s
    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
labels:
  - {name: LA, size_bytes: %d}
  - {name: LB, size_bytes: %d}
runnables:
  - {name: RA, ticks: [{kind: %s, lower: 2000, upper: 2000, average: 2000}], reads: [LA]}
  - {name: RB, ticks: [{kind: Denver, lower: 2000, upper: 2000, average: 2000}], reads: [LB]}
tasks:
  - {name: A, period: 1ms, runnables: [RA]}
  - {name: B, period: 1ms, runnables: [RB]}
analysis: {contention: %s}
`, kind0, a57, 64*linesA, 64*linesB, kind0, count)
}

// overlapOf returns the detail of task name and the overlap of the
// interferer called unit under the count in force.
func overlapOf(t *testing.T, e *evaluate.Evaluator, r *evaluate.Analysis, name, unit string) (evaluate.TaskContention, memory.Overlap) {
	t.Helper()
	d, err := e.ContentionDetail(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range d {
		if r.Tasks[tc.Task].Name != name {
			continue
		}
		for _, io := range tc.Interferers {
			if io.Name == unit {
				if r.ContentionCount == configs.ContentionRequest {
					return tc, io.Request
				}
				return tc, io.Refined
			}
		}
		t.Fatalf("%s: no interferer %s in %+v", name, unit, tc)
	}
	t.Fatalf("no contention detail of %s", name)
	return evaluate.TaskContention{}, memory.Overlap{}
}

// Two cores with one task each, computed by hand from the window counts of
// memory's package documentation, in which each term of the minimum binds
// in turn. A runs on P0, B on P1; each core's #C under the challenge is 1
// and there is no GPU (bGPU = 0).
func TestRefinedTwoCoresEachTermBinds(t *testing.T) {
	for _, tc := range []struct {
		name           string
		kind0          string
		linesA, linesB int
		count          configs.ContentionCount
		rA, rB         int64 // R (ps)
		byA, byB       memory.Binding
		oA, oB         int64 // A's overlap with P1, B's with P0
		perJobA        bool
	}{{
		// Denver/Denver, B reads 100 lines. Challenge: Lat = 8 + 2 = 10 ns,
		// C_A = 1000·10 ns + 1 µs = 11 µs, C_B = 100·10 ns + 1 µs = 2 µs.
		// Refined, A: C0 = 1000·8 ns + 1 µs = 9 µs. In w = 9 µs B has
		// η = ceil((9 + 2)/1000) = 1 job: A_B = 100 lines, Busy = 100·10 ns
		// = 1 µs, Phases = 1·(1 read phase + 0 splits: B is alone on its
		// core, so its releases cut no phase) = 1; time count floor(1000/8)
		// + 2·1 = 127 < N = 1000: O = 127 (time), I = 2 ns·127 = 254 ns,
		// R_A = 9.254 µs (η unchanged). B: C0 = 1.8 µs, A has one job, Busy
		// = 1000·10 ns = 10 µs, time floor(10000/8) + 2 = 1252 > N = 100:
		// O = 100 (lines), I = 200 ns, R_B = 2 µs = C_B: refined equals
		// challenge for B.
		name: "time binds", kind0: "Denver", linesA: 1000, linesB: 100, count: configs.ContentionRefined,
		rA: 9_254 * ns, rB: 2_000 * ns, byA: memory.ByTime, byB: memory.ByLines, oA: 127, oB: 100,
	}, {
		// The same under the request count: O_A = min(1000, 127, A_B = 100)
		// = 100 (requests), I = 200 ns, R_A = 9.2 µs; B as before (min(100,
		// 1252, 1000) = 100, lines).
		name: "requests bind", kind0: "Denver", linesA: 1000, linesB: 100, count: configs.ContentionRequest,
		rA: 9_200 * ns, rB: 2_000 * ns, byA: memory.ByRequests, byB: memory.ByLines, oA: 100, oB: 100,
	}, {
		// B reads 2000 lines: C_B = 2000·10 ns + 1 µs = 21 µs. A: η_B = 1,
		// Busy = 20 µs, time floor(20000/8) + 2 = 2502 > 1000: O = 1000
		// (lines), I = 2 µs, R_A = 11 µs = C_A (refined equals challenge; the
		// per-job form ties). B: C0 = 16 µs + 1 µs = 17 µs, A's Busy = 10 µs:
		// time 1250 + 2 = 1252 < 2000: O = 1252 (time), I = 2.504 µs, R_B =
		// 19.504 µs < 21 µs.
		name: "lines bind", kind0: "Denver", linesA: 1000, linesB: 2000, count: configs.ContentionRefined,
		rA: 11_000 * ns, rB: 19_504 * ns, byA: memory.ByLines, byB: memory.ByTime, oA: 1000, oB: 1252, perJobA: true,
	}, {
		// A on an A57 core (baseline 20 ns, K = 20 ns), B on the Denver
		// core: a Denver line (10 ns) is shorter than an A57 access, so the
		// time count is below B's requests. Challenge: A57 Lat = 20 + 20 =
		// 40 ns, C_A = 40 µs + 1 µs = 41 µs. A: C0 = 20 µs + 1 µs = 21 µs, B's
		// Busy = 100·10 ns = 1 µs: time floor(1000/20) + 2·1 = 52 < A_B = 100
		// < 1000: O = 52 under both counts (time), I = 20 ns·52 = 1.04 µs,
		// R_A = 22.04 µs. B: A's Busy = 1000·40 ns = 40 µs, time 5000 + 2 >
		// 100: O = 100 (lines), R_B = 2 µs.
		name: "time binds under the request count", kind0: "A57", linesA: 1000, linesB: 100, count: configs.ContentionRequest,
		rA: 22_040 * ns, rB: 2_000 * ns, byA: memory.ByTime, byB: memory.ByLines, oA: 52, oB: 100,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			e := evaluator(t, load(t, twoCoreSystem(tc.kind0, tc.linesA, tc.linesB, tc.count)))
			r := evaluatePlaced(t, e, map[string]string{"A": "P0", "B": "P1"}, nil)
			a, b := task(t, r, "A"), task(t, r, "B")
			wantTime(t, "R_A", a.R, tc.rA)
			wantTime(t, "R_B", b.R, tc.rB)
			detA, oa := overlapOf(t, e, r, "A", "P1")
			detB, ob := overlapOf(t, e, r, "B", "P0")
			if oa.By != tc.byA || oa.Count != tc.oA || ob.By != tc.byB || ob.Count != tc.oB {
				t.Errorf("A's overlap with P1 %+v (want %d by %v), B's with P0 %+v (want %d by %v)", oa, tc.oA, tc.byA, ob, tc.oB, tc.byB)
			}
			if a.PerJobBound != tc.perJobA || !r.Schedulable || !r.Converged || r.Rounds != 2 {
				t.Errorf("A per-job %v (want %v); schedulable %v, converged %v after %d rounds (want 2: one that changes, one that confirms)",
					a.PerJobBound, tc.perJobA, r.Schedulable, r.Converged, r.Rounds)
			}
			// The window term as the analysis charged it is the detail's.
			want := detA.Refined
			if tc.count == configs.ContentionRequest {
				want = detA.Request
			}
			if a.WindowContention != want || a.WindowAccesses != int64(tc.linesA) || detB.Accesses != int64(tc.linesB) {
				t.Errorf("A: window contention %d, detail %d; accesses %d; B's %d", a.WindowContention, want, a.WindowAccesses, detB.Accesses)
			}
			// The challenge count charges every access: 1000 and linesB
			// accesses at 2 ns (Denver) or 20 ns (A57) each.
			k := int64(2 * ns)
			if tc.kind0 == "A57" {
				k = 20 * ns
			}
			if detA.Challenge != k*int64(tc.linesA) || detB.Challenge != 2*ns*int64(tc.linesB) {
				t.Errorf("challenge charges %d, %d", detA.Challenge, detB.Challenge)
			}
			// The challenge count itself reproduces C.
			ch := evaluator(t, load(t, twoCoreSystem(tc.kind0, tc.linesA, tc.linesB, configs.ContentionChallenge)))
			rc := evaluatePlaced(t, ch, map[string]string{"A": "P0", "B": "P1"}, nil)
			if ca, cb := task(t, rc, "A"), task(t, rc, "B"); ca.R != ca.C || cb.R != cb.C || ca.C != a.C || rc.Rounds != 0 {
				t.Errorf("challenge: R_A %d, C_A %d (refined's C %d), R_B %d, C_B %d, rounds %d", ca.R, ca.C, a.C, cb.R, cb.C, rc.Rounds)
			}
		})
	}
}

// The copy engine's term, by hand: A (1000 lines, 1 µs, every 1 ms) on the
// A57 core Core0; P on Core1 offloads G every 1 ms and touches no label, so
// Core1 does not count in #C. G copies in 50 lines and out 10 and runs a
// 1 µs kernel.
const copyEngineSystem = "name: copy engine" + a57Units + gpuUnit + challengeMemory + `
labels:
  - {name: LA, size_bytes: 64000}
  - {name: In, size_bytes: 3200}
  - {name: InDev, size_bytes: 3200}
  - {name: ResDev, size_bytes: 640}
  - {name: Res, size_bytes: 640}
runnables:
  - {name: RA, ticks: [{kind: A57, lower: 2000, upper: 2000, average: 2000}], reads: [LA]}
  - {name: Pre, ticks: [{kind: A57, lower: 2000, upper: 2000, average: 2000}]}
  - {name: Post, ticks: [{kind: A57, lower: 2000, upper: 2000, average: 2000}]}
  - {name: H2D, reads: [In], writes: [InDev]}
  - {name: Kernel, ticks: [{kind: GPU_def, lower: 1500, upper: 1500, average: 1500}]}
  - {name: D2H, reads: [ResDev], writes: [Res]}
tasks:
  - {name: A, period: 1ms, runnables: [RA]}
  - name: P
    period: 1ms
    runnables: [Pre]
    offload: {gpu_task: G, wait: active, post_runnables: [Post]}
  - {name: G, runnables: [H2D, Kernel, D2H], triggered_by: P}
`

func TestRefinedCopyEngineTerm(t *testing.T) {
	units := map[string]string{"A": "Core0", "P": "Core1", "G": "GPU"}
	// Challenge: #C of Core0 = 0 (Core1 touches no label), bGPU = 1 (G
	// copies): A57 line 20 + 100 = 120 ns, C_A = 1000·120 ns + 1 µs =
	// 121 µs = R_A. Copy engine: #C = 1 (Core0), 3 + 0.5 = 3.5 ns a line:
	// copy in 50·3.5 = 175 ns, kernel 1500/1.5 GHz = 1 µs, copy out 35 ns;
	// R_gpu = 1.21 µs; P busy-waits: R_P = 1 + 1.21 + 1 = 3.21 µs.
	ch := evaluatePlaced(t, evaluator(t, load(t, challengeCount(copyEngineSystem))), units, nil)
	wantTime(t, "challenge R_A", task(t, ch, "A").R, 121*us)
	wantTime(t, "R_P", task(t, ch, "P").R, 3_210*ns)
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest} {
		e := evaluator(t, load(t, copyEngineSystem+"analysis: {contention: "+string(count)+"}\n"))
		r := evaluatePlaced(t, e, units, nil)
		// A: C0 = 1000·20 ns + 1 µs = 21 µs. Core1 has no line: O = 0. The
		// copy engine: G's copies lie within P's job, R_P = 3.21 µs, so in
		// w = 21 µs G has η = ceil((21 + 3.21)/1000) = 1 job: A_CE = 60
		// lines in 2 copies (phases 2, splits 0), Busy = 60·3.5 ns = 210 ns;
		// time floor(210/20) + 2·2 = 14 < A_CE = 60 < N = 1000: O = 14
		// (time), I = sGPU·14 = 100 ns·14 = 1.4 µs, R_A = 22.4 µs (η
		// unchanged), against the challenge's 121 µs.
		wantTime(t, string(count)+" R_A", task(t, r, "A").R, 22_400*ns)
		wantTime(t, string(count)+" R_P", task(t, r, "P").R, 3_210*ns)
		det, o := overlapOf(t, e, r, "A", "copy engine")
		if o.Count != 14 || o.By != memory.ByTime || o.Requests != 60 || o.Lines != 1000 {
			t.Errorf("%s: copy engine overlap %+v, want 14 by time (60 requests, N = 1000)", count, o)
		}
		if _, c1 := overlapOf(t, e, r, "A", "Core1"); c1.Count != 0 || c1.By != memory.NoAccess {
			t.Errorf("%s: Core1 overlap %+v, want none", count, c1)
		}
		if det.Challenge != 100*ns*1000 {
			t.Errorf("%s: challenge charge %d, want 1000 accesses at sGPU = 100 ns", count, det.Challenge)
		}
	}
}

// The small systems above in simulation: no job exceeds its refined bound
// (per-access memory) or its request bound (round-robin requests), and the
// bound of a task whose overlaps the time or the request count cut is
// nearly reached, so that an undercount would show: A's refined bound
// 9.254 µs leaves 52 ns to the simulated 9.202 µs (its 254 ns of
// contention less a quarter would already fall below), and its request
// bound 9.2 µs is reached exactly. B's time count (2000 lines against A's
// 10 µs phase) is looser, since B's accesses last 10 ns, not the 8 ns
// baseline the count assumes: 19.0 of 19.504 µs.
func TestRefinedSmallSystemsInSimulation(t *testing.T) {
	for _, c := range []struct {
		count configs.ContentionCount
		mode  syssim.Memory
	}{{configs.ContentionRefined, syssim.PerAccess}, {configs.ContentionRequest, syssim.Request}} {
		for _, sys := range []struct {
			name, yaml string
			units      map[string]string
			tight      string
			least      float64 // the least ratio simulated/bound of task tight
		}{
			{"Denver/Denver, 1000 and 100 lines", twoCoreSystem("Denver", 1000, 100, c.count), map[string]string{"A": "P0", "B": "P1"}, "A", 0.99},
			{"A57/Denver, 1000 and 100 lines", twoCoreSystem("A57", 1000, 100, c.count), map[string]string{"A": "P0", "B": "P1"}, "", 0},
			{"Denver/Denver, 1000 and 2000 lines", twoCoreSystem("Denver", 1000, 2000, c.count), map[string]string{"A": "P0", "B": "P1"}, "B", 0.97},
			{"copy engine", copyEngineSystem + "analysis: {contention: " + string(c.count) + "}\n", map[string]string{"A": "Core0", "P": "Core1", "G": "GPU"}, "", 0},
		} {
			e := evaluator(t, load(t, sys.yaml))
			a := place(t, e, sys.units)
			ratios := checkSimulationNeverExceeds(t, e, a, 6, c.mode)
			t.Logf("%s count, %v memory, %s: %s", c.count, c.mode, sys.name, ratios.summary())
			if sys.tight == "" {
				continue
			}
			r := e.NewAnalysis()
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			for k, tr := range r.Tasks {
				if tr.Name == sys.tight {
					if worst := ratioOf(t, e, a, k, c.mode); worst < sys.least {
						t.Errorf("%s, %s: %s reaches only %.4f of its bound in simulation (want at least %.2f): the check would not see an undercount",
							c.count, sys.name, tr.Name, worst, sys.least)
					}
				}
			}
		}
	}
}

// ratioOf is the longest simulated response of task i over its bound, over
// the release patterns of checkSimulationNeverExceeds with seed 0 (every
// task released at 0).
func ratioOf(t *testing.T, e *evaluate.Evaluator, a *evaluate.Assignment, i int, mode syssim.Memory) float64 {
	t.Helper()
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	in, err := e.SimulationInput(r)
	if err != nil {
		t.Fatal(err)
	}
	in.Memory = mode
	in.Horizon = 2 * r.Tasks[i].T
	in.End = in.Horizon + r.Tasks[i].T
	res, err := syssim.Simulate(in)
	if err != nil {
		t.Fatal(err)
	}
	var worst int64
	for _, j := range res.Jobs {
		if j.ID == i && j.Finish >= 0 {
			worst = max(worst, j.Response())
		}
	}
	return float64(worst) / float64(r.Tasks[i].R)
}

// pausedSystem: on the Denver core P0, L reads 100 lines (800 ns at the 8 ns
// baseline) below four tasks H1 > H2 > H3 > H4 of one line each; on P1, C
// reads 2 lines. No task computes. Deadline-monotonic priorities.
const pausedSystem = `name: paused accesses
units:
  - {name: P0, kind: Denver, type: cpu, frequency: 2GHz, read_latency_cycles: 16, write_latency_cycles: 16}
  - {name: P1, kind: Denver, type: cpu, frequency: 2GHz, read_latency_cycles: 16, write_latency_cycles: 16}
memory:
  line_size: 64
  cores:
    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
labels:
  - {name: LH, size_bytes: 64}
  - {name: LL, size_bytes: 6400}
  - {name: LC, size_bytes: 128}
runnables:
  - {name: RH, ticks: [{kind: Denver, lower: 0, upper: 0}], reads: [LH]}
  - {name: RL, ticks: [{kind: Denver, lower: 0, upper: 0}], reads: [LL]}
  - {name: RC, ticks: [{kind: Denver, lower: 0, upper: 0}], reads: [LC]}
tasks:
  - {name: H1, period: 1ms, runnables: [RH]}
  - {name: H2, period: 1ms, runnables: [RH]}
  - {name: H3, period: 1ms, runnables: [RH]}
  - {name: H4, period: 1ms, runnables: [RH]}
  - {name: L, period: 4ms, runnables: [RL]}
  - {name: C, period: 1ms, runnables: [RC]}
analysis: {contention: refined, priorities: deadline-monotonic}
`

// TestRefinedPausedAccesses: accesses that preemptions pause can overlap an
// interferer's memory phase beyond the time count without its pauses term
// (memory's package documentation, item 4), which the count therefore
// adds. L's accesses start at 0, 8 ns apart. H4 is
// released at 87 ns, 1 ns before L's 11th access ends, and pauses it; H3
// at 94 ns pauses H4's access with 1 ns left, H2 at 101 ns and H1 at 108 ns
// likewise; C's 2-line phase starts at 109 ns. Then H1's access (charged
// C), H2's, H3's, H4's and L's resume one after the other within C's
// 20 ns phase: 5 of p's accesses overlap it, and L responds in 800 ns of
// accesses + 4·8 ns of H's + 5·2 ns of contention = 842 ns. The time count
// without the pauses allows floor(20/8) + 2·1 = 4 accesses (C's phase: 2 lines at 10 ns,
// one phase, no split: C is alone on P1), a bound of 800 + 32 + 4·2 =
// 840 ns. With the 4 pauses of L's window (H1–H4 become ready once each)
// the count is 8 and the bound 800 + 32 + 8·2 = 848 ns.
func TestRefinedPausedAccesses(t *testing.T) {
	e := evaluator(t, load(t, pausedSystem))
	a := place(t, e, map[string]string{"H1": "P0", "H2": "P0", "H3": "P0", "H4": "P0", "L": "P0", "C": "P1"})
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	l := task(t, r, "L")
	wantTime(t, "R_L", l.R, 848*ns)
	if l.WindowAccesses != 104 || l.WindowPauses != 4 || l.WindowContention != 16*ns {
		t.Errorf("L's window: %d accesses, %d pauses, %d ps of contention; want 104, 4, 16 ns", l.WindowAccesses, l.WindowPauses, l.WindowContention)
	}
	in, err := e.SimulationInput(r)
	if err != nil {
		t.Fatal(err)
	}
	offset := map[string]int64{"L": 0, "H4": 87 * ns, "H3": 94 * ns, "H2": 101 * ns, "H1": 108 * ns, "C": 109 * ns}
	for c := range in.Cores {
		for k := range in.Cores[c].Tasks {
			in.Cores[c].Tasks[k].Offset = offset[in.Cores[c].Tasks[k].Name]
		}
	}
	in.Horizon, in.End, in.Memory = 1*ms, 5*ms, syssim.PerAccess
	res, err := syssim.Simulate(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range res.Jobs {
		tr := &r.Tasks[j.ID]
		if j.Job == 0 && tr.Name == "L" && j.Response() != 842*ns {
			t.Errorf("L#0 responds in %d ps in the simulation, want 842 ns (the schedule of the comment)", j.Response())
		}
		if j.Finish >= 0 && j.Response() > tr.R {
			t.Errorf("%s#%d responds in %d ps, more than its bound %d ps", tr.Name, j.Job, j.Response(), tr.R)
		}
	}
}
