package configs

import "sort"

// UnitType says whether a processing unit is a CPU core or a GPU.
type UnitType string

// Unit types.
const (
	CPU UnitType = "cpu"
	GPU UnitType = "gpu"
)

// System is a whole model: the platform, the software, the model's own
// mapping and the chains. It holds facts only; a mapping under evaluation and
// its results are separate values.
type System struct {
	Name      string     `json:"name" yaml:"name"`
	Units     []Unit     `json:"units" yaml:"units"`
	Memory    Memory     `json:"memory" yaml:"memory"`
	Labels    []Label    `json:"labels" yaml:"labels"`
	Runnables []Runnable `json:"runnables" yaml:"runnables"`
	Tasks     []Task     `json:"tasks" yaml:"tasks"`
	// TimeSlice bounds the GPU time slice a mapping may choose (Amalthea's
	// minimumTimeslice / maximumTimeslice of the GPU scheduler).
	TimeSlice SliceBounds `json:"time_slice" yaml:"time_slice"`
	// Mapping is the model's own mapping (Amalthea's mapping model), already
	// resolved by the conventions; Warnings say where it needed them.
	Mapping Mapping `json:"mapping" yaml:"mapping"`
	Chains  []Chain `json:"chains" yaml:"chains"`
}

// Unit is one processing unit.
type Unit struct {
	Name string `json:"name" yaml:"name"`
	// Kind names the unit's processing-unit definition (A57, Denver, GPU):
	// runnables give ticks per kind, and the memory model has parameters per kind.
	Kind      string    `json:"kind" yaml:"kind"`
	Type      UnitType  `json:"type" yaml:"type"`
	Frequency Frequency `json:"frequency" yaml:"frequency"`
	// ReadLatency and WriteLatency are the DRAM access latencies in cycles
	// of this unit, as the model states them.
	ReadLatency  int64 `json:"read_latency_cycles" yaml:"read_latency_cycles"`
	WriteLatency int64 `json:"write_latency_cycles" yaml:"write_latency_cycles"`
	// GPU holds the execution resources of a GPU; nil for a CPU core.
	GPU *GPUResources `json:"gpu,omitempty" yaml:"gpu,omitempty"`
}

// GPUResources are the block-scheduling resources of a GPU (for the TX2:
// Amert et al., "GPU Scheduling on the NVIDIA TX2: Hidden Details
// Revealed", RTSS 2017, and the limits of CUDA compute capability 6.2).
type GPUResources struct {
	SMs                  int  `json:"sms" yaml:"sms"`
	CoresPerSM           int  `json:"cores_per_sm" yaml:"cores_per_sm"`
	ThreadsPerSM         int  `json:"threads_per_sm" yaml:"threads_per_sm"`
	SharedMemoryPerSM    Size `json:"shared_memory_per_sm" yaml:"shared_memory_per_sm"`
	RegistersPerSM       int  `json:"registers_per_sm" yaml:"registers_per_sm"`
	CopyEngines          int  `json:"copy_engines" yaml:"copy_engines"`
	MaxThreadsPerBlock   int  `json:"max_threads_per_block" yaml:"max_threads_per_block"`
	MaxSharedMemPerBlock Size `json:"max_shared_memory_per_block" yaml:"max_shared_memory_per_block"`
}

// TX2GPU returns the resources of the Jetson TX2's Pascal GPU.
func TX2GPU() GPUResources {
	return GPUResources{SMs: 2, CoresPerSM: 128, ThreadsPerSM: 2048, SharedMemoryPerSM: 64 << 10,
		RegistersPerSM: 65536, CopyEngines: 1, MaxThreadsPerBlock: 1024, MaxSharedMemPerBlock: 48 << 10}
}

// Memory holds the memory-contention model of the WATERS 2019 challenge
// (docs/contention.md, "challenge"): per 64-byte line, a core of kind k pays
// Baseline + PerCore·#C + CopyEngine·bGPU, the copy engine pays
// CopyEngine.Baseline + CopyEngine.PerCore·#C.
type Memory struct {
	LineSize   Size           `json:"line_size" yaml:"line_size"`
	Cores      []CoreMemory   `json:"cores" yaml:"cores"`
	CopyEngine CopyEngineCost `json:"copy_engine" yaml:"copy_engine"`
}

