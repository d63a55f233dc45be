package syssim

import (
	"fmt"

	"github.com/hetmap/hetmap/rta/gpu"
)

// Memory selects how simultaneous line accesses slow each other down (see
// the package documentation).
type Memory uint8

const (
	// PerAccess is the challenge's semantics: an access of core p is slowed
	// by K(p) for every other core that is in a memory phase at some moment
	// during it, and by sGPU(p) if the copy engine transfers at some moment
	// during it.
	PerAccess Memory = iota
	// Request adds round-robin arbitration with one outstanding request per
	// client: one access of another client delays at most one access of p.
	Request
)

func (m Memory) String() string {
	switch m {
	case PerAccess:
		return "per-access"
	case Request:
		return "request"
	}
	return fmt.Sprintf("Memory(%d)", uint8(m))
}

// GPUModel selects how kernels share the GPU.
type GPUModel uint8

const (
	// FIFO: all GPU tasks are streams of one CUDA context; blocks are
	// dispatched to SMs by the TX2 rules (Amert et al., RTSS 2017).
	FIFO GPUModel = iota
	// TimeSlice: every GPU task is its own channel; channels with a kernel
	// take turns round robin, each for at most its slice.
	TimeSlice
)

func (g GPUModel) String() string {
	switch g {
	case FIFO:
		return "fifo"
	case TimeSlice:
		return "timeslice"
	}
	return fmt.Sprintf("GPUModel(%d)", uint8(g))
}

// CoreMemory holds the contention parameters of one core (ps per line):
// an access lasts Baseline + PerCore·n + CopyEngine·b (the challenge's
// baseline, K and sGPU).
type CoreMemory struct {
	Baseline, PerCore, CopyEngine int64
}

// CopyEngine holds the copy engine's parameters (ps per line): a line lasts
// Baseline + PerCore·n, n the cores in a memory phase during it.
type CopyEngine struct {
	Baseline, PerCore int64
}

// Runnable is one read/execute/write unit of a job: it reads Read lines,
// computes, then writes Write lines. Compute is the worst-case execute time
// (ps) and ComputeBest the best case; a job computes Compute unless the
// System's Variation draws a time in [ComputeBest, Compute].
type Runnable struct {
	Read, Write          int64
	Compute, ComputeBest int64
}

// Kernel is the GPU part of a GPU job. Under FIFO it is Blocks blocks of
// ThreadsPerBlock threads (with shared memory and registers per block; 0:
// none), each running BlockTime (or, under Variation, a time drawn in
// [BlockTimeBest, BlockTime] per block). Under TimeSlice it needs Time of
// GPU time (or a time drawn in [TimeBest, Time]); the block fields are not
// used there.
type Kernel struct {
	Blocks, ThreadsPerBlock              int
	SharedMemPerBlock, RegistersPerBlock int
	BlockTime, BlockTimeBest             int64
	Time, TimeBest                       int64
}

// GPUJob is the work an offloading job hands to the GPU: a copy in of
// CopyIn lines, the kernel, a copy out of CopyOut lines, in that order on
// the task's own stream. High is the stream priority (FIFO), Slice the time
// slice (TimeSlice, ps, > 0 when the kernel has work). ID is the caller's
// identifier, reported in the GPU jobs and segments.
type GPUJob struct {
	ID              int
	Name            string
	CopyIn, CopyOut int64
	Kernel          Kernel
	High            bool
	Slice           int64
}

// Offload makes a task an offloading task: its Runnables are the
// pre-processing, after which it submits GPU and waits, spinning on its
// core (Async false) or suspended (Async true), then runs Post (for an
// asynchronous wait, put the runnables that run only after a passive wait
// first).
type Offload struct {
	Async bool
	GPU   GPUJob
	Post  []Runnable
}

// Task is a periodic (or sporadic, see Variation) task of a core. Its first
// job is released at Offset, the next ones every Period; Deadline is
// relative to the release (0: the period). ID is the caller's identifier,
// reported in the jobs and segments.
type Task struct {
	ID                       int
	Name                     string
	Period, Deadline, Offset int64
	Runnables                []Runnable
	Offload                  *Offload
}

// Core is a CPU core with its tasks, the most urgent first (fixed-priority
// preemptive scheduling).
type Core struct {
	Name   string
	Memory CoreMemory
	Tasks  []Task
}

// GPU describes the GPU: the model by which kernels share it and, for
// FIFO, its SM resources.
type GPU struct {
	Model  GPUModel
	Device gpu.Device
}

