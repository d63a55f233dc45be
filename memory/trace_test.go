package memory

import (
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// This file checks the counting argument of the refined count against
// traces: a tick-level simulation of one interfering core under
// fixed-priority preemptive scheduling, with read/compute/write segments
// and self-suspensions, and an adversary that places the observed core's
// accesses so that as many as possible overlap the core's memory phases.
// The argument claims, for every window [a, a+t):
//
//  1. the time the core spends in memory phases is at most Busy(t);
//  2. the number of its separate memory intervals that meet the window is
//     at most Phases(t);
//  3. the number of sequential accesses of length ≥ baseline inside the
//     window that overlap one of them is at most
//     floor(Busy(t)/baseline) + 2·Phases(t), the refined time count.
//
// Response times R_k are the largest ones the trace shows: every job of
// the trace then runs within [arrival, arrival + R_k], which is all the
// count needs of R_k.

type segKind uint8

const (
	segMem     segKind = iota // a read or write phase: one line per tick
	segCompute                // execution without memory accesses
	segSuspend                // self-suspension: the job is not ready
)

type simSeg struct {
	kind segKind
	len  int // worst case, ticks
}

// simTask is a periodic task of the simulated core; a lower index is a
// higher priority.
type simTask struct {
	period, offset int
	segs           []simSeg
}

// demand returns the task's Demand in units of scale per tick, with the
// observed response time r.
func (s *simTask) demand(r, scale int) Demand {
	d := Demand{Period: int64(s.period * scale), Response: int64(r * scale), Splits: 1}
	for _, g := range s.segs {
		switch g.kind {
		case segMem:
			d.Lines += int64(g.len)
			d.Phases++
		case segSuspend:
			d.Splits++
		}
	}
	return d
}

type simJob struct {
	task, arrival int
	left          []int // remaining ticks per segment (actual lengths)
	seg, readyAt  int
	done          bool
}

// advance moves j past finished and empty segments from time now on,
// starting suspensions; it reports whether the job has completed.
func (j *simJob) advance(tasks []simTask, now int) bool {
	segs := tasks[j.task].segs
	for j.seg < len(segs) && j.left[j.seg] == 0 {
		j.seg++
	}
	for j.seg < len(segs) && segs[j.seg].kind == segSuspend {
		j.readyAt = now + j.left[j.seg]
		j.seg++
		for j.seg < len(segs) && j.left[j.seg] == 0 {
			j.seg++
		}
	}
	return j.seg == len(segs)
}

// simulate runs the core from 0, releasing jobs before horizon, until every
// job completes. Each segment takes an actual length drawn in [0, worst]
// (a memory segment in [1, worst] when full). It returns per tick whether
// the core is in a memory phase, and every task's largest response time;
// ok is false if the jobs do not drain within 20·horizon ticks.
func simulate(tasks []simTask, horizon int, full bool, rng *rand.Rand) (busy []bool, resp []int, ok bool) {
	resp = make([]int, len(tasks))
	var jobs []*simJob
	for now := 0; now < 20*horizon; now++ {
		if now < horizon {
			for k := range tasks {
				t := &tasks[k]
				if now < t.offset || (now-t.offset)%t.period != 0 {
					continue
				}
				j := &simJob{task: k, arrival: now, readyAt: now, left: make([]int, len(t.segs))}
				for s, g := range t.segs {
					switch {
					case full:
						j.left[s] = g.len
					default:
						j.left[s] = rng.Intn(g.len + 1)
					}
				}
				if j.advance(tasks, now) {
					j.done = true // no work: R = 0
					continue
				}
				jobs = append(jobs, j)
			}
		}
		var run *simJob
		pending := false
		for _, j := range jobs {
			if j.done {
				continue
			}
			pending = true
			if j.readyAt > now {
				continue
			}
			if run == nil || j.task < run.task || (j.task == run.task && j.arrival < run.arrival) {
				run = j
			}
		}
		if !pending && now >= horizon {
			return busy, resp, true
		}
		busy = append(busy, false)
		if run == nil {
			continue
		}
		if tasks[run.task].segs[run.seg].kind == segMem {
			busy[now] = true
		}
		run.left[run.seg]--
		if run.advance(tasks, now+1) {
			run.done = true
			resp[run.task] = max(resp[run.task], now+1-run.arrival)
		}
	}
	return nil, nil, false
}

// maxOverlaps returns the largest number of sequential accesses of length
// b (in sub-ticks, scale per tick), all inside [a, a+t) (in sub-ticks),
// each overlapping a busy tick. Earliest-end greedy is optimal for this
// interval-packing problem, and the shortest accesses allow the most.
// next[i] is the first busy tick at or after tick i (len(busy) if none).
func maxOverlaps(next []int, scale, a, t, b int) int {
	n := 0
	end := a + t
	for pos := a; ; {
		tick := pos / scale
		if tick >= len(next)-1 {
			return n
		}
		u := pos // first busy sub-tick at or after pos
		if next[tick] != tick {
			u = next[tick] * scale
		}
		x := max(pos, u-b+1)
		if x+b > end {
			return n
		}
		n++
		pos = x + b
	}
}

func nextBusy(busy []bool) []int {
	next := make([]int, len(busy)+1)
	next[len(busy)] = len(busy)
	for i := len(busy) - 1; i >= 0; i-- {
		next[i] = next[i+1]
		if busy[i] {
			next[i] = i
		}
	}
	return next
}

// windowFacts returns the memory ticks of the trace in [a, a+t) and the
// number of maximal runs of memory ticks that meet it.
func windowFacts(busy []bool, a, t int) (ticks, runs int) {
	for i := a; i < a+t && i < len(busy); i++ {
		if !busy[i] {
			continue
		}
		ticks++
		if i == a || !busy[i-1] {
			runs++
		}
	}
	return ticks, runs
}

// randomSimTasks draws 1 to 4 tasks with runnables of a read phase, a
// computation and a write phase, some of them self-suspending, and periods
// that keep the utilisation below about 0.9.
func randomSimTasks(rng *rand.Rand) []simTask {
	n := 1 + rng.Intn(4)
	tasks := make([]simTask, n)
	for k := range tasks {
		t := &tasks[k]
		work := 0
		runnables := 1 + rng.Intn(3)
		for r := 0; r < runnables; r++ {
			if r > 0 && rng.Intn(3) == 0 {
				t.segs = append(t.segs, simSeg{segSuspend, 1 + rng.Intn(8)})
			}
			if rng.Intn(5) < 3 {
				t.segs = append(t.segs, simSeg{segMem, 1 + rng.Intn(6)})
			}
			t.segs = append(t.segs, simSeg{segCompute, rng.Intn(4)})
			if rng.Intn(2) == 0 {
				t.segs = append(t.segs, simSeg{segMem, 1 + rng.Intn(4)})
			}
		}
		for _, g := range t.segs {
			if g.kind != segSuspend {
				work += g.len
			}
		}
		t.period = max(1, work*n*10/9) + rng.Intn(3*work+5)
		t.offset = rng.Intn(t.period)
	}
	if n > 1 && rng.Intn(2) == 0 {
		// The adversarial shape of TestTraceSuspensionSplits: a short,
		// frequent, self-suspending task on top of long memory phases.
		c, s := 1+rng.Intn(3), 1+rng.Intn(6)
		tasks[0] = simTask{period: 2*c + s + 1 + rng.Intn(2*c+s), segs: []simSeg{
			{segCompute, c}, {segSuspend, s}, {segCompute, c}}}
		tasks[0].offset = rng.Intn(tasks[0].period)
		for k := 1; k < n; k++ {
			tasks[k].segs = append(tasks[k].segs, simSeg{segMem, 10 + rng.Intn(30)})
			tasks[k].period += 60 * n
		}
	}
	return tasks
}

// TestTraceCounts checks claims 1–3 on random traces, for every window
// start and a range of lengths, and the observed core's baseline from a
// fifth of a tick to three ticks.
func TestTraceCounts(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	const scale = 5 // sub-ticks per tick, so that accesses need not align
	cases := 300
	if testsize.Reduced() {
		cases = 60
	}
	checked, skipped := 0, 0
	for c := 0; c < cases; c++ {
		tasks := randomSimTasks(rng)
		busy, resp, ok := simulate(tasks, 150, c%4 == 0, rng)
		if !ok {
			skipped++
			continue
		}
		ticks := Interferer{Latency: 1}
		sub := Interferer{Latency: scale}
		for k := range tasks {
			ticks.Tasks = append(ticks.Tasks, tasks[k].demand(resp[k], 1))
			sub.Tasks = append(sub.Tasks, tasks[k].demand(resp[k], scale))
		}
		next := nextBusy(busy)
		for _, tw := range []int{1, 2, 3, 5, 8, 13, 21, 34, 55, 89} {
			busyBound, phaseBound := ticks.Busy(int64(tw)), ticks.Phases(int64(tw))
			b := 1 + rng.Intn(3*scale)
			w := Window{Core: CoreParams{Baseline: int64(b)}, Cores: []Interferer{sub}}
			timeBound := w.Overlap(&w.Cores[0], int64(tw*scale), 1<<62, 0, RefinedCount).Count
			for a := 0; a+tw <= len(busy); a++ {
				mem, runs := windowFacts(busy, a, tw)
				if int64(mem) > busyBound || int64(runs) > phaseBound {
					t.Fatalf("case %d, tasks %+v, R %v, window [%d, %d): %d memory ticks in %d runs, bounds Busy %d, Phases %d",
						c, tasks, resp, a, a+tw, mem, runs, busyBound, phaseBound)
				}
				if o := maxOverlaps(next, scale, a*scale, tw*scale, b); int64(o) > timeBound {
					t.Fatalf("case %d, tasks %+v, R %v, window [%d, %d), baseline %d/%d tick: %d overlapping accesses, time count %d",
						c, tasks, resp, a, a+tw, b, scale, o, timeBound)
				}
				checked++
			}
		}
	}
	t.Logf("%d windows of %d traces checked, %d traces did not drain", checked, cases-skipped, skipped)
	if skipped > cases/3 {
		t.Fatalf("%d of %d traces did not drain", skipped, cases)
	}
	if checked < cases*100 {
		t.Fatalf("only %d windows checked", checked)
	}
}

// TestTraceSuspensionSplits shows why a self-suspending task counts one
// split per suspension besides its release. H (high priority, period 24)
// computes 6 ticks, suspends 6 ticks, computes 6 ticks; L (low priority)
// has one read phase of 120 lines. H cuts L's phase into pieces of 6
// ticks, two per period, with gaps of 6 ticks. An observed core whose
// accesses take 4 ticks overlaps each piece with 3 accesses (one spanning
// its start, two starting inside), 60 in the ten periods of L's phase.
// With one split per job for H, as for a task that does not suspend, the
// time count over a window of 240 ticks would be floor(120/4) + 2·(η_L·2
// + η_H·1) = 30 + 2·(2 + 11) = 56 < 60 (η_H = ceil((240 + 18)/24) = 11,
// η_L = 1): unsound. With Splits = 2 it is 30 + 2·(2 + 22) = 78.
func TestTraceSuspensionSplits(t *testing.T) {
	tasks := []simTask{
		{period: 24, segs: []simSeg{{segCompute, 6}, {segSuspend, 6}, {segCompute, 6}}},
		{period: 1000, segs: []simSeg{{segMem, 120}}},
	}
	busy, resp, ok := simulate(tasks, 1000, true, nil)
	if !ok {
		t.Fatal("trace does not drain")
	}
	if resp[0] != 18 {
		t.Fatalf("R_H = %d, want 18", resp[0])
	}
	next := nextBusy(busy)
	const tw, b = 240, 4
	most := 0
	for a := 0; a+tw <= len(busy); a++ {
		most = max(most, maxOverlaps(next, 1, a, tw, b))
	}
	if most != 60 {
		t.Fatalf("the adversary overlaps %d accesses, want 60", most)
	}
	w := Window{Core: CoreParams{Baseline: b}, Cores: []Interferer{{Latency: 1}}}
	c := &w.Cores[0]
	for k := range tasks {
		c.Tasks = append(c.Tasks, tasks[k].demand(resp[k], 1))
	}
	if got := w.Overlap(c, tw, 1<<40, 0, RefinedCount).Count; got != 78 {
		t.Errorf("time count with suspension splits = %d, want 78", got)
	}
	c.Tasks[0].Splits = 1 // as if H did not suspend
	if got := w.Overlap(c, tw, 1<<40, 0, RefinedCount).Count; got != 56 {
		t.Errorf("time count without suspension splits = %d, want 56", got)
	}
}
