// Package sweep runs a sweep: the mapping search once per element of the
// cross product of a sweep file's parameters (see configs.Sweep), each run
// into its own folder as `hetmap optimize` writes it, and then the summary
// (summary.csv and summary.html: Summary, NewSummary, WriteSummary, built
// from the run folders that results/runwrite writes and results/runfolder
// reads). It sits above the optimizer and the results packages, which it
// drives, so that they keep looking only down the layers.
//
// Runs go one at a time by default; Options.Workers runs several at once,
// and the evaluation workers of each run's search share the CPUs. The
// search's result does not depend on its number of workers, so the same
// sweep gives the same summary (wall times aside) whatever Workers is.
//
// A run's folder appears only complete (results.ClaimDir), so a sweep
// stopped at any point, by its context or by a crash, resumes with
// Options.Resume: the complete run folders are kept (after checking that
// each holds the run's configuration) and only the missing runs run. The
// context also stops the runs in progress: what they found is dropped, and
// they run again when the sweep is resumed.
//
// A sweep can be split into shards (Options.Shard) that run as separate
// processes, on one machine or on the nodes of a cluster, into one shared
// folder: shard K of N takes the runs whose index i has (i−1) mod N = K−1,
// and when every shard is done, Summarize builds the summary from the
// folder. The summary is the same as that of the sweep run in one process.
// The first shard records N in the folder (ShardsFileName); a shard of
// another N is refused, so that a resubmitted shard cannot run another
// split's runs.
//
// A shard can be killed at any point (SIGKILL, a node that dies) and run
// again, on any host: a claim whose lease has expired is taken over (see
// results.ClaimDir). A run whose claim another process holds is left for
// last: the shard does its other runs, then waits until that run is
// complete or its claim can be taken over. A shard that was stopped for
// longer than the lease (a suspended job, a frozen node) may find, when it
// wakes up, that another process took a run of its over: it drops its
// search of that run (results.ErrLost: nothing of it is written) and
// treats the run as held by the other.
package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
	"github.com/hetmap/hetmap/results/runwrite"
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
		e, err := evaluate.NewEvaluator(run.Config)
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
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		return configs.KernelGeometry{}, err
	}
	g := e.NewAnalysis().GPUTask(task)
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
	// Out is the sweep folder. Without Resume or Shard it must not exist.
	Out string
	// Resume finishes the sweep in an existing Out.
	Resume bool
	// Shard, when set, runs only its share of the runs into Out, which it
	// creates or joins (another shard may have created it), keeping the
	// runs complete there; it writes no summary (see Summarize).
	Shard *Shard
	// Workers is the number of runs at a time (default 1). Each run's
	// search evaluates with its configuration's search.workers, or else
	// with an equal share of the CPUs.
	Workers int
	// Version is recorded in every run's manifest.
	Version string
	// OnRun, when set, is called after every run that completes, and for
	// every run found complete when resuming; one call at a time.
	OnRun func(Event)
	// OnHeld, when set, is called once for every run whose claim another
	// process holds (the error says which, and wraps results.ErrHeld),
	// before the sweep does its other runs and then waits for it; and
	// for every run whose claim this process lost to another (the error
	// wraps results.ErrLost), whose work it discarded; one call at a time.
	OnHeld func(run *configs.SweepRun, err error)
	// OnTakeover, when set, is called when a run's claim took over that
	// of another process (its lease had expired, its process had ended, or
	// it stopped and suspended it), which holder names, with the header of
	// the checkpoint the run continues from (nil: none, the run starts
	// again); one call at a time.
	OnTakeover func(run *configs.SweepRun, holder string, from *optimizer.CheckpointHeader)
	// OnProgress, when set, receives the progress reports of every run's
	// search, from the goroutines of the runs in progress (at once).
	OnProgress func(run *configs.SweepRun, p moo.Progress)
	// CheckpointGenerations, when positive, makes every run's search save
	// its checkpoint every that many generations (the exhaustive search:
	// top-level subtrees) instead of every search.checkpoint_seconds (for
	// tests, which use no clock).
	CheckpointGenerations int
}

// Shard is the share K of N (1 ≤ K ≤ N) of a sweep: the runs whose index
// i has (i−1) mod N = K−1. Consecutive runs go to different shards, so
// that seeds and values spread over the shards and each shard's wall time
// is about the same.
type Shard struct{ K, N int }

