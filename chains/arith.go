package chains

import "math"

// addOK returns a+b and whether the sum fits in an int64. Both operands are
// non-negative wherever it is used.
func addOK(a, b int64) (int64, bool) {
	if b > 0 && a > math.MaxInt64-b {
		return 0, false
	}
	if b < 0 && a < math.MinInt64-b {
		return 0, false
	}
	return a + b, true
}

// gcd returns the greatest common divisor of two positive integers.
func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// lcmOK returns lcm(a, b) for positive a, b and whether it fits in an int64.
func lcmOK(a, b int64) (int64, bool) {
	q := a / gcd(a, b)
	if q > math.MaxInt64/b {
		return 0, false
	}
	return q * b, true
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
