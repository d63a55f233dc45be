package amalthea

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// The hand-written pair: one model in Amalthea 1.0.0 and as APP4MC's model
// migration writes it in 2.0.0 (scheduler definitions, "priority" and
// "extended: KEY" scheduling parameters).
const (
	slices100 = "testdata/gpu-slices-1.0.0.amxmi"
	slices200 = "testdata/gpu-slices-2.0.0.amxmi"
)

// sameSystem reports how two imports of one model differ (their names
// aside), or "".
func sameSystem(a, b *configs.System) string {
	x, y := *a, *b
	x.Name, y.Name = "", ""
	if reflect.DeepEqual(&x, &y) {
		return ""
	}
	switch {
	case !reflect.DeepEqual(x.Mapping, y.Mapping):
		return fmt.Sprintf("mapping\n%s\nvs\n%s", mappingText(x.Mapping), mappingText(y.Mapping))
	case x.TimeSlice != y.TimeSlice:
		return fmt.Sprintf("time-slice bounds %+v vs %+v", x.TimeSlice, y.TimeSlice)
	}
	return fmt.Sprintf("%+v\nvs\n%+v", x, y)
}

// TestAmalthea2TimeSlices: the 2.0.0 migration of a model reads as its
// 1.0.0 original: the time slices, their bounds and the stream priority
// of the "extended:" parameters, the priorities of the "priority"
// parameter; no warning more or less.
func TestAmalthea2TimeSlices(t *testing.T) {
	s1, w1 := mustImport(t, slices100)
	s2, w2 := mustImport(t, slices200)
	// The values the 1.0.0 file gives (read before 2.x was).
	if s1.TimeSlice != (configs.SliceBounds{Min: configs.Millisecond, Max: 20 * configs.Millisecond}) {
		t.Errorf("1.0.0 time-slice bounds %+v, want 1 ms to 20 ms", s1.TimeSlice)
	}
	if got, want := mappingText(s1.Mapping), strings.Join([]string{
		"slice Filter 4ms", "slice Track 7ms", "stream Filter high",
		"unit Filter G0 -", "unit Plan D0 2", "unit Pre_Filter A0 5", "unit Pre_Track A1 4", "unit Sense A0 9", "unit Track G0 -"}, "\n"); got != want {
		t.Errorf("1.0.0 mapping:\n%s\nwant\n%s", got, want)
	}
	if d := sameSystem(s1, s2); d != "" {
		t.Errorf("the 2.0.0 migration reads otherwise: %s", d)
	}
	if a, b := warningsText(w1), warningsText(w2); a != b {
		t.Errorf("warnings of 1.0.0:\n%s\nof 2.0.0:\n%s", a, b)
	}
}