// CoreMemory is the contention model of one core kind.
type CoreMemory struct {
	Kind       string   `json:"kind" yaml:"kind"`
	Baseline   Duration `json:"baseline" yaml:"baseline"`
	PerCore    Duration `json:"per_core" yaml:"per_core"`
	CopyEngine Duration `json:"copy_engine" yaml:"copy_engine"`
}

// CopyEngineCost is the per-line latency model of the copy engine.
type CopyEngineCost struct {
	Baseline Duration `json:"baseline" yaml:"baseline"`
	PerCore  Duration `json:"per_core" yaml:"per_core"`
}

// Label is a shared variable.
type Label struct {
	Name     string `json:"name" yaml:"name"`
	Size     Size   `json:"size_bytes" yaml:"size_bytes"`
	Constant bool   `json:"constant,omitempty" yaml:"constant,omitempty"`
}

// Ticks is the execution demand of a runnable on one unit kind, in cycles
// of the executing unit. Worst case uses Upper, best case Lower.
type Ticks struct {
	Kind    string  `json:"kind" yaml:"kind"`
	Lower   int64   `json:"lower" yaml:"lower"`
	Upper   int64   `json:"upper" yaml:"upper"`
	Average float64 `json:"average" yaml:"average"`
}

// Runnable is a piece of code: it reads its labels, computes, and writes its
// labels (the read/execute/write semantic). A runnable without ticks that
// reads and writes labels is a copy (host to device or back).
type Runnable struct {
	Name   string   `json:"name" yaml:"name"`
	Ticks  []Ticks  `json:"ticks,omitempty" yaml:"ticks,omitempty"`
	Reads  []string `json:"reads,omitempty" yaml:"reads,omitempty"`
	Writes []string `json:"writes,omitempty" yaml:"writes,omitempty"`
}

// TicksFor returns the ticks of the runnable on a unit kind.
func (r *Runnable) TicksFor(kind string) (Ticks, bool) {
	for _, t := range r.Ticks {
		if t.Kind == kind {
			return t, true
		}
	}
	return Ticks{}, false
}

// WaitMode says how a task waits for the GPU work it triggered.
type WaitMode string

// Wait modes: active is synchronous offloading (busy-wait), passive is
// asynchronous (the task suspends).
const (
	WaitActive  WaitMode = "active"
	WaitPassive WaitMode = "passive"
)

// Task is a periodic task, or a GPU task activated by the task that
// offloads it.
type Task struct {
	Name string `json:"name" yaml:"name"`
	// Period is the activation period; zero for a GPU task, which inherits
	// the period of the task that triggers it.
	Period Duration `json:"period" yaml:"period,omitempty"`
	// Offset is the release of the first job (the stimulus offset); zero
	// means all tasks are released together.
	Offset Duration `json:"offset,omitempty" yaml:"offset,omitempty"`
	// Jitter is the release jitter of the task's own activation (the upper
	// bound of the stimulus's jitter): a job is released at most Jitter
	// after its periodic arrival, and its response time counts from the
	// arrival.
	Jitter Duration `json:"jitter,omitempty" yaml:"jitter,omitempty"`
	// ActivatedBy names the task that activates this one through an
	// InterProcessTrigger (an event-triggered CPU task). The task has the
	// period and offset of that task's activations (Period, Offset) and is
	// released when the trigger runs, at most that task's response time
	// after its arrival: the evaluator adds that response time to Jitter
	// (holistic analysis, Tindell and Clark 1994).
	ActivatedBy string `json:"activated_by,omitempty" yaml:"activated_by,omitempty"`
	// LET: the task communicates with logical execution time (Amalthea's
	// timed label accesses): in chains it reads at its release and writes
	// at the end of its period.
	LET bool `json:"let,omitempty" yaml:"let,omitempty"`
	// Deadline is the relative deadline the analyses check, resolved by the
	// deadline convention; zero for none.
	Deadline Duration `json:"deadline" yaml:"deadline,omitempty"`
	// Requirement is the response-time requirement the model states, with
	// known reference errors corrected; zero for none.
	Requirement Duration `json:"requirement,omitempty" yaml:"requirement,omitempty"`
	// Runnables run in this order (for an offloading task: before the offload).
	Runnables []string `json:"runnables" yaml:"runnables"`
	// Offload is set on a task that triggers a GPU task and waits for it.
	Offload *Offload `json:"offload,omitempty" yaml:"offload,omitempty"`
	// TriggeredBy names the offloading task of a GPU task.
	TriggeredBy string `json:"triggered_by,omitempty" yaml:"triggered_by,omitempty"`
}

