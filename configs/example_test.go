package configs_test

import (
	"fmt"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// The built-in WATERS 2019 system: tasks, their periods and the unit kinds
// they may run on.
func ExampleDefault() {
	cfg, err := configs.Default()
	if err != nil {
		panic(err)
	}
	s := cfg.System
	fmt.Println(len(s.Units), "units,", len(s.Tasks), "tasks,", len(s.Chains), "chains")
	planner := s.Task("Planner")
	ticks, _ := s.WorstTicks(planner, "Denver")
	fmt.Println("Planner:", planner.Period, "period,", ticks, "worst-case ticks on Denver")
	fmt.Println("Detection may run on:", s.AllowedUnits(s.Task("Detection")))
	// Output:
	// 7 units, 14 tasks, 8 chains
	// Planner: 15ms period, 24873529 worst-case ticks on Denver
	// Detection may run on: [GP10B]
}

// A configuration that names an unknown key is an error that says where.
func ExampleLoad() {
	_, err := configs.Load(strings.NewReader("conventions: {deadline: model}\n"), "my.yaml", ".")
	fmt.Println(err)
	// Output:
	// my.yaml: conventions: unknown key(s) deadline
}

func ExampleParseDuration() {
	d, _ := configs.ParseDuration("1000 µs") // as Amalthea writes time slices
	fmt.Println(d, int64(d), "ps")
	// Output: 1ms 1000000000 ps
}
