package moo

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"math/rand"
	"slices"

	"github.com/MaxHalford/eaopt"
)

// Checkpoint makes NSGA-II save its state at generation boundaries and
// continue from a saved state (Settings.Checkpoint). A run resumed from the
// state it saved after generation g takes the same random choices, makes
// the same evaluations and ends with the same Result as the run that saved
// it would have, had it gone on: every generation draws from its own
// generator, seeded from the run's seed and the generation's number, so
// that no generator state needs saving.
//
// What a state holds, and so its size: the population (genes, objectives,
// violation, rank and crowding of each member), the evaluation cache (the
// genes, objectives and violation of each genome it remembers: at most
// NSGA2.CacheSize of them, about cacheEntryBytes each, so at most
// DefaultCacheBytes by default), the archive (at most Settings.MaxFront
// points when bounded), the least-violating points, the front snapshots of
// Settings.Stall's window, the groups of variants offered, the counters and
// what the Problem saves of itself (CheckpointProblem).
//
// Exhaustive saves its state between two of its top-level subtrees
// (frontierNodes): Due is then asked with the number of subtrees completed,
// and the state holds the front and least-violating points and the counts
// of those subtrees and the Problem's state; a run resumed from it
// enumerates the subtrees after them and ends with the Result of the run
// that saved it, had that one gone on (the subtree in progress when a run
// stops is enumerated again from its start).
type Checkpoint struct {
	// Due is asked after the initial population and after every
	// generation, with the number of generations evolved so far; when it
	// returns true the run's state goes to Save. nil never saves.
	Due func(generation int) bool

	// Save receives a state (the slice is the caller's to keep) and the
	// progress of the run it saves (Generation, Evaluations and the
	// rest, as Settings.Progress gets them). An error ends the run with
	// that error.
	Save func(state []byte, at Progress) error

	// Resume, when not empty, is a state that Save received from a run of
	// the same problem, method and settings (seed and Settings.Rand's
	// state included; Workers may differ): the run continues from it,
	// without making its initial population again. A state of another
	// format, problem size, population or cache is refused with an error.
	Resume []byte
}

// CheckpointProblem is implemented by a Problem whose Evaluators remember
// what a Result or a later evaluation depends on (counts it reports beside
// the front, what a genome met before costs), or whose evaluations carry
// payloads: a checkpoint saves and restores both through it. A Problem
// without payloads and without such memory need not implement it.
type CheckpointProblem interface {
	Problem
	// SaveState returns what the Problem's Evaluators remember, as bytes.
	// It is called between generations, while no Evaluator runs.
	SaveState() ([]byte, error)
	// RestoreState gives the Evaluators of a resumed run what SaveState
	// returned; it is called once the run's workers exist, before any
	// evaluation.
	RestoreState(state []byte) error
	// EncodePayload and DecodePayload save and restore a payload of an
	// Evaluation or a Variant.
	EncodePayload(payload any) ([]byte, error)
	DecodePayload(data []byte) (any, error)
}

// checkpointFormat is the format version of a state; a state of another
// version is refused.
const checkpointFormat = 1

// checkpointState is what Save receives, encoded with encoding/gob.
type checkpointState struct {
	Format          int
	Genes, Objects  int
	Population      int
	CacheCapacity   int
	Base            int64 // the seed of the generations' generators
	Generation      int
	Evaluations     int
	Feasible        int
	CacheHits       int
	Analyses        int
	Allowance       int
	Allowed         bool
	Ranking         int
	Members         []stateMember // the population, in its order
	Cache           stateCache
	Archive         stateArchive
	Least           []statePoint
	LeastVersion    int
	Offered         []uint64 // sorted
	StallSnaps      []stateSnapshot
	StallImprove    float64
	StallMeasured   []stateMeasure
	ProblemState    []byte
	HasProblemState bool
}

type stateMember struct {
	Point    statePoint
	Rank     int
	Crowding float64
}

type statePoint struct {
	Genome     []int
	Objectives []float64
	Violation  float64
	Tiebreak   float64
	Allowance  int
	Cost       int
	Payload    []byte
	HasPayload bool
	Variant    int
	Group      uint64
}

type stateCache struct {
	Genes    []int // oldest first
	Objs     []float64
	Viol     []float64
	Tiebreak []float64
	Payloads []statePayload
}

type statePayload struct {
	Entry int
	Data  []byte
}

type stateArchive struct {
	Points  []statePoint
	Version int
	Gridded bool
	Exp     []int
	Widest  []int
}

