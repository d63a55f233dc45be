package gpuscenario

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/viper"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta/gpu"
	"github.com/hetmap/hetmap/rta/gpusim"
)

// KernelSet is a validated kernel-set file: a GPU and kernels in queue order.
type KernelSet struct {
	File    string
	GPU     GPU
	Kernels []KernelSpec
}

// GPU holds the resources of the kernel set's GPU; the TX2 values unless the
// file sets them.
type GPU struct {
	SMs               int
	ThreadsPerSM      int
	SharedMemoryPerSM int64 // bytes
	RegistersPerSM    int
	BlocksPerSM       int
}

// KernelSpec is one kernel of a kernel set.
type KernelSpec struct {
	Name      string
	Period    time.Duration // 0: none given
	BlockTime time.Duration
	Blocks    int
	// ThreadsPerBlock is in (0, 1024].
	ThreadsPerBlock      int
	Launch               time.Duration // when the CUDA call is made
	SharedMemoryPerBlock int64         // bytes
	RegistersPerThread   int
	// Stream is the stream name; "" when the kernel has a stream of its own.
	Stream string
	// Null marks a kernel of the NULL stream (stream: null).
	Null     bool
	Priority gpusim.Priority
	CopyIn   time.Duration // 0: no copy
	CopyOut  time.Duration
}

// maxFileSize bounds the data the parsers take (the loaders read files
// through configs.ReadInput: only a regular file, of at most
// configs.MaxInputSize).
const maxFileSize = 16 << 20

// maxKernels bounds the kernels of a kernel set.
const maxKernels = 100000

// Size is a byte count in a kernel-set file: an integer (bytes) or a string
// with a unit, read by configs.ParseSize: B, kB = KB = 1000 B, MB, GB
// (decimal) and KiB = 1024 B, MiB, GiB (binary).
type Size int64

var (
	durationType = reflect.TypeOf(time.Duration(0))
	sizeType     = reflect.TypeOf(Size(0))
)

type rawGPU struct {
	SMs               *int  `mapstructure:"sms"`
	ThreadsPerSM      *int  `mapstructure:"threads_per_sm"`
	SharedMemoryPerSM *Size `mapstructure:"shared_memory_per_sm"`
	RegistersPerSM    *int  `mapstructure:"registers_per_sm"`
	BlocksPerSM       *int  `mapstructure:"blocks_per_sm"`
}

type rawKernel struct {
	Name                 *string        `mapstructure:"name"`
	Period               *time.Duration `mapstructure:"period"`
	BlockTime            *time.Duration `mapstructure:"block_time"`
	Blocks               *int           `mapstructure:"blocks"`
	ThreadsPerBlock      *int           `mapstructure:"threads_per_block"`
	Launch               *time.Duration `mapstructure:"launch"`
	Stream               any            `mapstructure:"stream"`
	Priority             *string        `mapstructure:"priority"`
	SharedMemoryPerBlock *Size          `mapstructure:"shared_memory_per_block"`
	RegistersPerThread   *int           `mapstructure:"registers_per_thread"`
	CopyIn               *time.Duration `mapstructure:"copy_in"`
	CopyOut              *time.Duration `mapstructure:"copy_out"`
}

type rawFile struct {
	GPU     *rawGPU     `mapstructure:"gpu"`
	Kernels []rawKernel `mapstructure:"kernels"`
}

var (
	gpuKeys    = []string{"sms", "threads_per_sm", "shared_memory_per_sm", "registers_per_sm", "blocks_per_sm"}
	kernelKeys = []string{"name", "period", "block_time", "blocks", "threads_per_block", "launch", "stream",
		"priority", "shared_memory_per_block", "registers_per_thread", "copy_in", "copy_out"}
	topKeys = []string{"gpu", "kernels"}
)

func knownKeys(path string) []string {
	switch {
	case path == "":
		return topKeys
	case path == "gpu":
		return gpuKeys
	case strings.HasPrefix(path, "kernels["):
		return kernelKeys
	}
	return nil
}

