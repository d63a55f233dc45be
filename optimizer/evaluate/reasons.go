package evaluate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta"
)

// Reasons explains, in plain words and with the numbers, every reason why
// the mapping is not schedulable: overloaded cores first, then the GPU tasks
// whose response fails (they feed the cores), then the tasks that miss or
// have no bound, core by core, most urgent first. It is empty
// for a schedulable mapping. It allocates; call it for reports, not in a
// search loop.
func (r *Analysis) Reasons() []string {
	var out []string
	// First the failures that others follow from, with what follows
	// (Cause, Consequences): the reasons below name every task.
	for i := range r.Tasks {
		if r.Tasks[i].Because != i {
			continue
		}
		if then := r.Consequences(i); len(then) > 0 {
			out = append(out, "the cause: "+r.CauseWords(i)+" (on "+r.unitOf(i)+"); "+strings.Join(then, "; "))
		}
	}
	refined := r.ContentionCount != "" && r.ContentionCount != configs.ContentionChallenge
	for u := range r.Units {
		ur := &r.Units[u]
		if ur.GPU || ur.Utilisation <= 1 {
			continue
		}
		// Under the refined counts the utilisation holds C's per-job
		// contention, which the response times do not charge: a core is
		// overloaded only where it fails for it (Overloaded) or where its
		// tasks exceed it without any contention.
		if refined && !r.overloadedWithoutContention(u) {
			continue
		}
		// A busy-wait for a GPU response without a bound is no number: the
		// load is counted without it, and the core is overloaded only where
		// it is so.
		var parts, unbounded []string
		var u0, uc float64
		for _, k := range r.byRank(u) {
			t := &r.Tasks[k]
			c, wait := t.C, t.GPUWait
			if !r.WaitBounded(k) {
				c, wait = t.C-t.GPUWait, 0
				if t.GPUWait > 0 {
					unbounded = append(unbounded, r.GPU[t.GPU].Name)
				}
			}
			uc += float64(c) / float64(t.T)
			if refined {
				c = t.Compute + t.Memory + wait
			}
			u0 += float64(c) / float64(t.T)
			p := t.Name + " " + pct(float64(c)/float64(t.T))
			if wait > 0 {
				p += " with its busy-wait of " + fmtDur(t.GPUWait) + " for " + r.GPU[t.GPU].Name
			}
			parts = append(parts, p)
		}
		if (refined && u0 <= 1 && !r.overloadedWithoutWaits(u)) || (!refined && uc <= 1) {
			continue
		}
		waits := ""
		if len(unbounded) > 0 {
			waits = ", and " + busyWaits(unbounded)
		}
		if refined {
			out = append(out, fmt.Sprintf("%s is overloaded: utilisation without the contention of other units %s (%s with C's per-job contention)", ur.Name, pct(u0), pct(uc))+
				" ("+strings.Join(parts, ", ")+waits+")")
			continue
		}
		out = append(out, fmt.Sprintf("%s is overloaded: utilisation %s > 100 %% (%s%s)", ur.Name, pct(uc), strings.Join(parts, ", "), waits))
	}
	for u := range r.Units {
		if r.Units[u].GPU {
			out = append(out, r.gpuReasons(u)...)
		}
	}
	for u := range r.Units {
		if r.Units[u].GPU {
			continue
		}
		for _, k := range r.byRank(u) {
			if s := r.taskReason(k); s != "" {
				out = append(out, s)
			}
		}
	}
	return append(out, r.requirementReasons()...)
}

// byRank returns the tasks on CPU unit u, most urgent first.
func (r *Analysis) byRank(u int) []int {
	var ids []int
	for k := range r.Tasks {
		if r.Tasks[k].Unit == u && r.Tasks[k].Role.OnCPU() {
			ids = append(ids, k)
		}
	}
	slices.SortStableFunc(ids, func(a, b int) int { return r.Tasks[a].Rank - r.Tasks[b].Rank })
	return ids
}

// busyWaits names busy-waits for GPU responses without a bound: "a
// busy-wait for the GPU response of SFM, which has no bound".
func busyWaits(gpus []string) string {
	if len(gpus) == 1 {
		return "a busy-wait for the GPU response of " + gpus[0] + ", which has no bound"
	}
	return "busy-waits for the GPU responses of " + strings.Join(gpus, ", ") + ", which have no bound"
}

