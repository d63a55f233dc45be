package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
	"github.com/hetmap/hetmap/results"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func newOptimizeCmd() *cobra.Command {
	var sf systemFlags
	var algorithm, out string
	var seed int64
	var workers int
	cmd := &cobra.Command{
		Use:   "optimize",
		Short: "Search the mappings that are Pareto-optimal for the chain latencies",
		Long: `Search the mappings of the system's tasks to units (and the offloading modes, GPU
stream priorities or time slices) that are Pareto-optimal for the configured objectives
(default: every chain's maximum reaction time) among those that meet every deadline.

--algorithm nsga2 (default) runs the genetic search; exhaustive enumerates every distinct
mapping, with identical cores treated as interchangeable and partial mappings cut as soon
as they are unschedulable, and gives the exact front. The same --seed gives the same front
with any number of --workers.

Writes report.html (a self-contained page for an architecture review), front.csv,
front.json, manifest.json, config.yaml and mappings/point-N.yaml (each accepted by
hetmap analyze --mapping) into --out (default results/<UTC time>/), which
appears only when the run is complete; for a system read from an Amalthea model also
mappings/point-N.amxmi, the model with that mapping (hetmap export). Exit code 1 when no mapping is feasible: the least-
violating mappings are shown with what they miss (with the exhaustive algorithm, a proof
that no feasible mapping exists).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := sf.load()
			if err != nil {
				return err
			}
			e, err := optimizer.NewEvaluator(cfg)
			if err != nil {
				return err
			}
			opts := optimizer.Options{Algorithm: algorithm, Workers: workers}
			if cmd.Flags().Changed("seed") {
				opts.Seed = &seed
			}
			if out == "" {
				out = filepath.Join("results", time.Now().UTC().Format("20060102T150405Z"))
			}
			if _, err := os.Stat(out); err == nil {
				return fmt.Errorf("output folder %s exists already; choose another with --out", out)
			}
			started := time.Now()
			progress := newProgress(cmd.ErrOrStderr())
			opts.Progress = progress.update
			res, err := optimizer.Run(e, opts)
			progress.finish(res)
			if err != nil {
				return err
			}
			if err := results.WriteFrontText(cmd.OutOrStdout(), cfg, res); err != nil {
				return err
			}
			nWorkers := res.Search.Workers
			if nWorkers == 0 {
				nWorkers = defaultWorkers()
			}
			info := results.RunInfo{Version: version, Started: started, Workers: nWorkers}
			if len(cfg.Amalthea) > 0 {
				info.Model = func(p optimizer.Point) (map[string][]byte, error) {
					return configs.ExportAmalthea(cfg.Amalthea, amaltheaMapping(e, p.Assignment, p.Result))
				}
			}
			if err := results.WriteRun(out, cfg, res, info); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "\n%s, %d evaluations in %s; files in %s (report.html, front.csv, front.json, manifest.json)\n",
				describe(res), res.Evaluations, res.Wall.Round(time.Millisecond), out)
			if !res.Feasible {
				return &problemError{"no feasible mapping found"}
			}
			return nil
		},
	}
	sf.add(cmd)
	cmd.Flags().StringVar(&algorithm, "algorithm", "", "nsga2 or exhaustive (default: the configuration's search.algorithm, nsga2)")
	cmd.Flags().Int64Var(&seed, "seed", 0, "seed of the search's random generator (default: the configuration's search.seed, 1)")
	cmd.Flags().StringVar(&out, "out", "", "folder for the result files (default results/<UTC time>)")
	cmd.Flags().IntVar(&workers, "workers", 0, "parallel evaluations (default: the number of CPUs)")
	return cmd
}

func describe(res *optimizer.Outcome) string {
	if !res.Feasible {
		return "no feasible mapping"
	}
	return fmt.Sprintf("%d Pareto-optimal mapping(s)", len(res.Front))
}

// progress shows a bar on a terminal and nothing elsewhere (logs, tests).
type progress struct {
	bar   *progressbar.ProgressBar
	start time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("searching"),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionSpinnerType(14), progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *progress) update(pr moo.Progress) {
	if p.bar == nil {
		return
	}
	rate := float64(pr.Evaluations) / time.Since(p.start).Seconds()
	p.bar.Describe(fmt.Sprintf("generation %d: %d evaluations, %d feasible, front %d, %.0f evaluations/s",
		pr.Generation, pr.Evaluations, pr.Feasible, pr.ArchiveSize, rate))
	_ = p.bar.Set64(int64(pr.Evaluations))
}

func (p *progress) finish(*optimizer.Outcome) {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// defaultWorkers is what moo uses when no number is given.
func defaultWorkers() int { return runtimeCPUs() }

var _ = configs.AlgorithmNSGA2
