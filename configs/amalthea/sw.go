package amalthea

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta/sat"
)

// The software model: labels, runnables and tasks. An activity graph (the
// callGraph of 0.9.0 to 0.9.6) is flattened into hetmap's model of a task,
// a sequence of runnables that each read, compute and write: runnable calls
// stay runnables; items placed directly in a task's graph (ticks, label
// accesses) become a runnable of the task named after their place
// ("Task/items[0]"); a switch becomes one such runnable with the worst case
// over its branches (the largest demand per unit kind and the union of the
// accesses); groups are read through. Runnables that call runnables are
// flattened into one demand. InterProcessTrigger, WaitEvent, ClearEvent and
// SetEvent mark where a task offloads work to the GPU or activates another
// task.

func (im *importer) labels() error {
	im.labelNodes = map[string]*xnode{}
	var noSize []string
	add := func(l *xnode, kind string) error {
		name := l.attr("name")
		where := "swModel/" + kind + "[" + name + "]"
		if prev, dup := im.labelNodes[name]; dup {
			return im.errAt(l, where, "%q is defined twice (also at %s)", name, position(prev))
		}
		im.labelNodes[name] = l
		var sz configs.Size
		if s := l.child("size"); s != nil {
			v, err := dataSizeBytes(s.attr("value"), s.attr("unit"))
			if err != nil {
				return im.errAt(s, where+"/size", "%v", err)
			}
			sz = v
		} else {
			noSize = append(noSize, name)
		}
		im.sys.Labels = append(im.sys.Labels, configs.Label{Name: name, Size: sz, Constant: l.attr("constant") == "true"})
		return nil
	}
	for _, l := range im.elements("swModel", "labels") {
		if err := add(l, "labels"); err != nil {
			return err
		}
	}
	for _, l := range im.elements("swModel", "modeLabels") {
		if err := add(l, "modeLabels"); err != nil {
			return err
		}
	}
	if len(noSize) > 0 {
		im.warn("swModel/labels", "%d label(s) without a size (%s): taken as 0 bytes, so their accesses cost no memory time", len(noSize), listSome(noSize, 6))
	}
	return nil
}

// listSome lists up to n names and says how many more there are.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

// demand is what a part of an activity graph needs, summarised for the
// read/execute/write model: its ticks per unit kind (worst and best case),
// the labels it reads and writes, and what it calls and triggers.
type demand struct {
	// compute: some Ticks or ExecutionNeed item is reached. ticks then
	// holds the kinds every computing path has ticks for.
	compute bool
	ticks   map[string]configs.Ticks
	// order is the order of the kinds in ticks, as the model first gives
	// them (the extended values, then the kinds the default fills in).
	order  []string
	reads  []string
	writes []string
	// timed and untimed count the label accesses with implementation
	// "timed" (LET) and the others.
	timed, untimed int
	// calls are the runnables called on some path (for RunnableEvents).
	calls []string
	// triggers are the InterProcessStimuli triggered on some path, with
	// where they are.
	triggers []trigger
}

type trigger struct {
	stimulus string
	where    string
	node     *xnode
	inSwitch bool
	// prescaler and offset of the trigger's counter
	prescaler, offset int64
}

func addUnique(list []string, names ...string) []string {
outer:
	for _, n := range names {
		for _, x := range list {
			if x == n {
				continue outer
			}
		}
		list = append(list, n)
	}
	return list
}

// tickOverflow is a sum of worst-case ticks that does not fit an int64:
// on unit kind kind, sum plus add.
type tickOverflow struct {
	kind     string
	sum, add int64
}

