package optimizer_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
)

var compareSelections = flag.String("selections", "", "compare the genetic search's selections on the systems named (comma-separated: waters, 60, 250) and print the table (long: minutes per system)")

// TestCompareSelections compares the genetic search's survival selections,
// NSGA-II's crowding distance and NSGA-III's reference directions, at
// equal budget (search.max_evaluations, no stall window, the default
// front bound), on 10 seeds: by the hypervolume of their fronts (in the
// objectives' units, ms⁸, with one reference point per system: 10 %
// beyond the worst value of every objective over every front of both) and,
// on WATERS, by whether they reach its exact front. It runs only when asked
// (-selections), and then fails if the default selection's mean
// hypervolume falls below the other's.
//
//	go test ./optimizer -run TestCompareSelections -selections waters,60,250 -timeout 3h -v
func TestCompareSelections(t *testing.T) {
	if *compareSelections == "" {
		t.Skip("the comparison runs with -selections")
	}
	type system struct {
		name   string
		cfg    func() *configs.Config
		budget int
	}
	synthetic := func(tasks, gpu int) func() *configs.Config { return syntheticSystem(t, tasks, gpu) }
	systems := map[string]system{
		"waters": {"WATERS 2019 (built in, 8 chains)", func() *configs.Config { return synth.Load(t, "model: builtin\n") }, 100_000},
		"60":     {"60 tasks (8 chains)", synthetic(56, 2), 300_000},
		"250":    {"250 tasks (8 chains)", synthetic(240, 5), 60_000},
	}
	selections := []configs.Selection{configs.SelectionCrowding, configs.SelectionReference}
	def := (&configs.Search{}).SelectionFor(8)
	var table strings.Builder
	fmt.Fprintf(&table, "| system | budget (analyses) | selection | hypervolume, mean ± sd | min – max | wins | front | exact front reached |\n|---|---|---|---|---|---|---|---|\n")
	for _, name := range strings.Split(*compareSelections, ",") {
		sys, ok := systems[name]
		if !ok {
			t.Fatalf("unknown system %q (waters, 60, 250)", name)
		}
		var exact [][]float64
		if name == "waters" {
			out, err := optimizer.Run(context.Background(), evaluator(t, sys.cfg()), optimizer.Options{Algorithm: configs.AlgorithmExhaustive, NoMargins: true})
			if err != nil {
				t.Fatal(err)
			}
			exact = objectives(out.Front)
		}
		fronts := map[configs.Selection][][][]float64{}
		for _, sel := range selections {
			for seed := int64(1); seed <= 10; seed++ {
				cfg := sys.cfg()
				zero := 0
				cfg.Search.Seed, cfg.Search.MaxEvaluations, cfg.Search.StallGenerations, cfg.Search.Selection = seed, sys.budget, &zero, sel
				cfg.Search.Generations = configs.MaxGenerations
				out, err := optimizer.Run(context.Background(), evaluator(t, cfg), optimizer.Options{Algorithm: configs.AlgorithmNSGA2, NoMargins: true})
				if err != nil {
					t.Fatal(err)
				}
				fronts[sel] = append(fronts[sel], objectives(out.Front))
				t.Logf("%s, %s, seed %d: %d points, %d analyses, %d generations, %s", name, sel, seed, len(out.Front), out.Analyses, out.Generations, out.Wall)
			}
		}
		var all [][]float64
		for _, fs := range fronts {
			for _, f := range fs {
				all = append(all, f...)
			}
		}
		all = append(all, exact...)
		ref := optimizer.ReferencePoint(all)
		hv := map[configs.Selection][]float64{}
		for _, sel := range selections {
			for _, f := range fronts[sel] {
				hv[sel] = append(hv[sel], moo.Hypervolume(f, ref))
			}
		}
		for _, sel := range selections {
			other := selections[0]
			if other == sel {
				other = selections[1]
			}
			wins, reached, size := 0, 0, 0
			for i, v := range hv[sel] {
				if v > hv[other][i] {
					wins++
				}
				size += len(fronts[sel][i])
				if exact != nil && sameSet(fronts[sel][i], exact) {
					reached++
				}
			}
			mean, sd := meanSD(hv[sel])
			r := "–"
			if exact != nil {
				r = fmt.Sprintf("%d of 10", reached)
			}
			fmt.Fprintf(&table, "| %s | %d | %s | %.6g ± %.2g | %.6g – %.6g | %d of 10 | %.1f | %s |\n", sys.name, sys.budget, sel, mean, sd, slices.Min(hv[sel]), slices.Max(hv[sel]), wins, float64(size)/10, r)
		}
		mDef, _ := meanSD(hv[def])
		for _, sel := range selections {
			if m, _ := meanSD(hv[sel]); m > mDef {
				t.Errorf("%s: %s's mean hypervolume %.6g exceeds the default's (%s) %.6g", sys.name, sel, m, def, mDef)
			}
		}
	}
	t.Logf("\n%s", table.String())
	fmt.Fprint(os.Stderr, table.String())
}

// sameSet reports whether two fronts hold the same objective vectors.
func sameSet(a, b [][]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for _, p := range a {
		if !slices.ContainsFunc(b, func(q []float64) bool { return slices.Equal(p, q) }) {
			return false
		}
	}
	return true
}

func meanSD(xs []float64) (float64, float64) {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(v / float64(max(1, len(xs)-1)))
}

// syntheticSystem returns what makes the synthetic scale system of the
// comparisons: tasks CPU and gpu GPU tasks on 4 A57 and 2 Denver cores, 8
// chains of 4.
func syntheticSystem(t *testing.T, tasks, gpu int) func() *configs.Config {
	return func() *configs.Config {
		s := synth.Settings{Tasks: tasks, GPUTasks: gpu, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 3}
		cfg, _, err := synth.Config(s, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
}
