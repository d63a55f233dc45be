package amalthea

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hetmap/hetmap/configs"
)

// The memory-contention parameters and GPU resources are not part of an
// Amalthea model. The importer fills them from the WATERS 2019 challenge
// text (Hamann et al., "WATERS Industrial Challenge 2019") and says so in a
// warning.
var challengeContention = map[string]struct{ perCore, copyEngine configs.Duration }{
	"A57":    {20 * configs.Nanosecond, 100 * configs.Nanosecond},
	"Denver": {2 * configs.Nanosecond, 20 * configs.Nanosecond},
}

// ChallengeCopyEngine is the copy-engine latency model of the challenge:
// 3 ns + 0.5 ns per interfering core for every 64-byte line.
var ChallengeCopyEngine = configs.CopyEngineCost{Baseline: 3 * configs.Nanosecond, PerCore: 500 * configs.Picosecond}

func init() { configs.RegisterModelReader(readModelFiles) }

// readModelFiles reads the model of paths (Files, then
// ReadFiles): configs' ModelReader.
func readModelFiles(paths []string) ([]string, *configs.System, []configs.Warning, error) {
	files, err := Files(paths)
	if err != nil {
		return nil, nil, nil, err
	}
	sys, warns, err := ReadFiles(files)
	if err != nil {
		return nil, nil, nil, err
	}
	return files, sys, warns, nil
}

// Files expands the paths of a model: a file is taken as it is, a
// folder stands for every .amxmi file in it (sorted by name), as APP4MC
// loads a model folder.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read the model: %w", err)
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read the model folder: %w", err)
		}
		var found []string
		for _, e := range entries {
			if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".amxmi") {
				found = append(found, filepath.Join(p, e.Name()))
			}
		}
		if len(found) == 0 {
			return nil, &configs.InputError{File: p, What: "the folder holds no .amxmi file"}
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	seen := map[string]bool{}
	for _, f := range out {
		abs, _ := filepath.Abs(f)
		if seen[abs] {
			return nil, &configs.InputError{File: f, What: "the model names this file twice"}
		}
		seen[abs] = true
	}
	return out, nil
}

// ReadFile imports an Amalthea model file (.amxmi).
func ReadFile(path string) (*configs.System, []configs.Warning, error) {
	return ReadFiles([]string{path})
}

// ReadFiles imports a model given as one or more .amxmi files or
// folders (see Files). The files of a model are one model, as
// APP4MC reads a model folder: their sub-models are joined and references
// are resolved by name across them. The system is named after the first
// file.
func ReadFiles(paths []string) (*configs.System, []configs.Warning, error) {
	files, err := Files(paths)
	if err != nil {
		return nil, nil, err
	}
	var docs []amalDoc
	for _, f := range files {
		data, err := configs.ReadInput(f, "the model")
		if err != nil {
			return nil, nil, err
		}
		docs = append(docs, amalDoc{name: f, data: data})
	}
	sys, warns, err := readAmalthea(docs)
	if err != nil {
		return nil, nil, err
	}
	if sys.Name == "" {
		sys.Name = strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))
	}
	return sys, warns, nil
}

// Read imports an Amalthea model: hardware, software, stimuli, OS,
// mapping and constraints. Elements that change timing and that hetmap does
// not model are errors naming the element; inconsistencies of the model
// (such as the swapped requirement references of the WATERS model) become
// warnings, resolved by the conventions of the package documentation,
// which also has the table of what is read and how.
func Read(r io.Reader) (*configs.System, []configs.Warning, error) {
	data, err := configs.ReadLimited(r, "the model", "the model")
	if err != nil {
		return nil, nil, err
	}
	return readAmalthea([]amalDoc{{data: data}})
}

type amalDoc struct {
	name string
	data []byte
}

func readAmalthea(docs []amalDoc) (*configs.System, []configs.Warning, error) {
	im, err := importDocs(docs)
	if err != nil {
		return nil, nil, err
	}
	return &im.sys, im.warns, nil
}

// importDocs imports parsed documents and returns the importer with its
// state (the export reuses it).
func importDocs(docs []amalDoc) (*importer, error) {
	im := &importer{}
	var ver version
	for i, d := range docs {
		if len(bytes.TrimSpace(d.data)) == 0 {
			return nil, &configs.InputError{File: d.name, What: "the file is empty: expected an Amalthea model (<am:Amalthea>)"}
		}
		data, err := toUTF8(d.data, d.name)
		if err != nil {
			return nil, err
		}
		d.data = data
		root, err := parseXML(d.data, d.name)
		if err != nil {
			return nil, err
		}
		v, warns, err := checkVersion(root)
		if err != nil {
			return nil, err
		}
		if i > 0 && v != ver {
			return nil, &configs.InputError{File: d.name, Line: root.line, Where: "Amalthea",
				What: fmt.Sprintf("the file is Amalthea %s but %s is %s: the files of one model must have one version (APP4MC's model migration converts them)", v, docs[0].name, ver)}
		}
		ver = v
		if root.name == "XMI" {
			root = root.kids[0]
		}
		im.roots = append(im.roots, root)
		im.docs = append(im.docs, d)
		im.warns = append(im.warns, warns...)
	}
	im.version = ver
	im.resolveIDs()
	if err := im.checkHrefs(); err != nil {
		return nil, err
	}
	if _, err := im.run(); err != nil {
		return nil, err
	}
	return im, nil
}