// ParseShard reads "K/N".
func ParseShard(s string) (*Shard, error) {
	var sh Shard
	var rest string
	n, _ := fmt.Sscanf(s+" ", "%d/%d%s", &sh.K, &sh.N, &rest)
	if n != 2 || strings.TrimSpace(s) != fmt.Sprintf("%d/%d", sh.K, sh.N) {
		return nil, fmt.Errorf("--shard %q: write K/N, for example 2/8 (shard K of N, counted from 1)", s)
	}
	if sh.N < 1 || sh.K < 1 || sh.K > sh.N {
		return nil, fmt.Errorf("--shard %s: K must be between 1 and N, and N at least 1", s)
	}
	return &sh, nil
}

// ParseShardIndex reads "I/N": shard I+1 of N, for job arrays that count
// their tasks from 0 (Kubernetes' JOB_COMPLETION_INDEX, Slurm's
// SLURM_ARRAY_TASK_ID), so that a job file needs no arithmetic (and a
// container image no shell).
func ParseShardIndex(s string) (*Shard, error) {
	var i, n int
	var rest string
	k, _ := fmt.Sscanf(s+" ", "%d/%d%s", &i, &n, &rest)
	if k != 2 || strings.TrimSpace(s) != fmt.Sprintf("%d/%d", i, n) {
		return nil, fmt.Errorf("--shard-index %q: write I/N, for example 2/8 (shard I of N counted from 0, as JOB_COMPLETION_INDEX and SLURM_ARRAY_TASK_ID count; --shard counts from 1)", s)
	}
	if n < 1 || i < 0 || i >= n {
		return nil, fmt.Errorf("--shard-index %s: I must be between 0 and N-1, and N at least 1", s)
	}
	return &Shard{K: i + 1, N: n}, nil
}

func (sh *Shard) String() string { return fmt.Sprintf("%d/%d", sh.K, sh.N) }

// Has reports whether the run of the given index (from 1) is the shard's.
func (sh *Shard) Has(index int) bool { return sh == nil || (index-1)%sh.N == sh.K-1 }

// Runs returns the runs of the shard (all of them for a nil shard).
func (sh *Shard) Runs(sw *configs.Sweep) []*configs.SweepRun {
	var out []*configs.SweepRun
	for i := range sw.Runs {
		if sh.Has(sw.Runs[i].Index) {
			out = append(out, &sw.Runs[i])
		}
	}
	return out
}

// Event reports one run that is complete.
type Event struct {
	Run     *configs.SweepRun
	Outcome *optimizer.Outcome // nil for a run found complete
	// ByOther: another process completed the run while this one waited.
	ByOther bool
	Done    int // runs complete so far, this one included
	Total   int // runs of this call (of the shard)
}

// Report says what a sweep did.
type Report struct {
	Total   int // runs of this call: the sweep's, or the shard's
	Resumed int // runs found complete in Out
	Ran     int // runs completed by this call
	// Complete: every run is complete and the summary is written (never
	// for a shard).
	Complete bool
	Summary  *Summary
}

// ErrStopped is returned (wrapped with the context's error) when the
// context ends the sweep before every run is complete.
var ErrStopped = errors.New("sweep stopped before every run was complete")

