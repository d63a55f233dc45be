//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// TestHostileInputs is the table of the inputs a hostile user (or an
// unlucky one) gives: FIFOs where a command reads a file, FIFOs and a
// link to /dev/urandom inside a run folder, a point file replaced by {} or
// by another point's, a number that is not one, a flag given twice. Each
// runs hetmap as its own process in an empty working directory and must
// exit 2 with one line on stderr naming the file or flag, write nothing
// (the working directory stays empty, the run folder as it was) and stay
// within bounded memory (its peak resident size; a point file linked to
// /dev/urandom grew to 1.75 GB in 12 s before, and a FIFO hung for ever,
// which go test's timeout would report here).
func TestHostileInputs(t *testing.T) {
	base := t.TempDir()
	// A run folder of a small system (two tasks, two cores: two points,
	// each with its evaluation file), quick to write and to report on.
	good := optimizeInto(t, base, "run", handSystem)
	fifo := func(path string) string {
		t.Helper()
		os.Remove(path)
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	kernels, scenario, model := fifo(filepath.Join(base, "k.yaml")), fifo(filepath.Join(base, "s.json")), fifo(filepath.Join(base, "m.amxmi"))
	pointFile := filepath.Join("mappings", "point-1.json")
	other, err := os.ReadFile(filepath.Join(good, "mappings", "point-2.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Changes to a copy of the run folder.
	fifoAt := func(name string) func(string) { return func(run string) { fifo(filepath.Join(run, name)) } }
	random := func(run string) {
		path := filepath.Join(run, pointFile)
		os.Remove(path)
		if err := os.Symlink("/dev/urandom", path); err != nil {
			t.Fatal(err)
		}
	}
	replace := func(data []byte) func(string) {
		return func(run string) { os.WriteFile(filepath.Join(run, pointFile), data, 0o644) }
	}
	// older: the manifest without its list of files, as a hetmap before it
	// wrote the folder: the files are read as they are, through the reader
	// that refuses what is not a regular file.
	older := func(change func(string)) func(string) {
		return func(run string) {
			path := filepath.Join(run, "manifest.json")
			var m map[string]any
			data, _ := os.ReadFile(path)
			if err := json.Unmarshal(data, &m); err != nil || m["files"] == nil {
				t.Fatalf("the manifest has no list of files (%v)", err)
			}
			delete(m, "files")
			data, _ = json.MarshalIndent(m, "", "  ")
			os.WriteFile(path, data, 0o644)
			change(run)
		}
	}
	const run, second = "RUN", "RUN2" // stand for the changed copy and an unchanged one
	for _, c := range []struct {
		name   string
		args   []string
		change func(run string)
		want   string
	}{
		{"FIFO to gpu rta", []string{"gpu", "rta", kernels}, nil, kernels + ": the kernel set is a FIFO (named pipe), not a regular file"},
		{"FIFO to gpu simulate (scenario)", []string{"gpu", "simulate", scenario}, nil, scenario + ": the scenario is a FIFO (named pipe), not a regular file"},
		{"FIFO to gpu simulate (kernel set)", []string{"gpu", "simulate", kernels}, nil, kernels + ": the kernel set is a FIFO (named pipe), not a regular file"},
		{"FIFO as a model", []string{"model", "--model", model}, nil, model + ": the model is a FIFO (named pipe), not a regular file"},
		{"FIFO front.json, report", []string{"report", run}, fifoAt("front.json"), "front.json: the run's front.json is a FIFO (named pipe)"},
		{"FIFO manifest.json, report", []string{"report", run}, fifoAt("manifest.json"), "manifest.json: the run's manifest.json is a FIFO (named pipe)"},
		{"FIFO config.yaml, report", []string{"report", run}, fifoAt("config.yaml"), "config.yaml: the run's config.yaml is a FIFO (named pipe)"},
		{"FIFO point file, report --point", []string{"report", run, "--point", "1"}, fifoAt(pointFile), "point-1.json: the run's mappings/point-1.json is a FIFO (named pipe)"},
		{"FIFO front.json, older folder, report", []string{"report", run}, older(fifoAt("front.json")), "front.json: the run's front.json is a FIFO (named pipe)"},
		{"FIFO point file, older folder, report", []string{"report", run}, older(fifoAt(pointFile)), "point-1.json: the run's mappings/point-1.json is a FIFO (named pipe)"},
		{"FIFO front.json, compare A", []string{"compare", run, second}, fifoAt("front.json"), "front.json: the run's front.json is a FIFO (named pipe)"},
		{"FIFO manifest.json, compare B", []string{"compare", second, run}, fifoAt("manifest.json"), "manifest.json: the run's manifest.json is a FIFO (named pipe)"},
		{"FIFO front.json, older folder, compare", []string{"compare", run, second}, older(fifoAt("front.json")), "front.json: the run's front.json is a FIFO (named pipe)"},
		{"point file linked to /dev/urandom, report", []string{"report", run}, random, "point-1.json: the run's mappings/point-1.json is a device, not a regular file"},
		{"point file linked to /dev/urandom, older folder, report", []string{"report", run}, older(random), "point-1.json: the run's mappings/point-1.json is a device, not a regular file"},
		{"point file linked to /dev/urandom, compare", []string{"compare", run, second}, random, "point-1.json: the run's mappings/point-1.json is a device, not a regular file"},
		{"point file replaced by {}, report", []string{"report", run}, replace([]byte("{}\n")), "point-1.json: not the file the run wrote: 3 bytes, where manifest.json records "},
		{"point file replaced by another point's, report", []string{"report", run}, replace(other), "point-1.json: not the file the run wrote: "},
		{"point file replaced by {}, report --point", []string{"report", run, "--point", "1"}, replace([]byte("{}")), "point-1.json: not the file the run wrote: 2 bytes"},
		{"point file replaced by another point's, compare", []string{"compare", run, second}, replace(other), "point-1.json: not the file the run wrote: "},
		{"--point abc", []string{"report", run, "--point", "abc"}, nil, `--point "abc": not a whole number`},
		{"--config twice", []string{"optimize", "--config", "../../configs/examples/waters-3obj.yaml", "--config", "../../configs/waters2019.yaml"}, nil,
			`--config given twice ("../../configs/examples/waters-3obj.yaml", then "../../configs/waters2019.yaml"): give it once`},
	} {
		t.Run(c.name, func(t *testing.T) {
			folder, unchanged := copyFolder(t, good), copyFolder(t, good)
			if c.change != nil {
				c.change(folder)
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				switch {
				case a == run:
					a = folder
				case a == second:
					a = unchanged
				case strings.HasPrefix(a, "../"):
					a, _ = filepath.Abs(a)
				}
				args[i] = a
			}
			want := strings.ReplaceAll(c.want, "../../configs/", must(filepath.Abs("../../configs"))+"/")
			before := snapshot(t, folder) + snapshot(t, unchanged)
			wd := t.TempDir()
			cmd := hetmapCommand(t, wd, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			code := cmd.ProcessState.ExitCode()
			lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
			if code != exitInput || len(lines) != 1 || !strings.HasPrefix(lines[0], "hetmap: ") || !strings.Contains(lines[0], want) {
				t.Errorf("hetmap %s: exit %d, stderr %q; want exit 2 and one line saying %q", strings.Join(c.args, " "), code, stderr.String(), want)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
			if entries, _ := os.ReadDir(wd); len(entries) > 0 {
				t.Errorf("wrote %s into the working directory", entries[0].Name())
			}
			if after := snapshot(t, folder) + snapshot(t, unchanged); after != before {
				t.Errorf("the run folders changed:\n%s\nafter:\n%s", before, after)
			}
			peak := peakMemory(cmd.ProcessState)
			t.Logf("exit %d, peak resident memory %d MiB: %s", code, peak>>20, strings.TrimSpace(stderr.String()))
			if peak > memoryBound {
				t.Errorf("peak resident memory %d MiB, more than %d MiB", peak>>20, memoryBound>>20)
			}
		})
	}
}

// memoryBound is the peak resident memory a refusal may take: hetmap's
// own is about 30 MiB (60 MiB under the race detector, whose shadow memory
// multiplies it).
var memoryBound = map[bool]int64{false: 128 << 20, true: 256 << 20}[testsize.Race]

// peakMemory is the peak resident memory of a process that has ended, in
// bytes.
func peakMemory(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes there, KiB on Linux
	}
	return int64(ru.Maxrss) << 10
}

// copyFolder copies the run folder dir (regular files and folders) into a
// new temporary folder.
func copyFolder(t *testing.T, dir string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(to, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return to
}

// snapshot lists what the folder dir holds: every entry's path and type,
// and a file's size and modification time, without following links or
// opening FIFOs. A folder's own modification time is left out: a report
// that fails while it renders removes its temporary file, which leaves
// the folder as it was but for that time.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(path)
		if err != nil {
			return err
		}
		if st.IsDir() {
			fmt.Fprintf(&b, "%s %v\n", path, st.Mode())
			return nil
		}
		fmt.Fprintf(&b, "%s %v %d %d\n", path, st.Mode(), st.Size(), st.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
