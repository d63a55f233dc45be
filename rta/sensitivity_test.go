package rta

import (
	"math"
	"math/rand"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// TestSensitivityHandComputed: T1 (C 2, T = D 10) above T2 (C 3, T = D 20),
// no contention, every part the whole C. T2's test, both scaled by λ: in
// windows up to 10 one job of T1, 5λ ≤ 10 up to λ = 2; up to 20 two jobs,
// 7λ ≤ 20 up to λ = 20/7. T1 alone (T2 at 3): 3 + 2λ ≤ 10 up to 3.5, 3 +
// 4λ ≤ 20 up to 4.25. T2 alone: 3λ + 2 ≤ 10 up to 8/3, 3λ + 4 ≤ 20 up to
// 16/3. T1's own test, alone: 2λ ≤ 10 up to 5.
func TestSensitivityHandComputed(t *testing.T) {
	t1 := Task{C: 2, T: 10, D: 10}
	t2 := Task{C: 3, T: 20, D: 20}
	hp := []Interferer{t1.Interferer(2)}
	const tol = 1e-12
	if got := Sensitivity(t2, 3, hp, []int64{2}, t2.D, nil); math.Abs(got-20.0/7) > tol {
		t.Errorf("both scaled: λ = %v, want 20/7", got)
	}
	out := make([]float64, 1)
	self := SensitivityEach(t2, 3, hp, []int64{2}, t2.D, nil, out)
	if math.Abs(self-16.0/3) > tol || math.Abs(out[0]-4.25) > tol {
		t.Errorf("T2 alone λ = %v (want 16/3), T1 alone λ = %v (want 4.25)", self, out[0])
	}
	if got := Sensitivity(t1, 2, nil, nil, t1.D, nil); math.Abs(got-5) > tol {
		t.Errorf("T1's own test: λ = %v, want 5", got)
	}
	// A part that does not grow: T2's test holds whatever T1's factor if
	// T1's part is 0, and fails whatever it is if T2 misses already.
	if got := SensitivityEach(t2, 3, hp, []int64{0}, t2.D, nil, out); !math.IsInf(out[0], 1) || math.Abs(got-16.0/3) > tol {
		t.Errorf("T1 without a part: λ = %v, want +Inf", out[0])
	}
	late := Task{C: 9, T: 20, D: 9}
	if got := Sensitivity(late, 0, hp, []int64{0}, late.D, nil); got != 0 {
		t.Errorf("a task that misses whatever grows: λ = %v, want 0", got)
	}
}

// scaleBy returns x + (λ − 1)·part rounded down (or up), the execution
// time of a part scaled by λ.
func scaleBy(x, part int64, lambda float64, up bool) int64 {
	d := (lambda - 1) * float64(part)
	if up {
		return x + int64(math.Ceil(d))
	}
	return x + int64(math.Floor(d))
}

// TestSensitivityMatchesResponseTime checks Sensitivity and
// SensitivityEach against ResponseTimeWith on random tasks, with and
// without a window term: with the parts scaled by the factor found (less
// a relative 1e-9, rounded down) the task responds within its deadline,
// and with them scaled 1e-6 above it (rounded up) it does not.
func TestSensitivityMatchesResponseTime(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	cases := 20000
	if testsize.Reduced() {
		cases = 3000
	}
	checked, found, below := 0, 0, 0
	for iter := 0; iter < cases; iter++ {
		n := 1 + rng.Intn(5)
		ts := tightTasks(rng, n+1)
		k := int64(1 + rng.Intn(3))
		contendedTasks(rng, ts, k)
		var c Contention
		switch w := (windowed{k, int64(1 + rng.Intn(20))}); rng.Intn(3) {
		case 1:
			c = w
		case 2:
			c = uninformed{w} // no until: the sweep visits every window length
		}
		task := ts[n]
		hp := make([]Interferer, n)
		parts := make([]int64, n)
		for j := range hp {
			hp[j] = ts[j].Interferer(ts[j].C + ts[j].S + int64(rng.Intn(5)))
			parts[j] = rng.Int63n(hp[j].C0 - ts[j].Access + 1) // C0 − part stays ≥ Access
		}
		e := rng.Int63n(task.C0 - task.Access + 1)
		// The test at a factor: the chosen parts scaled.
		meets := func(lambda float64, up bool, self bool, only int) bool {
			x := task
			if self {
				x.C, x.C0 = scaleBy(x.C, e, lambda, up), scaleBy(x.C0, e, lambda, up)
			}
			h := append([]Interferer(nil), hp...)
			for j := range h {
				if only == -2 || only == j {
					h[j].C, h[j].C0 = scaleBy(h[j].C, parts[j], lambda, up), scaleBy(h[j].C0, parts[j], lambda, up)
				}
			}
			r := ResponseTimeWith(x, h, x.D, c)
			return r.Status == Schedulable
		}
		check := func(what string, lambda float64, self bool, only int) {
			if math.IsInf(lambda, 1) || lambda > 1e6 {
				return
			}
			checked++
			if lambda > 0 {
				found++
			}
			if lambda > 0 && !meets(lambda*(1-1e-9), false, self, only) {
				t.Fatalf("%s: fails at λ = %v, below the factor found; task %+v, hp %+v, parts %d %v, contention %+v", what, lambda, task, hp, e, parts, c)
			}
			if meets(lambda*(1+1e-6)+1e-9, true, self, only) {
				t.Fatalf("%s: still meets above λ = %v; task %+v, hp %+v, parts %d %v, contention %+v", what, lambda, task, hp, e, parts, c)
			}
		}
		all := Sensitivity(task, e, hp, parts, task.D, c)
		check("every part", all, true, -2)
		// SensitivityBelow from the response window, below a bound: the
		// same factor where it is below, at least the bound otherwise.
		if r := ResponseTimeWith(task, hp, task.D, c); r.Status == Schedulable && !math.IsInf(all, 0) {
			var z Sensitivities
			bound := all * (0.5 + rng.Float64())
			got := z.SensitivityBelow(task, e, hp, parts, task.D, c, r.R-task.J, bound)
			if (all < bound && math.Abs(got-all) > 1e-9*all) || (all >= bound && got < bound) {
				t.Fatalf("SensitivityBelow from %d below %v: %v, Sensitivity %v; task %+v, hp %+v", r.R-task.J, bound, got, all, task, hp)
			}
			below++
		}
		out := make([]float64, n)
		self := SensitivityEach(task, e, hp, parts, task.D, c, out)
		check("its own part", self, true, -1)
		for j := range out {
			check("one interferer's part", out[j], false, j)
		}
	}
	if checked < cases || found < cases/2 || below < cases/4 {
		t.Errorf("only %d factors checked, %d of them above 0, %d below a bound", checked, found, below)
	}
}
