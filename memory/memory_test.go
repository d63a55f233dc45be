package memory

import (
	"errors"
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// TestWorkedExample checks the challenge's worked example: an A57 task reads
// 128 B = 2 lines; with #C = 0, bGPU = 0 the read takes 2·20 ns = 40 ns, with
// one interfering core 2·(20+20) ns = 80 ns.
func TestWorkedExample(t *testing.T) {
	lines, err := Lines(128, DefaultLineSize)
	if err != nil || lines != 2 {
		t.Fatalf("Lines(128, 64) = %d, %v; want 2", lines, err)
	}
	for _, tc := range []struct {
		cores int
		want  int64 // ps
	}{
		{0, 40_000}, // 2·20 ns
		{1, 80_000}, // 2·(20+20) ns
	} {
		p, err := RunnablePhases(lines, 0, 0, 2_000_000_000, LineLatency(A57(), tc.cores, false))
		if err != nil {
			t.Fatal(err)
		}
		if p.Read != tc.want || p.Total() != tc.want {
			t.Errorf("#C=%d: read phase %d ps, want %d ps", tc.cores, p.Read, tc.want)
		}
	}
}

func TestLineLatency(t *testing.T) {
	for _, tc := range []struct {
		name  string
		p     CoreParams
		cores int
		ce    bool
		want  int64 // ps
	}{
		{"A57 idle", A57(), 0, false, 20_000},               // 20
		{"A57 5 cores", A57(), 5, false, 120_000},           // 20 + 5·20
		{"A57 CE", A57(), 0, true, 120_000},                 // 20 + 100
		{"A57 worst", A57(), 5, true, 220_000},              // 20 + 5·20 + 100
		{"Denver idle", Denver(), 0, false, 8_000},          // 8
		{"Denver 1 core", Denver(), 1, false, 10_000},       // 8 + 2
		{"Denver CE", Denver(), 0, true, 28_000},            // 8 + 20
		{"Denver worst", Denver(), 5, true, 38_000},         // 8 + 5·2 + 20
		{"negative cores as 0", Denver(), -3, false, 8_000}, // documented clamp
		{"saturates", CoreParams{math.MaxInt64, 1, 1}, 2, true, math.MaxInt64},
	} {
		if got := LineLatency(tc.p, tc.cores, tc.ce); got != tc.want {
			t.Errorf("%s: LineLatency = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestCopyEngine(t *testing.T) {
	ce := TX2CopyEngine()
	for _, tc := range []struct {
		cores int
		want  int64 // ps
	}{
		{0, 3_000}, // 3 ns
		{1, 3_500}, // 3 + 0.5
		{3, 4_500}, // 3 + 3·0.5
		{6, 6_000}, // 3 + 6·0.5
	} {
		if got := CopyLineLatency(ce, tc.cores); got != tc.want {
			t.Errorf("CopyLineLatency(#C=%d) = %d, want %d", tc.cores, got, tc.want)
		}
	}
	// A 1 MiB copy is 16384 lines; with #C = 2 each takes 4 ns: 65.536 µs.
	got, err := CopyTime(ce, 1<<20/64, 2)
	if err != nil || got != 65_536_000 {
		t.Errorf("CopyTime = %d, %v; want 65536000", got, err)
	}
	if _, err := CopyTime(ce, -1, 0); !errors.Is(err, ErrNegative) {
		t.Errorf("CopyTime(-1 lines) error = %v, want ErrNegative", err)
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct {
		size, line, want int64
		err              error
	}{
		{0, 64, 0, nil},
		{1, 64, 1, nil},
		{64, 64, 1, nil},
		{65, 64, 2, nil},
		{128, 64, 2, nil},
		{142_000_000, 64, 2_218_750, nil}, // exactly divisible
		{100, 32, 4, nil},
		{math.MaxInt64, 64, math.MaxInt64/64 + 1, nil},
		{-1, 64, 0, ErrNegative},
		{10, 0, 0, ErrLineSize},
		{10, -64, 0, ErrLineSize},
	} {
		got, err := Lines(tc.size, tc.line)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Lines(%d, %d) = %d, %v; want %d, %v", tc.size, tc.line, got, err, tc.want, tc.err)
		}
	}
}

func TestTicksToPicos(t *testing.T) {
	for _, tc := range []struct {
		ticks, f, want int64
		err            error
	}{
		{3, 2_000_000_000, 1_500, nil},                        // 3 · 500 ps, exact
		{1, 1_500_000_000, 667, nil},                          // 666.67 ps rounded up
		{2, 1_500_000_000, 1_334, nil},                        // 1333.33 rounded up
		{3, 1_500_000_000, 2_000, nil},                        // exact
		{0, 1_500_000_000, 0, nil},                            // copies have no ticks
		{5000, 2_000_000_000, 2_500_000, nil},                 // AsyncOffloadingCosts: 2.5 µs
		{1_000_000_000, 1, 0, ErrOverflow},                    // 1e21 ps does not fit
		{1_000_000_000, 10_000_000_000, 100_000_000_000, nil}, // 0.1 s at 10 GHz
		{math.MaxInt64, math.MaxInt64, PicosPerSecond, nil},
		{-1, 2_000_000_000, 0, ErrNegative},
		{1, 0, 0, ErrFrequency},
		{1, -5, 0, ErrFrequency},
	} {
		got, err := TicksToPicos(tc.ticks, tc.f)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("TicksToPicos(%d, %d) = %d, %v; want %d, %v", tc.ticks, tc.f, got, err, tc.want, tc.err)
		}
	}
}

func TestRunnablePhases(t *testing.T) {
	// Denver, #C = 1, bGPU = 1: 8 + 2 + 20 = 30 ns per line. Reads 3 lines
	// (90 ns), 1000 ticks at 2 GHz (500 ns), writes 2 lines (60 ns).
	lat := LineLatency(Denver(), 1, true)
	p, err := RunnablePhases(3, 2, 1000, 2_000_000_000, lat)
	if err != nil {
		t.Fatal(err)
	}
	want := Phases{Read: 90_000, Execute: 500_000, Write: 60_000}
	if p != want || p.Total() != 650_000 {
		t.Errorf("RunnablePhases = %+v (total %d), want %+v (total 650000)", p, p.Total(), want)
	}
	for _, tc := range []struct {
		r, w, ticks, f, lat int64
		err                 error
	}{
		{-1, 0, 0, 1, 1, ErrNegative},
		{0, -1, 0, 1, 1, ErrNegative},
		{0, 0, -1, 1, 1, ErrNegative},
		{0, 0, 0, 1, -1, ErrNegative},
		{0, 0, 1, 0, 1, ErrFrequency},
		{math.MaxInt64, 0, 0, 1, 2, ErrOverflow},
		{math.MaxInt64 / 2, math.MaxInt64 / 2, 0, 1, 1, nil},
		{math.MaxInt64 / 2, math.MaxInt64 / 2, 2, PicosPerSecond, 1, ErrOverflow},
	} {
		_, err := RunnablePhases(tc.r, tc.w, tc.ticks, tc.f, tc.lat)
		if !errors.Is(err, tc.err) {
			t.Errorf("RunnablePhases(%d, %d, %d, %d, %d) error = %v, want %v", tc.r, tc.w, tc.ticks, tc.f, tc.lat, err, tc.err)
		}
	}
}

func TestValidate(t *testing.T) {
	if A57().Validate() != nil || Denver().Validate() != nil || TX2CopyEngine().Validate() != nil {
		t.Error("challenge parameters must be valid")
	}
	if (CoreParams{Baseline: 1, PerCore: -1}).Validate() == nil {
		t.Error("negative PerCore accepted")
	}
	if (CopyEngineParams{Baseline: -1}).Validate() == nil {
		t.Error("negative copy-engine baseline accepted")
	}
}

// TestMonotone checks with seeded random parameters that more interfering
// cores and an active copy engine never lower a latency.
func TestMonotone(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 10000; i++ {
		p := CoreParams{rng.Int63n(1e6), rng.Int63n(1e6), rng.Int63n(1e6)}
		if i%100 == 0 {
			p = CoreParams{rng.Int63(), rng.Int63(), rng.Int63()} // saturation
		}
		ce := CopyEngineParams{p.Baseline, p.PerCore}
		c := rng.Intn(64)
		for _, b := range []bool{false, true} {
			if LineLatency(p, c+1, b) < LineLatency(p, c, b) {
				t.Fatalf("%+v: #C=%d→%d lowered the latency", p, c, c+1)
			}
		}
		if LineLatency(p, c, true) < LineLatency(p, c, false) {
			t.Fatalf("%+v: bGPU lowered the latency", p)
		}
		if LineLatency(p, c, false) < p.Baseline {
			t.Fatalf("%+v: latency below baseline", p)
		}
		if CopyLineLatency(ce, c+1) < CopyLineLatency(ce, c) {
			t.Fatalf("%+v: #C=%d→%d lowered the copy latency", ce, c, c+1)
		}
	}
}

// TestNoAllocs checks that the evaluation path does not allocate, also on
// the error path.
func TestNoAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		lat := LineLatency(A57(), 3, true)
		_, _ = RunnablePhases(10, 5, 12345, 1_500_000_000, lat)
		_, _ = RunnablePhases(-1, 5, 12345, 0, lat)
		_, _ = CopyTime(TX2CopyEngine(), 100, 2)
		_, _ = TicksToPicos(7, 0)
	})
	if allocs != 0 {
		t.Errorf("evaluation path allocates %.1f times per run", allocs)
	}
}