type stateSnapshot struct {
	Generation int
	Objectives []float64
	Feasible   bool
	Violation  float64
}

type stateMeasure struct {
	Generation int
	Value      float64
}

// generationSeed returns the seed of the generator of generation g (g ≥
// 1) of a run whose generations' generators derive from base: a SplitMix64
// mix of the two, so that neighbouring generations' seeds are unrelated.
func generationSeed(base int64, g int) int64 {
	z := uint64(base) + uint64(g)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int64(z)
}

// generationRNG returns the generator of generation g, m.rng seeded anew
// (which allocates nothing).
func (m *model) generationRNG(g int) *rand.Rand {
	seed := generationSeed(m.base, g)
	if m.rng == nil {
		m.rng = rand.New(rand.NewSource(seed))
	} else {
		m.rng.Seed(seed)
	}
	return m.rng
}

// payloadCodec returns the problem's payload coding, or nil.
func payloadCodec(p Problem) CheckpointProblem {
	cp, _ := p.(CheckpointProblem)
	return cp
}

// checkpointUnlimited is what the Allowance fields of a checkpoint (format
// 1) hold for no bound (Evaluation.Unlimited, a batch of a run without
// Settings.MaxEvaluations): the format keeps the value it always had, and
// only checkpointAllowance writes it.
const checkpointUnlimited = -1

// checkpointAllowance is what a checkpoint stores for evaluationsLeft, or
// for no bound.
func checkpointAllowance(evaluationsLeft int, unlimited bool) int {
	if unlimited {
		return checkpointUnlimited
	}
	return evaluationsLeft
}

func encodePoint(codec CheckpointProblem, p *Point) (statePoint, error) {
	sp := statePoint{Genome: p.Genome, Objectives: p.Objectives, Violation: p.Violation, Tiebreak: p.Tiebreak,
		Allowance: checkpointAllowance(p.EvaluationsLeft, p.Unlimited), Cost: p.Cost, Variant: p.Variant, Group: p.Group}
	if p.Payload != nil {
		data, err := encodePayload(codec, p.Payload)
		if err != nil {
			return sp, err
		}
		sp.Payload, sp.HasPayload = data, true
	}
	return sp, nil
}

func encodePayload(codec CheckpointProblem, payload any) ([]byte, error) {
	if codec == nil {
		return nil, fmt.Errorf("moo: checkpoint: a payload of type %T cannot be saved: the problem does not implement CheckpointProblem", payload)
	}
	return codec.EncodePayload(payload)
}

func decodePoint(codec CheckpointProblem, sp *statePoint) (Point, error) {
	p := Point{Genome: sp.Genome, Evaluation: Evaluation{Objectives: sp.Objectives, Violation: sp.Violation, Tiebreak: sp.Tiebreak,
		EvaluationsLeft: max(0, sp.Allowance), Unlimited: sp.Allowance == checkpointUnlimited, Cost: sp.Cost}, Variant: sp.Variant, Group: sp.Group}
	if sp.HasPayload {
		if codec == nil {
			return p, errors.New("moo: checkpoint: the state holds payloads, and the problem does not implement CheckpointProblem")
		}
		v, err := codec.DecodePayload(sp.Payload)
		if err != nil {
			return p, fmt.Errorf("moo: checkpoint: %w", err)
		}
		p.Payload = v
	}
	return p, nil
}

