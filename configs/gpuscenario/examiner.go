package gpuscenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta/gpusim"
)

// Options are the modelling parameters of the CUDA Scheduling Examiner
// loader. A zero field takes its default.
type Options struct {
	// CopyLineTime is the copy engine's time per 64-byte line, in ns. A copy
	// of n bytes takes ceil(n/64)·CopyLineTime (at least 1 ns). Default 3 ns:
	// Lat(CE, 64 B) of the WATERS 2019 challenge with no interfering core (about
	// 21.3 GB/s).
	CopyLineTime int64
	// MaxIterations caps the iterations simulated per benchmark (default
	// 1000, the largest max_iterations of the published scenario files).
	MaxIterations int
}

// DefaultCopyLineTime and DefaultMaxIterations are the defaults of Options.
const (
	DefaultCopyLineTime  = 3
	DefaultMaxIterations = 1000
	copyLineBytes        = 64
)

func (o Options) withDefaults() Options {
	if o.CopyLineTime <= 0 {
		o.CopyLineTime = DefaultCopyLineTime
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = DefaultMaxIterations
	}
	return o
}

// Warning is something of a scenario file the simulator skips or only
// approximates. Benchmark is the index in "benchmarks" (-1 for the whole
// file); nested benchmarks of task_host.so are numbered "2.1" in Path.
type Warning struct {
	Benchmark int
	Path      string // key path of the benchmark, e.g. "benchmarks[3]"
	Label     string
	Plugin    string // file name of the plugin, e.g. "mandelbrot.so"
	Message   string
}

func (w Warning) String() string {
	var b strings.Builder
	if w.Path != "" {
		b.WriteString(w.Path)
		if w.Label != "" {
			fmt.Fprintf(&b, " (%q)", w.Label)
		}
		if w.Plugin != "" {
			b.WriteString(" " + w.Plugin)
		}
		b.WriteString(": ")
	}
	b.WriteString(w.Message)
	return b.String()
}

// Accepted keys of the scenario format. "comment" is accepted everywhere and
// ignored.
var (
	examinerTopKeys = []string{"name", "max_iterations", "max_time", "use_processes", "cuda_device", "pin_cpus",
		"do_warmup", "sync_every_iteration", "benchmarks"}
	examinerBenchKeys = []string{"filename", "label", "log_name", "thread_count", "block_count", "data_size",
		"additional_info", "release_time", "stream_priority", "cpu_core", "max_iterations", "max_time",
		"mps_thread_percentage", "sm_mask"}
	multikernelKeys = []string{"kernel_label", "duration", "block_count", "thread_count", "delay",
		"shared_memory_size", "copy_in_count", "copy_out_count", "sm_mask"}
	sharedmemInfoKeys = []string{"duration", "shared_memory_size"}
)

// ParseExaminer reads a CUDA Scheduling Examiner scenario (JSON); file names
// it in messages. It returns the simulator input and the warnings about
// benchmarks it skipped or approximated. See the package documentation for
// the modelling choices.
func ParseExaminer(data []byte, file string, opts Options) (gpusim.Scenario, []Warning, error) {
	opts = opts.withDefaults()
	if len(data) > maxFileSize {
		return gpusim.Scenario{}, nil, &LoadError{File: file, Problems: []Problem{{Message: fmt.Sprintf("larger than %d bytes", maxFileSize)}}}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return gpusim.Scenario{}, nil, &LoadError{File: file, Problems: []Problem{{Message: fmt.Sprintf("not valid JSON: %v", err)}}}
	}
	if dec.More() {
		return gpusim.Scenario{}, nil, &LoadError{File: file, Problems: []Problem{{Message: "not valid JSON: more than one value"}}}
	}
	ex := &examiner{opts: opts, names: map[string]bool{}}
	ex.s.Device = gpusim.TX2()
	top, ok := root.(map[string]any)
	if !ok {
		ex.ps.add("", "the top level must be an object, got %s", jsonKind(root))
		return gpusim.Scenario{}, nil, ex.ps.err(file)
	}
	ex.config(obj{path: "", m: top, ps: &ex.ps}, 0, 0, "")
	if err := ex.ps.err(file); err != nil {
		return gpusim.Scenario{}, nil, err
	}
	if ex.processes {
		ex.warn(-1, "", "", "", "use_processes is true: the benchmarks run in different address spaces, where the GPU time-slices between contexts and the TX2 rules do not hold; they are simulated as threads of one process")
	}
	return ex.s, ex.warns, nil
}

