package rta

import (
	"encoding/binary"
	"testing"
)

// decodeTasks turns fuzz bytes into a valid task set: the first byte picks
// a time scale (so that huge values near MaxTime are exercised too), then
// every 8 bytes describe one task.
func decodeTasks(data []byte) ([]Task, Limit) {
	if len(data) == 0 {
		return nil, LimitDeadline
	}
	scales := []int64{1, 1000, 1_000_000_000, 1 << 40, MaxTime / 256}
	scale := scales[int(data[0])%len(scales)]
	limit := Limit(data[0] / 8 % 3)
	data = data[1:]
	var ts []Task
	for len(data) >= 8 && len(ts) < 12 {
		b := data[:8]
		data = data[8:]
		t := (int64(b[0]) + 1) * scale
		d := t - frac(t, b[1]) // (0, T]
		c := frac(t, b[2])
		x := Task{C: c, T: t, D: max(d, 1), Priority: int(b[7] % 4)}
		if b[3]&1 != 0 {
			x.J = int64(b[3]) * scale / 16
		}
		if b[4]&1 != 0 {
			x.B = int64(b[4]) * scale / 16
		}
		if b[5]&1 != 0 {
			x.S = frac(t, b[5])
		}
		if b[6] == 255 { // an interferer that fills the core
			x.C = x.T
		}
		ts = append(ts, x)
	}
	return ts, limit
}

// frac returns about t·b/256 without overflow.
func frac(t int64, b byte) int64 { return t/256*int64(b) + t%256*int64(b)/256 }

func FuzzAnalyze(f *testing.F) {
	f.Add([]byte{0, 3, 0, 64, 0, 0, 0, 0, 1, 5, 0, 128, 0, 0, 0, 0, 2})
	f.Add([]byte{4, 9, 0, 100, 3, 0, 33, 0, 0, 11, 0, 100, 0, 0, 0, 0, 1})
	f.Add([]byte{2, 255, 0, 10, 1, 1, 99, 255, 0, 1, 0, 250, 1, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, limit := decodeTasks(data)
		for _, x := range ts {
			if err := x.Validate(); err != nil {
				t.Fatalf("decoder produced an invalid task: %v", err)
			}
		}
		a := Analyzer{Limit: limit}
		out := make([]Result, len(ts))
		for _, p := range allPolicies {
			ok, err := a.Analyze(p, ts, out)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, p, &a, ts, out, ok)
		}
	})
}

// FuzzResponseTime feeds arbitrary, also invalid, values: ResponseTime must
// not panic, must reject invalid input and must respect its invariants.
func FuzzResponseTime(f *testing.F) {
	f.Add(int64(3), int64(12), int64(12), int64(0), int64(0), int64(0), []byte{1, 4, 2, 6}, int64(12))
	f.Add(int64(-1), int64(0), int64(-5), int64(1), int64(2), int64(3), []byte{}, int64(-9))
	f.Fuzz(func(t *testing.T, c, p, d, j, b, s int64, raw []byte, limit int64) {
		task := Task{C: c, T: p, D: d, J: j, B: b, S: s}
		var hp []Interferer
		for len(raw) >= 24 && len(hp) < 16 {
			hp = append(hp, Interferer{
				C: int64(binary.LittleEndian.Uint64(raw)),
				T: int64(binary.LittleEndian.Uint64(raw[8:])),
				J: int64(binary.LittleEndian.Uint64(raw[16:])),
			})
			raw = raw[24:]
		}
		for len(raw) >= 3 && len(hp) < 16 { // small values are more interesting
			hp = append(hp, Interferer{C: int64(raw[0]), T: int64(raw[1]), J: int64(raw[2])})
			raw = raw[3:]
		}
		r, st := ResponseTime(task, hp, limit)
		valid := task.Validate() == nil
		for _, h := range hp {
			valid = valid && h.T > 0 && h.T <= MaxTime && inRange(h.C) && inRange(h.J)
		}
		if !valid {
			if st != Invalid || r != 0 {
				t.Fatalf("invalid input accepted: %v, %d", st, r)
			}
			return
		}
		switch st {
		case Invalid, InterfererUnbounded:
			t.Fatalf("unexpected status %v", st)
		case Unbounded:
			if !utilisationAtLeastOne(hp) {
				t.Fatalf("unbounded below utilisation 1")
			}
			return
		}
		if r < task.C+task.S+task.B+task.J {
			t.Fatalf("R = %d below C+S+B+J", r)
		}
		if st.Bounded() {
			if r > max(0, min(limit, MaxTime)) {
				t.Fatalf("bounded R = %d beyond limit %d", r, limit)
			}
			want, conv := refResponse(task, hp, 4*MaxTime)
			if !conv || want != r {
				t.Fatalf("R = %d, reference %d (%v)", r, want, conv)
			}
		}
	})
}
