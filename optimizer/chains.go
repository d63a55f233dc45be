package optimizer

import "github.com/hetmap/hetmap/chains"

// Representative returns the task that stands for task k in a chain under
// the mapping evaluated in r: a GPU task on the GPU is represented by its
// offloading (PRE) task, whose response includes the GPU's; the PRE task of
// a merged GPU task by the merged task; every other task by itself.
func (e *Evaluator) Representative(r *Result, k int) int {
	ti := &e.tasks[k]
	switch {
	case ti.kind == kindGPU && r.Tasks[k].Role == OnGPU:
		return ti.pre
	case ti.kind == kindOffloading && r.Tasks[k].Role == NotRunning:
		return e.gpus[ti.gpu].task
	}
	return k
}

// ChainMember returns task k as a chain analysis sees it under the mapping
// evaluated in r (see Representative): period, offset, best- and
// worst-case response time, deadline, and Unbounded with the verdict when its
// response time is not a sound bound.
func (e *Evaluator) ChainMember(r *Result, k int) chains.Member {
	t := &r.Tasks[e.Representative(r, k)]
	m := chains.Member{Name: t.Name, Period: t.T, Offset: t.Offset, BCRT: min(t.BCRT, t.R), WCRT: t.R, Deadline: t.D}
	if !t.Verdict.Bounded() {
		m.Unbounded, m.Why = true, t.Verdict.String()
		m.BCRT, m.WCRT = 0, 0
	}
	return m
}

// NumChains returns the number of chains of the system (System.Chains).
func (e *Evaluator) NumChains() int { return len(e.chains) }

// ChainMembers appends the members of chain c (System.Chains order) under
// the mapping evaluated in r to buf[:0] and returns it; with a buffer of
// sufficient capacity it does not allocate.
func (e *Evaluator) ChainMembers(r *Result, c int, buf []chains.Member) []chains.Member {
	buf = buf[:0]
	for _, k := range e.chains[c] {
		buf = append(buf, e.ChainMember(r, k))
	}
	return buf
}
