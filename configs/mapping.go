package configs

import (
	"bytes"
	"io"

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
	data, err := readLimited(r, name, "the mapping")
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
