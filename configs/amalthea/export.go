package amalthea

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// ExportMapping is a mapping to write into an Amalthea model.
type ExportMapping struct {
	// Mapping places every task that runs (ValidateMapping with
	// partial = false) and may set offloading modes, time slices and stream
	// priorities.
	Mapping configs.Mapping
	// Priorities are the fixed priorities of the tasks on CPU cores as the
	// analysis used them (higher = more urgent, as in Amalthea). A task
	// without an entry keeps the priority its placement gives, or gets none.
	Priorities map[string]int
	// Convention is conventions.priorities, how the model's priorities are
	// read: under model-lower-first the priorities are written negated,
	// so that the model read back under it gives them again.
	Convention configs.PriorityConvention
}

// Export writes a mapping into the Amalthea model of files (one
// model, as ReadFiles reads it) and returns the new content of every
// file, unchanged ones included. The files are changed only where the
// mapping is encoded:
//
//   - The mapping model is replaced: one task allocation per placed task,
//     to the scheduler responsible for its core (the one the model
//     allocated the task to when that scheduler is responsible for the new
//     core), with the core as affinity, its priority (schedulingParameters:
//     the priority attribute up to 1.x, the "priority" scheduling parameter
//     from 2.0), the GPU time slice (parameterExtensions key
//     TimeSlice_<task>, as the WATERS 2019 model writes it) and the stream
//     priority (key StreamPriority, hetmap's own: Amalthea has none). From
//     2.0 these are scheduling parameters of the model's definition of
//     that name (with or without "extended: "; a Time definition gets a
//     Time value), else of a definition "extended: TimeSlice_<task>" or
//     "extended: StreamPriority" of type String, as APP4MC's migration
//     names the 1.x parameter extensions; every definition a written
//     parameter references and the model lacks is added at the end of the
//     OS model, so that the written model has no dangling reference. A GPU task merged
//     onto a core is allocated to that core together with its offloading
//     task. The scheduler allocations, memory mappings and the other parts
//     of the mapping model are kept as they were, and so are the
//     allocations of tasks that hetmap leaves out (never activated); a core
//     that no scheduler is responsible for gets a scheduler allocation of
//     the model's first fixed-priority scheduler. An element of another
//     file of the model is named as APP4MC names it, by a child element
//     with an href ("amlt:/#Name?type=Kind", "?type=" escaped as the model
//     escapes it); one of the same file in an attribute.
//   - The offloading mode of a GPU task is the waitingBehaviour of the
//     WaitEvent in its offloading task (active: synchronous, passive:
//     asynchronous), as the model encodes it; only that attribute changes.
//   - A model without a mapping model gets one, in the file that holds the
//     software model; a model without any task scheduler gets an operating
//     system in its OS model (a new one there too when it has none), with
//     one fixed-priority preemptive scheduler per core (and a user-specific
//     one for a GPU); from 2.0 the schedulers name scheduler definitions
//     (FixedPriorityPreemptive with its process parameter priority,
//     UserSpecificSchedulingAlgorithm), added with the parameter
//     definitions where the model lacks them. These and the parameter
//     definitions are the only parts written outside the mapping model.
//
// Importing the files written gives back the system, with the offloading
// modes of the mapping as the tasks' wait modes, and the mapping as its own
// mapping.
func Export(files []string, em ExportMapping) (map[string][]byte, error) {
	var docs []amalDoc
	for _, f := range files {
		data, err := configs.ReadInput(f, "the model")
		if err != nil {
			return nil, err
		}
		docs = append(docs, amalDoc{name: f, data: data})
	}
	im, err := importDocs(docs)
	if err != nil {
		return nil, err
	}
	return im.export(em)
}

// edit replaces data[start:end] by text.
type edit struct {
	start, end int64
	text       string
}

