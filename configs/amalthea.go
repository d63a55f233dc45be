package configs

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The memory-contention parameters and GPU resources are not part of an
// Amalthea model. The importer fills them from the WATERS 2019 challenge
// text (waters2019.md) and says so in a warning.
var challengeContention = map[string]struct{ perCore, copyEngine Duration }{
	"A57":    {20 * Nanosecond, 100 * Nanosecond},
	"Denver": {2 * Nanosecond, 20 * Nanosecond},
}

// ChallengeCopyEngine is the copy-engine latency model of the challenge:
// 3 ns + 0.5 ns per interfering core for every 64-byte line.
var ChallengeCopyEngine = CopyEngineCost{Baseline: 3 * Nanosecond, PerCore: 500 * Picosecond}

// ReadAmaltheaFile imports an Amalthea model file (.amxmi).
func ReadAmaltheaFile(path string) (*System, []Warning, error) {
	data, err := ReadInput(path, "the model")
	if err != nil {
		return nil, nil, err
	}
	sys, warns, err := ReadAmalthea(bytes.NewReader(data))
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			ie.File = path
		}
		return nil, nil, err
	}
	if sys.Name == "" {
		sys.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return sys, warns, nil
}

// ReadAmalthea imports an Amalthea model: hardware, software, stimuli, OS,
// mapping and constraints. Elements that change timing and that hetmap does
// not model are errors naming the element; inconsistencies the spec lists
// become warnings, resolved by the spec's conventions.
func ReadAmalthea(r io.Reader) (*System, []Warning, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, inputErrorf("", "the file is empty: expected an Amalthea model (<am:Amalthea>)")
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var root axRoot
	if err := dec.Decode(&root); err != nil {
		if err == io.EOF {
			return nil, nil, inputErrorf("", "not a well-formed Amalthea XML file: no <am:Amalthea> element")
		}
		return nil, nil, inputErrorf("", "not a well-formed Amalthea XML file: %v", err)
	}
	if !strings.HasPrefix(root.XMLName.Space, "http://app4mc.eclipse.org/amalthea/") {
		return nil, nil, inputErrorf("Amalthea", "unsupported namespace %q: expected http://app4mc.eclipse.org/amalthea/<version>", root.XMLName.Space)
	}
	im := &importer{root: &root}
	sys, err := im.run()
	if err != nil {
		return nil, nil, err
	}
	return sys, im.warns, nil
}

type importer struct {
	root  *axRoot
	sys   System
	warns []Warning
	// name of the InterProcessStimulus → name of the task it activates
	stimTask map[string]string
	periods  map[string]axStimulus
	// scheduler name → algorithm xsi:type
	schedulers map[string]string
}

func (im *importer) warn(where, format string, args ...any) {
	im.warns = append(im.warns, Warning{Where: where, What: fmt.Sprintf(format, args...)})
}

// refName extracts the name from an Amalthea reference "Name?type=Kind",
// undoing the URL escaping Amalthea applies to names.
func refName(ref string) string {
	ref = strings.TrimSpace(ref)
	if i := strings.Index(ref, "?type="); i >= 0 {
		ref = ref[:i]
	}
	if n, err := url.PathUnescape(ref); err == nil {
		return n
	}
	return ref
}

func refNames(refs string) []string {
	var out []string
	for _, f := range strings.Fields(refs) {
		out = append(out, refName(f))
	}
	return out
}

// xsiType strips the namespace prefix of an xsi:type value ("am:Ticks" → "Ticks").
func xsiType(t string) string {
	if i := strings.IndexByte(t, ':'); i >= 0 {
		return t[i+1:]
	}
	return t
}

// checkOther turns unknown child elements into an error unless they are in
// the list of elements that do not affect timing.
func checkOther(where string, others []axOther, ignorable ...string) error {
	for _, o := range others {
		ok := o.XMLName.Local == "customProperties"
		for _, ig := range ignorable {
			if o.XMLName.Local == ig {
				ok = true
			}
		}
		if !ok {
			return inputErrorf(where+"/"+o.XMLName.Local, "element <%s> is not supported by hetmap", o.XMLName.Local)
		}
	}
	return nil
}

func amaltheaDuration(where string, v *axValue) (Duration, error) {
	if v == nil {
		return 0, inputErrorf(where, "missing time value")
	}
	d, err := ParseDuration(v.Value + v.Unit)
	if err != nil {
		return 0, inputErrorf(where, "%v", err)
	}
	if d < 0 {
		return 0, inputErrorf(where, "negative time %s", v.Value+v.Unit)
	}
	return d, nil
}

