// Package gpusim is a discrete-event simulator of how the NVIDIA Jetson TX2
// schedules copies and kernel thread blocks, following the rules that Amert,
// Otterness, Yang, Anderson and Smith inferred by black-box experiments:
// "GPU Scheduling on the NVIDIA TX2: Hidden Details Revealed", RTSS 2017.
// It produces the block
// timelines such experiments measure, and it is the reference against which
// the block-level analysis of package rta/gpu is validated
// (docs/gpu-analysis-accuracy.md).
//
// # Model
//
// A Scenario has a Device, Streams and Hosts. A Host is a CPU thread that
// makes CUDA calls (Op: a kernel launch or a copy) into streams; all hosts
// share one address space, the case the rules describe. When a host makes
// each call is given by its program: an absolute earliest time (At), an
// optional cudaStreamSynchronize of its own earlier work (Sync), a sleep
// (Delay), a barrier with the other hosts (Barrier) and a time after which
// it stops (StopAt); see Op. A kernel has a number of blocks, threads per
// block, shared memory per block, registers per thread and one block time;
// a copy has a duration on the copy engine. All times are int64 nanoseconds.
//
// The rules, as implemented:
//
//   - G1 a call enters its stream queue when it is made; G2/C1 the head of a
//     stream queue enters the EE queue (kernel) or the CE queue (copy); G3 the
//     head of an EE queue leaves it when its last block is assigned; G4/C4 a
//     kernel or copy leaves its stream queue when it has completed.
//   - X1 only blocks of the kernel at the head of an EE queue are assigned.
//   - R1..R3 and registers: a block is assigned to an SM only if the SM has
//     the free threads, shared memory and registers it needs, and fewer than
//     BlocksPerSM resident blocks. Threads are allocated in whole warps
//     (WarpSize); registers per block = registers per thread × threads, with
//     no allocation granularity. A kernel whose block can never fit an SM, or
//     that breaks a per-block limit (1024 threads, 48 KiB, 32,768 registers,
//     255 per thread on the TX2), is rejected with an error.
//   - C2, C3 the copy at the head of the CE queue runs when the single copy
//     engine is idle; copies in both directions share it.
//   - N1 a NULL-stream head enters its queue only when every other stream is
//     empty or has a head launched after it; N2 the head of another stream
//     enters only when the NULL stream is empty or its head was launched after
//     it. "Launched after" compares the global launch order of the calls. The
//     two rules are applied to copies (CE queue) as to kernels.
//   - A1 a kernel enters the EE queue of its stream's priority (high = −1,
//     low = 0, the default); A2 blocks of the low EE queue's head are
//     assigned only while the high EE queue is empty. The NULL stream is low.
//
// Blocks are never preempted; a block runs for exactly its kernel's block
// time.
//
// # Order of events and ties
//
// Time advances from event to event. At each instant the simulator first
// applies every completion (blocks, copies), then lets the hosts make their
// calls (hosts in index order, each host's calls in its order), then moves
// stream heads into the EE and CE queues (heads that become eligible together
// enter in launch order), starts the copy engine, and finally assigns blocks
// greedily: the head of the high EE queue, else of the low one, one block at
// a time while one fits. The launch order of calls made at the same instant
// is host index, then op index. No map is iterated for a decision and no
// randomness is used: a scenario always gives the same result.
//
// # SM placement
//
// A block goes to the SM, among those where it fits, with the most free
// thread slots; on a tie, the lowest-numbered SM. The paper does not state a
// placement rule; this balancing policy makes consecutive blocks of a kernel
// alternate between the two SMs of an idle TX2, which is what its published
// timelines appear to show. It is a modelling choice. The "one big SM" of the
// block-level analysis assumes placement does not matter; with one block size
// that divides the SM's threads it indeed does not (the property test of
// package configs/gpuscenario checks it), with mixed block sizes or
// shared-memory and register limits it can.
//
// # Limits
//
// Not modelled: different address spaces (processes), where the GPU
// time-slices between contexts and preempts; launch and copy set-up
// overheads; memory contention and any variation of block times; SM
// partitioning (masks, MPS). Simulate rejects scenarios with more than
// Scenario.MaxEvents events (blocks + copies + calls, default
// DefaultMaxEvents) and times whose serial sum could overflow, so every run
// terminates.
//
// # Output
//
// Result gives every kernel's launch, EE-queue entry, start (first block
// assigned), full dispatch and completion (last block finished), every
// block's SM and times, and every copy's times. Result.Report is the JSON
// form, WriteTable an aligned text table, WriteSVG a block timeline by SM in
// the style of the paper's figures.
package gpusim
