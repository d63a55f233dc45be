// Package gpu bounds the response times of GPU work on the NVIDIA Jetson TX2
// (a Pascal GPU with 2 SMs) for hetmap: the block-level analysis of the
// thesis "AMALTHEA-based GPU Response Time Analysis for NVIDIA's Jetson
// TX2" (master's thesis, FH Dortmund, 2019) with its limits lifted, a
// worst-case analysis of periodic GPU tasks under the FIFO rules (the fifo
// model) and a round-robin bound for time-sliced GPU processes (the
// timeslice model). Times are unit-agnostic int64 (hetmap's optimizer passes
// picoseconds, `hetmap gpu rta` nanoseconds). No function panics on any
// input; invalid input gives an *InputError naming the kernel or task and the
// field.
//
// # Platform rules
//
// The scheduling rules are those inferred by Amert, Otterness, Yang,
// Anderson and Smith, "GPU Scheduling on the NVIDIA TX2: Hidden Details
// Revealed", RTSS 2017, for work of one address space (one CUDA context):
// one FIFO stream queue per stream, a FIFO EE queue per priority level, only
// the head kernel of an EE queue dispatches blocks (X1), a block is assigned
// only if some SM has the resources (R1-R3), a kernel leaves the EE queue
// when fully dispatched (G3) and its stream queue when all blocks completed
// (G4); copies go one at a time through one FIFO CE queue (C1-C4); a block
// of a low-priority kernel is assigned only if the high-priority EE queue is
// empty (A1-A2). Added assumptions, as in the thesis: a block is assigned
// as soon as it may be (no dispatch latency), every block of a kernel runs
// for at most its BlockTime C (the worst case; shorter blocks and copies are
// covered, see Sustainability), and the NULL stream is not used.
//
// # Block-level analysis (BlockRTA)
//
// Kernels are given in EE queue order, each with its release r_i (the
// time it enters the queue). Algorithm 2 of the thesis keeps ta, the
// earliest time the next block can be placed, and the multiset h of
// (time, freed resources) pairs; it places as many blocks of the head kernel
// as fit at ta, and otherwise moves ta to the smallest time in h. Here h is
// two ascending lists with equal times merged (the blocks of the kernel
// being dispatched, which are appended in time order, and those of earlier
// kernels, merged in when a kernel is fully dispatched), and each kernel
// starts at max(ta, r_i) (the thesis's note): it is not placed before its
// release, and the kernels behind it in the FIFO wait. With one block size
// b dividing the SM's threads, and all r_i = 0, this is exactly the thesis
// algorithm with gmax = SMs·ThreadsPerSM/b (the worked example gives
// f = {4, 10, 12, 11}).
//
// Limits lifted:
//
//   - Input is validated: C <= 0, g <= 0, b <= 0, b > 1024, a block that
//     cannot fit on an idle SM, negative releases or periods, and work whose
//     serial sum would overflow int64 are rejected; the loop always ends.
//   - Residency is per SM and counts every resource the device models: each
//     block is charged e effective threads, the largest of its normalised
//     needs: threads rounded up to warps, ThreadsPerSM/MaxBlocksPerSM (so the
//     32-block limit binds for blocks under 64 threads), and its share of
//     shared memory and registers, in threads. Blocks whose effective threads
//     sum to at most ThreadsPerSM fit on one SM for every resource.
//   - Mixed block sizes are generalised soundly instead of rejected. A block
//     of kernel j (e_j) is placed when one of two sufficient conditions
//     holds for the resident blocks: the slot rule, fewer than
//     SMs·floor(ThreadsPerSM/B) resident blocks, where B is the largest e of
//     kernel j and of every earlier kernel that may still run (by pigeonhole
//     some SM holds fewer than floor(ThreadsPerSM/B) blocks of at most B, so
//     it has B >= e_j free); or the thread rule, at most
//     SMs·(ThreadsPerSM - e_j) effective threads in use (then some SM has
//     e_j free). Both are prefix-closed, so the number of blocks placeable at
//     ta is the larger of the two counts. With one effective size the slot
//     rule is exact (every SM holds floor(ThreadsPerSM/e) blocks, whichever
//     SM the hardware picks) and the thread rule never allows more, so the
//     result is exact for the per-SM rules whenever all kernels share one
//     geometry (and the effective size does not round the residency down,
//     which can only happen when shared memory or registers bind); otherwise
//     it is an upper bound. ThesisAssumptions reports input outside the
//     thesis's setting for callers that want it enforced.
//   - Very large grids: once kernel j holds all the resources it can get, its
//     blocks are replaced group by group C later until an earlier kernel's
//     blocks finish; whole rounds of C are skipped at once. A call costs
//     O(n·S²) at worst (S: resident blocks), independent of g.
//
// Soundness of the bound. Number all blocks in queue order (a kernel's
// blocks are assigned in order, and all before the next kernel's, by X1 and
// G3). The model assigns block x at s'(x) = the earliest t >= s'(x-1) and
// >= r(x) at which the sufficient condition holds for the model's resident
// set {y < x : f'(y) > t}; f' = s' + C. This recurrence is monotone: larger
// block times, releases, block sizes or more blocks earlier in the order
// never make any s' smaller (the resident set only grows, the conditions only
// tighten). By induction over x, the real assignment s(x) <= s'(x): at
// t = s'(x) the real predecessor x-1 is assigned (s(x-1) <= s'(x-1) <= t),
// x is released, and the real resident set is contained in the model's
// (real f(y) <= f'(y)), so the condition holds for it and x fits on some SM
// at t. The bound is therefore valid for every SM choice of the hardware,
// for blocks that run shorter than C, and for real packing, which is not
// monotone: with mixed sizes a shorter block can make a later kernel finish
// later (see TestPerSMAnomaly). The thesis algorithm itself (one size) is
// monotone in C, g, b and r: it is the order-statistic recurrence
// s(x) = max(s(x-1), r(x), (x-gmax)-th smallest finish among blocks < x).
//
// EqualBlockTimeRTA is the thesis's closed form for equal block times (and
// equal releases, one effective size). The thesis's K = floor((g - gf)/gmax)
// places the last wave one C too late when g - gf is a multiple of gmax;
// the function uses K = floor((g - gf - 1)/gmax), which the tests check
// against BlockRTA.
//
// # Periodic GPU tasks, fifo model (FIFOAnalyzer)
//
// Every GPU task is a thread of one process with its own stream; a job
// issues, at its launch, copy-in, kernel launch and copy-out, which run in
// stream order. The response is measured from the launch (the copy-in call)
// to the end of the copy-out. Jobs are sporadic with release jitter: the
// k-th job has a nominal release r_k, r_{k+1} >= r_k + T, and is launched at
// some a_k in [r_k, r_k + J] (Task.Jitter; a GPU job is launched when its
// offloading task's pre-processing ends).
//
// Assumption: every job completes by r_k + T, the earliest nominal release
// of the task's next job, so jobs of one task do not overlap and each is
// launched onto an empty stream. Without jitter this is Total <= Period,
// which the caller checks; with jitter Total <= Period − J implies it, and
// in hetmap so does the offloading task meeting its deadline D <= T (the
// GPU part of a job ends before the job's post-processing starts, and the
// evaluator's J is measured from the earliest end of the pre-processing, see
// optimizer/doc.go). The analysis is then self-consistent by the usual
// argument over the earliest instant at which some job is still running past
// r_k + T, past its launch plus its response bound, or past its launch plus
// its kernel bound (Δ below): each bound below uses only facts about other
// jobs at strictly earlier instants (their streams, and their completion
// before the window of the job analysed), so that earliest instant can only
// be one where the assumption itself fails. The property tests check the
// bounds against simulated runs up to that instant (jobCheck).
//
// Copy engine. A copy is in the CE queue, or on the CE, only while it heads
// its stream queue (C1, C4), so at most one copy of each other task is ahead
// of a copy of task i or in service, and FIFO order keeps later copies
// behind: wait <= Σ_{j≠i} max(cin_j, cout_j), for the copy-in and likewise
// the copy-out. This needs no deadline assumption. A task without a copy
// (time 0) has no wait.
//
// Kernel. Task i's kernel enters the EE queue at t1, when its copy-in
// completes (G2). A kernel of another stream that can run in the window
// heads its stream queue (G4), so each other task contributes at most one
// kernel that was in the system at t1; one that arrives later is behind i
// in the same FIFO queue. Only high-priority kernels can overtake.
//
//   - Low priority, no high-priority task: the kernels ahead are a subset of
//     one kernel of every other task, in some order, entered the queue no
//     later than t1 and may have run partly. Releasing all of them, fresh, at
//     t1 on an idle GPU, in the same order, with i last, is pessimistic by the
//     induction above (and adding kernels only delays i), so the worst
//     completion over all orders bounds i's. The orders are enumerated with
//     BlockRTA up to MaxEnumerate other kernels (default 6: 720 orders);
//     Response.WorstOrder names the worst. Beyond that the workload bound
//     below is used; the result is the minimum of the two bounds.
//   - Low priority with high-priority tasks: a high kernel arriving after t1
//     takes every slot that frees up until it is fully dispatched (A2), so
//     orders are not enough: moving interfering blocks to the front of the
//     order can be optimistic (a high kernel arriving mid-way can fill the
//     slot that a shorter placement would have freed). The busy-window
//     workload bound is used: let s be the time i's last block is assigned
//     and L = s - t1. At almost every instant of [t1, s) the head of the
//     eligible EE queue cannot place its next block, so at least
//     S* = SMs·floor(ThreadsPerSM/Emax) blocks are resident (slot rule, Emax
//     the largest effective size of all tasks), and more than
//     SMs·(ThreadsPerSM - Emax) effective threads are used (thread rule).
//     Integrating, S*·L <= W(L) = Σ_{other low} g_j·C_j +
//     Σ_{high h} jobs_h(L)·g_h·C_h + (g_i - 1)·C_i, and L is bounded by the
//     least fixed point of L = ceil(W(L)/S*) (with mixed sizes also of the
//     thread version; the smaller is used). Kernel part: L + C_i.
//     jobs_h(L) = ceil((L + ρ_h)/T_h) counts the jobs of h that can have a
//     block resident in the window, with h's reach ρ_h (see "Jobs of a task
//     in a window" below). The high-priority tasks are analysed first: their
//     bounds do not depend on low-priority tasks, and they give the reaches.
//     If the fixed point passes the task's period, iteration stops and
//     Bounded is false.
//   - High priority: no low block is assigned while i's kernel is in the
//     high queue (A2), and low blocks already running finish within the
//     longest low block time B (Response.Blocking); at most one kernel of
//     each other high task is ahead (FIFO high queue). After t1 + B only high
//     kernels run, so the completion is bounded by B plus the worst order of
//     the other high kernels ahead with i last, enumerated as above, or by B
//     plus the workload bound over them. A high kernel never waits for the
//     unassigned blocks of a low kernel.
//
// The kernel part is never below the isolated time ceil(g_i/slots)·C_i;
// Response reports CopyInWait, CopyIn, KernelQueue (kernel part minus
// isolated), KernelIsolated, CopyOutWait and CopyOut, which add up to Total.
// Analyze is allocation-free once the analyzer's buffers (and the WorstOrder
// slices of the caller's Responses) have grown.
//
// # Jobs of a task in a window
//
// Both models count how many jobs of another task h can have work (a
// resident block, or kernel work left to run) at some instant of a window
// [t1, t1 + L) that starts when a kernel of the task analysed enters the
// queue (fifo) or is launched (timeslice):
//
//	jobs_h(L) = ceil((L + ρ_h)/T_h),  ρ_h = min(T_h, J_h + Δ_h),
//
// where Δ_h bounds the time from a job's launch to the completion of its
// kernel: CopyInWait + CopyIn + KernelIsolated + KernelQueue of h's own
// response (ρ_h = T_h when h has no bound). This is the classic count of the
// jobs whose activity window can intersect an interval, as in holistic
// analysis, where the release jitter of an activity includes the response
// of what precedes it (Tindell and Clark, "Holistic schedulability analysis
// for distributed hard real-time systems", Microprocessing and
// Microprogramming 40, 1994). Derivation: a block occupies [assignment,
// finish); if job k of h has work at an instant t of the window, its
// kernel entered the queue, after the launch, at or before t, so
// a_k <= t < t1 + L; and its kernel completes after t >= t1. Completion
// after t1 needs r_k > t1 − T_h (the assumption) and a_k > t1 − Δ_h, so
// r_k > t1 − J_h − Δ_h. The nominal releases of such jobs therefore lie in
// the open interval (t1 − ρ_h, t1 + L) and are at least T_h apart: n of
// them span (n − 1)·T_h < L + ρ_h, so n <= ceil((L + ρ_h)/T_h). The first
// job of h, and sporadic releases later than the period, only remove jobs
// from the interval. Copy times are not used as minimum offsets, since a
// copy may take less than its worst case. A task with period 0 has one job.
//
// Since ρ_h <= T_h, the count is never above the previous
// 2 + floor((L + J_h)/T_h) (one unfinished job at t1 and the jobs launched in
// the window): ceil((L + ρ_h)/T_h) <= ceil(L/T_h) + 1 <= floor(L/T_h) + 2.
// With L + J_h = m·T_h + ε (0 <= ε < T_h) the previous count is m + 2 and
// this one m + 1 whenever J_h + Δ_h <= T_h and ε + Δ_h <= T_h. WATERS
// 2019, Detection behind a high-priority SFM (feasible mapping of
// cmd/hetmap/testdata): ρ_SFM = 20.4446 ms + 9.275 ms < 33 ms, so 6 SFM
// kernels in Detection's window instead of 7, 7.9 ms less.
//
// The count of the jobs launched in the window alone, ceil((L + J_h)/T_h)
// (even with at least one job), is not sound: a job of h launched before t1
// whose kernel is still waiting at t1 (for its copy, or for a low block) and
// the next job, launched T_h later, can both run inside a window shorter than
// T_h − J_h. TestFIFOCarryInJob is such a set, checked with both simulators,
// and TestTimeSliceCarryInJob one for the time-slice model.
//
// Sustainability. Every bound is monotone: it does not decrease, and an
// unbounded task does not become bounded, when any block time, block count,
// copy time or release jitter grows (TestPropertyFIFOMonotone,
// TestPropertyTimeSliceMonotone); it stays valid when blocks or copies run
// shorter than their worst case, jobs are released later than their period
// or launched anywhere within their jitter (TestSimFIFOSound against a
// per-SM simulator of the rules with several SM choices; TestGPUSimFIFOSound
// against package rta/gpusim, the simulator of `hetmap gpu simulate`, on
// random periodic sets with stream priorities, jitter and phases).
//
// # Time-slice model (TimeSliceAnalyzer)
//
// Every GPU task is its own process with its own channel; the channels with
// work are served round-robin, each for at most its slice S_i (WATERS 2019:
// 1 ms to 50 ms), and a channel without work is skipped. This is the
// behaviour of NVIDIA's default scheduler on Tegra described by Capodieci,
// Cavicchioli, Bertogna and Paramakuru, "Deadline-based Scheduling for GPU
// with Preemption Support", RTSS 2018 (time-sliced round-robin between
// channels, with preemption), and analysed with a context-switch cost by
// Wang, Liu, Wong and Kim, "GCAPS: GPU Context-Aware Preemptive
// Priority-based Scheduling for Real-Time Tasks", ECRTS 2024. Stream
// priorities have no effect across processes. Assumption: preemption keeps
// progress (Pascal compute preemption), so a job's kernel needs E_i = its
// isolated time of GPU time, in n_i = ceil(E_i/S_i) turns.
//
// Bound: before each of i's n_i turns, every other channel j gets at most
// one turn of at most S_j, and only while it has work: at most
// N_j(w) = jobs_j(w) jobs (see "Jobs of a task in a window") of E_j each,
// in at most N_j(w)·ceil(E_j/S_j) turns. With
// x_j = min(n_i, N_j(w)·ceil(E_j/S_j)) turns of j and one context switch of
// SwitchOverhead per turn,
//
//	w = E_i + Σ_{j≠i} min(x_j·S_j, N_j(w)·E_j) + SwitchOverhead·(n_i + Σ_j x_j),
//
// whose least fixed point bounds the time from the kernel's launch (after
// its copy-in) to its completion (a TDMA-style round-robin bound refined by
// the demand of the other channels). The copies use the CE bound above.
// Response.Turns and Response.SwitchOverhead give n_i and the switching time.
//
// Here every channel's reach depends on the others' bounds, so the bounds
// are computed in rounds: the first with ρ_j = T_j for every channel (the
// assumption alone, which is sound on its own), each later round with the
// reaches that the bounds of the round before give. The bounds of a round
// are sound when those of the round before are (they bound every job), and
// no bound grows from one round to the next (smaller reaches, smaller
// counts); the rounds stop when the reaches repeat, or after 16 rounds.
package gpu
