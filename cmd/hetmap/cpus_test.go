package main

import (
	"strings"
	"testing"
)

// TestCPUGrant: the CPUs used are the affinity's, or the scheduler's grant
// when smaller: SLURM_CPUS_PER_TASK, the cgroup's cpu.max (rounded up).
func TestCPUGrant(t *testing.T) {
	for _, tt := range []struct {
		affinity      int
		slurm, cpuMax string
		want          int
		why, err      string
	}{
		{affinity: 2, want: 2},
		{affinity: 2, slurm: "1", want: 1, why: "SLURM_CPUS_PER_TASK=1"},
		{affinity: 2, slurm: "4", want: 2},
		{affinity: 8, cpuMax: "150000 100000", want: 2, why: "the cgroup CPU limit (cpu.max 150000 100000)"},
		{affinity: 2, cpuMax: "150000 100000", want: 2},
		{affinity: 8, cpuMax: "max 100000", want: 8},
		{affinity: 8, slurm: "3", cpuMax: "200000 100000", want: 2, why: "the cgroup CPU limit (cpu.max 200000 100000)"},
		{affinity: 8, cpuMax: "50000 100000", want: 1, why: "the cgroup CPU limit (cpu.max 50000 100000)"},
		{affinity: 2, slurm: "two", err: `SLURM_CPUS_PER_TASK="two": not a number of CPUs (at least 1)`},
		{affinity: 2, slurm: "0", err: `SLURM_CPUS_PER_TASK="0": not a number of CPUs`},
	} {
		n, why, err := cpuGrant(tt.affinity, tt.slurm, tt.cpuMax)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("cpuGrant(%d, %q, %q): %v; want %q", tt.affinity, tt.slurm, tt.cpuMax, err, tt.err)
			}
			continue
		}
		if err != nil || n != tt.want || why != tt.why {
			t.Errorf("cpuGrant(%d, %q, %q) = %d, %q, %v; want %d, %q", tt.affinity, tt.slurm, tt.cpuMax, n, why, err, tt.want, tt.why)
		}
	}
}

// TestEnvironmentErrors: a variable hetmap reads that it cannot read exits
// 2, naming the variable.
func TestEnvironmentErrors(t *testing.T) {
	for _, tt := range []struct{ name, value, want string }{
		{envLease, "soon", `HETMAP_CLAIM_LEASE="soon" is not a duration`},
		{envLease, "-1s", "HETMAP_CLAIM_LEASE=-1s: give a positive duration"},
		{envLease, "1ms", "HETMAP_CLAIM_LEASE=1ms: a claim lease of 1ms is too short"},
		{envSlurmCPUs, "x", `SLURM_CPUS_PER_TASK="x": not a number of CPUs`},
	} {
		t.Run(tt.name+"="+tt.value, func(t *testing.T) {
			t.Setenv(tt.name, tt.value)
			_, errOut, code := hetmap(t, "model")
			if code != 2 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d: %s; want 2 and %q", code, errOut, tt.want)
			}
		})
	}
}
