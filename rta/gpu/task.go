package gpu

import (
	"fmt"

	"github.com/hetmap/hetmap/rta/sat"
)

// Priority is a CUDA stream priority on the TX2 (two levels).
type Priority uint8

const (
	Low  Priority = iota // stream priority 0, also a stream with no priority
	High                 // stream priority -1
)

func (p Priority) String() string {
	switch p {
	case Low:
		return "low"
	case High:
		return "high"
	}
	return fmt.Sprintf("Priority(%d)", uint8(p))
}

// Task is a periodic GPU task: per job, a copy to the device, one kernel and
// a copy back, issued in that order on the task's own CUDA stream.
type Task struct {
	Name string
	// Period is the task's period and deadline. 0 means the task has a
	// single job (it interferes once and has no deadline).
	Period int64
	// CopyIn and CopyOut are the copy engine's busy times for the job's
	// host-to-device and device-to-host copies; 0 means no copy.
	CopyIn, CopyOut int64

	// Kernel geometry and block time C (every block runs at most C).
	BlockTime         int64
	Blocks            int
	ThreadsPerBlock   int
	SharedMemPerBlock int // bytes; see Kernel
	RegistersPerBlock int // see Kernel

	// Jitter bounds how much later than its nominal release a job may be
	// launched (a GPU job is launched when its offloading task's
	// pre-processing ends); nominal releases are at least Period apart. It
	// widens the count of the task's jobs in another task's window (see the
	// package documentation); 0: every job is launched at its nominal
	// release.
	Jitter int64

	// Priority is the stream priority (fifo model only).
	Priority Priority
	// Slice is the task's time slice (timeslice model only; must be > 0
	// there).
	Slice int64
}

// Kernel returns the task's kernel as a Kernel released at 0.
func (t *Task) Kernel() Kernel {
	return Kernel{
		Name:              t.Name,
		Period:            t.Period,
		BlockTime:         t.BlockTime,
		Blocks:            t.Blocks,
		ThreadsPerBlock:   t.ThreadsPerBlock,
		SharedMemPerBlock: t.SharedMemPerBlock,
		RegistersPerBlock: t.RegistersPerBlock,
	}
}

// Bound names the argument that produced a kernel part.
type Bound uint8

const (
	BoundNone      Bound = iota
	BoundOrders          // worst EE queue order, every order enumerated with BlockRTA
	BoundWorkload        // busy-window workload bound (order independent)
	BoundTimeSlice       // round-robin time-slice bound
)

func (b Bound) String() string {
	switch b {
	case BoundNone:
		return "none"
	case BoundOrders:
		return "orders"
	case BoundWorkload:
		return "workload"
	case BoundTimeSlice:
		return "timeslice"
	}
	return fmt.Sprintf("Bound(%d)", uint8(b))
}

// Response is the worst-case GPU response of one job of a task, measured from
// the copy-in call (the job's release on the GPU side) to the end of its
// copy-out, with its breakdown:
//
//	Total = CopyInWait + CopyIn + KernelQueue + KernelIsolated + CopyOutWait + CopyOut
type Response struct {
	CopyInWait  int64 // wait in the CE queue before the copy in
	CopyIn      int64 // copy-in time
	KernelQueue int64 // kernel completion bound minus KernelIsolated
	// KernelIsolated is the kernel's completion time on an idle GPU:
	// ceil(Blocks / slots) · BlockTime.
	KernelIsolated int64
	CopyOutWait    int64 // wait in the CE queue before the copy out
	CopyOut        int64 // copy-out time
	Total          int64

	// Bounded is false when the analysis stopped because the bound passed the
	// task's period (or the time horizon when the period is 0). Total is
	// then larger than the period but is not a bound.
	Bounded bool
	Bound   Bound // argument used for the kernel part
	// Blocking is the part of KernelQueue charged to low-priority blocks
	// already running when a high-priority kernel arrives (fifo model).
	Blocking int64
	// WorstOrder, for BoundOrders, lists task indices in the EE queue order
	// that gives the bound; it ends with the task itself. The slice is
	// reused between calls when the caller reuses the Response.
	WorstOrder []int
	// Turns is the number of time slices the kernel needs (timeslice model).
	Turns int64
	// SwitchOverhead is the part of KernelQueue spent on context switches
	// (timeslice model).
	SwitchOverhead int64
}

func taskErr(idx int, t *Task, field string, v int64, reason string) error {
	return &InputError{What: "task", Index: idx, Name: t.Name, Field: field, Value: v, Reason: reason}
}

// taskInfo holds per-task values derived once per analysis.
type taskInfo struct {
	eff   int64 // effective threads of one block
	slots int64 // resident blocks on an idle GPU
	iso   int64 // isolated kernel time
	work  int64 // Blocks · BlockTime
	workU int64 // Blocks · BlockTime · eff
	ce    int64 // max(CopyIn, CopyOut)
}

