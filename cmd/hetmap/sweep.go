package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/sweep"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// sweepFlags are sweep's flags, set by cobra.
type sweepFlags struct {
	out, shardFlag, shardIndex     string
	workers, checkpointGenerations int
	resume, summarize, dryRun      bool
}

func newSweepCmd() *cobra.Command {
	o := &sweepFlags{}
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

Each run goes into its own folder in --out (default runs/sweep-<UTC time>/), named by
its index and parameters (run-003_memory.per_core.A57=10ns_search.seed=2), with the files
of hetmap optimize plus sweep-run.json; a folder appears only when its run is complete.
Then summary.csv (one row per run: parameters, seed, feasible, front size, hypervolume
against one reference point for the whole sweep, best value per objective, feasible
share, evaluations, wall time) and summary.html (how each measure moves with each
parameter: median, quartiles and min-max over the seeds and the other parameters).

--workers N runs N runs at a time (default 1); the CPUs are shared among their searches.
The summary does not depend on it. Ctrl-C stops the runs in progress and starts no
other (a second Ctrl-C stops at once); --resume then finishes the sweep in the same
--out without redoing complete runs. A run without a feasible mapping is a result of
the sweep, not an error: the exit code is 0 once every run is complete, 130 when the
sweep was interrupted.

Beyond one machine (a Slurm array job, a Kubernetes Indexed Job, GNU parallel over ssh;
see docs/sweeps-on-a-cluster.md): --shard K/N runs only shard K of N, the runs whose
index i has (i-1) mod N = K-1, into the --out that all shards share (created by
whichever comes first; complete runs there are kept, so a shard can be run again).
When every shard is done, --summarize writes summary.csv and summary.html from the run
folders in --out, or lists the runs still missing (exit code 1). --shard-index I/N is
--shard I+1/N, for job arrays that count from 0 (Kubernetes' $(JOB_COMPLETION_INDEX),
Slurm's $SLURM_ARRAY_TASK_ID). --dry-run lists the runs (of the shard) and exits.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return o.run(cmd, args[0]) },
	}
	cmd.Flags().StringVar(&o.out, "out", "", "folder of the sweep (default runs/sweep-<UTC time>)")
	cmd.Flags().IntVar(&o.workers, "workers", 1, "runs at a time; their searches share the CPUs")
	cmd.Flags().BoolVar(&o.resume, "resume", false, "finish an interrupted sweep in --out, keeping its complete runs")
	cmd.Flags().StringVar(&o.shardFlag, "shard", "", "K/N: run only shard K of N (the runs i with (i-1) mod N = K-1) into the shared --out")
	cmd.Flags().StringVar(&o.shardIndex, "shard-index", "", "I/N: the same as --shard I+1/N, for job arrays that count from 0 (JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID)")
	cmd.Flags().BoolVar(&o.summarize, "summarize", false, "write the summary of the sweep in --out from its run folders (after the shards)")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "list the runs (of the shard) and exit")
	// The tests' checkpoints, by generations rather than by the clock.
	cmd.Flags().IntVar(&o.checkpointGenerations, "checkpoint-generations", 0, "save each run's checkpoint every N generations (exhaustive: top-level subtrees) instead of every search.checkpoint_seconds")
	_ = cmd.Flags().MarkHidden("checkpoint-generations")
	return cmd
}

