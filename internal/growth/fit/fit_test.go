package fit

import (
	"bufio"
	"math"
	"strings"
	"testing"
)

// TestExponent: ns/op that grow as 3·N² and as 5·N^1.5 (computed by hand:
// 3·60² = 10800, 3·120² = 43200, 3·240² = 172800; 5·100^1.5 = 5000,
// 5·400^1.5 = 40000), with the GOMAXPROCS suffix and two runs of one size,
// fit exponents 2 and 1.5; a size below from is left out, a dropped
// parameter (cores) does not split a group, and a group with one size
// cannot be fitted.
func TestExponent(t *testing.T) {
	in := `goos: linux
BenchmarkX/count=a/tasks=14-2   	100	  999 ns/op	0 B/op
BenchmarkX/count=a/tasks=60-2   	100	10800 ns/op	0 B/op
BenchmarkX/count=a/tasks=120-2  	100	43200 ns/op
BenchmarkX/count=a/tasks=240/cores=12-2  	100	172800 ns/op
BenchmarkX/count=b/tasks=100-2  	100	4000 ns/op
BenchmarkX/count=b/tasks=100-2  	100	6250 ns/op
BenchmarkX/count=b/tasks=400-2  	100	40000 ns/op
BenchmarkY/tasks=60-2  	100	40000 ns/op
PASS`
	groups, err := Read(bufio.NewScanner(strings.NewReader(in)), "tasks", "cores")
	if err != nil {
		t.Fatal(err)
	}
	// 4000 and 6250 average in logs to √(4000·6250) = 5000.
	want := map[string]float64{"BenchmarkX/count=a": 2, "BenchmarkX/count=b": 1.5}
	if len(groups) != 3 {
		t.Fatalf("%d groups, want 3", len(groups))
	}
	for _, g := range groups {
		b, _, err := g.Exponent(60)
		if w, ok := want[g.Name]; ok {
			if err != nil || math.Abs(b-w) > 1e-9 {
				t.Errorf("%s: exponent %v (%v), want %v", g.Name, b, err, w)
			}
		} else if err == nil {
			t.Errorf("%s: one size fitted to %v", g.Name, b)
		}
	}
}
