package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/golden"
	"github.com/hetmap/hetmap/internal/sharedtest"
)

// TestMain runs the test binary as hetmap itself when HETMAP_TEST_MAIN is
// set, so that tests can start hetmap as a separate process (signals, exit
// codes, several processes at once) without building it.
func TestMain(m *testing.M) {
	if os.Getenv("HETMAP_TEST_MAIN") == "1" {
		// Tests that wait for a search's progress ask for lines sooner.
		if d, err := time.ParseDuration(os.Getenv("HETMAP_TEST_PROGRESS_EVERY")); err == nil {
			plainProgressEvery = d
		}
		// Tests that signal a run in a given stage hold it there until the
		// signal has come (stageHook), saying so on stderr.
		if stage := os.Getenv("HETMAP_TEST_HOLD_IN"); stage != "" {
			held := false
			stageHook = func(ctx context.Context, name string) {
				if name != stage || held {
					return
				}
				held = true
				fmt.Fprintf(os.Stderr, "test: held in %s\n", name)
				<-ctx.Done()
			}
		}
		main()
	}
	os.Exit(m.Run())
}

// hetmapCommand returns hetmap as a separate process (the test binary
// through TestMain) in the working directory dir ("" for the test's).
func hetmapCommand(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HETMAP_TEST_MAIN=1")
	return cmd
}

const shared = "../../../shared"

// hetmap runs the command line in-process and returns stdout, stderr and the exit code.
func hetmap(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// needShared fails the test when ../shared is absent, saying where it is
// expected, or skips it under -short.
func needShared(t *testing.T) {
	t.Helper()
	sharedtest.Require(t)
}

func TestModelText(t *testing.T) {
	out, errOut, code := hetmap(t, "model")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, "model_default.txt", out)
}

