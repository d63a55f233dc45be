package amalthea

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// implicitKinds are the metaclasses of the containment features whose
// elements carry no xsi:type (the feature's type is concrete).
var implicitKinds = map[string]string{
	"tasks": "Task", "runnables": "Runnable", "labels": "Label", "modeLabels": "ModeLabel", "isrs": "ISR",
	"channels": "Channel", "processPrototypes": "ProcessPrototype", "sections": "Section", "processChains": "ProcessChain",
	"taskSchedulers": "TaskScheduler", "interruptControllers": "InterruptController", "operatingSystems": "OperatingSystem",
	"schedulerDefinitions": "SchedulerDefinition", "schedulingParameterDefinitions": "SchedulingParameterDefinition",
	"semaphores": "Semaphore", "osOverheads": "OsOverhead", "featureCategories": "HwFeatureCategory", "features": "HwFeature",
	"structures": "HwStructure", "ports": "HwPort", "connections": "HwConnection", "eventChains": "EventChain",
	"tags": "Tag", "namespaces": "Namespace", "coreClassifiers": "CoreClassifier", "memoryClassifiers": "MemoryClassifier",
	"components": "Component", "systems": "System", "literals": "ModeLiteral", "eventChain": "SubEventChain",
}

// kindsOf are the metaclass names an element may be referenced by: its
// xsi:type, else its feature's type; within the software model's events,
// an OsEvent.
func kindsOf(n, parent *xnode) []string {
	if t := n.typ(); t != "" {
		return []string{t}
	}
	if n.name == "events" && parent != nil && parent.name == "swModel" {
		return []string{"OsEvent"}
	}
	if k, ok := implicitKinds[n.name]; ok {
		return []string{k}
	}
	return nil
}

// danglingRefs resolves every reference of the files of one model, as
// APP4MC resolves them: a reference "Name?type=Kind" (in an attribute, one
// or more separated by blanks, or in an href, also escaped and into
// another file of the model) names an element of that metaclass whose
// name, or whose name qualified by its named container ("Category/Feature",
// "Module/Port"), is Name. It returns the references that resolve to
// nothing, each with its file, line and attribute.
func danglingRefs(t *testing.T, files map[string][]byte) []string {
	t.Helper()
	defined := map[string]bool{} // kind + "\x00" + name
	type use struct{ where, kind, name string }
	var uses []use
	var walk func(n, parent *xnode, container string)
	walk = func(n, parent *xnode, container string) {
		name := n.attr("name")
		for _, k := range kindsOf(n, parent) {
			defined[k+"\x00"+name] = true
			if container != "" {
				defined[k+"\x00"+container+"/"+name] = true
			}
		}
		for _, a := range n.attrs {
			if a.Name.Space == xsiNS || a.Name.Space == "xmlns" || a.Name.Local == "name" || a.Name.Local == "id" {
				continue
			}
			for _, tok := range strings.Fields(a.Value) {
				ref := tok
				if i := strings.LastIndexByte(ref, '#'); i >= 0 {
					ref = ref[i+1:]
					if j := strings.Index(strings.ToUpper(ref), "%3FTYPE%3D"); j >= 0 && !strings.Contains(ref, "?type=") {
						ref = ref[:j] + "?type=" + ref[j+len("%3Ftype%3D"):]
					}
				}
				i := strings.Index(ref, "?type=")
				if i < 0 {
					continue // not a reference
				}
				uses = append(uses, use{fmt.Sprintf("%s:%d: <%s %s=%q>", n.file, n.line, n.name, a.Name.Local, tok), ref[i+len("?type="):], refName(ref)})
			}
		}
		inner := container
		if name != "" {
			inner = name
		}
		for _, k := range n.kids {
			walk(k, n, inner)
		}
	}
	var names []string
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		root, err := parseXML(files[f], f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		walk(root, nil, "")
	}
	var out []string
	for _, u := range uses {
		if !defined[u.kind+"\x00"+u.name] {
			out = append(out, fmt.Sprintf("%s names %s %q, which no file of the model defines", u.where, u.kind, u.name))
		}
	}
	return out
}

