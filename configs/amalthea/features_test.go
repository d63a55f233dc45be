package amalthea

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// The tests below read small models that each use one element of the
// metamodel, with the values computed by hand in the comments.

// TestSwitchWorstCase: a switch is the worst case over its branches.
func TestSwitchWorstCase(t *testing.T) {
	// A ModeSwitch in runnable R1 after its 100000 ticks: branch a adds
	// 50000 ticks and writes L1, branch b adds 20000 … 300000 ticks; no
	// default. Worst case 100000 + max(50000, 300000) = 400000; best case
	// 100000 + 0 (an activation may take no branch) = 100000; the accesses
	// of both branches.
	m := synth(t, "{R1}", `
        <items xsi:type="am:ModeSwitch">
          <entries name="a"><items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="50000"/></items>
            <items xsi:type="am:LabelAccess" data="L1?type=Label" access="write"/></entries>
          <entries name="b"><items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueBoundaries" lowerBound="20000" upperBound="300000"/></items></entries>
        </items>`)
	s, warns := readSynth(t, m)
	tk := ticksOf(t, s, "R1", "Core")
	if tk.Upper != 400000 || tk.Lower != 100000 {
		t.Errorf("R1 ticks %+v, want 100000 … 400000", tk)
	}
	if r := s.Runnable("R1"); strings.Join(r.Writes, " ") != "L2 L1" {
		t.Errorf("R1 writes %v, want L2 L1", r.Writes)
	}
	if !strings.Contains(warningsText(warns), "swModel/runnables[R1]/items[3]: ModeSwitch with 2 branch(es) (a, b)") {
		t.Errorf("no warning names the switch:\n%s", warningsText(warns))
	}
	// With a default branch of 10000 ticks the best case is 100000 + 10000.
	s, _ = readSynth(t, strings.Replace(m, "</entries>\n        </items>", `</entries>
          <defaultEntry><items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="10000"/></items></defaultEntry>
        </items>`, 1))
	if tk := ticksOf(t, s, "R1", "Core"); tk.Upper != 400000 || tk.Lower != 110000 {
		t.Errorf("with a default branch: %+v, want 110000 … 400000", tk)
	}
}

// TestTaskOwnItems: a switch of runnable calls and ticks written directly in
// a task become runnables of the task, named after their place.
func TestTaskOwnItems(t *testing.T) {
	// T1: R1, then a ProbabilitySwitch of R1 (100000) or R2 (100000 …
	// 200000), then its own ticks (5000) and a write of L1.
	s, _ := readSynth(t, synth(t, "{T1}", `
        <items xsi:type="am:ProbabilitySwitch">
          <entries probability="30"><items xsi:type="am:RunnableCall" runnable="R1?type=Runnable"/></entries>
          <entries probability="70"><items xsi:type="am:RunnableCall" runnable="R2?type=Runnable"/></entries>
        </items>
        <items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="5000"/></items>
        <items xsi:type="am:LabelAccess" data="L1?type=Label" access="write"/>`))
	task := s.Task("T1")
	if strings.Join(task.Runnables, " ") != "R1 T1/items[1] T1/items[2]" {
		t.Fatalf("T1 runs %v", task.Runnables)
	}
	// The switch: max(100000, 200000) = 200000 worst, min(100000, 100000) best.
	if tk := ticksOf(t, s, "T1/items[1]", "Core"); tk.Upper != 200000 || tk.Lower != 100000 {
		t.Errorf("switch ticks %+v", tk)
	}
	sw := s.Runnable("T1/items[1]")
	if strings.Join(sw.Reads, " ") != "L1 L2" || strings.Join(sw.Writes, " ") != "L2" {
		t.Errorf("switch accesses %v %v, want reads L1 L2, writes L2", sw.Reads, sw.Writes)
	}
	own := s.Runnable("T1/items[2]")
	if tk := ticksOf(t, s, "T1/items[2]", "Core"); tk.Upper != 5000 || strings.Join(own.Writes, " ") != "L1" {
		t.Errorf("own items: %+v", own)
	}
	// 100000 + 200000 + 5000 in all.
	if got, _ := s.WorstTicks(task, "Core"); got != 305000 {
		t.Errorf("T1 worst ticks %d, want 305000", got)
	}
}

