// Package synth generates synthetic systems in hetmap's YAML form: CPU
// clusters (A57 and Denver cores, as on the Jetson TX2), an optional GPU,
// periodic tasks with label accesses, GPU tasks with their offloading
// tasks, and cause-effect chains. The systems are for tests (small random
// systems whose every mapping can be enumerated) and for benchmarks at scale
// (tens to hundreds of tasks); they follow the structure and the numbers of
// the WATERS 2019 challenge model (Hamann et al., "WATERS Industrial
// Challenge 2019"), not any real
// application.
//
// Generation is deterministic: everything random is drawn from the
// generator passed in. Utilisations are drawn by UUniFast (Bini and
// Buttazzo, "Measuring the performance of schedulability tests", Real-Time
// Systems 30(1–2), 2005), periods from a set of automotive periods, and
// execution times follow from both.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// Settings describe a synthetic system. The zero value of each field has
// the default given in its comment.
type Settings struct {
	// Tasks is the number of periodic CPU tasks (default 4).
	Tasks int
	// GPUTasks is the number of GPU tasks; each comes with its offloading
	// task, so the system has Tasks + 2·GPUTasks tasks (default 0).
	GPUTasks int
	// A57 and Denver are the numbers of cores of each kind (default 2 A57,
	// 0 Denver).
	A57, Denver int
	// Utilisation is the total CPU utilisation of the periodic tasks on an
	// A57 core without contention, spread over them by UUniFast (default
	// 0.4 per core).
	Utilisation float64
	// Periods are the periods drawn from (default 5, 10, 20, 40, 50, 100
	// and 200 ms: harmonic enough to keep hyperperiods short).
	Periods []configs.Duration
	// Labels is the number of labels (default 2 per task); each runnable
	// reads and writes up to two of them, each of 64 B to 64 kB.
	Labels int
	// Chains and ChainLength set the cause-effect chains (default 1 chain
	// of 3 tasks, or all tasks if fewer); every chain is an objective of
	// the search unless the caller changes the search section.
	Chains, ChainLength int
	// AsyncShare is the probability that an offloading task waits
	// passively (asynchronous offloading; default 0.5).
	AsyncShare float64
	// GPUModel is the analysis's GPU model, "fifo" (default) or
	// "timeslice"; with timeslice the slices range over 1 to MaxSlice ms.
	GPUModel configs.GPUModel
	// MaxSlice is the largest time slice (timeslice model; default 3 ms).
	MaxSlice configs.Duration
	// Contention is the analysis's contention count (default: the
	// configuration's default).
	Contention configs.ContentionCount
}

func (s *Settings) defaults() {
	if s.Tasks == 0 {
		s.Tasks = 4
	}
	if s.A57 == 0 && s.Denver == 0 {
		s.A57 = 2
	}
	if s.Utilisation == 0 {
		s.Utilisation = 0.4 * float64(s.A57+s.Denver)
	}
	if len(s.Periods) == 0 {
		for _, ms := range []int64{5, 10, 20, 40, 50, 100, 200} {
			s.Periods = append(s.Periods, configs.Duration(ms)*configs.Millisecond)
		}
	}
	if s.Labels == 0 {
		s.Labels = 2 * (s.Tasks + s.GPUTasks)
	}
	if s.Chains == 0 {
		s.Chains = 1
	}
	if s.ChainLength == 0 {
		s.ChainLength = 3
	}
	if s.AsyncShare == 0 {
		s.AsyncShare = 0.5
	}
	if s.GPUModel == "" {
		s.GPUModel = configs.GPUModelFIFO
	}
	if s.MaxSlice == 0 {
		s.MaxSlice = 3 * configs.Millisecond
	}
}

// Validate reports settings that describe no system.
func (s Settings) Validate() error {
	switch {
	case s.Tasks < 0 || s.GPUTasks < 0 || s.A57 < 0 || s.Denver < 0 || s.Labels < 0 || s.Chains < 0 || s.ChainLength < 0:
		return fmt.Errorf("synth: negative count in %+v", s)
	case s.Utilisation < 0 || math.IsNaN(s.Utilisation) || s.AsyncShare < 0 || s.AsyncShare > 1:
		return fmt.Errorf("synth: utilisation %v or async share %v out of range", s.Utilisation, s.AsyncShare)
	case s.GPUModel != "" && s.GPUModel != configs.GPUModelFIFO && s.GPUModel != configs.GPUModelTimeSlice:
		return fmt.Errorf("synth: GPU model %q (fifo or timeslice)", s.GPUModel)
	}
	for _, p := range s.Periods {
		if p < configs.Millisecond {
			return fmt.Errorf("synth: period %v below 1 ms", p)
		}
	}
	return nil
}

