package configs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/viper"
)

// A sweep file (`hetmap sweep FILE.yaml`) names a base configuration and
// the parameters to vary; hetmap runs the search once per element of the
// cross product of the parameters' values. The file is YAML, decoded as
// strictly as a configuration (an unknown key or a wrong type is an error
// naming the key path):
//
//	description: contention what-if      # optional, shown in summary.html
//	base: waters-3obj.yaml               # a configuration, relative to this file, or builtin
//	parameters:                          # a list: viper lower-cases map keys, so nothing is keyed by a name
//	  - {name: memory.per_core, kind: A57, values: [10ns, 20ns, 40ns]}
//	  - {name: frequency, kind: A57, range: {from: 1GHz, to: 2GHz, step: 500MHz}}
//	  - {name: analysis.gpu_model, values: [fifo, timeslice]}
//	seeds: [1, 2, 3]                     # shorthand for {name: search.seed, values: [1, 2, 3]}, varied innermost
//	search: {generations: 200}           # optional: replaces these keys of the base's search section
//
// Every parameter gives either `values` (a non-empty list, no value twice)
// or `range` (`from`, `to`, `step`, all of the parameter's type; `to` is
// included when the steps reach it; `step` positive; at most 1000 values;
// durations, frequencies, sizes and whole numbers only). The parameters:
//
//	name                            qualifier          values
//	memory.baseline                 kind: a core kind  duration: the kind's latency per line, uncontended
//	memory.per_core                 kind: a core kind  duration: K, the contention per interfering core
//	memory.copy_engine              kind: a core kind  duration: sGPU, the contention by the copy engine
//	memory.copy_engine.baseline     -                  duration: the copy engine's latency per line
//	memory.copy_engine.per_core     -                  duration: the copy engine's contention per core
//	memory.line_size                -                  size: bytes per DRAM access
//	frequency                       kind: a unit kind  frequency of every unit of the kind
//	analysis.gpu_model              -                  fifo, timeslice
//	analysis.priorities             -                  opa, deadline-monotonic, rate-monotonic, model
//	analysis.interfering_cores      -                  whole number, or auto (the sound convention)
//	analysis.copy_engine_active     -                  true, false, or auto (the sound convention)
//	analysis.time_slice_step        -                  duration: the grid of slices the search tries
//	analysis.execution_scale        -                  factor: every task's execution demand scaled
//	conventions.deadlines           -                  period, model
//	kernel.blocks                   task: a GPU task   whole number
//	kernel.threads_per_block        task: a GPU task   whole number
//	kernel.shared_memory_per_block  task: a GPU task   size
//	kernel.registers_per_thread     task: a GPU task   whole number
//	time_slice                      task: a GPU task   duration: the task's slice, fixed
//	time_slice.min                  -                  duration: the least slice the search may choose
//	time_slice.max                  -                  duration: the greatest slice the search may choose
//	search.seed                     -                  whole number, not 0
//	search.population               -                  whole number
//	search.generations              -                  whole number
//	search.max_evaluations          -                  whole number (0: no limit)
//	search.max_joint_orders         -                  whole number
//	search.algorithm                -                  auto, nsga2, exhaustive
//
// A memory.baseline/per_core/copy_engine parameter without `kind` sets the
// value for every core kind. A kind or task that the base system lacks is an
// error. Values that a configuration reads as a default are refused: seed 0,
// 0 generations, population or time-slice step.
//
// Kernel geometry: a GPU task without an entry in the base's
// analysis.kernels starts from the geometry the analysis would use (256
// threads per block and the default block count; see the optimizer package).
// kernel.threads_per_block alone keeps the kernel's total thread count
// (blocks = ⌈blocks·threads / new threads⌉); kernel.blocks alone keeps the
// block size; both together set both.
//
// time_slice fixes the task's slice in the model's own mapping and takes
// time_slices out of search.free for that run, so that the search keeps the
// slices of the model's mapping (the other GPU tasks keep theirs); it applies
// to the timeslice GPU model only, so every run with it must have
// analysis.gpu_model timeslice (in the base or through a parameter).
// time_slice.min and time_slice.max instead bound the slices the search may
// choose (with time_slices free).
//
// Parameters are applied in the order of the file (kernel parameters last)
// to a copy of the base configuration with the sweep's search section
// applied. Every value is checked on its own, and every run's configuration
// is built and validated, before any run starts: LoadSweepFile fails on the
// first problem, naming the file and the key path.
type Sweep struct {
	// File is the sweep file as given; Description its description.
	File        string
	Description string
	// Text is the sweep file's text.
	Text []byte
	// Base is the base as written (a path relative to the sweep file, or
	// "builtin"), BaseSource where it was loaded from.
	Base       string
	BaseSource string
	// Parameters in file order, seeds (as search.seed) last.
	Parameters []SweepParameter
	// Runs is the cross product, the first parameter varying slowest.
	Runs []SweepRun
}

