package gpuscenario

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/internal/testsize"
	"github.com/hetmap/hetmap/rta/gpu"
	"github.com/hetmap/hetmap/rta/gpusim"
)

var writeAccuracy = flag.Bool("write-accuracy", false, "rewrite docs/gpu-analysis-accuracy.md from TestAccuracyReport")

// category describes a family of random kernel sets.
type category struct {
	name, desc string
	gen        func(r *rand.Rand) *KernelSet
	// ignoreUnsupported runs the analysis on sets that use what it does not
	// model (here: stream priorities), to measure the error of doing so.
	ignoreUnsupported bool
}

var thesisSizes = []int{128, 256, 512, 1024}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// blockTime draws a block time: whole milliseconds (many ties) in half the
// sets, arbitrary nanoseconds in the other half.
func blockTimeGen(r *rand.Rand) func() time.Duration {
	if r.IntN(2) == 0 {
		return func() time.Duration { return time.Duration(1+r.IntN(10)) * time.Millisecond }
	}
	return func() time.Duration { return time.Duration(100_000 + r.IntN(20_000_000)) }
}

// baseSet draws n kernels with the thesis's shape: one stream each, released
// at 0, in queue order; size gives each kernel's threads per block.
func baseSet(r *rand.Rand, size func(i int) int) *KernelSet {
	n := 1 + r.IntN(12)
	bt := blockTimeGen(r)
	ks := &KernelSet{File: "random", GPU: GPU{SMs: 2, ThreadsPerSM: 2048, SharedMemoryPerSM: 64 << 10, RegistersPerSM: 65536, BlocksPerSM: 32}}
	for i := 0; i < n; i++ {
		ks.Kernels = append(ks.Kernels, KernelSpec{
			Name:            fmt.Sprintf("K%d", i+1),
			BlockTime:       bt(),
			Blocks:          1 + r.IntN(40),
			ThreadsPerBlock: size(i),
			Period:          time.Second,
		})
	}
	return ks
}

// thesisSet: one block size b in {128, 256, 512, 1024}, no shared memory or
// registers, all released at 0 (the thesis's assumptions).
func thesisSet(r *rand.Rand) *KernelSet {
	b := pick(r, thesisSizes)
	return baseSet(r, func(int) int { return b })
}

func withReleases(r *rand.Rand, ks *KernelSet) *KernelSet {
	var work time.Duration
	for _, k := range ks.Kernels {
		work += k.BlockTime * time.Duration(k.Blocks)
	}
	span := max(int64(work)/8, 1)
	for i := range ks.Kernels {
		ks.Kernels[i].Launch = time.Duration(r.Int64N(span))
	}
	return ks
}

