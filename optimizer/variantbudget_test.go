package optimizer_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

var (
	compareVariantBudgets = flag.String("variant-budgets", "", "compare the genetic search's allowances for the priority-order variants of a feasible mapping (comma-separated analyses, e.g. 64,16,8,0) on the default run and print the table (long: minutes per run)")
	variantBudgetSystems  = flag.String("variant-systems", "60", "the systems of -variant-budgets (comma-separated: waters, 60, 250)")
	variantBudgetSeeds    = flag.Int("variant-seeds", 3, "the seeds of -variant-budgets, from 1")
)

// TestCompareVariantBudgets compares what the genetic search allows the
// priority-order variants of one feasible mapping (maxVariantAnalyses) on
// default runs (the stall rule in force, one worker, no margins): by the
// hypervolume of their fronts (in the objectives' units, one reference
// point per system: 10 % beyond the worst value of every objective over
// every front), the front points that are variants (explicit priorities),
// the analyses, generations and the CPU time of the run (which measures,
// it asserts nothing about it). It runs only when asked (-variant-budgets).
//
//	go test ./optimizer -run TestCompareVariantBudgets -variant-budgets 64,16,8,0 -variant-systems 60 -variant-seeds 2 -timeout 3h -v
func TestCompareVariantBudgets(t *testing.T) {
	if *compareVariantBudgets == "" {
		t.Skip("the comparison runs with -variant-budgets")
	}
	var budgets []int
	for _, f := range strings.Split(*compareVariantBudgets, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			t.Fatalf("-variant-budgets: %q is not a number of analyses", f)
		}
		budgets = append(budgets, n)
	}
	synthetic := func(tasks, gpu int) func() *configs.Config { return syntheticSystem(t, tasks, gpu) }
	systems := map[string]func() *configs.Config{
		"waters": func() *configs.Config { return synth.Load(t, "model: builtin\n") },
		"60":     synthetic(56, 2),
		"250":    synthetic(240, 5),
	}
	type run struct {
		front                 [][]float64
		variants              int
		analyses, gens, evals int
		cpu                   time.Duration
	}
	var table strings.Builder
	fmt.Fprintf(&table, "| system | allowance | hypervolume, mean ± sd | min – max | front | variants in front | analyses | generations | CPU s |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, name := range strings.Split(*variantBudgetSystems, ",") {
		mk, ok := systems[name]
		if !ok {
			t.Fatalf("unknown system %q (waters, 60, 250)", name)
		}
		runs := map[int][]run{}
		for _, b := range budgets {
			restore := optimizer.SetMaxVariantAnalyses(b)
			for seed := int64(1); seed <= int64(*variantBudgetSeeds); seed++ {
				cfg := mk()
				cfg.Search.Seed = seed
				before := cpuTime()
				out, err := optimizer.Run(context.Background(), evaluator(t, cfg), optimizer.Options{Algorithm: configs.AlgorithmNSGA2, Workers: 1, NoMargins: true})
				if err != nil {
					restore()
					t.Fatal(err)
				}
				r := run{front: objectives(out.Front), analyses: out.Analyses, gens: out.Generations, evals: out.Evaluations, cpu: cpuTime() - before}
				for _, p := range out.Front {
					if slices.ContainsFunc(p.Assignment.Priority, func(v int) bool { return v != evaluate.NoPriority }) {
						r.variants++
					}
				}
				runs[b] = append(runs[b], r)
				t.Logf("%s, allowance %d, seed %d: %d points (%d variants), %d evaluations, %d analyses, %d generations, %.1f s CPU", name, b, seed, len(r.front), r.variants, r.evals, r.analyses, r.gens, r.cpu.Seconds())
			}
			restore()
		}
		var all [][]float64
		for _, rs := range runs {
			for _, r := range rs {
				all = append(all, r.front...)
			}
		}
		ref := optimizer.ReferencePoint(all)
		for _, b := range budgets {
			var hv []float64
			size, variants, analyses, gens, cpu := 0, 0, 0, 0, 0.0
			for _, r := range runs[b] {
				hv = append(hv, moo.Hypervolume(r.front, ref))
				size += len(r.front)
				variants += r.variants
				analyses += r.analyses
				gens += r.gens
				cpu += r.cpu.Seconds()
			}
			n := float64(len(runs[b]))
			mean, sd := meanSD(hv)
			fmt.Fprintf(&table, "| %s | %d | %.6g ± %.2g | %.6g – %.6g | %.1f | %.1f | %.0f | %.0f | %.1f |\n", name, b, mean, sd, slices.Min(hv), slices.Max(hv),
				float64(size)/n, float64(variants)/n, float64(analyses)/n, float64(gens)/n, cpu/n)
		}
	}
	t.Logf("\n%s", table.String())
	fmt.Fprint(os.Stderr, table.String())
}

// cpuTime is the CPU time (user and system) the process has used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