// SweepParameter is one parameter of a sweep file.
type SweepParameter struct {
	Name   string      `yaml:"name"`
	Kind   string      `yaml:"kind,omitempty"`
	Task   string      `yaml:"task,omitempty"`
	Values []any       `yaml:"values,omitempty"`
	Range  *SweepRange `yaml:"range,omitempty"`

	where  string // key path, e.g. "parameters[2]"
	spec   *sweepSpec
	parsed []sweepValue
}

// SweepRange is an inclusive range of values: from, from+step, … up to to.
type SweepRange struct {
	From any `yaml:"from"`
	To   any `yaml:"to"`
	Step any `yaml:"step"`
}

// Label names the parameter in tables and folder names, with its kind or
// task in brackets: "memory.per_core[A57]", "time_slice[SFM]",
// "analysis.gpu_model".
func (p *SweepParameter) Label() string {
	switch {
	case p.Kind != "":
		return p.Name + "[" + p.Kind + "]"
	case p.Task != "":
		return p.Name + "[" + p.Task + "]"
	}
	return p.Name
}

// Texts returns the parameter's values in their canonical form ("10ns",
// "1.5GHz", "auto"), in the order the run folders use.
func (p *SweepParameter) Texts() []string {
	out := make([]string, len(p.parsed))
	for i, v := range p.parsed {
		out[i] = v.text
	}
	return out
}

// ValueType says what the parameter's values are: "duration",
// "frequency", "size", "number" (a whole number, or auto) or "choice"
// (a word, true, false or auto), so that a page can write them alike.
func (p *SweepParameter) ValueType() string {
	if p.spec == nil {
		return "choice"
	}
	switch p.spec.typ {
	case svDuration:
		return "duration"
	case svFrequency:
		return "frequency"
	case svSize:
		return "size"
	case svInt, svIntOrAuto, svFactor:
		return "number"
	}
	return "choice"
}

// IsSeed reports whether the parameter is the search's seed.
func (p *SweepParameter) IsSeed() bool { return p.Name == sweepSeed }

// SweepRun is one run of a sweep: its place in the cross product, its folder
// name, the value of every parameter and its validated configuration.
type SweepRun struct {
	// Index counts from 1 in cross-product order.
	Index int
	// Name is the run's folder: "run-003_memory.per_core.A57=10ns_search.seed=2"
	// (brackets become a dot, characters other than letters, digits and
	// ._=+- a '-', at most 160 bytes; the index keeps it unique).
	Name     string
	Settings []SweepSetting
	Config   *Config
}

// SweepSetting is one parameter's value in one run.
type SweepSetting struct {
	Parameter string `json:"parameter"` // the label, e.g. "memory.per_core[A57]"
	Value     string `json:"value"`     // canonical, e.g. "10ns"
}

// KernelDefaults returns the launch geometry the analysis uses for a GPU
// task of a configuration that gives it none (the optimizer package knows
// it). LoadSweepFile needs it only for a kernel parameter of such a task.
type KernelDefaults func(cfg *Config, task string) (KernelGeometry, error)

const (
	sweepSeed      = "search.seed"
	maxRangeValues = 1000
	maxRunName     = 160
)

// sweepSchema is the layout of a sweep file.
type sweepSchema struct {
	Description string           `yaml:"description"`
	Base        string           `yaml:"base"`
	Parameters  []SweepParameter `yaml:"parameters"`
	Seeds       []any            `yaml:"seeds"`
	Search      Search           `yaml:"search"`
}

// LoadSweepFile reads and checks a sweep file, loads its base and builds
// and validates the configuration of every run. kd resolves the default
// kernel geometry (nil: a kernel parameter needs the task in the base's
// analysis.kernels).
func LoadSweepFile(path string, kd KernelDefaults) (*Sweep, error) {
	data, err := ReadInput(path, "the sweep file")
	if err != nil {
		return nil, err
	}
	return LoadSweep(data, path, filepath.Dir(path), kd)
}

