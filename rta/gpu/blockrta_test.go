package gpu

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// bigSM is the thesis's platform: 2 SMs of 2048 threads, threads only.
var bigSM = Device{SMs: 2, ThreadsPerSM: 2048}

// thesisExample is the worked example of gpu-block-rta.md (gmax = 8, b = 512).
func thesisExample() []Kernel {
	return []Kernel{
		{Name: "tau1", Period: 15, BlockTime: 4, Blocks: 2, ThreadsPerBlock: 512},
		{Name: "tau2", Period: 15, BlockTime: 6, Blocks: 7, ThreadsPerBlock: 512},
		{Name: "tau3", Period: 15, BlockTime: 6, Blocks: 2, ThreadsPerBlock: 512},
		{Name: "tau4", Period: 15, BlockTime: 5, Blocks: 5, ThreadsPerBlock: 512},
	}
}

func TestBlockRTAWorkedExample(t *testing.T) {
	// gpu-block-rta.md: tau1 fits, f1 = 4; tau2 places 6 until 6, its last
	// block at 4: f2 = 10; tau3 places 1 until 10, the other at 6: f3 = 12;
	// tau4 fits at 6: f4 = 11.
	want := []int64{4, 10, 12, 11}
	for _, dev := range []Device{bigSM, TX2()} {
		got, err := BlockRTA(dev, thesisExample())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v: f = %v, want %v", dev, got, want)
		}
		var s Scratch
		f := make([]int64, 4)
		if err := s.BlockRTA(dev, thesisExample(), f); err != nil || !slices.Equal(f, want) {
			t.Errorf("Scratch.BlockRTA: f = %v, %v, want %v", f, err, want)
		}
		if err := ThesisAssumptions(dev, thesisExample()); err != nil {
			t.Errorf("ThesisAssumptions: %v", err)
		}
		if err := CheckDeadlines(thesisExample(), got); err != nil {
			t.Errorf("all R <= T = 15, got %v", err)
		}
		if g := dev.Slots(thesisExample()[0]); g != 8 {
			t.Errorf("gmax = %d, want 8", g)
		}
	}
}

