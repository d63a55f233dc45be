package evaluate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hetmap/hetmap/rta"
)

// Causes. A task that does not meet its deadline fails either on its own
// (its own test fails: its response exceeds the deadline, passes the
// period, or the tasks above it overload its core; a GPU task's response
// passes its period or its deadline) or as a consequence of another
// task's failure (a bound withdrawn because of it):
//
//   - a task below a task that gives no interference bound (a suspending
//     task without a bound, a task whose own C or S rests on a GPU
//     response that is no bound, an activated task whose jitter is
//     unknown) has none (InterfererNoBound), whatever its own numbers,
//     and so does an overload or a miss computed with that task's
//     numbers;
//   - a task activated by a task without a bound has none
//     (ActivatorNoBound);
//   - an offloading task whose GPU response is no bound has none
//     (GPUNoBound), and that response is no bound because it passes the
//     period itself, because another GPU task's does (the GPU analyses
//     assume every GPU task responds within its period), or because it
//     was withdrawn: the offloading task of another GPU task does not meet
//     its deadline (GPUResult.AssumptionMissedBy).
//
// TaskResult.Because links every failing task to the task its verdict
// follows from, itself when its own test fails; Analysis.Cause follows the
// links to the task whose own test fails, and Analysis.Consequences says
// what follows from it, in order ("PRE_SFM_gpu_POST misses its deadline;
// so the GPU responses of SFM, Detection are withdrawn; so OS_Overhead has
// no bound"). The margins name that task as what binds, and the reasons
// start from it.
//
// A withdrawal can come back to the task that started it: when
// PRE_SFM_gpu_POST misses, Detection's GPU response is withdrawn, so
// PRE_Detection_gpu_POST has no bound, so SFM's GPU response is withdrawn
// too, and PRE_SFM_gpu_POST, whose response rested on it, ends with no
// bound (GPUNoBound). What it failed with before the first withdrawal is
// kept (TaskResult.withdrew): it, not the withdrawal, is the cause.

// causeScratch is settleCauses's per-evaluation state: per unit with a
// task that fails, the tasks on it that may give no interference bound
// (they suspend, offload or are activated), the only candidates of
// taintAbove.
type causeScratch struct {
	units []int
	cands [][]int
}

// settleCauses sets every task's Because once its verdict is final. It
// costs a pass over the tasks, and for each core with a task that fails
// one over its tasks (a search meets many such mappings).
func (e *Evaluator) settleCauses(r *Analysis) {
	cs := &e.causes
	if cs.cands == nil {
		cs.cands = make([][]int, len(e.units))
	}
	cs.units = cs.units[:0]
	for i := range r.Tasks {
		tr := &r.Tasks[i]
		tr.Because = -1
		if tr.Verdict != Meets && tr.Verdict != Absent && tr.Role.OnCPU() && !slices.Contains(cs.units, tr.Unit) {
			cs.units = append(cs.units, tr.Unit)
		}
	}
	if r.Schedulable {
		return
	}
	for _, u := range cs.units {
		c := cs.cands[u][:0]
		for _, k := range e.onCore[u] {
			if o := &r.Tasks[k]; o.Suspension > 0 || o.Role == OffloadSync || o.Role == OffloadAsync || o.Jitter >= rta.MaxTime {
				c = append(c, k)
			}
		}
		cs.cands[u] = c
	}
	late := -1 // the first GPU task on the GPU whose response passes its period
	for g := range r.GPU {
		if r.GPU[g].OnGPU && !r.GPU[g].WithinPeriod {
			late = g
			break
		}
	}
	for i := range r.Tasks {
		if tr := &r.Tasks[i]; tr.Verdict != Meets && tr.Verdict != Absent {
			tr.Because = e.because(r, i, late)
		}
	}
}

// because returns the task whose failure task i's verdict follows from (i
// itself when its own test fails); late is the first GPU task whose
// response passes its period, or -1.
func (e *Evaluator) because(r *Analysis, i, late int) int {
	tr := &r.Tasks[i]
	v := tr.Verdict
	switch {
	case tr.Role == OnGPU:
		g := &r.GPU[tr.GPU]
		switch {
		case !g.WithinPeriod:
			return i
		case g.AssumptionMissedBy >= 0:
			return r.offloaderOf(g.AssumptionMissedBy)
		case !r.GPUSound && late >= 0:
			return r.GPU[late].Task
		}
		return i
	case tr.withdrew:
		// It failed before any GPU bound was withdrawn: what it failed
		// with then is what the withdrawal followed from.
		v = tr.withdrewVerdict
	case (tr.Role == OffloadSync || tr.Role == OffloadAsync) && !r.GPU[tr.GPU].Bound(r):
		return r.GPU[tr.GPU].Task
	}
	switch v {
	case ActivatorNoBound:
		if a := e.tasks[i].activator; a >= 0 {
			return e.representative(r, a)
		}
	case InterfererNoBound, Overloaded, NoBound, Misses:
		// A value computed with the C, S or jitter of a task above that
		// is no bound is no verdict of this task's own. (Before the first
		// withdrawal every GPU response was a bound: a task that failed
		// then did not fail for waiting on one.)
		if t := e.taintAbove(r, i, tr.withdrew); t >= 0 {
			return t
		}
	}
	return i
}

