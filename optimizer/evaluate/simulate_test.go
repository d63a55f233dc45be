package evaluate_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta/syssim"
)

var longSimulation = flag.Bool("long-simulation", false, "validate the bounds by simulation on more seeds and mappings")

// simRatios collects, per task with a bounded verdict, the longest
// simulated response over the ratio to its bound R.
type simRatios []float64

// summary is "n tasks: min …, median …, max …" of the ratios.
func (s simRatios) summary() string {
	if len(s) == 0 {
		return "no task with a bound"
	}
	v := slices.Clone(s)
	slices.Sort(v)
	return fmt.Sprintf("%d task bounds: simulated/bound min %.3f, median %.3f, max %.3f", len(v), v[0], v[len(v)/2], v[len(v)-1])
}

// checkSimulationNeverExceeds evaluates mapping a and simulates it with the
// system simulator (rta/syssim, memory mode mode) under seeds release
// patterns: seed 0 is the worst case released synchronously at 0; every
// other seed draws each task's first release in [0, T), every execute
// phase and block time at or below its worst case, and, for odd seeds,
// sporadic delays of up to the shortest period between releases. Jobs are
// released over two longest periods and given one longest deadline more to
// finish. It fails the test if a job of a task whose verdict is a bound
// responds later than R (a job that has not finished by the end counts
// with the time it has waited so far). The analysis's assumptions must
// hold for the mapping (every GPU task within its period, every offloading
// task within its deadline): call it on schedulable mappings.
//
// It returns, per task with a bound, the longest simulated response over
// R (CPU tasks, and GPU tasks with their GPU response).
//
// The memory mode must match the assumption of the contention count under
// test: syssim.PerAccess for the challenge's semantics (the challenge
// convention and the refined time count), syssim.Request for a count that
// rests on round-robin arbitration (configs.RequestAssumption;
// memory's package documentation, the request count).
func checkSimulationNeverExceeds(t *testing.T, e *evaluate.Evaluator, a *evaluate.Assignment, seeds int, mode syssim.Memory) simRatios {
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
	var longest, shortest, deadline int64
	for _, c := range in.Cores {
		for _, tk := range c.Tasks {
			longest, deadline = max(longest, tk.Period), max(deadline, tk.Deadline)
			if shortest == 0 || tk.Period < shortest {
				shortest = tk.Period
			}
		}
	}
	in.Horizon = 2 * longest
	in.End = in.Horizon + deadline
	worst := map[int]int64{}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 14))
		in.Vary = nil
		if seed > 0 {
			in.Vary = &syssim.Variation{Seed: uint64(seed), Exec: true}
			if seed%2 == 1 {
				in.Vary.MaxDelay = shortest
			}
		}
		for c := range in.Cores {
			for k := range in.Cores[c].Tasks {
				tk := &in.Cores[c].Tasks[k]
				tk.Offset = 0
				if seed > 0 {
					tk.Offset = rng.Int64N(tk.Period)
				}
			}
		}
		res, err := syssim.Simulate(in)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range res.Jobs {
			tr := &r.Tasks[j.ID]
			if !tr.Verdict.Bounded() {
				continue
			}
			resp := j.Response()
			if j.Finish < 0 {
				resp = res.End - j.Release
			}
			if resp > tr.R {
				t.Errorf("seed %d, %v memory: %s#%d (released %d ps, finished %d ps) responds in %d ps, more than its bound R = %d ps",
					seed, mode, tr.Name, j.Job, j.Release, j.Finish, resp, tr.R)
			}
			worst[j.ID] = max(worst[j.ID], resp)
		}
	}
	var ratios simRatios
	for i := range r.Tasks {
		if tr := &r.Tasks[i]; tr.Verdict.Bounded() && tr.R > 0 {
			ratios = append(ratios, float64(worst[i])/float64(tr.R))
		}
	}
	return ratios
}

