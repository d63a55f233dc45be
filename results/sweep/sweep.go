// Package sweep runs a sweep: the mapping search once per element of the
// cross product of a sweep file's parameters (see configs.Sweep), each run
// into its own folder as `hetmap optimize` writes it, and then the summary
// (summary.csv and summary.html, see results.SweepSummary).
//
// Runs go one at a time by default; Options.Workers runs several at once,
// and the evaluation workers of each run's search share the CPUs. The
// search's result does not depend on its number of workers, so the same
// sweep gives the same summary (wall times aside) whatever Workers is.
//
// A run's folder appears only complete (results.WriteSweepRun), so a sweep
// stopped at any point, by its context or by a crash, resumes with
// Options.Resume: the complete run folders are kept (after checking that
// each holds the run's configuration) and only the missing runs run.
package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/results"
)

// Load reads a sweep file and builds and checks every run before any runs:
// configs.LoadSweepFile with the analysis's default kernel geometry, then an
// evaluator and a search problem for every run's configuration, so that a
// configuration the analysis cannot take fails now, naming the run.
func Load(path string) (*configs.Sweep, error) {
	sw, err := configs.LoadSweepFile(path, KernelDefaults)
	if err != nil {
		return nil, err
	}
	for i := range sw.Runs {
		run := &sw.Runs[i]
		e, err := optimizer.NewEvaluator(run.Config)
		if err == nil {
			_, err = optimizer.NewProblem(e, run.Config.Search)
		}
		if err != nil {
			return nil, &configs.InputError{File: path, Where: "parameters", What: fmt.Sprintf("run %d (%s): %v", run.Index, settingsText(run.Settings), err)}
		}
	}
	return sw, nil
}

// KernelDefaults returns the launch geometry the analysis uses for a GPU
// task without a configured one (configs.KernelDefaults).
func KernelDefaults(cfg *configs.Config, task string) (configs.KernelGeometry, error) {
	e, err := optimizer.NewEvaluator(cfg)
	if err != nil {
		return configs.KernelGeometry{}, err
	}
	g := e.NewResult().GPUTask(task)
	if g == nil {
		return configs.KernelGeometry{}, fmt.Errorf("%s is not a GPU task", task)
	}
	return configs.KernelGeometry{Task: task, Blocks: g.Blocks, ThreadsPerBlock: g.ThreadsPerBlock}, nil
}

func settingsText(ss []configs.SweepSetting) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.Parameter + "=" + s.Value
	}
	return strings.Join(parts, ", ")
}

// Options are the run-time choices of a sweep.
type Options struct {
	// Out is the sweep folder. Without Resume it must not exist.
	Out string
	// Resume finishes the sweep in an existing Out.
	Resume bool
	// Workers is the number of runs at a time (default 1). Each run's
	// search evaluates with its configuration's search.workers, or else
	// with an equal share of the CPUs.
	Workers int
	// Version is recorded in every run's manifest.
	Version string
	// OnRun, when set, is called after every run that completes, and for
	// every run found complete when resuming; one call at a time.
	OnRun func(Event)
}

// Event reports one run that is complete.
type Event struct {
	Run     *configs.SweepRun
	Outcome *optimizer.Outcome // nil for a run found complete
	Done    int                // runs complete so far, this one included
	Total   int
}

// Report says what a sweep did.
type Report struct {
	Total   int
	Resumed int // runs found complete in Out
	Ran     int // runs completed by this call
	// Complete: every run is complete and the summary is written.
	Complete bool
	Summary  *results.SweepSummary
}

// ErrStopped is returned (wrapped with the context's error) when the
// context ends the sweep before every run is complete.
var ErrStopped = errors.New("sweep stopped before every run was complete")

// Run runs the sweep's missing runs into opts.Out and writes the summary.
// It starts no run once ctx is done; the runs in progress finish and are
// written, and Run returns ErrStopped. A failed run stops the sweep too
// (the runs complete so far stay, for Resume).
func Run(ctx context.Context, sw *configs.Sweep, opts Options) (*Report, error) {
	if opts.Out == "" {
		return nil, errors.New("sweep: no output folder")
	}
	rep := &Report{Total: len(sw.Runs)}
	done, err := prepare(sw, opts)
	if err != nil {
		return nil, err
	}
	rep.Resumed = len(done)
	var mu sync.Mutex
	count := 0
	notify := func(run *configs.SweepRun, out *optimizer.Outcome) {
		mu.Lock()
		defer mu.Unlock()
		count++
		if opts.OnRun != nil {
			opts.OnRun(Event{Run: run, Outcome: out, Done: count, Total: len(sw.Runs)})
		}
	}
	var pending []*configs.SweepRun
	for i := range sw.Runs {
		if done[sw.Runs[i].Name] {
			notify(&sw.Runs[i], nil)
		} else {
			pending = append(pending, &sw.Runs[i])
		}
	}
	parallel := max(1, opts.Workers)
	evalWorkers := max(1, runtime.GOMAXPROCS(0)/parallel)
	jobs := make(chan *configs.SweepRun)
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	failed := make(chan struct{})
	for w := 0; w < min(parallel, max(1, len(pending))); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for run := range jobs {
				out, err := runOne(run, opts, evalWorkers)
				if err != nil {
					errOnce.Do(func() {
						firstErr = fmt.Errorf("run %s: %w", run.Name, err)
						close(failed)
					})
					continue
				}
				mu.Lock()
				rep.Ran++
				mu.Unlock()
				notify(run, out)
			}
		}()
	}
	stopped := false