// taintAbove returns the most urgent task above task i on its core (or of
// its priority, under explicit priorities) that gives no interference
// bound, as rta counts it (rta's taints): a task whose C or S is no bound
// (it waits for a GPU response that is none, or its activation jitter is
// unknown), a suspending task without a bound, or a suspending peer of
// the same explicit priority that does not meet its deadline; with
// boundGPU, the GPU responses count as bounds (as they were before the
// first withdrawal). -1 if none.
func (e *Evaluator) taintAbove(r *Analysis, i int, boundGPU bool) int {
	t := &r.Tasks[i]
	best := -1
	for _, k := range e.causes.cands[t.Unit] {
		o := &r.Tasks[k]
		if k == i || !o.Role.OnCPU() {
			continue
		}
		peer := t.Explicit && o.Rank == t.Rank
		if o.Rank > t.Rank || (o.Rank == t.Rank && !peer) {
			continue
		}
		v := o.Verdict
		if boundGPU {
			v = r.failedVerdict(o)
		}
		waits := (o.Role == OffloadSync || o.Role == OffloadAsync) && !r.GPU[o.GPU].Bound(r) && !boundGPU
		taints := waits || o.Jitter >= rta.MaxTime || (o.Suspension > 0 && !v.Bounded() && !(boundGPU && v == GPUNoBound)) ||
			(peer && o.Suspension > 0 && v != Meets)
		if taints && (best < 0 || o.Rank < r.Tasks[best].Rank) {
			best = k
		}
	}
	return best
}

// Cause returns the task whose own test fails and from which task i's
// verdict follows (i itself when its own test fails), or -1 when task i
// meets its deadline or does not run.
func (r *Analysis) Cause(i int) int {
	if r.Tasks[i].Because < 0 {
		return -1
	}
	k := i
	for range r.Tasks { // a chain visits every task at most once
		b := r.Tasks[k].Because
		if b < 0 || b == k {
			return k
		}
		k = b
	}
	// A cycle: withdrawals that came back to where they started. The
	// task in it that failed before the first withdrawal started it.
	for range r.Tasks {
		if r.Tasks[k].withdrew {
			return k
		}
		k = r.Tasks[k].Because
	}
	return i
}

// CauseWords says in words how task i fails on its own: "task X misses its
// deadline", "the GPU response of X passes its period", …
func (r *Analysis) CauseWords(i int) string {
	t := &r.Tasks[i]
	v := t.Verdict
	if t.withdrew {
		v = t.withdrewVerdict
	}
	if t.Role == OnGPU {
		if !r.GPU[t.GPU].WithinPeriod {
			return fmt.Sprintf("the GPU response of %s passes its period", t.Name)
		}
		return fmt.Sprintf("GPU task %s misses its deadline", t.Name)
	}
	// A response past the deadline is a miss, whether or not the
	// iteration went on past the period (a margin's probes stop at the
	// deadline).
	switch v {
	case Overloaded:
		return fmt.Sprintf("task %s misses its deadline (the tasks above it overload %s)", t.Name, t.UnitName)
	case Misses, NoBound, GPUNoBound:
		return fmt.Sprintf("task %s misses its deadline", t.Name)
	}
	return fmt.Sprintf("task %s: %s", t.Name, v)
}

