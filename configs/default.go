package configs

import (
	"bytes"
	_ "embed"
)

// waters2019YAML is the built-in default: the official WATERS 2019 model
// (ChallengeModel_release_fix.amxmi) as imported by hetmap, completed with
// the eight chains of the challenge. Regenerate with
// `hetmap import <model> -o configs/waters2019.yaml` and re-add the chains.
//
//go:embed waters2019.yaml
var waters2019YAML []byte

// DefaultSource names the built-in configuration in messages and reports.
const DefaultSource = "built-in WATERS 2019 (configs/waters2019.yaml)"

// Default returns the built-in WATERS 2019 configuration.
func Default() (*Config, error) {
	return Load(bytes.NewReader(waters2019YAML), DefaultSource, ".")
}

// DefaultYAML returns the text of the built-in configuration.
func DefaultYAML() []byte { return append([]byte(nil), waters2019YAML...) }
