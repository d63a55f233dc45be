package optimizer

import (
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// TestAutoAlgorithm: the default algorithm, auto, runs the exhaustive
// search when Knuth's estimate of its size is small (the built-in model: a
// few thousand nodes) and NSGA-II when it is large (the time-slice model
// with 1 ms steps: tens of millions), and says which and why.
func TestAutoAlgorithm(t *testing.T) {
	for _, c := range []struct {
		config string
		want   configs.Algorithm
		says   string
	}{
		{"model: builtin\n", configs.AlgorithmExhaustive, "auto: the exhaustive search, estimated at "},
		{"model: builtin\nanalysis: {gpu_model: timeslice}\n", configs.AlgorithmNSGA2, "auto: NSGA-II, since the exhaustive search is estimated at "},
		{"model: builtin\nsearch: {algorithm: nsga2}\n", configs.AlgorithmNSGA2, ""},
	} {
		cfg, err := configs.Load(strings.NewReader(c.config), "auto.yaml", ".")
		if err != nil {
			t.Fatal(err)
		}
		e, err := evaluate.NewEvaluator(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p, err := problemOf(e, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.chooseAlgorithm()
		if p.search.Algorithm != c.want || !strings.HasPrefix(p.choice, c.says) || (c.says == "") != (p.choice == "") {
			t.Errorf("%q: %s (%q), want %s (%q…)", c.config, p.search.Algorithm, p.choice, c.want, c.says)
		}
	}
}
