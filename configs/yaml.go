package configs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
	"gopkg.in/yaml.v3"
)

// fileSchema is the layout of a hetmap YAML configuration: either the whole
// system inline (units, labels, runnables, tasks, mapping, memory, …) or
// `model:` naming an Amalthea file, plus what Amalthea lacks.
type fileSchema struct {
	// Model is one path or a list of them (a model in several files, as
	// --model takes it): a string or a list of strings.
	Model       any         `yaml:"model,omitempty"`
	Name        string      `yaml:"name,omitempty"`
	Units       []Unit      `yaml:"units,omitempty"`
	Memory      *Memory     `yaml:"memory,omitempty"`
	Labels      []Label     `yaml:"labels,omitempty"`
	Runnables   []Runnable  `yaml:"runnables,omitempty"`
	Tasks       []Task      `yaml:"tasks,omitempty"`
	TimeSlice   SliceBounds `yaml:"time_slice,omitempty"`
	Mapping     *Mapping    `yaml:"mapping,omitempty"`
	Chains      []Chain     `yaml:"chains,omitempty"`
	Conventions Conventions `yaml:"conventions,omitempty"`
	Analysis    Analysis    `yaml:"analysis,omitempty"`
	Search      Search      `yaml:"search,omitempty"`
	// Warnings records what an import resolved by conventions, so that a
	// configuration written by `hetmap import` still tells the user.
	Warnings []Warning `yaml:"warnings,omitempty"`
}

// BuiltinModel, as the `model:` of a configuration, names the built-in
// WATERS 2019 system (with its chains) instead of an Amalthea file.
const BuiltinModel = "builtin"

// LoadFile reads a configuration: a YAML file, or an Amalthea model when
// the name ends in .amxmi or names a folder of .amxmi files. The result is
// validated.
func LoadFile(path string) (*Config, error) {
	if st, err := os.Stat(path); (err == nil && st.IsDir()) || strings.EqualFold(filepath.Ext(path), ".amxmi") {
		return LoadModel([]string{path})
	}
	data, err := ReadInput(path, "the configuration")
	if err != nil {
		return nil, err
	}
	return loadYAML(data, path, filepath.Dir(path))
}

// LoadModel reads an Amalthea model given as one or more .amxmi files or
// folders (one model, see configs/amalthea's ReadFiles) with the default
// conventions and analysis. The result is validated.
func LoadModel(paths []string) (*Config, error) {
	files, sys, warns, err := readRegisteredModel(paths)
	if err != nil {
		return nil, err
	}
	source := strings.Join(paths, ", ")
	if len(sys.Chains) == 0 {
		warns = append(warns, noChainsWarning())
	}
	return finish(&Config{System: sys, Source: source, Warnings: warns, Amalthea: files}, source)
}

// noChainsWarning says that a model has no chains. It names the model's
// part, not its file: a warning names no machine's path.
func noChainsWarning() Warning {
	return Warning{Where: "constraintsModel", What: "the model has no event chains: add `chains:` in a YAML configuration that names this model (the built-in WATERS 2019 configuration has the eight chains of the challenge)"}
}

// Load reads a YAML configuration from r. name is used in messages; a
// relative `model:` path is resolved against dir.
func Load(r io.Reader, name, dir string) (*Config, error) {
	data, err := ReadLimited(r, name, "the configuration")
	if err != nil {
		return nil, err
	}
	return loadYAML(data, name, dir)
}