// TestExecutionNeedWithoutFeature: a need in a category the core's
// definition has no feature of is taken as ticks, with a warning.
func TestExecutionNeedWithoutFeature(t *testing.T) {
	s, warns := readSynth(t, synth(t, `<items xsi:type="am:Ticks">
          <default xsi:type="am:DiscreteValueConstant" value="100000"/>
        </items>`, `<items xsi:type="am:ExecutionNeed"><needs key="Instructions"><value xsi:type="am:DiscreteValueConstant" value="7000"/></needs></items>`))
	if tk := ticksOf(t, s, "R1", "Core"); tk.Upper != 7000 || tk.Lower != 7000 {
		t.Errorf("R1 %+v, want 7000", tk)
	}
	if !strings.Contains(warningsText(warns), `has no feature of category "Instructions": the need is taken as ticks`) {
		t.Errorf("warnings:\n%s", warningsText(warns))
	}
}

func TestDataSizeUnits(t *testing.T) {
	for _, tt := range []struct {
		value, unit string
		bytes       configs.Size
	}{
		{"8", "bit", 1}, {"9", "bit", 2}, {"1", "bit", 1}, {"0", "bit", 0},
		{"1", "kbit", 125}, {"1", "Kibit", 128}, {"1", "Mbit", 125000}, {"1", "Mibit", 131072},
		{"2", "B", 2}, {"1", "kB", 1000}, {"1", "KiB", 1024}, {"3", "MB", 3000000}, {"1", "GiB", 1 << 30},
		{"0", "", 0},
	} {
		got, err := dataSizeBytes(tt.value, tt.unit)
		if err != nil || got != tt.bytes {
			t.Errorf("%s %s = %d (%v), want %d", tt.value, tt.unit, got, err, tt.bytes)
		}
	}
	for _, bad := range [][2]string{{"5", ""}, {"-1", "B"}, {"1.5", "B"}, {"1", "nibble"}, {"99999999999999999999", "TB"}} {
		if _, err := dataSizeBytes(bad[0], bad[1]); err == nil {
			t.Errorf("%s %s accepted", bad[0], bad[1])
		}
	}
}

// TestStimuli: the activation of T2 by each kind of stimulus.
func TestStimuli(t *testing.T) {
	for _, tt := range []struct {
		name, stimulus     string
		period, offset, jj configs.Duration
		warn               string
	}{
		{"jitter", `<stimuli xsi:type="am:PeriodicStimulus" name="X"><recurrence value="20" unit="ms"/><offset value="1" unit="ms"/>
      <jitter xsi:type="am:TimeBoundaries"><lowerBound value="0" unit="ms"/><upperBound value="2" unit="ms"/></jitter></stimuli>`, 20 * configs.Millisecond, configs.Millisecond, 2 * configs.Millisecond, ""},
		// Activations 8 … 12 ms apart: sporadic with 8 ms.
		{"relative periodic", `<stimuli xsi:type="am:RelativePeriodicStimulus" name="X"><nextOccurrence xsi:type="am:TimeUniformDistribution">
      <lowerBound value="8" unit="ms"/><upperBound value="12" unit="ms"/></nextOccurrence></stimuli>`, 8 * configs.Millisecond, 0, 0, "analysed as sporadic with the minimum inter-arrival time 8ms"},
		// Occurrences at 1 and 4 ms of every 10 ms: distances 3 and 10 + 1 − 4 = 7; the first at 1 ms.
		{"synthetic", `<stimuli xsi:type="am:PeriodicSyntheticStimulus" name="X"><recurrence value="10" unit="ms"/>
      <occurrenceTimes value="4" unit="ms"/><occurrenceTimes value="1" unit="ms"/></stimuli>`, 3 * configs.Millisecond, configs.Millisecond, 0, "2 activations per 10ms"},
		{"burst", `<stimuli xsi:type="am:PeriodicBurstStimulus" name="X" occurrenceCount="3"><recurrence value="10" unit="ms"/>
      <burstLength value="5" unit="ms"/><occurrenceMinDistance value="2" unit="ms"/></stimuli>`, 2 * configs.Millisecond, 0, 0, "bursts of 3 activations"},
		{"arrival curve", `<stimuli xsi:type="am:ArrivalCurveStimulus" name="X"><entries numberOfOccurrences="2"><lowerTimeBorder value="5" unit="ms"/>
      <upperTimeBorder value="9" unit="ms"/></entries></stimuli>`, 5 * configs.Millisecond, 0, 0, "minimum distance of two activations, 5ms"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, warns := readSynth(t, synth(t, `stimuli="P20?type=PeriodicStimulus"`, `stimuli="X?type=PeriodicStimulus"`, "{STIMULI}", "\n    "+tt.stimulus))
			t2 := s.Task("T2")
			if t2.Period != tt.period || t2.Offset != tt.offset || t2.Jitter != tt.jj {
				t.Errorf("T2 period %s offset %s jitter %s, want %s %s %s", t2.Period, t2.Offset, t2.Jitter, tt.period, tt.offset, tt.jj)
			}
			if tt.warn != "" && !strings.Contains(warningsText(warns), tt.warn) {
				t.Errorf("no warning %q:\n%s", tt.warn, warningsText(warns))
			}
		})
	}
}