// run is sweep of the sweep file file: it checks the flags, loads the
// sweep, and lists its runs, summarises its folder or runs it.
func (o *sweepFlags) run(cmd *cobra.Command, file string) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	out, workers := o.out, o.workers
	if cmd.Flags().Changed("workers") && workers < 1 {
		return fmt.Errorf("--workers %d: give at least 1 run at a time", workers)
	}
	shard, err := o.shard()
	if err != nil {
		return err
	}
	sw, err := sweep.Load(file)
	if err != nil {
		return err
	}
	if workers > runtimeCPUs() {
		fmt.Fprintf(stderr, "note: --workers %d is more than the %d CPUs; running %d runs at a time\n", workers, runtimeCPUs(), runtimeCPUs())
		workers = runtimeCPUs()
	}
	if o.dryRun {
		listRuns(stdout, sw, shard)
		return nil
	}
	if o.summarize {
		return summarizeFolder(stdout, sw, file, out)
	}
	if out == "" {
		out = filepath.Join(runsFolder, "sweep-"+time.Now().UTC().Format("20060102T150405Z"))
	}
	if n := maxSearchWorkers(sw); n > runtimeCPUs() {
		fmt.Fprintf(stderr, "note: search.workers %d is more than the %d CPUs; each run uses at most %d\n", n, runtimeCPUs(), runtimeCPUs())
	}
	fmt.Fprintln(stderr, workersLine(shard.Runs(sw), workers))
	ctx, stop := withInterrupt(cmd.Context(), stderr, "interrupted: stopping the runs in progress (with --resume a run continues from its last checkpoint); no further run starts")
	defer stop()
	total := len(shard.Runs(sw))
	bar := newSweepProgress(stderr, total)
	plain := newSweepLog(stderr, total, bar.bar == nil)
	opts := sweep.Options{Out: out, Resume: o.resume, Shard: shard, Workers: workers, Version: version, CheckpointGenerations: o.checkpointGenerations,
		OnRun: func(ev sweep.Event) {
			plain.done(ev)
			bar.clear()
			what := "complete already, kept"
			switch {
			case ev.ByOther:
				what = "completed by another process, kept"
			case ev.Outcome != nil:
				what = fmt.Sprintf("%s, %d evaluations in %s", describe(ev.Outcome), ev.Outcome.Evaluations, ev.Outcome.Wall.Round(time.Millisecond))
			}
			fmt.Fprintf(stdout, "%*d/%d  %s: %s\n", len(fmt.Sprint(ev.Total)), ev.Done, ev.Total, ev.Run.Name, what)
			bar.set(ev)
		},
		OnHeld:     plain.held,
		OnTakeover: plain.tookOver,
		OnProgress: plain.progress,
	}
	rep, err := sweep.Run(ctx, sw, opts)
	plain.stop()
	bar.finish()
	resumeHint := fmt.Sprintf("hetmap sweep %s --out %s --resume", file, out)
	if shard != nil {
		resumeHint = fmt.Sprintf("hetmap sweep %s --out %s --shard %s", file, out, shard)
	}
	if errors.Is(err, sweep.ErrStopped) {
		return &interruptedError{fmt.Sprintf("interrupted: %d of %d runs are complete in %s; finish with: %s",
			rep.Resumed+rep.Ran, rep.Total, out, resumeHint)}
	}
	if err != nil {
		if rep != nil && rep.Resumed+rep.Ran > 0 {
			return fmt.Errorf("%w\n(the %d complete runs stay in %s: after fixing the cause, finish with: %s)", err, rep.Resumed+rep.Ran, out, resumeHint)
		}
		return err
	}
	if shard != nil {
		fmt.Fprintf(stdout, "\nshard %s: %d runs (%d complete already, %d run now) in %s; when every shard is done: hetmap sweep %s --out %s --summarize\n",
			shard, rep.Total, rep.Resumed, rep.Ran, out, file, out)
		return nil
	}
	fmt.Fprintf(stdout, "\n%d runs (%d complete already, %d run now), %d with a feasible mapping; summary in %s and %s\n",
		rep.Total, rep.Resumed, rep.Ran, feasibleRuns(rep.Summary), filepath.Join(out, sweep.SummaryCSV), filepath.Join(out, sweep.SummaryHTML))
	return nil
}

// shard is the shard that --shard or --shard-index names (nil: the whole
// sweep), with the flags checked against each other.
func (o *sweepFlags) shard() (*sweep.Shard, error) {
	var shard *sweep.Shard
	var err error
	switch {
	case o.shardFlag != "" && o.shardIndex != "":
		return nil, errors.New("--shard and --shard-index name the same shard two ways: give one")
	case o.shardFlag != "":
		shard, err = sweep.ParseShard(o.shardFlag)
	case o.shardIndex != "":
		shard, err = sweep.ParseShardIndex(o.shardIndex)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case o.summarize && (shard != nil || o.resume || o.dryRun):
		return nil, errors.New("--summarize only reads the run folders: give it without --shard, --resume and --dry-run")
	case o.summarize && o.out == "":
		return nil, errors.New("--summarize needs --out: the folder of the sweep")
	case shard != nil && o.out == "" && !o.dryRun:
		return nil, errors.New("--shard needs --out: the folder that every shard of the sweep shares")
	case o.resume && o.out == "" && !o.dryRun:
		return nil, errors.New("--resume needs --out: the folder of the sweep to finish")
	case shard != nil && o.resume:
		return nil, errors.New("--shard keeps the complete runs in --out already: give it without --resume")
	}
	return shard, nil
}

