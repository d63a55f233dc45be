package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/internal/golden"
)

// The thesis example (gpu-block-rta.md): f = {4, 10, 12, 11} s.
func TestGPURTAThesisExample(t *testing.T) {
	out, errOut, code := hetmap(t, "gpu", "rta", "testdata/thesis.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, "gpu_rta_thesis.txt", out)

	out, _, _ = hetmap(t, "gpu", "rta", "--json", "testdata/thesis.yaml")
	var rep struct {
		Kernels []struct {
			Name         string `json:"name"`
			CompletionNs int64  `json:"completion_ns"`
			ResponseNs   int64  `json:"response_ns"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"K1": 4e9, "K2": 10e9, "K3": 12e9, "K4": 11e9}
	if len(rep.Kernels) != 4 {
		t.Fatalf("got %d kernels", len(rep.Kernels))
	}
	for _, k := range rep.Kernels {
		if k.CompletionNs != want[k.Name] || k.ResponseNs != want[k.Name] {
			t.Errorf("%s: completion %d, response %d; want %d", k.Name, k.CompletionNs, k.ResponseNs, want[k.Name])
		}
	}
}

func TestGPURTADeadlineMissExitsOne(t *testing.T) {
	// Two kernels of 8 blocks of 1024 threads fill both SMs (gmax = 4) for two
	// waves each: K1 completes at 2·3 = 6 s, K2 at 12 s > its 10 s period.
	path := filepath.Join(t.TempDir(), "miss.yaml")
	os.WriteFile(path, []byte(`kernels:
  - {name: K1, period: 10s, block_time: 3s, blocks: 8, threads_per_block: 1024, launch: 0s}
  - {name: K2, period: 10s, block_time: 3s, blocks: 8, threads_per_block: 1024, launch: 0s}
`), 0o644)
	out, errOut, code := hetmap(t, "gpu", "rta", path)
	if code != 1 || !strings.Contains(errOut, "1 kernel(s) respond later than their period") || !strings.Contains(out, "12 s") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestGPUSimulateThesisExample(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "t.svg")
	out, errOut, code := hetmap(t, "gpu", "simulate", "--svg", svg, "testdata/thesis.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, "gpu_simulate_thesis.txt", out)
	data, err := os.ReadFile(svg)
	if err != nil || !strings.Contains(string(data), "<svg") || !strings.Contains(string(data), "K2:6") {
		t.Errorf("SVG missing or without block labels (%v)", err)
	}
}

func TestGPUSimulateExaminerScenario(t *testing.T) {
	needShared(t)
	file := shared + "/cuda_scheduling_examiner/configs/rtss_2017_fig6_stream_priority_starve.json"
	out, errOut, code := hetmap(t, "gpu", "simulate", "--json", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Kernels []struct {
			Name         string `json:"name"`
			StartNs      int64  `json:"start_ns"`
			CompletionNs int64  `json:"completion_ns"`
		} `json:"kernels"`
		Blocks []struct {
			Kernel  string `json:"kernel"`
			Index   int    `json:"index"`
			SM      int    `json:"sm"`
			StartNs int64  `json:"start_ns"`
			EndNs   int64  `json:"end_ns"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Kernels) == 0 || len(rep.Blocks) == 0 {
		t.Fatalf("no kernels or blocks: %s", out)
	}
	for _, b := range rep.Blocks {
		if b.EndNs <= b.StartNs || b.SM < 0 || b.SM > 1 || b.Kernel == "" {
			t.Errorf("implausible block %+v", b)
		}
	}
	// A scenario whose only benchmark is not a kernel loads, with the
	// benchmark reported as skipped; with nothing left to simulate, that is
	// an error (it printed an empty table and exited 0 before).
	_, errOut, code = hetmap(t, "gpu", "simulate", shared+"/cuda_scheduling_examiner/configs/cpu_random_walk.json")
	if code != 2 || !strings.Contains(errOut, "cpu_random_walk.so: skipped") || !strings.Contains(errOut, "nothing to simulate: every benchmark of the scenario was skipped") {
		t.Errorf("cpu_random_walk: exit %d, stderr %q", code, errOut)
	}
}

func TestGPUCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("kernels:\n  - {name: K1, block_time: 4s, blocks: 0, threads_per_block: 512}\n"), 0o644)
	for _, args := range [][]string{
		{"gpu", "rta", bad},
		{"gpu", "simulate", bad},
		{"gpu", "rta", filepath.Join(dir, "missing.yaml")},
	} {
		out, errOut, code := hetmap(t, args...)
		if code != 2 || out != "" || errOut == "" {
			t.Errorf("hetmap %v: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, out, errOut)
		}
	}
	_, errOut, _ := hetmap(t, "gpu", "rta", bad)
	if !strings.Contains(errOut, "kernels[0].blocks") {
		t.Errorf("error does not name the key: %s", errOut)
	}
}
