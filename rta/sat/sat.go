// Package sat is hetmap's saturating int64 arithmetic: sums, differences,
// products and scaled quotients that clamp to [math.MinInt64,
// math.MaxInt64] instead of wrapping around. The analyses use
// math.MaxInt64 as "no bound" (rta.Infinity, an unbounded count), so a
// bound that overflows becomes no bound rather than a small or negative
// number.
//
// Every function returns the exact mathematical result when it fits in an
// int64, math.MaxInt64 when the exact result is larger and math.MinInt64
// when it is smaller, for all int64 operands, negative ones included. The
// analyses call them with non-negative operands (times, counts of lines,
// jobs and phases), for which the results are never negative.
//
// The package imports nothing of the module, and every package of it may
// import it (internal/layering places it in layer 0): it sits under rta,
// below every package that uses it (configs, memory, rta and its
// subpackages, optimizer/evaluate). The functions do not
// allocate, and Add, Sub and Mul are small enough to be inlined.
package sat

import (
	"math"
	"math/bits"
)

// Add returns a+b, saturating at math.MaxInt64 and math.MinInt64.
func Add(a, b int64) int64 {
	s := a + b
	if (s^a)&(s^b) < 0 { // a and b have the same sign, and s the other one
		return clampSign(a >= 0)
	}
	return s
}

// Sub returns a−b, saturating at math.MaxInt64 and math.MinInt64.
func Sub(a, b int64) int64 {
	d := a - b
	if (a^b)&(d^a) < 0 { // a and b differ in sign, and d has b's
		return clampSign(a >= 0)
	}
	return d
}

// Mul returns a·b, saturating at math.MaxInt64 (a positive product that does
// not fit) and math.MinInt64 (a negative one). The product is formed in 128
// bits, without a division.
func Mul(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	// The signed high word: the unsigned one less b where a < 0 and less a
	// where b < 0 (two's complement). The product fits in an int64 exactly
	// when the high word is the sign extension of the low one.
	h := int64(hi) - (a>>63)&b - (b>>63)&a
	if h != int64(lo)>>63 {
		return clampSign(a^b >= 0)
	}
	return int64(lo)
}

// MulDiv returns ⌊a·b/c⌋, the quotient rounded towards −∞ (as math/big's
// Div does for c > 0, and unlike Go's / for a negative quotient), with the
// product formed in 128 bits, so that only a quotient beyond int64
// saturates: at math.MaxInt64 when it is positive, at math.MinInt64 when
// it is negative. It panics when c is 0, as an integer division does.
func MulDiv(a, b, c int64) int64 {
	if c == 0 {
		panic("sat: MulDiv: division by zero")
	}
	neg := (a < 0) != (b < 0) != (c < 0)
	hi, lo := bits.Mul64(abs(a), abs(b))
	uc := abs(c)
	if hi >= uc { // the quotient of the magnitudes needs more than 64 bits
		return clampSign(!neg)
	}
	q, r := bits.Div64(hi, lo, uc)
	if !neg || (q == 0 && r == 0) {
		if q > math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(q)
	}
	// A negative quotient: −q, one less where c did not divide a·b.
	if q > 1<<63 || (q == 1<<63 && r != 0) {
		return math.MinInt64
	}
	if r != 0 {
		q++
	}
	return -int64(q) // q = 2^63 gives math.MinInt64, as wanted
}

// abs returns |x| as a uint64; |math.MinInt64| = 2^63 fits.
func abs(x int64) uint64 {
	if x < 0 {
		return -uint64(x)
	}
	return uint64(x)
}

// clampSign returns math.MaxInt64 for a positive overflow, else
// math.MinInt64.
func clampSign(positive bool) int64 {
	if positive {
		return math.MaxInt64
	}
	return math.MinInt64
}
