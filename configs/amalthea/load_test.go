package amalthea

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// TestDefaultIsTheOfficialModel checks that the embedded configuration is the
// official model as the importer reads it, plus the challenge's chains.
func TestDefaultIsTheOfficialModel(t *testing.T) {
	def, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	imported, err := configs.LoadFile(officialModel(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(def.System.Chains) != 8 {
		t.Fatalf("the default has %d chains, want 8", len(def.System.Chains))
	}
	want := *imported.System
	want.Name = def.System.Name
	want.Chains = def.System.Chains
	if !reflect.DeepEqual(*def.System, want) {
		a, b := new(bytes.Buffer), new(bytes.Buffer)
		_ = configs.WriteYAML(a, def, "")
		_ = configs.WriteYAML(b, &configs.Config{System: &want, Conventions: def.Conventions, Analysis: def.Analysis}, "")
		t.Errorf("the embedded default differs from the imported official model:\n%s", firstDiff(a.String(), b.String()))
	}
	// The default records the import's warnings (without the missing-chains one).
	if len(def.Warnings) != len(imported.Warnings)-1 {
		t.Errorf("default has %d warnings, the import %d (+1 for chains)", len(def.Warnings), len(imported.Warnings))
	}
	for _, n := range []string{"Li-Lo-EK-P-DA", "CA-Lo-EK-P-DA", "CA-EK-P-DA", "CA-P-DA", "Li-P-DA", "SF-P-DA", "LD-P-DA", "D-P-DA"} {
		found := false
		for _, c := range def.System.Chains {
			found = found || c.Name == n
		}
		if !found {
			t.Errorf("chain %s missing", n)
		}
	}
}

// TestRoundTrip: importing a model, writing YAML and loading it gives the
// same system, for both reference models.
func TestRoundTrip(t *testing.T) {
	for _, path := range []string{officialModel(t), mappedModel(t)} {
		cfg, err := configs.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := configs.WriteYAML(&buf, cfg, "round trip"); err != nil {
			t.Fatal(err)
		}
		back, err := configs.Load(bytes.NewReader(buf.Bytes()), "round-trip.yaml", ".")
		if err != nil {
			t.Fatalf("%s: the written YAML does not load: %v\n%s", path, err, buf.String())
		}
		if !reflect.DeepEqual(cfg.System, back.System) {
			var again bytes.Buffer
			_ = configs.WriteYAML(&again, back, "round trip")
			t.Errorf("%s: round trip changed the system:\n%s", path, firstDiff(buf.String(), again.String()))
		}
		if !reflect.DeepEqual(cfg.Warnings, back.Warnings) {
			t.Errorf("%s: round trip changed the warnings", path)
		}
	}
}

// TestConfigNamingAModel: a configuration may point at an Amalthea file
// and add chains, memory and conventions.
func TestConfigNamingAModel(t *testing.T) {
	model, _ := filepath.Abs(officialModel(t))
	dir := t.TempDir()
	yml := "model: " + model + `
chains:
  - {name: CA-P-DA, tasks: [CANbus_polling, Planner, DASM]}
memory:
  line_size: 64
  cores:
    - {kind: Denver, baseline: 8ns, per_core: 0ns, copy_engine: 0ns}
    - {kind: A57, baseline: 20ns, per_core: 0ns, copy_engine: 0ns}
  copy_engine: {baseline: 3ns, per_core: 0ns}
conventions: {deadlines: model}
analysis: {gpu_model: timeslice}
`
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.System.Chains) != 1 || cfg.Analysis.GPUModel != configs.GPUModelTimeSlice {
		t.Errorf("chains %v, GPU model %s", cfg.System.Chains, cfg.Analysis.GPUModel)
	}
	if p := cfg.System.Task("Planner"); p.Deadline != 12*configs.Millisecond {
		t.Errorf("with deadlines: model, Planner's deadline = %s, want 12ms", p.Deadline)
	}
	if c := cfg.System.CoreMemory("A57"); c.PerCore != 0 {
		t.Errorf("memory override ignored: %+v", c)
	}
	for _, w := range cfg.Warnings {
		if strings.Contains(w.What, "memory-contention") || strings.Contains(w.What, "event chains") {
			t.Errorf("warning should be gone once the config gives it: %s", w)
		}
	}
}

// TestConfigNamingAModelInFiles: model: takes a list of files, as --model
// does (relative paths against the configuration's folder), and gives the
// system LoadModel reads; a wrong entry names its index.
func TestConfigNamingAModelInFiles(t *testing.T) {
	pair := democarPair(t)
	want, err := configs.LoadModel(pair)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	abs, _ := filepath.Abs(pair[0])
	abs1, _ := filepath.Abs(pair[1])
	rel, err := filepath.Rel(dir, abs1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte("model:\n  - "+abs+"\n  - "+rel+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Amalthea) != 2 || len(cfg.System.Tasks) != len(want.System.Tasks) || len(cfg.System.Units) != len(want.System.Units) {
		t.Errorf("model: [two files] read %d files, %d tasks, %d units; --model reads %d tasks, %d units",
			len(cfg.Amalthea), len(cfg.System.Tasks), len(cfg.System.Units), len(want.System.Tasks), len(want.System.Units))
	}
	for _, c := range []struct{ yml, where string }{
		{"model: [a.amxmi, 3]\n", "model[1]"},
		{"model: []\n", "model"},
		{"model: {file: a.amxmi}\n", "model"},
	} {
		if err := os.WriteFile(path, []byte(c.yml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := configs.LoadFile(path)
		var ie *configs.InputError
		if !errors.As(err, &ie) || ie.Where != c.where || ie.File != path {
			t.Errorf("%q: %v, want an error at %s", c.yml, err, c.where)
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + itoa(i+1) + ":\n  " + al[i] + "\n  " + bl[i]
		}
	}
	return "lengths differ"
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestLongAttribute: an attribute value of megabytes (a damaged file)
// is refused with one line naming the file, the line, the element and the
// attribute, before the XML decoder copies it: the memory the refusal
// takes is a small multiple of the file (here under 2.5 times).
func TestLongAttribute(t *testing.T) {
	big := strings.Repeat("A", 8<<20)
	for _, c := range []struct{ name, from, to, where, attr string }{
		{"task name", `<tasks name="T1"`, `<tasks name="` + big + `"`, "tasks", "name"},
		{"reference", `runnable="R1?type=Runnable"`, `runnable="` + big + `"`, "items", "runnable"},
		{"value", `value="100000"`, `value='` + big + `'`, "default", "value"},
	} {
		path := filepath.Join(t.TempDir(), "big.amxmi")
		model := synth(t, c.from, c.to)
		if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
			t.Fatal(err)
		}
		line := strings.Count(model[:strings.Index(model, big)], "\n") + 1
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := ReadFile(path)
		runtime.ReadMemStats(&after)
		var ie *configs.InputError
		if !errors.As(err, &ie) || ie.File != path || ie.Line != line || ie.Where != c.where ||
			!strings.Contains(ie.What, "attribute "+c.attr+" is 8388608 bytes long") || len(err.Error()) > 400 {
			t.Errorf("%s: %v, want %s:%d: %s: attribute %s …", c.name, err, path, line, c.where, c.attr)
		}
		if used := after.TotalAlloc - before.TotalAlloc; used > uint64(len(model))*5/2 {
			t.Errorf("%s: the refusal allocated %d bytes for a file of %d", c.name, used, len(model))
		}
	}
}

// TestAmaltheaSumOverflows: the sums of an import, within a runnable's or
// a task's graph and over a task's runnables, name the file, the line and
// the element where the sum passes what hetmap counts.
func TestAmaltheaSumOverflows(t *testing.T) {
	four := strings.Repeat(`
        <items xsi:type="am:RunnableCall" runnable="R1?type=Runnable"/>`, 4)
	for _, c := range []struct {
		name, model string
		line        string // the text that starts the line named
		where, what string
	}{
		{"runnable", synth(t, "{R1}", `
        <items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="9223372036854775000"/></items>`),
			`<items xsi:type="am:Ticks"><default xsi:type="am:DiscreteValueConstant" value="9223372036854775000"/>`,
			"swModel/runnables[R1]/items[3]", "the worst-case ticks on Core overflow here: 100000 so far + 9223372036854775000 = 9223372036854875000, more than hetmap counts (9223372036854775807)"},
		{"task calls", synth(t, `value="100000"/>`, `value="4611686018427387904"/>`,
			`<items xsi:type="am:RunnableCall" runnable="R1?type=Runnable"/>{T1}`, strings.TrimPrefix(four, "\n        ")),
			"\n        <items xsi:type=\"am:RunnableCall\" runnable=\"R1?type=Runnable\"/>\n        <items xsi:type=\"am:RunnableCall\" runnable=\"R1?type=Runnable\"/>\n        <items xsi:type=\"am:RunnableCall\" runnable=\"R1?type=Runnable\"/>\n        <items xsi:type=\"am:RunnableCall\" runnable=\"R1?type=Runnable\"/>\n",
			"swModel/tasks[T1]/items[1]", "the worst-case ticks on Core overflow here: 4611686018427387904 so far + 4611686018427387904 = 9223372036854775808"},
		{"compute term", synth(t, `value="100000"/>`, `value="900000000000000"/>`,
			`<items xsi:type="am:RunnableCall" runnable="R1?type=Runnable"/>{T1}`, strings.TrimPrefix(four, "\n        ")),
			`<tasks name="T1"`,
			"swModel/tasks[T1]", "the compute term of T1 on C0 overflows: its worst-case ticks, 3600000000000000 (R1 900000000000000 × 4), take 3.6e+07 s at 100MHz, more than 2^60 ps (about 13 days), the longest time hetmap's analyses take"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.amxmi")
			if err := os.WriteFile(path, []byte(c.model), 0o644); err != nil {
				t.Fatal(err)
			}
			i := strings.Index(c.model, c.line)
			if i < 0 {
				t.Fatalf("no %q", c.line)
			}
			line := strings.Count(c.model[:i], "\n") + 1
			if strings.HasPrefix(c.line, "\n") {
				line += 2 // the second of the calls that follow the line break
			}
			_, _, err := ReadFile(path)
			var ie *configs.InputError
			if !errors.As(err, &ie) || ie.File != path || ie.Line != line || ie.Where != c.where || ie.What != c.what && !strings.HasPrefix(ie.What, c.what) {
				t.Errorf("error %v\nwant %s:%d: %s: %s", err, path, line, c.where, c.what)
			}
		})
	}
}

// The model's requirements that the deadline convention sets aside are
// kept (Task.Requirement) and listed with the option that applies them,
// from the built-in YAML and from the Amalthea file alike. WATERS 2019
// (waters2019.md): every task's requirement equals its period except
// Planner's, 12 ms against 15 ms; OS_Overhead has none. So under
// deadlines: period only Planner is listed (checked against 15 ms), and
// under deadlines: model nothing is (every requirement is its deadline).
func TestNotAppliedRequirements(t *testing.T) {
	planner := []configs.NotApplied{{Task: "Planner", Requirement: 12 * configs.Millisecond, Deadline: 15 * configs.Millisecond, AppliedBy: "conventions.deadlines: model"}}
	load := map[string]func(t *testing.T) *configs.Config{
		"built-in": func(t *testing.T) *configs.Config {
			cfg, err := configs.Default()
			if err != nil {
				t.Fatal(err)
			}
			return cfg
		},
		"amalthea": func(t *testing.T) *configs.Config {
			if testing.Short() {
				t.Skip("reads ../shared")
			}
			cfg, err := configs.LoadModel([]string{officialModel(t)})
			if err != nil {
				t.Fatal(err)
			}
			return cfg
		},
	}
	for _, c := range []struct {
		source     string
		convention configs.DeadlineConvention
		want       []configs.NotApplied
	}{
		{"built-in", configs.DeadlinesPeriod, planner},
		{"built-in", configs.DeadlinesModel, nil},
		{"amalthea", configs.DeadlinesPeriod, planner},
		{"amalthea", configs.DeadlinesModel, nil},
	} {
		t.Run(c.source+"/"+string(c.convention), func(t *testing.T) {
			cfg := load[c.source](t)
			cfg.Conventions.Deadlines = c.convention
			if err := configs.Validate(cfg); err != nil {
				t.Fatal(err)
			}
			if got := cfg.NotAppliedRequirements(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestInputSizeLimit: the reader opens a model as configs does every input
// (configs.ReadInput; configs' TestInputSizeLimit has the memory bounds):
// /dev/zero is refused before it is read, and a file beyond
// configs.MaxInputSize from its size.
func TestInputSizeLimit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/zero")
	}
	huge := filepath.Join(t.TempDir(), "huge.amxmi")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, configs.MaxInputSize+1); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/dev/zero": "is a device, not a regular file",
		huge:        "is larger than 64 MiB, the limit for an input file",
	} {
		if _, _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want …%s", path, err, want)
		}
	}
}
