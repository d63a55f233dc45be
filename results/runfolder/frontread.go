package runfolder

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/results"
)

// readFront reads front.json (any results format) as a stream: the fields
// of the front into head (its Points and LeastViolating left empty) and
// each point, one at a time, to each (least: a least-violating mapping).
// Memory does not grow with the front. An error of each stops the reading
// and is returned as it is.
func readFront(path string, head *results.FrontJSON, each func(least bool, p *results.FrontPointJSON) error) error {
	f, _, err := configs.OpenInput(path, "the run's front.json")
	if err != nil {
		return err
	}
	defer f.Close()
	return decodeFront(bufio.NewReaderSize(f, 1<<16), head, each)
}

// atPath names path in err, unless err names its file already (as the
// refusals of configs.OpenInput and configs.ReadInput do); a file that
// cannot be opened is the path and why, in plain words.
func atPath(path string, err error) error {
	var ie *configs.InputError
	var pe *fs.PathError
	switch {
	case errors.As(err, &ie) && ie.File != "":
		return err
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %v", path, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// errStop is returned by an each of readFront that has what it needs.
var errStop = errors.New("stop reading")

// frontSyntaxError is front.json that is not the JSON hetmap writes.
type frontSyntaxError struct{ err error }

func (e *frontSyntaxError) Error() string { return e.err.Error() }
func (e *frontSyntaxError) Unwrap() error { return e.err }

func decodeFront(r io.Reader, head *results.FrontJSON, each func(least bool, p *results.FrontPointJSON) error) error {
	dec := json.NewDecoder(r)
	bad := func(err error) error {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return &frontSyntaxError{err}
	}
	delim := func(want json.Delim) error {
		tok, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		if d, ok := tok.(json.Delim); !ok || d != want {
			return bad(fmt.Errorf("%v where %v was expected", tok, want))
		}
		return nil
	}
	if err := delim('{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		key, _ := tok.(string)
		var v any
		switch key {
		case "points", "least_violating":
			tok, err := dec.Token()
			if err != nil {
				return bad(err)
			}
			if tok == nil { // null
				continue
			}
			if d, ok := tok.(json.Delim); !ok || d != '[' {
				return bad(fmt.Errorf("%s: %v where a list was expected", key, tok))
			}
			for dec.More() {
				var p results.FrontPointJSON
				if err := dec.Decode(&p); err != nil {
					return bad(err)
				}
				if err := each(key == "least_violating", &p); err != nil {
					return err
				}
			}
			if err := delim(']'); err != nil {
				return err
			}
			continue
		case "results_format":
			v = &head.ResultsFormat
		case "system":
			v = &head.System
		case "objectives":
			v = &head.Objectives
		case "feasible":
			v = &head.Feasible
		case "proof":
			v = &head.Proof
		default:
			v = new(json.RawMessage)
		}
		if err := dec.Decode(v); err != nil {
			return bad(err)
		}
	}
	if err := delim('}'); err != nil {
		return err
	}
	return nil
}
