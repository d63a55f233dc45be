package moo

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// ckptProblem is a random knapsack of 24 genes (0…3 items each) and three
// profits, with a payload on every evaluation, priority-order-like variants
// (a feasible genome reports two variants of its group, the sum of its genes
// modulo 13, whose objectives depend on the group alone) and a cost that
// makes Settings.MaxEvaluations bind: every part of a NSGA-II state matters
// to the result. It implements CheckpointProblem: its payloads are coded
// with gob, and its state is how many evaluations its workers made, which
// the test checks is restored.
type ckptProblem struct {
	weight   []int
	profit   [3][]int
	capacity int
	calls    atomic.Int64
	// kill, when set, is called with the number of evaluations made so far
	// (by any worker), before each.
	kill func(n int64)
}

type ckptPayload struct {
	Weight int
	Tag    string
}

func newCkptProblem(seed int64) *ckptProblem {
	rng := rand.New(rand.NewSource(seed))
	p := &ckptProblem{}
	for range 24 {
		p.weight = append(p.weight, 1+rng.Intn(9))
		for o := range p.profit {
			p.profit[o] = append(p.profit[o], rng.Intn(10))
		}
	}
	p.capacity = 60
	return p
}

func (p *ckptProblem) NumGenes() int        { return len(p.weight) }
func (p *ckptProblem) Domain(int) []int     { return []int{0, 1, 2, 3} }
func (p *ckptProblem) NumObjectives() int   { return 3 }
func (p *ckptProblem) NewWorker() Evaluator { return ckptEvaluator{p} }

func (p *ckptProblem) SaveState() ([]byte, error) {
	return []byte(fmt.Sprint(p.calls.Load())), nil
}

func (p *ckptProblem) RestoreState(state []byte) error {
	var n int64
	if _, err := fmt.Sscan(string(state), &n); err != nil {
		return err
	}
	p.calls.Store(n)
	return nil
}

func (p *ckptProblem) EncodePayload(v any) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(v.(ckptPayload))
	return buf.Bytes(), err
}

func (p *ckptProblem) DecodePayload(data []byte) (any, error) {
	var v ckptPayload
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(&v)
	return v, err
}

type ckptEvaluator struct{ p *ckptProblem }

func (e ckptEvaluator) Evaluate(x []int, out *Evaluation) {
	p := e.p
	if p.kill != nil {
		p.kill(p.calls.Load())
	}
	p.calls.Add(1)
	w, sum := 0, 0
	var prof [3]int
	for i, v := range x {
		w += v * p.weight[i]
		sum += v
		for o := range prof {
			prof[o] += v * p.profit[o][i]
		}
	}
	for o := range prof {
		out.Objectives[o] = -float64(prof[o])
	}
	out.Violation = float64(max(0, w-p.capacity))
	out.Tiebreak = float64(sum)
	out.Payload = ckptPayload{Weight: w, Tag: "genome"}
	out.Cost = min(x[0]+x[1], max(0, out.EvaluationsLeft))
	if out.Unlimited {
		out.Cost = x[0] + x[1]
	}
	if out.Violation == 0 {
		g := uint64(sum % 13)
		for k := range 2 {
			obj := []float64{-float64(10 * int(g)), -float64(5 * (13 - int(g))), float64(k - int(g))}
			out.Variants = append(out.Variants, Variant{Group: g, Objectives: obj, Payload: ckptPayload{Weight: int(g), Tag: fmt.Sprint("variant ", k)}})
		}
	}
}

// ckptCase is a search whose every state matters: a small FIFO cache that
// evicts, a bounded archive that grids, a stall window, and in some an
// evaluation budget or reference directions.
type ckptCase struct {
	name string
	nsga NSGA2
	set  Settings
}

func ckptCases() []ckptCase {
	base := Settings{Generations: 40, MaxFront: 6, Seed: 7, Stall: Stall{Generations: 10, Tolerance: 1e-9}}
	budget := base
	budget.MaxEvaluations, budget.Seed = 600, 3
	return []ckptCase{
		{"crowding", NSGA2{Population: 16, CacheSize: 150}, base},
		{"reference", NSGA2{Population: 16, CacheSize: 150, Selection: ReferenceSelection}, base},
		{"budget", NSGA2{Population: 12, CacheSize: 100, Crossover: TwoPointCrossover}, budget},
	}
}

