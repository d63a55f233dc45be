package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/configs/amalthea"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runwrite"
	"github.com/spf13/cobra"
)

// optimizeFlags are optimize's flags, set by cobra.
type optimizeFlags struct {
	sf                             systemFlags
	algorithm                      configs.Algorithm
	out, resume                    string
	seed                           int64
	workers, checkpointGenerations int
	wide, all                      bool
}

func newOptimizeCmd() *cobra.Command {
	o := &optimizeFlags{}
	cmd := &cobra.Command{
		Use:   "optimize",
		Short: "Search the mappings that are Pareto-optimal for the chain latencies",
		Long: `Search the mappings of the system's tasks to units (and the offloading modes, GPU
stream priorities or time slices) that are Pareto-optimal for the configured objectives
(default: every chain's maximum reaction time) among those that meet every deadline.

--algorithm nsga2 runs the genetic search; exhaustive enumerates every distinct mapping,
with identical cores treated as interchangeable and partial mappings cut as soon as they
are unschedulable, and gives the exact front; auto (the default) runs the exhaustive
search when an estimate of its size says it finishes quickly, NSGA-II otherwise, and
says which and why. The same --seed gives the same front with any number of --workers.
--contention, --gpu-model, --priorities and --deadlines set analysis.contention,
analysis.gpu_model, analysis.priorities and conventions.deadlines over the configuration's
(config.yaml records them).

The genetic search (NSGA-III's reference directions from 4 objectives on) stops once
its front stops improving (search.stall_generations, stall_tolerance), search.generations
and max_evaluations being hard limits, and says why it stopped. It reports at most
search.max_front points (default 200): every feasible mapping it met is then within a
stated ε of a reported one on each objective. An exhaustive search's exact front is
reported whole unless search.max_front is given.

Writes report.html (a self-contained page for an architecture review: the front's
table and plots, the details of the first 5 points), front.csv, front.json (per point
its objectives, mapping, verdict and the load of every unit), manifest.json, config.yaml,
mappings/point-N.yaml (each accepted by hetmap analyze --mapping) and, for the first 5
points, mappings/point-N.json (the full evaluation, as hetmap analyze --json writes it)
into --out (default runs/<UTC time>/ in the working directory), which appears only
when the run is complete; for a system read from an Amalthea model
also mappings/point-N.amxmi, the model with that mapping (hetmap export). The folder is claimed before
the search: one that exists, cannot be created or that another run writes fails at once.
The front table fits 100 columns (--wide: one table with every column); optimize prints
a summary and the first points within 80 lines, the rest being in the files (--all:
every point).

A bar shows the progress on a terminal (a line every 5 s in a log), of the search and
of writing the files. Ctrl-C (or SIGTERM), in any stage, stops the run within about
two seconds and writes what it found as a complete folder marked interrupted (and in which
stage), exit code 130; a second Ctrl-C stops at once.

The search saves its state every search.checkpoint_seconds (default 300) into the
output folder's claim (.NAME.tmp beside it): the genetic search between generations, the
exhaustive one between its top-level subtrees (one in progress is enumerated again). A run
killed before it wrote its folder (kill -9, a lost node, a time limit's second signal)
continues from its last checkpoint when run again into the same folder: --resume DIR does so,
and says so, and fails when DIR has no checkpoint; --out DIR continues one it finds. It ends with the front an uninterrupted run would have
found. The configuration, seed and algorithm must be those of the first run (--workers may
differ): a checkpoint of another is refused. Exit code 1 when no mapping is feasible: the
least-violating mappings are shown with what they miss (with the exhaustive algorithm, a
proof that no feasible mapping exists).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	o.sf.add(cmd)
	o.sf.addOptions(cmd)
	cmd.Flags().Var(choiceFlag[configs.Algorithm]{&o.algorithm, configs.ParseAlgorithm}, "algorithm", optionList(configs.Algorithms)+" (default: the configuration's search.algorithm, auto: the exhaustive search when it is estimated to finish quickly)")
	cmd.Flags().Int64Var(&o.seed, "seed", 0, "seed of the search's random generator (default: the configuration's search.seed, 1)")
	cmd.Flags().StringVar(&o.out, "out", "", "folder for the result files (default runs/<UTC time>)")
	cmd.Flags().IntVar(&o.workers, "workers", 0, "parallel evaluations; 0: the configuration's search.workers, else the number of CPUs")
	cmd.Flags().BoolVar(&o.wide, "wide", false, "print every objective's full name and every unit's utilisation in one table, however wide")
	cmd.Flags().BoolVar(&o.all, "all", false, fmt.Sprintf("print every point of the front and its mapping (default: a summary and the first points, within %d lines)", consoleLines))
	cmd.Flags().StringVar(&o.resume, "resume", "", "continue the run into folder DIR from the checkpoint it left when it was killed (same configuration and options)")
	// The tests' checkpoints, by generations rather than by the clock.
	cmd.Flags().IntVar(&o.checkpointGenerations, "checkpoint-generations", 0, "save a checkpoint every N generations (exhaustive: top-level subtrees) instead of every search.checkpoint_seconds")
	_ = cmd.Flags().MarkHidden("checkpoint-generations")
	return cmd
}

// run is optimize: it checks the flags, loads the system, claims the output
// folder, searches, writes the run folder and prints the summary.
func (o *optimizeFlags) run(cmd *cobra.Command) error {
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	out := o.out
	if err := o.checkNumbers(cmd); err != nil {
		return err
	}
	cfg, e, err := o.sf.evaluator(stderr)
	if err != nil {
		return err
	}
	opts := optimizer.Options{Algorithm: o.algorithm}
	if cmd.Flags().Changed("seed") {
		opts.Seed = &o.seed
	}
	if cpuNote != "" {
		fmt.Fprintln(stderr, "note:", cpuNote)
	}
	opts.Workers = capWorkers(stderr, o.workers, cfg.Search.Workers)
	if o.resume != "" {
		if err := o.checkResume(cmd); err != nil {
			return err
		}
		out = o.resume
	}
	if err := optimizer.Check(e, opts); err != nil {
		return err
	}
	// Claim the output folder before searching: a folder that
	// cannot be written, or that another run writes, fails now.
	claim, checkpoint, err := o.claim(stderr, out)
	if err != nil {
		return err
	}
	defer claim.Release()
	out = claim.Dir()
	opts.Checkpoint = &optimizer.Checkpoint{Every: cfg.Search.CheckpointEvery(), Generations: o.checkpointGenerations, Save: claim.SaveCheckpoint, Resume: checkpoint}
	if o.checkpointGenerations > 0 {
		opts.Checkpoint.Every = 0
	}
	for _, r := range claim.Removed {
		fmt.Fprintf(stderr, "note: removed %s, left by a run that ended without finishing (killed, or stopped by a second Ctrl-C)\n", r)
	}
	ctx, stop := withInterrupt(cmd.Context(), stderr, "interrupted: stopping the search; the front found so far goes to "+out)
	defer stop()
	started := time.Now()
	search := cfg.Search.WithDefaults(cfg.System, cfg.Analysis.ChainLatency)
	if o.algorithm != "" {
		search.Algorithm = o.algorithm
	}
	progress := newSearchProgress(stderr, search)
	opts.Progress = func(p moo.Progress) {
		if stageHook != nil {
			name := p.Stage
			if name == "" {
				name = optimizer.StageSearch
			}
			stageHook(ctx, name)
		}
		progress.update(p)
	}
	res, err := optimizer.Run(ctx, e, opts)
	progress.finish()
	if errors.Is(err, optimizer.ErrCheckpoint) {
		claim.Suspend() // the checkpoint stays for a run with its configuration
	}
	if err != nil {
		return err
	}
	if err := writeRun(ctx, stderr, claim, cfg, e, res, started); err != nil {
		return err
	}
	return o.print(ctx, stdout, cfg, res, out)
}

// writeRun writes the run folder of the search's outcome res through its
// claim, with a progress bar on stderr. It comes before the summary on
// stdout, so that a failing standard output (a full disk, a closed pipe)
// loses nothing.
func writeRun(ctx context.Context, stderr io.Writer, claim *results.Claim, cfg *configs.Config, e *evaluate.Evaluator, res *optimizer.Outcome, started time.Time) error {
	nWorkers := res.Search.Workers
	if nWorkers == 0 {
		nWorkers = defaultWorkers()
	}
	info := results.RunInfo{Version: version, Started: started, Workers: nWorkers}
	if len(cfg.Amalthea) > 0 {
		info.Model = func(p optimizer.Point) (map[string][]byte, error) {
			return amalthea.Export(cfg.Amalthea, amaltheaMapping(e, p.Assignment, p.Analysis))
		}
	}
	writing := newWriteProgress(stderr)
	info.Progress, info.Context = func(p results.WriteProgress) {
		if stageHook != nil {
			stageHook(ctx, optimizer.StageWriting)
		}
		writing.update(p)
	}, ctx
	err := runwrite.Commit(claim, cfg, res, info)
	writing.finish()
	return err
}

// checkNumbers checks the numbers given as flags: --workers and --seed.
func (o *optimizeFlags) checkNumbers(cmd *cobra.Command) error {
	if err := checkWorkersFlag(cmd, "workers", o.workers); err != nil {
		return err
	}
	if cmd.Flags().Changed("seed") && o.seed == 0 {
		return errSeedZero("--seed")
	}
	if o.seed < 0 {
		return fmt.Errorf("--seed %d: seeds are positive (1, 2, …)", o.seed)
	}
	return nil
}

// checkResume checks --resume DIR: a run into DIR that left a checkpoint
// and no folder, with no --out beside it.
func (o *optimizeFlags) checkResume(cmd *cobra.Command) error {
	if cmd.Flags().Changed("out") {
		return fmt.Errorf("--resume %s continues the run into that folder: leave --out out", o.resume)
	}
	if _, err := os.Stat(o.resume); err == nil {
		return fmt.Errorf("--resume %s: the folder exists: its run ended and wrote it (an interrupted run's front is in it); a run continues only from a checkpoint it left before it wrote its folder", o.resume)
	}
	return nil
}

// print writes the run's summary and front to stdout, once its folder out
// is written, and returns the error that gives optimize's exit code: 130
// for an interrupt, 1 when no mapping is feasible.
func (o *optimizeFlags) print(ctx context.Context, stdout io.Writer, cfg *configs.Config, res *optimizer.Outcome, out string) error {
	werr := error(nil)
	if res.AlgorithmChoice != "" {
		_, werr = fmt.Fprintf(stdout, "Search: %s.\n\n", res.AlgorithmChoice)
	}
	if werr == nil {
		text := results.TextOptions{Wide: o.wide, MaxLines: consoleLines - 5}
		if o.all {
			text.MaxLines = 0
		}
		werr = results.WriteFrontText(stdout, cfg, res, text)
	}
	if werr == nil {
		_, werr = fmt.Fprintf(stdout, "\n%s, %s in %s; %s.\nFiles in %s: %s\n",
			describe(res), evaluations(res), res.Wall.Round(time.Millisecond), feasibleCount(res), out, strings.Join(results.RunFiles, ", "))
	}
	switch {
	case werr != nil:
		return fmt.Errorf("cannot write to standard output (%v); the results are complete in %s", werr, out)
	case res.Status == moo.Interrupted:
		return &interruptedError{fmt.Sprintf("interrupted: what the search found in %d evaluations is in %s, marked interrupted", res.Evaluations, out)}
	case res.Interrupted():
		return &interruptedError{fmt.Sprintf("interrupted while %s, after the search had ended: the run's files are in %s, marked interrupted", res.InterruptedIn, out)}
	case ctx.Err() != nil:
		// The signal came once every file was written.
		return &interruptedError{fmt.Sprintf("interrupted once the run was complete: its files are in %s", out)}
	case !res.Feasible:
		return &problemError{"no feasible mapping found"}
	}
	return nil
}

// claim claims the run's output folder out (runs/<UTC time> when "") and
// reads the checkpoint a killed run left in the claim, saying so on
// stderr; the caller releases the claim.
func (o *optimizeFlags) claim(stderr io.Writer, out string) (*results.Claim, []byte, error) {
	var claim *results.Claim
	var err error
	if out == "" {
		claim, err = claimDefault(filepath.Join(runsFolder, time.Now().UTC().Format("20060102T150405Z")))
	} else {
		claim, err = results.ClaimDir(out)
	}
	if err != nil {
		return nil, nil, err
	}
	out = claim.Dir()
	tmp := claim.Folder()
	checkpoint := claim.Checkpoint()
	if o.resume != "" && checkpoint == nil {
		claim.Release()
		return nil, nil, fmt.Errorf("--resume %s: no checkpoint of a run into that folder was found (a run saves one every search.checkpoint_seconds, into %s)", o.resume, tmp)
	}
	if checkpoint != nil {
		h, _, err := optimizer.ReadCheckpointHeader(checkpoint)
		if err != nil {
			claim.Suspend()
			claim.Release()
			return nil, nil, fmt.Errorf("the checkpoint left in the claim of %s: %w (remove %s to start the run afresh)", out, err, tmp)
		}
		fmt.Fprintf(stderr, "note: continuing the search from its checkpoint after %s, saved %s\n", h.Position(), h.Saved.Format(time.RFC3339))
	}
	return claim, checkpoint, nil
}

// stageHook, when set (by the tests only), is called with the run's
// context at every progress report of optimize, with the stage's name
// (optimizer's Stage names, StageSearch for the search's own reports,
// StageWriting for the writer's): a test can hold a run in a stage until
// it sends the signal, so that the signal reaches that stage.
var stageHook func(ctx context.Context, stage string)

// consoleLines bounds what optimize prints by default (--all prints every
// point): the front's summary, its first points and their mappings, and
// where the rest is; under 80 lines, as issue 27 asks, the search's
// choice and the closing summary included.
const consoleLines = 79

// runsFolder is where optimize and sweep write by default: a folder of the
// working directory, not a package of the source tree.
const runsFolder = "runs"

// claimDefault claims a default output folder: the name given, or, when
// a run of the same second has it, the name with -2, -3, … added.
func claimDefault(dir string) (*results.Claim, error) {
	c, err := results.ClaimDir(dir)
	for n := 2; err != nil && n < 100; n++ {
		if _, statErr := os.Stat(dir); statErr != nil && !errors.Is(err, results.ErrHeld) {
			return nil, err
		}
		c, err = results.ClaimDir(fmt.Sprintf("%s-%d", dir, n))
	}
	return c, err
}

func describe(res *optimizer.Outcome) string {
	if !res.Feasible {
		return "no feasible mapping"
	}
	return fmt.Sprintf("%d Pareto-optimal mapping(s)", len(res.Front))
}

// evaluations says how many mappings the search analysed, and how many of
// them the initial constructions did.
func evaluations(res *optimizer.Outcome) string {
	s := fmt.Sprintf("%d evaluations", res.Evaluations)
	var more []string
	if res.ConstructionEvaluations > 0 {
		more = append(more, fmt.Sprintf("%d by the initial constructions", res.ConstructionEvaluations))
	}
	if res.Analyses > res.Evaluations {
		more = append(more, fmt.Sprintf("%d analyses with the priority-order variants and their enumeration, which search.max_evaluations counts", res.Analyses))
	}
	if len(more) > 0 {
		s += " (" + strings.Join(more, "; ") + ")"
	}
	return s
}

// feasibleCount says how many distinct feasible mappings the search met,
// so that a front of one point reads as a result: for an exact front that
// is how many exist.
func feasibleCount(res *optimizer.Outcome) string {
	var s string
	switch {
	case res.Exact():
		s = fmt.Sprintf("%d distinct feasible mapping(s) exist, all enumerated", res.FeasibleMappings)
	default:
		s = fmt.Sprintf("%d distinct feasible mapping(s) met", res.FeasibleMappings)
	}
	if res.Variants > 0 {
		s += fmt.Sprintf(", with %d other priority order(s) evaluated", res.Variants)
	}
	return s
}

// defaultWorkers is what moo uses when no number is given.
func defaultWorkers() int { return runtimeCPUs() }
