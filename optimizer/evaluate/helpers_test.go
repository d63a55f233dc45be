package evaluate_test

import "github.com/hetmap/hetmap/optimizer"

// objectives lists the front's objective vectors (the search's tests,
// optimizer/search_test.go, have the same helper; the configurations of
// both load with synth.Load and synth.LoadFile).
func objectives(front []optimizer.Point) [][]float64 {
	var out [][]float64
	for _, p := range front {
		out = append(out, p.Objectives)
	}
	return out
}
