package evaluate

import (
	"github.com/hetmap/hetmap/rta"
)

// Priority-order variants. The evaluator derives one priority order per
// core, one that passes the final test whenever such an order exists
// (rta, "Exact priority assignment"). A core often has several such orders,
// and they trade the response times of its tasks against each other: a
// chain through one task gets shorter, a chain through another longer. A
// front of mappings with one derived order each can therefore be dominated
// by the same mappings with other orders, which is what a user who gives
// the priorities explicitly (hetmap analyze with priorities) would find.
// The search closes that gap: for every feasible mapping it meets, it also
// evaluates the mapping under the orders that can matter, and the front is
// taken over mappings together with their orders.
//
// Which orders can matter: the objectives depend on a core's order only
// through the worst-case response times of chain members and through
// which of two consecutive members of a chain on the core comes first (a
// hop whose producer has the higher priority is ordered, package chains,
// "Same-core hops"); a chain latency never decreases when a member's WCRT
// grows (every job chain can only end later and start earlier) nor when a
// hop loses its order (its delay grows from the producer's jitter to its
// WCRT). Every core's feasible orders are independent of the other cores'
// orders under the challenge's contention count. So per core it suffices
// to keep the feasible orders whose vector of WCRTs of the relevant tasks
// (those the search marks relevant), extended by one entry per such hop
// (0 ordered, 1 not), is Pareto-minimal, and to combine them across cores:
// any other combination is dominated by one of these, objective by
// objective.
const (
	// maxVariantTasks: cores with more tasks keep the derived order only
	// (optimizer.Outcome.VariantsIncomplete counts the mappings where that happened).
	maxVariantTasks = 8
	// maxVariantOrders bounds the feasible orders enumerated per core.
	maxVariantOrders = 40320
	// maxVariantCombos bounds the combinations evaluated per mapping.
	maxVariantCombos = 4096
)

// variantScratch holds the per-evaluator state of PriorityVariants.
type variantScratch struct {
	an rta.Analyzer
	ts []rta.Task
	orderSet
	rv []int64 // per option: the WCRTs of its core's tasks
	// pairs holds, per varied core, the hops that its order can order:
	// the positions (in the core's ids) of a relevant chain member that
	// does not suspend and of the next member of its chain, on the same
	// core; hv, per option, 0 for each hop the option orders and 1 for
	// the others; rank and hops are scratch.
	pairs []int
	hv    []int64
	rank  []int
	hops  []int64
}

// orderSet holds cores whose orders are varied, their options, and one
// combination of an option per core, enumerated as an odometer.
type orderSet struct {
	cores []variantCore
	ids   []int // the tasks of the varied cores, core after core
	prio  []int // per option: the priorities of its core's tasks
	pick  []int // per varied core: the option of the current combination
}

// combinations evaluates a under the first n combinations of o's options
// (the first one each core's option 0), each as a copy b with those
// priorities evaluated into rb, and calls visit(b, rb) after each. It
// stops early, reporting stopped, when the search's context is done.
func (e *Evaluator) combinations(o *orderSet, n int, a, b *Assignment, rb *Analysis, visit func(*Assignment, *Analysis)) (evaluated int, stopped bool, err error) {
	o.pick = o.pick[:0]
	for range o.cores {
		o.pick = append(o.pick, 0)
	}
	for range n {
		if e.stopped() {
			return evaluated, true, nil
		}
		b.CopyFrom(a)
		for ci, c := range o.cores {
			at := c.off + o.pick[ci]*c.k
			for x, i := range o.ids[c.at : c.at+c.k] {
				b.Priority[i] = o.prio[at+x]
			}
		}
		if err := e.Evaluate(b, rb); err != nil {
			return evaluated, false, err
		}
		evaluated++
		visit(b, rb)
		for ci := range o.pick { // the next combination, as an odometer
			if o.pick[ci]++; o.pick[ci] < o.cores[ci].opt {
				break
			}
			o.pick[ci] = 0
		}
	}
	return evaluated, false, nil
}

// variantCore is a core whose orders are varied: its k tasks (ids[at:at+k])
// and its opt options, the Pareto-minimal feasible orders, stored from off
// in prio and rv (k values each).
type variantCore struct {
	at, k, off, opt int
	// pat and h: the core's hops, pairs of positions from pat in
	// variantScratch.pairs; hoff: where its options' hop values start in
	// variantScratch.hv (h per option). Unused by JointOrders.
	pat, h, hoff int
}

