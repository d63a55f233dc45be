package evaluate

import (
	"errors"
	"fmt"
	"slices"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta/gpu"
	"github.com/hetmap/hetmap/rta/syssim"
)

// simulationInput builds the input of the system simulator (rta/syssim)
// for the mapping evaluated in r by this Evaluator: one syssim.Core per CPU
// unit, in System.Units order, with its running tasks in the analysed
// priority order (Rank, then task order); per task its runnables' lines
// read and written and execute times (worst and best case), for an
// offloading task its GPU job (copy lines, kernel geometry and block time,
// stream priority or time slice, as analysed) and its wait mode; the
// memory parameters of every core kind and of the copy engine, with the
// configuration's fixed #C (a cap on the cores counted per access) and bGPU
// (0: the copy engine does not slow the cores) honoured. Task and GPU job
// IDs are task indices of System.Tasks.
//
// Every task is released at 0 (the model's offsets are not used) and the
// horizon is Timeline's default window; the memory mode is PerAccess, and
// nothing varies. Callers change these fields (offsets, Horizon, End,
// Memory, Vary) to explore other schedules; the analysed bounds must hold
// for all of them.
func (e *Evaluator) simulationInput(r *Analysis) (*syssim.System, error) {
	if r == nil || r.owner != e.cfg || len(r.Tasks) != len(e.tasks) || len(r.GPU) != len(e.gpus) || len(r.Units) != len(e.units) {
		return nil, errors.New("optimizer: the simulation needs a result evaluated by the same evaluator")
	}
	s := e.cfg.System
	lines, err := e.labelLines()
	if err != nil {
		return nil, err
	}
	in := &syssim.System{CopyEngine: syssim.CopyEngine{Baseline: e.ce.Baseline, PerCore: e.ce.PerCore}}
	in.Horizon, _ = e.timelineWindow(r)
	switch {
	case e.fixedC == 0:
		in.CopyEngine.PerCore = 0
	case e.fixedC > 0:
		in.MaxInterferingCores = e.fixedC
	}
	if e.gpuUnit >= 0 {
		in.GPU = &syssim.GPU{Model: syssim.FIFO, Device: e.dev}
		if !e.fifo {
			in.GPU.Model = syssim.TimeSlice
		}
	}
	for _, u := range e.cpuUnits() {
		ui := &e.units[u]
		core := syssim.Core{Name: ui.name, Memory: syssim.CoreMemory{Baseline: ui.mem.Baseline, PerCore: ui.mem.PerCore, CopyEngine: ui.mem.CopyEngine}}
		if e.fixedC == 0 {
			core.Memory.PerCore = 0
		}
		if e.fixedCE == 0 {
			core.Memory.CopyEngine = 0
		}
		var ids []int
		for i := range r.Tasks {
			if tr := &r.Tasks[i]; tr.Role.OnCPU() && tr.Unit == u {
				ids = append(ids, i)
			}
		}
		slices.SortStableFunc(ids, func(a, b int) int { return r.Tasks[a].Rank - r.Tasks[b].Rank })
		for _, i := range ids {
			t, err := e.simTask(s, lines, r, i, ui)
			if err != nil {
				return nil, fmt.Errorf("task %s on %s: %w", r.Tasks[i].Name, ui.name, err)
			}
			core.Tasks = append(core.Tasks, t)
		}
		in.Cores = append(in.Cores, core)
	}
	return in, nil
}

