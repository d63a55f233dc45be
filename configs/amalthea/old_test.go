package amalthea

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// Amalthea 0.9.3 and 0.9.4 write a task's graph as a list of graphEntries
// (CallSequences of calls, switches of CallSequences) and a runnable's
// items directly as runnableItems, with RunnableModeSwitch and
// RunnableProbabilitySwitch; 0.9.5 made them callGraph items, Groups,
// ModeSwitch and ProbabilitySwitch (the converter of APP4MC 0.9.5,
// org.eclipse.app4mc.amalthea.converters.095 SwConverter). The two models
// below are one model in both forms, the 0.9.5 one written by those
// rules from the 0.9.4 one.

const oldFormModel = `<?xml version="1.0" encoding="UTF-8"?>
<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/{VERSION}" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmi:version="2.0">
  <swModel>
    <tasks name="T1" stimuli="P10?type=PeriodicStimulus" preemption="preemptive">
      <callGraph>
        <graphEntries xsi:type="am:CallSequence" name="">
          <calls xsi:type="am:TaskRunnableCall" runnable="R1?type=Runnable"/>
          <calls xsi:type="am:InterProcessTrigger" stimulus="IPS?type=InterProcessStimulus"/>
        </graphEntries>
        <graphEntries xsi:type="am:ModeSwitch">
          <entries name="fast">
            <condition/>
            <items xsi:type="am:CallSequence" name="a">
              <calls xsi:type="am:TaskRunnableCall" runnable="R2?type=Runnable"/>
            </items>
          </entries>
          <defaultEntry>
            <items xsi:type="am:CallSequence" name="b">
              <calls xsi:type="am:TaskRunnableCall" runnable="R3?type=Runnable"/>
              <calls xsi:type="am:SchedulePoint"/>
            </items>
          </defaultEntry>
        </graphEntries>
      </callGraph>
    </tasks>
    <tasks name="T2" stimuli="IPS?type=InterProcessStimulus" preemption="preemptive">
      <callGraph>
        <graphEntries xsi:type="am:CallSequence" name="">
          <calls xsi:type="am:TaskRunnableCall" runnable="R3?type=Runnable"/>
        </graphEntries>
      </callGraph>
    </tasks>
    <runnables name="R1">{DEADLINE}
      <runnableItems xsi:type="am:LabelAccess" data="L1?type=Label" access="read"/>
      <runnableItems xsi:type="am:Ticks">
        <default xsi:type="am:DiscreteValueConstant" value="100000"/>
      </runnableItems>
      <runnableItems xsi:type="am:RunnableProbabilitySwitch">
        <entries probability="0.5">
          <items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="30000"/></items>
        </entries>
        <entries probability="0.5">
          <items xsi:type="am:LabelAccess" data="L2?type=Label" access="write"/>
        </entries>
      </runnableItems>
    </runnables>
    <runnables name="R2">
      <runnableItems xsi:type="am:Group" name="g" ordered="true">
        <items xsi:type="am:RunnableModeSwitch">
          <entries name="m">
            <items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueStatistics" lowerBound="5000" upperBound="70000" average="9000"/></items>
          </entries>
          <defaultEntry>
            <items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="40000"/></items>
          </defaultEntry>
        </items>
      </runnableItems>
      <runnableItems xsi:type="am:RunnableCall" runnable="R3?type=Runnable"/>
    </runnables>
    <runnables name="R3">
      <runnableItems xsi:type="am:Ticks">
        <default xsi:type="am:DiscreteValueConstant" value="20000"/>
      </runnableItems>
      <runnableItems xsi:type="am:LabelAccess" data="L2?type=Label" access="read"/>
    </runnables>
    <labels name="L1">
      <size value="64" unit="B"/>
    </labels>
    <labels name="L2">
      <size value="16" unit="bit"/>
    </labels>
  </swModel>
  <hwModel>
    <definitions xsi:type="am:ProcessingUnitDefinition" name="Core" puType="CPU"/>
    <structures name="S" structureType="System">
      <modules xsi:type="am:ProcessingUnit" name="C0" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>
      <modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>
    </structures>
    <domains xsi:type="am:FrequencyDomain" name="F">
      <defaultValue value="100" unit="MHz"/>
    </domains>
  </hwModel>
  <osModel>
    <operatingSystems name="OS">
      <taskSchedulers name="S0">
        <schedulingAlgorithm xsi:type="am:FixedPriorityPreemptive"/>
      </taskSchedulers>
    </operatingSystems>
  </osModel>
  <stimuliModel>
    <stimuli xsi:type="am:PeriodicStimulus" name="P10">
      <recurrence value="10" unit="ms"/>
    </stimuli>
    <stimuli xsi:type="am:InterProcessStimulus" name="IPS"/>
  </stimuliModel>
  <mappingModel>
    <schedulerAllocation scheduler="S0?type=TaskScheduler" responsibility="C0?type=ProcessingUnit C1?type=ProcessingUnit"/>
    <taskAllocation task="T1?type=Task" scheduler="S0?type=TaskScheduler" affinity="C0?type=ProcessingUnit"/>
    <taskAllocation task="T2?type=Task" scheduler="S0?type=TaskScheduler" affinity="C1?type=ProcessingUnit"/>
  </mappingModel>
</am:Amalthea>
`