// seq appends b to a: the demands of two parts that run one after the
// other. It reports the first kind (in a's order) whose worst-case ticks
// overflow; the sum saturates there.
func (a *demand) seq(b *demand) *tickOverflow {
	var over *tickOverflow
	switch {
	case a.compute && b.compute:
		for _, k := range a.order {
			t, ok := a.ticks[k]
			u, ok2 := b.ticks[k]
			if ok && ok2 && t.Upper > math.MaxInt64-u.Upper {
				over = &tickOverflow{kind: k, sum: t.Upper, add: u.Upper}
				break
			}
		}
		for k, t := range a.ticks {
			u, ok := b.ticks[k]
			if !ok {
				delete(a.ticks, k)
				continue
			}
			t.Lower = sat.Add(t.Lower, u.Lower)
			t.Upper = sat.Add(t.Upper, u.Upper)
			t.Average += u.Average
			a.ticks[k] = t
		}
	case b.compute:
		a.compute = true
		a.ticks = map[string]configs.Ticks{}
		for k, t := range b.ticks {
			a.ticks[k] = t
		}
		a.order = append([]string(nil), b.order...)
	}
	a.reads = addUnique(a.reads, b.reads...)
	a.writes = addUnique(a.writes, b.writes...)
	a.timed += b.timed
	a.untimed += b.untimed
	a.calls = addUnique(a.calls, b.calls...)
	a.triggers = append(a.triggers, b.triggers...)
	return over
}

// seqAt appends demand b, read at element at (where), to a, refusing a
// sum of ticks that overflows: the error names the element where the sum
// passes what hetmap counts, and the sum.
func (im *importer) seqAt(a, b *demand, at *xnode, where string) error {
	o := a.seq(b)
	if o == nil {
		return nil
	}
	sum := new(big.Int).Add(big.NewInt(o.sum), big.NewInt(o.add))
	return im.errAt(at, where, "the worst-case ticks on %s overflow here: %d so far + %d = %s, more than hetmap counts (%d)", o.kind, o.sum, o.add, sum, int64(math.MaxInt64))
}

// alternatives combines the branches of a switch into their worst case: on
// every unit kind the largest upper bound of the branches that compute and
// the smallest lower bound of all branches (a branch that computes nothing,
// or no branch at all when incomplete is set, has lower bound 0); the
// accesses, calls and triggers of every branch. A kind is kept only if every
// computing branch can run on it.
func alternatives(branches []*demand, incomplete bool) *demand {
	out := &demand{}
	computing := 0
	for _, b := range branches {
		if b.compute {
			computing++
		}
	}
	if computing > 0 {
		out.compute = true
		out.ticks = map[string]configs.Ticks{}
		first := true
		for _, b := range branches {
			if !b.compute {
				continue
			}
			if first {
				for k, t := range b.ticks {
					out.ticks[k] = t
				}
				out.order = append([]string(nil), b.order...)
				first = false
				continue
			}
			for k, t := range out.ticks {
				u, ok := b.ticks[k]
				if !ok {
					delete(out.ticks, k)
					continue
				}
				t.Upper = max(t.Upper, u.Upper)
				t.Lower = min(t.Lower, u.Lower)
				t.Average = math.Max(t.Average, u.Average)
				out.ticks[k] = t
			}
		}
		if incomplete || computing < len(branches) {
			for k, t := range out.ticks {
				t.Lower = 0
				out.ticks[k] = t
			}
		}
	}
	for _, b := range branches {
		out.reads = addUnique(out.reads, b.reads...)
		out.writes = addUnique(out.writes, b.writes...)
		out.timed += b.timed
		out.untimed += b.untimed
		out.calls = addUnique(out.calls, b.calls...)
		for _, t := range b.triggers {
			t.inSwitch = true
			out.triggers = append(out.triggers, t)
		}
	}
	return out
}

// ticksItem reads a Ticks item: per unit kind its extended value, else the
// default.
func (im *importer) ticksItem(where string, it *xnode) (*demand, error) {
	d := &demand{compute: true, ticks: map[string]configs.Ticks{}}
	for _, e := range it.children("extended") {
		kind := e.ref("key")
		tk, err := im.ticksValue(where+"/extended["+kind+"]", e.child("value"))
		if err != nil {
			return nil, err
		}
		tk.Kind = kind
		if _, dup := d.ticks[kind]; !dup {
			d.order = append(d.order, kind)
		}
		d.ticks[kind] = tk
	}
	if def := it.child("default"); def != nil {
		tk, err := im.ticksValue(where+"/default", def)
		if err != nil {
			return nil, err
		}
		for _, k := range im.sys.Kinds() {
			if _, has := d.ticks[k]; !has {
				tk.Kind = k
				d.ticks[k] = tk
				d.order = append(d.order, k)
			}
		}
	}
	if len(d.ticks) == 0 {
		return nil, im.errAt(it, where, "Ticks item has no values")
	}
	return d, nil
}

