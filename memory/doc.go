// Package memory implements the memory-contention model of the WATERS 2019
// industrial challenge (Bosch and the University of Modena and Reggio
// Emilia) for the NVIDIA Jetson TX2: the time a CPU core or the GPU's copy
// engine needs to move 64-byte lines between DRAM and the unit, and the
// read/execute/write phases of a runnable.
//
// # Model
//
// Every label access goes to DRAM (the challenge assumes a cache hit rate of
// zero) and is moved in whole lines; a label of size s bytes occupies
// Lines(s, 64) = ceil(s/64) lines. The time to move one line between DRAM
// and a CPU core of kind k is
//
//	Lat(k) = baseline(k) + K(k)·#C + sGPU(k)·bGPU
//
// where #C is the number of other cores that access memory at the same time
// and bGPU is 1 when the copy engine may be transferring at the same time.
// The challenge's values are, in nanoseconds per line:
//
//	kind     baseline   K (per interfering core)   sGPU (copy engine active)
//	A57      20         20                         100
//	Denver    8          2                          20
//
// For the copy engine (host-to-device and device-to-host copies),
//
//	Lat(CE) = 3 ns + 0.5 ns·#C.
//
// A runnable first reads its labels, then computes, then writes (the
// read/execute/write semantic), so its execution time on a unit is
//
//	exec = Σ_read lines·Lat + ticks/f + Σ_write lines·Lat,
//
// computed by [RunnablePhases]. A copy of n lines takes n·Lat(CE)
// ([CopyTime]).
//
// The package only evaluates the formula. Which #C and bGPU apply to a
// given mapping is the caller's decision; the project's sound default is
// #C = the number of other cores that host at least one task with label
// accesses, and bGPU = 1 when any task mapped to the GPU has a copy. Every
// parameter is a plain value ([CoreParams], [CopyEngineParams]); [A57],
// [Denver] and [TX2CopyEngine] return the challenge's values, and callers
// may substitute tighter or looser ones.
//
// # Units and rounding
//
// All times in this package are int64 picoseconds. Picoseconds keep every
// latency of the challenge exact (0.5 ns = 500 ps) and make tick
// conversions at 2 GHz (500 ps per tick) exact; at 1.5 GHz a tick is 666.67
// ps and conversions round up, never down ([TicksToPicos] computes
// ceil(ticks·10¹²/f) with 128-bit intermediate arithmetic, so it cannot
// overflow for any int64 inputs). An int64 of picoseconds spans about 106
// days, far beyond any period of the challenge; results that would not fit
// are reported as [ErrOverflow].
//
// # Errors and preconditions
//
// Functions that take counts, sizes, ticks or frequencies from the model
// return an error for impossible inputs (negative values, a non-positive
// frequency or line size, results that overflow int64) instead of
// panicking; the errors are the sentinel values [ErrNegative],
// [ErrFrequency], [ErrLineSize] and [ErrOverflow], so the evaluation path
// never allocates. [LineLatency] and [CopyLineLatency] take parameters that
// the caller has checked once with [CoreParams.Validate] or
// [CopyEngineParams.Validate]; they treat a negative parameter or number of
// interfering cores as zero and saturate at math.MaxInt64 instead of
// overflowing, so they have no error result.
// Nothing in this package allocates or panics.
package memory