// TestCPUTriggers: an InterProcessTrigger without a wait activates a CPU
// task, which inherits the period and offset of its activator.
func TestCPUTriggers(t *testing.T) {
	// T1 (10 ms) triggers IPS every 2nd job (prescaler 2); IPS activates T3
	// from its 2nd trigger on (counter offset 1): T3's period is 2 · 10 ms =
	// 20 ms and its first activation is T1's job 0 + 2 · 1 = 2, at 20 ms.
	// T3 triggers T4 (IPS2) on every job: T4 inherits 20 ms and 20 ms.
	s, _ := readSynth(t, synth(t,
		"{T1}", "\n        "+`<items xsi:type="am:InterProcessTrigger" stimulus="IPS?type=InterProcessStimulus"><counter prescaler="2"/></items>`,
		`<stimuli xsi:type="am:InterProcessStimulus" name="IPS"/>`, `<stimuli xsi:type="am:InterProcessStimulus" name="IPS"><counter prescaler="1" offset="1"/></stimuli>
    <stimuli xsi:type="am:InterProcessStimulus" name="IPS2"/>`,
		"{TASKS}", `
    <tasks name="T3" stimuli="IPS?type=InterProcessStimulus"><activityGraph><items xsi:type="am:RunnableCall" runnable="R2?type=Runnable"/>
      <items xsi:type="am:InterProcessTrigger" stimulus="IPS2?type=InterProcessStimulus"/></activityGraph></tasks>
    <tasks name="T4" stimuli="IPS2?type=InterProcessStimulus"><activityGraph><items xsi:type="am:RunnableCall" runnable="R2?type=Runnable"/></activityGraph></tasks>`))
	t3, t4 := s.Task("T3"), s.Task("T4")
	if t3 == nil || t3.ActivatedBy != "T1" || t3.Period != 20*configs.Millisecond || t3.Offset != 20*configs.Millisecond || t3.IsGPUTask() {
		t.Errorf("T3 = %+v", t3)
	}
	if t4 == nil || t4.ActivatedBy != "T3" || t4.Period != 20*configs.Millisecond || t4.Offset != 20*configs.Millisecond {
		t.Errorf("T4 = %+v", t4)
	}
}