func (im *importer) ticksValue(where string, v *xnode) (configs.Ticks, error) {
	dv, err := im.discreteValue(where, v)
	if err != nil {
		return configs.Ticks{}, err
	}
	return configs.Ticks{Lower: dv.lower, Upper: dv.upper, Average: dv.average}, nil
}

// executionNeed reads an ExecutionNeed (0.9.x, deprecated by Ticks in
// 0.9.3): per need entry a count in a hardware feature category, which
// APP4MC's own conversion to ticks (InstructionsUtil) divides by the
// feature value of that category on the core (an IPC; 1 when the core has
// none). The worst case takes the smallest value the core's definition
// gives, the best case the largest. Several entries are added. Before
// 0.9.3 an ExecutionNeed has another form (executionNeed092).
func (im *importer) executionNeed(where string, it *xnode) (*demand, error) {
	if im.before093() {
		return im.executionNeed092(where, it)
	}
	needs := it.children("needs")
	if len(needs) == 0 {
		return nil, im.errAt(it, where, "ExecutionNeed has no needs")
	}
	var entries []needEntry
	for _, n := range needs {
		cat := n.attr("key")
		nw := where + "/needs[" + cat + "]"
		dv, err := im.discreteValue(nw, n.child("value"))
		if err != nil {
			return nil, err
		}
		entries = append(entries, needEntry{category: cat, where: nw, node: n, value: dv})
	}
	return im.needsDemand(entries)
}

// needEntry is one need of an ExecutionNeed: a count in a feature category.
type needEntry struct {
	category string
	where    string
	node     *xnode
	value    discrete
}

