package memory

import (
	"cmp"
	"math"
	"slices"

	"github.com/hetmap/hetmap/rta/sat"
)

// periodIndex gives an interferer's sums A(t) and Phases(t), and the
// interval of window lengths on which they hold, with O(log n) operations
// per period that at least minGroup of its n tasks share, rather than a
// few per task.
//
// For the tasks of one period T, write a task's response time as
// R_k = a_k·T + b_k with 0 ≤ b_k < T, and a window length t ≥ 0 as
// t = q·T − c with q = ceil(t/T) and 0 ≤ c < T. Then
//
//	η_k(t) = ceil((t + R_k)/T) = q + a_k + [b_k > c],
//
// so with the group's tasks sorted by b_k and the suffix sums of their
// lines and phases,
//
//	Σ_k η_k·lines(k) = q·Σ lines + Σ a_k·lines(k) + Σ_{b_k > c} lines(k),
//
// where the last sum is a suffix found by a binary search for c, and
// Phases(t) likewise. η_k steps where t ≡ −b_k (mod T), so the group's
// sums hold from the largest such point below t to the least one at or
// above it, which lie next to that binary search's position: q·T − b_i
// with b_i the least b above c (else (q−1)·T − b_0) and q·T − b_{i−1}
// with b_{i−1} the largest b at most c (else (q+1)·T − b_last). Each
// group keeps its q for the last t, and steps it by one period without a
// division when t moved by at most a period.
//
// The groups hold the tasks whose period is positive and at most
// maxIndexedPeriod, whose response time is at most maxIndexedResponse,
// and whose period at least minGroup such tasks share; the index answers
// for window lengths up to maxIndexed.
// Within those limits no η and no interval end saturates, so the values
// are those of Demand.Jobs and jobsInterval exactly; every sum saturates
// at math.MaxInt64 as the per-task sums do (all terms are non-negative,
// so the saturated sum is the same in any order). The Counter counts the
// other tasks (other) per task, and longer windows over every task.
type periodIndex struct {
	built bool
	// The index is built at the first refresh after it was invalidated,
	// unless the last builds in a row (wasted) found no period of
	// minGroup tasks: then at the 2^wasted-th (wasted ≤ maxWasted), so
	// that an interferer of distinct periods, which the index cannot
	// help, is rarely indexed in vain. misses counts the refreshes over
	// every task since the invalidation.
	misses, wasted int
	src            []Demand      // the tasks the index was built from
	groups         []periodGroup // one per period of at least minGroup tasks
	entries        []periodEntry // each group's tasks by increasing b, then a sentinel
	other          []int32       // the tasks outside the groups, counted per task
	// build's buffers: the tasks being sorted, each task's group (−1:
	// other) and the hash table from period to group (index + 1; 0: free).
	scratch []periodTask
	gid     []int32
	table   []int32
}

// periodGroup is the tasks of one period in periodIndex.
type periodGroup struct {
	period   int64
	first, n int   // the tasks are entries[first : first+n]; entries[first+n] is the sentinel
	q, top   int64 // the last t lay in (top − period, top], top = q·period
	// The group's sums for the last t and the interval (lo, hi] on which
	// they hold (empty until computed).
	lo, hi           int64
	requests, phases int64
	sumL, sumW       int64 // Σ lines(k), Σ (phases(k) + splits(k))
	aL, aW           int64 // Σ a_k·lines(k), Σ a_k·(phases(k) + splits(k))
}

// periodEntry is one task of a periodGroup: b = R mod T and the sums of
// the lines and of the phases plus splits of it and every later task of
// its group (the sentinel: 0).
type periodEntry struct {
	b          int64
	sufL, sufW int64
}

// periodTask is a task's key and weights while periodIndex sorts them.
type periodTask struct {
	b, a          int64
	lines, weight int64
}

// The limits of periodIndex: periods up to 2^60, response times and
// window lengths up to 2^61 ps (more than 26 days), so that t + R_k, η·T
// and the intervals' ends stay below 2^63.
const (
	maxIndexedPeriod   = 1 << 60
	maxIndexedResponse = 1 << 61
	maxIndexed         = 1 << 61
)

// minIndexed is the fewest tasks of an interferer for which the Counter
// builds a periodIndex: below, the per-task count costs less.
const minIndexed = 8

// minGroup is the fewest tasks of one period that periodIndex groups;
// the tasks of a rarer period are counted per task.
const minGroup = 2

// maxWasted bounds periodIndex.wasted.
const maxWasted = 5

// invalidate forgets the index (its buffers stay).
func (x *periodIndex) invalidate() { x.built, x.misses = false, 0 }

// check keeps the index for tasks if it was built from the same demands,
// and forgets it otherwise. It costs one comparison per task.
func (x *periodIndex) check(tasks []Demand) {
	if !x.built || !slices.Equal(x.src, tasks) {
		x.invalidate()
	}
}

// ready reports whether the index of tasks is built, building it at
// the first call since it was invalidated, or at the 2^wasted-th.
func (x *periodIndex) ready(tasks []Demand) bool {
	if x.built {
		return true
	}
	x.misses++
	if x.misses < 1<<x.wasted {
		return false
	}
	x.build(tasks)
	if len(x.groups) == 0 {
		x.wasted = min(x.wasted+1, maxWasted)
	} else {
		x.wasted = 0
	}
	return true
}

