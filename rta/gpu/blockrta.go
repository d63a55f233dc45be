package gpu

import (
	"errors"
	"fmt"
	"math"

	"github.com/hetmap/hetmap/rta/sat"
)

// maxTime bounds every time the block analysis computes: the serial bound
// max release + Σ g·C of a kernel list must stay below it, so that no sum in
// the analysis overflows.
const maxTime = math.MaxInt64 / 2

// event is a multiset element of the thesis's h: n blocks with u effective
// threads in total that finish (free their resources) at time t.
type event struct {
	t, n, u int64
}

// Scratch holds the buffers of the block-level analysis so that repeated
// calls do not allocate. The zero value is ready to use. A Scratch must not be
// used by two goroutines at once.
type Scratch struct {
	own   []event // blocks of the kernel being dispatched, ascending t
	other []event // blocks of kernels already fully dispatched, ascending t
	tmp   []event
	eff   []int64
	live  []int
}

// BlockRTA runs the block-level analysis on kernels in FIFO queue order and
// returns each kernel's completion time f_i (same order). Response = f_i -
// Release.
//
// With one block size (more precisely, one effective block size, see
// Device.EffectiveThreads) it is the thesis algorithm, exact for the TX2
// rules of Amert et al. (RTSS 2017); with mixed sizes it is a sound upper bound (see the
// package documentation). It allocates the result; Scratch.BlockRTA does not.
func BlockRTA(dev Device, kernels []Kernel) ([]int64, error) {
	var s Scratch
	f := make([]int64, len(kernels))
	if err := s.BlockRTA(dev, kernels, f); err != nil {
		return nil, err
	}
	return f, nil
}

// BlockRTA is the allocation-free form of the package function BlockRTA: it
// writes the completion times into f, which must have room for len(kernels)
// values. Once its buffers have grown to the problem size, it does not
// allocate.
func (s *Scratch) BlockRTA(dev Device, kernels []Kernel, f []int64) error {
	if len(f) < len(kernels) {
		return fmt.Errorf("gpu: BlockRTA: result slice has length %d, need %d", len(f), len(kernels))
	}
	uniform, err := s.validate(dev, kernels)
	if err != nil {
		return err
	}
	return s.run(dev, kernels, f[:len(kernels)], uniform)
}

func kernelErr(idx int, k *Kernel, field string, v int64, reason string) error {
	return &InputError{What: "kernel", Index: idx, Name: k.Name, Field: field, Value: v, Reason: reason}
}

// validate checks the device and kernels, fills s.eff and reports whether
// all kernels have the same effective block size.
func (s *Scratch) validate(dev Device, kernels []Kernel) (uniform bool, err error) {
	if err := dev.Validate(); err != nil {
		return false, err
	}
	s.eff = s.eff[:0]
	uniform = true
	var maxRel, work int64
	for i := range kernels {
		k := &kernels[i]
		switch {
		case k.BlockTime <= 0:
			return false, kernelErr(i, k, "BlockTime", k.BlockTime, "must be > 0")
		case k.Blocks <= 0:
			return false, kernelErr(i, k, "Blocks", int64(k.Blocks), "must be > 0")
		case k.Release < 0:
			return false, kernelErr(i, k, "Release", k.Release, "must be >= 0")
		case k.Period < 0:
			return false, kernelErr(i, k, "Period", k.Period, "must be >= 0 (0: no deadline)")
		}
		g := geometry{k.ThreadsPerBlock, k.SharedMemPerBlock, k.RegistersPerBlock}
		if err := dev.validateGeometry("kernel", i, k.Name, g); err != nil {
			return false, err
		}
		e := dev.effThreads(g)
		s.eff = append(s.eff, e)
		if e != s.eff[0] {
			uniform = false
		}
		maxRel = max(maxRel, k.Release)
		work = sat.Add(work, sat.Mul(int64(k.Blocks), k.BlockTime))
		if sat.Add(maxRel, work) >= maxTime {
			return false, kernelErr(i, k, "Blocks", int64(k.Blocks),
				"with this block time the serial work of the kernels up to here exceeds the int64 time range")
		}
	}
	return uniform, nil
}

var errInternal = errors.New("gpu: internal error: head block can never be placed")

