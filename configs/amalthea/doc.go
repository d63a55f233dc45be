// Package amalthea reads and writes Amalthea models, the .amxmi files of
// APP4MC: Read, ReadFile and ReadFiles import a model into configs' System
// (one or more files or a folder, one model as APP4MC loads a folder), and
// Export writes a mapping back into the model's files, with nothing lost
// and no dangling reference. Where a model is silent or inconsistent, the
// conventions of configs' package documentation resolve it, each reported
// as a configs.Warning; bad input is a *configs.InputError that names the
// file, the line and the element, in one line.
//
// A configuration names a model (configs.LoadFile of an .amxmi file or a
// folder, configs.LoadModel, or model: in a YAML configuration); configs
// reads it through this package, which builds configs' System and so
// registers its reader (configs.RegisterModelReader) when a program imports
// it, as image/png registers its format with image. cmd/hetmap imports it.
//
// # Amalthea metamodels
//
// hetmap reads the APP4MC metamodels 0.9.0 to 3.3.0 (namespaces
// http://app4mc.eclipse.org/amalthea/0.9.0 … /3.3.0; Versions),
// from their published definitions: the element names and xsi:types below
// are those of the metamodel (amalthea.xcore of APP4MC 0.9.3 to 0.9.5 and
// the 2.2.0 definition), not only of the example files. Where versions
// differ, hetmap reads every form: a task's callGraph of graphEntries
// (CallSequences of calls, switches of CallSequences) and a runnable's
// runnableItems (0.9.0 to 0.9.4), callGraph items (0.9.5 and 0.9.6) and
// activityGraph (0.9.7 on); a scheduler's schedulingAlgorithm (to 1.2) and
// its definition with scheduling parameters (2.0 on); event chain segments
// and strands (to 0.9.5) and items (0.9.6 on); ModeSwitch (to 2.2) and
// Switch (2.0 on); ExecutionNeed (deprecated since 0.9.3) and Ticks.
// 0.9.0 to 0.9.2 are read as APP4MC's model migration converts them to
// 0.9.3 (old.go): an ExecutionNeed's Instructions become ticks
// (those of an extended entry divided by the IPC feature of its definition),
// LatencyConstant/LatencyDeviation cycles and the Deviations of stimuli
// (lowerBound, upperBound, distribution) the 0.9.3 values. An
// older model (0.7 to 0.8.3, or the ITEA AMALTHEA metamodel) is refused
// with one message naming its version, the versions read and APP4MC's model
// migration; a newer one is read as 3.3.0 with a warning. The files of one
// model must have one version; a name given twice in them is an error
// naming both places. References are resolved by name (Name?type=Kind, also
// as an href into another file); a model saved with references by xmi:id
// (task="_u0", as a plain EMF writer saves it) has them resolved to the
// names of the elements they identify (warned), and an unset reference is
// reported as unset.
//
// What the importer does with each element (read: mapped onto the system as
// said; past: read past, with a warning when it carries information the
// analysis does not use; refused: an error naming the element):
//
//	element (xsi:type)                       what hetmap does
//	---------------------------------------  ---------------------------------------------------------------
//	hwModel
//	  ProcessingUnitDefinition               read: the unit kind; puType CPU or GPU (none: CPU, warned);
//	                                         Accelerator refused
//	  ProcessingUnit (in structures)         read: a unit of its definition's kind; the frequency of its
//	                                         FrequencyDomain; accessElements read/writeLatency (worst
//	                                         case, cycles) give the DRAM latency (none: 0, warned)
//	  HwFeatureCategory, HwFeature           read: SMs and CudaCores of a GPU; IPC for ExecutionNeed
//	  FrequencyDomain                        read (its defaultValue); PowerDomain past
//	  Memory, Cache, ConnectionHandler,      past: the challenge's contention model stands for them
//	  ports, connections, definitions of
//	  memories, caches and handlers
//	swModel
//	  Label, ModeLabel                       read: size in any DataSize unit (none: 0 B, warned)
//	  Runnable                               read: its graph flattened into ticks per kind, reads, writes;
//	                                         deadline (to 0.9.3) past (warned)
//	  Task                                   read: one stimulus (none: never activated, left out, warned;
//	                                         no task activated at all, or no task: refused);
//	                                         preemption preemptive or unset; cooperative and
//	                                         non_preemptive refused (fully preemptive analysis); no
//	                                         execution at all: C = 0 on every core (warned)
//	  ISR                                    refused: it preempts every task of its core
//	  ProcessPrototype, Activation           past (warned): the tasks and their stimuli are analysed
//	  ProcessChain                           read for a ProcessChainRequirement
//	  OsEvent, Mode, TypeDefinition,         past: no timing
//	  Section, CustomEntity, Channel
//	activity graph items (tasks and runnables)
//	  Ticks                                  read: extended per definition, else default
//	  ExecutionNeed                          read (warned): need / the core's feature value of the
//	                                         category (worst case: the smallest; none: 1)
//	  ExecutionNeed (0.9.0 to 0.9.2)         read as the migration to 0.9.3: default Instructions as
//	                                         ticks; extended Instructions / the definition's
//	                                         Instructions/IPC… feature (none: 1), in floating point and
//	                                         truncated as the migration does (a quotient not whole
//	                                         warned); other default keys as needs (above); other
//	                                         extended keys past (warned)
//	  LabelAccess                            read: read or write; implementation "timed" makes the task
//	                                         LET in chains (warned); without a label past (warned)
//	  ModeLabelAccess                        read: read; set, increment, decrement write
//	  SenderReceiverRead/Write,              read as label accesses
//	  ModeLabelAssignment
//	  RunnableCall, TaskRunnableCall         read: a runnable of the task (in a runnable: inlined);
//	  (to 0.9.4)                             a counter is ignored (the worst job runs it)
//	  Group, CallSequence (to 0.9.4)         read through; interruptible="false" refused (non-preemptive
//	                                         section)
//	  ModeSwitch, Switch, ProbabilitySwitch, read (warned): the worst case over the branches: per kind
//	  RunnableModeSwitch, RunnableProba-     the largest upper bound, the smallest lower bound (0 when an
//	  bilitySwitch (to 0.9.4)                activation may take no branch), the accesses of every branch
//	  InterProcessTrigger                    read: followed by a WaitEvent, GPU offloading; else it
//	                                         activates a CPU task (inherited period, offset, jitter)
//	  WaitEvent, ClearEvent, SetEvent        read: the offloading pattern (active: synchronous, passive:
//	                                         asynchronous); a WaitEvent not right after a trigger refused
//	  SchedulePoint, TerminateProcess,       past (warned): no effect under preemption / counted as if the
//	  CustomEventTrigger, LocalModeLabel-    task went on (an upper bound) / activates nothing analysed
//	  Assignment
//	  SemaphoreAccess, ChannelSend/Receive,  refused: blocking, channels, client-server calls, migration
//	  server calls, EnforcedMigration,       and unbounded loops are not analysed
//	  WhileLoop
//	discrete values (ticks, needs, latencies in cycles)
//	  DiscreteValueConstant, Boundaries,     read: worst case the upper bound, best case the lower bound
//	  Statistics, UniformDistribution,       (unset bounds of the bounded distributions are 0, their
//	  WeibullEstimatorsDistribution,         metamodel default)
//	  BetaDistribution, Histogram
//	  GaussDistribution                      read when an upperBound is given; refused without one
//	  NeedConstant, NeedDeviation,           (0.9.0 to 0.9.2) read as the 0.9.3 value the migration makes:
//	  LatencyConstant, LatencyDeviation      value=/cycles=, or a Deviation (below)
//	Deviation (0.9.0 to 0.9.2: lowerBound,   read as the 0.9.3 distribution of the same name: Boundaries,
//	upperBound, distribution; counts, and    UniformDistribution, GaussDistribution, BetaDistribution,
//	times of jitter and nextOccurrence)      WeibullEstimators; no distribution, WeibullParameters (the
//	                                         migration drops them) and no upperBound refused
//	stimuliModel
//	  PeriodicStimulus                       read: recurrence, offset; jitter's upper bound is a release
//	                                         jitter; minDistance past
//	  InterProcessStimulus                   read, with its counter
//	  RelativePeriodicStimulus,              read (warned) as sporadic with the minimum inter-arrival
//	  PeriodicSyntheticStimulus,             time: nextOccurrence's lower bound; the smallest distance
//	  PeriodicBurstStimulus,                 between occurrences; occurrenceMinDistance; the
//	  ArrivalCurveStimulus                   lowerTimeBorder of 2 occurrences
//	  SingleStimulus, EventStimulus,         refused when a task uses it
//	  VariableRateStimulus, CustomStimulus
//	  Clock                                  past
//	osModel
//	  TaskScheduler                          read: FixedPriorityPreemptive, OSEK, DeadlineMonotonic,
//	                                         RateMonotonic (fixed-priority preemptive analysis, Joseph
//	                                         and Pandya 1986); on a GPU any algorithm (analysis.gpu_model
//	                                         decides), its minimumTimeslice and maximumTimeslice
//	                                         parameters read (below); on a CPU core EDF, LLREF, round
//	                                         robin, Pfair, servers, budgets, grouping, user-specific and
//	                                         scheduler hierarchies refused; cores without a scheduler
//	                                         and schedulers without an algorithm analysed as
//	                                         fixed-priority preemptive (warned)
//	  OsOverhead                             past (warned): overheads are not in the response times;
//	                                         an OperatingSystem's overhead reference past
//	  OsDataConsistency                      past (warned unless noProtection)
//	  SchedulerDefinition (2.0 on)           read: a scheduler's algorithm is its definition's name; the
//	                                         defaultValue of a parameter it lists stands for one not given
//	  SchedulingParameterDefinition (2.0 on) read: a parameter is read by its definition's name, with
//	                                         "extended: " taken off (APP4MC's migration to 2.0 names the
//	                                         1.x parameter extension KEY "extended: KEY"), so a 2.x model
//	                                         reads as its 1.x original; a key naming no definition warned
//	  scheduling parameters (any version:    read: priority, TimeSlice…, StreamPriority (task allocations),
//	  SchedulingParameters attributes and    minimumTimeslice, maximumTimeslice (schedulers); every other
//	  Times, parameterExtensions, 2.x        parameter, and one given where it means nothing (a CPU
//	  schedulingParameters entries)          priority on the GPU, a time slice on a core), past (warned)
//	  Semaphore, InterruptController         past
//	eventModel
//	  ProcessEvent                           read: its process
//	  RunnableEvent, LabelEvent,             read: the event's process, else the one task that calls the
//	  ModeLabelEvent, StimulusEvent          runnable, accesses the label, has the stimulus (several or
//	                                         none refused)
//	  ProcessChainEvent, ChannelEvent,       refused in a chain
//	  SemaphoreEvent, ComponentEvent,
//	  CustomEvent, EventSet
//	constraintsModel
//	  EventChain (EventChainContainer,       read: the tasks of the stimulus, the segments in order
//	  EventChainReference, SubEventChain)    (nested and referenced chains expanded), the response; a
//	                                         chain of segments without a stimulus or response takes it
//	                                         from its first or last segment (warned); segments that do
//	                                         not connect make the chain contradict itself: dropped
//	                                         (warned, naming the segment), refused where a requirement
//	                                         or an objective names it; strands and parallel items refused
//	  EventChainLatencyConstraint            read: maximum → a requirement (Reaction: the maximum
//	                                         reaction time, which bounds the latency from the stimulus
//	                                         event whether it is the first task's activation or an outside
//	                                         event it samples; Age: the data age); minimum past (warned)
//	  ProcessChainRequirement (EndToEnd)     read: a chain of the process chain's tasks with a requirement
//	                                         on the reaction latency from activation
//	  ProcessRequirement (ResponseTime)      read: the task's requirement (deadlines: model); other
//	                                         metrics and limits past (warned)
//	  RunnableRequirement, Architecture-     past (warned)
//	  Requirement, DelayConstraint,
//	  RepetitionConstraint, (Event)Synchro-
//	  nizationConstraint, DataAgeConstraint,
//	  affinity, sequencing, data coherency
//	  and stability, section constraints
//	mappingModel
//	  SchedulerAllocation                    read: the cores a scheduler is responsible for
//	  TaskAllocation                         read: core = first affinity (else the scheduler's first core,
//	                                         warned); its scheduling parameters (osModel, above)
//	  RunnableAllocation                     past (warned); ISRAllocation, MemoryMapping,
//	                                         PhysicalSectionMapping past
//	measurementModel, componentsModel,       past (warned when not empty); configModel, commonElements,
//	propertyConstraintsModel                 customProperties past
//
// The APP4MC example models that the tests read (amalthea-examples in
// internal/fetchshared/manifest.txt) use these kinds: Ticks with
// DiscreteValueConstant, Statistics, UniformDistribution,
// WeibullEstimatorsDistribution and GaussDistribution; ExecutionNeed with
// Boundaries, Uniform and Constant; Groups, RunnableCalls, LabelAccesses
// (implicit and timed), ModeLabelAccesses, ModeSwitches (with empty nested
// switches), a ProbabilitySwitch and InterProcessTriggers; PeriodicStimulus
// and InterProcessStimulus; OSEK and FixedPriorityPreemptive schedulers;
// ProcessEvents, EventChainContainers, EventChainLatencyConstraints
// (Reaction and Age), ProcessRequirements and a ProcessChainRequirement;
// measurement, components, processPrototypes, activations and
// runnableSequencingConstraints read past.
package amalthea
