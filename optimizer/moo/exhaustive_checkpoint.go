package moo

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
)

// frontierNodes is the least number of top-level subtrees an Exhaustive
// enumeration is split into: the partial assignments of the shallowest
// depth that has at least this many that Prune keeps (or of the depth
// before the last gene). The workers enumerate them one after the other,
// all of them sharing each, and a checkpoint is taken between two, where
// the state is that of the subtrees completed, in their order.
const frontierNodes = 256

// frontier returns the top-level subtrees of the enumeration, in
// depth-first order, as tasks for the workers, with the children it
// examined and cut to find them. It asks the Walker wk, and stops with
// ok false when the run is interrupted.
func (e *enumeration) frontier(wk Walker) (nodes []task, examined, pruned int, ok bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			nodes, ok, err = nil, false, fmt.Errorf("moo: enumeration walker panicked: %v", v)
		}
	}()
	sp, order := e.r.sp, e.order
	n := sp.n
	nodes = []task{{partial: make([]int, n)}}
	var vals []int
	for depth := 0; len(nodes) > 0 && len(nodes) < frontierNodes && depth+1 < n; depth++ {
		gene := order[depth]
		var next []task
		for _, t := range nodes {
			if e.r.interrupted() {
				return nil, 0, 0, false, nil
			}
			vals = wk.Values(t.partial, depth, vals[:0])
			if err := sp.checkValues(gene, vals); err != nil {
				return nil, 0, 0, false, err
			}
			for _, v := range vals {
				examined++
				t.partial[gene] = v
				if wk.Prune(t.partial, depth+1) {
					pruned++
					continue
				}
				next = append(next, task{partial: append([]int(nil), t.partial...), depth: depth + 1})
			}
		}
		nodes = next
	}
	return nodes, examined, pruned, true, nil
}

// checkValues checks that the values a Walker offers gene are of its
// domain, without repeats.
func (sp *space) checkValues(gene int, vals []int) error {
	seen := make(map[int]bool, len(vals))
	for _, v := range vals {
		if _, ok := sp.index[gene][v]; !ok {
			return fmt.Errorf("moo: enumeration offers gene %d the value %d, not one of %v", gene, v, sp.values[gene])
		}
		if seen[v] {
			return fmt.Errorf("moo: enumeration offers gene %d the value %d twice", gene, v)
		}
		seen[v] = true
	}
	return nil
}

// exhaustiveFormat is the format version of an Exhaustive state.
const exhaustiveFormat = 1

// exhaustiveState is what Checkpoint.Save receives from Exhaustive,
// encoded with encoding/gob: the top-level subtrees completed (the first
// Done of the frontier, whose size and depth it checks), the front and
// least-violating points of those subtrees, the counters, and what the
// Problem saves of itself (CheckpointProblem). Its size is that of the
// front found so far (the exhaustive search's archive is not bounded), of
// Settings.KeepInfeasible points, and of the Problem's state.
type exhaustiveState struct {
	Format                int
	Kind                  string // "exhaustive": not NSGA-II's state
	Genes, Objects        int
	Frontier, Depth, Done int
	Evaluations, Analyses int
	Feasible, Pruned      int
	Examined              int64
	Front, Least          []statePoint
	ProblemState          []byte
	HasProblemState       bool
}

const exhaustiveKind = "exhaustive"

// saveState encodes the state of the enumeration once the first done of
// its frontier's subtrees are complete, while no worker runs.
func (e *enumeration) saveState(frontier []task, done int) ([]byte, error) {
	r := e.r
	codec := payloadCodec(r.problem)
	st := exhaustiveState{Format: exhaustiveFormat, Kind: exhaustiveKind, Genes: r.sp.n, Objects: r.sp.m, Frontier: len(frontier), Done: done,
		Evaluations: r.evaluations, Analyses: r.analyses, Feasible: r.feasible, Pruned: r.pruned, Examined: e.examined.Load()}
	if len(frontier) > 0 {
		st.Depth = frontier[0].depth
	}
	for _, list := range []struct {
		points []Point
		dst    *[]statePoint
	}{{r.archive.points, &st.Front}, {r.least.points, &st.Least}} {
		for i := range list.points {
			p, err := encodePoint(codec, &list.points[i])
			if err != nil {
				return nil, err
			}
			*list.dst = append(*list.dst, p)
		}
	}
	if codec != nil {
		data, err := codec.SaveState()
		if err != nil {
			return nil, fmt.Errorf("moo: checkpoint: the problem's state: %w", err)
		}
		st.ProblemState, st.HasProblemState = data, true
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&st); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// restoreState restores a state that saveState returned for the same
// frontier, and returns the number of subtrees it completed.
func (e *enumeration) restoreState(data []byte, frontier []task) (int, error) {
	var st exhaustiveState
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&st); err != nil || st.Kind != exhaustiveKind {
		return 0, errors.New("moo: checkpoint: the state is not one of an exhaustive enumeration")
	}
	r := e.r
	depth := 0
	if len(frontier) > 0 {
		depth = frontier[0].depth
	}
	switch {
	case st.Format != exhaustiveFormat:
		return 0, fmt.Errorf("moo: checkpoint: the state is of format %d, this version reads %d", st.Format, exhaustiveFormat)
	case st.Genes != r.sp.n || st.Objects != r.sp.m:
		return 0, fmt.Errorf("moo: checkpoint: the state is of a problem of %d genes and %d objectives, this one has %d and %d", st.Genes, st.Objects, r.sp.n, r.sp.m)
	case st.Frontier != len(frontier) || st.Depth != depth || st.Done < 0 || st.Done > st.Frontier:
		return 0, fmt.Errorf("moo: checkpoint: the state splits the enumeration into %d subtrees at depth %d, this run into %d at depth %d", st.Frontier, st.Depth, len(frontier), depth)
	}
	codec := payloadCodec(r.problem)
	if st.HasProblemState {
		if codec == nil {
			return 0, errors.New("moo: checkpoint: the state holds a problem's state, and the problem does not implement CheckpointProblem")
		}
		if err := codec.RestoreState(st.ProblemState); err != nil {
			return 0, fmt.Errorf("moo: checkpoint: %w", err)
		}
	}
	for _, list := range []struct {
		points []statePoint
		add    func(Point)
	}{{st.Front, func(p Point) { r.archive.Add(p) }}, {st.Least, r.least.add}} {
		for _, sp := range list.points {
			p, err := decodePoint(codec, &sp)
			if err == nil {
				err = r.sp.checkPoint(&p)
			}
			if err != nil {
				return 0, err
			}
			list.add(p)
		}
	}
	r.evaluations, r.analyses, r.feasible, r.pruned = st.Evaluations, st.Analyses, st.Feasible, st.Pruned
	e.examined.Store(st.Examined)
	e.cuts.Store(int64(st.Pruned))
	return st.Done, nil
}

// checkPoint checks a point of a saved state against the space.
func (sp *space) checkPoint(p *Point) error {
	if err := sp.check(p.Genome); err != nil {
		return fmt.Errorf("moo: checkpoint: %w", err)
	}
	if len(p.Objectives) != sp.m {
		return errors.New("moo: checkpoint: a point of the state has the wrong number of objectives")
	}
	return nil
}