// Offload describes the GPU work a task triggers and how it waits for it.
type Offload struct {
	GPUTask string   `json:"gpu_task" yaml:"gpu_task"`
	Wait    WaitMode `json:"wait" yaml:"wait"`
	// WaitRunnables run after the wait only when the task waits passively
	// (WATERS: AsyncOffloadingCosts).
	WaitRunnables []string `json:"async_runnables,omitempty" yaml:"async_runnables,omitempty"`
	// Post runs after the wait.
	Post []string `json:"post_runnables" yaml:"post_runnables"`
}

// SliceBounds bounds a GPU time slice.
type SliceBounds struct {
	Min Duration `json:"min" yaml:"min,omitempty"`
	Max Duration `json:"max" yaml:"max,omitempty"`
}

// Chain is a cause-effect chain of tasks. A GPU task stands for its
// offloading task while it runs on the GPU.
type Chain struct {
	Name  string   `json:"name" yaml:"name"`
	Tasks []string `json:"tasks" yaml:"tasks"`
	// Max are the chain's latency requirements (Amalthea's
	// EventChainLatencyConstraint and ProcessChainRequirement): a mapping
	// that misses one is infeasible.
	Max []ChainRequirement `json:"max,omitempty" yaml:"max,omitempty"`
}

// GPUPriority is a CUDA stream priority on the TX2: high or low.
type GPUPriority string

// Stream priorities.
const (
	GPULow  GPUPriority = "low"
	GPUHigh GPUPriority = "high"
)

// Mapping places tasks on units. A GPU task mapped to a CPU core is merged
// with its offloading task (the convention of the challenge text's
// appendix, see the package documentation); the
// offloading task then needs no entry.
type Mapping struct {
	Units         []Placement      `json:"units" yaml:"units"`
	Offloading    []OffloadChoice  `json:"offloading,omitempty" yaml:"offloading,omitempty"`
	TimeSlices    []TimeSliceSet   `json:"time_slices,omitempty" yaml:"time_slices,omitempty"`
	GPUPriorities []GPUPrioritySet `json:"gpu_priorities,omitempty" yaml:"gpu_priorities,omitempty"`
}

// Placement puts a task on a unit, optionally with a fixed priority (higher
// value = more urgent, as in Amalthea).
type Placement struct {
	Task     string `json:"task" yaml:"task"`
	Unit     string `json:"unit" yaml:"unit"`
	Priority *int   `json:"priority,omitempty" yaml:"priority,omitempty"`
}

// OffloadMode is synchronous or asynchronous offloading.
type OffloadMode string

// Offloading modes.
const (
	Sync  OffloadMode = "sync"
	Async OffloadMode = "async"
)

// OffloadChoice sets the offloading mode of a GPU task's offloading task.
type OffloadChoice struct {
	Task string      `json:"task" yaml:"task"`
	Mode OffloadMode `json:"mode" yaml:"mode"`
}

// TimeSliceSet sets a GPU task's time slice (time-slice GPU model).
type TimeSliceSet struct {
	Task  string   `json:"task" yaml:"task"`
	Slice Duration `json:"slice" yaml:"slice"`
}

// GPUPrioritySet sets a GPU task's stream priority (FIFO GPU model).
type GPUPrioritySet struct {
	Task     string      `json:"task" yaml:"task"`
	Priority GPUPriority `json:"priority" yaml:"priority"`
}