// saveState encodes the run's state after generation r.generations, whose
// population is pop (in its order).
func (m *model) saveState(pop eaopt.Individuals, base int64, population int) ([]byte, error) {
	r := m.r
	codec := payloadCodec(r.problem)
	_, unlimited := r.evaluationsLeft()
	st := checkpointState{Format: checkpointFormat, Genes: r.sp.n, Objects: r.sp.m, Population: population, CacheCapacity: m.cache.capacity,
		Base: base, Generation: r.generations, Evaluations: r.evaluations, Feasible: r.feasible, CacheHits: r.cacheHits, Analyses: r.analyses,
		Allowance: checkpointAllowance(m.genomeEvaluationsLeft, m.allowed && unlimited), Allowed: m.allowed, Ranking: m.ranking, LeastVersion: r.least.version}
	for _, ind := range pop {
		g := asGenome(ind)
		pt := Point{Genome: g.genes, Evaluation: g.eval}
		sp, err := encodePoint(codec, &pt)
		if err != nil {
			return nil, err
		}
		st.Members = append(st.Members, stateMember{Point: sp, Rank: g.rank, Crowding: g.crowding})
	}
	c := m.cache
	n := c.len()
	for k := range n {
		i := k
		if n == c.capacity {
			i = (c.oldest + k) % c.capacity
		}
		st.Cache.Genes = append(st.Cache.Genes, c.genome(i)...)
		st.Cache.Objs = append(st.Cache.Objs, c.objs[i*c.m:(i+1)*c.m]...)
		st.Cache.Viol = append(st.Cache.Viol, c.viol[i])
		st.Cache.Tiebreak = append(st.Cache.Tiebreak, c.tiebreak[i])
		if c.payload[i] != nil {
			data, err := encodePayload(codec, c.payload[i])
			if err != nil {
				return nil, err
			}
			st.Cache.Payloads = append(st.Cache.Payloads, statePayload{Entry: k, Data: data})
		}
	}
	a := r.archive
	st.Archive = stateArchive{Version: a.version, Gridded: a.gridded, Exp: a.exp, Widest: a.widest}
	for i := range a.points {
		sp, err := encodePoint(codec, &a.points[i])
		if err != nil {
			return nil, err
		}
		st.Archive.Points = append(st.Archive.Points, sp)
	}
	for i := range r.least.points {
		sp, err := encodePoint(codec, &r.least.points[i])
		if err != nil {
			return nil, err
		}
		st.Least = append(st.Least, sp)
	}
	for g := range r.offered {
		st.Offered = append(st.Offered, g)
	}
	slices.Sort(st.Offered)
	for _, s := range r.stall.snaps {
		st.StallSnaps = append(st.StallSnaps, stateSnapshot{s.generation, s.objectives, s.feasible, s.violation})
	}
	st.StallImprove = r.stall.improvement
	for _, s := range r.stall.measured {
		st.StallMeasured = append(st.StallMeasured, stateMeasure{s.generation, s.value})
	}
	if codec != nil {
		ps, err := codec.SaveState()
		if err != nil {
			return nil, fmt.Errorf("moo: checkpoint: %w", err)
		}
		st.ProblemState, st.HasProblemState = ps, true
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&st); err != nil {
		return nil, fmt.Errorf("moo: checkpoint: %w", err)
	}
	return buf.Bytes(), nil
}

// restoreCache fills the model's evaluation cache from the state st.
func (m *model) restoreCache(st *checkpointState, codec CheckpointProblem) error {
	r := m.r
	c := m.cache
	entries := len(st.Cache.Viol)
	if len(st.Cache.Genes) != entries*c.n || len(st.Cache.Objs) != entries*c.m || len(st.Cache.Tiebreak) != entries || entries > max(0, c.capacity) {
		return errors.New("moo: checkpoint: the state's cache is malformed")
	}
	payloads := map[int]any{}
	for _, p := range st.Cache.Payloads {
		sp := statePoint{Payload: p.Data, HasPayload: true}
		pt, err := decodePoint(codec, &sp)
		if err != nil {
			return err
		}
		payloads[p.Entry] = pt.Payload
	}
	e := Evaluation{}
	for k := range entries {
		g := st.Cache.Genes[k*c.n : (k+1)*c.n]
		if err := r.sp.check(g); err != nil {
			return fmt.Errorf("moo: checkpoint: %w", err)
		}
		e.Objectives, e.Violation, e.Tiebreak, e.Payload = st.Cache.Objs[k*c.m:(k+1)*c.m], st.Cache.Viol[k], st.Cache.Tiebreak[k], payloads[k]
		c.put(g, hashGenome(g), &e)
	}
	return nil
}

// restoreFronts restores the run's archive and its least-violating points
// from the state st.
func (r *run) restoreFronts(st *checkpointState, codec CheckpointProblem) error {
	a := r.archive
	a.points = a.points[:0]
	for i := range st.Archive.Points {
		p, err := decodePoint(codec, &st.Archive.Points[i])
		if err != nil {
			return err
		}
		if err := r.checkPoint(&p); err != nil {
			return err
		}
		a.points = append(a.points, p)
	}
	a.gridded, a.exp, a.widest = st.Archive.Gridded, st.Archive.Exp, st.Archive.Widest
	if a.gridded {
		if len(a.exp) != a.m || len(a.widest) != a.m {
			return errors.New("moo: checkpoint: the state's archive is malformed")
		}
		a.boxes = a.boxes[:0]
		for i := range a.points {
			a.box = a.boxOf(a.points[i].Objectives, a.box)
			a.boxes = append(a.boxes, a.box...)
		}
	}
	a.version = st.Archive.Version
	r.least.points = r.least.points[:0]
	for i := range st.Least {
		p, err := decodePoint(codec, &st.Least[i])
		if err != nil {
			return err
		}
		if err := r.checkPoint(&p); err != nil {
			return err
		}
		r.least.points = append(r.least.points, p)
	}
	r.least.version = st.LeastVersion
	return nil
}

