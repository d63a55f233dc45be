package syssim

// SegmentKind is what a lane segment shows.
type SegmentKind uint8

// Segment kinds. On a core: Run (a task without offloading), Pre, BusyWait
// (synchronous offloading: the core spins while the GPU job runs) and Post;
// Suspended (asynchronous offloading: the job waits without the core) is
// recorded apart, since the core is free meanwhile. On the copy engine
// CopyIn and CopyOut; on the GPU Kernel.
const (
	SegmentRun SegmentKind = iota
	SegmentPre
	SegmentBusyWait
	SegmentSuspended
	SegmentPost
	SegmentCopyIn
	SegmentKernel
	SegmentCopyOut
)

// LaneKind is what a lane stands for.
type LaneKind uint8

// Lane kinds.
const (
	LaneCore       LaneKind = iota // a CPU core
	LaneCopyEngine                 // the GPU's copy engine
	LaneGPU                        // the GPU's execution engine
)

// Segment is an interval during which a job holds a lane (or, for
// SegmentSuspended, waits). ID is the Task.ID (on a core) or the GPUJob.ID
// (on the copy engine and the GPU); Job numbers the task's jobs from 0.
type Segment struct {
	ID, Job    int
	Kind       SegmentKind
	Start, End int64
}

// Lane is one core, the copy engine or the GPU.
type Lane struct {
	Kind LaneKind
	// Core indexes System.Cores; -1 for the copy engine and the GPU.
	Core int
	// Segments, by start time, never overlap. On the GPU under FIFO, where
	// blocks of several kernels can be resident at once, a segment shows
	// the resident kernel whose block was assigned last.
	Segments []Segment
	// Suspended holds the intervals in which an asynchronously offloading
	// job of this core waits for its GPU job, without the core.
	Suspended []Segment
}

// Job is one job: of a task on a core, or the GPU job of an offloading job.
type Job struct {
	// ID is the Task.ID, or the GPUJob.ID for a GPU job; Job numbers the
	// task's jobs from 0 (a GPU job has its offloading job's number).
	ID, Job int
	GPU     bool
	// Core indexes System.Cores (a GPU job: its offloading task's core),
	// Task the core's Tasks.
	Core, Task int
	// Release is the job's arrival (a GPU job: when its offloading job
	// submitted it); Deadline is absolute (a GPU job: its offloading
	// job's).
	Release, Deadline int64
	// Start is when it first ran (a GPU job: its first copy or block), and
	// Finish when it completed; −1 when that did not happen by the end.
	Start, Finish int64
	// Contention is the time its line accesses (a GPU job: its copies)
	// were slowed by others: the sum of the K, sGPU and copy-engine
	// per-core terms they were charged.
	Contention int64
}

// Response returns Finish − Release, or −1 when the job did not finish.
func (j Job) Response() int64 {
	if j.Finish < 0 {
		return -1
	}
	return j.Finish - j.Release
}

// Result is the outcome of Simulate.
type Result struct {
	// End is where the simulation stopped: System.End (or Horizon), or
	// earlier when Truncated.
	End int64
	// Truncated: the simulation stopped after recording MaxSegments
	// segments.
	Truncated bool
	// Jobs in the order of their releases (a GPU job when it is
	// submitted).
	Jobs []Job
	// Lanes: the cores in System.Cores order, then, when the system has a
	// GPU, the copy engine and the GPU; their segments are recorded only
	// when MaxSegments > 0.
	Lanes []Lane
	// Events counts the instants the simulation processed (a measure of
	// its work).
	Events int

	skips int // periods of repeated memory states jumped over (for the tests)
}
