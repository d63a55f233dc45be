package moo

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"sync"
	"sync/atomic"
	"time"
)

// Exhaustive is the method that enumerates the search space depth first,
// gene by gene, evaluating every complete genome it reaches. With no
// NewWalker it visits the whole cross product of the domains; its use is
// with one: a Walker's Values breaks symmetries (offering, say, only the
// first of several identical cores that are still unused) and its Prune cuts
// every partial assignment no completion of which can matter (say, because
// it can no longer be feasible), so that spaces far too large for the cross
// product can be searched exactly. Whatever Values and Prune leave out is the
// caller's responsibility: the front is the true Pareto front of the genomes
// visited, and when none of them is feasible, Result.LeastViolating lists the
// least violating of those visited (a cut genome is never evaluated).
//
// # Parallel enumeration
//
// The enumeration tree is split among Settings.Workers workers, each with its
// own Walker and Evaluator, by work sharing: a worker that runs out of work
// waits, and a busy worker that notices hands it the siblings it has not yet
// visited at its shallowest level that has some, a subtree of their own, so
// that subtrees of very different sizes still keep every worker busy. Every
// node of the tree is visited once, by one worker, whatever the split, and a
// result does not depend on the order in which its parts are merged (the
// archive and the least-violating points depend only on the set of points
// offered; counts are sums), so the Result is the same, bit for bit, with any
// number of workers (TestExhaustiveWorkers checks it).
//
// The tree is first split, in depth-first order, into at least frontierNodes
// top-level subtrees (the partial assignments of the shallowest depth that
// has that many), which the workers enumerate one after the other, sharing
// each as above: between two the state is well defined (the subtrees
// completed), which is where Settings.Checkpoint saves it. The wait for the
// last worker of each subtree has a cost: two workers took 10 to 30 % more
// wall time than without it on the time-slice WATERS enumeration (a shared
// machine). Without a Checkpoint that saves, the subtrees are all queued at
// once and no worker waits.
//
// With Settings.MaxEvaluations set, the enumeration stops at the first genome
// beyond the limit in depth-first order: to stop at the same genome whatever
// the number of workers, it then runs on one worker.
type Exhaustive struct {
	// Order is the order in which genes are assigned, a permutation of 0,
	// 1, …, NumGenes-1. The default, nil, is that order.
	Order []int

	// NewWalker returns a Walker for the exclusive use of one worker. Each
	// worker calls it once when a run starts, from its own goroutine but
	// one call at a time. Walkers of one run are used concurrently, so each
	// must hold its own scratch state. The default, nil, offers every gene
	// its whole domain and cuts nothing.
	NewWalker func() Walker
}

// Walker guides one worker of an Exhaustive enumeration. Its partial
// argument is a genome under construction: the genes Order[:depth] are
// assigned, the others hold unspecified values. Its methods must neither
// modify nor retain it.
//
// A Walker's answers must depend on partial and depth alone, and so be the
// same from every Walker of a run: a worker may take over a subtree whose
// ancestors another worker's Walker was asked about, so a Walker may keep
// scratch buffers but no memory of the calls before (such as a sum built up
// along the path).
type Walker interface {
	// Values appends to dst, and returns, the values gene Order[depth] may
	// take given the genes Order[:depth] of partial, in the order to visit
	// them: a subset, without repeats, of the gene's domain.
	Values(partial []int, depth int, dst []int) []int

	// Prune reports whether the partial assignment of the genes
	// Order[:depth] (1 ≤ depth ≤ NumGenes) is to be cut, with everything
	// below it; at depth NumGenes the genome is then not evaluated.
	// Result.Pruned counts the cuts.
	Prune(partial []int, depth int) bool
}

// domainWalker is the Walker of an Exhaustive without NewWalker: every gene
// takes its whole domain and nothing is cut.
type domainWalker struct {
	sp    *space
	order []int
}

func (w domainWalker) Values(_ []int, depth int, dst []int) []int {
	return append(dst, w.sp.values[w.order[depth]]...)
}

