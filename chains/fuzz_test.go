package chains

import (
	"encoding/binary"
	"testing"
)

// FuzzAnalyze decodes up to six members from raw bytes (six int64 fields
// each: period, offset, BCRT, WCRT, LET, deadline, plus a flag byte: 7 in
// its low three bits marks the member unbounded, bits 3–4 give its unit,
// bits 5–6 its rank, bit 7 Suspends). Mode bit 0 folds the fields into
// small valid ranges, with a jitter and a BCET drawn from the offset and
// the deadline, so that most inputs are analysable; otherwise raw int64s
// exercise validation and overflow. Analyze
// must not panic, must not run long (MaxJobs is kept small), and every
// result must satisfy the invariants of checkInvariants.
func FuzzAnalyze(f *testing.F) {
	f.Add(uint8(1), []byte{10, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0})
	f.Add(uint8(0), make([]byte, 49*3))
	seed := make([]byte, 0, 49*3)
	for _, m := range handCases[4].ms {
		for _, v := range []int64{m.Period, m.Offset, m.BCRT, m.WCRT, m.LET, m.Deadline} {
			seed = binary.LittleEndian.AppendUint64(seed, uint64(v))
		}
		seed = append(seed, 0)
	}
	f.Add(uint8(0), seed)
	f.Add(uint8(1), seed)
	f.Fuzz(func(t *testing.T, mode uint8, data []byte) {
		var ms []Member
		for len(data) >= 8 && len(ms) < 6 {
			var v [6]int64
			for i := range v {
				if len(data) >= 8 {
					v[i] = int64(binary.LittleEndian.Uint64(data))
					data = data[8:]
				}
			}
			var flag byte
			if len(data) > 0 {
				flag, data = data[0], data[1:]
			}
			m := Member{Period: v[0], Offset: v[1], BCRT: v[2], WCRT: v[3], LET: v[4], Deadline: v[5],
				Unbounded: flag&7 == 7, Name: "m", Unit: int(flag>>3) & 3, Rank: int(flag>>5) & 3, Suspends: flag&128 != 0}
			if mode&1 != 0 {
				m.Period = 1 + int64(uint64(m.Period)%50)
				m.Offset = int64(uint64(m.Offset) % uint64(3*m.Period))
				m.WCRT = int64(uint64(m.WCRT) % uint64(m.Period+2)) // sometimes > T
				m.BCRT = int64(uint64(m.BCRT) % uint64(m.WCRT+1))
				m.LET = int64(uint64(m.LET) % uint64(m.Period+1))
				m.Jitter = int64(uint64(v[1]) % uint64(m.WCRT+1))
				m.BCET = int64(uint64(v[5]) % uint64(m.WCRT+1))
				m.Deadline = int64(uint64(m.Deadline) % uint64(2*m.Period+1))
			}
			ms = append(ms, m)
		}
		opts := Options{MaxJobs: 4096}
		r := Analyze(ms, opts)
		if r.Status != OK && r.Reason() == "" || r.Status == OK && r.Reason() != "" {
			t.Fatalf("status %v with reason %q", r.Status, r.Reason())
		}
		if r.Status > TooManyJobs || (r.Member < -1 || r.Member >= len(ms)) {
			t.Fatalf("bad status %v / member %d", r.Status, r.Member)
		}
		allOK := r.Implicit.Status == OK && r.LET.Status == OK && r.AnyOffset.Status == OK && r.AnyOffsetLET.Status == OK
		if allOK != (r.Status == OK) {
			t.Fatalf("top status %v but values %v %v %v %v", r.Status, r.Implicit.Status, r.LET.Status, r.AnyOffset.Status, r.AnyOffsetLET.Status)
		}
		if r.AnyOffset.Status == OK || r.Implicit.Status == OK {
			// Only fully validated chains get numbers.
			for _, m := range ms {
				if m.Unbounded || m.Period <= 0 || m.WCRT > m.deadline() || m.BCRT > m.WCRT || m.Jitter > m.WCRT || m.BCET > m.WCRT {
					t.Fatalf("number for invalid member %+v", m)
				}
			}
			checkInvariantsOpts(t, ms, &r, opts)
		}
	})
}