// prepare validates tasks and fills info. needSlice requires Slice > 0.
func prepare(dev Device, tasks []Task, out []Response, info []taskInfo, needSlice bool) ([]taskInfo, error) {
	if err := dev.Validate(); err != nil {
		return info, err
	}
	if len(out) < len(tasks) {
		return info, fmt.Errorf("gpu: Analyze: %d responses for %d tasks", len(out), len(tasks))
	}
	info = info[:0]
	var work, workU, ce int64
	sms, tps := int64(dev.SMs), int64(dev.ThreadsPerSM)
	for i := range tasks {
		t := &tasks[i]
		switch {
		case t.BlockTime <= 0:
			return info, taskErr(i, t, "BlockTime", t.BlockTime, "must be > 0")
		case t.Blocks <= 0:
			return info, taskErr(i, t, "Blocks", int64(t.Blocks), "must be > 0")
		case t.Period < 0:
			return info, taskErr(i, t, "Period", t.Period, "must be >= 0 (0: a single job)")
		case t.Jitter < 0 || t.Jitter >= maxTime:
			return info, taskErr(i, t, "Jitter", t.Jitter, "must be >= 0 and below 2^62")
		case t.CopyIn < 0:
			return info, taskErr(i, t, "CopyIn", t.CopyIn, "must be >= 0 (0: no copy)")
		case t.CopyOut < 0:
			return info, taskErr(i, t, "CopyOut", t.CopyOut, "must be >= 0 (0: no copy)")
		case t.Priority != Low && t.Priority != High:
			return info, taskErr(i, t, "Priority", int64(t.Priority), "must be Low (0) or High (1)")
		case t.Slice < 0 || (needSlice && t.Slice == 0):
			return info, taskErr(i, t, "Slice", t.Slice, "must be > 0 in the time-slice model")
		}
		g := geometry{t.ThreadsPerBlock, t.SharedMemPerBlock, t.RegistersPerBlock}
		if err := dev.validateGeometry("task", i, t.Name, g); err != nil {
			return info, err
		}
		var ti taskInfo
		ti.eff = dev.effThreads(g)
		ti.slots = sms * (tps / ti.eff)
		ti.work = sat.Mul(int64(t.Blocks), t.BlockTime)
		ti.workU = sat.Mul(ti.work, ti.eff)
		ti.iso = sat.Mul(ceilDiv(int64(t.Blocks), ti.slots), t.BlockTime)
		ti.ce = max(t.CopyIn, t.CopyOut)
		work, workU, ce = sat.Add(work, ti.work), sat.Add(workU, ti.workU), sat.Add(ce, ti.ce)
		switch {
		case work >= maxTime || workU >= maxTime:
			return info, taskErr(i, t, "BlockTime", t.BlockTime,
				"the kernels' work up to here exceeds the analysed time range (2^62)")
		case ce >= maxTime:
			return info, taskErr(i, t, "CopyIn", t.CopyIn,
				"the copies up to here exceed the analysed time range (2^62)")
		case t.Period >= maxTime:
			return info, taskErr(i, t, "Period", t.Period, "exceeds the analysed time range (2^62)")
		case t.Slice >= maxTime:
			return info, taskErr(i, t, "Slice", t.Slice, "exceeds the analysed time range (2^62)")
		}
		info = append(info, ti)
	}
	return info, nil
}

// jobs bounds how many jobs of a task can have work (resident blocks, or
// kernel work left to run) at some instant of a window [t1, t1+l): such a job
// is launched before t1 + l and completes after t1, so its nominal release
// lies in the open interval (t1 − reach, t1 + l) (see reach). Nominal
// releases are at least the period apart, so at most ceil((l + reach)/T) of
// them lie in that interval. A task with period 0 has a single job.
func jobs(period, l, reach int64) int64 {
	if period <= 0 {
		return 1
	}
	return ceilDiv(sat.Add(l, reach), period)
}

// reach bounds how long before a window's start the nominal release of a job
// of task t can be and the job still have kernel work at the start: the job
// completes by its nominal release plus the period (the analyses'
// assumption), and by its launch plus Δ, the bound on the time from the launch
// to the kernel's completion that the task's own response r gives (copy-in
// wait, copy in and kernel part), while its launch is at most Jitter after its
// nominal release. Δ is used only when r is a bound (Bounded); otherwise the
// period is the reach. See the package documentation.
func reach(t *Task, r *Response) int64 {
	if t.Period <= 0 {
		return 0 // a single job: jobs does not use the reach
	}
	if !r.Bounded {
		return t.Period
	}
	delta := sat.Add(sat.Add(r.CopyInWait, r.CopyIn), sat.Add(r.KernelIsolated, r.KernelQueue))
	return min(t.Period, sat.Add(t.Jitter, delta))
}
