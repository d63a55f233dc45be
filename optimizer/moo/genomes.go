package moo

// This file holds NSGA-II's bookkeeping of genomes: a hash of a genome, a set
// of genomes and a bounded cache of evaluations, all keyed by the hash and
// comparing the genes themselves when hashes are equal, so that a collision
// costs a comparison, never a wrong answer.

import (
	"math/bits"
	"slices"
)

// hashGenome returns a 64-bit hash of g: FNV-1a over the genes (one round per
// gene rather than per byte) followed by the finaliser of MurmurHash3, which
// spreads the small differences between genomes over all the bits that a
// power-of-two table uses.
func hashGenome(g []int) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range g {
		h ^= uint64(v)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// tableSize returns the power of two, at least 8, that keeps n entries of an
// open-addressing table at most half full.
func tableSize(n int) int {
	if n < 4 {
		return 8
	}
	return 1 << bits.Len(uint(2*n-1))
}

// genomeSet is a set of genomes by open addressing with linear probing. It
// refers to the genomes added, which must not change while they are in the
// set; reset empties it and keeps its memory.
type genomeSet struct {
	slots   []int32  // -1: empty; otherwise an index into members
	members [][]int  // the genomes, in the order added
	hashes  []uint64 // their hashes
}

// reset empties the set, ready for n genomes without growing.
func (s *genomeSet) reset(n int) {
	if size := tableSize(n); len(s.slots) < size {
		s.slots = make([]int32, size)
	}
	for i := range s.slots {
		s.slots[i] = -1
	}
	clear(s.members)
	s.members, s.hashes = s.members[:0], s.hashes[:0]
}

// find returns the slot that holds g, whose hash is h, or the empty slot
// where it would go.
func (s *genomeSet) find(g []int, h uint64) int {
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		k := s.slots[i]
		if k < 0 || s.hashes[k] == h && slices.Equal(s.members[k], g) {
			return int(i)
		}
	}
}

// has reports whether g, whose hash is h, is in the set.
func (s *genomeSet) has(g []int, h uint64) bool {
	return s.slots[s.find(g, h)] >= 0
}

// add adds g, whose hash is h, unless it is in the set already, and returns
// its index in the order of addition and whether it was added.
func (s *genomeSet) add(g []int, h uint64) (int, bool) {
	if 2*(len(s.members)+1) > len(s.slots) {
		s.grow()
	}
	i := s.find(g, h)
	if k := s.slots[i]; k >= 0 {
		return int(k), false
	}
	s.slots[i] = int32(len(s.members))
	s.members = append(s.members, g)
	s.hashes = append(s.hashes, h)
	return len(s.members) - 1, true
}

func (s *genomeSet) grow() {
	s.slots = make([]int32, 2*max(4, len(s.slots)))
	for i := range s.slots {
		s.slots[i] = -1
	}
	mask := uint64(len(s.slots) - 1)
	for k, h := range s.hashes {
		i := h & mask
		for s.slots[i] >= 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = int32(k)
	}
}

// evalCache remembers the evaluations of the last capacity genomes put in
// it, first in, first out: memory stays flat however many genomes a run
// evaluates. Every access comes from the goroutine that runs the search, in
// an order fixed by the random generator alone, so what it holds, and so the
// run, does not depend on the number of workers.
//
// Entries live in a ring of capacity slots that grows by appending until it
// is full; an open-addressing table with linear probing maps a genome to its
// ring slot (keeping part of the hash beside it), and evicting an entry
// deletes it from the table by backward shifting (no tombstones), so lookups
// stay short however many evictions there have been.
type evalCache struct {
	n, m     int // genes and objectives
	capacity int

	genes []int     // genes[i*n : (i+1)*n]: the genome of entry i
	objs  []float64 // objs[i*m : (i+1)*m]: its objectives
	viol  []float64
	// tiebreak: Evaluation.Tiebreak, which orders least-violating genomes
	tiebreak []float64
	payload  []any
	hashes   []uint64
	oldest   int // once the ring is full, the entry the next put replaces

	// slots is the table: 0 for an empty slot, otherwise the entry's index
	// plus one in the low 32 bits and the high 32 bits of its hash above,
	// so that a probe past another genome rarely reads the entry itself.
	slots     []uint64
	evictions int // entries replaced so far
}

// slotOf returns the table slot value of entry i, whose hash is h.
func slotOf(i int, h uint64) uint64 { return h>>32<<32 | uint64(i+1) }

// entryOf returns the entry of a non-empty slot value.
func entryOf(v uint64) int { return int(uint32(v)) - 1 }