// overloadedWithoutWaits reports whether a task of core u has no finite
// response because of the load above it with no busy-wait for a GPU
// response without a bound among that load (Overloaded, its own failure).
func (r *Analysis) overloadedWithoutWaits(u int) bool {
	for k := range r.Tasks {
		if t := &r.Tasks[k]; t.Unit == u && t.Role.OnCPU() && t.Verdict == Overloaded && t.Because == k {
			return true
		}
	}
	return false
}

// overloadedWithoutContention reports whether core u's tasks use more
// than the core even without the contention of other units, or one of
// them has no finite bound because of the load above it.
func (r *Analysis) overloadedWithoutContention(u int) bool {
	var u0 float64
	for k := range r.Tasks {
		t := &r.Tasks[k]
		if t.Unit == u && t.Role.OnCPU() {
			if t.Verdict == Overloaded {
				return true
			}
			u0 += float64(t.Compute+t.Memory+t.GPUWait) / float64(t.T)
		}
	}
	return u0 > 1
}

func (r *Analysis) taskReason(k int) string {
	t := &r.Tasks[k]
	where := t.Name + " on " + t.UnitName
	refined := r.ContentionCount != "" && r.ContentionCount != configs.ContentionChallenge
	if (t.Verdict == Misses || t.Verdict == NoBound) && t.GPUWait == 0 {
		if c0 := t.Compute + t.Memory; refined && c0 > t.D {
			return fmt.Sprintf("%s: its execution time alone, without the contention of other units, %s (compute %s + memory %s), exceeds D = %s",
				where, fmtDur(c0), fmtDur(t.Compute), fmtDur(t.Memory), fmtDur(t.D))
		}
		if !refined && t.C > t.D {
			return fmt.Sprintf("%s: its execution time alone, C = %s (compute %s + memory %s + contention %s), exceeds D = %s",
				where, fmtDur(t.C), fmtDur(t.Compute), fmtDur(t.Memory), fmtDur(t.Contention), fmtDur(t.D))
		}
	}
	window := ""
	if refined && t.WindowAccesses > 0 {
		window = fmt.Sprintf("; its window's %d accesses are charged %s of contention under the %s count", t.WindowAccesses, fmtDur(t.WindowContention), r.ContentionCount)
	}
	switch t.Verdict {
	case Misses:
		return fmt.Sprintf("%s: R = %s > D = %s (misses by %s)%s", where, fmtDur(t.R), fmtDur(t.D), fmtDur(t.R-t.D), window)
	case NoBound:
		// No number for the response: the value the iteration stopped at
		// is no bound, nor is the window it was reached in.
		return fmt.Sprintf("%s: no bound: its response-time iteration passes the period %s, beyond which the analysis gives no bound (D = %s)",
			where, fmtDur(t.T), fmtDur(t.D))
	case Overloaded:
		// A busy-wait for a GPU response without a bound is no number: the
		// share is counted without it and the wait named.
		var u float64
		var names, unbounded []string
		for _, j := range r.byRank(t.Unit) {
			o := &r.Tasks[j]
			if j != k && (o.Rank < t.Rank || (t.Explicit && o.Rank == t.Rank)) {
				c, wait := o.C, o.GPUWait
				if !r.WaitBounded(j) {
					c, wait = o.C-o.GPUWait, 0
					if o.GPUWait > 0 {
						unbounded = append(unbounded, r.GPU[o.GPU].Name)
					}
				}
				if refined {
					c = o.Compute + o.Memory + wait
				}
				u += float64(c) / float64(o.T)
				names = append(names, o.Name)
			}
		}
		waits := ""
		if len(unbounded) > 0 {
			waits = ", with " + busyWaits(unbounded)
		}
		if refined {
			return fmt.Sprintf("%s: no finite response time: the tasks of higher priority (%s) use %s of the core even without the contention of other units%s", where, strings.Join(names, ", "), pct(u), waits)
		}
		return fmt.Sprintf("%s: no finite response time: the tasks of higher priority (%s) use %s of the core%s", where, strings.Join(names, ", "), pct(u), waits)
	case InterfererNoBound:
		// The tasks above that give no interference bound: a suspending
		// task without a response-time bound (its jitter R − C is
		// unknown), or one whose GPU response is no bound (its C or its
		// suspension is unknown).
		var suspending, waiting, activated []string
		for _, j := range r.byRank(t.Unit) {
			o := &r.Tasks[j]
			if j == k || !(o.Rank < t.Rank || (t.Explicit && o.Rank == t.Rank)) {
				continue
			}
			switch {
			case o.Verdict == GPUNoBound:
				waiting = append(waiting, o.Name)
			case o.Verdict == ActivatorNoBound:
				activated = append(activated, o.Name)
			case o.Suspension > 0 && !o.Verdict.Bounded():
				suspending = append(suspending, o.Name)
			}
		}
		var parts []string
		if len(activated) > 0 {
			parts = append(parts, fmt.Sprintf("%s above it %s activated by a task without a bound, so %s jitter is unknown", strings.Join(activated, ", "), isAre(len(activated)), itsTheir(len(activated))))
		}
		if len(waiting) > 0 {
			parts = append(parts, fmt.Sprintf("%s above it %s for a GPU response that is no bound", strings.Join(waiting, ", "), waitWaits(len(waiting))))
		}
		if len(suspending) > 0 {
			parts = append(parts, fmt.Sprintf("the self-suspending %s above it %s no bound", strings.Join(suspending, ", "), hasHave(len(suspending))))
		}
		return fmt.Sprintf("%s: no bound, because %s, so the interference %s cause%s is unknown", where, strings.Join(parts, ", and "), itThey(len(waiting)+len(suspending)+len(activated)), sIfOne(len(waiting)+len(suspending)+len(activated)))
	case GPUNoBound:
		g := &r.GPU[t.GPU]
		s := fmt.Sprintf("%s: waits for the GPU task %s, whose GPU response has no bound (see %s)", where, g.Name, g.Name)
		// What the task would get if that response were a bound, in words:
		// no number is a response time of this task.
		switch {
		case t.R == rta.Infinity:
			s += "; even if it were a bound, this task would have no finite response time"
		case t.R > t.D:
			s += fmt.Sprintf("; even if it were a bound, this task would miss D = %s", fmtDur(t.D))
		}
		return s
	}
	return ""
}

