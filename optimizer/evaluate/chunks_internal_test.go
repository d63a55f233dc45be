package evaluate

import (
	"slices"
	"testing"
)

// TestChunksKeepRuns: every run added reads back as it was stored, one
// slice, after later runs fill blocks and open new ones (a run longer than
// a block gets one of its own), and after a reset the store holds nothing
// and serves again from the blocks it kept.
func TestChunksKeepRuns(t *testing.T) {
	var c chunks[int]
	type at struct{ blk, off, n int32 }
	for round := range 2 {
		var where []at
		var want [][]int
		total := 0
		for i := range 300 {
			n := (i*37)%61 + 1
			if i == 150 {
				n = chunkLen + 5 // longer than a block
			}
			run := make([]int, n)
			for k := range run {
				run[k] = i*100000 + k + round
			}
			blk, off := c.add(run)
			where, want = append(where, at{blk, off, int32(n)}), append(want, run)
			total += n
		}
		if c.len() != total {
			t.Fatalf("round %d: len %d, want %d", round, c.len(), total)
		}
		for i, w := range where {
			if got := c.at(w.blk, w.off, w.n); !slices.Equal(got, want[i]) {
				t.Fatalf("round %d: run %d at block %d offset %d reads %v…, want %v…", round, i, w.blk, w.off, got[:1], want[i][:1])
			}
		}
		blocks := len(c.blocks)
		c.reset()
		if c.len() != 0 || len(c.blocks) != blocks {
			t.Fatalf("round %d: after reset len %d, %d blocks (had %d)", round, c.len(), len(c.blocks), blocks)
		}
	}
}
