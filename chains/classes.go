package chains

import (
	"math"
	"math/bits"
)

// The class method: the job-level values of Analyze and Eval without
// enumerating the jobs of a hyperperiod. The package doc (section "The class
// method") derives it and says why it equals the enumeration of maxForward
// and maxBackward, which stays the reference (the property tests compare the
// two) and what WorstChain uses.

// maxSplitMembers bounds the chains for which every member is considered as
// the split; longer chains choose between the two ends (the plain walks), so
// that planning needs no allocation.
const maxSplitMembers = 16

// classSplit says how the class method evaluates a chain: the member k it
// splits the chain at, the number of classes of k's jobs that the prefix
// (members 0..k) and the suffix (members k..n−1) tell apart, and the
// moduli of the closed forms of a one-hop side. It depends on the periods
// only.
type classSplit struct {
	k int
	// p = lcm(T0..Tk)/Tk and s = lcm(Tk..Tn−1)/Tk: the prefix value of
	// k's job j depends on j mod p only, the suffix value on j mod s only.
	p, s int64
	// g = gcd(p, s): the job indices ≡ a (mod p) and ≡ b (mod s) exist
	// exactly when a ≡ b (mod g), so the maximum of the sum is the maximum
	// over ρ mod g of the two sides' maxima over the indices ≡ ρ (mod g).
	g int64
	// gPre = gcd(g·Tk, T0) for k = 1 and gSuf = gcd(g·Tk, Tn−1) for
	// k = n−2: the moduli of the closed forms of a one-hop side.
	gPre, gSuf int64
}

// moduli fills g, gPre and gSuf from k, p and s, given dPre = gcd(T0, T1)
// (used when k = 1) and dSuf = gcd(Tn−2, Tn−1) (used when k = n−2). With
// T0 = dPre·a and T1 = dPre·b, gcd(a, b) = 1 and a = lcm(T0, T1)/T1 = p,
// so gcd(g·T1, T0) = dPre·gcd(g·b, a) = dPre·gcd(g, p) = dPre·g, since g
// divides p; likewise gSuf = dSuf·g, since g divides s.
func (sp *classSplit) moduli(n int, dPre, dSuf int64) {
	if sp.p == 1 || sp.s == 1 {
		sp.g = 1
	} else {
		sp.g = gcd(sp.p, sp.s)
	}
	if sp.k == 1 {
		sp.gPre = dPre * sp.g
	}
	if sp.k == n-2 {
		sp.gSuf = dSuf * sp.g
	}
}

// steps returns the number of hops and closed forms the class method spends
// on a chain of n ≤ maxSplitMembers members split at member k with p and s
// classes (see classSplit): min(p, s) residues (a bound on g; each costs a
// closed form or bookkeeping), plus p walks of k hops when the prefix has
// two hops or more, plus s walks of n−1−k hops when the suffix has.
func steps(n, k int, p, s int64) uint64 {
	c := uint64(min(p, s))
	if k >= 2 {
		c += mulCap(uint64(p), uint64(k))
	}
	if rest := n - 1 - k; rest >= 2 {
		c += mulCap(uint64(s), uint64(rest))
	}
	return c
}

// mulCap returns min(a·b, 2^62) for b < 16. With the cap, a count of steps
// (at most three such terms) stays below 2^64; only comparisons use it,
// and beyond 2^62 steps no method is practical anyway.
func mulCap(a, b uint64) uint64 {
	if a >= 1<<58 {
		return 1 << 62
	}
	return min(a*b, 1<<62)
}

// mulAtLeast reports whether a·b ≥ c·d, in 128-bit arithmetic.
func mulAtLeast(a, b, c, d uint64) bool {
	hi1, lo1 := bits.Mul64(a, b)
	hi2, lo2 := bits.Mul64(c, d)
	return hi1 > hi2 || hi1 == hi2 && lo1 >= lo2
}

