package configs

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/viper"
)

// LoadMappingFile reads a mapping file: the layout of Mapping in YAML
// (units, and optionally offloading, time_slices and gpu_priorities). The
// decoding is strict, as for configurations: an unknown key or a wrong type
// is an *InputError naming the file and the key path. The mapping is not
// checked against a system here; use ValidateMapping for that.
func LoadMappingFile(path string) (*Mapping, error) {
	data, err := ReadInput(path, "the mapping")
	if err != nil {
		return nil, err
	}
	return loadMapping(data, path)
}

// LoadMapping reads a mapping from r; name is used in messages.
func LoadMapping(r io.Reader, name string) (*Mapping, error) {
	data, err := ReadLimited(r, name, "the mapping")
	if err != nil {
		return nil, err
	}
	return loadMapping(data, name)
}

func loadMapping(data []byte, name string) (*Mapping, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, &InputError{File: name, What: "not valid YAML: " + cleanYAMLError(err)}
	}
	var m Mapping
	if err := v.Unmarshal(&m, strictDecoding); err != nil {
		return nil, &InputError{File: name, What: cleanDecodeError(err)}
	}
	if len(m.Units) == 0 {
		return nil, &InputError{File: name, Where: "units", What: "missing: a mapping places every task that runs, e.g. `units: [{task: DASM, unit: Core2}, …]`"}
	}
	return &m, nil
}

// OwnMapping returns the system's own mapping (System.Mapping) as
// `analyze --mapping default` analyses it, and a warning for every CPU core
// whose priorities it drops. A core keeps the priorities the model gives
// when every task placed on it has one and they are not all equal: the
// analysis then uses them, as it uses those of a mapping file. Otherwise
// the core's priorities are dropped and the analysis derives them
// (analysis.priorities, default Audsley's OPA): a model that gives only
// some tasks of a core a priority leaves their order open, and one value
// given to every task (the WATERS 2019 model gives every task priority 1;
// a core of one task) orders nothing. The warnings name the cores of two
// or more tasks whose priorities are dropped, and the tasks that share a
// priority on a core whose priorities are used.
func (s *System) OwnMapping() (Mapping, []Warning) {
	return ownPriorities(s, s.Mapping)
}

// ownPriorities drops the priorities of mapping m of s on every CPU core
// whose priorities are incomplete or order nothing (System.OwnMapping).
func ownPriorities(s *System, m Mapping) (Mapping, []Warning) {
	m.Units = append([]Placement(nil), m.Units...)
	var warns []Warning
	for _, u := range s.Units {
		if u.Type != CPU {
			continue
		}
		var with, without []string
		values := map[int][]string{}
		for _, p := range m.Units {
			if p.Unit != u.Name {
				continue
			}
			if p.Priority == nil {
				without = append(without, p.Task)
				continue
			}
			with = append(with, p.Task)
			values[*p.Priority] = append(values[*p.Priority], p.Task)
		}
		where := "mappingModel/" + u.Name
		switch {
		case len(with) == 0:
			continue
		case len(without) > 0:
			warns = append(warns, Warning{Where: where, What: fmt.Sprintf("the model's priorities are incomplete: %s %s a priority but %s %s not; under --mapping default the priorities of %s are derived by analysis.priorities (default: Audsley's optimal priority assignment)",
				strings.Join(with, ", "), hasHave(len(with)), strings.Join(without, ", "), doesDo(len(without)), u.Name)})
		case len(with) == 1:
			// One task alone: its priority orders nothing and changes no
			// response time; the analysis reports it as derived.
		case len(values) == 1:
			var p int
			for p = range values {
			}
			warns = append(warns, Warning{Where: where, What: fmt.Sprintf("tasks %s share priority %d, which orders nothing: under --mapping default the priorities of %s are derived by analysis.priorities (default: Audsley's optimal priority assignment)",
				strings.Join(with, ", "), p, u.Name)})
		default:
			prios := make([]int, 0, len(values))
			for p := range values {
				prios = append(prios, p)
			}
			sort.Ints(prios)
			for _, p := range prios {
				if tasks := values[p]; len(tasks) > 1 {
					warns = append(warns, Warning{Where: where, What: fmt.Sprintf("tasks %s share priority %d: under --mapping default the model's priorities of %s are used, and tasks of equal priority interfere with each other",
						strings.Join(tasks, ", "), p, u.Name)})
				}
			}
			continue
		}
		for i := range m.Units {
			if m.Units[i].Unit == u.Name {
				m.Units[i].Priority = nil
			}
		}
	}
	return m, warns
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func doesDo(n int) string {
	if n == 1 {
		return "does"
	}
	return "do"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
