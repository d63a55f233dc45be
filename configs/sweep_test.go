package configs

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func loadSweep(t *testing.T, text string, kd KernelDefaults) (*Sweep, error) {
	t.Helper()
	return LoadSweep([]byte(text), "sweep.yaml", ".", kd)
}

// TestSweepRuns: the cross product in order (first parameter slowest, seeds
// innermost), canonical values, folder names, and every run's configuration
// with its values applied to a copy of the base.
func TestSweepRuns(t *testing.T) {
	sw, err := loadSweep(t, `
description: test
base: builtin
parameters:
  - {name: memory.per_core, kind: A57, values: [10ns, 40000ps]}
  - {name: frequency, kind: Denver, range: {from: 1GHz, to: 2GHz, step: 500MHz}}
  - {name: analysis.interfering_cores, values: [2, auto]}
seeds: [7, 8]
search: {generations: 30, population: 20}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Runs) != 2*3*2*2 {
		t.Fatalf("%d runs, want 24", len(sw.Runs))
	}
	var labels []string
	for _, p := range sw.Parameters {
		labels = append(labels, p.Label()+"="+strings.Join(p.Texts(), ","))
	}
	want := []string{"memory.per_core[A57]=10ns,40ns", "frequency[Denver]=1GHz,1500MHz,2GHz", "analysis.interfering_cores=2,auto", "search.seed=7,8"}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("parameters %v, want %v", labels, want)
	}
	r := sw.Runs[3] // 10ns, 1GHz, auto, seed 8
	if r.Index != 4 || r.Name != "run-004_memory.per_core.A57=10ns_frequency.Denver=1GHz_analysis.interfering_cores=auto_search.seed=8" {
		t.Errorf("run 4: %d %s", r.Index, r.Name)
	}
	last := sw.Runs[23]
	if last.Name != "run-024_memory.per_core.A57=40ns_frequency.Denver=2GHz_analysis.interfering_cores=auto_search.seed=8" {
		t.Errorf("last run %s", last.Name)
	}
	c := sw.Runs[0].Config // 10ns, 1GHz, 2 interfering cores, seed 7
	if c.System.CoreMemory("A57").PerCore != 10*Nanosecond || c.System.CoreMemory("Denver").PerCore != 2*Nanosecond {
		t.Errorf("per_core: A57 %s, Denver %s", c.System.CoreMemory("A57").PerCore, c.System.CoreMemory("Denver").PerCore)
	}
	for _, u := range c.System.Units {
		want := Frequency(2e9)
		switch u.Kind {
		case "Denver":
			want = 1e9
		case "GPU_def":
			want = 1.5e9
		}
		if u.Frequency != want {
			t.Errorf("%s runs at %s, want %s", u.Name, u.Frequency, want)
		}
	}
	if c.Analysis.InterferingCores == nil || *c.Analysis.InterferingCores != 2 || c.Search.Seed != 7 || c.Search.Generations != 30 || c.Search.Population != 20 {
		t.Errorf("analysis %+v, search %+v", c.Analysis, c.Search)
	}
	if sw.Runs[3].Config.Analysis.InterferingCores != nil {
		t.Error("auto must leave interfering_cores to the convention")
	}
	// The runs do not share state: the base and other runs are unchanged.
	if sw.Runs[23].Config.System.CoreMemory("A57").PerCore != 40*Nanosecond {
		t.Error("run 24 lost its own per_core")
	}
	def, _ := Default()
	if def.System.CoreMemory("A57").PerCore != 20*Nanosecond {
		t.Error("the built-in system was changed")
	}
}

// TestSweepClone: the deep copy of a configuration is equal and independent.
func TestSweepClone(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	one := 1
	def.Analysis.InterferingCores = &one
	c, err := cloneConfig(def)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, def) {
		a, _ := json.Marshal(c)
		b, _ := json.Marshal(def)
		t.Fatalf("clone differs:\n%s\n%s", a, b)
	}
	c.System.Units[0].Frequency = 1
	*c.Analysis.InterferingCores = 3
	if def.System.Units[0].Frequency == 1 || *def.Analysis.InterferingCores != 1 {
		t.Error("the clone shares memory with the original")
	}
}

// TestSweepTimeSlice: time_slice fixes the task's slice in the model's
// mapping and takes time_slices out of the search; under fifo it is an error.
func TestSweepTimeSlice(t *testing.T) {
	sw, err := loadSweep(t, `
base: builtin
parameters:
  - {name: analysis.gpu_model, values: [timeslice]}
  - {name: time_slice, task: Localization, range: {from: 2ms, to: 10ms, step: 4ms}}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sw.Runs) != 3 {
		t.Fatalf("%d runs", len(sw.Runs))
	}
	c := sw.Runs[1].Config
	var slice Duration
	for _, ts := range c.System.Mapping.TimeSlices {
		if ts.Task == "Localization" {
			slice = ts.Slice
		}
	}
	if slice != 6*Millisecond || !reflect.DeepEqual(c.Search.Free, []Gene{GeneUnits, GeneOffloading, GeneGPUPriorities}) {
		t.Errorf("slice %s, free %v", slice, c.Search.Free)
	}
	_, err = loadSweep(t, `
base: builtin
parameters:
  - {name: analysis.gpu_model, values: [fifo, timeslice]}
  - {name: time_slice, task: SFM, values: [2ms]}
`, nil)
	if err == nil || !strings.Contains(err.Error(), "sweep.yaml: parameters: run 1 (analysis.gpu_model=fifo, time_slice[SFM]=2ms): time_slice[SFM] (parameters[1]) fixes a time slice, which only the timeslice GPU model uses") {
		t.Errorf("time_slice under fifo: %v", err)
	}
}