// planPeriods computes the hyperperiod H of a validated chain, the numbers
// of jobs of its first and last member per H and the class method's split
// (the member with the fewest steps, the first among equals) into pl. It
// returns false when H does not fit in an int64. No allocation.
//
// Cost: the n−1 LCMs of H, taken from the last member back so that they
// give every member's s; lcm(T0, T1) for member 1, free when T1 is a
// multiple of every later period (it is then H, and the suffix pass has
// found gcd(T0, T1)); then the prefix LCMs lcm(T0..Tk) only as far as a
// member could still beat the fewest steps so far. As lcm(T0..Tk) only
// grows with k, the LCM so far over Tk bounds p from below, and a
// multiplication rules most members out without their LCM.
func planPeriods(ms []Member, pl *plan) bool {
	n := len(ms)
	if n > maxSplitMembers {
		h, ok := ms[0].Period, true
		for i := 1; i < n && ok; i++ {
			h, _, _, ok = lcmParts(h, ms[i].Period)
		}
		if !ok {
			return false
		}
		pl.hyper, pl.n1, pl.nm = h, h/ms[0].Period, h/ms[n-1].Period
		// The two ends: the walk over the first member's jobs, each
		// n−1 hops, and the one over the last member's.
		pl.split = classSplit{k: 0, p: 1, s: pl.n1}
		if pl.nm < pl.n1 {
			pl.split = classSplit{k: n - 1, p: pl.nm, s: 1}
		}
		pl.split.moduli(n, 0, 0) // k is neither 1 nor n−2 here
		return true
	}
	// The suffix LCMs lcm(Tk..Tn−1), from the last member back; the last of
	// them is H.
	var suffix [maxSplitMembers]int64 // lcm(Tk..Tn−1)/Tk
	suffix[n-1] = 1
	l, dSuf, d01 := ms[n-1].Period, int64(0), int64(0)
	for k := n - 2; k >= 0; k-- {
		var ok bool
		if l, suffix[k], d01, ok = lcmParts(l, ms[k].Period); !ok {
			return false
		}
		if k == n-2 {
			dSuf = d01 // gcd(Tn−1, Tn−2)
		}
	}
	// d01 = gcd(lcm(T1..Tn−1), T0) now.
	h := l
	pl.hyper, pl.n1, pl.nm = h, suffix[0], h/ms[n-1].Period
	pl.split = classSplit{k: 0, p: 1, s: suffix[0]}
	best := steps(n, 0, 1, suffix[0])
	var dPre int64
	if n >= 2 {
		// Member 1: p = lcm(T0, T1)/T1.
		var pre, p int64
		if suffix[1] == 1 {
			// T1 = lcm(T1..Tn−1): lcm(T0, T1) = H and gcd(T0, T1) = d01,
			// so p = H/T1 = T0/d01.
			pre, p, dPre = h, ms[0].Period/d01, d01
		} else {
			pre, p, dPre, _ = lcmParts(ms[0].Period, ms[1].Period)
		}
		if c := steps(n, 1, p, suffix[1]); c < best {
			pl.split, best = classSplit{k: 1, p: p, s: suffix[1]}, c
		}
		// Members 2..: pre = lcm(T0..Texact) ≤ lcm(T0..Tk).
		exact := 1
		for k := 2; k < n; k++ {
			t := ms[k].Period
			var sufSteps uint64
			if rest := n - 1 - k; rest >= 2 {
				sufSteps = mulCap(uint64(suffix[k]), uint64(rest))
			}
			// steps(k) ≥ (pre/Tk)·k + sufSteps; skip k when that is ≥ best.
			if sufSteps >= best || best <= 1<<62 && mulAtLeast(uint64(pre), uint64(k), best-sufSteps, uint64(t)) {
				continue
			}
			for exact < k {
				exact++
				pre, p, _, _ = lcmParts(pre, ms[exact].Period)
			}
			if c := steps(n, k, p, suffix[k]); c < best {
				pl.split, best = classSplit{k: k, p: p, s: suffix[k]}, c
			}
		}
	}
	pl.split.moduli(n, dPre, dSuf)
	return true
}

// mod returns x mod m in [0, m) for m > 0.
func mod(x, m int64) int64 {
	r := x % m
	if r < 0 {
		r += m
	}
	return r
}

// extreme is what the class method computes.
type extreme uint8

const (
	// longestForward: the longest forward job chain (reaction latency from
	// activation).
	longestForward extreme = iota
	// longestBackward: the longest backward job chain (data age).
	longestBackward
	// shortest: the shortest forward job chain, which is also the shortest
	// backward one (package doc, "Minima").
	shortest
)

// The four walks start at the job of member k released at u and follow the
// hop delays h. For the longest forward job chains:
//
//   - reactionPrefix returns u − r, r the release of the earliest job of
//     member 0 whose forward job chain reaches member k at u or later;
//   - reactionSuffix returns the write of the last job of the forward job
//     chain from u, minus u.
//
// For the longest backward job chains:
//
//   - agePrefix returns u − the release of the first job of the backward job
//     chain from u;
//   - ageSuffix returns the write of the latest job of the last member whose
//     backward job chain reaches member k at u or earlier, minus u.
//
// The shortest job chains take agePrefix, which is also u − the release of
// the latest job of member 0 whose forward job chain reaches member k at u
// or earlier, and reactionSuffix, which is also the write of the earliest
// job of the last member whose backward job chain reaches member k at u or
// later, minus u (package doc, "Minima").

func reactionPrefix(ms []Member, h *hops, k int, u int64) int64 {
	x := u
	for i := k - 1; i >= 0; i-- {
		m := &ms[i]
		// The forward hop from m's job at r reaches ms[i+1] at x or later
		// exactly when r + δi > x − T(i+1), the previous job of ms[i+1].
		x = firstAtOrAfter(x-ms[i+1].Period-h.at(ms, i)+1, m.Offset, m.Period)
	}
	return u - x
}

func reactionSuffix(ms []Member, h *hops, k int, u int64) int64 {
	x := u
	for i := k + 1; i < len(ms); i++ {
		m := &ms[i]
		x = firstAtOrAfter(x+h.at(ms, i-1), m.Offset, m.Period)
	}
	return x + h.end - u
}

