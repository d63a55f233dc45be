package main

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
)

var scaleConfigs = flag.String("scale-configs", "", "write the configurations of the synthetic scale systems (60 and 250 tasks) into this folder")

// scaleSystems are the synthetic systems of the scale benchmarks and of
// the default runs issue 27 measures: 56 and 240 periodic tasks with 2 and
// 5 GPU tasks (and their offloading tasks), 4 A57 and 2 Denver cores, 8
// chains of 4 tasks as the objectives, drawn from one seeded generator.
var scaleSystems = []struct {
	name string
	s    synth.Settings
}{
	{"synth-60.yaml", synth.Settings{Tasks: 56, GPUTasks: 2, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 3}},
	{"synth-250.yaml", synth.Settings{Tasks: 240, GPUTasks: 5, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 3}},
}

// TestScaleConfigs: the configurations of the scale systems load, with
// their 60 and 250 tasks and 8 chain objectives, as hetmap optimize reads
// them; with -scale-configs DIR they are written there, for timing a
// default run:
//
//	go test ./cmd/hetmap -run TestScaleConfigs -scale-configs /tmp/scale
//	hetmap optimize --config /tmp/scale/synth-250.yaml
func TestScaleConfigs(t *testing.T) {
	dir := *scaleConfigs
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, sys := range scaleSystems {
		_, y, err := synth.Config(sys.s, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, sys.name)
		if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := configs.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tasks := []int{60, 250}[i]
		if n := len(cfg.System.Tasks); n != tasks || len(cfg.System.Chains) != 8 || !strings.Contains(y, "objectives: [{chain: C0}") {
			t.Errorf("%s: %d tasks, %d chains", sys.name, n, len(cfg.System.Chains))
		}
	}
}
