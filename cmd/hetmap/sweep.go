package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hetmap/hetmap/optimizer/sweep"
	"github.com/hetmap/hetmap/results"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newSweepCmd() *cobra.Command {
	var out string
	var workers int
	var resume bool
	cmd := &cobra.Command{
		Use:   "sweep FILE.yaml",
		Short: "Run the search over the cross product of varied parameters and summarise",
		Long: `Run the mapping search once per element of the cross product of the parameters a
sweep file varies (contention parameters, a core kind's frequency, the GPU model, time
slices, kernel geometry, seeds, …) on a base configuration, and summarise.

The sweep file names the base (a configuration relative to the sweep file, or builtin),
the parameters as a list of {name, kind or task, values or range}, optionally seeds and
keys of the search section to replace; see configs/examples/sweep-contention.yaml. Every
run's configuration is built and checked before any run starts.

Each run goes into its own folder in --out (default results/sweep-<UTC time>/), named by
its index and parameters (run-003_memory.per_core.A57=10ns_search.seed=2), with the files
of hetmap optimize plus sweep-run.json; a folder appears only when its run is complete.
Then summary.csv (one row per run: parameters, seed, feasible, front size, hypervolume
against one reference point for the whole sweep, best value per objective, feasible
share, evaluations, wall time) and summary.html (how each measure moves with each
parameter: median, quartiles and min-max over the seeds and the other parameters).

--workers N runs N runs at a time (default 1); the CPUs are shared among their searches.
The summary does not depend on it. Ctrl-C lets the runs in progress finish and stops;
--resume then finishes the sweep in the same --out without redoing complete runs. A run
without a feasible mapping is a result of the sweep, not an error: the exit code is 0
once every run is complete, 1 when the sweep was interrupted.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := args[0]
			sw, err := sweep.Load(file)
			if err != nil {
				return err
			}
			if out == "" {
				if resume {
					return errors.New("--resume needs --out: the folder of the sweep to finish")
				}
				out = filepath.Join("results", "sweep-"+time.Now().UTC().Format("20060102T150405Z"))
			}
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			ctx, cancel := context.WithCancel(cmd.Context())
			defer cancel()
			sigs := make(chan os.Signal, 1)
			signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sigs)
			go func() {
				select {
				case <-sigs:
					signal.Stop(sigs) // a second Ctrl-C ends the process at once
					fmt.Fprintln(stderr, "\nhetmap: interrupted: no further run starts; the runs in progress finish first (Ctrl-C again to stop at once)")
					cancel()
				case <-ctx.Done():
				}
			}()
			bar := newSweepProgress(stderr, len(sw.Runs))
			opts := sweep.Options{Out: out, Resume: resume, Workers: workers, Version: version,
				OnRun: func(ev sweep.Event) {
					bar.clear()
					what := "complete already, kept"
					if ev.Outcome != nil {
						what = fmt.Sprintf("%s, %d evaluations in %s", describe(ev.Outcome), ev.Outcome.Evaluations, ev.Outcome.Wall.Round(time.Millisecond))
					}
					fmt.Fprintf(stdout, "%*d/%d  %s: %s\n", len(fmt.Sprint(ev.Total)), ev.Done, ev.Total, ev.Run.Name, what)
					bar.set(ev)
				}}
			rep, err := sweep.Run(ctx, sw, opts)
			bar.finish()
			if errors.Is(err, sweep.ErrStopped) {
				return &problemError{fmt.Sprintf("interrupted: %d of %d runs are complete in %s; finish the sweep with: hetmap sweep %s --out %s --resume",
					rep.Resumed+rep.Ran, rep.Total, out, file, out)}
			}
			if err != nil {
				if rep != nil && rep.Resumed+rep.Ran > 0 {
					return fmt.Errorf("%w\n(the %d complete runs stay in %s: after fixing the cause, finish with --resume)", err, rep.Resumed+rep.Ran, out)
				}
				return err
			}
			feasible := 0
			for _, r := range rep.Summary.Rows {
				if r.Feasible {
					feasible++
				}
			}
			fmt.Fprintf(stdout, "\n%d runs (%d complete already, %d run now), %d with a feasible mapping; summary in %s and %s\n",
				rep.Total, rep.Resumed, rep.Ran, feasible, filepath.Join(out, results.SweepSummaryCSV), filepath.Join(out, results.SweepSummaryHTML))
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "folder of the sweep (default results/sweep-<UTC time>)")
	cmd.Flags().IntVar(&workers, "workers", 1, "runs at a time; their searches share the CPUs")
	cmd.Flags().BoolVar(&resume, "resume", false, "finish an interrupted sweep in --out, keeping its complete runs")
	return cmd
}

// sweepProgress shows a bar over the runs on a terminal and nothing
// elsewhere (logs, tests).
type sweepProgress struct {
	bar *progressbar.ProgressBar
}

func newSweepProgress(w io.Writer, total int) *sweepProgress {
	p := &sweepProgress{}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("sweep runs"),
			progressbar.OptionShowCount(), progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		_ = p.bar.RenderBlank()
	}
	return p
}

func (p *sweepProgress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

func (p *sweepProgress) set(ev sweep.Event) {
	if p.bar != nil {
		_ = p.bar.Set(ev.Done)
	}
}

func (p *sweepProgress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