// Variation draws execution times and release delays from one generator
// seeded with Seed (math/rand/v2's PCG), in the order the simulation needs
// them, so that a seed always gives the same schedule.
//
// With Exec, every compute time of a runnable, block time (FIFO) and kernel
// time (TimeSlice) is drawn: the worst case with probability 1/2, else
// uniformly in [best, worst] (the worst case gets its own weight because it
// is where bounds are tight). MaxDelay > 0 makes releases sporadic: each
// release after a task's first comes Period plus a delay drawn uniformly in
// [0, MaxDelay] after the previous one.
type Variation struct {
	Seed     uint64
	Exec     bool
	MaxDelay int64
}

// System is the input of Simulate.
type System struct {
	Cores      []Core
	CopyEngine CopyEngine
	// GPU is required when a task offloads; nil otherwise.
	GPU    *GPU
	Memory Memory
	// MaxInterferingCores > 0 caps the number of other cores that can slow
	// one access (of a core or of the copy engine), for what-if analyses
	// that assume it (for example bandwidth regulation); 0 is no cap. (To
	// model no contention between cores at all, set PerCore to 0.)
	MaxInterferingCores int
	// Jobs are released in [0, Horizon); the simulation stops at End
	// (0: Horizon), where a job that has not finished has Finish −1.
	Horizon, End int64
	// Vary, if not nil, draws execution times and release delays; nil
	// simulates worst cases released strictly periodically.
	Vary *Variation
	// MaxSegments > 0 records the lanes' segments and stops the simulation
	// (Result.Truncated) once that many have been recorded; 0 records none.
	MaxSegments int

	// stepAccesses turns batching off: every access is an event (the slow,
	// obvious path the tests compare the batched one with).
	stepAccesses bool
}

// Limits that keep every sum and product of the simulation far from
// overflowing int64.
const (
	// MaxTime bounds every time of the input (about 13 days in ps).
	MaxTime = int64(1) << 60
	// MaxLines bounds every line count.
	MaxLines = int64(1) << 40
	// MaxLatency bounds every per-line parameter (about 1 ms per line).
	MaxLatency = int64(1) << 30
	// MaxCores bounds the cores (clients are kept in a 64-bit mask).
	MaxCores = 63
)

func (s *System) validate() error {
	if len(s.Cores) > MaxCores {
		return fmt.Errorf("syssim: %d cores, at most %d", len(s.Cores), MaxCores)
	}
	if s.Memory != PerAccess && s.Memory != Request {
		return fmt.Errorf("syssim: memory mode %v is not one of per-access, request", s.Memory)
	}
	if err := latency("copy engine baseline", s.CopyEngine.Baseline); err != nil {
		return err
	}
	if err := latency("copy engine per core", s.CopyEngine.PerCore); err != nil {
		return err
	}
	if s.MaxInterferingCores < 0 {
		return fmt.Errorf("syssim: MaxInterferingCores %d is negative", s.MaxInterferingCores)
	}
	if s.Horizon < 0 || s.Horizon > MaxTime {
		return fmt.Errorf("syssim: horizon %d ps is not in [0, %d]", s.Horizon, MaxTime)
	}
	if s.End != 0 && (s.End < s.Horizon || s.End > MaxTime) {
		return fmt.Errorf("syssim: end %d ps is not in [horizon %d, %d]", s.End, s.Horizon, MaxTime)
	}
	if s.MaxSegments < 0 {
		return fmt.Errorf("syssim: MaxSegments %d is negative", s.MaxSegments)
	}
	if v := s.Vary; v != nil && (v.MaxDelay < 0 || v.MaxDelay > MaxTime) {
		return fmt.Errorf("syssim: variation: MaxDelay %d ps is not in [0, %d]", v.MaxDelay, MaxTime)
	}
	if g := s.GPU; g != nil {
		if g.Model != FIFO && g.Model != TimeSlice {
			return fmt.Errorf("syssim: GPU model %v is not one of fifo, timeslice", g.Model)
		}
		if g.Model == FIFO {
			if err := g.Device.Validate(); err != nil {
				return fmt.Errorf("syssim: GPU device: %w", err)
			}
		}
	}
	for c := range s.Cores {
		core := &s.Cores[c]
		where := fmt.Sprintf("cores[%d] (%s)", c, core.Name)
		for _, p := range []struct {
			name string
			v    int64
		}{{"baseline", core.Memory.Baseline}, {"per core", core.Memory.PerCore}, {"copy engine", core.Memory.CopyEngine}} {
			if err := latency(where+" memory "+p.name, p.v); err != nil {
				return err
			}
		}
		for i := range core.Tasks {
			if err := s.validateTask(&core.Tasks[i], fmt.Sprintf("%s: tasks[%d] (%s)", where, i, core.Tasks[i].Name)); err != nil {
				return err
			}
		}
	}
	return nil
}

