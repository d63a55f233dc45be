package evaluate

import (
	"errors"
	"fmt"
	"sort"

	"github.com/hetmap/hetmap/rta/sat"

	"github.com/hetmap/hetmap/chains"
	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
	"github.com/hetmap/hetmap/rta/gpu"
)

// Default kernel geometry: hetmap's convention where the configuration gives
// none (package documentation, "Kernel geometry").
const (
	// DefaultThreadsPerBlock is the block size of a kernel without a
	// configured geometry.
	DefaultThreadsPerBlock = 256
	// DefaultMaxBlockTime is the longest block of a kernel without a
	// configured geometry: it is split into as many waves as it takes to keep
	// one block at or under this time (1 ms, in picoseconds).
	DefaultMaxBlockTime = int64(configs.Millisecond)
)

// maxCacheEntries bounds the GPU-side cache; when it is full it starts over.
const maxCacheEntries = 1 << 16

// taskKind is what a task of the model is, independent of the mapping.
type taskKind uint8

const (
	kindPeriodic   taskKind = iota // a periodic CPU task
	kindOffloading                 // a periodic task that offloads a GPU task
	kindGPU                        // a GPU task, activated by its offloading task
)

// cpuCost is the mapping-independent part of a task's execution on one CPU
// unit: for a periodic task all its runnables; for an offloading task its
// pre- and post-processing (wait* holds the runnables that run only when it
// waits passively); for a GPU task the merged variant (its kernel with the CPU
// ticks, reading what the pre-processing read and writing what the
// post-processing wrote).
type cpuCost struct {
	ok       bool  // the task can run on the unit
	lines    int64 // DRAM lines read and written
	phases   int64 // memory phases: runnables' read and write phases that move a line
	exec     int64 // Σ upper-bound ticks → ps, rounded up per runnable
	bestExec int64 // Σ lower-bound ticks → ps

	waitLines, waitPhases, waitExec, waitBestExec int64
}

// taskInfo is the mapping-independent description of one task of the model.
type taskInfo struct {
	name     string
	kind     taskKind
	period   int64 // for a GPU task: its offloading task's
	deadline int64 // 0: none (the analyses then use the period)
	offset   int64
	gpu      int // offloading or GPU task: index into Evaluator.gpus; else -1
	pre      int // GPU task: task index of its offloading task; else -1
	cpu      []cpuCost
	// jitter is the task's own release jitter (its stimulus's), activator
	// the task whose InterProcessTrigger releases it (-1: none; see
	// activation.go), and let marks a LET task (optimizer/chains.go).
	jitter    int64
	activator int
	let       bool
}

// gpuInfo is the mapping-independent description of one GPU task.
type gpuInfo struct {
	task, pre                 int // task indices
	copyInLines, copyOutLines int64
	kernel, kernelBest        int64 // isolated kernel time (worst, best), ps
	blockTime                 int64
	blocks, threads           int
	sharedMem, registers      int // per block
	period                    int64
	defaultAsync              bool
	defaultSlice              int64
	slices                    bool  // the model gives this task a time slice
	jitter                    int64 // release jitter of the GPU jobs, ps
}

// unitInfo describes a processing unit.
type unitInfo struct {
	name, kind string
	gpu        bool
	freq       int64
	mem        memory.CoreParams // CPU cores only
}

// Evaluator evaluates mappings of one configuration. Build it once with
// NewEvaluator: everything that does not depend on the mapping (label lines,
// tick conversions, copy sizes, kernel geometries, the merged variants of the
// GPU tasks) is compiled there into a read-only model, so that Evaluate only
// combines numbers. An Evaluator keeps, beside the shared model, scratch
// buffers and a cache of GPU-side results; it must not be used by two
// goroutines at once (Clone gives each goroutine its own scratch over the
// same model, as a regexp.Regexp shares its compiled program between the
// machines of its matches; With gives it a worker's Options). Model is the
// read-only view of that compiled model.
type Evaluator struct {
	// compiled is the model of the configuration, shared by every clone
	// and never written after NewEvaluator.
	*compiled
	// testHooks are settings for tests, which Clone copies.
	testHooks
	// maxLimit is the iteration limit of a miss (Options.Limit), which Clone
	// copies.
	maxLimit rta.Limit
	// noMemo turns the memo off (tests' SetMemo; a clone has it on).
	noMemo bool
	// refuteFirst: Evaluate tries the relaxed test first (Options.RefuteFirst;
	// a clone has it off).
	refuteFirst bool
	// stop, when set, says that the run is interrupted: PriorityVariants
	// and JointOrders look at it between their analyses and stop,
	// incomplete. A search sets it on its own clones (Options.Stop).
	stop func() bool
	// analyses counts the evaluations (complete and partial) this
	// evaluator made, so that a search can account for what its
	// constructions spent.
	analyses int
	// scratch holds this evaluator's buffers, caches and analyzers.
	scratch
}