// LoadExaminer reads a CUDA Scheduling Examiner scenario file.
func LoadExaminer(path string, opts Options) (gpusim.Scenario, []Warning, error) {
	data, err := configs.ReadInput(path, "the scenario")
	if err != nil {
		return gpusim.Scenario{}, nil, err
	}
	return ParseExaminer(data, path, opts)
}

type examiner struct {
	opts      Options
	s         gpusim.Scenario
	ps        problems
	warns     []Warning
	names     map[string]bool
	null      int // index+1 of the NULL stream, 0 if none yet
	processes bool
	ops       int // calls so far, bounded by maxCalls
}

// maxCalls bounds the calls a scenario file may expand to (iterations ×
// kernels and copies, over all benchmarks).
const maxCalls = 1 << 22

func (ex *examiner) warn(bench int, path, label, plugin, format string, args ...any) {
	ex.warns = append(ex.warns, Warning{Benchmark: bench, Path: path, Label: label, Plugin: plugin, Message: fmt.Sprintf(format, args...)})
}

// unique returns name, or name with " (2)", " (3)"... if it is taken.
func (ex *examiner) unique(name string) string {
	n := name
	for i := 2; ex.names[n]; i++ {
		n = fmt.Sprintf("%s (%d)", name, i)
	}
	ex.names[n] = true
	return n
}

// runSettings are the iteration settings of a (nested) configuration.
type runSettings struct {
	maxIterations int64
	maxTime       float64
	syncEvery     bool
}

// config reads a configuration object (the file, or the additional_info of a
// task_host.so benchmark at depth > 0). release is added to the release times
// of its benchmarks.
func (ex *examiner) config(o obj, depth int, release int64, labelPrefix string) {
	o.known(examinerTopKeys)
	o.str("name", false)
	if depth == 0 {
		ex.s.Name, _ = o.str("name", false)
	}
	var rs runSettings
	rs.maxIterations, _ = o.integer("max_iterations", false)
	rs.maxTime, _ = o.number("max_time", false)
	if rs.maxIterations < 0 {
		o.ps.add(o.sub("max_iterations"), "must be >= 0 (0: no limit), got %d", rs.maxIterations)
	}
	if rs.maxTime < 0 {
		o.ps.add(o.sub("max_time"), "must be >= 0 (0: no limit), got %v", rs.maxTime)
	}
	if p, ok := o.boolean("use_processes"); ok && p {
		ex.processes = true
	}
	rs.syncEvery, _ = o.boolean("sync_every_iteration")
	o.integer("cuda_device", false)
	o.boolean("pin_cpus")
	if w, ok := o.boolean("do_warmup"); ok && w && depth == 0 {
		ex.warn(-1, "", "", "", "do_warmup is ignored: the simulator has no warm-up effects")
	}
	benches, ok := o.list("benchmarks", true)
	if !ok {
		return
	}
	for i, b := range benches {
		bo, ok := b.object()
		if !ok {
			continue
		}
		idx := i
		if depth > 0 {
			idx = -1
		}
		ex.benchmark(bo, idx, depth, rs, release, labelPrefix)
	}
}

