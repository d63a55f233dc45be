package amalthea

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/sharedtest"
)

func officialModel(t testing.TB) string { return sharedFile(t, "ChallengeModel_release_fix.amxmi") }
func mappedModel(t testing.TB) string {
	return sharedFile(t, "mobstr-mapped_Krawczyk2019-mapping.amxmi")
}

func sharedFile(t testing.TB, name string) string {
	t.Helper()
	return sharedtest.Path(t, filepath.Join("waters2019", name))
}

func mustImport(t *testing.T, path string) (*configs.System, []configs.Warning) {
	t.Helper()
	s, w, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}

// TestImportOfficialModel checks the facts of waters2019.md against the import.
func TestImportOfficialModel(t *testing.T) {
	s, warns := mustImport(t, officialModel(t))
	if len(s.Units) != 7 || len(s.Tasks) != 14 || len(s.Runnables) != 27 || len(s.Labels) != 30 {
		t.Fatalf("got %d units, %d tasks, %d runnables, %d labels; want 7, 14, 27, 30", len(s.Units), len(s.Tasks), len(s.Runnables), len(s.Labels))
	}
	kinds := map[string]int{}
	for _, u := range s.Units {
		kinds[u.Kind]++
	}
	if kinds["A57"] != 4 || kinds["Denver"] != 2 || kinds["GPU_def"] != 1 {
		t.Errorf("unit kinds = %v, want 4 A57, 2 Denver, 1 GPU_def", kinds)
	}
	gpu := s.Unit("GP10B")
	if gpu == nil || gpu.Type != configs.GPU || gpu.Frequency != 1500*1000*1000 || gpu.GPU.SMs != 2 || gpu.GPU.CoresPerSM != 128 {
		t.Errorf("GP10B = %+v", gpu)
	}
	if c := s.Unit("Core2"); c.ReadLatency != 40 || c.Frequency != 2e9 {
		t.Errorf("Core2 = %+v, want 40 cycles at 2 GHz", c)
	}
	if c := s.Unit("Core0"); c.ReadLatency != 16 || c.Kind != "Denver" {
		t.Errorf("Core0 = %+v, want Denver with 16 cycles", c)
	}
	// Periods and requirements from the spec's table; the swapped references
	// of Detection and Lane detection are corrected.
	for _, tt := range []struct {
		task                string
		period, requirement configs.Duration
	}{
		{"DASM", 5 * configs.Millisecond, 5 * configs.Millisecond},
		{"CANbus_polling", 10 * configs.Millisecond, 10 * configs.Millisecond},
		{"EKF", 15 * configs.Millisecond, 15 * configs.Millisecond},
		{"Planner", 15 * configs.Millisecond, 12 * configs.Millisecond},
		{"Lidar_Grabber", 33 * configs.Millisecond, 33 * configs.Millisecond},
		{"OS_Overhead", 100 * configs.Millisecond, 0},
		{"PRE_SFM_gpu_POST", 33 * configs.Millisecond, 33 * configs.Millisecond},
		{"PRE_Lane_detection_gpu_POST", 66 * configs.Millisecond, 66 * configs.Millisecond},
		{"PRE_Detection_gpu_POST", 200 * configs.Millisecond, 200 * configs.Millisecond},
		{"PRE_Localization_gpu_POST", 400 * configs.Millisecond, 400 * configs.Millisecond},
	} {
		task := s.Task(tt.task)
		if task == nil || task.Period != tt.period || task.Requirement != tt.requirement {
			t.Errorf("%s = %+v, want period %s, requirement %s", tt.task, task, tt.period, tt.requirement)
		}
	}
	// Worst-case ticks (upper bounds) per kind, summed over the runnables.
	for _, tt := range []struct {
		task, kind string
		ticks      int64
	}{
		{"Planner", "Denver", 24873529}, // 12.44 ms at 2 GHz, over the 12 ms requirement
		{"Planner", "A57", 26483822},    // 13.24 ms
		{"DASM", "A57", 3719990},
		{"SFM", "GPU_def", 11850000}, // 7.9 ms at 1.5 GHz
		{"Detection", "GPU_def", 174000000},
		// Detection_Preprocessing + AsyncOffloadingCosts + Detection_Postprocessing on A57:
		// 7379120 + 5000 + 2040000 = 9424120.
		{"PRE_Detection_gpu_POST", "A57", 9424120},
	} {
		got, ok := s.WorstTicks(s.Task(tt.task), tt.kind)
		if !ok || got != tt.ticks {
			t.Errorf("worst ticks of %s on %s = %d (%v), want %d", tt.task, tt.kind, got, ok, tt.ticks)
		}
	}
	// Offloading: active for SFM, Lane_detection, Localization; passive for Detection.
	for gpuTask, want := range map[string]configs.WaitMode{"SFM": configs.WaitActive, "Lane_detection": configs.WaitActive, "Localization": configs.WaitActive, "Detection": configs.WaitPassive} {
		g := s.Task(gpuTask)
		pre := s.Task(g.TriggeredBy)
		if pre == nil || pre.Offload == nil || pre.Offload.GPUTask != gpuTask || pre.Offload.Wait != want {
			t.Errorf("%s: offloading task %+v, want wait %s", gpuTask, pre, want)
		}
	}
	if got := s.Task("PRE_Detection_gpu_POST").Offload.WaitRunnables; len(got) != 1 || got[0] != "AsyncOffloadingCosts" {
		t.Errorf("Detection's async runnables = %v", got)
	}
	// Allowed units: Detection only on the GPU, SFM anywhere, CPU tasks on the six cores.
	if got := s.AllowedUnits(s.Task("Detection")); len(got) != 1 || got[0] != "GP10B" {
		t.Errorf("Detection allowed on %v", got)
	}
	if got := s.AllowedUnits(s.Task("SFM")); len(got) != 7 {
		t.Errorf("SFM allowed on %v", got)
	}
	if got := s.AllowedUnits(s.Task("EKF")); len(got) != 6 {
		t.Errorf("EKF allowed on %v", got)
	}
	if l := s.Label("NN_weights"); l.Size != 142000000 {
		t.Errorf("NN_weights = %d B, want 142 MB", l.Size)
	}
	if s.TimeSlice != (configs.SliceBounds{Min: configs.Millisecond, Max: 50 * configs.Millisecond}) {
		t.Errorf("time-slice bounds = %+v", s.TimeSlice)
	}
	// The spec's quirks become warnings.
	text := ""
	for _, w := range warns {
		text += w.String() + "\n"
	}
	for _, want := range []string{"swapped", "does not own Core0", "affinity names 2 units", "share priority 1", "memory-contention parameters"} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings do not mention %q:\n%s", want, text)
		}
	}
	// The default mapping: PRE_SFM on the first core of its two-core affinity.
	if p := placement(s, "PRE_SFM_gpu_POST"); p == nil || p.Unit != "Core0" {
		t.Errorf("PRE_SFM_gpu_POST placed %+v, want Core0", p)
	}
}