func loadYAML(data []byte, name, dir string) (*Config, error) {
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return nil, &InputError{File: name, What: "not valid YAML: " + cleanYAMLError(err)}
	}
	var f fileSchema
	if err := v.Unmarshal(&f, strictDecoding); err != nil {
		return nil, &InputError{File: name, What: cleanDecodeError(err) + fileKindHint(v, name, false)}
	}
	if err := checkNoZeroDefaults(v, ""); err != nil {
		err.File = name
		return nil, err
	}
	cfg := &Config{Conventions: f.Conventions, Analysis: f.Analysis, Search: f.Search, Source: name, Warnings: f.Warnings}
	modelChains := 0 // chains of the named model, before this file's
	models, merr := modelPaths(f.Model)
	if merr != nil {
		merr.File = name
		return nil, merr
	}
	if len(models) > 0 {
		if len(f.Units)+len(f.Labels)+len(f.Runnables)+len(f.Tasks) > 0 || f.Mapping != nil || f.TimeSlice != (SliceBounds{}) {
			return nil, &InputError{File: name, Where: "model", What: "a configuration that names a model takes units, labels, runnables, tasks, the mapping and time-slice bounds from it; remove them here (memory, chains, conventions and analysis may be added)"}
		}
		var sys *System
		var warns []Warning
		if len(models) == 1 && models[0] == BuiltinModel {
			// The built-in system with its chains; this file's conventions,
			// analysis and search replace the built-in ones.
			def, err := Default()
			if err != nil {
				return nil, err
			}
			sys, warns = def.System, def.Warnings
		} else {
			for i, m := range models {
				if m == BuiltinModel {
					return nil, &InputError{File: name, Where: "model", What: "builtin names the built-in system alone: it is not a file of a model in several files"}
				}
				if !filepath.IsAbs(m) {
					models[i] = filepath.Join(dir, m)
				}
			}
			files, s, w, err := readRegisteredModel(models)
			if err != nil {
				return nil, err
			}
			sys, warns, cfg.Amalthea = s, w, files
		}
		if f.Memory != nil {
			sys.Memory = *f.Memory
			// The memory section replaces the challenge values the importer used.
			warns = dropWarning(warns, "hwModel", "memory-contention")
		}
		if f.Name != "" {
			sys.Name = f.Name
		}
		modelChains = len(sys.Chains)
		sys.Chains = append(sys.Chains, f.Chains...)
		if len(f.Chains) > 0 {
			warns = dropWarning(warns, "constraintsModel", "no event chains")
		}
		cfg.System, cfg.Warnings = sys, append(f.Warnings, warns...)
	} else {
		if f.Memory == nil {
			return nil, &InputError{File: name, Where: "memory", What: "missing: an inline system needs the memory-contention parameters (line_size, cores, copy_engine)"}
		}
		sys := &System{Name: f.Name, Units: f.Units, Memory: *f.Memory, Labels: f.Labels, Runnables: f.Runnables,
			Tasks: f.Tasks, TimeSlice: f.TimeSlice, Chains: f.Chains}
		if f.Mapping != nil {
			sys.Mapping = *f.Mapping
		}
		cfg.System = sys
	}
	cfg, err := finish(cfg, name)
	if err != nil && modelChains > 0 {
		renumberChains(err, modelChains)
	}
	return cfg, err
}

// modelPaths reads the model: key: a path, or a list of paths.
func modelPaths(v any) ([]string, *InputError) {
	switch m := v.(type) {
	case nil:
		return nil, nil
	case string:
		if strings.TrimSpace(m) == "" {
			return nil, nil
		}
		return []string{m}, nil
	case []any:
		var out []string
		for i, e := range m {
			p, ok := e.(string)
			if !ok || strings.TrimSpace(p) == "" {
				return nil, &InputError{Where: fmt.Sprintf("model[%d]", i), What: fmt.Sprintf("expected the path of an .amxmi file or folder, got %v", e)}
			}
			out = append(out, p)
		}
		if len(out) == 0 {
			return nil, &InputError{Where: "model", What: "the list names no file"}
		}
		return out, nil
	}
	return nil, &InputError{Where: "model", What: fmt.Sprintf("expected a path or a list of paths, got %v", v)}
}

var chainKey = regexp.MustCompile(`^chains\[(\d+)\]`)