// compiled is what NewEvaluator computes from a configuration and nothing
// changes afterwards: the units, the tasks with their costs on every unit,
// the GPU tasks, the policies and the chains' plans of requirements. Every
// clone of an Evaluator reads the same one.
type compiled struct {
	cfg     *configs.Config
	units   []unitInfo
	gpuUnit int   // index of the GPU unit, -1 if none
	cores   []int // the indices of the CPU units, in order
	tasks   []taskInfo
	gpus    []gpuInfo
	ce      memory.CopyEngineParams
	dev     gpu.Device
	policy  rta.Policy
	model   bool         // priorities: model
	count   memory.Count // analysis.contention
	// contention is analysis.contention as configured (count translated).
	contention configs.ContentionCount
	fifo       bool
	fixedC     int  // -1: sound convention
	fixedCE    int8 // -1: sound convention, else 0/1
	chains     [][]int
	// chainObjective is the configured chain latency.
	chainObjective chains.Objective
	// activated: some task is activated by another one (activation.go);
	// reqs are the chains' latency requirements (requirements.go).
	activated bool
	reqs      []requirementSpec
	// dmOrder lists the tasks by deadline (the period where there is
	// none), then period, then index: rta's deadline-monotonic order.
	dmOrder []int
	// notes says what the evaluator chose in place of the configuration
	// (Notes).
	notes []string
}

// testHooks change what an Evaluator does, for tests only.
type testHooks struct {
	// partialByChallenge makes EvaluatePartial judge a partial mapping by
	// the challenge count even under the refined ones: an unsound cut
	// that the exhaustive search's tests must be able to catch.
	partialByChallenge bool
	// noVariants turns the priority-order variants off.
	noVariants bool
	// jointBroken breaks JointOrders on purpose: each core keeps only its
	// first order that passes the relaxed test; noDecide turns the
	// exhaustive search's decide off.
	jointBroken, noDecide bool
}

// scratch is an Evaluator's own state between and during evaluations:
// buffers, the analyzers, the memo and the GPU-side cache.
type scratch struct {
	// chainBuf is the scratch members of chainObjectives.
	chainBuf []chains.Member
	// chainPlans keep each chain's plan of its job-level values (its
	// periods do not depend on the mapping).
	chainPlans []chains.Planner
	// memo remembers core results (see memo.go).
	memo      map[uint64]int32 // key hash → index into memoCores
	memoCores []coreMemo
	memoTasks chunks[taskMemo]
	memoRTA   chunks[rta.Task] // per memoTasks entry, the task as rta analyses it (refined counts)
	// wmemo remembers the cores' windowed analyses (see windowmemo.go).
	wmemo windowMemo

	// per evaluation
	onCore    [][]int        // per unit: task indices
	coreTasks [][]rta.Task   // per unit: its tasks for rta, in onCore order
	coreOut   [][]rta.Result // per unit: their results
	an        rta.Analyzer
	ref       refineScratch // the refined counts (refine.go)
	gpuTasks  []gpu.Task
	gpuIdx    []int // gpu index of gpuTasks[k]
	gpuOut    []gpu.Response
	fifoAn    gpu.FIFOAnalyzer
	sliceAn   gpu.TimeSliceAnalyzer
	key       []byte
	vars      variantScratch   // PriorityVariants
	joint     jointScratch     // JointOrders
	margin    marginScratch    // Margins
	causes    causeScratch     // settleCauses
	cache     map[string]int32 // GPU configuration → offset into cacheR
	cacheR    []gpu.Response   // len(gpus) per entry; WorstOrder always nil
}

