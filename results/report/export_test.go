package report

// What the external tests (package report_test) use of the report's
// inside: they write their run folders with results/runwrite, a package
// above this one, which an internal test cannot import.

var (
	LoadRun     = loadRun
	WriteReport = writeReport
	// Budget is what a report may take (MaxBytes; a test lowers it).
	Budget = &reportBudget
)

// PointIDs are the numbers of the points the report shows.
func (run *reportRun) PointIDs() []int {
	ids := make([]int, len(run.points))
	for i, p := range run.points {
		ids[i] = p.ID
	}
	return ids
}

// LoadPoint is loadPoint.
func (run *reportRun) LoadPoint(id int) (*reportPoint, error) { return run.loadPoint(id) }
