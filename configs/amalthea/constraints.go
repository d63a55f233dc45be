package amalthea

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// Constraints: task response-time requirements, event chains (with the
// events of the event model) and the latency requirements of chains.

func normalizeName(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "_", "")
}

// bestTaskFor finds the periodic task a requirement name such as
// "Deadline_Task_Lane_Detection" refers to: the task whose name contains the
// name's last part with the fewest other characters.
func (im *importer) bestTaskFor(reqName string) string {
	token := reqName
	for _, p := range []string{"Deadline_Task_", "Deadline_", "Requirement_"} {
		token = strings.TrimPrefix(token, p)
	}
	token = normalizeName(token)
	best, bestLeft := "", -1
	for _, t := range im.sys.Tasks {
		if t.Period == 0 {
			continue
		}
		n := normalizeName(t.Name)
		if token == "" || !strings.Contains(n, token) {
			continue
		}
		left := len(n) - len(token)
		if bestLeft < 0 || left < bestLeft {
			best, bestLeft = t.Name, left
		}
	}
	return best
}

// constraintKinds are the lists of a constraints model and what hetmap does
// with them: read (true) or read past with a warning (the text says why).
var constraintKinds = map[string]string{
	"requirements": "", "eventChains": "", "timingConstraints": "",
	"affinityConstraints":           "pairing and separation constraints are not applied by optimize",
	"runnableSequencingConstraints": "the runnables of a task run in the order of its activity graph",
	"dataAgeConstraints":            "data-age constraints of runnables and labels are not checked",
	"dataCoherencyGroups":           "data coherency does not change hetmap's timing model",
	"dataStabilityGroups":           "data stability does not change hetmap's timing model",
	"physicalSectionConstraints":    "memory sections do not change hetmap's timing model",
	"customProperties":              "",
}