// renumberChains makes the key path of an error about a chain name it as
// the file does: the chains of this file follow the named model's, so this
// file's chains[0] is the system's chains[n].
func renumberChains(err error, n int) {
	var ie *InputError
	if !errors.As(err, &ie) {
		return
	}
	m := chainKey.FindStringSubmatch(ie.Where)
	if m == nil {
		return
	}
	i, _ := strconv.Atoi(m[1])
	if i >= n {
		ie.Where = fmt.Sprintf("chains[%d]", i-n) + ie.Where[len(m[0]):]
	} else {
		ie.Where = "the model's chains[" + m[1] + "]" + ie.Where[len(m[0]):]
	}
}

// ignorePriorities replaces, under conventions.priorities: derived, the
// warnings about how --mapping default uses the model's priorities
// (System.OwnMapping's) with one saying that they are ignored, when the
// model gives any.
func ignorePriorities(s *System, ws []Warning) []Warning {
	_, own := s.OwnMapping()
	drop := map[Warning]bool{}
	for _, w := range own {
		drop[w] = true
	}
	out := make([]Warning, 0, len(ws)+1)
	for _, w := range ws {
		if !drop[w] {
			out = append(out, w)
		}
	}
	given := 0
	for _, p := range s.Mapping.Units {
		if p.Priority != nil {
			given++
		}
	}
	if given > 0 {
		out = append(out, Warning{Where: "conventions.priorities", What: fmt.Sprintf("derived: the %d priorities of the model's own mapping are ignored; --mapping default derives every core's priorities by analysis.priorities", given)})
	}
	return out
}

func dropWarning(ws []Warning, where, contains string) []Warning {
	out := ws[:0]
	for _, w := range ws {
		if !(w.Where == where && strings.Contains(w.What, contains)) {
			out = append(out, w)
		}
	}
	return out
}

// finish applies the defaults and conventions and validates.
func finish(cfg *Config, name string) (*Config, error) {
	cfg.Conventions.Defaults()
	cfg.Analysis.Defaults()
	if cfg.Conventions.Priorities == ModelPrioritiesIgnore && cfg.System != nil {
		cfg.Warnings = ignorePriorities(cfg.System, cfg.Warnings)
	}
	if err := Validate(cfg); err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.File == "" {
			ie.File = name
		}
		return nil, err
	}
	return cfg, nil
}

// strictDecoding makes an unknown key or a wrong type an error, and reads
// durations, frequencies and sizes with their units.
func strictDecoding(c *mapstructure.DecoderConfig) {
	c.ErrorUnused = true
	c.WeaklyTypedInput = false
	c.TagName = "yaml"
	c.DecodeHook = quantityHook
}

var (
	requirementsType = reflect.TypeOf([]ChainRequirement(nil))
	durationType     = reflect.TypeOf(Duration(0))
	frequencyType    = reflect.TypeOf(Frequency(0))
	sizeType         = reflect.TypeOf(Size(0))
)

func quantityHook(from, to reflect.Type, data any) (any, error) {
	if to.PkgPath() == "" && to.Kind() >= reflect.Int && to.Kind() <= reflect.Int64 {
		return wholeNumber(data, to)
	}
	switch to {
	case requirementsType:
		if v, ok, err := requirementsHook(data); ok {
			return v, err
		}
	case durationType:
		switch v := data.(type) {
		case string:
			return ParseDuration(v)
		case int:
			if v == 0 {
				return Duration(0), nil
			}
		}
		return nil, fmt.Errorf("%v is not a duration: write a number with a unit, e.g. \"5ms\"", data)
	case frequencyType:
		if s, ok := data.(string); ok {
			return ParseFrequency(s)
		}
		return nil, fmt.Errorf("%v is not a frequency: write a number with a unit, e.g. \"2GHz\"", data)
	case sizeType:
		switch v := data.(type) {
		case string:
			return ParseSize(v)
		case int:
			return Size(v), nil
		case int64:
			return Size(v), nil
		}
		return nil, fmt.Errorf("%v is not a size: write bytes, or a number with a unit, e.g. \"32KiB\"", data)
	}
	return data, nil
}

