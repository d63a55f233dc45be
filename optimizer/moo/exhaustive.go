package moo

import (
	"fmt"
	"math/rand"
	"time"
)

// Exhaustive is the method that enumerates the search space depth first,
// gene by gene, evaluating every complete genome it reaches. With no Values
// and no Prune it visits the whole cross product of the domains; its use is
// with them: Values breaks symmetries (offering, say, only the first of
// several identical cores that are still unused) and Prune cuts every partial
// assignment no completion of which can matter (say, because it can no longer
// be feasible), so that spaces far too large for the cross product can be
// searched exactly. Whatever Values and Prune leave out is the caller's
// responsibility: the front is the true Pareto front of the genomes visited,
// and when none of them is feasible, Result.LeastViolating lists the least
// violating of those visited (a cut genome is never evaluated).
//
// Values and Prune are called from the goroutine that called Minimize, never
// concurrently; complete genomes are evaluated in batches on the workers.
// Their partial argument is a genome under construction: the genes
// Order[:depth] are assigned, the others hold unspecified values. They must
// neither modify nor retain it.
type Exhaustive struct {
	// Order is the order in which genes are assigned, a permutation of 0,
	// 1, …, NumGenes-1. The default, nil, is that order.
	Order []int

	// Values appends to dst, and returns, the values gene Order[depth] may
	// take given the genes Order[:depth] of partial, in the order to visit
	// them: a subset, without repeats, of the gene's domain. The default,
	// nil, offers the whole domain.
	Values func(partial []int, depth int, dst []int) []int

	// Prune reports whether the partial assignment of the genes
	// Order[:depth] (1 ≤ depth ≤ NumGenes) is to be cut, with everything
	// below it; at depth NumGenes the genome is then not evaluated. The
	// default, nil, cuts nothing. Result.Pruned counts the cuts.
	Prune func(partial []int, depth int) bool
}

// batchPerWorker is how many complete genomes Exhaustive gathers per worker
// before evaluating them.
const batchPerWorker = 64

// contextCheckNodes is how many nodes of the walk Exhaustive visits between
// two looks at Settings.Context and at the clock for progress reports: a
// node costs at most a Values and a Prune call, so a few thousand take
// milliseconds.
const contextCheckNodes = 4096

// estimateProbes is how many random descents estimate the size of the
// walk for Progress.Done.
const estimateProbes = 256

// estimateExamined estimates how many children the walk examines (Values
// offers them; Prune then cuts some), by Knuth's estimator of the size of
// a backtrack tree (D. E. Knuth, "Estimating the efficiency of backtrack
// programs", Mathematics of Computation 29(129):121–136, 1975): a probe
// descends from the root, at each node into one of the children that
// Prune keeps, chosen at random; the number of children at a node, times
// the product of the kept children of the nodes above it, is an unbiased
// estimate of the children examined at that depth. The mean over
// estimateProbes probes is returned. Pruning makes subtrees unequal, so
// the estimate is rough (on the WATERS problems within a factor of 2 of
// the truth, where the share of the tree by its branches was off by ten),
// but it costs a few thousand Prune calls. The probes draw from rng;
// Result.Pruned does not count their cuts.
func (x *Exhaustive) estimateExamined(sp *space, order []int, rng *rand.Rand) float64 {
	n := sp.n
	partial := make([]int, n)
	for i, vals := range sp.values {
		partial[i] = vals[0]
	}
	var buf, kept []int
	total := 0.0
	for range estimateProbes {
		weight := 1.0
		for depth := 0; depth < n; depth++ {
			gene := order[depth]
			vals := sp.values[gene]
			if x.Values != nil {
				buf = x.Values(partial, depth, buf[:0])
				vals = buf
			}
			total += weight * float64(len(vals))
			kept = kept[:0]
			for _, v := range vals {
				partial[gene] = v
				if x.Prune == nil || !x.Prune(partial, depth+1) {
					kept = append(kept, v)
				}
			}
			if len(kept) == 0 {
				break
			}
			weight *= float64(len(kept))
			partial[gene] = kept[rng.Intn(len(kept))]
		}
	}
	return max(1, total/estimateProbes)
}

