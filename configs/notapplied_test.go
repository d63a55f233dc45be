package configs

import (
	"reflect"
	"strings"
	"testing"
)

// The model's requirements that the deadline convention sets aside are
// kept (Task.Requirement) and listed with the option that applies them,
// from the built-in YAML and from the Amalthea file alike. WATERS 2019
// (waters2019.md): every task's requirement equals its period except
// Planner's, 12 ms against 15 ms; OS_Overhead has none. So under
// deadlines: period only Planner is listed (checked against 15 ms), and
// under deadlines: model nothing is (every requirement is its deadline).
func TestNotAppliedRequirements(t *testing.T) {
	planner := []NotApplied{{Task: "Planner", Requirement: 12 * Millisecond, Deadline: 15 * Millisecond, AppliedBy: "conventions.deadlines: model"}}
	load := map[string]func(t *testing.T) *Config{
		"built-in": func(t *testing.T) *Config {
			cfg, err := Default()
			if err != nil {
				t.Fatal(err)
			}
			return cfg
		},
		"amalthea": func(t *testing.T) *Config {
			if testing.Short() {
				t.Skip("reads ../shared")
			}
			cfg, err := LoadModel([]string{officialModel(t)})
			if err != nil {
				t.Fatal(err)
			}
			return cfg
		},
	}
	for _, c := range []struct {
		source     string
		convention DeadlineConvention
		want       []NotApplied
	}{
		{"built-in", DeadlinesPeriod, planner},
		{"built-in", DeadlinesModel, nil},
		{"amalthea", DeadlinesPeriod, planner},
		{"amalthea", DeadlinesModel, nil},
	} {
		t.Run(c.source+"/"+string(c.convention), func(t *testing.T) {
			cfg := load[c.source](t)
			cfg.Conventions.Deadlines = c.convention
			if err := Validate(cfg); err != nil {
				t.Fatal(err)
			}
			if got := cfg.NotAppliedRequirements(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// A requirement longer than the period (possible only under deadlines:
// period, which checks the period) is listed too, with no option that
// applies it: the model convention refuses it (the analyses need D ≤ T).
func TestNotAppliedLongerThanPeriod(t *testing.T) {
	y := strings.Replace(string(DefaultYAML()), "{name: EKF, period: 15ms, requirement: 15ms,", "{name: EKF, period: 15ms, requirement: 20ms,", 1)
	cfg, err := Load(strings.NewReader(y), "ekf.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []NotApplied{
		{Task: "EKF", Requirement: 20 * Millisecond, Deadline: 15 * Millisecond},
		{Task: "Planner", Requirement: 12 * Millisecond, Deadline: 15 * Millisecond, AppliedBy: "conventions.deadlines: model"},
	}
	if got := cfg.NotAppliedRequirements(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	cfg.Conventions.Deadlines = DeadlinesModel
	if err := Validate(cfg); err == nil || !strings.Contains(err.Error(), "exceeds the period") {
		t.Errorf("the model convention took a requirement longer than the period: %v", err)
	}
}
