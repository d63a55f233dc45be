package amalthea

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/sharedtest"
)

// The real models of ../shared/amalthea-examples (their README gives
// sources and licences). Values written in these tests come from the XML by
// hand; each cites the line it comes from.
func exampleFile(t testing.TB, name string) string {
	t.Helper()
	return sharedtest.Path(t, filepath.Join("amalthea-examples", name))
}

// democarPair is the APP4MC mapping example: one model in two files.
func democarPair(t testing.TB) []string {
	return []string{exampleFile(t, "a4mc095_democar_mapping_withTasks.amxmi"), exampleFile(t, "a4mc095_democar_mapping_hw.amxmi")}
}

// exampleModels lists every model of the examples folder that hetmap
// reads, as the paths of its files.
func exampleModels(t testing.TB) map[string][]string {
	return map[string][]string{
		"democar (two files)": democarPair(t),
		"state machine":       {exampleFile(t, "a4mc095_state_machine_9.amxmi")},
		"brake-by-wire":       {exampleFile(t, "rcm097_bbw_mpc5744p.amxmi")},
		"democar (RCM)":       {exampleFile(t, "rcm097_democar.amxmi")},
		"TORO":                {exampleFile(t, "toro099_example.amxmi")},
	}
}

// TestExamplesImport: every example model imports and validates; the 0.8.0
// one gets the version message.
func TestExamplesImport(t *testing.T) {
	for name, files := range exampleModels(t) {
		t.Run(name, func(t *testing.T) {
			cfg, err := configs.LoadModel(files)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.System.Tasks) == 0 || len(cfg.System.Units) == 0 {
				t.Errorf("%d tasks, %d units", len(cfg.System.Tasks), len(cfg.System.Units))
			}
			if len(cfg.Amalthea) != len(files) {
				t.Errorf("the config names %d model files, want %d", len(cfg.Amalthea), len(files))
			}
		})
	}
	_, _, err := ReadFile(exampleFile(t, "a4mc080_democar_eventchain.amxmi"))
	if err == nil {
		t.Fatal("the 0.8.0 model imported")
	}
	for _, want := range []string{"a4mc080_democar_eventchain.amxmi:2:", "Amalthea 0.8.0", "older than hetmap reads", "0.9.0 to 3.3.0", "APP4MC's model migration"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the version message %q does not contain %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("the version message is not one line: %q", err)
	}
	// One file of a model in two files says what is missing.
	_, _, err = ReadFile(democarPair(t)[0])
	if err == nil || !strings.Contains(err.Error(), "the model has no <hwModel>") || !strings.Contains(err.Error(), "give them all") {
		t.Errorf("the software file alone: %v", err)
	}
}

func ticksOf(t *testing.T, s *configs.System, runnable, kind string) configs.Ticks {
	t.Helper()
	r := s.Runnable(runnable)
	if r == nil {
		t.Fatalf("runnable %s missing", runnable)
	}
	tk, ok := r.TicksFor(kind)
	if !ok {
		t.Fatalf("runnable %s has no ticks for %s: %+v", runnable, kind, r.Ticks)
	}
	return tk
}

