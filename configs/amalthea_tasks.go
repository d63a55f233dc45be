package configs

import (
	"fmt"
	"sort"
	"strings"
)

// taskGraph is what a task's activity graph says, in order.
type taskGraph struct {
	name string
	node *xnode
	// all is the demand of the whole task (every path): its accesses, calls
	// and triggers, for events and the LET check.
	all *demand
	// pre runs before the offload (all runnables when the task offloads
	// nothing), wait between the WaitEvent and the ClearEvent of a passive
	// wait, post after the wait.
	pre, wait, post []string
	offload         *trigger
	waitNode        *xnode // the WaitEvent of the offload
	waitMode        WaitMode
	cleared         bool
	setEventFor     string
	cpuTriggers     []trigger
}

// taskChildren are the children of a task hetmap reads or reads past.
var taskChildren = map[string]bool{
	"activityGraph": true, "callGraph": true, "customProperties": true, "size": true, "localLabels": true,
	"stimuli": true, "tags": true, "namespace": true,
}

// taskReader builds one task's graph.
type taskReader struct {
	im      *importer
	g       *taskGraph
	pending *demand // items read since the last runnable
	pendAt  string  // where the pending items start
	// lastTrigger is a trigger not yet followed by anything: a WaitEvent
	// right after it makes it the offload.
	lastTrigger *trigger
	waited      bool
}

func (tr *taskReader) emit(run string) error {
	g := tr.g
	if tr.lastTrigger != nil {
		g.cpuTriggers = append(g.cpuTriggers, *tr.lastTrigger)
		tr.lastTrigger = nil
	}
	switch {
	case g.offload == nil:
		g.pre = append(g.pre, run)
	case tr.waited && !g.cleared:
		// Between the WaitEvent and the ClearEvent: runs only when the task
		// waits passively (tasks() moves them to post when no ClearEvent
		// follows).
		g.wait = append(g.wait, run)
	default:
		g.post = append(g.post, run)
	}
	return nil
}

// flush turns the items read since the last runnable into a runnable of
// the task.
func (tr *taskReader) flush() error {
	if tr.pending == nil {
		return nil
	}
	d := tr.pending
	tr.pending = nil
	name := tr.im.syntheticName(tr.g.name + "/" + tr.pendAt)
	if err := tr.im.addSynthetic(name, tr.g.node, d); err != nil {
		return err
	}
	return tr.emit(name)
}

func (tr *taskReader) items(where, rel string, items []*xnode) error {
	im := tr.im
	for i, it := range items {
		iw := itemWhere(where, it, i)
		irel := fmt.Sprintf("%s%s[%d]", rel, it.name, i)
		t := it.typ()
		kind, known := itemKinds[t]
		if !known {
			return im.refuse(iw, it)
		}
		switch kind {
		case itemDemand:
			d, err := im.demandItem(iw, it)
			if err != nil {
				return err
			}
			if tr.pending == nil {
				tr.pending, tr.pendAt = &demand{}, irel
			}
			tr.pending.seq(d)
			tr.g.all.seq(d)
		case itemCall:
			if err := tr.flush(); err != nil {
				return err
			}
			rn := it.ref("runnable")
			d, err := im.runnableDemand(iw, it, rn)
			if err != nil {
				return err
			}
			tr.g.all.seq(d)
			tr.g.all.calls = addUnique(tr.g.all.calls, rn)
			tr.g.cpuTriggers = append(tr.g.cpuTriggers, d.triggers...)
			if err := tr.emit(rn); err != nil {
				return err
			}
		case itemGroup:
			if err := im.checkGroup(iw, it); err != nil {
				return err
			}
			if err := tr.items(iw, irel+"/", groupItems(it)); err != nil {
				return err
			}
		case itemSwitch:
			if err := tr.flush(); err != nil {
				return err
			}
			d, err := im.switchDemand(iw, it, "a switch")
			if err != nil {
				return err
			}
			tr.g.all.seq(d)
			for _, t := range d.triggers {
				im.warn(t.where, "InterProcessTrigger inside a switch: taken as triggering in every activation (the worst case for the tasks it activates)")
			}
			tr.g.cpuTriggers = append(tr.g.cpuTriggers, d.triggers...)
			name := im.syntheticName(tr.g.name + "/" + irel)
			if err := im.addSynthetic(name, it, d); err != nil {
				return err
			}
			if err := tr.emit(name); err != nil {
				return err
			}
		case itemTrigger:
			if err := tr.flush(); err != nil {
				return err
			}
			trg, err := im.triggerOf(iw, it)
			if err != nil {
				return err
			}
			if tr.lastTrigger != nil {
				tr.g.cpuTriggers = append(tr.g.cpuTriggers, *tr.lastTrigger)
			}
			tr.lastTrigger = &trg
		case itemWait:
			if err := tr.flush(); err != nil {
				return err
			}
			if tr.lastTrigger == nil {
				if tr.g.offload != nil && !tr.waited {
					return im.errAt(it, iw, "a runnable between an InterProcessTrigger and its WaitEvent is not supported")
				}
				return im.errAt(it, iw, "a WaitEvent that does not directly follow an InterProcessTrigger is not supported: a task may wait only for the GPU work it offloads")
			}
			if tr.g.offload != nil {
				return im.errAt(it, iw, "a task that triggers more than one GPU task is not supported")
			}
			tr.g.offload, tr.lastTrigger, tr.g.waitNode = tr.lastTrigger, nil, it
			switch it.attr("waitingBehaviour") {
			case "active":
				tr.g.waitMode = WaitActive
			case "passive":
				tr.g.waitMode = WaitPassive
			default:
				return im.errAt(it, iw, "waitingBehaviour %q is not supported (active or passive)", it.attr("waitingBehaviour"))
			}
			tr.waited = true
		case itemClear:
			if err := tr.flush(); err != nil {
				return err
			}
			tr.g.cleared = true
		case itemSet:
			tr.g.setEventFor = it.ref("process")
		case itemNoop:
			im.noop(iw, it)
		}
	}
	return nil
}