// NewEvaluator prepares the evaluation of mappings of cfg, a validated
// configuration (configs.Load, LoadFile or Default). The configuration must
// not change while the Evaluator is in use. It compiles, in this order,
// the analysis settings, the units, the tasks' timing and costs, the GPU
// tasks, the chains, the activations and requirements and the
// deadline-monotonic order; the first error found is returned.
func NewEvaluator(cfg *configs.Config) (*Evaluator, error) {
	if cfg == nil || cfg.System == nil {
		return nil, errors.New("optimizer: no system")
	}
	s := cfg.System
	a := cfg.Analysis
	a.Defaults()
	e := &Evaluator{compiled: &compiled{cfg: cfg, gpuUnit: -1, fixedC: -1, fixedCE: -1}, maxLimit: rta.LimitNone}
	if err := e.compileSettings(&a); err != nil {
		return nil, err
	}
	if err := e.compileUnits(s); err != nil {
		return nil, err
	}
	lines, err := labelLines(s)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(s.Tasks))
	for i, t := range s.Tasks {
		index[t.Name] = i
	}
	if err := e.compileTasks(s, index); err != nil {
		return nil, err
	}
	if err := e.compileCosts(s, lines); err != nil {
		return nil, err
	}
	if err := e.compileGPUTasks(s, cfg, lines, index); err != nil {
		return nil, err
	}
	// The execution demand scaled (analysis.execution_scale), then the
	// GPU jobs' release jitter, which rests on the best cases.
	if ppm := cfg.Analysis.ExecutionScalePPM(); ppm != scaleOne {
		e.scaleInPlace(scaling{ppm: ppm, task: -1})
	}
	e.initGPUJitter()
	if err := e.compileChains(s, index); err != nil {
		return nil, err
	}
	if err := e.compileActivation(s, index); err != nil {
		return nil, err
	}
	e.initRequirements(s)
	e.compileDMOrder()
	e.initScratch()
	return e, nil
}

// compileSettings decides how the analysis runs, from the configuration's
// analysis section (defaults applied): the priority policy, the GPU model,
// the contention values fixed by the configuration and the contention
// count.
func (e *Evaluator) compileSettings(a *configs.Analysis) error {
	switch a.Priorities {
	case configs.PrioritiesOPA:
		e.policy = rta.OPA
	case configs.PrioritiesDM:
		e.policy = rta.DeadlineMonotonic
	case configs.PrioritiesRM:
		e.policy = rta.RateMonotonic
	case configs.PrioritiesModel:
		e.policy, e.model = rta.Explicit, true
	default:
		return fmt.Errorf("analysis.priorities: %q is not a priority assignment", a.Priorities)
	}
	switch a.GPUModel {
	case configs.GPUModelFIFO:
		e.fifo = true
	case configs.GPUModelTimeSlice:
	default:
		return fmt.Errorf("analysis.gpu_model: %q is not a GPU model", a.GPUModel)
	}
	if a.InterferingCores != nil {
		e.fixedC = *a.InterferingCores
	}
	if a.CopyEngineActive != nil {
		e.fixedCE = 0
		if *a.CopyEngineActive {
			e.fixedCE = 1
		}
	}
	switch a.Contention {
	case configs.ContentionChallenge:
		e.count = memory.ChallengeCount
	case configs.ContentionRefined:
		e.count = memory.RefinedCount
	case configs.ContentionRequest:
		e.count = memory.RequestCount
	default:
		return fmt.Errorf("analysis.contention: %q is not a contention count", a.Contention)
	}
	e.contention = a.Contention
	return nil
}