// writeFiles writes the contents of the files named (by their base
// names) into folder dir, and returns the paths written in their order.
func writeFiles(t *testing.T, dir string, names []string, contents map[string][]byte) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range names {
		p := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(p, contents[f], 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// refModel is a model to export into, as its files' contents.
type refModel struct {
	name  string
	files map[string][]byte
	order []string // the files in the order the model gives them
}

func readModel(t *testing.T, name string, paths ...string) refModel {
	t.Helper()
	m := refModel{name: name, files: map[string][]byte{}}
	for _, p := range paths {
		m.files[p] = mustRead(t, p)
		m.order = append(m.order, p)
	}
	return m
}

// edited returns m with one file's text replaced by pairs of old and new.
func (m refModel) edited(t *testing.T, name string, pairs ...string) refModel {
	t.Helper()
	out := refModel{name: name, files: map[string][]byte{}, order: m.order}
	for f, d := range m.files {
		out.files[f] = d
	}
	f := m.order[0]
	s := string(out.files[f])
	for i := 0; i < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("%s: no %q", name, pairs[i])
		}
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	out.files[f] = []byte(s)
	return out
}

// without returns m with every match of the regular expressions res
// removed from every file.
func (m refModel) without(t *testing.T, name string, res ...string) refModel {
	t.Helper()
	out := refModel{name: name, files: map[string][]byte{}, order: m.order}
	for f, d := range m.files {
		for _, re := range res {
			d = regexp.MustCompile(re).ReplaceAll(d, nil)
		}
		out.files[f] = d
	}
	return out
}

// someMapping is a complete mapping of s that differs from its own, or,
// for a model without one, every GPU task that can on the GPU (the first
// with a 5 ms time slice and a high stream priority) and every other
// task on its allowed cores in turn.
func someMapping(t *testing.T, s *configs.System) configs.Mapping {
	if len(s.Mapping.Units) > 0 {
		return otherMapping(t, s)
	}
	var m configs.Mapping
	merged := map[string]bool{}
	first := true
	for i, task := range s.Tasks {
		var cpus []string
		gpu := ""
		for _, u := range s.AllowedUnits(&s.Tasks[i]) {
			if s.Unit(u).Type == configs.GPU {
				gpu = u
			} else {
				cpus = append(cpus, u)
			}
		}
		switch {
		case task.IsGPUTask() && gpu != "":
			m.Units = append(m.Units, configs.Placement{Task: task.Name, Unit: gpu})
			if first {
				m.TimeSlices = append(m.TimeSlices, configs.TimeSliceSet{Task: task.Name, Slice: 5 * configs.Millisecond})
				m.GPUPriorities = append(m.GPUPriorities, configs.GPUPrioritySet{Task: task.Name, Priority: configs.GPUHigh})
				first = false
			}
		case len(cpus) == 0:
			t.Fatalf("task %s can run nowhere", task.Name)
		case !merged[task.Name]:
			p := i + 1
			m.Units = append(m.Units, configs.Placement{Task: task.Name, Unit: cpus[i%len(cpus)], Priority: &p})
		}
	}
	if err := configs.ValidateMapping(s, &m, false); err != nil {
		t.Fatalf("the test's mapping is not valid: %v", err)
	}
	return m
}

// TestExportResolvesEveryReference: a model written by the export, of
// every version hetmap reads (0.9.x, 1.0, 2.x), resolves every reference
// of its files: from 2.0 the export writes the scheduling parameter
// definitions (and, for a model without schedulers, the scheduler
// definitions) that its parameters reference, into the OS model; and the
// model read back has the mapping written.
func TestExportResolvesEveryReference(t *testing.T) {
	var models []refModel
	v2 := readModel(t, "2.0.0 (hand-written)", slices200)
	models = append(models,
		readModel(t, "0.9.0 (hand-written)", "testdata/amalthea-0.9.0.amxmi"),
		readModel(t, "0.9.2 (hand-written)", "testdata/amalthea-0.9.2.amxmi"),
		readModel(t, "1.0.0 (hand-written)", slices100),
		v2,
		v2.without(t, "2.0.0 without the extended: definitions",
			`(?s)\n *<schedulingParameterDefinitions name="extended: (TimeSlice_\w+|StreamPriority)"[^>]*/>`,
			`(?s)\n *<schedulingParameters key="extended%3A\+(TimeSlice_\w+|StreamPriority)\?type=SchedulingParameterDefinition">.*?</schedulingParameters>`,
			` processParameters="extended[^"]*"`),
		v2.edited(t, "2.2.0 without schedulers", "amalthea/2.0.0", "amalthea/2.2.0",
			string(mustRead(t, slices200))[strings.Index(string(mustRead(t, slices200)), "  <osModel>"):strings.Index(string(mustRead(t, slices200)), "  <stimuliModel>")], "",
			string(mustRead(t, slices200))[strings.Index(string(mustRead(t, slices200)), "  <mappingModel>"):strings.Index(string(mustRead(t, slices200)), "</am:Amalthea>")], ""),
	)
	// 2.x in two files: the OS model and the hardware in one, the software
	// and the mapping in the other; the definitions the export adds go
	// into the OS model's file and are referenced across files.
	{
		text := string(mustRead(t, slices200))
		hwStart, hwEnd := strings.Index(text, "  <hwModel>"), strings.Index(text, "  <stimuliModel>")
		head, tail := text[:strings.Index(text, "  <swModel>")], "</am:Amalthea>\n"
		hw := head + text[hwStart:hwEnd] + tail
		sw := text[:hwStart] + text[hwEnd:]
		dir := t.TempDir()
		a, b := dir+"/a_sw.amxmi", dir+"/b_hw_os.amxmi"
		for p, d := range map[string]string{a: sw, b: hw} {
			if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		m := readModel(t, "2.0.0 in two files", a, b)
		models = append(models, m.without(t, m.name,
			`(?s)\n *<schedulingParameterDefinitions name="extended: (TimeSlice_\w+|StreamPriority)"[^>]*/>`,
			`(?s)\n *<schedulingParameters key="extended%3A\+(TimeSlice_\w+|StreamPriority)\?type=SchedulingParameterDefinition">.*?</schedulingParameters>`,
			` processParameters="extended[^"]*"`))
	}
	if !testing.Short() {
		models = append(models,
			readModel(t, "0.9.8 (WATERS 2019)", officialModel(t)),
			readModel(t, "0.9.5 (democar, two files)", democarPair(t)...),
			readModel(t, "0.9.7 (brake-by-wire)", exampleFile(t, "rcm097_bbw_mpc5744p.amxmi")),
			readModel(t, "0.9.9 (TORO)", exampleFile(t, "toro099_example.amxmi")),
			readModel(t, "1.0.0 (MobSTr)", mappedModel(t)))
		mob := readModel(t, "2.0.0 (MobSTr, migrated)", mappedModel(t))
		mob.files[mob.order[0]] = []byte(migrateTo200(t, string(mob.files[mob.order[0]])))
		models = append(models, mob)
	}
	for _, m := range models {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeFiles(t, filepath.Join(dir, "in"), m.order, m.files)
			if d := danglingRefs(t, m.files); len(d) > 0 {
				t.Fatalf("the input has dangling references:\n%s", strings.Join(d, "\n"))
			}
			orig, _, err := ReadFiles(in)
			if err != nil {
				t.Fatal(err)
			}
			mp := someMapping(t, orig)
			out, err := Export(in, ExportMapping{Mapping: mp})
			if err != nil {
				t.Fatal(err)
			}
			if d := danglingRefs(t, out); len(d) > 0 {
				t.Errorf("the written model has dangling references:\n%s", strings.Join(d, "\n"))
			}
			back, warns, err := ReadFiles(writeFiles(t, filepath.Join(dir, "out"), in, out))
			if err != nil {
				t.Fatalf("the written model does not import: %v", err)
			}
			if got, want := mappingText(back.Mapping), mappingText(mp); got != want {
				t.Errorf("the mapping read back:\n%s\nwant\n%s", got, want)
			}
			if strings.Contains(warningsText(warns), "does not define") {
				t.Errorf("the written model names definitions it lacks:\n%s", warningsText(warns))
			}
		})
	}
}
