package evaluate_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// marginProblem is one A57 core at 1 GHz (a tick is a nanosecond) with two
// tasks that touch no memory, under deadline-monotonic priorities:
// T1 (C 2 ms, T = D 10 ms) above T2 (C 3 ms, T = D 20 ms).
const marginProblem = `
units:
  - {name: A0, kind: A57, type: cpu, frequency: 1GHz, read_latency_cycles: 40, write_latency_cycles: 40}
memory:
  line_size: 64
  cores:
    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
runnables:
  - {name: r1, ticks: [{kind: A57, lower: 2000000, upper: 2000000}]}
  - {name: r2, ticks: [{kind: A57, lower: 3000000, upper: 3000000}]}
tasks:
  - {name: T1, period: 10ms, runnables: [r1]}
  - {name: T2, period: 20ms, runnables: [r2]}
analysis: {priorities: deadline-monotonic}
search:
  objectives: [{kind: max-utilisation}]
`

// TestMarginClosedForm checks the margins of marginProblem against the
// response-time analysis done by hand. T2's response with both scaled by
// λ is the least fixed point of R = 3λ + ceil(R/10)·2λ (ms):
//   - for R ≤ 10 (one job of T1): R = 5λ, which stays ≤ 10 up to λ = 2;
//   - for 10 < R ≤ 20 (two jobs): R = 7λ ≤ 20 up to λ = 20/7 = 2.857142…,
//     so at λ = 2.857: C1 = 5.714 ms, C2 = 8.571 ms, R = 19.999 ms ≤ 20;
//     at λ = 2.858: 8.574 + 2·5.716 = 20.006 > 20, a third job of T1
//     enters and R = 8.574 + 3·5.716 > 20: T2 misses.
//
// T1 needs 2λ ≤ 10 (λ ≤ 5), so T2 binds: margin ×2.857.
// T1 alone: R2 = 3 + ceil(R/10)·2λ; with two jobs 3 + 4λ ≤ 20 up to
// λ = 4.25 (R = 20 exactly, which meets D); at 4.251 R = 20.004 and a
// third job makes it miss: ×4.250, T2 binds.
// T2 alone: R2 = 3λ + ceil(R/10)·2; with two jobs 3λ + 4 ≤ 20 up to
// λ = 16/3 = 5.333…: at 5.333 R = 15.999 + 4 = 19.999; at 5.334 R = 20.002
// and with a third job 22.002: ×5.333, T2 binds.
// Only A57 units: the A57 margin is the global one.
func TestMarginClosedForm(t *testing.T) {
	cfg := synth.Load(t, marginProblem)
	e := evaluator(t, cfg)
	a := e.NewAssignment()
	a.Unit[0], a.Unit[1] = 0, 0
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	m, err := e.Margins(a, r, evaluate.MarginOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		what     string
		got      evaluate.Margin
		perMille int64
	}{
		{"execution scale", m.ExecutionScale, 2857},
		{"A57", m.Kinds[0].Margin, 2857},
		{"T1 alone", m.Tasks[0].Margin, 4250},
		{"T2 alone", m.Tasks[1].Margin, 5333},
	}
	for _, w := range want {
		if w.got.Status != evaluate.MarginFound || w.got.PerMille != w.perMille || w.got.Binding != "task T2 misses its deadline" {
			t.Errorf("%s: %v (%d, %q), want ×%.3f with T2 binding", w.what, w.got, w.got.Status, w.got.Binding, float64(w.perMille)/1000)
		}
	}
	if len(m.Kinds) != 1 || m.Kinds[0].Kind != "A57" || len(m.Tasks) != 2 {
		t.Errorf("kinds %v, tasks %v", m.Kinds, m.Tasks)
	}
	// Slack: R1 = 2 ms, R2 = 3 + 2 = 5 ms (one job of T1).
	if m.Tasks[0].Slack != 8*int64(configs.Millisecond) || m.Tasks[1].Slack != 15*int64(configs.Millisecond) {
		t.Errorf("slacks %d, %d ps; want 8 ms and 15 ms", m.Tasks[0].Slack, m.Tasks[1].Slack)
	}
}

// watersBothCounts returns the built-in model under the refined and the
// challenge count.
func watersBothCounts(t *testing.T) []*configs.Config {
	t.Helper()
	var cfgs []*configs.Config
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionChallenge} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		cfgs = append(cfgs, cfg)
	}
	return cfgs
}