// compileUnits decides what every unit is: the copy engine's memory
// parameters, the one GPU with its device, and every core's memory
// parameters; a fixed count of interfering cores must leave a core.
func (e *Evaluator) compileUnits(s *configs.System) error {
	e.ce = memory.CopyEngineParams{Baseline: int64(s.Memory.CopyEngine.Baseline), PerCore: int64(s.Memory.CopyEngine.PerCore)}
	if err := e.ce.Validate(); err != nil {
		return fmt.Errorf("memory.copy_engine: %w", err)
	}
	for i, u := range s.Units {
		ui := unitInfo{name: u.Name, kind: u.Kind, gpu: u.Type == configs.GPU, freq: int64(u.Frequency)}
		if ui.gpu {
			if e.gpuUnit >= 0 {
				return fmt.Errorf("units: %s and %s are both GPUs: hetmap analyses one GPU", s.Units[e.gpuUnit].Name, u.Name)
			}
			e.gpuUnit = i
			g := u.GPU
			if g == nil {
				return fmt.Errorf("units[%d]: the GPU %s has no resources", i, u.Name)
			}
			dev := gpu.TX2()
			dev.SMs, dev.ThreadsPerSM = g.SMs, g.ThreadsPerSM
			dev.SharedMemPerSM, dev.RegistersPerSM = int(g.SharedMemoryPerSM), g.RegistersPerSM
			if err := dev.Validate(); err != nil {
				return fmt.Errorf("units[%d] (%s): %w", i, u.Name, err)
			}
			e.dev = dev
		} else {
			e.cores = append(e.cores, i)
			cm := s.CoreMemory(u.Kind)
			if cm == nil {
				return fmt.Errorf("memory.cores: no contention parameters for core kind %s (unit %s)", u.Kind, u.Name)
			}
			ui.mem = memory.CoreParams{Baseline: int64(cm.Baseline), PerCore: int64(cm.PerCore), CopyEngine: int64(cm.CopyEngine)}
			if err := ui.mem.Validate(); err != nil {
				return fmt.Errorf("memory.cores[%s]: %w", u.Kind, err)
			}
		}
		e.units = append(e.units, ui)
	}
	if e.fixedC > e.cpuCount()-1 {
		return fmt.Errorf("analysis.interfering_cores: %d is more than the %d other cores", e.fixedC, e.cpuCount()-1)
	}
	return nil
}

// labelLines returns the DRAM lines of every label, by name.
func labelLines(s *configs.System) (map[string]int64, error) {
	lineSize := int64(s.Memory.LineSize)
	lines := make(map[string]int64, len(s.Labels))
	for _, l := range s.Labels {
		n, err := memory.Lines(int64(l.Size), lineSize)
		if err != nil {
			return nil, fmt.Errorf("label %s: %w", l.Name, err)
		}
		lines[l.Name] = n
	}
	return lines, nil
}

// compileTasks decides what every task is (periodic, offloading or GPU
// task) and its timing: period, deadline and offset, a GPU task's those of
// its offloading task, which must be defined; a period must be positive
// and bounded, a deadline at most the period.
func (e *Evaluator) compileTasks(s *configs.System, index map[string]int) error {
	e.tasks = make([]taskInfo, len(s.Tasks))
	for i := range s.Tasks {
		t := &s.Tasks[i]
		ti := &e.tasks[i]
		ti.name, ti.gpu, ti.pre = t.Name, -1, -1
		ti.cpu = make([]cpuCost, len(s.Units))
		switch {
		case t.IsGPUTask():
			ti.kind = kindGPU
			pre := s.Task(t.TriggeredBy)
			if pre == nil {
				return fmt.Errorf("task %s: its offloading task %s is not defined", t.Name, t.TriggeredBy)
			}
			ti.pre = index[pre.Name]
			ti.period, ti.deadline, ti.offset = int64(pre.Period), int64(pre.Deadline), int64(pre.Offset)
		case t.Offload != nil:
			ti.kind = kindOffloading
			ti.period, ti.deadline, ti.offset = int64(t.Period), int64(t.Deadline), int64(t.Offset)
		default:
			ti.kind = kindPeriodic
			ti.period, ti.deadline, ti.offset = int64(t.Period), int64(t.Deadline), int64(t.Offset)
		}
		if ti.period <= 0 || ti.period > rta.MaxTime {
			return fmt.Errorf("task %s: period %s is not positive or too long", t.Name, configs.Duration(ti.period))
		}
		if ti.deadline > ti.period {
			return fmt.Errorf("task %s: deadline %s exceeds the period %s", t.Name, configs.Duration(ti.deadline), configs.Duration(ti.period))
		}
	}
	return nil
}

