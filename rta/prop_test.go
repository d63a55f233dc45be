package rta

import (
	"math/big"
	"math/rand"
	"testing"
)

var allPolicies = []Policy{OPA, DeadlineMonotonic, RateMonotonic, Explicit}

// randTasks returns a random task set on one core with small integer
// times; suspending and jittered tasks appear with some probability.
func randTasks(rng *rand.Rand, n int) []Task {
	ts := make([]Task, n)
	for i := range ts {
		t := int64(2 + rng.Intn(59))
		d := t
		if rng.Intn(3) == 0 {
			d = 1 + rng.Int63n(t)
		}
		x := Task{C: rng.Int63n(t/3 + 1), T: t, D: d, Priority: rng.Intn(2 * n)}
		if rng.Intn(4) == 0 {
			x.J = rng.Int63n(4)
		}
		if rng.Intn(5) == 0 {
			x.B = rng.Int63n(3)
		}
		if rng.Intn(3) == 0 {
			x.S = rng.Int63n(t/2 + 1)
		}
		ts[i] = x
	}
	return ts
}

// refResponse is an independent reference: the plain fixed-point iteration
// from w = C + S + B in arbitrary precision. It reports false if w grows
// beyond cap without converging.
func refResponse(t Task, hp []Interferer, cap int64) (int64, bool) {
	if t.C+t.S+t.B == 0 {
		return t.J, true // a job without work completes when released
	}
	a := big.NewInt(t.C + t.S + t.B)
	w := new(big.Int).Set(a)
	limit := big.NewInt(cap)
	one := big.NewInt(1)
	for {
		next := new(big.Int).Set(a)
		for _, h := range hp {
			x := new(big.Int).Add(w, big.NewInt(h.J))
			x.Add(x, big.NewInt(h.T))
			x.Sub(x, one)
			x.Div(x, big.NewInt(h.T))
			next.Add(next, x.Mul(x, big.NewInt(h.C)))
		}
		if next.Cmp(w) == 0 {
			return w.Int64() + t.J, true
		}
		if next.Cmp(limit) > 0 {
			return 0, false
		}
		w = next
	}
}

// checkInvariants checks the results of Analyze for tasks under policy p.
func checkInvariants(t *testing.T, p Policy, a *Analyzer, ts []Task, out []Result, ok bool) {
	t.Helper()
	n := len(ts)
	order := a.Order()
	if len(order) != n {
		t.Fatalf("%v: order %v for %d tasks", p, order, n)
	}
	seen := make([]bool, n)
	for _, i := range order {
		if i < 0 || i >= n || seen[i] {
			t.Fatalf("%v: order %v is not a permutation", p, order)
		}
		seen[i] = true
	}
	all := true
	for rank, i := range order {
		x, r := ts[i], out[i]
		all = all && r.Status == Schedulable
		if p != Explicit && r.Rank != rank {
			t.Fatalf("%v: task %d rank %d at position %d", p, i, r.Rank, rank)
		}
		switch r.Status {
		case Unbounded:
			if r.R != Infinity {
				t.Fatalf("%v: unbounded with R = %d", p, r.R)
			}
			continue
		case Invalid:
			t.Fatalf("%v: invalid status for valid input", p)
		}
		if r.R < x.C+x.S+x.B+x.J {
			t.Fatalf("%v: task %d %+v: R = %d below C+S+B+J", p, i, x, r.R)
		}
		if r.Status == Schedulable && r.R > x.D {
			t.Fatalf("%v: schedulable with R %d > D %d", p, r.R, x.D)
		}
		if r.Status == DeadlineMiss && (r.R <= x.D || r.R > x.T) {
			t.Fatalf("%v: deadline miss with R %d, D %d, T %d", p, r.R, x.D, x.T)
		}
	}
	if ok != all {
		t.Fatalf("%v: ok = %v, but all schedulable = %v", p, ok, all)
	}
	if p == OPA && a.OPALevels() == n && !ok {
		t.Fatalf("OPA filled every level but not all tasks are schedulable: %+v %+v", ts, out)
	}
	if p == Explicit {
		return
	}
	// Strict order: recompute every bounded response time with the
	// reference iteration and the tight jitters.
	hp := []Interferer{}
	for _, i := range order {
		if out[i].Status.Bounded() {
			want, conv := refResponse(ts[i], hp, 4*MaxTime)
			if !conv || want != out[i].R {
				t.Fatalf("%v: task %d %+v: R = %d, reference %d (%v); tasks %+v, out %+v",
					p, i, ts[i], out[i].R, want, conv, ts, out)
			}
		}
		hp = append(hp, ts[i].Interferer(out[i].R))
	}
}

