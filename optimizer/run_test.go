package optimizer_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// TestRunInterrupted: a context cancelled from the first progress report
// stops the exhaustive search of the 3-objective example (exact front: 14
// mappings) with Status Interrupted; what it returns is not called exact,
// and every point is feasible and covered by the exact front. The genetic
// search stops at the generation that cancelled, with what a run of that
// many generations finds.
func TestRunInterrupted(t *testing.T) {
	cfg := synth.LoadFile(t, "../configs/examples/waters-3obj.yaml")
	e := evaluator(t, cfg)
	exact := watersRun(t, cfg, optimizer.Options{Algorithm: "exhaustive"})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, err := optimizer.Run(ctx, e, optimizer.Options{Algorithm: "exhaustive", Workers: 1, Progress: func(moo.Progress) { cancel() }})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Interrupted() || out.Exact() || out.Evaluations >= exact.Evaluations {
		t.Fatalf("status %v, exact %v, %d evaluations (complete: %d); want interrupted, not exact, fewer", out.Status, out.Exact(), out.Evaluations, exact.Evaluations)
	}
	if !exact.Exact() || exact.Interrupted() {
		t.Errorf("the complete exhaustive search: status %v, exact %v", exact.Status, exact.Exact())
	}
	for _, p := range out.Front {
		covered := false
		for _, x := range exact.Front {
			covered = covered || reflect.DeepEqual(x.Objectives, p.Objectives) || moo.Dominates(x.Objectives, p.Objectives)
		}
		if !p.Analysis.Schedulable || !covered {
			t.Errorf("interrupted front point %v: schedulable %v, covered by the exact front %v", p.Objectives, p.Analysis.Schedulable, covered)
		}
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	seed := int64(3)
	ga, err := optimizer.Run(ctx, e, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, Workers: 1, Progress: func(p moo.Progress) {
		if p.Generation == 5 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	short := *cfg
	short.Search.Generations = 5
	want := watersRun(t, &short, optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Seed: &seed, Workers: 1})
	if !ga.Interrupted() || ga.Generations != 5 || ga.Evaluations != want.Evaluations || !reflect.DeepEqual(objectives(ga.Front), objectives(want.Front)) {
		t.Errorf("genetic search cancelled at generation 5: status %v after %d generations, %d evaluations, front %v; want interrupted, 5, %d, %v",
			ga.Status, ga.Generations, ga.Evaluations, objectives(ga.Front), want.Evaluations, objectives(want.Front))
	}
}

// TestRunInterruptedInfeasible: an interrupted exhaustive search that has
// proved nothing does not go on with the short genetic search that finds
// least-violating mappings to show. (Uninterrupted, this search cuts every
// partial mapping for about a minute.)
func TestRunInterruptedInfeasible(t *testing.T) {
	cfg := synth.Load(t, "model: builtin\nconventions: {deadlines: model}\nanalysis: {gpu_model: timeslice}\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := optimizer.Run(ctx, evaluator(t, cfg), optimizer.Options{Algorithm: "exhaustive"})
	if err != nil {
		t.Fatal(err)
	}
	if !out.Interrupted() || out.Feasible || out.LeastViolatingBy != configs.AlgorithmExhaustive {
		t.Errorf("status %v, feasible %v, least violating by %s; want interrupted, infeasible, by the exhaustive search", out.Status, out.Feasible, out.LeastViolatingBy)
	}
}

// tieProblem: cores A0, A1 (A57) and D0 (Denver), all at 2 GHz without
// memory accesses, and two tasks T1, T2 of period = deadline = 10 ms that
// need 60 M cycles on an A57 (C = 30 ms, U = 3) and 40 M on the Denver
// (C = 20 ms, U = 2): no mapping is feasible. The violation is Σ (R − D),
// a task without bound counting its period. With both tasks on one core,
// the more urgent one has R = C and the other no bound: D0 misses by
// (20 − 10) + 10 = 20 ms, an A57 by (30 − 10) + 10 = 30 ms. Apart, each
// task has R = C: A57 + D0 misses by 20 + 10 = 30 ms, A0 + A1 by 20 + 20 =
// 40 ms. So the least violation is D0 alone (20 ms, busiest core 400 %),
// and three ways tie at 30 ms: both on an A57 (busiest core 600 %) and the
// two ways to split the tasks between an A57 and D0 (300 %), which the
// busiest core ranks first.
const tieProblem = `
units:
  - {name: A0, kind: A57, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}
  - {name: A1, kind: A57, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}
  - {name: D0, kind: Denver, type: cpu, frequency: 2GHz, read_latency_cycles: 16, write_latency_cycles: 16}
memory:
  line_size: 64
  cores:
    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}
    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
runnables:
  - {name: r1, ticks: [{kind: A57, lower: 60000000, upper: 60000000}, {kind: Denver, lower: 40000000, upper: 40000000}]}
  - {name: r2, ticks: [{kind: A57, lower: 60000000, upper: 60000000}, {kind: Denver, lower: 40000000, upper: 40000000}]}
tasks:
  - {name: T1, period: 10ms, runnables: [r1]}
  - {name: T2, period: 10ms, runnables: [r2]}
search:
  objectives: [{kind: cores-used}]
  population: 20
  generations: 20
`

// TestLeastViolatingRanking: the least-violating mappings of tieProblem,
// from the genetic search (which meets all 9 genomes), come by violation
// and then by the busiest core, each mapping once: D0 alone, then the four
// A57–Denver splits (A0 or A1 with D0, either task on D0) at 300 %, then
// both tasks on A0 or on A1 at 600 %, then the two A0–A1 splits at 40 ms.
func TestLeastViolatingRanking(t *testing.T) {
	out := watersRun(t, synth.Load(t, tieProblem), optimizer.Options{Algorithm: configs.AlgorithmNSGA2})
	if out.Feasible {
		t.Fatal("tieProblem has a feasible mapping")
	}
	type row struct {
		violation, busiest float64
	}
	want := []row{{20, 4}, {30, 3}, {30, 3}, {30, 3}, {30, 3}, {30, 6}, {30, 6}, {40, 3}, {40, 3}}
	var got []row
	seen := map[string]bool{}
	for _, p := range out.LeastViolating {
		busiest := 0.0
		for _, u := range p.Analysis.Units {
			busiest = max(busiest, u.Utilisation)
		}
		got = append(got, row{p.Violation, busiest})
		key, _ := json.Marshal(p.Mapping)
		if seen[string(key)] {
			t.Errorf("mapping %s is listed twice", key)
		}
		seen[string(key)] = true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("least violating (violation ms, busiest core) %v, want %v", got, want)
	}
}