func (domainWalker) Prune([]int, int) bool { return false }

// flushEvery is how many evaluations a worker makes between two merges of
// its points and counts into the run's (and two progress reports).
const flushEvery = 64

// contextCheckNodes is how many nodes of the walk a worker visits between
// two updates of the count of children examined (Progress.Examined); the
// context itself is looked at every node (one atomic load).
const contextCheckNodes = 4096

// progressInterval is the longest time between two progress reports of
// Exhaustive while its workers walk without merging (when Prune cuts almost
// everything).
const progressInterval = 250 * time.Millisecond

// estimateProbes is how many random descents estimate the size of the
// walk for Progress.Done.
const estimateProbes = 256

// MaxEstimate is the largest size the estimates of an enumeration report:
// a walk of more nodes does not end in any useful time, and the probes stop
// once their mean is sure to exceed it (Progress.Size is then 0).
const MaxEstimate = 1e18

// looseEstimate is the relative standard error of the probes' mean above
// which the size estimate is too loose to tell the time left
// (Progress.Uncertain).
const looseEstimate = 0.25

// Estimate returns Knuth's estimate (see estimateExamined) of how many
// children the enumeration of problem p examines, nodes that Values offers
// whether Prune then cuts them or not, with a Walker of its own (from
// NewWalker, or every gene's whole domain) and random choices from rng. It
// lets a caller judge, before it runs, whether the enumeration will finish
// quickly; the estimate is rough, within a factor of a few on the WATERS
// problems. It is EstimateUpTo with MaxEstimate.
func (x *Exhaustive) Estimate(p Problem, rng *rand.Rand) (float64, error) {
	est, _, err := x.EstimateUpTo(p, rng, MaxEstimate)
	return est, err
}

// EstimateUpTo is Estimate that stops as soon as the estimate is sure to
// exceed limit (the probes' mean can only grow as they go on): over then
// reports it, and est is a lower bound of the estimate, more than limit.
// Its cost is then about that of the first probes, whatever the size of
// the space.
func (x *Exhaustive) EstimateUpTo(p Problem, rng *rand.Rand, limit float64) (est float64, over bool, err error) {
	sp, err := newSpace(p)
	if err != nil {
		return 0, false, err
	}
	order, err := x.order(sp.n)
	if err != nil {
		return 0, false, err
	}
	wk, err := x.walker(sp, order)
	if err != nil {
		return 0, false, err
	}
	e := estimateExamined(sp, order, wk, rng, limit, nil)
	return e.mean, e.over, nil
}

// sizeEstimate is what estimateExamined found.
type sizeEstimate struct {
	mean float64 // the estimate: the probes' mean
	rse  float64 // the relative standard error of the mean
	over bool    // the mean is sure to exceed the limit: mean is a lower bound
	cut  bool    // stop ended the probes early: mean is of those done
}