// TestFidelity compares what hetmap reads from three real models with
// values taken from their XML by hand: periods, ticks (the worst case is the
// upper bound of the distribution) and label sizes.
func TestFidelity(t *testing.T) {
	t.Run("brake-by-wire (0.9.7)", func(t *testing.T) {
		s, _ := mustImport(t, exampleFile(t, "rcm097_bbw_mpc5744p.amxmi"))
		for _, tt := range []struct {
			task   string
			period configs.Duration
			ticks  int64 // on CPU_type
		}{
			// line 39: pBrakePedalLDM, stimulus Periodic_Constraint_1 (line 234:
			// recurrence 2 ms), runnable BrakePedalLDM_T (line 132: constant 6000).
			{"pBrakePedalLDM", 2 * configs.Millisecond, 6000},
			// line 4: ABS_FL_Pt, Periodic_Constraint_8 (line 246: 5 ms), ABS_FL_T (line 85: 15000).
			{"ABS_FL_Pt", 5 * configs.Millisecond, 15000},
			// line 53: pLDM_Brake_FL, Periodic_Constraint_4 (line 262: 6 ms),
			// BrakeActuator_FL_LDM (line 150: 18000).
			{"pLDM_Brake_FL", 6 * configs.Millisecond, 18000},
		} {
			task := s.Task(tt.task)
			if task == nil || task.Period != tt.period {
				t.Errorf("%s: %+v, want period %s", tt.task, task, tt.period)
				continue
			}
			if got, _ := s.WorstTicks(task, "CPU_type"); got != tt.ticks {
				t.Errorf("%s: worst ticks %d, want %d", tt.task, got, tt.ticks)
			}
		}
		// line 179: BrakeSig 2 B.
		if l := s.Label("BrakeSig"); l == nil || l.Size != 2 {
			t.Errorf("BrakeSig = %+v, want 2 B", l)
		}
		// line 222: QuartzCPU 3.0E8 Hz.
		if u := s.Unit("e200z4"); u == nil || u.Frequency != 300e6 {
			t.Errorf("e200z4 = %+v, want 300 MHz", u)
		}
	})
	t.Run("TORO (0.9.9)", func(t *testing.T) {
		s, _ := mustImport(t, exampleFile(t, "toro099_example.amxmi"))
		// line 11: BET_T2, PeriodicStim20ms (line 207: 20 ms); its own Ticks
		// (line 14: uniform 400000 to 600000).
		bt2 := s.Task("BET_T2")
		if bt2 == nil || bt2.Period != 20*configs.Millisecond {
			t.Fatalf("BET_T2 = %+v", bt2)
		}
		if got, _ := s.WorstTicks(bt2, "CoreType1"); got != 600000 {
			t.Errorf("BET_T2 worst ticks %d, want 600000", got)
		}
		// line 18: BET_T3, PeriodicStim50ms (line 211: 50 ms); Gauss truncated
		// to 500000 … 800000 (line 21).
		bt3 := s.Task("BET_T3")
		if got, _ := s.WorstTicks(bt3, "CoreType2"); bt3.Period != 50*configs.Millisecond || got != 800000 {
			t.Errorf("BET_T3 period %s, worst ticks %d; want 50ms, 800000", bt3.Period, got)
		}
		// line 104: Runnable1 needs IPC 200000 … 300000 (line 108); CoreType1
		// (line 152) has IPC_min 1.0 and IPC_max 1.5 (lines 155, 156): worst
		// 300000 / 1.0 = 300000 ticks, best floor(200000 / 1.5) = 133333.
		if tk := ticksOf(t, s, "Runnable1", "CoreType1"); tk.Upper != 300000 || tk.Lower != 133333 {
			t.Errorf("Runnable1 on CoreType1 = %+v, want 133333 … 300000", tk)
		}
		// line 113: Runnable2 needs 100000 … 200000 (line 117): 66666 … 200000.
		if tk := ticksOf(t, s, "Runnable2", "CoreType2"); tk.Upper != 200000 || tk.Lower != 66666 {
			t.Errorf("Runnable2 on CoreType2 = %+v, want 66666 … 200000", tk)
		}
		// line 46: LET_T7 reads Label1 and writes Label2 with timed accesses
		// around Runnable1: 300000 ticks worst, a LET task.
		let7 := s.Task("LET_T7")
		if got, _ := s.WorstTicks(let7, "CoreType2"); got != 300000 || !let7.LET || let7.Period != 5*configs.Millisecond {
			t.Errorf("LET_T7 = %+v with %d ticks, want LET, 5 ms, 300000", let7, got)
		}
		// line 140: Label1 has no size: 0 B.
		if l := s.Label("Label1"); l == nil || l.Size != 0 {
			t.Errorf("Label1 = %+v, want 0 B", l)
		}
	})
	t.Run("DemoCar (RCM, 0.9.7)", func(t *testing.T) {
		s, _ := mustImport(t, exampleFile(t, "rcm097_democar.amxmi"))
		// line 58: Task_20MS, Timer_20MS (line 774: 20 ms), runnable
		// BrakeForceArbiter (line 164: Weibull 72000 … 88000).
		t20 := s.Task("Task_20MS")
		if t20 == nil || t20.Period != 20*configs.Millisecond {
			t.Fatalf("Task_20MS = %+v", t20)
		}
		if got, _ := s.WorstTicks(t20, "DefaultCore"); got != 88000 {
			t.Errorf("Task_20MS worst ticks %d, want 88000", got)
		}
		if tk := ticksOf(t, s, "BrakeForceArbiter", "DefaultCore"); tk.Lower != 72000 || tk.Average != 80000 {
			t.Errorf("BrakeForceArbiter = %+v, want lower 72000, average 80000", tk)
		}
		// line 86: ABSCalculation, Weibull 72000 … 88000 (line 93); it reads 4
		// labels and writes ABSActivation and ABSMode (lines 88–96).
		r := s.Runnable("ABSCalculation")
		if tk := ticksOf(t, s, "ABSCalculation", "DefaultCore"); tk.Upper != 88000 || len(r.Reads) != 4 || len(r.Writes) != 2 {
			t.Errorf("ABSCalculation = %+v", r)
		}
		// line 522: ABSActivation is 8 bit = 1 B.
		if l := s.Label("ABSActivation"); l == nil || l.Size != 1 {
			t.Errorf("ABSActivation = %+v, want 1 B", l)
		}
		// line 770: Timer_10MS 10 ms; line 778: Timer_5MS 5 ms.
		if s.Task("Task_10MS").Period != 10*configs.Millisecond || s.Task("Task_5MS").Period != 5*configs.Millisecond {
			t.Errorf("Task_10MS %s, Task_5MS %s", s.Task("Task_10MS").Period, s.Task("Task_5MS").Period)
		}
	})
}