func TestRandomInvariants(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var a Analyzer
	for iter := 0; iter < 20000; iter++ {
		ts := randTasks(rng, 1+rng.Intn(6))
		out := make([]Result, len(ts))
		a.Limit = Limit(rng.Intn(3))
		dmOK, noSusp := false, true
		for _, x := range ts {
			noSusp = noSusp && x.S == 0
		}
		for _, p := range allPolicies {
			ok, err := a.Analyze(p, ts, out)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, p, &a, ts, out, ok)
			if p == DeadlineMonotonic {
				dmOK = ok
			}
		}
		// Without suspension the final test equals OPA's test, and OPA is
		// optimal for it: whatever DM schedules, OPA schedules.
		if noSusp && dmOK {
			if ok, _ := a.Analyze(OPA, ts, out); !ok {
				t.Fatalf("DM schedules %+v but OPA does not", ts)
			}
		}
	}
}

// TestOPAMatchesExplicit checks that the response times OPA reports (some
// reused from its assignment test) equal those of an explicit analysis of
// the order it chose.
func TestOPAMatchesExplicit(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var a, b Analyzer
	for iter := 0; iter < 20000; iter++ {
		ts := randTasks(rng, 1+rng.Intn(6))
		out := make([]Result, len(ts))
		out2 := make([]Result, len(ts))
		if _, err := a.Analyze(OPA, ts, out); err != nil {
			t.Fatal(err)
		}
		for rank, i := range a.Order() {
			ts[i].Priority = len(ts) - rank
		}
		if _, err := b.Analyze(Explicit, ts, out2); err != nil {
			t.Fatal(err)
		}
		for i := range out {
			if out[i] != out2[i] {
				t.Fatalf("task %d: OPA %+v, explicit %+v; tasks %+v", i, out[i], out2[i], ts)
			}
		}
	}
}

// TestMonotoneExecutionTime: for a fixed priority order, raising any
// execution time never lowers any response time and never turns a task
// schedulable. (OPA may change the order, and ties under Explicit use the
// deadline-based jitter D − C, so both are excluded.)
func TestMonotoneExecutionTime(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	a := Analyzer{Limit: LimitNone}
	for iter := 0; iter < 20000; iter++ {
		ts := randTasks(rng, 1+rng.Intn(6))
		for i := range ts {
			ts[i].Priority = -i // distinct
		}
		k := rng.Intn(len(ts))
		more := append([]Task(nil), ts...)
		more[k].C += 1 + rng.Int63n(3)
		for _, p := range []Policy{DeadlineMonotonic, RateMonotonic, Explicit} {
			before := make([]Result, len(ts))
			after := make([]Result, len(ts))
			a.Analyze(p, ts, before)
			a.Analyze(p, more, after)
			for i := range ts {
				if after[i].R < before[i].R {
					t.Fatalf("%v: C[%d] += %d lowered R[%d] from %d to %d; tasks %+v",
						p, k, more[k].C-ts[k].C, i, before[i].R, after[i].R, ts)
				}
				if after[i].Status == Schedulable && before[i].Status != Schedulable {
					t.Fatalf("%v: raising C[%d] made task %d schedulable", p, k, i)
				}
			}
		}
	}
}

// TestAddLowestPriority: adding a task below all others changes nothing
// for the others.
func TestAddLowestPriority(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var a Analyzer
	for iter := 0; iter < 20000; iter++ {
		ts := randTasks(rng, 1+rng.Intn(5))
		a.Limit = Limit(rng.Intn(3))
		var maxD int64
		for _, x := range ts {
			maxD = max(maxD, x.D)
		}
		extra := randTasks(rng, 1)[0]
		extra.Priority = -1 // randTasks priorities are ≥ 0
		extra.D = maxD + 1 + rng.Int63n(5)
		extra.T = extra.D + rng.Int63n(5)
		more := append(append([]Task(nil), ts...), extra)
		for _, p := range []Policy{DeadlineMonotonic, Explicit} {
			before := make([]Result, len(ts))
			after := make([]Result, len(more))
			a.Analyze(p, ts, before)
			a.Analyze(p, more, after)
			for i := range ts {
				if before[i] != after[i] {
					t.Fatalf("%v: adding a lowest-priority task changed task %d: %+v → %+v", p, i, before[i], after[i])
				}
			}
		}
	}
}

// TestExactWithoutJitter: with J = B = S = 0 the analysis is exact; a
// simulation of the synchronous release (the critical instant) reproduces
// every schedulable response time.
func TestExactWithoutJitter(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	var a Analyzer
	for iter := 0; iter < 3000; iter++ {
		ts := randTasks(rng, 1+rng.Intn(5))
		for i := range ts {
			ts[i].J, ts[i].B, ts[i].S = 0, 0, 0
		}
		out := make([]Result, len(ts))
		a.Analyze(RateMonotonic, ts, out)
		first := simulateSynchronous(ts, a.Order())
		for i := range ts {
			if out[i].Status == Schedulable && first[i] != out[i].R {
				t.Fatalf("task %d: R = %d, simulated first job %d; tasks %+v", i, out[i].R, first[i], ts)
			}
		}
	}
}

