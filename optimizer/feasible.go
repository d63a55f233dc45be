package optimizer

import (
	"fmt"
	"slices"

	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// feasibleMapping records the mapping just evaluated into w.r, which meets
// every deadline (and, when feasible, every chain latency requirement):
// w.a in the exhaustive search, its canonical form w.ca in the genetic
// search (worker.Evaluate), whose analysis the variants then start from
// without analysing the mapping again, unless an objective has analysed
// it since (Problem.analysedAgain). The first time the worker meets the
// mapping (up to interchangeable cores), it evaluates the mapping's
// priority-order variants in its canonical form (canonicalise) and keeps
// the non-dominated ones that meet every requirement in w.side; the
// mapping counts as feasible when it or one of its variants does. The
// canonical form makes what is kept independent of which of the symmetric
// genomes the worker met first, and so of the number of workers.
//
// The exhaustive search keeps the variants in w.side, which Run merges with
// the search's front; the genetic search reports them with the evaluation
// (out.Variants, grouped by the canonical mapping's hash), so that they join
// its bounded archive (moo.Evaluation.Variants) as its own points do.
//
// The variants are charged to left (a fresh evaluate.Budget); the cost is
// returned (moo.Evaluation.Cost), for a mapping met before as if its
// variants were made again (charge).
func (w *worker) feasibleMapping(feasible bool, left evaluate.Budget, out *moo.Evaluation) int {
	p := w.p
	if p.exhaustive {
		p.canonicalise(w.a, w.ca, w.rename, w.next)
	}
	key := p.hashAssignment(w.ca)
	if seen, ok := w.feasible[key]; ok {
		return charge(left, seen.cost)
	}
	if seen, ok := p.resumed[key]; ok {
		return charge(left, seen.cost)
	}
	seen := mappingSeen{feasible: feasible, schedulable: true}
	bud := &left
	w.own = w.own[:0]
	defer func() {
		seen.cost = bud.Cost()
		w.feasible[key] = seen
		w.report(key, out)
	}()
	if !p.anyRelevant || p.hooks.NoVariants {
		return 0
	}
	emit := w.keepVariant(&seen)
	vary, tooLarge, largest := w.mayVary(w.r)
	// (A core of more than evaluate.MaxVariantTasks tasks would stop the
	// joint enumeration at once, incomplete.)
	if (p.interact || p.margin) && (p.exhaustive || largest <= evaluate.MaxVariantTasks) {
		// The cores' orders interact: every joint order that can pass. The
		// per-core variants below assume independent cores, and miss the
		// orders whose gain comes through another core (under the refined
		// count, an order of one core that shortens a task no objective
		// reads shrinks the contention it causes on another). The genetic
		// search enumerates them as the exhaustive search does where their
		// combinations are at most maxVariantAnalyses, and falls back to
		// the per-core variants with what is left where they are more.
		// The limit does not depend on what is left, so that the cost
		// stays min(left, the cost with the most left) (charge).
		limit := p.search.MaxJointOrders
		if !p.exhaustive {
			limit = min(limit, maxVariantAnalyses)
		}
		jr, err := w.e.JointOrders(w.ca, limit, bud, w.b, w.rb, emit)
		if err != nil {
			panic(fmt.Sprintf("optimizer: evaluating a joint priority order: %v", err))
		}
		if p.exhaustive {
			w.decided[key] = bud.Cost()
		}
		if p.exhaustive || jr.Complete {
			seen.incomplete = !jr.Complete
			return bud.Cost()
		}
	}
	if !vary {
		// No core the variants would vary (evaluate.Evaluator.
		// PriorityVariants skips the others): no analysis to make.
		seen.incomplete = tooLarge
		return bud.Cost()
	}
	if left, unlimited := bud.Left(); !unlimited && left == 0 {
		seen.incomplete = true
		return bud.Cost()
	}
	// The canonical mapping's analysis is charged whether or not it is
	// made again here, as it always was: the charge is what
	// search.max_evaluations counts, and a run with a budget stops where
	// it did.
	bud.Analyses++
	rc := w.r
	if p.analysedAgain {
		if err := w.e.Evaluate(w.ca, w.rc); err != nil {
			panic(fmt.Sprintf("optimizer: evaluating a canonical mapping: %v", err))
		}
		rc = w.rc
	}
	complete, err := w.e.PriorityVariants(w.ca, rc, p.relevant, w.b, w.rb, bud, emit)
	if err != nil {
		// The variants are the mapping with explicit priorities: an error
		// here is a bug, as in Evaluate.
		panic(fmt.Sprintf("optimizer: evaluating a priority variant: %v", err))
	}
	seen.incomplete = !complete
	return bud.Cost()
}

// mayVary reports whether the mapping analysed in r has a core whose
// priority orders PriorityVariants would vary: a CPU core of derived
// priorities with 2 to evaluate.MaxVariantTasks tasks, one of them
// relevant; whether a core with a relevant task has more tasks than
// that (its variants are then incomplete); and the most tasks a CPU core
// of derived priorities has.
func (w *worker) mayVary(r *evaluate.Analysis) (vary, tooLarge bool, largest int) {
	n, rel := w.unitTasks[:0], w.unitRelevant[:0]
	for range r.Units {
		n, rel = append(n, 0), append(rel, false)
	}
	for i := range r.Tasks {
		if t := &r.Tasks[i]; t.Role.OnCPU() {
			n[t.Unit]++
			rel[t.Unit] = rel[t.Unit] || w.p.relevant[i]
		}
	}
	w.unitTasks, w.unitRelevant = n, rel
	for u := range r.Units {
		if !r.Units[u].GPU && !r.Units[u].Explicit {
			largest = max(largest, n[u])
		}
		switch {
		case r.Units[u].GPU || r.Units[u].Explicit || n[u] < 2 || !rel[u]:
		case n[u] > evaluate.MaxVariantTasks:
			tooLarge = true
		default:
			vary = true
		}
	}
	return vary, tooLarge, largest
}

// keepVariant returns the visitor of a mapping's priority-order variants
// (PriorityVariants, JointOrders): it counts each in seen, and keeps the
// ones that meet every deadline and requirement in w.side with their
// objectives.
func (w *worker) keepVariant(seen *mappingSeen) func(*evaluate.Assignment, *evaluate.Analysis) {
	return func(b *evaluate.Assignment, rb *evaluate.Analysis) {
		seen.variants++
		if !rb.Schedulable {
			return
		}
		w.buf = w.p.objectivesOf(w.e, b, rb, w.obj, w.buf)
		seen.schedulable = seen.schedulable || rb.Schedulable
		if rb.Schedulable && rb.RequirementsMet {
			seen.feasible = true
			if w.p.exhaustive {
				w.side.add(w.obj, b)
			} else {
				w.own.add(w.obj, b)
			}
		}
	}
}

// report hands the non-dominated variants of the mapping of canonical key
// that feasibleMapping kept in w.own to the evaluation out (genetic search).
// They are a function of the canonical mapping alone, as
// moo.Evaluation.Variants requires of a group.
func (w *worker) report(key uint64, out *moo.Evaluation) {
	for k := range w.own {
		v := w.own[k]
		out.Variants = append(out.Variants, moo.Variant{Group: key, Objectives: v.obj, Payload: &v})
	}
	clear(w.own)
	w.own = w.own[:0]
}

// sidePoint is a priority-order variant of a feasible mapping: its
// objectives, the mapping (canonical, with the priorities of the varied
// cores) and a key that orders variants.
type sidePoint struct {
	obj []float64
	a   *evaluate.Assignment
	key []int64
}

// sideArchive keeps the variants no other variant dominates; of variants
// with equal objectives it keeps the one with the smallest key, so that
// what is kept does not depend on the order of arrival.
type sideArchive []sidePoint

func (s *sideArchive) add(obj []float64, a *evaluate.Assignment) {
	key := assignmentKey(a)
	for k := range *s {
		q := &(*s)[k]
		if !weaklyDominates(q.obj, obj) {
			continue
		}
		if slices.Equal(q.obj, obj) && slices.Compare(key, q.key) < 0 {
			q.a.CopyFrom(a)
			q.key = key
		}
		return
	}
	kept := (*s)[:0]
	for _, q := range *s {
		if !weaklyDominates(obj, q.obj) {
			kept = append(kept, q)
		}
	}
	*s = append(kept, sidePoint{obj: slices.Clone(obj), a: a.Clone(), key: key})
}

// assignmentKey flattens an assignment into a comparable key.
func assignmentKey(a *evaluate.Assignment) []int64 {
	var k []int64
	for _, u := range a.Unit {
		k = append(k, int64(u))
	}
	for g := range a.Async {
		k = append(k, int64(b2i(a.Async[g])), int64(b2i(a.High[g])), a.Slice[g])
	}
	for _, p := range a.Priority {
		k = append(k, int64(p))
	}
	return k
}

// weaklyDominates reports whether a is at most b in every objective.
func weaklyDominates(a, b []float64) bool {
	for i := range a {
		if a[i] > b[i] {
			return false
		}
	}
	return true
}

// canonicalise writes into dst the assignment a with the cores of every
// class of interchangeable cores (Problem.class) renamed in the order in
// which the tasks, in model order, first use them: the first core used
// becomes the class's first core, and so on. Mappings that differ only by
// such a renaming have one canonical form. rename and next are scratch
// with one entry per unit.
func (p *Problem) canonicalise(a, dst *evaluate.Assignment, rename, next []int) {
	dst.CopyFrom(a)
	for u := range rename {
		rename[u], next[u] = -1, 0
	}
	for i, u := range a.Unit {
		if u < 0 || u == p.e.Model().GPUUnit() {
			continue
		}
		if rename[u] < 0 {
			c := p.class[u]
			rename[u] = p.classCores[c][next[c]]
			next[c]++
		}
		dst.Unit[i] = rename[u]
	}
}

// hashAssignment is a 64-bit hash of a mapping (units and the GPU settings
// of the GPU tasks on the GPU; not the priorities). Applied to canonical
// forms it counts distinct feasible mappings; a collision, at odds of
// about n²/2⁶⁵ for n mappings, would undercount by one.
func (p *Problem) hashAssignment(a *evaluate.Assignment) uint64 {
	e := p.e
	h := uint64(0x9e3779b97f4a7c15)
	for i, u := range a.Unit {
		h = mixHash(h, uint64(i)<<32|uint64(uint32(u)))
	}
	for g, task := range p.gpuTasks {
		if a.Unit[task] != e.Model().GPUUnit() {
			continue
		}
		h = mixHash(h, uint64(g)<<2|uint64(b2i(a.Async[g]))<<1|uint64(b2i(a.High[g])))
		h = mixHash(h, uint64(a.Slice[g]))
	}
	return h
}

// mixHash folds v into the hash h (the multiply-xorshift step of
// splitmix64, as the evaluator's memo hashes its keys).
func mixHash(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h *= 0xbf58476d1ce4e5b9
	return h ^ h>>31
}
