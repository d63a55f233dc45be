package evaluate_test

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// activationSystem: two A57 cores at 2 GHz without label accesses (so no
// contention); TA (2 ms every 10 ms) activates TB (1 ms) through an
// InterProcessTrigger; TD (1 ms every 10 ms) has a release jitter of 2 ms;
// TE (9 ms every 10 ms) can overload a core.
const activationSystem = `
units:
  - {name: A0, kind: A57, type: cpu, frequency: 2GHz}
  - {name: A1, kind: A57, type: cpu, frequency: 2GHz}
memory:
  line_size: 64
  cores: [{kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}]
  copy_engine: {baseline: 3ns, per_core: 500ps}
runnables:
  - {name: ra, ticks: [{kind: A57, lower: 4000000, upper: 4000000}]}
  - {name: rb, ticks: [{kind: A57, lower: 2000000, upper: 2000000}]}
  - {name: re, ticks: [{kind: A57, lower: 18000000, upper: 18000000}]}
tasks:
  - {name: TA, period: 10ms, runnables: [ra]}
  - {name: TB, period: 10ms, activated_by: TA, runnables: [rb]}
  - {name: TD, period: 10ms, jitter: 2ms, runnables: [rb]}
  - {name: TE, period: 10ms, runnables: [re]}
`

// TestActivatedTaskJitter checks the inherited release jitter against hand
// computations (times in ms).
func TestActivatedTaskJitter(t *testing.T) {
	e := evaluator(t, load(t, activationSystem))
	ms := int64(configs.Millisecond)
	prio := func(p map[string]int) func(*evaluate.Assignment) {
		return func(a *evaluate.Assignment) {
			for k, tk := range e.Model().Config().System.Tasks {
				if v, ok := p[tk.Name]; ok {
					a.Priority[k] = v
				}
			}
		}
	}
	// TA alone on A0: R_A = 2. TB alone on A1, released at most R_A after
	// TA's arrival: J_B = 2, R_B = J_B + C_B = 3. TD alone on A1 too (below
	// TB): R_D = 2 (its jitter) + 1 + 1 (one job of TB) = 4.
	r := evaluatePlaced(t, e, map[string]string{"TA": "A0", "TB": "A1", "TD": "A1", "TE": "A0"}, prio(map[string]int{"TA": 2, "TE": 1, "TB": 2, "TD": 1}))
	wantTime(t, "R_A", task(t, r, "TA").R, 2*ms)
	wantTime(t, "J_B", task(t, r, "TB").Jitter, 2*ms)
	wantTime(t, "R_B", task(t, r, "TB").R, 3*ms)
	wantTime(t, "R_D", task(t, r, "TD").R, 4*ms)
	// TA and TB on A0 with TB above TA; TD and TE on A1.
	// Round 1: J_B = 0, R_B = 1; R_A: w = 2 + ⌈w/10⌉·1 = 3.
	// Round 2: J_B = 3, R_B = 3 + 1 = 4; R_A: w = 2 + ⌈(w + 3)/10⌉·1 = 3. Fixed point.
	r = evaluatePlaced(t, e, map[string]string{"TA": "A0", "TB": "A0", "TD": "A1", "TE": "A1"}, prio(map[string]int{"TB": 2, "TA": 1, "TD": 2, "TE": 1}))
	wantTime(t, "R_A (TB above)", task(t, r, "TA").R, 3*ms)
	wantTime(t, "J_B (TB above)", task(t, r, "TB").Jitter, 3*ms)
	wantTime(t, "R_B (TB above)", task(t, r, "TB").R, 4*ms)
	if v := task(t, r, "TB").Verdict; v != evaluate.Meets {
		t.Errorf("TB: %s", v)
	}
	// TE above TA on A0: w_A = 2 + 9·⌈w/10⌉ passes the period (11 → 20), so TA
	// has no bound, and neither has TB.
	r = evaluatePlaced(t, e, map[string]string{"TA": "A0", "TE": "A0", "TB": "A1", "TD": "A1"}, prio(map[string]int{"TE": 2, "TA": 1, "TB": 2, "TD": 1}))
	if v := task(t, r, "TA").Verdict; v.Bounded() {
		t.Fatalf("TA under TE: %s, want no bound", v)
	}
	if v := task(t, r, "TB").Verdict; v != evaluate.ActivatorNoBound {
		t.Errorf("TB: %s, want %s", v, evaluate.ActivatorNoBound)
	}
}

