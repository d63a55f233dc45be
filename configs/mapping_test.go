package configs

import (
	"errors"
	"strings"
	"testing"
)

func TestLoadMapping(t *testing.T) {
	m, err := LoadMapping(strings.NewReader(`
units:
  - {task: DASM, unit: Core2}
  - {task: EKF, unit: Core2, priority: 2}
  - {task: SFM, unit: GP10B}
offloading:
  - {task: Detection, mode: async}
time_slices:
  - {task: SFM, slice: 7200us}
gpu_priorities:
  - {task: SFM, priority: high}
`), "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Units) != 3 || m.Units[0].Priority != nil || m.Units[1].Priority == nil || *m.Units[1].Priority != 2 || m.Units[2].Unit != "GP10B" {
		t.Errorf("units %+v", m.Units)
	}
	if len(m.Offloading) != 1 || m.Offloading[0] != (OffloadChoice{Task: "Detection", Mode: Async}) {
		t.Errorf("offloading %+v", m.Offloading)
	}
	if len(m.TimeSlices) != 1 || m.TimeSlices[0].Slice != 7200*Microsecond {
		t.Errorf("time slices %+v", m.TimeSlices)
	}
	if len(m.GPUPriorities) != 1 || m.GPUPriorities[0].Priority != GPUHigh {
		t.Errorf("GPU priorities %+v", m.GPUPriorities)
	}

	for _, tt := range []struct{ text, want string }{
		{"units: [{task: DASM, unit: Core2, prio: 1}]\n", "units[0]: unknown key(s) prio"},
		{"units: [{task: DASM, unit: Core2, priority: high}]\n", "units[0].priority"},
		{"units: [{task: DASM, unit: Core2}]\ntime_slices: [{task: SFM, slice: 7200}]\n", "not a duration"},
		{"units: [{task: DASM, unit: Core2}]\ncolour: blue\n", "unknown key(s) at the top level: colour"},
		{"offloading: [{task: Detection, mode: async}]\n", "units: missing"},
		{"units: [", "not valid YAML"},
	} {
		_, err := LoadMapping(strings.NewReader(tt.text), "m.yaml")
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "m.yaml: ") {
			t.Errorf("%q: error %v, want an InputError naming m.yaml and %q", tt.text, err, tt.want)
		}
	}
}
