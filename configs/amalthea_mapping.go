package configs

import (
	"strconv"
	"strings"
)

// mapping reads the model's own mapping (task allocations to schedulers and
// cores, priorities, GPU time slices), resolved by the conventions of
// doc.go, each reported as a warning.
func (im *importer) mapping() error {
	if err := im.checkSchedulers(); err != nil {
		return err
	}
	mms := im.subModels("mappingModel")
	if len(mms) == 0 {
		im.warn("Amalthea", "the model has no mapping: there is no default mapping")
		return nil
	}
	owns := map[string][]string{}
	var tas []*xnode
	runnableAllocs := 0
	for _, m := range mms {
		for _, k := range m.kids {
			switch k.name {
			case "schedulerAllocation":
				s := k.ref("scheduler")
				owns[s] = append(owns[s], k.refs("responsibility")...)
			case "taskAllocation":
				tas = append(tas, k)
			case "runnableAllocation":
				runnableAllocs++
			case "memoryMapping", "isrAllocation", "physicalSectionMapping", "customProperties":
			default:
				return im.errAt(k, "mappingModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
		}
	}
	if runnableAllocs > 0 {
		im.warn("mappingModel", "%d runnable allocation(s) read past: hetmap maps tasks, and a runnable runs where its task runs", runnableAllocs)
	}
	type alloc struct {
		unit     string
		priority *int
		slice    Duration
		stream   GPUPriority
	}
	allocs := map[string]alloc{}
	warnedAlgo := map[string]bool{}
	for _, ta := range tas {
		name := ta.ref("task")
		where := "mappingModel/taskAllocation[" + name + "]"
		if im.inactive[name] {
			continue // never activated (warned about)
		}
		t := im.sys.Task(name)
		if t == nil {
			return im.errAt(ta, where, "task %q is not defined", name)
		}
		sched := ta.ref("scheduler")
		si, ok := im.schedulers[sched]
		if !ok {
			return im.errAt(ta, where, "scheduler %q is not defined", sched)
		}
		cores := ta.refs("affinity")
		for _, c := range cores {
			if im.sys.Unit(c) == nil {
				return im.errAt(ta, where, "affinity names unit %q, which is not defined", c)
			}
		}
		var a alloc
		switch {
		case len(cores) == 0 && len(owns[sched]) > 0:
			a.unit = owns[sched][0]
			if im.sys.Unit(a.unit) == nil {
				return im.errAt(ta, where, "scheduler %s is responsible for unit %q, which is not defined", sched, a.unit)
			}
			im.warn(where, "no affinity: placed on %s, the first unit of scheduler %s", a.unit, sched)
		case len(cores) == 0:
			return im.errAt(ta, where, "no affinity and scheduler %s owns no unit", sched)
		default:
			a.unit = cores[0]
			if len(cores) > 1 {
				im.warn(where, "affinity names %d units (%s): placed on the first, %s", len(cores), strings.Join(cores, ", "), a.unit)
			}
		}
		if !contains(owns[sched], a.unit) {
			im.warn(where, "allocated to scheduler %s, which does not own %s (it owns %s): the affinity wins, %s runs on %s",
				sched, a.unit, strings.Join(owns[sched], ", "), name, a.unit)
		}
		if im.sys.Unit(a.unit).Type == CPU {
			if err := im.checkCPUScheduler(where, ta, sched); err != nil {
				return err
			}
			if (si.algorithm == "DeadlineMonotonic" || si.algorithm == "RateMonotonic") && !warnedAlgo[sched] {
				warnedAlgo[sched] = true
				im.warn("osModel/taskSchedulers["+sched+"]", "%s is analysed as fixed-priority preemptive scheduling; the priorities follow analysis.priorities (default: Audsley's OPA), set analysis.priorities: %s to match the model", si.algorithm, map[string]string{"DeadlineMonotonic": PrioritiesDM, "RateMonotonic": PrioritiesRM}[si.algorithm])
			}
		}
		prio, err := im.allocationPriority(where, ta)
		if err != nil {
			return err
		}
		a.priority = prio
		for _, p := range allocationParams(ta) {
			switch {
			case strings.HasPrefix(p.key, "TimeSlice"):
				d, err := ParseDuration(p.value)
				if err != nil {
					return im.errAt(p.node, where+"/"+p.node.name+"["+p.key+"]", "%v", err)
				}
				a.slice = d
			case strings.EqualFold(p.key, streamPriorityKey):
				switch v := GPUPriority(strings.ToLower(p.value)); v {
				case GPUHigh, GPULow:
					a.stream = v
				default:
					return im.errAt(p.node, where+"/"+p.node.name+"["+p.key+"]", "stream priority %q is not high or low", p.value)
				}
			}
		}
		if _, dup := allocs[name]; dup {
			return im.errAt(ta, where, "task %s is allocated twice", name)
		}
		allocs[name] = a
	}
	mp := &im.sys.Mapping
	for _, t := range im.sys.Tasks {
		a, ok := allocs[t.Name]
		where := "mappingModel/taskAllocation[" + t.Name + "]"
		if t.IsGPUTask() {
			if !ok {
				im.warn("mappingModel", "GPU task %s is not allocated: the default mapping leaves it out", t.Name)
				continue
			}
			u := im.sys.Unit(a.unit)
			if u.Type == GPU {
				if a.slice > 0 {
					mp.TimeSlices = append(mp.TimeSlices, TimeSliceSet{Task: t.Name, Slice: a.slice})
				}
				if a.stream != "" {
					mp.GPUPriorities = append(mp.GPUPriorities, GPUPrioritySet{Task: t.Name, Priority: a.stream})
				}
				mp.Units = append(mp.Units, Placement{Task: t.Name, Unit: a.unit})
				continue
			}
			// A GPU task on a core is merged with its offloading task.
			pre := allocs[t.TriggeredBy]
			if pre.unit != "" && pre.unit != a.unit {
				im.warn(where, "runs on core %s while its offloading task %s is on %s: merged into one task on %s", a.unit, t.TriggeredBy, pre.unit, a.unit)
			}
			prio := a.priority
			if prio == nil {
				prio = pre.priority
			}
			mp.Units = append(mp.Units, Placement{Task: t.Name, Unit: a.unit, Priority: prio})
			continue
		}
		if !ok {
			im.warn("mappingModel", "task %s is not allocated: the default mapping leaves it out", t.Name)
			continue
		}
		if t.Offload != nil {
			if g, ok := allocs[t.Offload.GPUTask]; ok && im.sys.Unit(g.unit).Type == CPU {
				continue // merged into the GPU task's placement above
			}
		}
		if im.sys.Unit(a.unit).Type != CPU {
			return im.errAt(nil, where, "CPU task %s is allocated to %s, which is not a CPU core", t.Name, a.unit)
		}
		mp.Units = append(mp.Units, Placement{Task: t.Name, Unit: a.unit, Priority: a.priority})
	}
	im.priorityWarnings()
	return nil
}

// allocationPriority reads a task allocation's priority: the priority
// attribute of its schedulingParameters (0.9.x, 1.x) or the scheduling
// parameter named priority (2.x and later).
func (im *importer) allocationPriority(where string, ta *xnode) (*int, error) {
	for _, sp := range ta.children("schedulingParameters") {
		var s string
		switch {
		case sp.has("priority"):
			s = sp.attr("priority")
		case strings.EqualFold(sp.ref("key"), "priority"):
			if v := sp.child("value"); v != nil {
				s = v.attr("value")
			}
		default:
			continue
		}
		p, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if err != nil {
			return nil, im.errAt(sp, where+"/schedulingParameters", "priority=%q is not an integer", s)
		}
		pi := int(p)
		return &pi, nil
	}
	return nil, nil
}

// checkSchedulers refuses a scheduler hetmap does not analyse that is
// responsible for a CPU core, and says under which scheduling the cores
// without a scheduler are analysed.
func (im *importer) checkSchedulers() error {
	covered := map[string]bool{}
	for _, m := range im.subModels("mappingModel") {
		for _, sa := range m.children("schedulerAllocation") {
			sched := sa.ref("scheduler")
			if _, ok := im.schedulers[sched]; !ok {
				return im.errAt(sa, "mappingModel/schedulerAllocation["+sched+"]", "scheduler %q is not defined", sched)
			}
			for _, u := range sa.refs("responsibility") {
				unit := im.sys.Unit(u)
				if unit == nil {
					return im.errAt(sa, "mappingModel/schedulerAllocation["+sched+"]", "responsibility names unit %q, which is not defined", u)
				}
				covered[u] = true
				if unit.Type == CPU {
					if err := im.checkCPUScheduler("mappingModel/schedulerAllocation["+sched+"]", sa, sched); err != nil {
						return err
					}
				}
			}
		}
	}
	var bare []string
	for _, u := range im.sys.Units {
		if u.Type == CPU && !covered[u.Name] {
			bare = append(bare, u.Name)
		}
	}
	switch {
	case len(bare) == 0:
	case len(im.schedulers) == 0:
		im.warn("osModel", "the model has no task scheduler: every core is analysed under fixed-priority preemptive scheduling")
	default:
		im.warn("mappingModel/schedulerAllocation", "no scheduler is responsible for %s: analysed under fixed-priority preemptive scheduling", strings.Join(bare, ", "))
	}
	return nil
}

// priorityWarnings says, per core, whether --mapping default analyses the
// model's priorities or derives them (System.OwnMapping).
func (im *importer) priorityWarnings() {
	_, warns := im.sys.OwnMapping()
	im.warns = append(im.warns, warns...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// streamPriorityKey is the parameter with which hetmap's export writes the
// CUDA stream priority of a GPU task (high or low) into its task
// allocation; Amalthea has no element for it.
const streamPriorityKey = "StreamPriority"

type allocParam struct {
	key, value string
	node       *xnode
}

// allocationParams returns the key-value parameters of a task allocation:
// its parameterExtensions (0.9.x, 1.x) and the scheduling parameters with a
// key (2.x and later: the key names a parameter definition; a Time value is
// written with its unit).
func allocationParams(ta *xnode) []allocParam {
	var out []allocParam
	for _, e := range ta.children("parameterExtensions") {
		out = append(out, allocParam{key: e.attr("key"), value: e.attr("value"), node: e})
	}
	for _, sp := range ta.children("schedulingParameters") {
		key := sp.ref("key")
		v := sp.child("value")
		if key == "" || v == nil {
			continue
		}
		val := v.attr("value")
		if u := v.attr("unit"); u != "" {
			val += u
		}
		out = append(out, allocParam{key: key, value: val, node: sp})
	}
	return out
}