// strictHook converts and checks scalar values: durations must be strings
// with a unit (time.ParseDuration), sizes integers or strings with a unit,
// integers must be whole numbers, strings must be strings.
func strictHook(from, to reflect.Type, data any) (any, error) {
	switch {
	case to == durationType:
		switch v := data.(type) {
		case string:
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("%q is not a duration: write a number and a unit (ns, us, µs, ms, s, m, h), e.g. \"4ms\"", v)
			}
			return d, nil
		case time.Duration:
			return v, nil
		case int, int64, uint64, float64:
			return nil, fmt.Errorf("the number %v is not a duration: add a unit, e.g. \"%vms\"", v, v)
		}
		return nil, fmt.Errorf("expected a duration such as \"4ms\", got %s", describe(data))
	case to == sizeType:
		switch v := data.(type) {
		case string:
			s, err := configs.ParseSize(v)
			if err != nil {
				return nil, err
			}
			return Size(s), nil
		case int:
			return Size(v), nil
		case int64:
			return Size(v), nil
		case uint64:
			if v > math.MaxInt64 {
				return nil, fmt.Errorf("%v bytes is too large", v)
			}
			return Size(v), nil
		case float64:
			if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
				return nil, fmt.Errorf("%v is not a whole number of bytes", v)
			}
			return Size(v), nil
		}
		return nil, fmt.Errorf("expected a size (bytes, or a string such as \"32KiB\"), got %s", describe(data))
	case to.Kind() == reflect.Int:
		switch v := data.(type) {
		case int:
			return v, nil
		case int64:
			if v > math.MaxInt32 || v < math.MinInt32 {
				return nil, fmt.Errorf("%d is out of range", v)
			}
			return int(v), nil
		case uint64:
			if v > math.MaxInt32 {
				return nil, fmt.Errorf("%d is out of range", v)
			}
			return int(v), nil
		case float64:
			if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
				return nil, fmt.Errorf("%v is not an integer", v)
			}
			return int(v), nil
		}
		return nil, fmt.Errorf("expected an integer, got %s", describe(data))
	case to.Kind() == reflect.String:
		if s, ok := data.(string); ok {
			return s, nil
		}
		return nil, fmt.Errorf("expected a string, got %s (quote it)", describe(data))
	}
	return data, nil
}

// LoadKernelSet reads a kernel-set YAML file (see the package documentation).
func LoadKernelSet(path string) (*KernelSet, error) {
	data, err := configs.ReadInput(path, "the kernel set")
	if err != nil {
		return nil, err
	}
	return ParseKernelSet(data, path)
}

