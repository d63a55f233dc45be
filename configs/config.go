package configs

import (
	"math"
	"strings"
)

// Config is what hetmap runs on: a system plus the conventions and analysis
// options that Amalthea does not carry.
type Config struct {
	System      *System
	Conventions Conventions
	Analysis    Analysis
	Search      Search
	// Source says where the system came from (a file, or "built-in WATERS 2019").
	Source string
	// Warnings lists the inconsistencies resolved by conventions.
	Warnings []Warning
	// Amalthea lists the Amalthea files the system was read from (one
	// model), for writing a mapping back into them; empty when the system
	// comes from YAML alone or is the built-in one.
	Amalthea []string
}

// Conventions choose between the readings the challenge text allows where
// the model is silent or inconsistent.
type Conventions struct {
	// Deadlines is "period" (default: every deadline equals the period, as
	// the challenge text assumes) or "model" (the requirements of the file,
	// with swapped references corrected).
	Deadlines DeadlineConvention `json:"deadlines" yaml:"deadlines,omitempty"`
	// Priorities says how the priorities of the model's own mapping
	// (System.Mapping) are read: "model" (default: Amalthea's convention,
	// a higher value is more urgent), "model-lower-first" (a lower value
	// is more urgent, as pyCPA and TORO read a model) or "derived" (the
	// model's priorities are ignored, and every core's are derived by
	// analysis.priorities). Mapping files are hetmap's own and always
	// read higher first.
	Priorities PriorityConvention `json:"priorities" yaml:"priorities,omitempty"`
}

// PriorityConventionText says in words how a priority convention reads the
// model's priorities.
func PriorityConventionText(c PriorityConvention) string {
	switch c {
	case ModelPrioritiesLower:
		return "a lower value is more urgent, as pyCPA and TORO read them; hetmap's priority is the value negated"
	case ModelPrioritiesIgnore:
		return "ignored: every core's priorities are derived by analysis.priorities"
	}
	return "a higher value is more urgent, as Amalthea defines them"
}

// Analysis holds the options of the analyses. The zero value means the
// defaults named below.
type Analysis struct {
	// GPUModel is "fifo" (default, the block-level analysis) or "timeslice".
	GPUModel GPUModel `json:"gpu_model" yaml:"gpu_model,omitempty"`
	// Priorities is the per-core priority assignment: "opa" (default,
	// Audsley), "deadline-monotonic", "rate-monotonic" or "model".
	Priorities PriorityAssignment `json:"priorities" yaml:"priorities,omitempty"`
	// Contention is how many accesses of a core are charged the contention
	// of each other core and of the copy engine (docs/contention.md):
	// "challenge" (every access, the challenge's sound convention),
	// "refined" (the accesses that can overlap the other unit's memory
	// phases within the response window) or "request" (also at most one per
	// line request of the other unit; this assumes round-robin memory
	// arbitration with one outstanding request per client, which the
	// challenge does not state). The default is "refined".
	Contention ContentionCount `json:"contention" yaml:"contention,omitempty"`
	// InterferingCores fixes #C of the contention model; nil means the
	// sound convention (the other cores that access memory).
	InterferingCores *int `json:"interfering_cores,omitempty" yaml:"interfering_cores,omitempty"`
	// CopyEngineActive fixes bGPU; nil means the sound convention (1 when any
	// task on the GPU copies).
	CopyEngineActive *bool `json:"copy_engine_active,omitempty" yaml:"copy_engine_active,omitempty"`
	// Kernels sets the launch geometry of GPU tasks; a GPU task without an
	// entry gets the default geometry (blocks of 256 threads, as many waves
	// as keep one block at or under 1 ms).
	Kernels []KernelGeometry `json:"kernels,omitempty" yaml:"kernels,omitempty"`
	// ChainLatency chooses the chain latency the optimizer minimises.
	ChainLatency ChainLatency `json:"chain_latency" yaml:"chain_latency,omitempty"`
	// TimeSliceStep discretises the time slice in the search (default 1 ms).
	TimeSliceStep Duration `json:"time_slice_step,omitempty" yaml:"time_slice_step,omitempty"`
	// RequirementBound, when set (any-offset, synchronous or davare), is
	// the bound every chain latency requirement is checked against,
	// whatever the requirement says; empty keeps each requirement's own
	// (any-offset unless it names another; ChainRequirement.CheckedUnder).
	RequirementBound ChainBound `json:"requirement_bound,omitempty" yaml:"requirement_bound,omitempty"`
	// ExecutionScale multiplies every task's execution demand (the
	// worst-case CPU ticks on every unit and the GPU kernels' time; memory
	// lines unchanged) by a factor (default 1; above 0, at most 1000,
	// read to the millionth): a what-if, and the way to re-check a margin
	// that hetmap reports (optimizer.Margins) by hand.
	ExecutionScale float64 `json:"execution_scale,omitempty" yaml:"execution_scale,omitempty"`
}

// MaxExecutionScale bounds analysis.execution_scale.
const MaxExecutionScale = 1000

// ExecutionScalePPM is analysis.execution_scale in millionths (1 000 000
// for the default, 1), the integer the analyses scale by.
func (a *Analysis) ExecutionScalePPM() int64 {
	if a.ExecutionScale == 0 {
		return 1_000_000
	}
	return int64(math.Round(a.ExecutionScale * 1e6))
}

// RequestAssumption names the hardware assumption that the request count
// rests on; every output of a request-count number says it.
const RequestAssumption = "round-robin memory arbitration with one outstanding request per client (Kim et al., RTAS 2014), which the challenge does not state"