// Run runs the sweep's missing runs (of opts.Shard, when set) into
// opts.Out and, without a shard, writes the summary. Once ctx is done it
// starts no run and stops the runs in progress, whose results are dropped,
// and returns ErrStopped. A failed run stops the sweep too (the runs
// complete so far stay, for Resume).
func Run(ctx context.Context, sw *configs.Sweep, opts Options) (*Report, error) {
	if opts.Out == "" {
		return nil, errors.New("sweep: no output folder")
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("sweep: %d runs at a time; give at least 1", opts.Workers)
	}
	mine := opts.Shard.Runs(sw)
	rep := &Report{Total: len(mine)}
	done, err := prepare(sw, opts)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	count := 0
	notify := func(run *configs.SweepRun, out *optimizer.Outcome, byOther bool) {
		mu.Lock()
		defer mu.Unlock()
		count++
		if opts.OnRun != nil {
			opts.OnRun(Event{Run: run, Outcome: out, ByOther: byOther, Done: count, Total: len(mine)})
		}
	}
	var pending []*configs.SweepRun
	for _, run := range mine {
		if done[run.Name] {
			rep.Resumed++
			notify(run, nil, false)
		} else {
			pending = append(pending, run)
		}
	}
	parallel := max(1, opts.Workers)
	var firstErr error
	var errOnce sync.Once
	failed := make(chan struct{})
	told := map[string]bool{} // runs reported held
	stopped := false
	// Rounds: the runs to do; then, after a pause, the runs that another
	// process held, until each is complete or taken over.
	for round := 0; len(pending) > 0 && !stopped && firstErr == nil; round++ {
		if round > 0 {
			select {
			case <-ctx.Done():
				stopped = true
				continue
			case <-time.After(heldPoll()):
			}
			var still []*configs.SweepRun
			for _, run := range pending {
				dir := filepath.Join(opts.Out, run.Name)
				if _, err := os.Stat(dir); err != nil {
					still = append(still, run)
					continue
				}
				if err := checkRunFolder(dir, run); err != nil {
					return rep, err
				}
				mu.Lock()
				rep.Resumed++
				mu.Unlock()
				notify(run, nil, true)
			}
			if pending = still; len(pending) == 0 {
				break
			}
		}
		jobs := make(chan *configs.SweepRun)
		var held []*configs.SweepRun
		var wg sync.WaitGroup
		for w := 0; w < min(parallel, len(pending)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for run := range jobs {
					out, err := runOne(ctx, run, opts, parallel, func(holder string, from *optimizer.CheckpointHeader) {
						if opts.OnTakeover != nil {
							mu.Lock()
							opts.OnTakeover(run, holder, from)
							mu.Unlock()
						}
					})
					lost := errors.Is(err, results.ErrLost)
					if lost && completeByOther(opts.Out, run) {
						mu.Lock()
						if opts.OnHeld != nil {
							opts.OnHeld(run, err)
						}
						rep.Resumed++
						mu.Unlock()
						notify(run, nil, true)
						continue
					}
					if errors.Is(err, results.ErrHeld) || lost {
						mu.Lock()
						held = append(held, run)
						first := !told[run.Name]
						told[run.Name] = true
						if (first || lost) && opts.OnHeld != nil {
							opts.OnHeld(run, err)
						}
						mu.Unlock()
						continue
					}
					if err != nil && completeByOther(opts.Out, run) {
						mu.Lock()
						rep.Resumed++
						mu.Unlock()
						notify(run, nil, true)
						continue
					}
					if err != nil {
						errOnce.Do(func() {
							firstErr = fmt.Errorf("run %s: %w", run.Name, err)
							close(failed)
						})
						continue
					}
					if out == nil { // interrupted: dropped
						continue
					}
					mu.Lock()
					rep.Ran++
					mu.Unlock()
					notify(run, out, false)
				}
			}()
		}
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
		sort.Slice(held, func(i, j int) bool { return held[i].Index < held[j].Index })
		pending = held
	}
	if firstErr != nil {
		return rep, firstErr
	}
	if (stopped || ctx.Err() != nil) && rep.Resumed+rep.Ran < rep.Total {
		return rep, fmt.Errorf("%w: %w", ErrStopped, context.Cause(ctx))
	}
	if opts.Shard != nil {
		return rep, nil
	}
	sum, err := Summarize(sw, opts.Out)
	if err != nil {
		return rep, err
	}
	if err := WriteSummary(opts.Out, sum); err != nil {
		return rep, err
	}
	rep.Complete, rep.Summary = true, sum
	return rep, nil
}

// completeByOther reports whether the run's folder is complete in out
// (another process completed it since this one looked).
func completeByOther(out string, run *configs.SweepRun) bool {
	dir := filepath.Join(out, run.Name)
	if _, err := os.Stat(dir); err != nil {
		return false
	}
	return checkRunFolder(dir, run) == nil
}

// heldPoll is how often a sweep looks again at the runs another process
// holds: a quarter of the claims' lease, within 50ms and 15s.
func heldPoll() time.Duration {
	return min(max(results.ClaimLease()/4, 50*time.Millisecond), 15*time.Second)
}

