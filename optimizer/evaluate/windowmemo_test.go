package evaluate_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/rta"
)

// TestWindowMemoChangesNothing evaluates random mappings of WATERS and of
// synthetic systems under the refined and request counts, with every
// limit, with and without the relaxed test first (SetRefuteFirst, which
// goes through the memo too), and as partial mappings (EvaluatePartial,
// the relaxed test), by one evaluator with the memos on (the windowed memo
// included) and one with them off, in the same order: every result must
// be the same, field by field (the memo keeps what a core's analysis
// gives; a key that missed an input would hand one core's results to
// another). Each mapping is evaluated twice, the second time mostly from
// the memo.
func TestWindowMemoChangesNothing(t *testing.T) {
	// The key fingerprints every field of these types: a new field must be
	// added to the hasher (windowmemo.go) and counted here.
	if n := reflect.TypeFor[rta.Task]().NumField(); n != 12 {
		t.Fatalf("rta.Task has %d fields, the windowed memo's key 12", n)
	}
	if n := reflect.TypeFor[memory.Demand]().NumField(); n != 5 {
		t.Fatalf("memory.Demand has %d fields, the windowed memo's key 5", n)
	}
	var cfgs []*configs.Config
	var names []string
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		cfgs, names = append(cfgs, cfg), append(names, "WATERS/"+string(count))
		rng := rand.New(rand.NewPCG(31, 32))
		systems := 6
		if testsize.Reduced() {
			systems = 2
		}
		for k := range systems {
			s := synth.Settings{Tasks: 6 + rng.IntN(12), GPUTasks: rng.IntN(3), A57: 2 + rng.IntN(2), Denver: rng.IntN(2),
				Utilisation: 0.5 + rng.Float64(), Chains: 2, ChainLength: 3, Contention: count}
			cfg, _, err := synth.Config(s, rng)
			if err != nil {
				t.Fatal(err)
			}
			cfgs, names = append(cfgs, cfg), append(names, fmt.Sprintf("synth%d/%s", k, count))
		}
	}
	evaluated := 0
	for c, cfg := range cfgs {
		for mode := range 4 {
			limit := []rta.Limit{rta.LimitNone, rta.LimitDeadline, rta.LimitRank, rta.LimitRank}[mode]
			on, err := evaluate.NewEvaluator(cfg)
			if err != nil {
				t.Fatal(err)
			}
			off := on.Clone()
			off.SetMemo(false)
			on.SetLimit(limit)
			off.SetLimit(limit)
			on.SetRefuteFirst(mode == 3)
			off.SetRefuteFirst(mode == 3)
			run := func(e *evaluate.Evaluator, a *evaluate.Assignment, r *evaluate.Analysis) error {
				return e.Evaluate(a, r)
			}
			if mode == 2 {
				run = func(e *evaluate.Evaluator, a *evaluate.Assignment, r *evaluate.Analysis) error {
					return e.EvaluatePartial(a, r)
				}
			}
			ron, roff := on.NewAnalysis(), off.NewAnalysis()
			rng := rand.New(rand.NewPCG(33, uint64(c)))
			var as []*evaluate.Assignment
			for range 60 {
				a := randomAssignment(on, rng)
				if mode == 2 { // a partial mapping: some periodic tasks not yet placed
					for i, s := range on.Model().Tasks() {
						if s.Kind == evaluate.PeriodicTask && rng.IntN(3) == 0 {
							a.Unit[i] = evaluate.NoUnit
						}
					}
				}
				as = append(as, a)
				// Neighbours, as a search meets them: one periodic task
				// moved, so that most cores keep their tasks (the memo's
				// per-core shapes and fingerprints then serve again).
				for range 2 {
					b := a.Clone()
					specs := on.Model().Tasks()
					for range 20 {
						i := rng.IntN(len(specs))
						if s := specs[i]; s.Kind == evaluate.PeriodicTask && b.Unit[i] != evaluate.NoUnit {
							b.Unit[i] = s.Units[rng.IntN(len(s.Units))]
							break
						}
					}
					as = append(as, b)
					a = b
				}
			}
			// Each mapping twice, the second time from the memo.
			for _, a := range append(as, as...) {
				if err := run(on, a, ron); err != nil {
					t.Fatal(err)
				}
				if err := run(off, a, roff); err != nil {
					t.Fatal(err)
				}
				evaluated++
				if !reflect.DeepEqual(resultFields(ron), resultFields(roff)) {
					t.Fatalf("%s, mode %d, mapping %v: with the memo\n%+v\nwithout\n%+v", names[c], mode, on.Model().Mapping(a), resultFields(ron), resultFields(roff))
				}
			}
		}
	}
	if evaluated == 0 {
		t.Fatal("nothing evaluated")
	}
}

// resultFields is what a comparison of two results looks at.
func resultFields(r *evaluate.Analysis) any {
	return struct {
		Schedulable     bool
		Misses          int
		Violation       int64
		Rounds          int
		Converged       bool
		Tasks           []evaluate.TaskResult
		GPU             []evaluate.GPUResult
		Units           []evaluate.UnitResult
		Requirements    []evaluate.RequirementResult
		RequirementsMet bool
	}{r.Schedulable, r.Misses, r.Violation, r.Rounds, r.Converged, r.Tasks, r.GPU, r.Units, r.Requirements, r.RequirementsMet}
}