// estimateExamined estimates how many children the walk examines (Values
// offers them; Prune then cuts some), by Knuth's estimator of the size of
// a backtrack tree (D. E. Knuth, "Estimating the efficiency of backtrack
// programs", Mathematics of Computation 29(129):121–136, 1975): a probe
// descends from the root, at each node into one of the children that
// Prune keeps, chosen at random; the number of children at a node, times
// the product of the kept children of the nodes above it, is an unbiased
// estimate of the children examined at that depth. The mean over
// estimateProbes probes is returned, with its relative standard error.
// Pruning makes subtrees unequal, so the estimate is rough (on the WATERS
// problems within a factor of 2 of the truth, but its distribution has a
// heavy tail, and the standard error then says so), but it costs a few
// thousand Prune calls. The probes stop once their sum is sure to make
// the mean exceed limit (over), and when stop, if not nil, says so (cut),
// looked at before every Prune call. The probes use the Walker wk and
// draw from rng; Result.Pruned does not count their cuts.
func estimateExamined(sp *space, order []int, wk Walker, rng *rand.Rand, limit float64, stop func() bool) sizeEstimate {
	n := sp.n
	partial := make([]int, n)
	for i, vals := range sp.values {
		partial[i] = vals[0]
	}
	var buf, kept []int
	total, squares := 0.0, 0.0
	probes := 0
	for probes < estimateProbes {
		weight, sum := 1.0, 0.0
		for depth := 0; depth < n; depth++ {
			gene := order[depth]
			buf = wk.Values(partial, depth, buf[:0])
			sum += weight * float64(len(buf))
			if total+sum > limit*estimateProbes {
				return sizeEstimate{mean: (total + sum) / estimateProbes, over: true}
			}
			kept = kept[:0]
			for _, v := range buf {
				if stop != nil && stop() {
					if probes == 0 {
						return sizeEstimate{cut: true}
					}
					return sizeEstimate{mean: max(1, total/float64(probes)), cut: true}
				}
				partial[gene] = v
				if !wk.Prune(partial, depth+1) {
					kept = append(kept, v)
				}
			}
			if len(kept) == 0 {
				break
			}
			weight *= float64(len(kept))
			partial[gene] = kept[rng.Intn(len(kept))]
		}
		total += sum
		squares += sum * sum
		probes++
	}
	mean := total / estimateProbes
	est := sizeEstimate{mean: max(1, mean)}
	if mean > 0 {
		variance := max(0, squares/estimateProbes-mean*mean) * estimateProbes / (estimateProbes - 1)
		est.rse = math.Sqrt(variance/estimateProbes) / mean
	}
	return est
}

// order is the enumeration's order of the n genes: Order, checked to be a
// permutation, or the genes in their own order.
func (x *Exhaustive) order(n int) ([]int, error) {
	order := x.Order
	if order == nil {
		order = make([]int, n)
		for i := range order {
			order[i] = i
		}
	}
	if len(order) != n {
		return nil, fmt.Errorf("moo: enumeration order %v has %d genes, the problem %d", order, len(order), n)
	}
	placed := make([]bool, n)
	for _, g := range order {
		if g < 0 || g >= n || placed[g] {
			return nil, fmt.Errorf("moo: enumeration order %v is not a permutation of the genes 0 to %d", order, n-1)
		}
		placed[g] = true
	}
	return order, nil
}

// walker is a new Walker of the enumeration: NewWalker's, or the one that
// offers every value of each gene's domain and prunes nothing.
func (x *Exhaustive) walker(sp *space, order []int) (Walker, error) {
	if x.NewWalker == nil {
		return domainWalker{sp, order}, nil
	}
	wk := x.NewWalker()
	if wk == nil {
		return nil, errors.New("moo: Exhaustive.NewWalker returned nil")
	}
	return wk, nil
}

