// Package optimizer evaluates mappings of a system's tasks to processing
// units (and, in a later step, searches for the best ones). An Evaluator is
// built once per configuration; Evaluate then turns a mapping, in the compact
// form Assignment, into a Result: per task its execution time with every term,
// its worst-case response time, deadline and verdict; per GPU task its GPU
// response with its terms; per unit its utilisation and contention; and
// whether the whole mapping is schedulable, with the reasons when it is not.
// An unschedulable mapping is a result, never an error.
//
// # Model (../shared/spec/waters2019.md)
//
// Execution time on a core. A runnable reads its labels, computes, then
// writes. A label of s bytes is ceil(s/64) DRAM lines and every access goes to
// DRAM (cache hit rate 0). On a core of kind k, one line costs
//
//	Lat(k) = baseline(k) + K(k)·#C + sGPU(k)·bGPU
//
// and a task's C is Σ over its runnables of lines·Lat + ticks/f (memory
// package). The report splits C into compute (ticks/f, rounded up to the
// picosecond per runnable), memory (lines·baseline) and contention
// (lines·(K·#C + sGPU·bGPU)). Worst cases use the upper-bound ticks.
//
// Contention, the sound convention: #C of a core is the number of other
// cores that host at least one running task that reads or writes at least one
// line; bGPU is 1 when a GPU task on the GPU copies at least one line. The copy
// engine's #C counts every core that accesses memory. Both can be fixed in
// the configuration (analysis.interfering_cores, which then applies to the
// copy engine too, and analysis.copy_engine_active).
//
// Offloading. A GPU task on the GPU is released by its offloading (PRE)
// task after the pre-processing; its job copies in, runs one kernel and copies
// out. Its GPU response R_gpu is measured from the copy-in call to the end of
// the copy out and is computed by rta/gpu: the fifo model (default; one CUDA
// context, FIFO execution-engine and copy-engine queues, stream priorities
// high or low) or the timeslice model (one channel per task, round-robin time
// slices). Copy time = lines · Lat(CE) with Lat(CE) = 3 ns + 0.5 ns·#C; a copy
// runnable moves max(lines read, lines written). The GPU task's period is its
// PRE task's.
//
//   - Synchronous offloading: the PRE task busy-waits, so its C is
//     pre-processing + R_gpu + post-processing (rta.Task.C).
//   - Asynchronous offloading: the PRE task suspends; C is pre-processing +
//     the runnables that run only after a passive wait (WATERS:
//     AsyncOffloadingCosts) + post-processing, and S = R_gpu. The rta package
//     bounds its interference on lower-priority tasks as a release jitter of
//     R − C (see rta's package documentation).
//
// The GPU analyses assume that every GPU task responds within its period (so
// that at most one job of every other GPU task is ahead in a queue). When one
// does not, no GPU response is a bound: every task on the GPU and every task
// that waits for one gets the verdict GPUNoBound (Result.GPUSound is false).
//
// Merge convention. A GPU task mapped to a core becomes one periodic task
// with its PRE task's period, deadline and offset: it runs the GPU task's
// computing runnables with the CPU ticks, reads the labels the PRE task's
// pre-processing read and writes the labels its post-processing wrote (each
// label once); the PRE task, the copies and the events disappear (the PRE
// task's Unit is NoUnit and its role NotRunning).
//
// Kernel geometry. Without a configured geometry (analysis.kernels) a kernel
// uses 256-thread blocks, as many blocks per wave as fit on the GPU (16 on the
// TX2: 2 SMs × 2048 threads) and as many waves as it takes to keep a block at
// or under 1 ms; block time = ceil(kernel time / waves). With a configured
// geometry, waves = ceil(blocks / resident blocks) and the block time follows
// the same way. The GPU's warp size (32) and its limit of resident blocks per
// SM (32) are not in the configuration and are taken from the TX2.
//
// Time slices (timeslice model): the mapping's, else the model's own
// mapping's, else the largest slice the model allows, else the isolated
// kernel time. No context-switch overhead is charged.
//
// CPU scheduling. Fixed-priority preemptive per core, analysed by rta
// (Joseph and Pandya with jitter and self-suspension). Priorities come from
// the mapping when it gives one to every task of the core (a higher value is
// more urgent, as in Amalthea); otherwise they are assigned by
// analysis.priorities: Audsley's OPA (default), deadline-monotonic,
// rate-monotonic, or model (then every task needs a priority). A task's
// deadline is the model's (the period under the default convention). The
// response of a task that misses is iterated past its deadline (rta.LimitNone
// by default, see Evaluator.SetLimit), so that Result.Violation ranks
// infeasible mappings by how much they miss; a value past the period is only
// a lower bound and has the verdict NoBound.
//
// Best case. TaskResult.BCRT is a lower bound on the response time for the
// chain analyses: lower-bound ticks, uncontended memory (#C = 0, bGPU = 0), no
// interference, and for an offloading task the best-case GPU job (copies at
// the uncontended copy-engine latency, the kernel's lower-bound ticks).
//
// Release jitter of GPU jobs. The GPU job of a PRE task is launched when its
// pre-processing ends, which varies from job to job. rta/gpu counts the jobs
// of a task in a window with release jitter J; the evaluator bounds J per
// GPU task independently of the mapping: J = D − (best-case pre- and
// post-processing over the cores the task may use) − best-case GPU job,
// valid whenever the PRE task meets its deadline D (a mapping where it does
// not is infeasible anyway). A mapping is analysed as given; a core that
// hosts only tasks without label accesses (OS_Overhead) does not count in #C.
//
// # Performance
//
// Everything that does not depend on the mapping is computed by
// NewEvaluator: label lines, tick conversions per unit, the merged variants,
// copy sizes and kernel geometries. GPU-side results depend only on which GPU
// tasks are on the GPU, their stream priorities or time slices and the copy
// engine's #C; they are cached under that key, so that a search that changes
// only CPU placements never reruns the block-level analysis. With a Result
// reused between calls, Evaluate does not allocate in steady state (see
// BenchmarkEvaluate). An Evaluator is not safe for concurrent use; Clone
// gives each goroutine its own scratch and cache.
//
// # Chains
//
// ChainMember and ChainMembers give the view of a task that the chains
// package needs (period, offset, BCRT, WCRT, deadline, whether bounded). A GPU
// task on the GPU is represented by its PRE task, whose response includes the
// GPU's; a merged task by itself (also where a chain names its PRE task).
// AnalyzeChains fills Result.Chains (every metric, both paradigms, Davare,
// the worst job chain of the configured objective); ChainObjectives computes
// only the configured objective, without allocating, for the search.
//
// # Search
//
// Problem states the mapping search as a moo.Problem (pymoo's split of
// problem, algorithm and termination): one gene per task's unit among the
// units it has ticks for (a GPU task: the GPU or a core, where it is merged
// with its offloading task), and per GPU task its offloading mode and its
// stream priority (fifo) or time slice (timeslice, on the grid
// time_slice.min … max by analysis.time_slice_step). Genes that
// search.free does not free keep the model's mapping. Objectives (all
// minimised) are chain latencies in milliseconds, the number of cores used or
// the highest core utilisation; a mapping that misses a deadline is not
// given an objective but a Violation (Σ (R − D) in ms), and is ranked by it
// (constraint domination, Deb 2000).
//
// Run drives two algorithms of optimizer/moo:
//
//   - NSGA-II (Deb et al. 2002) on eaopt. The WATERS platform is so full that
//     random mappings are practically never feasible (none in two million
//     samples under the sound contention convention), and a task often fits
//     only where another one leaves. So the first population is opened with
//     the model's own mapping and with randomised depth-first constructions
//     that backtrack out of unschedulable partial mappings (Construct), and
//     offspring are also mutated by swapping two tasks' units
//     (SwapMutation). Every random choice comes from the search's one seed;
//     the same seed gives the same front with any number of workers.
//   - Exhaustive enumeration (Exhaustive): every distinct mapping once.
//     Identical cores (same kind, frequency and DRAM latencies) are
//     interchangeable: a task may go to a core of such a class only if an
//     earlier task uses it or it is the class's first unused core. Genes that
//     do not matter under the others (the offloading task and mode of a GPU
//     task merged onto a core) take one value. The GPU genes come first and
//     then the CPU tasks, heaviest first; a partial mapping is cut as soon as
//     EvaluatePartial finds it unschedulable. The cut rests on monotonicity:
//     placing more tasks only adds interference, contention (#C, bGPU) and
//     GPU work, and OPA finds an order whenever one exists for the
//     OPA-compatible test. One caveat is documented rather than proved: with
//     self-suspending (asynchronous) tasks the reported response times use
//     the tighter R − C jitter after OPA, so a partial mapping that OPA
//     rejects could in principle be accepted by that final check once
//     completed; the tests compare the enumeration with brute force on a
//     small problem and check that no point the genetic search finds on
//     WATERS lies outside the exact front. The workers share the
//     enumeration tree out, each with its own walker (an Evaluator clone
//     for the partial mappings); the front and the counts are the same with
//     any number of workers.
package optimizer
