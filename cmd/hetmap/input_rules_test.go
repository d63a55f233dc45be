//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInputRules: inputs that break a rule exit 2 at once with a message
// naming the flag or key and what is wrong, in plain words: non-regular and
// empty files, empty flag values, negative seeds, zero quantities, empty
// seed lists, a frequency too low for the clock, type errors, and a sweep
// file and a configuration given to each other's command.
func TestInputRules(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	waters, err := os.ReadFile("../../configs/waters2019.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := filepath.Abs("testdata/waters_3obj_challenge.yaml")
	empty := write("empty.yaml", " \n\n")
	lineZero := write("line0.yaml", strings.Replace(string(waters), "line_size: 64", "line_size: 0", 1))
	oneHz := write("hz.yaml", strings.Replace(string(waters), "frequency: 2GHz", "frequency: 1Hz", 1))
	sliceZero := write("ts0.yaml", "model: builtin\nanalysis:\n  time_slice_step: 0ms\n")
	seedNeg := write("seed.yaml", "model: builtin\nsearch:\n  seed: -5\n")
	list := write("list.yaml", "- a\n- b\n")
	seq := write("seq.yaml", "model: builtin\nanalysis: [1, 2]\n")
	text := write("pop.yaml", "model: builtin\nsearch: {population: many}\n")
	seeds := write("seeds.yaml", "base: "+base+"\nparameters:\n  - {name: analysis.gpu_model, values: [fifo]}\nseeds: []\n")
	seedsNeg := write("seedsneg.yaml", "base: "+base+"\nseeds: [1, -2]\n")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"fifo config", []string{"model", "--config", fifo}, fifo + ": the configuration is a FIFO (named pipe), not a regular file"},
		{"fifo mapping", []string{"analyze", "--mapping", fifo}, fifo + ": the mapping is a FIFO (named pipe), not a regular file"},
		{"fifo sweep", []string{"sweep", fifo, "--dry-run"}, fifo + ": the sweep file is a FIFO (named pipe), not a regular file"},
		{"device config", []string{"model", "--config", "/dev/null"}, "/dev/null: the configuration is a device, not a regular file"},
		{"empty config", []string{"model", "--config", empty}, empty + ": the file is empty: the configuration has no content"},
		{"empty sweep", []string{"sweep", empty, "--dry-run"}, "the file is empty: the sweep file has no content"},
		{"empty mapping", []string{"analyze", "--mapping", empty}, "the file is empty: the mapping has no content"},
		{"config empty flag", []string{"optimize", "--config", ""}, `--config "": an empty value`},
		{"out empty flag", []string{"optimize", "--out", ""}, `--out "": an empty value`},
		{"sweep out empty flag", []string{"sweep", seeds, "--out="}, `--out "": an empty value`},
		{"negative seed flag", []string{"optimize", "--seed", "-5"}, "--seed -5: seeds are positive"},
		{"negative seed key", []string{"model", "--config", seedNeg}, "search.seed: must be positive, got -5"},
		{"seed not a number", []string{"optimize", "--seed", "abc"}, `--seed "abc": not a whole number`},
		{"workers too large", []string{"optimize", "--workers", "99999999999999999999"}, "--workers 99999999999999999999: too large; give a whole number"},
		{"bool flag", []string{"optimize", "--wide=maybe"}, `--wide "maybe": not true or false`},
		{"time slice step 0ms", []string{"model", "--config", sliceZero}, "analysis.time_slice_step: 0ms: give a positive duration"},
		{"line size 0", []string{"model", "--config", lineZero}, "memory.line_size: 0: give the bytes per DRAM access"},
		{"1 Hz", []string{"model", "--config", oneHz}, oneHz + ": units[0].frequency: 1Hz is below 1kHz, the lowest frequency hetmap takes"},
		{"top-level list", []string{"model", "--config", list}, "the file holds a list; it must be a map of keys"},
		{"list for a map", []string{"model", "--config", seq}, "analysis: a list where a map of keys belongs"},
		{"text for a number", []string{"model", "--config", text}, "search.population: a text where a whole number belongs"},
		{"seeds empty", []string{"sweep", seeds, "--dry-run"}, "seeds: empty: list the seeds to run"},
		{"seeds negative", []string{"sweep", seedsNeg, "--dry-run"}, "seed -2: seeds are positive"},
		{"sweep file to optimize", []string{"optimize", "--config", sweepFile}, "looks like a sweep file: run it with hetmap sweep " + sweepFile},
		{"configuration to sweep", []string{"sweep", base, "--dry-run"}, "looks like a configuration: run it with hetmap optimize --config " + base},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := hetmap(t, tt.args...)
			if code != 2 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "strconv.") || strings.Contains(errOut, "interface {}") {
				t.Errorf("hetmap %s: exit %d, stderr %q; want 2 and %q", strings.Join(tt.args, " "), code, errOut, tt.want)
			}
		})
	}
}

// TestLeftoverClaimNoted: a run's claim left by a process that ended (a
// kill -9, a second Ctrl-C) is removed by the next run into the same
// folder, which says so with its size.
func TestLeftoverClaimNoted(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	left := filepath.Join(runs, ".20260101T000000Z.tmp")
	if err := os.MkdirAll(left, 0o755); err != nil {
		t.Fatal(err)
	}
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	owner := fmt.Sprintf(`{"host": %q, "pid": %d, "started_utc": "2026-01-01T00:00:00Z"}`, host, ended.Process.Pid)
	os.WriteFile(filepath.Join(left, ".hetmap-owner.json"), []byte(owner), 0o644)
	os.WriteFile(filepath.Join(left, "front.json"), make([]byte, 3000), 0o644)
	_, errOut, code := hetmap(t, "optimize", "--out", filepath.Join(runs, "next"))
	if code != 0 || !strings.Contains(errOut, "note: removed "+left+" (3.0 KiB), left by a run that ended without finishing") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Error("the leftover claim is still there")
	}
}
