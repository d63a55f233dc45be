package moo

import "testing"

// TestCheckpointKeepsUnlimited: a checkpoint's Allowance fields keep what
// format 1 always held, -1 for no bound, while the run says "no limit"
// with Evaluation.Unlimited; a point saved and read back keeps both what
// was left and whether there was a bound.
func TestCheckpointKeepsUnlimited(t *testing.T) {
	for _, tc := range []struct {
		ev    Evaluation
		store int
	}{
		{Evaluation{Unlimited: true}, -1},
		{Evaluation{EvaluationsLeft: 0}, 0},
		{Evaluation{EvaluationsLeft: 7}, 7},
	} {
		p := Point{Genome: []int{1}, Evaluation: tc.ev}
		sp, err := encodePoint(nil, &p)
		if err != nil {
			t.Fatal(err)
		}
		if sp.Allowance != tc.store {
			t.Errorf("%+v: stored Allowance %d, want %d", tc.ev, sp.Allowance, tc.store)
		}
		back, err := decodePoint(nil, &sp)
		if err != nil {
			t.Fatal(err)
		}
		if back.EvaluationsLeft != tc.ev.EvaluationsLeft || back.Unlimited != tc.ev.Unlimited {
			t.Errorf("%+v: read back as EvaluationsLeft %d, Unlimited %v", tc.ev, back.EvaluationsLeft, back.Unlimited)
		}
	}
}