// LoadSweep reads a sweep file's text; name is used in messages and dir
// resolves a relative base.
func LoadSweep(data []byte, name, dir string, kd KernelDefaults) (*Sweep, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, &InputError{File: name, What: "not valid YAML: " + cleanYAMLError(err)}
	}
	var f sweepSchema
	if err := v.Unmarshal(&f, strictDecoding); err != nil {
		return nil, &InputError{File: name, What: cleanDecodeError(err) + fileKindHint(v, name, true)}
	}
	if err := checkNoZeroDefaults(v, "search."); err != nil {
		err.File = name
		return nil, err
	}
	if f.Base == "" {
		return nil, sweepError(name, "base", "missing: name the base configuration (a file relative to this one) or builtin")
	}
	sw := &Sweep{File: name, Description: f.Description, Base: f.Base, Text: append([]byte(nil), data...)}
	base, err := sweepBase(v, &f, name, dir)
	if err != nil {
		return nil, err
	}
	sw.BaseSource = base.Source
	params, err := sweepParameterList(v, &f, name)
	if err != nil {
		return nil, err
	}
	sb := &sweepBuilder{name: name, base: base, kd: kd}
	if err := sb.resolve(params); err != nil {
		return nil, err
	}
	sw.Parameters = params
	if sw.Runs, err = sb.runs(params); err != nil {
		return nil, err
	}
	return sw, nil
}

// sweepError is an *InputError of the sweep file name at where.
func sweepError(name, where, format string, args ...any) error {
	return &InputError{File: name, Where: where, What: fmt.Sprintf(format, args...)}
}

// sweepBase loads the base configuration of sweep file name (f as read by
// v; dir resolves a relative base), with the keys that the sweep's search
// section gives replacing the base's.
func sweepBase(v *viper.Viper, f *sweepSchema, name, dir string) (*Config, error) {
	var base *Config
	var err error
	if f.Base == BuiltinModel {
		base, err = Default()
	} else {
		p := f.Base
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		base, err = LoadFile(p)
	}
	if err != nil {
		return nil, sweepError(name, "base", "%v", err)
	}
	// The sweep's search section replaces the keys it gives.
	if given, ok := v.Get("search").(map[string]any); ok && len(given) > 0 {
		keys := make([]string, 0, len(given))
		for k := range given {
			keys = append(keys, k)
		}
		sweepOverrideSearch(&base.Search, &f.Search, keys)
		if _, err := finish(base, ""); err != nil {
			return nil, sweepError(name, "", "with its search section: %v", err)
		}
	}
	return base, nil
}

// sweepParameterList returns the parameters that sweep file name varies:
// its parameters, then its seeds as a parameter of their own. Empty lists,
// a sweep that varies nothing and seeds given twice are errors.
func sweepParameterList(v *viper.Viper, f *sweepSchema, name string) ([]SweepParameter, error) {
	if v.IsSet("seeds") && len(f.Seeds) == 0 {
		return nil, sweepError(name, "seeds", "empty: list the seeds to run, e.g. [1, 2, 3], or leave the key out")
	}
	if v.IsSet("parameters") && len(f.Parameters) == 0 {
		return nil, sweepError(name, "parameters", "empty: list the parameters to vary, or leave the key out when seeds are given")
	}
	if len(f.Parameters) == 0 && len(f.Seeds) == 0 {
		return nil, sweepError(name, "parameters", "missing: a sweep varies at least one parameter (or gives seeds)")
	}
	params := f.Parameters
	if len(f.Seeds) > 0 {
		for i, p := range params {
			if p.Name == sweepSeed {
				return nil, sweepError(name, "seeds", "give the seeds either here or as parameters[%d] (search.seed), not both", i)
			}
		}
		params = append(params, SweepParameter{Name: sweepSeed, Values: f.Seeds, where: "seeds"})
	}
	return params, nil
}

// resolve resolves every parameter against the base system and checks
// that no parameter is varied twice and that each value on its own gives
// a valid configuration.
func (b *sweepBuilder) resolve(params []SweepParameter) error {
	seen := map[string]string{}
	for i := range params {
		p := &params[i]
		if p.where == "" {
			p.where = fmt.Sprintf("parameters[%d]", i)
		}
		if err := p.resolve(b.base.System); err != nil {
			err.File = b.name
			return err
		}
		if prev, dup := seen[p.Label()]; dup {
			return sweepError(b.name, p.where, "%s is varied twice (also %s)", p.Label(), prev)
		}
		seen[p.Label()] = p.where
		// Each value on its own must give a valid configuration.
		for j, val := range p.parsed {
			if _, err := b.build([]sweepChoice{{p, val}}, false); err != nil {
				where := fmt.Sprintf("%s.values[%d]", p.where, j)
				if p.Range != nil {
					where = p.where + ".range"
				}
				return sweepError(b.name, where, "%s=%s: %v", p.Label(), val.text, err)
			}
		}
	}
	return nil
}

