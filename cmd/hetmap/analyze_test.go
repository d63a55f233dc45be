package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/internal/golden"
)

// The model's own mapping is infeasible, and the output says why (under
// the challenge's contention count, the numbers of the golden file).
func TestAnalyzeDefaultMapping(t *testing.T) {
	out, errOut, code := hetmap(t, "analyze", "--config", "testdata/waters_challenge.yaml", "--mapping", "default")
	if code != 1 || !strings.Contains(errOut, "not schedulable") {
		t.Fatalf("exit %d, stderr %q; want 1 and the verdict", code, errOut)
	}
	golden.Check(t, "analyze_default.txt", out)
	for _, want := range []string{
		"Verdict: NOT schedulable",
		"Core0 is overloaded: utilisation 116.7 % > 100 %",
		"PRE_SFM_gpu_POST 30.6 %, OS_Overhead 50.0 %, PRE_Localization_gpu_POST 4.1 %, and busy-waits for the GPU responses of SFM, Localization, which have no bound",
		"SFM on GP10B: GPU response passes the period 33 ms, beyond which the GPU analysis gives no bound (its terms there: copy-in wait",
		"for one kernel of each other low-priority task: Localization 124 ms, Lane_detection 27.3333 ms, Detection 116 ms",
		"Planner on Core3: its execution time alone, C = 17.2497 ms",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the explanation lacks %q", want)
		}
	}
}