// PriorityVariants enumerates, for a mapping a just evaluated into r (by
// this evaluator, schedulable), the combinations of per-core priority
// orders that pass the final test and are Pareto-minimal for the
// worst-case response times of the tasks marked in relevant, on the cores
// whose derived order is not already the only such order. For each
// combination it evaluates b, a copy of a with explicit priorities on the
// varied cores, into rb and calls emit(b, rb). It reports whether the
// enumeration was complete (no core too large, no limit reached). b and rb
// are the caller's scratch; the evaluator's scratch is overwritten, so r
// stays as it was but the evaluator no longer describes a. The enumeration
// of orders and the evaluations are charged to bud, and stop (incomplete)
// where its allowance ends.
func (e *Evaluator) PriorityVariants(a *Assignment, r *Analysis, relevant []bool, b *Assignment, rb *Analysis, bud *Budget, emit func(*Assignment, *Analysis)) (complete bool, err error) {
	bud.perAnalysis = len(e.tasks)
	v := &e.vars
	v.cores, v.ids, v.prio, v.rv = v.cores[:0], v.ids[:0], v.prio[:0], v.rv[:0]
	v.pairs, v.hv = v.pairs[:0], v.hv[:0]
	complete = true
	for u := range e.units {
		if e.units[u].gpu || r.Units[u].Explicit || len(e.onCore[u]) < 2 {
			continue
		}
		ids := e.onCore[u]
		if !anyRelevant(ids, relevant) {
			continue
		}
		if len(ids) > maxVariantTasks {
			complete = false
			continue
		}
		v.ts = append(v.ts[:0], e.coreTasksOf(a, r, u, false)...)
		c := variantCore{at: len(v.ids), k: len(ids), off: len(v.prio), pat: len(v.pairs), hoff: len(v.hv)}
		v.ids = append(v.ids, ids...)
		ids = v.ids[c.at : c.at+c.k]
		v.pairs = e.hopPairs(r, ids, relevant, v.pairs)
		c.h = (len(v.pairs) - c.pat) / 2
		left, unlimited := bud.stepsLeft()
		if !unlimited && left == 0 {
			complete = false
			v.ids = v.ids[:c.at]
			break
		}
		ok, steps := v.an.FeasibleOrdersWithin(v.ts, maxVariantOrders, max(0, left), func(order []int, rs []int64) bool {
			v.insert(&c, ids, relevant, order, rs)
			return !e.stopped()
		})
		bud.Steps += steps
		if !ok {
			complete = false
		}
		if c.opt == 0 || (c.opt == 1 && v.isDerived(&c, ids, relevant, r)) {
			// The derived order is the only Pareto-minimal one (or, which a
			// schedulable core cannot have, there is none): nothing to vary.
			v.ids, v.prio, v.rv = v.ids[:c.at], v.prio[:c.off], v.rv[:c.off]
			v.pairs, v.hv = v.pairs[:c.pat], v.hv[:c.hoff]
			continue
		}
		v.cores = append(v.cores, c)
	}
	if len(v.cores) == 0 {
		return complete, nil
	}
	combos := 1
	for _, c := range v.cores {
		combos *= c.opt
		if combos >= maxVariantCombos {
			combos = maxVariantCombos
			complete = false
			break
		}
	}
	if left, unlimited := bud.Left(); !unlimited && combos > left {
		combos = left
		complete = false
	}
	n, stopped, err := e.combinations(&v.orderSet, combos, a, b, rb, emit)
	bud.Analyses += n
	return complete && !stopped, err
}

func anyRelevant(ids []int, relevant []bool) bool {
	for _, i := range ids {
		if relevant[i] {
			return true
		}
	}
	return false
}

// hopPairs appends to pairs the hops of the chains whose order a core's
// priority order decides (see "Which orders can matter"): for every two
// consecutive members of a chain (as representative gives them under the
// mapping evaluated in r) that are both relevant, both among the core's
// tasks ids, distinct, not LET tasks, the first not suspending, the
// positions in ids of the producer and of the consumer, each pair once.
func (e *Evaluator) hopPairs(r *Analysis, ids []int, relevant []bool, pairs []int) []int {
	at := len(pairs)
	pos := func(task int) int {
		for x, i := range ids {
			if i == task {
				return x
			}
		}
		return -1
	}
	for _, chain := range e.chains {
		for k := 1; k < len(chain); k++ {
			p, c := e.representative(r, chain[k-1]), e.representative(r, chain[k])
			if p == c || !relevant[p] || !relevant[c] || e.tasks[p].let || e.tasks[c].let || r.Tasks[p].Role == OffloadAsync {
				continue
			}
			x, y := pos(p), pos(c)
			if x < 0 || y < 0 {
				continue
			}
			seen := false
			for j := at; j < len(pairs); j += 2 {
				seen = seen || pairs[j] == x && pairs[j+1] == y
			}
			if !seen {
				pairs = append(pairs, x, y)
			}
		}
	}
	return pairs
}

