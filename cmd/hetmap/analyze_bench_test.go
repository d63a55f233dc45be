package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// largeSystem writes into dir the 1 000-task system of issue 29's
// measurement (internal/synth: 990 periodic tasks and 5 GPU tasks with
// their offloading tasks, 6 A57 and 2 Denver cores, 8 chains of 4 tasks;
// the default refined count) and a mapping that holds: every task on the
// core where its demand adds least to the load (worst fit, in the model's
// order), the GPU tasks on the GPU, offloading asynchronously, the
// shortest-period ones at high stream priority. It returns the two files.
func largeSystem(tb testing.TB, dir string) (config, mapping string) {
	tb.Helper()
	s := synth.Settings{Tasks: 990, GPUTasks: 5, A57: 6, Denver: 2, Chains: 8, ChainLength: 4}
	text, err := synth.YAML(s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := configs.Load(strings.NewReader(text), "large.yaml", ".")
	if err != nil {
		tb.Fatal(err)
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	specs := e.Model().Tasks()
	units := e.Model().Units()
	load := make([]float64, len(units))
	var b strings.Builder
	b.WriteString("units:\n")
	for i, t := range specs {
		if t.Kind == evaluate.GPUTask {
			fmt.Fprintf(&b, "  - {task: %s, unit: %s}\n", t.Name, units[e.Model().GPUUnit()].Name)
			continue
		}
		best, least := -1, 0.0
		for _, u := range t.Units {
			if c, ok := e.Model().DemandBound(i, u, 0, false); ok && (best < 0 || load[u]+float64(c)/float64(t.Period) < least) {
				best, least = u, load[u]+float64(c)/float64(t.Period)
			}
		}
		c, _ := e.Model().DemandBound(i, best, 0, false)
		load[best] += float64(c) / float64(t.Period)
		fmt.Fprintf(&b, "  - {task: %s, unit: %s}\n", t.Name, units[best].Name)
	}
	b.WriteString("offloading:\n")
	for _, g := range e.Model().GPUTasks() {
		fmt.Fprintf(&b, "  - {task: %s, mode: async}\n", specs[g].Name)
	}
	b.WriteString("gpu_priorities:\n")
	for _, g := range e.Model().GPUTasks() {
		p := "low"
		if specs[g].Period <= 20*int64(configs.Millisecond) {
			p = "high"
		}
		fmt.Fprintf(&b, "  - {task: %s, priority: %s}\n", specs[g].Name, p)
	}
	config, mapping = filepath.Join(dir, "large.yaml"), filepath.Join(dir, "large-mapping.yaml")
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(mapping, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return config, mapping
}

// BenchmarkAnalyzeLarge is issue 29's measurement: hetmap analyze --json
// with every margin (execution scale, per kind, per task) on the
// 1 000-task, 8-core system of largeSystem, the whole command as a user
// runs it (loading, the analysis, the margins on the CPUs, the JSON).
// Run it with -cpu 2 for the figure on two cores.
func BenchmarkAnalyzeLarge(b *testing.B) {
	config, mapping := largeSystem(b, b.TempDir())
	for b.Loop() {
		if code := run([]string{"analyze", "--config", config, "--mapping", mapping, "--json"}, io.Discard, io.Discard); code != exitOK {
			b.Fatalf("analyze: exit %d", code)
		}
	}
}
