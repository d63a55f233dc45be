// Package evaluate analyses one mapping of a system: it turns a system
// description (configs) and a mapping of its tasks to processing units
// into the mapping's Analysis. An Evaluator is built once per
// configuration; Evaluate then turns a mapping, in the compact form
// Assignment, into an Analysis: per task its execution time with every
// term, its worst-case response time, deadline and verdict; per GPU task
// its GPU response with its terms; per unit its utilisation and
// contention; and whether the whole mapping is schedulable, with the
// reasons when it is not. An unschedulable mapping is an analysis, never
// an error. Evaluate fills what a search needs; the chains' latencies, the
// requirement reports and the contention windows of a report follow from
// AnalyzeChains and AnalyzeContention, or from EvaluateForReport in one
// call, and the margins from AnalyzeMargins.
//
// The package does not search. Package optimizer, which searches
// for the best mappings, is a layer above it and evaluates every mapping it
// meets with it; evaluate imports neither optimizer nor optimizer/moo.
//
// # The package's face, by who uses it
//
//   - Model (Evaluator.Model) is the read-only view of the compiled model,
//     shared by every clone and safe for any number of goroutines: what a
//     search, a report or the command line may ask (Tasks, Units, GPUTasks,
//     GPUUnit, ChainTasks, RequirementChains, Count, FIFO, Activated,
//     Config, Notes), the bounds an exhaustive search cuts with
//     (ComputeTime, DemandBound, MovesLines, CopiesLines) and the
//     conversion of an assignment to the configuration's form (Mapping,
//     Describe).
//   - Evaluator is what one goroutine holds: the analyses (Evaluate,
//     EvaluatePartial, Refutes, EvaluateForReport, AnalyzeChains,
//     AnalyzeContention, AnalyzeDemand, Margins, AnalyzeMargins, Timeline),
//     the values they fill (NewAssignment, FromMapping, DefaultAssignment,
//     NewAnalysis), what a search needs beside them (the priority-order
//     variants of a mapping, PriorityVariants and JointOrders, on which
//     with the relaxed test of EvaluatePartial the search's exactness
//     rests; ChainMembers and ChainLatency for its chain objectives; OnCore,
//     Analyses), and its scratch. Clone gives another goroutine its own.
//   - Options are a worker's settings (the iteration limit of a miss, the
//     relaxed test first, the stop of an interrupted run), given once to
//     With, which clones; NewEvaluator's evaluator iterates to the fixed
//     point and is never stopped, which a report needs.
//   - Hooks are switches for tests that make the evaluation or the search
//     deliberately unsound; they are set with the function SetHooks, not a
//     method, since the optimizer's tests set them on the evaluator they
//     give the search. Switches only the package's own tests use (the
//     memo off, the analysis by task, the bisection of the margins, and
//     the analyses' helpers by name) are in export_test.go.
//
// # Assumptions
//
// Beyond the model below, the analysis assumes:
//
//   - one GPU (a second is an error) with the TX2's warp size and limit of
//     resident blocks per SM, which the configuration does not give;
//   - every label access goes to DRAM (cache hit rate 0), line by line;
//   - fixed-priority preemptive scheduling on every core, deadlines at
//     most the periods, and no cost of a context switch or of a time
//     slice's switch on the GPU;
//   - every GPU task responds within its period (otherwise no GPU response
//     is a bound, and the analysis says so: GPUNoBound);
//   - under the request count, round-robin arbitration of the memory
//     (configs.RequestAssumption);
//   - the configuration does not change while an Evaluator uses it.
//
// # Model (the WATERS 2019 Industrial Challenge)
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
// copy engine too, and analysis.copy_engine_active). This is the challenge
// count (analysis.contention: challenge); TaskResult.C and its Contention
// term are always computed with it. The refined and request counts charge
// contention by response window instead (see "Refined contention" below).
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
// that waits for one gets the verdict GPUNoBound (Analysis.GPUSound is false).
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
// analysis.priorities: Audsley's OPA completed by an exact search, so that
// an order is found whenever one passes the final test (default; rta,
// "Exact priority assignment"), deadline-monotonic, rate-monotonic, or
// model (then every task needs a priority). A core whose search stops at
// its bound is marked undecided (UnitResult.Undecided): not shown
// schedulable, not proven unschedulable. A value that is no bound is never
// used as an input of another bound: a task below an offloading task whose
// GPU response is no bound has no bound either (rta.Task.NoBound), and when
// an offloading task misses its deadline, the GPU responses that assumed it
// would not are withdrawn (GPUResult.AssumptionMissedBy). A task's
// deadline is the model's (the period under the default convention). The
// response of a task that misses is iterated past its deadline (rta.LimitNone
// by default, see Options.Limit), so that Analysis.Violation ranks
// infeasible mappings by how much they miss; a value past the period is only
// a lower bound and has the verdict NoBound. Every task without a bound,
// whether its own iteration passed the period or its bound was withdrawn
// because of another task, counts its period in the violation (or R − D
// where the analysis went further): a mapping that loses its GPU bounds
// ranks behind one that misses a deadline by less than a period. Which task
// a verdict follows from is TaskResult.Because (causes.go).
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
// # Refined contention
//
// Under analysis.contention refined or request (memory's package
// documentation, "Window-aware contention counts"), a task's
// response time charges the contention of its level-i window: the memory
// accesses N of its job and of the jobs above it there, of which, per other
// core and for the copy engine, only as many as can overlap that unit's
// memory phases (refined: the time count; request: also at most one per
// line request of the unit, which assumes round-robin arbitration, see
// configs.RequestAssumption). Package memory counts them (memory.Window,
// memory.Counter) and rta puts the term into the fixed point
// (rta.Contention): a task's bound is the least fixed point of the minimum
// of the per-job form (the challenge's C) and the window form, so no bound
// is above the challenge count's for the same priority order. The window of
// core p counts every other core's tasks with their response-time bounds
// (η_k of memory's package documentation: a job of k is active only
// within R_k of its
// arrival) and the GPU tasks' copies with their offloading task's bound (the
// copies lie within its job) or, while that task meets its deadline, the
// GPU job's release jitter plus its GPU response. The copy engine's own
// latency keeps the challenge count. A memory phase is a runnable's read or
// write phase that moves a line, or a copy; a job cuts at most 1 +
// (its self-suspensions) phases of lower-priority jobs on its core
// (memory.Footprint.OnCore: an asynchronously offloading task counts 2, one
// more than the "+1" of a count that ignores suspensions, which
// undercounts for suspending tasks, see
// memory's package documentation), and none where no other task at or
// below its priority moves a line. The time count also adds the accesses
// that preemptions of the observed core pause (rta counts the releases and
// resumptions of the jobs above in the window; memory's documentation,
// item 4, says why the count needs them, and
// TestRefinedPausedAccesses shows a schedule that exceeds the count
// without them). A fixed analysis.interfering_cores caps the cores' term at
// #C per access; a fixed copy_engine_active charges the copy engine for no
// access or for every one.
//
// Bounds on other cores depend on this core's, and with derived (OPA)
// priorities the orders depend on the bounds. Evaluate therefore proceeds
// as follows, every bound in use at any step being a sound one.
//
//  1. The challenge pass: every core as under the challenge count (with the
//     per-core memo). Its bounds hold for its orders whatever the other
//     cores do.
//  2. Orders. A core keeps the challenge pass's order when its priorities
//     are explicit, come from a policy that does not depend on the
//     analysis (deadline- or rate-monotonic), or already pass (the refined
//     test is never stricter). The other cores (OPA, failing under the
//     challenge count) get an order from rta's exact priority assignment
//     under the refined test, with every task on a core whose order is not
//     yet known counted with a bound that holds in any order provided every
//     task meets its deadline: its deadline, or its challenge bound at the
//     lowest priority of its core if smaller (and, not knowing which tasks
//     will be below, every task of such a core cutting phases). The
//     selection chooses the orders only. The start of the rounds is, for
//     every core, the challenge bounds of its order (rta.Explicit without
//     a contention term), which hold unconditionally; so a derived order
//     and the same order given explicitly are analysed alike.
//  3. Rounds (Gauss–Seidel): every core, its order fixed, is analysed with
//     the other cores' current bounds, and a bound that shrinks replaces the
//     old one at once. With the orders fixed, the analysis is monotone in
//     the bounds it counts, so each round's bounds are sound and none grows;
//     the rounds stop when a round changes none (Analysis.Converged) or after
//     MaxRounds. A core whose inputs shrank by less than what could change
//     a value of its contention term since its last analysis
//     (memory.Stability: the job counts at every window length asked stay
//     the same, or the overlaps that were all of N stay all of N) is not
//     analysed again: it would give the same results.
//     When the start has a deadline miss, the rounds first start from
//     every bound capped at its task's deadline, which holds provided
//     every task meets its deadline. If every task then meets it, the
//     assumption holds: at the first deadline miss, if there were one,
//     every job up to it would have respected the bounds used, so the
//     analysis would apply up to it and exclude the miss. Otherwise the
//     rounds run again from the unconditional start.
//  4. GPU assumptions, as under the challenge count (missedAssumptions), but
//     on the refined verdicts: where an offloading task misses its
//     deadline, the other GPU tasks' responses are withdrawn, the cores that
//     wait for them are analysed again from step 1, until nothing changes.
//
// On the default WATERS mapping of BenchmarkEvaluate the rounds take two
// sweeps (one that changes the bounds, one that confirms them, in which
// the stability rule skips all but one core). The per-core memo keeps the
// challenge pass, with each core's tasks as the rounds analyse them and
// their fingerprint (memo.go). The rounds' per-core analyses are memoised
// too (windowmemo.go), under a 128-bit fingerprint of the core's tasks,
// its window and the limit: a core's refined result depends on every
// other core's bounds, which differ from one mapping of a search to the
// next, so the fingerprint of each interferer is computed once when the
// rounds start and again only when its bounds move (its shape, everything
// but the bounds, only when its tasks change), and a key costs one fold
// per interferer, not one per task of the system.
//
// Which priority orders the refined analysis finds is exact per core for its
// test given the other cores' bounds (rta's exact search), but not jointly:
// a core that fails the deadline-based selection of step 2 keeps OPA's
// order, and the rounds may still show it schedulable in that order or leave
// it failing where another order would pass with the tighter bounds of the
// rounds. The exhaustive search (package optimizer) closes that gap with the
// joint orders below.
//
// Explicit priorities are analysed exactly as derived ones once the
// orders are known (steps 2 and 3): a mapping with its derived orders
// written out as explicit priorities analyses as the derivation did
// (TestExplicitEqualsDerived).
//
// # Joint priority orders
//
// Under the refined and request counts a core's window counts the other
// cores' tasks with their response times, which depend on those cores'
// orders (with activated tasks, an activated task's jitter depends on its
// activator's order likewise). JointOrders enumerates, for one mapping, the
// combinations of per-core orders, each evaluated with explicit priorities,
// with one cut: an order of a core in which a task misses its deadline under
// the relaxed test of EvaluatePartial (every task of another core counted
// with a lower bound of its response time that no order lowers, no phase cut
// by a preemption; under the challenge count with activated tasks, no
// activation jitter) misses it in every combination, since the sound bounds
// of any combination are at least those lower bounds and the window term and
// the response-time fixed point are non-decreasing in them. The orders of a
// core that pass are enumerated from the most urgent level down, a prefix
// cut as soon as its last task misses (a task's response depends only on the
// tasks above it). A core whose priorities the mapping gives keeps them. At
// most search.max_joint_orders (default 4096) combinations are evaluated per
// mapping, and cores of at most MaxVariantTasks (8) tasks varied; beyond,
// the mapping stays undecided.
//
// # Partial mappings
//
// EvaluatePartial evaluates a mapping in which some tasks are not placed
// yet (they do not run). Under the challenge count it is Evaluate on the
// placed tasks (an offloading task not placed yet is assumed to meet its
// deadline). Under the refined counts it is a relaxed test: every core
// under its policy (rta's exact assignment for OPA) with the window term,
// and every task on another core counted with a lower bound of its
// response time that neither an order nor another task can lower, its own
// execution time without contention plus its suspension (for a GPU task's
// copies, its best-case GPU job), and no memory phase cut by a preemption.
// A complete mapping that Evaluate shows schedulable passes this test, and
// adding a task only adds demand to it; package optimizer's documentation
// ("The exhaustive search's cut under the refined counts") shows why a
// search may cut a partial mapping that fails it.
//
// # Performance
//
// Everything that does not depend on the mapping is computed by
// NewEvaluator: label lines, tick conversions per unit, the merged variants,
// copy sizes and kernel geometries. GPU-side results depend only on which GPU
// tasks are on the GPU, their stream priorities or time slices and the copy
// engine's #C; they are cached under that key, so that a search that changes
// only CPU placements never reruns the block-level analysis. With an Analysis
// reused between calls, Evaluate does not allocate in steady state (see
// BenchmarkEvaluate). Under the refined counts an evaluation costs more
// than under the challenge count (the rounds analyse every core with its
// window term; BenchmarkEvaluateCounts), and three things keep that cost
// down where a search pays it:
//
//   - The windowed memo (windowmemo.go). A core's windowed analysis, in the
//     rounds and in the relaxed test, depends only on its own tasks, its
//     window (every other core's and the copy engine's demands with the
//     bounds they are counted with) and the limit; it is remembered under a
//     128-bit fingerprint of those inputs, in which every interferer
//     counts by a fingerprint of its demands computed once when the rounds
//     start and again only when its bounds move. So a round that moved
//     nothing a core sees, a restart of the refined pass after a GPU
//     assumption is withdrawn (refine), and a search's offspring that keep
//     a core and what surrounds it take that core's results from the memo;
//     only what changed is analysed again. TestWindowMemoChangesNothing
//     compares every result with the memo off.
//   - The relaxed test first (Options.RefuteFirst, a search's
//     evaluators). Most mappings a search meets are infeasible; a mapping
//     that fails the relaxed test, which counts the other cores' tasks at
//     bounds no order can lower, fails in every priority order, so it is
//     decided without the rounds. The test takes the most utilised core
//     first and stops at the first that fails; the search then ranks the
//     mapping by that core's excess over its deadlines under the test, a
//     lower bound of its excess under the full analysis (its violation
//     measure). A mapping feasible under the challenge count is feasible
//     under the refined one, and passes the test; one that passes is
//     analysed in full. So the challenge pass, where the full analysis
//     starts, comes first: where it meets every deadline the test is known
//     to pass and is not run (it still counts in Analyses), and the full
//     analysis goes on from that pass; Refutes likewise (the
//     constructions' cut). TestRefuteFirstKeepsVerdicts checks on random
//     mappings that the verdicts and a schedulable mapping's response times
//     are those of the full analysis, TestChallengeFirstChangesNothing that
//     the challenge pass first changes no analysis and no verdict.
//   - Budgets (Budget). The priority-order variants and joint orders of a
//     mapping are charged, in whole analyses of the mapping, against what
//     the search leaves them (Budget.EvaluationsLeft, or no bound where
//     Budget.Unlimited): every evaluation they make counts one, and the order
//     enumerations, which analyse one task at one priority level at a time,
//     one per len(tasks) such steps. A search counts the charge in
//     search.max_evaluations (moo.Evaluation.Cost).
//
// NewEvaluator compiles that mapping-independent part once into a
// read-only model; an Evaluator adds to it its own scratch (buffers, the
// analyzers, the per-core memo and the GPU-side cache). An Evaluator is
// not safe for concurrent use: Clone gives each goroutine an Evaluator of
// its own that shares the model (as a regexp.Regexp shares its compiled
// program between the machines of its matches), and OnWorkers runs a job
// on such goroutines.
//
// # Margins
//
// Margins (margins.go) computes how far a mapping's execution demand may
// grow: the largest factor, to 0.1 % and rounded down, on every task's
// worst-case CPU compute and GPU kernel time (memory lines unchanged;
// scale.go) for which every deadline and every chain latency requirement
// holds, the same per kind of unit and per task, and what fails just
// above it (the task whose own test fails there, Analysis.Cause), with the
// mapping's priority orders fixed (MAST's slack, Medina et al. 2001). The
// search (marginsearch.go) starts from the sensitivity of the fixed-point
// tests of the units the scaling reaches (rta.Sensitivity: Bini, Di
// Natale and Buttazzo 2008), from the state of the mapping's own analysis,
// and shows the mapping holding at the factor and failing just above it
// by certificates: the cores the scaling reaches analysed alone, with the
// other cores' bounds at lower or upper bounds of theirs there (and the
// GPU analysed again where it is reached), by whole analyses only where
// those do not tell; what follows from what binds (Margin.Consequences)
// comes from a whole analysis just above the margin, unless NoConsequences
// spares it. A certificate that the mapping holds agrees with the whole
// analysis wherever that analysis's rounds converge (Analysis.Converged),
// as they do on every mapping of the tests. analysis.execution_scale
// applies such a factor to a whole analysis, so a user re-checks a margin
// by hand. TestMarginClosedForm checks a hand-computed example,
// TestMarginsBisect that random feasible and infeasible mappings hold at
// their margins and fail 0.2 % above them, TestMarginsFastEqualBisection
// that the search finds the margins of bisection over whole analyses,
// TestCausesOnRandomMappings that what binds fails on its own.
//
// # Chains
//
// ChainMembers gives the view of a chain's tasks that the chains
// package needs (period, offset, release jitter, BCRT and BCET — both the
// best case of "Best case" —, WCRT, deadline, whether bounded, and for a
// task on a CPU core its core, priority rank and whether it suspends, which
// order the hops between chain members of one core). A GPU task on the GPU
// is represented by its PRE task, whose response includes the GPU's; a
// merged task by itself (also where a chain names its PRE task).
// AnalyzeChains fills Analysis.Chains (every metric, both paradigms, the
// job-level values and every bound for any offsets with their minima, the
// worst job chain of the configured metric at the model's offsets);
// ChainLatency computes one latency of a chain from its ChainMembers,
// without allocating once its plan has grown, for the search. The priority-order variants (variants.go)
// vary the orders that can change a chain latency: through the members'
// WCRTs and through the hops an order orders.
package evaluate