// run is the thesis algorithm with the generalisations described in the
// package documentation. The multiset h is kept as two ascending lists of
// events: own (blocks of the kernel being dispatched) and other (blocks of
// kernels already fully dispatched). Pairs with equal times are merged.
func (s *Scratch) run(dev Device, kernels []Kernel, f []int64, uniform bool) error {
	sms, tps := int64(dev.SMs), int64(dev.ThreadsPerSM)
	s.own, s.other, s.live = s.own[:0], s.other[:0], s.live[:0]
	ownH, otherH := 0, 0
	var (
		run, used int64 // resident blocks and their effective threads
		ownN      int64 // resident blocks of the kernel being dispatched
		ta        int64 // earliest time the next block can be placed
	)
	// free pops every event at or before ta; it reports whether an event of
	// an earlier kernel was popped.
	free := func() bool {
		for ownH < len(s.own) && s.own[ownH].t <= ta {
			ev := s.own[ownH]
			run, used, ownN = run-ev.n, used-ev.u, ownN-ev.n
			ownH++
		}
		popped := false
		for otherH < len(s.other) && s.other[otherH].t <= ta {
			ev := s.other[otherH]
			run, used = run-ev.n, used-ev.u
			otherH++
			popped = true
		}
		return popped
	}
	for j := range kernels {
		k := &kernels[j]
		e, c, rem := s.eff[j], k.BlockTime, int64(k.Blocks)
		ta = max(ta, k.Release) // thesis note: next placement at max(ta, r_j)
		free()
		slots := s.slots(sms, tps, j, ta, f, uniform)
		cap1 := sms * (tps - e)
		for {
			// How many blocks of kernel j can be placed now, one after the
			// other: by the slot rule (fewer than slots resident) or by the
			// thread rule (used <= SMs·(TPS-e) leaves e free threads on
			// some SM). Both are prefix-closed, so the count is the max.
			avail := max(slots-run, 0)
			if used <= cap1 {
				avail = max(avail, (cap1-used)/e+1)
			}
			if avail >= rem { // the rest of kernel j fits now
				s.own, ownH = pushEvent(s.own, ownH, event{ta + c, rem, rem * e})
				run, used, ownN = run+rem, used+rem*e, ownN+rem
				f[j] = ta + c
				break
			}
			if avail > 0 { // place avail blocks now, the rest later
				s.own, ownH = pushEvent(s.own, ownH, event{ta + c, avail, avail * e})
				run, used, ownN = run+avail, used+avail*e, ownN+avail
				rem -= avail
				// Steady state: the resources are now exactly full, so until
				// an earlier kernel's blocks finish, each finishing group of
				// kernel j's blocks is replaced by as many new ones, C later.
				// Skip q such rounds at once (rem stays > 0 during them).
				q := (rem - 1) / ownN
				if otherH < len(s.other) {
					q = min(q, (s.other[otherH].t-1-ta)/c)
				}
				if q > 0 {
					d := q * c
					for i := ownH; i < len(s.own); i++ {
						s.own[i].t += d
					}
					ta += d
					rem -= q * ownN
				}
			}
			// (ta, gf) = the pair of h with the smallest time
			next := int64(math.MaxInt64)
			if ownH < len(s.own) {
				next = s.own[ownH].t
			}
			if otherH < len(s.other) {
				next = min(next, s.other[otherH].t)
			}
			if next == math.MaxInt64 {
				return errInternal // unreachable for validated input
			}
			ta = next
			if free() && !uniform {
				slots = s.slots(sms, tps, j, ta, f, uniform)
			}
		}
		// kernel j is fully dispatched: its blocks join the other events
		s.other, s.tmp = mergeEvents(s.tmp[:0], s.other[otherH:], s.own[ownH:]), s.other
		otherH, ownN = 0, 0
		s.own, ownH = s.own[:0], 0
		if !uniform {
			s.live = append(s.live, j)
		}
	}
	return nil
}

// slots returns how many blocks may be resident for the slot rule while
// kernel j is dispatched at time ta: SMs · floor(TPS / B), where B is the
// largest effective block size of kernel j and of every earlier kernel that
// may still have blocks running (f_i > ta). If fewer blocks than that are
// resident, some SM holds fewer than floor(TPS/B) blocks of at most B
// effective threads each, so it has B >= e_j free effective threads.
func (s *Scratch) slots(sms, tps int64, j int, ta int64, f []int64, uniform bool) int64 {
	b := s.eff[j]
	if !uniform {
		keep := s.live[:0]
		for _, i := range s.live {
			if f[i] > ta {
				keep = append(keep, i)
				b = max(b, s.eff[i])
			}
		}
		s.live = keep
	}
	return sms * (tps / b)
}

// pushEvent appends ev to the ascending list l[h:], merging equal times and
// compacting the consumed prefix when it dominates.
func pushEvent(l []event, h int, ev event) ([]event, int) {
	if len(l) > h && l[len(l)-1].t == ev.t {
		l[len(l)-1].n += ev.n
		l[len(l)-1].u += ev.u
		return l, h
	}
	if h > 0 && len(l) == cap(l) {
		n := copy(l, l[h:])
		l, h = l[:n], 0
	}
	return append(l, ev), h
}

// mergeEvents merges two ascending lists into dst, merging equal times.
func mergeEvents(dst, a, b []event) []event {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var ev event
		switch {
		case j == len(b) || (i < len(a) && a[i].t < b[j].t):
			ev, i = a[i], i+1
		case i == len(a) || b[j].t < a[i].t:
			ev, j = b[j], j+1
		default:
			ev = event{a[i].t, a[i].n + b[j].n, a[i].u + b[j].u}
			i, j = i+1, j+1
		}
		dst = append(dst, ev)
	}
	return dst
}

