package evaluate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

func TestFromMappingErrors(t *testing.T) {
	e := watersEvaluator(t)
	edit := func(f func(m *configs.Mapping)) *configs.Mapping {
		m := feasibleWATERS()
		f(m)
		return m
	}
	set := func(task, unit string) func(m *configs.Mapping) {
		return func(m *configs.Mapping) {
			for i := range m.Units {
				if m.Units[i].Task == task {
					m.Units[i].Unit = unit
					return
				}
			}
			m.Units = append(m.Units, configs.Placement{Task: task, Unit: unit})
		}
	}
	drop := func(task string) func(m *configs.Mapping) {
		return func(m *configs.Mapping) {
			for i := range m.Units {
				if m.Units[i].Task == task {
					m.Units = append(m.Units[:i], m.Units[i+1:]...)
					return
				}
			}
		}
	}
	prio := func(task string, p int) func(m *configs.Mapping) {
		return func(m *configs.Mapping) {
			for i := range m.Units {
				if m.Units[i].Task == task {
					m.Units[i].Priority = &p
				}
			}
		}
	}
	tests := []struct {
		name string
		m    *configs.Mapping
		want string
	}{
		{"unknown task", edit(set("Radar", "Core0")), `task "Radar" is not defined`},
		{"unknown unit", edit(set("EKF", "Core9")), `unit "Core9" is not defined`},
		{"unplaced task", edit(drop("EKF")), "task EKF is not placed"},
		{"no ticks on the GPU", edit(set("Planner", "GP10B")), "Planner cannot run on GP10B: it has no ticks for kind GPU_def"},
		{"no CPU ticks", edit(func(m *configs.Mapping) { set("Detection", "Core0")(m); drop("PRE_Detection_gpu_POST")(m) }), "Detection cannot run on Core0"},
		{"offloading task without a core", edit(drop("PRE_SFM_gpu_POST")), "SFM runs on the GPU, so its offloading task PRE_SFM_gpu_POST needs a core"},
		{"merged task with its offloading task placed", edit(set("SFM", "Core1")), "so it is merged with PRE_SFM_gpu_POST, which must not be placed"},
		{"priorities for some tasks of a core", edit(prio("DASM", 3)), "Core3: DASM has a priority but CANbus_polling, EKF do not"},
		{"offloading mode of a CPU task", edit(func(m *configs.Mapping) {
			m.Offloading = append(m.Offloading, configs.OffloadChoice{Task: "EKF", Mode: configs.Async})
		}), `"EKF" is not a GPU task`},
	}
	for _, tt := range tests {
		_, err := e.FromMapping(tt.m)
		var ie *configs.InputError
		if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want an InputError with %q", tt.name, err, tt.want)
		}
	}

	// analysis.priorities = model needs a priority for every task.
	cfg, _ := configs.Default()
	cfg.Analysis.Priorities = configs.PrioritiesModel
	em := evaluator(t, cfg)
	if _, err := em.FromMapping(feasibleWATERS()); err == nil || !strings.Contains(err.Error(), "analysis.priorities is model, but Planner on Core0 has no priority") {
		t.Errorf("model priorities without priorities: %v", err)
	}
	// The model's own mapping gives every task priority 1: under "model"
	// they are used (equal priorities interfere with each other).
	a, err := em.DefaultAssignment()
	if err != nil {
		t.Fatal(err)
	}
	if a.Priority[0] != 1 {
		t.Errorf("model priorities not taken from the model's mapping: %v", a.Priority)
	}
	// Under OPA they are not.
	a, err = e.DefaultAssignment()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range a.Priority {
		if p != -1<<31 {
			t.Errorf("task %d: priority %d under OPA, want none", i, p)
		}
	}

	// Priorities for every task of a core are used; the round trip through
	// Mapping keeps the assignment.
	m := edit(func(m *configs.Mapping) { prio("DASM", 3)(m); prio("CANbus_polling", 2)(m); prio("EKF", 1)(m) })
	a, err = e.FromMapping(m)
	if err != nil {
		t.Fatal(err)
	}
	back := e.Model().Mapping(a)
	b, err := e.FromMapping(&back)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Unit {
		if a.Unit[i] != b.Unit[i] || a.Priority[i] != b.Priority[i] {
			t.Errorf("round trip changed task %d: unit %d → %d, priority %d → %d", i, a.Unit[i], b.Unit[i], a.Priority[i], b.Priority[i])
		}
	}
	for g := range a.Async {
		if a.Async[g] != b.Async[g] || a.High[g] != b.High[g] {
			t.Errorf("round trip changed GPU task %d", g)
		}
	}
}