func TestBlockRTAReleases(t *testing.T) {
	k := func(name string, c int64, g int, r int64) Kernel {
		return Kernel{Name: name, BlockTime: c, Blocks: g, ThreadsPerBlock: 512, Release: r}
	}
	shifted := thesisExample()
	for i := range shifted {
		shifted[i].Release = 100
	}
	cases := []struct {
		name    string
		kernels []Kernel
		want    []int64
	}{
		{
			// a fits at 0: f = 4. b is released at 5, when a is done: all
			// 8 slots free, its 7 blocks fit: f = 5 + 6 = 11.
			name:    "release after the GPU empties",
			kernels: []Kernel{k("a", 4, 2, 0), k("b", 6, 7, 5)},
			want:    []int64{4, 11},
		},
		{
			// As above; c was released at 0 but queues behind b (FIFO): at
			// 5 one slot is free, c places 1 block until 7; the next pair of
			// h is (7, 1), c's own block: its last block runs 7..9.
			name:    "earlier release waits behind the FIFO",
			kernels: []Kernel{k("a", 4, 2, 0), k("b", 6, 7, 5), k("c", 2, 2, 0)},
			want:    []int64{4, 11, 9},
		},
		{
			// a fills all 8 slots until 10; b released at 2 finds none
			// free, next pair (10, 8): all 4 blocks at 10, f = 13.
			name:    "release while the GPU is full",
			kernels: []Kernel{k("a", 10, 8, 0), k("b", 3, 4, 2)},
			want:    []int64{10, 13},
		},
		{
			// a runs 0..2; the GPU idles until 50; b's 20 blocks run in
			// waves of 8, 8, 4 from 50: f = 53.
			name:    "idle gap",
			kernels: []Kernel{k("a", 2, 1, 0), k("b", 1, 20, 50)},
			want:    []int64{2, 53},
		},
		{
			// the worked example, all released at 100: f + 100
			name:    "worked example released at 100",
			kernels: shifted,
			want:    []int64{104, 110, 112, 111},
		},
	}
	for _, tc := range cases {
		got, err := BlockRTA(bigSM, tc.kernels)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: f = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestBlockRTAGeneralisedGeometry(t *testing.T) {
	cases := []struct {
		name    string
		dev     Device
		kernels []Kernel
		want    []int64
	}{
		{
			// 768 threads do not divide 2048: 2 blocks per SM, 4 in all;
			// 10 blocks in waves of 4, 4, 2: f = 3·7 = 21 (exact).
			name:    "block size not dividing the SM",
			dev:     bigSM,
			kernels: []Kernel{{Name: "k", BlockTime: 7, Blocks: 10, ThreadsPerBlock: 768}},
			want:    []int64{21},
		},
		{
			// 100 threads occupy 4 warps = 128 threads; the TX2 holds 32
			// blocks per SM (2048/128 = 16 < 32): 32 slots, 40 blocks in
			// waves of 32, 8: f = 2·5 = 10.
			name:    "warp rounding",
			dev:     TX2(),
			kernels: []Kernel{{Name: "k", BlockTime: 5, Blocks: 40, ThreadsPerBlock: 100}},
			want:    []int64{10},
		},
		{
			// 32-thread blocks: the 32-block limit per SM binds (64 slots,
			// not 128): 100 blocks in waves of 64, 36: f = 2.
			name:    "resident block limit",
			dev:     TX2(),
			kernels: []Kernel{{Name: "k", BlockTime: 1, Blocks: 100, ThreadsPerBlock: 32}},
			want:    []int64{2},
		},
		{
			// 20 KiB of shared memory: 3 blocks per SM (64/20), 6 in all;
			// 12 blocks in 2 waves: f = 2·4 = 8.
			name:    "shared memory",
			dev:     TX2(),
			kernels: []Kernel{{Name: "k", BlockTime: 4, Blocks: 12, ThreadsPerBlock: 128, SharedMemPerBlock: 20 << 10}},
			want:    []int64{8},
		},
		{
			// Mixed sizes (sound bound). big: 2 blocks of 1024 until 10 (one
			// SM's worth, 2048 of 4096 threads). small (256 threads) at 0:
			// slot rule with B = 1024 allows 4 resident (2 already); thread
			// rule allows used <= 2·(2048-256) = 3584, i.e. (3584-2048)/256
			// + 1 = 7 blocks. small's 7 blocks run 0..3: f = 3. Every real
			// placement fits them on the free SM (8 would fit too).
			name: "mixed sizes",
			dev:  bigSM,
			kernels: []Kernel{
				{Name: "big", BlockTime: 10, Blocks: 2, ThreadsPerBlock: 1024},
				{Name: "small", BlockTime: 3, Blocks: 7, ThreadsPerBlock: 256},
			},
			want: []int64{10, 3},
		},
		{
			// As above with 9 small blocks: 7 at 0 (until 3), then at 3 the
			// 7 finish and the last 2 start: f = 6. (Exact per-SM: 8 fit at
			// 0 on the free SM, the 9th at 3: also 6.)
			name: "mixed sizes, second wave",
			dev:  bigSM,
			kernels: []Kernel{
				{Name: "big", BlockTime: 10, Blocks: 2, ThreadsPerBlock: 1024},
				{Name: "small", BlockTime: 3, Blocks: 9, ThreadsPerBlock: 256},
			},
			want: []int64{10, 6},
		},
	}
	for _, tc := range cases {
		got, err := BlockRTA(tc.dev, tc.kernels)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: f = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestBlockRTAInvalid(t *testing.T) {
	ok := Kernel{Name: "k", BlockTime: 1, Blocks: 1, ThreadsPerBlock: 256}
	with := func(f func(*Kernel)) []Kernel {
		k := ok
		f(&k)
		return []Kernel{ok, k}
	}
	cases := []struct {
		dev     Device
		kernels []Kernel
		want    string
	}{
		{bigSM, with(func(k *Kernel) { k.BlockTime = 0 }), `gpu: kernel 1 ("k"): BlockTime = 0: must be > 0`},
		{bigSM, with(func(k *Kernel) { k.BlockTime = -3 }), `gpu: kernel 1 ("k"): BlockTime = -3: must be > 0`},
		{bigSM, with(func(k *Kernel) { k.Blocks = 0 }), `gpu: kernel 1 ("k"): Blocks = 0: must be > 0`},
		{bigSM, with(func(k *Kernel) { k.ThreadsPerBlock = 0 }), `gpu: kernel 1 ("k"): ThreadsPerBlock = 0: must be > 0`},
		{bigSM, with(func(k *Kernel) { k.ThreadsPerBlock = 2048 }), `gpu: kernel 1 ("k"): ThreadsPerBlock = 2048: exceeds the CUDA limit of 1024 threads per block`},
		{Device{SMs: 4, ThreadsPerSM: 512}, with(func(k *Kernel) { k.ThreadsPerBlock = 1024 }), `gpu: kernel 1 ("k"): ThreadsPerBlock = 1024: exceeds the 512 threads of one SM`},
		{Device{SMs: 1, ThreadsPerSM: 100, WarpSize: 32}, []Kernel{{Name: "w", BlockTime: 1, Blocks: 1, ThreadsPerBlock: 100}}, `gpu: kernel 0 ("w"): ThreadsPerBlock = 100: rounded up to whole warps of 32, exceeds the 100 threads of one SM`},
		{bigSM, with(func(k *Kernel) { k.Release = -1 }), `gpu: kernel 1 ("k"): Release = -1: must be >= 0`},
		{bigSM, with(func(k *Kernel) { k.Period = -1 }), `gpu: kernel 1 ("k"): Period = -1: must be >= 0 (0: no deadline)`},
		{TX2(), with(func(k *Kernel) { k.SharedMemPerBlock = 1 << 20 }), `gpu: kernel 1 ("k"): SharedMemPerBlock = 1048576: exceeds the 65536 bytes of shared memory of one SM`},
		{TX2(), with(func(k *Kernel) { k.RegistersPerBlock = -5 }), `gpu: kernel 1 ("k"): RegistersPerBlock = -5: must be >= 0`},
		{bigSM, with(func(k *Kernel) { k.Blocks, k.BlockTime = 1<<62, 1<<40 }), `gpu: kernel 1 ("k"): Blocks = 4611686018427387904: with this block time the serial work of the kernels up to here exceeds the int64 time range`},
		{Device{SMs: 0, ThreadsPerSM: 2048}, []Kernel{ok}, `gpu: device: SMs = 0: must be > 0`},
		{Device{SMs: 2, ThreadsPerSM: -1}, []Kernel{ok}, `gpu: device: ThreadsPerSM = -1: must be > 0`},
		{Device{SMs: 2, ThreadsPerSM: 2048, MaxBlocksPerSM: -1}, []Kernel{ok}, `gpu: device: MaxBlocksPerSM = -1: must be >= 0`},
	}
	for _, tc := range cases {
		_, err := BlockRTA(tc.dev, tc.kernels)
		if err == nil || err.Error() != tc.want {
			t.Errorf("got error %v\nwant %s", err, tc.want)
		}
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%v is not an *InputError", err)
		}
	}
	var s Scratch
	if err := s.BlockRTA(bigSM, []Kernel{ok, ok}, make([]int64, 1)); err == nil {
		t.Error("short result slice accepted")
	}
	if f, err := BlockRTA(bigSM, nil); err != nil || len(f) != 0 {
		t.Errorf("no kernels: %v, %v", f, err)
	}
}

func TestThesisAssumptions(t *testing.T) {
	k := Kernel{Name: "k", BlockTime: 1, Blocks: 1, ThreadsPerBlock: 512}
	cases := []struct {
		second Kernel
		want   string
	}{
		{Kernel{Name: "odd", BlockTime: 1, Blocks: 1, ThreadsPerBlock: 768}, `gpu: kernel 1 ("odd"): ThreadsPerBlock = 768: does not divide the 2048 threads of an SM (thesis assumption 2, one big SM)`},
		{Kernel{Name: "mixed", BlockTime: 1, Blocks: 1, ThreadsPerBlock: 256}, `gpu: kernel 1 ("mixed"): ThreadsPerBlock = 256: differs from kernel 0's 512 (thesis assumption 1, one block size)`},
		{Kernel{Name: "late", BlockTime: 1, Blocks: 1, ThreadsPerBlock: 512, Release: 3}, `gpu: kernel 1 ("late"): Release = 3: must be 0 (thesis assumption 3, released together)`},
	}
	for _, tc := range cases {
		err := ThesisAssumptions(bigSM, []Kernel{k, tc.second})
		if err == nil || err.Error() != tc.want {
			t.Errorf("got %v\nwant %s", err, tc.want)
		}
		// BlockRTA accepts all of them
		if _, err := BlockRTA(bigSM, []Kernel{k, tc.second}); err != nil {
			t.Errorf("BlockRTA rejects %+v: %v", tc.second, err)
		}
	}
	err := ThesisAssumptions(TX2(), []Kernel{{Name: "w", BlockTime: 1, Blocks: 1, ThreadsPerBlock: 32}})
	if want := `gpu: kernel 0 ("w"): ThreadsPerBlock = 32: is charged 64 threads by the warp, block-count, shared-memory or register limits (thesis counts threads only)`; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestCheckDeadlines(t *testing.T) {
	ks := thesisExample()
	ks[2].Period = 11 // f3 = 12 > 11
	f, _ := BlockRTA(bigSM, ks)
	err := CheckDeadlines(ks, f)
	var de *DeadlineError
	if !errors.As(err, &de) || de.Index != 2 || de.Response != 12 {
		t.Fatalf("got %v", err)
	}
	if want := `gpu: 2 ("tau3"): response 12 exceeds period 11`; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

// thesisClosedForm is the closed form exactly as the thesis writes it
// (α = (sgn(g-gf)+1)/2 with integer division, K = floor(|g-gf|/gmax)).
func thesisClosedForm(gmax, c int64, g []int64) []int64 {
	var f []int64
	ta, gf := int64(0), gmax
	for _, gi := range g {
		d := gi - gf
		sgn := int64(0)
		if d > 0 {
			sgn = 1
		} else if d < 0 {
			sgn = -1
		}
		alpha := (sgn + 1) / 2
		ad := max(d, -d)
		kk := ad / gmax
		ta = ta + alpha*c + kk*c
		gf = alpha*gmax - (gi - gf - kk*gmax)
		f = append(f, ta+c)
	}
	return f
}

func TestEqualBlockTimeClosedForm(t *testing.T) {
	// gmax = 8, C = 5. a fits: f = 5, gf = 6. b = 14 blocks: 6 at 0, the
	// remaining r = 8 = gmax in one wave at 5: f = 10. The thesis's literal
	// form has K = floor(8/8) = 1 and gives f = 15.
	ks := []Kernel{
		{Name: "a", BlockTime: 5, Blocks: 2, ThreadsPerBlock: 512},
		{Name: "b", BlockTime: 5, Blocks: 14, ThreadsPerBlock: 512},
	}
	want := []int64{5, 10}
	got, err := EqualBlockTimeRTA(bigSM, ks)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("closed form: %v, %v, want %v", got, err, want)
	}
	got, _ = BlockRTA(bigSM, ks)
	if !slices.Equal(got, want) {
		t.Errorf("BlockRTA: %v, want %v", got, want)
	}
	if lit := thesisClosedForm(8, 5, []int64{2, 14}); lit[1] != 15 {
		t.Errorf("thesis literal form gives %v, expected the off-by-one 15", lit)
	}
	// when r is not a multiple of gmax both forms agree
	if lit := thesisClosedForm(8, 5, []int64{2, 13}); lit[1] != 10 {
		t.Errorf("thesis literal form, r = 7: %v", lit)
	}

	// rejections
	bad := []struct {
		ks   []Kernel
		want string
	}{
		{[]Kernel{ks[0], {Name: "c", BlockTime: 6, Blocks: 1, ThreadsPerBlock: 512}}, `gpu: kernel 1 ("c"): BlockTime = 6: the closed form needs equal block times (kernel 0 has 5)`},
		{[]Kernel{ks[0], {Name: "c", BlockTime: 5, Blocks: 1, ThreadsPerBlock: 256}}, `gpu: kernel 1 ("c"): ThreadsPerBlock = 256: the closed form needs one effective block size (kernel 0 has 512 threads, this one 256)`},
		{[]Kernel{ks[0], {Name: "c", BlockTime: 5, Blocks: 1, ThreadsPerBlock: 512, Release: 1}}, `gpu: kernel 1 ("c"): Release = 1: the closed form needs equal release times (kernel 0 has 0)`},
	}
	for _, b := range bad {
		if _, err := EqualBlockTimeRTA(bigSM, b.ks); err == nil || err.Error() != b.want {
			t.Errorf("got %v\nwant %s", err, b.want)
		}
	}
}

// randKernels draws n kernels; sizes picks the block sizes.
func randKernels(rng *rand.Rand, n int, sizes []int, maxC int64, maxG int, maxRel int64) []Kernel {
	ks := make([]Kernel, n)
	for i := range ks {
		ks[i] = Kernel{
			Name:            string(rune('a' + i%26)),
			BlockTime:       1 + rng.Int64N(maxC),
			Blocks:          1 + rng.IntN(maxG),
			ThreadsPerBlock: sizes[rng.IntN(len(sizes))],
		}
		if maxRel > 0 {
			ks[i].Release = rng.Int64N(maxRel)
		}
	}
	return ks
}

func TestPropertyClosedFormAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s Scratch
	for it := range 3000 {
		dev := []Device{bigSM, TX2(), {SMs: 3, ThreadsPerSM: 1536, WarpSize: 32}}[it%3]
		n := 1 + rng.IntN(7)
		b := []int{64, 128, 192, 256, 512, 768, 1024}[rng.IntN(7)]
		ks := randKernels(rng, n, []int{b}, 1, 40, 0)
		c, rel := 1+rng.Int64N(20), rng.Int64N(5)
		for i := range ks {
			ks[i].BlockTime, ks[i].Release = c, rel
		}
		want, err := EqualBlockTimeRTA(dev, ks)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int64, n)
		if err := s.BlockRTA(dev, ks, got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%+v %+v: BlockRTA %v, closed form %v", dev, ks, got, want)
		}
	}
	// very large grids: the steady-state skip keeps this fast
	ks := []Kernel{
		{BlockTime: 3, Blocks: 1<<40 + 5, ThreadsPerBlock: 256},
		{BlockTime: 3, Blocks: 1<<35 + 1, ThreadsPerBlock: 256},
	}
	want, _ := EqualBlockTimeRTA(TX2(), ks)
	got, err := BlockRTA(TX2(), ks)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("large grids: %v %v, want %v", got, err, want)
	}
}

// TestPropertyBlockRTAInvariants: completion >= release + C, completion >=
// the previous kernel's dispatch, and at most the serial bound.
func TestPropertyBlockRTAInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var s Scratch
	for range 3000 {
		n := 1 + rng.IntN(8)
		ks := randKernels(rng, n, []int{32, 96, 128, 256, 384, 512, 1024}, 30, 60, 100)
		f := make([]int64, n)
		if err := s.BlockRTA(TX2(), ks, f); err != nil {
			t.Fatal(err)
		}
		serial, maxRel := int64(0), int64(0)
		for i, k := range ks {
			maxRel = max(maxRel, k.Release)
			serial += int64(k.Blocks) * k.BlockTime
			if f[i] < k.Release+k.BlockTime {
				t.Fatalf("%+v: f[%d] = %d < release + C", ks, i, f[i])
			}
			if f[i] > maxRel+serial {
				t.Fatalf("%+v: f[%d] = %d above the serial bound %d", ks, i, f[i], maxRel+serial)
			}
			iso := k.Release + ceilDiv(int64(k.Blocks), int64(TX2().Slots(k)))*k.BlockTime
			if f[i] < iso {
				t.Fatalf("%+v: f[%d] = %d below the isolated completion %d", ks, i, f[i], iso)
			}
		}
	}
}

