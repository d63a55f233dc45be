package evaluate_test

import (
	"context"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// TestVariantsStop: an evaluator whose run is interrupted (Evaluator.SetStop)
// evaluates no joint order and no priority variant: JointOrders and
// PriorityVariants return at once, incomplete, so that a mapping with
// thousands of orders does not hold up a Ctrl-C. Without the stop the same
// calls evaluate some.
func TestVariantsStop(t *testing.T) {
	cfg, err := configs.LoadFile("../../configs/examples/waters-3obj.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A mapping of the exact front: feasible, several tasks a core.
	out, err := optimizer.Run(context.Background(), e, optimizer.Options{Algorithm: configs.AlgorithmExhaustive})
	if err != nil || len(out.Front) == 0 {
		t.Fatalf("no front (%v)", err)
	}
	a := out.Front[0].Assignment.Clone()
	for i := range a.Priority {
		a.Priority[i] = evaluate.NoPriority // derived, so that the orders vary
	}
	relevant := make([]bool, len(e.Model().Tasks()))
	for i := range relevant {
		relevant[i] = true
	}
	count := func(stopped bool) (joint evaluate.JointResult, variants int, complete bool) {
		e.SetStop(func() bool { return stopped })
		defer e.SetStop(nil)
		b, rb := e.NewAssignment(), e.NewAnalysis()
		joint, err := e.JointOrders(a, 0, evaluate.Unbounded(), b, rb, func(*evaluate.Assignment, *evaluate.Analysis) {})
		if err != nil {
			t.Fatal(err)
		}
		r := e.NewAnalysis()
		if err := e.Evaluate(a, r); err != nil {
			t.Fatal(err)
		}
		complete, err = e.PriorityVariants(a, r, relevant, b, rb, evaluate.Unbounded(), func(*evaluate.Assignment, *evaluate.Analysis) { variants++ })
		if err != nil {
			t.Fatal(err)
		}
		return joint, variants, complete
	}
	joint, variants, _ := count(false)
	if joint.Evaluated+variants == 0 {
		t.Fatalf("without a stop: %d joint orders, %d variants evaluated; the test needs some", joint.Evaluated, variants)
	}
	joint, variants, complete := count(true)
	if joint.Evaluated != 0 || joint.Complete || variants != 0 || complete {
		t.Errorf("stopped: %+v, %d variants (complete %v); want nothing evaluated, incomplete", joint, variants, complete)
	}
}
