package configs

import (
	"fmt"
	"math"
	"strings"
)

// Validate checks a configuration, resolves the deadline convention and
// returns the first problem as an *InputError naming the key path and what
// is wrong.
func Validate(cfg *Config) error {
	if cfg.System == nil {
		return inputErrorf("", "no system")
	}
	switch cfg.Conventions.Deadlines {
	case DeadlinesPeriod, DeadlinesModel:
	default:
		return inputErrorf("conventions.deadlines", "%q is not a deadline convention (period or model)", cfg.Conventions.Deadlines)
	}
	a := &cfg.Analysis
	switch a.GPUModel {
	case GPUModelFIFO, GPUModelTimeSlice:
	default:
		return inputErrorf("analysis.gpu_model", "%q is not a GPU model (fifo or timeslice)", a.GPUModel)
	}
	switch a.Priorities {
	case PrioritiesOPA, PrioritiesDM, PrioritiesRM, PrioritiesModel:
	default:
		return inputErrorf("analysis.priorities", "%q is not a priority assignment (opa, deadline-monotonic, rate-monotonic or model)", a.Priorities)
	}
	switch a.Contention {
	case ContentionChallenge, ContentionRefined, ContentionRequest:
	default:
		return inputErrorf("analysis.contention", "%q is not a contention count (challenge, refined or request)", a.Contention)
	}
	if err := a.ChainLatency.Validate("analysis.chain_latency"); err != nil {
		return err
	}
	if a.RequirementBound != "" && !contains(ChainBounds, a.RequirementBound) {
		return inputErrorf("analysis.requirement_bound", "%q is not a bound (%s)", a.RequirementBound, joinList(ChainBounds))
	}
	if a.TimeSliceStep <= 0 {
		return inputErrorf("analysis.time_slice_step", "must be positive")
	}
	if x := a.ExecutionScale; math.IsNaN(x) || x <= 0 || x > MaxExecutionScale || a.ExecutionScalePPM() < 1 {
		return inputErrorf("analysis.execution_scale", "must be a factor above 0 and at most %d (1 is the model's execution times), got %v", MaxExecutionScale, x)
	}
	s := cfg.System
	if n := SliceValues(s.TimeSlice, a.TimeSliceStep); n > MaxSliceValues {
		lo := max(s.TimeSlice.Min, a.TimeSliceStep)
		least := (s.TimeSlice.Max-lo)/Duration(MaxSliceValues) + 1
		return inputErrorf("analysis.time_slice_step", "%s gives %d time-slice values per GPU task between %s and %s (time_slice); hetmap takes at most %d: give a step of at least %s", a.TimeSliceStep, n, lo, s.TimeSlice.Max, MaxSliceValues, least)
	}
	if err := validateSystem(s); err != nil {
		return err
	}
	search := cfg.Search.WithDefaults(s, cfg.Analysis.ChainLatency)
	if err := search.validate(s); err != nil {
		return err
	}
	if a.InterferingCores != nil {
		cpus := 0
		for _, u := range s.Units {
			if u.Type == CPU {
				cpus++
			}
		}
		if *a.InterferingCores < 0 || *a.InterferingCores > cpus-1 {
			return inputErrorf("analysis.interfering_cores", "%d is impossible: between 0 and %d (the other cores)", *a.InterferingCores, cpus-1)
		}
	}
	seen := map[string]bool{}
	for i, k := range a.Kernels {
		where := fmt.Sprintf("analysis.kernels[%d]", i)
		t := s.Task(k.Task)
		switch {
		case t == nil:
			return inputErrorf(where+".task", "task %q is not defined", k.Task)
		case !t.IsGPUTask():
			return inputErrorf(where+".task", "%s is not a GPU task", k.Task)
		case seen[k.Task]:
			return inputErrorf(where+".task", "%s has a second geometry", k.Task)
		case k.Blocks <= 0 || k.Blocks > MaxBlocks:
			return inputErrorf(where+".blocks", "must be between 1 and %d, got %d", MaxBlocks, k.Blocks)
		case k.ThreadsPerBlock <= 0 || k.ThreadsPerBlock > 1024:
			return inputErrorf(where+".threads_per_block", "must be between 1 and 1024, got %d", k.ThreadsPerBlock)
		case k.SharedMemory < 0:
			return inputErrorf(where+".shared_memory_per_block", "must not be negative")
		case k.Registers < 0 || k.Registers > 255:
			return inputErrorf(where+".registers_per_thread", "must be between 0 and 255, got %d", k.Registers)
		}
		seen[k.Task] = true
	}
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if t.IsGPUTask() {
			continue
		}
		if cfg.Conventions.Deadlines == DeadlinesModel {
			t.Deadline = t.Requirement
		} else {
			t.Deadline = t.Period
		}
		if t.Deadline > t.Period {
			return inputErrorf("tasks["+t.Name+"].requirement", "%s exceeds the period %s: the analyses assume deadlines no longer than periods", t.Requirement, t.Period)
		}
	}
	return ValidateMapping(s, &s.Mapping, true)
}