type exporter struct {
	im     *importer
	em     ExportMapping
	edits  map[string][]edit // by file
	nl     string            // the line ending of the target file
	am     string            // the prefix of the Amalthea namespace
	xsi    string            // the prefix of the XSI namespace
	indent string            // one level of indentation
	v2     bool              // scheduling parameters as definitions (2.0 and later)
	target *xnode            // the root that gets the mapping model
	// owns: scheduler → units it is responsible for; forUnit: the
	// schedulers responsible for a unit, in model order.
	owns    map[string][]string
	forUnit map[string][]string
	added   []refs // new scheduler allocations
	// files: the file defining each element a written reference may name,
	// by kind and name (built on first use); escaped: hrefs escape
	// "?type=" as "%3Ftype%3D" (0.9.5 and later, or as the model does).
	files   map[string]string
	escaped bool
	// micro spells microseconds in the time slices written as text (a
	// parameter extension, a 2.x StringObject): as the model's own time
	// slices do, else "µs" (as the WATERS 2019 model writes it). A 2.x
	// Time value writes the TimeUnit literal "us".
	micro string
	// From 2.0: osFile is the file of the OS model (the target file when
	// the model has none); newDefs are the scheduling parameter
	// definitions the written parameters reference and the model lacks,
	// in the order of first use; genOS holds the OS model to generate for
	// a model without any task scheduler (generateOS), written with the
	// definitions by osModel.
	osFile  string
	newDefs []paramDefinition
	genOS   *generatedOS
}

// paramDefinition is a SchedulingParameterDefinition the export adds.
type paramDefinition struct{ name, typ string }

// generatedOS is the OS model generateOS makes: its operating system's
// text and the scheduler definitions its schedulers name (2.0 on).
type generatedOS struct {
	os       string
	algoDefs []string
}

// microSpelling returns how the model's own time slices spell
// microseconds ("us" or "µs"), or def when none of them does.
func (im *importer) microSpelling(def string) string {
	for _, m := range im.subModels("mappingModel") {
		for _, ta := range m.children("taskAllocation") {
			params, _ := im.schedParams("", ta, "", "")
			for _, p := range params {
				if !strings.HasPrefix(p.name, paramTimeSlice) {
					continue
				}
				v := strings.TrimSpace(p.value)
				switch {
				case strings.HasSuffix(v, "µs"):
					return "µs"
				case strings.HasSuffix(v, "us"):
					return "us"
				}
			}
		}
	}
	return def
}

func (im *importer) export(em ExportMapping) (map[string][]byte, error) {
	s := &im.sys
	if err := configs.ValidateMapping(s, &em.Mapping, false); err != nil {
		return nil, err
	}
	ex := &exporter{im: im, em: em, edits: map[string][]edit{}, owns: map[string][]string{}, forUnit: map[string][]string{},
		v2: !im.version.less(version{2, 0, 0})}
	ex.micro = im.microSpelling("µs")
	mms := im.subModels("mappingModel")
	switch {
	case len(mms) > 0:
		ex.target = rootOf(im, mms[0])
	case len(im.subModels("swModel")) > 0:
		ex.target = rootOf(im, im.subModels("swModel")[0])
	default:
		ex.target = im.roots[0]
	}
	ex.osFile = ex.target.file
	if oms := im.subModels("osModel"); len(oms) > 0 {
		ex.osFile = oms[0].file
	}
	data := im.data(ex.target.file)
	ex.nl = "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		ex.nl = "\r\n"
	}
	ex.am, ex.xsi = prefixOf(ex.target, NamespacePrefix), prefixOf(ex.target, xsiNS)
	if ex.xsi == "" {
		return nil, im.errAt(ex.target, "Amalthea", "the file declares no prefix for the XML schema instance namespace (%s), which the mapping model needs", xsiNS)
	}
	ex.indent = indentOf(data, ex.target)
	ex.escaped = !im.version.less(version{0, 9, 5})
	for _, d := range im.docs {
		if i := bytes.Index(d.data, []byte(`href="amlt:/#`)); i >= 0 {
			j := bytes.IndexByte(d.data[i+len(`href="`):], '"')
			ex.escaped = j >= 0 && !bytes.Contains(d.data[i:i+len(`href="`)+j], []byte("?type="))
			break
		}
	}

	for _, m := range mms {
		for _, sa := range m.children("schedulerAllocation") {
			sched := sa.ref("scheduler")
			for _, u := range sa.refs("responsibility") {
				ex.owns[sched] = append(ex.owns[sched], u)
				ex.forUnit[u] = append(ex.forUnit[u], sched)
			}
		}
	}
	if len(im.schedulers) == 0 {
		if err := ex.generateOS(); err != nil {
			return nil, err
		}
	}
	allocs, err := ex.allocations()
	if err != nil {
		return nil, err
	}
	if err := ex.mappingModel(mms, allocs); err != nil {
		return nil, err
	}
	if err := ex.waitModes(); err != nil {
		return nil, err
	}
	if err := ex.osModel(); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, d := range im.docs {
		out[d.name] = applyEdits(d.data, ex.edits[d.name])
	}
	return out, nil
}

