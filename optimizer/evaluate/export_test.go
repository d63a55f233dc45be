package evaluate

import (
	"slices"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/rta"
	"github.com/hetmap/hetmap/rta/syssim"
)

// SetByTask makes the evaluator's analysis iterate over every interferer
// instead of interferer classes (rta.Analyzer.ByTask): the reference that
// TestClassesChangeNothing compares with.
func SetByTask(e *Evaluator, on bool) { e.an.ByTask = on }

// EvaluateScaled evaluates a with the execution demand of the tasks on
// units of kind ("" every kind) and of task (-1 every task) scaled by
// perMille/1000, as Margins' probes do.
func (e *Evaluator) EvaluateScaled(a *Assignment, kind string, task int, perMille int64, r *Analysis) error {
	return newScaler(e).at(scaling{ppm: perMille * 1000, kind: kind, task: task}).Evaluate(a, r)
}

// MarginsBisect computes the margins of mapping a, evaluated into r, by
// plain bisection over whole analyses, every margin on its own: the
// algorithm of Margins before its search started from the sensitivity of
// the tests (marginsearch.go), kept as the reference that
// TestMarginsFastEqualBisection compares with. From factor 1 it doubles the
// factor until the mapping fails, then halves the interval to 0.1 %; what
// binds is read from the whole analysis at the failing factor, which
// e.margin.rb holds for the last margin.
func (e *Evaluator) MarginsBisect(a *Assignment, r *Analysis) (*Margins, error) {
	e.prepareMargins(a, r)
	holds := r.Schedulable && r.RequirementsMet
	m := &Margins{}
	var err error
	if m.ExecutionScale, err = e.bisect(scaling{task: -1}, holds); err != nil {
		return nil, err
	}
	for _, k := range e.runningKinds(r) {
		mg, err := e.bisect(scaling{kind: k, task: -1}, holds)
		if err != nil {
			return nil, err
		}
		m.Kinds = append(m.Kinds, KindMargin{Kind: k, Margin: mg})
	}
	for i := range r.Tasks {
		if r.Tasks[i].Role == NotRunning {
			continue
		}
		mg, err := e.bisect(scaling{task: i}, holds)
		if err != nil {
			return nil, err
		}
		m.Tasks = append(m.Tasks, TaskMargin{Task: i, Name: r.Tasks[i].Name, Margin: mg})
	}
	return m, nil
}

// bisect is one margin of MarginsBisect.
func (e *Evaluator) bisect(s scaling, holds bool) (Margin, error) {
	if !holds {
		return e.marginBelowOne(s)
	}
	lo, hi := int64(1000), int64(0)
	for k := int64(2000); hi == 0; k *= 2 {
		k = min(k, maxPerMille)
		ok, err := e.probe(s, k, true)
		if err != nil {
			return Margin{}, err
		}
		switch {
		case !ok:
			hi = k
		case k == maxPerMille:
			return Margin{Status: MarginAtLeast, PerMille: maxPerMille, BindingTask: -1}, nil
		default:
			lo = k
		}
	}
	lo, hi, err := e.bisectFactor(s, lo, hi)
	if err != nil {
		return Margin{}, err
	}
	m, err := e.bindingAlone(s, lo, hi)
	m.Status, m.PerMille = MarginFound, lo
	return m, err
}

// FailsAlone reports whether task b fails its own test at factor k
// (thousandths) of the scaling of the tasks on units of kind ("" every
// kind) and of task (-1 every task) of mapping a, evaluated into r, when
// every other core's tasks and the copies are counted with their bounds
// at factor k − 1: the mapping analysed in whole at k − 1, then b's core
// (or, for a GPU task, the GPU) at k with those bounds held. It is issue
// 32's property of what binds a margin of k − 1.
func (e *Evaluator) FailsAlone(a *Assignment, r *Analysis, kind string, task int, k int64, b int) (bool, error) {
	e.prepareMargins(a, r)
	s := scaling{kind: kind, task: task}
	if _, err := e.probe(s, k-1, false); err != nil {
		return false, err
	}
	ms := &e.margin
	rb := ms.rb
	if rb.Tasks[b].Role == OnGPU || (rb.Tasks[b].GPU >= 0 && !rb.Tasks[b].Role.OnCPU()) {
		if _, err := e.probe(s, k, false); err != nil {
			return false, err
		}
		g := &rb.GPU[rb.Tasks[b].GPU]
		return !g.WithinPeriod || g.Response.Total > rb.Tasks[b].D, nil
	}
	held := slices.Clone(ms.sc.e.ref.resp)
	se := ms.sc.at(scaling{ppm: k * 1000, kind: kind, task: task})
	gpuScaled := false
	for g := range se.gpus {
		gpuScaled = gpuScaled || (rb.GPU[g].OnGPU && s.applies(se, se.gpus[g].task, se.gpuUnit))
	}
	if gpuScaled {
		if err := se.gpuSide(ms.b, rb, rb.InterferingCoresCE, rb.Units[se.gpuUnit].LineLatency); err != nil {
			return false, err
		}
	}
	u := rb.Tasks[b].Unit
	out := se.coreAgainst(ms.b, rb, u, held, false)
	for n, i := range se.onCore[u] {
		if i == b {
			st := out[n].Status
			return st == rta.DeadlineMiss || st == rta.Exceeded || st == rta.Unbounded, nil
		}
	}
	return false, nil
}