// wholeNumber checks a YAML number for an integer key: YAML reads a number
// too large for an integer, and one with a fraction, as a float, which the
// decoder would otherwise truncate or wrap around (99999999999999999999
// became -9223372036854775808, 2.5 became 2).
func wholeNumber(data any, to reflect.Type) (any, error) {
	limit := uint64(1)<<(to.Bits()-1) - 1
	switch v := data.(type) {
	case float64:
		if v != math.Trunc(v) || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("%v is not a whole number", data)
		}
		if math.Abs(v) > float64(limit) {
			return nil, fmt.Errorf("%s is too large: hetmap takes whole numbers up to %d here", strconv.FormatFloat(v, 'f', -1, 64), limit)
		}
		return int64(v), nil
	case uint64:
		if v > limit {
			return nil, fmt.Errorf("%d is too large: hetmap takes whole numbers up to %d here", v, limit)
		}
	case int:
		if to.Bits() < 64 && (int64(v) > int64(limit) || int64(v) < -int64(limit)-1) {
			return nil, fmt.Errorf("%d is too large: hetmap takes whole numbers up to %d here", v, limit)
		}
	}
	return data, nil
}

var (
	decodePrefix = regexp.MustCompile(`(?s)^decoding failed due to the following error\(s\):\s*`)
	quotedKey    = regexp.MustCompile(`'([^']*)'`)
)

// cleanDecodeError turns mapstructure's messages into "key: what" lines.
func cleanDecodeError(err error) string {
	msg := decodePrefix.ReplaceAllString(err.Error(), "")
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		l = strings.TrimPrefix(l, "* ")
		if strings.HasPrefix(l, "'") {
			if m := quotedKey.FindStringSubmatchIndex(l); m != nil && m[0] == 0 {
				key := l[m[2]:m[3]]
				rest := strings.TrimSpace(l[m[1]:])
				rest = strings.TrimPrefix(rest, "has invalid keys: ")
				if strings.HasPrefix(l[m[1]:], " has invalid keys: ") {
					rest = "unknown key(s) " + rest
				}
				if key == "" || strings.HasPrefix(key, "configs.") {
					l = strings.Replace(rest, "unknown key(s) ", "unknown key(s) at the top level: ", 1)
				} else {
					l = key + ": " + rest
				}
			}
		} else if strings.HasPrefix(l, "has invalid keys: ") {
			l = "unknown key(s) at the top level: " + strings.TrimPrefix(l, "has invalid keys: ")
		}
		lines = append(lines, plainTypes(l))
	}
	return strings.Join(lines, "; ")
}

var (
	wantedGot   = regexp.MustCompile(`expected a map or struct, got "(\w+)"`)
	unconverted = regexp.MustCompile(`expected type '([\w.\[\]]+)', got unconvertible type '([^']+)'(?:, value: '(.*)')?$`)
	wantedList  = regexp.MustCompile(`source data must be an array or slice, got (\w+)`)
	yamlTag     = regexp.MustCompile("cannot unmarshal !!(\\w+)(?: `[^`]*`)? into (map\\[string\\]interface \\{\\}|[\\w.\\[\\]{} ]+)")
)

// yamlKinds names YAML's and Go's kinds of values in plain words.
var yamlKinds = map[string]string{
	"seq": "a list", "slice": "a list", "map": "a map of keys", "str": "a text", "string": "a text",
	"int": "a whole number", "int64": "a whole number", "float": "a number", "float64": "a number",
	"bool": "true or false", "null": "nothing",
}

func plainKind(k string) string {
	if p, ok := yamlKinds[k]; ok {
		return p
	}
	if strings.HasPrefix(k, "[]") {
		return "a list"
	}
	if strings.HasPrefix(k, "map[") {
		return "a map of keys"
	}
	return k
}