func (x *Exhaustive) minimize(r *run) (Status, error) {
	sp := r.sp
	order, err := x.order(sp.n)
	if err != nil {
		return NotTerminated, err
	}

	if r.interrupted() {
		return Interrupted, nil
	}
	workers := len(r.workers)
	if r.set.MaxEvaluations > 0 {
		workers = 1
	}
	e := &enumeration{r: r, order: order, maxEvaluations: r.set.MaxEvaluations, walkers: workers, flushed: make(chan struct{}, 1)}
	r.exhaustive = true
	// Progress.Done: the children examined (Values offered them) over an
	// estimate of how many the walk examines in all, which grows so that
	// 5 % always remains until the walk ends. The estimate uses a Walker of
	// its own, before the workers start. It is uncertain (no time left
	// can be told from it) when the probes disagree, when it exceeds
	// MaxEstimate, and once the walk has examined more than it.
	estimate, loose := 0.0, true
	if r.set.Progress != nil {
		wk, err := x.walker(sp, order)
		if err != nil {
			return NotTerminated, err
		}
		r.stage(StageEstimate, 0, 0, time.Now())
		est := estimateExamined(sp, order, wk, r.set.Rand, MaxEstimate, r.interrupted)
		if est.cut {
			return Interrupted, nil
		}
		if !est.over {
			estimate, loose = est.mean, est.rse > looseEstimate
		}
	}
	setDone := func() {
		examined := float64(e.examined.Load())
		r.examined, r.size, r.cuts = int64(examined), estimate, int(e.cuts.Load())
		r.uncertain = loose || examined > estimate
		if estimate > 0 {
			r.done = max(r.done, examined/max(estimate, examined/0.95))
		}
	}
	e.setDone = setDone
	e.cond.L = &e.mu
	// The enumeration runs its top-level subtrees (frontier) one after the
	// other, every worker sharing each; between two the state is that of
	// the subtrees completed, which a checkpoint saves and a resumed run
	// restores, to go on with the next. The frontier is the same in every
	// run: Values and Prune depend on the partial assignment alone.
	wk, err := x.walker(sp, order)
	if err != nil {
		return NotTerminated, err
	}
	frontier, examined, pruned, ok, err := e.frontier(wk)
	switch {
	case err != nil:
		return NotTerminated, err
	case !ok:
		return Interrupted, nil
	}
	first := 0
	cp := r.set.Checkpoint
	if cp != nil && len(cp.Resume) > 0 {
		if first, err = e.restoreState(cp.Resume, frontier); err != nil {
			return NotTerminated, err
		}
	} else {
		r.pruned += pruned
		e.examined.Add(int64(examined))
		e.cuts.Add(int64(pruned))
	}
	if e.maxEvaluations > 0 {
		e.emitted = r.analyses // one worker: its analyses are the run's
	}
	if err := e.runSubtrees(x, frontier, first, workers, cp); err != nil {
		return NotTerminated, err
	}
	if e.err == nil && !e.interrupted.Load() && !e.limited {
		e.mu.Lock()
		setDone()
		r.done = 1 // the walk is complete
		r.progress()
		e.mu.Unlock()
	}
	switch {
	case e.err != nil:
		return NotTerminated, e.err
	case e.interrupted.Load():
		return Interrupted, nil
	case e.limited:
		return EvaluationLimit, nil
	}
	return Exhausted, nil
}