// KernelGeometry is the launch configuration of a GPU task's kernel.
type KernelGeometry struct {
	Task            string `json:"task" yaml:"task"`
	Blocks          int    `json:"blocks" yaml:"blocks"`
	ThreadsPerBlock int    `json:"threads_per_block" yaml:"threads_per_block"`
	SharedMemory    Size   `json:"shared_memory_per_block,omitempty" yaml:"shared_memory_per_block,omitempty"`
	Registers       int    `json:"registers_per_thread,omitempty" yaml:"registers_per_thread,omitempty"`
}

// ChainLatency names one end-to-end latency of a chain (package chains:
// the definitions of Dürr et al., EMSOFT 2019, and Becker et al., 2016 and
// 2017; the bounds of Davare et al., DAC 2007, and Dürr et al.): the
// communication paradigm, the metric and the bound.
type ChainLatency struct {
	// Paradigm is "implicit" (default) or "let".
	Paradigm ChainParadigm `json:"paradigm" yaml:"paradigm,omitempty"`
	// Metric is "reaction-time" (default, maximum reaction time),
	// "reaction-from-activation" or "data-age".
	Metric ChainMetric `json:"metric" yaml:"metric,omitempty"`
	// Bound is BoundAnyOffset (default), BoundSynchronous or BoundDavare.
	Bound ChainBound `json:"bound" yaml:"bound,omitempty"`
}

// Defaults fills the zero values with the documented defaults.
func (c *ChainLatency) Defaults() {
	if c.Paradigm == "" {
		c.Paradigm = ChainParadigms[0]
	}
	if c.Metric == "" {
		c.Metric = ChainMetrics[0]
	}
	if c.Bound == "" {
		c.Bound = ChainBounds[0]
	}
}

// Validate reports an unknown paradigm, metric or bound; where names the key.
func (c *ChainLatency) Validate(where string) error {
	for _, f := range []struct {
		key, v  string
		allowed []string
	}{{"paradigm", string(c.Paradigm), optionStrings(ChainParadigms)}, {"metric", string(c.Metric), optionStrings(ChainMetrics)}, {"bound", string(c.Bound), optionStrings(ChainBounds)}} {
		if !contains(f.allowed, f.v) {
			return inputErrorf(where+"."+f.key, "%q is not one of %s", f.v, strings.Join(f.allowed, ", "))
		}
	}
	return nil
}

// Defaults fills the zero values with the documented defaults.
func (a *Analysis) Defaults() {
	a.ChainLatency.Defaults()
	if a.GPUModel == "" {
		a.GPUModel = GPUModelFIFO
	}
	if a.Priorities == "" {
		a.Priorities = PrioritiesOPA
	}
	if a.Contention == "" {
		a.Contention = DefaultContention
	}
	if a.TimeSliceStep == 0 {
		a.TimeSliceStep = Millisecond
	}
	if a.ExecutionScale == 0 {
		a.ExecutionScale = 1
	}
}

// Defaults fills the zero values with the documented defaults.
func (c *Conventions) Defaults() {
	if c.Deadlines == "" {
		c.Deadlines = DeadlinesPeriod
	}
	if c.Priorities == "" {
		c.Priorities = ModelPriorities
	}
}

// ModelMapping returns the system's own mapping (System.Mapping) with its
// priorities read by conventions.priorities, in hetmap's convention (a
// higher value is more urgent): as the model gives them, negated
// (model-lower-first), or none (derived).
func (c *Config) ModelMapping() Mapping {
	m := c.System.Mapping
	m.Units = append([]Placement(nil), m.Units...)
	for i := range m.Units {
		p := m.Units[i].Priority
		if p == nil {
			continue
		}
		switch c.Conventions.Priorities {
		case ModelPrioritiesLower:
			v := -*p
			m.Units[i].Priority = &v
		case ModelPrioritiesIgnore:
			m.Units[i].Priority = nil
		}
	}
	return m
}

// OwnMapping returns the system's own mapping as `analyze --mapping
// default` analyses it: its priorities read by conventions.priorities
// (ModelMapping), then kept or dropped per core as System.OwnMapping says,
// with its warnings.
func (c *Config) OwnMapping() (Mapping, []Warning) {
	return ownPriorities(c.System, c.ModelMapping())
}

// NotApplied is a response-time requirement of the model that the deadline
// convention sets aside: the task's deadline checked (its period, under
// conventions.deadlines: period) differs from it.
type NotApplied struct {
	Task        string
	Requirement Duration // the model's requirement
	Deadline    Duration // the deadline checked instead
	// AppliedBy is the option value under which the analyses check the
	// requirement ("conventions.deadlines: model"); empty when none can (a
	// requirement longer than the period: the analyses need D ≤ T).
	AppliedBy string
}

// NotAppliedRequirements lists, in task order, the model's requirements
// that the deadline convention sets aside (none under the model
// convention). The configuration must be validated: the deadlines are the
// resolved ones.
func (c *Config) NotAppliedRequirements() []NotApplied {
	var out []NotApplied
	if c == nil || c.System == nil {
		return nil
	}
	for i := range c.System.Tasks {
		t := &c.System.Tasks[i]
		if t.IsGPUTask() || t.Requirement == 0 || t.Requirement == t.Deadline {
			continue
		}
		na := NotApplied{Task: t.Name, Requirement: t.Requirement, Deadline: t.Deadline}
		if t.Requirement <= t.Period {
			na.AppliedBy = "conventions.deadlines: " + string(DeadlinesModel)
		}
		out = append(out, na)
	}
	return out
}