// Unit returns the unit with the name, or nil.
func (s *System) Unit(name string) *Unit {
	for i := range s.Units {
		if s.Units[i].Name == name {
			return &s.Units[i]
		}
	}
	return nil
}

// Task returns the task with the name, or nil.
func (s *System) Task(name string) *Task {
	for i := range s.Tasks {
		if s.Tasks[i].Name == name {
			return &s.Tasks[i]
		}
	}
	return nil
}

// Runnable returns the runnable with the name, or nil.
func (s *System) Runnable(name string) *Runnable {
	for i := range s.Runnables {
		if s.Runnables[i].Name == name {
			return &s.Runnables[i]
		}
	}
	return nil
}

// Label returns the label with the name, or nil.
func (s *System) Label(name string) *Label {
	for i := range s.Labels {
		if s.Labels[i].Name == name {
			return &s.Labels[i]
		}
	}
	return nil
}

// CoreMemory returns the contention parameters of a core kind, or nil.
func (s *System) CoreMemory(kind string) *CoreMemory {
	for i := range s.Memory.Cores {
		if s.Memory.Cores[i].Kind == kind {
			return &s.Memory.Cores[i]
		}
	}
	return nil
}

// AllRunnables lists every runnable a task may run, in order: for an
// offloading task its pre-processing, the wait runnables and the
// post-processing.
func (t *Task) AllRunnables() []string {
	out := append([]string(nil), t.Runnables...)
	if t.Offload != nil {
		out = append(out, t.Offload.WaitRunnables...)
		out = append(out, t.Offload.Post...)
	}
	return out
}

// IsGPUTask reports whether the task is activated by an offloading task.
func (t *Task) IsGPUTask() bool { return t.TriggeredBy != "" }

// ComputeRunnables returns the runnables of a task that have ticks (for a GPU
// task: its kernel, without the copies).
func (s *System) ComputeRunnables(t *Task) []*Runnable {
	var out []*Runnable
	for _, name := range t.AllRunnables() {
		if r := s.Runnable(name); r != nil && len(r.Ticks) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// AllowedKinds returns the unit kinds a task can run on: those every one of
// its computing runnables has ticks for, in the order of the units.
func (s *System) AllowedKinds(t *Task) []string {
	runs := s.ComputeRunnables(t)
	var kinds []string
	seen := map[string]bool{}
	for _, u := range s.Units {
		if seen[u.Kind] {
			continue
		}
		seen[u.Kind] = true
		ok := len(runs) > 0
		for _, r := range runs {
			if _, has := r.TicksFor(u.Kind); !has {
				ok = false
				break
			}
		}
		if ok {
			kinds = append(kinds, u.Kind)
		}
	}
	return kinds
}

// AllowedUnits returns the units a task can run on, in model order.
func (s *System) AllowedUnits(t *Task) []string {
	kinds := map[string]bool{}
	for _, k := range s.AllowedKinds(t) {
		kinds[k] = true
	}
	var out []string
	for _, u := range s.Units {
		if kinds[u.Kind] {
			out = append(out, u.Name)
		}
	}
	return out
}

// WorstTicks returns the sum of the upper-bound ticks of a task's computing
// runnables on a kind (for an offloading task: pre, wait and post
// runnables; for a GPU task: its kernel), and whether every one has ticks
// there.
func (s *System) WorstTicks(t *Task, kind string) (int64, bool) {
	var sum int64
	for _, r := range s.ComputeRunnables(t) {
		tk, ok := r.TicksFor(kind)
		if !ok {
			return 0, false
		}
		sum += tk.Upper
	}
	return sum, true
}

// Kinds returns the distinct unit kinds in model order.
func (s *System) Kinds() []string {
	var out []string
	seen := map[string]bool{}
	for _, u := range s.Units {
		if !seen[u.Kind] {
			seen[u.Kind] = true
			out = append(out, u.Kind)
		}
	}
	return out
}

// GPUTasks returns the names of the GPU tasks, sorted.
func (s *System) GPUTasks() []string {
	var out []string
	for _, t := range s.Tasks {
		if t.IsGPUTask() {
			out = append(out, t.Name)
		}
	}
	sort.Strings(out)
	return out
}