// runSubtrees runs the top-level subtrees frontier[first:] on workers
// workers, one after the other (all at once when no checkpoint is saved),
// saving a checkpoint between two where cp says one is due; it stops at an
// error, an interrupt or the evaluation limit (in e). The error is the
// checkpoint's.
func (e *enumeration) runSubtrees(x *Exhaustive, frontier []task, first, workers int, cp *Checkpoint) error {
	r := e.r
	walks := make([]*walk, workers)
	saving := cp != nil && cp.Save != nil && cp.Due != nil
	for k := first; k < len(frontier); k++ {
		e.queue, e.idle, e.over = []task{frontier[k]}, 0, false
		if !saving {
			// No state to save: every subtree is queued at once, and
			// no worker waits for another between two.
			e.queue, k = frontier[k:], len(frontier)-1
		}
		e.wanted()
		e.runWorkers(x, walks)
		if e.err != nil || e.interrupted.Load() || e.limited {
			return nil
		}
		if saving && k+1 < len(frontier) && cp.Due(k+1) {
			state, err := e.saveState(frontier, k+1)
			if err == nil {
				err = cp.Save(state, Progress{Generation: k + 1, Evaluations: r.evaluations, Elapsed: time.Since(r.start)})
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// runWorkers runs the workers on the task queued until the enumeration is
// over, reporting progress meanwhile. walks[i] is worker i's walk, made in
// its goroutine at the first call (with its own Walker) and kept for the
// next.
func (e *enumeration) runWorkers(x *Exhaustive, walks []*walk) {
	r := e.r
	done := make(chan struct{})
	var wg sync.WaitGroup
	for i := range walks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					e.fail(fmt.Errorf("moo: enumeration walker panicked: %v", v))
				}
			}()
			if walks[i] == nil {
				// Each worker makes its Walker and scratch state in its
				// own goroutine: the Go allocator serves each processor
				// from its own spans, so the small buffers that two
				// workers write at every node do not end up side by side
				// in one cache line (which made two workers spend 25 to
				// 45 % more processor time on the time-slice WATERS
				// enumeration than one).
				w := Walker(domainWalker{r.sp, e.order})
				if x.NewWalker != nil {
					e.mu.Lock() // one call at a time
					w = x.NewWalker()
					e.mu.Unlock()
					if w == nil {
						e.fail(errors.New("moo: Exhaustive.NewWalker returned nil"))
						return
					}
				}
				walks[i] = newWalk(e, w, r.workers[i])
				walks[i].emitted = e.emitted
			}
			walks[i].work()
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	// Progress is reported from the run's goroutine, as Settings
	// promises, whenever a worker has merged its points, and at least
	// every progressInterval while they only cut, with the run's state
	// locked so that it is consistent.
	tick := time.NewTicker(progressInterval)
	defer tick.Stop()
	for finished := false; !finished; {
		select {
		case <-e.flushed:
		case <-tick.C:
		case <-done:
			finished = true
		}
		if !finished {
			e.mu.Lock()
			if e.err == nil {
				e.setDone()
				r.progress()
			}
			e.mu.Unlock()
		}
	}
}

// enumeration is the state the workers of an Exhaustive run share.
type enumeration struct {
	r              *run
	order          []int
	maxEvaluations int // Settings.MaxEvaluations; then there is one worker
	walkers        int
	emitted        int    // with a limit, the analyses of a resumed run's checkpoint
	setDone        func() // sets the run's Progress.Done and counts; e.mu held

	mu     sync.Mutex  // guards what follows, and r's archive and counts
	cond   sync.Cond   // signalled when a task is queued or the run ends
	queue  []task      // tasks waiting for a worker, oldest first
	idle   int         // workers waiting for a task
	over   bool        // no more tasks will come: every worker is to stop
	err    error       // the first error
	hungry atomic.Bool // a worker waits for a task: a busy one is to share

	limited     bool          // the run stopped at the evaluation limit
	flushed     chan struct{} // a worker merged its points
	stop        atomic.Bool   // a worker failed, or the run was interrupted: every worker is to stop
	interrupted atomic.Bool   // Settings.Context ended the run
	examined    atomic.Int64  // children examined so far, for Progress.Done
	cuts        atomic.Int64  // cuts so far, flushed or not, for Progress.Pruned
}

// task is a part of the enumeration tree: the siblings vals of gene
// Order[depth] below the genes Order[:depth] of partial, with their
// subtrees. The root task has depth 0 and nil vals, which the worker asks of
// its Walker.
type task struct {
	partial []int
	depth   int
	vals    []int
}

// take returns the next task, waiting for one while other workers work, or
// false when the enumeration is over: every worker is waiting, so no task
// will come, or the run has stopped.
func (e *enumeration) take() (task, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.queue) == 0 && !e.over {
		if e.idle == e.walkers-1 {
			e.over = true
			e.wanted()
			e.cond.Broadcast()
			break
		}
		e.idle++
		e.wanted()
		e.cond.Wait()
		e.idle--
	}
	if e.over {
		return task{}, false
	}
	t := e.queue[0]
	e.queue[0] = task{}
	e.queue = e.queue[1:]
	e.wanted()
	return t, true
}

// wanted sets hungry: whether a worker waits and no task waits for it. One
// task at a time is queued, so that a worker that shares keeps half of its
// work while the waiting worker wakes up, rather than sharing again and
// again and then, having little left, taking its own shares back.
func (e *enumeration) wanted() {
	e.hungry.Store(e.idle > 0 && len(e.queue) == 0 && !e.over)
}

// give queues the task t makes for a waiting worker, if one still wants it.
func (e *enumeration) give(t func() task) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hungry.Load() {
		e.queue = append(e.queue, t())
		e.wanted()
		e.cond.Signal()
	}
}

