package configs

import (
	"strings"
	"testing"
)

// TestExecutionScale: analysis.execution_scale defaults to 1, is read to
// the millionth, and a factor at or below 0, NaN or above 1000 is an error
// naming the key.
func TestExecutionScale(t *testing.T) {
	for _, tc := range []struct {
		value string
		ppm   int64
		err   string
	}{
		{value: "", ppm: 1_000_000},
		{value: "1.087", ppm: 1_087_000},
		{value: "2", ppm: 2_000_000},
		{value: "0.0000004", err: "analysis.execution_scale: must be a factor above 0"},
		{value: "0", err: "analysis.execution_scale: 0: give a factor above 0"},
		{value: "-1", err: "analysis.execution_scale: must be a factor above 0"},
		{value: ".nan", err: "analysis.execution_scale: must be a factor above 0"},
		{value: "1000.5", err: "at most 1000"},
		{value: "fast", err: "analysis.execution_scale"},
	} {
		y := "model: builtin\n"
		if tc.value != "" {
			y += "analysis: {execution_scale: " + tc.value + "}\n"
		}
		cfg, err := Load(strings.NewReader(y), "c.yaml", ".")
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one with %q", tc.value, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.value, err)
		case cfg.Analysis.ExecutionScalePPM() != tc.ppm:
			t.Errorf("%s: %d ppm, want %d", tc.value, cfg.Analysis.ExecutionScalePPM(), tc.ppm)
		}
	}
}