func parseInt(where, attr, s string) (int64, error) {
	v, err := scaleDecimal(strings.TrimSpace(s), 1)
	if err != nil {
		return 0, inputErrorf(where, "%s=%q is not an integer", attr, s)
	}
	return v, nil
}

func (im *importer) run() (*System, error) {
	r := im.root
	if err := checkOther("Amalthea", r.Other, "componentsModel", "configModel", "eventModel", "commonElements", "propertyConstraintsModel"); err != nil {
		return nil, err
	}
	if r.SW == nil {
		return nil, inputErrorf("Amalthea", "the model has no <swModel>")
	}
	if r.HW == nil {
		return nil, inputErrorf("Amalthea", "the model has no <hwModel>")
	}
	if r.Stimuli == nil {
		return nil, inputErrorf("Amalthea", "the model has no <stimuliModel>")
	}
	steps := []func() error{im.hardware, im.stimuli, im.osModel, im.labels, im.runnables, im.tasks, im.constraints, im.mapping}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	im.sys.Memory = im.challengeMemory()
	im.warn("hwModel", "memory-contention parameters are not part of an Amalthea model: using the WATERS 2019 challenge values (baseline from the DRAM latency of the model; K and sGPU from the challenge text; copy engine 3 ns + 0.5 ns per interfering core)")
	return &im.sys, nil
}

