package evaluate

import (
	"fmt"
	"math"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// NoUnit is the unit of a task that does not run on its own: the offloading
// task of a GPU task that is merged onto a core.
const NoUnit = -1

// NoPriority marks a task without an explicit priority in an Assignment.
const NoPriority = math.MinInt32

// Assignment is the compact form of a mapping that Evaluate reads and a
// search mutates. Tasks are indexed as in System.Tasks, units as in
// System.Units and GPU tasks as in Model.GPUTasks.
type Assignment struct {
	// Unit[i] is the unit of task i. A GPU task on the GPU needs its
	// offloading task on a core; a GPU task on a core is merged with its
	// offloading task, whose Unit is then NoUnit.
	Unit []int
	// Priority[i] is task i's fixed priority on its core, a higher value
	// more urgent (as in Amalthea), or NoPriority. On a core where every task
	// has one, these priorities are used; elsewhere the configured
	// assignment (analysis.priorities) derives them.
	Priority []int
	// Per GPU task: asynchronous offloading (else synchronous), high stream
	// priority (fifo model; else low) and time slice in picoseconds
	// (timeslice model).
	Async []bool
	High  []bool
	Slice []int64
}

// NewAssignment returns an assignment with no task placed, no explicit
// priority and the model's defaults for the GPU tasks (its offloading modes
// and time slices, low stream priorities).
func (e *Evaluator) NewAssignment() *Assignment {
	a := &Assignment{
		Unit:     make([]int, len(e.tasks)),
		Priority: make([]int, len(e.tasks)),
		Async:    make([]bool, len(e.gpus)),
		High:     make([]bool, len(e.gpus)),
		Slice:    make([]int64, len(e.gpus)),
	}
	for i := range a.Unit {
		a.Unit[i], a.Priority[i] = NoUnit, NoPriority
	}
	for g := range e.gpus {
		a.Async[g], a.Slice[g] = e.gpus[g].defaultAsync, e.gpus[g].defaultSlice
	}
	return a
}

// Clone returns a deep copy.
func (a *Assignment) Clone() *Assignment {
	return &Assignment{Unit: append([]int(nil), a.Unit...), Priority: append([]int(nil), a.Priority...),
		Async: append([]bool(nil), a.Async...), High: append([]bool(nil), a.High...), Slice: append([]int64(nil), a.Slice...)}
}

// CopyFrom makes a a copy of b without allocating when the sizes agree.
func (a *Assignment) CopyFrom(b *Assignment) {
	a.Unit = append(a.Unit[:0], b.Unit...)
	a.Priority = append(a.Priority[:0], b.Priority...)
	a.Async = append(a.Async[:0], b.Async...)
	a.High = append(a.High[:0], b.High...)
	a.Slice = append(a.Slice[:0], b.Slice...)
}

// FromMapping converts a mapping file's mapping. It is validated first with
// configs.ValidateMapping (every task that runs must be placed); the
// priorities it gives are used (they win over analysis.priorities), and must
// then be given for every task of the core. Every problem is an
// *configs.InputError.
func (e *Evaluator) FromMapping(m *configs.Mapping) (*Assignment, error) {
	return e.fromMapping(m, true)
}

// DefaultAssignment converts the model's own mapping (System.Mapping), its
// priorities read by conventions.priorities (configs.Config.ModelMapping).
// They are used only when analysis.priorities is "model"; otherwise they
// are derived (the WATERS model gives every task priority 1).
func (e *Evaluator) DefaultAssignment() (*Assignment, error) {
	if e.model && e.cfg.Conventions.Priorities == configs.ModelPrioritiesIgnore {
		return nil, &configs.InputError{Where: "analysis.priorities", What: "model takes every task's priority from the model's own mapping, but conventions.priorities: derived ignores them: choose another priority assignment (opa, deadline-monotonic, rate-monotonic) or another convention"}
	}
	m := e.cfg.ModelMapping()
	return e.fromMapping(&m, e.model)
}

func (e *Evaluator) fromMapping(m *configs.Mapping, usePriorities bool) (*Assignment, error) {
	s := e.cfg.System
	if err := configs.ValidateMapping(s, m, false); err != nil {
		return nil, err
	}
	a := e.NewAssignment()
	index := map[string]int{}
	for i, t := range s.Tasks {
		index[t.Name] = i
	}
	units := map[string]int{}
	for u, ui := range e.units {
		units[ui.name] = u
	}
	gpuOf := map[string]int{}
	for g, gi := range e.gpus {
		gpuOf[s.Tasks[gi.task].Name] = g
	}
	for _, p := range m.Units {
		i := index[p.Task]
		a.Unit[i] = units[p.Unit]
		if usePriorities && p.Priority != nil {
			a.Priority[i] = *p.Priority
		}
	}
	for _, o := range m.Offloading {
		a.Async[gpuOf[o.Task]] = o.Mode == configs.Async
	}
	for _, ts := range m.TimeSlices {
		a.Slice[gpuOf[ts.Task]] = int64(ts.Slice)
	}
	for _, gp := range m.GPUPriorities {
		a.High[gpuOf[gp.Task]] = gp.Priority == configs.GPUHigh
	}
	for _, gi := range e.gpus {
		if a.Unit[gi.task] == e.gpuUnit && e.gpuUnit >= 0 && gi.kernel < 0 {
			return nil, &configs.InputError{Where: "mapping.units", What: fmt.Sprintf("GPU task %s has no ticks for the GPU", s.Tasks[gi.task].Name)}
		}
	}
	// Priorities: all or none per core; required under analysis.priorities = model.
	for u, ui := range e.units {
		if ui.gpu {
			continue
		}
		var with, without []string
		for i := range a.Unit {
			if a.Unit[i] != u {
				continue
			}
			if a.Priority[i] == NoPriority {
				without = append(without, s.Tasks[i].Name)
			} else {
				with = append(with, s.Tasks[i].Name)
			}
		}
		switch {
		case len(with) > 0 && len(without) > 0:
			return nil, &configs.InputError{Where: "mapping.units", What: fmt.Sprintf("%s: %s %s a priority but %s %s not: give a priority to every task of the core or to none",
				ui.name, strings.Join(with, ", "), hasHave(len(with)), strings.Join(without, ", "), doesDo(len(without)))}
		case e.model && len(without) > 0:
			return nil, &configs.InputError{Where: "mapping.units", What: fmt.Sprintf("analysis.priorities is model, but %s on %s %s no priority", strings.Join(without, ", "), ui.name, hasHave(len(without)))}
		}
	}
	if err := e.check(a, false); err != nil {
		return nil, &configs.InputError{Where: "mapping", What: err.Error()}
	}
	return a, nil
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itsTheir(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}

func waitWaits(n int) string {
	if n == 1 {
		return "waits"
	}
	return "wait"
}

func itThey(n int) string {
	if n == 1 {
		return "it"
	}
	return "they"
}

func sIfOne(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

func doesDo(n int) string {
	if n == 1 {
		return "does"
	}
	return "do"
}

// Mapping converts an assignment back to the configuration's form, for
// writing a mapping file. Priorities are written where the assignment has
// them; GPU settings are written for the GPU tasks on the GPU.
func (e *Model) Mapping(a *Assignment) configs.Mapping {
	s := e.cfg.System
	var m configs.Mapping
	for i, u := range a.Unit {
		if u == NoUnit || u < 0 || u >= len(e.units) {
			continue
		}
		p := configs.Placement{Task: s.Tasks[i].Name, Unit: e.units[u].name}
		if a.Priority[i] != NoPriority {
			v := a.Priority[i]
			p.Priority = &v
		}
		m.Units = append(m.Units, p)
	}
	for g, gi := range e.gpus {
		if a.Unit[gi.task] != e.gpuUnit {
			continue
		}
		name := s.Tasks[gi.task].Name
		mode := configs.Sync
		if a.Async[g] {
			mode = configs.Async
		}
		m.Offloading = append(m.Offloading, configs.OffloadChoice{Task: name, Mode: mode})
		if e.fifo {
			p := configs.GPULow
			if a.High[g] {
				p = configs.GPUHigh
			}
			m.GPUPriorities = append(m.GPUPriorities, configs.GPUPrioritySet{Task: name, Priority: p})
		} else {
			m.TimeSlices = append(m.TimeSlices, configs.TimeSliceSet{Task: name, Slice: configs.Duration(a.Slice[g])})
		}
	}
	return m
}

// check reports the first way in which a cannot be evaluated.
func (e *Evaluator) check(a *Assignment, partial bool) error {
	n := len(e.tasks)
	if len(a.Unit) != n || len(a.Priority) != n || len(a.Async) != len(e.gpus) || len(a.High) != len(e.gpus) || len(a.Slice) != len(e.gpus) {
		return errShape
	}
	for i := range e.tasks {
		ti := &e.tasks[i]
		u := a.Unit[i]
		if u != NoUnit && (u < 0 || u >= len(e.units)) {
			return fmt.Errorf("task %s: unit index %d out of range", ti.name, u)
		}
		if partial && u == NoUnit {
			continue
		}
		switch ti.kind {
		case kindPeriodic:
			if u == NoUnit || !ti.cpu[u].ok {
				return e.placeErr(i, u)
			}
		case kindGPU:
			g := &e.gpus[ti.gpu]
			pu := a.Unit[g.pre]
			switch {
			case u == NoUnit:
				return fmt.Errorf("GPU task %s is not placed (on the GPU or on a core)", ti.name)
			case u == e.gpuUnit:
				if g.kernel < 0 {
					return e.placeErr(i, u)
				}
				if (pu == NoUnit && !partial) || (pu != NoUnit && (pu < 0 || pu >= len(e.units) || !e.tasks[g.pre].cpu[pu].ok)) {
					return fmt.Errorf("%s runs on the GPU, so its offloading task %s needs a core", ti.name, e.tasks[g.pre].name)
				}
				if !e.fifo && a.Slice[ti.gpu] <= 0 {
					return fmt.Errorf("GPU task %s: time slice must be positive", ti.name)
				}
			default:
				if !ti.cpu[u].ok {
					return e.placeErr(i, u)
				}
				if pu != NoUnit {
					return fmt.Errorf("%s runs on core %s, so it is merged with %s, which must not be placed", ti.name, e.units[u].name, e.tasks[g.pre].name)
				}
			}
		}
	}
	return nil
}

func (e *Evaluator) placeErr(i, u int) error {
	if u == NoUnit {
		return fmt.Errorf("task %s is not placed", e.tasks[i].name)
	}
	return fmt.Errorf("task %s cannot run on %s (kind %s)", e.tasks[i].name, e.units[u].name, e.units[u].kind)
}

// Describe writes mapping a by unit on one line, as a search names the
// mappings it left undecided: "Core0: A, B | Core1: C | GP10B: D (high priority)".
func (e *Model) Describe(a *Assignment) string {
	var parts []string
	for u := range e.units {
		var names []string
		for i, v := range a.Unit {
			if v != u {
				continue
			}
			name := e.tasks[i].name
			if g := e.tasks[i].gpu; e.tasks[i].kind == kindGPU && u == e.gpuUnit {
				switch {
				case e.fifo && a.High[g]:
					name += " (high priority)"
				case !e.fifo:
					name += " (slice " + configs.Duration(a.Slice[g]).String() + ")"
				}
			} else if e.tasks[i].kind == kindOffloading && a.Async[g] {
				name += " (async)"
			}
			names = append(names, name)
		}
		if len(names) > 0 {
			parts = append(parts, e.units[u].name+": "+strings.Join(names, ", "))
		}
	}
	return strings.Join(parts, " | ")
}