// TestMarginsBisect checks the margins of random mappings, feasible (the
// points of exact fronts, of WATERS and of small random systems) and
// infeasible, as a user would re-check them: every margin holds at its
// factor and fails 0.2 % above it (each per-kind and per-task margin with
// its own scaling; the execution scale through analysis.execution_scale in
// the configuration, as hetmap analyze reads it). The priority orders are
// those of the mapping, written out.
func TestMarginsBisect(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	cfgs := watersBothCounts(t)
	systems := 6
	if testsize.Reduced() {
		systems = 2
	}
	for range systems {
		cfgs = append(cfgs, synth.Load(t, synth.SmallYAML(rng, configs.ContentionRefined, configs.PrioritiesOPA)))
	}
	checked, infeasible := 0, 0
	for n, cfg := range cfgs {
		e := evaluator(t, cfg)
		out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmExhaustive, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		var as []*evaluate.Assignment
		for _, p := range out.Front {
			as = append(as, p.Assignment)
		}
		for range 3 {
			as = append(as, randomAssignment(e, rng))
		}
		r, rb := e.NewAnalysis(), e.NewAnalysis()
		for _, a := range as {
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			if r.Undecided > 0 {
				continue
			}
			b := e.NewAssignment()
			r.WithPriorities(a, b)
			m, err := e.Margins(a, r, evaluate.MarginOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !(r.Schedulable && r.RequirementsMet) {
				infeasible++
			}
			holds := func(kind string, task int, perMille int64) bool {
				if err := e.EvaluateScaled(b, kind, task, perMille, rb); err != nil {
					t.Fatal(err)
				}
				return rb.Schedulable && rb.RequirementsMet
			}
			check := func(what, kind string, task int, mg evaluate.Margin) {
				checked++
				switch mg.Status {
				case evaluate.MarginFound:
					if !holds(kind, task, mg.PerMille) || holds(kind, task, mg.PerMille+2) {
						t.Errorf("system %d, %s: margin %v does not hold at its factor, or still holds 0.2 %% above: %+v", n, what, mg, e.Model().Mapping(b))
					}
				case evaluate.MarginNone:
					if holds(kind, task, 1) || holds(kind, task, 500) {
						t.Errorf("system %d, %s: no margin, but the mapping holds at a smaller factor", n, what)
					}
				case evaluate.MarginAtLeast:
					if !holds(kind, task, configs.MaxExecutionScale*1000) {
						t.Errorf("system %d, %s: margin %v does not hold", n, what, mg)
					}
				}
			}
			check("execution scale", "", -1, m.ExecutionScale)
			for _, k := range m.Kinds {
				check("kind "+k.Kind, k.Kind, -1, k.Margin)
			}
			for _, tm := range m.Tasks {
				check("task "+tm.Name, "", tm.Task, tm.Margin)
			}
			// The execution scale as a user re-checks it: the
			// configuration's analysis.execution_scale.
			if m.ExecutionScale.Status == evaluate.MarginFound {
				for _, d := range []struct {
					perMille int64
					want     bool
				}{{m.ExecutionScale.PerMille, true}, {m.ExecutionScale.PerMille + 2, false}} {
					c := *cfg
					c.Analysis.ExecutionScale = float64(d.perMille) / 1000
					es := evaluator(t, &c)
					if err := es.Evaluate(b, rb); err != nil {
						t.Fatal(err)
					}
					if got := rb.Schedulable && rb.RequirementsMet; got != d.want {
						t.Errorf("system %d: analysis.execution_scale %s gives %v, want %v", n, fmt.Sprint(c.Analysis.ExecutionScale), got, d.want)
					}
				}
			}
		}
	}
	t.Logf("%d margins checked (%d of infeasible mappings)", checked, infeasible)
	if infeasible == 0 {
		t.Error("no infeasible mapping among the samples")
	}
}

// BenchmarkMarginsFront computes every margin (execution scale, per kind,
// per task) of every point of the built-in model's exact front under the
// default analysis, as optimize and the report do.
func BenchmarkMarginsFront(b *testing.B) {
	cfg, err := configs.Default()
	if err != nil {
		b.Fatal(err)
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		b.Fatal(err)
	}
	out, err := optimizer.Run(context.Background(), e, optimizer.Options{Workers: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, p := range out.Front {
			if _, err := e.Margins(p.Assignment, p.Analysis, evaluate.MarginOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// marginCase names what a margin found, for the coverage of the tests.
func marginCase(m evaluate.Margin, feasible bool) string {
	switch {
	case m.Status == evaluate.MarginAtLeast:
		return "at least"
	case m.Status == evaluate.MarginNone:
		return "none"
	case feasible:
		return "found"
	}
	return "found below 1"
}

// TestMarginsFastEqualBisection: the margins that Margins finds from the
// sensitivity of the tests, with certificates in place of most analyses
// (marginsearch.go), are those of plain bisection over whole analyses
// (MarginsBisect, the algorithm it replaced): every margin (execution
// scale, per kind, per task) with its factor, status, what binds and what
// follows, on 200 random small systems (both contention counts, GPU tasks
// offloading synchronously and asynchronously, derived and given
// priorities), for mappings that hold and mappings that do not.
func TestMarginsFastEqualBisection(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	systems := 200
	if testsize.Reduced() {
		systems = 40
	}
	cases := map[string]int{}
	for n := range systems {
		count := []configs.ContentionCount{configs.ContentionRefined, configs.ContentionChallenge}[n%2]
		var cfg *configs.Config
		if n%3 == 2 {
			s := synth.Settings{Tasks: 4 + rng.IntN(6), GPUTasks: rng.IntN(3), A57: 1 + rng.IntN(2), Denver: rng.IntN(2),
				Chains: 2, ChainLength: 3, Utilisation: 0.3 + rng.Float64(), Contention: count}
			c, _, err := synth.Config(s, rng)
			if err != nil {
				t.Fatal(err)
			}
			cfg = c
		} else {
			priorities := []configs.PriorityAssignment{configs.PrioritiesOPA, configs.PrioritiesDM}[rng.IntN(2)]
			cfg = synth.Load(t, synth.SmallYAML(rng, count, priorities))
		}
		e := evaluator(t, cfg)
		r := e.NewAnalysis()
		feasible, infeasible := 0, 0
		for try := 0; try < 60 && (feasible < 2 || infeasible < 1); try++ {
			a := randomAssignment(e, rng)
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			holds := r.Schedulable && r.RequirementsMet
			if r.Undecided > 0 || (holds && feasible >= 2) || (!holds && infeasible >= 1) {
				continue
			}
			if holds {
				feasible++
			} else {
				infeasible++
			}
			fast, err := e.Margins(a, r, evaluate.MarginOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			ref, err := e.MarginsBisect(a, r)
			if err != nil {
				t.Fatal(err)
			}
			// A per-task margin of a mapping that holds is certified
			// without the whole analysis above it (marginsearch.go), and so
			// is any other with NoConsequences: it names a task whose own
			// test fails there with the other cores' bounds held at the
			// margin, which the bisection's whole analysis may not name
			// first, and not what follows.
			same := func(what, kind string, task int, got, want evaluate.Margin, certifiable bool) {
				cases[marginCase(want, holds)]++
				certified := holds && certifiable && got.Status == evaluate.MarginFound && len(got.Consequences) == 0
				if certified && got.Binding != want.Binding {
					cases["binding certified"]++
					alone, err := e.FailsAlone(a, r, kind, task, got.PerMille+1, got.BindingTask)
					if err != nil {
						t.Fatal(err)
					}
					if !alone {
						t.Errorf("system %d, %s: %v binds %q, which does not fail alone just above it", n, what, got, got.Binding)
					}
					want.Binding, want.Consequences = got.Binding, nil
				}
				if certified {
					want.Consequences = nil
				}
				if got.Status != want.Status || got.PerMille != want.PerMille || got.Binding != want.Binding ||
					strings.Join(got.Consequences, "; ") != strings.Join(want.Consequences, "; ") {
					t.Errorf("system %d (%s), %s: %v (%q; %q), bisection %v (%q; %q); mapping %+v", n, count, what,
						got, got.Binding, got.Consequences, want, want.Binding, want.Consequences, e.Model().Mapping(a))
				}
			}
			bare, err := e.Margins(a, r, evaluate.MarginOptions{Workers: 1, NoConsequences: true})
			if err != nil {
				t.Fatal(err)
			}
			same("execution scale", "", -1, fast.ExecutionScale, ref.ExecutionScale, false)
			same("execution scale without consequences", "", -1, bare.ExecutionScale, ref.ExecutionScale, true)
			if len(fast.Kinds) != len(ref.Kinds) || len(fast.Tasks) != len(ref.Tasks) || len(bare.Kinds) != len(ref.Kinds) {
				t.Fatalf("system %d: %d kinds, %d tasks; bisection %d, %d", n, len(fast.Kinds), len(fast.Tasks), len(ref.Kinds), len(ref.Tasks))
			}
			for k := range ref.Kinds {
				kind := ref.Kinds[k].Kind
				same("kind "+kind, kind, -1, fast.Kinds[k].Margin, ref.Kinds[k].Margin, false)
				same("kind "+kind+" without consequences", kind, -1, bare.Kinds[k].Margin, ref.Kinds[k].Margin, true)
			}
			for k := range ref.Tasks {
				same("task "+ref.Tasks[k].Name, "", ref.Tasks[k].Task, fast.Tasks[k].Margin, ref.Tasks[k].Margin, true)
			}
		}
	}
	t.Logf("margins compared: %v", cases)
	for _, c := range []string{"found", "found below 1", "none"} {
		if cases[c] < systems/10 {
			t.Errorf("only %d margins %q among the samples", cases[c], c)
		}
	}
}
