package amalthea

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// priorityModel is the synthetic model with T1 and T2 on core C0, T1 given
// priority 1 and T2 priority 5.
func priorityModel(t *testing.T) string {
	return synth(t, `<taskAllocation task="T1?type=Task" scheduler="S0?type=TaskScheduler" affinity="C0?type=ProcessingUnit"/>
    <taskAllocation task="T2?type=Task" scheduler="S0?type=TaskScheduler" affinity="C1?type=ProcessingUnit"/>`,
		`<taskAllocation task="T1?type=Task" scheduler="S0?type=TaskScheduler" affinity="C0?type=ProcessingUnit"><schedulingParameters priority="1"/></taskAllocation>
    <taskAllocation task="T2?type=Task" scheduler="S0?type=TaskScheduler" affinity="C0?type=ProcessingUnit"><schedulingParameters priority="5"/></taskAllocation>`)
}

// TestPriorityConventions: conventions.priorities reads the model's
// priorities higher first (model, the default: T2, 5, above T1, 1), lower
// first (model-lower-first: T1 above T2, hetmap's priorities the values
// negated), or not at all (derived: none, with one warning instead of the
// warnings about their use), in a configuration that names the model; an
// unknown convention is an error naming the key and the choices.
func TestPriorityConventions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.amxmi"), []byte(priorityModel(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		convention configs.PriorityConvention
		want       string // T1's and T2's priorities under --mapping default
		warn       string
	}{
		{"", "1 5", ""},
		{configs.ModelPriorities, "1 5", ""},
		{configs.ModelPrioritiesLower, "-1 -5", ""},
		{configs.ModelPrioritiesIgnore, "- -", "conventions.priorities: derived: the 2 priorities of the model's own mapping are ignored; --mapping default derives every core's priorities by analysis.priorities"},
	} {
		t.Run(string(c.convention), func(t *testing.T) {
			yaml := "model: m.amxmi\n"
			if c.convention != "" {
				yaml += "conventions: {priorities: " + string(c.convention) + "}\n"
			}
			cfg, err := configs.Load(strings.NewReader(yaml), "c.yaml", dir)
			if err != nil {
				t.Fatal(err)
			}
			m, _ := cfg.OwnMapping()
			var got []string
			for _, task := range []string{"T1", "T2"} {
				p := "-"
				for _, pl := range m.Units {
					if pl.Task == task && pl.Priority != nil {
						p = strconv.Itoa(*pl.Priority)
					}
				}
				got = append(got, p)
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("priorities of T1, T2: %s, want %s", strings.Join(got, " "), c.want)
			}
			if c.warn != "" && !strings.Contains(warningsText(cfg.Warnings), c.warn) {
				t.Errorf("warnings:\n%s\nwant %s", warningsText(cfg.Warnings), c.warn)
			}
			// The model's own priorities stay as the model gives them.
			if p := placementOf(cfg.System, "T1"); p == nil || p.Priority == nil || *p.Priority != 1 {
				t.Errorf("the system's own mapping changed: %+v", p)
			}
		})
	}
	_, err := configs.Load(strings.NewReader("model: builtin\nconventions: {priorities: lowest}\n"), "c.yaml", ".")
	if err == nil || !strings.Contains(err.Error(), `c.yaml: conventions.priorities: "lowest" is not a priority convention (model:`) {
		t.Errorf("unknown convention: %v", err)
	}
}