// compileCosts decides every task's cost on every CPU core (cpuCost): a
// periodic task's runnables; an offloading task's pre- and
// post-processing, with the runnables after a passive wait apart; a GPU
// task's merged variant.
func (e *Evaluator) compileCosts(s *configs.System, lines map[string]int64) error {
	for i := range s.Tasks {
		t := &s.Tasks[i]
		ti := &e.tasks[i]
		for u := range s.Units {
			ui := &e.units[u]
			if ui.gpu {
				continue
			}
			var c cpuCost
			var err error
			switch ti.kind {
			case kindPeriodic:
				c, err = runCost(s, lines, t.Runnables, ui)
			case kindOffloading:
				c, err = runCost(s, lines, append(append([]string(nil), t.Runnables...), t.Offload.Post...), ui)
				if err == nil && c.ok {
					var w cpuCost
					w, err = runCost(s, lines, t.Offload.WaitRunnables, ui)
					if len(t.Offload.WaitRunnables) > 0 && !w.ok {
						c.ok = false
					}
					c.waitLines, c.waitPhases, c.waitExec, c.waitBestExec = w.lines, w.phases, w.exec, w.bestExec
				}
			case kindGPU:
				c, err = mergedCost(s, lines, t, s.Task(t.TriggeredBy), ui)
			}
			if err != nil {
				return fmt.Errorf("task %s on %s: %w", t.Name, ui.name, err)
			}
			ti.cpu[u] = c
		}
	}
	return nil
}

// compileGPUTasks describes every GPU task (gpuTask) and links it and its
// offloading task to it.
func (e *Evaluator) compileGPUTasks(s *configs.System, cfg *configs.Config, lines map[string]int64, index map[string]int) error {
	for i := range s.Tasks {
		t := &s.Tasks[i]
		if !t.IsGPUTask() {
			continue
		}
		gi, err := e.gpuTask(s, cfg, lines, i, index)
		if err != nil {
			return err
		}
		e.tasks[i].gpu = len(e.gpus)
		e.tasks[gi.pre].gpu = len(e.gpus)
		e.gpus = append(e.gpus, gi)
	}
	return nil
}

// compileChains decides every chain's task indices (each task must be
// defined) and the configured chain latency.
func (e *Evaluator) compileChains(s *configs.System, index map[string]int) error {
	for _, c := range s.Chains {
		var idx []int
		for _, n := range c.Tasks {
			k, ok := index[n]
			if !ok {
				return fmt.Errorf("chain %s: task %q is not defined", c.Name, n)
			}
			idx = append(idx, k)
		}
		e.chains = append(e.chains, idx)
	}
	e.chainObjective = ChainObjective(e.cfg.Analysis.ChainLatency)
	return nil
}

// compileActivation decides which tasks other tasks activate
// (initActivation) and, where some are, falls back to the challenge count
// with a note: the refined rounds cannot take activation jitters yet.
func (e *Evaluator) compileActivation(s *configs.System, index map[string]int) error {
	if err := e.initActivation(s, index); err != nil {
		return err
	}
	if e.activated && e.count != memory.ChallengeCount {
		// The refined rounds iterate downward from sound bounds, the
		// activation jitters upward from the tasks' own: combining them
		// soundly needs the jitters re-read in every round, which is not
		// built yet. The challenge count is sound for both.
		e.notes = append(e.notes, fmt.Sprintf("analysis.contention is %s, but the system has tasks activated by other tasks; their jitters are iterated under the challenge count, which is used for the whole analysis", e.count))
		e.count = memory.ChallengeCount
	}
	return nil
}

// compileDMOrder decides rta's deadline-monotonic order of the tasks: by
// deadline (the period where there is none), then period, then index.
func (e *Evaluator) compileDMOrder() {
	e.dmOrder = make([]int, len(e.tasks))
	for i := range e.dmOrder {
		e.dmOrder[i] = i
	}
	dl := func(i int) int64 {
		if d := e.tasks[i].deadline; d > 0 {
			return d
		}
		return e.tasks[i].period
	}
	sort.SliceStable(e.dmOrder, func(x, y int) bool {
		i, j := e.dmOrder[x], e.dmOrder[y]
		if dl(i) != dl(j) {
			return dl(i) < dl(j)
		}
		return e.tasks[i].period < e.tasks[j].period
	})
}

func (e *Evaluator) cpuCount() int {
	n := 0
	for _, u := range e.units {
		if !u.gpu {
			n++
		}
	}
	return n
}