// checkHrefs refuses a reference into a file that is not one of the
// model's files (href="hw.amxmi#Core?type=…" when hw.amxmi was not
// given): resolved by name, it would find a same-named element of another
// file, or none, and either would be a guess. APP4MC's own form
// ("amlt:/#…", any file of the model folder) and references within the
// file are resolved by name as before.
func (im *importer) checkHrefs() error {
	given := map[string]bool{}
	var names []string
	for _, d := range im.docs {
		if d.name != "" {
			given[filepath.Base(d.name)] = true
			names = append(names, filepath.Base(d.name))
		}
	}
	var walk func(n *xnode) error
	walk = func(n *xnode) error {
		if h := n.attr("href"); h != "" {
			if i := strings.IndexByte(h, '#'); i > 0 && !strings.HasPrefix(h, "amlt:") {
				target := h[:i]
				if j := strings.LastIndexAny(target, "/\\"); j >= 0 {
					target = target[j+1:]
				}
				if u, err := url.PathUnescape(target); err == nil {
					target = u
				}
				if target != "" && !given[target] && target != filepath.Base(n.file) {
					files := ""
					if len(names) > 0 {
						files = " (" + listSome(names, 4) + ")"
					}
					return im.errAt(n, n.name, "the reference href=%q points into %s, which is not one of the model's files%s: give that file too (--model for each file, or the folder that holds them)", h, target, files)
				}
			}
		}
		for _, k := range n.kids {
			if err := walk(k); err != nil {
				return err
			}
		}
		return nil
	}
	for _, r := range im.roots {
		if err := walk(r); err != nil {
			return err
		}
	}
	return nil
}

// importer holds the state of one import.
type importer struct {
	roots   []*xnode
	docs    []amalDoc
	version version
	sys     configs.System
	warns   []configs.Warning

	// hardware: processing-unit definitions by name, feature values by
	// "category/feature" and the features of every definition; the
	// element of every unit, in the order read (before the units are
	// sorted).
	unitNodes []*xnode
	defs      map[string]*xnode
	features  map[string]float64
	defFeats  map[string][]string
	// stimuli by name
	stimuli map[string]*stimInfo
	// schedulers by name
	schedulers map[string]*schedInfo
	// the scheduling parameter and scheduler definitions (2.0 on) by name,
	// and the parameter definitions referenced but not defined (warned once)
	paramDefs, schedDefs map[string]*xnode
	undefinedParams      map[string]bool
	// byIDs: the model references elements by xmi:id (resolveIDs); ids
	// holds the id of every named element by metaclass and name.
	byIDs bool
	ids   map[string]string
	// software
	labelNodes map[string]*xnode
	runNodes   map[string]*xnode
	runDemand  map[string]*demand // flattened runnables (memo)
	runBusy    map[string]bool    // runnables being flattened (cycle check)
	synthetic  map[string]bool    // names of synthetic runnables
	taskInfo   map[string]*taskGraph
	inactive   map[string]bool // tasks that no stimulus activates
	// events by name (entity events of the event model)
	events map[string]*xnode
	// event chains by name (top-level EventChains)
	chainNodes map[string]*xnode
	// Amalthea 0.9.0 to 0.9.2 (amalthea_old.go): the definitions whose IPC
	// was noted, the ExecutionNeeds read, the instruction counts that were
	// not a whole number of cycles and the first of them.
	ipcNoted092  map[string]bool
	needs092     int
	rounded092   int
	roundedAt092 string
}

func (im *importer) warn(where, format string, args ...any) {
	im.warns = append(im.warns, configs.Warning{Where: clip(where), What: fmt.Sprintf(format, clipArgs(args)...)})
}

// errAt is an *InputError at node n (its file and line) and path where.
func (im *importer) errAt(n *xnode, where, format string, args ...any) *configs.InputError {
	e := &configs.InputError{Where: clip(where), What: fmt.Sprintf(format, clipArgs(args)...)}
	if n != nil {
		e.File, e.Line = n.file, n.line
	}
	return e
}

// subModels returns the sub-model elements (swModel, hwModel, …) of every file.
func (im *importer) subModels(name string) []*xnode {
	var out []*xnode
	for _, r := range im.roots {
		out = append(out, r.children(name)...)
	}
	return out
}

