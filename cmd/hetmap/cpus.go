package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hetmap/hetmap/results"
	"github.com/spf13/cobra"
)

// runtimeCPUs is the number of CPUs hetmap uses: the CPU affinity, or the
// scheduler's grant when smaller (applyEnvironment).
func runtimeCPUs() int { return runtime.GOMAXPROCS(0) }

// Environment variables hetmap reads besides the scheduler's.
const (
	// envHost replaces the host name that the claims of run folders
	// record (for nodes that share one, and tests).
	envHost = "HETMAP_HOST"
	// envLease is the lease of those claims (a Go duration, default
	// results.DefaultClaimLease): a claim not renewed for that long is
	// taken over by the next run into its folder, whatever the host.
	envLease = "HETMAP_CLAIM_LEASE"
	// envSlurmCPUs is the CPUs Slurm grants each task (--cpus-per-task).
	envSlurmCPUs = "SLURM_CPUS_PER_TASK"
)

// cpuNote says why hetmap uses fewer CPUs than the affinity allows ("" when
// it does not); sweep and optimize print it.
var cpuNote string

// applyEnvironment reads the environment variables above: it sets the
// claims' host name and lease, and lowers the CPUs used (GOMAXPROCS) to the
// scheduler's grant (SLURM_CPUS_PER_TASK, the cgroup's CPU limit) when that
// is smaller than the CPU affinity. A variable that cannot be read is an
// error naming it.
func applyEnvironment() error {
	var lease time.Duration
	if v := os.Getenv(envLease); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%s=%q is not a duration: write one such as 2m or 30s", envLease, v)
		}
		if d <= 0 {
			return fmt.Errorf("%s=%s: give a positive duration", envLease, v)
		}
		lease = d
	}
	if err := results.SetClaimIdentity(strings.TrimSpace(os.Getenv(envHost)), lease); err != nil {
		return fmt.Errorf("%s=%s: %v", envLease, os.Getenv(envLease), err)
	}
	cpuNote = ""
	n, why, err := cpuGrant(runtime.GOMAXPROCS(0), os.Getenv(envSlurmCPUs), readCgroupCPUMax())
	if err != nil {
		return err
	}
	if why != "" {
		cpuNote = fmt.Sprintf("using %d CPU(s), the grant of %s (the CPU affinity allows %d)", n, why, runtime.GOMAXPROCS(0))
		runtime.GOMAXPROCS(n)
	}
	return nil
}

// cpuGrant returns the CPUs to use: affinity, or the smaller of Slurm's
// grant (the value of SLURM_CPUS_PER_TASK, "" when unset) and the cgroup's
// CPU limit (the content of cpu.max, "" when absent), with what set it
// ("" when the affinity stands).
func cpuGrant(affinity int, slurm, cpuMax string) (int, string, error) {
	n, why := affinity, ""
	if slurm != "" {
		k, err := strconv.Atoi(strings.TrimSpace(slurm))
		if err != nil || k < 1 {
			return 0, "", fmt.Errorf("%s=%q: not a number of CPUs (at least 1)", envSlurmCPUs, slurm)
		}
		if k < n {
			n, why = k, envSlurmCPUs+"="+strings.TrimSpace(slurm)
		}
	}
	if k, ok := parseCPUMax(cpuMax); ok && k < n {
		n, why = k, "the cgroup CPU limit (cpu.max "+strings.TrimSpace(cpuMax)+")"
	}
	return n, why, nil
}

// parseCPUMax reads a cgroup v2 cpu.max ("QUOTA PERIOD" in µs, or "max
// PERIOD" without a limit) as whole CPUs, rounded up.
func parseCPUMax(s string) (int, bool) {
	f := strings.Fields(s)
	if len(f) != 2 || f[0] == "max" {
		return 0, false
	}
	quota, err1 := strconv.ParseFloat(f[0], 64)
	period, err2 := strconv.ParseFloat(f[1], 64)
	if err1 != nil || err2 != nil || quota <= 0 || period <= 0 {
		return 0, false
	}
	return max(1, int(math.Ceil(quota/period))), true
}

// readCgroupCPUMax returns the CPU limit of this process's cgroup as a
// cgroup v2 cpu.max reads (a cgroup v1 CPU quota and period in that form),
// or "" where there is none.
func readCgroupCPUMax() string {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	read := func(path string) string {
		b, _ := os.ReadFile(path)
		return strings.TrimSpace(string(b))
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			if s := read(filepath.Join("/sys/fs/cgroup", parts[2], "cpu.max")); s != "" {
				return s
			}
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c != "cpu" {
				continue
			}
			for _, dir := range []string{"cpu", "cpu,cpuacct"} {
				base := filepath.Join("/sys/fs/cgroup", dir, parts[2])
				if q, p := read(filepath.Join(base, "cpu.cfs_quota_us")), read(filepath.Join(base, "cpu.cfs_period_us")); q != "" && p != "" {
					if strings.HasPrefix(q, "-") {
						q = "max"
					}
					return q + " " + p
				}
			}
		}
	}
	return ""
}

// One rule for the numbers of workers, flags and configuration keys alike:
// 0 means the default where the documentation says so, a negative number
// is an error, and more workers than CPUs are capped with a note (they
// would only take turns).

// checkWorkersFlag refuses a negative --workers.
func checkWorkersFlag(cmd *cobra.Command, name string, n int) error {
	if cmd.Flags().Changed(name) && n < 0 {
		return fmt.Errorf("--%s %d: must not be negative (0 means the number of CPUs)", name, n)
	}
	return nil
}

// capWorkers returns the number of evaluation workers a search uses: the
// flag when positive, else the configuration's search.workers (0 leaves the
// choice to the search: the number of CPUs), capped at the number of CPUs
// with a note on stderr.
func capWorkers(stderr io.Writer, flag, configured int) int {
	n, what := flag, "--workers"
	if n <= 0 {
		n, what = configured, "search.workers"
	}
	if cpus := runtimeCPUs(); n > cpus {
		fmt.Fprintf(stderr, "note: %s %d is more than the %d CPUs; using %d\n", what, n, cpus, cpus)
		n = cpus
	}
	return n
}

// errSeedZero refuses a seed of 0, which a configuration would read as the
// default seed 1.
func errSeedZero(what string) error {
	return fmt.Errorf("%s 0: 0 is not a seed hetmap takes (a configuration reads it as the default, 1); give another", what)
}
