package amalthea

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// The files in testdata: one model written in Amalthea 0.9.2
// (amalthea-0.9.2.amxmi), the same in 0.9.1 (the namespace only) and 0.9.0
// (the namespace, and its custom property value of type TimeObject), and
// amalthea-0.9.3-of-0.9.2.amxmi, the same model written in 0.9.3 by the rules
// of APP4MC's migration (converters.093: SwConverter, HwConverter,
// StimulusConverter, OsConverter, MeasurementConverter).

const (
	model092 = "testdata/amalthea-0.9.2.amxmi"
	model093 = "testdata/amalthea-0.9.3-of-0.9.2.amxmi"
)

func read092(t *testing.T, path string) (*configs.System, []configs.Warning) {
	t.Helper()
	s, warns, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Name = ""
	return s, warns
}

func readText(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestAmalthea090To092Import: the 0.9.0, 0.9.1 and 0.9.2 files import, to
// the system the 0.9.3 form gives, with the values computed by hand from
// the XML.
func TestAmalthea090To092Import(t *testing.T) {
	want, _ := read092(t, model093)
	for _, v := range []string{"0.9.0", "0.9.1", "0.9.2"} {
		t.Run(v, func(t *testing.T) {
			s, warns := read092(t, "testdata/amalthea-"+v+".amxmi")
			if !reflect.DeepEqual(s, want) {
				t.Errorf("%s reads as\n%+v\n%+v\n%+v\nits 0.9.3 form as\n%+v\n%+v\n%+v", v, s.Units, s.Runnables, s.Tasks, want.Units, want.Runnables, want.Tasks)
			}
			// Ticks (kind A57: IPC 1.5, Denver: IPC 2):
			for _, c := range []struct {
				run, kind           string
				lower, upper        int64
				average             float64
				computation, reason string
			}{
				// R1: default Instructions 6000, extended Denver 9000.
				{"R1", "A57", 6000, 6000, 6000, "6000", "the default entry is taken as ticks: the migration divides only extended entries by an IPC"},
				{"R1", "Denver", 4500, 4500, 4500, "9000 / 2", "extended entry of Denver"},
				// R2: default 1000…3000 (Boundaries), extended A57
				// 3000…6000 (UniformDistribution).
				{"R2", "A57", 2000, 4000, 3000, "3000 / 1.5 … 6000 / 1.5, average the middle", "extended entry of A57"},
				{"R2", "Denver", 1000, 3000, 2000, "1000 … 3000", "the default entry"},
				// R3: default Instructions 200…800 (Gauss, mean 400), then
				// the default FLOP need 100 (no FLOP feature: factor 1).
				{"R3", "A57", 300, 900, 500, "200 + 100 … 800 + 100, average 400 + 100", "Ticks, then a 0.9.3 ExecutionNeed"},
				{"R3", "Denver", 300, 900, 500, "as on A57", "no extended entries"},
			} {
				tk := ticksOf(t, s, c.run, c.kind)
				if tk.Lower != c.lower || tk.Upper != c.upper || tk.Average != c.average {
					t.Errorf("%s on %s: %+v, want %d … %d average %g (%s: %s)", c.run, c.kind, tk, c.lower, c.upper, c.average, c.computation, c.reason)
				}
			}
			// Latencies: C0 read LatencyConstant 20, write LatencyDeviation
			// 10…30 (the worst case, 30); C1 24 and 24.
			for _, c := range []struct {
				unit        string
				read, write int64
			}{{"C0", 20, 30}, {"C1", 24, 24}} {
				if u := s.Unit(c.unit); u == nil || u.ReadLatency != c.read || u.WriteLatency != c.write {
					t.Errorf("unit %s: %+v, want read %d write %d cycles", c.unit, u, c.read, c.write)
				}
			}
			// Stimuli: P10's jitter 0 ms…200 us (Boundaries) is a release
			// jitter of 200 us; RP's nextOccurrence 5…8 ms (Beta) is a
			// minimum inter-arrival time of 5 ms.
			if t1 := s.Task("T1"); t1.Period != 10*configs.Millisecond || t1.Jitter != 200*configs.Microsecond {
				t.Errorf("T1 %+v, want period 10ms jitter 200us", t1)
			}
			if t2 := s.Task("T2"); t2.Period != 5*configs.Millisecond || t2.Jitter != 0 {
				t.Errorf("T2 %+v, want period 5ms", t2)
			}
			wt := warningsText(warns)
			for _, w := range []string{
				"the model is Amalthea " + v + ": read as APP4MC's model migration converts it to 0.9.3",
				"3 ExecutionNeed(s) of Amalthea " + v,
				"swModel/runnables[R2]/runnableItems[0]/extended[A57]: extended needs of key(s) FLOP read past",
				"osModel/osOverheads[OH]: OS overheads are not analysed",
				"1 measurement(s) read past",
			} {
				if !strings.Contains(wt, w) {
					t.Errorf("no warning %q in\n%s", w, wt)
				}
			}
			if strings.Contains(wt, "rounded") {
				t.Errorf("every quotient is whole, yet:\n%s", wt)
			}
		})
	}
}

// TestPerCycle: instructions divided by an IPC as APP4MC's migration to
// 0.9.3 divides them, (long)(Double.parseDouble(value) / ipc): in floating
// point, truncated.
func TestPerCycle(t *testing.T) {
	for _, c := range []struct {
		n       int64
		ipc     float64
		want    int64
		rounded bool
	}{
		{9000, 2, 4500, false},        // 9000 / 2 = 4500
		{6000, 1.5, 4000, false},      // 6000 / 1.5 = 4000
		{1001, 2, 500, true},          // 500.5, truncated
		{7, 3, 2, true},               // 2.33…, truncated
		{1000, 0.1, 10000, false},     // 1000 / 0.1 is 10000 in floating point
		{33, 1.1, 29, true},           // 29.999999999999996 in floating point: 29, as the migration writes
		{0, 4, 0, false},              //
		{123, 1, 123, false},          // the default entry: divided by 1.0
		{1<<53 + 1, 1, 1 << 53, true}, // beyond 2^53 the count is a double first
	} {
		got, rounded, ok := perCycle(c.n, c.ipc)
		if !ok || got != c.want || rounded != c.rounded {
			t.Errorf("perCycle(%d, %g) = %d rounded=%v ok=%v, want %d rounded=%v", c.n, c.ipc, got, rounded, ok, c.want, c.rounded)
		}
	}
	if _, _, ok := perCycle(1<<62, 0.5); ok {
		t.Error("2^62 / 0.5 did not overflow")
	}
}

// TestAmalthea092Rounding: with an IPC of 7 for Denver, R1's extended 9000
// instructions are 1285.71… cycles: 1285, truncated as APP4MC's
// migration writes them, and a warning says so.
func TestAmalthea092Rounding(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ipc7.amxmi")
	text := strings.Replace(readText(t, model092), `<features name="IPC_2" value="2.0"/>`, `<features name="IPC_2" value="7"/>`, 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, warns := read092(t, path)
	if tk := ticksOf(t, s, "R1", "Denver"); tk.Lower != 1285 || tk.Upper != 1285 {
		t.Errorf("R1 on Denver %+v, want 1285 (9000 / 7 = 1285.71…, truncated)", tk)
	}
	wt := warningsText(warns)
	if !strings.Contains(wt, "2 instruction count(s) are not a whole number of cycles (first swModel/runnables[R1]/runnableItems[1]/extended[Denver]/value[Instructions]: 9000 / 7): truncated, as APP4MC's migration to 0.9.3 truncates them") {
		t.Errorf("no rounding warning in\n%s", wt)
	}
	// Without an IPC feature the instructions are ticks, as in the migration.
	text = strings.Replace(readText(t, model092), ` features="Instructions/IPC_2?type=HwFeature"`, "", 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, warns = read092(t, path)
	if tk := ticksOf(t, s, "R1", "Denver"); tk.Upper != 9000 {
		t.Errorf("R1 on Denver without an IPC: %+v, want 9000", tk)
	}
	if wt := warningsText(warns); !strings.Contains(wt, "the processing-unit definition Denver references no feature Instructions/IPC…: its instructions are taken as ticks") {
		t.Errorf("no warning about the missing IPC in\n%s", wt)
	}
}

// TestAmalthea092Refusals: what APP4MC's migration would drop, and what
// hetmap cannot read, is an error naming the file, line and element; 0.8
// stays refused with the migration advice.
func TestAmalthea092Refusals(t *testing.T) {
	base := readText(t, model092)
	edit := func(old, new string) string {
		t.Helper()
		if !strings.Contains(base, old) {
			t.Fatalf("%q is not in %s", old, model092)
		}
		return strings.Replace(base, old, new, 1)
	}
	checkRefusals(t, []refusal{
		{name: "0.8.3", input: edit("amalthea/0.9.2", "amalthea/0.8.3"), where: "Amalthea",
			what: "the model is Amalthea 0.8.3 (namespace http://app4mc.eclipse.org/amalthea/0.8.3), older than hetmap reads: hetmap reads Amalthea 0.9.0 to 3.3.0"},
		{name: "no distribution", input: edit(`<distribution xsi:type="am:Boundaries" samplingType="WorstCase"/>
            </deviation>`, `</deviation>`),
			where: "swModel/runnables[R2]/runnableItems[0]/default[Instructions]/value/deviation", what: "the deviation has no distribution: APP4MC's migration to 0.9.3 drops such a value"},
		{name: "WeibullParameters", input: edit(`<distribution xsi:type="am:BetaDistribution" alpha="2.0" beta="3.0"/>`, `<distribution xsi:type="am:WeibullParameters" kappa="1" lambda="1"/>`),
			where: "stimuliModel/stimuli[RP]/nextOccurrence/distribution", what: "a WeibullParameters distribution has no bounds hetmap can analyse"},
		{name: "no upper bound", input: edit(`<upperBound xsi:type="am:Time" value="200" unit="us"/>`, ""),
			where: "stimuliModel/stimuli[P10]/jitter", what: "the deviation (Boundaries) has no upperBound: hetmap needs bounds"},
		{name: "0.9.3 form in 0.9.2", input: edit(`<jitter>`, `<jitter xsi:type="am:TimeBoundaries">`),
			where: "stimuliModel/stimuli[P10]/jitter", what: `xsi:type "TimeBoundaries" where Amalthea 0.9.2 has a Deviation`},
		{name: "IPC zero", input: edit(`<features name="IPC_2" value="2.0"/>`, `<features name="IPC_2" value="0"/>`),
			where: "swModel/runnables[R1]/runnableItems[1]/extended[Denver]", what: "the instructions per cycle of Denver (feature Instructions/IPC_2) are 0: they must be positive"},
		{name: "unknown need value", input: edit(`<value xsi:type="am:NeedConstant" value="9000"/>`, `<value xsi:type="am:DiscreteValueConstant" value="9000"/>`),
			where: "swModel/runnables[R1]/runnableItems[1]/extended[Denver]/value[Instructions]", what: `value type "am:DiscreteValueConstant" is not supported (NeedConstant or NeedDeviation)`},
		{name: "key twice", input: edit(`<default key="FLOP">`, `<default key="Instructions">`),
			where: "swModel/runnables[R3]/runnableItems[0]/default[Instructions]", what: `key "Instructions" is given twice`},
		{name: "bounds swapped", input: edit(`<lowerBound xsi:type="am:LongObject" value="10"/>`, `<lowerBound xsi:type="am:LongObject" value="40"/>`),
			where: "hwModel/ProcessingUnit[C0]/accessElements[C0-DRAM]/writeLatency/cycles", what: "needs lowerBound ≤ upperBound, got 40 and 30"},
		{name: "latency type", input: edit(`<readLatency xsi:type="am:LatencyConstant" cycles="24"/>`, `<readLatency xsi:type="am:DiscreteValueConstant" value="24"/>`),
			where: "hwModel/ProcessingUnit[C1]/accessElements[C1-DRAM]/readLatency", what: `latency type "am:DiscreteValueConstant" is not supported in Amalthea 0.9.2 (LatencyConstant or LatencyDeviation)`},
	})
}

// TestAmalthea092Export: a mapping written into the 0.9.2 model keeps the
// file 0.9.2 (its namespace and forms) and reads back to the system with
// that mapping; outside the mapping model the XML is unchanged.
func TestAmalthea092Export(t *testing.T) {
	orig, _ := read092(t, model092)
	m := otherMapping(t, orig)
	out, err := Export([]string{model092}, ExportMapping{Mapping: m})
	if err != nil {
		t.Fatal(err)
	}
	written := out[model092]
	if !strings.Contains(string(written), `xmlns:am="http://app4mc.eclipse.org/amalthea/0.9.2"`) || strings.Contains(string(written), "amalthea/0.9.3") {
		t.Errorf("the written model is not 0.9.2:\n%s", written)
	}
	path := filepath.Join(t.TempDir(), "point.amxmi")
	if err := os.WriteFile(path, written, 0o644); err != nil {
		t.Fatal(err)
	}
	back, _ := read092(t, path)
	if got, want := mappingText(back.Mapping), mappingText(m); got != want {
		t.Errorf("own mapping after export:\n%s\nwant:\n%s", got, want)
	}
	back.Mapping, orig.Mapping = configs.Mapping{}, configs.Mapping{}
	if !reflect.DeepEqual(back, orig) {
		t.Errorf("the system changed:\n%+v\nwant\n%+v", back, orig)
	}
	a, err := parseXML([]byte(readText(t, model092)), model092)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseXML(written, path)
	if err != nil {
		t.Fatal(err)
	}
	if d := treeDiff(a, b, map[string]bool{"mappingModel": true}, "Amalthea"); d != "" {
		t.Errorf("the XML outside the mapping model differs: %s", d)
	}
}
