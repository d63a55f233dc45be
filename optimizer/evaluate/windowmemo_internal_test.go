package evaluate

import (
	"math/rand/v2"
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/memory"
	"github.com/hetmap/hetmap/rta"
)

// TestShapeForMatchesShapeOf checks the shape cache against the shape
// computed afresh: after every call, whatever the calls before it, the
// slot holds shapeOf of the demands and latency just given. The demands
// change one field at a time, as a search's cores do, so that the cache is
// both used and refused.
func TestShapeForMatchesShapeOf(t *testing.T) {
	var m windowMemo
	m.init(3, 8)
	rng := rand.New(rand.NewPCG(5, 6))
	seed := windowKey{11, 13}
	ds := []memory.Demand{{Period: 10, Lines: 2, Phases: 1, Splits: 1}}
	lat := int64(100)
	reused := 0
	for step := range 5000 {
		slot := rng.IntN(4)
		switch rng.IntN(8) {
		case 0:
			lat += int64(rng.IntN(3)) - 1
		case 1:
			if len(ds) < 8 {
				ds = append(ds, memory.Demand{Period: 20, Lines: 1, Phases: 1})
			}
		case 2:
			if len(ds) > 0 {
				ds = ds[:len(ds)-1]
			}
		case 3:
			if len(ds) > 0 {
				d := &ds[rng.IntN(len(ds))]
				switch rng.IntN(5) {
				case 0:
					d.Period++
				case 1:
					d.Lines++
				case 2:
					d.Phases++
				case 3:
					d.Splits = 1 - d.Splits
				case 4:
					d.Response++ // not part of the shape
				}
			}
		}
		before := m.shapeOK[slot] && m.shapeLat[slot] == lat && sameShape(m.shapeIn[slot], ds)
		m.shapeFor(slot, seed, lat, ds)
		if before {
			reused++
		}
		if want := shapeOf(seed, &memory.Interferer{Latency: lat, Tasks: ds}); m.shape[slot] != want {
			t.Fatalf("step %d, slot %d: shape %x, computed afresh %x", step, slot, m.shape[slot], want)
		}
	}
	if reused == 0 || reused == 5000 {
		t.Fatalf("the cache served %d of 5000 calls: the test does not exercise both paths", reused)
	}
}