// TestSchedulerEncodings: the scheduler hetmap finds for each encoding.
func TestSchedulerEncodings(t *testing.T) {
	// Deadline-monotonic: analysed as fixed priority, with a warning.
	_, warns := readSynth(t, synth(t, `am:FixedPriorityPreemptive`, `am:DeadlineMonotonic`))
	if !strings.Contains(warningsText(warns), "DeadlineMonotonic is analysed as fixed-priority preemptive scheduling") {
		t.Errorf("warnings:\n%s", warningsText(warns))
	}
	// No OS model: fixed priority, with a warning.
	noOS := cut(t, cut(t, synth(t), "<osModel>", "</osModel>"), "<mappingModel>", "</mappingModel>")
	s, warns := readSynth(t, noOS)
	if !strings.Contains(warningsText(warns), "the model has no task scheduler: every core is analysed under fixed-priority preemptive scheduling") || len(s.Mapping.Units) != 0 {
		t.Errorf("without an OS model: %+v\n%s", s.Mapping, warningsText(warns))
	}
	// Amalthea 2.x: a scheduler definition and a priority scheduling parameter.
	v2 := synth(t, "amalthea/0.9.9", "amalthea/2.2.0",
		"<taskSchedulers name=\"S0\">\n        <schedulingAlgorithm xsi:type=\"am:FixedPriorityPreemptive\"/>\n      </taskSchedulers>",
		`<taskSchedulers name="S0" definition="FixedPriorityPreemptive?type=SchedulerDefinition"/>`,
		`affinity="C0?type=ProcessingUnit"/>`, `affinity="C0?type=ProcessingUnit"><schedulingParameters key="priority?type=SchedulingParameterDefinition"><value xsi:type="am:IntegerObject" value="7"/></schedulingParameters></taskAllocation>`)
	s, _ = readSynth(t, v2)
	if p := placementOf(s, "T1"); p == nil || p.Priority == nil || *p.Priority != 7 {
		t.Errorf("2.x priority: %+v", p)
	}
	// A version newer than known is read with a warning.
	_, warns = readSynth(t, strings.Replace(synth(t), "amalthea/0.9.9", "amalthea/4.0.0", 1))
	if !strings.Contains(warningsText(warns), "newer than the newest version hetmap knows (3.3.0)") {
		t.Errorf("warnings:\n%s", warningsText(warns))
	}
}

func placementOf(s *configs.System, task string) *configs.Placement {
	for i := range s.Mapping.Units {
		if s.Mapping.Units[i].Task == task {
			return &s.Mapping.Units[i]
		}
	}
	return nil
}

// TestEventKinds: the events a chain may name, and chains written as
// segments (0.9.3 to 0.9.5), containers and references.
func TestEventKinds(t *testing.T) {
	events := "\n    " + `<events xsi:type="am:RunnableEvent" name="RE" entity="R2?type=Runnable"/>
    <events xsi:type="am:LabelEvent" name="LE" entity="L1?type=Label" eventType="read"/>
    <events xsi:type="am:LabelEvent" name="LW" entity="L2?type=Label" process="T1?type=Task"/>
    <events xsi:type="am:StimulusEvent" name="SE" entity="P20?type=PeriodicStimulus"/>`
	for _, tt := range []struct {
		name, chain string
		tasks       string
	}{
		// R2 is called by T2 only; L1 is read by T1 only; LW names its process.
		{"runnable and label events", `<eventChains name="X" stimulus="LE?type=LabelEvent" response="RE?type=RunnableEvent"/>`, "T1 T2"},
		{"stimulus event", `<eventChains name="X" stimulus="LW?type=LabelEvent" response="SE?type=StimulusEvent"/>`, "T1 T2"},
		// 0.9.5: segments, a SubEventChain in a container, and a reference.
		{"segments", `<eventChains name="X" stimulus="E1?type=ProcessEvent" response="E1?type=ProcessEvent">
      <segments xsi:type="am:EventChainContainer"><eventChain name="s1" stimulus="E1?type=ProcessEvent" response="E2?type=ProcessEvent"/></segments>
      <segments xsi:type="am:EventChainReference" eventChain="Back?type=EventChain"/></eventChains>
    <eventChains name="Back" stimulus="E2?type=ProcessEvent" response="E1?type=ProcessEvent"/>`, "T1 T2 T1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := readSynth(t, synth(t, "{EVENTS}", events, "{CHAINS}", "\n    "+tt.chain))
			var got string
			for _, c := range s.Chains {
				if c.Name == "X" {
					got = strings.Join(c.Tasks, " ")
				}
			}
			if got != tt.tasks {
				t.Errorf("chain X: %q, want %q", got, tt.tasks)
			}
		})
	}
}

// TestHrefReferences: references written as child elements with an href
// into another file (as EMF writes them) resolve by name.
func TestHrefReferences(t *testing.T) {
	s, _ := readSynth(t, synth(t, `<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>`,
		`<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain"><definition href="amlt:/#Core%3Ftype%3DProcessingUnitDefinition"/></modules>`))
	if u := s.Unit("C1"); u == nil || u.Kind != "Core" {
		t.Errorf("C1 = %+v", u)
	}
}