// listRuns lists the runs of the sweep sw (of its shard, if not nil), for
// --dry-run.
func listRuns(stdout io.Writer, sw *configs.Sweep, shard *sweep.Shard) {
	runs := shard.Runs(sw)
	for _, run := range runs {
		fmt.Fprintln(stdout, run.Name)
	}
	what := fmt.Sprintf("%d runs", len(runs))
	if shard != nil {
		what = fmt.Sprintf("shard %s: %d of the %d runs", shard, len(runs), len(sw.Runs))
	}
	fmt.Fprintf(stdout, "%s; nothing run (--dry-run)\n", what)
}

// summarizeFolder writes the summary of the sweep sw (read from file) from
// the run folders in out, or lists the runs still missing there and the
// shards that own them (exit code 1).
func summarizeFolder(stdout io.Writer, sw *configs.Sweep, file, out string) error {
	sum, err := sweep.SummarizeFolder(sw, out)
	var missing *sweep.MissingError
	if errors.As(err, &missing) {
		fmt.Fprintf(stdout, "%d of %d runs are not complete in %s:\n", len(missing.Missing), missing.Total, out)
		var shards []string
		seen := map[string]bool{}
		for _, run := range missing.Missing {
			sh := missing.Owner(run)
			if sh == nil {
				fmt.Fprintln(stdout, "  "+run.Name)
				continue
			}
			fmt.Fprintf(stdout, "  %s  (shard %s)\n", run.Name, sh)
			if !seen[sh.String()] {
				seen[sh.String()] = true
				shards = append(shards, sh.String())
			}
		}
		if len(shards) > 0 {
			more := ""
			if len(shards) > 1 {
				more = "; the same with --shard " + strings.Join(shards[1:], ", --shard ")
			}
			return &problemError{fmt.Sprintf("no summary yet: %d runs are missing; run again the shards that own them (their complete runs are kept): hetmap sweep %s --out %s --shard %s%s", len(missing.Missing), file, out, shards[0], more)}
		}
		return &problemError{fmt.Sprintf("no summary yet: %d runs are missing; run the shards that hold them (or hetmap sweep %s --out %s --resume)", len(missing.Missing), file, out)}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d runs, %d with a feasible mapping; summary in %s and %s\n", len(sum.Rows), feasibleRuns(sum),
		filepath.Join(out, sweep.SummaryCSV), filepath.Join(out, sweep.SummaryHTML))
	return nil
}

// feasibleRuns counts the runs of a summary with a feasible mapping.
func feasibleRuns(sum *sweep.Summary) int {
	n := 0
	for _, r := range sum.Rows {
		if r.Feasible {
			n++
		}
	}
	return n
}

// workersLine says, for the log, how many runs go at a time, how many
// evaluation workers each search uses, and on how many CPUs, set by what.
func workersLine(runs []*configs.SweepRun, parallel int) string {
	least, most := 0, 0
	for i, run := range runs {
		n := sweep.SearchWorkers(run, parallel)
		if i == 0 || n < least {
			least = n
		}
		most = max(most, n)
	}
	each := fmt.Sprintf("%d evaluation worker(s)", least)
	if least != most {
		each = fmt.Sprintf("%d to %d evaluation workers (search.workers)", least, most)
	}
	cpus := fmt.Sprintf("%d CPU(s), the CPU affinity", runtimeCPUs())
	if cpuNote != "" {
		cpus = strings.TrimPrefix(cpuNote, "using ")
	}
	return fmt.Sprintf("workers: %d run(s) at a time, each search with %s, on %s", max(1, min(parallel, len(runs))), each, cpus)
}