// ceilRef is the reference ceil(ticks·1e12/f) computed with math/big.
func ceilRef(ticks, f int64) *big.Int {
	num := new(big.Int).Mul(big.NewInt(ticks), big.NewInt(PicosPerSecond))
	den := big.NewInt(f)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func FuzzTicksToPicos(f *testing.F) {
	f.Add(int64(3), int64(2_000_000_000))
	f.Add(int64(1), int64(1_500_000_000))
	f.Add(int64(1_000_000_000), int64(10_000_000_000))
	f.Add(int64(-1), int64(0))
	f.Add(int64(math.MaxInt64), int64(1))
	f.Fuzz(func(t *testing.T, ticks, freq int64) {
		got, err := TicksToPicos(ticks, freq)
		switch {
		case ticks < 0:
			if !errors.Is(err, ErrNegative) {
				t.Fatalf("negative ticks: %v", err)
			}
		case freq <= 0:
			if !errors.Is(err, ErrFrequency) {
				t.Fatalf("bad frequency: %v", err)
			}
		default:
			want := ceilRef(ticks, freq)
			if !want.IsInt64() {
				if !errors.Is(err, ErrOverflow) {
					t.Fatalf("TicksToPicos(%d, %d) = %d, %v; want overflow", ticks, freq, got, err)
				}
			} else if err != nil || got != want.Int64() {
				t.Fatalf("TicksToPicos(%d, %d) = %d, %v; want %s", ticks, freq, got, err, want)
			}
		}
	})
}

func FuzzRunnablePhases(f *testing.F) {
	f.Add(int64(2), int64(1), int64(3), int64(2_000_000_000), int64(1), true)
	f.Add(int64(-1), int64(0), int64(0), int64(0), int64(-5), false)
	f.Fuzz(func(t *testing.T, r, w, ticks, freq, cores int64, ce bool) {
		params := []CoreParams{A57(), Denver(), {r, w, ticks}}
		for _, p := range params {
			lat := LineLatency(p, int(cores), ce)
			if lat < 0 {
				t.Fatalf("negative latency %d", lat)
			}
			ph, err := RunnablePhases(r, w, ticks, freq, lat)
			if err != nil {
				if ph != (Phases{}) {
					t.Fatalf("non-zero phases %+v with error %v", ph, err)
				}
				continue
			}
			if ph.Read < 0 || ph.Write < 0 || ph.Execute < 0 || ph.Total() < ph.Read {
				t.Fatalf("invalid phases %+v", ph)
			}
			rr := new(big.Int).Mul(big.NewInt(r), big.NewInt(lat))
			if rr.Cmp(big.NewInt(ph.Read)) != 0 {
				t.Fatalf("read %d, want %s", ph.Read, rr)
			}
		}
		cl := CopyLineLatency(CopyEngineParams{r, w}, int(cores))
		if cl < 0 {
			t.Fatalf("negative copy latency %d", cl)
		}
		_, _ = CopyTime(CopyEngineParams{r, w}, ticks, int(cores))
		_, _ = Lines(r, w)
	})
}

func BenchmarkRunnablePhases(b *testing.B) {
	b.ReportAllocs()
	var sink int64
	for i := 0; i < b.N; i++ {
		lat := LineLatency(A57(), i&7, i&1 == 0)
		p, _ := RunnablePhases(int64(i&15), 3, 123457, 1_500_000_000, lat)
		sink += p.Total()
	}
	_ = sink
}