func agePrefix(ms []Member, h *hops, k int, u int64) int64 {
	x := u
	for i := k - 1; i >= 0; i-- {
		m := &ms[i]
		x = lastAtOrBefore(x-h.at(ms, i), m.Offset, m.Period)
	}
	return u - x
}

func ageSuffix(ms []Member, h *hops, k int, u int64) int64 {
	x := u
	for i := k + 1; i < len(ms); i++ {
		prev, m := &ms[i-1], &ms[i]
		// The backward hop from m's job at v reaches prev at x or earlier
		// exactly when v − δ(i−1) < x + T(prev), prev's next job.
		x = lastAtOrBefore(x+prev.Period+h.at(ms, i-1)-1, m.Offset, m.Period)
	}
	return x + h.end - u
}

// better returns the better of two candidates for ex: the larger for the
// longest chains, the smaller for the shortest.
func better(ex extreme, a, b int64) int64 {
	if ex == shortest {
		return min(a, b)
	}
	return max(a, b)
}

// worst is the starting value of a search for ex's best candidate.
func worst(ex extreme) int64 {
	if ex == shortest {
		return math.MaxInt64
	}
	return math.MinInt64
}

// prefixBest returns the best (by ex) prefix value over the jobs of member
// k whose index is ≡ rho (mod g): zero without a hop, a closed form for one
// hop, the best of p/g walks otherwise.
func (sp *classSplit) prefixBest(ms []Member, h *hops, ex extreme, rho int64) int64 {
	k := sp.k
	mk := &ms[k]
	u0 := mk.Offset + rho*mk.Period // the class is u0 + i·g·Tk, i ∈ ℤ
	switch k {
	case 0:
		return 0
	case 1:
		// Over the class, (x − i·g·Tk) mod T0 takes every value in [0, T0)
		// that is ≡ x (mod gPre), gPre = gcd(g·Tk, T0): the smallest is
		// x mod gPre, the largest that + T0 − gPre.
		m0 := &ms[0]
		d0 := h.at(ms, 0)
		switch ex {
		case longestForward:
			// u − firstAtOrAfter(u − c, O0, T0) = c − (O0 − u + c) mod T0
			// with c = Tk + δ0 − 1.
			c := mk.Period + d0 - 1
			return c - mod(m0.Offset-u0+c, sp.gPre)
		case longestBackward:
			// u − lastAtOrBefore(u − δ0, O0, T0) = δ0 + (u − δ0 − O0) mod T0.
			return d0 + mod(u0-d0-m0.Offset, sp.gPre) + m0.Period - sp.gPre
		default:
			return d0 + mod(u0-d0-m0.Offset, sp.gPre)
		}
	}
	best := worst(ex)
	for j := rho; j < sp.p; j += sp.g {
		u := mk.Offset + j*mk.Period
		if ex == longestForward {
			best = max(best, reactionPrefix(ms, h, k, u))
		} else {
			best = better(ex, best, agePrefix(ms, h, k, u))
		}
	}
	return best
}

// suffixBest is prefixBest for the suffix value (reactionSuffix or
// ageSuffix).
func (sp *classSplit) suffixBest(ms []Member, h *hops, ex extreme, rho int64) int64 {
	k, n := sp.k, len(ms)
	mk, ml := &ms[k], &ms[n-1]
	u0 := mk.Offset + rho*mk.Period
	switch k {
	case n - 1:
		return h.end
	case n - 2:
		// As in prefixBest, with gSuf = gcd(g·Tk, Tn−1).
		dk, el := h.at(ms, k), h.end
		switch ex {
		case longestBackward:
			// lastAtOrBefore(u + c, On−1, Tn−1) − u = c − (u + c − On−1) mod Tn−1
			// with c = Tk + δk − 1.
			c := mk.Period + dk - 1
			return c + el - mod(u0+c-ml.Offset, sp.gSuf)
		case longestForward:
			// firstAtOrAfter(u + δk, On−1, Tn−1) − u = δk + (On−1 − u − δk) mod Tn−1.
			return dk + el + mod(ml.Offset-u0-dk, sp.gSuf) + ml.Period - sp.gSuf
		default:
			return dk + el + mod(ml.Offset-u0-dk, sp.gSuf)
		}
	}
	best := worst(ex)
	for j := rho; j < sp.s; j += sp.g {
		u := mk.Offset + j*mk.Period
		if ex == longestBackward {
			best = max(best, ageSuffix(ms, h, k, u))
		} else {
			best = better(ex, best, reactionSuffix(ms, h, k, u))
		}
	}
	return best
}

// byClasses returns, for a validated chain under the hop delays h, the longest
// forward job chain (the reaction latency from activation), the longest
// backward job chain (the maximum data age) or the shortest job chain,
// as ex says: equal to maxForward, maxBackward and the shortest job chain
// over one hyperperiod.
func byClasses(ms []Member, h *hops, ex extreme, sp *classSplit) int64 {
	best := worst(ex)
	for rho := range sp.g {
		best = better(ex, best, sp.prefixBest(ms, h, ex, rho)+sp.suffixBest(ms, h, ex, rho))
	}
	return best
}