// ParseKernelSet reads a kernel set from YAML data; file names the data in
// error messages. It decodes with viper and mapstructure, strictly: unknown
// keys, wrong types and impossible values are errors naming the key path.
// Keys are case-insensitive (viper lower-cases them); names are values and
// keep their case.
func ParseKernelSet(data []byte, file string) (ks *KernelSet, err error) {
	defer func() {
		// viper and the YAML parser are third-party code: an input that
		// makes them panic is reported as an error, not a crash.
		if r := recover(); r != nil {
			ks, err = nil, &LoadError{File: file, Problems: []Problem{{Message: fmt.Sprintf("cannot read the file: %v", r)}}}
		}
	}()
	if len(data) > maxFileSize {
		return nil, &LoadError{File: file, Problems: []Problem{{Message: fmt.Sprintf("larger than %d bytes", maxFileSize)}}}
	}
	rf, hasStream, err := decodeKernelSet(data, file)
	if err != nil {
		return nil, err
	}
	var ps problems
	ks = &KernelSet{File: file}
	ks.GPU = ps.gpu(rf.GPU)
	if len(rf.Kernels) == 0 {
		ps.add("kernels", "the file must list at least one kernel")
	}
	if len(rf.Kernels) > maxKernels {
		ps.add("kernels", "at most %d kernels, got %d", maxKernels, len(rf.Kernels))
		return nil, ps.err(file)
	}
	dev := ks.device()
	names := map[string]int{}
	streamPrio := map[string]int{} // stream name -> first kernel that gives its priority
	for i, rk := range rf.Kernels {
		p := fmt.Sprintf("kernels[%d]", i)
		k := ps.kernel(p, i, &rk, names, i < len(hasStream) && hasStream[i])
		if k.Null && k.Priority == gpusim.PriorityHigh {
			ps.add(p+".priority", "the NULL stream has low priority; a high-priority kernel needs a stream of its own")
		}
		if k.Stream != "" && rk.Priority != nil {
			if j, ok := streamPrio[k.Stream]; !ok {
				streamPrio[k.Stream] = i
			} else if prio := ks.priorityOf(rf.Kernels[j]); prio != k.Priority {
				ps.add(p+".priority", "%s, but stream %q has priority %s (kernels[%d].priority): a priority belongs to a stream", k.Priority, k.Stream, prio, j)
			}
		}
		if k.Blocks > 0 && k.ThreadsPerBlock > 0 && k.ThreadsPerBlock <= 1024 && k.SharedMemoryPerBlock >= 0 && k.RegistersPerThread >= 0 && k.BlockTime > 0 {
			if err := dev.CheckKernel(k.simKernel()); err != nil {
				ps.add(p, "%v", err)
			}
		}
		ks.Kernels = append(ks.Kernels, k)
	}
	// A kernel of a named stream without a priority takes the stream's.
	for i := range ks.Kernels {
		k := &ks.Kernels[i]
		if j, ok := streamPrio[k.Stream]; ok && k.Stream != "" {
			k.Priority = ks.priorityOf(rf.Kernels[j])
		}
	}
	if err := ps.err(file); err != nil {
		return nil, err
	}
	return ks, nil
}

// decodeKernelSet decodes the YAML data of file into its raw form,
// strictly, and says which kernels have a "stream" key: mapstructure
// cannot tell an absent key from "stream: null".
func decodeKernelSet(data []byte, file string) (rawFile, []bool, error) {
	var rf rawFile
	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return rf, nil, &LoadError{File: file, Problems: []Problem{{Message: fmt.Sprintf("not valid YAML: %v", err)}}}
	}
	var hasStream []bool
	switch raw := v.Get("kernels").(type) {
	case nil:
	case []any:
		for _, item := range raw {
			m, _ := item.(map[string]any)
			_, ok := m["stream"]
			hasStream = append(hasStream, ok)
		}
	}
	decErr := v.Unmarshal(&rf, func(c *mapstructure.DecoderConfig) {
		c.ErrorUnused = true
		c.WeaklyTypedInput = false
		c.DecodeHook = strictHook
		c.ZeroFields = false
	})
	if decErr != nil {
		var ps problems
		ps.addDecodeErrors(decErr, knownKeys)
		return rf, nil, ps.err(file)
	}
	return rf, hasStream, nil
}

// gpu returns the GPU of a kernel set: the TX2's resources, with those
// that g gives (nil: none) replacing them where they are positive and in
// range; the others are problems.
func (ps *problems) gpu(g *rawGPU) GPU {
	out := GPU{SMs: 2, ThreadsPerSM: 2048, SharedMemoryPerSM: 64 << 10, RegistersPerSM: 65536, BlocksPerSM: 32}
	if g == nil {
		return out
	}
	positive := func(key string, p *int, dst *int) {
		if p == nil {
			return
		}
		if *p <= 0 {
			ps.add("gpu."+key, "must be > 0, got %d", *p)
			return
		}
		*dst = *p
	}
	positive("sms", g.SMs, &out.SMs)
	positive("threads_per_sm", g.ThreadsPerSM, &out.ThreadsPerSM)
	positive("registers_per_sm", g.RegistersPerSM, &out.RegistersPerSM)
	positive("blocks_per_sm", g.BlocksPerSM, &out.BlocksPerSM)
	if g.SharedMemoryPerSM != nil {
		if *g.SharedMemoryPerSM <= 0 {
			ps.add("gpu.shared_memory_per_sm", "must be > 0, got %d", *g.SharedMemoryPerSM)
		} else {
			out.SharedMemoryPerSM = int64(*g.SharedMemoryPerSM)
		}
	}
	if out.SMs > 1024 {
		ps.add("gpu.sms", "at most 1024, got %d", out.SMs)
	}
	if out.ThreadsPerSM > 1<<24 {
		ps.add("gpu.threads_per_sm", "at most %d, got %d", 1<<24, out.ThreadsPerSM)
	}
	return out
}