// TestPropertyBlockRTAMonotone: the block recurrence is monotone (package
// documentation), so no completion time decreases when a block time, a
// block count, a block size or a release grows. (FIFO list scheduling with
// a fixed order has no such anomaly; the anomalies of real per-SM packing
// with mixed sizes are covered by the bound, see TestSimMixedSound.)
func TestPropertyBlockRTAMonotone(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sizes := []int{64, 128, 256, 384, 512, 1024}
	for range 3000 {
		n := 1 + rng.IntN(6)
		ks := randKernels(rng, n, sizes, 20, 40, 30)
		if rng.IntN(2) == 0 {
			for i := range ks {
				ks[i].ThreadsPerBlock = 256
			}
		}
		f0, err := BlockRTA(TX2(), ks)
		if err != nil {
			t.Fatal(err)
		}
		g := slices.Clone(ks)
		i := rng.IntN(n)
		switch rng.IntN(4) {
		case 0:
			g[i].BlockTime += 1 + rng.Int64N(5)
		case 1:
			g[i].Blocks += 1 + rng.IntN(5)
		case 2:
			g[i].Release += 1 + rng.Int64N(10)
		case 3:
			if j := slices.Index(sizes, g[i].ThreadsPerBlock); j+1 < len(sizes) {
				g[i].ThreadsPerBlock = sizes[j+1]
			}
		}
		f1, err := BlockRTA(TX2(), g)
		if err != nil {
			t.Fatal(err)
		}
		for j := range f0 {
			if f1[j] < f0[j] {
				t.Fatalf("%+v -> %+v: f[%d] %d -> %d", ks, g, j, f0[j], f1[j])
			}
		}
	}
}