// TestSweepKernel: threads_per_block alone keeps the total thread count of
// the default geometry; blocks alone keeps the block size.
func TestSweepKernel(t *testing.T) {
	kd := func(cfg *Config, task string) (KernelGeometry, error) {
		return KernelGeometry{Task: task, Blocks: 128, ThreadsPerBlock: 256}, nil
	}
	sw, err := loadSweep(t, `
base: builtin
parameters:
  - {name: kernel.threads_per_block, task: SFM, values: [128, 512]}
  - {name: kernel.blocks, task: Detection, values: [64]}
  - {name: kernel.registers_per_thread, task: Detection, values: [32]}
`, kd)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]KernelGeometry{}
	for _, k := range sw.Runs[0].Config.Analysis.Kernels {
		got[k.Task] = k
	}
	if g := got["SFM"]; g.Blocks != 256 || g.ThreadsPerBlock != 128 {
		t.Errorf("SFM %+v, want 256 blocks of 128", g)
	}
	if g := got["Detection"]; g.Blocks != 64 || g.ThreadsPerBlock != 256 || g.Registers != 32 {
		t.Errorf("Detection %+v, want 64 blocks of 256, 32 registers", g)
	}
	for _, g := range sw.Runs[1].Config.Analysis.Kernels {
		if g.Task == "SFM" && (g.Blocks != 64 || g.ThreadsPerBlock != 512) {
			t.Errorf("run 2: SFM %+v, want 64 blocks of 512", g)
		}
	}
	// Without the analysis's defaults the base must give the geometry.
	_, err = loadSweep(t, "base: builtin\nparameters: [{name: kernel.blocks, task: SFM, values: [64]}]\n", nil)
	if err == nil || !strings.Contains(err.Error(), "GPU task SFM has no geometry in analysis.kernels of the base") {
		t.Errorf("no defaults: %v", err)
	}
}