func TestAnalyzeFeasibleMapping(t *testing.T) {
	out, errOut, code := hetmap(t, "analyze", "--config", "testdata/waters_challenge.yaml", "--mapping", "testdata/waters_feasible.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, "analyze_feasible.txt", out)
	if !strings.Contains(out, "Verdict: schedulable: all 12 running tasks meet their deadlines.") {
		t.Error("no verdict line")
	}
}

// The same two mappings under the default, refined count: the window
// contention explains the response times, and a reason does not blame C's
// per-job contention.
func TestAnalyzeRefined(t *testing.T) {
	out, errOut, code := hetmap(t, "analyze", "--mapping", "default")
	if code != 1 || !strings.Contains(errOut, "not schedulable") {
		t.Fatalf("exit %d, stderr %q; want 1 and the verdict", code, errOut)
	}
	golden.Check(t, "analyze_default_refined.txt", out)
	for _, want := range []string{
		"contention count: refined",
		"Core0 is overloaded: utilisation without the contention of other units 108.3 % (116.7 % with C's per-job contention)",
		"OS_Overhead on Core0: no finite response time: the tasks of higher priority (DASM, CANbus_polling, PRE_SFM_gpu_POST) use 54.6 % of the core even without the contention of other units, with a busy-wait for the GPU response of SFM, which has no bound",
		"Planner on Core3: no bound: its response-time iteration passes the period 15 ms, beyond which the analysis gives no bound (D = 15 ms)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the explanation lacks %q", want)
		}
	}
	if strings.Contains(out, "its execution time alone, C =") {
		t.Error("a reason blames C's per-job contention")
	}
	out, errOut, code = hetmap(t, "analyze", "--mapping", "testdata/waters_feasible.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden.Check(t, "analyze_feasible_refined.txt", out)
	for _, want := range []string{
		"Verdict: schedulable: all 12 running tasks meet their deadlines.",
		"converged after 2 cross-core round(s)",
		"  PRE_SFM_gpu_POST  31.714 ms  148814    4.4644 ms  3.4809 ms  window",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
}

func TestAnalyzeJSON(t *testing.T) {
	out, errOut, code := hetmap(t, "analyze", "--mapping", "testdata/waters_feasible.yaml", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Schedulable *bool `json:"schedulable"`
		Tasks       []struct {
			Name           *string `json:"name"`
			Unit           *string `json:"unit"`
			WCETNs         *int64  `json:"wcet_ns"`
			ResponseTimeNs *int64  `json:"response_time_ns"`
			DeadlineNs     *int64  `json:"deadline_ns"`
			Schedulable    *bool   `json:"schedulable"`
		} `json:"tasks"`
		Merged []struct {
			OffloadingTask string `json:"offloading_task"`
			MergedInto     string `json:"merged_into"`
		} `json:"merged"`
		GPU []struct {
			Name       string `json:"name"`
			ResponseNs *int64 `json:"response_ns"`
		} `json:"gpu"`
		Reasons []string `json:"reasons"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schedulable == nil || !*rep.Schedulable || len(rep.Tasks) != 12 || len(rep.Merged) != 2 || len(rep.GPU) != 2 || len(rep.Reasons) != 0 {
		t.Fatalf("schedulable %v, %d tasks, %d merged, %d GPU, %d reasons; want true, 12, 2, 2, 0", rep.Schedulable, len(rep.Tasks), len(rep.Merged), len(rep.GPU), len(rep.Reasons))
	}
	byName := map[string]int{}
	for i, tk := range rep.Tasks {
		if tk.Name == nil || tk.Unit == nil || tk.WCETNs == nil || tk.ResponseTimeNs == nil || tk.DeadlineNs == nil || tk.Schedulable == nil {
			t.Fatalf("task %d lacks a required field: %s", i, out)
		}
		byName[*tk.Name] = i
	}
	// EKF on Core3 (A57, #C = 5, bGPU = 1: 220 ns per line): 144 lines ·
	// 220 ns = 31.68 µs + 9 519 340 ticks / 2 GHz = 4 791 350 ns, preempted
	// by DASM (64 lines · 220 ns + 3 719 990 / 2 GHz = 1 874 075 ns) and
	// CANbus_polling (16 · 220 ns + 1 199 360 / 2 GHz = 603 200 ns).
	ekf := rep.Tasks[byName["EKF"]]
	if *ekf.Unit != "Core3" || *ekf.WCETNs != 4_791_350 || *ekf.DeadlineNs != 15_000_000 || !*ekf.Schedulable {
		t.Errorf("EKF = unit %s, wcet %d, deadline %d", *ekf.Unit, *ekf.WCETNs, *ekf.DeadlineNs)
	}
	// R_EKF = 4.79135 + ⌈R/5⌉·1.874075 + ⌈R/10⌉·0.6032 (ms): w0 = 7.268625
	// → ⌈7.27/5⌉ = 2: 4.79135 + 3.74815 + 0.6032 = 9.1427 → ⌈9.14/5⌉ = 2,
	// ⌈9.14/10⌉ = 1 → R = 9.1427 ms.
	if *ekf.ResponseTimeNs != 9_142_700 {
		t.Errorf("EKF R = %d ns, want 9 142 700", *ekf.ResponseTimeNs)
	}
	if sfm := rep.Tasks[byName["SFM"]]; *sfm.Unit != "GP10B" {
		t.Errorf("SFM on %s", *sfm.Unit)
	}

	// The default mapping: unschedulable, with reasons, a null response time
	// where there is no finite one, and exit code 1.
	out, _, code = hetmap(t, "analyze", "--mapping", "default", "--json")
	if code != 1 {
		t.Fatalf("default mapping: exit %d", code)
	}
	rep.Reasons = nil
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	nulls := 0
	for _, tk := range rep.Tasks {
		if tk.ResponseTimeNs == nil {
			nulls++
		}
	}
	if *rep.Schedulable || len(rep.Reasons) == 0 || nulls == 0 {
		t.Errorf("default mapping: schedulable %v, %d reasons, %d null response times", *rep.Schedulable, len(rep.Reasons), nulls)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	dir := t.TempDir()
	feasible, err := os.ReadFile("testdata/waters_feasible.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	edit := func(name, old, new string) string {
		s := string(feasible)
		if !strings.Contains(s, old) {
			t.Fatalf("%q not in the feasible mapping", old)
		}
		return write(name, strings.Replace(s, old, new, 1))
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"analyze"}, "give --mapping FILE.yaml, or --mapping default"},
		{[]string{"analyze", "--mapping", filepath.Join(dir, "missing.yaml")}, "cannot read the mapping"},
		{[]string{"analyze", "--mapping", write("empty.yaml", "offloading: []\n")}, "units: missing"},
		{[]string{"analyze", "--mapping", write("key.yaml", "units:\n  - {task: EKF, core: Core2}\n")}, "units[0]: unknown key(s) core"},
		{[]string{"analyze", "--mapping", edit("task.yaml", "{task: EKF, unit: Core3}", "{task: EFK, unit: Core3}")}, `task.yaml: units[7].task: task "EFK" is not defined`},
		{[]string{"analyze", "--mapping", edit("unit.yaml", "{task: EKF, unit: Core3}", "{task: EKF, unit: Core7}")}, `unit "Core7" is not defined (task EKF; units: Core0, Core1, Core2, Core3, Core4, Core5, GP10B)`},
		{[]string{"analyze", "--mapping", edit("unplaced.yaml", "  - {task: EKF, unit: Core3}\n", "")}, "task EKF is not placed"},
		{[]string{"analyze", "--mapping", edit("ticks.yaml", "{task: Planner, unit: Core0}", "{task: Planner, unit: GP10B}")}, "task Planner cannot run on GP10B: it has no ticks for kind GPU_def"},
		{[]string{"analyze", "--mapping", edit("pre.yaml", "  - {task: PRE_SFM_gpu_POST, unit: Core1}\n", "")}, "SFM runs on the GPU, so its offloading task PRE_SFM_gpu_POST needs a core"},
		{[]string{"analyze", "--mapping", edit("mode.yaml", "mode: async}", "mode: later}")}, `"later" is not an offloading mode (sync or async)`},
		{[]string{"analyze", "--mapping", edit("prio.yaml", "{task: DASM, unit: Core3}", "{task: DASM, unit: Core3, priority: 3}")}, "Core3: DASM has a priority but CANbus_polling, EKF do not"},
	}
	for _, tt := range tests {
		out, errOut, code := hetmap(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("hetmap %v: exit %d, stderr %q; want exit 2 and %q, nothing on stdout", tt.args, code, errOut, tt.want)
		}
		if len(tt.args) > 2 && strings.HasPrefix(tt.args[2], dir) && !strings.Contains(errOut, tt.args[2]) {
			t.Errorf("hetmap %v: the message does not name the file: %q", tt.args, errOut)
		}
	}
}

// A value declared no bound is never used as an input of another bound
// (waters2019.md): the tasks below an offloading task whose GPU response is
// no bound have no bound either, and the reasons say which task above is
// the cause, both when the GPU side is unsound as a whole and when an
// assumption of one GPU task's analysis fails.
func TestAnalyzeNoBoundPropagates(t *testing.T) {
	for _, c := range []struct {
		mapping string
		want    []string
	}{
		{"testdata/waters_nobound_gpu.yaml", []string{
			"Detection on GP10B: GPU response within the period 200 ms in the analysis, but it is no bound: the GPU analysis assumes every GPU task responds within its period, and SFM does not",
			"PRE_Detection_gpu_POST on Core2: waits for the GPU task Detection, whose GPU response has no bound",
			"OS_Overhead on Core2: no bound, because PRE_Detection_gpu_POST above it waits for a GPU response that is no bound, so the interference it causes is unknown",
		}},
		{"testdata/waters_nobound_assumption.yaml", []string{
			"Detection on GP10B: GPU response within the period 200 ms in the analysis, but it is no bound: its analysis assumes that SFM's jobs are launched with the release jitter and complete within the period they have while PRE_SFM_gpu_POST meets its deadline, and it does not",
			"PRE_Detection_gpu_POST on Core2: waits for the GPU task Detection, whose GPU response has no bound",
			"OS_Overhead on Core2: no bound, because PRE_Detection_gpu_POST above it waits for a GPU response that is no bound",
		}},
	} {
		out, errOut, code := hetmap(t, "analyze", "--mapping", c.mapping)
		if code != 1 {
			t.Fatalf("%s: exit %d: %s", c.mapping, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the explanation lacks %q", c.mapping, w)
			}
		}
		// OS_Overhead's line in the table says it has no bound (the
		// margins, after the tables, have a line of their own per task).
		for _, line := range strings.Split(strings.Split(out, "\nMargins:")[0], "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "OS_Overhead ") && !strings.Contains(line, "NO BOUND") {
				t.Errorf("%s: OS_Overhead is shown with a bound: %s", c.mapping, line)
			}
		}
	}
}

// No number where there is no bound: in analyze --json a task with bounded
// false has response_time_ns null (and a GPU task's response_ns is null
// with it), and the text shows "no bound" in its R column, never the value
// the analysis stopped at (before, OS_Overhead of the first mapping carried
// 64.4 ms and Planner of the default one "≥ 16.9067 ms"). The unbounded
// tasks per mapping, by hand from the verdicts:
//   - default: Core0 is overloaded (OS_Overhead), Planner's iteration passes
//     its 15 ms period, and the GPU side is unsound (SFM's 276 ms > 33 ms),
//     so every GPU task and every offloading task has no bound;
//   - nobound_assumption: Lidar_Grabber passes 33 ms on the overloaded Core1,
//     so PRE_SFM_gpu_POST misses and SFM's and Detection's assumption
//     fails; OS_Overhead is below PRE_Detection_gpu_POST on Core2;
//   - nobound_gpu: SFM passes its period: the GPU tasks, their offloading
//     tasks and OS_Overhead below one of them.
func TestAnalyzeNoNumberWithoutBound(t *testing.T) {
	gpuAll := []string{"PRE_SFM_gpu_POST", "PRE_Localization_gpu_POST", "PRE_Lane_detection_gpu_POST", "PRE_Detection_gpu_POST",
		"SFM", "Localization", "Lane_detection", "Detection"}
	for _, c := range []struct {
		args      []string
		unbounded []string
	}{
		{[]string{"--mapping", "default"}, append([]string{"OS_Overhead", "Planner"}, gpuAll...)},
		{[]string{"--config", "testdata/waters_challenge.yaml", "--mapping", "default"}, append([]string{"OS_Overhead", "Planner"}, gpuAll...)},
		{[]string{"--mapping", "testdata/waters_nobound_assumption.yaml"},
			[]string{"Lidar_Grabber", "PRE_SFM_gpu_POST", "PRE_Detection_gpu_POST", "OS_Overhead", "SFM", "Detection"}},
		{[]string{"--mapping", "testdata/waters_nobound_gpu.yaml"},
			[]string{"PRE_SFM_gpu_POST", "PRE_Detection_gpu_POST", "OS_Overhead", "SFM", "Detection"}},
	} {
		out, errOut, code := hetmap(t, append([]string{"analyze", "--json"}, c.args...)...)
		if code != 1 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		var rep struct {
			Tasks []struct {
				Name           string `json:"name"`
				Bounded        bool   `json:"bounded"`
				ResponseTimeNs *int64 `json:"response_time_ns"`
			} `json:"tasks"`
			GPU []struct {
				Name       string `json:"name"`
				ResponseNs *int64 `json:"response_ns"`
			} `json:"gpu"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, n := range c.unbounded {
			want[n] = true
		}
		got := map[string]bool{}
		for _, tk := range rep.Tasks {
			if !tk.Bounded {
				got[tk.Name] = true
			}
			if (tk.ResponseTimeNs == nil) != !tk.Bounded {
				t.Errorf("%v: %s: bounded %v with response_time_ns %v", c.args, tk.Name, tk.Bounded, tk.ResponseTimeNs)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%v: unbounded %v, want %v", c.args, got, c.unbounded)
		}
		for _, g := range rep.GPU {
			if (g.ResponseNs == nil) != got[g.Name] {
				t.Errorf("%v: GPU task %s: response_ns %v, bounded %v", c.args, g.Name, g.ResponseNs, !got[g.Name])
			}
		}

		text, _, _ := hetmap(t, append([]string{"analyze"}, c.args...)...)
		rows := 0
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || !want[f[0]] || !strings.Contains(line, "NO BOUND") {
				continue
			}
			rows++
			if !strings.Contains(line, "  no bound  ") || strings.ContainsAny(line, "≥∞") {
				t.Errorf("%v: a row without a bound shows a response time: %s", c.args, line)
			}
		}
		// Every unbounded CPU task has a row, every GPU task one in each
		// table (its own, and none as the offloading task's).
		if rows != len(want) {
			t.Errorf("%v: %d rows without a bound, want %d", c.args, rows, len(want))
		}
		if strings.Contains(text, "R ≥") {
			t.Errorf("%v: a reason gives a response time that is no bound", c.args)
		}
	}
}

// The model's requirements that the deadline convention sets aside are
// shown where a reviewer reads the deadlines: hetmap model and analyze,
// text and JSON, name each as "not applied (convention)" with the option
// that applies it. WATERS 2019: Planner requires 12 ms, and under the
// default deadlines: period its period, 15 ms, is checked; under
// deadlines: model it is applied and nothing is listed.
func TestNotAppliedRequirementsShown(t *testing.T) {
	modelCfg := filepath.Join(t.TempDir(), "model.yaml")
	if err := os.WriteFile(modelCfg, []byte("model: builtin\nconventions: {deadlines: model}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const line = "Planner: requirement 12 ms: not applied (convention); D = 15 ms (its period) is checked; set conventions.deadlines: model to apply it"
	feasible := []string{"--mapping", "testdata/waters_feasible.yaml"}
	for _, c := range []struct {
		args []string
		json bool
		want bool // Planner's requirement is listed
	}{
		{[]string{"model"}, false, true},
		{[]string{"model", "--json"}, true, true},
		{append([]string{"analyze"}, feasible...), false, true},
		{append([]string{"analyze", "--json"}, feasible...), true, true},
		{[]string{"model", "--config", modelCfg}, false, false},
		{[]string{"model", "--json", "--config", modelCfg}, true, false},
		{append([]string{"analyze", "--json", "--config", modelCfg}, feasible...), true, false},
	} {
		out, errOut, _ := hetmap(t, c.args...)
		if out == "" {
			t.Fatalf("%v: no output: %s", c.args, errOut)
		}
		if !c.json {
			if got := strings.Contains(out, line); got != c.want {
				t.Errorf("%v: Planner's requirement listed %v, want %v:\n%s", c.args, got, c.want, out)
			}
			continue
		}
		var rep struct {
			NotApplied []struct {
				Task          string `json:"task"`
				RequirementNs int64  `json:"requirement_ns"`
				CheckedNs     int64  `json:"checked_deadline_ns"`
				Status        string `json:"status"`
				AppliedBy     string `json:"applied_by"`
			} `json:"requirements_not_applied"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.NotApplied == nil {
			t.Errorf("%v: requirements_not_applied is missing or null", c.args)
		}
		n := rep.NotApplied
		got := len(n) == 1 && n[0].Task == "Planner" && n[0].RequirementNs == 12_000_000 && n[0].CheckedNs == 15_000_000 &&
			n[0].Status == "not applied (convention)" && n[0].AppliedBy == "conventions.deadlines: model"
		if got != c.want || (!c.want && len(n) != 0) {
			t.Errorf("%v: requirements_not_applied %+v, want Planner's: %v", c.args, n, c.want)
		}
	}
}