func (im *importer) constraints() error {
	if err := im.readEvents(); err != nil {
		return err
	}
	counts := map[string]int{}
	for _, c := range im.subModels("constraintsModel") {
		for _, k := range c.kids {
			why, ok := constraintKinds[k.name]
			if !ok {
				return im.errAt(k, "constraintsModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
			if why != "" {
				counts[k.name]++
			}
		}
	}
	for _, kind := range []string{"affinityConstraints", "runnableSequencingConstraints", "dataAgeConstraints", "dataCoherencyGroups", "dataStabilityGroups", "physicalSectionConstraints"} {
		if n := counts[kind]; n > 0 {
			im.warn("constraintsModel/"+kind, "%d element(s) read past: %s", n, constraintKinds[kind])
		}
	}
	if err := im.taskRequirements(); err != nil {
		return err
	}
	if err := im.eventChains(); err != nil {
		return err
	}
	return im.latencyConstraints()
}

func (im *importer) taskRequirements() error {
	type req struct {
		name, process, best string
		limit               configs.Duration
	}
	var reqs []req
	for _, r := range im.elements("constraintsModel", "requirements") {
		where := "constraintsModel/requirements[" + r.attr("name") + "]"
		limit := r.child("limit")
		switch {
		case r.typ() == "ProcessChainRequirement":
			continue // a chain latency requirement: see latencyConstraints
		case r.typ() != "ProcessRequirement" || limit == nil || limit.attr("metric") != "ResponseTime" || limit.attr("limitType") != "UpperLimit":
			im.warn(where, "only upper limits on a process's response time are used; this requirement is ignored")
			continue
		}
		d, err := im.timeValue(where+"/limitValue", limit.child("limitValue"))
		if err != nil {
			return err
		}
		p := r.ref("process")
		if im.inactive[p] {
			im.warn(where, "task %s is never activated: the requirement is ignored", p)
			continue
		}
		if im.sys.Task(p) == nil {
			return im.undefinedRef(r, where, "process", "process", p)
		}
		reqs = append(reqs, req{name: r.attr("name"), process: p, best: im.bestTaskFor(r.attr("name")), limit: d})
	}
	// A pair of requirements whose names point at each other's process are
	// swapped references (the challenge model's Detection and Lane detection).
	for i := range reqs {
		for j := i + 1; j < len(reqs); j++ {
			a, b := &reqs[i], &reqs[j]
			if a.best == b.process && b.best == a.process && a.best != a.process {
				im.warn("constraintsModel/requirements["+a.name+"]", "references %s and %s references %s: the names say the references are swapped; corrected (%s gets %s, %s gets %s)",
					a.process, b.name, b.process, a.best, a.limit, b.best, b.limit)
				a.process, b.process = a.best, b.best
			}
		}
	}
	for _, r := range reqs {
		if r.best != "" && r.best != r.process {
			im.warn("constraintsModel/requirements["+r.name+"]", "its name suggests task %s but it references %s; kept as written", r.best, r.process)
		}
		t := im.sys.Task(r.process)
		if t.Requirement != 0 && t.Requirement != r.limit {
			im.warn("constraintsModel/requirements["+r.name+"]", "a second requirement on %s; the smaller one (%s) is kept", r.process, min(t.Requirement, r.limit))
			r.limit = min(t.Requirement, r.limit)
		}
		t.Requirement = r.limit
	}
	return nil
}

// readEvents indexes the entity events of the event model (and of the
// software model's events list of older files, where OS events, used by
// WaitEvent and SetEvent, live too).
func (im *importer) readEvents() error {
	im.events = map[string]*xnode{}
	for _, list := range [][]*xnode{im.elements("eventModel", "events"), im.elements("swModel", "events")} {
		for _, e := range list {
			if e.typ() == "" || e.typ() == "OsEvent" {
				continue
			}
			name := e.attr("name")
			if prev, dup := im.events[name]; dup {
				return im.errAt(e, "eventModel/events["+name+"]", "%q is defined twice (also at %s)", name, position(prev))
			}
			im.events[name] = e
		}
	}
	for _, em := range im.subModels("eventModel") {
		for _, k := range em.kids {
			if k.name != "events" && k.name != "customProperties" {
				return im.errAt(k, "eventModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
		}
	}
	return nil
}

// errInactive marks an event of a task that is never activated: the chain
// is ignored with a warning.
type errInactive struct{ task string }

func (e *errInactive) Error() string { return "task " + e.task + " is never activated" }

// eventTask returns the task an event of a chain stands for.
func (im *importer) eventTask(where string, at *xnode, feature, ref string) (string, error) {
	name := refName(ref)
	e, ok := im.events[name]
	if !ok {
		return "", im.undefinedRef(at, where, "event", feature, name)
	}
	ew := "eventModel/events[" + name + "]"
	check := func(task string) (string, error) {
		if im.inactive[task] {
			return "", &errInactive{task}
		}
		if im.sys.Task(task) == nil {
			return "", im.errAt(e, ew, "names task %q, which is not defined", task)
		}
		return task, nil
	}
	// tasksWith finds the tasks whose graphs satisfy f.
	tasksWith := func(f func(*taskGraph) bool) []string {
		var out []string
		for _, t := range im.sys.Tasks {
			if g := im.taskInfo[t.Name]; g != nil && f(g) {
				out = append(out, t.Name)
			}
		}
		return out
	}
	one := func(what string, tasks []string) (string, error) {
		switch len(tasks) {
		case 1:
			return check(tasks[0])
		case 0:
			return "", im.errAt(e, ew, "%s: no task does that, so the event does not happen", what)
		}
		return "", im.errAt(e, ew, "%s: tasks %s all do, so the event names no single task; give the event's process", what, strings.Join(tasks, ", "))
	}
	switch t := e.typ(); t {
	case "ProcessEvent":
		p := e.ref("entity")
		if p == "" {
			return "", im.errAt(e, ew, "ProcessEvent without an entity (a process) names no task")
		}
		return check(p)
	case "RunnableEvent":
		if p := e.ref("process"); p != "" {
			return check(p)
		}
		r := e.ref("entity")
		if _, ok := im.runNodes[r]; !ok {
			return "", im.undefinedRef(e, ew, "runnable", "entity", r)
		}
		return one("runnable "+r+" is called", tasksWith(func(g *taskGraph) bool { return slices.Contains(g.all.calls, r) }))
	case "LabelEvent", "ModeLabelEvent":
		if p := e.ref("process"); p != "" {
			return check(p)
		}
		l := e.ref("entity")
		if _, ok := im.labelNodes[l]; !ok {
			return "", im.undefinedRef(e, ew, "label", "entity", l)
		}
		et := e.attr("eventType")
		return one("label "+l+" is accessed ("+orAll(et)+")", tasksWith(func(g *taskGraph) bool {
			r, w := slices.Contains(g.all.reads, l), slices.Contains(g.all.writes, l)
			switch et {
			case "read":
				return r
			case "write", "increment", "decrement":
				return w
			}
			return r || w
		}))
	case "StimulusEvent":
		s := e.ref("entity")
		return one("stimulus "+s+" activates a task", tasksWith(func(g *taskGraph) bool { return slices.Contains(g.node.refs("stimuli"), s) }))
	}
	return "", im.errAt(e, ew, "a %s in an event chain is not supported (ProcessEvent, RunnableEvent, LabelEvent, ModeLabelEvent, StimulusEvent)", e.typ())
}

func orAll(s string) string {
	if s == "" || s == "_all_" {
		return "any access"
	}
	return s
}

// chainPart is an event chain or a segment of one, as tasks.
type chainPart struct {
	name          string
	first, last   string // the tasks of its stimulus and response
	tasks         []string
	where         string
	stimRef, resp string
}

// chainContradiction marks the error of an event chain whose segments
// contradict it: a segment that does not start where the one before it
// (or the chain's stimulus) ends, or a last segment that does not end at
// the chain's response.
type chainContradiction struct{ *configs.InputError }

func (c chainContradiction) Unwrap() error { return c.InputError }

// chainEnd returns the raw reference of a chain's stimulus or response:
// its attribute, or the href of a child element of that name.
func chainEnd(c *xnode, feature string) string {
	if r := c.attr(feature); r != "" {
		return r
	}
	if k := c.child(feature); k != nil {
		return k.attr("href")
	}
	return ""
}

// chainTasks expands an event chain into its tasks: the stimulus's task,
// the tasks of its segments in order (nested chains and references to other
// chains expanded), the response's task. The segments must connect: each
// starts where the previous one ends, the first at the chain's stimulus
// and the last at its response; otherwise the segment that does not is an
// error (a chainContradiction). A chain of segments that gives no stimulus
// or response (Amalthea 0.9.1 allows it) takes them from its first and
// last segment, with a warning.
func (im *importer) chainTasks(where string, c *xnode, depth int) (*chainPart, error) {
	if depth > 32 {
		return nil, im.errAt(c, where, "event chains nested deeper than 32 levels (a chain that refers to itself?)")
	}
	stim, resp := chainEnd(c, "stimulus"), chainEnd(c, "response")
	p := &chainPart{name: c.attr("name"), where: where, stimRef: stim, resp: resp}
	if len(c.children("strands")) > 0 {
		return nil, im.errAt(c, where, "event chain strands (alternative paths) are not supported: give each path as its own event chain")
	}
	segs := append(c.children("segments"), c.children("items")...)
	if c.attr("itemType") == "parallel" && len(segs) > 1 {
		return nil, im.errAt(c, where, "an event chain with itemType=\"parallel\" (%d parallel paths) is not supported: give each path as its own event chain", len(segs))
	}
	var err error
	if stim != "" || len(segs) == 0 {
		if p.first, err = im.eventTask(where, c, "stimulus", stim); err != nil {
			return nil, err
		}
	}
	if resp != "" || len(segs) == 0 {
		if p.last, err = im.eventTask(where, c, "response", resp); err != nil {
			return nil, err
		}
	}
	type segPart struct {
		node  *xnode
		where string
		part  *chainPart
	}
	var parts []segPart
	for i, s := range segs {
		sw := fmt.Sprintf("%s/%s[%d]", where, s.name, i)
		var sub *xnode
		switch s.typ() {
		case "EventChainContainer":
			sub = s.child("eventChain")
			if sub == nil {
				return nil, im.errAt(s, sw, "EventChainContainer has no eventChain")
			}
		case "EventChainReference":
			ref := s.ref("eventChain")
			if sub = im.chainNodes[ref]; sub == nil {
				return nil, im.undefinedRef(s, sw, "event chain", "eventChain", ref)
			}
		case "SubEventChain", "EventChain":
			sub = s // a segment written as a chain (older files)
		default:
			return nil, im.errAt(s, sw, "event chain item %q is not supported (EventChainContainer, EventChainReference)", s.typ())
		}
		sw += "[" + sub.attr("name") + "]"
		part, err := im.chainTasks(sw, sub, depth+1)
		if err != nil {
			return nil, err
		}
		parts = append(parts, segPart{s, sw, part})
	}
	var taken []string
	if stim == "" && len(parts) > 0 {
		p.first, p.stimRef = parts[0].part.first, parts[0].part.stimRef
		taken = append(taken, "stimulus "+refName(p.stimRef)+" from its first segment")
	}
	if resp == "" && len(parts) > 0 {
		last := parts[len(parts)-1].part
		p.last, p.resp = last.last, last.resp
		taken = append(taken, "response "+refName(p.resp)+" from its last segment")
	}
	if len(taken) > 0 {
		im.warn(where, "the chain gives no %s: taken as the %s", map[int]string{1: strings.Fields(taken[0])[0], 2: "stimulus and response"}[len(taken)], strings.Join(taken, " and the "))
	}
	p.tasks = []string{p.first}
	add := func(ts ...string) {
		for _, t := range ts {
			if p.tasks[len(p.tasks)-1] != t {
				p.tasks = append(p.tasks, t)
			}
		}
	}
	prev := p.first
	prevName := "the chain's stimulus " + refName(p.stimRef)
	for _, sp := range parts {
		part := sp.part
		if part.first != prev {
			return nil, chainContradiction{im.errAt(sp.node, sp.where, "the segment does not connect: it starts at %s (task %s) but %s ends at task %s", refName(part.stimRef), part.first, prevName, prev)}
		}
		add(part.tasks...)
		prev, prevName = part.last, "segment "+part.name
	}
	if len(parts) > 0 && prev != p.last {
		return nil, chainContradiction{im.errAt(c, where, "the chain does not connect: its response %s is task %s, but its last segment ends at task %s", refName(p.resp), p.last, prev)}
	}
	add(p.last)
	return p, nil
}

// chainRequirements returns the names of the latency constraints whose
// scope is event chain name.
func (im *importer) chainRequirements(name string) []string {
	var out []string
	for _, tc := range im.elements("constraintsModel", "timingConstraints") {
		if tc.typ() == "EventChainLatencyConstraint" && tc.ref("scope") == name {
			out = append(out, tc.attr("name"))
		}
	}
	return out
}

func (im *importer) eventChains() error {
	nodes := im.elements("constraintsModel", "eventChains")
	var err error
	if im.chainNodes, err = im.byName("constraintsModel/eventChains", nodes); err != nil {
		return err
	}
	for _, ec := range nodes {
		name := ec.attr("name")
		where := "constraintsModel/eventChains[" + name + "]"
		part, err := im.chainTasks(where, ec, 0)
		if err != nil {
			if ie, ok := err.(*errInactive); ok {
				im.warn(where, "%s: the chain is ignored", ie)
				continue
			}
			var cc chainContradiction
			if errors.As(err, &cc) {
				// A chain that contradicts itself says nothing of the
				// tasks; it is an error only where something needs it.
				if reqs := im.chainRequirements(name); len(reqs) > 0 {
					cc.What += fmt.Sprintf(" (the chain %s contradicts itself, and requirement %s names it)", name, strings.Join(reqs, ", "))
					return cc.InputError
				}
				im.warn(where, "%s (line %d, %s: %s); no requirement names it (an objective that does is an error)", configs.DroppedChain, cc.Line, cc.Where, cc.What)
				continue
			}
			return err
		}
		if len(part.tasks) < 2 {
			im.warn(where, "the chain names fewer than two tasks; ignored")
			continue
		}
		im.sys.Chains = append(im.sys.Chains, configs.Chain{Name: name, Tasks: part.tasks})
	}
	return nil
}

// latencyMetric maps an EventChainLatencyConstraint's type to a chain
// metric. Age is the maximum data age (the longest backward job chain).
// Reaction is checked as the maximum reaction time, the reaction latency
// from the first task's activation plus its period: the latency from the
// chain's stimulus event when that event is the first task's activation,
// and also when it is an outside event that the first task samples (a
// sensor task's activation is how models mark such an input), which may
// come just after a sampling and wait up to a period. Both readings stay
// within this bound; the reaction latency from activation is reported too
// (analyze's chain table).
func latencyMetric(typ string) configs.ChainMetric {
	if typ == "Age" {
		return configs.MetricDataAge
	}
	return configs.MetricReactionTime
}

// latencyConstraints turns EventChainLatencyConstraints and
// ProcessChainRequirements into latency requirements of the chains, and
// reports every other timing constraint as not checked.
func (im *importer) latencyConstraints() error {
	chain := func(name string) *configs.Chain {
		for i := range im.sys.Chains {
			if im.sys.Chains[i].Name == name {
				return &im.sys.Chains[i]
			}
		}
		return nil
	}
	for _, tc := range im.elements("constraintsModel", "timingConstraints") {
		name := tc.attr("name")
		where := "constraintsModel/timingConstraints[" + name + "]"
		if tc.typ() != "EventChainLatencyConstraint" {
			im.warn(where, "%s is not checked: hetmap checks the latency of event chains (EventChainLatencyConstraint)", tc.typ())
			continue
		}
		scope := tc.ref("scope")
		typ := tc.attr("type")
		if typ != "Age" && typ != "Reaction" {
			return im.errAt(tc, where, "latency type %q is not supported (Reaction or Age)", typ)
		}
		if tc.child("minimum") != nil {
			if d, err := im.timeValue(where+"/minimum", tc.child("minimum")); err == nil && d > 0 {
				im.warn(where, "the minimum latency %s is not checked: hetmap bounds latencies from above", d)
			}
		}
		max := tc.child("maximum")
		if max == nil {
			continue
		}
		limit, err := im.timeValue(where+"/maximum", max)
		if err != nil {
			return err
		}
		c := chain(scope)
		if c == nil {
			if _, known := im.chainNodes[scope]; known {
				im.warn(where, "event chain %s was ignored, so is this constraint", scope)
				continue
			}
			return im.undefinedRef(tc, where, "event chain", "scope", scope)
		}
		c.Max = append(c.Max, configs.ChainRequirement{Name: name, Metric: latencyMetric(typ), Limit: limit})
	}
	for _, r := range im.elements("constraintsModel", "requirements") {
		if r.typ() != "ProcessChainRequirement" {
			continue
		}
		name := r.attr("name")
		where := "constraintsModel/requirements[" + name + "]"
		limit := r.child("limit")
		if limit == nil || limit.attr("metric") != "EndToEnd" || limit.attr("limitType") != "UpperLimit" {
			im.warn(where, "only upper limits on the end-to-end time of a process chain are checked; this requirement is ignored")
			continue
		}
		d, err := im.timeValue(where+"/limitValue", limit.child("limitValue"))
		if err != nil {
			return err
		}
		pcName := r.ref("processChain")
		var pc *xnode
		for _, n := range im.elements("swModel", "processChains") {
			if n.attr("name") == pcName {
				pc = n
			}
		}
		if pc == nil {
			return im.undefinedRef(r, where, "process chain", "processChain", pcName)
		}
		tasks := pc.refs("processes")
		ignored := false
		for _, t := range tasks {
			if im.inactive[t] {
				im.warn(where, "task %s of process chain %s is never activated: the requirement is ignored", t, pcName)
				ignored = true
				break
			}
			if im.sys.Task(t) == nil {
				return im.undefinedRef(pc, "swModel/processChains["+pcName+"]", "process", "processes", t)
			}
		}
		if ignored {
			continue
		}
		if len(tasks) < 2 {
			im.warn(where, "process chain %s names fewer than two tasks; the requirement is ignored", pcName)
			continue
		}
		c := chain(pcName)
		if c == nil {
			im.sys.Chains = append(im.sys.Chains, configs.Chain{Name: pcName, Tasks: tasks})
			c = &im.sys.Chains[len(im.sys.Chains)-1]
		}
		// EndToEnd of a process chain: from the activation of its first
		// process to the end of its last.
		c.Max = append(c.Max, configs.ChainRequirement{Name: name, Metric: "reaction-from-activation", Limit: d})
	}
	return nil
}
