package amalthea

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// refusal is a model hetmap must refuse: the error names the file, the line
// (unless noLine), the element path (where) and what is wrong (what).
type refusal struct {
	name, input, where, what string
	noLine                   bool
}

// TestAmaltheaRefusals feeds a model for every refusal of the importer and
// checks that each error is one line naming the file, the line and path of
// the element, and what is wrong.
func TestAmaltheaRefusals(t *testing.T) {
	item := func(x string) string { return synth(t, "{T1}", "\n        "+x) }
	runItem := func(x string) string { return synth(t, "{R1}", "\n        "+x) }
	stim := func(x string) string {
		return synth(t, `stimuli="P20?type=PeriodicStimulus"`, `stimuli="X?type=PeriodicStimulus"`, "{STIMULI}", "\n    "+x)
	}
	sched := func(algo string) string {
		return synth(t, `<schedulingAlgorithm xsi:type="am:FixedPriorityPreemptive"/>`, `<schedulingAlgorithm xsi:type="am:`+algo+`"/>`)
	}
	event := func(x string, pairs ...string) string {
		return synth(t, append([]string{"{EVENTS}", "\n    " + x, `response="E2?type=ProcessEvent"`, `response="EX?type=ProcessEvent"`}, pairs...)...)
	}
	gpuHW := func(pairs ...string) string {
		return synth(t, append([]string{`stimuli="P20?type=PeriodicStimulus"`, `stimuli="IPS?type=InterProcessStimulus"`,
			"{DEFS}", "\n    " + `<definitions xsi:type="am:ProcessingUnitDefinition" name="Gpu" puType="GPU"/>`,
			"{MODULES}", "\n      " + `<modules xsi:type="am:ProcessingUnit" name="G" frequencyDomain="F?type=FrequencyDomain" definition="Gpu?type=ProcessingUnitDefinition"/>`}, pairs...)...)
	}
	deep := strings.Repeat("<items xsi:type=\"am:Group\">", 210) + strings.Repeat("</items>", 210)
	tests := []refusal{
		// Files and versions.
		{name: "empty", input: "", where: "", what: "the file is empty", noLine: true},
		{name: "not XML", input: "hello", where: "", what: "not a well-formed Amalthea XML file", noLine: true},
		{name: "truncated", input: synthBase[:len(synthBase)/2], where: "", what: "not a well-formed Amalthea XML file"},
		{name: "unclosed", input: synth(t)[:strings.Index(synth(t), "<hwModel>")], where: "", what: "<Amalthea> is not closed (the file is truncated?)"},
		{name: "mismatched end tag", input: strings.Replace(synth(t), "</hwModel>", "</hwModels>", 1), where: "", what: "</hwModels> closes <hwModel>"},
		{name: "too deep", input: item(deep), where: "", what: "nested deeper than 200 levels"},
		{name: "older metamodel", input: strings.Replace(synth(t), "amalthea/0.9.9", "amalthea/0.8.3", 1), where: "Amalthea", what: "the model is Amalthea 0.8.3 (namespace http://app4mc.eclipse.org/amalthea/0.8.3), older than hetmap reads: hetmap reads Amalthea 0.9.0 to 3.3.0"},
		{name: "ITEA root", input: `<?xml version="1.0"?><central:AMALTHEA xmlns:central="http://www.amalthea.itea2.org/model/1.3.0/central"/>`, where: "AMALTHEA", what: "an ITEA AMALTHEA model"},
		{name: "not Amalthea", input: `<?xml version="1.0"?><project/>`, where: "project", what: "not an Amalthea model: the root element is <project>"},
		{name: "foreign namespace", input: strings.Replace(synth(t), "http://app4mc.eclipse.org/amalthea/0.9.9", "http://example.com/other", 1), where: "Amalthea", what: "unsupported namespace"},
		{name: "unknown part", input: strings.Replace(synth(t), "<hwModel>", "<hwModelX/>\n  <hwModel>", 1), where: "Amalthea/hwModelX", what: "element <hwModelX> is not supported"},
		{name: "no software", input: cut(t, synth(t), "<swModel>", "</swModel>"), where: "Amalthea", what: "the model has no <swModel>"},
		// Hardware.
		{name: "definition missing", input: synth(t, `definition="Core?type=ProcessingUnitDefinition"/>`, `definition="Nope?type=ProcessingUnitDefinition"/>`), where: "hwModel/ProcessingUnit[C0]", what: `definition "Nope" is not defined`},
		{name: "accelerator", input: synth(t, `puType="CPU"`, `puType="Accelerator"`), where: "hwModel/definitions[Core]", what: `processing-unit type "Accelerator" is not supported`},
		{name: "no frequency", input: synth(t, `<defaultValue value="100" unit="MHz"/>`, ""), where: "hwModel/domains[F]", what: "frequency domain has no defaultValue"},
		{name: "unknown hardware part", input: synth(t, "{DEFS}", "\n    <ports name=\"p\"/>"), where: "hwModel/ports", what: "element <ports> is not supported"},
		// Values.
		{name: "Gauss without upper bound", input: synth(t, `<default xsi:type="am:DiscreteValueConstant" value="100000"/>`, `<default xsi:type="am:DiscreteValueGaussDistribution" lowerBound="1" mean="5" sd="1"/>`),
			where: "swModel/runnables[R1]/items[1]/default", what: "DiscreteValueGaussDistribution has no upperBound"},
		{name: "histogram without entries", input: synth(t, `<default xsi:type="am:DiscreteValueConstant" value="100000"/>`, `<default xsi:type="am:DiscreteValueHistogram"/>`),
			where: "swModel/runnables[R1]/items[1]/default", what: "DiscreteValueHistogram has no entries"},
		{name: "unknown distribution", input: synth(t, `<default xsi:type="am:DiscreteValueConstant" value="100000"/>`, `<default xsi:type="am:DiscreteValueMystery" value="1"/>`),
			where: "swModel/runnables[R1]/items[1]/default", what: `value type "DiscreteValueMystery" is not supported`},
		{name: "bounds upside down", input: synth(t, `lowerBound="100000" upperBound="200000"`, `lowerBound="300000" upperBound="200000"`),
			where: "swModel/runnables[R2]/items[1]/default", what: "DiscreteValueStatistics needs 0 ≤ lowerBound ≤ upperBound, got 300000 and 200000"},
		{name: "ticks without values", input: runItem(`<items xsi:type="am:Ticks"/>`), where: "swModel/runnables[R1]/items[3]", what: "Ticks item has no values"},
		{name: "time without unit", input: synth(t, `<recurrence value="10" unit="ms"/>`, `<recurrence value="10"/>`), where: "stimuliModel/stimuli[P10]/recurrence", what: "time 10 has no unit"},
		{name: "unknown time unit", input: synth(t, `<recurrence value="10" unit="ms"/>`, `<recurrence value="10" unit="fortnights"/>`), where: "stimuliModel/stimuli[P10]/recurrence", what: `unknown unit "fortnights"`},
		{name: "unknown time deviation", input: stim(`<stimuli xsi:type="am:PeriodicStimulus" name="X"><recurrence value="1" unit="ms"/><jitter xsi:type="am:TimeMystery"/></stimuli>`),
			where: "stimuliModel/stimuli[X]/jitter", what: `time value type "TimeMystery" is not supported`},
		{name: "size unit", input: synth(t, `<size value="64" unit="B"/>`, `<size value="64" unit="nibble"/>`), where: "swModel/labels[L1]/size", what: `"nibble" is not an Amalthea DataSize unit (bit, kbit`},
		{name: "size value", input: synth(t, `<size value="64" unit="B"/>`, `<size value="lots" unit="B"/>`), where: "swModel/labels[L1]/size", what: `size value "lots" is not a non-negative integer`},
		// Stimuli.
		{name: "single stimulus", input: stim(`<stimuli xsi:type="am:SingleStimulus" name="X"><occurrence value="1" unit="ms"/></stimuli>`), where: "stimuliModel/stimuli[X]", what: "a task activated once (SingleStimulus) is not supported"},
		{name: "event stimulus", input: stim(`<stimuli xsi:type="am:EventStimulus" name="X"/>`), where: "stimuliModel/stimuli[X]", what: "activation by an event (EventStimulus) is not supported"},
		{name: "variable rate", input: stim(`<stimuli xsi:type="am:VariableRateStimulus" name="X"/>`), where: "stimuliModel/stimuli[X]", what: "VariableRateStimulus"},
		{name: "custom stimulus", input: stim(`<stimuli xsi:type="am:CustomStimulus" name="X"/>`), where: "stimuliModel/stimuli[X]", what: "a CustomStimulus has no semantics"},
		{name: "unknown stimulus", input: stim(`<stimuli xsi:type="am:SporadicStimulus" name="X"/>`), where: "stimuliModel/stimuli[X]", what: `stimulus type "am:SporadicStimulus" is not supported`},
		{name: "relative periodic without distance", input: stim(`<stimuli xsi:type="am:RelativePeriodicStimulus" name="X"><nextOccurrence xsi:type="am:TimeBoundaries"><upperBound value="5" unit="ms"/></nextOccurrence></stimuli>`),
			where: "stimuliModel/stimuli[X]", what: "a minimum inter-arrival time must be positive"},
		{name: "burst without distance", input: stim(`<stimuli xsi:type="am:PeriodicBurstStimulus" name="X" occurrenceCount="3"><recurrence value="10" unit="ms"/><burstLength value="1" unit="ms"/></stimuli>`),
			where: "stimuliModel/stimuli[X]", what: "has no occurrenceMinDistance"},
		{name: "arrival curve", input: stim(`<stimuli xsi:type="am:ArrivalCurveStimulus" name="X"/>`), where: "stimuliModel/stimuli[X]", what: "ArrivalCurveStimulus without a positive lowerTimeBorder for 2 occurrences"},
		{name: "two stimuli", input: synth(t, `stimuli="P20?type=PeriodicStimulus"`, `stimuli="P20?type=PeriodicStimulus P10?type=PeriodicStimulus"`), where: "swModel/tasks[T2]", what: "a task needs exactly one stimulus, found 2"},
		{name: "stimulus missing", input: synth(t, `stimuli="P20?type=PeriodicStimulus"`, `stimuli="P99?type=PeriodicStimulus"`), where: "swModel/tasks[T2]", what: `stimulus "P99" is not defined`},
		// Schedulers.
		{name: "EDF", input: sched("EarliestDeadlineFirst"), where: "mappingModel/schedulerAllocation[S0]", what: "dynamic-priority scheduling (EarliestDeadlineFirst) is not analysed"},
		{name: "user-specific on a CPU", input: sched("UserSpecificSchedulingAlgorithm"), where: "mappingModel/schedulerAllocation[S0]", what: "a user-specific scheduling algorithm has no semantics hetmap can analyse on a CPU"},
		{name: "round robin", input: sched("PriorityBasedRoundRobin"), where: "mappingModel/schedulerAllocation[S0]", what: "round-robin scheduling is not analysed"},
		{name: "Pfair", input: sched("PfairPD2"), where: "mappingModel/schedulerAllocation[S0]", what: "global (Pfair) scheduling is not analysed"},
		{name: "budgets", input: sched("FixedPriorityPreemptiveWithBudgetEnforcement"), where: "mappingModel/schedulerAllocation[S0]", what: "reservation, budgets and scheduler hierarchies"},
		{name: "grouping", input: sched("Grouping"), where: "mappingModel/schedulerAllocation[S0]", what: "reservation, budgets and scheduler hierarchies (Grouping)"},
		{name: "hierarchy", input: synth(t, "<taskSchedulers name=\"S0\">", "<taskSchedulers name=\"S0\"><parentAssociation parent=\"S1?type=TaskScheduler\"/>"), where: "mappingModel/schedulerAllocation[S0]", what: "a scheduler with a parent scheduler (a hierarchy) is not analysed"},
		{name: "unknown scheduler", input: sched("Lottery"), where: "mappingModel/schedulerAllocation[S0]", what: `scheduling algorithm "Lottery" is not supported`},
		{name: "cooperative task", input: synth(t, `<tasks name="T1" stimuli="P10?type=PeriodicStimulus" preemption="preemptive">`, `<tasks name="T1" stimuli="P10?type=PeriodicStimulus" preemption="cooperative">`),
			where: "swModel/tasks[T1]", what: `preemption="cooperative" is not supported (preemptive)`},
		{name: "non-preemptive task", input: synth(t, `<tasks name="T1" stimuli="P10?type=PeriodicStimulus" preemption="preemptive">`, `<tasks name="T1" stimuli="P10?type=PeriodicStimulus" preemption="non_preemptive">`),
			where: "swModel/tasks[T1]", what: `preemption="non_preemptive" is not supported`},
		// Activity items.
		{name: "semaphore", input: item(`<items xsi:type="am:SemaphoreAccess" semaphore="M?type=Semaphore"/>`), where: "swModel/tasks[T1]/items[1]", what: "activity item SemaphoreAccess is not supported: semaphores block other tasks"},
		{name: "channel", input: runItem(`<items xsi:type="am:ChannelSend" data="Ch?type=Channel"/>`), where: "swModel/runnables[R1]/items[3]", what: "activity item ChannelSend is not supported: channel (FIFO) communication"},
		{name: "server call", input: item(`<items xsi:type="am:SynchronousServerCall"/>`), where: "swModel/tasks[T1]/items[1]", what: "activity item SynchronousServerCall is not supported: client-server calls"},
		{name: "migration", input: item(`<items xsi:type="am:EnforcedMigration"/>`), where: "swModel/tasks[T1]/items[1]", what: "activity item EnforcedMigration is not supported"},
		{name: "while loop", input: runItem(`<items xsi:type="am:WhileLoop"/>`), where: "swModel/runnables[R1]/items[3]", what: "a WhileLoop has no bound on its iterations"},
		{name: "unknown item", input: item(`<items xsi:type="am:Teleport"/>`), where: "swModel/tasks[T1]/items[1]", what: `activity item "am:Teleport" is not supported`},
		{name: "item without type", input: item(`<items/>`), where: "swModel/tasks[T1]/items[1]", what: "activity item without xsi:type"},
		{name: "item in a switch", input: item(`<items xsi:type="am:ProbabilitySwitch"><entries probability="1"><items xsi:type="am:SemaphoreAccess"/></entries></items>`),
			where: "swModel/tasks[T1]/items[1]/entries[0]/items[0]", what: "activity item SemaphoreAccess is not supported"},
		{name: "non-interruptible group", input: item(`<items xsi:type="am:Group" name="G" interruptible="false"/>`), where: "swModel/tasks[T1]/items[1]", what: `Group "G" is not interruptible: a non-preemptive section`},
		{name: "unknown graph child", input: synth(t, "<activityGraph>\n        <items xsi:type=\"am:RunnableCall\" runnable=\"R2", "<activityGraph>\n        <nodes/><items xsi:type=\"am:RunnableCall\" runnable=\"R2"), where: "swModel/tasks[T2]/activityGraph/nodes", what: "element <nodes> is not supported"},
		{name: "runnable missing", input: item(`<items xsi:type="am:RunnableCall" runnable="Nope?type=Runnable"/>`), where: "swModel/tasks[T1]/items[1]", what: `runnable "Nope" is not defined`},
		{name: "label missing", input: runItem(`<items xsi:type="am:LabelAccess" data="Ghost?type=Label" access="read"/>`), where: "swModel/runnables[R1]/items[3]", what: `label "Ghost" is not defined`},
		{name: "bad access", input: runItem(`<items xsi:type="am:LabelAccess" data="L1?type=Label" access="peek"/>`), where: "swModel/runnables[R1]/items[3]", what: `label access "peek" is not supported`},
		{name: "runnable calls itself", input: runItem(`<items xsi:type="am:RunnableCall" runnable="R1?type=Runnable"/>`), where: "swModel/runnables[R1]/items[3]", what: `runnable "R1" calls itself`},
		{name: "ticks nowhere", input: runItem(`<items xsi:type="am:Ticks"><extended key="Other?type=ProcessingUnitDefinition"><value xsi:type="am:DiscreteValueConstant" value="5"/></extended></items>`),
			where: "swModel/runnables[R1]", what: "its Ticks give no processing-unit definition a value in every part"},
		{name: "no task activated", input: synth(t, ` stimuli="P10?type=PeriodicStimulus"`, "", ` stimuli="P20?type=PeriodicStimulus"`, ""),
			where: "swModel/tasks", what: "none of the model's 2 task(s) is ever activated (T1, T2): nothing to analyse"},
		{name: "no task", input: cut(t, cut(t, synth(t), `<tasks name="T1"`, "</tasks>"), `<tasks name="T2"`, "</tasks>"), where: "swModel/tasks", what: "the model has no task: hetmap maps tasks"},
		{name: "ISR", input: synth(t, "{TASKS}", "\n    <isrs name=\"I\"/>"), where: "swModel/isrs[I]", what: "interrupt service routines (ISRs) are not analysed"},
		{name: "task child", input: synth(t, "<tasks name=\"T2\" stimuli=\"P20?type=PeriodicStimulus\" preemption=\"preemptive\">", "<tasks name=\"T2\" stimuli=\"P20?type=PeriodicStimulus\" preemption=\"preemptive\"><deadline/>"), where: "swModel/tasks[T2]/deadline", what: "element <deadline> is not supported"},
		{name: "task twice", input: synth(t, "{TASKS}", "\n    <tasks name=\"T1\" stimuli=\"P10?type=PeriodicStimulus\"/>"), where: "swModel/tasks[T1]", what: `"T1" is defined twice (also at `},
		// Triggers and waits.
		{name: "wait without trigger", input: item(`<items xsi:type="am:WaitEvent" waitingBehaviour="active"/>`), where: "swModel/tasks[T1]/items[1]", what: "a WaitEvent that does not directly follow an InterProcessTrigger is not supported"},
		{name: "wait for a CPU task", input: synth(t, "{T1}", "\n        <items xsi:type=\"am:InterProcessTrigger\" stimulus=\"IPS?type=InterProcessStimulus\"/><items xsi:type=\"am:WaitEvent\" waitingBehaviour=\"active\"/>",
			`stimuli="P20?type=PeriodicStimulus"`, `stimuli="IPS?type=InterProcessStimulus"`), where: "swModel/tasks[T1]/items[1]", what: "T1 triggers T2 and waits for it (WaitEvent), but the model has no GPU"},
		{name: "wait inside a runnable", input: runItem(`<items xsi:type="am:WaitEvent" waitingBehaviour="active"/>`), where: "swModel/runnables[R1]/items[3]", what: "WaitEvent inside a runnable is not supported"},
		{name: "two GPU tasks", input: gpuHW("{T1}", "\n        "+strings.Repeat(`<items xsi:type="am:InterProcessTrigger" stimulus="IPS?type=InterProcessStimulus"/><items xsi:type="am:WaitEvent" waitingBehaviour="active"/>`, 2)),
			where: "swModel/tasks[T1]/items[4]", what: "a task that triggers more than one GPU task is not supported"},
		{name: "bad waiting behaviour", input: gpuHW("{T1}", "\n        "+`<items xsi:type="am:InterProcessTrigger" stimulus="IPS?type=InterProcessStimulus"/><items xsi:type="am:WaitEvent" waitingBehaviour="sometimes"/>`),
			where: "swModel/tasks[T1]/items[2]", what: `waitingBehaviour "sometimes" is not supported`},
		{name: "activated twice", input: synth(t, "{T1}", "\n        <items xsi:type=\"am:InterProcessTrigger\" stimulus=\"IPS?type=InterProcessStimulus\"/>",
			"{T2}", "\n        <items xsi:type=\"am:InterProcessTrigger\" stimulus=\"IPS?type=InterProcessStimulus\"/>",
			"{TASKS}", "\n    <tasks name=\"T3\" stimuli=\"IPS?type=InterProcessStimulus\"><activityGraph><items xsi:type=\"am:RunnableCall\" runnable=\"R2?type=Runnable\"/></activityGraph></tasks>"),
			where: "swModel/tasks[T2]/items[1]", what: "task T3 is activated by the triggers of T1 and T2"},
		{name: "activation cycle", input: synth(t, `stimuli="P10?type=PeriodicStimulus"`, `stimuli="IPS?type=InterProcessStimulus"`, `stimuli="P20?type=PeriodicStimulus"`, `stimuli="IPS2?type=InterProcessStimulus"`,
			"{T1}", "\n        <items xsi:type=\"am:InterProcessTrigger\" stimulus=\"IPS2?type=InterProcessStimulus\"/>", "{T2}", "\n        <items xsi:type=\"am:InterProcessTrigger\" stimulus=\"IPS?type=InterProcessStimulus\"/>",
			"{STIMULI}", "\n    <stimuli xsi:type=\"am:InterProcessStimulus\" name=\"IPS2\"/>"), where: "swModel/tasks[T1]", what: "tasks T1, T2 activate each other in a cycle"},
		{name: "trigger names a periodic stimulus", input: item(`<items xsi:type="am:InterProcessTrigger" stimulus="P20?type=PeriodicStimulus"/>`), where: "swModel/tasks[T1]/items[1]", what: `InterProcessTrigger names stimulus "P20", which is not an InterProcessStimulus`},
		{name: "counter", input: item(`<items xsi:type="am:InterProcessTrigger" stimulus="IPS?type=InterProcessStimulus"><counter prescaler="0"/></items>`), where: "swModel/tasks[T1]/items[1]/counter", what: `prescaler="0" is not a positive count`},
		// Events and chains.
		{name: "event missing", input: synth(t, `response="E2?type=ProcessEvent"`, `response="E9?type=ProcessEvent"`), where: "constraintsModel/eventChains[C]", what: `event "E9" is not defined`},
		{name: "event kind", input: event(`<events xsi:type="am:ChannelEvent" name="EX"/>`), where: "eventModel/events[EX]", what: "a ChannelEvent in an event chain is not supported"},
		{name: "process event without process", input: event(`<events xsi:type="am:ProcessEvent" name="EX"/>`), where: "eventModel/events[EX]", what: "ProcessEvent without an entity (a process) names no task"},
		{name: "runnable event of two tasks", input: event(`<events xsi:type="am:RunnableEvent" name="EX" entity="R1?type=Runnable"/>`, `runnable="R2?type=Runnable"/>{T2}`, `runnable="R1?type=Runnable"/>`),
			where: "eventModel/events[EX]", what: "runnable R1 is called: tasks T1, T2 all do, so the event names no single task"},
		{name: "runnable event of no task", input: event(`<events xsi:type="am:RunnableEvent" name="EX" entity="R3?type=Runnable"/>`, "{RUNNABLES}", "\n    <runnables name=\"R3\"/>"),
			where: "eventModel/events[EX]", what: "runnable R3 is called: no task does that"},
		{name: "label event of two tasks", input: event(`<events xsi:type="am:LabelEvent" name="EX" entity="L2?type=Label"/>`), where: "eventModel/events[EX]", what: "label L2 is accessed (any access): tasks T1, T2 all do"},
		{name: "segment does not connect"}, // below
		{name: "strands", input: synth(t, `response="E2?type=ProcessEvent"{CHAIN}/>`, `response="E2?type=ProcessEvent"><strands xsi:type="am:EventChainContainer"/></eventChains>`), where: "constraintsModel/eventChains[C]", what: "event chain strands (alternative paths) are not supported"},
		{name: "parallel", input: synth(t, `response="E2?type=ProcessEvent"{CHAIN}/>`, `response="E2?type=ProcessEvent" itemType="parallel"><items xsi:type="am:EventChainContainer"><eventChain name="a" stimulus="E1?type=ProcessEvent" response="E2?type=ProcessEvent"/></items><items xsi:type="am:EventChainContainer"><eventChain name="b" stimulus="E1?type=ProcessEvent" response="E2?type=ProcessEvent"/></items></eventChains>`),
			where: "constraintsModel/eventChains[C]", what: `an event chain with itemType="parallel" (2 parallel paths) is not supported`},
		{name: "reference missing", input: synth(t, `response="E2?type=ProcessEvent"{CHAIN}/>`, `response="E2?type=ProcessEvent"><items xsi:type="am:EventChainReference" eventChain="Z?type=EventChain"/></eventChains>`),
			where: "constraintsModel/eventChains[C]/items[0]", what: `event chain "Z" is not defined`},
		{name: "chain refers to itself", input: synth(t, `response="E2?type=ProcessEvent"{CHAIN}/>`, `response="E2?type=ProcessEvent"><items xsi:type="am:EventChainReference" eventChain="C?type=EventChain"/></eventChains>`),
			where: "constraintsModel/eventChains[C]", what: "event chains nested deeper than 32 levels"},
		{name: "latency type", input: synth(t, `type="Reaction"`, `type="Sideways"`), where: "constraintsModel/timingConstraints[Max]", what: `latency type "Sideways" is not supported (Reaction or Age)`},
		{name: "latency scope", input: synth(t, `scope="C?type=EventChain"`, `scope="Q?type=EventChain"`), where: "constraintsModel/timingConstraints[Max]", what: `event chain "Q" is not defined`},
		{name: "process chain missing", input: synth(t, "{CONSTRAINTS}", "\n    "+`<requirements xsi:type="am:ProcessChainRequirement" name="PC" processChain="Nope?type=ProcessChain"><limit xsi:type="am:TimeRequirementLimit" limitType="UpperLimit" metric="EndToEnd"><limitValue value="5" unit="ms"/></limit></requirements>`),
			where: "constraintsModel/requirements[PC]", what: `process chain "Nope" is not defined`},
		{name: "requirement process", input: synth(t, "{CONSTRAINTS}", "\n    "+`<requirements xsi:type="am:ProcessRequirement" name="R" process="T9?type=Task"><limit xsi:type="am:TimeRequirementLimit" limitType="UpperLimit" metric="ResponseTime"><limitValue value="5" unit="ms"/></limit></requirements>`),
			where: "constraintsModel/requirements[R]", what: `process "T9" is not defined`},
		{name: "unknown constraint", input: synth(t, "{CONSTRAINTS}", "\n    <wishes/>"), where: "constraintsModel/wishes", what: "element <wishes> is not supported"},
		// Mapping.
		{name: "allocation of a missing task", input: synth(t, "{ALLOCS}", "\n    "+`<taskAllocation task="T9?type=Task" scheduler="S0?type=TaskScheduler"/>`), where: "mappingModel/taskAllocation[T9]", what: `task "T9" is not defined`},
		{name: "allocation to a missing scheduler", input: synth(t, `<taskAllocation task="T1?type=Task" scheduler="S0?type=TaskScheduler"`, `<taskAllocation task="T1?type=Task" scheduler="S9?type=TaskScheduler"`),
			where: "mappingModel/taskAllocation[T1]", what: `scheduler "S9" is not defined`},
		{name: "affinity to a missing core", input: synth(t, `affinity="C0?type=ProcessingUnit"`, `affinity="C9?type=ProcessingUnit"`), where: "mappingModel/taskAllocation[T1]", what: `affinity names unit "C9", which is not defined`},
		{name: "responsibility for a missing core", input: synth(t, `responsibility="C0?type=ProcessingUnit C1?type=ProcessingUnit"`, `responsibility="C0?type=ProcessingUnit C7?type=ProcessingUnit"`),
			where: "mappingModel/schedulerAllocation[S0]", what: `responsibility names unit "C7", which is not defined`},
		{name: "allocated twice", input: synth(t, "{ALLOCS}", "\n    "+`<taskAllocation task="T1?type=Task" scheduler="S0?type=TaskScheduler" affinity="C1?type=ProcessingUnit"/>`), where: "mappingModel/taskAllocation[T1]", what: "task T1 is allocated twice"},
		{name: "priority", input: synth(t, `affinity="C0?type=ProcessingUnit"/>`, `affinity="C0?type=ProcessingUnit"><schedulingParameters priority="high"/></taskAllocation>`),
			where: "mappingModel/taskAllocation[T1]/schedulingParameters/priority", what: `priority "high" is not an integer`},
		{name: "time slice", input: synth(t, `affinity="C0?type=ProcessingUnit"/>`, `affinity="C0?type=ProcessingUnit"><parameterExtensions key="TimeSlice_T1" value="soon"/></taskAllocation>`),
			where: "mappingModel/taskAllocation[T1]/parameterExtensions[TimeSlice_T1]", what: `"soon" is not a duration`},
		{name: "stream priority", input: synth(t, `affinity="C0?type=ProcessingUnit"/>`, `affinity="C0?type=ProcessingUnit"><parameterExtensions key="StreamPriority" value="urgent"/></taskAllocation>`),
			where: "mappingModel/taskAllocation[T1]/parameterExtensions[StreamPriority]", what: `stream priority "urgent" is not high or low`},
		// The call graphs of 0.9.3 and 0.9.4 (amalthea_old_test.go).
		{name: "old form semaphore", input: strings.Replace(oldForm("0.9.4", ""), `<runnableItems xsi:type="am:LabelAccess" data="L1?type=Label" access="read"/>`, `<runnableItems xsi:type="am:SemaphoreAccess"/>`, 1),
			where: "swModel/runnables[R1]/runnableItems[0]", what: "activity item SemaphoreAccess is not supported"},
		{name: "old form migration", input: strings.Replace(oldForm("0.9.4", ""), `<calls xsi:type="am:SchedulePoint"/>`, `<calls xsi:type="am:EnforcedMigration"/>`, 1),
			where: "swModel/tasks[T1]/graphEntries[1]/entries[1]/items[0]/calls[1]", what: "EnforcedMigration"},
		{name: "runnable items and call graph", input: strings.Replace(oldForm("0.9.4", ""), `<runnables name="R3">`, `<runnables name="R3"><callGraph/>`, 1),
			where: "swModel/runnables[R3]", what: "more than one of activityGraph, callGraph and runnableItems given"},
		{name: "graph entries and items", input: strings.Replace(oldForm("0.9.4", ""), "<callGraph>", `<callGraph><items xsi:type="am:SchedulePoint"/>`, 1),
			where: "swModel/tasks[T1]/callGraph/graphEntries", what: "both <items> and <graphEntries> given"},
		{name: "unknown mapping part", input: synth(t, "{ALLOCS}", "\n    <coreAllocation/>"), where: "mappingModel/coreAllocation", what: "element <coreAllocation> is not supported"},
	}
	// A chain whose segments do not connect (bug 5 of issue 11): C runs T1 → T2
	// in two segments that skip from T1 to T2's successor.
	tests[findRefusal(t, tests, "segment does not connect")] = refusal{name: "segment does not connect",
		input: synth(t, `response="E2?type=ProcessEvent"{CHAIN}/>`, `response="E2?type=ProcessEvent" itemType="sequence"><items xsi:type="am:EventChainContainer"><eventChain name="first" stimulus="E1?type=ProcessEvent" response="E1?type=ProcessEvent"/></items><items xsi:type="am:EventChainContainer"><eventChain name="second" stimulus="E2?type=ProcessEvent" response="E2?type=ProcessEvent"/></items></eventChains>`),
		where: "constraintsModel/eventChains[C]/items[1][second]", what: "the segment does not connect: it starts at E2 (task T2) but segment first ends at task T1"}
	checkRefusals(t, tests)
}