// runs builds one run per element of the cross product of the parameters'
// values (at most maxSweepRuns), the last parameter varying fastest, each
// with its name, settings and configuration.
func (b *sweepBuilder) runs(params []SweepParameter) ([]SweepRun, error) {
	total := 1
	for _, p := range params {
		total *= len(p.parsed)
		if total > maxSweepRuns {
			return nil, sweepError(b.name, "parameters", "the cross product has more than %d runs; split the sweep", maxSweepRuns)
		}
	}
	var runs []SweepRun
	width := max(3, len(strconv.Itoa(total)))
	idx := make([]int, len(params))
	for r := 1; r <= total; r++ {
		choices := make([]sweepChoice, len(params))
		run := SweepRun{Index: r}
		for k, p := range params {
			choices[k] = sweepChoice{&params[k], p.parsed[idx[k]]}
			run.Settings = append(run.Settings, SweepSetting{Parameter: p.Label(), Value: p.parsed[idx[k]].text})
		}
		run.Name = sweepRunName(r, width, run.Settings)
		cfg, err := b.build(choices, true)
		if err != nil {
			return nil, sweepError(b.name, "parameters", "run %d (%s): %v", r, sweepDescribe(run.Settings), err)
		}
		cfg.Source = fmt.Sprintf("%s, run %d of sweep %s", b.base.Source, r, b.name)
		run.Config = cfg
		runs = append(runs, run)
		// Advance the odometer: the last parameter varies fastest.
		for k := len(params) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < len(params[k].parsed) {
				break
			}
			idx[k] = 0
		}
	}
	return runs, nil
}

// maxSweepRuns bounds the cross product.
const maxSweepRuns = 100000

func sweepDescribe(ss []SweepSetting) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.Parameter + "=" + s.Value
	}
	return strings.Join(parts, ", ")
}

// sweepRunName is the folder name of a run.
func sweepRunName(index, width int, ss []SweepSetting) string {
	var b strings.Builder
	fmt.Fprintf(&b, "run-%0*d", width, index)
	for _, s := range ss {
		b.WriteByte('_')
		for _, r := range s.Parameter + "=" + s.Value {
			switch {
			case r == '[':
				b.WriteByte('.')
			case r == ']':
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._=+-", r):
				b.WriteRune(r)
			default:
				b.WriteByte('-')
			}
		}
	}
	name := b.String()
	if len(name) > maxRunName {
		name = name[:maxRunName]
	}
	return name
}

// sweepOverrideSearch copies the fields of from that keys (yaml names) give.
func sweepOverrideSearch(to, from *Search, keys []string) {
	tv, fv := reflect.ValueOf(to).Elem(), reflect.ValueOf(from).Elem()
	t := tv.Type()
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		for _, k := range keys {
			if k == tag {
				tv.Field(i).Set(fv.Field(i))
			}
		}
	}
}

// sweepValue is one parsed value of a parameter.
type sweepValue struct {
	text string // canonical
	n    int64  // durations (ps), frequencies (Hz), sizes (bytes), whole numbers
	s    string // choices
	b    bool
	auto bool
}

type sweepType int

const (
	svDuration sweepType = iota
	svFrequency
	svSize
	svInt
	svIntOrAuto
	svBoolOrAuto
	svChoice
	// svFactor is a decimal factor, kept in millionths.
	svFactor
)

var sweepTypeNames = map[sweepType]string{svDuration: "a duration", svFrequency: "a frequency", svSize: "a size",
	svInt: "a whole number", svIntOrAuto: "a whole number or auto", svBoolOrAuto: "true, false or auto", svChoice: "one of", svFactor: "a factor (a decimal number)"}

type sweepQual int

const (
	qualNone     sweepQual = iota
	qualCoreKind           // kind: optional, a CPU core kind with contention parameters (none: all)
	qualKind               // kind: required, any unit kind
	qualGPUTask            // task: required, a GPU task
)

type sweepSpec struct {
	name    string
	qual    sweepQual
	typ     sweepType
	choices []string
	apply   func(c *Config, p *SweepParameter, v sweepValue)
	kernel  bool // applied last, on analysis.kernels
	// positive: a value must be above 0 (where 0 would stand for a
	// default in a configuration); nonzero: must not be 0.
	positive, nonzero bool
}

func sweepCoreMemory(c *Config, kind string, set func(m *CoreMemory)) {
	for i := range c.System.Memory.Cores {
		if kind == "" || c.System.Memory.Cores[i].Kind == kind {
			set(&c.System.Memory.Cores[i])
		}
	}
}

