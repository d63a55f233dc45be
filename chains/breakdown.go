package chains

// Hop is one job of a worst-case job chain. Write is Release + LET interval
// under LET and Release + WCRT (the latest write) under implicit
// communication. The job reads at its release, except on an ordered hop
// (package doc, "Same-core hops"), where it reads after its producer wrote:
// Read is then the later of its release and the producer's Write.
type Hop struct {
	// Member is the index of the job's task in the chain.
	Member int
	// Release is the job's release time on the periodic time line of the
	// members' offsets, shifted by a multiple of the hyperperiod so that the
	// chain's first release lies in [0, hyperperiod).
	Release int64
	// Read is when the job reads its input in the bound's model.
	Read int64
	// Write is the time the job's output is (at the latest) written.
	Write int64
	// Wait is Read − the previous hop's Write: how long the data waits to
	// be sampled by this job (0 for the first hop).
	Wait int64
}

// Response is Write − Release: WCRT (implicit) or the LET interval.
func (h Hop) Response() int64 { return h.Write - h.Release }

// Span is Write − Read: the part of the chain's length this job adds after
// its read (its Response, less what passed between its release and its
// producer's write on an ordered hop).
func (h Hop) Span() int64 { return h.Write - h.Read }

// Breakdown is the worst job chain of one metric, split into its hops:
// Length = Lead + Σ (Wait + Span) over Hops = the metric's value.
type Breakdown struct {
	Paradigm Paradigm
	Metric   Metric
	// Lead is T1 for MaxReactionTime (the event arrives just after the
	// previous read of τ1) and 0 otherwise.
	Lead int64
	// Length is the metric's value, equal to the one Analyze reports.
	Length int64
	// Hops has one entry per member, in chain order.
	Hops []Hop
}

// WorstChain returns the worst job chain of a metric under a paradigm (job
// level, members released at their offsets): the forward chain for the two
// reaction metrics, the backward chain for data age; among equal lengths the
// first in the hyperperiod. Hops are written into buf[:0] (append), so it
// does not allocate when cap(buf) ≥ len(members). On a non-OK status it
// returns the Result (with the Reason) and an empty Breakdown. Cost: the
// class method's value, then job enumeration for one paradigm and one
// direction up to the first job chain that attains it (the class method
// gives the value but not the job chain), at most one hyperperiod.
func WorstChain(members []Member, opts Options, p Paradigm, m Metric, buf []Hop) (Breakdown, Result) {
	var r Result
	var pl plan
	prepare(members, opts, &r, &pl)
	anyOffsets(members, &r)
	b := Breakdown{Paradigm: p, Metric: m, Hops: buf[:0]}
	if r.Values(p, AtOffsets).Status != OK {
		return b, r
	}
	md := upper
	if p == LET {
		md = letModel
	}
	var hs hops
	hs.set(members, md)
	n := len(members)
	for range n {
		b.Hops = append(b.Hops, Hop{})
	}
	if m == MaxDataAge {
		// The backward chain, from its last job to its first.
		_, t := maxBackward(members, &hs, pl.nm, byClasses(members, &hs, longestBackward, &pl.split))
		for k := n - 1; k >= 0; k-- {
			mk := &members[k]
			if k < n-1 {
				t = lastAtOrBefore(t-hs.at(members, k), mk.Offset, mk.Period)
			}
			b.Hops[k] = Hop{Member: k, Release: t}
		}
	} else {
		// The forward chain, from its first job to its last.
		_, t := maxForward(members, &hs, pl.n1, byClasses(members, &hs, longestForward, &pl.split))
		for k := range n {
			mk := &members[k]
			if k > 0 {
				t = firstAtOrAfter(t+hs.at(members, k-1), mk.Offset, mk.Period)
			}
			b.Hops[k] = Hop{Member: k, Release: t}
		}
		if m != ReactionFromActivation { // MaxReactionTime (and, like Values.Get, any unknown metric)
			b.Lead = members[0].Period
		}
	}
	// Shift by a multiple of the hyperperiod so the chain starts in [0, H),
	// and place the reads and writes.
	shift := lastAtOrBefore(b.Hops[0].Release, 0, pl.hyper)
	for k := range b.Hops {
		h := &b.Hops[k]
		h.Release -= shift
		h.Read = h.Release
		h.Write = h.Release + md.end(&members[k])
		if k > 0 {
			prev := &b.Hops[k-1]
			if md == upper && ordered(&members[k-1], &members[k]) {
				h.Read = max(h.Read, prev.Write)
			}
			h.Wait = h.Read - prev.Write
		}
	}
	b.Length = b.Lead + b.Hops[n-1].Write - b.Hops[0].Release
	return b, r
}
