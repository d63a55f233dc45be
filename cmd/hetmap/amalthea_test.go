package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs/amalthea"
)

// The real Amalthea models of ../shared/amalthea-examples through the
// command line.

func examples(t *testing.T) string {
	t.Helper()
	needShared(t)
	return shared + "/amalthea-examples/"
}

// exampleModelArgs are the --model arguments of every example model.
func exampleModelArgs(t *testing.T) map[string][]string {
	dir := examples(t)
	return map[string][]string{
		"democar pair":  {"--model", dir + "a4mc095_democar_mapping_withTasks.amxmi", "--model", dir + "a4mc095_democar_mapping_hw.amxmi"},
		"state machine": {"--model", dir + "a4mc095_state_machine_9.amxmi"},
		"brake-by-wire": {"--model", dir + "rcm097_bbw_mpc5744p.amxmi"},
		"democar RCM":   {"--model", dir + "rcm097_democar.amxmi"},
		"TORO":          {"--model", dir + "toro099_example.amxmi"},
	}
}

// smallSearch writes a configuration naming a model with a short search.
func smallSearch(t *testing.T, models []string) string {
	t.Helper()
	var b strings.Builder
	if len(models) == 1 {
		abs, _ := filepath.Abs(models[0])
		b.WriteString("model: " + abs + "\n")
	} else {
		// A model in several files: a folder with all of them.
		dir := t.TempDir()
		for _, m := range models {
			data, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(m)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		b.WriteString("model: " + dir + "\n")
	}
	b.WriteString("search: {generations: 4, population: 8, seed: 3, workers: 2}\n")
	path := filepath.Join(t.TempDir(), "search.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAmaltheaExamples: every example model runs through model, analyze
// --mapping default and optimize with exit code 0 or 1; the 0.8.0 model
// gets the version message and exit 2.
func TestAmaltheaExamples(t *testing.T) {
	for name, args := range exampleModelArgs(t) {
		t.Run(name, func(t *testing.T) {
			out, errOut, code := hetmap(t, append([]string{"model"}, args...)...)
			if code != 0 || !strings.Contains(out, "Warnings (") {
				t.Fatalf("model: exit %d: %s", code, errOut)
			}
			if !strings.Contains(errOut, "warning: ") {
				t.Errorf("model: the warnings are not on stderr")
			}
			_, errOut, code = hetmap(t, append([]string{"analyze", "--mapping", "default"}, args...)...)
			if code == 2 && strings.Contains(errOut, "the model has no mapping of its own") {
				code = 1 // the democar pair: TestModelWithoutMapping
			}
			if code != 0 && code != 1 {
				t.Fatalf("analyze: exit %d: %s", code, errOut)
			}
			if code == 1 && strings.Count(strings.TrimSpace(errOutLines(errOut)), "\n") != 0 {
				t.Errorf("analyze: the finding is not one line: %q", errOut)
			}
			var models []string
			for i := 1; i < len(args); i += 2 {
				models = append(models, args[i])
			}
			dir := filepath.Join(t.TempDir(), "run")
			out, errOut, code = hetmap(t, "optimize", "--config", smallSearch(t, models), "--out", dir)
			if code != 0 && code != 1 {
				t.Fatalf("optimize: exit %d: %s\n%s", code, errOut, out)
			}
			if code == 0 {
				if _, err := os.Stat(filepath.Join(dir, "mappings")); err != nil {
					t.Fatal(err)
				}
				point := filepath.Join(dir, "mappings", "point-1.amxmi")
				if len(models) > 1 {
					point = filepath.Join(dir, "mappings", "point-1")
				}
				if _, err := os.Stat(point); err != nil {
					t.Errorf("optimize wrote no %s: %v", point, err)
				}
			}
		})
	}
	old := examples(t) + "a4mc080_democar_eventchain.amxmi"
	for _, cmd := range [][]string{{"model"}, {"analyze", "--mapping", "default"}, {"optimize", "--out", filepath.Join(t.TempDir(), "x")}, {"import"}} {
		args := append(cmd, "--model", old)
		if cmd[0] == "import" {
			args = []string{"import", old}
		}
		_, errOut, code := hetmap(t, args...)
		if code != 2 || !strings.Contains(errOut, "the model is Amalthea 0.8.0") || !strings.Contains(errOut, "APP4MC's model migration") {
			t.Errorf("%v on the 0.8.0 model: exit %d, %q", cmd, code, errOut)
		}
	}
}

// errOutLines drops the warning lines of stderr.
func errOutLines(errOut string) string {
	var keep []string
	for _, l := range strings.Split(errOut, "\n") {
		if !strings.HasPrefix(l, "warning: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// TestModelWithoutMapping: analyze --mapping default on a model without a
// mapping of its own says so in one line, exit 2 (a usage error: there is
// nothing to analyse).
func TestModelWithoutMapping(t *testing.T) {
	args := exampleModelArgs(t)["democar pair"]
	out, errOut, code := hetmap(t, append([]string{"analyze", "--mapping", "default"}, args...)...)
	msg := strings.TrimSpace(errOutLines(errOut))
	if code != 2 || out != "" || strings.Contains(msg, "\n") || !strings.Contains(msg, "the model has no mapping of its own") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, msg)
	}
}

// TestBrakeByWireRequirements: the brake-by-wire model's four chain
// latency requirements (20 ms each) are checked and reported, met or
// missed under which bound. The model gives every task of its core a
// priority, so --mapping default analyses those: the chain's tasks
// pBrakePedalLDM, pBrakeTorqueMap, pGlobalBrakeController, ABS_FL_Pt and
// pLDM_Brake_FL (T = 2, 3, 4, 5, 6 ms) have priorities 1, 2, 3, 4 and 8 of
// 11, and R = 530, 510, 480, 440 and 240 µs (the C of every task above
// them, 20 to 60 µs each, summed once in 2 ms). Every consumer has the
// higher priority, so no hop is ordered (package chains, "Same-core hops")
// and every bound for any offsets is Davare's: Σ(T + R) = 20 ms + 2.2 ms =
// 22.2 ms. With the priorities derived (a mapping file without
// priorities, OPA) the R of the FL chain's tasks are 20, 50, 90, 140 and
// 350 µs (6000, 9000, 12000, 15000 and 18000 ticks at 300 MHz, with the
// tasks above them): every producer has the higher priority, every hop is
// ordered, and the least bound for any offsets is Dürr et al.'s,
// T1 + Σ max(Rk, Tk+1) + R5 = (2 + 3 + 4 + 5 + 6) ms + 350 µs = 20.35 ms
// > 20 ms (Davare's: 20.65 ms), while under synchronous release the worst
// reaction time is 12.35 ms (16.35 ms with the hops not ordered).
func TestBrakeByWireRequirements(t *testing.T) {
	args := exampleModelArgs(t)["brake-by-wire"]
	out, errOut, code := hetmap(t, append([]string{"analyze", "--mapping", "default"}, args...)...)
	if code != 1 || !strings.Contains(errOut, "it misses chain latency requirements") {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	for _, want := range []string{
		"priorities from mapping",
		"Latency_Constraint_FL  EC_Sequence_FL  reaction-time  16.24 ms     22.2 ms (davare)   22.2 ms   any-offset  20 ms  MISSED by 2.2 ms",
		"Latency_Constraint_FL: met under synchronous release (16.24 ms), missed under the least bound for any offsets (22.2 ms) and Davare's bound (22.2 ms)",
		"4 of 4 requirement(s) missed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("with the model's priorities, the analysis lacks %q:\n%s", want, out)
		}
	}
	// The same placement without priorities: derived by OPA.
	sys, _, err := amalthea.ReadFile(args[1])
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("units:\n")
	for _, p := range sys.Mapping.Units {
		fmt.Fprintf(&b, "  - {task: %s, unit: %s}\n", p.Task, p.Unit)
	}
	mapping := filepath.Join(t.TempDir(), "derived.yaml")
	if err := os.WriteFile(mapping, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = hetmap(t, append([]string{"analyze", "--mapping", mapping}, args...)...)
	for _, want := range []string{
		"Chain latency requirements",
		"Latency_Constraint_FL  EC_Sequence_FL  reaction-time  12.35 ms     20.35 ms (duerr)  20.65 ms  any-offset  20 ms  MISSED by 350 µs",
		"Latency_Constraint_FL: met under synchronous release (12.35 ms), missed under the least bound for any offsets (20.35 ms) and Davare's bound (20.65 ms)",
		"Latency_Constraint_FR: met under synchronous release",
		"Latency_Constraint_RL: met under synchronous release",
		"Latency_Constraint_RR: met under synchronous release (12.53 ms), missed under the least bound for any offsets (20.53 ms) and Davare's bound (20.98 ms)",
		"EC_Sequence_FL  pBrakePedalLDM (e200z4) ⇒ pBrakeTorqueMap (e200z4) ⇒ pGlobalBrakeController (e200z4) ⇒ ABS_FL_Pt (e200z4) ⇒ pLDM_Brake_FL (e200z4)",
		"4 of 4 requirement(s) missed",
		"Verdict: INFEASIBLE",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the analysis lacks %q:\n%s", want, out)
		}
	}
	// JSON carries the requirements.
	out, _, _ = hetmap(t, append([]string{"analyze", "--mapping", mapping, "--json"}, args...)...)
	if !strings.Contains(out, `"bound_checked": "any-offset"`) || !strings.Contains(out, `"any_offset_ns": 20350000`) || !strings.Contains(out, `"any_offset_by": "duerr"`) ||
		!strings.Contains(out, `"davare_ns": 20650000`) || !strings.Contains(out, `"margin_ns": -350000`) {
		t.Errorf("JSON requirements missing:\n%s", out)
	}
}

// TestExport: a mapping written into the WATERS model reads back and
// analyses the same; errors name what is missing.
func TestExport(t *testing.T) {
	needShared(t)
	model := shared + "/waters2019/ChallengeModel_release_fix.amxmi"
	mapping := "testdata/waters_feasible.yaml"
	dir := t.TempDir()
	out := filepath.Join(dir, "out.amxmi")
	stdout, errOut, code := hetmap(t, "export", "--model", model, "--mapping", mapping, "-o", out)
	if code != 0 || !strings.Contains(stdout, "the mapping is schedulable") {
		t.Fatalf("export: exit %d, %s %s", code, stdout, errOut)
	}
	// The written model's own mapping, with its priorities, analyses as the
	// mapping file does with derived ones.
	cfg := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfg, []byte("model: out.amxmi\nanalysis: {priorities: model}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	viaModel, errOut, code := hetmap(t, "analyze", "--config", cfg, "--mapping", "default")
	if code != 0 {
		t.Fatalf("analyze the written model: exit %d: %s", code, errOut)
	}
	viaFile, _, _ := hetmap(t, "analyze", "--model", model, "--mapping", mapping)
	pick := func(s string) string {
		var rows []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "  ") && strings.Contains(l, " ms") && strings.HasSuffix(strings.TrimSpace(l), "yes") {
				rows = append(rows, strings.Join(strings.Fields(l), " "))
			}
		}
		return strings.Join(rows, "\n")
	}
	if a, b := pick(viaModel), pick(viaFile); a == "" || a != b {
		t.Errorf("the written model analyses differently:\n%s\nvs\n%s", a, b)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--mapping", mapping, "-o", filepath.Join(dir, "x.amxmi")}, "export writes into an Amalthea model"},
		{[]string{"export", "--model", model, "-o", filepath.Join(dir, "x.amxmi")}, "give --mapping FILE.yaml"},
		{[]string{"export", "--model", model, "--mapping", mapping}, "give -o OUT.amxmi"},
		{[]string{"export", "--model", model, "--mapping", "testdata/thesis.yaml", "-o", filepath.Join(dir, "x.amxmi")}, "testdata/thesis.yaml"},
		// Into a missing folder: the message names the file and the
		// folder, not the temporary name the write goes through.
		{[]string{"export", "--model", model, "--mapping", mapping, "-o", filepath.Join(dir, "nowhere", "x.amxmi")},
			"cannot write " + filepath.Join(dir, "nowhere", "x.amxmi") + ": the folder " + filepath.Join(dir, "nowhere") + " does not exist"},
	} {
		stdout, errOut, code := hetmap(t, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || stdout != "" || strings.Contains(errOut, ".tmp") {
			t.Errorf("%v: exit %d, %q, want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.amxmi")); !os.IsNotExist(err) {
		t.Error("a failed export left a file")
	}
}

// TestExportModelInTwoFiles: a model in several files is written into a
// folder, which reads back as the model with the mapping.
func TestExportModelInTwoFiles(t *testing.T) {
	args := exampleModelArgs(t)["democar pair"]
	dir := t.TempDir()
	mapping := filepath.Join(dir, "m.yaml")
	var units []string
	for i := 0; i < 10; i++ {
		unit := "e200z6"
		if i%3 == 0 {
			unit = "e200z0"
		}
		units = append(units, "  - {task: Task_ESSP"+string(rune('0'+i))+", unit: "+unit+"}")
	}
	if err := os.WriteFile(mapping, []byte("units:\n"+strings.Join(units, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "model")
	_, errOut, code := hetmap(t, append([]string{"export", "--mapping", mapping, "-o", out}, args...)...)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	stdout, errOut, code := hetmap(t, "model", "--model", out)
	if code != 0 || !strings.Contains(stdout, "e200z0  Task_ESSP0 (priority") || !strings.Contains(stdout, "Task_ESSP9 (priority") {
		t.Errorf("the written folder: exit %d, %s\n%s", code, errOut, stdout)
	}
	// A second export into the same folder is refused.
	_, errOut, code = hetmap(t, append([]string{"export", "--mapping", mapping, "-o", out}, args...)...)
	if code != 2 || !strings.Contains(errOut, "exists already") {
		t.Errorf("export into an existing folder: exit %d, %q", code, errOut)
	}
}

// TestLETChainRequirement: TORO's chain3_let (LET_T7 → LET_T8 → LET_T9,
// all LET tasks) has a data-age requirement of 25 ms. Its tasks
// communicate at their LET instants, so the requirement is checked under
// LET: by hand (TestLETChainMembers in optimizer), LET_T9's job at t
// reads what LET_T8's job at t − 5 wrote at t, which read what LET_T7's
// job at t − 10 wrote at t − 5: data age 20 ms ≤ 25 ms, met. Under
// Davare's implicit-communication bound it was 30 ms, never met. The mixed
// chain chain4_mixed stays under the default bound, the least for any
// offsets (Davare's there: none of its hops is ordered); hetmap model
// names both.
func TestLETChainRequirement(t *testing.T) {
	args := exampleModelArgs(t)["TORO"]
	out, _, _ := hetmap(t, append([]string{"analyze", "--mapping", "default"}, args...)...)
	for _, want := range []string{
		"Deadline_chain3_let     chain3_let     data-age                  20 ms        30 ms (davare)  30 ms   LET synchronous  25 ms   met, margin 5 ms",
		"Deadline_chain3_let: checked under LET communication",
		"Deadline_chain4_mixed   chain4_mixed   data-age                  30 ms        44 ms (davare)  44 ms   any-offset       50 ms   met, margin 6 ms",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the analysis lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = hetmap(t, append([]string{"model"}, args...)...)
	for _, want := range []string{
		"requires data-age ≤ 25 ms (LET communication, synchronous bound): Deadline_chain3_let",
		"requires data-age ≤ 50 ms (any-offset bound): Deadline_chain4_mixed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("hetmap model lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = hetmap(t, append([]string{"analyze", "--mapping", "default", "--json"}, args...)...)
	if !strings.Contains(out, `"paradigm": "let"`) || !strings.Contains(out, `"paradigm": "implicit"`) {
		t.Errorf("the JSON does not say the paradigm of each requirement:\n%s", out)
	}
}
