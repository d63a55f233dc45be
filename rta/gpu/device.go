package gpu

import (
	"fmt"
)

// MaxThreadsPerBlock is the CUDA limit on the threads of one block.
const MaxThreadsPerBlock = 1024

// Device is the GPU's block-resource capacity.
//
// SMs and ThreadsPerSM are required. The other fields are optional resource
// limits; zero disables the limit. TX2 returns the Jetson TX2 values.
type Device struct {
	SMs          int // streaming multiprocessors (TX2: 2)
	ThreadsPerSM int // resident threads per SM (TX2: 2048)

	// WarpSize is the allocation granularity of threads: a block of b
	// threads occupies ceil(b/WarpSize) warps (TX2: 32). 0 means 1.
	WarpSize int
	// MaxBlocksPerSM is the limit on resident blocks per SM (compute
	// capability 6.2: 32). 0 means no limit.
	MaxBlocksPerSM int
	// SharedMemPerSM is the shared memory of one SM in bytes (TX2: 65536).
	// 0 means shared memory is not modelled.
	SharedMemPerSM int
	// RegistersPerSM is the register file of one SM (TX2: 65536).
	// 0 means registers are not modelled.
	RegistersPerSM int
}

// TX2 returns the GPU of the NVIDIA Jetson TX2 (GP10B, compute capability
// 6.2): 2 SMs of 2048 threads, warps of 32, at most 32 resident blocks,
// 64 KiB of shared memory and 65,536 registers per SM.
func TX2() Device {
	return Device{
		SMs:            2,
		ThreadsPerSM:   2048,
		WarpSize:       32,
		MaxBlocksPerSM: 32,
		SharedMemPerSM: 64 << 10,
		RegistersPerSM: 65536,
	}
}

// Kernel is one kernel in the thesis task model {T, C, g, b}, plus a release
// time and optional per-block resource needs.
type Kernel struct {
	Name            string
	Period          int64 // T (deadline = period); 0 = not periodic / no deadline check
	BlockTime       int64 // C: execution time of each block
	Blocks          int   // g
	ThreadsPerBlock int   // b
	Release         int64 // r, time the kernel enters the EE queue (thesis: 0)

	// SharedMemPerBlock is the shared memory of one block in bytes (0: none).
	// Only used when the Device models shared memory.
	SharedMemPerBlock int
	// RegistersPerBlock is the register count of one block (0: not modelled).
	// Only used when the Device models registers.
	RegistersPerBlock int
}

// InputError reports an invalid device, kernel or task field. Index is the
// position of the kernel or task in the input (-1 for the device).
type InputError struct {
	What   string // "device", "kernel" or "task"
	Index  int
	Name   string
	Field  string
	Value  int64
	Reason string
}

func (e *InputError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("gpu: %s: %s = %d: %s", e.What, e.Field, e.Value, e.Reason)
	}
	return fmt.Sprintf("gpu: %s %d (%q): %s = %d: %s", e.What, e.Index, e.Name, e.Field, e.Value, e.Reason)
}

func devErr(field string, v int64, reason string) error {
	return &InputError{What: "device", Index: -1, Field: field, Value: v, Reason: reason}
}

// limits on the device description, so that products of its fields stay far
// from overflow.
const (
	maxSMs          = 1 << 16
	maxThreadsPerSM = 1 << 24
	maxPerSMRes     = 1 << 32
)

// Validate checks the device description.
func (d Device) Validate() error {
	switch {
	case d.SMs <= 0:
		return devErr("SMs", int64(d.SMs), "must be > 0")
	case d.SMs > maxSMs:
		return devErr("SMs", int64(d.SMs), fmt.Sprintf("must be <= %d", maxSMs))
	case d.ThreadsPerSM <= 0:
		return devErr("ThreadsPerSM", int64(d.ThreadsPerSM), "must be > 0")
	case d.ThreadsPerSM > maxThreadsPerSM:
		return devErr("ThreadsPerSM", int64(d.ThreadsPerSM), fmt.Sprintf("must be <= %d", maxThreadsPerSM))
	case d.WarpSize < 0:
		return devErr("WarpSize", int64(d.WarpSize), "must be >= 0")
	case d.WarpSize > d.ThreadsPerSM:
		return devErr("WarpSize", int64(d.WarpSize), "must be <= ThreadsPerSM")
	case d.MaxBlocksPerSM < 0:
		return devErr("MaxBlocksPerSM", int64(d.MaxBlocksPerSM), "must be >= 0")
	case d.SharedMemPerSM < 0 || d.SharedMemPerSM > maxPerSMRes:
		return devErr("SharedMemPerSM", int64(d.SharedMemPerSM), "must be in [0, 2^32]")
	case d.RegistersPerSM < 0 || d.RegistersPerSM > maxPerSMRes:
		return devErr("RegistersPerSM", int64(d.RegistersPerSM), "must be in [0, 2^32]")
	}
	return nil
}

