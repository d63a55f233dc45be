// Package rta implements the CPU side of hetmap's response-time analysis:
// fixed-priority preemptive response-time analysis of the tasks of one core
// and the assignment of their priorities.
//
// The GPU analyses live in subpackages: rta/gpu holds the block-level FIFO
// analysis of the GPU and the time-slice bound, and rta/gpusim holds a
// discrete-event simulator of the GPU. This package knows nothing about the
// GPU: an offloading task reaches it as a CPU task with a self-suspension
// time (asynchronous offloading) or with the GPU time folded into its
// execution time (synchronous offloading).
//
// # Model and assumptions
//
// Each core is analysed on its own. Its tasks are independent sporadic
// tasks (Task): a task has a worst-case execution time C on the core, a
// period or minimum inter-arrival time T, a constrained relative deadline
// D ≤ T, a release jitter J, a blocking time B and a self-suspension time S.
// Scheduling is fixed-priority and fully preemptive, on one core, with no
// shared resources other than those whose effect the caller has already
// bounded in B. (A self-suspending task can be blocked anew after it
// resumes, so its B must cover every execution segment, not just one.)
// Tasks are not synchronised with each other: every release pattern
// allowed by T and J is considered. Times are int64 values in one unit of
// the caller's choice (hetmap uses picoseconds); every input lies in
// [0, MaxTime], which keeps all arithmetic free of overflow.
//
// # Response time
//
// The worst-case response time of a task i is the least fixed point of
//
//	w = C_i + S_i + B_i + Σ_{j ∈ hp(i)} ceil((w + J'_j) / T_j) · C_j
//	R_i = w + J_i
//
// (Joseph and Pandya, "Finding response times in a real-time system", The
// Computer Journal 29(5), 1986; with release jitter and blocking as in
// Audsley, Burns, Richardson, Tindell and Wellings, "Applying new
// scheduling theory to static priority pre-emptive scheduling", Software
// Engineering Journal 8(5), 1993). hp(i) is the set of tasks of higher
// priority on the core and J'_j is the effective jitter of j defined below.
//
// R includes the task's own release jitter J_i: it is measured from the
// arrival of a job (its periodic activation), not from the moment the job
// is actually released. Deadlines are relative to the arrival, and the
// end-to-end latency of a chain is built from arrival times, so the jitter
// belongs in R; R_i ≤ D_i is the schedulability condition.
//
// The iteration starts at C + S + B + Σ C_j, which lies at or below the
// least fixed point whenever C + S + B > 0, because in that case every
// higher-priority task releases at least one job in the window. (A job
// without work, C + S + B = 0, completes when released: R = J.) The
// iterates increase monotonically; the iteration stops at the fixed point
// or as soon as R exceeds a caller-given limit: the deadline for speed, or
// a larger value to learn how far a deadline is missed. If the utilisation
// of the higher-priority tasks, U = Σ C_j/T_j, is at least 1, there is no
// fixed point (every solution would need w ≥ C + S + B + U·w > w) and the
// task is reported Unbounded. The test for U ≥ 1 is kept off the common
// path: a converging iteration proves U < 1, so U is only computed when
// the iteration passes its limit or runs long, in float64 and, within 1e-9
// of 1, exactly with rational arithmetic. A hard cap of MaxIterations
// iterations guards against pathological inputs; reaching it is reported
// as Exceeded. Job counts are updated incrementally (a count changes by one
// without a division in the common case), so an evaluation costs a few
// comparisons per interferer and iteration.
//
// The single-job analysis is only valid while R_i ≤ T_i: beyond that, a
// later job of the same level-i busy period may respond later (Lehoczky,
// "Fixed priority scheduling of periodic task sets with arbitrary
// deadlines", RTSS 1990). With constrained deadlines a schedulable task
// always satisfies it. A converged R with D < R ≤ T is reported as
// DeadlineMiss (a sound bound, the deadline is missed by at most R − D); a
// converged R > T, or a limit that stopped the iteration, is reported as
// Exceeded, and R is then only a lower bound on the analysis value.
//
// # Self-suspension (asynchronous GPU offloading)
//
// A task that offloads asynchronously runs its pre-processing, launches the
// GPU work, suspends for at most S while the GPU responds and then runs its
// post-processing; C is the sum of its CPU parts. Two effects are bounded
// separately.
//
// For the suspending task itself, the suspension is counted as if it were
// execution (the term S_i in w). Treating the analysed task's own
// suspension as computation is sound on a uniprocessor under fixed
// priorities: turning the job's suspension intervals into execution can
// only delay its completion. This is the "suspension-oblivious" treatment
// of the analysed task discussed in the review of Chen et al. cited below.
//
// For lower-priority tasks, a suspending task j is not a periodic source of
// interference: a job that suspends early and resumes late can make two
// jobs' executions fall closer together than T_j. Its interference is
// bounded soundly by treating it as a non-suspending task with release
// jitter
//
//	J'_j = R_j − C_j   (with R_j measured from the arrival, as above),
//
// which equals J_j + (w_j − C_j), because every job of j executes somewhere
// within [arrival, arrival + R_j]. This is the corrected bound of Bletsas,
// Audsley, Huang, Chen and Nelissen, "Errata for three papers (2004-05) on
// fixed-priority scheduling with self-suspensions", Leibniz Transactions on
// Embedded Systems 5(1), 2018, reviewed with its history in Chen, Nelissen,
// Huang, Yang, Brandenburg, Bletsas, Liu, Richard, Ridouard, Audsley,
// Rajkumar, de Niz and von der Brüggen, "Many suspensions, many problems: a
// review of self-suspending tasks in real-time systems", Real-Time Systems
// 55(1), 2019. (A jitter of only S_j, used by some earlier analyses, is not
// safe in general; see the review.) A task that does
// not suspend keeps J'_j = J_j. The bound needs R_j to be a sound bound:
// when a suspending task has none, every task below it is reported
// InterfererUnbounded. Synchronous offloading needs nothing special: the
// caller adds the GPU response time to C, since the core busy-waits.
//
// # Window-dependent contention
//
// The classic form charges a task's memory contention inside C: every
// access at the latency it has while every other unit that may contend does
// so (hetmap: the challenge's convention). With Analyzer.Contention set
// (ResponseTimeWith for one task), contention is charged by window instead:
// a task carries C0, its execution time without the contention of other
// units (every access at its uncontended latency), Lines, its memory
// accesses per job, and Access, the least time those accesses take
// together; the core's Contention gives I(t, n), a bound on the delay its
// accesses suffer in any window of length t in which its jobs make at most
// n of them (package memory computes it per interfering core and copy
// engine, with the counts of docs/contention.md). The response
// time is then the least fixed point of
//
//	w = min( f_C(w), f_0(w) ),   R = w + J
//	f_C(w) = C + S + B + Σ_{j ∈ hp(i)} ceil((w + J_j)/T_j) · C_j              (classic)
//	f_0(w) = C0 + S + B + Σ_{j ∈ hp(i)} ceil((w + J0_j)/T_j) · C0_j + I(w, N(w), P(w))
//	N(w)   = Lines + Σ_{j ∈ hp(i)} ceil((w + J0_j)/T_j) · Lines_j
//	P(w)   = Σ_{j ∈ hp(i)} (ceil((w + J0_j)/T_j) + [j suspends]) · Readies_j
//
// with J0_j = J_j for a task that does not suspend and J0_j = R_j − Access_j
// (at least J_j) for one that does (Task.Interferer). P(w) bounds how many
// times an access of the window's jobs can be paused by a preemption: a
// job of j becomes ready Readies_j = 1 + Suspensions_j times and may
// preempt each time, and a suspending task may have one job more that
// becomes ready in the window without its work counting there (its
// carried-in job resuming). Package memory's count of the accesses that
// can overlap another unit's memory phases needs it (memory's package
// documentation, item 4).
//
// Why f_0 bounds the demand. Let s be the latest instant at or before the
// release of the analysed job at which the core executes no job of priority
// i or higher. From s on, until the job completes, the core executes those
// jobs, or the analysed job suspends (counted as execution, as in the
// classic form), so the window [s, s + w) is filled by their work at the
// uncontended latencies, the analysed job's suspension and blocking, and
// the delays of their accesses. No such access is in progress at s, so all
// of them lie in the window, and I(w, N) bounds their delays as soon as N
// bounds their number. What remains is to count the work and the accesses
// of each task j above. A task that does not suspend releases at most
// ceil((w + J_j)/T_j) jobs that execute in the window (the classic
// argument). A suspending task may carry a job into the window; every job
// of j executes within [arrival, arrival + R_j]. Let its earliest job with
// work in the window arrive at s − R_j + x (0 < x ≤ R_j): it completes by
// s + x, so it does at most x of work in the window, and at most x/b of
// its accesses (b the uncontended latency of one; Access_j = Lines_j · b).
// If x ≥ Access_j, the jobs with work in the window arrive in
// [s − R_j + x, s + w), at most ceil((w + R_j − Access_j)/T_j) of them. If
// x < Access_j and there is one job more, its last job arrives at s + w −
// (Access_j − x) or later and does at most Access_j − x of work there: the
// first and the last job together do at most Access_j ≤ C0_j of work and
// at most x/b + (Access_j − x)/b = Lines_j accesses, one job's worth. So
// ceil((w + J0_j)/T_j) jobs' C0_j and Lines_j bound j's work and accesses in
// the window. (The shorter jitter R_j − C0_j, the analogue of the classic
// R_j − C_j, bounds the work but not the accesses: when execution times
// vary, the carried-in job and the last one may both be short jobs made of
// little more than their accesses, 2·Lines_j accesses together.)
//
// Why the minimum. Each form bounds the work that the window must hold, so
// their minimum does, and the least fixed point of a non-decreasing bound
// on that demand bounds the window (Joseph and Pandya). The bound is never
// above the classic one for the same order: the minimum includes f_C, and
// the jitters R − C of suspending tasks above can only be smaller. The
// window form alone could be larger, by one job of a suspending task above
// (J0 ≥ J): TestResponseTimeWith shows such a case, and
// TestContentionBelowClassicAndMonotone checks the order on random cores.
// The iteration starts at C0 + S + B + Σ C0_j, below the least fixed point
// of both forms, and rises. It is Unbounded only when Σ C0_j/T_j ≥ 1 (then
// neither form has a fixed point); a term I that grows too fast shows as
// Exceeded, and so does, whatever the Limit, an iteration as soon as it
// passes the period (where the single-job analysis gives no bound anyway),
// so that it does not crawl to a far fixed point. R is then a lower bound.
//
// Priority assignment stays exact. I depends on the tasks above only
// through N, that is through their set and their jitters, not through their
// order, so the four facts of "Exact priority assignment" hold as stated:
// a task's response depends only on the set above it and their jitters
// (1); adding a task above or growing a jitter grows both forms, since I is
// non-decreasing in n (2); the upper test gives every unplaced suspending
// task J = D − C and J0 = D − Access, sound once it meets its deadline,
// and the lower test the smallest jitters the window form allows, J +
// max(0, S + B − (C − C0)) and J + S + B + C0 − Access (the response can be
// as low as J + C0 + S + B), so both bracket the final test (3); and 4
// follows from 2. OPA's own test uses the deadline-based jitters and is
// OPA-compatible. TestContendedExactPriorityAssignment checks the OPA
// policy against brute force over every order with a window-dependent I,
// TestContendedLowestJitters the lower test's jitters, and
// TestContentionEveryAccessIsClassic that a term charging every access
// reproduces the classic analysis.
//
// # Values that are no bound
//
// A value declared no bound is never used as an input of another bound.
// When the caller only has a lower bound for a task's C or S (hetmap: the
// GPU response the task waits for has no bound), it sets Task.NoBound: the
// task is reported InputUnbounded, and every task below it (and, under
// Explicit, every peer of equal priority) InterfererUnbounded, whether the
// task suspends (its jitter R − C is unknown) or busy-waits (its C is
// unknown). Likewise a suspending task whose own iteration gives no bound
// (Exceeded, Unbounded) leaves the tasks below it InterfererUnbounded. The
// R reported in these cases is what the iteration gives with the values at
// hand: a lower bound, useful to rank how badly a core fails.
//
// # Priority assignment
//
// Analyzer.Analyze assigns the priorities of one core by a Policy:
//
//   - OPA, the default: Audsley's optimal priority assignment (Audsley, "On
//     priority assignment in fixed priority scheduling", Information
//     Processing Letters 79(1), 2001), completed by an exact search where
//     OPA's test is stricter than the final one (see "Exact priority
//     assignment" below): an order is found whenever one passes the final
//     test. OPA fills the priority levels from the lowest up, each with a
//     task that meets its deadline when all still unassigned tasks have
//     higher priority. Deadline-monotonic order is not optimal once tasks
//     self-suspend: a suspending task with a long deadline may need to run
//     above a task with a shorter one.
//   - DeadlineMonotonic (Leung and Whitehead, "On the complexity of
//     fixed-priority scheduling of periodic, real-time tasks", Performance
//     Evaluation 2(4), 1982), optimal for independent tasks with D ≤ T and
//     without jitter, blocking or suspension.
//   - RateMonotonic (Liu and Layland, "Scheduling algorithms for
//     multiprogramming in a hard-real-time environment", Journal of the ACM
//     20(1), 1973).
//   - Explicit: the caller's priorities (Task.Priority, a higher value is
//     more urgent, as in Amalthea).
//
// Ties under DeadlineMonotonic and RateMonotonic are broken by the other
// parameter and then by task index, which yields a strict order the
// platform must then implement with distinct priorities.
//
// OPA requires an OPA-compatible test: a task's schedulability at a level
// may depend on the set of tasks above it but not on their relative order
// (Davis and Burns, "Improved priority assignment for global fixed priority
// pre-emptive scheduling in multiprocessor real-time systems", Real-Time
// Systems 47(1), 2011). The final test is not: the jitter R_j − C_j of a
// suspending interferer depends on j's own interferers and so on the order.
// OPA therefore assigns with the jitter D_j − C_j instead
// (Task.InterfererAtDeadline), an upper bound of R_j − C_j whenever j is
// schedulable: an order OPA finds passes the final test too, by induction
// from the highest priority down, and the reported response times are then
// recomputed from the top with the tighter R_j − C_j. But OPA's test is
// stricter than the final one, so OPA can fail on a core that has an order
// passing the final test. The OPA policy then searches the orders.
//
// # Exact priority assignment
//
// Under the OPA policy a core is declared unschedulable only when no strict
// priority order passes the final test; otherwise an order that passes is
// reported. Without self-suspending tasks the final test is OPA's own, and
// OPA decides it. With them, when OPA fails, a depth-first search fixes the
// levels from the most urgent down (Analyzer.searchOrder). It rests on four
// facts about the final test:
//
//  1. Prefix closure. A task's response time depends only on the tasks above
//     it and their order, so the task placed at a level keeps the response
//     time computed when it is placed, and the tasks not yet placed see the
//     prefix only through its set and the jitters R − C of its suspending
//     members (a non-suspending task's jitter is J in every order).
//  2. Monotonicity. A response time never decreases when an interferer is
//     added or an interferer's jitter grows.
//  3. Two OPA-compatible tests bracket the final one. Give every unplaced
//     suspending task the fixed jitter D − C (upper test) or the smallest
//     value its R − C can take below the prefix, max(J + S + B, R(prefix) −
//     C) with R(prefix) its response time with only the prefix above
//     (lower test). By 2, an order of the unplaced tasks that passes the
//     upper test passes the final test (each one's R − C is at most D − C
//     once it meets its deadline), and one that fails the lower test fails
//     the final test. Both have fixed jitters, so Audsley's algorithm
//     decides them exactly.
//  4. The bottom levels that OPA fills under the upper test keep their
//     tasks. If task x passes the upper test at the lowest level with all
//     other unplaced tasks above it, and some order passes the final test,
//     then moving x to the lowest level of that order still passes: the
//     tasks that were below x lose an interferer (by 2, none gets worse, and
//     suspending ones get smaller jitters), and x, now below all of them,
//     meets its deadline because every jitter above it is at most the upper
//     test's. By induction, every level OPA fills from the bottom before it
//     gets stuck may keep its task.
//
// So at each state (a prefix of levels) the search runs OPA under the upper
// test: if it fills every level, the order is found; the levels it fills
// are fixed (4) and only the remaining, stuck tasks are searched. If OPA
// under the lower test cannot order the stuck tasks, no completion exists
// (3) and the state is cut. Otherwise each stuck task that meets its
// deadline below the prefix is tried at the next level. Two more cuts never
// lose an order: a state whose set equals that of a state that already
// failed, with each suspending member's response time at least as large,
// fails too (1, 2; a memo of failed states); and a suspending task c is not
// placed directly below a non-suspending task x if c above x still lets x
// meet its deadline, because that swapped prefix has the same set, the same
// jitters except c's, which can only be smaller (2), and is explored
// itself. Suspending tasks are tried first and in deadline-monotonic order,
// then the others; the first order found is reported.
//
// Every other state is visited, so the search is exact when it ends. Its
// worst case is exponential in the number of stuck tasks (the orders of n
// tasks number n!), so it is bounded: after Analyzer.MaxSearchNodes states
// (DefaultMaxSearchNodes, 16 384) it stops, the core is reported with OPA's
// statuses, and Analyzer.Decided reports false, so that a caller never
// claims a proof it does not have. The bound is not reached in practice:
// TestExactPriorityAssignment checks the result against brute force over
// every order on 4 000 random cores of 2–7 tasks, TestSearchDecides runs
// random tight cores of 8–24 tasks with up to 6 suspending ones and
// requires a decision for each, and hetmap's cores carry at most one
// suspending task per asynchronously offloaded GPU task.
//
// When no order exists, the levels OPA could fill from the bottom keep
// their tasks, the remaining upper levels are filled in deadline-monotonic
// order, and every task still receives a response time and a Status, so the
// caller can see which tasks fail and by how much (Analyzer.OPALevels tells
// how far OPA got).
//
// Under Explicit, tasks with equal priority may be dispatched in either
// order, so each counts the others of its priority as higher-priority
// interference. The jitter of a suspending peer would then depend on the
// task's own response time, a circular dependency; a peer is therefore
// counted with its deadline-based jitter D − C. This is sound when every
// suspending member of the group meets its deadline, by the classic
// first-deadline-miss argument: until the first miss among them, each of
// their jobs executes within [arrival, arrival + D]. If a suspending member
// misses, the members that relied on such a jitter are reported
// InterfererUnbounded.
//
// # Sensitivity
//
// Sensitivity and SensitivityEach answer how far execution times may
// grow before a task fails its test, in one pass over its windows instead
// of a response-time analysis per trial factor (Bini, Di Natale and
// Buttazzo, "Sensitivity analysis for fixed-priority real-time systems",
// Real-Time Systems 39, 2008): with the parts e of the execution times
// scaled by λ, each form of the test grows by (λ − 1)·E(w), so the
// largest λ is 1 + max over the windows w and the two forms of
// (w − f(w))/E(w), taken at the right ends of the intervals on which the
// forms are constant (sensitivity.go). The jitters stay fixed, so where a
// suspending task's response, and with it its jitter, grows with λ, the
// factor is an upper bound; hetmap's margins use it as the start of a
// search that analyses again (TestSensitivityMatchesResponseTime checks
// it against ResponseTimeWith).
//
// # Performance
//
// The optimizer evaluates millions of mappings, so the hot path is free of
// allocation: ResponseTime works on a caller-provided slice of
// Interferers, and an Analyzer keeps reusable scratch buffers and writes
// results into a caller-provided slice. Only the error path and the exact
// utilisation check near 1 allocate.
//
// # Interferer classes
//
// Without a Contention term, the demand of the interferers in a window w is
//
//	Σ_j ceil((w + J_j)/T_j)·C_j = Σ_classes ceil((w + J)/T)·Σ_{j∈class} C_j,
//
// where a class holds the interferers of equal period T and jitter J. Task
// sets use few periods (the automotive benchmark of Kramer, Ziegenbein and
// Hamann, "Real world automotive benchmarks for free", WATERS 2015, draws
// from nine; a core of hetmap's synthetic 250-task system holds about 40
// tasks in 7 classes), so on cores of classMinTasks tasks or more the
// Analyzer iterates over classes: OPA's tests (the test of a candidate takes
// its C out of its class), the exact search's sub-OPA tests, and the final
// response times (a class set that grows by one task per rank). The
// iterates are the same integers, summed in another order, and so are the
// fixed points, the statuses and the utilisation test. The one value that
// depends on the order of the interferers is the R reported when an
// iteration passes its limit: the partial sum at which the task-by-task
// iteration noticed. The class iteration records the last two iterates, and
// a replay over the interferers in their order (passed.replay) computes that
// partial sum, so results are bit-identical. TestClassesEqualRespond checks
// the class iteration and its replay against the task-by-task one;
// TestClassesChangeNothing (here) and TestClassesChangeNothing (optimizer)
// check whole analyses against Analyzer.ByTask.
package rta
