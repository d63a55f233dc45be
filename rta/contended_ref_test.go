package rta

import (
	"math"
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/rta/sat"
)

// contendedScan is contended as it was before it skipped the iterations
// in which no job count can change (no iterate passed a bound of one):
// every iteration visits every interferer, and the start takes two passes
// over them. TestContendedEqualsScan compares the two.
func contendedScan(t *Task, hp []Interferer, limit int64, scratch []int64, c Contention, x *windowInfo) (int64, Status) {
	a := t.C + t.S + t.B
	a0 := t.C0 + t.S + t.B
	limit = max(0, min(limit, MaxTime))
	if a == 0 {
		if t.J > limit {
			return t.J, Exceeded
		}
		return t.J, classify(t, t.J)
	}
	lim := limit - t.J
	useA := true
	w := a0
	for k := range hp {
		h := &hp[k]
		if h.C0 >= h.T {
			return Infinity, Unbounded
		}
		if h.C >= h.T {
			useA = false
		}
		if w <= lim {
			w += h.C0
		}
	}
	w = max(w, 1)
	if w > lim {
		return exceededC(w+t.J, hp)
	}
	n, m := len(hp), scratch[:4*len(hp)]
	nA, bA, nB, bB := m[:n], m[n:2*n], m[2*n:3*n], m[3*n:]
	var sumA, sumB, lines, pauses int64
	overA, overB := !useA, false
	for k := range hp {
		h := &hp[k]
		nA[k], bA[k], nB[k], bB[k] = 1, h.T-h.J, 1, h.T-h.J0
		if !overA {
			sumA += h.C
			overA = sumA > lim-a
		}
		sumB += h.C0
		lines = sat.Add(lines, h.Lines)
		jobs := int64(1)
		if h.Readies > 1 {
			jobs = 2
		}
		pauses = sat.Add(pauses, sat.Mul(jobs, h.Readies))
	}
	lastN, lastP, lastDelay, lastUntil := int64(-1), int64(-1), int64(0), int64(-1)
	for i := range MaxIterations {
		if i == unboundedCheck && utilisationC0AtLeastOne(hp) {
			return Infinity, Unbounded
		}
		if w+t.J > t.T {
			return w + t.J, Exceeded
		}
		for k := range hp {
			h := &hp[k]
			if !overA && w > bA[k] {
				nA[k], bA[k], sumA = step(nA[k], bA[k], sumA, w, h.T, h.J, h.C)
				overA = sumA > lim-a
			}
			if !overB && w > bB[k] {
				old := nB[k]
				nB[k], bB[k], sumB = step(nB[k], bB[k], sumB, w, h.T, h.J0, h.C0)
				lines = sat.Add(lines, sat.Mul(nB[k]-old, h.Lines))
				pauses = sat.Add(pauses, sat.Mul(nB[k]-old, h.Readies))
				overB = sumB > lim-a0
			}
		}
		if overA && overB {
			stop := a0 + sumB
			if useA {
				stop = min(stop, a+sumA)
			}
			return exceededC(stop+t.J, hp)
		}
		nAcc := sat.Add(t.Lines, lines)
		var delay int64
		next := int64(math.MaxInt64)
		if !overB {
			if nAcc != lastN || pauses != lastP || w > lastUntil {
				d, until := c.Delay(w, nAcc, pauses)
				lastN, lastP, lastDelay, lastUntil = nAcc, pauses, max(0, d), until
			}
			delay = lastDelay
			next = sat.Add(a0+sumB, delay)
		}
		fromC := false
		if !overA && a+sumA <= next {
			next, fromC = a+sumA, true
		}
		if next <= w {
			if x != nil {
				x.accesses, x.pauses, x.delay, x.fromC = nAcc, pauses, delay, fromC
			}
			return w + t.J, classify(t, w+t.J)
		}
		if next > lim {
			if x != nil {
				x.accesses, x.pauses, x.delay, x.fromC = nAcc, pauses, delay, fromC
			}
			return exceededC(next+t.J, hp)
		}
		w = next
	}
	return exceededC(w+t.J, hp)
}

// TestContendedEqualsScan checks contended against contendedScan, the
// iteration that visits every interferer at every step: on random tasks
// under several contention terms (with and without the until of Delay),
// with jitters, suspensions, interferers whose C or C0 reaches their
// period, and limits from below the start to none, the response time, the
// status and the window information are the same; every status must come
// up often enough, or the test shows less than it says.
func TestContendedEqualsScan(t *testing.T) {
	rng := rand.New(rand.NewSource(27))
	results := map[Status]int{}
	for iter := 0; iter < 20000; iter++ {
		n := 1 + rng.Intn(12)
		ts := tightTasks(rng, n)
		k := int64(1 + rng.Intn(3))
		contendedTasks(rng, ts, k)
		for i := range ts {
			if rng.Intn(4) == 0 {
				ts[i].J = rng.Int63n(ts[i].T / 2)
			}
			if rng.Intn(6) == 0 {
				ts[i].S = rng.Int63n(ts[i].T/4 + 1)
			}
			if rng.Intn(40) == 0 {
				ts[i].C = ts[i].T + rng.Int63n(3) // no fixed point of the classic form
			}
			if rng.Intn(80) == 0 {
				ts[i].C0 = ts[i].T // none at all
				ts[i].C = max(ts[i].C, ts[i].C0)
			}
		}
		var c Contention
		switch rng.Intn(4) {
		case 0:
			c = perAccess{k}
		case 1:
			c = cappedAccesses{k, rng.Int63n(20)}
		case 2:
			c = windowed{k, int64(1 + rng.Intn(10))}
		default:
			c = uninformed{windowed{k, int64(1 + rng.Intn(10))}}
		}
		i := rng.Intn(n)
		var hp []Interferer
		for j := range ts {
			if j != i {
				hp = append(hp, ts[j].Interferer(ts[j].D))
			}
		}
		limit := int64(MaxTime)
		switch rng.Intn(3) {
		case 0:
			limit = ts[i].D
		case 1:
			limit = rng.Int63n(4 * ts[i].T)
		}
		var x, y windowInfo
		r, st := contended(&ts[i], hp, limit, make([]int64, 4*len(hp)), c, &x)
		wr, wst := contendedScan(&ts[i], hp, limit, make([]int64, 4*len(hp)), c, &y)
		if r != wr || st != wst || x != y {
			t.Fatalf("iteration %d: task %+v, interferers %+v, limit %d: %d %v %+v, the scan %d %v %+v", iter, ts[i], hp, limit, r, st, x, wr, wst, y)
		}
		results[st]++
	}
	for _, st := range []Status{Schedulable, DeadlineMiss, Exceeded, Unbounded} {
		if results[st] < 50 {
			t.Fatalf("results %v: too few %v", results, st)
		}
	}
	t.Logf("results %v", results)
}