// checkPoint checks that a point read from a state fits the run's problem.
func (r *run) checkPoint(p *Point) error {
	if p.Genome != nil {
		if err := r.sp.check(p.Genome); err != nil {
			return fmt.Errorf("moo: checkpoint: %w", err)
		}
	}
	if len(p.Objectives) != r.sp.m {
		return errors.New("moo: checkpoint: a point of the state has the wrong number of objectives")
	}
	return nil
}

// restoreState restores the run and model from a saved state and returns
// the population, in its saved order, and the base seed of the
// generations' generators.
func (m *model) restoreState(data []byte, population int) (eaopt.Individuals, int64, error) {
	var st checkpointState
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&st); err != nil {
		return nil, 0, fmt.Errorf("moo: checkpoint: the state cannot be read: %w", err)
	}
	r := m.r
	switch {
	case st.Format != checkpointFormat:
		return nil, 0, fmt.Errorf("moo: checkpoint: the state is of format %d, this version reads %d", st.Format, checkpointFormat)
	case st.Genes != r.sp.n || st.Objects != r.sp.m:
		return nil, 0, fmt.Errorf("moo: checkpoint: the state is of a problem of %d genes and %d objectives, this one has %d and %d", st.Genes, st.Objects, r.sp.n, r.sp.m)
	case st.Population != population || len(st.Members) != population:
		return nil, 0, fmt.Errorf("moo: checkpoint: the state holds a population of %d, the run's is %d", len(st.Members), population)
	case st.CacheCapacity != m.cache.capacity:
		return nil, 0, fmt.Errorf("moo: checkpoint: the state's cache holds %d evaluations, the run's %d", st.CacheCapacity, m.cache.capacity)
	case st.Generation > r.set.Generations:
		return nil, 0, fmt.Errorf("moo: checkpoint: the state is of generation %d, beyond the run's %d", st.Generation, r.set.Generations)
	}
	codec := payloadCodec(r.problem)
	if st.HasProblemState {
		if codec == nil {
			return nil, 0, errors.New("moo: checkpoint: the state holds a problem's state, and the problem does not implement CheckpointProblem")
		}
		if err := codec.RestoreState(st.ProblemState); err != nil {
			return nil, 0, fmt.Errorf("moo: checkpoint: %w", err)
		}
	}
	r.generations, r.evaluations, r.feasible, r.cacheHits, r.analyses = st.Generation, st.Evaluations, st.Feasible, st.CacheHits, st.Analyses
	m.genomeEvaluationsLeft, m.allowed, m.ranking = max(0, st.Allowance), st.Allowed, st.Ranking

	inds := make(eaopt.Individuals, 0, population)
	for _, sm := range st.Members {
		p, err := decodePoint(codec, &sm.Point)
		if err != nil {
			return nil, 0, err
		}
		if err := r.checkPoint(&p); err != nil {
			return nil, 0, err
		}
		g := m.newGenome()
		copy(g.genes, p.Genome)
		g.hash = hashGenome(g.genes)
		copy(g.eval.Objectives, p.Objectives)
		g.eval.Violation, g.eval.Tiebreak, g.eval.Payload, g.eval.EvaluationsLeft, g.eval.Unlimited, g.eval.Cost = p.Violation, p.Tiebreak, p.Payload, p.EvaluationsLeft, p.Unlimited, p.Cost
		g.evaluated, g.rank, g.crowding, g.kept = true, sm.Rank, sm.Crowding, m.ranking
		inds = append(inds, eaopt.Individual{Genome: g, Fitness: g.fitness(), Evaluated: true})
	}

	if err := m.restoreCache(&st, codec); err != nil {
		return nil, 0, err
	}
	if err := r.restoreFronts(&st, codec); err != nil {
		return nil, 0, err
	}
	r.offered = map[uint64]bool{}
	for _, g := range st.Offered {
		r.offered[g] = true
	}
	r.stall = stallState{improvement: st.StallImprove}
	for _, s := range st.StallSnaps {
		r.stall.snaps = append(r.stall.snaps, stallSnapshot{s.Generation, s.Objectives, s.Feasible, s.Violation})
	}
	for _, s := range st.StallMeasured {
		r.stall.measured = append(r.stall.measured, stallMeasure{s.Generation, s.Value})
	}
	return inds, st.Base, nil
}