// plainTypes words the decoder's type errors plainly: "expected a map or
// struct, got "slice"" becomes "a list where a map of keys belongs".
func plainTypes(l string) string {
	if m := wantedGot.FindStringSubmatch(l); m != nil {
		return strings.Replace(l, m[0], plainKind(m[1])+" where a map of keys belongs", 1)
	}
	if m := unconverted.FindStringSubmatch(l); m != nil {
		if m[3] == "" {
			return strings.Replace(l, m[0], fmt.Sprintf("%s where %s belongs", plainKind(m[2]), plainKind(m[1])), 1)
		}
		return strings.Replace(l, m[0], fmt.Sprintf("%q is %s where %s belongs", m[3], plainKind(m[2]), plainKind(m[1])), 1)
	}
	if m := wantedList.FindStringSubmatch(l); m != nil {
		return strings.Replace(l, m[0], plainKind(m[1])+" where a list belongs", 1)
	}
	return l
}

func cleanYAMLError(err error) string {
	s := err.Error()
	if i := strings.Index(s, "yaml: "); i >= 0 {
		s = s[i+len("yaml: "):]
	}
	if m := yamlTag.FindStringSubmatch(s); m != nil {
		want := plainKind(strings.TrimSpace(m[2]))
		if strings.HasPrefix(m[2], "map[") {
			return fmt.Sprintf("the file holds %s; it must be a map of keys (key: value lines)", plainKind(m[1]))
		}
		return strings.Replace(s, m[0], fmt.Sprintf("%s where %s belongs", plainKind(m[1]), want), 1)
	}
	s = strings.TrimPrefix(s, "unmarshal errors:\n  ")
	return s
}

// fileKindHint says what a file is when it holds the top-level keys of the
// other kind of input: a sweep file given as a configuration, or the
// reverse ("" when it looks like neither).
func fileKindHint(v interface{ IsSet(string) bool }, name string, sweep bool) string {
	if !sweep && v.IsSet("base") && (v.IsSet("parameters") || v.IsSet("seeds")) {
		return fmt.Sprintf(" (%s looks like a sweep file: run it with hetmap sweep %s)", name, name)
	}
	if sweep && !v.IsSet("base") && (v.IsSet("model") || v.IsSet("units") || v.IsSet("memory") || v.IsSet("analysis")) {
		return fmt.Sprintf(" (%s looks like a configuration: run it with hetmap optimize --config %s, or name it as the base: of a sweep file)", name, name)
	}
	return ""
}

// WriteYAML writes the system and options as a configuration that loads back
// to the same system.
func WriteYAML(w io.Writer, cfg *Config, header string) error {
	s := cfg.System
	mp := s.Mapping
	f := fileSchema{Name: s.Name, Units: s.Units, Memory: &s.Memory, Labels: s.Labels, Runnables: s.Runnables,
		Tasks: stripDerived(s.Tasks), TimeSlice: s.TimeSlice, Mapping: &mp, Chains: s.Chains,
		Conventions: cfg.Conventions, Analysis: cfg.Analysis, Search: cfg.Search, Warnings: cfg.Warnings}
	var node yaml.Node
	if err := node.Encode(&f); err != nil {
		return err
	}
	flowLeaves(&node)
	var buf bytes.Buffer
	if header != "" {
		for _, l := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
			buf.WriteString(strings.TrimRight("# "+l, " ") + "\n")
		}
	}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&node); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// stripDerived drops the resolved deadlines that the convention derives, so
// that the written file states facts and the convention stays in force.
func stripDerived(tasks []Task) []Task {
	out := make([]Task, len(tasks))
	for i, t := range tasks {
		t.Deadline = 0
		out[i] = t
	}
	return out
}

// flowLeaves writes small mappings and lists of scalars on one line, which
// keeps a 30-label, 27-runnable model readable.
func flowLeaves(n *yaml.Node) {
	for _, c := range n.Content {
		flowLeaves(c)
	}
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if len(n.Content) == 0 {
			return
		}
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode && !(c.Kind == yaml.SequenceNode && c.Style == yaml.FlowStyle) {
				return
			}
		}
		if n.Kind == yaml.MappingNode && len(n.Content) > 12 {
			return
		}
		n.Style = yaml.FlowStyle
	}
}