// EqualBlockTimeRTA is the thesis's closed form for kernels that all have the
// same block time C, the same effective block size and the same release
// time: the GPU then works in waves of length C, and h is not needed. It
// returns the same completion times as BlockRTA for such input (a property
// the tests check) and an error for any other input.
//
// The thesis writes K = floor(|g_i - gf| / gmax), ta' = ta + α·C + K·C,
// gf' = α·gmax - (g_i - gf - K·gmax). When the blocks left after filling gf,
// r = g_i - gf, are a multiple of gmax, that form places the last wave one C
// too late (f_i is C too large; the next state is equivalent). This function
// uses K = floor((r-1) / gmax), which is exact.
func EqualBlockTimeRTA(dev Device, kernels []Kernel) ([]int64, error) {
	var s Scratch
	if _, err := s.validate(dev, kernels); err != nil {
		return nil, err
	}
	f := make([]int64, len(kernels))
	if len(kernels) == 0 {
		return f, nil
	}
	k0 := &kernels[0]
	for i := 1; i < len(kernels); i++ {
		k := &kernels[i]
		switch {
		case k.BlockTime != k0.BlockTime:
			return nil, kernelErr(i, k, "BlockTime", k.BlockTime,
				fmt.Sprintf("the closed form needs equal block times (kernel 0 has %d)", k0.BlockTime))
		case s.eff[i] != s.eff[0]:
			return nil, kernelErr(i, k, "ThreadsPerBlock", int64(k.ThreadsPerBlock),
				fmt.Sprintf("the closed form needs one effective block size (kernel 0 has %d threads, this one %d)", s.eff[0], s.eff[i]))
		case k.Release != k0.Release:
			return nil, kernelErr(i, k, "Release", k.Release,
				fmt.Sprintf("the closed form needs equal release times (kernel 0 has %d)", k0.Release))
		}
	}
	c := k0.BlockTime
	gmax := int64(dev.SMs) * (int64(dev.ThreadsPerSM) / s.eff[0])
	ta, gf := k0.Release, gmax
	for i := range kernels {
		g := int64(kernels[i].Blocks)
		if r := g - gf; r <= 0 { // α = 0: fits at ta
			gf -= g
		} else { // α = 1: gf blocks at ta, then K full waves, then the rest
			waves := (r - 1) / gmax
			ta += c + waves*c
			gf = gmax - (r - waves*gmax)
		}
		f[i] = ta + c
	}
	return f, nil
}

// ThesisAssumptions reports the first way in which the input leaves the
// thesis's assumptions (one block size b for all kernels, ThreadsPerSM
// divisible by b so that the SMs act as one big SM, all kernels released at
// 0). BlockRTA does not need them; use this to hold input to the thesis's
// exact setting.
func ThesisAssumptions(dev Device, kernels []Kernel) error {
	var s Scratch
	if _, err := s.validate(dev, kernels); err != nil {
		return err
	}
	for i := range kernels {
		k := &kernels[i]
		switch {
		case dev.ThreadsPerSM%k.ThreadsPerBlock != 0:
			return kernelErr(i, k, "ThreadsPerBlock", int64(k.ThreadsPerBlock),
				fmt.Sprintf("does not divide the %d threads of an SM (thesis assumption 2, one big SM)", dev.ThreadsPerSM))
		case k.ThreadsPerBlock != kernels[0].ThreadsPerBlock:
			return kernelErr(i, k, "ThreadsPerBlock", int64(k.ThreadsPerBlock),
				fmt.Sprintf("differs from kernel 0's %d (thesis assumption 1, one block size)", kernels[0].ThreadsPerBlock))
		case s.eff[i] != int64(k.ThreadsPerBlock):
			return kernelErr(i, k, "ThreadsPerBlock", int64(k.ThreadsPerBlock),
				fmt.Sprintf("is charged %d threads by the warp, block-count, shared-memory or register limits (thesis counts threads only)", s.eff[i]))
		case k.Release != 0:
			return kernelErr(i, k, "Release", k.Release, "must be 0 (thesis assumption 3, released together)")
		}
	}
	return nil
}

// DeadlineError reports a kernel or task whose response exceeds its period.
type DeadlineError struct {
	Index    int
	Name     string
	Response int64
	Period   int64
}

func (e *DeadlineError) Error() string {
	return fmt.Sprintf("gpu: %d (%q): response %d exceeds period %d", e.Index, e.Name, e.Response, e.Period)
}

// CheckDeadlines compares each response f_i - Release with the kernel's
// period (deadline = period; Period 0 is not checked) and returns a
// *DeadlineError for the first kernel that misses it.
func CheckDeadlines(kernels []Kernel, f []int64) error {
	if len(f) < len(kernels) {
		return fmt.Errorf("gpu: CheckDeadlines: %d completion times for %d kernels", len(f), len(kernels))
	}
	for i := range kernels {
		k := &kernels[i]
		if r := f[i] - k.Release; k.Period > 0 && r > k.Period {
			return &DeadlineError{Index: i, Name: k.Name, Response: r, Period: k.Period}
		}
	}
	return nil
}