// kernel reads kernel i, rk at key path p: its name, unique among the
// kernels so far (names, to which it adds it), then required keys,
// durations, geometry, priority and, when the kernel has a stream key
// (hasStream), its stream; the checks of its stream's priority and its fit
// on the device are ParseKernelSet's. Each problem is added to ps in the
// order of the keys.
func (ps *problems) kernel(p string, i int, rk *rawKernel, names map[string]int, hasStream bool) KernelSpec {
	var k KernelSpec
	required := func(key string, present bool) bool {
		if !present {
			ps.add(p+"."+key, "missing (required)")
		}
		return present
	}
	if required("name", rk.Name != nil) {
		k.Name = *rk.Name
		if strings.TrimSpace(k.Name) == "" {
			ps.add(p+".name", "must not be empty")
		} else if j, dup := names[k.Name]; dup {
			ps.add(p+".name", "duplicate kernel name %q (also kernels[%d])", k.Name, j)
		} else {
			names[k.Name] = i
		}
	}
	dur := func(key string, d *time.Duration, req, zeroOK bool) time.Duration {
		if d == nil {
			if req {
				required(key, false)
			}
			return 0
		}
		switch {
		case *d < 0:
			ps.add(p+"."+key, "must be >= 0, got %v", *d)
		case *d == 0 && !zeroOK:
			ps.add(p+"."+key, "must be > 0")
		case int64(*d) > int64(1)<<50:
			ps.add(p+"."+key, "too large: %v", *d)
		}
		return *d
	}
	k.Period = dur("period", rk.Period, false, false)
	k.BlockTime = dur("block_time", rk.BlockTime, true, false)
	k.Launch = dur("launch", rk.Launch, false, true)
	k.CopyIn = dur("copy_in", rk.CopyIn, false, false)
	k.CopyOut = dur("copy_out", rk.CopyOut, false, false)
	if required("blocks", rk.Blocks != nil) {
		k.Blocks = *rk.Blocks
		if k.Blocks <= 0 {
			ps.add(p+".blocks", "must be > 0, got %d", k.Blocks)
		}
	}
	if required("threads_per_block", rk.ThreadsPerBlock != nil) {
		k.ThreadsPerBlock = *rk.ThreadsPerBlock
		if k.ThreadsPerBlock <= 0 || k.ThreadsPerBlock > 1024 {
			ps.add(p+".threads_per_block", "must be in 1..1024, got %d", k.ThreadsPerBlock)
		}
	}
	if rk.SharedMemoryPerBlock != nil {
		k.SharedMemoryPerBlock = int64(*rk.SharedMemoryPerBlock)
		if k.SharedMemoryPerBlock < 0 {
			ps.add(p+".shared_memory_per_block", "must be >= 0, got %d", k.SharedMemoryPerBlock)
		}
	}
	if rk.RegistersPerThread != nil {
		k.RegistersPerThread = *rk.RegistersPerThread
		if k.RegistersPerThread < 0 {
			ps.add(p+".registers_per_thread", "must be >= 0, got %d", k.RegistersPerThread)
		}
	}
	if rk.Priority != nil {
		switch strings.ToLower(strings.TrimSpace(*rk.Priority)) {
		case "low":
			k.Priority = gpusim.PriorityLow
		case "high":
			k.Priority = gpusim.PriorityHigh
		default:
			ps.add(p+".priority", "must be low or high, got %q", *rk.Priority)
		}
	}
	if hasStream {
		k.Null, k.Stream = ps.stream(p, rk.Stream)
	}
	return k
}

