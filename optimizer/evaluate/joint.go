package evaluate

import (
	"slices"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
)

// Joint priority orders. Under the refined and request counts a core's
// window contention counts the other cores' tasks with their response
// times, which depend on those cores' priority orders; with activated
// tasks, an activated task's jitter is its activator's response. The
// cores' orders then interact, and neither the derived orders nor their
// per-core alternatives (variants.go) need contain the orders that make a
// mapping feasible or that give its best objectives. JointOrders
// enumerates the combinations of per-core orders, each evaluated as a
// mapping with explicit priorities, with one cut that no feasible
// combination can fail (see the package documentation, "Joint priority
// orders"):
//
//   - An order of core u in which a task misses its deadline in the relaxed
//     test (EvaluatePartial: the other cores' tasks counted with lower
//     bounds of their response times that no order lowers, no memory phase
//     cut by a preemption, activated tasks without activation jitter)
//     misses it in every combination: the sound bounds of any combination
//     are at least those lower bounds, and the window term and the
//     response-time fixed point are non-decreasing in them. The orders
//     that pass are enumerated level by level from the most urgent, a
//     prefix cut as soon as its last task misses (a task's response depends
//     only on the tasks above it).
//
// A core whose priorities the mapping gives keeps them; a core of one
// task has one order.

// The combinations JointOrders evaluates for one mapping are bounded by
// search.max_joint_orders (configs.DefaultJointOrders, 4096); a mapping
// with more is left undecided (its enumeration incomplete).

// JointResult is what JointOrders found for a mapping.
type JointResult struct {
	// Combinations evaluated.
	Evaluated int
	// Refuted: some core has no order that passes the relaxed test, so no
	// combination meets every deadline (nothing was evaluated).
	Refuted bool
	// Complete: every combination that passes the relaxed test was
	// evaluated (false when a core has more than maxVariantTasks tasks or
	// the combinations exceed the limit).
	Complete bool
}

// jointScratch holds JointOrders' per-evaluator state.
type jointScratch struct {
	rx *Analysis
	orderSet
	ts     []rta.Task
	hp     []rta.Interferer
	order  []int
	placed []bool
}

// JointOrders evaluates the mapping a (complete, its CPU placement and GPU
// settings fixed) under every combination of per-core priority orders that
// passes the relaxed test, at most limit combinations (0: the default,
// configs.DefaultJointOrders),
// each as a copy b with explicit priorities evaluated into rb, and calls
// visit(b, rb) after each. b and rb are the caller's scratch; the
// evaluator's scratch is overwritten. The relaxed test, the enumeration of
// orders and the evaluations are charged to bud, and stop (incomplete)
// where its allowance ends.
func (e *Evaluator) JointOrders(a *Assignment, limit int, bud *Budget, b *Assignment, rb *Analysis, visit func(*Assignment, *Analysis)) (JointResult, error) {
	if limit <= 0 {
		limit = configs.DefaultJointOrders
	}
	j := &e.joint
	if j.rx == nil {
		j.rx = e.NewAnalysis()
	}
	bud.perAnalysis = len(e.tasks)
	res := JointResult{Complete: true}
	if left, unlimited := bud.Left(); !unlimited && left == 0 {
		res.Complete = false
		return res, nil
	}
	bud.Analyses++
	if err := e.EvaluatePartial(a, j.rx); err != nil {
		return res, err
	}
	if e.count != memory.ChallengeCount && !j.rx.Schedulable && j.rx.Undecided == 0 {
		// The relaxed test fails (under the challenge count a partial
		// evaluation derives activation jitters from one order, and is
		// no such test).
		res.Refuted = true
		return res, nil
	}
	j.cores, j.ids, j.prio = j.cores[:0], j.ids[:0], j.prio[:0]
	combos := 1
	for u := range e.units {
		ids := e.onCore[u]
		if e.units[u].gpu || len(ids) < 2 || j.rx.Units[u].Explicit {
			continue
		}
		if len(ids) > maxVariantTasks {
			res.Complete = false
			return res, nil
		}
		c := variantCore{at: len(j.ids), k: len(ids), off: len(j.prio)}
		j.ids = append(j.ids, ids...)
		// The core's tasks as the relaxed test saw them (the per-core memo
		// of the challenge pass may have skipped building them).
		e.coreTasksOf(a, j.rx, u, false)
		if !e.relaxedOrders(u, &c, limit, bud) && (!e.jointBroken || e.stopped()) {
			res.Complete = false
			return res, nil
		}
		if c.opt == 0 {
			res.Refuted = true
			return res, nil
		}
		j.cores = append(j.cores, c)
		if combos *= c.opt; combos > limit {
			res.Complete = false
			return res, nil
		}
	}
	if left, unlimited := bud.Left(); !unlimited && combos > left {
		combos = left
		res.Complete = false
	}
	n, stopped, err := e.combinations(&j.orderSet, combos, a, b, rb, visit)
	bud.Analyses += n
	res.Evaluated = n
	res.Complete = res.Complete && !stopped
	return res, err
}

// relaxedOrders appends to e.joint.prio the priority orders of core u (as
// priorities, k values each, a higher value more urgent) in which every
// task passes the relaxed test that EvaluatePartial just prepared, and
// counts them in c.opt. It reports false when there are more than limit,
// or when the steps bud pays for are spent (each response-time analysis of
// one task at one level is one step).
func (e *Evaluator) relaxedOrders(u int, c *variantCore, limit int, bud *Budget) bool {
	maxSteps, unlimited := bud.stepsLeft()
	j := &e.joint
	src := e.coreTasks[u]
	j.ts = append(j.ts[:0], src...)
	var cont rta.Contention
	if e.count != memory.ChallengeCount {
		cc := &e.ref.conts[u]
		cc.ctr.Reset(&e.ref.windows[u])
		cont = cc
	} else {
		for k := range j.ts {
			// An activation jitter depends on the activator's order: none
			// is a lower bound.
			j.ts[k].J = 0
		}
	}
	n := len(j.ts)
	j.order, j.placed = slices.Grow(j.order[:0], n)[:n], slices.Grow(j.placed[:0], n)[:n]
	clear(j.placed)
	j.hp = j.hp[:0]
	ok := true
	var walk func(depth int)
	walk = func(depth int) {
		if !ok {
			return
		}
		if e.stopped() {
			ok = false
			return
		}
		if depth == n {
			if c.opt >= limit {
				ok = false
				return
			}
			at := len(j.prio)
			for range n {
				j.prio = append(j.prio, 0)
			}
			for rank, x := range j.order[:n] {
				j.prio[at+x] = n - rank
			}
			c.opt++
			if e.jointBroken {
				ok = false // stops the walk; the orders found are kept
			}
			return
		}
		for x := range n {
			if j.placed[x] {
				continue
			}
			if !unlimited && maxSteps == 0 {
				ok = false
				return
			}
			maxSteps--
			bud.Steps++
			t := &j.ts[x]
			res := rta.ResponseTimeWith(*t, j.hp, t.D, cont)
			if res.Status != rta.Schedulable {
				continue
			}
			j.order[depth], j.placed[x] = x, true
			j.hp = append(j.hp, t.Interferer(res.R))
			walk(depth + 1)
			j.hp = j.hp[:len(j.hp)-1]
			j.placed[x] = false
		}
	}
	walk(0)
	return ok
}
