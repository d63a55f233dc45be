package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/configs/amalthea"
	"github.com/hetmap/hetmap/internal/testsize"
)

// The round trip of a mapping through the Amalthea model: a front point
// written back (optimize's mappings/point-N.amxmi, hetmap export) and
// analysed with --mapping default gives the response times and chain
// values of analyze with the point's mapping file, for every model of
// ../shared/amalthea-examples that hetmap reads and the WATERS 2019
// models, also where the priorities are not the derived ones.

// roundTripModels are the models of the round trip, as the paths of their
// files.
func roundTripModels(t *testing.T) map[string][]string {
	out := map[string][]string{}
	for name, args := range exampleModelArgs(t) {
		var files []string
		for i := 1; i < len(args); i += 2 {
			files = append(files, args[i])
		}
		out[name] = files
	}
	out["WATERS 2019"] = []string{shared + "/waters2019/ChallengeModel_release_fix.amxmi"}
	out["WATERS 2019 (mobstr)"] = []string{shared + "/waters2019/mobstr-mapped_Krawczyk2019-mapping.amxmi"}
	out["hand-written, Amalthea 2.0.0"] = []string{slices200}
	return out
}

func modelArgs(files []string) []string {
	var args []string
	for _, f := range files {
		args = append(args, "--model", f)
	}
	return args
}

// analysisJSON is what the round trip compares of an analysis.
type analysisJSON struct {
	Schedulable bool `json:"schedulable"`
	Misses      int  `json:"misses"`
	Tasks       []struct {
		Name     string `json:"name"`
		Unit     string `json:"unit"`
		Priority *int   `json:"priority"`
		R        int64  `json:"response_time_ns"`
		Verdict  string `json:"verdict"`
	} `json:"tasks"`
	GPU []struct {
		Name     string `json:"name"`
		Response int64  `json:"response_ns"`
	} `json:"gpu"`
	Chains []json.RawMessage `json:"chains"`
}

func analyzeJSON(t *testing.T, args ...string) (analysisJSON, string) {
	t.Helper()
	out, errOut, code := hetmap(t, append([]string{"analyze", "--json"}, args...)...)
	if code != 0 && code != 1 {
		t.Fatalf("analyze %v: exit %d: %s", args, code, errOutLines(errOut))
	}
	var a analysisJSON
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("analyze %v: %v", args, err)
	}
	return a, errOut
}

// sameAnalysis compares the response times, verdicts, GPU responses and
// chain values of two analyses.
func sameAnalysis(t *testing.T, what string, want, got analysisJSON) {
	t.Helper()
	if want.Schedulable != got.Schedulable || want.Misses != got.Misses {
		t.Errorf("%s: schedulable %v with %d misses, want %v with %d", what, got.Schedulable, got.Misses, want.Schedulable, want.Misses)
	}
	if len(want.Tasks) != len(got.Tasks) {
		t.Fatalf("%s: %d tasks, want %d", what, len(got.Tasks), len(want.Tasks))
	}
	for i, w := range want.Tasks {
		g := got.Tasks[i]
		if g.Name != w.Name || g.Unit != w.Unit || g.R != w.R || g.Verdict != w.Verdict {
			t.Errorf("%s: task %s on %s: R = %d ns (%s), want %s on %s: R = %d ns (%s)", what, g.Name, g.Unit, g.R, g.Verdict, w.Name, w.Unit, w.R, w.Verdict)
		}
	}
	if !reflect.DeepEqual(want.GPU, got.GPU) {
		t.Errorf("%s: GPU responses %+v, want %+v", what, got.GPU, want.GPU)
	}
	if len(want.Chains) != len(got.Chains) {
		t.Fatalf("%s: %d chains, want %d", what, len(got.Chains), len(want.Chains))
	}
	for i := range want.Chains {
		if string(want.Chains[i]) != string(got.Chains[i]) {
			t.Errorf("%s: chain %d:\n got %s\nwant %s", what, i, got.Chains[i], want.Chains[i])
		}
	}
}

// writtenModel is the model a point was written into: the file, or the
// folder for a model in several files.
func writtenModel(base string, files []string) []string {
	if len(files) > 1 {
		return []string{base}
	}
	return []string{base + ".amxmi"}
}

// reversedPriorities writes a mapping file that places the tasks as the
// analysis a did, with every core's derived priority order reversed (a
// core of two or more tasks): priorities that are not the derived ones.
func reversedPriorities(t *testing.T, a analysisJSON, base *configs.Mapping, path string) bool {
	t.Helper()
	prio := map[string]int{}
	count := map[string]int{}
	for _, tk := range a.Tasks {
		if tk.Priority != nil {
			prio[tk.Name] = *tk.Priority
			count[tk.Unit]++
		}
	}
	var b strings.Builder
	b.WriteString("units:\n")
	reversed := false
	for _, p := range base.Units {
		v, ok := prio[p.Task]
		if !ok || count[p.Unit] < 2 {
			fmt.Fprintf(&b, "  - {task: %s, unit: %s}\n", p.Task, p.Unit)
			continue
		}
		// The derived priorities of a core are 1 … n: n + 1 − p reverses them.
		fmt.Fprintf(&b, "  - {task: %s, unit: %s, priority: %d}\n", p.Task, p.Unit, count[p.Unit]+1-v)
		reversed = true
	}
	writeMappingExtras(&b, base)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return reversed
}

