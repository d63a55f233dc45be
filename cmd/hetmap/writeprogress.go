package main

import (
	"fmt"
	"io"
	"time"

	"github.com/hetmap/hetmap/results"
)

// writeProgress shows how writing a run folder goes: on a terminal a line
// redrawn in place, elsewhere (a log) a line every plainProgressEvery and
// one at the end when it wrote any, as the search's progress does.
type writeProgress struct {
	w        io.Writer
	terminal bool
	started  time.Time
	last     time.Time
	latest   results.WriteProgress
	printed  bool
	drawn    bool
}

func newWriteProgress(w io.Writer) *writeProgress {
	now := time.Now()
	return &writeProgress{w: w, terminal: isTerminal(w), started: now, last: now}
}

// update takes a report of the writer.
func (p *writeProgress) update(pr results.WriteProgress) {
	p.latest = pr
	switch {
	case p.terminal:
		if time.Since(p.last) >= 200*time.Millisecond || !p.drawn {
			p.last, p.drawn = time.Now(), true
			fmt.Fprintf(p.w, "\r\033[K%s", p.describe())
		}
	case time.Since(p.last) >= plainProgressEvery:
		p.last, p.printed = time.Now(), true
		fmt.Fprintln(p.w, "progress:", p.describe())
	}
}

func (p *writeProgress) describe() string {
	return fmt.Sprintf("%s, %s", p.latest, roundDuration(time.Since(p.started)))
}

// finish clears the terminal's line; in a log it writes the last state,
// when it wrote any line before.
func (p *writeProgress) finish() {
	switch {
	case p.terminal && p.drawn:
		fmt.Fprint(p.w, "\r\033[K")
	case p.printed:
		fmt.Fprintln(p.w, "progress:", p.describe())
	}
}