// checkRefusals writes each refusal's input to a file and checks that
// reading it fails with one line naming the file, the line, the element and
// what is wrong.
func checkRefusals(t *testing.T, tests []refusal) {
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".amxmi")
			if err := os.WriteFile(path, []byte(tt.input), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := ReadFile(path)
			if err == nil {
				t.Fatalf("no error, want %q", tt.what)
			}
			msg := err.Error()
			var ie *configs.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("%v is not an *InputError", err)
			}
			if ie.File != path || (!tt.noLine && ie.Line <= 0) {
				t.Errorf("error %q names file %q line %d, want %s and a line", msg, ie.File, ie.Line, path)
			}
			if !strings.HasPrefix(msg, path+":") {
				t.Errorf("error %q does not start with the file", msg)
			}
			if !strings.Contains(ie.Where, tt.where) || !strings.Contains(ie.What, tt.what) {
				t.Errorf("error\n  %s\nwant where %q and what %q", msg, tt.where, tt.what)
			}
			if strings.ContainsAny(msg, "\n\r") {
				t.Errorf("error is not one line: %q", msg)
			}
		})
	}
}

func findRefusal(t *testing.T, tests []refusal, name string) int {
	for i := range tests {
		if tests[i].name == name {
			return i
		}
	}
	t.Fatalf("no refusal %q", name)
	return -1
}