// maxSearchWorkers is the largest search.workers of a sweep's runs.
func maxSearchWorkers(sw *configs.Sweep) int {
	n := 0
	for i := range sw.Runs {
		n = max(n, sw.Runs[i].Config.Search.Workers)
	}
	return n
}

// sweepLog writes, where no bar shows (a log), a progress line every
// plainProgressEvery: the runs complete, and for each run in progress its
// search's progress; and a note for every run another process holds.
type sweepLog struct {
	mu       sync.Mutex
	w        io.Writer
	total    int
	complete int
	started  time.Time
	running  map[string]runProgress
	waiting  []string
	quit     chan struct{}
	ended    chan struct{}
}

type runProgress struct {
	p    moo.Progress
	gens int
}

func newSweepLog(w io.Writer, total int, ticking bool) *sweepLog {
	l := &sweepLog{w: w, total: total, started: time.Now(), running: map[string]runProgress{}, quit: make(chan struct{}), ended: make(chan struct{})}
	if !ticking {
		close(l.ended)
		return l
	}
	go func() {
		defer close(l.ended)
		t := time.NewTicker(plainProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-l.quit:
				return
			case <-t.C:
				l.print()
			}
		}
	}()
	return l
}

func (l *sweepLog) print() {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "progress: %d/%d runs complete, %d in progress, %s\n", l.complete, l.total, len(l.running), roundDuration(time.Since(l.started)))
	names := make([]string, 0, len(l.running))
	for name := range l.running {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		r := l.running[name]
		fmt.Fprintf(l.w, "progress:   %s: %s\n", name, describeProgress(r.p, r.gens))
	}
	if len(l.running) == 0 && len(l.waiting) > 0 {
		fmt.Fprintf(l.w, "progress:   waiting for %s, held by other processes, to be complete or their claims to expire\n", strings.Join(l.waiting, ", "))
	}
}

func (l *sweepLog) progress(run *configs.SweepRun, p moo.Progress) {
	s := run.Config.Search.WithDefaults(run.Config.System, run.Config.Analysis.ChainLatency)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.running[run.Name] = runProgress{p: p, gens: s.Generations}
}

func (l *sweepLog) done(ev sweep.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, ev.Run.Name)
	l.complete = ev.Done
	for i, name := range l.waiting {
		if name == ev.Run.Name {
			l.waiting = append(l.waiting[:i], l.waiting[i+1:]...)
			break
		}
	}
}

func (l *sweepLog) held(run *configs.SweepRun, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.running, run.Name)
	l.waiting = append(l.waiting, run.Name)
	if errors.Is(err, results.ErrLost) {
		fmt.Fprintf(l.w, "note: %s: this process lost its claim: %v; waiting until the run is complete or its claim can be taken over\n", run.Name, err)
		return
	}
	var ce *results.ClaimError
	if errors.As(err, &ce) && ce.Holder != "" {
		fmt.Fprintf(l.w, "note: %s is being written by another process (%s): doing the other runs first, then waiting until it is complete or its claim expires\n", run.Name, ce.Holder)
		return
	}
	fmt.Fprintf(l.w, "note: %s: %v; doing the other runs first, then waiting for it\n", run.Name, err)
}

func (l *sweepLog) tookOver(run *configs.SweepRun, holder string, from *optimizer.CheckpointHeader) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if holder == "" {
		holder = "an earlier process"
	}
	if from != nil {
		fmt.Fprintf(l.w, "note: %s: took over the claim of another process, whose lease had expired, whose process had ended or which stopped (%s); the run continues from its checkpoint after %s\n", run.Name, holder, from.Position())
		return
	}
	fmt.Fprintf(l.w, "note: %s: took over the claim of another process, whose lease had expired or whose process had ended (%s); it left no checkpoint: the run starts again\n", run.Name, holder)
}

func (l *sweepLog) stop() {
	select {
	case <-l.quit:
	default:
		close(l.quit)
	}
	<-l.ended
}

// sweepProgress shows a bar over the runs on a terminal and nothing
// elsewhere (logs, tests).
type sweepProgress struct {
	bar *progressbar.ProgressBar
}

func newSweepProgress(w io.Writer, total int) *sweepProgress {
	p := &sweepProgress{}
	if isTerminal(w) {
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