var sweepSpecs = []*sweepSpec{
	{name: "memory.baseline", qual: qualCoreKind, typ: svDuration, apply: func(c *Config, p *SweepParameter, v sweepValue) {
		sweepCoreMemory(c, p.Kind, func(m *CoreMemory) { m.Baseline = Duration(v.n) })
	}},
	{name: "memory.per_core", qual: qualCoreKind, typ: svDuration, apply: func(c *Config, p *SweepParameter, v sweepValue) {
		sweepCoreMemory(c, p.Kind, func(m *CoreMemory) { m.PerCore = Duration(v.n) })
	}},
	{name: "memory.copy_engine", qual: qualCoreKind, typ: svDuration, apply: func(c *Config, p *SweepParameter, v sweepValue) {
		sweepCoreMemory(c, p.Kind, func(m *CoreMemory) { m.CopyEngine = Duration(v.n) })
	}},
	{name: "memory.copy_engine.baseline", typ: svDuration, apply: func(c *Config, _ *SweepParameter, v sweepValue) {
		c.System.Memory.CopyEngine.Baseline = Duration(v.n)
	}},
	{name: "memory.copy_engine.per_core", typ: svDuration, apply: func(c *Config, _ *SweepParameter, v sweepValue) {
		c.System.Memory.CopyEngine.PerCore = Duration(v.n)
	}},
	{name: "memory.line_size", typ: svSize, apply: func(c *Config, _ *SweepParameter, v sweepValue) {
		c.System.Memory.LineSize = Size(v.n)
	}},
	{name: "frequency", qual: qualKind, typ: svFrequency, apply: func(c *Config, p *SweepParameter, v sweepValue) {
		for i := range c.System.Units {
			if c.System.Units[i].Kind == p.Kind {
				c.System.Units[i].Frequency = Frequency(v.n)
			}
		}
	}},
	{name: "analysis.gpu_model", typ: svChoice, choices: optionStrings(GPUModels),
		apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Analysis.GPUModel = GPUModel(v.s) }},
	{name: "analysis.priorities", typ: svChoice, choices: optionStrings(PriorityAssignments),
		apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Analysis.Priorities = PriorityAssignment(v.s) }},
	{name: "analysis.contention", typ: svChoice, choices: optionStrings(ContentionCounts),
		apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Analysis.Contention = ContentionCount(v.s) }},
	{name: "analysis.interfering_cores", typ: svIntOrAuto, apply: func(c *Config, _ *SweepParameter, v sweepValue) {
		c.Analysis.InterferingCores = nil
		if !v.auto {
			n := int(v.n)
			c.Analysis.InterferingCores = &n
		}
	}},
	{name: "analysis.copy_engine_active", typ: svBoolOrAuto, apply: func(c *Config, _ *SweepParameter, v sweepValue) {
		c.Analysis.CopyEngineActive = nil
		if !v.auto {
			b := v.b
			c.Analysis.CopyEngineActive = &b
		}
	}},
	{name: "analysis.execution_scale", typ: svFactor, positive: true, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Analysis.ExecutionScale = float64(v.n) / 1e6 }},
	{name: "analysis.time_slice_step", typ: svDuration, positive: true, apply: func(c *Config, _ *SweepParameter, v sweepValue) {
		c.Analysis.TimeSliceStep = Duration(v.n)
	}},
	{name: "conventions.deadlines", typ: svChoice, choices: optionStrings(DeadlineConventions),
		apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Conventions.Deadlines = DeadlineConvention(v.s) }},
	{name: "kernel.blocks", qual: qualGPUTask, typ: svInt, kernel: true},
	{name: "kernel.threads_per_block", qual: qualGPUTask, typ: svInt, kernel: true},
	{name: "kernel.shared_memory_per_block", qual: qualGPUTask, typ: svSize, kernel: true},
	{name: "kernel.registers_per_thread", qual: qualGPUTask, typ: svInt, kernel: true},
	{name: "time_slice", qual: qualGPUTask, typ: svDuration, apply: func(c *Config, p *SweepParameter, v sweepValue) {
		m := &c.System.Mapping
		set := false
		for i := range m.TimeSlices {
			if m.TimeSlices[i].Task == p.Task {
				m.TimeSlices[i].Slice, set = Duration(v.n), true
			}
		}
		if !set {
			m.TimeSlices = append(m.TimeSlices, TimeSliceSet{Task: p.Task, Slice: Duration(v.n)})
		}
		free := c.Search.Free
		if len(free) == 0 {
			free = AllGenes
		}
		c.Search.Free = nil
		for _, g := range free {
			if g != GeneTimeSlices {
				c.Search.Free = append(c.Search.Free, g)
			}
		}
	}},
	{name: "time_slice.min", typ: svDuration, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.System.TimeSlice.Min = Duration(v.n) }},
	{name: "time_slice.max", typ: svDuration, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.System.TimeSlice.Max = Duration(v.n) }},
	{name: sweepSeed, typ: svInt, nonzero: true, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Search.Seed = v.n }},
	{name: "search.population", typ: svInt, positive: true, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Search.Population = int(v.n) }},
	{name: "search.generations", typ: svInt, positive: true, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Search.Generations = int(v.n) }},
	{name: "search.max_joint_orders", typ: svInt, positive: true, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Search.MaxJointOrders = int(v.n) }},
	{name: "search.max_evaluations", typ: svInt, apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Search.MaxEvaluations = int(v.n) }},
	{name: "search.algorithm", typ: svChoice, choices: optionStrings(Algorithms),
		apply: func(c *Config, _ *SweepParameter, v sweepValue) { c.Search.Algorithm = Algorithm(v.s) }},
}