// SearchWorkers is the number of evaluation workers a run's search uses
// when the sweep runs parallel runs at a time: the run's search.workers,
// at most the CPUs (GOMAXPROCS), or else an equal share of the CPUs.
func SearchWorkers(run *configs.SweepRun, parallel int) int {
	workers := min(run.Config.Search.Workers, runtime.GOMAXPROCS(0))
	if workers <= 0 {
		workers = max(1, runtime.GOMAXPROCS(0)/max(1, parallel))
	}
	return workers
}

// runOne searches one run and writes its folder. It claims the folder
// first, so that two processes never search the same run at once (two
// shards given the same K, say): a claim another process holds gives an
// error that wraps results.ErrHeld. When the claim is lost meanwhile
// (another process took it over), the search stops and the error wraps
// results.ErrLost; nothing is written. It returns a nil outcome, and
// writes nothing, when ctx interrupted the search. parallel is the number
// of runs at a time; tookOver is called when the claim took over another
// process's.
func runOne(ctx context.Context, run *configs.SweepRun, opts Options, parallel int, tookOver func(holder string, from *optimizer.CheckpointHeader)) (*optimizer.Outcome, error) {
	started := time.Now()
	claim, err := results.ClaimDir(filepath.Join(opts.Out, run.Name))
	if err != nil {
		return nil, err
	}
	defer claim.Release()
	if claim.TookOver != "" || claim.Checkpoint() != nil {
		var from *optimizer.CheckpointHeader
		if h, _, err := optimizer.ReadCheckpointHeader(claim.Checkpoint()); err == nil {
			from = &h
		}
		tookOver(claim.TookOver, from)
	}
	e, err := evaluate.NewEvaluator(run.Config)
	if err != nil {
		return nil, err
	}
	workers := SearchWorkers(run, parallel)
	// A lost claim stops the search: its result could not be published.
	searchCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-claim.Lost():
			cancel()
		case <-searchCtx.Done():
		}
	}()
	// The search saves its checkpoint into the claim's work folder, and
	// continues from the one the claim took over from a holder that did
	// not finish (killed, or stopped at its time limit).
	cp := &optimizer.Checkpoint{Every: run.Config.Search.CheckpointEvery(), Save: claim.SaveCheckpoint, Resume: claim.Checkpoint()}
	if opts.CheckpointGenerations > 0 {
		cp.Every, cp.Generations = 0, opts.CheckpointGenerations
	}
	var last moo.Progress
	res, err := optimizer.Run(searchCtx, e, optimizer.Options{Workers: workers, Checkpoint: cp, Progress: func(p moo.Progress) {
		if p.Stage == "" { // the search's own reports, not those of the stages around it
			last = p
		}
		if opts.OnProgress != nil {
			opts.OnProgress(run, p)
		}
	}})
	if lost := claim.LostError(); lost != nil {
		return nil, lost
	}
	if errors.Is(err, optimizer.ErrCheckpoint) {
		claim.Suspend() // the checkpoint stays, for a sweep of its configuration
	}
	if err != nil {
		return nil, err
	}
	if res.Interrupted() {
		// Stopped (a time limit's SIGTERM): the run's next claim continues
		// from its checkpoint.
		claim.Suspend()
		return nil, nil
	}
	// The search's last progress report counts the feasible evaluations
	// (optimizer.Outcome does not carry them); it does not see the
	// evaluations of the initial constructions.
	feasible := -1
	if last.Evaluations == res.Evaluations-res.ConstructionEvaluations {
		feasible = last.Feasible
	}
	info := results.RunInfo{Version: opts.Version, Started: started, Workers: workers}
	if err := runwrite.CommitSweepRun(claim, run, res, info, feasible); err != nil {
		return nil, err
	}
	return res, nil
}