var categories = []category{
	{"thesis", "one block size b ∈ {128, 256, 512, 1024}, threads only, all released at 0 (inside the assumptions)", thesisSet, false},
	{"mixed-b", "block size per kernel from {128, 256, 512, 1024}, released at 0", func(r *rand.Rand) *KernelSet {
		return baseSet(r, func(int) int { return pick(r, thesisSizes) })
	}, false},
	{"odd-b", "one block size from {96, 384, 640, 768, 896, 1000} (does not divide 2048), released at 0", func(r *rand.Rand) *KernelSet {
		b := pick(r, []int{96, 384, 640, 768, 896, 1000})
		return baseSet(r, func(int) int { return b })
	}, false},
	{"any-b", "block size per kernel any multiple of 32 in 32..1024, released at 0", func(r *rand.Rand) *KernelSet {
		return baseSet(r, func(int) int { return 32 * (1 + r.IntN(32)) })
	}, false},
	{"smem", "one block size b ∈ {128..1024}, shared memory per block per kernel from {0, 8, 16, 24, 32, 40, 48} KiB", func(r *rand.Rand) *KernelSet {
		ks := thesisSet(r)
		for i := range ks.Kernels {
			ks.Kernels[i].SharedMemoryPerBlock = int64(pick(r, []int{0, 8, 16, 24, 32, 40, 48})) << 10
		}
		return ks
	}, false},
	{"regs", "one block size b ∈ {128..1024}, registers per thread per kernel from {16, 32, 48, 64, 96, 128, 255} (at most 32,768 per block)", func(r *rand.Rand) *KernelSet {
		ks := thesisSet(r)
		for i := range ks.Kernels {
			k := &ks.Kernels[i]
			k.RegistersPerThread = min(pick(r, []int{16, 32, 48, 64, 96, 128, 255}), 32768/k.ThreadsPerBlock)
		}
		return ks
	}, false},
	{"release", "one block size b ∈ {128..1024}, threads only, launch times random in [0, Σ g·C / 8]", func(r *rand.Rand) *KernelSet {
		return withReleases(r, thesisSet(r))
	}, false},
	{"all", "mixed block sizes (multiples of 32), shared memory, registers and launch times together", func(r *rand.Rand) *KernelSet {
		ks := baseSet(r, func(int) int { return 32 * (1 + r.IntN(32)) })
		for i := range ks.Kernels {
			k := &ks.Kernels[i]
			k.SharedMemoryPerBlock = int64(pick(r, []int{0, 0, 4, 12, 24, 40})) << 10
			k.RegistersPerThread = min(pick(r, []int{0, 32, 64, 128}), 32768/k.ThreadsPerBlock)
		}
		return withReleases(r, ks)
	}, false},
	{"tight", "2 to 7 kernels of 1 to 6 blocks of awkward sizes (32 to 1024 threads, many just over half an SM), some with shared memory or registers, half with launch times in steps of 0.5 ms", func(r *rand.Rand) *KernelSet {
		nk := 2 + r.IntN(6)
		ks := &KernelSet{File: "tight", GPU: GPU{SMs: 2, ThreadsPerSM: 2048, SharedMemoryPerSM: 64 << 10, RegistersPerSM: 65536, BlocksPerSM: 32}}
		for i := 0; i < nk; i++ {
			k := KernelSpec{Name: fmt.Sprintf("K%d", i+1), BlockTime: time.Duration(1+r.IntN(5)) * time.Millisecond, Blocks: 1 + r.IntN(6),
				ThreadsPerBlock: pick(r, []int{32, 64, 320, 512, 544, 672, 704, 768, 992, 1024, 1024})}
			if r.IntN(3) == 0 {
				k.SharedMemoryPerBlock = int64(pick(r, []int{4, 20, 28, 36, 44})) << 10
			}
			if r.IntN(3) == 0 {
				k.RegistersPerThread = min(pick(r, []int{40, 72, 100, 160, 255}), 32768/k.ThreadsPerBlock)
			}
			if r.IntN(2) == 0 {
				k.Launch = time.Duration(r.IntN(8)) * time.Millisecond / 2
			}
			ks.Kernels = append(ks.Kernels, k)
		}
		return ks
	}, false},
	{"priority", "as release, one kernel in three of high priority; the analysis ignores priorities (FIFO by launch time)", func(r *rand.Rand) *KernelSet {
		ks := withReleases(r, thesisSet(r))
		for i := range ks.Kernels {
			if r.IntN(3) == 0 {
				ks.Kernels[i].Priority = gpusim.PriorityHigh
			}
		}
		return ks
	}, true},
}

// compare returns analysis and simulated completion times, both in the
// kernel set's order.
func compare(ks *KernelSet, ignoreUnsupported bool) (ana, sim []int64, err error) {
	in := ks.BlockAnalysisInput()
	if len(in.Unsupported) > 0 && !ignoreUnsupported {
		return nil, nil, fmt.Errorf("unsupported: %v", in.Unsupported)
	}
	f, err := gpu.BlockRTA(in.Device, in.Kernels)
	if err != nil {
		return nil, nil, fmt.Errorf("BlockRTA: %w", err)
	}
	ana = make([]int64, len(ks.Kernels))
	for i, j := range in.Index {
		ana[j] = f[i]
	}
	res, err := gpusim.Simulate(ks.Scenario())
	if err != nil {
		return nil, nil, fmt.Errorf("Simulate: %w", err)
	}
	for _, k := range ks.Kernels {
		kr, ok := res.Kernel(k.Name)
		if !ok {
			return nil, nil, fmt.Errorf("kernel %s not simulated", k.Name)
		}
		sim = append(sim, kr.Completion)
	}
	return ana, sim, nil
}

