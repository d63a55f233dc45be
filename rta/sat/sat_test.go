package sat

import (
	"math"
	"math/big"
	"testing"
)

const (
	maxI = math.MaxInt64
	minI = math.MinInt64
)

func TestAdd(t *testing.T) {
	for _, c := range []struct{ a, b, want int64 }{
		{0, 0, 0},
		{2, 3, 5},
		{-2, 3, 1},
		{-2, -3, -5},
		{maxI, 0, maxI},
		{maxI - 1, 1, maxI},
		{maxI, 1, maxI},
		{maxI, maxI, maxI},
		{1 << 62, 1 << 62, maxI}, // 2^63
		{1<<62 - 1, 1 << 62, maxI},
		{maxI, -1, maxI - 1},
		{maxI, minI, -1},
		{minI, 0, minI},
		{minI + 1, -1, minI},
		{minI, -1, minI},
		{minI, minI, minI},
		{-1 << 62, -1<<62 - 1, minI},
		{minI, maxI, -1},
	} {
		if got := Add(c.a, c.b); got != c.want {
			t.Errorf("Add(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Add(c.b, c.a); got != c.want {
			t.Errorf("Add(%d, %d) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestSub(t *testing.T) {
	for _, c := range []struct{ a, b, want int64 }{
		{0, 0, 0},
		{5, 3, 2},
		{3, 5, -2},
		{-3, -5, 2},
		{maxI, 1, maxI - 1},
		{maxI, -1, maxI},
		{0, minI, maxI}, // 2^63
		{-1, minI, maxI},
		{1, minI, maxI},
		{maxI, minI, maxI},
		{minI, 1, minI},
		{minI + 1, 1, minI},
		{minI, maxI, minI},
		{-2, maxI, minI},
		{-1, maxI, minI},
		{minI, minI, 0},
		{maxI, maxI, 0},
	} {
		if got := Sub(c.a, c.b); got != c.want {
			t.Errorf("Sub(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestMul(t *testing.T) {
	for _, c := range []struct{ a, b, want int64 }{
		{0, 0, 0},
		{0, maxI, 0},
		{0, minI, 0},
		{3, 7, 21},
		{-3, 7, -21},
		{-3, -7, 21},
		{1, maxI, maxI},
		{-1, maxI, -maxI},
		{1, minI, minI},
		{-1, minI, maxI}, // 2^63
		{2, 1 << 62, maxI},
		{2, 1<<62 - 1, maxI - 1},
		{-2, 1 << 62, minI}, // −2^63 fits
		{-2, 1<<62 + 1, minI},
		{1 << 32, 1 << 31, maxI}, // 2^63
		{1 << 32, 1<<31 - 1, 1<<63 - 1<<32},
		{1 << 32, 1 << 32, maxI},
		{3037000499, 3037000499, 9223372030926249001}, // ⌊√(2^63−1)⌋²
		{3037000500, 3037000500, maxI},
		{-3037000500, 3037000500, minI},
		{maxI, maxI, maxI},
		{minI, minI, maxI},
		{maxI, minI, minI},
		{math.MaxInt32, math.MaxInt32, 4611686014132420609},
	} {
		if got := Mul(c.a, c.b); got != c.want {
			t.Errorf("Mul(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Mul(c.b, c.a); got != c.want {
			t.Errorf("Mul(%d, %d) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestMulDiv(t *testing.T) {
	for _, c := range []struct{ a, b, c, want int64 }{
		{0, 0, 1, 0},
		{7, 3, 2, 10}, // 21/2
		{7, 3, 3, 7},
		{7, 3, 22, 0},
		{-7, 3, 2, -11}, // ⌊−10.5⌋
		{7, -3, 2, -11},
		{7, 3, -2, -11},
		{-7, -3, -2, -11},
		{-7, -3, 2, 10},
		{-7, 3, 3, -7},
		{-1, 1, 2, -1},
		{0, -5, -3, 0},
		{maxI, maxI, maxI, maxI},
		{maxI, 2, 2, maxI},
		{maxI, 2, 1, maxI},
		{maxI, 2, 3, 6148914691236517204}, // ⌊(2^64−2)/3⌋
		{1 << 62, 4, 2, maxI},             // 2^63
		{1 << 62, 4, 3, 6148914691236517205},
		{1 << 62, -4, 2, minI}, // −2^63 fits
		{1 << 62, -4, 1, minI},
		{1<<62 + 1, -4, 2, minI},
		{minI, 1, 1, minI},
		{minI, 1, -1, maxI},
		{minI, -1, 1, maxI},
		{minI, minI, minI, minI},
		{minI, minI, maxI, maxI},
		{minI, maxI, maxI, minI},
		{minI, maxI, minI, maxI},
		{maxI, maxI, minI, -maxI}, // ⌊−(2^63−1)²/2^63⌋ = ⌊−(2^63 − 2 + 2^−63)⌋
		{1 << 40, 1 << 40, 1 << 20, 1 << 60},
		{1 << 40, 1 << 40, 1 << 17, maxI}, // 2^63
		{1 << 40, 1 << 40, -1 << 17, minI},
		{1 << 40, 1 << 40, -1<<17 + 1, minI},
		{1 << 40, 1 << 40, 1<<17 + 1, 9223301668647464960}, // ⌊2^80/(2^17+1)⌋
	} {
		if got := MulDiv(c.a, c.b, c.c); got != c.want {
			t.Errorf("MulDiv(%d, %d, %d) = %d, want %d", c.a, c.b, c.c, got, c.want)
		}
	}
}

func TestMulDivByZero(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MulDiv(1, 1, 0) did not panic")
		}
	}()
	MulDiv(1, 1, 0)
}

// TestNonNegative checks the functions on non-negative operands against the
// implementations they replaced (the comparison with math.MaxInt64 − b and
// the 128-bit product), which the analyses relied on for that domain.
func TestNonNegative(t *testing.T) {
	oldAdd := func(a, b int64) int64 {
		if a > math.MaxInt64-b {
			return math.MaxInt64
		}
		return a + b
	}
	oldMul := func(a, b int64) int64 {
		if a == 0 || b == 0 {
			return 0
		}
		if a > math.MaxInt64/b {
			return math.MaxInt64
		}
		return a * b
	}
	vals := []int64{0, 1, 2, 3, 1<<31 - 1, 1 << 31, 1 << 32, 3037000499, 3037000500, 1<<62 - 1, 1 << 62, 1<<62 + 1, maxI - 1, maxI}
	for _, a := range vals {
		for _, b := range vals {
			if got, want := Add(a, b), oldAdd(a, b); got != want {
				t.Errorf("Add(%d, %d) = %d, want %d", a, b, got, want)
			}
			if got, want := Mul(a, b), oldMul(a, b); got != want {
				t.Errorf("Mul(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}

var (
	bigMax = big.NewInt(math.MaxInt64)
	bigMin = big.NewInt(math.MinInt64)
)

// clamp returns x clamped to the int64 range.
func clamp(x *big.Int) int64 {
	switch {
	case x.Cmp(bigMax) > 0:
		return math.MaxInt64
	case x.Cmp(bigMin) < 0:
		return math.MinInt64
	}
	return x.Int64()
}

func FuzzArithmetic(f *testing.F) {
	for _, s := range [][3]int64{
		{0, 0, 1}, {maxI, 1, 1}, {minI, -1, -1}, {maxI, maxI, 2}, {minI, minI, minI},
		{1 << 62, 2, 3}, {-7, 3, 2}, {3037000500, 3037000500, -1}, {1 << 32, 1 << 31, maxI},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c int64) {
		x, y := big.NewInt(a), big.NewInt(b)
		if got, want := Add(a, b), clamp(new(big.Int).Add(x, y)); got != want {
			t.Errorf("Add(%d, %d) = %d, want %d", a, b, got, want)
		}
		if got, want := Sub(a, b), clamp(new(big.Int).Sub(x, y)); got != want {
			t.Errorf("Sub(%d, %d) = %d, want %d", a, b, got, want)
		}
		p := new(big.Int).Mul(x, y)
		if got, want := Mul(a, b), clamp(p); got != want {
			t.Errorf("Mul(%d, %d) = %d, want %d", a, b, got, want)
		}
		if c == 0 {
			return
		}
		// big.Int's Div rounds so that the remainder is non-negative: for
		// a positive divisor, towards −∞. Move the sign to the dividend.
		d := big.NewInt(c)
		if c < 0 {
			p.Neg(p)
			d.Neg(d)
		}
		if got, want := MulDiv(a, b, c), clamp(new(big.Int).Div(p, d)); got != want {
			t.Errorf("MulDiv(%d, %d, %d) = %d, want %d", a, b, c, got, want)
		}
	})
}