// prepare creates or checks the sweep folder and returns the runs that are
// complete there.
func prepare(sw *configs.Sweep, opts Options) (map[string]bool, error) {
	out := opts.Out
	st, statErr := os.Stat(out)
	exists := statErr == nil
	joining := opts.Resume || opts.Shard != nil
	switch {
	case exists && !st.IsDir():
		return nil, &configs.InputError{What: fmt.Sprintf("%s is a file, not a sweep folder; choose another --out", out)}
	case exists && !joining:
		return nil, &configs.InputError{What: fmt.Sprintf("output folder %s exists already; choose another with --out, or add --resume to finish the sweep in it", out)}
	case !exists && opts.Resume:
		return nil, &configs.InputError{What: fmt.Sprintf("nothing to resume: %s does not exist", out)}
	}
	if err := createSweepFolder(sw, out, exists, opts.Shard != nil); err != nil {
		return nil, err
	}
	if opts.Shard != nil {
		if err := recordShards(out, opts.Shard); err != nil {
			return nil, err
		}
	}
	return completeRuns(sw, out)
}

// ShardsFileName, in a sweep folder, records the number of shards the
// sweep is split into, as the first shard gave it: {"shards": N}.
const ShardsFileName = "shards.json"

type shardsRecord struct {
	Shards int `json:"shards"`
}

// recordShards writes the shard count into the sweep folder, or checks it
// against the one recorded: every shard of a sweep must split it alike.
func recordShards(out string, sh *Shard) error {
	path := filepath.Join(out, ShardsFileName)
	data, _ := json.Marshal(shardsRecord{Shards: sh.N})
	tmp := filepath.Join(out, fmt.Sprintf(".%s.tmp-%d-%d", ShardsFileName, os.Getpid(), time.Now().UnixNano()))
	if err := os.WriteFile(tmp, append(data, '\n'), 0o666); err != nil {
		return &configs.InputError{What: fmt.Sprintf("cannot write into the sweep folder %s: %v", out, err)}
	}
	defer os.Remove(tmp)
	// A hard link creates the file whole, and only when it is not there.
	if err := os.Link(tmp, path); err == nil {
		return nil
	}
	n, err := RecordedShards(out)
	if err != nil {
		return err
	}
	if n != sh.N {
		return &configs.InputError{What: fmt.Sprintf("--shard %s: the sweep in %s is split into %d shards (%s); give --shard K/%d (a shard of another count would run another split's runs)", sh, out, n, ShardsFileName, n)}
	}
	return nil
}

// RecordedShards returns the shard count recorded in a sweep folder, or 0
// when no shard has run there.
func RecordedShards(out string) (int, error) {
	data, err := configs.ReadInput(filepath.Join(out, ShardsFileName), "the sweep's "+ShardsFileName)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	var rec shardsRecord
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	if err == nil && rec.Shards < 1 {
		err = errors.New("no shard count")
	}
	if err != nil {
		return 0, &configs.InputError{What: fmt.Sprintf("%s: not a shard count (%v); remove it if no shard runs", filepath.Join(out, ShardsFileName), err)}
	}
	return rec.Shards, nil
}

// createSweepFolder makes out a sweep folder: it creates it with
// sweep.yaml, the sweep file as given, or checks that an existing folder
// is one. Shards starting at once may all create it: creating a folder
// twice is no error, and sweep.yaml is written whole (the same bytes) by
// whichever comes; for a shard, an existing folder that is empty, or holds
// only what shards are still writing (temporary files and folders, such as
// another shard's sweep.yaml on its way), is one that another shard has
// just created (or that the job script made).
func createSweepFolder(sw *configs.Sweep, out string, exists, shard bool) error {
	yaml := filepath.Join(out, results.SweepFileName)
	if exists {
		if _, err := os.Stat(yaml); err == nil {
			return nil
		}
		entries, err := os.ReadDir(out)
		others := 0 // what is there besides what other shards are writing
		for _, en := range entries {
			if !results.IsSweepTemp(en.Name()) {
				others++
			}
		}
		if err != nil || others > 0 || !shard {
			return &configs.InputError{What: fmt.Sprintf("%s is not a sweep folder (it has no %s)", out, results.SweepFileName)}
		}
	}
	if claimErr := checkCreatable(out); claimErr != nil {
		return claimErr
	}
	if err := os.MkdirAll(out, 0o777); err != nil {
		return &configs.InputError{What: fmt.Sprintf("cannot create the sweep folder %s: %v", out, err)}
	}
	header := fmt.Sprintf("# The sweep file of this folder (%s) as given; a relative base is relative to\n# that file's folder. Resume with: hetmap sweep %s --out <this folder> --resume\n", filepath.Base(sw.File), filepath.Base(sw.File))
	return results.WriteFileAtomic(yaml, append([]byte(header), sw.Text...))
}

