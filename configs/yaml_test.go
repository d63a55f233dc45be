package configs

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

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
