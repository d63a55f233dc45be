package report

import (
	"testing"

	"github.com/hetmap/hetmap/results"
)

// TestNoNumberWithoutBound: the report shows a response time read from
// the JSON only where it is a bound, as analyze's tables do (results'
// TestNoNumberWithoutBound): "no bound" for a task without one, whatever
// value the analysis stopped at.
func TestNoNumberWithoutBound(t *testing.T) {
	nine, stopped := int64(9_000_000), int64(64_400_000) // ns; 64.4 ms, the value OS_Overhead used to show
	for _, c := range []struct {
		task results.AnalysisTaskJSON
		want string
	}{
		{results.AnalysisTaskJSON{Bounded: true, ResponseTimeNs: &nine}, "9 ms"},
		{results.AnalysisTaskJSON{Bounded: false, ResponseTimeNs: &stopped}, "no bound"},
		{results.AnalysisTaskJSON{Bounded: false}, "no bound"},
	} {
		if got := formatRns(&c.task); got != c.want {
			t.Errorf("formatRns(bounded %v, %v) = %q, want %q", c.task.Bounded, c.task.ResponseTimeNs != nil, got, c.want)
		}
	}
}

// TestPercentAsObjective: a utilisation objective prints as the utilisation
// does (results.FormatPercent), rounded once from the exact value (results'
// TestPercentOnceFromTheExactValue).
func TestPercentAsObjective(t *testing.T) {
	for _, u := range []float64{0.96946, 0.96949999, 0.9695, 0.12345, 1.0004999, 0.000049} {
		if got, want := axisValue(100*u, "%"), results.FormatPercent(u); got != want {
			t.Errorf("%v as an objective prints %s, as a utilisation %s", u, got, want)
		}
	}
}