// ticksPerMs at 2 GHz, the frequency of every core generated.
const ticksPerMs = 2_000_000

// YAML returns the system of s, drawn from rng, as a configuration file
// (with a search section whose objectives are the chains).
func YAML(s Settings, rng *rand.Rand) (string, error) {
	if err := s.Validate(); err != nil {
		return "", err
	}
	s.defaults()
	var b strings.Builder
	writePlatform(&b, s)
	for l := range s.Labels {
		size := 64 << rng.IntN(11) // 64 B … 64 kB
		fmt.Fprintf(&b, "  - {name: L%d, size_bytes: %d}\n", l, size)
	}
	// cpuTicks gives a runnable's ticks on the core kinds present: a57 on
	// an A57, 0.6 of it on a Denver.
	cpuTicks := func(a57 int64) string {
		var k []string
		if s.A57 > 0 {
			k = append(k, ticks("A57", a57))
		}
		if s.Denver > 0 {
			k = append(k, ticks("Denver", max(1, a57*6/10)))
		}
		return strings.Join(k, ", ")
	}
	access := func(what string) string {
		if s.Labels == 0 {
			return ""
		}
		n := rng.IntN(3)
		if n == 0 {
			return ""
		}
		var names []string
		for range n {
			names = append(names, fmt.Sprintf("L%d", rng.IntN(s.Labels)))
		}
		return fmt.Sprintf(", %s: [%s]", what, strings.Join(unique(names), ", "))
	}
	// Periodic tasks: utilisation by UUniFast, execution time U·T on an
	// A57, 0.6 of it on a Denver; best case 80 % of the worst.
	us := uunifast(rng, s.Tasks, s.Utilisation)
	periods := make([]configs.Duration, s.Tasks)
	b.WriteString("runnables:\n")
	for i := range s.Tasks {
		periods[i] = s.Periods[rng.IntN(len(s.Periods))]
		a57 := max(int64(1000), int64(us[i]*float64(periods[i])/float64(configs.Millisecond)*ticksPerMs))
		fmt.Fprintf(&b, "  - {name: R%d, ticks: [%s]%s%s}\n", i, cpuTicks(a57), access("reads"), access("writes"))
	}
	// GPU tasks: pre- and post-processing on a core, copies and a kernel
	// of 0.5–4 ms (GPU ticks at 1.5 GHz), which a core may also run (at
	// 3–6 times the time) unless the task is GPU-only (one in four).
	gpuPeriods := make([]configs.Duration, s.GPUTasks)
	for g := range s.GPUTasks {
		gpuPeriods[g] = s.Periods[rng.IntN(len(s.Periods))]
		pre := int64(ticksPerMs/10 + rng.IntN(ticksPerMs/2))
		fmt.Fprintf(&b, "  - {name: G%d_pre, ticks: [%s]%s}\n", g, cpuTicks(pre), access("reads"))
		fmt.Fprintf(&b, "  - {name: G%d_post, ticks: [%s]%s}\n", g, cpuTicks(pre/2), access("writes"))
		fmt.Fprintf(&b, "  - {name: G%d_async, ticks: [%s]}\n", g, cpuTicks(5000))
		in, out := fmt.Sprintf("L%d", rng.IntN(max(s.Labels, 1))), fmt.Sprintf("L%d", rng.IntN(max(s.Labels, 1)))
		fmt.Fprintf(&b, "  - {name: G%d_in, reads: [%s], writes: [%s]}\n", g, in, in)
		gpuMs := 0.5 + 3.5*rng.Float64()
		gpuTicks := int64(gpuMs * 1_500_000)
		cpu := ""
		if rng.IntN(4) != 0 {
			factor := 3 + 3*rng.Float64()
			a57 := int64(gpuMs * factor * ticksPerMs)
			cpu = ", " + cpuTicks(a57)
		}
		fmt.Fprintf(&b, "  - {name: G%d_kernel, ticks: [%s%s]}\n", g, ticks("GPU_def", gpuTicks), cpu)
		fmt.Fprintf(&b, "  - {name: G%d_out, reads: [%s], writes: [%s]}\n", g, out, out)
	}
	b.WriteString("tasks:\n")
	var names []string
	for i := range s.Tasks {
		fmt.Fprintf(&b, "  - {name: T%d, period: %s, runnables: [R%d]}\n", i, periods[i], i)
		names = append(names, fmt.Sprintf("T%d", i))
	}
	for g := range s.GPUTasks {
		wait := "active"
		async := ""
		if rng.Float64() < s.AsyncShare {
			wait, async = "passive", fmt.Sprintf(", async_runnables: [G%d_async]", g)
		}
		fmt.Fprintf(&b, "  - name: P%d\n    period: %s\n    runnables: [G%d_pre]\n    offload: {gpu_task: K%d, wait: %s%s, post_runnables: [G%d_post]}\n",
			g, gpuPeriods[g], g, g, wait, async, g)
		fmt.Fprintf(&b, "  - {name: K%d, runnables: [G%d_in, G%d_kernel, G%d_out], triggered_by: P%d}\n", g, g, g, g, g)
		names = append(names, fmt.Sprintf("K%d", g))
	}
	if s.GPUTasks > 0 {
		fmt.Fprintf(&b, "time_slice: {min: 1ms, max: %s}\n", s.MaxSlice)
	}
	writeChains(&b, s, names, rng)
	if s.Contention != "" {
		fmt.Fprintf(&b, "analysis: {gpu_model: %s, contention: %s}\n", s.GPUModel, s.Contention)
	} else {
		fmt.Fprintf(&b, "analysis: {gpu_model: %s}\n", s.GPUModel)
	}
	return b.String(), nil
}