dispatch:
	for _, run := range pending {
		// A cancelled context or a failure wins over a free worker.
		select {
		case <-ctx.Done():
			stopped = true
			break dispatch
		case <-failed:
			break dispatch
		default:
		}
		select {
		case jobs <- run:
		case <-ctx.Done():
			stopped = true
			break dispatch
		case <-failed:
			break dispatch
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return rep, firstErr
	}
	if stopped && rep.Resumed+rep.Ran < rep.Total {
		return rep, fmt.Errorf("%w: %w", ErrStopped, ctx.Err())
	}
	sum, err := Summarize(sw, opts.Out)
	if err != nil {
		return rep, err
	}
	if err := results.WriteSweepSummary(opts.Out, sum); err != nil {
		return rep, err
	}
	rep.Complete, rep.Summary = true, sum
	return rep, nil
}

// runOne searches one run and writes its folder.
func runOne(run *configs.SweepRun, opts Options, evalWorkers int) (*optimizer.Outcome, error) {
	started := time.Now()
	e, err := optimizer.NewEvaluator(run.Config)
	if err != nil {
		return nil, err
	}
	workers := run.Config.Search.Workers
	if workers <= 0 {
		workers = evalWorkers
	}
	var last moo.Progress
	res, err := optimizer.Run(e, optimizer.Options{Workers: workers, Progress: func(p moo.Progress) { last = p }})
	if err != nil {
		return nil, err
	}
	// The search's last progress report counts the feasible evaluations;
	// optimizer.Outcome does not carry them.
	feasible := -1
	if last.Evaluations == res.Evaluations {
		feasible = last.Feasible
	}
	info := results.RunInfo{Version: opts.Version, Started: started, Workers: workers}
	if err := results.WriteSweepRun(opts.Out, run, res, info, feasible); err != nil {
		return nil, err
	}
	return res, nil
}

// prepare creates or checks the sweep folder and returns the runs that are
// complete there.
func prepare(sw *configs.Sweep, opts Options) (map[string]bool, error) {
	out := opts.Out
	_, statErr := os.Stat(out)
	exists := statErr == nil
	switch {
	case exists && !opts.Resume:
		return nil, &configs.InputError{What: fmt.Sprintf("output folder %s exists already; choose another with --out, or add --resume to finish the sweep in it", out)}
	case !exists && opts.Resume:
		return nil, &configs.InputError{What: fmt.Sprintf("nothing to resume: %s does not exist", out)}
	case !exists:
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, err
		}
		header := fmt.Sprintf("# The sweep file of this folder (%s) as given; a relative base is relative to\n# that file's folder. Resume with: hetmap sweep %s --out <this folder> --resume\n", filepath.Base(sw.File), filepath.Base(sw.File))
		if err := os.WriteFile(filepath.Join(out, results.SweepFileName), append([]byte(header), sw.Text...), 0o644); err != nil {
			return nil, err
		}
		return map[string]bool{}, nil
	}
	if _, err := os.Stat(filepath.Join(out, results.SweepFileName)); err != nil {
		return nil, &configs.InputError{What: fmt.Sprintf("%s is not a sweep folder (it has no %s)", out, results.SweepFileName)}
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return nil, err
	}
	byName := map[string]*configs.SweepRun{}
	for i := range sw.Runs {
		byName[sw.Runs[i].Name] = &sw.Runs[i]
	}
	done := map[string]bool{}
	var stray []string
	for _, en := range entries {
		name := en.Name()
		switch {
		case results.IsSweepTemp(name):
			// What an interrupted run or summary left behind.
			if err := os.RemoveAll(filepath.Join(out, name)); err != nil {
				return nil, err
			}
		case en.IsDir() && strings.HasPrefix(name, "run-"):
			run, ok := byName[name]
			if !ok {
				stray = append(stray, name)
				continue
			}
			if err := checkRunFolder(filepath.Join(out, name), run); err != nil {
				return nil, err
			}
			done[name] = true
		}
	}
	if len(stray) > 0 {
		sort.Strings(stray)
		return nil, &configs.InputError{What: fmt.Sprintf("%s holds run folders that are not runs of this sweep (was the sweep file changed?): %s; use a new --out", out, strings.Join(stray, ", "))}
	}
	return done, nil
}

// checkRunFolder checks that a complete run folder is the run's: the same
// parameters and the same configuration (its SHA-256).
func checkRunFolder(dir string, run *configs.SweepRun) error {
	d, err := results.ReadSweepRun(dir)
	if err != nil {
		return fmt.Errorf("run folder %s is not complete or not readable (%v); remove it to run it again", dir, err)
	}
	_, sum, err := results.ConfigYAML(run.Config)
	if err != nil {
		return err
	}
	if d.Manifest.ConfigSHA256 != sum || d.Record.Index != run.Index {
		return &configs.InputError{What: fmt.Sprintf("run folder %s was written from another configuration than this sweep's run %d (was the sweep file or its base changed?); use a new --out", dir, run.Index)}
	}
	return nil
}

// Summarize reads every run folder of a complete sweep and builds its
// summary.
func Summarize(sw *configs.Sweep, out string) (*results.SweepSummary, error) {
	runs := make([]*results.SweepRunData, len(sw.Runs))
	for i := range sw.Runs {
		d, err := results.ReadSweepRun(filepath.Join(out, sw.Runs[i].Name))
		if err != nil {
			return nil, err
		}
		runs[i] = d
	}
	return results.NewSweepSummary(sw, runs)
}