// The simulator is given what the analysis charges: per task, its
// runnables' execute times sum to the analysed Compute and its lines to
// the analysed Lines; per GPU task, its copies' lines and its kernel's
// isolated time are the analysed ones.
func TestSimulationInputMatchesAnalysis(t *testing.T) {
	e := watersEvaluator(t)
	rng := rand.New(rand.NewPCG(3, 4))
	as := []*evaluate.Assignment{mustMapping(t, e, feasibleWATERS())}
	for range 50 {
		as = append(as, randomAssignment(e, rng))
	}
	for k, a := range as {
		r := e.NewAnalysis()
		if err := e.Evaluate(a, r); err != nil {
			t.Fatal(err)
		}
		in, err := e.SimulationInput(r)
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, c := range in.Cores {
			for _, tk := range c.Tasks {
				seen++
				tr := &r.Tasks[tk.ID]
				rs := tk.Runnables
				if tk.Offload != nil {
					rs = append(slices.Clone(rs), tk.Offload.Post...)
					g := r.GPU[tr.GPU]
					if tk.Offload.GPU.CopyIn != g.CopyInLines || tk.Offload.GPU.CopyOut != g.CopyOutLines || tk.Offload.Async != (tr.Role == evaluate.OffloadAsync) {
						t.Errorf("mapping %d, %s: GPU job %+v for %+v", k, tr.Name, tk.Offload.GPU, g)
					}
					if kt := tk.Offload.GPU.Kernel; kt.Time != g.Response.KernelIsolated || kt.Blocks != g.Blocks || kt.ThreadsPerBlock != g.ThreadsPerBlock ||
						kt.BlockTime != g.BlockTime || kt.BlockTimeBest > kt.BlockTime || kt.TimeBest > kt.Time {
						t.Errorf("mapping %d, %s: kernel %+v, analysed %d × %d threads, %d ps blocks, isolated %d ps",
							k, tr.Name, kt, g.Blocks, g.ThreadsPerBlock, g.BlockTime, g.Response.KernelIsolated)
					}
				}
				var lines, compute int64
				for _, rn := range rs {
					lines += rn.Read + rn.Write
					compute += rn.Compute
				}
				if lines != tr.Lines || compute != tr.Compute || tk.Period != tr.T || tk.Deadline != tr.D {
					t.Errorf("mapping %d, %s: simulated lines %d, compute %d, T %d, D %d; analysed %d, %d, %d, %d",
						k, tr.Name, lines, compute, tk.Period, tk.Deadline, tr.Lines, tr.Compute, tr.T, tr.D)
				}
			}
		}
		running := 0
		for i := range r.Tasks {
			if r.Tasks[i].Role.OnCPU() {
				running++
			}
		}
		if seen != running {
			t.Errorf("mapping %d: %d tasks simulated, %d on cores", k, seen, running)
		}
	}
}