// SweepParameterNames lists the parameters a sweep file may vary.
func SweepParameterNames() []string {
	out := make([]string, len(sweepSpecs))
	for i, s := range sweepSpecs {
		out[i] = s.name
	}
	return out
}

// resolve checks the parameter against the base system and parses its values.
func (p *SweepParameter) resolve(sys *System) *InputError {
	for _, s := range sweepSpecs {
		if s.name == p.Name {
			p.spec = s
		}
	}
	if p.spec == nil {
		if p.Name == "" {
			return inputErrorf(p.where+".name", "missing")
		}
		return inputErrorf(p.where+".name", "%q is not a sweep parameter (%s)", p.Name, strings.Join(SweepParameterNames(), ", "))
	}
	s := p.spec
	var cpuKinds []string
	for _, k := range sys.Kinds() {
		if sys.CoreMemory(k) != nil {
			cpuKinds = append(cpuKinds, k)
		}
	}
	switch s.qual {
	case qualNone:
		if p.Kind != "" || p.Task != "" {
			return inputErrorf(p.where, "%s takes no kind or task", p.Name)
		}
	case qualCoreKind, qualKind:
		if p.Task != "" {
			return inputErrorf(p.where+".task", "%s takes a kind, not a task", p.Name)
		}
		kinds := cpuKinds
		if s.qual == qualKind {
			kinds = sys.Kinds()
			if p.Kind == "" {
				return inputErrorf(p.where+".kind", "missing: %s applies to the units of one kind (%s)", p.Name, strings.Join(kinds, ", "))
			}
		}
		if p.Kind != "" && !contains(kinds, p.Kind) {
			return inputErrorf(p.where+".kind", "%q is not a %s kind of the base system (%s)", p.Kind, map[bool]string{true: "core", false: "unit"}[s.qual == qualCoreKind], strings.Join(kinds, ", "))
		}
	case qualGPUTask:
		if p.Kind != "" {
			return inputErrorf(p.where+".kind", "%s takes a task, not a kind", p.Name)
		}
		if p.Task == "" {
			return inputErrorf(p.where+".task", "missing: %s applies to one GPU task (%s)", p.Name, strings.Join(sys.GPUTasks(), ", "))
		}
		if t := sys.Task(p.Task); t == nil || !t.IsGPUTask() {
			return inputErrorf(p.where+".task", "%q is not a GPU task of the base system (%s)", p.Task, strings.Join(sys.GPUTasks(), ", "))
		}
	}
	switch {
	case p.Range != nil && p.Values != nil:
		return inputErrorf(p.where, "give values or range, not both")
	case p.Range == nil && p.Values == nil:
		return inputErrorf(p.where, "missing: values (a list) or range (from, to, step)")
	case p.Range != nil:
		return p.expandRange()
	}
	if len(p.Values) == 0 {
		return inputErrorf(p.where+".values", "empty: give at least one value")
	}
	seen := map[string]int{}
	for j, raw := range p.Values {
		where := fmt.Sprintf("%s.values[%d]", p.where, j)
		v, err := s.parse(raw)
		if err != nil {
			return inputErrorf(where, "%v", err)
		}
		if k, dup := seen[v.text]; dup {
			return inputErrorf(where, "%s is given twice (also values[%d])", v.text, k)
		}
		seen[v.text] = j
		p.parsed = append(p.parsed, v)
	}
	return nil
}