// cut removes the text from the first begin to the first end after it,
// both included.
func cut(t *testing.T, s, begin, end string) string {
	i := strings.Index(s, begin)
	j := strings.Index(s[i:], end)
	if i < 0 || j < 0 {
		t.Fatalf("no %q … %q", begin, end)
	}
	return s[:i] + s[i+j+len(end):]
}

// TestMultiFileRefusals: a model in several files must have one version,
// and a name given in two files is an error naming both places.
func TestMultiFileRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.amxmi", synth(t))
	b := write("b.amxmi", strings.Replace(synth(t), "amalthea/0.9.9", "amalthea/1.0.0", 1))
	if _, _, err := ReadFiles([]string{a, b}); err == nil || !strings.Contains(err.Error(), "b.amxmi:2: Amalthea: the file is Amalthea 1.0.0 but") {
		t.Errorf("two versions: %v", err)
	}
	c := write("c.amxmi", `<?xml version="1.0"?>
<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/0.9.9" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <swModel>
    <labels name="L1"/>
  </swModel>
</am:Amalthea>`)
	_, _, err := ReadFiles([]string{a, c})
	if err == nil || !strings.Contains(err.Error(), `c.amxmi:4: swModel/labels[L1]: "L1" is defined twice (also at `+a+":") {
		t.Errorf("a label in two files: %v", err)
	}
	if _, _, err := ReadFiles([]string{a, a}); err == nil || !strings.Contains(err.Error(), "the model names this file twice") {
		t.Errorf("one file twice: %v", err)
	}
	empty := t.TempDir()
	if _, _, err := ReadFiles([]string{empty}); err == nil || !strings.Contains(err.Error(), "the folder holds no .amxmi file") {
		t.Errorf("an empty folder: %v", err)
	}
}