// AnyFailsAlone reports whether some running task fails alone
// (FailsAlone) at factor k of the scaling.
func (e *Evaluator) AnyFailsAlone(a *Assignment, r *Analysis, kind string, task int, k int64) (bool, error) {
	for i := range r.Tasks {
		if r.Tasks[i].Role == NotRunning {
			continue
		}
		alone, err := e.FailsAlone(a, r, kind, task, k, i)
		if err != nil || alone {
			return alone, err
		}
	}
	return false, nil
}

// The analyses' helpers that only the package's own tests call by name.

// ChainMember returns task k as a chain analysis sees it under the mapping
// evaluated in r (chainMember).
func (e *Evaluator) ChainMember(r *Analysis, k int) chains.Member {
	var m chains.Member
	e.chainMember(r, k, &m)
	return m
}

// Representative is representative: the task that stands for task k in a
// chain under the mapping evaluated in r.
func (e *Evaluator) Representative(r *Analysis, k int) int { return e.representative(r, k) }

// ChainObjectives is chainObjectives: the configured latency of every
// chain into out, and per chain whether it has a value.
func (e *Evaluator) ChainObjectives(r *Analysis, out []int64, ok []bool) {
	e.chainObjectives(r, out, ok)
}

// ContentionDetail is contentionDetail: the contention of every task.
func (e *Evaluator) ContentionDetail(r *Analysis) ([]TaskContention, error) {
	return e.contentionDetail(r)
}

// RequirementReports is requirementReports: how each chain latency
// requirement stands.
func (e *Evaluator) RequirementReports(r *Analysis) []RequirementReport {
	return e.requirementReports(r)
}

// TimelineWindow is timelineOver: the timeline over window.
func (e *Evaluator) TimelineWindow(r *Analysis, window int64) (*Timeline, error) {
	return e.timelineOver(r, window)
}

// SimulationInput is simulationInput: the system simulator's input of
// the mapping evaluated in r.
func (e *Evaluator) SimulationInput(r *Analysis) (*syssim.System, error) {
	return e.simulationInput(r)
}

// The settings that a search gives its evaluators once (Options, With),
// switched in place on an evaluator by the package's tests.

// SetLimit sets Options.Limit.
func (e *Evaluator) SetLimit(l rta.Limit) { e.setLimit(l) }

// SetRefuteFirst sets Options.RefuteFirst.
func (e *Evaluator) SetRefuteFirst(on bool) { e.setRefuteFirst(on) }

// SetStop sets Options.Stop.
func (e *Evaluator) SetStop(stop func() bool) { e.stop = stop }

// SetMemo turns the per-core memo on (the default) or off. Results are the
// same either way; off, every evaluation analyses every core (for
// benchmarks of the analysis itself and for the tests that prove that).
func (e *Evaluator) SetMemo(on bool) { e.noMemo = !on }

// SetChallengeFirst turns on or off, for every evaluator, the challenge
// pass that Evaluate with Options.RefuteFirst and Refutes try before the
// relaxed test (TestChallengeFirstChangesNothing compares).
func SetChallengeFirst(on bool) { useChallengeFirst = on }

// ChallengeMeets reports whether the challenge pass of the complete
// mapping a meets every deadline, so that its relaxed test is known to
// pass (challengeMeets); it analyses a with a clone of e.
func (e *Evaluator) ChallengeMeets(a *Assignment) bool {
	c := e.Clone()
	meets, _, err := c.startFull(a, c.NewAnalysis())
	return err == nil && meets
}