// TestSweepBadFiles: bad sweep files fail with a message naming the file and
// the key path.
func TestSweepBadFiles(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"unknown parameter", "base: builtin\nparameters: [{name: memory.foo, values: [1ns]}]\n",
			`sweep.yaml: parameters[0].name: "memory.foo" is not a sweep parameter (memory.baseline, `},
		{"empty range", "base: builtin\nparameters: [{name: frequency, kind: A57, range: {from: 2GHz, to: 1GHz, step: 100MHz}}]\n",
			"sweep.yaml: parameters[0].range: empty: from 2GHz is beyond to 1GHz"},
		{"zero step", "base: builtin\nparameters: [{name: search.generations, range: {from: 10, to: 20, step: 0}}]\n",
			"sweep.yaml: parameters[0].range.step: must be positive, got 0"},
		{"empty values", "base: builtin\nparameters: [{name: analysis.gpu_model, values: []}]\n",
			"sweep.yaml: parameters[0].values: empty"},
		{"wrong type", "base: builtin\nparameters: [{name: memory.per_core, kind: A57, values: [10ns, fast]}]\n",
			`sweep.yaml: parameters[0].values[1]: "fast" is not a duration`},
		{"wrong type int", "base: builtin\nparameters: [{name: kernel.blocks, task: SFM, values: [many]}]\n",
			`sweep.yaml: parameters[0].values[0]: "many" is not a whole number`},
		{"unknown choice", "base: builtin\nparameters: [{name: analysis.gpu_model, values: [fifo, lottery]}]\n",
			`sweep.yaml: parameters[0].values[1]: "lottery" is not one of fifo, timeslice`},
		{"unknown kind", "base: builtin\nparameters: [{name: memory.per_core, kind: Cortex, values: [10ns]}]\n",
			`sweep.yaml: parameters[0].kind: "Cortex" is not a core kind of the base system (Denver, A57)`},
		{"GPU kind for memory", "base: builtin\nparameters: [{name: memory.per_core, kind: GPU_def, values: [10ns]}]\n",
			`parameters[0].kind: "GPU_def" is not a core kind`},
		{"missing kind", "base: builtin\nparameters: [{name: frequency, values: [1GHz]}]\n",
			"sweep.yaml: parameters[0].kind: missing: frequency applies to the units of one kind (Denver, A57, GPU_def)"},
		{"unknown task", "base: builtin\nparameters: [{name: kernel.threads_per_block, task: Planner, values: [128]}]\n",
			`sweep.yaml: parameters[0].task: "Planner" is not a GPU task of the base system (Detection, Lane_detection, Localization, SFM)`},
		{"qualifier not taken", "base: builtin\nparameters: [{name: analysis.gpu_model, kind: A57, values: [fifo]}]\n",
			"sweep.yaml: parameters[0]: analysis.gpu_model takes no kind or task"},
		{"unknown key", "base: builtin\nparameters: [{name: analysis.gpu_model, values: [fifo], colour: blue}]\n",
			"sweep.yaml: parameters[0]: unknown key(s) colour"},
		{"unknown top-level key", "base: builtin\nrepeat: 3\nparameters: [{name: analysis.gpu_model, values: [fifo]}]\n",
			"sweep.yaml: unknown key(s) at the top level: repeat"},
		{"unknown search key", "base: builtin\nsearch: {generation: 3}\nparameters: [{name: analysis.gpu_model, values: [fifo]}]\n",
			"sweep.yaml: search: unknown key(s) generation"},
		{"values not a list", "base: builtin\nparameters: [{name: analysis.gpu_model, values: fifo}]\n",
			"parameters[0].values"},
		{"values and range", "base: builtin\nparameters: [{name: search.seed, values: [1], range: {from: 1, to: 3, step: 1}}]\n",
			"sweep.yaml: parameters[0]: give values or range, not both"},
		{"range of choices", "base: builtin\nparameters: [{name: analysis.gpu_model, range: {from: a, to: b, step: c}}]\n",
			"sweep.yaml: parameters[0].range: analysis.gpu_model takes values, not a range"},
		{"duplicate value", "base: builtin\nparameters: [{name: time_slice.max, values: [1ms, 1000us]}]\n",
			"sweep.yaml: parameters[0].values[1]: 1ms is given twice (also values[0])"},
		{"duplicate parameter", "base: builtin\nparameters: [{name: search.seed, values: [1]}, {name: search.seed, values: [2]}]\n",
			"sweep.yaml: parameters[1]: search.seed is varied twice (also parameters[0])"},
		{"seeds twice", "base: builtin\nseeds: [1]\nparameters: [{name: search.seed, values: [2]}]\n",
			"sweep.yaml: seeds: give the seeds either here or as parameters[0] (search.seed), not both"},
		{"impossible value", "base: builtin\nparameters: [{name: analysis.interfering_cores, values: [1, 9]}]\n",
			"sweep.yaml: parameters[0].values[1]: analysis.interfering_cores=9: analysis.interfering_cores: 9 is impossible: between 0 and 5"},
		{"impossible range value", "base: builtin\nparameters: [{name: kernel.threads_per_block, task: SFM, range: {from: 512, to: 2048, step: 512}}]\n",
			"sweep.yaml: parameters[0].range: kernel.threads_per_block[SFM]=1536: analysis.kernels[0].threads_per_block: must be between 1 and 1024"},
		{"seed 0", "base: builtin\nseeds: [0, 1]\n", "sweep.yaml: seeds.values[0]: 0 stands for the default seed"},
		{"zero generations", "base: builtin\nparameters: [{name: search.generations, values: [0, 10]}]\n",
			"sweep.yaml: parameters[0].values[0]: 0 must be positive"},
		{"no base", "parameters: [{name: search.seed, values: [1]}]\n", "sweep.yaml: base: missing"},
		{"missing base file", "base: nowhere.yaml\nparameters: [{name: search.seed, values: [1]}]\n",
			"sweep.yaml: base: cannot read the configuration"},
		{"no parameters", "base: builtin\n", "sweep.yaml: parameters: missing"},
		{"bad search value", "base: builtin\nsearch: {population: 1}\nseeds: [1]\n",
			"sweep.yaml: with its search section: search.population: must be between 2 and 100000, got 1"},
		{"not YAML", "base: [builtin\n", "sweep.yaml: not valid YAML"},
	}
	kd := func(cfg *Config, task string) (KernelGeometry, error) {
		return KernelGeometry{Task: task, Blocks: 128, ThreadsPerBlock: 256}, nil
	}
	for _, tt := range tests {
		_, err := loadSweep(t, tt.text, kd)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v\nwant %q", tt.name, err, tt.want)
		}
		if testing.Verbose() {
			t.Logf("%s: %v", tt.name, err)
		}
	}
}