// TestChallengeMemoFingerprints checks the fingerprints of the cores' tasks
// that the windowed memo's keys take from the challenge memo (memo.go)
// against those computed afresh from the tasks the rounds analyse, over
// random mappings and their neighbours, under explicit, derived and
// selected orders.
func TestChallengeMemoFingerprints(t *testing.T) {
	checked, wrong := 0, 0
	checkPre = func(pre, fresh windowKey) {
		checked++
		if pre != fresh {
			wrong++
		}
	}
	defer func() { checkPre = nil }()
	cfgs := refinedSystems(t, 7, 4)
	rng := rand.New(rand.NewPCG(7, 8))
	for c := range 3 * len(cfgs) {
		// Evaluate; the search's refute-first evaluations; partial
		// mappings (the relaxed test).
		mode := c % 3
		e, err := NewEvaluator(cfgs[c/3])
		if err != nil {
			t.Fatal(err)
		}
		if mode == 1 {
			e.SetLimit(rta.LimitRank)
			e.SetRefuteFirst(true)
		}
		r := e.NewAnalysis()
		a := e.NewAssignment()
		for k := range 300 {
			for i, ti := range e.tasks {
				if k > 0 && rng.IntN(len(e.tasks)) != 0 {
					continue // a neighbour: most tasks stay
				}
				var ok []int
				for u := range e.units {
					if ti.cpu[u].ok || (u == e.gpuUnit && ti.kind == kindGPU) {
						ok = append(ok, u)
					}
				}
				if ti.kind != kindOffloading && len(ok) > 0 {
					a.Unit[i] = ok[rng.IntN(len(ok))]
				}
			}
			for g := range e.gpus {
				gi := &e.gpus[g]
				a.Unit[gi.pre] = NoUnit
				if a.Unit[gi.task] == e.gpuUnit {
					for u := range e.units {
						if e.tasks[gi.pre].cpu[u].ok {
							a.Unit[gi.pre] = u
							break
						}
					}
				}
			}
			evaluate, b := e.Evaluate, a
			if mode == 2 && rng.IntN(2) == 0 {
				evaluate = e.EvaluatePartial
				b = a.Clone()
				for i := range b.Unit {
					if e.tasks[i].kind == kindPeriodic && rng.IntN(4) == 0 {
						b.Unit[i] = NoUnit
					}
				}
			}
			if err := evaluate(b, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 || wrong > 0 {
		t.Fatalf("%d of %d fingerprints from the challenge memo differ from those computed afresh", wrong, checked)
	}
	t.Logf("%d fingerprints checked", checked)
}

// TestSetSplitsMatchesPairs checks setSplits, which finds the two least
// priorities of the tasks that move a line, against the obvious test of
// every pair: a task cuts when another task that moves a line has a
// priority at most its own.
func TestSetSplitsMatchesPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 20000 {
		n := 1 + rng.IntN(7)
		e := &Evaluator{}
		e.onCore = [][]int{make([]int, n)}
		e.ref.demands = [][]memory.Demand{make([]memory.Demand, n)}
		r := &Analysis{Tasks: make([]TaskResult, n)}
		prio := make([]int, n)
		for k := range n {
			e.onCore[0][k] = k
			e.ref.demands[0][k].Lines = int64(rng.IntN(3)) // 0 moves no line
			prio[k] = rng.IntN(4)                          // ties, as explicit priorities may have
			if rng.IntN(3) == 0 {
				r.Tasks[k].Role = OffloadAsync
			}
		}
		e.setSplits(r, 0, func(k int) int { return prio[k] })
		for k := range n {
			cuts := false
			for j := range n {
				if j != k && e.ref.demands[0][j].Lines > 0 && prio[j] <= prio[k] {
					cuts = true
				}
			}
			want := int64(0)
			if cuts {
				want = 1
				if r.Tasks[k].Role == OffloadAsync {
					want = 2
				}
			}
			if got := e.ref.demands[0][k].Splits; got != want {
				t.Fatalf("trial %d: task %d of priorities %v, lines %v: splits %d, want %d", trial, k, prio, e.ref.demands[0], got, want)
			}
		}
	}
}

// TestMemoTableMatchesMap checks the memo's open-addressing table against
// a map, with keys crowded into few slots (their first words share their
// low bits) and keys filed again.
func TestMemoTableMatchesMap(t *testing.T) {
	var m windowMemo
	want := map[windowKey]int32{}
	rng := rand.New(rand.NewPCG(11, 12))
	key := func() windowKey {
		return windowKey{uint64(rng.IntN(64))*windowMemoSlots + uint64(rng.IntN(3)), uint64(rng.IntN(4))}
	}
	for step := range 20000 {
		k := key()
		if got, w := m.find(k), want[k]-1; got != w {
			t.Fatalf("step %d: find(%x) = %d, want %d", step, k, got, w)
		}
		if rng.IntN(2) == 0 && len(m.entries) < windowMemoEntries {
			i := int32(len(m.entries))
			m.insert(k, i)
			m.entries = append(m.entries, windowEntry{key: k})
			want[k] = i + 1
		}
		if rng.IntN(5000) == 0 {
			m.reset()
			clear(want)
		}
	}
}

// TestCoreMemoBounded: the per-core memo holds at most memoTaskEntries
// tasks, starting over when the next core would pass the bound, on a system
// whose cores hold about ten tasks each (a few hundred random mappings fill
// it).
func TestCoreMemoBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	e, r, a := periodicSystem(t, rng, synth.Settings{Tasks: 60, A57: 4, Denver: 2, Utilisation: 2, Contention: configs.ContentionRefined})
	remembered, restarts := 0, 0
	for range 2000 {
		placeAtRandom(e, a, rng)
		before := len(e.memoCores)
		if err := e.Evaluate(a, r); err != nil {
			t.Fatal(err)
		}
		switch {
		case len(e.memoCores) < before:
			restarts++
		case len(e.memoCores) > before:
			remembered += len(e.memoCores) - before
		}
		if e.memoTasks.len() > memoTaskEntries || e.memoRTA.len() != e.memoTasks.len() {
			t.Fatalf("the memo holds %d tasks (%d rta tasks), more than %d", e.memoTasks.len(), e.memoRTA.len(), memoTaskEntries)
		}
	}
	if restarts == 0 {
		t.Fatalf("%d cores remembered and no restart: the test does not reach the bound", remembered)
	}
}

// TestWindowMemoBounded: the windowed memo holds at most windowMemoResults
// task results, starting over when the next entry would pass the bound, on
// a system of about 40 tasks per core (with the bound lowered so that a
// few hundred random mappings fill it).
func TestWindowMemoBounded(t *testing.T) {
	defer func(n int) { windowMemoResults = n }(windowMemoResults)
	windowMemoResults = 1 << 12
	rng := rand.New(rand.NewPCG(15, 16))
	e, r, a := periodicSystem(t, rng, synth.Settings{Tasks: 160, A57: 3, Denver: 1, Utilisation: 1.5, Contention: configs.ContentionRefined})
	restarts := 0
	for range 1500 {
		placeAtRandom(e, a, rng)
		before := len(e.wmemo.entries)
		if err := e.Evaluate(a, r); err != nil {
			t.Fatal(err)
		}
		if len(e.wmemo.entries) < before {
			restarts++
		}
		if e.wmemo.results.len() > windowMemoResults {
			t.Fatalf("the windowed memo holds %d results, more than %d", e.wmemo.results.len(), windowMemoResults)
		}
	}
	if restarts == 0 {
		t.Fatalf("%d entries and no restart: the test does not reach the bound", len(e.wmemo.entries))
	}
}

// periodicSystem returns an evaluator of the synthetic system of settings
// (periodic tasks only), an analysis and an assignment for it.
func periodicSystem(t *testing.T, rng *rand.Rand, settings synth.Settings) (*Evaluator, *Analysis, *Assignment) {
	t.Helper()
	cfg, _, err := synth.Config(settings, rng)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e, e.NewAnalysis(), e.NewAssignment()
}

// placeAtRandom places every task of a on one of the CPU cores it can run
// on, drawn from rng.
func placeAtRandom(e *Evaluator, a *Assignment, rng *rand.Rand) {
	for i, ti := range e.tasks {
		var ok []int
		for _, u := range e.cores {
			if ti.cpu[u].ok {
				ok = append(ok, u)
			}
		}
		a.Unit[i] = ok[rng.IntN(len(ok))]
	}
}
