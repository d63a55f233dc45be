package evaluate

// chunks is an append-only store of runs of values, kept in blocks that
// are never moved once allocated, for the memos: a memo that grows to its
// bound (up to tens of megabytes) in one slice copied it at every doubling,
// which cost a whole run's analyses several per cent, and every evaluator
// (a search worker, the front's, the margins' probes) grew its own. A run
// stays within one block, so it is one slice; reset keeps the blocks.
type chunks[T any] struct {
	blocks [][]T // blocks[:used] hold the runs; the last one is filled next
	used   int
	n      int // values held
}

// chunkLen is the least length of a block: a few hundred cores' results.
const chunkLen = 1 << 12

// grow reserves a run of n values and returns it, to be written in full
// (a reused block holds stale values), with its block and offset (at).
func (c *chunks[T]) grow(n int) (run []T, block, off int32) {
	if c.used > 0 {
		if b := c.blocks[c.used-1]; len(b)+n <= cap(b) {
			c.blocks[c.used-1] = b[:len(b)+n]
			c.n += n
			return b[len(b) : len(b)+n], int32(c.used - 1), int32(len(b))
		}
	}
	switch {
	case c.used == len(c.blocks):
		c.blocks = append(c.blocks, make([]T, 0, max(chunkLen, n)))
	case cap(c.blocks[c.used]) < n:
		c.blocks[c.used] = make([]T, 0, n)
	}
	c.used++
	c.blocks[c.used-1] = c.blocks[c.used-1][:n]
	c.n += n
	return c.blocks[c.used-1], int32(c.used - 1), 0
}

// add stores a copy of vs as one run and returns where it is.
func (c *chunks[T]) add(vs []T) (block, off int32) {
	run, block, off := c.grow(len(vs))
	copy(run, vs)
	return block, off
}

// at returns the run of n values at block and off.
func (c *chunks[T]) at(block, off, n int32) []T { return c.blocks[block][off : off+n] }

// len returns the number of values held.
func (c *chunks[T]) len() int { return c.n }

// reset empties the store, keeping its blocks.
func (c *chunks[T]) reset() {
	for i := range c.blocks[:c.used] {
		c.blocks[i] = c.blocks[i][:0]
	}
	c.used, c.n = 0, 0
}