// gpuReasons explains the GPU tasks that fail.
func (r *Analysis) gpuReasons(u int) []string {
	var out, late []string
	for g := range r.GPU {
		if r.GPU[g].OnGPU && !r.GPU[g].WithinPeriod {
			late = append(late, r.GPU[g].Name)
		}
	}
	unit := r.Units[u].Name
	for g := range r.GPU {
		gr := &r.GPU[g]
		if !gr.OnGPU {
			continue
		}
		t := &r.Tasks[gr.Task]
		resp := &gr.Response
		where := gr.Name + " on " + unit
		switch {
		case !gr.WithinPeriod:
			// The terms where the analysis passed the period explain it;
			// their sum is no bound, so it is not shown as a response.
			out = append(out, fmt.Sprintf("%s: GPU response passes the period %s, beyond which the GPU analysis gives no bound (its terms there: %s); the GPU analysis needs every GPU task to respond within its period",
				where, fmtDur(t.T), r.gpuTerms(g)))
		case t.Verdict == GPUNoBound && gr.AssumptionMissedBy >= 0:
			h := &r.GPU[gr.AssumptionMissedBy]
			pre := &r.Tasks[r.offloaderOf(gr.AssumptionMissedBy)]
			out = append(out, fmt.Sprintf("%s: GPU response within the period %s in the analysis, but it is no bound: its analysis assumes that %s's jobs are launched with the release jitter and complete within the period they have while %s meets its deadline, and it does not: it %s",
				where, fmtDur(t.T), h.Name, pre.Name, verdictVerb(r.failedVerdict(pre))))
		case t.Verdict == GPUNoBound:
			out = append(out, fmt.Sprintf("%s: GPU response within the period %s in the analysis, but it is no bound: the GPU analysis assumes every GPU task responds within its period, and %s %s not",
				where, fmtDur(t.T), strings.Join(late, ", "), doesDo(len(late))))
		case t.Verdict == Misses:
			out = append(out, fmt.Sprintf("%s: GPU response %s > D = %s (misses by %s): %s", where, fmtDur(resp.Total), fmtDur(t.D), fmtDur(resp.Total-t.D), r.gpuTerms(g)))
		}
	}
	return out
}

