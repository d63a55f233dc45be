package configs

import (
	"errors"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"
)

// Override sets in cfg the conventions and analysis keys that v holds a
// value for (a command's flags bound to the keys they set, such as
// analysis.contention for --contention; a flag left out holds none),
// decoded as strictly as a configuration file (a key that is not one of
// the conventions or the analysis, or a value of the wrong type, is an
// error), and validates the result; by names the source of the values in
// messages ("the command line"). A configuration read from a file or
// model is validated already: Override checks the new values against it.
func Override(cfg *Config, v *viper.Viper, by string) error {
	set := map[string]any{}
	for _, k := range v.AllKeys() {
		if !v.IsSet(k) {
			continue
		}
		m, path := set, strings.Split(k, ".")
		for _, p := range path[:len(path)-1] {
			sub, ok := m[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[p] = sub
			}
			m = sub
		}
		m[path[len(path)-1]] = v.Get(k)
	}
	if len(set) == 0 {
		return nil
	}
	f := struct {
		Conventions Conventions `yaml:"conventions"`
		Analysis    Analysis    `yaml:"analysis"`
	}{cfg.Conventions, cfg.Analysis}
	dc := &mapstructure.DecoderConfig{Result: &f}
	strictDecoding(dc)
	dec, err := mapstructure.NewDecoder(dc)
	if err != nil {
		return err
	}
	if err := dec.Decode(set); err != nil {
		return &InputError{File: by, What: cleanDecodeError(err)}
	}
	cfg.Conventions, cfg.Analysis = f.Conventions, f.Analysis
	if err := Validate(cfg); err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.File == "" {
			ie.File = by
		}
		return err
	}
	return nil
}
