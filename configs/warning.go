package configs

import (
	"fmt"
	"strconv"
)

// Warning is an inconsistency in the input that hetmap resolved by a
// documented convention. The user sees every warning; none is an error.
type Warning struct {
	// Where names the element or key, e.g. "mappingModel/taskAllocation[PRE_SFM_gpu_POST]".
	Where string `json:"where" yaml:"where"`
	// What says what was found and how it was resolved.
	What string `json:"what" yaml:"what"`
}

func (w Warning) String() string { return w.Where + ": " + w.What }

// DroppedChain starts the warning of a model's event chain that the
// Amalthea reader dropped as contradicting itself; Validate finds it when
// an objective names the chain.
const DroppedChain = "dropped: the chain contradicts itself"

// InputError is bad input: a malformed or unsupported model, an unknown
// key, an impossible value. It says where and what.
type InputError struct {
	File  string // the file, if any
	Line  int    // the line in File where the element starts, if known
	Where string // the element or key path
	What  string
}

func (e *InputError) Error() string {
	s := ""
	switch {
	case e.File != "" && e.Line > 0:
		s = e.File + ":" + strconv.Itoa(e.Line) + ": "
	case e.File != "":
		s = e.File + ": "
	case e.Line > 0:
		s = "line " + strconv.Itoa(e.Line) + ": "
	}
	if e.Where != "" {
		s += e.Where + ": "
	}
	return s + e.What
}

func inputErrorf(where, format string, args ...any) *InputError {
	return &InputError{Where: where, What: fmt.Sprintf(format, args...)}
}