// runCkpt runs the case on problem p with the given workers, resuming from
// state when not nil and saving after every due generation into saved.
func runCkpt(t *testing.T, c ckptCase, p *ckptProblem, workers int, ctx context.Context, resume []byte, due func(int) bool, saved *[][]byte) *Result {
	t.Helper()
	set := c.set
	set.Workers, set.Context = workers, ctx
	set.Checkpoint = &Checkpoint{Resume: resume, Due: due, Save: func(state []byte, _ Progress) error {
		*saved = append(*saved, state)
		return nil
	}}
	nsga := c.nsga
	res, err := Minimize(p, &nsga, &set)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCheckpointResume: a run resumed from the checkpoint it saved after any
// generation (every fourth under -short) ends with the Result of the uninterrupted run, with 1 or 3
// workers, and its problem's state restored.
func TestCheckpointResume(t *testing.T) {
	for _, c := range ckptCases() {
		t.Run(c.name, func(t *testing.T) {
			p := newCkptProblem(1)
			var states [][]byte
			want := runCkpt(t, c, p, 2, nil, nil, func(int) bool { return true }, &states)
			calls := p.calls.Load()
			if want.Generations < 5 || len(states) != want.Generations+1 {
				t.Fatalf("%d generations, %d states saved: want at least 5 generations and a state after each and after the initial population", want.Generations, len(states))
			}
			stride := 1
			if testsize.Reduced() {
				stride = 4
			}
			for g := 0; g < len(states); g += stride {
				state := states[g]
				for _, workers := range []int{1, 3} {
					q := newCkptProblem(1)
					var more [][]byte
					got := runCkpt(t, c, q, workers, nil, state, func(int) bool { return true }, &more)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("resumed after generation %d on %d workers: %s\nwant the uninterrupted run's %s", g, workers, resultText(got), resultText(want))
					}
					if q.calls.Load() != calls {
						t.Errorf("resumed after generation %d: the problem counts %d evaluations, the uninterrupted run %d", g, q.calls.Load(), calls)
					}
					if len(more) != len(states)-g-1 || len(more) > 0 && !bytes.Equal(more[len(more)-1], states[len(states)-1]) {
						t.Errorf("resumed after generation %d: its last checkpoint differs from the uninterrupted run's", g)
					}
				}
			}
		})
	}
}

// TestCheckpointKilled kills runs at random evaluations (a cancelled
// context, as a killed process stops: what it did after its last checkpoint
// is lost) and resumes each from its newest checkpoint, up to three times
// in a row: the last run ends with the uninterrupted run's Result.
func TestCheckpointKilled(t *testing.T) {
	rng := rand.New(rand.NewSource(30))
	for _, c := range ckptCases() {
		t.Run(c.name, func(t *testing.T) {
			var none [][]byte
			want := runCkpt(t, c, newCkptProblem(1), 2, nil, nil, nil, &none)
			for trial := range 8 {
				every := 1 + rng.Intn(4)
				due := func(g int) bool { return g%every == 0 }
				var resume []byte
				kills := 0
				for {
					p := newCkptProblem(1)
					ctx, cancel := context.WithCancel(context.Background())
					var at int64 = -1
					if kills < 3 {
						at = int64(rng.Intn(want.Evaluations + 50))
					}
					p.kill = func(n int64) {
						if n >= at && at >= 0 {
							cancel()
						}
					}
					// A resumed problem counts its evaluations on from the
					// checkpoint's (RestoreState): the kill point is drawn
					// over the whole run.
					var saved [][]byte
					got := runCkpt(t, c, p, 1+rng.Intn(3), ctx, resume, due, &saved)
					cancel()
					if got.Status != Interrupted {
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("trial %d, after %d kills: %s\nwant the uninterrupted run's %s", trial, kills, resultText(got), resultText(want))
						}
						break
					}
					kills++
					if len(saved) > 0 {
						resume = saved[len(saved)-1]
					}
				}
			}
		})
	}
}

// TestCheckpointRefused: a state of another run's population or problem is
// refused with an error, not resumed.
func TestCheckpointRefused(t *testing.T) {
	c := ckptCases()[0]
	var states [][]byte
	runCkpt(t, c, newCkptProblem(1), 1, nil, nil, func(g int) bool { return g == 3 }, &states)
	if len(states) != 1 {
		t.Fatalf("%d states saved, want 1", len(states))
	}
	other := c
	other.nsga.Population = 20
	set := other.set
	set.Checkpoint = &Checkpoint{Resume: states[0]}
	if _, err := Minimize(newCkptProblem(1), &other.nsga, &set); err == nil || !strings.Contains(err.Error(), "population") {
		t.Errorf("a state of a population of 16 resumed with 20: error %v, want one that names the population", err)
	}
	set = c.set
	set.Checkpoint = &Checkpoint{Resume: states[0][:len(states[0])/2]}
	if _, err := Minimize(newCkptProblem(1), &c.nsga, &set); err == nil {
		t.Error("half a state resumed without error")
	}
	set = c.set
	set.Checkpoint = &Checkpoint{Resume: states[0]}
	if _, err := Minimize(gridProblem{n: 24, k: 4}, &c.nsga, &set); err == nil {
		t.Error("a state resumed with a problem of other objectives without error")
	}
}

func resultText(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "status %v, %d evaluations, %d analyses, %d cache hits, %d generations, ε %v, front:", r.Status, r.Evaluations, r.Analyses, r.CacheHits, r.Generations, r.Epsilon)
	for _, p := range r.Front {
		fmt.Fprintf(&b, " %v/%v/%v", p.Genome, p.Objectives, p.Payload)
	}
	return b.String()
}
