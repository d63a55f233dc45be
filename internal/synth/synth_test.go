package synth

import (
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// Every generated system loads, validates and can be evaluated, at every
// size the tests and benchmarks use; the same generator gives the same
// system.
func TestGeneratedSystemsLoad(t *testing.T) {
	for _, s := range []Settings{
		{},
		{Tasks: 3, GPUTasks: 1, A57: 2, Denver: 1},
		{Tasks: 4, GPUTasks: 2, A57: 1, Denver: 1, GPUModel: "timeslice"},
		{Tasks: 14, GPUTasks: 4, A57: 4, Denver: 2, Chains: 8, ChainLength: 4},
		{Tasks: 250, GPUTasks: 10, A57: 4, Denver: 2, Chains: 8, ChainLength: 5},
	} {
		for seed := range uint64(5) {
			cfg, y, err := Config(s, rand.New(rand.NewPCG(seed, 1)))
			if err != nil {
				t.Fatalf("%+v seed %d: %v\n%s", s, seed, err, y)
			}
			y2, _ := YAML(s, rand.New(rand.NewPCG(seed, 1)))
			if y != y2 {
				t.Fatalf("%+v seed %d: not deterministic", s, seed)
			}
			want := s
			want.defaults()
			if n := len(cfg.System.Tasks); n != want.Tasks+2*want.GPUTasks {
				t.Fatalf("%+v: %d tasks", s, n)
			}
			if _, err := evaluate.NewEvaluator(cfg); err != nil {
				t.Fatalf("%+v seed %d: %v", s, seed, err)
			}
		}
	}
}

func TestSettingsRefused(t *testing.T) {
	for _, s := range []Settings{{Tasks: -1}, {AsyncShare: 2}, {GPUModel: "edf"}, {Periods: []configs.Duration{1}}} {
		if _, err := YAML(s, rand.New(rand.NewPCG(1, 1))); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
}
