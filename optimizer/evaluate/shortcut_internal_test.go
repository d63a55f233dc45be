package evaluate

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
)

// refinedSystems returns, under the refined and the request count, the
// built-in WATERS model and n small random systems of synth.SmallYAML
// (OPA priorities) drawn from seed.
func refinedSystems(t *testing.T, seed uint64, n int) []*configs.Config {
	t.Helper()
	var cfgs []*configs.Config
	for _, count := range []configs.ContentionCount{configs.ContentionRefined, configs.ContentionRequest} {
		cfg, err := configs.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Analysis.Contention = count
		cfgs = append(cfgs, cfg)
		rng := rand.New(rand.NewPCG(seed, seed+1))
		for range n {
			cfg, err := configs.Load(strings.NewReader(synth.SmallYAML(rng, count, configs.PrioritiesOPA)), "small.yaml", ".")
			if err != nil {
				t.Fatal(err)
			}
			cfgs = append(cfgs, cfg)
		}
	}
	return cfgs
}

// TestWindowShortcutChangesNothing: windowChanged's shortcut (an
// interferer whose bounds have not moved since a core's analysis is not
// looked at) gives the same analyses, task by task, as looking at every
// interferer, on random mappings of WATERS and of small synthetic systems
// under the refined and request counts.
func TestWindowShortcutChangesNothing(t *testing.T) {
	cfgs := refinedSystems(t, 41, 6)
	defer func() { windowShortcut = true }()
	compared := 0
	for c, cfg := range cfgs {
		e, err := NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(43, uint64(c)))
		for range 80 {
			a := e.NewAssignment()
			placeAnywhere(e, a, rng)
			var res [2]*Analysis
			for k, on := range []bool{true, false} {
				windowShortcut = on
				res[k] = e.NewAnalysis()
				if err := e.Evaluate(a, res[k]); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(res[0].Tasks, res[1].Tasks) || res[0].Rounds != res[1].Rounds || res[0].Schedulable != res[1].Schedulable {
				t.Fatalf("config %d, mapping %v: the shortcut changes the analysis", c, e.Model().Mapping(a))
			}
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

// placeAnywhere places every task of a on one of the units it can run on,
// a GPU task's offloading task on a core where the GPU task is on the GPU,
// and draws each offloading's mode and GPU priority, from rng.
func placeAnywhere(e *Evaluator, a *Assignment, rng *rand.Rand) {
	for i, s := range e.Model().Tasks() {
		switch s.Kind {
		case PeriodicTask:
			a.Unit[i] = s.Units[rng.IntN(len(s.Units))]
		case GPUTask:
			u := s.Units[rng.IntN(len(s.Units))]
			a.Unit[i] = u
			if u == e.Model().GPUUnit() {
				pre := e.Model().Tasks()[s.Offloader]
				a.Unit[s.Offloader] = pre.Units[rng.IntN(len(pre.Units))]
			} else {
				a.Unit[s.Offloader] = NoUnit
			}
			a.Async[s.GPU], a.High[s.GPU] = rng.IntN(2) == 0, rng.IntN(2) == 0
		}
	}
}