func (p *SweepParameter) expandRange() *InputError {
	s, r := p.spec, p.Range
	switch s.typ {
	case svDuration, svFrequency, svSize, svInt, svIntOrAuto, svFactor:
	default:
		return inputErrorf(p.where+".range", "%s takes values, not a range (ranges are for durations, frequencies, sizes, whole numbers and factors)", p.Name)
	}
	var ends [3]sweepValue
	for k, f := range []struct {
		key string
		raw any
	}{{"from", r.From}, {"to", r.To}, {"step", r.Step}} {
		if f.raw == nil {
			return inputErrorf(p.where+".range."+f.key, "missing")
		}
		v, err := s.parseValue(f.raw)
		if err != nil {
			return inputErrorf(p.where+".range."+f.key, "%v", err)
		}
		if v.auto {
			return inputErrorf(p.where+".range."+f.key, "auto has no place in a range; list it in values")
		}
		ends[k] = v
	}
	from, to, step := ends[0].n, ends[1].n, ends[2].n
	switch {
	case step <= 0:
		return inputErrorf(p.where+".range.step", "must be positive, got %s", ends[2].text)
	case from > to:
		return inputErrorf(p.where+".range", "empty: from %s is beyond to %s", ends[0].text, ends[1].text)
	case (to-from)/step >= maxRangeValues:
		return inputErrorf(p.where+".range", "has %d values, more than %d", (to-from)/step+1, maxRangeValues)
	}
	for x := from; x <= to; x += step {
		v := s.value(x)
		if err := s.check(v); err != nil {
			return inputErrorf(p.where+".range", "%v", err)
		}
		p.parsed = append(p.parsed, v)
	}
	return nil
}

// value builds the sweepValue of a number of the spec's type.
func (s *sweepSpec) value(n int64) sweepValue {
	v := sweepValue{n: n}
	switch s.typ {
	case svDuration:
		v.text = Duration(n).String()
	case svFrequency:
		v.text = Frequency(n).String()
	case svSize:
		v.text = strconv.FormatInt(n, 10) + "B"
	case svFactor:
		v.text = strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(float64(n)/1e6, 'f', 6, 64), "0"), ".")
	default:
		v.text = strconv.FormatInt(n, 10)
	}
	return v
}

// parse reads one value of the spec's type from what YAML gave.
func (s *sweepSpec) parse(raw any) (sweepValue, error) {
	v, err := s.parseValue(raw)
	if err != nil {
		return v, err
	}
	return v, s.check(v)
}

// check reports a value that a configuration would read as a default.
func (s *sweepSpec) check(v sweepValue) error {
	switch {
	case v.auto:
	case s.positive && v.n <= 0:
		return fmt.Errorf("%s must be positive (0 stands for the default in a configuration)", v.text)
	case s.nonzero && v.n == 0:
		return fmt.Errorf("0 stands for the default seed (1) in a configuration: give seeds other than 0")
	case s.nonzero && v.n < 0:
		return fmt.Errorf("seed %d: seeds are positive (1, 2, …)", v.n)
	}
	return nil
}

func (s *sweepSpec) parseValue(raw any) (sweepValue, error) {
	bad := func() (sweepValue, error) {
		if s.typ == svChoice {
			return sweepValue{}, fmt.Errorf("%v is not one of %s", sweepQuote(raw), strings.Join(s.choices, ", "))
		}
		return sweepValue{}, fmt.Errorf("%v is not %s", sweepQuote(raw), sweepTypeNames[s.typ])
	}
	str, isStr := raw.(string)
	n, isInt := sweepWhole(raw)
	switch s.typ {
	case svDuration:
		switch {
		case isStr:
			d, err := ParseDuration(str)
			if err != nil {
				return sweepValue{}, err
			}
			return s.value(int64(d)), nil
		case isInt && n == 0:
			return s.value(0), nil
		}
		return sweepValue{}, fmt.Errorf("%v is not a duration: write a number with a unit, e.g. \"5ms\"", sweepQuote(raw))
	case svFrequency:
		if isStr {
			f, err := ParseFrequency(str)
			if err != nil {
				return sweepValue{}, err
			}
			return s.value(int64(f)), nil
		}
		return sweepValue{}, fmt.Errorf("%v is not a frequency: write a number with a unit, e.g. \"2GHz\"", sweepQuote(raw))
	case svSize:
		switch {
		case isStr:
			z, err := ParseSize(str)
			if err != nil {
				return sweepValue{}, err
			}
			return s.value(int64(z)), nil
		case isInt:
			return s.value(n), nil
		}
	case svInt:
		if isInt {
			return s.value(n), nil
		}
	case svIntOrAuto:
		if isInt {
			return s.value(n), nil
		}
		if str == "auto" {
			return sweepValue{text: "auto", auto: true}, nil
		}
	case svBoolOrAuto:
		if b, ok := raw.(bool); ok {
			return sweepValue{text: strconv.FormatBool(b), b: b}, nil
		}
		if str == "auto" {
			return sweepValue{text: "auto", auto: true}, nil
		}
	case svChoice:
		if isStr && contains(s.choices, str) {
			return sweepValue{text: str, s: str}, nil
		}
	case svFactor:
		x, ok := raw.(float64)
		if isInt {
			x, ok = float64(n), true
		}
		if ok && !math.IsNaN(x) && x > 0 && x <= MaxExecutionScale {
			return s.value(int64(math.Round(x * 1e6))), nil
		}
		if ok {
			return sweepValue{}, fmt.Errorf("%v: a factor above 0 and at most %d", sweepQuote(raw), MaxExecutionScale)
		}
	}
	return bad()
}

