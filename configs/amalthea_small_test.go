package configs

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDuplicateUnit: a processing-unit name given twice is an error at the
// second, naming the first's file and line.
func TestDuplicateUnit(t *testing.T) {
	model := synth(t, "{MODULES}", "\n      "+`<modules xsi:type="am:ProcessingUnit" name="C0" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>`)
	path := filepath.Join(t.TempDir(), "m.amxmi")
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	first := strings.Count(model[:strings.Index(model, `name="C0"`)], "\n") + 1
	second := strings.Count(model[:strings.LastIndex(model, `name="C0"`)], "\n") + 1
	_, _, err := ReadAmaltheaFile(path)
	var ie *InputError
	if !errors.As(err, &ie) || ie.File != path || ie.Line != second || ie.Where != "hwModel/ProcessingUnit[C0]" ||
		ie.What != `"C0" is defined twice (also at `+path+":"+strconv.Itoa(first)+")" {
		t.Errorf("error %v, want %s:%d: hwModel/ProcessingUnit[C0]: \"C0\" is defined twice (also at %s:%d)", err, path, second, path, first)
	}
}

// TestWarningsWithoutPath: the warnings of a model read from an absolute
// path do not carry it.
func TestWarningsWithoutPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nochains.amxmi")
	model := cut(t, cut(t, synth(t), "<eventChains", "/>"), "<timingConstraints", "</timingConstraints>")
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadModel([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range cfg.Warnings {
		if strings.Contains(w.String(), dir) {
			t.Errorf("a warning names the model's path: %s", w)
		}
		found = found || strings.Contains(w.What, "the model has no event chains")
	}
	if !found {
		t.Errorf("no warning about the missing chains:\n%s", warningsText(cfg.Warnings))
	}
}
