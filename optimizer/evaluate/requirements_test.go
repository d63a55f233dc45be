package evaluate_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	_ "github.com/hetmap/hetmap/configs/amalthea" // configs.LoadModel reads the model through it
	"github.com/hetmap/hetmap/internal/sharedtest"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// chainSystem: T1 (2 ms every 10 ms) feeds T2 (3 ms every 10 ms), each on
// its own core, no label accesses. Times in ms:
//
//	Davare reaction time Σ(T + R) = (10 + 2) + (10 + 3) = 25
//	synchronous release: T1 reads at 0, writes at 2; T2's next job is
//	released at 10 and writes at 13: reaction from activation 13, reaction
//	time 13 + T1 = 23.
const chainSystem = `
units:
  - {name: A0, kind: A57, type: cpu, frequency: 2GHz}
  - {name: A1, kind: A57, type: cpu, frequency: 2GHz}
memory:
  line_size: 64
  cores: [{kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}]
  copy_engine: {baseline: 3ns, per_core: 500ps}
runnables:
  - {name: r1, ticks: [{kind: A57, lower: 4000000, upper: 4000000}]}
  - {name: r2, ticks: [{kind: A57, lower: 6000000, upper: 6000000}]}
tasks:
  - {name: T1, period: 10ms, runnables: [r1]}
  - {name: T2, period: 10ms, runnables: [r2]}
chains:
  - {name: C, tasks: [T1, T2], max: MAX}
`

func TestRequirementValues(t *testing.T) {
	ms := int64(configs.Millisecond)
	for _, tt := range []struct {
		max              string
		met              bool
		value, margin    int64
		violation        int64
		synchronousValue int64
	}{
		// Davare 25 > 24: missed by 1 ms, which is the mapping's violation.
		{"24ms", false, 25 * ms, -1 * ms, 1 * ms, 23 * ms},
		{"30ms", true, 25 * ms, 5 * ms, 0, 23 * ms},
		// Checked under synchronous release: 23 ≤ 24.
		{"{limit: 24ms, bound: synchronous}", true, 23 * ms, 1 * ms, 0, 23 * ms},
		// Data age under Davare: Σ(T + R) − T2 = 25 − 10 = 15 > 14.
		{"{metric: data-age, limit: 14ms}", false, 15 * ms, -1 * ms, 1 * ms, 0},
	} {
		e := evaluator(t, load(t, strings.Replace(chainSystem, "MAX", tt.max, 1)))
		r := evaluatePlaced(t, e, map[string]string{"T1": "A0", "T2": "A1"}, nil)
		if len(r.Requirements) != 1 {
			t.Fatalf("max %s: %d requirements", tt.max, len(r.Requirements))
		}
		q := r.Requirements[0]
		if q.Met != tt.met || !q.HasValue || q.Value != tt.value || q.Margin != tt.margin || r.RequirementsMet != tt.met {
			t.Errorf("max %s: %+v, want met %v, value %d, margin %d", tt.max, q, tt.met, tt.value, tt.margin)
		}
		if !r.Schedulable || r.Violation != tt.violation {
			t.Errorf("max %s: schedulable %v, violation %d, want %d", tt.max, r.Schedulable, r.Violation, tt.violation)
		}
		e.AnalyzeChains(r)
		rep := r.RequirementReports[0]
		if !rep.DavareOK || (tt.synchronousValue > 0 && rep.Synchronous != tt.synchronousValue) {
			t.Errorf("max %s: report %+v, want synchronous %d", tt.max, rep, tt.synchronousValue)
		}
		if !tt.met && len(r.Reasons()) == 0 {
			t.Errorf("max %s: a missed requirement without a reason", tt.max)
		}
	}
	// analysis.requirement_bound overrides the requirement's bound.
	cfg := load(t, strings.Replace(chainSystem, "MAX", "24ms", 1)+"analysis: {requirement_bound: synchronous}\n")
	r := evaluatePlaced(t, evaluator(t, cfg), map[string]string{"T1": "A0", "T2": "A1"}, nil)
	if q := r.Requirements[0]; q.Bound != "synchronous" || !q.Met || q.Value != 23*ms {
		t.Errorf("with requirement_bound synchronous: %+v", q)
	}
}

