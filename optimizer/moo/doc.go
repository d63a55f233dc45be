// Package moo is hetmap's generic multi-objective machinery: problems over
// integer genes, Pareto utilities, an archive of non-dominated points, exact
// hypervolume, the NSGA-II genetic algorithm and an exhaustive enumeration
// driver. It knows nothing of tasks, cores or chains; package optimizer maps
// the WATERS model onto it.
//
// The package follows pymoo's split of a run into a problem, an algorithm, a
// termination and a result: a Problem says which values each gene may take
// and how a genome is evaluated; a Method (NSGA2 or Exhaustive) says how the
// space is searched; Settings holds the termination criteria and the run-wide
// options (seed, workers, progress, a context that interrupts the run), each
// with a documented zero-value default; Minimize runs them and returns a
// Result whose Status says why the run stopped. An interrupted run is not an
// error: its Result holds what was found until then (Status Interrupted).
//
// # Objectives and constraints
//
// Every objective is minimised. A genome is feasible when its Evaluation's
// Violation is 0; a positive Violation says by how much the constraints are
// missed. Genomes are compared by constraint domination (Deb 2000): a feasible
// genome beats an infeasible one, of two infeasible genomes the one with the
// smaller violation wins, and two feasible genomes are compared by Pareto
// dominance. Infeasible genomes thus never need an infinite objective.
//
// # NSGA-II
//
// NSGA2 is the elitist non-dominated sorting genetic algorithm of Deb et al.
// (2002): the parents and their offspring are sorted into fronts by
// non-dominated sorting (here the ENS-BS method of Zhang et al. 2015, which
// gives the same fronts as Deb's fast non-dominated sort in O(M·N log N)
// time at best instead of O(M·N²)), the next population is filled front by
// front, and the last front that fits only in part is cut by crowding
// distance. Parents
// are chosen by binary tournaments under constraint domination, then rank,
// then crowding distance. The genetic algorithm is an eaopt.Model run by
// eaopt's GA (github.com/MaxHalford/eaopt v0.4.2), which is single-objective:
// the model does the Pareto ranking itself and hands eaopt a scalar fitness,
// rank + 0.5/(1 + crowding distance), that orders the population the same
// way. Genes are integers that only ever take one of their allowed values:
// crossover (uniform or two-point) exchanges values between parents gene by
// gene, and mutation replaces a gene by another allowed value.
//
// A cache answers genomes evaluated before. It remembers the most recent
// NSGA2.CacheSize evaluations (first in, first out), so that memory stays
// flat however long a run is; within that window every distinct genome is
// evaluated once, and a genome bred again after it left the cache is
// evaluated again (Result.Evaluations counts every evaluation). Offspring that
// duplicate a member of the population or another offspring are discarded and
// bred again, as in pymoo's duplicate elimination, and so, unless
// NSGA2.Revisit is set, are offspring in the cache: each generation then
// spends its evaluations on genomes not seen recently. Genomes are found by a
// 64-bit hash and compared gene by gene when hashes are equal. Evaluations run
// in parallel on Settings.Workers workers, each with its own Evaluator from
// Problem.NewWorker, and overlap with breeding: each offspring goes to the
// workers as soon as it is bred (in small chunks), since breeding draws from
// the run's one generator and is done by one goroutine. Results are placed by
// index and recorded in order, the cache is used only from the goroutine
// that breeds, and every random choice is drawn from one generator seeded by
// Settings.Seed, so the same seed gives the same result whatever the number
// of workers.
//
// In steady state the model allocates nothing: the genomes of individuals
// that die are recycled for the next offspring, and the sorting, crowding
// and bookkeeping buffers are kept. What eaopt v0.4.2 does per generation
// remains (a goroutine per population, a sort.Slice, a clone into its hall
// of fame when the best fitness improves); its per-offspring
// Individual.Clone, which copies the genes and draws a random identifier, is
// replaced by a copy into a recycled genome that draws the same random
// numbers, so runs are unchanged.
//
// With four or more objectives nearly every member of a population is in
// the first front, and the crowding distance no longer tells crowded
// regions from sparse ones; NSGA2.Selection ReferenceSelection cuts the
// last front by reference directions instead (NSGA-III, Deb and Jain
// 2014): Das and Dennis's points on the unit simplex, the front normalised
// by its ideal point and the hyperplane through its extreme points, each
// member associated with its nearest direction, and the members kept one
// at a time for the directions that have the fewest.
//
// Settings.Stall ends a run once its front stops improving, as pymoo's
// default termination does (Blank and Deb 2020): every few generations the
// mean IGD+ distance (Ishibuchi et al. 2015) by which the archive's front of
// a window of generations before falls short of today's, in extents of the
// front; Settings.Generations and MaxEvaluations stay hard limits.
//
// Settings.Checkpoint saves NSGA-II's state at generation boundaries and
// continues a run from a saved state to the Result the uninterrupted run
// gives (see Checkpoint): each generation draws from its own generator,
// seeded from the run's base seed and the generation's number (SplitMix64),
// rather than from one generator whose state math/rand cannot save, and the
// state holds the population in its order, the cache, the archive, the
// least-violating points, the groups of variants offered, the stall window
// and the counters; a Problem whose Evaluators remember what results depend
// on, or whose evaluations carry payloads, saves and restores those through
// CheckpointProblem.
//
// The Archive keeps the feasible non-dominated points ever evaluated, not
// only those that survive in the population, so no good genome is lost to
// the population's finite size. With Settings.MaxFront it keeps at most
// that many, as an ε-dominance archive (Laumanns et al. 2002): objective
// space is cut into boxes whose widths ε, powers of two, double where the
// boxes are finest until the archive fits, and every point evaluated stays
// ε-dominated by one kept (Result.Epsilon says by how much). In many
// objectives nearly every point a search meets is non-dominated, so the
// exact archive, and all that follows from it, would grow with the search.
// An evaluation may also report variants of its genome that the Problem
// varies itself (Evaluation.Variants); they join the archive by group at the
// end of each batch, so that which worker found them does not matter.
//
// # Exhaustive enumeration
//
// Exhaustive walks the search space depth first over the genes, in an order
// the caller chooses, guided by a caller-supplied Walker per worker: a
// generator of the values a gene may take given the genes already assigned
// (where symmetric solutions are broken) and a pruning predicate that cuts a
// partial assignment no completion of which can matter (for example because
// it can no longer be feasible). When it completes, its front is the true
// Pareto front of what it visited. The workers share the enumeration tree out
// as they go (a worker that runs dry is handed the unvisited siblings of a
// busy one), and the result does not depend on how it was shared.
//
// # Hypervolume
//
// Hypervolume is the measure of the region dominated by a front and bounded
// by a reference point (Zitzler and Thiele 1998, 1999). It is computed
// exactly: by a sweep in two objectives, by slicing along the third objective
// (as HSO does) in three, and by the WFG algorithm of While, Bradstreet and
// Barone (2012) in more, which sums the exclusive contributions of the points
// sorted by their last objective so that each limit set loses a dimension.
// HypervolumeRatio compares a front with the exact one.
//
// # References
//
//   - K. Deb and H. Jain, "An evolutionary many-objective optimization
//     algorithm using reference-point-based nondominated sorting approach,
//     part I: solving problems with box constraints", IEEE Transactions on
//     Evolutionary Computation 18(4):577–601, 2014.
//   - I. Das and J. E. Dennis, "Normal-boundary intersection: a new method
//     for generating the Pareto surface in nonlinear multicriteria
//     optimization problems", SIAM Journal on Optimization 8(3):631–657,
//     1998.
//   - H. Ishibuchi, H. Masuda, Y. Tanigaki and Y. Nojima, "Modified
//     distance calculation in generational distance and inverted
//     generational distance", EMO 2015, LNCS 9019:110–125.
//   - M. Laumanns, L. Thiele, K. Deb and E. Zitzler, "Combining convergence
//     and diversity in evolutionary multiobjective optimization",
//     Evolutionary Computation 10(3):263–282, 2002.
//   - K. Deb, A. Pratap, S. Agarwal and T. Meyarivan, "A fast and elitist
//     multiobjective genetic algorithm: NSGA-II", IEEE Transactions on
//     Evolutionary Computation 6(2):182–197, 2002.
//   - K. Deb, "An efficient constraint handling method for genetic
//     algorithms", Computer Methods in Applied Mechanics and Engineering
//     186(2–4):311–338, 2000.
//   - E. Zitzler and L. Thiele, "Multiobjective optimization using
//     evolutionary algorithms — a comparative case study", PPSN V, 1998; and
//     "Multiobjective evolutionary algorithms: a comparative case study and
//     the strength Pareto approach", IEEE Transactions on Evolutionary
//     Computation 3(4):257–271, 1999.
//   - L. While, L. Bradstreet and L. Barone, "A fast way of calculating exact
//     hypervolumes", IEEE Transactions on Evolutionary Computation
//     16(1):86–95, 2012.
//   - J. Blank and K. Deb, "pymoo: Multi-objective optimization in Python",
//     IEEE Access 8:89497–89509, 2020.
//   - X. Zhang, Y. Tian, R. Cheng and Y. Jin, "An efficient approach to
//     nondominated sorting for evolutionary multiobjective optimization",
//     IEEE Transactions on Evolutionary Computation 19(2):201–213, 2015.
package moo
