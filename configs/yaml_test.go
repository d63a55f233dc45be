package configs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestDefaultIsTheOfficialModel checks that the embedded configuration is the
// official model as the importer reads it, plus the challenge's chains.
func TestDefaultIsTheOfficialModel(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	imported, err := LoadFile(officialModel(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(def.System.Chains) != 8 {
		t.Fatalf("the default has %d chains, want 8", len(def.System.Chains))
	}
	want := *imported.System
	want.Name = def.System.Name
	want.Chains = def.System.Chains
	if !reflect.DeepEqual(*def.System, want) {
		a, b := new(bytes.Buffer), new(bytes.Buffer)
		_ = WriteYAML(a, def, "")
		_ = WriteYAML(b, &Config{System: &want, Conventions: def.Conventions, Analysis: def.Analysis}, "")
		t.Errorf("the embedded default differs from the imported official model:\n%s", firstDiff(a.String(), b.String()))
	}
	// The default records the import's warnings (without the missing-chains one).
	if len(def.Warnings) != len(imported.Warnings)-1 {
		t.Errorf("default has %d warnings, the import %d (+1 for chains)", len(def.Warnings), len(imported.Warnings))
	}
	for _, n := range []string{"Li-Lo-EK-P-DA", "CA-Lo-EK-P-DA", "CA-EK-P-DA", "CA-P-DA", "Li-P-DA", "SF-P-DA", "LD-P-DA", "D-P-DA"} {
		found := false
		for _, c := range def.System.Chains {
			found = found || c.Name == n
		}
		if !found {
			t.Errorf("chain %s missing", n)
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + itoa(i+1) + ":\n  " + al[i] + "\n  " + bl[i]
		}
	}
	return "lengths differ"
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestRoundTrip: importing a model, writing YAML and loading it gives the
// same system, for both reference models.
func TestRoundTrip(t *testing.T) {
	for _, path := range []string{officialModel(t), mappedModel(t)} {
		cfg, err := LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteYAML(&buf, cfg, "round trip"); err != nil {
			t.Fatal(err)
		}
		back, err := Load(bytes.NewReader(buf.Bytes()), "round-trip.yaml", ".")
		if err != nil {
			t.Fatalf("%s: the written YAML does not load: %v\n%s", path, err, buf.String())
		}
		if !reflect.DeepEqual(cfg.System, back.System) {
			var again bytes.Buffer
			_ = WriteYAML(&again, back, "round trip")
			t.Errorf("%s: round trip changed the system:\n%s", path, firstDiff(buf.String(), again.String()))
		}
		if !reflect.DeepEqual(cfg.Warnings, back.Warnings) {
			t.Errorf("%s: round trip changed the warnings", path)
		}
	}
}

// TestConfigNamingAModel: a configuration may point at an Amalthea file
// and add chains, memory and conventions.
func TestConfigNamingAModel(t *testing.T) {
	model, _ := filepath.Abs(officialModel(t))
	dir := t.TempDir()
	yml := "model: " + model + `
chains:
  - {name: CA-P-DA, tasks: [CANbus_polling, Planner, DASM]}
memory:
  line_size: 64
  cores:
    - {kind: Denver, baseline: 8ns, per_core: 0ns, copy_engine: 0ns}
    - {kind: A57, baseline: 20ns, per_core: 0ns, copy_engine: 0ns}
  copy_engine: {baseline: 3ns, per_core: 0ns}
conventions: {deadlines: model}
analysis: {gpu_model: timeslice}
`
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.System.Chains) != 1 || cfg.Analysis.GPUModel != GPUModelTimeSlice {
		t.Errorf("chains %v, GPU model %s", cfg.System.Chains, cfg.Analysis.GPUModel)
	}
	if p := cfg.System.Task("Planner"); p.Deadline != 12*Millisecond {
		t.Errorf("with deadlines: model, Planner's deadline = %s, want 12ms", p.Deadline)
	}
	if c := cfg.System.CoreMemory("A57"); c.PerCore != 0 {
		t.Errorf("memory override ignored: %+v", c)
	}
	for _, w := range cfg.Warnings {
		if strings.Contains(w.What, "memory-contention") || strings.Contains(w.What, "event chains") {
			t.Errorf("warning should be gone once the config gives it: %s", w)
		}
	}
}

// TestYAMLErrors feeds broken configurations and checks that each error
// names the key path and what is wrong.
func TestYAMLErrors(t *testing.T) {
	base := string(DefaultYAML())
	replace := func(old, new string) string {
		if !strings.Contains(base, old) {
			t.Fatalf("the default has no %q", old)
		}
		return strings.Replace(base, old, new, 1)
	}
	tests := []struct {
		name, input, want string
	}{
		{"not YAML", "units: [", "not valid YAML"},
		{"unknown top-level key", base + "colour: blue\n", "unknown key(s) at the top level: colour"},
		{"unknown nested key", replace("conventions: {deadlines: period}", "conventions: {deadlines: period, haste: 1}"), "conventions: unknown key(s) haste"},
		{"wrong type", replace("line_size: 64", "line_size: [64]"), "memory.line_size"},
		{"negative period", replace("period: 5ms", "period: -5ms"), "tasks[2].period: must be positive (task DASM)"},
		{"duration without unit", replace("period: 5ms", "period: 5"), "tasks[2].period"},
		{"zero frequency", replace("frequency: 2GHz", "frequency: 0GHz"), "units[0].frequency: must be positive (unit Core0)"},
		{"chain naming a missing task", replace("tasks: [CANbus_polling, Planner, DASM]", "tasks: [CANbus_polling, Planer, DASM]"), `chains[3].tasks[1]: task "Planer" is not defined (chain CA-P-DA)`},
		{"mapping naming a missing unit", replace("{task: EKF, unit: Core4, priority: 1}", "{task: EKF, unit: Core9, priority: 1}"), `mapping.units[4].unit: unit "Core9" is not defined (task EKF`},
		{"task where it has no ticks", replace("{task: Detection, unit: GP10B}", "{task: Detection, unit: Core2}"), "task Detection cannot run on Core2: it has no ticks for kind A57"},
		{"unknown chain metric", replace("metric: reaction-time", "metric: reaction-speed"), `analysis.chain_latency.metric: "reaction-speed" is not one of reaction-time, reaction-from-activation, data-age`},
		{"unknown GPU model", replace("gpu_model: fifo", "gpu_model: lifo"), `analysis.gpu_model: "lifo" is not a GPU model`},
		{"unknown contention count", replace("gpu_model: fifo", "gpu_model: fifo, contention: exact"), `analysis.contention: "exact" is not a contention count (challenge, refined or request)`},
		{"contention count not a name", replace("gpu_model: fifo", "gpu_model: fifo, contention: [refined]"), `analysis.contention`},
		{"label of a runnable missing", replace("reads: [Cloud_map_host]", "reads: [Cloud_map_hots]"), `label "Cloud_map_hots" is not defined (runnable Lidar_Function)`},
		{"duplicate unit", replace("name: Core1,", "name: Core0,"), `units[1].name: unit "Core0" is defined twice`},
		{"ticks upside down", replace("{kind: Denver, lower: 19588000, upper: 21736000", "{kind: Denver, lower: 29588000, upper: 21736000"), "ticks need 0 ≤ lower ≤ upper"},
		{"time slice out of bounds", replace("{task: SFM, slice: 7200us}", "{task: SFM, slice: 70ms}"), "mapping.time_slices[0].slice: 70ms is outside the model's bounds"},
		{"model and inline system", "model: x.amxmi\n" + base, "takes units, labels, runnables, tasks"},
		{"inline system without memory", "units: []\n", "memory: missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(strings.NewReader(tt.input), "broken.yaml", ".")
			if err == nil {
				t.Fatalf("no error, want one containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n  %s\ndoes not contain\n  %s", err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "broken.yaml: ") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// TestNoTask: a system without a task is refused, whatever its source.
func TestNoTask(t *testing.T) {
	cfg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg.System.Tasks, cfg.System.Chains = nil, nil
	err = Validate(cfg)
	if err == nil || err.Error() != "tasks: none: a system needs at least one task to map" {
		t.Errorf("got %v, want the refusal of a system without a task", err)
	}
}

// FuzzLoadYAML checks that no configuration panics the loader and that a
// configuration it accepts writes back to one that loads to the same system.
func FuzzLoadYAML(f *testing.F) {
	f.Add(DefaultYAML())
	f.Add([]byte("units: []\nmemory: {line_size: 64}\n"))
	f.Add([]byte("conventions: {deadlines: model}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Load(bytes.NewReader(data), "fuzz.yaml", t.TempDir())
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteYAML(&buf, cfg, ""); err != nil {
			t.Fatal(err)
		}
		back, err := Load(bytes.NewReader(buf.Bytes()), "again.yaml", ".")
		if err != nil {
			t.Fatalf("accepted config does not load after writing: %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(cfg.System, back.System) {
			t.Fatal("write and load changed the system")
		}
	})
}

// TestConfigNamingAModelInFiles: model: takes a list of files, as --model
// does (relative paths against the configuration's folder), and gives the
// system LoadModel reads; a wrong entry names its index.
func TestConfigNamingAModelInFiles(t *testing.T) {
	pair := democarPair(t)
	want, err := LoadModel(pair)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	abs, _ := filepath.Abs(pair[0])
	abs1, _ := filepath.Abs(pair[1])
	rel, err := filepath.Rel(dir, abs1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte("model:\n  - "+abs+"\n  - "+rel+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Amalthea) != 2 || len(cfg.System.Tasks) != len(want.System.Tasks) || len(cfg.System.Units) != len(want.System.Units) {
		t.Errorf("model: [two files] read %d files, %d tasks, %d units; --model reads %d tasks, %d units",
			len(cfg.Amalthea), len(cfg.System.Tasks), len(cfg.System.Units), len(want.System.Tasks), len(want.System.Units))
	}
	for _, c := range []struct{ yml, where string }{
		{"model: [a.amxmi, 3]\n", "model[1]"},
		{"model: []\n", "model"},
		{"model: {file: a.amxmi}\n", "model"},
	} {
		if err := os.WriteFile(path, []byte(c.yml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadFile(path)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Where != c.where || ie.File != path {
			t.Errorf("%q: %v, want an error at %s", c.yml, err, c.where)
		}
	}
}