// TestRequirementsInTheSearch: the hand problem of search_test.go with a
// latency requirement on T1 → T2. The exhaustive search, which cuts
// partial mappings that miss the requirement, finds the same front as a
// brute-force evaluation of all 27 genomes; the requirement excludes
// mappings that meet every deadline; every front point meets it.
func TestRequirementsInTheSearch(t *testing.T) {
	cfg := synth.Load(t, synth.HandProblem+"chains:\n  - {name: C, tasks: [T1, T2], max: 28ms}\n")
	e := evaluator(t, cfg)
	ex, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: "exhaustive"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := optimizer.NewProblem(e, cfg.Search)
	if err != nil {
		t.Fatal(err)
	}
	w := p.NewWorker()
	arch := moo.NewArchive(2)
	a, r := e.NewAssignment(), e.NewAnalysis()
	excluded := 0
	var rec func(g []int, i int)
	rec = func(g []int, i int) {
		if i == len(g) {
			ev := moo.Evaluation{Objectives: make([]float64, 2)}
			w.Evaluate(g, &ev)
			arch.Add(moo.Point{Genome: append([]int(nil), g...), Evaluation: ev})
			p.Decode(g, a)
			if err := e.Evaluate(a, r); err != nil {
				t.Fatal(err)
			}
			if r.Schedulable && !r.RequirementsMet {
				excluded++
				if ev.Violation <= 0 {
					t.Errorf("genome %v misses the requirement but has no violation", g)
				}
			}
			return
		}
		for v := range p.Domain(i) {
			g[i] = v
			rec(g, i+1)
		}
	}
	rec(make([]int, p.NumGenes()), 0)
	if excluded == 0 {
		t.Error("the requirement excludes no schedulable mapping: the test shows nothing")
	}
	if got, want := objectives(ex.Front), moo.Objectives(arch.Points()); !reflect.DeepEqual(got, want) {
		t.Errorf("exhaustive front %v, brute force %v", got, want)
	}
	for _, pt := range ex.Front {
		if !pt.Analysis.RequirementsMet {
			t.Errorf("front point %v misses the requirement", pt.Objectives)
		}
	}
}

// TestLETChainMembers: a chain of LET tasks analysed as implicit
// communication gives the LET values, which are exact (TORO's chain3_let:
// every member reads at its release and writes at the end of its period).
func TestLETChainMembers(t *testing.T) {
	cfg, err := configs.LoadModel([]string{sharedtest.Path(t, "amalthea-examples/toro099_example.amxmi")})
	if err != nil {
		t.Fatal(err)
	}
	e := evaluator(t, cfg)
	a, err := e.DefaultAssignment()
	if err != nil {
		t.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	for _, c := range e.AnalyzeChains(r) {
		if c.Name != "chain3_let" {
			continue
		}
		if c.Analysis.Implicit.Status != chains.OK || c.Analysis.Implicit != c.Analysis.LET {
			t.Errorf("chain3_let: implicit %+v, LET %+v", c.Analysis.Implicit, c.Analysis.LET)
		}
		// By hand (ms): LET_T7 and LET_T8 every 5, LET_T9 every 10, released
		// at 0, each writing at the end of its period. Forward from LET_T7's
		// job at 5 (writes 10): LET_T8's job at 10 (writes 15), LET_T9's job
		// at 20 (writes 30): 25, the longest; reaction time 25 + 5 = 30.
		// Backward from LET_T9's job at t (reads t, writes t + 10): LET_T8's
		// job at t − 5 (writes t), LET_T7's job at t − 10: data age 20.
		ms := int64(configs.Millisecond)
		if v := c.Analysis.LET; v.ReactionFromActivation != 25*ms || v.MaxReactionTime != 30*ms || v.MaxDataAge != 20*ms {
			t.Errorf("chain3_let: %+v, want 25, 30, 20 ms", v)
		}
		for _, m := range c.Members {
			if m.WCRT != m.Period || m.BCRT != m.Period {
				t.Errorf("LET member %s: BCRT %d, WCRT %d, want the period %d", m.Name, m.BCRT, m.WCRT, m.Period)
			}
		}
		return
	}
	t.Fatal("no chain3_let")
}

// TestRequirementsAndActivationDoNotAllocate: Evaluate stays free of
// allocations with requirements to check and activated tasks to iterate.
func TestRequirementsAndActivationDoNotAllocate(t *testing.T) {
	y := strings.Replace(chainSystem, "MAX", "[{limit: 24ms}, {metric: data-age, bound: synchronous, limit: 30ms}]", 1)
	y = strings.Replace(y, "  - {name: T2, period: 10ms, runnables: [r2]}", "  - {name: T2, period: 10ms, activated_by: T1, runnables: [r2]}", 1)
	e := evaluator(t, load(t, y))
	a := place(t, e, map[string]string{"T1": "A0", "T2": "A1"})
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(50, func() { _ = e.Evaluate(a, r) }); n != 0 {
		t.Errorf("Evaluate allocates %.1f times per run", n)
	}
	if tr := task(t, r, "T2"); tr.Jitter != 2*int64(configs.Millisecond) {
		t.Errorf("T2's jitter %d, want T1's response 2 ms", tr.Jitter)
	}
}
