package configs

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestModelWithoutReader: this package's tests link no Amalthea reader
// (configs/amalthea registers it), so a configuration that names a model
// is refused in one line that says which package reads it, by every way
// in: an .amxmi path, LoadModel and a YAML model: key.
func TestModelWithoutReader(t *testing.T) {
	dir := t.TempDir()
	for what, load := range map[string]func() error{
		"LoadFile .amxmi": func() error { _, err := LoadFile(filepath.Join(dir, "m.amxmi")); return err },
		"LoadModel":       func() error { _, err := LoadModel([]string{"m.amxmi"}); return err },
		"model:":          func() error { _, err := Load(strings.NewReader("model: m.amxmi\n"), "c.yaml", dir); return err },
	} {
		err := load()
		if err == nil || !strings.Contains(err.Error(), "needs the package configs/amalthea") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", what, err)
		}
	}
}