// stream reads the stream key of the kernel at key path p: null (or
// "null") is the NULL stream, a non-empty string a named stream.
func (ps *problems) stream(p string, raw any) (null bool, name string) {
	switch s := raw.(type) {
	case nil:
		return true, ""
	case string:
		if strings.EqualFold(strings.TrimSpace(s), "null") {
			return true, ""
		}
		if strings.TrimSpace(s) == "" {
			ps.add(p+".stream", "must be a stream name or null, got an empty string")
			return false, ""
		}
		return false, s
	default:
		ps.add(p+".stream", "must be a stream name or null, got %s", describe(s))
		return false, ""
	}
}

func (ks *KernelSet) priorityOf(rk rawKernel) gpusim.Priority {
	if rk.Priority != nil && strings.EqualFold(strings.TrimSpace(*rk.Priority), "high") {
		return gpusim.PriorityHigh
	}
	return gpusim.PriorityLow
}

func (k KernelSpec) simKernel() gpusim.Kernel {
	return gpusim.Kernel{Blocks: k.Blocks, ThreadsPerBlock: k.ThreadsPerBlock, SharedMemoryPerBlock: k.SharedMemoryPerBlock,
		RegistersPerThread: k.RegistersPerThread, BlockTime: int64(k.BlockTime)}
}

// device returns the simulator's device for the kernel set: the TX2 with the
// file's overrides.
func (ks *KernelSet) device() gpusim.Device {
	d := gpusim.TX2()
	d.SMs = ks.GPU.SMs
	d.ThreadsPerSM = ks.GPU.ThreadsPerSM
	d.SharedMemoryPerSM = ks.GPU.SharedMemoryPerSM
	d.RegistersPerSM = ks.GPU.RegistersPerSM
	d.BlocksPerSM = ks.GPU.BlocksPerSM
	// Per-block limits never exceed the SM.
	d.MaxSharedMemoryPerBlock = min(d.MaxSharedMemoryPerBlock, d.SharedMemoryPerSM)
	d.MaxRegistersPerBlock = min(d.MaxRegistersPerBlock, d.RegistersPerSM)
	return d
}

// Scenario returns the simulator input of the kernel set. Each kernel is
// launched by a host thread of its own at its launch time; a kernel of a named
// stream (or of the NULL stream) is launched no earlier than the kernel
// before it in that stream, so that the stream keeps the file's order. Its
// copy_in and copy_out are issued with it, before and after it in its
// stream. Calls made at the same instant are ordered by the file's order.
func (ks *KernelSet) Scenario() gpusim.Scenario {
	s := gpusim.Scenario{Name: ks.File, Device: ks.device()}
	streams := map[string]int{}
	last := map[int]int64{} // stream -> last launch
	null := -1
	for _, k := range ks.Kernels {
		var st int
		switch {
		case k.Null:
			if null < 0 {
				null = s.AddStream("NULL", gpusim.PriorityLow, true)
			}
			st = null
		case k.Stream != "":
			var ok bool
			if st, ok = streams[k.Stream]; !ok {
				st = s.AddStream(k.Stream, k.Priority, false)
				streams[k.Stream] = st
			}
		default:
			st = s.AddStream(k.Name, k.Priority, false)
		}
		at := max(int64(k.Launch), last[st])
		last[st] = at
		var ops []gpusim.Op
		if k.CopyIn > 0 {
			ops = append(ops, gpusim.CopyCall(k.Name+".copy_in", st, at, int64(k.CopyIn)))
		}
		ops = append(ops, gpusim.KernelCall(k.Name, st, at, k.simKernel()))
		if k.CopyOut > 0 {
			ops = append(ops, gpusim.CopyCall(k.Name+".copy_out", st, at, int64(k.CopyOut)))
		}
		s.AddHost(k.Name, ops...)
	}
	return s
}

