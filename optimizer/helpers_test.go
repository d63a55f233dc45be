package optimizer_test

import (
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

func evaluator(t *testing.T, cfg *configs.Config) *evaluate.Evaluator {
	t.Helper()
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
