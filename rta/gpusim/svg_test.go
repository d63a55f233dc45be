package gpusim

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenScenario has copies, a NULL-stream kernel, a high-priority kernel, a
// kernel whose blocks are drawn in pieces and a long name.
func goldenScenario() Scenario {
	var s Scenario
	s.Name = "golden timeline"
	a := s.AddStream("A", PriorityLow, false)
	s.AddHost("A",
		CopyCall("A.in", a, 0, ms/2),
		KernelCall("K1", a, 0, kern(5, 768, 2*ms)),
		CopyCall("A.out", a, 0, ms/2))
	single(&s, "K2", PriorityLow, ms/4, kern(2, 256, ms))
	single(&s, "a rather long kernel name", PriorityHigh, ms, kern(3, 512, ms))
	n := s.AddStream("NULL", PriorityLow, true)
	s.AddHost("null", KernelCall("K4", n, 3*ms/2, kern(1, 1024, ms)))
	return s
}

func TestWriteSVGGolden(t *testing.T) {
	r := mustSim(t, goldenScenario())
	var buf bytes.Buffer
	if err := WriteSVG(&buf, r); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "timeline.golden.svg")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestWriteSVGGolden -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("SVG differs from %s (%d bytes, want %d); run with -update if the change is intended", golden, buf.Len(), len(want))
	}
	out := buf.String()
	for _, s := range []string{"K1:0", "K1:4", "K2:1", "K3:2", "K4:0", "A.in", "SM0", "SM1", "CE", "time [ms]",
		"K3 = a rather long kernel name [high]", "K4 [NULL]"} {
		if !strings.Contains(out, s) {
			t.Errorf("SVG lacks %q", s)
		}
	}
}

func TestWriteSVGEdgeCases(t *testing.T) {
	for _, s := range []Scenario{{}, {Device: Device{SMs: 1}}} {
		r := mustSim(t, s)
		var buf bytes.Buffer
		if err := WriteSVG(&buf, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "</svg>") {
			t.Error("incomplete SVG")
		}
	}
	// Many kernels: the legend is cut.
	var s Scenario
	for i := 0; i < 50; i++ {
		single(&s, "kernel number "+string(rune('A'+i%26))+string(rune('a'+i/26)), PriorityLow, int64(i)*us, kern(1, 64, ms))
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, mustSim(t, s)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "and 10 more kernels") {
		t.Error("legend not cut")
	}
}