// Consequences says what follows from task c's failure, in order: the
// GPU responses withdrawn or left without a bound and the tasks left
// without a bound because of it, step by step ("so the GPU responses of
// SFM, Detection are withdrawn", "so OS_Overhead has no bound"). It is
// empty when nothing else fails because of c.
func (r *Analysis) Consequences(c int) []string {
	depth := make([]int, len(r.Tasks))
	for i := range depth {
		depth[i] = -1
	}
	depth[c] = 0
	// Depth in the chain from c, by repeated passes (chains are short).
	for changed := true; changed; {
		changed = false
		for i := range r.Tasks {
			b := r.Tasks[i].Because
			if depth[i] < 0 && b >= 0 && b != i && depth[b] >= 0 {
				depth[i], changed = depth[b]+1, true
			}
		}
	}
	var out []string
	for d := 1; ; d++ {
		var withdrawn, late, noBound []string
		for i := range r.Tasks {
			if depth[i] != d {
				continue
			}
			t := &r.Tasks[i]
			switch {
			case t.Role == OnGPU && r.GPU[t.GPU].AssumptionMissedBy >= 0:
				withdrawn = append(withdrawn, t.Name)
			case t.Role == OnGPU:
				late = append(late, t.Name)
			default:
				noBound = append(noBound, t.Name)
			}
		}
		if withdrawn == nil && late == nil && noBound == nil {
			return out
		}
		var parts []string
		if withdrawn != nil {
			parts = append(parts, fmt.Sprintf("the GPU %s of %s %s withdrawn", plural(len(withdrawn), "response", "responses"), strings.Join(withdrawn, ", "), isAre(len(withdrawn))))
		}
		if late != nil {
			parts = append(parts, fmt.Sprintf("the GPU %s of %s %s no bound", plural(len(late), "response", "responses"), strings.Join(late, ", "), isAre(len(late))))
		}
		if noBound != nil {
			parts = append(parts, fmt.Sprintf("%s %s no bound", strings.Join(noBound, ", "), hasHave(len(noBound))))
		}
		out = append(out, "so "+strings.Join(parts, ", and "))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// markWithdrawers records, before any GPU bound is withdrawn, the
// offloading tasks on a core that do not meet their deadline while their
// own GPU response is a bound (the tasks a withdrawal follows from), with
// the verdict they have (TaskResult.withdrew). It marks none once a
// response has been withdrawn: a failure after that may be its
// consequence.
func (e *Evaluator) markWithdrawers(r *Analysis) {
	for g := range r.GPU {
		if r.GPU[g].OnGPU && r.GPU[g].AssumptionMissedBy >= 0 {
			return
		}
	}
	for g := range r.GPU {
		if !r.GPU[g].OnGPU {
			continue
		}
		pre := &r.Tasks[e.gpus[g].pre]
		if pre.Role.OnCPU() && !pre.Schedulable() && r.GPU[g].Bound(r) {
			pre.withdrew, pre.withdrewVerdict = true, pre.Verdict
		}
	}
}

// VerdictWords says task i's verdict in words that say what happened: the
// words of Verdict.String, except where the verdict is no bound because of
// a GPU response, which they explain (the response passes the period; it
// is withdrawn because an offloading task does not meet its deadline;
// another GPU task's response passes its period), and where it follows
// from another task, which they name.
func (r *Analysis) VerdictWords(i int) string {
	t := &r.Tasks[i]
	switch t.Verdict {
	case GPUNoBound:
		if t.withdrew {
			return fmt.Sprintf("no bound (it %s with its GPU response as analysed, so the GPU responses that assume it meets its deadline are withdrawn, its own too)",
				verdictVerb(t.withdrewVerdict))
		}
		g := &r.GPU[t.GPU]
		its := "its GPU response"
		if t.Role == OnGPU {
			its = "GPU response"
		}
		switch {
		case !g.WithinPeriod:
			return "no bound (" + its + " passes the period)"
		case g.AssumptionMissedBy >= 0:
			k := r.offloaderOf(g.AssumptionMissedBy)
			pre := &r.Tasks[k]
			w := fmt.Sprintf("no bound (%s, within the period, is withdrawn: %s %s", its, pre.Name, verdictVerb(r.failedVerdict(pre)))
			if c := r.Cause(k); c >= 0 && c != k {
				w += "; the cause: " + r.CauseWords(c)
			}
			return w + ")"
		case !r.GPUSound:
			var late []string
			for h := range r.GPU {
				if r.GPU[h].OnGPU && !r.GPU[h].WithinPeriod {
					late = append(late, r.GPU[h].Name)
				}
			}
			return fmt.Sprintf("no bound (%s is within the period, but the GPU analysis needs every GPU task to respond within its period, and the response of %s passes it)",
				its, strings.Join(late, ", "))
		}
	case InterfererNoBound:
		if b := t.Because; b >= 0 && b != i {
			return fmt.Sprintf("no bound (%s above it has none)", r.Tasks[b].Name)
		}
	case ActivatorNoBound:
		if b := t.Because; b >= 0 && b != i {
			return fmt.Sprintf("no bound (%s, which activates it, has none)", r.Tasks[b].Name)
		}
	}
	return t.Verdict.String()
}

// failedVerdict is the verdict with which task t failed first: the one it
// had when GPU bounds were withdrawn because of it, else its verdict.
func (r *Analysis) failedVerdict(t *TaskResult) Verdict {
	if t.withdrew {
		return t.withdrewVerdict
	}
	return t.Verdict
}

// verdictVerb says a failing verdict as a verb phrase: "misses its
// deadline", "has no bound".
func verdictVerb(v Verdict) string {
	switch v {
	case Misses:
		return "misses its deadline"
	case Meets:
		return "meets its deadline"
	case NoBound:
		return "has no bound (its response passes its period)"
	case Overloaded:
		return "has no bound (the tasks above it overload its core)"
	}
	return "has no bound"
}