// newEvalCache returns an empty cache of genomes of n genes and m
// objectives that remembers up to capacity of them, with room made at once
// for expect (a run's expected number of evaluations, when known), so that
// the cache does not grow step by step, copying itself, during the run.
func newEvalCache(n, m, capacity, expect int) *evalCache {
	c := &evalCache{n: n, m: m, capacity: capacity}
	if k := min(capacity, expect); k > 0 {
		c.genes = make([]int, 0, k*n)
		c.objs = make([]float64, 0, k*m)
		c.viol = make([]float64, 0, k)
		c.tiebreak = make([]float64, 0, k)
		c.payload = make([]any, 0, k)
		c.hashes = make([]uint64, 0, k)
		c.slots = make([]uint64, tableSize(k))
	}
	return c
}

// len returns the number of genomes the cache holds.
func (c *evalCache) len() int { return len(c.hashes) }

// genome returns the genes of entry i.
func (c *evalCache) genome(i int) []int { return c.genes[i*c.n : (i+1)*c.n : (i+1)*c.n] }

// slot returns the table slot that holds g, whose hash is h, or the empty
// slot where it would go.
func (c *evalCache) slot(g []int, h uint64) int {
	mask := uint64(len(c.slots) - 1)
	tag := h >> 32
	for i := h & mask; ; i = (i + 1) & mask {
		v := c.slots[i]
		if v == 0 {
			return int(i)
		}
		if v>>32 == tag {
			if k := entryOf(v); c.hashes[k] == h && slices.Equal(c.genome(k), g) {
				return int(i)
			}
		}
	}
}

// lookup returns the entry of g, whose hash is h, or -1.
func (c *evalCache) lookup(g []int, h uint64) int {
	if len(c.slots) == 0 {
		return -1
	}
	if v := c.slots[c.slot(g, h)]; v != 0 {
		return entryOf(v)
	}
	return -1
}

// get copies entry i's evaluation into out, whose Objectives has length m.
func (c *evalCache) get(i int, out *Evaluation) {
	copy(out.Objectives, c.objs[i*c.m:(i+1)*c.m])
	out.Violation, out.Tiebreak, out.Payload = c.viol[i], c.tiebreak[i], c.payload[i]
}

// put remembers the evaluation of g, whose hash is h and which the cache
// does not hold, replacing the oldest entry when the cache is full. A cache
// of capacity 0 remembers nothing.
func (c *evalCache) put(g []int, h uint64, e *Evaluation) {
	if c.capacity <= 0 {
		return
	}
	var i int
	if len(c.hashes) < c.capacity {
		i = len(c.hashes)
		c.genes = append(c.genes, g...)
		c.objs = append(c.objs, e.Objectives...)
		c.viol = append(c.viol, e.Violation)
		c.tiebreak = append(c.tiebreak, e.Tiebreak)
		c.payload = append(c.payload, e.Payload)
		c.hashes = append(c.hashes, h)
		if 2*len(c.hashes) > len(c.slots) {
			c.rehash()
		}
	} else {
		i = c.oldest
		c.oldest = (c.oldest + 1) % c.capacity
		c.delete(c.slot(c.genome(i), c.hashes[i]))
		c.evictions++
		copy(c.genome(i), g)
		copy(c.objs[i*c.m:(i+1)*c.m], e.Objectives)
		c.viol[i], c.tiebreak[i], c.payload[i], c.hashes[i] = e.Violation, e.Tiebreak, e.Payload, h
	}
	c.slots[c.slot(g, h)] = slotOf(i, h)
}

// delete empties table slot i and moves back the entries after it that
// probing would no longer reach (Knuth, The Art of Computer Programming,
// vol. 3, section 6.4, Algorithm R).
func (c *evalCache) delete(i int) {
	mask := len(c.slots) - 1
	for j := (i + 1) & mask; c.slots[j] != 0; j = (j + 1) & mask {
		home := int(c.hashes[entryOf(c.slots[j])]) & mask
		// The entry at j stays if its home lies cyclically in (i, j].
		if i <= j && i < home && home <= j || i > j && (i < home || home <= j) {
			continue
		}
		c.slots[i] = c.slots[j]
		i = j
	}
	c.slots[i] = 0
}

func (c *evalCache) rehash() {
	c.slots = make([]uint64, tableSize(min(c.capacity, 2*max(4, len(c.hashes)))))
	mask := uint64(len(c.slots) - 1)
	for k, h := range c.hashes {
		i := h & mask
		for c.slots[i] != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = slotOf(k, h)
	}
}