func placement(s *configs.System, task string) *configs.Placement {
	for i := range s.Mapping.Units {
		if s.Mapping.Units[i].Task == task {
			return &s.Mapping.Units[i]
		}
	}
	return nil
}

// TestImportMappedModel reads the newer-namespace model with Krawczyk et
// al.'s mapping: Lane_detection and Localization run on cores (merged with
// their offloading tasks), and every task has its own priority.
func TestImportMappedModel(t *testing.T) {
	s, warns := mustImport(t, mappedModel(t))
	for _, w := range warns {
		if strings.Contains(w.What, "swapped") {
			t.Errorf("the mapped model has corrected references, but: %s", w)
		}
	}
	for _, tt := range []struct {
		task, unit string
		priority   int
	}{
		{"CANbus_polling", "Core2", 5}, {"OS_Overhead", "Core5", 0}, {"DASM", "Core5", 3},
		{"Lidar_Grabber", "Core4", 8}, {"Planner", "Core0", 9}, {"EKF", "Core2", 1},
		{"PRE_Detection_gpu_POST", "Core4", 4}, {"PRE_SFM_gpu_POST", "Core1", 6},
		{"Lane_detection", "Core1", 2}, {"Localization", "Core3", 4},
	} {
		p := placement(s, tt.task)
		if p == nil || p.Unit != tt.unit || p.Priority == nil || *p.Priority != tt.priority {
			t.Errorf("%s placed %+v, want %s with priority %d", tt.task, p, tt.unit, tt.priority)
		}
	}
	// Merged: the offloading tasks of GPU tasks on cores are not placed.
	for _, pre := range []string{"PRE_Lane_detection_gpu_POST", "PRE_Localization_gpu_POST"} {
		if p := placement(s, pre); p != nil {
			t.Errorf("%s placed on %s although its GPU task runs on a core", pre, p.Unit)
		}
	}
	for _, gpuTask := range []string{"SFM", "Detection"} {
		if p := placement(s, gpuTask); p == nil || p.Unit != "GP10B" {
			t.Errorf("%s placed %+v, want GP10B", gpuTask, p)
		}
	}
	if err := configs.ValidateMapping(s, &s.Mapping, false); err != nil {
		t.Errorf("the mapped model's mapping is complete, but: %v", err)
	}
}

