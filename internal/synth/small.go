package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// Small systems for tests: a fixed one whose front is computed by hand, and
// random ones small enough that every mapping can be enumerated.

// Load reads the configuration y (hetmap's YAML form, as HandProblem and
// SmallYAML write it) and fails t where it does not load.
func Load(t testing.TB, y string) *configs.Config {
	t.Helper()
	cfg, err := configs.Load(strings.NewReader(y), "test.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// LoadFile reads the configuration file path and fails t where it does not
// load.
func LoadFile(t testing.TB, path string) *configs.Config {
	t.Helper()
	cfg, err := configs.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// HandProblem is a system small enough to enumerate by hand (for tests of
// the searches): two identical A57 cores and
// one Denver core at 2 GHz, no memory accesses (so no contention), three
// periodic tasks with implicit deadlines and harmonic periods:
//
//	task  T      A57 ticks → C (U)     Denver ticks → C (U)
//	T1    10 ms  8 000 000 → 4 ms (0.4)  4 000 000 → 2 ms (0.2)
//	T2    10 ms  10 000 000 → 5 ms (0.5) 6 000 000 → 3 ms (0.3)
//	T3    20 ms  20 000 000 → 10 ms (0.5) 12 000 000 → 6 ms (0.3)
//
// With harmonic periods a core is schedulable exactly when its utilisation
// is at most 1. Objectives: cores used, highest utilisation.
//
//   - 1 core: the A57 would carry 1.4; the Denver carries 0.8 → (1, 0.8).
//   - 2 cores: every task on an A57 has U ≥ 0.4; with T2 or T3 on an A57
//     the maximum is ≥ 0.5, and with only T1 there (0.4) the Denver carries
//     T2 + T3 = 0.6; so the best is 0.5, e.g. T1, T3 on the Denver (0.5)
//     and T2 on an A57 (0.5) → (2, 0.5).
//   - 3 cores: two tasks on A57s, one at least 0.5 → (3, 0.5), dominated.
//
// The front is {(1, 0.8), (2, 0.5)}. There are 3³ = 27 genomes, but the two
// A57 cores are interchangeable: by Burnside's lemma (27 + 1)/2 = 14
// distinct mappings (only "all on the Denver" is unchanged by swapping the
// A57 labels). No partial mapping of at most two tasks exceeds 1, so
// nothing is pruned before the leaves; of the 14, every task on one A57
// (U = 1.4) exceeds the core's capacity before any contention, which the
// exhaustive search's enumeration leaves out, so it evaluates 13.
const HandProblem = `
units:
  - {name: A0, kind: A57, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}
  - {name: A1, kind: A57, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}
  - {name: D0, kind: Denver, type: cpu, frequency: 2GHz, read_latency_cycles: 16, write_latency_cycles: 16}
memory:
  line_size: 64
  cores:
    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}
    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}
  copy_engine: {baseline: 3ns, per_core: 500ps}
runnables:
  - {name: r1, ticks: [{kind: A57, lower: 8000000, upper: 8000000}, {kind: Denver, lower: 4000000, upper: 4000000}]}
  - {name: r2, ticks: [{kind: A57, lower: 10000000, upper: 10000000}, {kind: Denver, lower: 6000000, upper: 6000000}]}
  - {name: r3, ticks: [{kind: A57, lower: 20000000, upper: 20000000}, {kind: Denver, lower: 12000000, upper: 12000000}]}
tasks:
  - {name: T1, period: 10ms, runnables: [r1]}
  - {name: T2, period: 10ms, runnables: [r2]}
  - {name: T3, period: 20ms, runnables: [r3]}
search:
  objectives: [{kind: cores-used}, {kind: max-utilisation}]
  population: 10
  generations: 30
`

// smallGPU is the GPU unit of every synthetic system (YAML's and
// SmallYAML's): two SMs, as the TX2's.
const smallGPU = `  - name: GPU
    kind: GPU_def
    type: gpu
    frequency: 1500MHz
    read_latency_cycles: 5
    write_latency_cycles: 5
    gpu: {sms: 2, cores_per_sm: 128, threads_per_sm: 2048, shared_memory_per_sm: 65536, registers_per_sm: 65536, copy_engines: 1, max_threads_per_block: 1024, max_shared_memory_per_block: 49152}
`

// SmallYAML writes a random small system in hetmap's YAML form: 2 or 3 cores of random
// kinds, 4 to 6 periodic tasks that read and write labels, sometimes a GPU
// with one offloading task (its GPU task can also be merged onto a core),
// two chains as the objectives, under the given contention count and
// priority policy. The tasks' utilisations are drawn so that many but not
// all mappings are schedulable, which makes the exhaustive search cut.
func SmallYAML(rng *rand.Rand, count configs.ContentionCount, priorities configs.PriorityAssignment) string {
	var b strings.Builder
	cores := 2 + rng.IntN(2)
	kinds := map[string]bool{}
	b.WriteString("name: small\nunits:\n")
	for c := range cores {
		kind := []string{"A57", "Denver"}[rng.IntN(2)]
		kinds[kind] = true
		fmt.Fprintf(&b, "  - {name: C%d, kind: %s, type: cpu, frequency: 2GHz, read_latency_cycles: 40, write_latency_cycles: 40}\n", c, kind)
	}
	withGPU := rng.IntN(2) == 0
	if withGPU {
		b.WriteString(smallGPU)
	}
	b.WriteString("memory:\n  line_size: 64\n  cores:\n")
	if kinds["A57"] {
		b.WriteString("    - {kind: A57, baseline: 20ns, per_core: 20ns, copy_engine: 100ns}\n")
	}
	if kinds["Denver"] {
		b.WriteString("    - {kind: Denver, baseline: 8ns, per_core: 2ns, copy_engine: 20ns}\n")
	}
	b.WriteString("  copy_engine: {baseline: 3ns, per_core: 500ps}\nlabels:\n")
	const labels = 6
	for l := range labels {
		fmt.Fprintf(&b, "  - {name: L%d, size_bytes: %d}\n", l, 64*(100+rng.IntN(20000)))
	}
	tasks := 4 + rng.IntN(3)
	periods := []int{5, 10, 20, 40}
	b.WriteString("runnables:\n")
	type task struct {
		name   string
		period int
	}
	var ts []task
	ticks := func(us float64, extra string) string {
		a57 := int64(us * 2000 * 1.3) // 2 GHz, the A57 slower
		den := int64(us * 2000)
		var ks []string
		if extra != "" {
			ks = append(ks, extra)
		}
		if kinds["A57"] {
			ks = append(ks, fmt.Sprintf("{kind: A57, lower: %d, upper: %d}", a57/2, a57))
		}
		if kinds["Denver"] {
			ks = append(ks, fmt.Sprintf("{kind: Denver, lower: %d, upper: %d}", den/2, den))
		}
		return "[" + strings.Join(ks, ", ") + "]"
	}
	for k := range tasks {
		p := periods[rng.IntN(len(periods))]
		u := 0.15 + 0.35*rng.Float64() // 15–50 % of a Denver core
		r1, r2 := rng.IntN(labels), rng.IntN(labels)
		writes := ""
		if rng.IntN(2) == 0 {
			writes = fmt.Sprintf(", writes: [L%d]", rng.IntN(labels))
		}
		fmt.Fprintf(&b, "  - {name: R%d, ticks: %s, reads: [L%d, L%d]%s}\n", k, ticks(u*float64(p)*1000, ""), r1, r2, writes)
		ts = append(ts, task{fmt.Sprintf("T%d", k), p})
	}
	if withGPU {
		fmt.Fprintf(&b, "  - {name: Pre, ticks: %s, reads: [L0]}\n", ticks(500, ""))
		fmt.Fprintf(&b, "  - {name: Post, ticks: %s, writes: [L1]}\n", ticks(500, ""))
		b.WriteString("  - {name: H2D, reads: [L2], writes: [L2]}\n")
		fmt.Fprintf(&b, "  - {name: Kern, ticks: %s}\n", ticks(2000+float64(rng.IntN(2000)), fmt.Sprintf("{kind: GPU_def, lower: 1500000, upper: %d}", 1500000+rng.IntN(6000000))))
		b.WriteString("  - {name: D2H, reads: [L3], writes: [L3]}\n")
	}
	b.WriteString("tasks:\n")
	for k, x := range ts {
		fmt.Fprintf(&b, "  - {name: %s, period: %dms, runnables: [R%d]}\n", x.name, x.period, k)
	}
	if withGPU {
		wait := []string{"active", "passive"}[rng.IntN(2)]
		fmt.Fprintf(&b, "  - {name: P, period: 20ms, runnables: [Pre], offload: {gpu_task: G, wait: %s, post_runnables: [Post]}}\n", wait)
		b.WriteString("  - {name: G, runnables: [H2D, Kern, D2H], triggered_by: P}\n")
		ts = append(ts, task{"G", 20})
	}
	b.WriteString("chains:\n")
	for c := range 2 {
		perm := rng.Perm(len(ts))[:2+rng.IntN(2)]
		var names []string
		for _, k := range perm {
			names = append(names, ts[k].name)
		}
		fmt.Fprintf(&b, "  - {name: X%d, tasks: [%s]}\n", c, strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "analysis: {contention: %s, priorities: %s}\nsearch: {algorithm: exhaustive}\n", count, priorities)
	return b.String()
}
