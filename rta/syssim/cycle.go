package syssim

import "encoding/binary"

// cycleFinder remembers the memory state of the clients in a memory phase
// at the instants since the last external event (see skipCycles).
type cycleFinder struct {
	phases []int64 // the memory phases (access.phase, 0: none) the history is about
	until  int64   // the next external event when the history was last extended
	seen   map[string]int
	snaps  []cycleSnapshot
	key    []byte
}

// cycleSnapshot is the progress of the clients at an instant: the lines
// not yet started and the contention of their jobs.
type cycleSnapshot struct {
	t          int64
	left, cont []int64
}

const maxCycleHistory = 4096

// skipCycles makes the Request mode fast where it steps access by access.
// Between two external events (nextExternal) the memory clients evolve
// deterministically from their state: which clients are in a phase and,
// for each, the time its active access has left, the clients charged to it
// and those its request has delayed. If that state, taken after settle, is
// the same at an instant t2 as at an earlier instant t1 of the same
// stretch, the evolution repeats with the period P = t2 − t1 for as long as
// no external event comes and no client runs out of lines, every period
// starting the same number of accesses of each client and adding the same
// contention. skipCycles then jumps k whole periods at once: the largest k
// that leaves every client's lines at or above 0 and ends before the next
// external event. The result is that of stepping every access
// (TestPropertyBatchingIsExact).
func (m *sim) skipCycles() {
	f := &m.cycles
	ext := m.nextExternal()
	in := 0
	same := len(f.phases) == len(m.cl)
	for p, a := range m.cl {
		var ph int64
		if a != nil {
			in++
			ph = a.phase
		}
		if same && f.phases[p] != ph {
			same = false
		}
	}
	if in < 2 {
		f.phases = f.phases[:0]
		return
	}
	if !same || m.now >= f.until || len(f.snaps) >= maxCycleHistory {
		f.phases = f.phases[:0]
		for _, a := range m.cl {
			var ph int64
			if a != nil {
				ph = a.phase
			}
			f.phases = append(f.phases, ph)
		}
		clear(f.seen)
		f.snaps = f.snaps[:0]
	}
	f.until = ext
	if f.seen == nil {
		f.seen = map[string]int{}
	}
	f.key = f.key[:0]
	for _, a := range m.cl {
		if a == nil {
			continue
		}
		f.key = binary.AppendVarint(f.key, a.end-m.now)
		f.key = binary.AppendUvarint(f.key, a.charged)
		f.key = binary.AppendUvarint(f.key, a.used)
		f.key = binary.AppendVarint(f.key, int64(a.cores))
	}
	i, ok := f.seen[string(f.key)]
	if !ok {
		snap := cycleSnapshot{t: m.now, left: make([]int64, len(m.cl)), cont: make([]int64, len(m.cl))}
		for p, a := range m.cl {
			if a != nil {
				snap.left[p], snap.cont[p] = a.left, m.res.Jobs[a.rec].Contention
			}
		}
		f.seen[string(f.key)] = len(f.snaps)
		f.snaps = append(f.snaps, snap)
		return
	}
	prev := &f.snaps[i]
	period := m.now - prev.t
	if period <= 0 {
		return
	}
	k := (ext - m.now - 1) / period // the jump must end before the next external event
	for p, a := range m.cl {
		if a == nil {
			continue
		}
		started := prev.left[p] - a.left
		if started <= 0 {
			return
		}
		k = min(k, a.left/started)
	}
	if k <= 0 {
		return
	}
	t := m.now + k*period
	m.advanceLanes(t)
	for p, a := range m.cl {
		if a == nil {
			continue
		}
		a.end += k * period
		a.left -= k * (prev.left[p] - a.left)
		c := &m.res.Jobs[a.rec].Contention
		*c += k * (*c - prev.cont[p])
	}
	m.now = t
	m.res.skips++
	clear(f.seen)
	f.snaps = f.snaps[:0]
}