// TestYAMLChainRequirements: chains[].max as a duration, one requirement or
// a list, and the errors that name the key.
func TestYAMLChainRequirements(t *testing.T) {
	base := string(configs.DefaultYAML())
	old := "{name: CA-P-DA, tasks: [CANbus_polling, Planner, DASM]}"
	load := func(max string) (*configs.Config, error) {
		if !strings.Contains(base, old) {
			t.Fatalf("the default has no %q", old)
		}
		return configs.Load(strings.NewReader(strings.Replace(base, old, "{name: CA-P-DA, tasks: [CANbus_polling, Planner, DASM], max: "+max+"}", 1)), "req.yaml", ".")
	}
	for _, tt := range []struct {
		max  string
		want []configs.ChainRequirement
	}{
		{"20ms", []configs.ChainRequirement{{Limit: 20 * configs.Millisecond}}},
		{"{metric: data-age, limit: 30ms}", []configs.ChainRequirement{{Metric: "data-age", Limit: 30 * configs.Millisecond}}},
		{"[{limit: 40ms, bound: synchronous}, {name: age, metric: data-age, limit: 50ms}]", []configs.ChainRequirement{{Bound: "synchronous", Limit: 40 * configs.Millisecond}, {Name: "age", Metric: "data-age", Limit: 50 * configs.Millisecond}}},
	} {
		cfg, err := load(tt.max)
		if err != nil {
			t.Errorf("max: %s: %v", tt.max, err)
			continue
		}
		var got []configs.ChainRequirement
		for _, c := range cfg.System.Chains {
			if c.Name == "CA-P-DA" {
				got = c.Max
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("max: %s: %+v, want %+v", tt.max, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("max: %s: %+v, want %+v", tt.max, got[i], tt.want[i])
			}
		}
		// Written and read back, the requirements stay.
		var buf bytes.Buffer
		if err := configs.WriteYAML(&buf, cfg, ""); err != nil {
			t.Fatal(err)
		}
		back, err := configs.Load(&buf, "back.yaml", ".")
		if err != nil {
			t.Fatalf("written configuration does not load: %v", err)
		}
		for _, c := range back.System.Chains {
			if c.Name == "CA-P-DA" && len(c.Max) != len(tt.want) {
				t.Errorf("max: %s: after writing: %+v", tt.max, c.Max)
			}
		}
	}
	for _, tt := range []struct{ max, want string }{
		{"soon", `"soon" is not a latency limit`},
		{"{metric: speed, limit: 5ms}", `chains[3].max[0].metric: "speed" is not a chain metric`},
		{"{bound: optimistic, limit: 5ms}", `chains[3].max[0].bound: "optimistic" is not a bound`},
		{"{metric: data-age}", "chains[3].max[0].limit: must be positive"},
	} {
		_, err := load(tt.max)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "req.yaml: ") {
			t.Errorf("max: %s: %v, want %q", tt.max, err, tt.want)
		}
	}
	if _, err := configs.Load(strings.NewReader(strings.Replace(base, "gpu_model: fifo", "gpu_model: fifo, requirement_bound: hopeful", 1)), "req.yaml", "."); err == nil || !strings.Contains(err.Error(), `analysis.requirement_bound: "hopeful" is not a bound`) {
		t.Errorf("requirement_bound: %v", err)
	}
}

// TestRefNameDecoding: references decode as APP4MC encodes them
// (java.net.URLEncoder: a space is "+", a "+" is %2B), %20 for a space as
// older tools write it, and the hrefs of EMF, whose fragment escapes "?"
// and "=" but leaves the name's own escapes as they are.
func TestRefNameDecoding(t *testing.T) {
	for _, c := range []struct{ ref, want string }{
		{"Core?type=ProcessingUnitDefinition", "Core"},
		{"ARM+Cortex-A53?type=ProcessingUnitDefinition", "ARM Cortex-A53"},
		{"ARM%20Cortex-A53?type=ProcessingUnitDefinition", "ARM Cortex-A53"},
		{"A%2BB?type=Task", "A+B"}, // a name with a plus
		{"amlt:/#ARM+Cortex-A53%3Ftype%3DProcessingUnitDefinition", "ARM Cortex-A53"},
		{"amlt:/#A%2BB%3Ftype%3DTask", "A+B"}, // decoded once: not "A B"
		{"hw.amxmi#ARM+Cortex-A53?type=ProcessingUnitDefinition", "ARM Cortex-A53"},
		{"100%?type=Label", "100%"}, // not an escape: kept as written
	} {
		if got := refName(c.ref); got != c.want {
			t.Errorf("refName(%q) = %q, want %q", c.ref, got, c.want)
		}
	}
}