func TestSweepRunName(t *testing.T) {
	got := sweepRunName(7, 3, []SweepSetting{{"time_slice[Lane detection]", "2ms"}, {"memory.per_core", "500ps"}})
	if got != "run-007_time_slice.Lane-detection=2ms_memory.per_core=500ps" {
		t.Errorf("got %s", got)
	}
	long := sweepRunName(1, 3, []SweepSetting{{strings.Repeat("x", 300), "1"}})
	if len(long) != maxRunName || !strings.HasPrefix(long, "run-001_x") {
		t.Errorf("long name %d bytes", len(long))
	}
}

// TestContentionOption: analysis.contention loads, defaults, and is a sweep
// parameter.
func TestContentionOption(t *testing.T) {
	base := string(DefaultYAML())
	cfg, err := Load(strings.NewReader(strings.Replace(base, "gpu_model: fifo", "gpu_model: fifo, contention: request", 1)), "c.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Analysis.Contention != ContentionRequest {
		t.Errorf("contention %q, want request", cfg.Analysis.Contention)
	}
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if def.Analysis.Contention != DefaultContention {
		t.Errorf("default contention %q, want %q", def.Analysis.Contention, DefaultContention)
	}
	sw, err := loadSweep(t, "base: builtin\nparameters: [{name: analysis.contention, values: [challenge, refined, request]}]\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []ContentionCount
	for _, r := range sw.Runs {
		got = append(got, r.Config.Analysis.Contention)
	}
	if !reflect.DeepEqual(got, []ContentionCount{ContentionChallenge, ContentionRefined, ContentionRequest}) {
		t.Errorf("runs' counts %v", got)
	}
	if _, err := loadSweep(t, "base: builtin\nparameters: [{name: analysis.contention, values: [exact]}]\n", nil); err == nil ||
		!strings.Contains(err.Error(), "exact") {
		t.Errorf("unknown count: %v", err)
	}
}

// TestSweepExecutionScale: a factor parameter, by values and by range
// (1, 1.05, 1.1: the step in millionths, so no float drift), and out of
// bounds.
func TestSweepExecutionScale(t *testing.T) {
	sw, err := loadSweep(t, `
base: builtin
parameters:
  - {name: analysis.execution_scale, range: {from: 1, to: 1.1, step: 0.05}}
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range sw.Runs {
		got = append(got, r.Settings[0].Value+"="+strconv.FormatFloat(r.Config.Analysis.ExecutionScale, 'f', -1, 64))
	}
	if want := []string{"1=1", "1.05=1.05", "1.1=1.1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
	for _, bad := range []string{"[0]", "[1001]", "[-1]", "[fast]"} {
		_, err := loadSweep(t, "base: builtin\nparameters:\n  - {name: analysis.execution_scale, values: "+bad+"}\n", nil)
		if err == nil || !strings.Contains(err.Error(), "parameters[0].values[0]") || !strings.Contains(err.Error(), "factor") {
			t.Errorf("values %s: %v", bad, err)
		}
	}
}
