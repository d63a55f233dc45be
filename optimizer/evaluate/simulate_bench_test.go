package evaluate_test

import (
	"testing"

	"github.com/hetmap/hetmap/rta/syssim"
)

// BenchmarkSimulateWATERS simulates the feasible WATERS mapping over its
// longest period (400 ms), worst case, synchronous release, in both memory
// modes.
func BenchmarkSimulateWATERS(b *testing.B) {
	e := watersEvaluator(b)
	a, err := e.FromMapping(feasibleWATERS())
	if err != nil {
		b.Fatal(err)
	}
	r := e.NewAnalysis()
	if err := e.Evaluate(a, r); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []syssim.Memory{syssim.PerAccess, syssim.Request} {
		b.Run(mode.String(), func(b *testing.B) {
			in, err := e.SimulationInput(r)
			if err != nil {
				b.Fatal(err)
			}
			in.Memory = mode
			var events int
			for b.Loop() {
				res, err := syssim.Simulate(in)
				if err != nil {
					b.Fatal(err)
				}
				events = res.Events
			}
			b.ReportMetric(float64(events), "events/op")
		})
	}
}