// TestReferencesWithSpaces: a model whose processing-unit definition is
// named "ARM Cortex-A53" and referenced as APP4MC writes it
// ("ARM+Cortex-A53"), as %20, and by an href, imports, and its export
// writes the name so that it reads back.
func TestReferencesWithSpaces(t *testing.T) {
	for _, form := range []string{
		`definition="ARM+Cortex-A53?type=ProcessingUnitDefinition"/>`,
		`definition="ARM%20Cortex-A53?type=ProcessingUnitDefinition"/>`,
		`><definition href="amlt:/#ARM+Cortex-A53%3Ftype%3DProcessingUnitDefinition"/></modules>`,
	} {
		model := synth(t, `name="Core" puType="CPU"`, `name="ARM Cortex-A53" puType="CPU"`,
			`<modules xsi:type="am:ProcessingUnit" name="C0" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>`,
			`<modules xsi:type="am:ProcessingUnit" name="C0" frequencyDomain="F?type=FrequencyDomain" `+form,
			`<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>`,
			`<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain" definition="ARM+Cortex-A53?type=ProcessingUnitDefinition"/>`,
			`name="T1" stimuli`, `name="T 1" stimuli`, `task="T1?type=Task"`, `task="T+1?type=Task"`, `entity="T1?type=Task"`, `entity="T+1?type=Task"`)
		s, _ := readSynth(t, model)
		if u := s.Unit("C0"); u == nil || u.Kind != "ARM Cortex-A53" {
			t.Fatalf("%s: C0 = %+v", form, u)
		}
		if s.Task("T 1") == nil {
			t.Fatalf("%s: no task \"T 1\"", form)
		}
		em := ExportMapping{Mapping: configs.Mapping{Units: []configs.Placement{{Task: "T 1", Unit: "C1"}, {Task: "T2", Unit: "C0"}}}}
		im, err := importDocs([]amalDoc{{name: "m.amxmi", data: []byte(model)}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := im.export(em)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out["m.amxmi"]), `task="T+1?type=Task"`) {
			t.Errorf("%s: the export does not write the name as APP4MC does (T+1)", form)
		}
		back, _, err := Read(strings.NewReader(string(out["m.amxmi"])))
		if err != nil {
			t.Fatal(err)
		}
		if p := back.Mapping.Units; len(p) != 2 || p[0].Task != "T 1" || p[0].Unit != "C1" {
			t.Errorf("%s: the export reads back as %+v", form, p)
		}
	}
}

// TestWhatOnceWasRefused: constructs of real models that hetmap refused
// and now imports with a warning, each on the small model.
func TestWhatOnceWasRefused(t *testing.T) {
	t.Run("task without execution", func(t *testing.T) {
		// T2 only marks instants (TORO's LET tasks): its runnable R3 has
		// no Ticks. It gets C = 0 on every core and stays in the chain.
		s, w := readSynth(t, synth(t, `runnable="R2?type=Runnable"/>{T2}`, `runnable="R3?type=Runnable"/>`,
			"{RUNNABLES}", "\n    <runnables name=\"R3\"><activityGraph><items xsi:type=\"am:LabelAccess\" data=\"L2?type=Label\" access=\"read\"/></activityGraph></runnables>"))
		t2 := s.Task("T2")
		if t2 == nil {
			t.Fatal("T2 is left out")
		}
		if got := s.AllowedUnits(t2); len(got) != 2 {
			t.Errorf("T2 can run on %v, want both cores", got)
		}
		for _, k := range s.Kinds() {
			if ticks, ok := s.WorstTicks(t2, k); !ok || ticks != 0 {
				t.Errorf("T2 on %s: %d ticks (%v), want 0", k, ticks, ok)
			}
		}
		if len(s.Chains) != 1 || s.Chains[0].Tasks[len(s.Chains[0].Tasks)-1] != "T2" {
			t.Errorf("chains = %+v, want one ending at T2", s.Chains)
		}
		wantWarning(t, w, "swModel/tasks[T2]", "the task computes nothing")
	})
	t.Run("scheduler without algorithm", func(t *testing.T) {
		// As a core without any scheduler: fixed-priority preemptive.
		s, w := readSynth(t, synth(t, `<schedulingAlgorithm xsi:type="am:FixedPriorityPreemptive"/>`, ""))
		if len(s.Mapping.Units) != 2 {
			t.Errorf("mapping = %+v", s.Mapping.Units)
		}
		wantWarning(t, w, "osModel/taskSchedulers[S0]", "no schedulingAlgorithm: analysed under fixed-priority preemptive scheduling")
	})
	t.Run("label access without a label", func(t *testing.T) {
		s, w := readSynth(t, synth(t, "{R1}", "\n        <items xsi:type=\"am:LabelAccess\" access=\"read\"/>"))
		if r := s.Runnable("R1"); len(r.Reads) != 1 || r.Reads[0] != "L1" {
			t.Errorf("R1 reads %v, want [L1]", r.Reads)
		}
		wantWarning(t, w, "swModel/runnables[R1]/items[3]", "names no label: read past")
	})
}

