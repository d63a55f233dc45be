package amalthea

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// otherMapping returns a complete mapping of s that differs from its own:
// every task that runs on a CPU core moves to the next core it may run on,
// a GPU task stays on the GPU (or, merged, moves like a CPU task), every
// CPU placement gets an explicit priority, offloading modes flip and the
// first GPU task gets a high stream priority and a 5 ms time slice.
func otherMapping(t *testing.T, s *configs.System) configs.Mapping {
	var m configs.Mapping
	own := map[string]string{}
	for _, p := range s.Mapping.Units {
		own[p.Task] = p.Unit
	}
	merged := map[string]bool{}
	prio := 0
	for _, task := range s.Tasks {
		if merged[task.Name] {
			continue
		}
		allowed := s.AllowedUnits(&task)
		unit, ok := own[task.Name]
		if task.IsGPUTask() && ok && s.Unit(unit).Type == configs.GPU {
			m.Units = append(m.Units, configs.Placement{Task: task.Name, Unit: unit})
			continue
		}
		if task.Offload != nil {
			if u, ok := own[task.Offload.GPUTask]; ok && s.Unit(u).Type == configs.CPU {
				continue // merged into its GPU task, placed with it
			}
		}
		var cpus []string
		for _, u := range allowed {
			if s.Unit(u).Type == configs.CPU {
				cpus = append(cpus, u)
			}
		}
		if len(cpus) == 0 {
			t.Fatalf("task %s can run on no core", task.Name)
		}
		next := cpus[0]
		for i, u := range cpus {
			if u == unit {
				next = cpus[(i+1)%len(cpus)]
			}
		}
		prio++
		p := prio
		m.Units = append(m.Units, configs.Placement{Task: task.Name, Unit: next, Priority: &p})
		if task.IsGPUTask() {
			merged[task.TriggeredBy] = true
		}
	}
	first := true
	for _, task := range s.Tasks {
		if !task.IsGPUTask() {
			continue
		}
		onGPU := false
		for _, p := range m.Units {
			onGPU = onGPU || (p.Task == task.Name && s.Unit(p.Unit).Type == configs.GPU)
		}
		if !onGPU {
			continue
		}
		mode := configs.Async
		if s.Task(task.TriggeredBy).Offload.Wait == configs.WaitPassive {
			mode = configs.Sync
		}
		m.Offloading = append(m.Offloading, configs.OffloadChoice{Task: task.Name, Mode: mode})
		if first {
			m.GPUPriorities = append(m.GPUPriorities, configs.GPUPrioritySet{Task: task.Name, Priority: configs.GPUHigh})
			m.TimeSlices = append(m.TimeSlices, configs.TimeSliceSet{Task: task.Name, Slice: 5 * configs.Millisecond})
			first = false
		}
	}
	if err := configs.ValidateMapping(s, &m, false); err != nil {
		t.Fatalf("the test's mapping is not valid: %v", err)
	}
	return m
}