// sortedReleases makes releases non-decreasing so that the simulator's EE
// queue order is the slice order.
func sortedReleases(ks []Kernel) {
	var r []int64
	for _, k := range ks {
		r = append(r, k.Release)
	}
	slices.Sort(r)
	for i := range ks {
		ks[i].Release = r[i]
	}
}

// TestSimUniformExact: with one block size, BlockRTA equals the per-SM
// simulation of the TX2 rules for every SM choice.
func TestSimUniformExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := range 1500 {
		dev := []Device{bigSM, TX2(), {SMs: 3, ThreadsPerSM: 1536, WarpSize: 32, MaxBlocksPerSM: 16}}[it%3]
		b := []int{32, 64, 100, 128, 256, 512, 768, 1024}[rng.IntN(8)]
		ks := randKernels(rng, 1+rng.IntN(6), []int{b}, 15, 50, 40)
		sortedReleases(ks)
		want, err := BlockRTA(dev, ks)
		if err != nil {
			t.Fatal(err)
		}
		pol := fitPolicy(it % int(numPolicies))
		got := simKernels(dev, ks, pol, rng, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("%+v policy %d %+v: sim %v, BlockRTA %v", dev, pol, ks, got, want)
		}
	}
}

// TestSimMixedSound: with mixed block sizes, shared memory and registers,
// and blocks that may run shorter than C, the simulated completion never
// exceeds BlockRTA's bound, for every SM choice.
func TestSimMixedSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tight := 0
	for it := range 3000 {
		dev := TX2()
		ks := randKernels(rng, 1+rng.IntN(6), []int{32, 64, 96, 128, 256, 320, 512, 640, 1024}, 15, 40, 30)
		for i := range ks {
			if rng.IntN(3) == 0 {
				ks[i].SharedMemPerBlock = rng.IntN(40 << 10)
			}
			if rng.IntN(3) == 0 {
				ks[i].RegistersPerBlock = rng.IntN(32768)
			}
		}
		sortedReleases(ks)
		bound, err := BlockRTA(dev, ks)
		if err != nil {
			t.Fatal(err)
		}
		var dur func(int64) int64
		if it%2 == 1 {
			dur = func(c int64) int64 { return 1 + rng.Int64N(c) }
		}
		got := simKernels(dev, ks, fitPolicy(it%int(numPolicies)), rng, dur)
		for i := range got {
			if got[i] > bound[i] {
				t.Fatalf("%+v policy %d: sim %v exceeds bound %v", ks, it%int(numPolicies), got, bound)
			}
			if got[i] == bound[i] {
				tight++
			}
		}
	}
	t.Logf("bound met with equality for %d kernels", tight)
}

