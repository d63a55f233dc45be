package results

import (
	"github.com/hetmap/hetmap/configs"
)

// A sweep folder (`hetmap sweep`) holds sweep.yaml (the sweep file as
// given), one folder per run with the files of an optimize run plus
// sweep-run.json, and, once every run is complete, summary.csv and
// summary.html.
const (
	SweepFileName    = "sweep.yaml"
	SweepRunFileName = "sweep-run.json"
)

// SweepRunRecord is sweep-run.json: what a run folder of a sweep adds to
// the files of an optimize run.
type SweepRunRecord struct {
	Index    int                    `json:"index"`
	Name     string                 `json:"name"`
	Settings []configs.SweepSetting `json:"parameters"`
	// FeasibleEvaluations counts the evaluated mappings that meet every
	// deadline (from the search's last progress report); nil when unknown.
	FeasibleEvaluations *int `json:"feasible_evaluations"`
	Evaluations         int  `json:"evaluations"`
	ResultsFormat       int  `json:"results_format"`
}

// IsSweepTemp reports whether a name in a sweep folder is a temporary
// folder or file of a run or a summary in progress, or one that an
// interrupted run left behind (see IsTemp).
func IsSweepTemp(name string) bool { return IsTemp(name) }
