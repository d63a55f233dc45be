package evaluate

import (
	"math/bits"
	"slices"

	"github.com/hetmap/hetmap/rta"
)

// Execution scaling. analysis.execution_scale, and the margins that
// search for the largest factor a mapping tolerates (margins.go), multiply
// the execution demand of tasks: on every CPU unit the worst-case compute
// time (the upper-bound ticks converted to picoseconds, and for an
// asynchronously offloading task the runnables after its passive wait),
// and on the GPU the isolated kernel time and its block time. A scaled
// value is rounded up to the picosecond. Memory lines, copies and latencies
// stay as they are. A best case is kept unless it would exceed the scaled
// worst case, which it then becomes; the GPU jobs' release jitter is
// bounded anew from the best cases. A kernel keeps the geometry (blocks,
// waves) of its unscaled time, so that a longer kernel is never split into
// more, shorter blocks.

// scaleOne is the factor 1 in millionths.
const scaleOne = 1_000_000

// scaling is what a scale applies to: a factor in millionths, for the
// tasks on units of one kind ("" every kind) and one task (-1 every task).
type scaling struct {
	ppm  int64
	kind string
	task int
}

// scaleUp returns ceil(x·ppm/10⁶), at most rta.MaxTime.
func scaleUp(x, ppm int64) int64 {
	if x <= 0 || ppm <= 0 {
		return max(x, 0)
	}
	hi, lo := bits.Mul64(uint64(x), uint64(ppm))
	if hi >= scaleOne {
		return rta.MaxTime
	}
	q, r := bits.Div64(hi, lo, scaleOne)
	if r > 0 {
		q++
	}
	if q > uint64(rta.MaxTime) {
		return rta.MaxTime
	}
	return int64(q)
}

// applies reports whether s scales task i on unit u.
func (s scaling) applies(e *Evaluator, i, u int) bool {
	return (s.task < 0 || s.task == i) && (s.kind == "" || s.kind == e.units[u].kind)
}

// scaleInPlace scales e's compiled tasks by s (NewEvaluator, before any
// evaluation: the tasks are its own).
func (e *Evaluator) scaleInPlace(s scaling) {
	for i := range e.tasks {
		for u := range e.tasks[i].cpu {
			if c := &e.tasks[i].cpu[u]; c.ok && s.applies(e, i, u) {
				c.exec, c.waitExec = scaleUp(c.exec, s.ppm), scaleUp(c.waitExec, s.ppm)
				c.bestExec, c.waitBestExec = min(c.bestExec, c.exec), min(c.waitBestExec, c.waitExec)
			}
		}
	}
	if e.gpuUnit < 0 {
		return
	}
	for g := range e.gpus {
		gi := &e.gpus[g]
		if !s.applies(e, gi.task, e.gpuUnit) {
			continue
		}
		kernel := scaleUp(gi.kernel, s.ppm)
		if gi.defaultSlice == gi.kernel && !gi.slices && e.cfg.System.TimeSlice.Max <= 0 {
			gi.defaultSlice = kernel // the slice of a task without one: its kernel
		}
		gi.kernel, gi.blockTime = kernel, scaleUp(gi.blockTime, s.ppm)
		gi.kernelBest = min(gi.kernelBest, kernel)
	}
}

// scaler evaluates one mapping at several scales: an Evaluator whose
// compiled model, with its tasks and GPU tasks, is its own copy, rescaled from the base evaluator's for
// every scale.
type scaler struct {
	base *Evaluator
	e    *Evaluator
}

func newScaler(base *Evaluator) *scaler {
	e := base.Clone()
	m := *base.compiled // the scaler's own model: its tasks and GPU tasks are rescaled
	e.compiled = &m
	e.tasks = slices.Clone(base.tasks)
	for i := range e.tasks {
		e.tasks[i].cpu = slices.Clone(base.tasks[i].cpu)
	}
	e.gpus = slices.Clone(base.gpus)
	return &scaler{base: base, e: e}
}

// at returns the evaluator with the base's tasks scaled by s.
func (sc *scaler) at(s scaling) *Evaluator {
	e := sc.e
	for i := range e.tasks {
		copy(e.tasks[i].cpu, sc.base.tasks[i].cpu)
	}
	copy(e.gpus, sc.base.gpus)
	if s.ppm != scaleOne {
		e.scaleInPlace(s)
	}
	e.initGPUJitter()
	// The memo and the GPU cache hold results of other execution times.
	e.resetMemo()
	clear(e.cache)
	e.cacheR = e.cacheR[:0]
	return e
}