// progressInterval is the longest time between two progress reports of
// Exhaustive while it walks without gathering a batch (when Prune cuts
// almost everything).
const progressInterval = 250 * time.Millisecond

func (x *Exhaustive) minimize(r *run) (Status, error) {
	sp := r.sp
	n, m := sp.n, sp.m
	order := x.Order
	if order == nil {
		order = make([]int, n)
		for i := range order {
			order[i] = i
		}
	}
	if len(order) != n {
		return NotTerminated, fmt.Errorf("moo: enumeration order %v has %d genes, the problem %d", order, len(order), n)
	}
	placed := make([]bool, n)
	for _, g := range order {
		if g < 0 || g >= n || placed[g] {
			return NotTerminated, fmt.Errorf("moo: enumeration order %v is not a permutation of the genes 0 to %d", order, n-1)
		}
		placed[g] = true
	}

	size := batchPerWorker * len(r.workers)
	genes := make([]int, size*n)
	objs := make([]float64, size*m)
	batch := make([][]int, 0, size)
	out := make([]Evaluation, size)
	for i := range out {
		out[i].Objectives = objs[i*m : (i+1)*m : (i+1)*m]
	}
	// Progress.Done: the children examined (Values offered them) over an
	// estimate of how many the walk examines in all, which grows so that
	// 5 % always remains until the walk ends.
	estimate := x.estimateExamined(sp, order, r.set.Rand)
	examined := 0.0
	setDone := func() { r.done = examined / max(estimate, examined/0.95) }
	lastReport := time.Now()
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := r.evaluate(batch, out[:len(batch)])
		for i := range out[:len(batch)] {
			out[i].Payload = nil
		}
		batch = batch[:0]
		if err == nil {
			setDone()
			r.progress()
			lastReport = time.Now()
		}
		return err
	}

	partial := make([]int, n)
	for i, vals := range sp.values {
		partial[i] = vals[0]
	}
	bufs := make([][]int, n)
	stamp := make([][]int, n) // stamp[g][k]: the last call whose values held value k of gene g
	for g := range stamp {
		stamp[g] = make([]int, len(sp.values[g]))
	}
	calls, emitted, nodes := 0, 0, 0
	limit := r.set.MaxEvaluations
	var err error
	interrupted := false
	var walk func(depth int) bool // false: stop
	walk = func(depth int) bool {
		if nodes++; nodes%contextCheckNodes == 1 {
			if r.interrupted() {
				interrupted = true
				return false
			}
			if time.Since(lastReport) >= progressInterval {
				setDone()
				r.progress()
				lastReport = time.Now()
			}
		}
		if depth == n {
			if limit > 0 && emitted == limit {
				return false
			}
			g := genes[len(batch)*n : (len(batch)+1)*n : (len(batch)+1)*n]
			copy(g, partial)
			batch = append(batch, g)
			emitted++
			if len(batch) == size {
				if err = flush(); err != nil {
					return false
				}
			}
			return true
		}
		gene := order[depth]
		vals := sp.values[gene]
		if x.Values != nil {
			vals = x.Values(partial, depth, bufs[depth][:0])
			bufs[depth] = vals
			calls++
			for _, v := range vals {
				k, ok := sp.index[gene][v]
				if !ok {
					err = fmt.Errorf("moo: enumeration offers gene %d the value %d, not one of %v", gene, v, sp.values[gene])
					return false
				}
				if stamp[gene][k] == calls {
					err = fmt.Errorf("moo: enumeration offers gene %d the value %d twice", gene, v)
					return false
				}
				stamp[gene][k] = calls
			}
		}
		for _, v := range vals {
			examined++
			partial[gene] = v
			if x.Prune != nil && x.Prune(partial, depth+1) {
				r.pruned++
				continue
			}
			if !walk(depth + 1) {
				return false
			}
		}
		return true
	}
	complete := walk(0)
	if err != nil {
		return NotTerminated, err
	}
	if err = flush(); err != nil {
		return NotTerminated, err
	}
	switch {
	case interrupted:
		return Interrupted, nil
	case !complete: // stopped at a genome beyond the evaluation limit
		return EvaluationLimit, nil
	}
	r.done = 1
	r.progress()
	return Exhausted, nil
}
