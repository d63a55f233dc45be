package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const shared = "../../../shared"

// hetmap runs the command line in-process and returns stdout, stderr and the exit code.
func hetmap(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./cmd/hetmap -update` to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after checking the change):\n--- got\n%s", path, got)
	}
}

func needShared(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(shared); err != nil {
		t.Skipf("%s is absent: the reference models live in ../shared beside the project", shared)
	}
}

func TestModelText(t *testing.T) {
	out, errOut, code := hetmap(t, "model")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "model_default.txt", out)
}

func TestModelTextFromAmalthea(t *testing.T) {
	needShared(t)
	out, errOut, code := hetmap(t, "model", "--model", shared+"/waters2019/mobstr-mapped_Krawczyk2019-mapping.amxmi")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "model_mobstr.txt", out)
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
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"model", "--config", bad}, 2, "unknown key(s) at the top level: colour"},
		{[]string{"model", "--config", filepath.Join(dir, "missing.yaml")}, 2, "cannot read the configuration"},
		{[]string{"model", "--model", notModel}, 2, "not a well-formed Amalthea XML file"},
		{[]string{"model", "--config", bad, "--model", notModel}, 2, "either --config or --model"},
		{[]string{"model", "extra"}, 2, "unknown command"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"import", bad}, 2, "expected an Amalthea model"},
		{[]string{"import", notModel, "-o", filepath.Join(dir, "out.yaml")}, 2, "not a well-formed"},
	}
	for _, tt := range tests {
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
}
