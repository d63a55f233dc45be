package gpuscenario

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-viper/mapstructure/v2"
)

// Problem is one thing wrong with an input file: the key path (for example
// "kernels[2].block_time"; "" for the whole file) and what is wrong.
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// LoadError lists every problem found in one file.
type LoadError struct {
	File     string
	Problems []Problem
}

func (e *LoadError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("\n")
		}
		if e.File != "" {
			b.WriteString(e.File + ": ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// problems collects Problems while a file is checked.
type problems struct {
	list []Problem
}

func (ps *problems) add(path, format string, args ...any) {
	ps.list = append(ps.list, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// err returns a *LoadError, or nil when nothing was found. Problems are sorted
// by path so that messages do not depend on map order.
func (ps *problems) err(file string) error {
	if len(ps.list) == 0 {
		return nil
	}
	l := slices.Clone(ps.list)
	slices.SortStableFunc(l, func(a, b Problem) int { return comparePaths(a.Path, b.Path) })
	l = slices.Compact(l)
	return &LoadError{File: file, Problems: l}
}

// comparePaths orders "kernels[2].x" before "kernels[10].x".
func comparePaths(a, b string) int {
	for a != "" && b != "" {
		na, ra := leadingNumber(a)
		nb, rb := leadingNumber(b)
		if na >= 0 && nb >= 0 {
			if na != nb {
				return na - nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func leadingNumber(s string) (int, string) {
	n, i := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' && i < 9 {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 0 {
		return -1, s
	}
	return n, s[i:]
}

// addDecodeErrors turns the errors of a mapstructure decode into Problems:
// unknown keys become one Problem per key, other errors keep their path.
func (ps *problems) addDecodeErrors(err error, known func(path string) []string) {
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		var de *mapstructure.DecodeError
		if errors.As(e, &de) && de == e {
			inner := de.Unwrap()
			if hasDecodeError(inner) {
				walk(inner)
				return
			}
			ps.addLeaf(de.Name(), inner, known)
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		if u := errors.Unwrap(e); u != nil {
			walk(u)
			return
		}
		ps.add("", "%v", e)
	}
	walk(err)
}

func hasDecodeError(e error) bool {
	var de *mapstructure.DecodeError
	return errors.As(e, &de)
}

func (ps *problems) addLeaf(name string, err error, known func(path string) []string) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if strings.Contains(name, ".") && !strings.ContainsAny(name, "[]") && strings.HasPrefix(name, "gpuscenario.") {
		name = "" // the root struct
	}
	if rest, ok := strings.CutPrefix(msg, "has invalid keys: "); ok {
		for _, k := range strings.Split(rest, ", ") {
			p := k
			if name != "" {
				p = name + "." + k
			}
			hint := ""
			if kn := known(name); len(kn) > 0 {
				hint = " (known keys: " + strings.Join(kn, ", ") + ")"
			}
			ps.add(p, "unknown key%s", hint)
		}
		return
	}
	if rest, ok := strings.CutPrefix(msg, "source data must be an array or slice, got "); ok {
		msg = "wrong type: expected a list, got " + kindWord(rest)
	}
	if rest, ok := strings.CutPrefix(msg, "expected a map or struct, got "); ok {
		msg = "wrong type: expected a mapping, got " + kindWord(strings.Trim(rest, `"'`))
	}
	var ute *mapstructure.UnconvertibleTypeError
	if errors.As(err, &ute) {
		msg = fmt.Sprintf("wrong type: expected %s, got %s", typeWord(ute.Expected.Type().Kind().String()), describe(ute.Value))
	}
	ps.add(name, "%s", msg)
}

// kindWord names a Go kind from a mapstructure message ("int", "string").
func kindWord(kind string) string {
	switch kind {
	case "int", "int64", "uint64":
		return "an integer"
	case "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice":
		return "a list"
	case "map":
		return "a mapping"
	}
	return kind
}

func typeWord(kind string) string {
	switch kind {
	case "slice":
		return "a list"
	case "struct", "map":
		return "a mapping"
	case "int", "int64":
		return "an integer"
	case "string":
		return "a string"
	}
	return kind
}

// describe names a decoded YAML value for a message.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int, int64, uint64, int32, uint32, uint:
		return fmt.Sprintf("the integer %v", x)
	case float64, float32:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any, map[any]any:
		return "a mapping"
	}
	return fmt.Sprintf("a %T", v)
}