// TestExportRoundTrip writes another mapping into every real model, imports
// the result and compares: the system is the same but for the offloading
// modes, which are the mapping's; the own mapping is the mapping written;
// and the XML outside the mapping model is the same tree (with the
// waitingBehaviour attributes set aside, and the OS model a model without
// one gets).
func TestExportRoundTrip(t *testing.T) {
	models := exampleModels(t)
	models["WATERS 2019"] = []string{officialModel(t)}
	models["WATERS 2019 (mobstr, 1.0.0)"] = []string{mappedModel(t)}
	models["hand-written, 1.0.0"] = []string{slices100}
	models["hand-written, 2.0.0"] = []string{slices200}
	mob := filepath.Join(t.TempDir(), "mobstr-2.0.0.amxmi")
	if err := os.WriteFile(mob, []byte(migrateTo200(t, string(mustRead(t, mappedModel(t))))), 0o644); err != nil {
		t.Fatal(err)
	}
	models["WATERS 2019 (mobstr, migrated to 2.0.0)"] = []string{mob}
	for name, files := range models {
		t.Run(name, func(t *testing.T) {
			orig, _, err := ReadFiles(files)
			if err != nil {
				t.Fatal(err)
			}
			m := otherMapping(t, orig)
			out, err := Export(files, ExportMapping{Mapping: m})
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := ReadFiles(writeFiles(t, t.TempDir(), files, out))
			if err != nil {
				t.Fatalf("the written model does not import: %v", err)
			}
			// The own mapping is the mapping written.
			if got, want := mappingText(back.Mapping), mappingText(m); got != want {
				t.Errorf("own mapping after export:\n%s\nwant:\n%s", got, want)
			}
			// The system is the same, with the mapping's offloading modes.
			want := *orig
			want.Tasks = append([]configs.Task(nil), orig.Tasks...)
			for _, o := range m.Offloading {
				pre := &want.Tasks[taskIndex(&want, want.Task(o.Task).TriggeredBy)]
				off := *pre.Offload
				off.Wait = configs.WaitActive
				if o.Mode == configs.Async {
					off.Wait = configs.WaitPassive
				}
				pre.Offload = &off
			}
			want.Mapping, back.Mapping = configs.Mapping{}, configs.Mapping{}
			want.Name, back.Name = "", ""
			if !reflect.DeepEqual(&want, back) {
				t.Errorf("the system changed:\n%+v\nwant\n%+v", back.Tasks, want.Tasks)
			}
			// The XML outside the mapping model is the same tree.
			for _, f := range files {
				data, _ := os.ReadFile(f)
				a, err := parseXML(data, f)
				if err != nil {
					t.Fatal(err)
				}
				b, err := parseXML(out[f], f)
				if err != nil {
					t.Fatalf("%s: the written file is not well-formed: %v", f, err)
				}
				skip := map[string]bool{"mappingModel": true}
				if len(a.children("osModel")) == 0 && len(orig.Mapping.Units) == 0 {
					skip["osModel"] = true // a model without schedulers gets one
				}
				if d := treeDiff(a, b, skip, "Amalthea"); d != "" && !skip["osModel"] {
					// From 2.0 the export adds the parameter definitions
					// the model lacks, at the end of the OS model.
					skip["osModel"] = true
					if d2 := treeDiff(a, b, skip, "Amalthea"); d2 != "" {
						t.Errorf("%s: the XML outside the mapping model differs: %s", filepath.Base(f), d2)
					} else if d3 := addedDefinitions(a, b); d3 != "" {
						t.Errorf("%s: the OS model differs: %s", filepath.Base(f), d3)
					}
				} else if d != "" {
					t.Errorf("%s: the XML outside the mapping model differs: %s", filepath.Base(f), d)
				}
			}
		})
	}
}

// addedDefinitions says how the OS model of b differs from a's other than
// by scheduling parameter definitions added at its end, or "".
func addedDefinitions(a, b *xnode) string {
	oa, ob := a.child("osModel"), b.child("osModel")
	if oa == nil || ob == nil || len(ob.kids) < len(oa.kids) {
		return "no OS model, or one with fewer elements"
	}
	for i, k := range oa.kids {
		if d := treeDiff(k, ob.kids[i], nil, "osModel/"+k.name); d != "" {
			return d
		}
	}
	for _, k := range ob.kids[len(oa.kids):] {
		if k.name != "schedulingParameterDefinitions" {
			return "<" + k.name + "> added"
		}
	}
	return ""
}

func taskIndex(s *configs.System, name string) int {
	for i := range s.Tasks {
		if s.Tasks[i].Name == name {
			return i
		}
	}
	return -1
}

