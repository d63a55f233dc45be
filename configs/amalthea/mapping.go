package amalthea

import (
	"slices"
	"strings"

	"github.com/hetmap/hetmap/configs"
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
	owns, tas, err := im.mappingElements(mms)
	if err != nil {
		return err
	}
	allocs, err := im.taskAllocations(tas, owns)
	if err != nil {
		return err
	}
	if err := im.placeTasks(allocs); err != nil {
		return err
	}
	im.priorityWarnings()
	return nil
}

// modelAllocation is what the model's task allocation says about one
// task: its unit, its priority, and for a GPU task its time slice and
// stream priority.
type modelAllocation struct {
	unit     string
	priority *int
	slice    configs.Duration
	stream   configs.GPUPriority
}

// mappingElements sorts the elements of the mapping models: it returns the
// units each scheduler is responsible for and the task allocations, reads
// past the elements without timing (saying so for runnable allocations)
// and refuses the others.
func (im *importer) mappingElements(mms []*xnode) (map[string][]string, []*xnode, error) {
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
				return nil, nil, im.errAt(k, "mappingModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
		}
	}
	if runnableAllocs > 0 {
		im.warn("mappingModel", "%d runnable allocation(s) read past: hetmap maps tasks, and a runnable runs where its task runs", runnableAllocs)
	}
	return owns, tas, nil
}

// taskAllocations reads the task allocations tas of the activated tasks
// into one modelAllocation per task (a task allocated twice is an error),
// with owns the units of each scheduler.
func (im *importer) taskAllocations(tas []*xnode, owns map[string][]string) (map[string]modelAllocation, error) {
	allocs := map[string]modelAllocation{}
	warnedAlgo := map[string]bool{}
	var unused unusedParams
	for _, ta := range tas {
		name := ta.ref("task")
		where := "mappingModel/taskAllocation[" + name + "]"
		if im.inactive[name] {
			continue // never activated (warned about)
		}
		if im.sys.Task(name) == nil {
			return nil, im.undefinedRef(ta, where, "task", "task", name)
		}
		sched := ta.ref("scheduler")
		si, ok := im.schedulers[sched]
		if !ok {
			return nil, im.undefinedRef(ta, where, "scheduler", "scheduler", sched)
		}
		var a modelAllocation
		var err error
		if a.unit, err = im.allocationUnit(where, ta, sched, owns[sched]); err != nil {
			return nil, err
		}
		ut := im.sys.Unit(a.unit).Type
		if ut == configs.CPU {
			if err := im.checkCPUScheduler(where, ta, sched); err != nil {
				return nil, err
			}
			if (si.algorithm == "DeadlineMonotonic" || si.algorithm == "RateMonotonic") && !warnedAlgo[sched] {
				warnedAlgo[sched] = true
				im.warn("osModel/taskSchedulers["+sched+"]", "%s is analysed as fixed-priority preemptive scheduling; the priorities follow analysis.priorities (default: Audsley's OPA), set analysis.priorities: %s to match the model", si.algorithm, map[string]configs.PriorityAssignment{"DeadlineMonotonic": configs.PrioritiesDM, "RateMonotonic": configs.PrioritiesRM}[si.algorithm])
			}
		}
		if err := im.allocationParams(where, ta, si, ut, &a, &unused); err != nil {
			return nil, err
		}
		if _, dup := allocs[name]; dup {
			return nil, im.errAt(ta, where, "task %s is allocated twice", name)
		}
		allocs[name] = a
	}
	im.paramWarnings("mappingModel/taskAllocation", "task allocation(s)", &unused)
	return allocs, nil
}

// allocationUnit decides the unit of task allocation ta (at where) to
// scheduler sched, which owns the units owned: the first unit of its
// affinity (warned when it names several), else the scheduler's first
// unit (warned); an affinity to a unit the scheduler does not own wins,
// with a warning.
func (im *importer) allocationUnit(where string, ta *xnode, sched string, owned []string) (string, error) {
	cores := ta.refs("affinity")
	for _, c := range cores {
		if im.sys.Unit(c) == nil {
			return "", im.errAt(ta, where, "affinity names unit %q, which is not defined", c)
		}
	}
	var unit string
	switch {
	case len(cores) == 0 && len(owned) > 0:
		unit = owned[0]
		if im.sys.Unit(unit) == nil {
			return "", im.errAt(ta, where, "scheduler %s is responsible for unit %q, which is not defined", sched, unit)
		}
		im.warn(where, "no affinity: placed on %s, the first unit of scheduler %s", unit, sched)
	case len(cores) == 0:
		return "", im.errAt(ta, where, "no affinity and scheduler %s owns no unit", sched)
	default:
		unit = cores[0]
		if len(cores) > 1 {
			im.warn(where, "affinity names %d units (%s): placed on the first, %s", len(cores), strings.Join(cores, ", "), unit)
		}
	}
	if !slices.Contains(owned, unit) {
		im.warn(where, "allocated to scheduler %s, which does not own %s (it owns %s): the affinity wins, %s runs on %s",
			sched, unit, strings.Join(owned, ", "), ta.ref("task"), unit)
	}
	return unit, nil
}

