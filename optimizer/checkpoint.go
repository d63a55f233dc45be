package optimizer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// Checkpoint makes Run save the search's state while it runs, and
// continue a search from a saved state (Options.Checkpoint). A search
// resumed from a checkpoint ends with the front, counts, proof and status
// of the search that wrote it, had that one gone on uninterrupted
// (moo.Checkpoint says how). The genetic search saves its state between
// generations; the exhaustive search between two of its top-level subtrees
// (at least 256 partial mappings of the first genes in its order, each
// enumerated by every worker in turn), with the front, counts and mappings
// met of the subtrees completed, and a resumed one enumerates the subtrees
// after them (the one in progress when it stopped again from its start).
//
// A checkpoint is one file (CheckpointFile): a first line naming the
// format, a second line of JSON (CheckpointHeader: the configuration's hash,
// the generation, the evaluations so far), then the search's state. Its size
// is bounded by what the state holds: the evaluation cache, at most
// moo.DefaultCacheBytes (64 MiB) of entries and, encoded, about a third of
// that on WATERS (varint genes, 8 bytes an objective); the population and the
// archive (search.max_front points); and 24 bytes per distinct feasible
// mapping met, for the counts of the outcome. An exhaustive search's holds
// no cache nor population: its front so far (not bounded: the exact
// front), 10 least-violating mappings and the 24 bytes per feasible mapping
// met; the header's generation is then the subtrees completed.
type Checkpoint struct {
	// Every is how often a state is saved: at the first generation's end
	// (the exhaustive search: subtree's end) once Every has passed since
	// the search began or since the last save, by Now (nil: time.Now). 0
	// saves by Generations alone.
	Every time.Duration
	Now   func() time.Time
	// Generations, when positive, saves the state after every that many
	// generations (as well); in the exhaustive search, top-level subtrees.
	Generations int
	// Save receives the checkpoint file's bytes, to write atomically (the
	// caller's to keep). An error ends the run with that error.
	Save func(data []byte) error
	// Resume, when not empty, is a checkpoint file that a run of the same
	// configuration (system, analysis and search settings, seed and
	// algorithm; the workers may differ) saved: Run continues the search
	// from it. A checkpoint of another configuration or format is refused
	// with an error that says so (ErrCheckpoint).
	Resume []byte
}

// CheckpointFile is the name of the checkpoint file in a run's work folder.
const CheckpointFile = "checkpoint.hmc"

// checkpointMagic opens a checkpoint file: the format, version 1.
const checkpointMagic = "hetmap checkpoint 1\n"

// ErrCheckpoint is wrapped by the error of a checkpoint that cannot be
// resumed: of another configuration, of another format, or damaged.
var ErrCheckpoint = errors.New("checkpoint cannot be resumed")

// CheckpointHeader is the checkpoint file's second line.
type CheckpointHeader struct {
	// Config is the SHA-256 of the configuration the search ran (Run's
	// ConfigHash).
	Config    string            `json:"config_sha256"`
	Algorithm configs.Algorithm `json:"algorithm"`
	Seed      int64             `json:"seed"`
	// Generation is the generations evolved, or for the exhaustive search
	// the top-level subtrees enumerated.
	Generation  int `json:"generation"`
	Evaluations int `json:"evaluations"`
	// Constructed is the evaluations of the initial constructions, made
	// before the search.
	Constructed int       `json:"construction_evaluations"`
	Saved       time.Time `json:"saved_utc"`
}

// Position says where the search stood when it saved the checkpoint, for
// a message: "generation 12 (3 400 evaluations)", or for the exhaustive
// search "12 of its subtrees (3 400 evaluations)".
func (h CheckpointHeader) Position() string {
	if h.Algorithm == configs.AlgorithmExhaustive {
		return fmt.Sprintf("%d of its subtrees (%d evaluations)", h.Generation, h.Evaluations)
	}
	return fmt.Sprintf("generation %d (%d evaluations)", h.Generation, h.Evaluations)
}

// ReadCheckpointHeader reads a checkpoint file's header.
func ReadCheckpointHeader(data []byte) (CheckpointHeader, []byte, error) {
	var h CheckpointHeader
	if !bytes.HasPrefix(data, []byte(checkpointMagic)) {
		return h, nil, fmt.Errorf("%w: not a hetmap checkpoint of this format (%q expected at its start)", ErrCheckpoint, checkpointMagic[:len(checkpointMagic)-1])
	}
	rest := data[len(checkpointMagic):]
	line, state, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return h, nil, fmt.Errorf("%w: the checkpoint is cut short", ErrCheckpoint)
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return h, nil, fmt.Errorf("%w: its header cannot be read: %v", ErrCheckpoint, err)
	}
	return h, state, nil
}