// interrupt stops every worker because Settings.Context is done; what the
// workers found so far is merged as usual.
func (e *enumeration) interrupt() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.interrupted.Store(true)
	e.stop.Store(true)
	e.over = true
	e.wanted()
	e.cond.Broadcast()
}

// fail records err, if it is the first, and stops every worker.
func (e *enumeration) fail(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		e.err = err
	}
	e.stop.Store(true)
	e.over = true
	e.wanted()
	e.cond.Broadcast()
}

// walk is one worker of an enumeration: its Walker and Evaluator, the path
// it is on, and the points and counts it has not yet merged into the run's.
type walk struct {
	e      *enumeration
	sp     *space
	walker Walker
	ev     Evaluator

	partial []int
	base    int     // the depth of the current task
	vals    [][]int // vals[d]: the values of gene Order[d] on the path
	next    []int   // next[d]: the index in vals[d] of the next sibling
	end     []int   // end[d]: where this worker stops in vals[d]
	stamp   [][]int // stamp[g][k]: the last call to Values that offered value k of gene g
	calls   int

	eval                                    Evaluation
	archive                                 *Archive
	least                                   leastViolating
	evaluations, analyses, feasible, pruned int
	unflushed, emitted                      int
	nodes, examined                         int // nodes since the last count; children not yet counted in e.examined
	cutsCounted                             int // of pruned, those counted in e.cuts
}

func newWalk(e *enumeration, wk Walker, ev Evaluator) *walk {
	sp := e.r.sp
	w := &walk{e: e, sp: sp, walker: wk, ev: ev, partial: make([]int, sp.n), nodes: contextCheckNodes - 1, // the first node looks at the context
		vals: make([][]int, sp.n), next: make([]int, sp.n), end: make([]int, sp.n), stamp: make([][]int, sp.n),
		eval: Evaluation{Objectives: make([]float64, sp.m)}, archive: NewArchive(sp.m), least: leastViolating{k: e.r.least.k}}
	for g := range w.stamp {
		w.stamp[g] = make([]int, len(sp.values[g]))
	}
	return w
}

// work runs tasks until the enumeration is over.
func (w *walk) work() {
	for {
		t, ok := w.e.take()
		if !ok {
			return
		}
		copy(w.partial, t.partial)
		w.base = t.depth
		if t.vals == nil {
			if !w.values(t.depth) {
				return
			}
		} else {
			w.vals[t.depth] = append(w.vals[t.depth][:0], t.vals...)
		}
		complete := w.visit(t.depth)
		w.flush()
		if !complete {
			return
		}
	}
}

// values asks the Walker for the values of gene Order[depth] into
// vals[depth] and checks them; false means the run has failed.
func (w *walk) values(depth int) bool {
	gene := w.e.order[depth]
	vals := w.walker.Values(w.partial, depth, w.vals[depth][:0])
	w.vals[depth] = vals
	w.calls++
	for _, v := range vals {
		k, ok := w.sp.index[gene][v]
		if !ok {
			w.e.fail(fmt.Errorf("moo: enumeration offers gene %d the value %d, not one of %v", gene, v, w.sp.values[gene]))
			return false
		}
		if w.stamp[gene][k] == w.calls {
			w.e.fail(fmt.Errorf("moo: enumeration offers gene %d the value %d twice", gene, v))
			return false
		}
		w.stamp[gene][k] = w.calls
	}
	return true
}

