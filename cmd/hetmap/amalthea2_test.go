package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The hand-written pair of configs/amalthea/testdata: one model in Amalthea 1.0.0
// and as APP4MC's model migration writes it in 2.0.0.
const (
	slices100 = "../../configs/amalthea/testdata/gpu-slices-1.0.0.amxmi"
	slices200 = "../../configs/amalthea/testdata/gpu-slices-2.0.0.amxmi"
)

// TestAmalthea2AnalysesAsItsOriginal: the 2.0.0 migration of a model with
// GPU time slices analyses exactly as its 1.0.0 original under every GPU
// model (before, its "extended:" time slices and their bounds were lost,
// and the time-slice analysis differed).
func TestAmalthea2AnalysesAsItsOriginal(t *testing.T) {
	for _, gpuModel := range []string{"fifo", "timeslice"} {
		t.Run(gpuModel, func(t *testing.T) {
			config := func(model string) string {
				abs, err := filepath.Abs(model)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(t.TempDir(), "c.yaml")
				if err := os.WriteFile(path, []byte("model: "+abs+"\nanalysis: {gpu_model: "+gpuModel+"}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return path
			}
			want, _ := analyzeJSON(t, "--config", config(slices100), "--mapping", "default")
			got, _ := analyzeJSON(t, "--config", config(slices200), "--mapping", "default")
			if len(want.GPU) != 2 {
				t.Fatalf("the 1.0.0 model's analysis has %d GPU tasks, want 2", len(want.GPU))
			}
			sameAnalysis(t, "2.0.0 vs 1.0.0", want, got)
		})
	}
}
