package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlurmJobFile runs the recipe's job file (scripts/slurm/sweep-shards.sbatch)
// in a copy of its folder (hetmap, the example sweep and its base), with a
// stand-in for sbatch that records what it is given. Submitted as the
// document says (by running it): a log folder that cannot be created (logs
// is a file) is refused, naming it, before anything is submitted (exit 2);
// so are an array that does not give the N shards and a sweep file hetmap
// cannot read; otherwise it creates logs/, submits itself as the array
// (with the options given) and the summary job after it (afterany), and
// says so, also from an interactive allocation. Started by Slurm as a
// batch job that is no array task (its #SBATCH --array removed), it
// refuses to submit; as array task I, it runs hetmap's shard I+1 of N,
// appending to its log when requeued.
func TestSlurmJobFile(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	jobFile, err := os.ReadFile(filepath.Join(repoRoot, "scripts", "slurm", "sweep-shards.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --open-mode=append", "#SBATCH --output=logs/", "#SBATCH --array=0-7", "\nN=8 "} {
		if !bytes.Contains(jobFile, []byte(want)) {
			t.Errorf("the job file has no %q", want)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// setup makes the folder the job starts in; hetmap is this test binary
	// or, for the array task, a stand-in that prints its arguments.
	setup := func(t *testing.T, job []byte, realHetmap bool) string {
		dir := t.TempDir()
		for _, d := range []string{"bin", "configs/examples"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		files := map[string]string{
			"sweep-shards.sbatch": string(job),
			"bin/sbatch":          "#!/bin/sh\necho \"$*\" >> sbatch.log\necho $((1000 + $(wc -l < sbatch.log)))\n",
			"hetmap":              "#!/bin/sh\necho \"hetmap $*\"\n",
		}
		if realHetmap {
			files["hetmap"] = fmt.Sprintf("#!/bin/sh\nHETMAP_TEST_MAIN=1 exec %q \"$@\"\n", exe)
		}
		for _, f := range []string{"sweep-contention.yaml", "waters-3obj.yaml"} {
			data, err := os.ReadFile(filepath.Join(repoRoot, "configs", "examples", f))
			if err != nil {
				t.Fatal(err)
			}
			files["configs/examples/"+f] = string(data)
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	run := func(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
		cmd := exec.Command(bash, append([]string{"./sweep-shards.sbatch"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append([]string{"PATH=" + filepath.Join(dir, "bin") + ":" + os.Getenv("PATH")}, env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
	}
	submitted := func(dir string) string {
		data, _ := os.ReadFile(filepath.Join(dir, "sbatch.log"))
		return string(data)
	}

	t.Run("submission", func(t *testing.T) {
		dir := setup(t, jobFile, true)
		if err := os.WriteFile(filepath.Join(dir, "logs"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := run(t, dir, nil)
		if code != 2 || !strings.Contains(stderr, "cannot create the log folder logs (of #SBATCH --output)") || !strings.Contains(stderr, "nothing submitted") || submitted(dir) != "" {
			t.Errorf("logs a file: exit %d, %q, submitted %q", code, stderr, submitted(dir))
		}
		os.Remove(filepath.Join(dir, "logs"))
		stdout, stderr, code := run(t, dir, nil, "--array=2", "--time=08:00:00")
		want := "--parsable --array=2 --time=08:00:00 ./sweep-shards.sbatch\n" +
			"--parsable --dependency=afterany:1001 --job-name=hetmap-summary --output=logs/%x-%j.out --wrap ./hetmap sweep configs/examples/sweep-contention.yaml --out runs/contention --summarize\n"
		if code != 0 || submitted(dir) != want || stdout != "submitted: shards job 1001, summary job 1002 after them (afterany); logs in logs/\n" {
			t.Errorf("exit %d, %s%s, submitted\n%s\nwant\n%s", code, stdout, stderr, submitted(dir), want)
		}
		if st, err := os.Stat(filepath.Join(dir, "logs")); err != nil || !st.IsDir() {
			t.Error("no logs folder")
		}
		// From an interactive allocation (salloc, srun: a job, but no
		// batch job), it submits alike.
		os.Remove(filepath.Join(dir, "sbatch.log"))
		if _, stderr, code := run(t, dir, []string{"SLURM_JOB_ID=7"}); code != 0 || !strings.Contains(submitted(dir), "--parsable ./sweep-shards.sbatch\n") {
			t.Errorf("from an allocation: exit %d, %s, submitted %q", code, stderr, submitted(dir))
		}
	})
	t.Run("refusals", func(t *testing.T) {
		for _, tt := range []struct {
			name string
			edit func(string) string
			env  []string
			want string
		}{
			{"array", func(s string) string { return strings.Replace(s, "--array=0-7 ", "--array=0-6 ", 1) }, nil, "#SBATCH --array=0-6 does not give the 8 shards of N=8: write --array=0-7"},
			{"sweep", func(s string) string {
				return strings.Replace(s, "SWEEP=configs/examples/sweep-contention.yaml", "SWEEP=configs/examples/absent.yaml", 1)
			}, nil, "hetmap cannot read the sweep configs/examples/absent.yaml (above)"},
			{"batch job", func(s string) string { return s }, []string{"SLURM_JOB_ID=7", "ENVIRONMENT=BATCH"}, "this batch job is no array task: submit this file by running it"},
		} {
			dir := setup(t, []byte(tt.edit(string(jobFile))), true)
			_, stderr, code := run(t, dir, tt.env)
			if code != 2 || !strings.Contains(stderr, tt.want) || submitted(dir) != "" {
				t.Errorf("%s: exit %d, %q, submitted %q; want exit 2 and %q", tt.name, code, stderr, submitted(dir), tt.want)
			}
		}
	})
	t.Run("array task", func(t *testing.T) {
		dir := setup(t, jobFile, false)
		stdout, stderr, code := run(t, dir, []string{"SLURM_JOB_ID=7", "SLURM_ARRAY_TASK_ID=2", "ENVIRONMENT=BATCH"})
		want := "hetmap sweep configs/examples/sweep-contention.yaml --out runs/contention --shard 3/8\n"
		if code != 0 || stdout != want {
			t.Errorf("exit %d, %q%s; want %q", code, stdout, stderr, want)
		}
		if err := newSweepCmd().ParseFlags(strings.Fields(want)[3:]); err != nil {
			t.Error(err)
		}
	})
}