func mustMapping(t testing.TB, e *evaluate.Evaluator, m *configs.Mapping) *evaluate.Assignment {
	t.Helper()
	a, err := e.FromMapping(m)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// mutate changes one gene of a: a task's unit (a GPU task moved between the
// GPU and a core takes its offloading task along), an offloading mode or a
// stream priority.
func mutate(e *evaluate.Evaluator, a *evaluate.Assignment, rng *rand.Rand) {
	specs := e.Model().Tasks()
	i := rng.IntN(len(specs))
	s := specs[i]
	switch s.Kind {
	case evaluate.PeriodicTask:
		a.Unit[i] = s.Units[rng.IntN(len(s.Units))]
	case evaluate.OffloadingTask:
		if a.Unit[i] != evaluate.NoUnit {
			a.Unit[i] = s.Units[rng.IntN(len(s.Units))]
		}
	case evaluate.GPUTask:
		switch rng.IntN(3) {
		case 0:
			u := s.Units[rng.IntN(len(s.Units))]
			a.Unit[i] = u
			switch {
			case u != e.Model().GPUUnit():
				a.Unit[s.Offloader] = evaluate.NoUnit
			case a.Unit[s.Offloader] == evaluate.NoUnit:
				pre := specs[s.Offloader]
				a.Unit[s.Offloader] = pre.Units[rng.IntN(len(pre.Units))]
			}
		case 1:
			a.Async[s.GPU] = !a.Async[s.GPU]
		case 2:
			a.High[s.GPU] = !a.High[s.GPU]
		}
	}
}

// feasibleWalk collects up to n distinct schedulable mappings by a random
// walk from the schedulable mapping start: one or two genes change at a
// time, and a change is kept when the mapping stays schedulable. Genes
// that do not matter (the mode and priority of a GPU task on a core) are
// cleared so that every mapping counts once.
func feasibleWalk(t *testing.T, e *evaluate.Evaluator, start *evaluate.Assignment, n, steps int, seed uint64) []*evaluate.Assignment {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 41))
	r := e.NewAnalysis()
	seen := map[string]bool{}
	var out []*evaluate.Assignment
	cur := start
	gpus := e.Model().GPUTasks()
	for range steps {
		b := cur.Clone()
		for range rng.IntN(2) + 1 {
			mutate(e, b, rng)
		}
		for g, task := range gpus {
			if b.Unit[task] != e.Model().GPUUnit() {
				b.Async[g], b.High[g] = false, false
			}
		}
		if err := e.Evaluate(b, r); err != nil {
			t.Fatal(err)
		}
		if !r.Schedulable {
			continue
		}
		cur = b
		if key := fmt.Sprint(b.Unit, b.Async, b.High, b.Slice); !seen[key] {
			seen[key] = true
			out = append(out, b)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// No simulated job responds later than its bound under the challenge's
// contention count: on the feasible WATERS mapping, on random feasible
// WATERS mappings (fifo and timeslice GPU models), and on the mappings of
// the exact front of configs/examples/waters-3obj.yaml (a what-if with #C
// fixed to 1 and no copy-engine contention, which the simulation then
// assumes too), in both memory modes. The ratios simulated/bound are logged
// (go test -v); -long-simulation runs more seeds and mappings. The refined
// and request counts have TestSimulationNeverExceedsTheRefinedBounds.
func TestSimulationNeverExceedsTheBounds(t *testing.T) {
	seeds, walk, steps := 6, 8, 3000
	if *longSimulation {
		seeds, walk, steps = 50, 40, 20000
	}
	if testsize.Reduced() {
		seeds, walk = 2, 3
	}
	type set struct {
		name    string
		e       *evaluate.Evaluator
		mapping []*evaluate.Assignment
	}
	var sets []set
	def := countEvaluator(t, configs.ContentionChallenge, nil)
	feasible := mustMapping(t, def, feasibleWATERS())
	sets = append(sets, set{"WATERS feasible mapping", def, []*evaluate.Assignment{feasible}})
	sets = append(sets, set{"random feasible WATERS mappings (fifo)", def, feasibleWalk(t, def, feasible, walk, steps, 1)})

	ts, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	ts.Analysis.GPUModel, ts.Analysis.Contention = configs.GPUModelTimeSlice, configs.ContentionChallenge
	tse := evaluator(t, ts)
	if start := timeSliceStart(t, tse); start != nil {
		sets = append(sets, set{"random feasible WATERS mappings (timeslice)", tse, feasibleWalk(t, tse, start, walk, steps, 2)})
	}

	cfg3 := synth.LoadFile(t, "../../configs/examples/waters-3obj.yaml")
	cfg3.Analysis.Contention = configs.ContentionChallenge
	e3 := evaluator(t, cfg3)
	sets = append(sets, set{"waters-3obj front", e3, exactFront(t, e3)})

	var all [2]simRatios
	for _, s := range sets {
		if len(s.mapping) == 0 {
			t.Errorf("%s: no mapping", s.name)
			continue
		}
		var per [2]simRatios
		for _, a := range s.mapping {
			per[0] = append(per[0], checkSimulationNeverExceeds(t, s.e, a, seeds, syssim.PerAccess)...)
			per[1] = append(per[1], checkSimulationNeverExceeds(t, s.e, a, seeds, syssim.Request)...)
		}
		for m := range per {
			all[m] = append(all[m], per[m]...)
		}
		t.Logf("%s (%d mappings): per-access %s; request %s", s.name, len(s.mapping), per[0].summary(), per[1].summary())
	}
	t.Logf("all: per-access %s; request %s", all[0].summary(), all[1].summary())
}

// timeSliceStart finds a schedulable mapping under the timeslice GPU model
// near the feasible fifo mapping: every combination of the GPU tasks' time
// slices in {1, 2, 5, 10, 20} ms with both offloading modes.
func timeSliceStart(t *testing.T, e *evaluate.Evaluator) *evaluate.Assignment {
	t.Helper()
	a := mustMapping(t, e, feasibleWATERS())
	r := e.NewAnalysis()
	slicesMs := []int64{1, 2, 5, 10, 20}
	gpus := e.Model().GPUTasks()
	var try func(g int) bool
	try = func(g int) bool {
		if g == len(gpus) {
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			return r.Schedulable
		}
		if a.Unit[gpus[g]] != e.Model().GPUUnit() {
			return try(g + 1)
		}
		for _, s := range slicesMs {
			a.Slice[g] = s * ms
			if try(g + 1) {
				return true
			}
		}
		return false
	}
	if !try(0) {
		t.Log("no schedulable timeslice mapping near the fifo one; the timeslice model is not validated here")
		return nil
	}
	return a
}
