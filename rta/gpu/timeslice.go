package gpu

import (
	"fmt"

	"github.com/hetmap/hetmap/rta/sat"
)

// TimeSliceAnalyzer bounds the GPU response of periodic GPU tasks that are
// separate processes (one GPU channel each), served round-robin with a time
// slice per channel (the time-slice model of the WATERS 2019 challenge).
// See the package
// documentation for the bound. The zero value analyses on the TX2 with no
// context-switch overhead; once its buffers have grown, Analyze does not
// allocate.
type TimeSliceAnalyzer struct {
	// Device is the GPU; the zero Device means TX2().
	Device Device
	// SwitchOverhead is the time of one context switch between channels,
	// charged once per turn (default 0).
	SwitchOverhead int64

	info  []taskInfo
	reach []int64 // per task, see reach
	prev  []int64 // the reaches of the previous round
}

// maxRounds caps the rounds of TimeSliceAnalyzer.Analyze; every round's
// bounds are sound, so stopping early only loses tightness.
const maxRounds = 16

// Analyze writes the worst-case GPU response of every task into out (which
// must have room for len(tasks) values). Every task needs Slice > 0;
// Priority is ignored (stream priorities do not act across processes). As for
// FIFOAnalyzer, the bounds assume that every job completes by its nominal
// release plus its period.
func (a *TimeSliceAnalyzer) Analyze(tasks []Task, out []Response) error {
	dev := a.Device
	if dev == (Device{}) {
		dev = TX2()
	}
	if a.SwitchOverhead < 0 || a.SwitchOverhead >= maxTime {
		return fmt.Errorf("gpu: TimeSliceAnalyzer: SwitchOverhead = %d: must be in [0, 2^62)", a.SwitchOverhead)
	}
	var err error
	if a.info, err = prepare(dev, tasks, out, a.info, true); err != nil {
		return err
	}
	var ceSum int64
	for i := range a.info {
		ceSum += a.info[i].ce
	}
	// Every channel's bound counts the jobs of the others through their
	// reach, which their bounds give: the first round uses the period as
	// every reach (sound on its own), each later round the reaches of the
	// round before, whose bounds are sound, so every round's bounds are
	// sound and none is larger than the round before's. Stop when the
	// reaches no longer change.
	a.reach, a.prev = a.reach[:0], a.prev[:0]
	for i := range tasks {
		a.reach = append(a.reach, max(tasks[i].Period, 0))
		a.prev = append(a.prev, 0)
	}
	for range maxRounds {
		for i := range tasks {
			a.analyzeTask(tasks, i, ceSum, &out[i])
		}
		copy(a.prev, a.reach)
		changed := false
		for i := range tasks {
			a.reach[i] = reach(&tasks[i], &out[i])
			changed = changed || a.reach[i] != a.prev[i]
		}
		if !changed {
			break
		}
	}
	return nil
}

// analyzeTask bounds the response of task i into r, given the reaches of the
// other tasks.
func (a *TimeSliceAnalyzer) analyzeTask(tasks []Task, i int, ceSum int64, r *Response) {
	cs := a.SwitchOverhead
	t, ti := &tasks[i], &a.info[i]
	order := r.WorstOrder[:0]
	*r = Response{CopyIn: t.CopyIn, CopyOut: t.CopyOut, KernelIsolated: ti.iso,
		Bounded: true, Bound: BoundTimeSlice, WorstOrder: order}
	copies, kHorizon := copyWaits(t, ti, ceSum, r)

	e := ti.iso
	n := ceilDiv(e, t.Slice) // turns task i needs
	r.Turns = n
	var w, sw int64
	r.Bounded = false
	for it := 0; it < maxIter; it++ {
		// Before each of i's n turns, every other channel j gets at most
		// one turn of at most S_j, and only while it has work: at most
		// jobs(T_j, w) jobs of E_j each, in at most
		// jobs·ceil(E_j/S_j) turns. Every turn starts with a switch.
		turns := n
		next := e
		for j := range tasks {
			if j == i {
				continue
			}
			tj, ej := &tasks[j], a.info[j].iso
			jb := jobs(tj.Period, w, a.reach[j])
			tu := min(n, sat.Mul(jb, ceilDiv(ej, tj.Slice)))
			next = sat.Add(next, min(sat.Mul(tu, tj.Slice), sat.Mul(jb, ej)))
			turns = sat.Add(turns, tu)
		}
		sw = sat.Mul(cs, turns)
		next = sat.Add(next, sw)
		if next >= maxTime || next > kHorizon {
			w = next
			break
		}
		if next == w {
			r.Bounded = true
			break
		}
		w = next
	}
	r.SwitchOverhead = sw
	r.KernelQueue = w - e
	r.Total = sat.Add(copies, w)
}
