package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// plainProgressEvery is how often a search that does not run on a terminal
// (a log, CI) writes a progress line.
var plainProgressEvery = 5 * time.Second

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// searchProgress shows how a search goes: on a terminal a bar of the share
// done with the counts beside it, redrawn in place; elsewhere a plain line
// every plainProgressEvery. Its methods are called from one goroutine.
type searchProgress struct {
	w           io.Writer
	bar         *progressbar.ProgressBar
	exhaustive  bool
	generations int
	last        time.Time
	latest      moo.Progress
	printed     bool
}

func newSearchProgress(w io.Writer, s configs.Search) *searchProgress {
	p := &searchProgress{w: w, exhaustive: s.Algorithm == configs.AlgorithmExhaustive, generations: s.Generations, last: time.Now()}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(1000, progressbar.OptionSetWriter(w), progressbar.OptionSetWidth(20),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish(),
			progressbar.OptionSetElapsedTime(false), progressbar.OptionSetPredictTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(), progressbar.OptionSetDescription("starting the search"))
		_ = p.bar.RenderBlank()
	}
	return p
}

// update takes a progress report of the search.
func (p *searchProgress) update(pr moo.Progress) {
	p.latest = pr
	if p.bar != nil {
		p.bar.Describe(describeProgress(pr, p.exhaustive, p.generations))
		_ = p.bar.Set(int(pr.Done * 1000))
		return
	}
	if time.Since(p.last) >= plainProgressEvery {
		p.last = time.Now()
		p.printed = true
		fmt.Fprintln(p.w, "progress:", describeProgress(pr, p.exhaustive, p.generations))
	}
}

// finish clears the bar; in a log it writes the last state, when it wrote
// any line before.
func (p *searchProgress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		return
	}
	if p.printed {
		fmt.Fprintln(p.w, "progress:", describeProgress(p.latest, p.exhaustive, p.generations))
	}
}

// describeProgress writes a progress report in one line:
//
//	generation 120/1000, 12100 evaluations, 3400 feasible, front 7, 5s, about 35s left
//	1234567 evaluations, 45 feasible, front 9, 2345 cuts, 3% walked, 12s, about 6m30s left
//
// The time left is the elapsed time scaled by the share still to do (for
// the exhaustive search an estimate; see moo.Progress.Done), given once a
// second has passed and a thousandth is done.
func describeProgress(pr moo.Progress, exhaustive bool, generations int) string {
	var b strings.Builder
	if !exhaustive {
		fmt.Fprintf(&b, "generation %d/%d, ", pr.Generation, generations)
	}
	fmt.Fprintf(&b, "%d evaluations, %d feasible, front %d", pr.Evaluations, pr.Feasible, pr.ArchiveSize)
	if exhaustive {
		fmt.Fprintf(&b, ", %d cuts, %s walked", pr.Pruned, donePercent(pr.Done))
	}
	fmt.Fprintf(&b, ", %s", roundDuration(pr.Elapsed))
	if pr.Done >= 0.001 && pr.Done < 1 && pr.Elapsed >= time.Second {
		left := time.Duration(float64(pr.Elapsed) * (1 - pr.Done) / pr.Done)
		fmt.Fprintf(&b, ", about %s left", roundDuration(left))
	}
	return b.String()
}

func donePercent(done float64) string {
	if done < 0.1 {
		return fmt.Sprintf("%.1f%%", 100*done)
	}
	return fmt.Sprintf("%.0f%%", 100*done)
}

// roundDuration rounds to what a person reads at a glance: seconds below
// an hour, minutes above.
func roundDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d < time.Hour:
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}
