package evaluate

import (
	"fmt"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta"
	"github.com/hetmap/hetmap/rta/sat"
)

// Tasks activated by other tasks.
//
// A task activated by another task's InterProcessTrigger (Task.ActivatedBy,
// an event-triggered task of an Amalthea model) arrives with its activator's
// jobs (same period and offset) and is released when the trigger runs: no
// later than the activator's response time R_a after the arrival. It is
// therefore analysed as a periodic task with release jitter J = J_own + R_a
// (Tindell and Clark, "Holistic schedulability analysis for distributed
// hard real-time systems", Microprocessing and Microprogramming 40, 1994:
// the jitter a task inherits is the response time of the task that releases
// it). Its response time counts from the arrival, so it includes J and a
// chain through it stays sound. R_a depends on the mapping and, where the
// activated task runs on the activator's core, on the activated task's own
// interference, so the evaluation iterates: analyse every core, set each
// jitter from its activator's current R, re-analyse the cores whose jitters
// changed, until nothing changes. Response times grow with jitters, so the
// iterates increase monotonically from the first pass (jitter J_own) to the
// least fixed point, as in Tindell and Clark's holistic analysis; an
// activator without a bound gives the task no bound (ActivatorNoBound), and
// after maxActivationRounds rounds without a fixed point the activated tasks
// get NoBound.
//
// Activation couples the cores: the activator's R depends on its core's
// priority order, and an activated task's feasibility on that R. The
// exhaustive search stays sound by evaluating partial mappings with the
// order-independent lower bound R ≥ J + C + S of every activator, but its
// front is not claimed exact over every priority order when the system has
// activated tasks (optimizer.Outcome.Proof is NotExact): the exhaustive search varies
// their cores' orders jointly (JointOrders), but no brute-force test checks
// that claim for activated tasks yet.

// maxActivationRounds bounds the holistic iteration.
const maxActivationRounds = 64

// initActivation reads the release jitters, activators and LET marks of
// the tasks.
func (e *Evaluator) initActivation(s *configs.System, index map[string]int) error {
	for i := range s.Tasks {
		t := &s.Tasks[i]
		ti := &e.tasks[i]
		ti.activator = -1
		src := t
		if t.IsGPUTask() {
			// A GPU task merged onto a core stands for its offloading task.
			src = s.Task(t.TriggeredBy)
		}
		ti.jitter, ti.let = int64(src.Jitter), src.LET
		if ti.jitter < 0 || ti.jitter > rta.MaxTime {
			return fmt.Errorf("task %s: release jitter %s is negative or too long", t.Name, src.Jitter)
		}
		if src.ActivatedBy != "" {
			k, ok := index[src.ActivatedBy]
			if !ok {
				return fmt.Errorf("task %s: its activating task %s is not defined", t.Name, src.ActivatedBy)
			}
			if e.tasks[k].kind == kindGPU {
				return fmt.Errorf("task %s: it is activated by %s, a GPU task", t.Name, src.ActivatedBy)
			}
			ti.activator = k
			e.activated = true
		}
	}
	return nil
}

// initJitter sets every task's jitter to its own before the cores are
// analysed.
func (e *Evaluator) initJitter(r *Analysis) {
	for i := range r.Tasks {
		r.Tasks[i].Jitter = e.tasks[i].jitter
	}
}

// activations iterates the analysis of the cores that hold activated tasks
// until their jitters are a fixed point (see above), then gives the
// activated tasks whose activator has no bound the verdict ActivatorNoBound.
func (e *Evaluator) activations(a *Assignment, r *Analysis) error {
	if !e.activated {
		return nil
	}
	converged := false
	for round := 0; round < maxActivationRounds; round++ {
		changed := false
		for u := range e.units {
			if e.units[u].gpu || len(e.onCore[u]) == 0 {
				continue
			}
			dirty := false
			for _, i := range e.onCore[u] {
				ti := &e.tasks[i]
				if ti.activator < 0 {
					continue
				}
				j := ti.jitter
				src := &r.Tasks[e.representative(r, ti.activator)]
				switch {
				case src.Role == NotRunning || src.Verdict == Absent:
					// Not placed yet (a partial mapping): the jitter is at least the task's own.
				case r.partial:
					// A partial mapping is cut when it fails; its
					// completions may give the activator other priority
					// orders and a smaller R, so the cut uses what every
					// order and completion must give it: R ≥ J + C + S.
					j = sat.Add(j, sat.Add(src.Jitter, sat.Add(src.C, src.Suspension)))
				case !src.Verdict.Bounded():
					j = rta.MaxTime
				default:
					j = sat.Add(j, src.R)
				}
				j = min(j, rta.MaxTime)
				if j != r.Tasks[i].Jitter {
					r.Tasks[i].Jitter, dirty = j, true
				}
			}
			if dirty {
				if err := e.core(a, r, u, true); err != nil {
					return err
				}
				changed = true
			}
		}
		if !changed {
			converged = true
			break
		}
	}
	for i := range r.Tasks {
		ti := &e.tasks[i]
		tr := &r.Tasks[i]
		if ti.activator < 0 || !tr.Role.OnCPU() {
			continue
		}
		src := &r.Tasks[e.representative(r, ti.activator)]
		switch {
		case src.Role != NotRunning && src.Verdict != Absent && !src.Verdict.Bounded():
			tr.Verdict = ActivatorNoBound
		case !converged && tr.Verdict.Bounded():
			tr.Verdict = NoBound
		}
	}
	return nil
}
