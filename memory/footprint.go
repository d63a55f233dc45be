package memory

import (
	"fmt"
	"math"

	"github.com/hetmap/hetmap/rta/sat"
)

// Footprint is what one job of a task moves between DRAM and its core: its
// lines and its memory phases. Under the read/execute/write semantic a
// runnable that reads at least one line has one read phase (all its reads,
// back to back, before it computes) and one that writes at least one line
// has one write phase; a runnable that moves nothing has none. Phases of
// consecutive runnables may touch; counting them apart only overcounts.
// Build it once per task and unit with AddLabels or AddRunnable, then turn
// it into a Demand with OnCore.
type Footprint struct {
	Lines  int64 // lines read and written by one job
	Phases int64 // read phases plus write phases of one job
}

// UnknownLabelError reports a label that a runnable accesses but the line
// table does not hold.
type UnknownLabelError struct{ Label string }

func (e *UnknownLabelError) Error() string {
	return fmt.Sprintf("memory: label %q has no line count", e.Label)
}

// AddRunnable adds a runnable that reads readLines and writes writeLines
// lines: their sum to Lines, and one phase for each non-zero count. It
// reports ErrNegative or ErrOverflow and then leaves f unchanged.
func (f *Footprint) AddRunnable(readLines, writeLines int64) error {
	if readLines < 0 || writeLines < 0 {
		return ErrNegative
	}
	lines := f.Lines
	for _, n := range [2]int64{readLines, writeLines} {
		if n > math.MaxInt64-lines {
			return ErrOverflow
		}
		lines += n
	}
	f.Lines = lines
	if readLines > 0 {
		f.Phases++
	}
	if writeLines > 0 {
		f.Phases++
	}
	return nil
}

// AddLabels adds a runnable given by the labels it reads and writes; lines
// maps a label to its number of lines (Lines(size, line size)). A label
// read or written twice counts twice, as its accesses do. It reports an
// *UnknownLabelError for a label lines does not hold, and the errors of
// AddRunnable; f is then unchanged. It allocates only for the error.
func (f *Footprint) AddLabels(reads, writes []string, lines map[string]int64) error {
	r, err := labelLines(reads, lines)
	if err != nil {
		return err
	}
	w, err := labelLines(writes, lines)
	if err != nil {
		return err
	}
	return f.AddRunnable(r, w)
}

// labelLines returns the sum of the lines of labels.
func labelLines(labels []string, lines map[string]int64) (int64, error) {
	var sum int64
	for _, l := range labels {
		n, ok := lines[l]
		if !ok {
			return 0, &UnknownLabelError{Label: l}
		}
		if n < 0 {
			return 0, ErrNegative
		}
		if n > math.MaxInt64-sum {
			return 0, ErrOverflow
		}
		sum += n
	}
	return sum, nil
}

// Add adds the footprint g (further runnables of the same job, such as the
// ones an asynchronously offloading task runs after it resumes),
// saturating at math.MaxInt64.
func (f *Footprint) Add(g Footprint) {
	f.Lines = sat.Add(nonneg(f.Lines), nonneg(g.Lines))
	f.Phases = sat.Add(nonneg(f.Phases), nonneg(g.Phases))
}

// OnCore returns the Demand of a task with this footprint on an
// interfering core, with period T, response-time bound R (from arrival)
// and suspensions self-suspensions per job (0, or 1 for a task that
// offloads asynchronously). Splits is 1 + suspensions: a job becomes ready
// at its release and again after each suspension, and each time it may
// preempt, and so cut in two, one memory phase of a lower-priority job.
func (f Footprint) OnCore(period, response, suspensions int64) Demand {
	return Demand{Period: period, Response: response, Lines: f.Lines, Phases: f.Phases,
		Splits: sat.Add(1, nonneg(suspensions))}
}

// CopyDemand returns the Demand of a GPU task on the copy engine: period T,
// response-time bound R from the arrival of its offloading task's job
// (release jitter included), and its copy-in and copy-out lines. Each
// non-empty copy is one busy interval of the copy engine, which moves one
// copy at a time and does not preempt it, so Splits is 0.
func CopyDemand(period, response, copyInLines, copyOutLines int64) Demand {
	d := Demand{Period: period, Response: response,
		Lines: sat.Add(nonneg(copyInLines), nonneg(copyOutLines))}
	if copyInLines > 0 {
		d.Phases++
	}
	if copyOutLines > 0 {
		d.Phases++
	}
	return d
}
