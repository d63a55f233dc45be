package amalthea

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hetmap/hetmap/configs"
)

// TestUnsetReferences: a reference that is not set is reported as such,
// never as an element named "".
func TestUnsetReferences(t *testing.T) {
	tests := []refusal{
		{name: "allocation without task", input: synth(t, `<taskAllocation task="T1?type=Task" scheduler=`, `<taskAllocation scheduler=`),
			where: "mappingModel/taskAllocation[]", what: "names no task: its task reference is unset"},
		{name: "allocation without scheduler", input: synth(t, `<taskAllocation task="T1?type=Task" scheduler="S0?type=TaskScheduler"`, `<taskAllocation task="T1?type=Task"`),
			where: "mappingModel/taskAllocation[T1]", what: "names no scheduler: its scheduler reference is unset"},
		{name: "call without runnable", input: synth(t, `<items xsi:type="am:RunnableCall" runnable="R1?type=Runnable"/>{T1}`, `<items xsi:type="am:RunnableCall"/>`),
			where: "swModel/tasks[T1]/items[0]", what: "names no runnable: its runnable reference is unset"},
		{name: "chain without response", input: synth(t, ` response="E2?type=ProcessEvent"{CHAIN}/>`, `/>`),
			where: "constraintsModel/eventChains[C]", what: "names no event: its response reference is unset"},
		{name: "unit without definition", input: synth(t, `<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain" definition="Core?type=ProcessingUnitDefinition"/>`,
			`<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain"/>`),
			where: "hwModel/ProcessingUnit[C1]", what: "names no processing-unit definition: its definition reference is unset"},
		{name: "unit without frequency domain", input: synth(t, `<modules xsi:type="am:ProcessingUnit" name="C1" frequencyDomain="F?type=FrequencyDomain"`, `<modules xsi:type="am:ProcessingUnit" name="C1"`),
			where: "hwModel/ProcessingUnit[C1]", what: "names no frequency domain: its frequencyDomain reference is unset"},
		{name: "label access without label", input: synth(t, `<items xsi:type="am:LabelAccess" data="L2?type=Label" access="read"/>`, `<items xsi:type="am:SenderReceiverRead"/>`),
			where: "swModel/runnables[R2]/items[0]", what: "names no label: its label reference is unset"},
	}
	checkRefusals(t, tests)
	for _, tt := range tests {
		if _, _, err := Read(strings.NewReader(tt.input)); err == nil || strings.Contains(err.Error(), `""`) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestChainSegmentsWithoutEnds: an Amalthea 0.9.1 event chain of segments
// that gives no stimulus and no response takes them from its first and
// last segment, with a warning (it was refused as naming event "").
func TestChainSegmentsWithoutEnds(t *testing.T) {
	text := readText(t, "testdata/amalthea-0.9.1.amxmi")
	chains := `  <eventModel>
    <events xsi:type="am:ProcessEvent" name="E1" entity="T1?type=Task"/>
    <events xsi:type="am:ProcessEvent" name="E2" entity="T2?type=Task"/>
  </eventModel>
  <constraintsModel>
    <eventChains name="Both">
      <segments xsi:type="am:EventChainContainer"><eventChain name="s1" stimulus="E1?type=ProcessEvent" response="E2?type=ProcessEvent"/></segments>
      <segments xsi:type="am:EventChainContainer"><eventChain name="s2" stimulus="E2?type=ProcessEvent" response="E1?type=ProcessEvent"/></segments>
    </eventChains>
    <eventChains name="NoResponse" stimulus="E1?type=ProcessEvent">
      <segments xsi:type="am:EventChainContainer"><eventChain name="s3" stimulus="E1?type=ProcessEvent" response="E2?type=ProcessEvent"/></segments>
    </eventChains>
  </constraintsModel>
  <mappingModel>`
	if !strings.Contains(text, "  <mappingModel>") {
		t.Fatal("no mapping model")
	}
	s, w, err := Read(strings.NewReader(strings.Replace(text, "  <mappingModel>", chains, 1)))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range s.Chains {
		got[c.Name] = strings.Join(c.Tasks, " ")
	}
	if got["Both"] != "T1 T2 T1" || got["NoResponse"] != "T1 T2" {
		t.Errorf("chains %v, want Both: T1 T2 T1, NoResponse: T1 T2", got)
	}
	for _, want := range []string{
		"constraintsModel/eventChains[Both]: the chain gives no stimulus and response: taken as the stimulus E1 from its first segment and the response E1 from its last segment",
		"constraintsModel/eventChains[NoResponse]: the chain gives no response: taken as the response E2 from its last segment",
	} {
		if !strings.Contains(warningsText(w), want) {
			t.Errorf("no warning %q in\n%s", want, warningsText(w))
		}
	}
}

// byID rewrites a model written with references by name into references
// by xmi:id, as a plain EMF writer saves it: every named element gets the
// id "_" + its name, every reference "Name?type=Kind" becomes that id.
func byID(model string) string {
	named := regexp.MustCompile(`(<[A-Za-z]+ (?:xsi:type="[^"]*" )?)name="([A-Za-z0-9_]+)"`)
	model = named.ReplaceAllString(model, `${1}xmi:id="_$2" name="$2"`)
	return regexp.MustCompile(`\b([A-Za-z0-9_]+)\?type=[A-Za-z]+`).ReplaceAllString(model, `_$1`)
}

// TestEMFIDReferences: a model whose references are EMF ids (task="_T1")
// reads as the same model with references by name, with a warning that
// says so; an id that names nothing is an error that says how hetmap
// resolves references; the export into such a model references by id.
func TestEMFIDReferences(t *testing.T) {
	byName := synth(t)
	ids := byID(byName)
	if !strings.Contains(ids, `task="_T1"`) || strings.Contains(ids, "?type=") {
		t.Fatalf("the test's rewriting failed:\n%s", ids)
	}
	want, _, err := Read(strings.NewReader(byName))
	if err != nil {
		t.Fatal(err)
	}
	got, w, err := Read(strings.NewReader(ids))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameSystem(want, got); d != "" {
		t.Errorf("read by id: %s", d)
	}
	if !strings.Contains(warningsText(w), "reference(s) name elements by their xmi:id (in ") {
		t.Errorf("no warning about the ids:\n%s", warningsText(w))
	}
	_, _, err = Read(strings.NewReader(strings.Replace(ids, `task="_T1"`, `task="_T9"`, 1)))
	if err == nil || !strings.Contains(err.Error(), `task "_T9" is not defined: hetmap resolves a reference by the element's name (Name?type=Kind) or by an xmi:id of the model's files, and task="_T9" is neither`) {
		t.Errorf("an id that names nothing: %v", err)
	}
	// The export references the model's elements by their ids.
	im, err := importDocs([]amalDoc{{name: "m.amxmi", data: []byte(ids)}})
	if err != nil {
		t.Fatal(err)
	}
	m := configs.Mapping{Units: []configs.Placement{{Task: "T1", Unit: "C1"}, {Task: "T2", Unit: "C0"}}}
	out, err := im.export(ExportMapping{Mapping: m})
	if err != nil {
		t.Fatal(err)
	}
	written := string(out["m.amxmi"])
	if !strings.Contains(written, `<taskAllocation task="_T1" scheduler="_S0" affinity="_C1"/>`) {
		t.Errorf("the export does not reference by id:\n%s", written[strings.Index(written, "<mappingModel>"):])
	}
	back, _, err := Read(strings.NewReader(written))
	if err != nil {
		t.Fatal(err)
	}
	if mappingText(back.Mapping) != mappingText(m) {
		t.Errorf("read back:\n%s\nwant\n%s", mappingText(back.Mapping), mappingText(m))
	}
}

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
	_, _, err := ReadFile(path)
	var ie *configs.InputError
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
	cfg, err := configs.LoadModel([]string{path})
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

// TestSelfContradictingChain: a chain whose segments contradict its own
// stimulus and response is dropped with a warning naming it, and the
// model is read; a requirement or an objective that names the chain makes
// it an error.
func TestSelfContradictingChain(t *testing.T) {
	bad := "\n    " + `<eventChains name="Bad" stimulus="E1?type=ProcessEvent" response="E2?type=ProcessEvent">
      <segments xsi:type="am:EventChainContainer"><eventChain name="back" stimulus="E2?type=ProcessEvent" response="E1?type=ProcessEvent"/></segments>
    </eventChains>`
	model := synth(t, "{CHAINS}", bad)
	s, w, err := Read(strings.NewReader(model))
	if err != nil {
		t.Fatalf("one contradicting chain refuses the model: %v", err)
	}
	if len(s.Chains) != 1 || s.Chains[0].Name != "C" {
		t.Errorf("chains %+v, want C alone", s.Chains)
	}
	want := "constraintsModel/eventChains[Bad]: dropped: the chain contradicts itself (line "
	if wt := warningsText(w); !strings.Contains(wt, want) || !strings.Contains(wt, "the segment does not connect: it starts at E2 (task T2) but the chain's stimulus E1 ends at task T1); no requirement names it") {
		t.Errorf("warnings:\n%s\nwant %s…", wt, want)
	}
	// A requirement names it.
	req := synth(t, "{CHAINS}", bad, "{CONSTRAINTS}", "\n    "+`<timingConstraints xsi:type="am:EventChainLatencyConstraint" name="BadMax" scope="Bad?type=EventChain" type="Reaction"><maximum value="9" unit="ms"/></timingConstraints>`)
	_, _, err = Read(strings.NewReader(req))
	if err == nil || !strings.Contains(err.Error(), "the segment does not connect") || !strings.Contains(err.Error(), "(the chain Bad contradicts itself, and requirement BadMax names it)") {
		t.Errorf("a requirement names the chain: %v", err)
	}
	// An objective names it.
	dir := t.TempDir()
	path := filepath.Join(dir, "m.amxmi")
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = configs.Load(strings.NewReader("model: "+path+"\nsearch: {objectives: [{chain: Bad}]}\n"), "c.yaml", dir)
	if err == nil || !strings.Contains(err.Error(), `c.yaml: search.objectives[0].chain: the model's event chain "Bad" contradicts itself (line `) ||
		!strings.Contains(err.Error(), "so the import dropped it: an objective cannot name it until its segments connect") {
		t.Errorf("an objective names the chain: %v", err)
	}
	if _, err = configs.Load(strings.NewReader("model: "+path+"\nsearch: {objectives: [{chain: C}]}\n"), "c.yaml", dir); err != nil {
		t.Errorf("an objective names the other chain: %v", err)
	}
}