// configHash is the SHA-256 of what a search's result depends on: the
// system, conventions and analysis, and the search settings in force
// (algorithm and seed decided; workers and the checkpoints' interval left
// out, since the front does not depend on them).
func configHash(cfg *configs.Config, s configs.Search) string {
	s.Workers, s.CheckpointSeconds = 0, 0
	data, err := json.Marshal(struct {
		System      *configs.System
		Conventions configs.Conventions
		Analysis    configs.Analysis
		Search      configs.Search
	}{cfg.System, cfg.Conventions, cfg.Analysis, s})
	if err != nil {
		// Configurations are plain values; an error here is a bug.
		panic(fmt.Sprintf("optimizer: hashing the configuration: %v", err))
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// mooCheckpoint returns the search's checkpointing for the checkpoint c of
// the configuration of hash config, and the header of c.Resume (nil when
// not resuming).
func mooCheckpoint(c *Checkpoint, config string, s configs.Search, constructed *int) (*moo.Checkpoint, *CheckpointHeader, error) {
	if c == nil {
		return nil, nil, nil
	}
	now := c.Now
	if now == nil {
		now = time.Now
	}
	last := now()
	mc := &moo.Checkpoint{
		Due: func(g int) bool {
			due := c.Generations > 0 && g > 0 && g%c.Generations == 0
			if c.Every > 0 && now().Sub(last) >= c.Every {
				due = true
			}
			if due {
				last = now()
			}
			return due
		},
	}
	if c.Save != nil {
		mc.Save = func(state []byte, at moo.Progress) error {
			h := CheckpointHeader{Config: config, Algorithm: s.Algorithm, Seed: s.Seed, Generation: at.Generation, Evaluations: at.Evaluations + *constructed,
				Constructed: *constructed, Saved: now().UTC().Truncate(time.Second)}
			var buf bytes.Buffer
			w := bufio.NewWriter(&buf)
			w.WriteString(checkpointMagic)
			line, _ := json.Marshal(h)
			w.Write(line)
			w.WriteByte('\n')
			w.Write(state)
			w.Flush()
			return c.Save(buf.Bytes())
		}
	} else {
		mc.Due = nil
	}
	if len(c.Resume) == 0 {
		return mc, nil, nil
	}
	h, state, err := ReadCheckpointHeader(c.Resume)
	if err != nil {
		return nil, nil, err
	}
	if h.Algorithm != s.Algorithm {
		return nil, nil, fmt.Errorf("%w: it is a checkpoint of the %s search, this run's is the %s search: resume with the algorithm the run began with", ErrCheckpoint, h.Algorithm, s.Algorithm)
	}
	if h.Config != config {
		return nil, nil, fmt.Errorf("%w: it was written for another configuration (system, analysis or search settings, seed or algorithm differ; SHA-256 %.12s…, this run's %.12s…): resume with the configuration and options the run began with", ErrCheckpoint, h.Config, config)
	}
	mc.Resume = state
	*constructed = h.Constructed
	return mc, &h, nil
}

// The search problem's own state in a checkpoint (moo.CheckpointProblem):
// the distinct feasible mappings the workers met, with what they learnt of
// each, and the evaluations with an undecided core; and the payloads of the
// genetic search's variants (*sidePoint).

type problemState struct {
	Keys      []uint64
	Seen      []seenState
	Undecided int
	// The exhaustive search's: the priority-order variants the workers
	// kept (worker.side), and the mappings they left undecided
	// (worker.open), by key.
	Side     []sideState
	OpenKeys []uint64
	Open     []string
}

type seenState struct {
	Feasible, Schedulable, Incomplete bool
	Variants                          int32
	Cost                              int
}

type sideState struct {
	Obj []float64
	A   evaluate.Assignment
	Key []int64
}

// merged returns what every worker met, the mappings resumed included, a
// mapping with what the worker allowed the most learnt of it (as front
// counts them); the evaluations with an undecided core; the exhaustive
// search's variants kept and its mappings left undecided, by key.
func (p *Problem) merged() (seen map[uint64]mappingSeen, undecided int, side []*sidePoint, open map[uint64]string) {
	seen, open = map[uint64]mappingSeen{}, map[uint64]string{}
	undecided = p.resumedUndecided
	for k, m := range p.resumed {
		seen[k] = m
	}
	for k := range p.resumedSide {
		side = append(side, &p.resumedSide[k])
	}
	for k, d := range p.resumedOpen {
		open[k] = d
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.workers {
		for k, m := range w.feasible {
			if old, ok := seen[k]; !ok || m.cost > old.cost {
				seen[k] = m
			}
		}
		undecided += w.undecided
		for k := range w.side {
			side = append(side, &w.side[k])
		}
		for k, d := range w.open {
			open[k] = d
		}
	}
	return seen, undecided, side, open
}

// SaveState implements moo.CheckpointProblem.
func (p *Problem) SaveState() ([]byte, error) {
	seen, undecided, side, open := p.merged()
	st := problemState{Undecided: undecided}
	// Fixed orders, so that equal states are equal files.
	st.Keys = slices.Sorted(maps.Keys(seen))
	for _, k := range st.Keys {
		m := seen[k]
		st.Seen = append(st.Seen, seenState{Feasible: m.feasible, Schedulable: m.schedulable, Incomplete: m.incomplete, Variants: m.variants, Cost: m.cost})
	}
	slices.SortStableFunc(side, func(a, b *sidePoint) int { return slices.Compare(a.key, b.key) })
	for _, sp := range side {
		st.Side = append(st.Side, sideState{Obj: sp.obj, A: *sp.a, Key: sp.key})
	}
	st.OpenKeys = slices.Sorted(maps.Keys(open))
	for _, k := range st.OpenKeys {
		st.Open = append(st.Open, open[k])
	}
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(&st)
	return buf.Bytes(), err
}

// RestoreState implements moo.CheckpointProblem: the workers consult the
// mappings met before the checkpoint as their own (worker.feasibleMapping),
// and front counts them.
func (p *Problem) RestoreState(data []byte) error {
	var st problemState
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&st); err != nil {
		return err
	}
	if len(st.Keys) != len(st.Seen) || len(st.OpenKeys) != len(st.Open) {
		return errors.New("the search problem's state is malformed")
	}
	p.resumed = make(map[uint64]mappingSeen, len(st.Keys))
	for i, k := range st.Keys {
		s := st.Seen[i]
		p.resumed[k] = mappingSeen{feasible: s.Feasible, schedulable: s.Schedulable, incomplete: s.Incomplete, variants: s.Variants, cost: s.Cost}
	}
	p.resumedUndecided = st.Undecided
	p.resumedSide = p.resumedSide[:0]
	for _, v := range st.Side {
		sp, err := p.sidePointOf(v)
		if err != nil {
			return err
		}
		p.resumedSide = append(p.resumedSide, *sp)
	}
	p.resumedOpen = make(map[uint64]string, len(st.OpenKeys))
	for i, k := range st.OpenKeys {
		p.resumedOpen[k] = st.Open[i]
	}
	return nil
}

// EncodePayload implements moo.CheckpointProblem: the genetic search's
// payloads are its variants.
func (p *Problem) EncodePayload(v any) ([]byte, error) {
	sp, ok := v.(*sidePoint)
	if !ok {
		return nil, fmt.Errorf("a payload of type %T cannot be saved", v)
	}
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(sideState{Obj: sp.obj, A: *sp.a, Key: sp.key})
	return buf.Bytes(), err
}

// DecodePayload implements moo.CheckpointProblem.
func (p *Problem) DecodePayload(data []byte) (any, error) {
	var st sideState
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&st); err != nil {
		return nil, err
	}
	return p.sidePointOf(st)
}

// sidePointOf returns the variant a checkpoint saved, checked.
func (p *Problem) sidePointOf(st sideState) (*sidePoint, error) {
	if len(st.A.Unit) != len(p.tasks) || len(st.A.Priority) != len(p.tasks) || len(st.A.Async) != len(p.gpuTasks) || len(st.Obj) != len(p.objectives) {
		return nil, errors.New("a variant of the checkpoint is not a mapping of this system")
	}
	return &sidePoint{obj: st.Obj, a: &st.A, key: st.Key}, nil
}

var _ moo.CheckpointProblem = (*Problem)(nil)
