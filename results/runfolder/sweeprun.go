package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/results"
)

// SweepRunData is a complete run folder as read back.
type SweepRunData struct {
	Record   results.SweepRunRecord
	Manifest results.Manifest
	// Front holds the objectives of the front points (ms for latencies).
	Front [][]float64
	// Report: the folder has a report.html.
	Report bool
}

// ReadSweepRun reads a complete run folder.
func ReadSweepRun(dir string) (*SweepRunData, error) {
	var d SweepRunData
	if err := sweepReadJSON(filepath.Join(dir, results.SweepRunFileName), &d.Record); err != nil {
		return nil, err
	}
	if err := sweepReadJSON(filepath.Join(dir, "manifest.json"), &d.Manifest); err != nil {
		return nil, err
	}
	// front.json as a stream: of any size and results format, only the
	// objectives are kept.
	path := filepath.Join(dir, "front.json")
	var head results.FrontJSON
	err := readFront(path, &head, func(least bool, p *results.FrontPointJSON) error {
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
