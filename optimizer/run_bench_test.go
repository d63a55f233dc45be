package optimizer_test

import (
	"context"
	"testing"

	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// BenchmarkExhaustive3Obj runs the exhaustive search of the 3-objective
// example (its exact front: 14 mappings) on one worker: the walk, its
// cuts and the evaluations, with the context checks and the progress
// estimate of an interruptible search.
func BenchmarkExhaustive3Obj(b *testing.B) {
	cfg := loadFile(b, "../configs/examples/waters-3obj.yaml")
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: "exhaustive", Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
