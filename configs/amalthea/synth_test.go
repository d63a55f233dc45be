package amalthea

import (
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// synthBase is a small Amalthea 0.9.9 model written for the tests: two
// tasks on two cores of 100 MHz, one chain with a latency constraint. The
// tests edit it with replace; each marker {…} is replaced by "" unless a
// test gives it text.
const synthBase = `<?xml version="1.0" encoding="UTF-8"?>
<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/0.9.9" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmi:version="2.0">
  <swModel>
    <tasks name="T1" stimuli="P10?type=PeriodicStimulus" preemption="preemptive">
      <activityGraph>
        <items xsi:type="am:RunnableCall" runnable="R1?type=Runnable"/>{T1}
      </activityGraph>
    </tasks>
    <tasks name="T2" stimuli="P20?type=PeriodicStimulus" preemption="preemptive">
      <activityGraph>
        <items xsi:type="am:RunnableCall" runnable="R2?type=Runnable"/>{T2}
      </activityGraph>
    </tasks>{TASKS}
    <runnables name="R1">
      <activityGraph>
        <items xsi:type="am:LabelAccess" data="L1?type=Label" access="read"/>
        <items xsi:type="am:Ticks">
          <default xsi:type="am:DiscreteValueConstant" value="100000"/>
        </items>
        <items xsi:type="am:LabelAccess" data="L2?type=Label" access="write"/>{R1}
      </activityGraph>
    </runnables>
    <runnables name="R2">
      <activityGraph>
        <items xsi:type="am:LabelAccess" data="L2?type=Label" access="read"/>
        <items xsi:type="am:Ticks">
          <default xsi:type="am:DiscreteValueStatistics" lowerBound="100000" upperBound="200000" average="150000"/>
        </items>
      </activityGraph>
    </runnables>{RUNNABLES}
    <labels name="L1">
      <size value="64" unit="B"/>
    </labels>
    <labels name="L2">
      <size value="128" unit="B"/>
    </labels>{LABELS}
  </swModel>
  <hwModel>
    <definitions xsi:type="am:ProcessingUnitDefinition" name="Core" puType="CPU"/>{DEFS}
    <structures name="S" structureType="System">
      <modules xsi:type="am:ProcessingUnit" name="C0" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>
      <modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>{MODULES}
    </structures>
    <domains xsi:type="am:FrequencyDomain" name="F">
      <defaultValue value="100" unit="MHz"/>
    </domains>
  </hwModel>
  <osModel>
    <operatingSystems name="OS">
      <taskSchedulers name="S0">
        <schedulingAlgorithm xsi:type="am:FixedPriorityPreemptive"/>
      </taskSchedulers>{SCHEDULERS}
    </operatingSystems>
  </osModel>
  <stimuliModel>
    <stimuli xsi:type="am:PeriodicStimulus" name="P10">
      <recurrence value="10" unit="ms"/>
    </stimuli>
    <stimuli xsi:type="am:PeriodicStimulus" name="P20">
      <recurrence value="20" unit="ms"/>
    </stimuli>
    <stimuli xsi:type="am:InterProcessStimulus" name="IPS"/>{STIMULI}
  </stimuliModel>
  <eventModel>
    <events xsi:type="am:ProcessEvent" name="E1" entity="T1?type=Task"/>
    <events xsi:type="am:ProcessEvent" name="E2" entity="T2?type=Task"/>{EVENTS}
  </eventModel>
  <constraintsModel>
    <eventChains name="C" stimulus="E1?type=ProcessEvent" response="E2?type=ProcessEvent"{CHAIN}/>{CHAINS}
    <timingConstraints xsi:type="am:EventChainLatencyConstraint" name="Max" scope="C?type=EventChain" type="Reaction">
      <maximum value="50" unit="ms"/>
    </timingConstraints>{CONSTRAINTS}
  </constraintsModel>
  <mappingModel>
    <schedulerAllocation scheduler="S0?type=TaskScheduler" responsibility="C0?type=ProcessingUnit C1?type=ProcessingUnit"/>{SCHEDALLOCS}
    <taskAllocation task="T1?type=Task" scheduler="S0?type=TaskScheduler" affinity="C0?type=ProcessingUnit"/>
    <taskAllocation task="T2?type=Task" scheduler="S0?type=TaskScheduler" affinity="C1?type=ProcessingUnit"/>{ALLOCS}
  </mappingModel>
</am:Amalthea>
`

// synth returns the base model with markers replaced: pairs of marker (or
// any text of the base) and replacement.
func synth(t testing.TB, pairs ...string) string {
	t.Helper()
	s := synthBase
	for i := 0; i+1 < len(pairs); i += 2 {
		if !strings.Contains(s, pairs[i]) {
			t.Fatalf("the synthetic model has no %q", pairs[i])
		}
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	for _, m := range []string{"{T1}", "{T2}", "{TASKS}", "{R1}", "{RUNNABLES}", "{LABELS}", "{DEFS}", "{MODULES}", "{SCHEDULERS}",
		"{STIMULI}", "{EVENTS}", "{CHAIN}", "{CHAINS}", "{CONSTRAINTS}", "{SCHEDALLOCS}", "{ALLOCS}"} {
		s = strings.Replace(s, m, "", 1)
	}
	return s
}

func readSynth(t *testing.T, model string) (*configs.System, []configs.Warning) {
	t.Helper()
	s, w, err := Read(strings.NewReader(model))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &configs.Config{System: s}
	if err := finishNoFile(cfg); err != nil {
		t.Fatalf("the import does not validate: %v", err)
	}
	return s, w
}

func TestSynthBase(t *testing.T) {
	s, _ := readSynth(t, synth(t))
	// R1: 100000 ticks at 100 MHz = 1 ms; R2 up to 200000.
	if got, _ := s.WorstTicks(s.Task("T1"), "Core"); got != 100000 {
		t.Errorf("T1 worst ticks %d", got)
	}
	if len(s.Chains) != 1 || strings.Join(s.Chains[0].Tasks, " ") != "T1 T2" || len(s.Chains[0].Max) != 1 || s.Chains[0].Max[0].Limit != 50*configs.Millisecond {
		t.Errorf("chains %+v", s.Chains)
	}
	if len(s.Mapping.Units) != 2 {
		t.Errorf("mapping %+v", s.Mapping)
	}
}
