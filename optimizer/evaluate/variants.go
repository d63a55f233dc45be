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
// Which orders can matter: the objectives depend on response times only
// through the worst-case response times of chain members (a chain latency
// never decreases when a member's WCRT grows: every job chain can only end
// later and start earlier), and every core's feasible orders are
// independent of the other cores' orders under the challenge's contention
// count. So per core it suffices to keep the feasible orders whose vector
// of WCRTs of the relevant tasks (those the search marks relevant) is Pareto-minimal, and
// to combine them across cores: any other combination is dominated by one
// of these, objective by objective.
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
		c := variantCore{at: len(v.ids), k: len(ids), off: len(v.prio)}
		v.ids = append(v.ids, ids...)
		ids = v.ids[c.at : c.at+c.k]
		left := bud.stepsLeft()
		if left == 0 {
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
	if left := bud.AnalysesLeft(); left >= 0 && combos > left {
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

// insert adds the feasible order (rs its response times, indexed like ids)
// to core c's options unless an option is at least as good for every
// relevant task; options it is at least as good as are removed.
func (v *variantScratch) insert(c *variantCore, ids []int, relevant []bool, order []int, rs []int64) {
	k := c.k
	for o := 0; o < c.opt; o++ {
		if v.noWorse(c.off+o*k, rs, ids, relevant, true) {
			return
		}
	}
	for o := 0; o < c.opt; {
		if v.noWorse(c.off+o*k, rs, ids, relevant, false) {
			last := c.off + (c.opt-1)*k
			copy(v.prio[c.off+o*k:c.off+o*k+k], v.prio[last:last+k])
			copy(v.rv[c.off+o*k:c.off+o*k+k], v.rv[last:last+k])
			v.prio, v.rv = v.prio[:last], v.rv[:last]
			c.opt--
			continue
		}
		o++
	}
	at := len(v.prio)
	for range k {
		v.prio = append(v.prio, 0)
		v.rv = append(v.rv, 0)
	}
	for rank, x := range order {
		v.prio[at+x] = k - rank // a higher value is more urgent, as in Amalthea
	}
	copy(v.rv[at:at+k], rs)
	c.opt++
}

// noWorse compares, over the relevant tasks, the option at off with rs:
// with optionFirst, whether the option's WCRTs are all at most rs's;
// otherwise whether rs's are all at most the option's.
func (v *variantScratch) noWorse(off int, rs []int64, ids []int, relevant []bool, optionFirst bool) bool {
	for x, i := range ids {
		if !relevant[i] {
			continue
		}
		a, b := v.rv[off+x], rs[x]
		if !optionFirst {
			a, b = b, a
		}
		if a > b {
			return false
		}
	}
	return true
}

// isDerived reports whether core c's first option has the derived order's
// WCRTs (as evaluated in r) for every relevant task.
func (v *variantScratch) isDerived(c *variantCore, ids []int, relevant []bool, r *Analysis) bool {
	for x, i := range ids {
		if relevant[i] && v.rv[c.off+x] != r.Tasks[i].R {
			return false
		}
	}
	return true
}