// checkCreatable reports a path element of out that is a file.
func checkCreatable(out string) error {
	for p := filepath.Dir(out); ; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err == nil {
			if !st.IsDir() {
				return &configs.InputError{What: fmt.Sprintf("cannot create the sweep folder %s: %s is a file, not a folder", out, p)}
			}
			return nil
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// completeRuns returns the complete run folders of the sweep in out,
// after checking each, and removes what runs that ended left behind.
func completeRuns(sw *configs.Sweep, out string) (map[string]bool, error) {
	results.CleanStale(out)
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
		if !en.IsDir() || !strings.HasPrefix(name, "run-") {
			continue
		}
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
	if len(stray) > 0 {
		sort.Strings(stray)
		return nil, &configs.InputError{What: fmt.Sprintf("%s holds run folders that are not runs of this sweep (was the sweep file changed?): %s; use a new --out", out, strings.Join(stray, ", "))}
	}
	return done, nil
}

// checkRunFolder checks that a complete run folder is the run's: the same
// parameters and the same configuration (its SHA-256).
func checkRunFolder(dir string, run *configs.SweepRun) error {
	d, err := runfolder.ReadSweepRun(dir)
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

// MissingError lists the runs of a sweep that have no complete folder.
type MissingError struct {
	Out     string
	Missing []*configs.SweepRun
	Total   int
	// Shards is the shard count recorded in Out (0 when no shard ran).
	Shards int
}

// Owner returns the shard of Shards that holds the run, or nil when the
// sweep was not split.
func (e *MissingError) Owner(run *configs.SweepRun) *Shard {
	if e.Shards < 1 {
		return nil
	}
	return &Shard{K: (run.Index-1)%e.Shards + 1, N: e.Shards}
}

func (e *MissingError) Error() string {
	names := make([]string, 0, len(e.Missing))
	for _, r := range e.Missing {
		if sh := e.Owner(r); sh != nil {
			names = append(names, fmt.Sprintf("%s (shard %s)", r.Name, sh))
			continue
		}
		names = append(names, r.Name)
	}
	return fmt.Sprintf("%d of %d runs are not complete in %s: %s", len(e.Missing), e.Total, e.Out, strings.Join(names, ", "))
}

// SummarizeFolder builds and writes the summary of the sweep in out once
// every run folder is complete there (written by one process or by the
// shards of several); otherwise it writes nothing and returns a
// *MissingError listing the runs still missing. Each run folder is checked
// to be the run's (as for Resume).
func SummarizeFolder(sw *configs.Sweep, out string) (*Summary, error) {
	st, err := os.Stat(out)
	if err != nil || !st.IsDir() {
		return nil, &configs.InputError{What: fmt.Sprintf("nothing to summarise: %s is not a folder", out)}
	}
	if _, err := os.Stat(filepath.Join(out, results.SweepFileName)); err != nil {
		return nil, &configs.InputError{What: fmt.Sprintf("%s is not a sweep folder (it has no %s)", out, results.SweepFileName)}
	}
	done, err := completeRuns(sw, out)
	if err != nil {
		return nil, err
	}
	var missing []*configs.SweepRun
	for i := range sw.Runs {
		if !done[sw.Runs[i].Name] {
			missing = append(missing, &sw.Runs[i])
		}
	}
	if len(missing) > 0 {
		n, err := RecordedShards(out)
		if err != nil {
			return nil, err
		}
		return nil, &MissingError{Out: out, Missing: missing, Total: len(sw.Runs), Shards: n}
	}
	sum, err := Summarize(sw, out)
	if err != nil {
		return nil, err
	}
	return sum, WriteSummary(out, sum)
}

// Summarize reads every run folder of a complete sweep and builds its
// summary.
func Summarize(sw *configs.Sweep, out string) (*Summary, error) {
	runs := make([]*runfolder.SweepRunData, len(sw.Runs))
	for i := range sw.Runs {
		d, err := runfolder.ReadSweepRun(filepath.Join(out, sw.Runs[i].Name))
		if err != nil {
			return nil, err
		}
		runs[i] = d
	}
	return NewSummary(sw, runs)
}
