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
// # Priority assignment
//
// Analyzer.Analyze assigns the priorities of one core by a Policy:
//
//   - OPA, the default: Audsley's optimal priority assignment (Audsley, "On
//     priority assignment in fixed priority scheduling", Information
//     Processing Letters 79(1), 2001). It fills the priority levels from
//     the lowest up, each with a task that meets its deadline when all
//     still unassigned tasks have higher priority, and it finds an order
//     whenever the test admits one. Deadline-monotonic order is not optimal
//     once tasks self-suspend: a suspending task with a long deadline may
//     need to run above a task with a shorter one.
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
// Systems 47(1), 2011). The response-time jitter R_j − C_j depends on j's
// own interferers and so on the order, so during the assignment a
// suspending interferer j is given the jitter D_j − C_j instead
// (Task.InterfererAtDeadline). It is an upper bound of R_j − C_j whenever j
// is schedulable, and OPA only accepts an order in which every task is, so
// the induction from the highest priority down makes the assignment sound.
// Once the order is fixed, the reported response times are recomputed from
// the highest priority down with the tighter R_j − C_j. When no level
// assignment exists for the test, the levels OPA could fill from the bottom
// keep their tasks, the remaining upper levels are filled in
// deadline-monotonic order, and every task still receives a response time
// and a Status, so the caller can see which tasks fail and by how much
// (Analyzer.OPALevels tells how far OPA got). Because the final analysis
// is tighter than the assignment test, such a fallback order may still
// turn out schedulable; Analyze reports the final statuses.
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
// # Performance
//
// The optimizer evaluates millions of mappings, so the hot path is free of
// allocation: ResponseTime works on a caller-provided slice of
// Interferers, and an Analyzer keeps reusable scratch buffers and writes
// results into a caller-provided slice. Only the error path and the exact
// utilisation check near 1 allocate.
package rta