// BlockInput is the input of the block-level analysis (rta/gpu) for a kernel
// set.
type BlockInput struct {
	Device gpu.Device
	// Kernels in EE-queue order: by launch time, then file order (the order
	// in which the simulator's EE queue receives kernels that have streams
	// of their own).
	Kernels []gpu.Kernel
	// Index[i] is the position in KernelSet.Kernels of Kernels[i].
	Index []int
	// Unsupported lists what the analysis does not model in this kernel
	// set (several kernels in one stream, the NULL stream, high priority,
	// copies); empty when the analysis applies as is.
	Unsupported []string
}

// BlockAnalysisInput converts the kernel set to the input of gpu.BlockRTA:
// Period, BlockTime, Blocks, ThreadsPerBlock and Release (= launch time) per
// kernel; shared memory per block and registers per block (registers per
// thread × threads); the device's SMs, threads, shared memory, registers,
// warp size 32 and resident-block limit.
func (ks *KernelSet) BlockAnalysisInput() BlockInput {
	in := BlockInput{Device: gpu.Device{
		SMs:            ks.GPU.SMs,
		ThreadsPerSM:   ks.GPU.ThreadsPerSM,
		WarpSize:       32,
		MaxBlocksPerSM: ks.GPU.BlocksPerSM,
		SharedMemPerSM: int(ks.GPU.SharedMemoryPerSM),
		RegistersPerSM: ks.GPU.RegistersPerSM,
	}}
	order := make([]int, len(ks.Kernels))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		la, lb := ks.Kernels[a].Launch, ks.Kernels[b].Launch
		switch {
		case la < lb:
			return -1
		case la > lb:
			return 1
		}
		return 0
	})
	perStream := map[string][]string{}
	var null, high, copies []string
	for _, i := range order {
		k := ks.Kernels[i]
		in.Index = append(in.Index, i)
		in.Kernels = append(in.Kernels, gpu.Kernel{
			Name:              k.Name,
			Period:            int64(k.Period),
			BlockTime:         int64(k.BlockTime),
			Blocks:            k.Blocks,
			ThreadsPerBlock:   k.ThreadsPerBlock,
			Release:           int64(k.Launch),
			SharedMemPerBlock: int(k.SharedMemoryPerBlock),
			RegistersPerBlock: k.RegistersPerThread * k.ThreadsPerBlock,
		})
		if k.Stream != "" {
			perStream[k.Stream] = append(perStream[k.Stream], k.Name)
		}
		if k.Null {
			null = append(null, k.Name)
		}
		if k.Priority == gpusim.PriorityHigh {
			high = append(high, k.Name)
		}
		if k.CopyIn > 0 || k.CopyOut > 0 {
			copies = append(copies, k.Name)
		}
	}
	streamNames := make([]string, 0, len(perStream))
	for s := range perStream {
		streamNames = append(streamNames, s)
	}
	slices.Sort(streamNames)
	for _, s := range streamNames {
		if ns := perStream[s]; len(ns) > 1 {
			in.Unsupported = append(in.Unsupported, fmt.Sprintf("stream %q holds %d kernels (%s): a kernel waits for the one before it in its stream", s, len(ns), strings.Join(ns, ", ")))
		}
	}
	if len(null) > 0 {
		in.Unsupported = append(in.Unsupported, fmt.Sprintf("kernels on the NULL stream (%s): rules N1, N2", strings.Join(null, ", ")))
	}
	if len(high) > 0 {
		in.Unsupported = append(in.Unsupported, fmt.Sprintf("high-priority kernels (%s): rule A2", strings.Join(high, ", ")))
	}
	if len(copies) > 0 {
		in.Unsupported = append(in.Unsupported, fmt.Sprintf("copies (%s): the copy engine", strings.Join(copies, ", ")))
	}
	return in
}