// MaxSliceValues bounds the time-slice values per GPU task that the search
// enumerates: the slice bounds (time_slice) divided by
// analysis.time_slice_step.
const MaxSliceValues = 10_000

// SliceValues is the number of time-slice values per GPU task that the
// search tries: min (or step, when min is 0), min+step, … up to max.
func SliceValues(b SliceBounds, step Duration) int64 {
	if step <= 0 || b.Max <= 0 {
		return 0
	}
	lo := b.Min
	if lo <= 0 {
		lo = step
	}
	if lo > b.Max {
		return 0
	}
	return int64((b.Max-lo)/step) + 1
}

// MaxBlocks bounds the thread blocks of a kernel (analysis.kernels[].blocks):
// the GPU analyses and the simulator step through blocks.
const MaxBlocks = 1 << 20

// MinFrequency is the lowest unit frequency hetmap takes: below it, the
// execution and memory times of real models, in picoseconds, overflow.
const MinFrequency = Frequency(1000)

func validateSystem(s *System) error {
	if len(s.Units) == 0 {
		return inputErrorf("units", "no processing units")
	}
	units := map[string]bool{}
	kinds := map[string]UnitType{}
	for i, u := range s.Units {
		where := fmt.Sprintf("units[%d]", i)
		switch {
		case u.Name == "":
			return inputErrorf(where+".name", "missing")
		case units[u.Name]:
			return inputErrorf(where+".name", "unit %q is defined twice", u.Name)
		case u.Kind == "":
			return inputErrorf(where+".kind", "missing (unit %s)", u.Name)
		case u.Type != CPU && u.Type != GPU:
			return inputErrorf(where+".type", "%q is not a unit type (cpu or gpu)", u.Type)
		case u.Frequency <= 0:
			return inputErrorf(where+".frequency", "must be positive (unit %s)", u.Name)
		case u.Frequency < MinFrequency:
			return inputErrorf(where+".frequency", "%s is below %s, the lowest frequency hetmap takes: times in cycles would not fit its picosecond clock (unit %s)", u.Frequency, MinFrequency, u.Name)
		case u.ReadLatency < 0 || u.WriteLatency < 0:
			return inputErrorf(where, "DRAM latencies must not be negative (unit %s)", u.Name)
		}
		if t, ok := kinds[u.Kind]; ok && t != u.Type {
			return inputErrorf(where+".kind", "kind %s is used for both a CPU and a GPU", u.Kind)
		}
		kinds[u.Kind] = u.Type
		units[u.Name] = true
		if u.Type == GPU {
			g := u.GPU
			if g == nil {
				return inputErrorf(where+".gpu", "missing: a GPU needs its resources (sms, threads_per_sm, …)")
			}
			if g.SMs <= 0 || g.ThreadsPerSM <= 0 || g.SharedMemoryPerSM < 0 || g.RegistersPerSM < 0 || g.CopyEngines <= 0 || g.MaxThreadsPerBlock <= 0 || g.MaxSharedMemPerBlock < 0 {
				return inputErrorf(where+".gpu", "sms, threads_per_sm, copy_engines and max_threads_per_block must be positive, the memories not negative (unit %s)", u.Name)
			}
		} else if u.GPU != nil {
			return inputErrorf(where+".gpu", "a CPU core has no GPU resources (unit %s)", u.Name)
		}
	}
	m := s.Memory
	if m.LineSize <= 0 {
		if s.Memory.LineSize == 0 {
			return inputErrorf("memory.line_size", "missing: give the bytes per DRAM access, e.g. 64")
		}
		return inputErrorf("memory.line_size", "must be positive, got %d", s.Memory.LineSize)
	}
	if m.CopyEngine.Baseline < 0 || m.CopyEngine.PerCore < 0 {
		return inputErrorf("memory.copy_engine", "latencies must not be negative")
	}
	memKinds := map[string]bool{}
	for i, c := range m.Cores {
		where := fmt.Sprintf("memory.cores[%d]", i)
		if kinds[c.Kind] != CPU {
			return inputErrorf(where+".kind", "%q is not the kind of any CPU core", c.Kind)
		}
		if memKinds[c.Kind] {
			return inputErrorf(where+".kind", "kind %s is given twice", c.Kind)
		}
		if c.Baseline < 0 || c.PerCore < 0 || c.CopyEngine < 0 {
			return inputErrorf(where, "latencies must not be negative")
		}
		memKinds[c.Kind] = true
	}
	for _, u := range s.Units {
		if u.Type == CPU && !memKinds[u.Kind] {
			return inputErrorf("memory.cores", "no contention parameters for core kind %s (unit %s)", u.Kind, u.Name)
		}
	}
	labels := map[string]bool{}
	for i, l := range s.Labels {
		where := fmt.Sprintf("labels[%d]", i)
		switch {
		case l.Name == "":
			return inputErrorf(where+".name", "missing")
		case labels[l.Name]:
			return inputErrorf(where+".name", "label %q is defined twice", l.Name)
		case l.Size < 0:
			return inputErrorf(where+".size_bytes", "must not be negative (label %s)", l.Name)
		}
		labels[l.Name] = true
	}
	runs := map[string]bool{}
	for i, r := range s.Runnables {
		where := fmt.Sprintf("runnables[%d]", i)
		if r.Name == "" {
			return inputErrorf(where+".name", "missing")
		}
		if runs[r.Name] {
			return inputErrorf(where+".name", "runnable %q is defined twice", r.Name)
		}
		runs[r.Name] = true
		tk := map[string]bool{}
		for j, t := range r.Ticks {
			tw := fmt.Sprintf("%s.ticks[%d]", where, j)
			switch {
			case kinds[t.Kind] == "":
				return inputErrorf(tw+".kind", "%q is not the kind of any unit (runnable %s)", t.Kind, r.Name)
			case tk[t.Kind]:
				return inputErrorf(tw+".kind", "kind %s is given twice (runnable %s)", t.Kind, r.Name)
			case t.Lower < 0 || t.Upper < t.Lower:
				return inputErrorf(tw, "ticks need 0 ≤ lower ≤ upper, got %d and %d (runnable %s)", t.Lower, t.Upper, r.Name)
			}
			tk[t.Kind] = true
		}
		for j, l := range r.Reads {
			if !labels[l] {
				return inputErrorf(fmt.Sprintf("%s.reads[%d]", where, j), "label %q is not defined (runnable %s)", l, r.Name)
			}
		}
		for j, l := range r.Writes {
			if !labels[l] {
				return inputErrorf(fmt.Sprintf("%s.writes[%d]", where, j), "label %q is not defined (runnable %s)", l, r.Name)
			}
		}
	}
	if len(s.Tasks) == 0 {
		return inputErrorf("tasks", "none: a system needs at least one task to map")
	}
	tasks := map[string]int{}
	for i, t := range s.Tasks {
		if t.Name == "" {
			return inputErrorf(fmt.Sprintf("tasks[%d].name", i), "missing")
		}
		if _, dup := tasks[t.Name]; dup {
			return inputErrorf(fmt.Sprintf("tasks[%d].name", i), "task %q is defined twice", t.Name)
		}
		tasks[t.Name] = i
	}
	for i, t := range s.Tasks {
		where := fmt.Sprintf("tasks[%d]", i)
		if t.IsGPUTask() {
			pre := s.Task(t.TriggeredBy)
			if pre == nil {
				return inputErrorf(where+".triggered_by", "task %q is not defined (task %s)", t.TriggeredBy, t.Name)
			}
			if pre.Offload == nil || pre.Offload.GPUTask != t.Name {
				return inputErrorf(where+".triggered_by", "%s does not offload %s (give it offload.gpu_task: %s)", pre.Name, t.Name, t.Name)
			}
			if t.Period != 0 || t.Requirement != 0 || t.Offset != 0 || t.Jitter != 0 || t.ActivatedBy != "" {
				return inputErrorf(where, "a GPU task takes its period and deadline from %s; remove period, offset, jitter, activated_by and requirement (task %s)", pre.Name, t.Name)
			}
		} else {
			if t.Period <= 0 {
				return inputErrorf(where+".period", "must be positive (task %s)", t.Name)
			}
			if t.Requirement < 0 || t.Offset < 0 || t.Jitter < 0 {
				return inputErrorf(where, "requirement, offset and jitter must not be negative (task %s)", t.Name)
			}
			if t.ActivatedBy != "" {
				by := s.Task(t.ActivatedBy)
				switch {
				case by == nil:
					return inputErrorf(where+".activated_by", "task %q is not defined (task %s)", t.ActivatedBy, t.Name)
				case by.IsGPUTask():
					return inputErrorf(where+".activated_by", "%s is a GPU task: a GPU task activates no task (task %s)", t.ActivatedBy, t.Name)
				}
				seen := map[string]bool{t.Name: true}
				for b := by; b != nil && b.ActivatedBy != ""; b = s.Task(b.ActivatedBy) {
					if seen[b.Name] {
						return inputErrorf(where+".activated_by", "tasks activate each other in a cycle through %s (task %s)", b.Name, t.Name)
					}
					seen[b.Name] = true
				}
			}
		}
		for _, r := range t.AllRunnables() {
			if !runs[r] {
				return inputErrorf(where+".runnables", "runnable %q is not defined (task %s)", r, t.Name)
			}
		}
		if len(s.ComputeRunnables(&s.Tasks[i])) == 0 {
			return inputErrorf(where+".runnables", "task %s runs nothing with ticks", t.Name)
		}
		if o := t.Offload; o != nil {
			g := s.Task(o.GPUTask)
			switch {
			case g == nil:
				return inputErrorf(where+".offload.gpu_task", "task %q is not defined (task %s)", o.GPUTask, t.Name)
			case g.TriggeredBy != t.Name:
				return inputErrorf(where+".offload.gpu_task", "%s must name %s in triggered_by", o.GPUTask, t.Name)
			case o.Wait != WaitActive && o.Wait != WaitPassive:
				return inputErrorf(where+".offload.wait", "%q is not a wait mode (active or passive)", o.Wait)
			}
			if len(s.AllowedKinds(g)) == 0 {
				return inputErrorf(where+".offload.gpu_task", "GPU task %s has no ticks on any unit kind", g.Name)
			}
		}
	}
	if s.TimeSlice.Min < 0 || s.TimeSlice.Max < 0 || (s.TimeSlice.Max > 0 && s.TimeSlice.Min > s.TimeSlice.Max) {
		return inputErrorf("time_slice", "needs 0 ≤ min ≤ max, got %s and %s", s.TimeSlice.Min, s.TimeSlice.Max)
	}
	chains := map[string]bool{}
	for i, c := range s.Chains {
		where := fmt.Sprintf("chains[%d]", i)
		switch {
		case c.Name == "":
			return inputErrorf(where+".name", "missing")
		case chains[c.Name]:
			return inputErrorf(where+".name", "chain %q is defined twice", c.Name)
		case len(c.Tasks) < 2:
			return inputErrorf(where+".tasks", "a chain needs at least two tasks (chain %s)", c.Name)
		}
		chains[c.Name] = true
		for j, t := range c.Tasks {
			if _, ok := tasks[t]; !ok {
				return inputErrorf(fmt.Sprintf("%s.tasks[%d]", where, j), "task %q is not defined (chain %s)", t, c.Name)
			}
		}
		for j, r := range c.Max {
			if err := r.validate(fmt.Sprintf("%s.max[%d]", where, j), c.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// ValidateMapping checks a mapping against the system. With partial, tasks
// may be left out (the model's own mapping may be incomplete); otherwise
// every task must be placed, a GPU task on the GPU or on a core, and its
// offloading task on a core when the GPU task runs on the GPU.
func ValidateMapping(s *System, m *Mapping, partial bool) error {
	placed := map[string]string{}
	for i, p := range m.Units {
		where := fmt.Sprintf("mapping.units[%d]", i)
		t := s.Task(p.Task)
		if t == nil {
			return inputErrorf(where+".task", "task %q is not defined", p.Task)
		}
		u := s.Unit(p.Unit)
		if u == nil {
			return inputErrorf(where+".unit", "unit %q is not defined (task %s; units: %s)", p.Unit, p.Task, strings.Join(unitNames(s), ", "))
		}
		if _, dup := placed[p.Task]; dup {
			return inputErrorf(where+".task", "task %s is placed twice", p.Task)
		}
		if !contains(s.AllowedKinds(t), u.Kind) {
			return inputErrorf(where+".unit", "task %s cannot run on %s: it has no ticks for kind %s (allowed: %s)", p.Task, p.Unit, u.Kind, strings.Join(s.AllowedUnits(t), ", "))
		}
		if p.Priority != nil && u.Type == GPU {
			return inputErrorf(where+".priority", "a GPU task has no CPU priority; use gpu_priorities for its stream priority (task %s)", p.Task)
		}
		placed[p.Task] = p.Unit
	}
	for _, t := range s.Tasks {
		unit, ok := placed[t.Name]
		if t.IsGPUTask() {
			if !ok {
				if !partial {
					return inputErrorf("mapping.units", "GPU task %s is not placed (on the GPU or on a core)", t.Name)
				}
				continue
			}
			pre, preOK := placed[t.TriggeredBy]
			onGPU := s.Unit(unit).Type == GPU
			switch {
			case onGPU && !preOK && !partial:
				return inputErrorf("mapping.units", "%s runs on the GPU, so its offloading task %s needs a core", t.Name, t.TriggeredBy)
			case !onGPU && preOK:
				return inputErrorf("mapping.units", "%s runs on core %s, so it is merged with %s, which must not be placed (it is on %s)", t.Name, unit, t.TriggeredBy, pre)
			}
			continue
		}
		if !ok && !partial {
			if t.Offload != nil {
				g, gok := placed[t.Offload.GPUTask]
				if gok && s.Unit(g).Type == CPU {
					continue // merged
				}
				if gok {
					return inputErrorf("mapping.units", "%s runs on the GPU, so its offloading task %s needs a core", t.Offload.GPUTask, t.Name)
				}
			}
			return inputErrorf("mapping.units", "task %s is not placed", t.Name)
		}
	}
	for i, o := range m.Offloading {
		where := fmt.Sprintf("mapping.offloading[%d]", i)
		t := s.Task(o.Task)
		if t == nil || !t.IsGPUTask() {
			return inputErrorf(where+".task", "%q is not a GPU task (GPU tasks: %s)", o.Task, strings.Join(s.GPUTasks(), ", "))
		}
		if o.Mode != Sync && o.Mode != Async {
			return inputErrorf(where+".mode", "%q is not an offloading mode (sync or async)", o.Mode)
		}
	}
	for i, ts := range m.TimeSlices {
		where := fmt.Sprintf("mapping.time_slices[%d]", i)
		t := s.Task(ts.Task)
		if t == nil || !t.IsGPUTask() {
			return inputErrorf(where+".task", "%q is not a GPU task (GPU tasks: %s)", ts.Task, strings.Join(s.GPUTasks(), ", "))
		}
		if ts.Slice <= 0 {
			return inputErrorf(where+".slice", "must be positive (task %s)", ts.Task)
		}
		if b := s.TimeSlice; (b.Min > 0 && ts.Slice < b.Min) || (b.Max > 0 && ts.Slice > b.Max) {
			return inputErrorf(where+".slice", "%s is outside the model's bounds %s to %s (task %s)", ts.Slice, b.Min, b.Max, ts.Task)
		}
	}
	for i, gp := range m.GPUPriorities {
		where := fmt.Sprintf("mapping.gpu_priorities[%d]", i)
		t := s.Task(gp.Task)
		if t == nil || !t.IsGPUTask() {
			return inputErrorf(where+".task", "%q is not a GPU task (GPU tasks: %s)", gp.Task, strings.Join(s.GPUTasks(), ", "))
		}
		if gp.Priority != GPULow && gp.Priority != GPUHigh {
			return inputErrorf(where+".priority", "%q is not a stream priority (high or low)", gp.Priority)
		}
	}
	return nil
}

func unitNames(s *System) []string {
	out := make([]string, len(s.Units))
	for i, u := range s.Units {
		out[i] = u.Name
	}
	return out
}