// elements returns the elements of a list feature of a sub-model over every
// file, e.g. elements("swModel", "tasks").
func (im *importer) elements(sub, list string) []*xnode {
	var out []*xnode
	for _, s := range im.subModels(sub) {
		out = append(out, s.children(list)...)
	}
	return out
}

// byName indexes named elements and refuses a name given twice.
func (im *importer) byName(where string, nodes []*xnode) (map[string]*xnode, error) {
	out := make(map[string]*xnode, len(nodes))
	for _, n := range nodes {
		name := n.attr("name")
		if prev, dup := out[name]; dup {
			return nil, im.errAt(n, where+"["+name+"]", "%q is defined twice (also at %s)", name, position(prev))
		}
		out[name] = n
	}
	return out, nil
}

func position(n *xnode) string {
	if n.file != "" {
		return n.file + ":" + strconv.Itoa(n.line)
	}
	return "line " + strconv.Itoa(n.line)
}

// rootParts says what the importer does with each part of a model: read
// it, or read past it (with a warning when it carries information the
// analysis does not use).
var rootParts = map[string]bool{
	"swModel": true, "hwModel": true, "osModel": true, "stimuliModel": true, "eventModel": true,
	"constraintsModel": true, "mappingModel": true, "propertyConstraintsModel": true,
	"componentsModel": true, "configModel": true, "commonElements": true, "measurementModel": true,
	"customProperties": true,
}

func (im *importer) run() (*configs.System, error) {
	for _, r := range im.roots {
		for _, k := range r.kids {
			if !rootParts[k.name] {
				return nil, im.errAt(k, "Amalthea/"+k.name, "element <%s> is not supported by hetmap (not a part of an Amalthea model: %s)", k.name, partsList())
			}
		}
	}
	if len(im.subModels("swModel")) == 0 {
		return nil, im.errAt(im.roots[0], "Amalthea", "the model has no <swModel>%s", filesHint(len(im.roots)))
	}
	if len(im.subModels("hwModel")) == 0 {
		return nil, im.errAt(im.roots[0], "Amalthea", "the model has no <hwModel>%s", filesHint(len(im.roots)))
	}
	if len(im.subModels("stimuliModel")) == 0 {
		return nil, im.errAt(im.roots[0], "Amalthea", "the model has no <stimuliModel>%s", filesHint(len(im.roots)))
	}
	im.readPast()
	steps := []func() error{im.hardware, im.stimuliModel, im.osModel, im.labels, im.runnables, im.tasks, im.constraints, im.mapping}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	im.summary092()
	im.sys.Memory = im.challengeMemory()
	if err := im.checkSums(); err != nil {
		return nil, err
	}
	im.warn("hwModel", "memory-contention parameters are not part of an Amalthea model: using the WATERS 2019 challenge values (baseline from the DRAM latency of the model; K and sGPU from the challenge text; copy engine 3 ns + 0.5 ns per interfering core)")
	return &im.sys, nil
}

// checkSums refuses a task whose period, offset or jitter, or whose
// compute, memory or contention term on a unit it can run on, is longer
// than the analyses take (sumChecker), naming the task's element and the
// sum.
func (im *importer) checkSums() error {
	i, p := configs.TooLong(&im.sys)
	if p == "" {
		return nil
	}
	t := &im.sys.Tasks[i]
	var at *xnode
	if g := im.taskInfo[t.Name]; g != nil {
		at = g.node
	}
	e := im.errAt(at, "swModel/tasks["+t.Name+"]", "")
	e.What = p // one line of hetmap's own, not a value of the model to clip
	return e
}