// unitOf names the unit task i runs on.
func (r *Analysis) unitOf(i int) string {
	if t := &r.Tasks[i]; t.UnitName != "" {
		return t.UnitName
	}
	return "no unit"
}

// offloaderOf returns the task that offloads GPU task g (its PRE task).
func (r *Analysis) offloaderOf(g int) int {
	for k := range r.Tasks {
		if r.Tasks[k].GPU == g && k != r.GPU[g].Task {
			return k
		}
	}
	return r.GPU[g].Task
}

// gpuTerms writes the terms of a GPU response and what the kernel waits for.
func (r *Analysis) gpuTerms(g int) string {
	gr := &r.GPU[g]
	resp := &gr.Response
	var b strings.Builder
	fmt.Fprintf(&b, "copy-in wait %s + copy in %s + kernel queue %s + kernel %s + copy-out wait %s + copy out %s",
		fmtDur(resp.CopyInWait), fmtDur(resp.CopyIn), fmtDur(resp.KernelQueue), fmtDur(resp.KernelIsolated), fmtDur(resp.CopyOutWait), fmtDur(resp.CopyOut))
	if r.GPUModel != configs.GPUModelFIFO || resp.KernelQueue == 0 {
		return b.String()
	}
	var same, high []string
	for o := range r.GPU {
		og := &r.GPU[o]
		if o == g || !og.OnGPU {
			continue
		}
		if og.High {
			high = append(high, fmt.Sprintf("%s %s", og.Name, fmtDur(og.Response.KernelIsolated)))
		} else if !gr.High {
			same = append(same, fmt.Sprintf("%s %s", og.Name, fmtDur(og.Response.KernelIsolated)))
		}
	}
	if gr.High {
		if len(high) > 0 {
			fmt.Fprintf(&b, " (the kernel waits for the high-priority kernels %s", strings.Join(high, ", "))
			if resp.Blocking > 0 {
				fmt.Fprintf(&b, " and for low-priority blocks already running, %s", fmtDur(resp.Blocking))
			}
			b.WriteString(")")
		} else if resp.Blocking > 0 {
			fmt.Fprintf(&b, " (the kernel waits for low-priority blocks already running, %s)", fmtDur(resp.Blocking))
		}
		return b.String()
	}
	b.WriteString(" (the kernel waits in the FIFO queue")
	if len(same) > 0 {
		fmt.Fprintf(&b, " for one kernel of each other low-priority task: %s", strings.Join(same, ", "))
	}
	if len(high) > 0 {
		if len(same) > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " for every job of the high-priority %s in its window", strings.Join(high, ", "))
	}
	b.WriteString("; a high stream priority, a shorter kernel ahead, or moving a task to a core shortens it)")
	return b.String()
}

// fmtDur writes picoseconds for people, as results.FormatDuration does:
// "5 ms", "7.2 ms", "12.44 µs", with at most four decimals and the unit.
func fmtDur(ps int64) string {
	if ps == rta.Infinity {
		return "∞"
	}
	if ps == 0 {
		return "0 ms"
	}
	neg := ps < 0
	if neg {
		ps = -ps
	}
	units := []struct {
		name string
		v    int64
	}{{"s", 1e12}, {"ms", 1e9}, {"µs", 1e6}, {"ns", 1e3}, {"ps", 1}}
	for _, u := range units {
		if ps >= u.v || u.v == 1 {
			if u.name == "s" && ps < 10*u.v {
				continue
			}
			s := strconv.FormatFloat(float64(ps)/float64(u.v), 'f', 4, 64)
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
			if neg {
				s = "-" + s
			}
			return s + " " + u.name
		}
	}
	return ""
}

// pct writes a utilisation as a percentage with one decimal.
func pct(u float64) string { return strconv.FormatFloat(100*u, 'f', 1, 64) + " %" }
