package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
)

// A sweep folder (`hetmap sweep`) holds sweep.yaml (the sweep file as
// given), one folder per run with the files of an optimize run plus
// sweep-run.json, and, once every run is complete, summary.csv and
// summary.html.
const (
	SweepFileName      = "sweep.yaml"
	SweepRunFileName   = "sweep-run.json"
	sweepResultsFormat = 1
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

// SweepRunData is a complete run folder as read back.
type SweepRunData struct {
	Record   SweepRunRecord
	Manifest Manifest
	// Front holds the objectives of the front points (ms for latencies).
	Front [][]float64
	// Report: the folder has a report.html.
	Report bool
}

// WriteSweepRun writes one run of a sweep into out/run.Name, which must not
// exist: the files of an optimize run (WriteRun) and sweep-run.json, through
// a claim on the folder (ClaimDir), so that the run folder appears only
// complete. feasible < 0 means unknown.
func WriteSweepRun(out string, run *configs.SweepRun, res *optimizer.Outcome, info RunInfo, feasible int) error {
	c, err := ClaimDir(filepath.Join(out, run.Name))
	if err != nil {
		return err
	}
	return c.WriteSweepRun(run, res, info, feasible)
}

// WriteSweepRun writes one run of a sweep into the claimed folder (see
// the function WriteSweepRun).
func (c *Claim) WriteSweepRun(run *configs.SweepRun, res *optimizer.Outcome, info RunInfo, feasible int) error {
	return c.Commit(func(dir string) error {
		if err := writeRunFiles(dir, run.Config, res, info); err != nil {
			return err
		}
		rec := SweepRunRecord{Index: run.Index, Name: run.Name, Settings: run.Settings, Evaluations: res.Evaluations, ResultsFormat: sweepResultsFormat}
		if feasible >= 0 {
			rec.FeasibleEvaluations = &feasible
		}
		return writeJSON(filepath.Join(dir, SweepRunFileName), rec)
	})
}

// IsSweepTemp reports whether a name in a sweep folder is a temporary
// folder or file of a run or a summary in progress, or one that an
// interrupted run left behind (see IsTemp).
func IsSweepTemp(name string) bool { return IsTemp(name) }

// ReadSweepRun reads a complete run folder.
func ReadSweepRun(dir string) (*SweepRunData, error) {
	var d SweepRunData
	if err := sweepReadJSON(filepath.Join(dir, SweepRunFileName), &d.Record); err != nil {
		return nil, err
	}
	if err := sweepReadJSON(filepath.Join(dir, "manifest.json"), &d.Manifest); err != nil {
		return nil, err
	}
	// front.json as a stream: of any size and results format, only the
	// objectives are kept.
	path := filepath.Join(dir, "front.json")
	var head FrontJSON
	err := readFront(path, &head, func(least bool, p *FrontPointJSON) error {
		if !least {
			d.Front = append(d.Front, p.Objectives)
		}
		return nil
	})
	var syntax *frontSyntaxError
	switch {
	case errors.As(err, &syntax):
		return nil, fmt.Errorf("%s: %v", path, syntax.err)
	case err != nil:
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		d.Report = true
	}
	if len(d.Front) != d.Manifest.FrontSize {
		return nil, fmt.Errorf("%s: front.json has %d points, manifest.json says %d", dir, len(d.Front), d.Manifest.FrontSize)
	}
	return &d, nil
}

func sweepReadJSON(path string, v any) error {
	data, err := configs.ReadInput(path, "the run's "+filepath.Base(path))
	if err != nil {
		return atPath(path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