func partsList() string {
	var names []string
	for n := range rootParts {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func filesHint(n int) string {
	if n == 1 {
		return "; if the model is split over several files, give them all (--model a.amxmi --model b.amxmi, or the folder)"
	}
	return " in any of its files"
}

// readPast warns about the parts of a model that carry information the
// analysis does not use.
func (im *importer) readPast() {
	count := func(sub string) int {
		n := 0
		for _, s := range im.subModels(sub) {
			for _, k := range s.kids {
				if k.name != "customProperties" {
					n++
				}
			}
		}
		return n
	}
	if n := count("measurementModel"); n > 0 {
		im.warn("measurementModel", "%d measurement(s) read past: hetmap analyses worst cases from the model's ticks, not from measured times", n)
	}
	if n := count("componentsModel"); n > 0 {
		im.warn("componentsModel", "%d component element(s) read past: components, interfaces and their connections do not change hetmap's timing model", n)
	}
	if n := count("propertyConstraintsModel"); n > 0 {
		im.warn("propertyConstraintsModel", "%d allocation or mapping constraint(s) read past: optimize does not restrict the cores a task may use by them", n)
	}
}

func (im *importer) hardware() error {
	im.defs = map[string]*xnode{}
	im.features = map[string]float64{}
	im.defFeats = map[string][]string{}
	freqs := map[string]configs.Frequency{}
	var structures []*xnode
	for _, hw := range im.subModels("hwModel") {
		for _, k := range hw.kids {
			switch k.name {
			case "definitions":
				if k.typ() == "ProcessingUnitDefinition" {
					name := k.attr("name")
					if prev, dup := im.defs[name]; dup {
						return im.errAt(k, "hwModel/definitions["+name+"]", "%q is defined twice (also at %s)", name, position(prev))
					}
					im.defs[name] = k
					im.defFeats[name] = k.refs("features")
				}
			case "featureCategories":
				for _, f := range k.children("features") {
					v, err := strconv.ParseFloat(orZero(f.attr("value")), 64)
					if err != nil {
						return im.errAt(f, "hwModel/featureCategories["+k.attr("name")+"]/features["+f.attr("name")+"]", "value %q is not a number", f.attr("value"))
					}
					im.features[k.attr("name")+"/"+f.attr("name")] = v
				}
			case "structures":
				structures = append(structures, k)
			case "domains":
				if k.typ() != "FrequencyDomain" {
					continue // power domains do not change timing
				}
				where := "hwModel/domains[" + k.attr("name") + "]"
				dv := k.child("defaultValue")
				if dv == nil {
					return im.errAt(k, where, "frequency domain has no defaultValue")
				}
				f, err := configs.ParseFrequency(orZero(dv.attr("value")) + dv.attr("unit"))
				if err != nil {
					return im.errAt(dv, where, "%v", err)
				}
				freqs[k.attr("name")] = f
			case "connectionHandlers", "customProperties":
			default:
				return im.errAt(k, "hwModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
		}
	}
	var walk func(s *xnode) error
	walk = func(s *xnode) error {
		for _, m := range s.children("modules") {
			if m.typ() != "ProcessingUnit" {
				continue // memories, caches and connection handlers: the contention model stands for them
			}
			if err := im.processingUnit(m, freqs); err != nil {
				return err
			}
			im.unitNodes = append(im.unitNodes, m)
		}
		for _, c := range s.children("structures") {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	for _, s := range structures {
		if err := walk(s); err != nil {
			return err
		}
	}
	if len(im.sys.Units) == 0 {
		return im.errAt(im.subModels("hwModel")[0], "hwModel", "the model has no processing units")
	}
	seen := map[string]*xnode{}
	for i, u := range im.sys.Units {
		if prev, dup := seen[u.Name]; dup {
			return im.errAt(im.unitNodes[i], "hwModel/ProcessingUnit["+u.Name+"]", "%q is defined twice (also at %s)", u.Name, position(prev))
		}
		seen[u.Name] = im.unitNodes[i]
	}
	// Units in a stable, readable order: CPUs first, then GPUs, each by name.
	sort.SliceStable(im.sys.Units, func(i, j int) bool {
		a, b := im.sys.Units[i], im.sys.Units[j]
		if a.Type != b.Type {
			return a.Type == configs.CPU
		}
		return a.Name < b.Name
	})
	return nil
}

func (im *importer) processingUnit(m *xnode, freqs map[string]configs.Frequency) error {
	name := m.attr("name")
	where := "hwModel/ProcessingUnit[" + name + "]"
	defName := m.ref("definition")
	def, ok := im.defs[defName]
	if !ok {
		return im.undefinedRef(m, where, "processing-unit definition", "definition", defName)
	}
	fd := m.ref("frequencyDomain")
	f, ok := freqs[fd]
	switch {
	case fd == "":
		return im.undefinedRef(m, where, "frequency domain", "frequencyDomain", fd)
	case !ok || f <= 0:
		return im.errAt(m, where, "frequency domain %q is not defined or has no positive frequency", fd)
	}
	u := configs.Unit{Name: name, Kind: defName, Frequency: f}
	switch pt := strings.ToUpper(def.attr("puType")); pt {
	case "CPU":
		u.Type = configs.CPU
	case "", "_UNDEFINED_":
		u.Type = configs.CPU
		im.warn("hwModel/definitions["+defName+"]", "the processing-unit definition gives no puType: taken as a CPU")
	case "GPU":
		u.Type = configs.GPU
		g := configs.TX2GPU()
		for _, fr := range im.defFeats[defName] {
			v := im.features[fr]
			switch {
			case strings.HasPrefix(fr, "SMs/"):
				g.SMs = int(v)
			case strings.HasPrefix(fr, "CudaCores/"):
				g.CoresPerSM = int(v)
			}
		}
		u.GPU = &g
		im.warn(where, "threads, shared memory and registers per SM, and the copy engines, are not part of the model: using the TX2 values (Amert et al., RTSS 2017: 2048 threads, 64 KiB, 65536 registers per SM; 1 copy engine)")
	default:
		return im.errAt(def, "hwModel/definitions["+defName+"]", "processing-unit type %q is not supported (CPU or GPU)", def.attr("puType"))
	}
	for _, ae := range m.children("accessElements") {
		aw := where + "/accessElements[" + ae.attr("name") + "]"
		if rl := ae.child("readLatency"); rl != nil {
			d, err := im.latencyCycles(aw+"/readLatency", rl)
			if err != nil {
				return err
			}
			u.ReadLatency = d
		}
		if wl := ae.child("writeLatency"); wl != nil {
			d, err := im.latencyCycles(aw+"/writeLatency", wl)
			if err != nil {
				return err
			}
			u.WriteLatency = d
		}
	}
	im.sys.Units = append(im.sys.Units, u)
	return nil
}

// latencyCycles reads an access latency in cycles: its worst case.
func (im *importer) latencyCycles(where string, v *xnode) (int64, error) {
	if im.before093() {
		return im.latency092(where, v)
	}
	if v.typ() == "" {
		// Older files write the value without a type.
		n, err := configs.ScaleDecimal(strings.TrimSpace(orZero(v.attr("value"))), 1)
		if err != nil {
			return 0, im.errAt(v, where, "value=%q is not an integer", v.attr("value"))
		}
		return n, nil
	}
	d, err := im.discreteValue(where, v)
	return d.upper, err
}

func (im *importer) challengeMemory() configs.Memory {
	m := configs.Memory{LineSize: 64, CopyEngine: ChallengeCopyEngine}
	for _, k := range im.sys.Kinds() {
		var u *configs.Unit
		for i := range im.sys.Units {
			if im.sys.Units[i].Kind == k {
				u = &im.sys.Units[i]
				break
			}
		}
		if u.Type != configs.CPU {
			continue
		}
		// baseline = DRAM read latency in cycles / frequency, rounded up.
		base := configs.Duration((u.ReadLatency*int64(configs.Second) + int64(u.Frequency) - 1) / int64(u.Frequency))
		c := configs.CoreMemory{Kind: k, Baseline: base}
		if p, ok := challengeContention[k]; ok {
			c.PerCore, c.CopyEngine = p.perCore, p.copyEngine
		} else {
			im.warn("hwModel/definitions["+k+"]", "no challenge contention parameters for core kind %q: K and sGPU set to 0; give them in the configuration's memory section", k)
		}
		if u.ReadLatency == 0 {
			im.warn("hwModel/definitions["+k+"]", "the cores of kind %s have no access latency to memory (accessElements readLatency): a label access costs no time; give memory.cores in a configuration to count it", k)
		}
		m.Cores = append(m.Cores, c)
	}
	return m
}

// stimInfo is what a stimulus says about the tasks it activates.
type stimInfo struct {
	node   *xnode
	kind   string // the xsi:type
	period configs.Duration
	offset configs.Duration
	jitter configs.Duration
	// ips: an InterProcessStimulus (its tasks are activated by triggers);
	// prescaler and counterOffset are its counter.
	ips                      bool
	prescaler, counterOffset int64
	// sporadic: the period is a minimum inter-arrival time.
	sporadic bool
	// refused: why the stimulus cannot be analysed (an error once a task uses it).
	refused string
}

func (im *importer) stimuliModel() error {
	im.stimuli = map[string]*stimInfo{}
	for _, sm := range im.subModels("stimuliModel") {
		for _, k := range sm.kids {
			switch k.name {
			case "stimuli":
			case "clocks", "customProperties":
				continue
			default:
				return im.errAt(k, "stimuliModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
			name := k.attr("name")
			if prev, dup := im.stimuli[name]; dup {
				return im.errAt(k, "stimuliModel/stimuli["+name+"]", "%q is defined twice (also at %s)", name, position(prev.node))
			}
			si, err := im.stimulus(k)
			if err != nil {
				return err
			}
			im.stimuli[name] = si
		}
	}
	return nil
}

// stimulus reads one stimulus by its type: periodic, activated by an
// InterProcessTrigger, or one of the recurring types analysed as sporadic
// with their minimum inter-arrival time (warned). A type hetmap cannot
// analyse is not an error here: it is marked refused, an error once a task
// uses it.
func (im *importer) stimulus(k *xnode) (*stimInfo, error) {
	name := k.attr("name")
	where := "stimuliModel/stimuli[" + name + "]"
	si := &stimInfo{node: k, kind: k.typ(), prescaler: 1}
	var err error
	switch si.kind {
	case "PeriodicStimulus":
		err = im.periodicStimulus(where, k, si)
	case "InterProcessStimulus":
		si.ips = true
		if c := k.child("counter"); c != nil {
			p, o, cerr := im.counter(where+"/counter", c)
			if cerr != nil {
				return nil, cerr
			}
			si.prescaler, si.counterOffset = p, o
		}
	case "RelativePeriodicStimulus":
		err = im.relativePeriodicStimulus(where, k, si)
	case "PeriodicSyntheticStimulus":
		err = im.periodicSyntheticStimulus(where, k, si)
	case "PeriodicBurstStimulus":
		err = im.periodicBurstStimulus(where, k, si)
	case "ArrivalCurveStimulus":
		err = im.arrivalCurveStimulus(where, k, si)
	case "SingleStimulus":
		si.refused = "a task activated once (SingleStimulus) is not supported: hetmap analyses recurring tasks"
	case "EventStimulus":
		si.refused = "activation by an event (EventStimulus) is not supported: hetmap analyses periodic, sporadic and InterProcessTrigger activations"
	case "VariableRateStimulus":
		si.refused = "a VariableRateStimulus (rate depending on, e.g., rotation speed) is not supported: give its maximum rate as a PeriodicStimulus or RelativePeriodicStimulus"
	case "CustomStimulus":
		si.refused = "a CustomStimulus has no semantics hetmap can analyse"
	default:
		si.refused = fmt.Sprintf("stimulus type %q is not supported (PeriodicStimulus, RelativePeriodicStimulus, PeriodicSyntheticStimulus, PeriodicBurstStimulus, ArrivalCurveStimulus, InterProcessStimulus)", "am:"+si.kind)
	}
	if err != nil {
		return nil, err
	}
	return si, nil
}

// stimulusOffset reads the offset of stimulus k (at where) into si, if it
// has one.
func (im *importer) stimulusOffset(where string, k *xnode, si *stimInfo) error {
	if o := k.child("offset"); o != nil {
		d, err := im.timeValue(where+"/offset", o)
		if err != nil {
			return err
		}
		si.offset = d
	}
	return nil
}

// stimulusRecurrence reads the recurrence of stimulus k (at where), which
// must be given and positive, into si's period, then its offset.
func (im *importer) stimulusRecurrence(where string, k *xnode, si *stimInfo) error {
	r := k.child("recurrence")
	if r == nil {
		return im.errAt(k, where, "periodic stimulus has no recurrence")
	}
	d, err := im.timeValue(where+"/recurrence", r)
	if err != nil {
		return err
	}
	if d <= 0 {
		return im.errAt(r, where+"/recurrence", "period must be positive")
	}
	si.period = d
	return im.stimulusOffset(where, k, si)
}

// periodicStimulus reads a PeriodicStimulus: its recurrence, offset and
// jitter.
func (im *importer) periodicStimulus(where string, k *xnode, si *stimInfo) error {
	if err := im.stimulusRecurrence(where, k, si); err != nil {
		return err
	}
	if j := k.child("jitter"); j != nil {
		lo, hi, err := im.timeBounds(where+"/jitter", j)
		if err != nil {
			return err
		}
		_ = lo // a jitter is a delay of the release after its periodic arrival: its upper bound is the release jitter
		si.jitter = hi
	}
	return nil
}

// relativePeriodicStimulus reads a RelativePeriodicStimulus as sporadic,
// with the lower bound of nextOccurrence as the minimum inter-arrival time.
func (im *importer) relativePeriodicStimulus(where string, k *xnode, si *stimInfo) error {
	if err := im.stimulusOffset(where, k, si); err != nil {
		return err
	}
	lo, hi, err := im.timeBounds(where+"/nextOccurrence", k.child("nextOccurrence"))
	if err != nil {
		return err
	}
	if lo <= 0 {
		return im.errAt(k, where, "the smallest distance between two activations (nextOccurrence lower bound) is %s: a minimum inter-arrival time must be positive", lo)
	}
	si.period, si.sporadic = lo, true
	im.warn(where, "RelativePeriodicStimulus: activations %s to %s apart, analysed as sporadic with the minimum inter-arrival time %s (the sound bound on interference)", lo, hi, lo)
	return nil
}

// periodicSyntheticStimulus reads a PeriodicSyntheticStimulus: one
// occurrence per recurrence is periodic, with the occurrence added to the
// offset; several are sporadic, with the least distance between two of
// them (across recurrences too) as the inter-arrival time.
func (im *importer) periodicSyntheticStimulus(where string, k *xnode, si *stimInfo) error {
	if err := im.stimulusRecurrence(where, k, si); err != nil {
		return err
	}
	var times []configs.Duration
	for i, t := range k.children("occurrenceTimes") {
		d, err := im.timeValue(fmt.Sprintf("%s/occurrenceTimes[%d]", where, i), t)
		if err != nil {
			return err
		}
		times = append(times, d)
	}
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	switch len(times) {
	case 0:
		return im.errAt(k, where, "PeriodicSyntheticStimulus has no occurrenceTimes")
	case 1:
		si.offset += times[0]
	default:
		gap := times[0] + si.period - times[len(times)-1]
		for i := 1; i < len(times); i++ {
			gap = min(gap, times[i]-times[i-1])
		}
		if gap <= 0 {
			return im.errAt(k, where, "two occurrences at the same time: a minimum inter-arrival time must be positive")
		}
		im.warn(where, "PeriodicSyntheticStimulus: %d activations per %s, analysed as sporadic with their minimum distance %s as the inter-arrival time", len(times), si.period, gap)
		si.offset += times[0]
		si.period, si.sporadic = gap, true
	}
	return nil
}

// periodicBurstStimulus reads a PeriodicBurstStimulus: a burst of one
// activation is periodic; a longer one is sporadic, with
// occurrenceMinDistance as the inter-arrival time.
func (im *importer) periodicBurstStimulus(where string, k *xnode, si *stimInfo) error {
	if err := im.stimulusRecurrence(where, k, si); err != nil {
		return err
	}
	count := int64(1)
	if c := k.attr("occurrenceCount"); c != "" {
		n, err := strconv.ParseInt(c, 10, 64)
		if err != nil || n < 0 {
			return im.errAt(k, where, "occurrenceCount=%q is not a count", c)
		}
		count = n
	}
	if count <= 1 {
		return nil
	}
	md := k.child("occurrenceMinDistance")
	if md == nil {
		return im.errAt(k, where, "PeriodicBurstStimulus of %d occurrences has no occurrenceMinDistance: hetmap needs the minimum distance between activations", count)
	}
	d, err := im.timeValue(where+"/occurrenceMinDistance", md)
	if err != nil {
		return err
	}
	if d <= 0 {
		return im.errAt(md, where+"/occurrenceMinDistance", "a minimum inter-arrival time must be positive")
	}
	im.warn(where, "PeriodicBurstStimulus: bursts of %d activations every %s, analysed as sporadic with the minimum distance %s as the inter-arrival time", count, si.period, d)
	si.period, si.sporadic = d, true
	return nil
}

// arrivalCurveStimulus reads an ArrivalCurveStimulus as sporadic, with the
// lower time border of its entry for 2 occurrences as the inter-arrival
// time; without a positive one it is refused.
func (im *importer) arrivalCurveStimulus(where string, k *xnode, si *stimInfo) error {
	var mit configs.Duration
	for i, e := range k.children("entries") {
		if e.attr("numberOfOccurrences") == "2" {
			d, err := im.timeValue(fmt.Sprintf("%s/entries[%d]/lowerTimeBorder", where, i), e.child("lowerTimeBorder"))
			if err != nil {
				return err
			}
			mit = d
		}
	}
	if mit <= 0 {
		si.refused = "ArrivalCurveStimulus without a positive lowerTimeBorder for 2 occurrences: hetmap needs the minimum distance between two activations"
		return nil
	}
	si.period, si.sporadic = mit, true
	im.warn(where, "ArrivalCurveStimulus: analysed as sporadic with the minimum distance of two activations, %s, as the inter-arrival time", mit)
	return nil
}

// counter reads a Counter (prescaler and offset).
func (im *importer) counter(where string, c *xnode) (prescaler, offset int64, err error) {
	prescaler, offset = 1, 0
	if p := c.attr("prescaler"); p != "" {
		if prescaler, err = strconv.ParseInt(p, 10, 64); err != nil || prescaler < 1 || prescaler > 1<<20 {
			return 0, 0, im.errAt(c, where, "prescaler=%q is not a positive count", p)
		}
	}
	if o := c.attr("offset"); o != "" {
		if offset, err = strconv.ParseInt(o, 10, 64); err != nil || offset < 0 || offset > 1<<20 {
			return 0, 0, im.errAt(c, where, "offset=%q is not a count", o)
		}
	}
	return prescaler, offset, nil
}

// schedInfo is a task scheduler of the OS model.
type schedInfo struct {
	node *xnode
	// algorithm is the schedulingAlgorithm's xsi:type (0.9.x, 1.x) or the
	// name of the scheduler definition (2.x and later).
	algorithm string
	// definition is the scheduler definition (2.x and later), else "".
	definition string
	// why is set when hetmap does not analyse the algorithm on a CPU.
	why string
}

// fixedPriority lists the scheduling algorithms analysed as fixed-priority
// preemptive scheduling (Joseph and Pandya's response-time analysis).
var fixedPriority = map[string]bool{"FixedPriorityPreemptive": true, "OSEK": true, "DeadlineMonotonic": true, "RateMonotonic": true}

// unsupportedScheduling says why an algorithm is not analysed on a CPU.
func unsupportedScheduling(algo string) string {
	switch algo {
	case "EarliestDeadlineFirst", "LeastLocalRemainingExecutionTimeFirst":
		return "dynamic-priority scheduling (" + algo + ") is not analysed: hetmap analyses fixed-priority preemptive scheduling"
	case "PriorityBasedRoundRobin":
		return "round-robin scheduling is not analysed: hetmap analyses fixed-priority preemptive scheduling"
	case "PfairPD2", "PartlyPFairPD2", "EarlyReleaseFairPD2", "PartlyEarlyReleaseFairPD2":
		return "global (Pfair) scheduling is not analysed: hetmap analyses partitioned fixed-priority preemptive scheduling"
	case "DeferrableServer", "PollingPeriodicServer", "SporadicServer", "ConstantBandwidthServer", "ConstantBandwidthServerWithCASH",
		"Grouping", "FixedPriorityPreemptiveWithBudgetEnforcement":
		return "reservation, budgets and scheduler hierarchies (" + algo + ") are not analysed: hetmap analyses fixed-priority preemptive scheduling"
	case "UserSpecificSchedulingAlgorithm":
		return "a user-specific scheduling algorithm has no semantics hetmap can analyse on a CPU (it is accepted for the GPU, whose scheduling analysis.gpu_model chooses)"
	}
	return fmt.Sprintf("scheduling algorithm %q is not supported (FixedPriorityPreemptive, OSEK, DeadlineMonotonic, RateMonotonic on CPU cores)", algo)
}

func (im *importer) osModel() error {
	im.schedulers = map[string]*schedInfo{}
	if err := im.paramDefinitions(); err != nil {
		return err
	}
	for _, om := range im.subModels("osModel") {
		for _, k := range om.kids {
			switch k.name {
			case "operatingSystems":
				if err := im.operatingSystem(k); err != nil {
					return err
				}
			case "osOverheads":
				im.warn("osModel/osOverheads["+k.attr("name")+"]", "OS overheads are not analysed: response times do not include the OS's API and ISR overheads")
			case "semaphores", "schedulerDefinitions", "schedulingParameterDefinitions", "customProperties":
			default:
				return im.errAt(k, "osModel/"+k.name, "element <%s> is not supported by hetmap", k.name)
			}
		}
	}
	return nil
}

func (im *importer) operatingSystem(o *xnode) error {
	for _, k := range o.kids {
		switch k.name {
		case "taskSchedulers":
		case "interruptControllers", "customProperties":
			continue
		case "overhead":
			// A reference to an OsOverhead (an href child where it is in
			// another file): the overheads are read past, with their warning.
			continue
		case "osDataConsistency":
			if m := k.attr("mode"); m != "" && m != "noProtection" && m != "_undefined_" {
				im.warn("osModel/operatingSystems["+o.attr("name")+"]/osDataConsistency", "data consistency mode %s: the copies it implies are not analysed", m)
			}
			continue
		default:
			return im.errAt(k, "osModel/operatingSystems["+o.attr("name")+"]/"+k.name, "element <%s> is not supported by hetmap", k.name)
		}
		name := k.attr("name")
		where := "osModel/taskSchedulers[" + name + "]"
		if prev, dup := im.schedulers[name]; dup {
			return im.errAt(k, where, "%q is defined twice (also at %s)", name, position(prev.node))
		}
		si := &schedInfo{node: k}
		if k.child("parentAssociation") != nil {
			si.why = "a scheduler with a parent scheduler (a hierarchy) is not analysed: hetmap analyses one fixed-priority preemptive scheduler per core"
		}
		if alg := k.child("schedulingAlgorithm"); alg != nil {
			si.algorithm = alg.typ()
		} else if def := k.ref("definition"); def != "" {
			si.algorithm, si.definition = def, def
			if im.schedDefs[def] == nil {
				im.warn(where, "the definition names scheduler definition %q, which the model does not define (a dangling reference, which APP4MC reports): read by its name", def)
			}
		} else {
			// APP4MC's mapping tool writes schedulers without an algorithm;
			// a core without any scheduler is analysed the same way.
			si.algorithm = "FixedPriorityPreemptive"
			im.warn(where, "the scheduler has no schedulingAlgorithm: analysed under fixed-priority preemptive scheduling")
		}
		if si.why == "" && !fixedPriority[si.algorithm] {
			si.why = unsupportedScheduling(si.algorithm)
		}
		if err := im.schedulerParams(where, name, k, si.definition); err != nil {
			return err
		}
		im.schedulers[name] = si
	}
	return nil
}

// schedulerFor checks that the scheduler of a CPU core is one hetmap
// analyses.
func (im *importer) checkCPUScheduler(where string, at *xnode, sched string) error {
	si := im.schedulers[sched]
	if si == nil || si.why == "" {
		return nil
	}
	return im.errAt(at, where, "scheduler %s (%s) schedules CPU cores: %s", sched, si.algorithm, si.why)
}

// maxQuoted bounds a value quoted in a message: a name or value of a
// model is at most a few hundred bytes, and a message that repeated a
// value of megabytes (a broken or hostile file) would be neither one line
// nor cheap.
const maxQuoted = 200

// clip shortens s to about maxQuoted bytes, saying how long it was.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted / 2
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes)", len(s))
}

func clipArgs(args []any) []any {
	var out []any
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > maxQuoted {
			if out == nil {
				out = append([]any(nil), args...) // the caller's slice stays as it was
			}
			out[i] = clip(s)
		}
	}
	if out == nil {
		return args
	}
	return out
}
