package evaluate

import (
	"slices"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta/sat"
)

// The read-only view of the compiled model that a search needs (Model),
// and what a search asks of its own evaluator beside the analyses. None of
// these methods changes what an evaluation gives.

// UnitSpec describes a processing unit of the model for a search.
type UnitSpec struct {
	Name, Kind string
	GPU        bool // the unit is the GPU (GPUUnit)
}

// Units describes the processing units, in System.Units order.
func (e *Model) Units() []UnitSpec {
	out := make([]UnitSpec, len(e.units))
	for u, ui := range e.units {
		out[u] = UnitSpec{Name: ui.name, Kind: ui.kind, GPU: ui.gpu}
	}
	return out
}

// FIFO reports whether the GPU is analysed under the fifo model (stream
// priorities) rather than the timeslice model (time slices).
func (e *Model) FIFO() bool { return e.fifo }

// Count returns the contention count the evaluator analyses with: the
// configured one, or the challenge count where Notes says it could not
// be combined with the system.
func (e *Model) Count() memory.Count { return e.count }

// Activated reports whether some task is activated by another task
// (activation.go), which makes the cores' priority orders interact.
func (e *Model) Activated() bool { return e.activated }

// ChainTasks returns the task indices of chain c (System.Chains order).
func (e *Model) ChainTasks(c int) []int { return slices.Clone(e.chains[c]) }

// RequirementChains returns, per chain latency requirement (in the order
// of Analysis.Requirements), the index of its chain.
func (e *Model) RequirementChains() []int {
	out := make([]int, len(e.reqs))
	for k, q := range e.reqs {
		out[k] = q.chain
	}
	return out
}

// ChainLatency returns the latency obj of chain c whose members under an
// evaluated mapping are members (ChainMembers), computed with the
// evaluator's plan of the chain; it does not allocate once the plan has
// grown.
func (e *Evaluator) ChainLatency(c int, members []chains.Member, obj chains.Objective) (int64, chains.Status) {
	return e.chainPlans[c].Eval(members, chains.Options{Objective: obj})
}

// OnCore returns the tasks on CPU unit u under the mapping evaluated last,
// in the order of the evaluator's analysis; the slice is the evaluator's
// and changes with the next evaluation.
func (e *Evaluator) OnCore(u int) []int { return e.onCore[u] }

// ComputeTime returns the worst-case compute time of task i on CPU unit u
// (its execution without memory accesses, in ps, as compiled: for an
// offloading task its pre- and post-processing, for a GPU task its merged
// variant), and whether the task can run there.
func (e *Model) ComputeTime(i, u int) (int64, bool) {
	if c := e.tasks[i].cpu; u >= 0 && u < len(c) && c[u].ok {
		return c[u].exec, true
	}
	return 0, false
}

// DemandBound returns a lower bound of the worst-case execution demand per
// job that every analysis charges task i on CPU unit u, in any mapping in
// which at least others other CPU units run a task that moves a DRAM line
// (MovesLines) and, with copies, a GPU task on the GPU copies lines
// (CopiesLines); and whether the task can run there. It is the task's
// worst-case compute plus its lines (those of every role: without the
// runnables that only asynchronous offloading adds) at the least line
// latency the count charges them: under the challenge count, with others
// interfering cores (or analysis.interfering_cores) and the copy engine as
// given (or analysis.copy_engine_active), since more memory users only
// raise it; under the refined and request counts, which charge contention
// by windows, the uncontended latency (their C⁰ without a GPU wait).
func (e *Model) DemandBound(i, u, others int, copies bool) (int64, bool) {
	c := e.tasks[i].cpu
	if u < 0 || u >= len(c) || !c[u].ok || e.units[u].gpu {
		return 0, false
	}
	lat := memory.LineLatency(e.units[u].mem, 0, false)
	if e.count == memory.ChallengeCount {
		if e.fixedC >= 0 {
			others = e.fixedC
		}
		switch e.fixedCE {
		case 0:
			copies = false
		case 1:
			copies = true
		}
		lat = memory.LineLatency(e.units[u].mem, others, copies)
	}
	return sat.Add(c[u].exec, sat.Mul(c[u].lines, lat)), true
}

// MovesLines reports whether task i moves a DRAM line on CPU unit u in
// every role (its own runnables, without those only asynchronous
// offloading adds).
func (e *Model) MovesLines(i, u int) bool {
	c := e.tasks[i].cpu
	return u >= 0 && u < len(c) && c[u].ok && !e.units[u].gpu && c[u].lines > 0
}

// CopiesLines reports whether GPU task g, on the GPU, copies lines (its
// copy engine is then active).
func (e *Model) CopiesLines(g int) bool {
	gi := &e.gpus[g]
	return gi.copyInLines+gi.copyOutLines > 0
}

// Analyses returns the number of evaluations (complete and partial) this
// evaluator has made, so that a search can account for what its
// constructions spent.
func (e *Evaluator) Analyses() int { return e.analyses }

// MaxVariantTasks is the most tasks a core may have for its priority
// orders to be varied (PriorityVariants, JointOrders); a larger core keeps
// its derived order only.
const MaxVariantTasks = maxVariantTasks