// benchmark reads one benchmark and adds its host, stream and calls.
func (ex *examiner) benchmark(o obj, idx, depth int, rs runSettings, release int64, labelPrefix string) {
	o.known(examinerBenchKeys)
	filename, _ := o.str("filename", true)
	plugin := path.Base(filename)
	label, hasLabel := o.str("label", false)
	if !hasLabel || label == "" {
		label = strings.TrimSuffix(plugin, ".so")
	}
	label = labelPrefix + label
	o.str("log_name", false)
	o.integer("cpu_core", false)
	rel, _ := o.number("release_time", false)
	if rel > 1e6 {
		o.ps.add(o.sub("release_time"), "at most 1e6 s, got %v", rel)
		rel = 0
	}
	if math.IsNaN(rel) || rel < 0 {
		rel = 0 // the runner starts a benchmark with a negative release time at once
	}
	relNS := release + int64(math.Round(rel*1e9))
	if v, ok := o.integer("max_iterations", false); ok && v >= 0 {
		rs.maxIterations = v
	}
	if v, ok := o.number("max_time", false); ok && v >= 0 {
		rs.maxTime = v
	}
	prio, hasPrio := o.integer("stream_priority", false)
	if mps, ok := o.number("mps_thread_percentage", false); ok {
		ex.warn(idx, o.path, label, plugin, "mps_thread_percentage %v is ignored: MPS partitioning is not modelled", mps)
	}
	if mask, ok := o.str("sm_mask", false); ok {
		ex.warn(idx, o.path, label, plugin, "sm_mask %s is ignored: SM partitioning is not modelled", mask)
	}
	// Fields read by some plugins only: accept any JSON value here.
	o.raw("thread_count")
	o.raw("block_count")
	o.raw("data_size")
	o.raw("additional_info")
	if filename == "" {
		return
	}
	priority := gpusim.PriorityLow
	if hasPrio {
		priority = ex.streamPriority(o, idx, label, plugin, prio)
	}
	var entries []entry
	null := false
	switch plugin {
	case "timer_spin.so", "timer_spin_default_stream.so":
		null = plugin == "timer_spin_default_stream.so"
		k, ok := ex.geometry(o)
		if d, ok2 := o.durationInfo(); ok && ok2 {
			k.BlockTime = d
			entries = append(entries, entry{name: label, kernel: k})
		}
	case "sharedmem_timer_spin.so":
		k, ok := ex.geometry(o)
		d, words, ok2 := o.sharedmemInfo()
		if ok && ok2 {
			k.BlockTime = d
			k.SharedMemoryPerBlock = words * 4
			entries = append(entries, entry{name: label, kernel: k})
		}
	case "multikernel.so":
		entries = ex.multikernel(o, idx, label, plugin)
	case "task_host.so":
		ex.taskHost(o, idx, depth, label, plugin, relNS)
		return
	case "counter_spin.so":
		ex.warn(idx, o.path, label, plugin, "skipped: it spins for a number of loop iterations, not a time, so its block time is unknown")
		return
	default:
		ex.warn(idx, o.path, label, plugin, "skipped: not a kernel plugin the simulator models (timer_spin, timer_spin_default_stream, sharedmem_timer_spin, multikernel, task_host)")
		return
	}
	if len(entries) == 0 {
		return
	}
	if null && hasPrio && prio != 0 {
		ex.warn(idx, o.path, label, plugin, "stream_priority is ignored: the NULL stream has low priority")
		priority = gpusim.PriorityLow
	}
	ex.addHost(o, idx, label, plugin, entries, null, priority, rs, relNS)
}

// streamPriority maps the stream_priority prio of benchmark o to the TX2's
// two levels: −1 and below high, 0 and above low, with a warning for a
// value it clamps.
func (ex *examiner) streamPriority(o obj, idx int, label, plugin string, prio int64) gpusim.Priority {
	switch {
	case prio <= -1:
		if prio < -1 {
			ex.warn(idx, o.path, label, plugin, "stream_priority %d is clamped to -1 (the TX2 has two levels)", prio)
		}
		return gpusim.PriorityHigh
	case prio > 0:
		ex.warn(idx, o.path, label, plugin, "stream_priority %d is clamped to 0 (the TX2 has two levels)", prio)
	}
	return gpusim.PriorityLow
}

// taskHost reads the nested configuration of a task_host.so benchmark o
// (at most 4 deep): its benchmarks are added as threads of this process,
// released relNS after the start, their labels prefixed with this one's.
func (ex *examiner) taskHost(o obj, idx, depth int, label, plugin string, relNS int64) {
	if depth >= 4 {
		o.ps.add(o.sub("additional_info"), "task_host.so nested more than 4 deep")
		return
	}
	info, ok := o.m["additional_info"].(map[string]any)
	if !ok {
		o.ps.add(o.sub("additional_info"), "task_host.so needs a configuration object, got %s", jsonKind(o.m["additional_info"]))
		return
	}
	ex.warn(idx, o.path, label, plugin, "its benchmarks are simulated as threads of the same process")
	ex.config(obj{path: o.sub("additional_info"), m: info, ps: o.ps}, depth+1, relNS, label+" / ")
}

