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
	if err := validateOptions(cfg); err != nil {
		return err
	}
	s, a := cfg.System, &cfg.Analysis
	if err := validateSliceStep(s, a.TimeSliceStep); err != nil {
		return err
	}
	if err := validateSystem(s); err != nil {
		return err
	}
	search := cfg.Search.WithDefaults(s, cfg.Analysis.ChainLatency)
	if err := droppedChainObjective(cfg, search.Objectives); err != nil {
		return err
	}
	if err := search.validate(s); err != nil {
		return err
	}
	if err := validateInterferingCores(s, a.InterferingCores); err != nil {
		return err
	}
	if err := validateKernels(s, a.Kernels); err != nil {
		return err
	}
	if err := resolveDeadlines(s, cfg.Conventions.Deadlines); err != nil {
		return err
	}
	return ValidateMapping(s, &s.Mapping, true)
}

// droppedChainObjective refuses an objective that names a chain of the
// model that the import dropped because it contradicts itself (its warning
// says why), instead of calling the chain undefined.
func droppedChainObjective(cfg *Config, objectives []Objective) error {
	for i, o := range objectives {
		if o.Kind != ObjectiveChain || o.Chain == "" {
			continue
		}
		defined := false
		for _, c := range cfg.System.Chains {
			defined = defined || c.Name == o.Chain
		}
		if defined {
			continue
		}
		for _, w := range cfg.Warnings {
			if w.Where == "constraintsModel/eventChains["+o.Chain+"]" && strings.HasPrefix(w.What, DroppedChain) {
				why := strings.TrimPrefix(w.What, DroppedChain)
				if j := strings.Index(why, "; no requirement names it"); j >= 0 {
					why = why[:j]
				}
				return inputErrorf(fmt.Sprintf("search.objectives[%d].chain", i), "the model's event chain %q contradicts itself%s, so the import dropped it: an objective cannot name it until its segments connect", o.Chain, why)
			}
		}
	}
	return nil
}

