package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionFlags: each analysis choice given as a flag (optionFlags)
// overrides the configuration's key: analyze with the flag over a file that
// says otherwise prints what it prints for a file that says the flag's
// value (and not what the file alone gives); a value that is not one of the
// option's is refused in one line that names the flag, exit 2; a flag given
// twice is refused.
func TestOptionFlags(t *testing.T) {
	for _, c := range []struct {
		flag, key, file, value, section string
	}{
		{"contention", "contention", "challenge", "request", "analysis"},
		{"gpu-model", "gpu_model", "fifo", "timeslice", "analysis"},
		{"priorities", "priorities", "opa", "deadline-monotonic", "analysis"},
		{"deadlines", "deadlines", "period", "model", "conventions"},
	} {
		t.Run(c.flag, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			write := func(v string) {
				t.Helper()
				text := "model: builtin\n" + c.section + ": {" + c.key + ": " + v + "}\n"
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			analyze := func(extra ...string) string {
				t.Helper()
				out, errOut, code := hetmap(t, append([]string{"analyze", "--config", path, "--mapping", "default", "--margins", "none"}, extra...)...)
				if code != exitOK && code != exitProblem {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				return out
			}
			write(c.file)
			fileAlone := analyze()
			overridden := analyze("--"+c.flag, c.value)
			write(c.value)
			if want := analyze(); overridden != want {
				t.Errorf("--%s %s over %s: %s: the output differs from that of %s: %s\n%s\nwant\n%s", c.flag, c.value, c.key, c.file, c.key, c.value, overridden, want)
			}
			if overridden == fileAlone {
				t.Errorf("--%s %s changed nothing", c.flag, c.value)
			}

			_, errOut, code := hetmap(t, "analyze", "--config", path, "--mapping", "default", "--"+c.flag, "bogus")
			if code != exitInput || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "--"+c.flag+": \"bogus\" is not") {
				t.Errorf("--%s bogus: exit %d, %q; want exit 2 and one line naming the flag", c.flag, code, errOut)
			}
			_, errOut, code = hetmap(t, "optimize", "--"+c.flag, c.file, "--"+c.flag, c.value)
			if code != exitInput || !strings.Contains(errOut, "--"+c.flag+" given twice") {
				t.Errorf("--%s twice: exit %d, %q", c.flag, code, errOut)
			}
		})
	}
}

// TestOptionFlagsOptimize: optimize takes the flags too, and records the
// value in the run's config.yaml.
func TestOptionFlagsOptimize(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	_, errOut, code := hetmap(t, "optimize", "--config", writeConfig(t, "model: builtin\nsearch: {algorithm: nsga2, population: 8, generations: 2}\n"),
		"--contention", "challenge", "--out", out)
	if code != exitOK && code != exitProblem {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	cfg, err := os.ReadFile(filepath.Join(out, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cfg), "contention: challenge") {
		t.Errorf("config.yaml does not record --contention challenge:\n%s", cfg)
	}
}