// hopValues writes into v.hops, for core c's hops, 0 where the order
// (order[rank] is the position of the task of that rank) puts the producer
// first and 1 where it does not.
func (v *variantScratch) hopValues(c *variantCore, order []int) {
	v.rank = v.rank[:0]
	for range order {
		v.rank = append(v.rank, 0)
	}
	for rank, x := range order {
		v.rank[x] = rank
	}
	v.hops = v.hops[:0]
	for j := range c.h {
		x, y := v.pairs[c.pat+2*j], v.pairs[c.pat+2*j+1]
		v.hops = append(v.hops, int64(b2i(v.rank[x] > v.rank[y])))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// insert adds the feasible order (rs its response times, indexed like ids)
// to core c's options unless an option is at least as good for every
// relevant task; options it is at least as good as are removed.
//
// One pass compares the order with every option (compare): the options
// never include two of which one is at least as good as the other, so when
// the order is at least as good as some option, no option is at least as
// good as it short of being equal to that one, and the options removed
// before an equal one is met are none. The options keep the arrangement
// that a first pass looking for a better option and a second removing the
// worse ones would leave.
func (v *variantScratch) insert(c *variantCore, ids []int, relevant []bool, order []int, rs []int64) {
	k, h := c.k, c.h
	v.hopValues(c, order)
	for o := 0; o < c.opt; {
		optionNoWorse, orderNoWorse := v.compare(c.off+o*k, c.hoff+o*h, rs, v.hops, ids, relevant)
		if optionNoWorse {
			return
		}
		if orderNoWorse {
			v.drop(c, o)
			continue
		}
		o++
	}
	v.add(c, order, rs)
}

// drop removes core c's option o, moving its last option in its place.
func (v *variantScratch) drop(c *variantCore, o int) {
	k, h := c.k, c.h
	last, lastH := c.off+(c.opt-1)*k, c.hoff+(c.opt-1)*h
	copy(v.prio[c.off+o*k:c.off+o*k+k], v.prio[last:last+k])
	copy(v.rv[c.off+o*k:c.off+o*k+k], v.rv[last:last+k])
	copy(v.hv[c.hoff+o*h:c.hoff+o*h+h], v.hv[lastH:lastH+h])
	v.prio, v.rv, v.hv = v.prio[:last], v.rv[:last], v.hv[:lastH]
	c.opt--
}

// add appends the order (order[rank] is the position of the task of that
// rank; rs its response times, v.hops its hop values) as core c's last
// option.
func (v *variantScratch) add(c *variantCore, order []int, rs []int64) {
	k := c.k
	at := len(v.prio)
	for range k {
		v.prio = append(v.prio, 0)
		v.rv = append(v.rv, 0)
	}
	for rank, x := range order {
		v.prio[at+x] = k - rank // a higher value is more urgent, as in Amalthea
	}
	copy(v.rv[at:at+k], rs)
	v.hv = append(v.hv, v.hops...)
	c.opt++
}

// compare compares, over the relevant tasks and the core's hops, the
// option at off (its hop values at hoff) with rs and hops: optionNoWorse,
// whether the option's values are all at most these, and orderNoWorse,
// whether these are all at most the option's. It stops as soon as both are
// false, which is most of the time (the options are Pareto-minimal).
func (v *variantScratch) compare(off, hoff int, rs, hops []int64, ids []int, relevant []bool) (optionNoWorse, orderNoWorse bool) {
	optionNoWorse, orderNoWorse = true, true
	rv := v.rv[off : off+len(ids)]
	for x, i := range ids {
		if !relevant[i] {
			continue
		}
		switch a, b := rv[x], rs[x]; {
		case a < b:
			orderNoWorse = false
		case a > b:
			optionNoWorse = false
		}
		if !optionNoWorse && !orderNoWorse {
			return false, false
		}
	}
	hv := v.hv[hoff : hoff+len(hops)]
	for j, b := range hops {
		switch a := hv[j]; {
		case a < b:
			orderNoWorse = false
		case a > b:
			optionNoWorse = false
		}
		if !optionNoWorse && !orderNoWorse {
			return false, false
		}
	}
	return optionNoWorse, orderNoWorse
}

// isDerived reports whether core c's first option has the derived order's
// WCRTs (as evaluated in r) for every relevant task, and orders the same
// hops.
func (v *variantScratch) isDerived(c *variantCore, ids []int, relevant []bool, r *Analysis) bool {
	for x, i := range ids {
		if relevant[i] && v.rv[c.off+x] != r.Tasks[i].R {
			return false
		}
	}
	for j := range c.h {
		x, y := v.pairs[c.pat+2*j], v.pairs[c.pat+2*j+1]
		if b2i(r.Tasks[ids[x]].Rank >= r.Tasks[ids[y]].Rank) != int(v.hv[c.hoff+j]) {
			return false
		}
	}
	return true
}