// entry is one kernel of a benchmark's iteration, with its copies.
type entry struct {
	name            string
	kernel          gpusim.Kernel
	delay           int64 // ns; > 0: synchronise and sleep before it
	copyIn, copyOut int64 // ns; 0: none
}

// geometry reads thread_count and block_count of a single-kernel plugin.
func (ex *examiner) geometry(o obj) (gpusim.Kernel, bool) {
	t, ok1 := o.integer("thread_count", true)
	b, ok2 := o.integer("block_count", true)
	if !ok1 || !ok2 {
		return gpusim.Kernel{}, false
	}
	ok := true
	if t <= 0 || t > 1024 {
		o.ps.add(o.sub("thread_count"), "must be in 1..1024, got %d", t)
		ok = false
	}
	if b <= 0 || b > 1<<24 {
		o.ps.add(o.sub("block_count"), "must be in 1..%d, got %d", 1<<24, b)
		ok = false
	}
	return gpusim.Kernel{ThreadsPerBlock: int(t), Blocks: int(b)}, ok
}

func (ex *examiner) multikernel(o obj, idx int, label, plugin string) []entry {
	list, ok := o.list("additional_info", true)
	if !ok {
		return nil
	}
	if len(list) == 0 {
		o.ps.add(o.sub("additional_info"), "multikernel.so needs at least one kernel")
	}
	var out []entry
	for _, item := range list {
		ko, ok := item.object()
		if !ok {
			continue
		}
		ko.known(multikernelKeys)
		name, _ := ko.str("kernel_label", true)
		d, okD := ko.number("duration", true)
		t, okT := ko.integer("thread_count", true)
		b, okB := ko.integer("block_count", true)
		delay, _ := ko.number("delay", false)
		shm, _ := ko.integer("shared_memory_size", false)
		cin, _ := ko.integer("copy_in_count", false)
		cout, _ := ko.integer("copy_out_count", false)
		if mask, ok := ko.str("sm_mask", false); ok {
			ex.warn(idx, ko.path, label, plugin, "sm_mask %s of kernel %q is ignored: SM partitioning is not modelled", mask, name)
		}
		good := okD && okT && okB
		if okD && (d < 1 || d > 1e15) {
			ko.ps.add(ko.sub("duration"), "must be in [1, 1e15] ns, got %v", d)
			good = false
		}
		if okT && (t <= 0 || t > 1024) {
			ko.ps.add(ko.sub("thread_count"), "must be in 1..1024, got %d", t)
			good = false
		}
		if okB && (b <= 0 || b > 1<<24) {
			ko.ps.add(ko.sub("block_count"), "must be in 1..%d, got %d", 1<<24, b)
			good = false
		}
		if delay < 0 || delay > 1e6 || math.IsNaN(delay) {
			ko.ps.add(ko.sub("delay"), "must be in [0, 1e6] s, got %v", delay)
			good = false
		}
		for _, c := range []struct {
			key string
			v   int64
		}{{"shared_memory_size", shm}, {"copy_in_count", cin}, {"copy_out_count", cout}} {
			if c.v < 0 || c.v > 1<<40 {
				ko.ps.add(ko.sub(c.key), "must be in [0, 2^40] 32-bit words, got %d", c.v)
				good = false
			}
		}
		if !good {
			continue
		}
		e := entry{name: name, delay: int64(math.Round(delay * 1e9)),
			kernel: gpusim.Kernel{Blocks: int(b), ThreadsPerBlock: int(t), BlockTime: int64(d), SharedMemoryPerBlock: shm * 4}}
		e.copyIn, e.copyOut = ex.copyTime(cin*4), ex.copyTime(cout*4)
		if err := gpusim.TX2().CheckKernel(e.kernel); err != nil {
			ko.ps.add(ko.path, "%v", err)
			continue
		}
		out = append(out, e)
	}
	return out
}

// copyTime is the copy engine time of n bytes: ceil(n/64) lines of
// CopyLineTime each, at least 1 ns; 0 for no bytes.
func (ex *examiner) copyTime(n int64) int64 {
	if n <= 0 {
		return 0
	}
	lines := (n + copyLineBytes - 1) / copyLineBytes
	return max(1, lines*ex.opts.CopyLineTime)
}

