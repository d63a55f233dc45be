package configs

// Config is what hetmap runs on: a system plus the conventions and analysis
// options that Amalthea does not carry.
type Config struct {
	System      *System
	Conventions Conventions
	Analysis    Analysis
	// Source says where the system came from (a file, or "built-in WATERS 2019").
	Source string
	// Warnings lists the inconsistencies resolved by conventions.
	Warnings []Warning
}

// Conventions choose between the readings the spec allows where the model
// is silent or inconsistent.
type Conventions struct {
	// Deadlines is "period" (default: every deadline equals the period, as
	// the challenge text assumes) or "model" (the requirements of the file,
	// with swapped references corrected).
	Deadlines string `json:"deadlines" yaml:"deadlines,omitempty"`
}

// Deadline conventions.
const (
	DeadlinesPeriod = "period"
	DeadlinesModel  = "model"
)

// Analysis holds the options of the analyses. The zero value means the
// defaults of the spec.
type Analysis struct {
	// GPUModel is "fifo" (default, the block-level analysis) or "timeslice".
	GPUModel string `json:"gpu_model" yaml:"gpu_model,omitempty"`
	// Priorities is the per-core priority assignment: "opa" (default,
	// Audsley), "deadline-monotonic", "rate-monotonic" or "model".
	Priorities string `json:"priorities" yaml:"priorities,omitempty"`
	// InterferingCores fixes #C of the contention model; nil means the
	// sound convention (the other cores that access memory).
	InterferingCores *int `json:"interfering_cores,omitempty" yaml:"interfering_cores,omitempty"`
	// CopyEngineActive fixes bGPU; nil means the sound convention (1 when any
	// task on the GPU copies).
	CopyEngineActive *bool `json:"copy_engine_active,omitempty" yaml:"copy_engine_active,omitempty"`
	// Kernels sets the launch geometry of GPU tasks; a GPU task without an
	// entry gets the spec's default geometry.
	Kernels []KernelGeometry `json:"kernels,omitempty" yaml:"kernels,omitempty"`
	// TimeSliceStep discretises the time slice in the search (default 1 ms).
	TimeSliceStep Duration `json:"time_slice_step,omitempty" yaml:"time_slice_step,omitempty"`
}

// GPU models.
const (
	GPUModelFIFO      = "fifo"
	GPUModelTimeSlice = "timeslice"
)

// Priority assignments.
const (
	PrioritiesOPA   = "opa"
	PrioritiesDM    = "deadline-monotonic"
	PrioritiesRM    = "rate-monotonic"
	PrioritiesModel = "model"
)

// KernelGeometry is the launch configuration of a GPU task's kernel.
type KernelGeometry struct {
	Task            string `json:"task" yaml:"task"`
	Blocks          int    `json:"blocks" yaml:"blocks"`
	ThreadsPerBlock int    `json:"threads_per_block" yaml:"threads_per_block"`
	SharedMemory    Size   `json:"shared_memory_per_block,omitempty" yaml:"shared_memory_per_block,omitempty"`
	Registers       int    `json:"registers_per_thread,omitempty" yaml:"registers_per_thread,omitempty"`
}

// Defaults fills the zero values with the documented defaults.
func (a *Analysis) Defaults() {
	if a.GPUModel == "" {
		a.GPUModel = GPUModelFIFO
	}
	if a.Priorities == "" {
		a.Priorities = PrioritiesOPA
	}
	if a.TimeSliceStep == 0 {
		a.TimeSliceStep = Millisecond
	}
}

// Defaults fills the zero values with the documented defaults.
func (c *Conventions) Defaults() {
	if c.Deadlines == "" {
		c.Deadlines = DeadlinesPeriod
	}
}