func sweepQuote(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

// sweepWhole reads a YAML integer (or a float without a fraction).
func sweepWhole(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case uint64:
		if x <= 1<<62 {
			return int64(x), true
		}
	case float64:
		if r := new(big.Float).SetFloat64(x); r.IsInt() && x > -1e15 && x < 1e15 {
			return int64(x), true
		}
	}
	return 0, false
}

// sweepChoice is one parameter at one of its values.
type sweepChoice struct {
	p *SweepParameter
	v sweepValue
}

type sweepBuilder struct {
	name string
	base *Config // validated, with the sweep's search section
	kd   KernelDefaults
}

// build returns a copy of the base with the choices applied, validated.
// With run set, it also checks what only a whole run can tell.
func (b *sweepBuilder) build(choices []sweepChoice, run bool) (*Config, error) {
	cfg, err := cloneConfig(b.base)
	if err != nil {
		return nil, err
	}
	var kernel []sweepChoice
	for _, ch := range choices {
		if ch.p.spec.kernel {
			kernel = append(kernel, ch)
			continue
		}
		ch.p.spec.apply(cfg, ch.p, ch.v)
	}
	if _, err := finish(cfg, ""); err != nil {
		return nil, err
	}
	if run {
		for _, ch := range choices {
			if ch.p.Name == "time_slice" && cfg.Analysis.GPUModel != GPUModelTimeSlice {
				return nil, fmt.Errorf("%s (%s) fixes a time slice, which only the timeslice GPU model uses, but analysis.gpu_model is %s here: set analysis.gpu_model: timeslice in the base, or sweep only timeslice", ch.p.Label(), ch.p.where, cfg.Analysis.GPUModel)
			}
		}
	}
	if len(kernel) == 0 {
		return cfg, nil
	}
	if err := b.applyKernels(cfg, kernel); err != nil {
		return nil, err
	}
	if _, err := finish(cfg, ""); err != nil {
		return nil, err
	}
	return cfg, nil
}

// applyKernels sets the kernel parameters on analysis.kernels, starting from
// the configured geometry or else the analysis's default one.
func (b *sweepBuilder) applyKernels(cfg *Config, kernel []sweepChoice) error {
	var tasks []string
	byTask := map[string]map[string]int64{}
	for _, ch := range kernel {
		if byTask[ch.p.Task] == nil {
			byTask[ch.p.Task] = map[string]int64{}
			tasks = append(tasks, ch.p.Task)
		}
		byTask[ch.p.Task][ch.p.Name] = ch.v.n
	}
	sort.Strings(tasks)
	for _, task := range tasks {
		set := byTask[task]
		k := -1
		for i := range cfg.Analysis.Kernels {
			if cfg.Analysis.Kernels[i].Task == task {
				k = i
			}
		}
		if k < 0 {
			if b.kd == nil {
				return fmt.Errorf("GPU task %s has no geometry in analysis.kernels of the base; give it one there", task)
			}
			g, err := b.kd(cfg, task)
			if err != nil {
				return fmt.Errorf("the default geometry of %s: %w", task, err)
			}
			g.Task = task
			cfg.Analysis.Kernels = append(cfg.Analysis.Kernels, g)
			k = len(cfg.Analysis.Kernels) - 1
		}
		g := &cfg.Analysis.Kernels[k]
		blocks, hasBlocks := set["kernel.blocks"]
		threads, hasThreads := set["kernel.threads_per_block"]
		switch {
		case hasThreads && !hasBlocks:
			if threads > 0 {
				total := int64(g.Blocks) * int64(g.ThreadsPerBlock)
				g.Blocks = int((total + threads - 1) / threads)
			}
			g.ThreadsPerBlock = int(threads)
		case hasBlocks:
			g.Blocks = int(blocks)
			if hasThreads {
				g.ThreadsPerBlock = int(threads)
			}
		}
		if v, ok := set["kernel.shared_memory_per_block"]; ok {
			g.SharedMemory = Size(v)
		}
		if v, ok := set["kernel.registers_per_thread"]; ok {
			g.Registers = int(v)
		}
	}
	return nil
}

// cloneConfig returns a deep copy of a configuration (through JSON, which
// every type of the system round-trips exactly).
func cloneConfig(c *Config) (*Config, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var out Config
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