// TestAmaltheaErrors feeds broken and unsupported models and checks that
// each error names the element and what is wrong.
func TestAmaltheaErrors(t *testing.T) {
	data, err := os.ReadFile(officialModel(t))
	if err != nil {
		t.Fatal(err)
	}
	model := string(data)
	replace := func(old, new string) string {
		if !strings.Contains(model, old) {
			t.Fatalf("the model has no %q", old)
		}
		return strings.Replace(model, old, new, 1)
	}
	tests := []struct {
		name, input, want string
	}{
		{"empty", "", "the file is empty"},
		{"not XML", "hello", "not a well-formed Amalthea XML file"},
		{"truncated", model[:len(model)/2], "not a well-formed"},
		{"wrong namespace", strings.Replace(model, "http://app4mc.eclipse.org/amalthea/0.9.8", "http://example.com/other", 1), "unsupported namespace"},
		{"unsupported stimulus", replace(`<stimuli xsi:type="am:PeriodicStimulus" name="periodic_5ms">`, `<stimuli xsi:type="am:SporadicStimulus" name="periodic_5ms">`), `stimuliModel/stimuli[periodic_5ms]: stimulus type "am:SporadicStimulus" is not supported`},
		{"unsupported scheduler", replace(`<schedulingAlgorithm xsi:type="am:FixedPriorityPreemptive" />`, `<schedulingAlgorithm xsi:type="am:EarliestDeadlineFirst" />`), `mappingModel/schedulerAllocation[Scheduler_A57]: scheduler Scheduler_A57 (EarliestDeadlineFirst) schedules CPU cores: dynamic-priority scheduling (EarliestDeadlineFirst) is not analysed`},
		{"unsupported activity item", replace(`<items xsi:type="am:RunnableCall" runnable="OS_Ops_Function?type=Runnable" />`, `<items xsi:type="am:SemaphoreAccess" />`), `swModel/tasks[OS_Overhead]/items[0]/items[0]: activity item SemaphoreAccess is not supported: semaphores block other tasks`},
		{"unsupported element", replace(`<swModel>`, `<swModel><isrs name="x"/>`), `swModel/isrs[x]: interrupt service routines (ISRs) are not analysed`},
		{"missing runnable", replace(`runnable="OS_Ops_Function?type=Runnable"`, `runnable="Nope?type=Runnable"`), `runnable "Nope" is not defined`},
		{"missing label", replace(`data="Cloud_map_host?type=Label" access="read"`, `data="Ghost?type=Label" access="read"`), `label "Ghost" is not defined`},
		{"bad ticks", replace(`lowerBound="100000000" upperBound="100000000"`, `lowerBound="100000000" upperBound="5"`), "DiscreteValueStatistics needs 0 ≤ lowerBound ≤ upperBound, got 100000000 and 5"},
		{"bad tick value type", replace(`<value xsi:type="am:DiscreteValueStatistics" lowerBound="100000000"`, `<value xsi:type="am:DiscreteValueMystery" lowerBound="100000000"`), `value type "DiscreteValueMystery" is not supported`},
		{"unknown time unit", replace(`<recurrence value="5" unit="ms" />`, `<recurrence value="5" unit="fortnights" />`), `stimuliModel/stimuli[periodic_5ms]/recurrence: duration "5fortnights": unknown unit`},
		{"bad label size", replace(`<size value="1500" unit="kB" />`, `<size value="lots" unit="kB" />`), `swModel/labels[Cloud_map_host]/size`},
		{"affinity to missing core", replace(`affinity="Core3?type=ProcessingUnit"`, `affinity="Core9?type=ProcessingUnit"`), `mappingModel/taskAllocation[Planner]: affinity names unit "Core9", which is not defined`},
		{"bad wait", replace(`waitingBehaviour="passive"`, `waitingBehaviour="sometimes"`), `waitingBehaviour "sometimes" is not supported`},
		{"renamed hardware model", strings.ReplaceAll(model, "hwModel>", "hwModelX>"), "element <hwModelX> is not supported"},
		{"zero frequency", replace(`<defaultValue value="2.0" unit="GHz" />`, `<defaultValue value="0" unit="GHz" />`), "has no positive frequency"},
	}
	if len(tests) < 10 {
		t.Fatal("at least ten kinds of broken input")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Read(strings.NewReader(tt.input))
			if err == nil {
				t.Fatalf("no error, want one containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

// FuzzReadAmalthea checks that no input panics, that an accepted model
// always validates or yields an error (never a half-built system), and that
// a model with a complete mapping of its own survives the export: writing
// that mapping back and importing the result gives the same mapping. The
// seeds cover the elements of every part the importer reads: the reference
// and example models and small models with switches, execution needs,
// triggers, stimuli, events, event chains and requirements.
func FuzzReadAmalthea(f *testing.F) {
	for _, name := range []string{"ChallengeModel_release_fix.amxmi", "mobstr-mapped_Krawczyk2019-mapping.amxmi"} {
		// Seeds when ../shared is there; the fuzz test runs without them.
		if data, err := os.ReadFile(filepath.Join(sharedtest.Root(), "waters2019", name)); err == nil {
			f.Add(data)
		}
	}
	for _, name := range []string{"a4mc095_state_machine_9.amxmi", "rcm097_bbw_mpc5744p.amxmi", "rcm097_democar.amxmi", "toro099_example.amxmi", "a4mc080_democar_eventchain.amxmi"} {
		if data, err := os.ReadFile(filepath.Join(sharedtest.Root(), "amalthea-examples", name)); err == nil {
			f.Add(data)
		}
	}
	for _, model := range fuzzSeeds(f) {
		f.Add([]byte(model))
	}
	f.Add([]byte(`<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/1.0.0"><swModel/><hwModel/><stimuliModel/></am:Amalthea>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := importDocs([]amalDoc{{name: "fuzz.amxmi", data: data}})
		if err != nil {
			if im != nil {
				t.Fatal("an importer returned with an error")
			}
			return
		}
		s := &im.sys
		cfg := &configs.Config{System: s}
		if finishNoFile(cfg) != nil || configs.ValidateMapping(s, &s.Mapping, false) != nil {
			return
		}
		out, err := im.export(ExportMapping{Mapping: s.Mapping})
		if err != nil {
			return // a refusal of the export (for example, no xsi prefix)
		}
		back, _, err := Read(bytes.NewReader(out["fuzz.amxmi"]))
		if err != nil {
			t.Fatalf("the exported model does not import: %v\n%s", err, out["fuzz.amxmi"])
		}
		if mappingText(back.Mapping) != mappingText(s.Mapping) {
			t.Fatalf("export changed the mapping:\n%s\nwant\n%s", mappingText(back.Mapping), mappingText(s.Mapping))
		}
	})
}

// fuzzSeeds are small models with the elements the importer reads.
func fuzzSeeds(t testing.TB) []string {
	return []string{
		synth(t),
		synth(t, "{R1}", `<items xsi:type="am:ModeSwitch"><entries name="a"><items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueHistogram"><entries lowerBound="1" upperBound="5" occurrences="2"/></default></items></entries><defaultEntry/></items>`),
		synth(t, "{T1}", `<items xsi:type="am:ProbabilitySwitch"><entries probability="1"><items xsi:type="am:RunnableCall" runnable="R2?type=Runnable"/></entries></items><items xsi:type="am:ExecutionNeed"><needs key="Instructions"><value xsi:type="am:DiscreteValueGaussDistribution" lowerBound="1" upperBound="9"/></needs></items>`),
		synth(t, "{T1}", `<items xsi:type="am:InterProcessTrigger" stimulus="IPS?type=InterProcessStimulus"/>`, "{TASKS}", `<tasks name="T3" stimuli="IPS?type=InterProcessStimulus"><activityGraph><items xsi:type="am:RunnableCall" runnable="R2?type=Runnable"/></activityGraph></tasks>`),
		synth(t, `stimuli="P20?type=PeriodicStimulus"`, `stimuli="X?type=PeriodicStimulus"`, "{STIMULI}", `<stimuli xsi:type="am:RelativePeriodicStimulus" name="X"><nextOccurrence xsi:type="am:TimeBoundaries"><lowerBound value="3" unit="ms"/><upperBound value="4" unit="ms"/></nextOccurrence></stimuli>`),
		synth(t, "{EVENTS}", `<events xsi:type="am:LabelEvent" name="LE" entity="L1?type=Label" eventType="read"/>`, "{CHAINS}", `<eventChains name="Y" stimulus="LE?type=LabelEvent" response="E2?type=ProcessEvent"><items xsi:type="am:EventChainReference" eventChain="C?type=EventChain"/></eventChains>`),
		synth(t, "{CONSTRAINTS}", `<timingConstraints xsi:type="am:EventChainLatencyConstraint" name="Age" scope="C?type=EventChain" type="Age"><minimum value="1" unit="ms"/><maximum value="9" unit="ms"/></timingConstraints><requirements xsi:type="am:ProcessChainRequirement" name="PC" processChain="PCh?type=ProcessChain"><limit xsi:type="am:TimeRequirementLimit" limitType="UpperLimit" metric="EndToEnd"><limitValue value="5" unit="ms"/></limit></requirements>`,
			"{TASKS}", `<processChains name="PCh" processes="T1?type=Task T2?type=Task"/>`),
		synth(t, `<size value="64" unit="B"/>`, `<size value="9" unit="bit"/>`, `affinity="C0?type=ProcessingUnit"/>`, `affinity="C0?type=ProcessingUnit"><schedulingParameters priority="3"/></taskAllocation>`),
		oldForm("0.9.4", ""),
		oldForm("0.9.3", `<deadline value="5" unit="ms"/>`),
		byID(synth(t)),
		readText(t, slices200),
	}
}

func finishNoFile(cfg *configs.Config) error {
	cfg.Conventions.Defaults()
	cfg.Analysis.Defaults()
	return configs.Validate(cfg)
}