// TestAmalthea2ParameterForms: a 2.x parameter with a Time value, one
// named without "extended: ", and the defaultValue of a definition that
// the scheduler's definition lists read as the extensions of 1.0.0 do.
func TestAmalthea2ParameterForms(t *testing.T) {
	s1, _ := mustImport(t, slices100)
	data, err := os.ReadFile(slices200)
	if err != nil {
		t.Fatal(err)
	}
	model := string(data)
	edit := func(t *testing.T, pairs ...string) string {
		m := model
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(m, pairs[i]) {
				t.Fatalf("the model has no %q", pairs[i])
			}
			m = strings.Replace(m, pairs[i], pairs[i+1], 1)
		}
		return m
	}
	for _, c := range []struct {
		name  string
		model string
		warn  string
	}{
		{"Time value, own definition", edit(t,
			`<schedulingParameterDefinitions name="extended: TimeSlice_Track" type="String" mandatory="false"/>`,
			`<schedulingParameterDefinitions name="TimeSlice_Track" type="Time" mandatory="false"/>`,
			`extended%3A+TimeSlice_Track?type=SchedulingParameterDefinition">
        <value xsi:type="am:StringObject" value="7000µs"/>`,
			`TimeSlice_Track?type=SchedulingParameterDefinition">
        <value xsi:type="am:Time" value="7" unit="ms"/>`), ""},
		{"default value of the scheduler's definition", edit(t,
			`<schedulingParameters key="extended%3A+maximumTimeslice?type=SchedulingParameterDefinition">
          <value xsi:type="am:StringObject" value="20000 µs"/>
        </schedulingParameters>`, ``,
			`<schedulingParameterDefinitions name="extended: maximumTimeslice" type="String" mandatory="false"/>`,
			`<schedulingParameterDefinitions name="extended: maximumTimeslice" type="String" mandatory="false">
      <defaultValue xsi:type="am:StringObject" value="20 ms"/>
    </schedulingParameterDefinitions>`),
			"osModel/taskSchedulers[Sched_GPU]: scheduling parameter extended: maximumTimeslice is not given: the defaultValue 20 ms of its definition (which scheduler definition UserSpecificSchedulingAlgorithm lists) is taken"},
		{"dangling key", edit(t,
			`<schedulingParameterDefinitions name="extended: StreamPriority" type="String" mandatory="false"/>`, ``),
			`mappingModel/taskAllocation[Filter]/schedulingParameters[extended: StreamPriority]: the key names scheduling parameter definition "extended: StreamPriority", which the model does not define (a dangling reference, which APP4MC reports): read by its name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, w, err := Read(strings.NewReader(c.model))
			if err != nil {
				t.Fatal(err)
			}
			if d := sameSystem(s1, s); d != "" {
				t.Errorf("reads otherwise than 1.0.0: %s", d)
			}
			if c.warn != "" && !strings.Contains(warningsText(w), c.warn) {
				t.Errorf("warnings:\n%s\nwant %s", warningsText(w), c.warn)
			}
		})
	}
}

// TestUnusedSchedulingParameters: a parameter hetmap does not use is
// never dropped silently, in any version: it is named in a warning with
// the elements that give it and why.
func TestUnusedSchedulingParameters(t *testing.T) {
	data, err := os.ReadFile(slices100)
	if err != nil {
		t.Fatal(err)
	}
	v1 := strings.NewReplacer(
		`<schedulingParameters priority="9"/>`, `<schedulingParameters priority="9"><minBudget value="1" unit="ms"/></schedulingParameters><parameterExtensions key="osekGroup" value="2"/>`,
		`<schedulingParameters priority="4"/>`, `<schedulingParameters priority="4"/><parameterExtensions key="TimeSlice_Pre_Track" value="3ms"/>`,
		`<parameterExtensions key="TimeSlice_Track" value="7000µs"/>`, `<parameterExtensions key="TimeSlice_Track" value="7000µs"/><schedulingParameters priority="3"/>`,
		`<parameterExtensions key="maximumTimeslice" value="20000 µs"/>`, `<parameterExtensions key="maximumTimeslice" value="20000 µs"/><parameterExtensions key="quantum" value="1ms"/>`,
	).Replace(string(data))
	data2, err := os.ReadFile(slices200)
	if err != nil {
		t.Fatal(err)
	}
	v2 := strings.NewReplacer(
		`<schedulingParameterDefinitions name="priority" type="Integer"/>`, `<schedulingParameterDefinitions name="priority" type="Integer"/><schedulingParameterDefinitions name="extended: osekGroup" type="String"/>`,
		`<value xsi:type="am:IntegerObject" value="9"/>
      </schedulingParameters>`, `<value xsi:type="am:IntegerObject" value="9"/>
      </schedulingParameters><schedulingParameters key="extended%3A+osekGroup?type=SchedulingParameterDefinition"><value xsi:type="am:StringObject" value="2"/></schedulingParameters>`,
	).Replace(string(data2))
	for _, c := range []struct {
		name, model string
		want        []string
	}{
		{"1.0.0", v1, []string{
			"mappingModel/taskAllocation: scheduling parameter schedulingParameters/minBudget of 1 task allocation(s) (Sense) read past: budgets are not analysed",
			"mappingModel/taskAllocation: scheduling parameter parameterExtensions[osekGroup] of 1 task allocation(s) (Sense) read past: hetmap does not use it",
			"mappingModel/taskAllocation: scheduling parameter parameterExtensions[TimeSlice_Pre_Track] of 1 task allocation(s) (Pre_Track) read past: the task does not run on the GPU",
			"mappingModel/taskAllocation: scheduling parameter schedulingParameters/priority of 1 task allocation(s) (Track) read past: a task on the GPU has no CPU priority",
			"osModel/taskSchedulers[Sched_GPU]: scheduling parameter parameterExtensions[quantum] of 1 scheduler(s) (Sched_GPU) read past: hetmap does not use it",
		}},
		{"2.0.0", v2, []string{
			"mappingModel/taskAllocation: scheduling parameter schedulingParameters[extended: osekGroup] of 1 task allocation(s) (Sense) read past: hetmap does not use it",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, w, err := Read(strings.NewReader(c.model))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range c.want {
				if !strings.Contains(warningsText(w), want) {
					t.Errorf("no warning %q in\n%s", want, warningsText(w))
				}
			}
			s1, _ := mustImport(t, slices100)
			if d := sameSystem(s1, s); d != "" {
				t.Errorf("a parameter read past changed the system: %s", d)
			}
		})
	}
}

// migrateTo200 rewrites an Amalthea 1.0.0 model as APP4MC's model
// migration to 2.0.0 writes its OS and mapping parts (the parts that
// changed): a scheduling algorithm becomes the scheduler's definition, a
// priority the "priority" parameter, a parameter extension KEY the String
// parameter "extended: KEY"; the definitions are added to the OS model.
func migrateTo200(t *testing.T, model string) string {
	t.Helper()
	if !strings.Contains(model, "amalthea/1.0.0") {
		t.Fatal("not a 1.0.0 model")
	}
	model = strings.Replace(model, "amalthea/1.0.0", "amalthea/2.0.0", 1)
	ref := func(name string) string {
		return strings.NewReplacer(":", "%3A", " ", "+").Replace(name) + "?type=SchedulingParameterDefinition"
	}
	param := func(key, typ, value string) string {
		return fmt.Sprintf(`<schedulingParameters key="%s"><value xsi:type="am:%s" value="%s"/></schedulingParameters>`, ref(key), typ, value)
	}
	defs := map[string]bool{}
	var order []string
	def := func(name string) {
		if !defs[name] {
			defs[name] = true
			order = append(order, name)
		}
	}
	algos := map[string]bool{}
	// An algorithm with its extensions, then one without.
	full := regexp.MustCompile(`(?s)(<taskSchedulers [^>]*?)>\s*<schedulingAlgorithm xsi:type="am:(\w+)"\s*>(.*?)</schedulingAlgorithm>`)
	ext := regexp.MustCompile(`<parameterExtensions key="([^"]*)" value="([^"]*)"\s*/>`)
	model = full.ReplaceAllStringFunc(model, func(m string) string {
		g := full.FindStringSubmatch(m)
		algos[g[2]] = true
		body := ext.ReplaceAllStringFunc(g[3], func(e string) string {
			x := ext.FindStringSubmatch(e)
			def("extended: " + x[1])
			return param("extended: "+x[1], "StringObject", x[2])
		})
		return fmt.Sprintf(`%s definition="%s?type=SchedulerDefinition">%s`, g[1], g[2], body)
	})
	bare := regexp.MustCompile(`(<taskSchedulers [^>]*?)>\s*<schedulingAlgorithm xsi:type="am:(\w+)"\s*/>`)
	model = bare.ReplaceAllStringFunc(model, func(m string) string {
		g := bare.FindStringSubmatch(m)
		algos[g[2]] = true
		return fmt.Sprintf(`%s definition="%s?type=SchedulerDefinition">`, g[1], g[2])
	})
	prio := regexp.MustCompile(`<schedulingParameters priority="(-?\d+)"\s*/>`)
	model = prio.ReplaceAllStringFunc(model, func(m string) string {
		def("priority")
		return param("priority", "IntegerObject", prio.FindStringSubmatch(m)[1])
	})
	model = ext.ReplaceAllStringFunc(model, func(e string) string {
		x := ext.FindStringSubmatch(e)
		def("extended: " + x[1])
		return param("extended: "+x[1], "StringObject", x[2])
	})
	var b strings.Builder
	for a := range algos {
		fmt.Fprintf(&b, `<schedulerDefinitions name="%s"/>`, a)
	}
	for _, d := range order {
		typ := "String"
		if d == "priority" {
			typ = "Integer"
		}
		fmt.Fprintf(&b, `<schedulingParameterDefinitions name="%s" type="%s"/>`, d, typ)
	}
	if !strings.Contains(model, "</osModel>") {
		t.Fatal("no OS model")
	}
	return strings.Replace(model, "</osModel>", b.String()+"</osModel>", 1)
}

// TestMigrateTo200: the test's migration makes of the hand-written 1.0.0
// model what its 2.0.0 file says.
func TestMigrateTo200(t *testing.T) {
	data, err := os.ReadFile(slices100)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := Read(strings.NewReader(migrateTo200(t, string(data))))
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := mustImport(t, slices200)
	if d := sameSystem(s2, s); d != "" {
		t.Errorf("the test's migration reads otherwise than the 2.0.0 file: %s", d)
	}
}

// TestMobSTrMigratedTo200: the MobSTr model (WATERS 2019 with Krawczyk et
// al.'s mapping, Amalthea 1.0.0) in its 2.0.0 form reads as the original:
// the time slices of SFM and Detection and their bounds included (the
// issue: read from 2.0.0, they were lost and the time-slice analysis
// differed).
func TestMobSTrMigratedTo200(t *testing.T) {
	path := mappedModel(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s1, w1 := mustImport(t, path)
	s2, w2, err := Read(strings.NewReader(migrateTo200(t, string(data))))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameSystem(s1, s2); d != "" {
		t.Errorf("the 2.0.0 form reads otherwise: %s", d)
	}
	if len(s1.Mapping.TimeSlices) != 2 || s1.TimeSlice.Max != 50*configs.Millisecond {
		t.Errorf("the original's time slices: %+v, bounds %+v", s1.Mapping.TimeSlices, s1.TimeSlice)
	}
	if len(w1) != len(w2) {
		t.Errorf("%d warnings from 1.0.0, %d from 2.0.0:\n%s\n%s", len(w1), len(w2), warningsText(w1), warningsText(w2))
	}
}