// addHost adds the host thread of a benchmark: its iterations, each the
// entries in order, then a synchronisation.
func (ex *examiner) addHost(o obj, idx int, label, plugin string, entries []entry, null bool, prio gpusim.Priority, rs runSettings, release int64) {
	for _, e := range entries {
		if err := gpusim.TX2().CheckKernel(e.kernel); err != nil {
			o.ps.add(o.path, "%v", err)
			return
		}
	}
	iters := rs.maxIterations
	var stopAt int64
	if rs.maxTime > 0 {
		stopAt = release + int64(math.Round(math.Min(rs.maxTime, 1e6)*1e9))
	}
	switch {
	case iters == 0 && rs.maxTime > 0:
		iters = int64(ex.opts.MaxIterations)
		ex.warn(idx, o.path, label, plugin, "max_iterations is 0 (no limit): up to %d iterations are simulated, those started within max_time %v s", iters, rs.maxTime)
	case iters == 0:
		iters = 1
		ex.warn(idx, o.path, label, plugin, "max_iterations and max_time are 0 (the benchmark would run forever): one iteration is simulated")
	case iters > int64(ex.opts.MaxIterations):
		ex.warn(idx, o.path, label, plugin, "max_iterations %d is capped at %d", iters, ex.opts.MaxIterations)
		iters = int64(ex.opts.MaxIterations)
	}
	var st int
	if null {
		if ex.null == 0 {
			ex.null = ex.s.AddStream("NULL", gpusim.PriorityLow, true) + 1
		}
		st = ex.null - 1
	} else {
		st = ex.s.AddStream(label, prio, false)
	}
	var ops []gpusim.Op
	for it := int64(1); it <= iters; it++ {
		for j, e := range entries {
			name := e.name
			if iters > 1 {
				name += "#" + strconv.FormatInt(it, 10)
			}
			name = ex.unique(name)
			first := len(ops)
			if e.copyIn > 0 {
				ops = append(ops, gpusim.CopyCall(name+".copy_in", st, 0, e.copyIn))
			}
			ops = append(ops, gpusim.KernelCall(name, st, 0, e.kernel))
			if e.copyOut > 0 {
				ops = append(ops, gpusim.CopyCall(name+".copy_out", st, 0, e.copyOut))
			}
			f := &ops[first]
			if e.delay > 0 { // multikernel: cudaStreamSynchronize, then sleep
				f.Sync, f.Delay = true, e.delay
			}
			if j == 0 {
				if it == 1 {
					f.Delay += release // the runner sleeps release_time first
				} else {
					f.Sync = true // the previous iteration synchronised its stream
					f.Barrier = rs.syncEvery
					f.StopAt = stopAt
				}
			}
		}
		if ex.ops+len(ops) > maxCalls {
			o.ps.add(o.path, "too many calls: the scenario expands to more than %d kernels and copies", maxCalls)
			return
		}
	}
	ex.ops += len(ops)
	ex.s.AddHost(label, ops...)
}

// ---------------------------------------------------------------------------
// A small typed walker over decoded JSON that records Problems with paths.

type obj struct {
	path string
	m    map[string]any
	ps   *problems
}

type value struct {
	path string
	v    any
	ps   *problems
}

func (o obj) sub(key string) string {
	if o.path == "" {
		return key
	}
	return o.path + "." + key
}

// known reports every key that is neither accepted nor "comment".
func (o obj) known(accepted []string) {
	keys := make([]string, 0, len(o.m))
	for k := range o.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == "comment" || slices.Contains(accepted, k) {
			continue
		}
		o.ps.add(o.sub(k), "unknown key (accepted: %s, comment)", strings.Join(accepted, ", "))
	}
}

func (o obj) raw(key string) (any, bool) {
	v, ok := o.m[key]
	return v, ok
}

func (o obj) str(key string, required bool) (string, bool) {
	v, ok := o.m[key]
	if !ok || v == nil {
		if required {
			o.ps.add(o.sub(key), "missing (required)")
		}
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		o.ps.add(o.sub(key), "expected a string, got %s", jsonKind(v))
		return "", false
	}
	return s, true
}

func (o obj) boolean(key string) (bool, bool) {
	v, ok := o.m[key]
	if !ok || v == nil {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		o.ps.add(o.sub(key), "expected true or false, got %s", jsonKind(v))
		return false, false
	}
	return b, true
}