// TestPropertyActivationAgainstSimulation compares the analysis of random
// systems with an activated task against a simulation of the same
// schedule: fixed-priority preemptive cores, every task released
// synchronously at its period, the activated task released when its
// activator's job completes (its trigger is the last item), every job
// running its worst case. Every simulated response time (from the
// arrival, for the activated task the arrival of the activator's job) must
// be at most the analysed bound.
func TestPropertyActivationAgainstSimulation(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	periods := []int{10, 20, 40} // ms; the hyperperiod is at most 40 ms
	checked := 0
	iters := 60
	if testsize.Reduced() {
		iters = 20
	}
	for iter := 0; iter < iters; iter++ {
		n := 3 + rng.Intn(3) // periodic tasks
		type spec struct {
			name            string
			period, c, prio int // period in ms, C in µs
			core            int
			activator       int // index, or -1
		}
		var specs []spec
		for i := 0; i < n; i++ {
			p := periods[rng.Intn(len(periods))]
			specs = append(specs, spec{name: fmt.Sprintf("P%d", i), period: p, c: 200 + rng.Intn(p*300), core: rng.Intn(2), activator: -1})
		}
		act := rng.Intn(n)
		specs = append(specs, spec{name: "B", period: specs[act].period, c: 200 + rng.Intn(2000), core: rng.Intn(2), activator: act})
		// Distinct priorities per core, in random order.
		order := rng.Perm(len(specs))
		for rank, i := range order {
			specs[i].prio = len(specs) - rank
		}
		var y strings.Builder
		y.WriteString(strings.SplitN(activationSystem, "runnables:", 2)[0])
		y.WriteString("runnables:\n")
		for _, s := range specs {
			fmt.Fprintf(&y, "  - {name: r%s, ticks: [{kind: A57, lower: %d, upper: %d}]}\n", s.name, s.c*2000, s.c*2000)
		}
		y.WriteString("tasks:\n")
		for _, s := range specs {
			act := ""
			if s.activator >= 0 {
				act = ", activated_by: " + specs[s.activator].name
			}
			fmt.Fprintf(&y, "  - {name: %s, period: %dms%s, runnables: [r%s]}\n", s.name, s.period, act, s.name)
		}
		e := evaluator(t, load(t, y.String()))
		units := map[string]string{}
		for _, s := range specs {
			units[s.name] = fmt.Sprintf("A%d", s.core)
		}
		r := evaluatePlaced(t, e, units, func(a *evaluate.Assignment) {
			for k := range specs {
				a.Priority[k] = specs[k].prio
			}
		})

		// Simulate two hyperperiods in steps of 1 µs.
		type job struct {
			task, left, arrival int
		}
		horizon := 80 * 1000
		var ready [2][]job
		worst := make([]int, len(specs))
		for now := 0; now < horizon; now++ {
			for i, s := range specs {
				if s.activator < 0 && now%(s.period*1000) == 0 {
					ready[s.core] = append(ready[s.core], job{task: i, left: s.c, arrival: now})
				}
			}
			for c := 0; c < 2; c++ {
				if len(ready[c]) == 0 {
					continue
				}
				sort.SliceStable(ready[c], func(a, b int) bool { return specs[ready[c][a].task].prio > specs[ready[c][b].task].prio })
				j := &ready[c][0]
				j.left--
				if j.left > 0 {
					continue
				}
				done := *j
				ready[c] = ready[c][1:]
				worst[done.task] = max(worst[done.task], now+1-done.arrival)
				for i, s := range specs {
					if s.activator == done.task {
						// Released at the completion, arriving with the activator's job.
						ready[s.core] = append(ready[s.core], job{task: i, left: s.c, arrival: done.arrival})
					}
				}
			}
		}
		for i, s := range specs {
			tr := task(t, r, s.name)
			if !tr.Verdict.Bounded() {
				continue
			}
			checked++
			if int64(worst[i])*int64(configs.Microsecond) > tr.R {
				t.Fatalf("system %d: %s simulated %d µs > analysed R = %d µs\n%s", iter, s.name, worst[i], tr.R/int64(configs.Microsecond), y.String())
			}
		}
	}
	if checked < 100*iters/60 {
		t.Errorf("only %d bounded tasks were checked", checked)
	}
}
