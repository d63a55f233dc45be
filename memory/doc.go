// Package memory implements the memory-contention model of the WATERS 2019
// industrial challenge (Bosch and the University of Modena and Reggio
// Emilia) for the NVIDIA Jetson TX2: the time a CPU core or the GPU's copy
// engine needs to move 64-byte lines between DRAM and the unit, the
// read/execute/write phases of a runnable, and the window-aware counts of
// how many accesses of a core other cores and the copy engine can slow
// down (hetmap's refined analysis, docs/contention.md).
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
// Which #C and bGPU apply to a given mapping is the caller's decision; the
// challenge's sound convention is #C = the number of other cores that host
// at least one task with label accesses, and bGPU = 1 when any task mapped
// to the GPU has a copy, for every access (ChallengeCount below). Every
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
// [ErrFrequency], [ErrLineSize], [ErrOverflow] and, for the counts'
// inputs, [ErrPeriod], [ErrPhases] and [ErrCount], so the evaluation path
// never allocates. [LineLatency] and [CopyLineLatency] take parameters that
// the caller has checked once with [CoreParams.Validate] or
// [CopyEngineParams.Validate]; they treat a negative parameter or number of
// interfering cores as zero and saturate at math.MaxInt64 instead of
// overflowing, so they have no error result.
// Nothing in this package panics. Nothing on the evaluation path
// allocates: only Footprint.AddLabels's error for an unknown label and a
// Counter whose buffers must grow (at a Reset, or at the first calls
// that index an interferer larger than any before) do.
//
// # Window-aware contention counts
//
// The challenge's convention charges every access of an observed core p
// the contention of every other core that ever accesses memory, and of
// the copy engine whenever a GPU task copies, as if they were accessing
// memory during all of p's accesses. The refined analysis keeps the
// challenge's semantics (an access is slowed by K(p) for each other core
// accessing memory at the same time and by sGPU(p) while the copy engine
// transfers at the same time) and counts, per interferer c (another core,
// or the copy engine), how many of p's accesses in a window of length t
// can overlap c's memory activity at all. The window is p's level-i busy
// window in the response-time analysis of task i; the caller supplies
// N_p(t), the lines that p's jobs in it access. With
//
//	η_k(t)      = ceil((t + R_k)/T_k)                  jobs of task k in the window (Demand.Jobs)
//	A_c(t)      = Σ_k η_k(t)·lines(k)                  c's line requests (Interferer.Requests)
//	Busy_c(t)   = A_c(t)·Lat_c                         c's time in memory phases (Interferer.Busy)
//	Phases_c(t) = Σ_k η_k(t)·(phases(k) + splits(k))   c's separate busy intervals (Interferer.Phases)
//
// the counts ([Count], [Window.Overlap]) are
//
//	challenge: O_c(t) = N_p(t)                                                    for every active c
//	refined:   O_c(t) = min(N_p(t), floor(Busy_c(t)/baseline(p)) + 2·Phases_c(t) + Pauses_p(t))
//	request:   O_c(t) = min(N_p(t), floor(Busy_c(t)/baseline(p)) + 2·Phases_c(t) + Pauses_p(t), A_c(t))
//
// where the caller also supplies Pauses_p(t), how many times an access of
// p's jobs in the window can be paused by a preemption (a job of higher
// priority becoming ready) and resumed later: at most the releases and
// resumptions of the jobs above the analysed task in the window (rta
// counts them; 0 for a window in which nothing preempts).
// with O_c(t) = 0 for an interferer without lines, and the contention in
// the window is at most I(t) = K(p)·Σ_{c core} O_c(t) + sGPU(p)·O_CE(t)
// ([Window.Interference]; [Counter.Interference] computes the same values
// incrementally: per interferer it keeps the sums with the interval of t
// on which they hold, and recomputes them where t leaves it from the
// tasks grouped by period, with one binary search per period that
// several tasks share instead of one step per task, so that a call's
// cost grows with the number of distinct periods rather than with the
// number of tasks). [Overlap] reports which term of the minimum binds.
//
// Why O_c(t) bounds the overlapping accesses (refined):
//
//  1. Jobs. R_k bounds the time from a job's arrival to its completion, so
//     a job of k with any activity in [a, a+t) arrived in (a − R_k, a + t),
//     an interval of length t + R_k in which arrivals T_k apart number at
//     most η_k(t). For a GPU task, R_k counts from its offloading task's
//     arrival (release jitter included). A task without a bound passes
//     math.MaxInt64, and the count falls back to N_p(t).
//  2. Busy time. Each of those jobs spends at most lines(k)·Lat_c in
//     memory phases, Lat_c being c's per-line latency under the
//     challenge's convention (an upper bound whatever the refinement
//     says), so c is in a memory phase for at most Busy_c(t) of the window.
//  3. Intervals. c's memory activity in the window is a union of maximal
//     busy intervals. A phase is a read phase or a write phase of a
//     runnable (all its reads, or all its writes, back to back; see
//     [Footprint]), or one copy on the copy engine. For each phase of each
//     of the η_k(t) jobs, count its first piece that meets the window:
//     Σ η_k·phases(k). Every further piece of a phase begins when its job
//     resumes after a preemption inside the window. On a fixed-priority
//     core a job is preempted only when a higher-priority job becomes
//     ready, at its release or when it resumes from a self-suspension,
//     and each such event preempts at most one job; so the further pieces
//     number at most Σ η_k·splits(k), with splits(k) = 1 + self-suspensions
//     per job ([Footprint.OnCore]). Touching phases only merge intervals. The copy
//     engine serves one copy at a time without preemption: splits 0
//     ([CopyDemand]). The first formulation of the count
//     (docs/contention.md) added 1 per job; that is
//     this count for tasks that do not suspend, but a self-suspending task
//     can cut a lower-priority phase twice per job, and
//     TestTraceSuspensionSplits shows a trace in which +1 would undercount
//     the overlapping accesses (60 against a bound of 56).
//  4. Accesses. p's accesses are sequential (at most one is active at a
//     time) and each is active for at least baseline(p) = b in all, but a
//     preemption can pause one, which then resumes when its job runs again
//     (the simulator rta/syssim pauses them, so that a preempting job is
//     never blocked). Count the distinct accesses that are active at some
//     moment of c's busy intervals, of total length at most Busy_c(t).
//     Those active inside for b or more number at most floor(Busy_c(t)/b).
//     Each other one is also active outside, so its activity crosses an
//     interval's start or end: either it is the access active at that
//     moment, at most one per start and one per end, 2·Phases_c(t) in all,
//     or it is paused across it and resumes on the other side, which takes
//     one of its pauses, at most Pauses_p(t) in all. So at most
//     floor(Busy_c(t)/b) + 2·Phases_c(t) + Pauses_p(t) of p's accesses
//     overlap c's memory phases, and no more than all of them, N_p(t).
//     (Without the pauses the count is that first formulation's; it
//     undercounts when nested preemptions leave several paused accesses to
//     resume inside one busy interval, which
//     optimizer's TestRefinedPausedAccesses shows in simulation.)
//  5. Charge. Under the challenge's semantics an access is slowed by K(p)
//     per core, and by sGPU(p) for the copy engine, only if that unit
//     accesses memory at some moment of it; charging each overlapping
//     access the full K(p) or sGPU(p) is an upper bound. Hence I(t).
//
// The request count ([RequestCount]) adds O_c(t) ≤ A_c(t): if the memory
// controller arbitrates round robin between clients and each client has
// at most one outstanding request, one line request of c (or one 64-byte
// transfer of the copy engine) is served ahead of a given access of p at
// most once, so it delays at most one of p's accesses. This is the
// request-driven bound of Kim, de Niz, Andersson, Klein, Mutlu and
// Rajkumar, "Bounding memory interference delay in COTS-based multi-core
// systems", RTAS 2014, and of the memory model in Davis, Altmeyer,
// Indrusiak, Maiza, Nélis and Reineke, "An extensible framework for
// multicore response time analysis", Real-Time Systems 54(3), 2018. The
// challenge states no arbitration policy, so the count is an assumption
// about the hardware: an option, never the default, and every output of a
// request number must say that it rests on it.
//
// Order and monotonicity. O_c ≤ N_p and an interferer without lines counts
// 0 under every count (the challenge does not count it in #C either), so
// [RequestCount] ≤ [RefinedCount] ≤ [ChallengeCount] for every input
// (TestOverlapOrder, which also checks that [ChallengeCount] gives the
// convention's K·N_p·#C + sGPU·N_p·bGPU). Every count is non-decreasing in
// t, N_p(t), each R_k, lines(k), phases(k), splits(k), Lat_c and the set of
// tasks, and non-increasing in each T_k (TestOverlapMonotone). So the
// response-time iteration with I(t) stays monotone; with the priority
// orders fixed, a cross-core iteration that starts from the challenge's
// bounds and feeds each round's response times into the next computes
// sound bounds in every round that never grow; and a task added to a
// partial mapping only adds interfering demand. Where priorities are
// derived from the analysis, a task added to a core can reorder it and
// shrink a response time that another core's count uses: package
// optimizer's documentation ("Refined contention", "The exhaustive search's
// cut under the refined counts") says how it keeps its iteration and its
// pruning sound then. Counter.Stability tells such an iteration when a
// shrunk response time cannot change a count it gave. The counting
// argument (items 2–4) is checked against simulated fixed-priority traces
// with self-suspensions and an optimal adversary placing p's accesses
// (TestTraceCounts).
package memory