func (im *importer) hardware() error {
	hw := im.root.HW
	if err := checkOther("hwModel", hw.Other, "connectionHandlers"); err != nil {
		return err
	}
	defs := map[string]axDefinition{}
	for _, d := range hw.Definitions {
		defs[d.Name] = d
	}
	features := map[string]float64{}
	for _, c := range hw.Features {
		for _, f := range c.Features {
			v, err := strconv.ParseFloat(f.Value, 64)
			if err != nil {
				return inputErrorf("hwModel/featureCategories["+c.Name+"]/features["+f.Name+"]", "value %q is not a number", f.Value)
			}
			features[c.Name+"/"+f.Name] = v
		}
	}
	freqs := map[string]Frequency{}
	for _, d := range hw.Domains {
		if d.DefaultValue == nil {
			return inputErrorf("hwModel/domains["+d.Name+"]", "frequency domain has no defaultValue")
		}
		f, err := ParseFrequency(d.DefaultValue.Value + d.DefaultValue.Unit)
		if err != nil {
			return inputErrorf("hwModel/domains["+d.Name+"]", "%v", err)
		}
		freqs[d.Name] = f
	}
	var walk func(s axStructure) error
	walk = func(s axStructure) error {
		for _, m := range s.Modules {
			if xsiType(m.Type) != "ProcessingUnit" {
				continue
			}
			where := "hwModel/ProcessingUnit[" + m.Name + "]"
			defName := refName(m.Definition)
			def, ok := defs[defName]
			if !ok {
				return inputErrorf(where, "definition %q is not defined", defName)
			}
			f, ok := freqs[refName(m.FrequencyDomain)]
			if !ok || f <= 0 {
				return inputErrorf(where, "frequency domain %q is missing or has no positive frequency", refName(m.FrequencyDomain))
			}
			u := Unit{Name: m.Name, Kind: defName, Frequency: f}
			switch strings.ToUpper(def.PUType) {
			case "CPU":
				u.Type = CPU
			case "GPU":
				u.Type = GPU
				g := TX2GPU()
				for _, fr := range refNames(def.Features) {
					v := features[fr]
					switch {
					case strings.HasPrefix(fr, "SMs/"):
						g.SMs = int(v)
					case strings.HasPrefix(fr, "CudaCores/"):
						g.CoresPerSM = int(v)
					}
				}
				u.GPU = &g
				im.warn(where, "threads, shared memory and registers per SM, and the copy engines, are not part of the model: using the TX2 values of gpu-scheduling.md (2048 threads, 64 KiB, 65536 registers per SM; 1 copy engine)")
			default:
				return inputErrorf(where, "processing-unit type %q is not supported (CPU or GPU)", def.PUType)
			}
			for _, ae := range m.AccessElements {
				aw := where + "/accessElements[" + ae.Name + "]"
				if ae.ReadLatency != nil {
					v, err := parseInt(aw+"/readLatency", "value", ae.ReadLatency.Value)
					if err != nil {
						return err
					}
					u.ReadLatency = v
				}
				if ae.WriteLatency != nil {
					v, err := parseInt(aw+"/writeLatency", "value", ae.WriteLatency.Value)
					if err != nil {
						return err
					}
					u.WriteLatency = v
				}
			}
			im.sys.Units = append(im.sys.Units, u)
		}
		for _, c := range s.Structures {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range hw.Structures {
		if err := walk(s); err != nil {
			return err
		}
	}
	if len(im.sys.Units) == 0 {
		return inputErrorf("hwModel", "the model has no processing units")
	}
	// Units in a stable, readable order: by name (Core0 … Core5, then GP10B
	// sorts before Core? no: sort CPUs first, then GPUs, each by name).
	sort.SliceStable(im.sys.Units, func(i, j int) bool {
		a, b := im.sys.Units[i], im.sys.Units[j]
		if a.Type != b.Type {
			return a.Type == CPU
		}
		return a.Name < b.Name
	})
	return nil
}

func (im *importer) challengeMemory() Memory {
	m := Memory{LineSize: 64, CopyEngine: ChallengeCopyEngine}
	for _, k := range im.sys.Kinds() {
		var u *Unit
		for i := range im.sys.Units {
			if im.sys.Units[i].Kind == k {
				u = &im.sys.Units[i]
				break
			}
		}
		if u.Type != CPU {
			continue
		}
		// baseline = DRAM read latency in cycles / frequency, rounded up.
		base := Duration((u.ReadLatency*int64(Second) + int64(u.Frequency) - 1) / int64(u.Frequency))
		c := CoreMemory{Kind: k, Baseline: base}
		if p, ok := challengeContention[k]; ok {
			c.PerCore, c.CopyEngine = p.perCore, p.copyEngine
		} else {
			im.warn("hwModel/definitions["+k+"]", "no challenge contention parameters for core kind %q: K and sGPU set to 0; give them in the configuration's memory section", k)
		}
		m.Cores = append(m.Cores, c)
	}
	return m
}

func (im *importer) stimuli() error {
	sm := im.root.Stimuli
	if err := checkOther("stimuliModel", sm.Other, "clocks"); err != nil {
		return err
	}
	im.periods = map[string]axStimulus{}
	im.stimTask = map[string]string{}
	for _, s := range sm.Stimuli {
		switch xsiType(s.Type) {
		case "PeriodicStimulus":
			if s.Recurrence == nil {
				return inputErrorf("stimuliModel/stimuli["+s.Name+"]", "periodic stimulus has no recurrence")
			}
			if s.Jitter != nil {
				return inputErrorf("stimuliModel/stimuli["+s.Name+"]/jitter", "element <jitter> is not supported by hetmap")
			}
			im.periods[s.Name] = s
		case "InterProcessStimulus":
			im.stimTask[s.Name] = ""
		default:
			return inputErrorf("stimuliModel/stimuli["+s.Name+"]", "stimulus type %q is not supported (PeriodicStimulus, InterProcessStimulus)", s.Type)
		}
	}
	return nil
}

func (im *importer) osModel() error {
	im.schedulers = map[string]string{}
	if im.root.OS == nil {
		return nil
	}
	if err := checkOther("osModel", im.root.OS.Other, "semaphores", "osOverheads"); err != nil {
		return err
	}
	for _, o := range im.root.OS.OperatingSystems {
		for _, s := range o.TaskSchedulers {
			where := "osModel/taskSchedulers[" + s.Name + "]"
			if s.Algorithm == nil {
				return inputErrorf(where, "scheduler has no schedulingAlgorithm")
			}
			t := xsiType(s.Algorithm.Type)
			switch t {
			case "FixedPriorityPreemptive", "OSEK":
			case "UserSpecificSchedulingAlgorithm":
				for _, p := range s.Algorithm.Parameters {
					d, err := ParseDuration(p.Value)
					switch p.Key {
					case "minimumTimeslice":
						if err != nil {
							return inputErrorf(where+"/parameterExtensions["+p.Key+"]", "%v", err)
						}
						im.sys.TimeSlice.Min = d
					case "maximumTimeslice":
						if err != nil {
							return inputErrorf(where+"/parameterExtensions["+p.Key+"]", "%v", err)
						}
						im.sys.TimeSlice.Max = d
					}
				}
			default:
				return inputErrorf(where, "scheduling algorithm %q is not supported (FixedPriorityPreemptive, or the GPU's UserSpecificSchedulingAlgorithm)", s.Algorithm.Type)
			}
			im.schedulers[s.Name] = t
		}
	}
	return nil
}

func (im *importer) labels() error {
	for _, l := range im.root.SW.Labels {
		where := "swModel/labels[" + l.Name + "]"
		if l.Size == nil {
			return inputErrorf(where, "label has no size")
		}
		sz, err := ParseSize(l.Size.Value + l.Size.Unit)
		if err != nil {
			return inputErrorf(where+"/size", "%v", err)
		}
		if sz < 0 {
			return inputErrorf(where+"/size", "negative size")
		}
		im.sys.Labels = append(im.sys.Labels, Label{Name: l.Name, Size: sz, Constant: l.Constant == "true"})
	}
	return nil
}

func graphOf(where string, a, c *axGraph) (*axGraph, error) {
	if a != nil && c != nil {
		return nil, inputErrorf(where, "both activityGraph and callGraph given")
	}
	if a == nil {
		a = c
	}
	if a != nil {
		if err := checkOther(where+"/activityGraph", a.Other); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (im *importer) runnables() error {
	if err := checkOther("swModel", im.root.SW.Other, "events", "typeDefinitions", "modeLabels", "activations", "sections", "customEntities", "processPrototypes", "processChains"); err != nil {
		return err
	}
	for _, r := range im.root.SW.Runnables {
		where := "swModel/runnables[" + r.Name + "]"
		if err := checkOther(where, r.Other, "parameters", "runnableRequirements", "section"); err != nil {
			return err
		}
		g, err := graphOf(where, r.ActivityGraph, r.CallGraph)
		if err != nil {
			return err
		}
		run := Runnable{Name: r.Name}
		if g != nil {
			if err := im.runnableItems(where, g.Items, &run, new(bool)); err != nil {
				return err
			}
		}
		im.sys.Runnables = append(im.sys.Runnables, run)
	}
	return nil
}

// runnableItems reads label accesses and ticks in order. A read after the
// ticks, or a write before them, does not fit the read/execute/write
// semantic: reads are taken in the read phase and writes in the write phase,
// which is what the challenge model prescribes.
func (im *importer) runnableItems(where string, items []axItem, run *Runnable, sawTicks *bool) error {
	for i, it := range items {
		iw := fmt.Sprintf("%s/items[%d]", where, i)
		if err := checkOther(iw, it.Other); err != nil {
			return err
		}
		switch xsiType(it.Type) {
		case "Group":
			if err := im.runnableItems(iw, it.Items, run, sawTicks); err != nil {
				return err
			}
		case "LabelAccess":
			l := refName(it.Data)
			if im.sys.Label(l) == nil {
				return inputErrorf(iw, "label %q is not defined", l)
			}
			switch it.Access {
			case "read":
				run.Reads = append(run.Reads, l)
			case "write":
				run.Writes = append(run.Writes, l)
			default:
				return inputErrorf(iw, "label access %q is not supported (read or write)", it.Access)
			}
		case "Ticks":
			if *sawTicks {
				return inputErrorf(iw, "a runnable with several Ticks items is not supported")
			}
			*sawTicks = true
			for _, e := range it.Extended {
				tk, err := ticksValue(iw+"/extended["+refName(e.Key)+"]", e.Value)
				if err != nil {
					return err
				}
				tk.Kind = refName(e.Key)
				run.Ticks = append(run.Ticks, tk)
			}
			if it.Default != nil {
				tk, err := ticksValue(iw+"/default", it.Default)
				if err != nil {
					return err
				}
				for _, k := range im.sys.Kinds() {
					if _, has := run.TicksFor(k); !has {
						tk.Kind = k
						run.Ticks = append(run.Ticks, tk)
					}
				}
			}
			if len(run.Ticks) == 0 {
				return inputErrorf(iw, "Ticks item has no values")
			}
		default:
			return inputErrorf(iw, "activity item %q is not supported in a runnable (LabelAccess, Ticks, Group)", it.Type)
		}
	}
	return nil
}

func ticksValue(where string, v *axValue) (Ticks, error) {
	if v == nil {
		return Ticks{}, inputErrorf(where, "missing value")
	}
	var t Ticks
	var err error
	switch xsiType(v.Type) {
	case "DiscreteValueConstant":
		if t.Upper, err = parseInt(where, "value", v.Value); err != nil {
			return t, err
		}
		t.Lower, t.Average = t.Upper, float64(t.Upper)
	case "DiscreteValueStatistics", "DiscreteValueBoundaries", "DiscreteValueUniformDistribution":
		if t.Lower, err = parseInt(where, "lowerBound", v.LowerBound); err != nil {
			return t, err
		}
		if t.Upper, err = parseInt(where, "upperBound", v.UpperBound); err != nil {
			return t, err
		}
		t.Average = float64(t.Lower+t.Upper) / 2
		if v.Average != "" {
			a, perr := strconv.ParseFloat(v.Average, 64)
			if perr != nil {
				return t, inputErrorf(where, "average=%q is not a number", v.Average)
			}
			t.Average = a
		}
	default:
		return t, inputErrorf(where, "tick value type %q is not supported (DiscreteValueConstant, DiscreteValueStatistics, DiscreteValueBoundaries, DiscreteValueUniformDistribution)", v.Type)
	}
	if t.Lower < 0 || t.Upper < t.Lower {
		return t, inputErrorf(where, "ticks need 0 ≤ lowerBound ≤ upperBound, got %d and %d", t.Lower, t.Upper)
	}
	return t, nil
}

// taskShape is what a task's activity graph says, in order.
type taskShape struct {
	pre, wait, post []string
	trigger         string // InterProcessStimulus triggered
	waitMode        WaitMode
	waited, cleared bool
	setEventFor     string
}

func (im *importer) taskItems(where string, items []axItem, sh *taskShape) error {
	for i, it := range items {
		iw := fmt.Sprintf("%s/items[%d]", where, i)
		if err := checkOther(iw, it.Other); err != nil {
			return err
		}
		switch xsiType(it.Type) {
		case "Group":
			if err := im.taskItems(iw, it.Items, sh); err != nil {
				return err
			}
		case "RunnableCall":
			rn := refName(it.Runnable)
			if im.sys.Runnable(rn) == nil {
				return inputErrorf(iw, "runnable %q is not defined", rn)
			}
			switch {
			case sh.trigger == "":
				sh.pre = append(sh.pre, rn)
			case sh.waited && !sh.cleared && sh.waitMode == WaitPassive:
				sh.wait = append(sh.wait, rn)
			case sh.waited:
				sh.post = append(sh.post, rn)
			default:
				return inputErrorf(iw, "a runnable between an InterProcessTrigger and its WaitEvent is not supported")
			}
		case "InterProcessTrigger":
			if sh.trigger != "" {
				return inputErrorf(iw, "a task that triggers more than one GPU task is not supported")
			}
			sh.trigger = refName(it.Stimulus)
		case "WaitEvent":
			if sh.trigger == "" {
				return inputErrorf(iw, "a WaitEvent without a preceding InterProcessTrigger is not supported")
			}
			switch it.Waiting {
			case "active":
				sh.waitMode = WaitActive
			case "passive":
				sh.waitMode = WaitPassive
			default:
				return inputErrorf(iw, "waitingBehaviour %q is not supported (active or passive)", it.Waiting)
			}
			sh.waited = true
		case "ClearEvent":
			sh.cleared = true
		case "SetEvent":
			sh.setEventFor = refName(it.Process)
		default:
			return inputErrorf(iw, "activity item %q is not supported in a task (RunnableCall, InterProcessTrigger, WaitEvent, ClearEvent, SetEvent, Group)", it.Type)
		}
	}
	return nil
}

func (im *importer) tasks() error {
	shapes := map[string]*taskShape{}
	for _, t := range im.root.SW.Tasks {
		where := "swModel/tasks[" + t.Name + "]"
		if err := checkOther(where, t.Other); err != nil {
			return err
		}
		if t.Preemption != "" && t.Preemption != "preemptive" {
			return inputErrorf(where, "preemption=%q is not supported (preemptive)", t.Preemption)
		}
		g, err := graphOf(where, t.ActivityGraph, t.CallGraph)
		if err != nil {
			return err
		}
		sh := &taskShape{}
		if g != nil {
			if err := im.taskItems(where, g.Items, sh); err != nil {
				return err
			}
		}
		if sh.trigger != "" && !sh.waited {
			return inputErrorf(where, "a task that triggers GPU work without waiting for it is not supported")
		}
		shapes[t.Name] = sh
		task := Task{Name: t.Name, Runnables: sh.pre}
		stims := refNames(t.Stimuli)
		if len(stims) != 1 {
			return inputErrorf(where, "a task needs exactly one stimulus, found %d", len(stims))
		}
		if p, ok := im.periods[stims[0]]; ok {
			task.Period, err = amaltheaDuration("stimuliModel/stimuli["+p.Name+"]/recurrence", p.Recurrence)
			if err != nil {
				return err
			}
			if task.Period <= 0 {
				return inputErrorf("stimuliModel/stimuli["+p.Name+"]/recurrence", "period must be positive")
			}
			if p.Offset != nil {
				if task.Offset, err = amaltheaDuration("stimuliModel/stimuli["+p.Name+"]/offset", p.Offset); err != nil {
					return err
				}
			}
		} else if _, ok := im.stimTask[stims[0]]; ok {
			if prev := im.stimTask[stims[0]]; prev != "" {
				return inputErrorf(where, "stimulus %q activates two tasks (%s and %s)", stims[0], prev, t.Name)
			}
			im.stimTask[stims[0]] = t.Name
		} else {
			return inputErrorf(where, "stimulus %q is not defined", stims[0])
		}
		im.sys.Tasks = append(im.sys.Tasks, task)
	}
	// Link offloading tasks with the GPU tasks they trigger.
	for i := range im.sys.Tasks {
		t := &im.sys.Tasks[i]
		sh := shapes[t.Name]
		if sh.trigger == "" {
			continue
		}
		gpuName, ok := im.stimTask[sh.trigger]
		if !ok {
			return inputErrorf("swModel/tasks["+t.Name+"]", "InterProcessTrigger names stimulus %q, which is not an InterProcessStimulus", sh.trigger)
		}
		if gpuName == "" {
			return inputErrorf("swModel/tasks["+t.Name+"]", "InterProcessTrigger names stimulus %q, which activates no task", sh.trigger)
		}
		gpu := im.sys.Task(gpuName)
		if gpu.TriggeredBy != "" {
			return inputErrorf("swModel/tasks["+gpuName+"]", "triggered by two tasks (%s and %s)", gpu.TriggeredBy, t.Name)
		}
		gpu.TriggeredBy = t.Name
		t.Offload = &Offload{GPUTask: gpuName, Wait: sh.waitMode, WaitRunnables: sh.wait, Post: sh.post}
		if se := shapes[gpuName].setEventFor; se != "" && se != t.Name {
			im.warn("swModel/tasks["+gpuName+"]", "sets the event of %s, but is triggered by %s: taken as signalling %s", se, t.Name, t.Name)
		}
	}
	for _, t := range im.sys.Tasks {
		if t.Period == 0 && t.TriggeredBy == "" {
			return inputErrorf("swModel/tasks["+t.Name+"]", "activated by an InterProcessStimulus that no task triggers")
		}
	}
	return nil
}

func normalizeName(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), "_", "")
}

// bestTaskFor finds the periodic task a requirement name such as
// "Deadline_Task_Lane_Detection" refers to: the task whose name contains the
// name's last part with the fewest other characters.
func (im *importer) bestTaskFor(reqName string) string {
	token := reqName
	for _, p := range []string{"Deadline_Task_", "Deadline_", "Requirement_"} {
		token = strings.TrimPrefix(token, p)
	}
	token = normalizeName(token)
	best, bestLeft := "", -1
	for _, t := range im.sys.Tasks {
		if t.Period == 0 {
			continue
		}
		n := normalizeName(t.Name)
		if token == "" || !strings.Contains(n, token) {
			continue
		}
		left := len(n) - len(token)
		if bestLeft < 0 || left < bestLeft {
			best, bestLeft = t.Name, left
		}
	}
	return best
}

func (im *importer) constraints() error {
	c := im.root.Constraints
	if c == nil {
		return nil
	}
	if err := checkOther("constraintsModel", c.Other, "timingConstraints", "affinityConstraints", "dataAgeConstraints", "dataCoherencyGroups", "dataStabilityGroups", "physicalSectionConstraints"); err != nil {
		return err
	}
	type req struct {
		name, process, best string
		limit               Duration
	}
	var reqs []req
	for _, r := range c.Requirements {
		where := "constraintsModel/requirements[" + r.Name + "]"
		if xsiType(r.Type) != "ProcessRequirement" || r.Limit == nil || r.Limit.Metric != "ResponseTime" || r.Limit.LimitType != "UpperLimit" {
			im.warn(where, "only upper limits on a process's response time are used; this requirement is ignored")
			continue
		}
		d, err := amaltheaDuration(where+"/limitValue", r.Limit.LimitValue)
		if err != nil {
			return err
		}
		p := refName(r.Process)
		if im.sys.Task(p) == nil {
			return inputErrorf(where, "process %q is not defined", p)
		}
		reqs = append(reqs, req{name: r.Name, process: p, best: im.bestTaskFor(r.Name), limit: d})
	}
	// A pair of requirements whose names point at each other's process are
	// swapped references (the challenge model's Detection and Lane detection).
	for i := range reqs {
		for j := i + 1; j < len(reqs); j++ {
			a, b := &reqs[i], &reqs[j]
			if a.best == b.process && b.best == a.process && a.best != a.process {
				im.warn("constraintsModel/requirements["+a.name+"]", "references %s and %s references %s: the names say the references are swapped; corrected (%s gets %s, %s gets %s)",
					a.process, b.name, b.process, a.best, a.limit, b.best, b.limit)
				a.process, b.process = a.best, b.best
			}
		}
	}
	for _, r := range reqs {
		if r.best != "" && r.best != r.process {
			im.warn("constraintsModel/requirements["+r.name+"]", "its name suggests task %s but it references %s; kept as written", r.best, r.process)
		}
		t := im.sys.Task(r.process)
		if t.Requirement != 0 && t.Requirement != r.limit {
			im.warn("constraintsModel/requirements["+r.name+"]", "a second requirement on %s; the smaller one (%s) is kept", r.process, min(t.Requirement, r.limit))
			r.limit = min(t.Requirement, r.limit)
		}
		t.Requirement = r.limit
	}
	// Event chains become chains when the model has them.
	events := map[string]string{}
	for _, e := range im.root.SW.Events {
		if ent := refName(e.Entity); ent != "" {
			switch xsiType(e.Type) {
			case "ProcessEvent":
				events[e.Name] = ent
			case "RunnableEvent":
				for _, t := range im.sys.Tasks {
					for _, rn := range t.AllRunnables() {
						if rn == ent {
							events[e.Name] = t.Name
						}
					}
				}
			}
		}
	}
	for _, ec := range c.EventChains {
		where := "constraintsModel/eventChains[" + ec.Name + "]"
		var tasks []string
		add := func(ev string) error {
			if ev == "" {
				return nil
			}
			t, ok := events[refName(ev)]
			if !ok {
				return inputErrorf(where, "event %q is not a ProcessEvent or RunnableEvent of a known task", refName(ev))
			}
			if len(tasks) == 0 || tasks[len(tasks)-1] != t {
				tasks = append(tasks, t)
			}
			return nil
		}
		var walk func(stim, resp string, entries []axChainEntry) error
		walk = func(stim, resp string, entries []axChainEntry) error {
			if err := add(stim); err != nil {
				return err
			}
			for _, e := range entries {
				s, r, sub := e.Stimulus, e.Response, append(append([]axChainEntry(nil), e.Segments...), e.Items...)
				if e.EventChain != nil {
					s, r = e.EventChain.Stimulus, e.EventChain.Response
					sub = append(append(sub, e.EventChain.Segments...), e.EventChain.Items...)
				}
				if err := walk(s, r, sub); err != nil {
					return err
				}
			}
			return add(resp)
		}
		if err := walk(ec.Stimulus, ec.Response, append(append([]axChainEntry(nil), ec.Segments...), ec.Items...)); err != nil {
			return err
		}
		if len(tasks) < 2 {
			im.warn(where, "the chain names fewer than two tasks; ignored")
			continue
		}
		im.sys.Chains = append(im.sys.Chains, Chain{Name: ec.Name, Tasks: tasks})
	}
	return nil
}

func (im *importer) mapping() error {
	m := im.root.Mapping
	if m == nil {
		im.warn("Amalthea", "the model has no mapping: there is no default mapping")
		return nil
	}
	if err := checkOther("mappingModel", m.Other, "memoryMapping", "isrAllocation", "runnableAllocation", "physicalSectionMapping"); err != nil {
		return err
	}
	owns := map[string][]string{}
	for _, sa := range m.SchedulerAllocations {
		owns[refName(sa.Scheduler)] = refNames(sa.Responsibility)
	}
	type alloc struct {
		unit     string
		priority *int
		slice    Duration
	}
	allocs := map[string]alloc{}
	for _, ta := range m.TaskAllocations {
		name := refName(ta.Task)
		where := "mappingModel/taskAllocation[" + name + "]"
		t := im.sys.Task(name)
		if t == nil {
			return inputErrorf(where, "task %q is not defined", name)
		}
		sched := refName(ta.Scheduler)
		if _, ok := im.schedulers[sched]; !ok {
			return inputErrorf(where, "scheduler %q is not defined", sched)
		}
		cores := refNames(ta.Affinity)
		for _, c := range cores {
			if im.sys.Unit(c) == nil {
				return inputErrorf(where, "affinity names unit %q, which is not defined", c)
			}
		}
		var a alloc
		switch {
		case len(cores) == 0 && len(owns[sched]) > 0:
			a.unit = owns[sched][0]
			im.warn(where, "no affinity: placed on %s, the first unit of scheduler %s", a.unit, sched)
		case len(cores) == 0:
			return inputErrorf(where, "no affinity and scheduler %s owns no unit", sched)
		default:
			a.unit = cores[0]
			if len(cores) > 1 {
				im.warn(where, "affinity names %d units (%s): placed on the first, %s", len(cores), strings.Join(cores, ", "), a.unit)
			}
		}
		if !contains(owns[sched], a.unit) {
			im.warn(where, "allocated to scheduler %s, which does not own %s (it owns %s): the affinity wins, %s runs on %s",
				sched, a.unit, strings.Join(owns[sched], ", "), name, a.unit)
		}
		if ta.Params != nil && ta.Params.Priority != "" {
			p, err := parseInt(where+"/schedulingParameters", "priority", ta.Params.Priority)
			if err != nil {
				return err
			}
			pi := int(p)
			a.priority = &pi
		}
		for _, e := range ta.Extensions {
			if strings.HasPrefix(e.Key, "TimeSlice") {
				d, err := ParseDuration(e.Value)
				if err != nil {
					return inputErrorf(where+"/parameterExtensions["+e.Key+"]", "%v", err)
				}
				a.slice = d
			}
		}
		if _, dup := allocs[name]; dup {
			return inputErrorf(where, "task %s is allocated twice", name)
		}
		allocs[name] = a
	}
	mp := &im.sys.Mapping
	for _, t := range im.sys.Tasks {
		a, ok := allocs[t.Name]
		where := "mappingModel/taskAllocation[" + t.Name + "]"
		if t.IsGPUTask() {
			if !ok {
				im.warn("mappingModel", "GPU task %s is not allocated: the default mapping leaves it out", t.Name)
				continue
			}
			u := im.sys.Unit(a.unit)
			if u.Type == GPU {
				if a.slice > 0 {
					mp.TimeSlices = append(mp.TimeSlices, TimeSliceSet{Task: t.Name, Slice: a.slice})
				}
				mp.Units = append(mp.Units, Placement{Task: t.Name, Unit: a.unit})
				continue
			}
			// A GPU task on a core is merged with its offloading task.
			pre := allocs[t.TriggeredBy]
			if pre.unit != "" && pre.unit != a.unit {
				im.warn(where, "runs on core %s while its offloading task %s is on %s: merged into one task on %s", a.unit, t.TriggeredBy, pre.unit, a.unit)
			}
			prio := a.priority
			if prio == nil {
				prio = pre.priority
			}
			mp.Units = append(mp.Units, Placement{Task: t.Name, Unit: a.unit, Priority: prio})
			continue
		}
		if !ok {
			im.warn("mappingModel", "task %s is not allocated: the default mapping leaves it out", t.Name)
			continue
		}
		if t.Offload != nil {
			if g, ok := allocs[t.Offload.GPUTask]; ok && im.sys.Unit(g.unit).Type == CPU {
				continue // merged into the GPU task's placement above
			}
		}
		if im.sys.Unit(a.unit).Type != CPU {
			return inputErrorf(where, "CPU task %s is allocated to %s, which is not a CPU core", t.Name, a.unit)
		}
		mp.Units = append(mp.Units, Placement{Task: t.Name, Unit: a.unit, Priority: a.priority})
	}
	im.priorityWarnings()
	return nil
}

func (im *importer) priorityWarnings() {
	byUnit := map[string]map[int][]string{}
	for _, p := range im.sys.Mapping.Units {
		if p.Priority == nil || im.sys.Unit(p.Unit).Type != CPU {
			continue
		}
		if byUnit[p.Unit] == nil {
			byUnit[p.Unit] = map[int][]string{}
		}
		byUnit[p.Unit][*p.Priority] = append(byUnit[p.Unit][*p.Priority], p.Task)
	}
	for _, u := range im.sys.Units {
		prios := make([]int, 0, len(byUnit[u.Name]))
		for p := range byUnit[u.Name] {
			prios = append(prios, p)
		}
		sort.Ints(prios)
		for _, prio := range prios {
			if tasks := byUnit[u.Name][prio]; len(tasks) > 1 {
				im.warn("mappingModel/"+u.Name, "tasks %s share priority %d: priorities are assigned by Audsley's optimal priority assignment by default (the model's priorities are an option; with it, equal priorities interfere with each other)",
					strings.Join(tasks, ", "), prio)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
