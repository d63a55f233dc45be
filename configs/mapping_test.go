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

// TestOwnMapping: which cores keep the model's priorities under
// --mapping default, and which warnings say so.
func TestOwnMapping(t *testing.T) {
	p := func(v int) *int { return &v }
	sys := func(ps ...Placement) *System {
		return &System{Units: []Unit{{Name: "C0", Type: CPU}, {Name: "C1", Type: CPU}, {Name: "G", Type: GPU}}, Mapping: Mapping{Units: ps}}
	}
	for _, c := range []struct {
		name string
		in   []Placement
		kept []bool // per placement: the priority is kept
		warn string // "" = no warning
	}{
		{"every task, distinct", []Placement{{"A", "C0", p(2)}, {"B", "C0", p(1)}}, []bool{true, true}, ""},
		{"incomplete", []Placement{{"A", "C0", p(2)}, {"B", "C0", nil}}, []bool{false, false}, "A has a priority but B does not"},
		{"all equal", []Placement{{"A", "C0", p(1)}, {"B", "C0", p(1)}}, []bool{false, false}, "share priority 1, which orders nothing"},
		{"one task alone", []Placement{{"A", "C0", p(5)}, {"B", "C1", p(1)}, {"C", "C1", p(2)}}, []bool{false, true, true}, ""},
		{"two of three equal", []Placement{{"A", "C0", p(1)}, {"B", "C0", p(1)}, {"C", "C0", p(2)}}, []bool{true, true, true}, "tasks A, B share priority 1: under --mapping default the model's priorities of C0 are used"},
		{"none", []Placement{{"A", "C0", nil}, {"B", "C0", nil}}, []bool{false, false}, ""},
	} {
		s := sys(c.in...)
		m, warns := s.OwnMapping()
		for i, pl := range m.Units {
			if (pl.Priority != nil) != c.kept[i] {
				t.Errorf("%s: %s keeps its priority: %v, want %v", c.name, pl.Task, pl.Priority != nil, c.kept[i])
			}
		}
		if s.Mapping.Units[0].Priority != c.in[0].Priority {
			t.Errorf("%s: the system's own mapping was changed", c.name)
		}
		switch {
		case c.warn == "" && len(warns) > 0:
			t.Errorf("%s: warnings %v, want none", c.name, warns)
		case c.warn != "" && (len(warns) != 1 || !strings.Contains(warns[0].What, c.warn)):
			t.Errorf("%s: warnings %v, want one with %q", c.name, warns, c.warn)
		}
	}
}