// TestBrakeByWireRequirements: the four event chains of the brake-by-wire
// model come from the event model, and their 20 ms Reaction constraints
// become requirements checked as the maximum reaction time; the model names
// no bound, so the analysis checks them under Davare's (their tasks are
// not LET tasks).
func TestBrakeByWireRequirements(t *testing.T) {
	s, warns := mustImport(t, exampleFile(t, "rcm097_bbw_mpc5744p.amxmi"))
	if len(s.Chains) != 4 {
		t.Fatalf("%d chains, want 4: %+v", len(s.Chains), s.Chains)
	}
	for _, wheel := range []string{"FL", "FR", "RL", "RR"} {
		var c *configs.Chain
		for i := range s.Chains {
			if s.Chains[i].Name == "EC_Sequence_"+wheel {
				c = &s.Chains[i]
			}
		}
		if c == nil {
			t.Fatalf("chain EC_Sequence_%s missing", wheel)
		}
		want := []string{"pBrakePedalLDM", "pBrakeTorqueMap", "pGlobalBrakeController", "ABS_" + wheel + "_Pt", "pLDM_Brake_" + wheel}
		if strings.Join(c.Tasks, " ") != strings.Join(want, " ") {
			t.Errorf("%s tasks %v, want %v", c.Name, c.Tasks, want)
		}
		if len(c.Max) != 1 || c.Max[0] != (configs.ChainRequirement{Name: "Latency_Constraint_" + wheel, Metric: "reaction-time", Limit: 20 * configs.Millisecond}) {
			t.Errorf("%s requirements %+v", c.Name, c.Max)
		}
	}
	text := warningsText(warns)
	if !strings.Contains(text, "the minimum latency 20ms is not checked") || !strings.Contains(text, "15 measurement(s) read past") {
		t.Errorf("warnings:\n%s", text)
	}
}

func warningsText(ws []configs.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}