// mappingText writes a mapping in a canonical order.
func mappingText(m configs.Mapping) string {
	var lines []string
	for _, p := range m.Units {
		pr := "-"
		if p.Priority != nil {
			pr = fmt.Sprint(*p.Priority)
		}
		lines = append(lines, fmt.Sprintf("unit %s %s %s", p.Task, p.Unit, pr))
	}
	for _, ts := range m.TimeSlices {
		lines = append(lines, fmt.Sprintf("slice %s %s", ts.Task, ts.Slice))
	}
	for _, gp := range m.GPUPriorities {
		lines = append(lines, fmt.Sprintf("stream %s %s", gp.Task, gp.Priority))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// treeDiff compares two element trees (names, namespaces, attributes but
// waitingBehaviour, children in order), skipping the root's children named
// in skip; it returns the first difference, or "".
func treeDiff(a, b *xnode, skip map[string]bool, path string) string {
	if a.name != b.name || a.space != b.space {
		return fmt.Sprintf("%s: <%s> vs <%s>", path, a.name, b.name)
	}
	attrs := func(n *xnode) string {
		var out []string
		for _, at := range n.attrs {
			if at.Name.Local != "waitingBehaviour" {
				out = append(out, at.Name.Space+":"+at.Name.Local+"="+at.Value)
			}
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	if attrs(a) != attrs(b) {
		return fmt.Sprintf("%s: attributes %q vs %q", path, attrs(a), attrs(b))
	}
	kids := func(n *xnode) []*xnode {
		var out []*xnode
		for _, k := range n.kids {
			if !skip[k.name] {
				out = append(out, k)
			}
		}
		return out
	}
	ka, kb := kids(a), kids(b)
	if len(ka) != len(kb) {
		return fmt.Sprintf("%s: %d children vs %d", path, len(ka), len(kb))
	}
	for i := range ka {
		if d := treeDiff(ka[i], kb[i], nil, fmt.Sprintf("%s/%s[%d]", path, ka[i].name, i)); d != "" {
			return d
		}
	}
	return ""
}

// TestExportReferencesBetweenFiles: the mapping model goes into the file
// of the software model; it names the tasks of that file in attributes and
// the cores of the hardware file with hrefs, as APP4MC writes references
// between files (and as that model's hardware file writes them: the type
// escaped, "%3Ftype%3D").
func TestExportReferencesBetweenFiles(t *testing.T) {
	files := democarPair(t)
	s, _, err := ReadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Export(files, ExportMapping{Mapping: otherMapping(t, s)})
	if err != nil {
		t.Fatal(err)
	}
	sw := string(out[files[0]])
	mm := sw[strings.Index(sw, "<mappingModel>"):strings.Index(sw, "</mappingModel>")]
	for _, want := range []string{`<taskAllocation task="Task_ESSP0?type=Task" scheduler="hetmap_Scheduler_`, `<affinity href="amlt:/#e200z`, `<responsibility href="amlt:/#e200z`, "%3Ftype%3DProcessingUnit\"/>"} {
		if !strings.Contains(mm, want) {
			t.Errorf("the mapping model has no %q:\n%s", want, mm)
		}
	}
	if strings.Contains(mm, `affinity="`) || strings.Contains(mm, `responsibility="`) {
		t.Errorf("the mapping model names a core of the other file in an attribute:\n%s", mm)
	}
	if string(out[files[1]]) != string(mustRead(t, files[1])) {
		t.Error("the hardware file changed")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestExportKeepsBytes: outside the mapping model and the changed
// attributes, the written file is the original byte for byte.
func TestExportKeepsBytes(t *testing.T) {
	path := officialModel(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Export([]string{path}, ExportMapping{Mapping: s.Mapping})
	if err != nil {
		t.Fatal(err)
	}
	got := string(out[path])
	orig := string(data)
	i, j := strings.Index(orig, "<mappingModel"), strings.Index(got, "<mappingModel")
	if i < 0 || orig[:i] != got[:j] {
		t.Error("the bytes before the mapping model changed")
	}
	endO, endG := strings.Index(orig, "</mappingModel>"), strings.Index(got, "</mappingModel>")
	if orig[endO:] != got[endG:] {
		t.Error("the bytes after the mapping model changed")
	}
	if !strings.Contains(got, "\r\n    <taskAllocation task=\"DASM?type=Task\"") {
		t.Error("the written mapping model does not keep the file's CRLF line ends and indentation")
	}
}

// TestExportRefusals: a mapping that does not place every task is refused.
func TestExportRefusals(t *testing.T) {
	path := exampleFile(t, "rcm097_bbw_mpc5744p.amxmi")
	_, err := Export([]string{path}, ExportMapping{Mapping: configs.Mapping{Units: []configs.Placement{{Task: "ABS_FL_Pt", Unit: "e200z4"}}}})
	if err == nil || !strings.Contains(err.Error(), "is not placed") {
		t.Errorf("partial mapping: %v", err)
	}
}

// TestExportTimeSliceSpelling: the time slices written spell microseconds
// as the model's own do ("us" or "µs").
func TestExportTimeSliceSpelling(t *testing.T) {
	data, err := os.ReadFile(officialModel(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, spelling := range []string{"µs", "us"} {
		model := strings.ReplaceAll(string(data), `µs" />`, spelling+`" />`)
		im, err := importDocs([]amalDoc{{name: "m.amxmi", data: []byte(model)}})
		if err != nil {
			t.Fatal(err)
		}
		m := otherMapping(t, &im.sys) // SFM's slice: 5 ms
		out, err := im.export(ExportMapping{Mapping: m})
		if err != nil {
			t.Fatal(err)
		}
		text := string(out["m.amxmi"])
		want := `value="5000` + spelling + `"`
		if !strings.Contains(text, want) {
			t.Errorf("model written with %s: the export lacks %s", spelling, want)
		}
		if other := map[string]string{"µs": "us", "us": "µs"}[spelling]; strings.Contains(text, "0"+other+`"`) {
			t.Errorf("model written with %s: the export spells a slice %s", spelling, other)
		}
	}
}