func describeSet(ks *KernelSet) string {
	var b strings.Builder
	for _, k := range ks.Kernels {
		fmt.Fprintf(&b, "  - {name: %s, blocks: %d, threads_per_block: %d, block_time: %v", k.Name, k.Blocks, k.ThreadsPerBlock, k.BlockTime)
		if k.Launch > 0 {
			fmt.Fprintf(&b, ", launch: %v", k.Launch)
		}
		if k.SharedMemoryPerBlock > 0 {
			fmt.Fprintf(&b, ", shared_memory_per_block: %d", k.SharedMemoryPerBlock)
		}
		if k.RegistersPerThread > 0 {
			fmt.Fprintf(&b, ", registers_per_thread: %d", k.RegistersPerThread)
		}
		if k.Priority == gpusim.PriorityHigh {
			b.WriteString(", priority: high")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// Inside the thesis's assumptions the block analysis and the simulator must
// agree exactly on every completion time.
func TestBlockRTAMatchesSimulatorInsideAssumptions(t *testing.T) {
	r := rand.New(rand.NewPCG(2019, 7))
	const sets = 600
	for n := 0; n < sets; n++ {
		ks := thesisSet(r)
		in := ks.BlockAnalysisInput()
		if err := gpu.ThesisAssumptions(in.Device, in.Kernels); err != nil {
			t.Fatalf("set %d is outside the assumptions: %v", n, err)
		}
		ana, sim, err := compare(ks, false)
		if err != nil {
			t.Fatalf("set %d: %v", n, err)
		}
		if !slices.Equal(ana, sim) {
			t.Fatalf("set %d: analysis %v, simulator %v for kernels:\n%s", n, ana, sim, describeSet(ks))
		}
	}
}

// stats accumulates the comparison of one category.
type stats struct {
	sets, kernels, exactSets       int
	optKernels, optSets, pesKernel int
	maxOpt, maxPes                 int64   // ns
	maxOptRel, maxPesRel, sumPes   float64 // relative to the simulated response
	worstOpt                       string
}

func runCategory(c category, sets int, seed uint64) (stats, error) {
	r := rand.New(rand.NewPCG(seed, 1))
	var st stats
	for n := 0; n < sets; n++ {
		ks := c.gen(r)
		ana, sim, err := compare(ks, c.ignoreUnsupported)
		if err != nil {
			return st, fmt.Errorf("%s set %d: %v\n%s", c.name, n, err, describeSet(ks))
		}
		st.sets++
		exact, opt := true, false
		for i := range ana {
			st.kernels++
			resp := float64(sim[i] - int64(ks.Kernels[i].Launch))
			d := ana[i] - sim[i]
			switch {
			case d < 0:
				exact, opt = false, true
				st.optKernels++
				if -d > st.maxOpt {
					st.maxOpt = -d
					st.worstOpt = describeSet(ks)
				}
				st.maxOptRel = max(st.maxOptRel, float64(-d)/resp)
			case d > 0:
				exact = false
				st.pesKernel++
				st.maxPes = max(st.maxPes, d)
				st.maxPesRel = max(st.maxPesRel, float64(d)/resp)
				st.sumPes += float64(d) / resp
			}
		}
		if exact {
			st.exactSets++
		}
		if opt {
			st.optSets++
		}
	}
	return st, nil
}

func pct(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(b))
}

func accuracyTable(t *testing.T, sets int) (string, []stats) {
	var b strings.Builder
	b.WriteString("| category | sets | kernels | sets exact | optimistic kernels (analysis < sim, unsafe) | largest optimistic error | pessimistic kernels | largest pessimistic error | mean pessimism |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var all []stats
	for i, c := range categories {
		st, err := runCategory(c, sets, uint64(100+i))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, st)
		opt := "none"
		if st.optKernels > 0 {
			opt = fmt.Sprintf("%s (%.1f %% of the response)", gpusim.FormatDuration(st.maxOpt), 100*st.maxOptRel)
		}
		pes := "none"
		mean := "–"
		if st.pesKernel > 0 {
			pes = fmt.Sprintf("%s (%.1f %%)", gpusim.FormatDuration(st.maxPes), 100*st.maxPesRel)
			mean = fmt.Sprintf("%.1f %%", 100*st.sumPes/float64(st.pesKernel))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %d (%s; in %s of the sets) | %s | %d (%s) | %s | %s |\n",
			c.name, st.sets, st.kernels, pct(st.exactSets, st.sets), st.optKernels, pct(st.optKernels, st.kernels),
			pct(st.optSets, st.sets), opt, st.pesKernel, pct(st.pesKernel, st.kernels), pes, mean)
	}
	return b.String(), all
}

// TestAccuracyReport compares gpu.BlockRTA with the simulator on 1000 random
// kernel sets per category and prints the table of
// docs/gpu-analysis-accuracy.md. Regenerate the document with
//
//	go test -run TestAccuracyReport -v ./configs/gpuscenario/ -args -write-accuracy
func TestAccuracyReport(t *testing.T) {
	sets := 1000
	if testsize.Reduced() {
		sets = 100
	}
	table, all := accuracyTable(t, sets)
	t.Logf("\n%s", table)
	// Inside the assumptions the analysis must be exact.
	if all[0].exactSets != all[0].sets {
		t.Errorf("thesis category: %d of %d sets exact", all[0].exactSets, all[0].sets)
	}
	for i, st := range all {
		if st.optKernels > 0 {
			t.Logf("%s: worst optimistic set (%s):\n%s", categories[i].name, gpusim.FormatDuration(st.maxOpt), st.worstOpt)
		}
	}
	if !*writeAccuracy {
		return
	}
	if testsize.Reduced() {
		t.Fatal("-write-accuracy needs the full run (no -short, no -race)")
	}
	var cats strings.Builder
	for _, c := range categories {
		fmt.Fprintf(&cats, "* **%s**: %s.\n", c.name, c.desc)
	}
	doc := strings.ReplaceAll(accuracyDoc, "{{CATEGORIES}}", cats.String())
	doc = strings.ReplaceAll(doc, "{{TABLE}}", table)
	dir := filepath.Join("..", "..", "docs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gpu-analysis-accuracy.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}
