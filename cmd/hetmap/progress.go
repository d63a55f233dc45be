package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// plainProgressEvery is how often a search that does not run on a terminal
// (a log, CI) writes a progress line, whatever stage it is in; 0 writes
// one at every report.
var plainProgressEvery = 5 * time.Second

// isTerminal reports whether w (or the writer a lockedWriter wraps) is a
// terminal.
func isTerminal(w io.Writer) bool {
	if l, ok := w.(*lockedWriter); ok {
		w = l.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// lockedWriter serialises the writes of several goroutines to one writer:
// run wraps stderr in one, which the progress lines (a ticker's goroutine)
// and the notice of a signal (withInterrupt's) write while the command
// writes too.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// searchProgress shows how a search goes, stage by stage (choosing the
// algorithm, building the initial population, the search, analysing the
// front, writing): on a terminal a bar of the share done with the counts
// beside it, redrawn in place; elsewhere a plain line every
// plainProgressEvery, written by a goroutine of its own so that a stage
// that reports seldom (or a long analysis) still shows its time passing.
// Its methods may be called from any goroutine.
type searchProgress struct {
	mu          sync.Mutex
	w           io.Writer
	bar         *progressbar.ProgressBar
	generations int
	latest      moo.Progress
	at          time.Time // when latest came; the start before any report
	reported    bool      // latest holds a report
	printed     bool
	quit, ended chan struct{}
}

func newSearchProgress(w io.Writer, s configs.Search) *searchProgress {
	p := &searchProgress{w: w, generations: s.Generations, at: time.Now(), quit: make(chan struct{}), ended: make(chan struct{})}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(1000, progressbar.OptionSetWriter(w), progressbar.OptionSetWidth(20),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish(),
			progressbar.OptionSetElapsedTime(false), progressbar.OptionSetPredictTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(), progressbar.OptionSetDescription("starting the search"))
		_ = p.bar.RenderBlank()
	}
	if p.bar != nil || plainProgressEvery <= 0 {
		close(p.ended)
		return p
	}
	go func() {
		defer close(p.ended)
		t := time.NewTicker(plainProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-t.C:
				p.mu.Lock()
				p.printLocked()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// printLocked writes the latest state as a line, its elapsed time brought
// up to now.
func (p *searchProgress) printLocked() {
	pr := p.latest
	pr.Elapsed += time.Since(p.at)
	line := "starting the search, " + roundDuration(pr.Elapsed)
	if p.reported {
		line = describeProgress(pr, p.generations)
	}
	fmt.Fprintln(p.w, "progress:", line)
	p.printed = true
}

// update takes a progress report of the search or of a stage around it.
func (p *searchProgress) update(pr moo.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.latest, p.at, p.reported = pr, time.Now(), true
	switch {
	case p.bar != nil:
		p.bar.Describe(describeProgress(pr, p.generations))
		_ = p.bar.Set(int(shareDone(pr) * 1000))
	case plainProgressEvery <= 0:
		p.printLocked()
	}
}

// finish clears the bar; in a log it stops the lines and writes the last
// state, when it wrote any line before.
func (p *searchProgress) finish() {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	<-p.ended
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		return
	}
	if p.printed && plainProgressEvery > 0 {
		pr := p.latest
		fmt.Fprintln(p.w, "progress:", describeProgress(pr, p.generations))
	}
}

// shareDone is the share of the work a report says is done: the search's
// Done, a stage's steps over their number (0 when unknown).
func shareDone(pr moo.Progress) float64 {
	if pr.Stage == "" {
		return pr.Done
	}
	if pr.Steps > 0 {
		return min(1, float64(pr.Step)/float64(pr.Steps))
	}
	return 0
}

// describeProgress writes a progress report in one line:
//
//	building the initial population: 12/50 mappings, 5s, about 15s left
//	generation 120/1000, 12100 evaluations, 3400 feasible, front 7, 5s, about 35s left
//	generation 320/1000, 32100 evaluations, 21400 feasible, front 187, improved 0.71 % in 50 generations (stops at 0.5 %), 40s, about 12s left
//	1234567 evaluations, 45 feasible, front 9, 2345 cuts, 3% walked, 12s, about 6m30s left
//	1234567 evaluations, 45 feasible, front 9, 2345 cuts, 4.1 million nodes walked, more than the 3.2 million estimated, 12s, time left unknown
//
// The time left is the elapsed time scaled by the share still to do,
// given once a second has passed and a thousandth is done, unless the
// share is too rough a guess (moo.Progress.Uncertain: the exhaustive
// search's size estimate is loose or has been passed): the line then says
// that the time left is unknown. For the genetic search the share counts
// the generations it is expected to take before its front stops
// improving (moo.Stall: the improvement's fall followed to the tolerance),
// within the limits. generations is the search's number of generations
// (NSGA-II).
func describeProgress(pr moo.Progress, generations int) string {
	var b strings.Builder
	done := shareDone(pr)
	switch {
	case pr.Stage != "":
		b.WriteString(pr.Stage)
		if pr.Steps > 0 {
			fmt.Fprintf(&b, ": %d/%d", pr.Step, pr.Steps)
		}
	case pr.Exhaustive:
		fmt.Fprintf(&b, "%d evaluations, %d feasible, front %d, %d cuts", pr.Evaluations, pr.Feasible, pr.ArchiveSize, pr.Pruned)
		switch {
		case pr.Done >= 1:
			b.WriteString(", 100% walked")
		case pr.Size <= 0:
			fmt.Fprintf(&b, ", %s nodes walked of an unknown number (more than 10^18 estimated)", countWords(float64(pr.Examined)))
		case float64(pr.Examined) > pr.Size:
			fmt.Fprintf(&b, ", %s nodes walked, more than the %s estimated", countWords(float64(pr.Examined)), countWords(pr.Size))
		default:
			fmt.Fprintf(&b, ", %s walked", donePercent(pr.Done))
		}
	default:
		fmt.Fprintf(&b, "generation %d/%d, %d evaluations, %d feasible, front %d", pr.Generation, generations, pr.Evaluations, pr.Feasible, pr.ArchiveSize)
		if pr.StallWindow > 0 && !math.IsInf(pr.Improvement, 0) {
			// How far the search is from stopping on its own.
			fmt.Fprintf(&b, ", improved %s in %d generations (stops at %s)", improvementPercent(pr.Improvement), pr.StallWindow, improvementPercent(pr.StallTolerance))
		}
	}
	fmt.Fprintf(&b, ", %s", roundDuration(pr.Elapsed))
	switch {
	case done >= 1 || pr.Stage != "" && pr.Steps == 0:
	case pr.Uncertain:
		b.WriteString(", time left unknown")
	case done >= 0.001 && pr.Elapsed >= time.Second:
		left := time.Duration(float64(pr.Elapsed) * (1 - done) / done)
		fmt.Fprintf(&b, ", about %s left", roundDuration(left))
	}
	return b.String()
}

// countWords writes a count for people: 4100, 3.2 million, 12.5 billion,
// and from 10^12 on the power of ten.
func countWords(v float64) string {
	switch {
	case v >= 1e12:
		return fmt.Sprintf("about 10^%d", int(math.Floor(math.Log10(v))))
	case v >= 1e9:
		return fmt.Sprintf("%.1f billion", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.1f million", v/1e6)
	}
	return fmt.Sprintf("%.0f", v)
}

// improvementPercent writes the front's improvement over the stall window
// (moo.Stall, a share of its extent) with two significant digits.
func improvementPercent(v float64) string {
	return strconv.FormatFloat(100*v, 'g', 2, 64) + " %"
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
