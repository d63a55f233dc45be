package gpusim

import "testing"

// benchScenario: 200 kernels of 100 blocks with mixed sizes, priorities and
// a NULL stream kernel every 20 launches.
func benchScenario() Scenario {
	var s Scenario
	null := s.AddStream("NULL", PriorityLow, true)
	for i := 0; i < 200; i++ {
		k := kern(100, 128*(1+i%8), ms+int64(i%7)*us)
		if i%20 == 19 {
			s.AddHost("n", KernelCall("n", null, int64(i)*ms, k))
			continue
		}
		p := PriorityLow
		if i%5 == 0 {
			p = PriorityHigh
		}
		single(&s, "k", p, int64(i)*ms, k)
	}
	return s
}

func BenchmarkSimulate(b *testing.B) {
	s := benchScenario()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Simulate(s); err != nil {
			b.Fatal(err)
		}
	}
}
