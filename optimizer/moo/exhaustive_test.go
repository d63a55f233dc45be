package moo

import (
	"bytes"
	"encoding/gob"
	"testing"
)

// TestExhaustiveHand enumerates the hand problem with its symmetries broken
// (x0 ≤ x1, x2 ≤ x3) and with the partial assignments of x0 + x1 < 2 pruned,
// the order being x0, x1, x2, x3: 6 pairs (x0, x1), of which (0,0) and (0,1)
// are pruned, times 6 pairs (x2, x3) leaves 4·6 = 24 evaluations and 2 cuts.
func TestExhaustiveHand(t *testing.T) {
	h := &handProblem{need: 2}
	x := &Exhaustive{
		Values: func(partial []int, depth int, dst []int) []int {
			lo := 0
			if depth%2 == 1 { // x1 ≥ x0, x3 ≥ x2
				lo = partial[depth-1]
			}
			for v := lo; v <= 2; v++ {
				dst = append(dst, v)
			}
			return dst
		},
		Prune: func(partial []int, depth int) bool {
			return depth == 2 && partial[0]+partial[1] < 2
		},
	}
	res, err := Minimize(h, x, &Settings{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || res.Evaluations != 24 || h.calls.Load() != 24 || res.Pruned != 2 {
		t.Errorf("status %v, %d evaluations (%d made), %d cuts; want Exhausted, 24, 2", res.Status, res.Evaluations, h.calls.Load(), res.Pruned)
	}
	if !sameGenomes(res.Front, handFront) || !sameObjectives(res.Front, handFront) {
		t.Errorf("front %v, want %v", res.Front, handFront)
	}

	// Without help, the whole cross product.
	res, err = Minimize(&handProblem{need: 2}, &Exhaustive{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || res.Evaluations != 81 || !sameGenomes(res.Front, handFront) {
		t.Errorf("status %v, %d evaluations, front %v; want Exhausted, 81, %v", res.Status, res.Evaluations, res.Front, handFront)
	}

	// Infeasible: the least-violating genomes.
	res, err = Minimize(&handProblem{need: 5}, &Exhaustive{Order: []int{3, 2, 1, 0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, least, _ := bruteForce(&handProblem{need: 5})
	if res.Feasible || !sameGenomes(res.LeastViolating, least) {
		t.Errorf("least violating %v, want %v", res.LeastViolating, least)
	}
}

// TestExhaustiveKnapsack compares the enumeration of the knapsack, whole and
// pruned by weight, with brute force.
func TestExhaustiveKnapsack(t *testing.T) {
	k := newKnapsack(3)
	want, _, total := bruteForce(k)
	res, err := Minimize(newKnapsack(3), &Exhaustive{}, &Settings{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Evaluations != total || !sameGenomes(res.Front, want) || !sameObjectives(res.Front, want) {
		t.Errorf("%d evaluations, front %v; want %d, %v", res.Evaluations, res.Front, total, want)
	}

	// Weights are positive: a partial packing over capacity stays so.
	// Assign the heaviest items first, so the cuts come early.
	heavy := []int{2, 5, 0, 4, 1, 3, 6}
	k = newKnapsack(3)
	res, err = Minimize(k, &Exhaustive{
		Order: heavy,
		Prune: func(partial []int, depth int) bool {
			w := 0
			for _, i := range heavy[:depth] {
				w += partial[i] * k.weight[i]
			}
			return w > k.capacity
		},
	}, &Settings{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || !sameGenomes(res.Front, want) || res.Evaluations >= total || res.Pruned == 0 {
		t.Errorf("pruned: status %v, %d evaluations of %d, %d cuts, front %v; want %v", res.Status, res.Evaluations, total, res.Pruned, res.Front, want)
	}
	t.Logf("knapsack: %d genomes, front %d; pruned enumeration %d evaluations, %d cuts", total, len(want), res.Evaluations, res.Pruned)

	var enc [2]bytes.Buffer
	for i, workers := range []int{1, 4} {
		k := newKnapsack(3)
		k.jitter = true
		res, err := Minimize(k, &Exhaustive{}, &Settings{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		gob.Register(knapsackPayload{})
		if err := gob.NewEncoder(&enc[i]).Encode(res); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(enc[0].Bytes(), enc[1].Bytes()) {
		t.Error("enumeration with 1 and 4 workers gives different results")
	}

	res, err = Minimize(newKnapsack(3), &Exhaustive{}, &Settings{MaxEvaluations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != EvaluationLimit || res.Evaluations != 1000 {
		t.Errorf("status %v with %d evaluations, want EvaluationLimit with 1000", res.Status, res.Evaluations)
	}
	res, err = Minimize(&handProblem{need: 2}, &Exhaustive{}, &Settings{MaxEvaluations: 81})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Exhausted || res.Evaluations != 81 {
		t.Errorf("status %v with %d evaluations, want Exhausted with 81", res.Status, res.Evaluations)
	}
}
