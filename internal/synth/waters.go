package synth

import "github.com/hetmap/hetmap/configs"

// FeasibleWATERS returns the feasible mapping of the built-in WATERS 2019
// model that the README shows (cmd/hetmap/testdata/waters_feasible.yaml):
// the tests of the evaluation and of the results analyse it.
func FeasibleWATERS() *configs.Mapping {
	high := configs.GPUHigh
	return &configs.Mapping{
		Units: []configs.Placement{
			{Task: "Planner", Unit: "Core0"},
			{Task: "Lidar_Grabber", Unit: "Core1"}, {Task: "PRE_SFM_gpu_POST", Unit: "Core1"},
			{Task: "OS_Overhead", Unit: "Core2"}, {Task: "PRE_Detection_gpu_POST", Unit: "Core2"},
			{Task: "DASM", Unit: "Core3"}, {Task: "CANbus_polling", Unit: "Core3"}, {Task: "EKF", Unit: "Core3"},
			{Task: "Lane_detection", Unit: "Core4"},
			{Task: "Localization", Unit: "Core5"},
			{Task: "SFM", Unit: "GP10B"}, {Task: "Detection", Unit: "GP10B"},
		},
		Offloading:    []configs.OffloadChoice{{Task: "SFM", Mode: configs.Async}, {Task: "Detection", Mode: configs.Async}},
		GPUPriorities: []configs.GPUPrioritySet{{Task: "SFM", Priority: high}},
	}
}
