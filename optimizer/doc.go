// Package optimizer searches for the best mappings of a system's tasks to
// processing units. It states the search as a moo.Problem (Problem) over
// the genes of a mapping, drives the algorithms of optimizer/moo on it
// (Run), and returns what a search found as an Outcome: the front of
// non-dominated feasible mappings, each Point with its mapping and its
// analysis, or the least-violating mappings when none is feasible, and
// what the run proved (Outcome.Proof). The analysis of one mapping is
// package evaluate's (optimizer/evaluate, a layer below): the search
// evaluates every mapping it meets with an evaluate.Evaluator (one per
// worker, made with evaluate.Options: rta.LimitRank and the relaxed test
// first for the genetic search's workers, rta.LimitDeadline for the
// exhaustive search's cuts, the run's stop for both) and ranks its
// evaluate.Analysis; it asks the model's facts of evaluate.Model.
//
// Run takes its settings as one value: the configuration's search settings
// with the Options' overrides (algorithm, seed, workers), resolved once
// (problemOf, then chooseAlgorithm for auto) into the Problem's settings,
// from which runSettings derives moo's. The Problem says what is searched
// and does not change during a run; what a run changes (its workers, its
// stop, why auto chose its algorithm, what a checkpoint it continues had
// met) is a runState that Run makes at its start. NewProblem decides the
// problem in steps, one function each: the base mapping, the objectives,
// the time-slice grid, the interchangeable cores, the tasks whose orders
// matter and the genes.
//
// # Model and assumptions
//
// A mapping is feasible when evaluate's analysis shows it schedulable and
// every chain latency requirement met; every objective is minimised. The
// exactness claims of the exhaustive search rest on properties of that
// analysis, each stated and tested where it is used below: the analysis
// never improves when a task is added to a partial mapping (under the
// refined counts, the relaxed test of evaluate.Evaluator.EvaluatePartial
// never does), interchangeable cores (same kind, frequency and memory
// latencies) give the same analysis, the objectives depend on response
// times only through chain members' worst-case response times and never
// decrease when one grows, and evaluate's priority-order variants and
// joint orders enumerate every order that can change an objective (within
// their limits). A run is reproducible: every random choice comes from the
// search's one seed.
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
// given an objective but a Violation (Σ (R − D) in ms, a task without a bound
// counted with its period; evaluate.Analysis.Violation), and is ranked by it
// (constraint domination, Deb 2000).
//
// Run drives two algorithms of optimizer/moo:
//
//   - NSGA-II (Deb et al. 2002) on eaopt. The WATERS platform is so full that
//     random mappings are practically never feasible (none in two million
//     samples under the sound contention convention), and a task often fits
//     only where another one leaves. So the first population is opened with
//     the model's own mapping and with randomised depth-first constructions
//     that backtrack out of unschedulable partial mappings (Construct),
//     judged by the search's own count (under the refined counts the
//     exhaustive search's relaxed test, which cuts no partial mapping that
//     has a feasible completion: the feasible mappings of WATERS fall
//     apart into groups that no mapping of another reaches by moving one
//     task or swapping two, and the search meets a group only where a
//     construction lands in it), and
//     offspring are also mutated by swapping two tasks' units
//     (SwapMutation). The constructions run on the search's workers: each
//     genome draws from its own generator, seeded before any is built, and
//     spends at most its share of the budget; the slice descents they share
//     start from seeds of their own, so a descent's result and cost do not
//     depend on which worker runs it (TestConstructionsAcrossWorkers).
//     Every random choice comes from the search's one seed; the same seed
//     gives the same front with any number of workers. With four
//     objectives or more (search.selection auto), survival cuts the last
//     front by reference directions (NSGA-III, moo.ReferenceSelection)
//     rather than by crowding distance. At equal budgets (analyses, no
//     stall window), over seeds 1–10, with one reference point per system
//     (10 % beyond the worst of every front), its fronts had the larger
//     hypervolume in 8 of 10 seeds on the synthetic system of 60 tasks (8
//     chains, 300 000 analyses: mean 4.4037e17 against 4.3985e17 ms⁸) and
//     in 10 of 10 on that of 250 tasks (60 000 analyses: 4.6802e16 ± 1.8e13
//     against 4.5479e16 ± 7e14), measured with the synchronous-release chain
//     objectives and the earlier constructions; on WATERS, with the
//     any-offset objectives and today's constructions, both selections
//     reach the exact front (22 points) for 10 seeds of 10 at 100 000
//     analyses, and reference directions with the default stall window too
//     (go test ./optimizer -run TestCompareSelections -selections
//     waters,60,250 repeats the comparison and prints its table). The
//     search stops once its front stops
//     improving (search.stall_generations and stall_tolerance, moo.Stall),
//     search.generations and max_evaluations being hard limits; with the
//     defaults it reaches the exact front of the built-in WATERS model for
//     the seeds 1–10 (TestDefaultGeneticSearchReachesWatersFront).
//   - Exhaustive enumeration (Exhaustive): every distinct mapping once.
//     Identical cores (same kind, frequency and DRAM latencies) are
//     interchangeable: a task may go to a core of such a class only if an
//     earlier task uses it or it is the class's first unused core. Genes
//     that do not matter under the others (the offloading task and mode of a
//     GPU task merged onto a core) take one value. The GPU genes come first
//     and then the CPU tasks, heaviest first. A value that would leave a
//     core above its capacity before any contention the placements to come
//     can add is not offered (walker.Values, loads: Σ DemandBound/T > 1 on
//     the core, or on another core whose line latency the placement raises
//     under the challenge count), since every analysis finds such a core
//     unschedulable; a partial mapping is cut as soon as
//     evaluate.Evaluator.Refutes finds it unschedulable (see
//     "Why the cut is sound"; under the refined counts, "The exhaustive
//     search's cut under the refined counts" below). The workers share the
//     enumeration tree out, each with its own walker (an evaluate.Evaluator
//     clone for the partial mappings); the front and the counts are the same
//     with any number of workers.
//
// Priority orders. Priorities are derived, one order per core that passes
// the final test whenever one exists (rta, "Exact priority assignment"). But
// a core often has several such orders, which trade its tasks' response
// times against each other, and a user who gives priorities explicitly can
// reach objective values the derived order does not. So for every feasible
// mapping it meets, the search also evaluates the mapping under the other
// orders that can matter (evaluate.Evaluator.PriorityVariants): per core,
// the feasible orders whose WCRTs of the tasks an objective depends on are
// Pareto-minimal, combined across cores. Objectives depend on response times
// only through chain members' WCRTs and never decrease when one grows, and a
// core's feasible orders do not depend on the other cores' orders
// (contention counts cores, not orders; the GPU analyses do not depend on
// CPU priorities), so every other combination is dominated by one of these.
// The front (Outcome.Front) is taken over mappings together with their
// orders; a point that needs other priorities than the derived ones has them
// in its mapping, where hetmap analyze uses them.
//
// Budgets. search.max_evaluations bounds every analysis a search makes: a
// genome counts one, plus what its priority-order variants or joint orders
// cost (evaluate.Budget: every evaluation one, the order enumerations one
// per len(tasks) task-level steps), reported as moo.Evaluation.Cost within
// the moo.Evaluation.EvaluationsLeft the run gives it (no bound where it
// is Unlimited: search.max_evaluations 0, moo.NoLimit); the initial
// constructions count what they analyse. NSGA-II leaves every genome of a
// batch of n ⌊(remaining − n)/n⌋, never more than an earlier batch's, so a
// batch cannot exceed the budget, and a mapping first met with some left is
// never met later with more: what the workers keep of it is what the first
// meeting kept, whichever worker that was, and a genome's cost does not
// depend on what its worker remembers (charge), so runs with any number of
// workers stop at the same point with the same front (TestCostBudget in
// moo, TestCostIndependentOfMemory, TestBudgetAcrossWorkers). The genetic
// search allows the variants of one mapping at most maxVariantAnalyses
// (16) analyses. Where cores have up to 8 tasks, as on the synthetic
// system of 60 tasks (8 chains), a mapping's variants uncapped cost up to
// 8! orders per core and 4 096 combinations, and nearly every feasible
// mapping spends whatever it is allowed on the enumeration of the orders
// of its first core whose tasks an objective depends on, which leaves few
// analyses for the combinations. The cap was first 64, chosen at equal
// numbers of analyses against uncapped variants and at equal generations
// against 8; but a default run ends when its front stops improving, and
// there a cap of 64 made a feasible mapping cost about 50 analyses (98 %
// of them the variants) for fronts of lower hypervolume. Default runs of the
// 60-task system (refined count, seeds 1 and 2, one worker, no margins;
// hypervolume in ms⁸ against one reference point, 10 % beyond the worst
// value of every objective over the eight fronts; CPU time on a shared
// 2-core machine):
//
//	allowance  hypervolume (mean, min – max)          front  variants in it  analyses   generations  CPU s
//	64         2.0883e18 (2.0879e18 – 2.0887e18)      134.5  103.5           2 959 198  562          189.2
//	16         2.1683e18 (2.1235e18 – 2.2131e18)      145.5   57.5             927 738  632           58.0
//	8          2.1580e18 (2.1263e18 – 2.1898e18)      177.5   35.0             518 868  650           38.1
//	0          2.1539e18 (2.1351e18 – 2.1728e18)      148.0    0.0              62 124  590           13.2
//
//	go test ./optimizer -run TestCompareVariantBudgets -variant-budgets 64,16,8,0 -variant-systems 60 -variant-seeds 2 -timeout 3h -v
//
// 16 keeps a variant in two fifths of the front's points at under a third
// of 64's cost. On WATERS every mapping's variants fit within it (they
// cost at most 9 analyses there), so its fronts are what they were. The
// exhaustive search, whose front is exact only when every mapping's orders
// are complete, allows them all unless search.max_evaluations is set, and
// then says that the front is not exact.
//
// Joint priority orders. Under the refined and request counts, and with
// tasks activated by tasks of other cores, the cores' priority orders
// interact (evaluate's documentation, "Joint priority orders"), and the
// exhaustive search uses evaluate.Evaluator.JointOrders twice. A mapping
// that misses a deadline under its derived orders, where the orders interact
// or a core's priority search stopped undecided, and that passes the relaxed
// test, is decided over its joint orders (worker.decide): feasible if one
// combination is, proven infeasible if none is, undecided if the enumeration
// was cut. A feasible mapping's joint orders replace its per-core variants
// (which assume independent cores, and so miss an order whose gain comes
// through another core: on WATERS, a point of the exact front is its
// mapping with an order of two cores that no per-core variant has). The
// genetic search, too, evaluates a feasible mapping's joint orders where
// every core has at most 8 tasks and the combinations are at most its cap
// of a mapping's variants (maxVariantAnalyses, 64), and its per-core
// variants, with what is left of the cap, where not; it does not decide
// the mappings that miss under their derived orders. TestExhaustiveEqualsJointBruteForce
// compares the exhaustive front with brute force over every genome under
// every combination of explicit orders on random small systems under the
// refined, request and challenge counts, and checks that a broken joint
// enumeration (each core keeping only its first order) gives a wrong front
// on some of them.
//
// # Why the cut is sound
//
// Under the challenge count. The GPU genes are all fixed before the first
// cut, so a completion of a partial mapping only adds tasks to cores. Adding
// a task never helps any task: a core's #C (the cores that access memory)
// and the copy engine's #C can only grow and bGPU is fixed, so every line
// latency, execution time and copy time can only grow; the GPU bounds are
// monotone in copy times (rta/gpu, Sustainability); and a core is declared
// unschedulable only when no priority order passes the final test, while any
// order that passes for a larger task set, restricted to the tasks of the
// partial mapping, passes for them too (each keeps a subset of its
// interferers, none with a larger C, S or jitter, by the monotonicity of the
// response-time fixed point). The bounds withdrawn for a missed assumption
// or a GPU response that is no bound stay withdrawn when tasks are added,
// since misses only persist. Offloading tasks not placed yet are absent and
// assumed to meet their deadlines, which the completion then checks. A
// partial mapping is cut when a core fails with its priority search decided
// (evaluate.Evaluator.Refutes): what fails in every order of that core
// fails in every completion, whatever another core's search left
// undecided; one that fails only where a search stopped undecided is not
// cut. So a cut partial mapping has no schedulable
// completion; TestExhaustiveEqualsBruteForce checks the whole claim, cut,
// symmetry, derived priorities and order variants, against a brute-force
// enumeration of every genome under every priority order on 150 small random
// systems (2–8 tasks, 2–3 cores, synchronous and asynchronous offloading,
// both GPU models), and TestExactFrontDominatesEveryOrder checks on
// configs/examples/waters-3obj.yaml that every mapping the enumeration
// reaches, under every priority order, is weakly dominated by the front.
//
// # The exhaustive search's cut under the refined counts
//
// The challenge count's argument for cutting a partial mapping that fails
// (placing more tasks only adds interference) does not carry over as such:
// the refined count uses other cores' response times, and adding a task to a
// core with derived priorities can change that core's order so that one of
// its tasks gets a smaller bound, which shrinks the contention it causes
// elsewhere. evaluate.Evaluator.EvaluatePartial therefore judges a partial
// mapping under the refined counts by a relaxed test that no completion can
// pass while it fails: every core under its policy (rta's exact assignment
// for OPA) with the window term, and every task on another core counted with
// a lower bound of its response time that neither an order nor another task
// can lower, its own execution time without contention plus its suspension
// (for a GPU task's copies, its best-case GPU job), and no memory phase cut
// by a preemption. A complete mapping that Evaluate shows schedulable passes
// this test (its cores' orders pass with sound bounds, which are at least
// these lower bounds, and the term is non-decreasing in them), and adding a
// task only adds demand to the test (a task above, accesses, an interferer's
// jobs, #C, GPU work). The test takes the cores the most utilised first and
// stops at the first that fails with its priority search decided
// (evaluate.Evaluator.Refutes); a partial mapping that fails only where a
// search stopped undecided is not cut. TestExhaustiveMatchesBruteForceRefined compares the
// exhaustive front with brute force over every genome on random small
// systems under both counts and both kinds of priorities, and checks that a
// deliberately unsound cut (judging partial mappings by the challenge count)
// gives a wrong front on some of them.
//
// # What a run returns
//
// Outcome.Proof says what a run proved, one typed value (Exactness, with
// the reasons and the undecided mappings) that every writer renders:
// Exact when the exhaustive search ran to the end, decided every mapping
// it reached under every priority order (joint orders where the cores'
// orders interact, or where a core's priority search stopped undecided),
// and enumerated every feasible mapping's orders that can change an
// objective; NotExact, with the reasons and the mappings left undecided,
// when a limit stopped one of these, or when tasks are activated by tasks
// of other cores (evaluate/activation.go); Heuristic for NSGA-II; Stopped
// for an interrupted run.
// The genetic search's front is bounded (search.max_front, default
// configs.DefaultMaxFront): with eight chain objectives nearly every
// mapping it meets is non-dominated, and everything after the search (the
// full analysis and margins of every point, the files, the report) grows
// with the front. Its archive is an ε-dominance archive (moo.Archive), the
// priority-order variants of the feasible mappings included (they join it
// through moo.Evaluation.Variants, grouped by the canonical mapping), and
// Outcome.Epsilon states the loss: every feasible mapping the search met,
// under any priority order it evaluated, has a reported point less than
// Epsilon[k] worse on every objective k. The exhaustive search's exact
// front is reported whole unless search.max_front is given; then it is
// thinned the same way (moo.Thin), and Proof says so.
// Outcome.FeasibleMappings counts the distinct feasible mappings the
// search met (up to interchangeable cores); for an exact run, every one
// that exists.
//
// Run takes a context: once it is done, the search stops (between
// generations, or every few thousand nodes of the enumeration) and Run
// returns what it found so far with Status moo.Interrupted, which is not
// exact. Once the search has ended, the front's points are analysed in
// full (an interrupted run still does, for frontGrace, a second: a bounded
// front takes less; points left then are dropped) and given their margins
// (which stop at once); Outcome.InterruptedIn names the stage the context
// ended, so that a Ctrl-C in any stage ends the run within about two
// seconds and says what it left out. When nothing is feasible, the least-violating mappings are listed
// once each, by violation, then by the utilisation of the busiest core (when
// every task of an overloaded core has no bound, each counts its period, so
// mappings that overload one core or another tie on the violation), then by
// the number of tasks that miss.
//
// Options.Checkpoint makes the genetic search save its state as it goes
// (every search.checkpoint_seconds, into the run's claim) and continue from
// a saved state (Checkpoint, moo.Checkpoint): a search resumed from any
// checkpoint ends with the outcome of the search that was not stopped, its
// counts included, since the Problem saves the feasible mappings its
// workers met (SaveState) and its variants' payloads. A checkpoint carries
// the SHA-256 of the configuration it was made with (the workers and the
// checkpoints' interval aside), and one of another configuration is refused
// (ErrCheckpoint), as is one of the other algorithm. A resumed genetic
// search makes no initial constructions. The exhaustive search saves its
// state between two of its top-level subtrees (moo.Checkpoint): the
// subtrees completed, their front, counts, the variants its workers kept
// and the mappings they left undecided (for the proof); a resumed one
// enumerates the subtrees after them, the one in progress again from its
// start (TestExhaustiveCheckpointResume).
package optimizer