// build indexes tasks in O(n) expected time for n tasks plus the sorts
// of the groups by b (small groups cost an insertion sort each), without
// allocation once the buffers have grown. The tasks group by period in a
// hash table; a period that only one task has is left to the per-task
// count (other), where it costs no more.
func (x *periodIndex) build(tasks []Demand) {
	x.src = append(x.src[:0], tasks...)
	x.other, x.groups, x.gid = x.other[:0], x.groups[:0], x.gid[:0]
	bits := 1
	for 1<<bits < 2*len(tasks) {
		bits++
	}
	x.table = slices.Grow(x.table[:0], 1<<bits)[:1<<bits]
	clear(x.table)
	mask := uint64(1)<<bits - 1
	for k := range tasks {
		d := &tasks[k]
		if d.Period <= 0 || d.Period > maxIndexedPeriod || nonneg(d.Response) > maxIndexedResponse {
			x.gid = append(x.gid, -1)
			continue
		}
		h := uint64(d.Period) * 0x9e3779b97f4a7c15 >> (64 - bits)
		for {
			e := x.table[h]
			if e == 0 {
				x.groups = append(x.groups, periodGroup{period: d.Period, lo: 0, hi: -1})
				x.table[h] = int32(len(x.groups))
				e = int32(len(x.groups))
			}
			if g := &x.groups[e-1]; g.period == d.Period {
				g.n++
				x.gid = append(x.gid, e-1)
				break
			}
			h = (h + 1) & mask
		}
	}
	// Each group of at least minGroup tasks gets n + 1 entries, the last
	// its sentinel; the tasks are placed, counting n again.
	size := 0
	for gi := range x.groups {
		g := &x.groups[gi]
		if g.n < minGroup {
			g.first = -1
			continue
		}
		g.first, size, g.n = size, size+g.n+1, 0
	}
	x.scratch = slices.Grow(x.scratch[:0], size)[:size]
	for k, gi := range x.gid {
		if gi < 0 || x.groups[gi].first < 0 {
			x.other = append(x.other, int32(k))
			continue
		}
		g := &x.groups[gi]
		d := &tasks[k]
		r := nonneg(d.Response)
		x.scratch[g.first+g.n] = periodTask{b: r % d.Period, a: r / d.Period,
			lines: nonneg(d.Lines), weight: sat.Add(nonneg(d.Phases), nonneg(d.Splits))}
		g.n++
	}
	x.entries = slices.Grow(x.entries[:0], size)[:size]
	kept := x.groups[:0]
	for _, g := range x.groups {
		if g.first < 0 {
			continue
		}
		ts := x.scratch[g.first : g.first+g.n]
		slices.SortFunc(ts, func(p, q periodTask) int { return cmp.Compare(p.b, q.b) })
		x.entries[g.first+g.n] = periodEntry{b: math.MaxInt64}
		for m := g.n - 1; m >= 0; m-- {
			p := &ts[m]
			g.sumL, g.sumW = sat.Add(g.sumL, p.lines), sat.Add(g.sumW, p.weight)
			g.aL, g.aW = sat.Add(g.aL, sat.Mul(p.a, p.lines)), sat.Add(g.aW, sat.Mul(p.a, p.weight))
			x.entries[g.first+m] = periodEntry{b: p.b, sufL: g.sumL, sufW: g.sumW}
		}
		kept = append(kept, g)
	}
	x.groups = kept
	x.built = true
}

// sums returns, for a window length 0 ≤ t ≤ maxIndexed, the indexed
// tasks' Σ η_k·lines(k) and Σ η_k·(phases(k) + splits(k)) and the interval
// (lo, hi] around t on which every indexed η_k is constant (lo =
// math.MinInt64, hi = math.MaxInt64 without indexed tasks). It costs
// O(log n) per group, and a division for a group only where t moved by
// more than one period since the group's last call.
func (x *periodIndex) sums(t int64) (lo, hi, requests, phases int64) {
	lo, hi = math.MinInt64, math.MaxInt64
	for gi := range x.groups {
		g := &x.groups[gi]
		if t > g.lo && t <= g.hi {
			requests, phases = sat.Add(requests, g.requests), sat.Add(phases, g.phases)
			lo, hi = max(lo, g.lo), min(hi, g.hi)
			continue
		}
		p := g.period
		switch {
		case t <= g.top && t > g.top-p:
		case t > g.top && t <= g.top+p:
			g.q, g.top = g.q+1, g.top+p
		case t <= g.top-p && t > g.top-2*p:
			g.q, g.top = g.q-1, g.top-p
		default:
			g.q = (t + p - 1) / p
			g.top = g.q * p
		}
		c := g.top - t // 0 ≤ c < p
		es := x.entries[g.first : g.first+g.n+1]
		// i: the first task with b > c (the sentinel's b is above every c).
		i, j := 0, g.n
		for i < j {
			h := int(uint(i+j) >> 1)
			if es[h].b <= c {
				i = h + 1
			} else {
				j = h
			}
		}
		g.requests = sat.Add(mulAdd(g.aL, g.q, g.sumL), es[i].sufL)
		g.phases = sat.Add(mulAdd(g.aW, g.q, g.sumW), es[i].sufW)
		if i < g.n {
			g.lo = g.top - es[i].b
		} else {
			g.lo = g.top - p - es[0].b
		}
		if i > 0 {
			g.hi = g.top - es[i-1].b
		} else {
			g.hi = g.top + p - es[g.n-1].b
		}
		requests, phases = sat.Add(requests, g.requests), sat.Add(phases, g.phases)
		lo, hi = max(lo, g.lo), min(hi, g.hi)
	}
	return lo, hi, requests, phases
}