// needsDemand converts the needs of an ExecutionNeed into ticks per unit
// kind (see executionNeed).
func (im *importer) needsDemand(entries []needEntry) (*demand, error) {
	d := &demand{compute: true, ticks: map[string]configs.Ticks{}}
	for i, e := range entries {
		cat, nw, dv := e.category, e.where, e.value
		for _, kind := range im.sys.Kinds() {
			lo, hi := math.Inf(1), 0.0
			for _, f := range im.defFeats[kind] {
				if strings.HasPrefix(f, cat+"/") {
					v := im.features[f]
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
			if hi <= 0 {
				lo, hi = 1, 1
				im.warn(nw, "the processing-unit definition %s has no feature of category %q: the need is taken as ticks (factor 1)", kind, cat)
			}
			tk := configs.Ticks{Kind: kind, Upper: int64(math.Ceil(float64(dv.upper) / lo)), Lower: int64(math.Floor(float64(dv.lower) / hi)), Average: dv.average / ((lo + hi) / 2)}
			if float64(dv.upper)/lo > math.MaxInt64/4 {
				return nil, im.errAt(e.node, nw, "the need %d is too large", dv.upper)
			}
			if i == 0 {
				d.ticks[kind] = tk
				d.order = append(d.order, kind)
			} else {
				t := d.ticks[kind]
				if t.Upper > math.MaxInt64-tk.Upper {
					sum := new(big.Int).Add(big.NewInt(t.Upper), big.NewInt(tk.Upper))
					return nil, im.errAt(e.node, nw, "the worst-case ticks on %s overflow here: %d so far + %d = %s, more than hetmap counts (%d)", kind, t.Upper, tk.Upper, sum, int64(math.MaxInt64))
				}
				t.Upper, t.Lower, t.Average = t.Upper+tk.Upper, t.Lower+tk.Lower, t.Average+tk.Average
				d.ticks[kind] = t
			}
		}
		im.warn(nw, "ExecutionNeed (deprecated since APP4MC 0.9.3): %d to %d in category %s, converted to ticks by dividing by the core's %s feature value (worst case: the smallest)", dv.lower, dv.upper, cat, cat)
	}
	return d, nil
}

// labelAccess reads a LabelAccess or ModeLabelAccess.
func (im *importer) labelAccess(where string, it *xnode, mode bool) (*demand, error) {
	l := it.ref("data")
	if l == "" {
		l = it.ref("label")
	}
	if l == "" {
		// An access to nothing (an editor leaves one when its label is
		// deleted) moves no line and orders nothing.
		im.warn(where, "the label access names no label: read past (it moves no data)")
		return &demand{}, nil
	}
	if _, ok := im.labelNodes[l]; !ok {
		return nil, im.undefinedRef(it, where, "label", "data", l)
	}
	d := &demand{}
	acc := it.attr("access")
	switch {
	case acc == "read":
		d.reads = []string{l}
	case acc == "write" || (mode && acc == "set"):
		d.writes = []string{l}
	case mode && (acc == "increment" || acc == "decrement"):
		d.reads, d.writes = []string{l}, []string{l}
	default:
		return nil, im.errAt(it, where, "label access %q is not supported (read or write)", acc)
	}
	if it.attr("implementation") == "timed" {
		d.timed = 1
	} else {
		d.untimed = 1
	}
	return d, nil
}

// itemKind classifies the activity-graph items.
type itemKind uint8

const (
	itemDemand  itemKind = iota // Ticks, ExecutionNeed, label accesses: read into a demand
	itemCall                    // RunnableCall
	itemGroup                   // Group: its items, in order
	itemSwitch                  // ModeSwitch, Switch, ProbabilitySwitch
	itemTrigger                 // InterProcessTrigger
	itemWait                    // WaitEvent
	itemClear                   // ClearEvent
	itemSet                     // SetEvent
	itemNoop                    // items without timing effect (warned)
	itemRefused                 // items hetmap does not analyse
)

var itemKinds = map[string]itemKind{
	"Ticks": itemDemand, "ExecutionNeed": itemDemand, "LabelAccess": itemDemand, "ModeLabelAccess": itemDemand,
	"SenderReceiverRead": itemDemand, "SenderReceiverWrite": itemDemand, "ModeLabelAssignment": itemDemand,
	"RunnableCall": itemCall, "Group": itemGroup,
	"ModeSwitch": itemSwitch, "Switch": itemSwitch, "ProbabilitySwitch": itemSwitch,
	// Amalthea 0.9.0 to 0.9.4: a task's graph is a list of CallSequences
	// of calls (TaskRunnableCall, …); a runnable's items are
	// RunnableModeSwitch and RunnableProbabilitySwitch where later versions
	// have ModeSwitch and ProbabilitySwitch.
	"TaskRunnableCall": itemCall, "CallSequence": itemGroup,
	"RunnableModeSwitch": itemSwitch, "RunnableProbabilitySwitch": itemSwitch,
	"InterProcessTrigger": itemTrigger, "WaitEvent": itemWait, "ClearEvent": itemClear, "SetEvent": itemSet,
	"SchedulePoint": itemNoop, "TerminateProcess": itemNoop, "CustomEventTrigger": itemNoop, "LocalModeLabelAssignment": itemNoop,
}

// refusedItems says why an item is not analysed.
var refusedItems = map[string]string{
	"SemaphoreAccess":        "semaphores block other tasks; hetmap's analysis has no shared resources",
	"ChannelSend":            "channel (FIFO) communication is not analysed",
	"ChannelReceive":         "channel (FIFO) communication is not analysed",
	"SynchronousServerCall":  "client-server calls are not analysed",
	"AsynchronousServerCall": "client-server calls are not analysed",
	"GetResultServerCall":    "client-server calls are not analysed",
	"EnforcedMigration":      "a task that migrates between cores is not analysed (hetmap maps each task to one core)",
	"WhileLoop":              "a WhileLoop has no bound on its iterations, so its worst case is unknown",
}

// demandItem reads an item of kind itemDemand.
func (im *importer) demandItem(where string, it *xnode) (*demand, error) {
	switch it.typ() {
	case "Ticks":
		return im.ticksItem(where, it)
	case "ExecutionNeed":
		return im.executionNeed(where, it)
	case "LabelAccess":
		return im.labelAccess(where, it, false)
	case "ModeLabelAccess":
		return im.labelAccess(where, it, true)
	case "SenderReceiverRead", "SenderReceiverWrite":
		l := it.ref("label")
		if _, ok := im.labelNodes[l]; !ok {
			return nil, im.undefinedRef(it, where, "label", "label", l)
		}
		if it.typ() == "SenderReceiverRead" {
			return &demand{reads: []string{l}, untimed: 1}, nil
		}
		return &demand{writes: []string{l}, untimed: 1}, nil
	case "ModeLabelAssignment":
		l := it.ref("globalLabel")
		if _, ok := im.labelNodes[l]; !ok {
			return nil, im.undefinedRef(it, where, "mode label", "globalLabel", l)
		}
		return &demand{writes: []string{l}, untimed: 1}, nil
	}
	return &demand{}, nil
}

// graphItems returns the items of an executable's graph: activityGraph
// (0.9.7 and later), callGraph/items (0.9.5 and 0.9.6), or, in 0.9.3 and
// 0.9.4, callGraph/graphEntries of a task and runnableItems of a runnable.
func (im *importer) graphItems(where string, n *xnode) ([]*xnode, error) {
	a, c := n.child("activityGraph"), n.child("callGraph")
	old := n.children("runnableItems")
	if (a != nil && c != nil) || (len(old) > 0 && (a != nil || c != nil)) {
		return nil, im.errAt(n, where, "more than one of activityGraph, callGraph and runnableItems given")
	}
	if len(old) > 0 {
		return old, nil
	}
	if a == nil {
		a = c
	}
	if a == nil {
		return nil, nil
	}
	var items []*xnode
	list := ""
	for _, k := range a.kids {
		switch k.name {
		case "customProperties":
			continue
		case "items", "graphEntries":
			if list != "" && list != k.name {
				return nil, im.errAt(k, where+"/"+a.name+"/"+k.name, "both <items> and <graphEntries> given")
			}
			list = k.name
			items = append(items, k)
		default:
			return nil, im.errAt(k, where+"/"+a.name+"/"+k.name, "element <%s> is not supported by hetmap", k.name)
		}
	}
	return items, nil
}

// groupItems returns the items of a Group, or the calls of a CallSequence
// (0.9.0 to 0.9.4).
func groupItems(g *xnode) []*xnode {
	if g.typ() == "CallSequence" {
		return g.children("calls")
	}
	return g.children("items")
}

// itemWhere names an item: its place and, for a refused or warned item,
// its type.
func itemWhere(parent string, it *xnode, i int) string {
	return fmt.Sprintf("%s/%s[%d]", parent, it.name, i)
}

// switchBranches returns the branch item lists of a switch and whether
// some activation may take no branch (a mode switch without default).
func switchBranches(it *xnode) (branches [][]*xnode, names []string, incomplete bool) {
	for _, e := range it.children("entries") {
		branches = append(branches, e.children("items"))
		names = append(names, e.attr("name"))
	}
	if t := it.typ(); t == "ProbabilitySwitch" || t == "RunnableProbabilitySwitch" {
		return branches, names, false
	}
	if def := it.child("defaultEntry"); def != nil {
		branches = append(branches, def.children("items"))
		names = append(names, "default")
		return branches, names, false
	}
	return branches, names, true
}

// flatten reads a list of items into one demand (a runnable, or a branch of
// a switch). Runnable calls are inlined; triggers are collected; waits,
// events and refused items are errors here (a task's own graph is read by
// taskSteps).
func (im *importer) flatten(where string, items []*xnode, owner string) (*demand, error) {
	d := &demand{}
	for i, it := range items {
		iw := itemWhere(where, it, i)
		t := it.typ()
		kind, known := itemKinds[t]
		if !known {
			return nil, im.refuse(iw, it)
		}
		switch kind {
		case itemDemand:
			x, err := im.demandItem(iw, it)
			if err != nil {
				return nil, err
			}
			if err := im.seqAt(d, x, it, iw); err != nil {
				return nil, err
			}
		case itemCall:
			rn := it.ref("runnable")
			x, err := im.runnableDemand(iw, it, rn)
			if err != nil {
				return nil, err
			}
			if err := im.seqAt(d, x, it, iw); err != nil {
				return nil, err
			}
			d.calls = addUnique(d.calls, rn)
		case itemGroup:
			if err := im.checkGroup(iw, it); err != nil {
				return nil, err
			}
			x, err := im.flatten(iw, groupItems(it), owner)
			if err != nil {
				return nil, err
			}
			if err := im.seqAt(d, x, it, iw); err != nil {
				return nil, err
			}
		case itemSwitch:
			x, err := im.switchDemand(iw, it, owner)
			if err != nil {
				return nil, err
			}
			if err := im.seqAt(d, x, it, iw); err != nil {
				return nil, err
			}
		case itemTrigger:
			tr, err := im.triggerOf(iw, it)
			if err != nil {
				return nil, err
			}
			d.triggers = append(d.triggers, tr)
		case itemWait, itemClear:
			return nil, im.errAt(it, iw, "%s inside %s is not supported: a task may wait only for the GPU work it offloads, directly in its own graph", t, owner)
		case itemSet, itemNoop:
			im.noop(iw, it)
		}
	}
	return d, nil
}

func (im *importer) refuse(where string, it *xnode) error {
	t := it.typ()
	if why, ok := refusedItems[t]; ok {
		return im.errAt(it, where, "activity item %s is not supported: %s", t, why)
	}
	if t == "" {
		return im.errAt(it, where, "activity item without xsi:type")
	}
	return im.errAt(it, where, "activity item %q is not supported (Ticks, ExecutionNeed, LabelAccess, ModeLabelAccess, RunnableCall, Group, ModeSwitch, Switch, ProbabilitySwitch, InterProcessTrigger, WaitEvent, ClearEvent, SetEvent)", "am:"+t)
}

func (im *importer) noop(where string, it *xnode) {
	switch it.typ() {
	case "SchedulePoint":
		im.warn(where, "SchedulePoint read past: under preemptive scheduling it changes nothing")
	case "TerminateProcess":
		im.warn(where, "TerminateProcess read past: the items after it are counted as if the task went on (an upper bound)")
	case "CustomEventTrigger":
		im.warn(where, "CustomEventTrigger read past: custom events activate nothing hetmap analyses")
	}
}

func (im *importer) checkGroup(where string, g *xnode) error {
	if g.attr("interruptible") == "false" {
		return im.errAt(g, where, "Group %q is not interruptible: a non-preemptive section blocks higher-priority tasks, which hetmap's fully preemptive analysis does not bound", g.attr("name"))
	}
	return nil
}

func (im *importer) switchDemand(where string, it *xnode, owner string) (*demand, error) {
	branches, names, incomplete := switchBranches(it)
	var ds []*demand
	for b, items := range branches {
		x, err := im.flatten(fmt.Sprintf("%s/entries[%d]", where, b), items, owner)
		if err != nil {
			return nil, err
		}
		ds = append(ds, x)
	}
	if len(branches) > 0 {
		label := ""
		if names := strings.Join(nonEmpty(names), ", "); names != "" {
			label = " (" + names + ")"
		}
		extra := ""
		if incomplete {
			extra = "; no default branch, so an activation may take none"
		}
		im.warn(where, "%s with %d branch(es)%s: analysed as the worst case over its branches, the largest demand and the accesses of every branch%s", it.typ(), len(branches), label, extra)
	}
	return alternatives(ds, incomplete), nil
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (im *importer) triggerOf(where string, it *xnode) (trigger, error) {
	tr := trigger{stimulus: it.ref("stimulus"), where: where, node: it, prescaler: 1}
	if c := it.child("counter"); c != nil {
		p, o, err := im.counter(where+"/counter", c)
		if err != nil {
			return tr, err
		}
		tr.prescaler, tr.offset = p, o
	}
	return tr, nil
}

// runnableDemand flattens a runnable (memoised), refusing a runnable that
// calls itself.
func (im *importer) runnableDemand(where string, at *xnode, name string) (*demand, error) {
	if d, ok := im.runDemand[name]; ok {
		return d, nil
	}
	n, ok := im.runNodes[name]
	if !ok {
		return nil, im.undefinedRef(at, where, "runnable", "runnable", name)
	}
	if im.runBusy[name] {
		return nil, im.errAt(at, where, "runnable %q calls itself (directly or through other runnables)", name)
	}
	im.runBusy[name] = true
	rw := "swModel/runnables[" + name + "]"
	items, err := im.graphItems(rw, n)
	if err != nil {
		return nil, err
	}
	d, err := im.flatten(rw, items, "a runnable")
	if err != nil {
		return nil, err
	}
	delete(im.runBusy, name)
	im.runDemand[name] = d
	return d, nil
}

// runnableChildren are the children of a runnable hetmap reads or reads past.
var runnableChildren = map[string]bool{
	"activityGraph": true, "callGraph": true, "customProperties": true, "parameters": true, "executionCondition": true,
	"localLabels": true, "size": true, "tags": true, "activations": true, "section": true, "namespace": true, "runnableRequirements": true,
	"runnableItems": true, "deadline": true, // 0.9.0 to 0.9.4
}

func (im *importer) runnables() error {
	for _, s := range im.subModels("swModel") {
		for _, k := range s.kids {
			switch k.name {
			case "tasks", "runnables", "labels", "modeLabels", "events", "typeDefinitions", "activations", "sections",
				"customEntities", "processPrototypes", "processChains", "modes", "customProperties":
			case "isrs":
				return im.errAt(k, "swModel/isrs["+k.attr("name")+"]", "interrupt service routines (ISRs) are not analysed: they preempt every task of their core")
			case "channels":
				im.warn("swModel/channels["+k.attr("name")+"]", "channel read past (accesses to channels are refused where they occur)")
			default:
				return im.errAt(k, "swModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
		}
	}
	if n := len(im.elements("swModel", "activations")); n > 0 {
		im.warn("swModel/activations", "%d activation(s) read past: a task is activated by its stimulus, which refines its activation", n)
	}
	if n := len(im.elements("swModel", "processPrototypes")); n > 0 {
		im.warn("swModel/processPrototypes", "%d process prototype(s) read past: hetmap analyses the tasks, not their prototypes", n)
	}
	nodes, err := im.byName("swModel/runnables", im.elements("swModel", "runnables"))
	if err != nil {
		return err
	}
	im.runNodes, im.runDemand, im.runBusy, im.synthetic = nodes, map[string]*demand{}, map[string]bool{}, map[string]bool{}
	var deadlines []string
	for _, r := range im.elements("swModel", "runnables") {
		name := r.attr("name")
		where := "swModel/runnables[" + name + "]"
		for _, k := range r.kids {
			if !runnableChildren[k.name] {
				return im.errAt(k, where+"/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
			if k.name == "deadline" {
				deadlines = append(deadlines, name)
			}
		}
		d, err := im.runnableDemand(where, r, name)
		if err != nil {
			return err
		}
		run, err := im.runnableOf(where, r, name, d)
		if err != nil {
			return err
		}
		im.sys.Runnables = append(im.sys.Runnables, run)
	}
	if len(deadlines) > 0 {
		im.warn("swModel/runnables", "%d runnable deadline(s) read past (%s): hetmap checks the deadlines of tasks, not of runnables", len(deadlines), listSome(deadlines, 6))
	}
	return nil
}

// runnableOf turns a demand into a runnable of the system.
func (im *importer) runnableOf(where string, at *xnode, name string, d *demand) (configs.Runnable, error) {
	run := configs.Runnable{Name: name, Reads: append([]string(nil), d.reads...), Writes: append([]string(nil), d.writes...)}
	if d.compute {
		if len(d.ticks) == 0 {
			return run, im.errAt(at, where, "its Ticks give no processing-unit definition a value in every part: it can run nowhere")
		}
		for _, k := range d.order {
			if t, ok := d.ticks[k]; ok && slices.Contains(im.sys.Kinds(), k) {
				t.Kind = k
				run.Ticks = append(run.Ticks, t)
			}
		}
		// Kinds named only in extended values (no unit of that kind).
		var extra []string
		for k := range d.ticks {
			if !slices.Contains(im.sys.Kinds(), k) {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		for _, k := range extra {
			if _, ok := im.defs[k]; !ok {
				return run, im.errAt(at, where, "ticks for %q, which is not a processing-unit definition", k)
			}
		}
		if len(run.Ticks) == 0 {
			return run, im.errAt(at, where, "has ticks only for definitions without a processing unit (%s): it can run nowhere", strings.Join(extra, ", "))
		}
	}
	return run, nil
}