func (e *Evaluator) initScratch() {
	n := len(e.tasks)
	e.onCore = make([][]int, len(e.units))
	for u := range e.onCore {
		e.onCore[u] = make([]int, 0, n)
	}
	e.coreTasks = make([][]rta.Task, len(e.units))
	e.coreOut = make([][]rta.Result, len(e.units))
	for u := range e.units {
		e.coreTasks[u] = make([]rta.Task, 0, n)
		e.coreOut[u] = make([]rta.Result, n)
	}
	e.ref.init(e)
	e.wmemo.init(len(e.units), max(n, len(e.gpus)))
	for _, u := range e.cores {
		e.wmemo.seeds[u] = seedOf(u, e.units[u].mem)
	}
	e.gpuTasks = make([]gpu.Task, 0, len(e.gpus))
	e.gpuIdx = make([]int, 0, len(e.gpus))
	e.gpuOut = make([]gpu.Response, len(e.gpus))
	e.chainPlans = make([]chains.Planner, len(e.chains))
	e.key = make([]byte, 0, 1+9*len(e.gpus))
	e.cache = make(map[string]int32)
	e.memo = make(map[uint64]int32)
	e.resetMemo()
	e.fifoAn = gpu.FIFOAnalyzer{Device: e.dev}
	e.sliceAn = gpu.TimeSliceAnalyzer{Device: e.dev}
	// Warm the analyzers' buffers so that steady-state evaluations do not
	// allocate: analyse every task alone on a core of each kind, and the
	// full GPU set.
	warm := make([]rta.Task, n)
	for i := range warm {
		warm[i] = rta.Task{C: 1, T: int64(n) * 4, D: int64(n) * 4}
	}
	_, _ = e.an.Analyze(rta.OPA, warm, e.coreOut[0]) // sizes the analyzer's buffers
}

// Clone returns an Evaluator for the same configuration that shares the
// compiled, read-only model but has its own scratch buffers and cache, for
// use in another goroutine. It keeps the limit (Options.Limit) and the test
// hooks; the memo is on and no stop is set.
func (e *Evaluator) Clone() *Evaluator {
	c := &Evaluator{compiled: e.compiled, testHooks: e.testHooks, maxLimit: e.maxLimit}
	c.initScratch()
	return c
}

// stopped reports whether the run this evaluator serves is interrupted.
func (e *Evaluator) stopped() bool { return e.stop != nil && e.stop() }

// Notes says, in plain words, where the evaluator analyses otherwise than
// the configuration asks (for example a contention count it cannot combine
// with the system); the command line prints them.
func (e *Model) Notes() []string { return e.notes }

// Config returns the configuration the Evaluator was built for.
func (e *Model) Config() *configs.Config { return e.cfg }

// setLimit sets Options.Limit of an evaluator in use (a margin's probes
// need the verdicts only) and empties the memo, whose results depend on it.
func (e *Evaluator) setLimit(l rta.Limit) {
	e.maxLimit = l
	e.resetMemo()
}

// runCost sums the cost of runnables on a CPU unit.
func runCost(s *configs.System, lines map[string]int64, runnables []string, u *unitInfo) (cpuCost, error) {
	c := cpuCost{ok: true}
	computes := 0
	for _, name := range runnables {
		r := s.Runnable(name)
		if r == nil {
			return c, fmt.Errorf("runnable %s is not defined", name)
		}
		var rd, wr int64
		for _, l := range r.Reads {
			rd += lines[l]
		}
		for _, l := range r.Writes {
			wr += lines[l]
		}
		c.lines += rd + wr
		c.phases += b2i64(rd > 0) + b2i64(wr > 0)
		if len(r.Ticks) == 0 {
			continue
		}
		computes++
		tk, ok := r.TicksFor(u.kind)
		if !ok {
			c.ok = false
			continue
		}
		w, err := memory.TicksToPicos(tk.Upper, u.freq)
		if err != nil {
			return c, fmt.Errorf("runnable %s: %w", name, err)
		}
		b, err := memory.TicksToPicos(tk.Lower, u.freq)
		if err != nil {
			return c, fmt.Errorf("runnable %s: %w", name, err)
		}
		c.exec += w
		c.bestExec += b
	}
	return c, nil
}