// visit enumerates the values vals[depth] of gene Order[depth] and their
// subtrees, depth first, and reports whether it got to the end (rather than
// stopping at the evaluation limit or a failure). While another worker waits
// for work it hands over the siblings it has yet to visit.
func (w *walk) visit(depth int) bool {
	e := w.e
	n := len(w.partial)
	gene := e.order[depth]
	w.end[depth] = len(w.vals[depth])
	for i := 0; i < w.end[depth]; i++ {
		w.next[depth] = i + 1
		if e.stop.Load() {
			return false
		}
		if e.r.interrupted() {
			e.interrupt()
			return false
		}
		w.examined++
		if w.nodes++; w.nodes == contextCheckNodes {
			w.nodes = 0
			e.examined.Add(int64(w.examined))
			w.examined = 0
			e.cuts.Add(int64(w.pruned - w.cutsCounted))
			w.cutsCounted = w.pruned
		}
		if e.hungry.Load() {
			w.share(depth)
		}
		w.partial[gene] = w.vals[depth][i]
		if w.walker.Prune(w.partial, depth+1) {
			w.pruned++
			continue
		}
		if depth+1 == n {
			if !w.leaf() {
				return false
			}
			continue
		}
		if !w.values(depth+1) || !w.visit(depth+1) {
			return false
		}
	}
	return true
}

// share hands the later half of the siblings not yet visited at the
// shallowest level of the path that has some, with their subtrees, to a
// waiting worker; near the root, subtrees are largest. The values of the
// genes above that level are those of the path in partial.
func (w *walk) share(depth int) {
	for d := w.base; d <= depth; d++ {
		if left := w.end[d] - w.next[d]; left > 0 {
			w.e.give(func() task {
				keep := w.next[d] + left/2
				t := task{partial: append([]int(nil), w.partial...), depth: d,
					vals: append([]int(nil), w.vals[d][keep:w.end[d]]...)}
				w.end[d] = keep
				return t
			})
			return
		}
	}
}

// leaf evaluates the complete genome in partial and keeps it in the
// worker's archive or least-violating points. It returns false when the run
// is to stop: at the genome beyond the evaluation limit, or on an invalid
// evaluation.
func (w *walk) leaf() bool {
	if w.e.maxEvaluations > 0 && w.emitted >= w.e.maxEvaluations {
		w.e.mu.Lock()
		w.e.limited = true
		w.e.mu.Unlock()
		return false
	}
	ev := &w.eval
	// emitted counts analyses: with a limit (one worker) the genome may
	// cost what remains after its own.
	ev.EvaluationsLeft, ev.Unlimited = 0, true
	if w.e.maxEvaluations > 0 {
		ev.EvaluationsLeft, ev.Unlimited = w.e.maxEvaluations-w.emitted-1, false
	}
	if err := evaluateOne(w.ev, w.partial, ev); err != nil {
		w.e.fail(err)
		return false
	}
	if err := w.sp.checkEvaluation(w.partial, ev); err != nil {
		w.e.fail(err)
		return false
	}
	w.evaluations++
	w.analyses += 1 + ev.Cost
	w.emitted += 1 + ev.Cost
	p := Point{Genome: w.partial, Evaluation: *ev}
	if ev.Feasible() {
		w.feasible++
		w.archive.Add(p)
	} else {
		w.least.add(p)
	}
	ev.Payload = nil
	if w.unflushed++; w.unflushed == flushEvery {
		w.flush()
	}
	return true
}

// flush merges the worker's points and counts into the run's and tells the
// goroutine that reports progress.
func (w *walk) flush() {
	r := w.e.r
	w.e.mu.Lock()
	for _, p := range w.archive.points {
		r.archive.Add(p)
	}
	for _, p := range w.least.points {
		r.least.add(p)
	}
	r.evaluations += w.evaluations
	r.analyses += w.analyses
	r.feasible += w.feasible
	r.pruned += w.pruned
	w.e.examined.Add(int64(w.examined))
	w.examined = 0
	w.e.cuts.Add(int64(w.pruned - w.cutsCounted))
	w.cutsCounted = 0
	w.e.mu.Unlock()
	w.archive.reset()
	w.least.reset()
	w.evaluations, w.analyses, w.feasible, w.pruned, w.unflushed = 0, 0, 0, 0, 0
	select {
	case w.e.flushed <- struct{}{}:
	default:
	}
}