func (o obj) number(key string, required bool) (float64, bool) {
	v, ok := o.m[key]
	if !ok || v == nil {
		if required {
			o.ps.add(o.sub(key), "missing (required)")
		}
		return 0, false
	}
	n, ok := v.(json.Number)
	if !ok {
		o.ps.add(o.sub(key), "expected a number, got %s", jsonKind(v))
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		o.ps.add(o.sub(key), "%s is not a usable number", n)
		return 0, false
	}
	return f, true
}

func (o obj) integer(key string, required bool) (int64, bool) {
	f, ok := o.number(key, required)
	if !ok {
		return 0, false
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		o.ps.add(o.sub(key), "expected an integer, got %v", f)
		return 0, false
	}
	return int64(f), true
}

func (o obj) list(key string, required bool) ([]value, bool) {
	v, ok := o.m[key]
	if !ok || v == nil {
		if required {
			o.ps.add(o.sub(key), "missing (required)")
		}
		return nil, false
	}
	l, ok := v.([]any)
	if !ok {
		o.ps.add(o.sub(key), "expected a list, got %s", jsonKind(v))
		return nil, false
	}
	out := make([]value, len(l))
	for i, x := range l {
		out[i] = value{path: fmt.Sprintf("%s[%d]", o.sub(key), i), v: x, ps: o.ps}
	}
	return out, true
}

func (v value) object() (obj, bool) {
	m, ok := v.v.(map[string]any)
	if !ok {
		v.ps.add(v.path, "expected an object, got %s", jsonKind(v.v))
		return obj{}, false
	}
	return obj{path: v.path, m: m, ps: v.ps}, true
}

// durationInfo reads the additional_info of timer_spin.so: the spin time of
// every block in ns, a number or a string holding one.
func (o obj) durationInfo() (int64, bool) {
	key := o.sub("additional_info")
	v, ok := o.m["additional_info"]
	if !ok || v == nil {
		o.ps.add(key, "missing: the spin time of a block in ns")
		return 0, false
	}
	var f float64
	switch x := v.(type) {
	case json.Number:
		var err error
		if f, err = x.Float64(); err != nil {
			o.ps.add(key, "%s is not a usable number", x)
			return 0, false
		}
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil {
			o.ps.add(key, "expected the spin time in ns, got the string %q", x)
			return 0, false
		}
	default:
		o.ps.add(key, "expected the spin time in ns, got %s", jsonKind(v))
		return 0, false
	}
	if !(f >= 1 && f <= 1e15) {
		o.ps.add(key, "the spin time must be in [1, 1e15] ns, got %v", f)
		return 0, false
	}
	return int64(f), true
}

// sharedmemInfo reads the additional_info of sharedmem_timer_spin.so:
// {"duration": ns, "shared_memory_size": 32-bit words}, or the older string
// form "ns,words".
func (o obj) sharedmemInfo() (dur, words int64, ok bool) {
	key := o.sub("additional_info")
	switch x := o.m["additional_info"].(type) {
	case map[string]any:
		info := obj{path: key, m: x, ps: o.ps}
		info.known(sharedmemInfoKeys)
		d, ok1 := info.number("duration", true)
		w, ok2 := info.integer("shared_memory_size", true)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		if !(d >= 1 && d <= 1e15) {
			o.ps.add(info.sub("duration"), "must be in [1, 1e15] ns, got %v", d)
			return 0, 0, false
		}
		if w < 0 || w > 1<<30 {
			o.ps.add(info.sub("shared_memory_size"), "must be in [0, 2^30] 32-bit words, got %d", w)
			return 0, 0, false
		}
		return int64(d), w, true
	case string:
		parts := strings.Split(x, ",")
		if len(parts) == 2 {
			d, err1 := strconv.ParseInt(strings.TrimSpace(parts[0]), 10, 64)
			w, err2 := strconv.ParseInt(strings.TrimSpace(parts[1]), 10, 64)
			if err1 == nil && err2 == nil && d >= 1 && d <= 1e15 && w >= 0 && w <= 1<<30 {
				return d, w, true
			}
		}
		o.ps.add(key, "expected \"<ns>,<32-bit words>\", got %q", x)
	default:
		o.ps.add(key, "expected {\"duration\": ns, \"shared_memory_size\": words}, got %s", jsonKind(o.m["additional_info"]))
	}
	return 0, 0, false
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("%v", x)
	case json.Number:
		return "the number " + x.String()
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}