// TestPerSMAnomaly: real per-SM packing with mixed block sizes is not
// monotone. On 2 SMs of 1024 threads with first-fit placement, making
// kernel a's blocks shorter (5 -> 4) makes kernel d finish later (17 -> 18):
//
//	C_a = 5: a fills SM0 until 5, b (768) and c1 share SM1; c2 joins SM1 at
//	         4; d (1024) gets SM0 at 5, 9, 13 and SM1 at 10: f_d = 17.
//	C_a = 4: SM0 and SM1 free up at 4 except c1 on SM1; first fit puts c2
//	         on SM0, so neither SM is empty until 6: d at 6, 10, 10, 14: 18.
//
// BlockRTA's bound is monotone and above both (19 and 18).
func TestPerSMAnomaly(t *testing.T) {
	dev := Device{SMs: 2, ThreadsPerSM: 1024}
	ks := []Kernel{
		{Name: "a", BlockTime: 5, Blocks: 4, ThreadsPerBlock: 256},
		{Name: "b", BlockTime: 4, Blocks: 1, ThreadsPerBlock: 768},
		{Name: "c", BlockTime: 6, Blocks: 2, ThreadsPerBlock: 256},
		{Name: "d", BlockTime: 4, Blocks: 4, ThreadsPerBlock: 1024},
	}
	shorter := slices.Clone(ks)
	shorter[0].BlockTime = 4
	s0 := simKernels(dev, ks, firstFit, nil, nil)
	s1 := simKernels(dev, shorter, firstFit, nil, nil)
	if s0[3] != 17 || s1[3] != 18 {
		t.Fatalf("simulated f_d = %d, %d; want 17, 18", s0[3], s1[3])
	}
	b0, _ := BlockRTA(dev, ks)
	b1, _ := BlockRTA(dev, shorter)
	if !slices.Equal(b0, []int64{5, 9, 11, 19}) || !slices.Equal(b1, []int64{4, 8, 10, 18}) {
		t.Errorf("bounds %v, %v", b0, b1)
	}
	for i := range b0 {
		if s0[i] > b0[i] || s1[i] > b1[i] || s1[i] > b0[i] {
			t.Errorf("kernel %d: simulated %d, %d above the bounds %d, %d", i, s0[i], s1[i], b0[i], b1[i])
		}
	}
}
