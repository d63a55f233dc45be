package configs

import (
	"reflect"
	"strings"
	"testing"
)

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
