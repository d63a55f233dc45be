package moo

import (
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"testing"

	"github.com/MaxHalford/eaopt"
)

// TestGenomeSet checks the set against a map keyed by the genes' text, with
// hashes cut to 2 bits in half the trials so that most genomes collide: a
// collision may cost a comparison, never a wrong answer. The set is reused
// from trial to trial, or new every third, and grows beyond what reset made
// room for.
func TestGenomeSet(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var s genomeSet
	for trial := range 200 {
		if trial%3 == 0 {
			s = genomeSet{}
		}
		hash := hashGenome
		if trial%2 == 1 {
			hash = func(g []int) uint64 { return hashGenome(g) & 3 }
		}
		s.reset(rng.Intn(20))
		want := map[string]int{}
		for range 1 + rng.Intn(300) {
			g := []int{rng.Intn(8), rng.Intn(8), rng.Intn(4) - 2}
			key := fmt.Sprint(g)
			idx, added := s.add(g, hash(g))
			if w, ok := want[key]; ok {
				if added || idx != w {
					t.Fatalf("trial %d: add(%v) = %d, %v; it was added as %d", trial, g, idx, added, w)
				}
			} else {
				if !added || idx != len(want) {
					t.Fatalf("trial %d: add(%v) = %d, %v for a new genome, want %d, true", trial, g, idx, added, len(want))
				}
				want[key] = idx
			}
			probe := []int{rng.Intn(8), rng.Intn(8), rng.Intn(4) - 2}
			if _, in := want[fmt.Sprint(probe)]; s.has(probe, hash(probe)) != in {
				t.Fatalf("trial %d: has(%v) = %v, want %v", trial, probe, !in, in)
			}
		}
	}
}

// TestEvalCache checks the cache against a model (a list of the genomes put,
// the oldest first, cut to the capacity): it holds exactly the last capacity
// genomes put, each with its own evaluation, however many evictions there
// have been, with colliding hashes in half the trials.
func TestEvalCache(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	evalOf := func(g []int) Evaluation { // a function of the genome
		return Evaluation{Objectives: []float64{float64(g[0] - g[1]), float64(g[2])}, Violation: float64(g[0] % 2), Payload: g[1]}
	}
	for trial := range 200 {
		hash := hashGenome
		if trial%2 == 1 {
			hash = func(g []int) uint64 { return hashGenome(g) & 7 }
		}
		capacity := rng.Intn(40)
		c := newEvalCache(3, 2, capacity, rng.Intn(60))
		var model [][]int
		for step := range 2000 {
			g := []int{rng.Intn(6), rng.Intn(6), rng.Intn(6)}
			h := hash(g)
			at := slices.IndexFunc(model, func(x []int) bool { return slices.Equal(x, g) })
			i := c.lookup(g, h)
			if (i >= 0) != (at >= 0) {
				t.Fatalf("trial %d, step %d: lookup(%v) = %d, the model has it at %d of %d", trial, step, g, i, at, len(model))
			}
			if i >= 0 {
				got := Evaluation{Objectives: make([]float64, 2)}
				c.get(i, &got)
				want := evalOf(g)
				if !slices.Equal(got.Objectives, want.Objectives) || got.Violation != want.Violation || got.Payload != want.Payload {
					t.Fatalf("trial %d: the cache holds %v for %v, want %v", trial, got, g, want)
				}
				continue
			}
			e := evalOf(g)
			c.put(g, h, &e)
			if capacity > 0 {
				model = append(model, g)
				if len(model) > capacity {
					model = model[1:]
				}
			}
			if c.len() != len(model) {
				t.Fatalf("trial %d: the cache holds %d genomes, want %d", trial, c.len(), len(model))
			}
		}
		if capacity > 0 && c.evictions == 0 {
			t.Errorf("trial %d: no eviction with capacity %d", trial, capacity)
		}
	}
}

// TestSkipRandString checks that skipRandString draws from the generator
// what eaopt's Individual.Clone draws, so that breeding without cloning
// takes the same random choices.
func TestSkipRandString(t *testing.T) {
	for seed := range int64(100) {
		a, b := rand.New(rand.NewSource(seed)), rand.New(rand.NewSource(seed))
		for range 50 {
			eaopt.Individual{}.Clone(a)
			skipRandString(b)
		}
		if x, y := a.Int63(), b.Int63(); x != y {
			t.Fatalf("seed %d: the generators part: %d after cloning, %d after skipRandString", seed, x, y)
		}
	}
}

// TestCacheEntryBytes: a full cache of genomes of 300 genes takes about
// cacheEntryBytes per entry (within a quarter, the table's power of two
// aside), so that DefaultCacheBytes bounds the default cache's memory.
func TestCacheEntryBytes(t *testing.T) {
	const n, m, k = 300, 8, 4000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c := newEvalCache(n, m, k, k)
	g := make([]int, n)
	e := Evaluation{Objectives: make([]float64, m)}
	for i := range k {
		g[0], g[1] = i, i>>8
		c.put(g, hashGenome(g), &e)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(c)
	per := float64(after.HeapAlloc-before.HeapAlloc) / k
	if want := float64(cacheEntryBytes(n, m)); per > 1.25*want || per < 0.75*want {
		t.Errorf("%.0f bytes an entry, cacheEntryBytes says %.0f", per, want)
	}
	if capacity := DefaultCacheBytes / cacheEntryBytes(268, 8); capacity < 25_000 || capacity > DefaultCacheSize {
		t.Errorf("the default cache of a 250-task system holds %d evaluations", capacity)
	}
}