// syntheticName returns a name for a runnable made of a task's own items
// that no runnable of the model has.
func (im *importer) syntheticName(base string) string {
	name := base
	for i := 2; ; i++ {
		if _, taken := im.runNodes[name]; !taken && !im.synthetic[name] {
			return name
		}
		name = fmt.Sprintf("%s#%d", base, i)
	}
}

func (im *importer) addSynthetic(name string, at *xnode, d *demand) error {
	run, err := im.runnableOf("swModel/tasks["+strings.SplitN(name, "/", 2)[0]+"]", at, name, d)
	if err != nil {
		return err
	}
	im.synthetic[name] = true
	im.sys.Runnables = append(im.sys.Runnables, run)
	return nil
}

func (im *importer) tasks() error {
	im.taskInfo = map[string]*taskGraph{}
	im.inactive = map[string]bool{}
	nodes := im.elements("swModel", "tasks")
	if _, err := im.byName("swModel/tasks", nodes); err != nil {
		return err
	}
	// Tasks activated by each InterProcessStimulus.
	activated := map[string][]string{}
	var noStimulus []string
	for _, t := range nodes {
		name := t.attr("name")
		where := "swModel/tasks[" + name + "]"
		for _, k := range t.kids {
			if !taskChildren[k.name] {
				return im.errAt(k, where+"/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
		}
		switch p := t.attr("preemption"); p {
		case "", "_undefined_", "preemptive":
		default:
			return im.errAt(t, where, "preemption=%q is not supported (preemptive): hetmap analyses fully preemptive fixed-priority scheduling", p)
		}
		g := &taskGraph{name: name, node: t, all: &demand{}}
		items, err := im.graphItems(where, t)
		if err != nil {
			return err
		}
		tr := &taskReader{im: im, g: g}
		if err := tr.items(where, "", items); err != nil {
			return err
		}
		if err := tr.flush(); err != nil {
			return err
		}
		if tr.lastTrigger != nil {
			g.cpuTriggers = append(g.cpuTriggers, *tr.lastTrigger)
		}
		if g.offload != nil && !g.cleared {
			g.post, g.wait = append(g.wait, g.post...), nil
		}
		im.taskInfo[name] = g

		task := Task{Name: name, Runnables: g.pre}
		if !g.all.compute && len(t.refs("stimuli")) > 0 {
			// A task that only marks instants (TORO's LET tasks read and
			// write labels at their release and deadline) costs nothing
			// wherever it runs: a runnable of 0 ticks on every core kind
			// lets it run on any core, and it stays in its chains.
			run := im.syntheticName(name + "/no execution")
			r := Runnable{Name: run}
			for _, u := range im.sys.Units {
				if u.Type == CPU {
					if _, has := r.TicksFor(u.Kind); !has {
						r.Ticks = append(r.Ticks, Ticks{Kind: u.Kind})
					}
				}
			}
			im.synthetic[run] = true
			im.sys.Runnables = append(im.sys.Runnables, r)
			task.Runnables = append(append([]string(nil), task.Runnables...), run)
			im.warn(where, "the task computes nothing (no Ticks or ExecutionNeed in its graph or its runnables): imported with an execution time of 0 on every core (runnable %s), so that it can run on any core and stays in its chains", run)
		}
		stims := t.refs("stimuli")
		switch {
		case len(stims) == 0:
			noStimulus = append(noStimulus, name)
			im.inactive[name] = true
			continue
		case len(stims) > 1:
			return im.errAt(t, where, "a task needs exactly one stimulus, found %d (%s)", len(stims), strings.Join(stims, ", "))
		}
		si, ok := im.stimuli[stims[0]]
		if !ok {
			return im.errAt(t, where, "stimulus %q is not defined", stims[0])
		}
		if si.refused != "" {
			return im.errAt(si.node, "stimuliModel/stimuli["+stims[0]+"]", "%s (it activates task %s)", si.refused, name)
		}
		if si.ips {
			activated[stims[0]] = append(activated[stims[0]], name)
		} else {
			task.Period, task.Offset, task.Jitter = si.period, si.offset, si.jitter
		}
		if g.all.timed > 0 {
			task.LET = true
			mixed := ""
			if g.all.untimed > 0 {
				mixed = fmt.Sprintf("; its %d other access(es) are taken to write at the end of the period too (an upper bound)", g.all.untimed)
			}
			im.warn(where, "LET label accesses (implementation=\"timed\"): in chains the task reads at its release and writes at the end of its period%s; its response time is analysed as usual and must stay within the period", mixed)
		}
		im.sys.Tasks = append(im.sys.Tasks, task)
	}
	if len(noStimulus) > 0 {
		im.warn("swModel/tasks", "%d task(s) without a stimulus (%s): never activated, so left out of the analysis", len(noStimulus), listSome(noStimulus, 6))
	}
	if err := im.linkTriggers(activated); err != nil {
		return err
	}
	if len(im.sys.Tasks) == 0 {
		var at *xnode
		if sw := im.subModels("swModel"); len(sw) > 0 {
			at = sw[0]
		}
		if len(nodes) == 0 {
			return im.errAt(at, "swModel/tasks", "the model has no task: hetmap maps tasks (a model of runnables alone needs its tasks made first, for instance by the APP4MC mapping tool)")
		}
		return im.errAt(at, "swModel/tasks", "none of the model's %d task(s) is ever activated (%s): nothing to analyse; give each a stimulus", len(nodes), listSome(im.sortedInactive(), 6))
	}
	return nil
}

// linkTriggers links offloading tasks with their GPU tasks and triggering
// tasks with the CPU tasks they activate.
func (im *importer) linkTriggers(activated map[string][]string) error {
	hasGPU := false
	for _, u := range im.sys.Units {
		hasGPU = hasGPU || u.Type == GPU
	}
	triggeredBy := map[string]string{}
	used := map[string]bool{}
	for i := range im.sys.Tasks {
		t := &im.sys.Tasks[i]
		g := im.taskInfo[t.Name]
		where := "swModel/tasks[" + t.Name + "]"
		if o := g.offload; o != nil {
			used[o.stimulus] = true
			si, ok := im.stimuli[o.stimulus]
			if !ok || !si.ips {
				return im.errAt(o.node, where, "InterProcessTrigger names stimulus %q, which is not an InterProcessStimulus", o.stimulus)
			}
			targets := activated[o.stimulus]
			switch {
			case len(targets) == 0:
				return im.errAt(o.node, where, "InterProcessTrigger names stimulus %q, which activates no task", o.stimulus)
			case len(targets) > 1:
				return im.errAt(o.node, where, "the task waits for the GPU work it triggers, but stimulus %q activates %d tasks (%s)", o.stimulus, len(targets), strings.Join(targets, ", "))
			case !hasGPU:
				return im.errAt(o.node, o.where, "%s triggers %s and waits for it (WaitEvent), but the model has no GPU: a task that waits for another CPU task is not supported", t.Name, targets[0])
			case o.prescaler != 1 || si.prescaler != 1:
				return im.errAt(o.node, o.where, "an offload with a counter (prescaler) is not supported")
			}
			gpuName := targets[0]
			if prev, dup := triggeredBy[gpuName]; dup {
				return im.errAt(o.node, "swModel/tasks["+gpuName+"]", "triggered by two tasks (%s and %s)", prev, t.Name)
			}
			triggeredBy[gpuName] = t.Name
			t.Offload = &Offload{GPUTask: gpuName, Wait: g.waitMode, WaitRunnables: g.wait, Post: g.post}
			if t.Offload.Post == nil {
				t.Offload.Post = []string{}
			}
		} else if len(g.wait)+len(g.post) > 0 {
			t.Runnables = append(append(t.Runnables, g.wait...), g.post...)
		}
	}
	for i := range im.sys.Tasks {
		t := &im.sys.Tasks[i]
		if by, ok := triggeredBy[t.Name]; ok {
			t.TriggeredBy = by
			if se := im.taskInfo[t.Name].setEventFor; se != "" && se != by {
				im.warn("swModel/tasks["+t.Name+"]", "sets the event of %s, but is triggered by %s: taken as signalling %s", se, by, by)
			}
		}
	}
	// CPU triggers: the activated task inherits the period and offset of the
	// task that triggers it; its release jitter is that task's response
	// time (the evaluator adds it).
	activatedBy := map[string]string{}
	for i := range im.sys.Tasks {
		t := &im.sys.Tasks[i]
		for _, trg := range im.taskInfo[t.Name].cpuTriggers {
			used[trg.stimulus] = true
			si, ok := im.stimuli[trg.stimulus]
			if !ok || !si.ips {
				return im.errAt(trg.node, trg.where, "InterProcessTrigger names stimulus %q, which is not an InterProcessStimulus", trg.stimulus)
			}
			targets := activated[trg.stimulus]
			if len(targets) == 0 {
				im.warn(trg.where, "InterProcessTrigger names stimulus %s, which activates no task: read past", trg.stimulus)
				continue
			}
			for _, target := range targets {
				if _, gpu := triggeredBy[target]; gpu {
					return im.errAt(trg.node, trg.where, "%s triggers %s without waiting for it, but %s is the GPU task of %s", t.Name, target, target, triggeredBy[target])
				}
				if prev, dup := activatedBy[target]; dup {
					return im.errAt(trg.node, trg.where, "task %s is activated by the triggers of %s and %s: a task activated by several triggers is not supported", target, prev, t.Name)
				}
				activatedBy[target] = t.Name
				tt := im.sys.Task(target)
				tt.ActivatedBy = t.Name
				tt.Period = Duration(trg.prescaler * si.prescaler) // multiplied by the trigger's period below
				tt.Offset = Duration(trg.offset + si.counterOffset*trg.prescaler)
			}
		}
	}
	// Resolve periods in trigger order (a triggered task may trigger others).
	resolved := map[string]bool{}
	for i := range im.sys.Tasks {
		if im.sys.Tasks[i].ActivatedBy == "" {
			resolved[im.sys.Tasks[i].Name] = true
		}
	}
	for progress := true; progress; {
		progress = false
		for i := range im.sys.Tasks {
			t := &im.sys.Tasks[i]
			if resolved[t.Name] || !resolved[t.ActivatedBy] {
				continue
			}
			by := im.sys.Task(t.ActivatedBy)
			if by.Period <= 0 && !by.IsGPUTask() {
				// The trigger is never activated, so neither is this task.
				t.ActivatedBy, t.Period, t.Offset = "", 0, 0
				resolved[t.Name] = true
				progress = true
				continue
			}
			if by.IsGPUTask() {
				return im.errAt(im.taskInfo[by.Name].node, "swModel/tasks["+by.Name+"]", "the GPU task %s triggers %s: triggers from GPU tasks are not supported", by.Name, t.Name)
			}
			n, off := int64(t.Period), int64(t.Offset)
			if by.Period <= 0 || n > int64(maxDurationFactor)/int64(by.Period) {
				return im.errAt(im.taskInfo[t.Name].node, "swModel/tasks["+t.Name+"]", "the period inherited from %s does not fit", by.Name)
			}
			t.Period = Duration(n) * by.Period
			t.Offset = by.Offset + Duration(off)*by.Period
			resolved[t.Name] = true
			progress = true
		}
	}
	var cycle []string
	for _, t := range im.sys.Tasks {
		if t.ActivatedBy != "" && !resolved[t.Name] {
			cycle = append(cycle, t.Name)
		}
	}
	if len(cycle) > 0 {
		return im.errAt(im.taskInfo[cycle[0]].node, "swModel/tasks["+cycle[0]+"]", "tasks %s activate each other in a cycle", strings.Join(cycle, ", "))
	}
	// Tasks activated by an InterProcessStimulus that no task triggers never run.
	var never []string
	kept := im.sys.Tasks[:0]
	for _, t := range im.sys.Tasks {
		if t.Period == 0 && !t.IsGPUTask() && t.ActivatedBy == "" {
			never = append(never, t.Name)
			im.inactive[t.Name] = true
			continue
		}
		kept = append(kept, t)
	}
	im.sys.Tasks = kept
	if len(never) > 0 {
		im.warn("swModel/tasks", "%d task(s) activated by an InterProcessStimulus that no task triggers (%s): never activated, so left out of the analysis", len(never), listSome(never, 6))
	}
	return nil
}

// maxDurationFactor bounds an inherited period: ten hours in picoseconds.
const maxDurationFactor = 36000 * Second

// sortedInactive returns the tasks left out as never activated, sorted.
func (im *importer) sortedInactive() []string {
	out := make([]string, 0, len(im.inactive))
	for t := range im.inactive {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
