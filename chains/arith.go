package chains

import (
	"math"
	"math/bits"
)

// gcd returns the greatest common divisor of two positive integers.
func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// lcmParts returns l = lcm(a, b) for positive a and b, together with
// l/b = a/gcd(a, b) and gcd(a, b), and whether l fits in an int64. One
// division when one number divides the other (harmonic periods), Euclid's
// steps and one more division otherwise; the overflow check multiplies.
func lcmParts(a, b int64) (l, perB, d int64, ok bool) {
	x, y := max(a, b), min(a, b)
	q := x / y
	r := x - q*y
	if r == 0 { // y divides x
		if a >= b {
			return a, q, b, true
		}
		return b, 1, a, true
	}
	x, y = y, r
	for {
		if r = x % y; r == 0 {
			break
		}
		x, y = y, r
	}
	d = y
	perB = a / d
	hi, lo := bits.Mul64(uint64(perB), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, 0, d, false
	}
	return int64(lo), perB, d, true
}

// firstAtOrAfter returns the release time of the first job of a periodic task
// (offset o, period t > 0) released at or after time x: the smallest
// o + j·t ≥ x over all integers j (the task is taken in its periodic steady
// state, so j may be negative). One integer division; no overflow as long as
// x−o and the result fit, which the caller guarantees.
func firstAtOrAfter(x, o, t int64) int64 {
	d := x - o
	q := (d / t) * t // truncated toward zero
	if q < d {
		q += t
	}
	return o + q
}

// lastAtOrBefore returns the release time of the last job of a periodic task
// (offset o, period t > 0) released at or before time x: the largest
// o + j·t ≤ x over all integers j.
func lastAtOrBefore(x, o, t int64) int64 {
	d := x - o
	q := (d / t) * t
	if q > d {
		q -= t
	}
	return o + q
}