func TestModelTextFromAmalthea(t *testing.T) {
	needShared(t)
	out, errOut, code := hetmap(t, "model", "--model", shared+"/waters2019/mobstr-mapped_Krawczyk2019-mapping.amxmi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, "model_mobstr.txt", out)
}

func TestModelJSON(t *testing.T) {
	out, errOut, code := hetmap(t, "model", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m struct {
		Units []struct {
			Name, Kind, Type string
		} `json:"units"`
		Tasks []struct {
			Name       string           `json:"name"`
			PeriodNs   int64            `json:"period_ns"`
			DeadlineNs int64            `json:"deadline_ns"`
			WorstTicks map[string]int64 `json:"worst_case_ticks"`
		} `json:"tasks"`
		Runnables []json.RawMessage `json:"runnables"`
		Labels    []json.RawMessage `json:"labels"`
		Chains    []json.RawMessage `json:"chains"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, u := range m.Units {
		kinds[u.Kind]++
	}
	if len(m.Units) != 7 || kinds["A57"] != 4 || kinds["Denver"] != 2 || kinds["GPU_def"] != 1 {
		t.Errorf("units %v, want 4 A57, 2 Denver, 1 GPU", kinds)
	}
	if len(m.Tasks) != 14 || len(m.Runnables) != 27 || len(m.Labels) != 30 || len(m.Chains) != 8 {
		t.Errorf("got %d tasks, %d runnables, %d labels, %d chains; want 14, 27, 30, 8", len(m.Tasks), len(m.Runnables), len(m.Labels), len(m.Chains))
	}
	for _, task := range m.Tasks {
		switch task.Name {
		case "Planner":
			// deadline = period (the default convention), worst ticks as in the model
			if task.PeriodNs != 15e6 || task.DeadlineNs != 15e6 || task.WorstTicks["Denver"] != 24873529 || task.WorstTicks["A57"] != 26483822 {
				t.Errorf("Planner = %+v", task)
			}
		case "SFM":
			// a GPU task inherits PRE_SFM_gpu_POST's period
			if task.PeriodNs != 33e6 || task.WorstTicks["GPU_def"] != 11850000 {
				t.Errorf("SFM = %+v", task)
			}
		}
	}
}

func TestImportRoundTrip(t *testing.T) {
	needShared(t)
	for _, model := range []string{"ChallengeModel_release_fix.amxmi", "mobstr-mapped_Krawczyk2019-mapping.amxmi"} {
		src := shared + "/waters2019/" + model
		out := filepath.Join(t.TempDir(), "m.yaml")
		_, errOut, code := hetmap(t, "import", src, "-o", out)
		if code != 0 {
			t.Fatalf("import exit %d: %s", code, errOut)
		}
		a, err := configs.LoadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := configs.LoadFile(out)
		if err != nil {
			t.Fatalf("the imported YAML does not load: %v", err)
		}
		ja, _ := json.Marshal(a.System)
		jb, _ := json.Marshal(b.System)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s: loading the imported YAML gives another system", model)
		}
		if !strings.Contains(errOut, "warning:") {
			t.Errorf("%s: no warnings on stderr", model)
		}
	}
}

func TestExitCodesAndErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("colour: blue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notModel := filepath.Join(dir, "bad.amxmi")
	if err := os.WriteFile(notModel, []byte("<xml"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	search := func(name, keys string) string {
		return write(name+".yaml", "model: builtin\nsearch: {"+keys+"}\n")
	}
	aFile := write("a-file", "x")
	existing := filepath.Join(dir, "existing")
	if err := os.Mkdir(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	memoryNoLineSize := write("memory.yaml", "model: builtin\nmemory:\n  cores:\n    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}\n    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}\n  copy_engine: {baseline: 3ns, per_core: 500ps}\n")
	userChain := write("chain.yaml", "model: builtin\nchains:\n  - {name: X, tasks: [Planner, Nope]}\n")
	mapping := write("mapping.yaml", "units:\n  - {task: Nope, unit: Core0}\n")
	manyEvents := write("events.yaml", "kernels:\n  - {name: K1, period: 15s, block_time: 1us, blocks: 3000000, threads_per_block: 32, launch: 0s}\n")
	tests := []struct {
		args []string
		code int
		want string
	}{
		// The search's sizes, numbers and zeros (issue 12).
		{[]string{"optimize", "--config", search("pop", "population: 1000000000000")}, 2, "search.population: must be between 2 and 100000, got 1000000000000"},
		{[]string{"optimize", "--config", search("gen", "generations: 99999999999999999999")}, 2, "search.generations: 100000000000000000000 is too large"},
		{[]string{"optimize", "--config", search("frac", "population: 2.5")}, 2, "search.population: 2.5 is not a whole number"},
		{[]string{"optimize", "--config", search("pop0", "population: 0")}, 2, "search.population: 0: give at least 2, or leave the key out for the default, 100"},
		{[]string{"optimize", "--config", search("gen0", "generations: 0")}, 2, "search.generations: 0: give at least 1"},
		{[]string{"optimize", "--config", search("free", "free: []")}, 2, "search.free: empty: list the genes the search may change"},
		{[]string{"optimize", "--config", search("seed0", "seed: 0")}, 2, "search.seed: 0: give a seed other than 0"},
		{[]string{"optimize", "--config", search("workers", "workers: -1")}, 2, "search.workers: must not be negative"},
		{[]string{"optimize", "--config", "/dev/zero"}, 2, "/dev/zero: the configuration is a device, not a regular file"},
		{[]string{"optimize", "--workers", "-1"}, 2, "--workers -1: must not be negative (0 means the number of CPUs)"},
		{[]string{"optimize", "--seed", "0"}, 2, "--seed 0: 0 is not a seed hetmap takes"},
		{[]string{"optimize", "--algorithm", "annealing"}, 2, `--algorithm: "annealing" is not an algorithm (auto, nsga2 or exhaustive)`},
		{[]string{"sweep", sweepFile, "--workers", "0"}, 2, "--workers 0: give at least 1 run at a time"},
		{[]string{"sweep", sweepFile, "--workers", "-3"}, 2, "--workers -3: give at least 1 run at a time"},
		// Where results go.
		{[]string{"optimize", "--out", existing}, 2, "output folder " + existing + " exists already; choose another with --out"},
		{[]string{"optimize", "--out", filepath.Join(aFile, "run")}, 2, "cannot create the output folder " + filepath.Join(aFile, "run") + ": " + aFile + " is a file, not a folder"},
		{[]string{"sweep", sweepFile, "--out", filepath.Join(aFile, "sweep")}, 2, aFile + " is a file, not a folder"},
		{[]string{"import", filepath.Join(shared, "waters2019/ChallengeModel_release_fix.amxmi"), "-o", folder}, 2, "-o " + folder + ": " + folder + " is a folder: give a file name"},
		// Sharding.
		{[]string{"sweep", sweepFile, "--shard", "4/3", "--out", existing}, 2, "--shard 4/3: K must be between 1 and N"},
		{[]string{"sweep", sweepFile, "--shard", "two", "--out", existing}, 2, `--shard "two": write K/N`},
		{[]string{"sweep", sweepFile, "--shard", "1/3"}, 2, "--shard needs --out: the folder that every shard of the sweep shares"},
		{[]string{"sweep", sweepFile, "--shard", "1/3", "--resume", "--out", existing}, 2, "--shard keeps the complete runs in --out already"},
		{[]string{"sweep", sweepFile, "--summarize"}, 2, "--summarize needs --out"},
		{[]string{"sweep", sweepFile, "--summarize", "--out", filepath.Join(dir, "none")}, 2, "nothing to summarise: " + filepath.Join(dir, "none") + " is not a folder"},
		{[]string{"sweep", sweepFile, "--summarize", "--out", existing}, 2, existing + " is not a sweep folder (it has no sweep.yaml)"},
		// Messages that named internals.
		{[]string{"model", "--config", memoryNoLineSize}, 2, "memory.line_size: missing: give the bytes per DRAM access, e.g. 64"},
		{[]string{"model", "--config", userChain}, 2, "chain.yaml: chains[0].tasks[1]: task \"Nope\" is not defined (chain X)"},
		{[]string{"analyze", "--mapping", mapping}, 2, "mapping.yaml: units[0].task: task \"Nope\" is not defined"},
		{[]string{"gpu", "foo"}, 2, `unknown command "foo" for "hetmap gpu"`},
		{[]string{"gpu"}, 2, "give a command: hetmap gpu rta FILE.yaml, or hetmap gpu simulate FILE"},
		{[]string{"gpu", "simulate", filepath.Join(shared, "cuda_scheduling_examiner/configs/counter_spin.json")}, 2, "nothing to simulate: every benchmark of the scenario was skipped"},
		{[]string{"gpu", "simulate", manyEvents}, 2, "the scenario has more than 2097152 events (blocks + copies + calls), more than the simulator takes"},
		{[]string{"model", "--config", bad}, 2, "unknown key(s) at the top level: colour"},
		{[]string{"model", "--config", filepath.Join(dir, "missing.yaml")}, 2, "cannot read the configuration"},
		{[]string{"model", "--model", notModel}, 2, "not a well-formed Amalthea XML file"},
		{[]string{"model", "--config", bad, "--model", notModel}, 2, "either --config or --model"},
		{[]string{"model", "extra"}, 2, "unknown command"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"import", bad}, 2, "expected an Amalthea model"},
		{[]string{"import", notModel, "-o", filepath.Join(dir, "out.yaml")}, 2, "not a well-formed"},
	}
	_, statErr := os.Stat(runsFolder)
	runsBefore := statErr == nil
	for _, tt := range tests {
		if strings.Contains(strings.Join(tt.args, " "), shared) && !sharedtest.Present() {
			if testing.Short() {
				continue
			}
			needShared(t)
		}
		out, errOut, code := hetmap(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("hetmap %v: exit %d, stderr %q; want exit %d and %q", tt.args, code, errOut, tt.code, tt.want)
		}
		if code != 0 && out != "" {
			t.Errorf("hetmap %v failed but wrote to stdout: %q", tt.args, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.yaml")); !os.IsNotExist(err) {
		t.Error("a failed import left an output file")
	}
	// No failed command created an output folder or left a temporary file.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() && e.Name() != "existing" && e.Name() != "folder" || strings.Contains(e.Name(), ".tmp") {
			t.Errorf("a failed command left %s", e.Name())
		}
	}
	if entries, _ := os.ReadDir(folder); len(entries) != 0 {
		t.Errorf("a failed import wrote into the folder: %v", entries)
	}
	if _, err := os.Stat(runsFolder); err == nil && !runsBefore {
		os.Remove(runsFolder)
		t.Error("a failed optimize created the default runs/ folder")
	}
}

// writeConfig writes a configuration text into a temporary file.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