// newForm writes the 0.9.5 form of oldFormModel, by the converter's rules:
// graphEntries → items; a CallSequence → an ordered Group of its calls as
// items, a TaskRunnableCall → RunnableCall; a runnable's runnableItems →
// items of its callGraph; RunnableModeSwitch → ModeSwitch,
// RunnableProbabilitySwitch → ProbabilitySwitch.
func newForm(t *testing.T) string {
	t.Helper()
	s := strings.NewReplacer(
		"{VERSION}", "0.9.5",
		"graphEntries", "items",
		`xsi:type="am:CallSequence"`, `xsi:type="am:Group" ordered="true"`,
		"<calls ", "<items ",
		"am:TaskRunnableCall", "am:RunnableCall",
		"am:RunnableModeSwitch", "am:ModeSwitch",
		"am:RunnableProbabilitySwitch", "am:ProbabilitySwitch",
		"{DEADLINE}", "",
	).Replace(oldFormModel)
	// runnableItems → callGraph/items, runnable by runnable.
	var b strings.Builder
	for _, part := range strings.SplitAfter(s, "</runnables>") {
		i := strings.Index(part, "<runnableItems")
		if i < 0 {
			b.WriteString(part)
			continue
		}
		// The items run to the end tag of the runnable.
		j := len(strings.TrimRight(part[:strings.LastIndex(part, "</runnables>")], " \n"))
		body := strings.ReplaceAll(part[i:j], "runnableItems", "items")
		b.WriteString(part[:i] + "<callGraph>\n        " + body + "\n      </callGraph>" + part[j:])
	}
	if strings.Contains(b.String(), "runnableItems") || strings.Contains(b.String(), "calls") {
		t.Fatalf("the 0.9.5 form still has old elements:\n%s", b.String())
	}
	return b.String()
}

func oldForm(version, deadline string) string {
	return strings.NewReplacer("{VERSION}", version, "{DEADLINE}", deadline).Replace(oldFormModel)
}

// renameOld renames the runnables made of a task's own items from their
// place in the old form (graphEntries[i], calls[j]) to the new (items[…]).
func renameOld(s *configs.System) {
	r := strings.NewReplacer("graphEntries[", "items[", "calls[", "items[")
	for i := range s.Runnables {
		s.Runnables[i].Name = r.Replace(s.Runnables[i].Name)
	}
	for i := range s.Tasks {
		for j := range s.Tasks[i].Runnables {
			s.Tasks[i].Runnables[j] = r.Replace(s.Tasks[i].Runnables[j])
		}
	}
}

// TestOldCallGraphs: a 0.9.4 model and its 0.9.5 form read to the same
// system; the values are those of the XML.
func TestOldCallGraphs(t *testing.T) {
	want, _, err := Read(strings.NewReader(newForm(t)))
	if err != nil {
		t.Fatalf("0.9.5 form: %v", err)
	}
	for _, v := range []struct{ version, deadline string }{{"0.9.4", ""}, {"0.9.3", "\n      <deadline value=\"5\" unit=\"ms\"/>"}} {
		t.Run(v.version, func(t *testing.T) {
			got, warns, err := Read(strings.NewReader(oldForm(v.version, v.deadline)))
			if err != nil {
				t.Fatal(err)
			}
			renameOld(got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the %s form reads as\n%+v\n%+v\nthe 0.9.5 form as\n%+v\n%+v", v.version, got.Tasks, got.Runnables, want.Tasks, want.Runnables)
			}
			wt := warningsText(warns)
			for _, w := range []string{
				"swModel/runnables[R1]/runnableItems[2]: RunnableProbabilitySwitch with 2 branch(es)",
				"swModel/runnables[R2]/runnableItems[0]/items[0]: RunnableModeSwitch with 2 branch(es) (m, default)",
				"swModel/tasks[T1]/graphEntries[1]: ModeSwitch with 2 branch(es) (fast, default)",
			} {
				if !strings.Contains(wt, w) {
					t.Errorf("no warning %q in\n%s", w, wt)
				}
			}
			if strings.Contains(wt, "runnable deadline") != (v.deadline != "") {
				t.Errorf("the runnable deadline warning is wrong:\n%s", wt)
			}
		})
	}
	// By hand from the XML: R1 = 100000 + max(30000, 0) ticks, reads L1,
	// writes L2; R3 = 20000; R2 = max(70000, 40000) + R3; T1 = R1, then the
	// switch of R2 or R3 (at most 90000), T2 (activated by T1) = R3.
	s := want
	for _, c := range []struct {
		run          string
		lower, upper int64
	}{{"R1", 100000, 130000}, {"R2", 25000, 90000}, {"R3", 20000, 20000}} {
		if tk := ticksOf(t, s, c.run, "Core"); tk.Lower != c.lower || tk.Upper != c.upper {
			t.Errorf("%s ticks %+v, want %d … %d", c.run, tk, c.lower, c.upper)
		}
	}
	if r := s.Runnable("R1"); strings.Join(r.Reads, " ") != "L1" || strings.Join(r.Writes, " ") != "L2" {
		t.Errorf("R1 reads %v writes %v", r.Reads, r.Writes)
	}
	if got, _ := s.WorstTicks(s.Task("T1"), "Core"); got != 220000 {
		t.Errorf("T1 worst ticks %d, want 130000 + 90000", got)
	}
	if t2 := s.Task("T2"); t2.ActivatedBy != "T1" || strings.Join(t2.Runnables, " ") != "R3" {
		t.Errorf("T2 %+v, want R3 activated by T1", t2)
	}
	if l := s.Label("L2"); l == nil || l.Size != 2 {
		t.Errorf("L2 %+v, want 2 bytes", l)
	}
}