// simTask describes task i, running on CPU unit ui, for the simulator.
func (e *Evaluator) simTask(s *configs.System, lines map[string]int64, r *Analysis, i int, ui *unitInfo) (syssim.Task, error) {
	tr := &r.Tasks[i]
	st := &s.Tasks[i]
	t := syssim.Task{ID: i, Name: tr.Name, Period: tr.T, Deadline: tr.D}
	var err error
	switch tr.Role {
	case Merged:
		t.Runnables, err = simMerged(s, lines, st, s.Task(st.TriggeredBy), ui)
		return t, err
	case Periodic:
		t.Runnables, err = simRunnables(s, lines, st.Runnables, ui)
		return t, err
	}
	// Offloading, synchronously or asynchronously.
	if t.Runnables, err = simRunnables(s, lines, st.Runnables, ui); err != nil {
		return t, err
	}
	o := &syssim.Offload{Async: tr.Role == OffloadAsync}
	post := st.Offload.Post
	if o.Async {
		post = append(append([]string(nil), st.Offload.WaitRunnables...), post...)
	}
	if o.Post, err = simRunnables(s, lines, post, ui); err != nil {
		return t, err
	}
	gr := &r.GPU[tr.GPU]
	gi := &e.gpus[tr.GPU]
	o.GPU = syssim.GPUJob{ID: gi.task, Name: gr.Name, CopyIn: gi.copyInLines, CopyOut: gi.copyOutLines, High: gr.High, Slice: gr.Slice,
		Kernel: syssim.Kernel{Blocks: gi.blocks, ThreadsPerBlock: gi.threads, SharedMemPerBlock: gi.sharedMem, RegistersPerBlock: gi.registers,
			BlockTime: gi.blockTime, Time: gr.Response.KernelIsolated, TimeBest: min(gi.kernelBest, gr.Response.KernelIsolated)}}
	// A block's best time: the best-case kernel spread over the same waves.
	slots := int64(e.dev.Slots(gpu.Kernel{ThreadsPerBlock: gi.threads, SharedMemPerBlock: gi.sharedMem, RegistersPerBlock: gi.registers}))
	if slots > 0 {
		o.GPU.Kernel.BlockTimeBest = min(gi.blockTime, ceilDiv(gi.kernelBest, ceilDiv(int64(gi.blocks), slots)))
	}
	t.Offload = o
	return t, nil
}

// simRunnables gives the simulator the runnables' read/execute/write
// phases on unit u: the lines of the labels read and written and the
// execute time of the ticks (upper and lower bound), as runCost sums them.
func simRunnables(s *configs.System, lines map[string]int64, names []string, u *unitInfo) ([]syssim.Runnable, error) {
	var out []syssim.Runnable
	for _, name := range names {
		rn := s.Runnable(name)
		if rn == nil {
			return nil, fmt.Errorf("runnable %s is not defined", name)
		}
		var sr syssim.Runnable
		for _, l := range rn.Reads {
			sr.Read += lines[l]
		}
		for _, l := range rn.Writes {
			sr.Write += lines[l]
		}
		if len(rn.Ticks) > 0 {
			tk, ok := rn.TicksFor(u.kind)
			if !ok {
				return nil, fmt.Errorf("runnable %s has no ticks for %s", name, u.kind)
			}
			var err error
			if sr.Compute, err = memory.TicksToPicos(tk.Upper, u.freq); err != nil {
				return nil, fmt.Errorf("runnable %s: %w", name, err)
			}
			if sr.ComputeBest, err = memory.TicksToPicos(tk.Lower, u.freq); err != nil {
				return nil, fmt.Errorf("runnable %s: %w", name, err)
			}
			sr.ComputeBest = min(sr.ComputeBest, sr.Compute)
		}
		out = append(out, sr)
	}
	return out, nil
}

// simMerged is the merged variant of GPU task g on unit u (mergedCost's
// convention) as one runnable: read what the pre-processing read, run the
// kernel's runnables with the CPU ticks, write what the post-processing
// wrote, each label once.
func simMerged(s *configs.System, lines map[string]int64, g, pre *configs.Task, u *unitInfo) ([]syssim.Runnable, error) {
	var m syssim.Runnable
	seen := map[string]bool{}
	for _, name := range pre.Runnables {
		if rn := s.Runnable(name); rn != nil {
			for _, l := range rn.Reads {
				if !seen[l] {
					seen[l] = true
					m.Read += lines[l]
				}
			}
		}
	}
	clear(seen)
	for _, name := range pre.Offload.Post {
		if rn := s.Runnable(name); rn != nil {
			for _, l := range rn.Writes {
				if !seen[l] {
					seen[l] = true
					m.Write += lines[l]
				}
			}
		}
	}
	var names []string
	for _, rn := range s.ComputeRunnables(g) {
		names = append(names, rn.Name)
	}
	ks, err := simRunnables(s, map[string]int64{}, names, u)
	if err != nil {
		return nil, err
	}
	for _, k := range ks {
		m.Compute += k.Compute
		m.ComputeBest += k.ComputeBest
	}
	return []syssim.Runnable{m}, nil
}

// labelLines recomputes the lines of every label (NewEvaluator does not
// keep them).
func (e *Evaluator) labelLines() (map[string]int64, error) {
	s := e.cfg.System
	lines := make(map[string]int64, len(s.Labels))
	for _, l := range s.Labels {
		n, err := memory.Lines(int64(l.Size), int64(s.Memory.LineSize))
		if err != nil {
			return nil, fmt.Errorf("label %s: %w", l.Name, err)
		}
		lines[l.Name] = n
	}
	return lines, nil
}