func writeMappingExtras(b *strings.Builder, m *configs.Mapping) {
	if len(m.Offloading) > 0 {
		b.WriteString("offloading:\n")
		for _, o := range m.Offloading {
			fmt.Fprintf(b, "  - {task: %s, mode: %s}\n", o.Task, o.Mode)
		}
	}
	if len(m.TimeSlices) > 0 {
		b.WriteString("time_slices:\n")
		for _, s := range m.TimeSlices {
			fmt.Fprintf(b, "  - {task: %s, slice: %s}\n", s.Task, s.Slice)
		}
	}
	if len(m.GPUPriorities) > 0 {
		b.WriteString("gpu_priorities:\n")
		for _, p := range m.GPUPriorities {
			fmt.Fprintf(b, "  - {task: %s, priority: %s}\n", p.Task, p.Priority)
		}
	}
}

// TestRoundTripEveryModel: for every model, the front points of a short
// search written back by optimize (point-N.amxmi) and a mapping with the
// derived priorities reversed written back by hetmap export re-analyse
// with --mapping default as analyze does with the mapping file. A model
// whose search finds no feasible mapping starts from its own mapping.
func TestRoundTripEveryModel(t *testing.T) {
	models := roundTripModels(t)
	names := make([]string, 0, len(models))
	for n := range models {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		files := models[name]
		t.Run(name, func(t *testing.T) {
			if testsize.Reduced() && name != "WATERS 2019" && name != "brake-by-wire" && name != "hand-written, Amalthea 2.0.0" {
				t.Skip("the reduced run (-short, -race): the round trip of three models only")
			}
			args := modelArgs(files)
			dir := filepath.Join(t.TempDir(), "run")
			_, errOut, code := hetmap(t, "optimize", "--config", smallSearch(t, files), "--out", dir)
			if code != 0 && code != 1 {
				t.Fatalf("optimize: exit %d: %s", code, errOutLines(errOut))
			}
			points, _ := filepath.Glob(filepath.Join(dir, "mappings", "point-*.yaml"))
			sort.Strings(points)
			if len(points) > 3 {
				points = points[:3]
			}
			var base *configs.Mapping
			for _, p := range points {
				want, _ := analyzeJSON(t, append([]string{"--mapping", p}, args...)...)
				got, _ := analyzeJSON(t, append([]string{"--mapping", "default"}, modelArgs(writtenModel(strings.TrimSuffix(p, ".yaml"), files))...)...)
				sameAnalysis(t, filepath.Base(p), want, got)
				if base == nil {
					m, err := configs.LoadMappingFile(p)
					if err != nil {
						t.Fatal(err)
					}
					base = m
				}
			}
			if base == nil {
				sys, _, err := amalthea.ReadFiles(files)
				if err != nil {
					t.Fatal(err)
				}
				m, _ := sys.OwnMapping()
				if len(m.Units) == 0 {
					// No feasible point and no mapping of its own (the
					// democar pair): each task on its allowed units in turn.
					for i, tk := range sys.Tasks {
						units := sys.AllowedUnits(&sys.Tasks[i])
						if tk.IsGPUTask() || tk.Offload != nil || len(units) == 0 {
							t.Fatalf("task %s: the fallback mapping places CPU tasks only", tk.Name)
						}
						m.Units = append(m.Units, configs.Placement{Task: tk.Name, Unit: units[i%len(units)]})
					}
				}
				base = &m
			}
			// Priorities that are not the derived ones, through hetmap export.
			tmp := t.TempDir()
			plain := filepath.Join(tmp, "plain.yaml")
			var b strings.Builder
			b.WriteString("units:\n")
			for _, p := range base.Units {
				fmt.Fprintf(&b, "  - {task: %s, unit: %s}\n", p.Task, p.Unit)
			}
			writeMappingExtras(&b, base)
			if err := os.WriteFile(plain, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			derived, _ := analyzeJSON(t, append([]string{"--mapping", plain}, args...)...)
			mapping := filepath.Join(tmp, "reversed.yaml")
			if !reversedPriorities(t, derived, base, mapping) {
				t.Logf("no core holds two tasks: the reversed mapping is the derived one")
			}
			want, _ := analyzeJSON(t, append([]string{"--mapping", mapping}, args...)...)
			out := filepath.Join(tmp, "reversed")
			if len(files) == 1 {
				out += ".amxmi"
			}
			if _, errOut, code := hetmap(t, append([]string{"export", "--mapping", mapping, "-o", out}, args...)...); code != 0 {
				t.Fatalf("export: exit %d: %s", code, errOutLines(errOut))
			}
			got, warns := analyzeJSON(t, append([]string{"--mapping", "default"}, modelArgs([]string{out})...)...)
			sameAnalysis(t, "export with reversed priorities", want, got)
			if strings.Contains(warns, "orders nothing") || strings.Contains(warns, "incomplete") {
				t.Errorf("the written model's priorities are reported as not used:\n%s", warns)
			}
		})
	}
}