// mergedCost is the cost of GPU task g run on a core (the merge convention):
// its computing runnables with the CPU ticks, reading the labels its
// offloading task's pre-processing read and writing the labels the
// post-processing wrote, each label once.
func mergedCost(s *configs.System, lines map[string]int64, g, pre *configs.Task, u *unitInfo) (cpuCost, error) {
	c := cpuCost{ok: true}
	seen := map[string]bool{}
	var rd, wr int64
	for _, name := range pre.Runnables {
		if r := s.Runnable(name); r != nil {
			for _, l := range r.Reads {
				if !seen[l] {
					seen[l] = true
					rd += lines[l]
				}
			}
		}
	}
	clear(seen)
	for _, name := range pre.Offload.Post {
		if r := s.Runnable(name); r != nil {
			for _, l := range r.Writes {
				if !seen[l] {
					seen[l] = true
					wr += lines[l]
				}
			}
		}
	}
	// One runnable: a read phase, the kernel, a write phase.
	c.lines, c.phases = rd+wr, b2i64(rd > 0)+b2i64(wr > 0)
	var names []string
	for _, r := range s.ComputeRunnables(g) {
		names = append(names, r.Name)
	}
	k, err := runCost(s, map[string]int64{}, names, u)
	if err != nil {
		return c, err
	}
	c.ok, c.exec, c.bestExec = k.ok && len(names) > 0, k.exec, k.bestExec
	return c, nil
}

// gpuTask describes GPU task i: its copies, its kernel and geometry.
func (e *Evaluator) gpuTask(s *configs.System, cfg *configs.Config, lines map[string]int64, i int, index map[string]int) (gpuInfo, error) {
	t := &s.Tasks[i]
	pre := s.Task(t.TriggeredBy)
	gi := gpuInfo{task: i, pre: index[pre.Name], period: int64(pre.Period), defaultAsync: pre.Offload.Wait == configs.WaitPassive}
	// Copies: the runnables without ticks before the first computing
	// runnable copy in, the others copy out. A copy moves its data once:
	// max(lines read, lines written).
	seenCompute := false
	var kernelTicks, kernelBestTicks int64
	hasGPUTicks := true
	for _, name := range t.Runnables {
		r := s.Runnable(name)
		if r == nil {
			return gi, fmt.Errorf("task %s: runnable %s is not defined", t.Name, name)
		}
		if len(r.Ticks) == 0 {
			var rd, wr int64
			for _, l := range r.Reads {
				rd += lines[l]
			}
			for _, l := range r.Writes {
				wr += lines[l]
			}
			if seenCompute {
				gi.copyOutLines += max(rd, wr)
			} else {
				gi.copyInLines += max(rd, wr)
			}
			continue
		}
		seenCompute = true
		if e.gpuUnit < 0 {
			hasGPUTicks = false
			continue
		}
		tk, ok := r.TicksFor(e.units[e.gpuUnit].kind)
		if !ok {
			hasGPUTicks = false
			continue
		}
		kernelTicks += tk.Upper
		kernelBestTicks += tk.Lower
	}
	if e.gpuUnit < 0 || !hasGPUTicks {
		gi.kernel = -1 // cannot run on the GPU
		return gi, nil
	}
	f := e.units[e.gpuUnit].freq
	var err error
	if gi.kernel, err = memory.TicksToPicos(kernelTicks, f); err != nil {
		return gi, fmt.Errorf("task %s: kernel time: %w", t.Name, err)
	}
	if gi.kernelBest, err = memory.TicksToPicos(kernelBestTicks, f); err != nil {
		return gi, fmt.Errorf("task %s: kernel time: %w", t.Name, err)
	}
	if gi.kernel <= 0 {
		return gi, fmt.Errorf("task %s: its kernel has no GPU ticks", t.Name)
	}
	// Geometry: configured, or the default (package documentation, "Kernel
	// geometry").
	var geo *configs.KernelGeometry
	for k := range cfg.Analysis.Kernels {
		if cfg.Analysis.Kernels[k].Task == t.Name {
			geo = &cfg.Analysis.Kernels[k]
		}
	}
	k := gpu.Kernel{ThreadsPerBlock: DefaultThreadsPerBlock}
	if geo != nil {
		k.ThreadsPerBlock, k.Blocks = geo.ThreadsPerBlock, geo.Blocks
		k.SharedMemPerBlock = int(geo.SharedMemory)
		k.RegistersPerBlock = geo.Registers * geo.ThreadsPerBlock
	}
	slots := int64(e.dev.Slots(k))
	if slots <= 0 {
		return gi, fmt.Errorf("analysis.kernels[%s]: a block of this geometry does not fit on an SM of %s", t.Name, e.units[e.gpuUnit].name)
	}
	var waves int64
	if geo == nil {
		waves = max(1, ceilDiv(gi.kernel, DefaultMaxBlockTime))
		k.Blocks = int(waves * slots)
	} else {
		waves = ceilDiv(int64(k.Blocks), slots)
	}
	gi.blockTime = ceilDiv(gi.kernel, waves)
	gi.blocks, gi.threads = k.Blocks, k.ThreadsPerBlock
	gi.sharedMem, gi.registers = k.SharedMemPerBlock, k.RegistersPerBlock
	// Time slice: the model's, else the largest allowed, else the kernel.
	gi.defaultSlice = int64(s.TimeSlice.Max)
	for _, ts := range s.Mapping.TimeSlices {
		if ts.Task == t.Name {
			gi.defaultSlice, gi.slices = int64(ts.Slice), true
		}
	}
	if gi.defaultSlice <= 0 {
		gi.defaultSlice = gi.kernel
	}
	return gi, nil
}