// TestHrefIntoAFileNotGiven: an href into a file that is not one of the
// model's files is refused (resolving it by name against the files given
// would be a guess), naming the file, line, element and the file missing;
// APP4MC's amlt:/ form and an href into a file given resolve.
func TestHrefIntoAFileNotGiven(t *testing.T) {
	dir := t.TempDir()
	model := synth(t, `<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>`,
		`<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain">
        <definition href="hw.amxmi#Core?type=ProcessingUnitDefinition"/>
      </modules>`)
	path := filepath.Join(dir, "sw.amxmi")
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadFile(path)
	var ie *configs.InputError
	line := strings.Count(model[:strings.Index(model, `<definition href`)], "\n") + 1
	if !errors.As(err, &ie) || ie.File != path || ie.Line != line || ie.Where != "definition" ||
		!strings.Contains(ie.What, `the reference href="hw.amxmi#Core?type=ProcessingUnitDefinition" points into hw.amxmi, which is not one of the model's files (sw.amxmi): give that file too`) {
		t.Errorf("got %v", err)
	}
	// Given as a second file, the model reads (references resolve by name
	// across the files of a model, as before).
	hw := filepath.Join(dir, "hw.amxmi")
	hwModel := `<?xml version="1.0" encoding="UTF-8"?>
<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/0.9.9" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI">
  <hwModel>
    <definitions xsi:type="am:ProcessingUnitDefinition" name="Other" puType="CPU"/>
  </hwModel>
</am:Amalthea>
`
	if err := os.WriteFile(hw, []byte(hwModel), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFiles([]string{path, hw}); err != nil {
		t.Errorf("with hw.amxmi given: %v", err)
	}
	// amlt:/ names any file of the model.
	if _, _, err := Read(strings.NewReader(strings.Replace(model, `href="hw.amxmi#`, `href="amlt:/#`, 1))); err != nil {
		t.Errorf("amlt:/#: %v", err)
	}
}
