package results

import (
	"fmt"

	"github.com/hetmap/hetmap/optimizer"
)

// DetailPoints is how many points of a front (or least-violating
// mappings) a run folder details: the first ones get their full
// evaluation file (mappings/point-N.json) and their section in
// report.html. The others are a row of the front's table with their
// verdict and margins in front.json; `hetmap report DIR --point N` writes
// the page of any of them, `hetmap analyze --json` its full evaluation. An
// interrupted run details none, so that it ends promptly.
const DetailPoints = optimizer.DetailPoints

// WriteProgress says how far writing a run folder has come: Done of Total
// steps of Stage.
type WriteProgress struct {
	Stage       string // StagePoints or StageReport
	Done, Total int
}

// The stages of writing a run folder.
const (
	// StagePoints: front.json, front.csv and the mapping files, one point
	// after the other.
	StagePoints = "points"
	// StageReport: report.html, one detailed point after the other.
	StageReport = "report"
)

func (p WriteProgress) String() string {
	if p.Stage == StageReport {
		return fmt.Sprintf("writing report.html: %d of %d detailed point(s)", p.Done, p.Total)
	}
	return fmt.Sprintf("writing front.json, front.csv and the mappings: %d of %d point(s)", p.Done, p.Total)
}