// initGPUJitter bounds the release jitter of every GPU task's jobs. A job
// is launched when its offloading task's pre-processing ends: no earlier
// than the best-case pre-processing after the task's release and, if the
// task meets its deadline D, no later than D minus the best-case GPU job
// and post-processing. So J ≤ D − (best pre + post, over the cores the task
// may use) − best GPU job; a mapping where the offloading task misses D is
// infeasible anyway.
func (e *Evaluator) initGPUJitter() {
	for g := range e.gpus {
		gi := &e.gpus[g]
		pre := &e.tasks[gi.pre]
		d := pre.deadline
		if d <= 0 {
			d = pre.period
		}
		best := int64(-1)
		for _, c := range pre.cpu {
			if c.ok && (best < 0 || c.bestExec < best) {
				best = c.bestExec
			}
		}
		gpuBest := sat.Add(sat.Mul(gi.copyInLines+gi.copyOutLines, e.ce.Baseline), gi.kernelBest)
		gi.jitter = max(0, d-max(best, 0)-gpuBest)
	}
}

func b2i64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a-1)/b + 1
}

// TaskKind is what a task of the model is, independent of the mapping.
type TaskKind uint8

// Task kinds.
const (
	PeriodicTask   TaskKind = TaskKind(kindPeriodic)   // a periodic CPU task
	OffloadingTask TaskKind = TaskKind(kindOffloading) // a periodic task that offloads a GPU task
	GPUTask        TaskKind = TaskKind(kindGPU)        // a GPU task
)

// TaskSpec describes a task of the model for a search.
type TaskSpec struct {
	Name             string
	Kind             TaskKind
	Period, Deadline int64 // ps; a GPU task: its offloading task's; Deadline 0: none
	// GPU is the GPU-task index (Model.GPUTasks) of an offloading or GPU
	// task, else -1; Offloader is a GPU task's offloading task, else -1.
	GPU, Offloader int
	// Units are the units the task can run on (a GPU task: the GPU, if it
	// has GPU ticks, and the cores where it can be merged).
	Units []int
}

// Tasks describes the tasks of the model, in System.Tasks order.
func (e *Model) Tasks() []TaskSpec {
	out := make([]TaskSpec, len(e.tasks))
	for i, ti := range e.tasks {
		ts := TaskSpec{Name: ti.name, Kind: TaskKind(ti.kind), Period: ti.period, Deadline: ti.deadline, GPU: ti.gpu, Offloader: ti.pre}
		for u := range e.units {
			if e.units[u].gpu {
				if ti.kind == kindGPU && e.gpus[ti.gpu].kernel >= 0 {
					ts.Units = append(ts.Units, u)
				}
			} else if ti.cpu[u].ok {
				ts.Units = append(ts.Units, u)
			}
		}
		out[i] = ts
	}
	return out
}

// GPUTasks returns the task indices of the GPU tasks, in GPU-task order (the
// order of Assignment.Async, High and Slice and of Analysis.GPU).
func (e *Model) GPUTasks() []int {
	out := make([]int, len(e.gpus))
	for g, gi := range e.gpus {
		out[g] = gi.task
	}
	return out
}

// GPUUnit returns the index of the GPU in System.Units, or -1.
func (e *Model) GPUUnit() int { return e.gpuUnit }