// geometry is the part of a kernel or task that decides its residency.
type geometry struct {
	threads, smem, regs int
}

// validateGeometry checks one block's resource needs against the device;
// what/idx/name identify the kernel or task in the error.
func (d Device) validateGeometry(what string, idx int, name string, g geometry) error {
	e := func(field string, v int, reason string) error {
		return &InputError{What: what, Index: idx, Name: name, Field: field, Value: int64(v), Reason: reason}
	}
	switch {
	case g.threads <= 0:
		return e("ThreadsPerBlock", g.threads, "must be > 0")
	case g.threads > MaxThreadsPerBlock:
		return e("ThreadsPerBlock", g.threads, fmt.Sprintf("exceeds the CUDA limit of %d threads per block", MaxThreadsPerBlock))
	case g.threads > d.ThreadsPerSM:
		return e("ThreadsPerBlock", g.threads, fmt.Sprintf("exceeds the %d threads of one SM", d.ThreadsPerSM))
	case g.smem < 0:
		return e("SharedMemPerBlock", g.smem, "must be >= 0")
	case d.SharedMemPerSM > 0 && g.smem > d.SharedMemPerSM:
		return e("SharedMemPerBlock", g.smem, fmt.Sprintf("exceeds the %d bytes of shared memory of one SM", d.SharedMemPerSM))
	case g.regs < 0:
		return e("RegistersPerBlock", g.regs, "must be >= 0")
	case d.RegistersPerSM > 0 && g.regs > d.RegistersPerSM:
		return e("RegistersPerBlock", g.regs, fmt.Sprintf("exceeds the %d registers of one SM", d.RegistersPerSM))
	case d.effThreads(g) > int64(d.ThreadsPerSM):
		return e("ThreadsPerBlock", g.threads, fmt.Sprintf("rounded up to whole warps of %d, exceeds the %d threads of one SM", d.WarpSize, d.ThreadsPerSM))
	}
	return nil
}

// effThreads is the "effective thread count" of one block: the largest of its
// normalised resource needs, expressed in threads of one SM. A set of blocks
// whose effective threads sum to at most ThreadsPerSM fits on one SM for every
// modelled resource (threads rounded up to whole warps, the resident-block
// limit, shared memory, registers): each resource's use, as a fraction of the
// SM, is at most the block's effective threads / ThreadsPerSM. For a single
// block size it is exact whenever one resource binds, as the CUDA occupancy
// calculator computes. The geometry must have been validated.
func (d Device) effThreads(g geometry) int64 {
	tps := int64(d.ThreadsPerSM)
	e := int64(g.threads)
	if w := int64(d.WarpSize); w > 1 {
		e = (e + w - 1) / w * w
	}
	if d.MaxBlocksPerSM > 0 {
		e = max(e, ceilDiv(tps, int64(d.MaxBlocksPerSM)))
	}
	if d.SharedMemPerSM > 0 && g.smem > 0 {
		e = max(e, ceilDiv(tps*int64(g.smem), int64(d.SharedMemPerSM)))
	}
	if d.RegistersPerSM > 0 && g.regs > 0 {
		e = max(e, ceilDiv(tps*int64(g.regs), int64(d.RegistersPerSM)))
	}
	return e
}

// EffectiveThreads returns the number of an SM's threads that one block of
// the kernel is charged in the analysis (see the package documentation). It
// returns 0 for an invalid device or kernel geometry.
func (d Device) EffectiveThreads(k Kernel) int {
	g := geometry{k.ThreadsPerBlock, k.SharedMemPerBlock, k.RegistersPerBlock}
	if d.Validate() != nil || d.validateGeometry("kernel", 0, "", g) != nil {
		return 0
	}
	return int(d.effThreads(g))
}

// Slots returns how many blocks of the kernel can be resident on the whole
// GPU at once when no other kernel runs (the thesis's gmax, for example
// 4096/b on the TX2). It returns 0 for an invalid device or kernel geometry.
func (d Device) Slots(k Kernel) int {
	e := d.EffectiveThreads(k)
	if e == 0 {
		return 0
	}
	return d.SMs * (d.ThreadsPerSM / e)
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a-1)/b + 1
}