func (im *importer) data(file string) []byte {
	for _, d := range im.docs {
		if d.name == file {
			return d.data
		}
	}
	return nil
}

func rootOf(im *importer, n *xnode) *xnode {
	for _, r := range im.roots {
		if r.file == n.file {
			return r
		}
	}
	return im.roots[0]
}

// prefixOf returns the prefix the root binds to a namespace (for the
// Amalthea namespace: any version), or "".
func prefixOf(root *xnode, ns string) string {
	for _, a := range root.attrs {
		if a.Name.Space == "xmlns" && (a.Value == ns || (ns == NamespacePrefix && strings.HasPrefix(a.Value, ns))) {
			return a.Name.Local
		}
	}
	return ""
}

// indentOf returns the indentation of the root's children (two spaces when
// it has none on a line of its own).
func indentOf(data []byte, root *xnode) string {
	for _, k := range root.kids {
		i := k.start
		j := i
		for j > 0 && (data[j-1] == ' ' || data[j-1] == '\t') {
			j--
		}
		if j > 0 && data[j-1] == '\n' && j < i {
			return string(data[j:i])
		}
	}
	return "  "
}

func applyEdits(data []byte, edits []edit) []byte {
	if len(edits) == 0 {
		return data
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	pos := int64(0)
	for _, e := range edits {
		b.Write(data[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.Write(data[pos:])
	return b.Bytes()
}

// encodeRef writes a reference "Name?type=Kind" as APP4MC does: the name
// escaped as java.net.URLEncoder escapes it (a space as "+"; refName
// undoes it), the whole XML-escaped for an attribute.
func encodeRef(name, kind string) string {
	return xmlAttr(url.QueryEscape(name) + "?type=" + kind)
}

// refs collects the references of one element to write: as attributes
// when the element named is in the file written to (the usual form), as
// child elements with an href when it is in another file of the model, as
// APP4MC writes references between the files of a model.
type refs struct {
	attrs, kids []string
}

func (ex *exporter) ref(r *refs, feature, kind, name string) {
	file := ex.fileOf(kind, name)
	if id := ex.im.ids[kind+"\x00"+name]; ex.im.byIDs && id != "" {
		// A model that references by xmi:id gets the element's id.
		if file == "" || file == ex.target.file {
			r.attrs = append(r.attrs, fmt.Sprintf(` %s="%s"`, feature, xmlAttr(id)))
		} else {
			r.kids = append(r.kids, fmt.Sprintf(`<%s href="%s#%s"/>`, feature, xmlAttr(url.PathEscape(filepath.Base(file))), xmlAttr(id)))
		}
		return
	}
	if file == "" || file == ex.target.file {
		r.attrs = append(r.attrs, fmt.Sprintf(` %s="%s"`, feature, encodeRef(name, kind)))
		return
	}
	sep := "?type="
	if ex.escaped {
		sep = "%3Ftype%3D"
	}
	r.kids = append(r.kids, fmt.Sprintf(`<%s href="amlt:/#%s"/>`, feature, xmlAttr(url.QueryEscape(name)+sep+kind)))
}

// element writes an element with references r and further children kids
// (text), at indentation ind.
func (ex *exporter) element(tag string, r refs, kids []string, ind string) string {
	var b strings.Builder
	b.WriteString(ind + "<" + tag)
	for _, a := range r.attrs {
		b.WriteString(a)
	}
	all := append(append([]string(nil), r.kids...), kids...)
	if len(all) == 0 {
		b.WriteString("/>")
		return b.String()
	}
	b.WriteString(">")
	for _, k := range all {
		b.WriteString(ex.nl + ind + ex.indent + k)
	}
	b.WriteString(ex.nl + ind + "</" + tag + ">")
	return b.String()
}

// fileOf returns the file that defines the element kind/name, or "" when
// the model has none (a scheduler hetmap adds, a parameter definition the
// model lacks).
func (ex *exporter) fileOf(kind, name string) string {
	if ex.files == nil {
		im := ex.im
		ex.files = map[string]string{}
		add := func(kind string, n *xnode) {
			if k := kind + "\x00" + n.attr("name"); ex.files[k] == "" {
				ex.files[k] = n.file
			}
		}
		for _, t := range im.elements("swModel", "tasks") {
			add("Task", t)
		}
		for _, d := range im.elements("osModel", "schedulingParameterDefinitions") {
			add("SchedulingParameterDefinition", d)
		}
		for _, o := range im.elements("osModel", "operatingSystems") {
			for _, t := range o.children("taskSchedulers") {
				add("TaskScheduler", t)
			}
		}
		var walk func(n *xnode)
		walk = func(n *xnode) {
			if n.typ() == "ProcessingUnit" {
				add("ProcessingUnit", n)
			}
			for _, k := range n.kids {
				walk(k)
			}
		}
		for _, h := range im.subModels("hwModel") {
			walk(h)
		}
	}
	return ex.files[kind+"\x00"+name]
}

func xmlAttr(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\n':
			b.WriteString("&#xA;")
		case '\r':
			b.WriteString("&#xD;")
		case '\t':
			b.WriteString("&#x9;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// allocation is one task allocation to write.
type allocation struct {
	task, scheduler, unit string
	priority              *int
	slice                 configs.Duration
	stream                configs.GPUPriority
}

// schedulerFor chooses the scheduler of a task on a unit: the one the model
// allocated the task to when it is responsible for the unit, else the
// first responsible scheduler hetmap analyses there.
func (ex *exporter) schedulerFor(task, unit string) (string, error) {
	im := ex.im
	u := im.sys.Unit(unit)
	var original string
	for _, m := range im.subModels("mappingModel") {
		for _, ta := range m.children("taskAllocation") {
			if ta.ref("task") == task {
				original = ta.ref("scheduler")
			}
		}
	}
	usable := func(s string) bool {
		si := im.schedulers[s]
		return si != nil && (u.Type == configs.GPU || si.why == "")
	}
	if original != "" && slices.Contains(ex.forUnit[unit], original) && usable(original) {
		return original, nil
	}
	for _, s := range ex.forUnit[unit] {
		if usable(s) {
			return s, nil
		}
	}
	// No scheduler is responsible for the unit: allocate one.
	var names []string
	for n := range im.schedulers {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return im.schedulers[names[i]].node.start < im.schedulers[names[j]].node.start })
	for _, n := range names {
		si := im.schedulers[n]
		if (u.Type == configs.CPU && si.why == "") || (u.Type == configs.GPU && si.why != "" && len(ex.owns[n]) == 0) {
			ex.owns[n] = append(ex.owns[n], unit)
			ex.forUnit[unit] = append(ex.forUnit[unit], n)
			var r refs
			ex.ref(&r, "scheduler", "TaskScheduler", n)
			ex.ref(&r, "responsibility", "ProcessingUnit", unit)
			ex.added = append(ex.added, r)
			return n, nil
		}
	}
	return "", im.errAt(nil, "osModel", "no task scheduler of the model can schedule %s (%s): add one to the OS model", unit, u.Type)
}

func (ex *exporter) allocations() ([]allocation, error) {
	s := &ex.im.sys
	m := &ex.em.Mapping
	slices := map[string]configs.Duration{}
	for _, ts := range m.TimeSlices {
		slices[ts.Task] = ts.Slice
	}
	streams := map[string]configs.GPUPriority{}
	for _, gp := range m.GPUPriorities {
		streams[gp.Task] = gp.Priority
	}
	var out []allocation
	for _, p := range m.Units {
		u := s.Unit(p.Unit)
		t := s.Task(p.Task)
		a := allocation{task: p.Task, unit: p.Unit}
		if u.Type == configs.CPU {
			if v, ok := ex.em.Priorities[p.Task]; ok {
				v := v
				a.priority = &v
			} else if p.Priority != nil {
				v := *p.Priority
				a.priority = &v
			}
			if a.priority != nil && ex.em.Convention == configs.ModelPrioritiesLower {
				v := -*a.priority
				a.priority = &v
			}
		} else {
			a.slice, a.stream = slices[p.Task], streams[p.Task]
		}
		var err error
		if a.scheduler, err = ex.schedulerFor(p.Task, p.Unit); err != nil {
			return nil, err
		}
		out = append(out, a)
		if t.IsGPUTask() && u.Type == configs.CPU {
			// Merged: the offloading task runs on the same core, at the same priority.
			pre := a
			pre.task = t.TriggeredBy
			if pre.scheduler, err = ex.schedulerFor(pre.task, p.Unit); err != nil {
				return nil, err
			}
			out = append(out, pre)
		}
	}
	return out, nil
}

func (ex *exporter) allocationText(a allocation, ind string) string {
	nl := ex.nl
	var r refs
	ex.ref(&r, "task", "Task", a.task)
	ex.ref(&r, "scheduler", "TaskScheduler", a.scheduler)
	ex.ref(&r, "affinity", "ProcessingUnit", a.unit)
	var kids []string
	// param writes a 2.x scheduling parameter: an entry whose key is the
	// definition def, with value val (xsi:type typ and its attributes).
	param := func(def, typ, attrs string) {
		var kr refs
		ex.ref(&kr, "key", "SchedulingParameterDefinition", def)
		ind2 := ind + ex.indent
		var b strings.Builder
		b.WriteString("<schedulingParameters" + strings.Join(kr.attrs, "") + ">")
		for _, k := range kr.kids {
			b.WriteString(nl + ind2 + ex.indent + k)
		}
		fmt.Fprintf(&b, `%s%s<value %s:type="%s:%s" %s/>%s%s</schedulingParameters>`, nl, ind2+ex.indent, ex.xsi, ex.am, typ, attrs, nl, ind2)
		kids = append(kids, b.String())
	}
	if a.priority != nil {
		if ex.v2 {
			def, typ := ex.paramDef(paramPriority, "Integer")
			vt := "IntegerObject"
			if typ == "String" {
				vt = "StringObject"
			}
			param(def, vt, fmt.Sprintf(`value="%d"`, *a.priority))
		} else {
			kids = append(kids, fmt.Sprintf(`<schedulingParameters priority="%d"/>`, *a.priority))
		}
	}
	// text writes a parameter of hetmap's own with a text value: up to 1.x
	// a parameter extension, from 2.0 a parameter of the model's
	// definition of that name (with or without "extended: "), else of a
	// definition "extended: NAME" of type String, as APP4MC's migration
	// names a parameter extension. A Time definition gets a Time value.
	text := func(name, value string, d configs.Duration) {
		if !ex.v2 {
			kids = append(kids, fmt.Sprintf(`<parameterExtensions key="%s" value="%s"/>`, xmlAttr(name), xmlAttr(value)))
			return
		}
		def, typ := ex.paramDef(name, "String")
		if typ == "Time" {
			v, unit := sliceText(d, "us")
			param(def, "Time", fmt.Sprintf(`value="%s" unit="%s"`, v, unit))
			return
		}
		param(def, "StringObject", fmt.Sprintf(`value="%s"`, xmlAttr(value)))
	}
	if a.slice > 0 {
		v, unit := sliceText(a.slice, ex.micro)
		text(paramTimeSlice+"_"+a.task, v+unit, a.slice)
	}
	if a.stream != "" {
		text(paramStreamPrio, string(a.stream), 0)
	}
	return ex.element("taskAllocation", r, kids, ind)
}

// sliceText writes a time slice in whole microseconds where it can (as the
// WATERS 2019 model does), spelled micro ("µs" or "us"), else in the
// largest exact unit.
func sliceText(d configs.Duration, micro string) (string, string) {
	if d%configs.Microsecond == 0 {
		return strconv.FormatInt(int64(d/configs.Microsecond), 10), micro
	}
	if d%configs.Nanosecond == 0 {
		return strconv.FormatInt(int64(d/configs.Nanosecond), 10), "ns"
	}
	return strconv.FormatInt(int64(d), 10), "ps"
}

// paramDef returns the SchedulingParameterDefinition (2.0 on) that a
// parameter hetmap writes, named name, references, with its type: the
// model's own definition of that name, with or without "extended: " (the
// stream priority by any case), else a new one that the export adds to the
// OS model, "priority" of type Integer for the priority and "extended:
// NAME" of type typ for the others.
func (ex *exporter) paramDef(name, typ string) (string, string) {
	im := ex.im
	var names []string
	for n := range im.paramDefs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		base := strings.TrimPrefix(n, extendedPrefix)
		if base == name || (name == paramStreamPrio && strings.EqualFold(base, name)) {
			return n, im.paramDefs[n].attr("type")
		}
	}
	def := extendedPrefix + name
	if name == paramPriority {
		def = name
	}
	for _, d := range ex.newDefs {
		if d.name == def {
			return d.name, d.typ
		}
	}
	ex.newDefs = append(ex.newDefs, paramDefinition{name: def, typ: typ})
	ex.fileOf("", "") // builds the index
	ex.files["SchedulingParameterDefinition\x00"+def] = ex.osFile
	return def, typ
}

// mappingModel replaces (or adds) the mapping model of the target file.
func (ex *exporter) mappingModel(mms []*xnode, allocs []allocation) error {
	im := ex.im
	root := ex.target
	data := im.data(root.file)
	ind1 := ex.indent
	ind2 := ind1 + ex.indent
	known := map[string]bool{}
	for _, t := range im.sys.Tasks {
		known[t.Name] = true
	}
	var mm *xnode
	for _, m := range mms {
		if m.file == root.file {
			mm = m
		}
	}
	var b strings.Builder
	startTag := "<mappingModel>"
	if mm != nil {
		end := startTagEnd(data, mm.start)
		tag := string(data[mm.start:end])
		tag = strings.TrimSuffix(strings.TrimSuffix(tag, ">"), "/")
		startTag = strings.TrimRight(tag, " \t\r\n") + ">"
	}
	b.WriteString(startTag)
	verbatim := func(n *xnode) {
		b.WriteString(ex.nl + ind2 + string(data[n.start:n.end]))
	}
	// Children in the metamodel's order: the kept ones verbatim.
	order := []string{"customProperties", "schedulerAllocation", "runnableAllocation", "taskAllocation", "isrAllocation", "memoryMapping", "physicalSectionMapping"}
	for _, kind := range order {
		if mm != nil {
			for _, k := range mm.children(kind) {
				if kind == "taskAllocation" && known[k.ref("task")] {
					continue // replaced below
				}
				verbatim(k)
			}
		}
		switch kind {
		case "schedulerAllocation":
			for _, r := range ex.added {
				b.WriteString(ex.nl + ex.element("schedulerAllocation", r, nil, ind2))
			}
		case "taskAllocation":
			for _, a := range allocs {
				b.WriteString(ex.nl + ex.allocationText(a, ind2))
			}
		}
	}
	// Mapping models of the other files: their task allocations of known
	// tasks are removed, so that the written model allocates each task once.
	for _, m := range mms {
		if m == mm {
			continue
		}
		for _, k := range m.children("taskAllocation") {
			if known[k.ref("task")] {
				ex.edits[m.file] = append(ex.edits[m.file], edit{start: lineStart(im.data(m.file), k.start), end: k.end, text: ""})
			}
		}
	}
	b.WriteString(ex.nl + ind1 + "</mappingModel>")
	if mm != nil {
		ex.edits[root.file] = append(ex.edits[root.file], edit{start: mm.start, end: mm.end, text: b.String()})
		return nil
	}
	at, err := insertionPoint(data, root, []string{"componentsModel", "configModel", "measurementModel"})
	if err != nil {
		return err
	}
	ex.edits[root.file] = append(ex.edits[root.file], edit{start: at, end: at, text: ind1 + b.String() + ex.nl})
	return nil
}

// lineStart returns the start of the line of offset off when only blanks
// precede off on it (so that removing an element removes its indentation),
// else off.
func lineStart(data []byte, off int64) int64 {
	j := off
	for j > 0 && (data[j-1] == ' ' || data[j-1] == '\t') {
		j--
	}
	if j > 0 && data[j-1] == '\n' {
		j--
		if j > 0 && data[j-1] == '\r' {
			j--
		}
		return j
	}
	return off
}

// insertionPoint returns where a new child of the root goes: at the start of
// the line of the first child named in before, else at the start of the
// line of the root's end tag.
func insertionPoint(data []byte, root *xnode, before []string) (int64, error) {
	for _, k := range root.kids {
		if slices.Contains(before, k.name) {
			return lineBegin(data, k.start), nil
		}
	}
	end := bytes.LastIndex(data[root.start:root.end], []byte("</"))
	if end < 0 {
		return 0, &configs.InputError{File: root.file, Line: root.line, Where: "Amalthea", What: "the root element has no end tag to insert the mapping model before"}
	}
	return lineBegin(data, root.start+int64(end)), nil
}

// lineBegin returns the offset after the line break before off when only
// blanks precede off on its line, else off.
func lineBegin(data []byte, off int64) int64 {
	j := off
	for j > 0 && (data[j-1] == ' ' || data[j-1] == '\t') {
		j--
	}
	if j == 0 || data[j-1] == '\n' {
		return j
	}
	return off
}

// startTagEnd returns the offset just after the '>' that ends the start tag
// beginning at start.
func startTagEnd(data []byte, start int64) int64 {
	quote := byte(0)
	for i := start; i < int64(len(data)); i++ {
		c := data[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i + 1
		}
	}
	return int64(len(data))
}

var waitingAttr = regexp.MustCompile(`waitingBehaviour\s*=\s*("[^"]*"|'[^']*')`)

// waitModes writes the offloading modes into the WaitEvents.
func (ex *exporter) waitModes() error {
	im := ex.im
	for _, o := range ex.em.Mapping.Offloading {
		g := im.sys.Task(o.Task)
		if g == nil || !g.IsGPUTask() {
			continue
		}
		tg := im.taskInfo[g.TriggeredBy]
		if tg == nil || tg.waitNode == nil {
			continue
		}
		want := "active"
		if o.Mode == configs.Async {
			want = "passive"
		}
		n := tg.waitNode
		data := im.data(n.file)
		end := startTagEnd(data, n.start)
		tag := data[n.start:end]
		if loc := waitingAttr.FindSubmatchIndex(tag); loc != nil {
			if string(tag[loc[2]+1:loc[3]-1]) == want {
				continue
			}
			ex.edits[n.file] = append(ex.edits[n.file], edit{start: n.start + int64(loc[2]), end: n.start + int64(loc[3]), text: `"` + want + `"`})
			continue
		}
		at := end - 1
		if at > n.start && data[at-1] == '/' {
			at--
		}
		ex.edits[n.file] = append(ex.edits[n.file], edit{start: at, end: at, text: ` waitingBehaviour="` + want + `"`})
	}
	return nil
}

// generateOS makes an OS model with one fixed-priority preemptive
// scheduler per CPU core (and a user-specific one per GPU) for a model that
// has no task scheduler at all, and allocates each to its unit; osModel
// writes it. From 2.0 the schedulers name scheduler definitions
// (FixedPriorityPreemptive with its process parameter priority,
// UserSpecificSchedulingAlgorithm), which osModel adds where the model
// lacks them.
func (ex *exporter) generateOS() error {
	im := ex.im
	ind1 := ex.indent
	ind2, ind3, ind4 := ind1+ind1, ind1+ind1+ind1, ind1+ind1+ind1+ind1
	var b strings.Builder
	b.WriteString(ind2 + `<operatingSystems name="hetmap_OS">` + ex.nl)
	taken := map[string]bool{}
	g := &generatedOS{}
	for _, u := range im.sys.Units {
		name := "hetmap_Scheduler_" + u.Name
		for i := 2; taken[name]; i++ {
			name = fmt.Sprintf("hetmap_Scheduler_%s_%d", u.Name, i)
		}
		taken[name] = true
		algo := "FixedPriorityPreemptive"
		if u.Type == configs.GPU {
			algo = "UserSpecificSchedulingAlgorithm"
		}
		if ex.v2 {
			if !slices.Contains(g.algoDefs, algo) {
				g.algoDefs = append(g.algoDefs, algo)
			}
			fmt.Fprintf(&b, `%s<taskSchedulers name="%s" definition="%s"/>%s`, ind3, xmlAttr(name), encodeRef(algo, "SchedulerDefinition"), ex.nl)
		} else {
			fmt.Fprintf(&b, `%s<taskSchedulers name="%s">%s%s<schedulingAlgorithm %s:type="%s:%s"/>%s%s</taskSchedulers>%s`,
				ind3, xmlAttr(name), ex.nl, ind4, ex.xsi, ex.am, algo, ex.nl, ind3, ex.nl)
		}
		si := &schedInfo{node: &xnode{start: int64(len(im.schedulers))}, algorithm: algo}
		if u.Type == configs.GPU {
			si.why = unsupportedScheduling(algo)
		}
		im.schedulers[name] = si
		ex.owns[name] = []string{u.Name}
		ex.forUnit[u.Name] = []string{name}
		var r refs
		ex.ref(&r, "scheduler", "TaskScheduler", name)
		ex.ref(&r, "responsibility", "ProcessingUnit", u.Name)
		ex.ref(&r, "executingPU", "ProcessingUnit", u.Name)
		ex.added = append(ex.added, r)
	}
	b.WriteString(ind2 + "</operatingSystems>" + ex.nl)
	g.os = b.String()
	ex.genOS = g
	if ex.v2 {
		ex.paramDef(paramPriority, "Integer") // FixedPriorityPreemptive's process parameter
	}
	return nil
}

// osModel writes what the export adds to the OS model: the generated
// operating system (generateOS) with the scheduler definitions its
// schedulers name, and the scheduling parameter definitions the written
// parameters reference (2.0 on), where the model lacks them. They go into
// the OS model of the first file that has one, in the metamodel's order
// (operating systems before the definitions); a model without an OS
// model gets one in the target file.
func (ex *exporter) osModel() error {
	im := ex.im
	var defs strings.Builder
	ind2 := ex.indent + ex.indent
	if g := ex.genOS; g != nil {
		for _, algo := range g.algoDefs {
			if im.schedDefs[algo] != nil {
				continue
			}
			params := ""
			if algo == "FixedPriorityPreemptive" {
				var r refs
				def, _ := ex.paramDef(paramPriority, "Integer")
				ex.ref(&r, "processParameters", "SchedulingParameterDefinition", def)
				params = strings.Join(r.attrs, "")
			}
			fmt.Fprintf(&defs, `%s<schedulerDefinitions name="%s"%s/>%s`, ind2, xmlAttr(algo), params, ex.nl)
		}
	}
	for _, d := range ex.newDefs {
		// hetmap's own parameters are optional; the priority is as APP4MC
		// defines its standard one (mandatory, the metamodel's default).
		optional := ""
		if d.name != paramPriority {
			optional = ` mandatory="false"`
		}
		fmt.Fprintf(&defs, `%s<schedulingParameterDefinitions name="%s" type="%s"%s/>%s`, ind2, xmlAttr(d.name), d.typ, optional, ex.nl)
	}
	osText := ""
	if ex.genOS != nil {
		osText = ex.genOS.os
	}
	if osText == "" && defs.Len() == 0 {
		return nil
	}
	var om *xnode
	for _, o := range im.subModels("osModel") {
		if o.file == ex.osFile {
			om = o
			break
		}
	}
	data := im.data(ex.osFile)
	if om == nil {
		root := rootOf(im, &xnode{file: ex.osFile})
		at, err := insertionPoint(data, root, []string{"stimuliModel", "eventModel", "constraintsModel", "propertyConstraintsModel", "mappingModel", "componentsModel", "configModel", "measurementModel"})
		if err != nil {
			return err
		}
		ex.edits[ex.osFile] = append(ex.edits[ex.osFile], edit{start: at, end: at, text: ex.indent + "<osModel>" + ex.nl + osText + defs.String() + ex.indent + "</osModel>" + ex.nl})
		return nil
	}
	if data[om.end-2] == '/' { // <osModel/>
		ex.edits[ex.osFile] = append(ex.edits[ex.osFile], edit{start: om.start, end: om.end, text: "<osModel>" + ex.nl + osText + defs.String() + ex.indent + "</osModel>"})
		return nil
	}
	if osText != "" {
		// After the semaphores, before everything else.
		at := startTagEnd(data, om.start)
		for _, k := range om.kids {
			if k.name != "semaphores" {
				at = lineBegin(data, k.start)
				break
			}
			at = k.end
		}
		if at == startTagEnd(data, om.start) || data[at-1] != '\n' {
			osText = ex.nl + strings.TrimSuffix(osText, ex.nl)
		}
		ex.edits[ex.osFile] = append(ex.edits[ex.osFile], edit{start: at, end: at, text: osText})
	}
	if defs.Len() > 0 {
		end := int64(bytes.LastIndex(data[om.start:om.end], []byte("</"))) + om.start
		ex.edits[ex.osFile] = append(ex.edits[ex.osFile], edit{start: lineBegin(data, end), end: lineBegin(data, end), text: defs.String()})
	}
	return nil
}
