package amalthea

import (
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// Scheduling parameters. Task allocations and task schedulers carry
// parameters in every metamodel version, in two forms:
//
//   - Up to 1.x, a task allocation has a SchedulingParameters element (the
//     attribute priority; the Times minBudget, maxBudget and
//     replenishment) and parameterExtensions (key and value, both
//     strings); a scheduler's parameters are its algorithm's
//     (UserSpecificSchedulingAlgorithm's parameterExtensions).
//   - From 2.0, a task allocation and a task scheduler hold
//     schedulingParameters entries: the key references a
//     SchedulingParameterDefinition of the OS model (its name and type),
//     the value is a typed Value (IntegerObject, StringObject, Time, …).
//     APP4MC's migration to 2.0 writes the priority as the standard
//     definition "priority" and every parameter extension KEY as a
//     definition named "extended: KEY" with a StringObject value
//     ("7200µs"). A parameter a 2.x element does not give takes the
//     defaultValue of its definition where the scheduler's definition
//     lists it (algorithmParameters for the scheduler, processParameters
//     for its task allocations).
//
// hetmap reads a parameter by its name with "extended: " taken off, so that
// a 1.x model and its 2.x migration read the same: priority (a task's fixed
// priority on its core), TimeSlice… (a GPU task's time slice; the WATERS
// 2019 model writes TimeSlice_<task>), StreamPriority (a GPU task's CUDA
// stream priority, high or low: hetmap's own, Amalthea has none) on a task
// allocation, and minimumTimeslice and maximumTimeslice (the bounds of the
// time slices) on a scheduler. Every other parameter, and one of these
// where it means nothing (a CPU priority given to a task on the GPU, a time
// slice to a task on a core), is read past with a warning that names it.

// extendedPrefix starts the name of a definition that APP4MC's migration to
// 2.0 made of a parameter extension.
const extendedPrefix = "extended: "

// Parameter names hetmap uses (without extendedPrefix).
const (
	paramPriority   = "priority"
	paramTimeSlice  = "TimeSlice" // a prefix: TimeSlice_<task>
	paramMinSlice   = "minimumTimeslice"
	paramMaxSlice   = "maximumTimeslice"
	paramStreamPrio = "StreamPriority"
)

// schedParam is one scheduling parameter of a task allocation or a task
// scheduler, in any version's form.
type schedParam struct {
	// name is what hetmap reads the parameter by: the definition's name
	// without extendedPrefix (2.x), the extension's key or the
	// SchedulingParameters attribute (up to 1.x).
	name string
	// key names the parameter as the model does, for messages:
	// `schedulingParameters[extended: TimeSlice_SFM]`,
	// `parameterExtensions[TimeSlice_SFM]`, `schedulingParameters/priority`.
	key string
	// value is the value as text; a Time with its unit ("7200us").
	value string
	// typ is the xsi:type of a 2.x value ("" for the older forms).
	typ  string
	node *xnode
}

// usedParam reports whether hetmap reads a parameter of this name.
func usedParam(name string) bool {
	switch {
	case name == paramPriority, name == paramMinSlice, name == paramMaxSlice, strings.EqualFold(name, paramStreamPrio):
		return true
	}
	return strings.HasPrefix(name, paramTimeSlice)
}

// paramDefinitions indexes the scheduling parameter and scheduler
// definitions of the OS model (2.0 on) by name; a name given twice is an
// error naming both places.
func (im *importer) paramDefinitions() error {
	var err error
	if im.paramDefs, err = im.byName("osModel/schedulingParameterDefinitions", im.elements("osModel", "schedulingParameterDefinitions")); err != nil {
		return err
	}
	im.schedDefs, err = im.byName("osModel/schedulerDefinitions", im.elements("osModel", "schedulerDefinitions"))
	return err
}

// schedParams returns the scheduling parameters of element owner (a task
// allocation, or a task scheduler with its algorithm) at where, in the
// model's order: the 1.x forms, the 2.x entries, then the defaults of the
// 2.x definitions that the scheduler's definition def lists in defaults
// ("algorithmParameters" or "processParameters") and owner does not give.
func (im *importer) schedParams(where string, owner *xnode, def, defaults string) ([]schedParam, error) {
	var out []schedParam
	given := map[string]bool{}
	for _, sp := range owner.children("schedulingParameters") {
		if key := sp.ref("key"); key != "" || sp.child("value") != nil {
			p, err := im.schedParam2(where, sp, key)
			if err != nil {
				return nil, err
			}
			given[key] = true
			out = append(out, p)
			continue
		}
		// Up to 1.x: a SchedulingParameters element.
		for _, a := range sp.attrs {
			if a.Name.Space == xsiNS || a.Name.Space == "xmlns" || a.Name.Local == "id" {
				continue
			}
			out = append(out, schedParam{name: a.Name.Local, key: "schedulingParameters/" + a.Name.Local, value: a.Value, node: sp})
		}
		for _, k := range sp.kids {
			v := orZero(k.attr("value")) + k.attr("unit")
			out = append(out, schedParam{name: k.name, key: "schedulingParameters/" + k.name, value: v, node: k})
		}
	}
	exts := owner.children("parameterExtensions")
	if alg := owner.child("schedulingAlgorithm"); alg != nil {
		exts = append(exts, alg.children("parameterExtensions")...)
	}
	for _, e := range exts {
		key := e.attr("key")
		out = append(out, schedParam{name: key, key: "parameterExtensions[" + key + "]", value: e.attr("value"), node: e})
	}
	if d := im.schedDefs[def]; d != nil && defaults != "" {
		for _, name := range d.refs(defaults) {
			pd := im.paramDefs[name]
			if given[name] || pd == nil || pd.child("defaultValue") == nil {
				continue
			}
			p := schedParam{name: strings.TrimPrefix(name, extendedPrefix), key: "schedulingParameters[" + name + "]", node: pd}
			p.value, p.typ = paramText(pd.child("defaultValue"))
			if usedParam(p.name) {
				im.warn(where, "scheduling parameter %s is not given: the defaultValue %s of its definition (which scheduler definition %s lists) is taken", name, p.value, def)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// schedParam2 reads a 2.x scheduling parameter entry sp (at where) whose
// key names definition key.
func (im *importer) schedParam2(where string, sp *xnode, key string) (schedParam, error) {
	if key == "" {
		return schedParam{}, im.errAt(sp, where+"/schedulingParameters", "the scheduling parameter has no key: it names no SchedulingParameterDefinition (the key reference is unset)")
	}
	p := schedParam{name: strings.TrimPrefix(key, extendedPrefix), key: "schedulingParameters[" + key + "]", node: sp}
	if _, ok := im.paramDefs[key]; !ok && !im.undefinedParams[key] {
		if im.undefinedParams == nil {
			im.undefinedParams = map[string]bool{}
		}
		im.undefinedParams[key] = true
		im.warn(where+"/"+p.key, "the key names scheduling parameter definition %q, which the model does not define (a dangling reference, which APP4MC reports): read by its name", key)
	}
	v := sp.child("value")
	if v == nil {
		return p, im.errAt(sp, where+"/"+p.key, "the scheduling parameter has no value")
	}
	p.value, p.typ = paramText(v)
	return p, nil
}

// paramText returns a 2.x Value (v) as text, with its xsi:type: a Time with
// its unit, a ReferenceObject the name it references, a ListObject or
// MapObject "" (no single value).
func paramText(v *xnode) (string, string) {
	t := v.typ()
	switch t {
	case "Time":
		return orZero(v.attr("value")) + v.attr("unit"), t
	case "ReferenceObject":
		return v.ref("value"), t
	case "ListObject", "MapObject":
		return "", t
	}
	return v.attr("value"), t
}

// single reads the one value of a parameter hetmap uses, refusing a list.
func (im *importer) single(where string, p schedParam) (string, error) {
	if p.typ == "ListObject" || p.typ == "MapObject" {
		return "", im.errAt(p.node, where+"/"+p.key, "a %s where hetmap reads one value", p.typ)
	}
	return strings.TrimSpace(p.value), nil
}

// paramDuration reads the one value of parameter p (at where) as a
// duration: "7200µs", "1000 µs", a Time's value and unit.
func (im *importer) paramDuration(where string, p schedParam) (configs.Duration, error) {
	s, err := im.single(where, p)
	if err != nil {
		return 0, err
	}
	d, derr := configs.ParseDuration(s)
	if derr != nil {
		return 0, im.errAt(p.node, where+"/"+p.key, "%v", derr)
	}
	return d, nil
}

// unusedParams collects the parameters read past, for one warning per
// parameter and reason (paramWarnings).
type unusedParams struct {
	order  []string
	owners map[string][]string
}

func (u *unusedParams) add(key, why, owner string) {
	k := key + "\x00" + why
	if u.owners == nil {
		u.owners = map[string][]string{}
	}
	if _, ok := u.owners[k]; !ok {
		u.order = append(u.order, k)
	}
	u.owners[k] = append(u.owners[k], owner)
}

// paramWarnings says, once per parameter and reason, which scheduling
// parameters the import read past and where.
func (im *importer) paramWarnings(where, what string, u *unusedParams) {
	for _, k := range u.order {
		key, why, _ := strings.Cut(k, "\x00")
		owners := u.owners[k]
		im.warn(where, "scheduling parameter %s of %d %s (%s) read past: %s", key, len(owners), what, listSome(owners, 6), why)
	}
}

// Reasons a parameter is read past.
const (
	whyUnknown   = "hetmap does not use it (it reads priority, TimeSlice…, StreamPriority, minimumTimeslice and maximumTimeslice)"
	whyGPUPrio   = "a task on the GPU has no CPU priority (the GPU's scheduling is analysis.gpu_model's; a CUDA stream priority is StreamPriority)"
	whyNotGPU    = "the task does not run on the GPU, and only GPU tasks have time slices and stream priorities"
	whyBudget    = "budgets are not analysed (fixed-priority preemptive scheduling without budget enforcement)"
	whySchedOnly = "it is a parameter of a scheduler, not of a task allocation"
	whyAllocOnly = "it is a parameter of a task allocation, not of a scheduler"
)

// allocationParams reads the parameters of task allocation ta (at where)
// to a unit of type ut by scheduler si into a: the priority on a core, the
// time slice and stream priority on the GPU. The others are collected in
// unused.
func (im *importer) allocationParams(where string, ta *xnode, si *schedInfo, ut configs.UnitType, a *modelAllocation, unused *unusedParams) error {
	def := ""
	if si != nil {
		def = si.definition
	}
	params, err := im.schedParams(where, ta, def, "processParameters")
	if err != nil {
		return err
	}
	task := ta.ref("task")
	for _, p := range params {
		var unit configs.UnitType // the type of unit the parameter is for
		switch {
		case p.name == paramPriority:
			unit = configs.CPU
			s, err := im.single(where, p)
			if err != nil {
				return err
			}
			v, perr := strconv.ParseInt(s, 10, 32)
			if perr != nil {
				return im.errAt(p.node, where+"/"+p.key, "priority %q is not an integer", s)
			}
			if ut == configs.CPU {
				pi := int(v)
				a.priority = &pi
			}
		case strings.HasPrefix(p.name, paramTimeSlice):
			unit = configs.GPU
			d, err := im.paramDuration(where, p)
			if err != nil {
				return err
			}
			if ut == configs.GPU {
				a.slice = d
			}
		case strings.EqualFold(p.name, paramStreamPrio):
			unit = configs.GPU
			s, err := im.single(where, p)
			if err != nil {
				return err
			}
			v := configs.GPUPriority(strings.ToLower(s))
			if v != configs.GPUHigh && v != configs.GPULow {
				return im.errAt(p.node, where+"/"+p.key, "stream priority %q is not high or low", s)
			}
			if ut == configs.GPU {
				a.stream = v
			}
		case p.name == "minBudget" || p.name == "maxBudget" || p.name == "replenishment":
			unused.add(p.key, whyBudget, task)
		case p.name == paramMinSlice || p.name == paramMaxSlice:
			unused.add(p.key, whySchedOnly, task)
		default:
			unused.add(p.key, whyUnknown, task)
		}
		switch {
		case unit == configs.CPU && ut != configs.CPU:
			unused.add(p.key, whyGPUPrio, task)
		case unit == configs.GPU && ut != configs.GPU:
			unused.add(p.key, whyNotGPU, task)
		}
	}
	return nil
}

// schedulerParams reads the parameters of task scheduler k (named name, at
// where, with definition def from 2.0): the time-slice bounds. The others
// are read past with a warning.
func (im *importer) schedulerParams(where, name string, k *xnode, def string) error {
	params, err := im.schedParams(where, k, def, "algorithmParameters")
	if err != nil {
		return err
	}
	var unused unusedParams
	for _, p := range params {
		switch p.name {
		case paramMinSlice, paramMaxSlice:
			d, err := im.paramDuration(where, p)
			if err != nil {
				return err
			}
			if p.name == paramMinSlice {
				im.sys.TimeSlice.Min = d
			} else {
				im.sys.TimeSlice.Max = d
			}
		default:
			why := whyUnknown
			if usedParam(p.name) {
				why = whyAllocOnly
			}
			unused.add(p.key, why, name)
		}
	}
	im.paramWarnings(where, "scheduler(s)", &unused)
	return nil
}
