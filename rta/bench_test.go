package rta

import "testing"

const ms = 1_000_000_000 // one millisecond in picoseconds

// benchTasks returns five tasks of one core in picoseconds, WATERS-like
// periods, one of them self-suspending (asynchronous offloading).
func benchTasks() []Task {
	return []Task{
		{C: 1 * ms, T: 5 * ms, D: 5 * ms, Priority: 5},
		{C: 2 * ms, T: 10 * ms, D: 10 * ms, Priority: 4},
		{C: 3 * ms, T: 15 * ms, D: 15 * ms, Priority: 3},
		{C: 2 * ms, S: 20 * ms, T: 66 * ms, D: 66 * ms, Priority: 2},
		{C: 7 * ms, T: 100 * ms, D: 100 * ms, Priority: 1},
	}
}

func BenchmarkResponseTime(b *testing.B) {
	tasks := benchTasks()
	hp := make([]Interferer, 0, 4)
	r := []int64{1 * ms, 3 * ms, 6 * ms, 30 * ms}
	for i, x := range tasks[:4] {
		hp = append(hp, x.Interferer(r[i]))
	}
	b.ReportAllocs()
	var sink int64
	for b.Loop() {
		r, _ := ResponseTime(tasks[4], hp, tasks[4].D)
		sink += r
	}
	_ = sink
}

func BenchmarkAssignOPA(b *testing.B) {
	tasks := benchTasks()
	out := make([]Result, len(tasks))
	var a Analyzer
	b.ReportAllocs()
	for b.Loop() {
		a.Analyze(OPA, tasks, out)
	}
}

func BenchmarkAssignDM(b *testing.B) {
	tasks := benchTasks()
	out := make([]Result, len(tasks))
	var a Analyzer
	b.ReportAllocs()
	for b.Loop() {
		a.Analyze(DeadlineMonotonic, tasks, out)
	}
}

// watersCores is a WATERS-2019-like mapping: 10 CPU tasks over 6 cores,
// with plausible worst-case times (not the model's exact values); the
// offloading tasks suspend.
func watersCores() [][]Task {
	return [][]Task{
		{{C: 1200 * ms / 1000, T: 5 * ms, D: 5 * ms}, {C: 2 * ms, S: 9 * ms, T: 33 * ms, D: 33 * ms}},
		{{C: 12440 * ms / 1000, T: 15 * ms, D: 15 * ms}},
		{{C: 600 * ms / 1000, T: 10 * ms, D: 10 * ms}, {C: 4800 * ms / 1000, T: 15 * ms, D: 15 * ms}},
		{{C: 9 * ms, T: 33 * ms, D: 33 * ms}, {C: 3 * ms, S: 120 * ms, T: 200 * ms, D: 200 * ms}},
		{{C: 1 * ms, S: 20 * ms, T: 66 * ms, D: 66 * ms}, {C: 2 * ms, T: 100 * ms, D: 100 * ms}},
		{{C: 40 * ms, T: 400 * ms, D: 400 * ms}},
	}
}

// BenchmarkWATERSCores analyses all six cores of a WATERS-sized mapping
// with OPA: the CPU share of one evaluation of the optimizer.
func BenchmarkWATERSCores(b *testing.B) {
	cores := watersCores()
	out := make([]Result, 4)
	var a Analyzer
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cores {
			a.Analyze(OPA, c, out)
		}
	}
}
