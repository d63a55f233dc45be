package amalthea

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hetmap/hetmap/configs"
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
	waitMode        configs.WaitMode
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

// items reads the activity-graph items of a task (at where; rel names
// them relative to the task) in order: demands gather into the pending
// runnable, groups are read in place, and calls, switches, triggers, waits
// and clears each end the pending runnable first.
func (tr *taskReader) items(where, rel string, items []*xnode) error {
	im := tr.im
	for i, it := range items {
		iw := itemWhere(where, it, i)
		irel := fmt.Sprintf("%s%s[%d]", rel, it.name, i)
		kind, known := itemKinds[it.typ()]
		if !known {
			return im.refuse(iw, it)
		}
		var err error
		switch kind {
		case itemDemand:
			var d *demand
			if d, err = im.demandItem(iw, it); err == nil {
				if tr.pending == nil {
					tr.pending, tr.pendAt = &demand{}, irel
				}
				if err = im.seqAt(tr.pending, d, it, iw); err == nil {
					err = im.seqAt(tr.g.all, d, it, iw)
				}
			}
		case itemCall:
			err = tr.call(iw, it)
		case itemGroup:
			if err = im.checkGroup(iw, it); err == nil {
				err = tr.items(iw, irel+"/", groupItems(it))
			}
		case itemSwitch:
			err = tr.switchItem(iw, irel, it)
		case itemTrigger:
			err = tr.trigger(iw, it)
		case itemWait:
			err = tr.wait(iw, it)
		case itemClear:
			if err = tr.flush(); err == nil {
				tr.g.cleared = true
			}
		case itemSet:
			tr.g.setEventFor = it.ref("process")
		case itemNoop:
			im.noop(iw, it)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// call reads a runnable call (at iw): the called runnable's demand, calls
// and triggers join the task's, and the runnable is emitted.
func (tr *taskReader) call(iw string, it *xnode) error {
	if err := tr.flush(); err != nil {
		return err
	}
	rn := it.ref("runnable")
	d, err := tr.im.runnableDemand(iw, it, rn)
	if err != nil {
		return err
	}
	if err := tr.im.seqAt(tr.g.all, d, it, iw); err != nil {
		return err
	}
	tr.g.all.calls = addUnique(tr.g.all.calls, rn)
	tr.g.cpuTriggers = append(tr.g.cpuTriggers, d.triggers...)
	return tr.emit(rn)
}

// switchItem reads a switch (at iw, rel irel) as one synthetic runnable
// with the demand of its worst branch; a trigger inside it is taken as
// triggering in every activation (warned).
func (tr *taskReader) switchItem(iw, irel string, it *xnode) error {
	im := tr.im
	if err := tr.flush(); err != nil {
		return err
	}
	d, err := im.switchDemand(iw, it, "a switch")
	if err != nil {
		return err
	}
	if err := im.seqAt(tr.g.all, d, it, iw); err != nil {
		return err
	}
	for _, t := range d.triggers {
		im.warn(t.where, "InterProcessTrigger inside a switch: taken as triggering in every activation (the worst case for the tasks it activates)")
	}
	tr.g.cpuTriggers = append(tr.g.cpuTriggers, d.triggers...)
	name := im.syntheticName(tr.g.name + "/" + irel)
	if err := im.addSynthetic(name, it, d); err != nil {
		return err
	}
	return tr.emit(name)
}

// trigger reads an InterProcessTrigger (at iw). It stays the last trigger,
// an offload if a WaitEvent follows it directly; the one it replaces
// activates a CPU task.
func (tr *taskReader) trigger(iw string, it *xnode) error {
	if err := tr.flush(); err != nil {
		return err
	}
	trg, err := tr.im.triggerOf(iw, it)
	if err != nil {
		return err
	}
	if tr.lastTrigger != nil {
		tr.g.cpuTriggers = append(tr.g.cpuTriggers, *tr.lastTrigger)
	}
	tr.lastTrigger = &trg
	return nil
}

// wait reads a WaitEvent (at iw): it makes the trigger just before it the
// task's one offload, waited for actively or passively.
func (tr *taskReader) wait(iw string, it *xnode) error {
	im := tr.im
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
		tr.g.waitMode = configs.WaitActive
	case "passive":
		tr.g.waitMode = configs.WaitPassive
	default:
		return im.errAt(it, iw, "waitingBehaviour %q is not supported (active or passive)", it.attr("waitingBehaviour"))
	}
	tr.waited = true
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

// tasks reads the model's tasks: each task's graph, its activation by its
// one stimulus (periodic, sporadic, or an InterProcessStimulus resolved
// by linkTriggers), and LET accesses. Tasks that are never activated are
// left out with a warning; a model with no task left is an error.
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
		if err := im.checkTaskElement(where, t); err != nil {
			return err
		}
		g, err := im.taskGraphOf(where, name, t)
		if err != nil {
			return err
		}
		im.taskInfo[name] = g

		task := configs.Task{Name: name, Runnables: g.pre}
		if !g.all.compute && len(t.refs("stimuli")) > 0 {
			im.addNoExecution(where, &task)
		}
		active, err := im.taskStimulus(where, t, &task, activated)
		if err != nil {
			return err
		}
		if !active {
			noStimulus = append(noStimulus, name)
			im.inactive[name] = true
			continue
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
		return im.noTaskError(len(nodes))
	}
	return nil
}

// checkTaskElement refuses a task element t (at where) with a child hetmap
// does not read, or a preemption other than preemptive.
func (im *importer) checkTaskElement(where string, t *xnode) error {
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
	return nil
}

// taskGraphOf reads the activity graph of task element t (named name, at
// where): its runnables before, during and after an offload, and the
// triggers of CPU tasks. Without a ClearEvent, the runnables after the
// WaitEvent run in every activation.
func (im *importer) taskGraphOf(where, name string, t *xnode) (*taskGraph, error) {
	g := &taskGraph{name: name, node: t, all: &demand{}}
	items, err := im.graphItems(where, t)
	if err != nil {
		return nil, err
	}
	tr := &taskReader{im: im, g: g}
	if err := tr.items(where, "", items); err != nil {
		return nil, err
	}
	if err := tr.flush(); err != nil {
		return nil, err
	}
	if tr.lastTrigger != nil {
		g.cpuTriggers = append(g.cpuTriggers, *tr.lastTrigger)
	}
	if g.offload != nil && !g.cleared {
		g.post, g.wait = append(g.wait, g.post...), nil
	}
	return g, nil
}

// addNoExecution gives task (at where), which computes nothing, a
// runnable of 0 ticks on every CPU kind, with a warning. A task that only
// marks instants (TORO's LET tasks read and write labels at their release
// and deadline) costs nothing wherever it runs: the runnable lets it run
// on any core, and it stays in its chains.
func (im *importer) addNoExecution(where string, task *configs.Task) {
	run := im.syntheticName(task.Name + "/no execution")
	r := configs.Runnable{Name: run}
	for _, u := range im.sys.Units {
		if u.Type == configs.CPU {
			if _, has := r.TicksFor(u.Kind); !has {
				r.Ticks = append(r.Ticks, configs.Ticks{Kind: u.Kind})
			}
		}
	}
	im.synthetic[run] = true
	im.sys.Runnables = append(im.sys.Runnables, r)
	task.Runnables = append(append([]string(nil), task.Runnables...), run)
	im.warn(where, "the task computes nothing (no Ticks or ExecutionNeed in its graph or its runnables): imported with an execution time of 0 on every core (runnable %s), so that it can run on any core and stays in its chains", run)
}

// taskStimulus reads the activation of task element t (at where) into
// task: the period, offset and jitter of its one stimulus, or, for an
// InterProcessStimulus, the task's name among those it activates. It
// reports false for a task without a stimulus; a refused stimulus, or
// more than one, is an error.
func (im *importer) taskStimulus(where string, t *xnode, task *configs.Task, activated map[string][]string) (bool, error) {
	stims := t.refs("stimuli")
	switch {
	case len(stims) == 0:
		return false, nil
	case len(stims) > 1:
		return false, im.errAt(t, where, "a task needs exactly one stimulus, found %d (%s)", len(stims), strings.Join(stims, ", "))
	}
	si, ok := im.stimuli[stims[0]]
	if !ok {
		return false, im.undefinedRef(t, where, "stimulus", "stimuli", stims[0])
	}
	if si.refused != "" {
		return false, im.errAt(si.node, "stimuliModel/stimuli["+stims[0]+"]", "%s (it activates task %s)", si.refused, task.Name)
	}
	if si.ips {
		activated[stims[0]] = append(activated[stims[0]], task.Name)
	} else {
		task.Period, task.Offset, task.Jitter = si.period, si.offset, si.jitter
	}
	return true, nil
}

// noTaskError says why a model of n task elements leaves no task to
// analyse: it has none, or none is ever activated.
func (im *importer) noTaskError(n int) error {
	var at *xnode
	if sw := im.subModels("swModel"); len(sw) > 0 {
		at = sw[0]
	}
	if n == 0 {
		return im.errAt(at, "swModel/tasks", "the model has no task: hetmap maps tasks (a model of runnables alone needs its tasks made first, for instance by the APP4MC mapping tool)")
	}
	return im.errAt(at, "swModel/tasks", "none of the model's %d task(s) is ever activated (%s): nothing to analyse; give each a stimulus", n, listSome(im.sortedInactive(), 6))
}

// linkTriggers links offloading tasks with their GPU tasks and triggering
// tasks with the CPU tasks they activate (activated: the tasks each
// InterProcessStimulus activates), resolves the periods and offsets that
// activated tasks inherit, and leaves out the tasks that nothing
// activates.
func (im *importer) linkTriggers(activated map[string][]string) error {
	triggeredBy, err := im.linkOffloads(activated)
	if err != nil {
		return err
	}
	if err := im.linkCPUTriggers(activated, triggeredBy); err != nil {
		return err
	}
	if err := im.inheritPeriods(); err != nil {
		return err
	}
	im.dropNeverActivated()
	return nil
}

// linkOffloads links every offloading task with the GPU task its trigger
// activates (one task, on a model with a GPU, without a counter, triggered
// by no other task) and returns each GPU task's offloading task. A task
// that offloads nothing runs its runnables after a wait in every
// activation.
func (im *importer) linkOffloads(activated map[string][]string) (map[string]string, error) {
	hasGPU := false
	for _, u := range im.sys.Units {
		hasGPU = hasGPU || u.Type == configs.GPU
	}
	triggeredBy := map[string]string{}
	for i := range im.sys.Tasks {
		t := &im.sys.Tasks[i]
		g := im.taskInfo[t.Name]
		where := "swModel/tasks[" + t.Name + "]"
		o := g.offload
		if o == nil {
			if len(g.wait)+len(g.post) > 0 {
				t.Runnables = append(append(t.Runnables, g.wait...), g.post...)
			}
			continue
		}
		si, ok := im.stimuli[o.stimulus]
		if !ok || !si.ips {
			return nil, im.errAt(o.node, where, "InterProcessTrigger names stimulus %q, which is not an InterProcessStimulus", o.stimulus)
		}
		targets := activated[o.stimulus]
		switch {
		case len(targets) == 0:
			return nil, im.errAt(o.node, where, "InterProcessTrigger names stimulus %q, which activates no task", o.stimulus)
		case len(targets) > 1:
			return nil, im.errAt(o.node, where, "the task waits for the GPU work it triggers, but stimulus %q activates %d tasks (%s)", o.stimulus, len(targets), strings.Join(targets, ", "))
		case !hasGPU:
			return nil, im.errAt(o.node, o.where, "%s triggers %s and waits for it (WaitEvent), but the model has no GPU: a task that waits for another CPU task is not supported", t.Name, targets[0])
		case o.prescaler != 1 || si.prescaler != 1:
			return nil, im.errAt(o.node, o.where, "an offload with a counter (prescaler) is not supported")
		}
		gpuName := targets[0]
		if prev, dup := triggeredBy[gpuName]; dup {
			return nil, im.errAt(o.node, "swModel/tasks["+gpuName+"]", "triggered by two tasks (%s and %s)", prev, t.Name)
		}
		triggeredBy[gpuName] = t.Name
		t.Offload = &configs.Offload{GPUTask: gpuName, Wait: g.waitMode, WaitRunnables: g.wait, Post: g.post}
		if t.Offload.Post == nil {
			t.Offload.Post = []string{}
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
	return triggeredBy, nil
}

// linkCPUTriggers makes every task that a CPU trigger activates (not a
// GPU task, activated by one trigger only) an activated task: it inherits
// the period and offset of the task that triggers it, here as factors of
// that task's period that inheritPeriods resolves, and its release jitter
// is that task's response time (the evaluator adds it). A trigger that
// activates no task is read past with a warning.
func (im *importer) linkCPUTriggers(activated map[string][]string, triggeredBy map[string]string) error {
	activatedBy := map[string]string{}
	for i := range im.sys.Tasks {
		t := &im.sys.Tasks[i]
		for _, trg := range im.taskInfo[t.Name].cpuTriggers {
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
				tt.Period = configs.Duration(trg.prescaler * si.prescaler) // multiplied by the trigger's period in inheritPeriods
				tt.Offset = configs.Duration(trg.offset + si.counterOffset*trg.prescaler)
			}
		}
	}
	return nil
}

// inheritPeriods resolves the periods and offsets of activated tasks in
// trigger order (an activated task may trigger others): the factors that
// linkCPUTriggers set times the period of the activating task. A task
// whose activator is never activated is not activated either; a GPU task
// as activator, a period that does not fit, and a cycle of activations are
// errors.
func (im *importer) inheritPeriods() error {
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
			t.Period = configs.Duration(n) * by.Period
			t.Offset = by.Offset + configs.Duration(off)*by.Period
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
	return nil
}

// dropNeverActivated leaves out, with a warning, the tasks activated by an
// InterProcessStimulus that no task triggers: they never run.
func (im *importer) dropNeverActivated() {
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
}

// maxDurationFactor bounds an inherited period: ten hours in picoseconds.
const maxDurationFactor = 36000 * configs.Second

// sortedInactive returns the tasks left out as never activated, sorted.
func (im *importer) sortedInactive() []string {
	out := make([]string, 0, len(im.inactive))
	for t := range im.inactive {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