// validateOptions decides whether the conventions and the analysis options
// name known choices and lie in their ranges, before the system is looked
// at: the deadline convention, the GPU model, the priority assignment, the
// contention count, the chain latency, the requirement bound, the
// time-slice step and the execution scale.
func validateOptions(cfg *Config) error {
	switch cfg.Conventions.Deadlines {
	case DeadlinesPeriod, DeadlinesModel:
	default:
		return inputErrorf("conventions.deadlines", "%q is not a deadline convention (period or model)", cfg.Conventions.Deadlines)
	}
	if !known(PriorityConventions, cfg.Conventions.Priorities) {
		return inputErrorf("conventions.priorities", "%q is not a priority convention (%s: the model's higher value more urgent, as in Amalthea; %s: lower value more urgent, as pyCPA and TORO read a model; %s: ignore the model's priorities)",
			cfg.Conventions.Priorities, ModelPriorities, ModelPrioritiesLower, ModelPrioritiesIgnore)
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
	if a.RequirementBound != "" && !known(ChainBounds, a.RequirementBound) {
		return inputErrorf("analysis.requirement_bound", "%q is not a bound (%s)", a.RequirementBound, joinList(optionStrings(ChainBounds)))
	}
	if a.TimeSliceStep <= 0 {
		return inputErrorf("analysis.time_slice_step", "must be positive")
	}
	if x := a.ExecutionScale; math.IsNaN(x) || x <= 0 || x > MaxExecutionScale || a.ExecutionScalePPM() < 1 {
		return inputErrorf("analysis.execution_scale", "must be a factor above 0 and at most %d (1 is the model's execution times), got %v", MaxExecutionScale, x)
	}
	return nil
}

// validateSliceStep decides whether the time-slice step leaves the search
// at most MaxSliceValues slices per GPU task within the system's bounds,
// and names the least step that would.
func validateSliceStep(s *System, step Duration) error {
	if n := SliceValues(s.TimeSlice, step); n > MaxSliceValues {
		lo := max(s.TimeSlice.Min, step)
		least := (s.TimeSlice.Max-lo)/Duration(MaxSliceValues) + 1
		return inputErrorf("analysis.time_slice_step", "%s gives %d time-slice values per GPU task between %s and %s (time_slice); hetmap takes at most %d: give a step of at least %s", step, n, lo, s.TimeSlice.Max, MaxSliceValues, least)
	}
	return nil
}

// validateInterferingCores decides whether a fixed #C (nil: the sound
// convention) is possible: between 0 and the number of other CPU cores.
func validateInterferingCores(s *System, fixed *int) error {
	if fixed == nil {
		return nil
	}
	cpus := 0
	for _, u := range s.Units {
		if u.Type == CPU {
			cpus++
		}
	}
	if *fixed < 0 || *fixed > cpus-1 {
		return inputErrorf("analysis.interfering_cores", "%d is impossible: between 0 and %d (the other cores)", *fixed, cpus-1)
	}
	return nil
}

// validateKernels decides whether every configured kernel geometry names a
// GPU task of the system, once, with blocks, threads, shared memory and
// registers in the ranges the GPU analyses take.
func validateKernels(s *System, kernels []KernelGeometry) error {
	seen := map[string]bool{}
	for i, k := range kernels {
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
	return nil
}

// resolveDeadlines sets every CPU task's deadline by the convention (its
// period, or its requirement under DeadlinesModel) and decides whether it
// is no longer than the period, as the analyses assume. A GPU task keeps
// no deadline of its own.
func resolveDeadlines(s *System, convention DeadlineConvention) error {
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if t.IsGPUTask() {
			continue
		}
		if convention == DeadlinesModel {
			t.Deadline = t.Requirement
		} else {
			t.Deadline = t.Period
		}
		if t.Deadline > t.Period {
			return inputErrorf("tasks["+t.Name+"].requirement", "%s exceeds the period %s: the analyses assume deadlines no longer than periods", t.Requirement, t.Period)
		}
	}
	return nil
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

// validateSystem checks a system on its own, part by part in the order
// of its YAML form: units, memory, labels, runnables, tasks, the time-slice
// bounds and chains; a later part may refer to the names of an earlier one.
// It returns the first problem.
func validateSystem(s *System) error {
	kinds, err := validateUnits(s.Units)
	if err != nil {
		return err
	}
	if err := validateMemory(s, kinds); err != nil {
		return err
	}
	labels, err := validateLabels(s.Labels)
	if err != nil {
		return err
	}
	runs, err := validateRunnables(s.Runnables, kinds, labels)
	if err != nil {
		return err
	}
	tasks, err := validateTaskNames(s.Tasks)
	if err != nil {
		return err
	}
	for i := range s.Tasks {
		if err := validateTask(s, i, runs); err != nil {
			return err
		}
	}
	sums := newSumChecker(s)
	for i := range s.Tasks {
		if p := checkTimes(&s.Tasks[i]); p != "" {
			return inputErrorf(fmt.Sprintf("tasks[%d]", i), "%s", p)
		}
		if p := sums.task(&s.Tasks[i]); p != "" {
			return inputErrorf(fmt.Sprintf("tasks[%d]", i), "%s", p)
		}
	}
	if b := s.TimeSlice; b.Min < 0 || b.Max < 0 || (b.Max > 0 && b.Min > b.Max) {
		return inputErrorf("time_slice", "needs 0 ≤ min ≤ max, got %s and %s", b.Min, b.Max)
	}
	return validateChains(s.Chains, tasks)
}

// validateUnits decides whether there are units and each has a unique
// name, a kind used by one unit type only, a type, a frequency hetmap can
// count in picoseconds, non-negative DRAM latencies, and GPU resources
// exactly when it is a GPU. It returns the type of every kind.
func validateUnits(units []Unit) (map[string]UnitType, error) {
	if len(units) == 0 {
		return nil, inputErrorf("units", "no processing units")
	}
	names := map[string]bool{}
	kinds := map[string]UnitType{}
	for i, u := range units {
		where := fmt.Sprintf("units[%d]", i)
		switch {
		case u.Name == "":
			return nil, inputErrorf(where+".name", "missing")
		case names[u.Name]:
			return nil, inputErrorf(where+".name", "unit %q is defined twice", u.Name)
		case u.Kind == "":
			return nil, inputErrorf(where+".kind", "missing (unit %s)", u.Name)
		case u.Type != CPU && u.Type != GPU:
			return nil, inputErrorf(where+".type", "%q is not a unit type (cpu or gpu)", u.Type)
		case u.Frequency <= 0:
			return nil, inputErrorf(where+".frequency", "must be positive (unit %s)", u.Name)
		case u.Frequency < MinFrequency:
			return nil, inputErrorf(where+".frequency", "%s is below %s, the lowest frequency hetmap takes: times in cycles would not fit its picosecond clock (unit %s)", u.Frequency, MinFrequency, u.Name)
		case u.ReadLatency < 0 || u.WriteLatency < 0:
			return nil, inputErrorf(where, "DRAM latencies must not be negative (unit %s)", u.Name)
		}
		if t, ok := kinds[u.Kind]; ok && t != u.Type {
			return nil, inputErrorf(where+".kind", "kind %s is used for both a CPU and a GPU", u.Kind)
		}
		kinds[u.Kind] = u.Type
		names[u.Name] = true
		if err := validateGPUResources(where, &u); err != nil {
			return nil, err
		}
	}
	return kinds, nil
}

// validateGPUResources decides whether unit u (at where) has GPU resources
// exactly when it is a GPU, with positive counts and no negative memory.
func validateGPUResources(where string, u *Unit) error {
	if u.Type != GPU {
		if u.GPU != nil {
			return inputErrorf(where+".gpu", "a CPU core has no GPU resources (unit %s)", u.Name)
		}
		return nil
	}
	g := u.GPU
	if g == nil {
		return inputErrorf(where+".gpu", "missing: a GPU needs its resources (sms, threads_per_sm, …)")
	}
	if g.SMs <= 0 || g.ThreadsPerSM <= 0 || g.SharedMemoryPerSM < 0 || g.RegistersPerSM < 0 || g.CopyEngines <= 0 || g.MaxThreadsPerBlock <= 0 || g.MaxSharedMemPerBlock < 0 {
		return inputErrorf(where+".gpu", "sms, threads_per_sm, copy_engines and max_threads_per_block must be positive, the memories not negative (unit %s)", u.Name)
	}
	return nil
}

// validateMemory decides whether the memory model is complete: a positive
// line size, non-negative copy-engine latencies, and contention
// parameters, not negative, given once for every CPU kind and for CPU
// kinds only.
func validateMemory(s *System, kinds map[string]UnitType) error {
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
	return nil
}

// validateLabels decides whether every label has a unique name and a size
// that is not negative. It returns the set of label names.
func validateLabels(list []Label) (map[string]bool, error) {
	labels := map[string]bool{}
	for i, l := range list {
		where := fmt.Sprintf("labels[%d]", i)
		switch {
		case l.Name == "":
			return nil, inputErrorf(where+".name", "missing")
		case labels[l.Name]:
			return nil, inputErrorf(where+".name", "label %q is defined twice", l.Name)
		case l.Size < 0:
			return nil, inputErrorf(where+".size_bytes", "must not be negative (label %s)", l.Name)
		}
		labels[l.Name] = true
	}
	return labels, nil
}

// validateRunnables decides whether every runnable has a unique name,
// ticks for unit kinds that exist, each kind once with 0 ≤ lower ≤ upper,
// and reads and writes of defined labels. It returns the set of runnable
// names.
func validateRunnables(list []Runnable, kinds map[string]UnitType, labels map[string]bool) (map[string]bool, error) {
	runs := map[string]bool{}
	for i, r := range list {
		where := fmt.Sprintf("runnables[%d]", i)
		if r.Name == "" {
			return nil, inputErrorf(where+".name", "missing")
		}
		if runs[r.Name] {
			return nil, inputErrorf(where+".name", "runnable %q is defined twice", r.Name)
		}
		runs[r.Name] = true
		if err := validateTicks(where, &r, kinds); err != nil {
			return nil, err
		}
		for j, l := range r.Reads {
			if !labels[l] {
				return nil, inputErrorf(fmt.Sprintf("%s.reads[%d]", where, j), "label %q is not defined (runnable %s)", l, r.Name)
			}
		}
		for j, l := range r.Writes {
			if !labels[l] {
				return nil, inputErrorf(fmt.Sprintf("%s.writes[%d]", where, j), "label %q is not defined (runnable %s)", l, r.Name)
			}
		}
	}
	return runs, nil
}

// validateTicks decides whether runnable r (at where) gives ticks only for
// unit kinds that exist, each kind once, with 0 ≤ lower ≤ upper.
func validateTicks(where string, r *Runnable, kinds map[string]UnitType) error {
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
	return nil
}

// validateTaskNames decides whether there is a task to map and every task
// has a unique name. It returns each name's index.
func validateTaskNames(list []Task) (map[string]int, error) {
	if len(list) == 0 {
		return nil, inputErrorf("tasks", "none: a system needs at least one task to map")
	}
	tasks := map[string]int{}
	for i, t := range list {
		if t.Name == "" {
			return nil, inputErrorf(fmt.Sprintf("tasks[%d].name", i), "missing")
		}
		if _, dup := tasks[t.Name]; dup {
			return nil, inputErrorf(fmt.Sprintf("tasks[%d].name", i), "task %q is defined twice", t.Name)
		}
		tasks[t.Name] = i
	}
	return tasks, nil
}

// validateTask decides whether task i is well formed: a GPU task as
// validateGPUTask, a CPU task as validateCPUTask, and either one running
// only defined runnables, at least one of them with ticks, and offloading
// as validateOffload says.
func validateTask(s *System, i int, runs map[string]bool) error {
	t := &s.Tasks[i]
	where := fmt.Sprintf("tasks[%d]", i)
	var err error
	if t.IsGPUTask() {
		err = validateGPUTask(s, where, t)
	} else {
		err = validateCPUTask(s, where, t)
	}
	if err != nil {
		return err
	}
	for _, r := range t.AllRunnables() {
		if !runs[r] {
			return inputErrorf(where+".runnables", "runnable %q is not defined (task %s)", r, t.Name)
		}
	}
	if len(s.ComputeRunnables(t)) == 0 {
		return inputErrorf(where+".runnables", "task %s runs nothing with ticks", t.Name)
	}
	return validateOffload(s, where, t)
}

// validateGPUTask decides whether GPU task t (at where) is triggered by a
// defined task that offloads it, and gives none of the timing that it
// takes from that task.
func validateGPUTask(s *System, where string, t *Task) error {
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
	return nil
}

// validateCPUTask decides whether CPU task t (at where) has a positive
// period, no negative requirement, offset or jitter, and, when another
// task activates it, an activator that is a defined CPU task with no cycle
// of activations through it.
func validateCPUTask(s *System, where string, t *Task) error {
	if t.Period <= 0 {
		return inputErrorf(where+".period", "must be positive (task %s)", t.Name)
	}
	if t.Requirement < 0 || t.Offset < 0 || t.Jitter < 0 {
		return inputErrorf(where, "requirement, offset and jitter must not be negative (task %s)", t.Name)
	}
	if t.ActivatedBy == "" {
		return nil
	}
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
	return nil
}

// validateOffload decides, for a task t (at where) that offloads, whether
// its GPU task is defined, names t as its trigger and has ticks on some
// unit kind, and whether the wait mode is active or passive.
func validateOffload(s *System, where string, t *Task) error {
	o := t.Offload
	if o == nil {
		return nil
	}
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
	return nil
}

// validateChains decides whether every chain has a unique name, at least
// two tasks, all defined, and valid latency requirements.
func validateChains(list []Chain, tasks map[string]int) error {
	chains := map[string]bool{}
	for i, c := range list {
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