// writePlatform writes the name, the units and the memory of the system of
// s, up to its labels' key: what no draw decides.
func writePlatform(b *strings.Builder, s Settings) {
	fmt.Fprintf(b, "name: synthetic (%d tasks, %d GPU tasks, %d A57, %d Denver)\nunits:\n", s.Tasks, s.GPUTasks, s.A57, s.Denver)
	for i := range s.Denver {
		fmt.Fprintf(b, "  - {name: D%d, kind: Denver, type: cpu, frequency: 2GHz, read_latency_cycles: 16, write_latency_cycles: 16}\n", i)
	}
	for i := range s.A57 {
		fmt.Fprintf(b, "  - {name: A%d, kind: A57, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}\n", i)
	}
	if s.GPUTasks > 0 {
		b.WriteString(smallGPU)
	}
	b.WriteString("memory:\n  line_size: 64\n  cores:\n")
	if s.Denver > 0 {
		b.WriteString("    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}\n")
	}
	if s.A57 > 0 {
		b.WriteString("    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}\n")
	}
	b.WriteString("  copy_engine: {baseline: 3ns, per_core: 500ps}\nlabels:\n")
}

// writeChains writes s.Chains chains of random tasks among names, drawn
// from rng, and a search section whose objectives are their latencies.
func writeChains(b *strings.Builder, s Settings, names []string, rng *rand.Rand) {
	if s.Chains > 0 && len(names) > 0 {
		b.WriteString("chains:\n")
		var objectives []string
		for c := range s.Chains {
			n := min(s.ChainLength, len(names))
			perm := rng.Perm(len(names))[:n]
			var members []string
			for _, k := range perm {
				members = append(members, names[k])
			}
			fmt.Fprintf(b, "  - {name: C%d, tasks: [%s]}\n", c, strings.Join(members, ", "))
			objectives = append(objectives, fmt.Sprintf("{chain: C%d}", c))
		}
		fmt.Fprintf(b, "search:\n  objectives: [%s]\n", strings.Join(objectives, ", "))
	}
}

// Config returns the system of s, drawn from rng, loaded and validated.
func Config(s Settings, rng *rand.Rand) (*configs.Config, string, error) {
	y, err := YAML(s, rng)
	if err != nil {
		return nil, "", err
	}
	cfg, err := configs.Load(strings.NewReader(y), "synthetic.yaml", ".")
	if err != nil {
		return nil, y, fmt.Errorf("synth: the generated system does not load: %w", err)
	}
	return cfg, y, nil
}

func ticks(kind string, upper int64) string {
	return fmt.Sprintf("{kind: %s, lower: %d, upper: %d}", kind, upper*8/10, upper)
}

// uunifast draws n utilisations that sum to u, uniformly over the simplex
// (Bini and Buttazzo 2005).
func uunifast(rng *rand.Rand, n int, u float64) []float64 {
	out := make([]float64, n)
	sum := u
	for i := 0; i < n-1; i++ {
		next := sum * math.Pow(rng.Float64(), 1/float64(n-1-i))
		out[i] = sum - next
		sum = next
	}
	if n > 0 {
		out[n-1] = sum
	}
	return out
}

func unique(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
