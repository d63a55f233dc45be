package chains

// model says where the jobs of a chain read and write in one computation of
// job-level values (package doc, "Job-level values", "Same-core hops" and
// "Minima"). The computations only differ in δk, the hop delay of member k
// toward member k+1, and in the write of the last member after its
// release:
//
//   - a forward hop from the job of member k released at r goes to the
//     first job of member k+1 released at or after r + δk;
//   - a backward hop from the job of member k+1 released at r goes to the
//     last job of member k released at or before r − δk.
type model uint8

const (
	// upper: implicit communication, upper bounds. Reads at release, writes
	// at release + WCRT; δk = WCRT, or the producer's jitter on an ordered
	// hop.
	upper model = iota
	// letModel: LET. Reads at release, writes at release + LET interval:
	// δk = LET interval.
	letModel
	// lower: implicit communication, lower bounds. δk = the producer's
	// earliest write minus the latest read of the consumer's job after its
	// arrival; the last member writes at its earliest.
	lower
)

// ordered reports whether the hop from p to its consumer c is ordered by
// priority (package doc, "Same-core hops"): both on one unit, p of higher
// priority and not suspending. A job of c released at or after p's job
// then reads after p's job has written.
func ordered(p, c *Member) bool {
	return p.Unit != 0 && p.Unit == c.Unit && p.Rank < c.Rank && !p.Suspends
}

// bestWrite is a lower bound on the time from a job's arrival to its
// write: BCRT, or BCET when larger (a job cannot finish sooner after its
// arrival than after its start).
func (m *Member) bestWrite() int64 { return max(m.BCRT, m.BCET) }

// readSlack is the latest read of a job of c after its arrival, as the
// reader of producer p: it starts by WCRT − BCET. A reader of higher
// priority than p on p's unit reads p's value only when released after p
// wrote, hence by its jitter.
func readSlack(p, c *Member) int64 {
	s := c.WCRT - c.BCET
	if c.Unit != 0 && c.Unit == p.Unit && c.Rank < p.Rank {
		s = min(s, c.Jitter)
	}
	return s
}

// hop returns δk for the hop from ms[k] to ms[k+1].
func (md model) hop(ms []Member, k int) int64 {
	p := &ms[k]
	switch md {
	case letModel:
		return p.letInterval()
	case lower:
		return p.bestWrite() - readSlack(p, &ms[k+1])
	}
	if ordered(p, &ms[k+1]) {
		return p.Jitter
	}
	return p.WCRT
}

// end returns the write of a job of the last member after its release.
func (md model) end(m *Member) int64 {
	switch md {
	case letModel:
		return m.letInterval()
	case lower:
		return m.bestWrite()
	}
	return m.WCRT
}

// hops are a model's hop delays for one chain, computed once per
// computation rather than at every hop: δk for the first maxSplitMembers
// hops (those of a longer chain when asked), and the write of a job of the
// last member after its release.
type hops struct {
	md  model
	d   [maxSplitMembers]int64
	end int64
}

// set fills h with model md's delays for chain ms (model.hop, with the
// switch on the model taken once).
func (h *hops) set(ms []Member, md model) {
	h.md = md
	n := min(len(ms)-1, maxSplitMembers)
	switch md {
	case letModel:
		for k := range n {
			h.d[k] = ms[k].letInterval()
		}
	case lower:
		for k := range n {
			h.d[k] = ms[k].bestWrite() - readSlack(&ms[k], &ms[k+1])
		}
	default:
		for k := range n {
			p := &ms[k]
			h.d[k] = p.WCRT
			if ordered(p, &ms[k+1]) {
				h.d[k] = p.Jitter
			}
		}
	}
	h.end = md.end(&ms[len(ms)-1])
}

// at returns δk, the delay of the hop from ms[k] to ms[k+1].
func (h *hops) at(ms []Member, k int) int64 {
	if k < maxSplitMembers {
		return h.d[k]
	}
	return h.md.hop(ms, k)
}

// lowestLatency turns the shortest job chain of the lower model, from the
// release of its first job to the earliest write of its last, into the
// lower bound of MinReactionTime and MinDataAge: the first job reads at
// most WCRT1 − BCET1 after its release; and every job of a job chain writes
// at least its BCET after it read, which is after its producer wrote.
func lowestLatency(ms []Member, shortest int64) int64 {
	var sumE int64
	for i := range ms {
		sumE += ms[i].BCET
	}
	return max(shortest-(ms[0].WCRT-ms[0].BCET), sumE)
}

// Ordered reports whether the hop from member p to its consumer c is
// ordered by priority (package doc, "Same-core hops"), for reports.
func Ordered(p, c *Member) bool { return ordered(p, c) }
