// Package syssim is a discrete-event simulator of a whole mapped system:
// fixed-priority preemptive CPU cores whose jobs read, compute and write
// line by line in a shared DRAM, the GPU's copy engine, and the GPU's
// kernels, under the semantics of the WATERS 2019 Industrial Challenge
// (Hamann et al., "WATERS Industrial Challenge 2019") and the TX2 GPU rules
// of Amert, Otterness, Yang, Anderson and Smith, "GPU Scheduling on the
// NVIDIA TX2: Hidden Details Revealed", RTSS 2017. It draws
// the timeline of hetmap's report, and it is the reference against which
// the response-time bounds of the analyses (package optimizer, with rta,
// rta/gpu and memory) are checked: a bound that a simulated schedule
// exceeds is wrong.
//
// Like the analysis leaves, the package has its own small input types
// (System, Core, Task, Runnable, GPUJob) and knows nothing of
// configurations or mappings; optimizer builds the input from an evaluated
// mapping. All times are int64 picoseconds.
//
// # Jobs and scheduling
//
// Each core runs its tasks by fixed priority, fully preemptively, in the
// order given (most urgent first); the jobs of one task run in release
// order. A task releases its first job at Offset and then every Period
// (with Variation.MaxDelay, a sporadic delay in [0, MaxDelay] is added to
// each inter-release time). A job is a sequence of steps: per runnable a
// read phase, an execute phase and a write phase (empty ones left out); an
// offloading task's job runs its pre-processing, submits its GPU job and
// waits for it, spinning on its core (synchronous: the core stays busy, and
// a more urgent job can preempt the spinning one) or suspended (asynchronous:
// the core is free), then runs its post-processing. Response times are
// measured from the job's release (its arrival). Execute phases take their
// worst case, or with Variation.Exec a time drawn at or below it.
//
// # Memory, per access (PerAccess, the challenge's semantics)
//
// A core is in a memory phase while its running job is in a read or write
// phase; the copy engine while it transfers a copy. A client's accesses are
// sequential and back to back within a phase. One line access of core p
// lasts
//
//	baseline(p) + K(p)·n + sGPU(p)·b
//
// where n is the number of other cores that are in a memory phase at some
// moment during the access and b is 1 if the copy engine transfers at some
// moment during it. It is implemented exactly: an access starts at
// baseline(p), is charged K(p) for every other core already in a memory
// phase and sGPU(p) if the copy engine transfers, and is extended by K(p)
// when another core enters a memory phase during it (once per other core
// per access) and by sGPU(p) when the copy engine starts transferring
// during it. One line of the copy engine lasts CE.Baseline + CE.PerCore·n,
// n the cores in a memory phase at some moment during it, charged the same
// way. Busy-waiting and computing issue no accesses. Intervals are
// half-open: a core whose phase ends when an access starts is not counted
// for it. System.MaxInterferingCores, when set, counts at most that many
// cores per access (for what-if analyses that assume it).
//
// A job preempted during an access pauses it: the access keeps the time it
// has left and the clients already charged to it, is not in a memory phase
// while paused, and resumes when the job runs again (so the preempting job
// is never blocked; fixed-priority analyses assume no blocking). A core
// with a baseline of 0 moves its lines in no time, overlapping nothing.
//
// Runs of accesses are batched: between two events (a release, a phase
// beginning or ending, a preemption, a copy or block event) the set of
// clients in a memory phase does not change, so every access that starts
// in the interval lasts the same time d, and k of them are completed at
// once. A WATERS job of tens of thousands of lines costs a few events.
//
// Soundness of the challenge convention against this model: n is at most
// the number of other cores that access memory at all and b at most 1 when
// a GPU task copies, so every simulated line lasts at most the analysed
// Lat(k) (and a copy line at most the analysed Lat(CE)).
//
// # Memory, round-robin requests (Request)
//
// The option analysis.contention: request (docs/contention.md) rests on
// an assumption the challenge does not state: memory arbitrates
// round robin among its clients (the cores and the copy engine), each with
// one outstanding request, so that one request of another client is served
// ahead of at most one access of p and delays it by K(p) (sGPU(p) for a
// line of the copy engine; CE.PerCore for a core's request ahead of a copy
// line). The simulation keeps the per-access rule (an access is slowed at
// most once by each other client, and only while that client is in a
// memory phase) and adds: the access that another client q has in progress
// (its current request) may slow at most one access of p. When an access of
// p and a request of q overlap and neither has been used against the other
// client yet, the request delays the access; both of two overlapping
// requests may delay each other, the most pessimistic reading of an
// arbitration order the model does not fix. Within any window, then, the
// accesses of p that q slows number at most q's accesses there, which is the
// request count A_c(t) = Σ_{k on c} η_k(t)·lines(k), and at most p's
// accesses that overlap q's memory phases, the time count O_c(t); the
// refined bound takes the smaller. While two clients or more are in a
// memory phase the simulation steps access by access (the matching depends
// on every access's timing), and a client alone is batched as above. When
// the state of the clients in a memory phase (for each, the time its
// active access has left, the clients charged to it and those its request
// has delayed) repeats with no other event in between, the evolution is
// periodic, and whole periods are jumped at once, up to the next other
// event or the end of a phase (a WATERS window of 400 ms then takes a few
// thousand events instead of hundreds of thousands).
//
// # GPU
//
// An offloading job's GPU job enters its own stream when the job submits
// it: a copy in, the kernel and a copy out, in stream order. Copies go
// through one FIFO copy-engine queue, one copy at a time, both directions
// (rules C1-C4). Under FIFO, kernels enter the EE queue of their stream
// priority when their copy in has completed (G2, A1); only the head of the
// high queue, or of the low queue while the high one is empty, has blocks
// assigned (X1, A2); a block is assigned to an SM as soon as one has the
// threads (in whole warps), shared memory, registers and resident-block
// slot it needs (R1-R3), the SM with the most free threads (lowest index on
// a tie, rta/gpusim's placement); a kernel leaves its queue when fully
// dispatched (G3) and completes when its last block does (G4). Blocks are
// never preempted. Under TimeSlice, every GPU task is a channel: channels
// with a kernel take turns in round-robin order (a channel whose slice
// ends goes to the back when another waits, an arriving one joins at the
// back), each turn at most its slice, with no switching cost; a kernel
// needs Kernel.Time of GPU time. The GPU lane shows, under FIFO, the
// resident kernel whose block was assigned last.
//
// # Determinism
//
// Every random choice comes from the one generator seeded by
// Variation.Seed, drawn in the order of the simulation's events; within an
// instant, completions are processed first (copy engine, GPU, cores), then
// releases, then the cores' scheduling (core index order), then the GPU's
// dispatch and the copy engine. No map is iterated. A System always gives
// the same Result.
package syssim