// simulateSynchronous runs a unit-step preemptive fixed-priority schedule
// of periodic tasks all released at 0 and returns each task's first-job
// response time (0 if it does not finish within the horizon).
func simulateSynchronous(ts []Task, order []int) []int64 {
	n := len(ts)
	first := make([]int64, n)
	rem := make([]int64, n)  // remaining work of the current job
	next := make([]int64, n) // next release
	done := make([]bool, n)
	const horizon = 4000
	for now := int64(0); now < horizon; now++ {
		for i := range ts {
			if !done[i] && rem[i] == 0 && now > 0 {
				done[i] = true
				first[i] = now
			}
		}
		for i := range ts {
			if now == next[i] {
				rem[i] += ts[i].C
				next[i] += ts[i].T
			}
		}
		for _, i := range order {
			if rem[i] > 0 {
				rem[i]--
				break
			}
		}
	}
	for i := range ts {
		if ts[i].C == 0 {
			first[i] = 0
		}
	}
	return first
}

// TestSimulatedSoundness simulates random sporadic schedules with release
// jitter and self-suspension (unit steps, random suspension lengths, random
// tie-breaking under Explicit) and checks that no job of a task with a
// sound bound responds later than its R.
func TestSimulatedSoundness(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var a Analyzer
	a.Limit = LimitPeriod
	for iter := 0; iter < 1500; iter++ {
		ts := randTasks(rng, 1+rng.Intn(5))
		for i := range ts {
			ts[i].B = 0 // no resources are simulated
			if rng.Intn(2) == 0 {
				ts[i].Priority = 0 // many ties under Explicit
			}
		}
		out := make([]Result, len(ts))
		p := allPolicies[rng.Intn(len(allPolicies))]
		a.Analyze(p, ts, out)
		prio := make([]int, len(ts)) // larger is more urgent
		for rank, i := range a.Order() {
			prio[i] = len(ts) - rank
			if p == Explicit {
				prio[i] = ts[i].Priority
			}
		}
		worst := simulateSporadic(rng, ts, prio, 3000)
		for i := range ts {
			if out[i].Status.Bounded() && worst[i] > out[i].R {
				t.Fatalf("%v: task %d %+v observed %d > R %d; tasks %+v out %+v",
					p, i, ts[i], worst[i], out[i].R, ts, out)
			}
		}
	}
}

type simJob struct {
	arrival, release int64
	pre, susp, post  int64
}

// simulateSporadic returns the largest observed response time (from
// arrival) of each task in a random sporadic schedule.
func simulateSporadic(rng *rand.Rand, ts []Task, prio []int, horizon int64) []int64 {
	n := len(ts)
	worst := make([]int64, n)
	queue := make([][]simJob, n)
	nextArr := make([]int64, n)
	for i := range ts {
		nextArr[i] = rng.Int63n(ts[i].T)
	}
	for now := int64(0); now < horizon; now++ {
		for i, x := range ts {
			if now == nextArr[i] {
				pre := rng.Int63n(x.C + 1)
				j := simJob{arrival: now, release: now + rng.Int63n(x.J+1), pre: pre, post: x.C - pre}
				if x.S > 0 {
					j.susp = x.S - rng.Int63n(x.S+1)/2*rng.Int63n(2)
				}
				queue[i] = append(queue[i], j)
				gap := x.T
				if rng.Intn(3) == 0 {
					gap += rng.Int63n(x.T)
				}
				nextArr[i] += gap
			}
		}
		// Retire finished jobs and advance suspensions.
		for i := range ts {
			for len(queue[i]) > 0 {
				j := &queue[i][0]
				if j.release > now {
					break
				}
				if j.pre == 0 && j.susp == 0 && j.post == 0 {
					worst[i] = max(worst[i], now-j.arrival)
					queue[i] = queue[i][1:]
					continue
				}
				break
			}
		}
		// Pick the most urgent ready job; random among equals.
		best, ties := -1, 0
		for i := range ts {
			if len(queue[i]) == 0 {
				continue
			}
			j := &queue[i][0]
			if j.release > now || (j.pre == 0 && j.susp > 0) {
				continue
			}
			switch {
			case best < 0 || prio[i] > prio[best]:
				best, ties = i, 1
			case prio[i] == prio[best]:
				ties++
				if rng.Intn(ties) == 0 {
					best = i
				}
			}
		}
		for i := range ts {
			if len(queue[i]) > 0 {
				j := &queue[i][0]
				if j.release <= now && j.pre == 0 && j.susp > 0 {
					j.susp--
				}
			}
		}
		if best >= 0 {
			j := &queue[best][0]
			if j.pre > 0 {
				j.pre--
			} else {
				j.post--
			}
		}
	}
	return worst
}