// TestTOROConstraints: Age constraints become data-age requirements, the
// process chain requirement a chain of its own with its end-to-end limit.
func TestTOROConstraints(t *testing.T) {
	s, _ := mustImport(t, exampleFile(t, "toro099_example.amxmi"))
	want := map[string]struct {
		tasks  string
		metric string
		limit  configs.Duration
	}{
		"chain1_bet":    {"BET_T1 BET_T5 BET_T2", "data-age", 45 * configs.Millisecond},
		"chain2_bet":    {"BET_T6 BET_T2", "data-age", 25 * configs.Millisecond},
		"chain3_let":    {"LET_T7 LET_T8 LET_T9", "data-age", 25 * configs.Millisecond},
		"chain4_mixed":  {"BET_T10 BET_T11 LET_T12 LET_T13", "data-age", 50 * configs.Millisecond},
		"ProcessChain1": {"BET_T4 BET_T2 BET_T6", "reaction-from-activation", 150 * configs.Millisecond},
	}
	if len(s.Chains) != len(want) {
		t.Fatalf("%d chains, want %d", len(s.Chains), len(want))
	}
	for _, c := range s.Chains {
		w, ok := want[c.Name]
		if !ok || strings.Join(c.Tasks, " ") != w.tasks || len(c.Max) != 1 || string(c.Max[0].Metric) != w.metric || c.Max[0].Limit != w.limit {
			t.Errorf("chain %s: %+v, want %+v", c.Name, c, w)
		}
	}
}

// TestStateMachine: switches are the worst case over their branches, mode
// labels are labels, a task without a stimulus never runs.
func TestStateMachine(t *testing.T) {
	s, warns := mustImport(t, exampleFile(t, "a4mc095_state_machine_9.amxmi"))
	// Task_1 (line 4): a ProbabilitySwitch of two runnables that only set a
	// mode label, then Runnable_1 (line 98: uniform 5940000 … 6060000).
	t1 := s.Task("Task_1")
	if t1 == nil || t1.Period != 50*configs.Millisecond {
		t.Fatalf("Task_1 = %+v", t1)
	}
	if got, _ := s.WorstTicks(t1, "DefaultCore"); got != 6060000 {
		t.Errorf("Task_1 worst ticks %d, want 6060000", got)
	}
	sw := s.Runnable("Task_1/items[0]")
	if sw == nil || len(sw.Ticks) != 0 || strings.Join(sw.Writes, " ") != "message" {
		t.Errorf("the switch's runnable = %+v, want no ticks and a write of message", sw)
	}
	// lines 152, 155: the mode labels state (8 bit) and message (1 bit): 1 B each.
	for _, l := range []string{"state", "message"} {
		if lb := s.Label(l); lb == nil || lb.Size != 1 {
			t.Errorf("mode label %s = %+v, want 1 B", l, lb)
		}
	}
	// Task_2 (line 30) has no stimulus.
	if s.Task("Task_2") != nil {
		t.Error("Task_2 has no stimulus but was imported")
	}
	text := warningsText(warns)
	for _, want := range []string{"ProbabilitySwitch with 2 branch(es)", "without a stimulus (Task_2)", "Stimulus_Task_2, which activates no task"} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings lack %q:\n%s", want, text)
		}
	}
}

// TestExamplesYAMLRoundTrip: every example model written as YAML loads back
// to the same system (requirements, LET tasks and synthetic runnables
// included).
func TestExamplesYAMLRoundTrip(t *testing.T) {
	for name, files := range exampleModels(t) {
		t.Run(name, func(t *testing.T) {
			cfg, err := configs.LoadModel(files)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := configs.WriteYAML(&buf, cfg, "round trip"); err != nil {
				t.Fatal(err)
			}
			back, err := configs.Load(bytes.NewReader(buf.Bytes()), "round-trip.yaml", ".")
			if err != nil {
				t.Fatalf("the written YAML does not load: %v", err)
			}
			if len(cfg.System.Mapping.Units) == 0 && len(back.System.Mapping.Units) == 0 {
				back.System.Mapping.Units = cfg.System.Mapping.Units // no mapping: nil or written as []
			}
			if !reflect.DeepEqual(cfg.System, back.System) {
				var again bytes.Buffer
				_ = configs.WriteYAML(&again, back, "round trip")
				t.Errorf("round trip changed the system:\n%s", firstDiff(buf.String(), again.String()))
			}
		})
	}
}