func latency(what string, v int64) error {
	if v < 0 || v > MaxLatency {
		return fmt.Errorf("syssim: %s %d ps is not in [0, %d]", what, v, MaxLatency)
	}
	return nil
}

func (s *System) validateTask(t *Task, where string) error {
	switch {
	case t.Period <= 0 || t.Period > MaxTime:
		return fmt.Errorf("syssim: %s: period %d ps is not in (0, %d]", where, t.Period, MaxTime)
	case t.Deadline < 0 || t.Deadline > MaxTime:
		return fmt.Errorf("syssim: %s: deadline %d ps is not in [0, %d]", where, t.Deadline, MaxTime)
	case t.Offset < 0 || t.Offset > MaxTime:
		return fmt.Errorf("syssim: %s: offset %d ps is not in [0, %d]", where, t.Offset, MaxTime)
	}
	if err := runnables(t.Runnables, where+": runnables"); err != nil {
		return err
	}
	o := t.Offload
	if o == nil {
		return nil
	}
	if err := runnables(o.Post, where+": post-processing"); err != nil {
		return err
	}
	g := &o.GPU
	gw := fmt.Sprintf("%s: GPU job %s", where, g.Name)
	if s.GPU == nil {
		return fmt.Errorf("syssim: %s: the system has no GPU", gw)
	}
	if g.CopyIn < 0 || g.CopyIn > MaxLines || g.CopyOut < 0 || g.CopyOut > MaxLines {
		return fmt.Errorf("syssim: %s: copy lines %d and %d are not in [0, %d]", gw, g.CopyIn, g.CopyOut, MaxLines)
	}
	k := &g.Kernel
	if s.GPU.Model == TimeSlice {
		switch {
		case k.Time < 0 || k.Time > MaxTime:
			return fmt.Errorf("syssim: %s: kernel time %d ps is not in [0, %d]", gw, k.Time, MaxTime)
		case k.TimeBest < 0 || k.TimeBest > k.Time:
			return fmt.Errorf("syssim: %s: best kernel time %d ps is not in [0, kernel time %d]", gw, k.TimeBest, k.Time)
		case k.Time > 0 && (g.Slice <= 0 || g.Slice > MaxTime):
			return fmt.Errorf("syssim: %s: time slice %d ps is not in (0, %d]", gw, g.Slice, MaxTime)
		}
		return nil
	}
	switch {
	case k.Blocks < 0 || int64(k.Blocks) > MaxLines:
		return fmt.Errorf("syssim: %s: %d blocks is not in [0, %d]", gw, k.Blocks, MaxLines)
	case k.Blocks == 0:
		return nil
	case k.BlockTime <= 0 || k.BlockTime > MaxTime:
		return fmt.Errorf("syssim: %s: block time %d ps is not in (0, %d]", gw, k.BlockTime, MaxTime)
	case k.BlockTimeBest < 0 || k.BlockTimeBest > k.BlockTime:
		return fmt.Errorf("syssim: %s: best block time %d ps is not in [0, block time %d]", gw, k.BlockTimeBest, k.BlockTime)
	}
	gk := gpu.Kernel{Blocks: k.Blocks, ThreadsPerBlock: k.ThreadsPerBlock, BlockTime: k.BlockTime,
		SharedMemPerBlock: k.SharedMemPerBlock, RegistersPerBlock: k.RegistersPerBlock}
	if s.GPU.Device.EffectiveThreads(gk) == 0 {
		return fmt.Errorf("syssim: %s: a block of %d threads, %d bytes of shared memory and %d registers does not fit on an SM",
			gw, k.ThreadsPerBlock, k.SharedMemPerBlock, k.RegistersPerBlock)
	}
	return nil
}

func runnables(rs []Runnable, where string) error {
	for i, r := range rs {
		switch {
		case r.Read < 0 || r.Read > MaxLines || r.Write < 0 || r.Write > MaxLines:
			return fmt.Errorf("syssim: %s[%d]: lines read %d and written %d are not in [0, %d]", where, i, r.Read, r.Write, MaxLines)
		case r.Compute < 0 || r.Compute > MaxTime:
			return fmt.Errorf("syssim: %s[%d]: compute time %d ps is not in [0, %d]", where, i, r.Compute, MaxTime)
		case r.ComputeBest < 0 || r.ComputeBest > r.Compute:
			return fmt.Errorf("syssim: %s[%d]: best compute time %d ps is not in [0, compute time %d]", where, i, r.ComputeBest, r.Compute)
		}
	}
	return nil
}