func wantWarning(t *testing.T, ws []configs.Warning, where, what string) {
	t.Helper()
	for _, w := range ws {
		if w.Where == where && strings.Contains(w.What, what) {
			return
		}
	}
	t.Errorf("no warning %s: %q among %v", where, what, ws)
}

// TestEncodings: a model in UTF-16 (either byte order, with or without a
// byte-order mark) or declared ISO-8859-1 reads as its UTF-8 form; another
// declared encoding is refused with a sentence naming those read.
func TestEncodings(t *testing.T) {
	// T1 is named "Tü" (ü: U+00FC, byte 0xFC in Latin-1).
	model := synth(t, `name="T1" stimuli`, "name=\"T\u00fc\" stimuli", `task="T1?type=Task"`, `task="T%C3%BC?type=Task"`, `entity="T1?type=Task"`, `entity="T%C3%BC?type=Task"`)
	latin1 := func(s string) []byte {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r)) // every rune of the model is below 256
		}
		return b
	}
	utf16 := func(s string, big, bom bool) []byte {
		var b []byte
		if bom {
			if big {
				b = append(b, 0xFE, 0xFF)
			} else {
				b = append(b, 0xFF, 0xFE)
			}
		}
		for _, r := range s { // no rune above U+FFFF
			if big {
				b = append(b, byte(r>>8), byte(r))
			} else {
				b = append(b, byte(r), byte(r>>8))
			}
		}
		return b
	}
	decl := func(enc string) string {
		return strings.Replace(model, `encoding="UTF-8"`, `encoding="`+enc+`"`, 1)
	}
	for name, data := range map[string][]byte{
		"UTF-8":             []byte(model),
		"ISO-8859-1":        latin1(decl("ISO-8859-1")),
		"latin1":            latin1(decl("latin1")),
		"UTF-16LE with BOM": utf16(decl("UTF-16"), false, true),
		"UTF-16BE with BOM": utf16(decl("UTF-16"), true, true),
		"UTF-16LE, no BOM":  utf16(decl("UTF-16"), false, false),
	} {
		s, _, err := Read(strings.NewReader(string(data)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Task("T\u00fc") == nil || len(s.Mapping.Units) != 2 {
			t.Errorf("%s: no task Tü placed (tasks %v)", name, s.Tasks)
		}
	}
	_, _, err := Read(strings.NewReader(decl("Shift_JIS")))
	if err == nil || !strings.Contains(err.Error(), "the file is encoded in Shift_JIS: hetmap reads UTF-8, UTF-16 and ISO-8859-1 (Latin-1)") || strings.Contains(err.Error(), "CharsetReader") {
		t.Errorf("Shift_JIS: %v", err)
	}
	// The export of a Latin-1 model is UTF-8 and says so.
	im, err := importDocs([]amalDoc{{name: "m.amxmi", data: latin1(decl("ISO-8859-1"))}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := im.export(ExportMapping{Mapping: im.sys.Mapping})
	if err != nil {
		t.Fatal(err)
	}
	if w := string(out["m.amxmi"]); !strings.Contains(w, `encoding="UTF-8"`) || !strings.Contains(w, "name=\"T\u00fc\"") {
		t.Errorf("the export of a Latin-1 model is not UTF-8:\n%.300s", w)
	}
}
