package evaluate_test

import (
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
)

// Helpers shared with the search's tests (optimizer/search_test.go and
// contention_exhaustive_test.go hold the same).

func loadYAML(t testing.TB, y string) *configs.Config {
	t.Helper()
	cfg, err := configs.Load(strings.NewReader(y), "test.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func objectives(front []optimizer.Point) [][]float64 {
	var out [][]float64
	for _, p := range front {
		out = append(out, p.Objectives)
	}
	return out
}

func loadFile(t testing.TB, path string) *configs.Config {
	t.Helper()
	cfg, err := configs.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