// placeTasks writes the allocations into the system's mapping in task
// order: a GPU task on the GPU with its time slice and stream priority, a
// GPU task on a core merged with its offloading task (which then gets no
// placement of its own), a CPU task on its core. A task without an
// allocation is left out with a warning; a CPU task allocated to a GPU is
// an error.
func (im *importer) placeTasks(allocs map[string]modelAllocation) error {
	mp := &im.sys.Mapping
	for _, t := range im.sys.Tasks {
		a, ok := allocs[t.Name]
		where := "mappingModel/taskAllocation[" + t.Name + "]"
		if t.IsGPUTask() {
			if !ok {
				im.warn("mappingModel", "GPU task %s is not allocated: the default mapping leaves it out", t.Name)
				continue
			}
			im.placeGPUTask(where, &t, a, allocs[t.TriggeredBy])
			continue
		}
		if !ok {
			im.warn("mappingModel", "task %s is not allocated: the default mapping leaves it out", t.Name)
			continue
		}
		if t.Offload != nil {
			if g, ok := allocs[t.Offload.GPUTask]; ok && im.sys.Unit(g.unit).Type == configs.CPU {
				continue // merged into the GPU task's placement
			}
		}
		if im.sys.Unit(a.unit).Type != configs.CPU {
			return im.errAt(nil, where, "CPU task %s is allocated to %s, which is not a CPU core", t.Name, a.unit)
		}
		mp.Units = append(mp.Units, configs.Placement{Task: t.Name, Unit: a.unit, Priority: a.priority})
	}
	return nil
}

// placeGPUTask places GPU task t (at where) by its allocation a: on the
// GPU with its time slice and stream priority, or on a core, merged with
// its offloading task (allocated as pre), whose priority it takes when it
// has none of its own.
func (im *importer) placeGPUTask(where string, t *configs.Task, a, pre modelAllocation) {
	mp := &im.sys.Mapping
	if im.sys.Unit(a.unit).Type == configs.GPU {
		if a.slice > 0 {
			mp.TimeSlices = append(mp.TimeSlices, configs.TimeSliceSet{Task: t.Name, Slice: a.slice})
		}
		if a.stream != "" {
			mp.GPUPriorities = append(mp.GPUPriorities, configs.GPUPrioritySet{Task: t.Name, Priority: a.stream})
		}
		mp.Units = append(mp.Units, configs.Placement{Task: t.Name, Unit: a.unit})
		return
	}
	if pre.unit != "" && pre.unit != a.unit {
		im.warn(where, "runs on core %s while its offloading task %s is on %s: merged into one task on %s", a.unit, t.TriggeredBy, pre.unit, a.unit)
	}
	prio := a.priority
	if prio == nil {
		prio = pre.priority
	}
	mp.Units = append(mp.Units, configs.Placement{Task: t.Name, Unit: a.unit, Priority: prio})
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
				return im.undefinedRef(sa, "mappingModel/schedulerAllocation["+sched+"]", "scheduler", "scheduler", sched)
			}
			for _, u := range sa.refs("responsibility") {
				unit := im.sys.Unit(u)
				if unit == nil {
					return im.errAt(sa, "mappingModel/schedulerAllocation["+sched+"]", "responsibility names unit %q, which is not defined", u)
				}
				covered[u] = true
				if unit.Type == configs.CPU {
					if err := im.checkCPUScheduler("mappingModel/schedulerAllocation["+sched+"]", sa, sched); err != nil {
						return err
					}
				}
			}
		}
	}
	var bare []string
	for _, u := range im.sys.Units {
		if u.Type == configs.CPU && !covered[u.Name] {
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
