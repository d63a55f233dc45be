package gpusim

import (
	"fmt"
	"strings"
)

// Priority is a CUDA stream priority. The TX2 has two levels; as in CUDA, the
// smaller number is the higher priority. The zero value is low priority, the
// priority of a stream created without one.
type Priority int

// The two stream priorities of the TX2 (Amert et al., RTSS 2017, rules A1, A2).
const (
	PriorityLow  Priority = 0
	PriorityHigh Priority = -1
)

// String returns "low" or "high".
func (p Priority) String() string {
	switch p {
	case PriorityLow:
		return "low"
	case PriorityHigh:
		return "high"
	}
	return fmt.Sprintf("priority(%d)", int(p))
}

// level is the index of the EE queue of priority p: 0 is the highest.
func (p Priority) level() int {
	if p == PriorityHigh {
		return 0
	}
	return 1
}

// Device holds the block-scheduling resources of the GPU. A zero field takes
// the TX2 value (see TX2); a negative one is an error.
type Device struct {
	SMs                     int   `json:"sms"`
	ThreadsPerSM            int   `json:"threads_per_sm"`
	SharedMemoryPerSM       int64 `json:"shared_memory_per_sm"` // bytes
	RegistersPerSM          int   `json:"registers_per_sm"`
	BlocksPerSM             int   `json:"blocks_per_sm"` // resident blocks per SM
	WarpSize                int   `json:"warp_size"`     // threads are allocated in whole warps
	MaxThreadsPerBlock      int   `json:"max_threads_per_block"`
	MaxSharedMemoryPerBlock int64 `json:"max_shared_memory_per_block"` // bytes
	MaxRegistersPerBlock    int   `json:"max_registers_per_block"`
	MaxRegistersPerThread   int   `json:"max_registers_per_thread"`
}

// TX2 returns the GPU of the Jetson TX2 (GP10B, compute capability 6.2):
// 2 SMs with 2048 threads, 64 KiB of shared memory and 65,536 registers each;
// a block has at most 1024 threads, 48 KiB of shared memory and 32,768
// registers (255 per thread). BlocksPerSM (32) and WarpSize (32) are the
// CUDA occupancy limits of compute capability 6.2; Amert et al. do not
// list them.
func TX2() Device {
	return Device{
		SMs:                     2,
		ThreadsPerSM:            2048,
		SharedMemoryPerSM:       64 << 10,
		RegistersPerSM:          65536,
		BlocksPerSM:             32,
		WarpSize:                32,
		MaxThreadsPerBlock:      1024,
		MaxSharedMemoryPerBlock: 48 << 10,
		MaxRegistersPerBlock:    32768,
		MaxRegistersPerThread:   255,
	}
}

// WithDefaults returns d with every zero field set to the TX2 value.
func (d Device) WithDefaults() Device {
	t := TX2()
	setInt := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	setInt(&d.SMs, t.SMs)
	setInt(&d.ThreadsPerSM, t.ThreadsPerSM)
	if d.SharedMemoryPerSM == 0 {
		d.SharedMemoryPerSM = t.SharedMemoryPerSM
	}
	setInt(&d.RegistersPerSM, t.RegistersPerSM)
	setInt(&d.BlocksPerSM, t.BlocksPerSM)
	setInt(&d.WarpSize, t.WarpSize)
	setInt(&d.MaxThreadsPerBlock, t.MaxThreadsPerBlock)
	if d.MaxSharedMemoryPerBlock == 0 {
		d.MaxSharedMemoryPerBlock = t.MaxSharedMemoryPerBlock
	}
	setInt(&d.MaxRegistersPerBlock, t.MaxRegistersPerBlock)
	setInt(&d.MaxRegistersPerThread, t.MaxRegistersPerThread)
	return d
}

// Bounds on the device: per-SM state stays small and products of resources
// stay far from overflow.
const (
	maxSMs      = 1024
	maxResource = 1 << 24
	maxBytes    = 1 << 40
)

func (d Device) validate() error {
	var errs []string
	check := func(name string, v int64) {
		if v < 0 {
			errs = append(errs, fmt.Sprintf("device.%s: must be >= 0 (0 takes the TX2 value), got %d", name, v))
		}
	}
	check("sms", int64(d.SMs))
	check("threads_per_sm", int64(d.ThreadsPerSM))
	check("shared_memory_per_sm", d.SharedMemoryPerSM)
	check("registers_per_sm", int64(d.RegistersPerSM))
	check("blocks_per_sm", int64(d.BlocksPerSM))
	check("warp_size", int64(d.WarpSize))
	check("max_threads_per_block", int64(d.MaxThreadsPerBlock))
	check("max_shared_memory_per_block", d.MaxSharedMemoryPerBlock)
	check("max_registers_per_block", int64(d.MaxRegistersPerBlock))
	check("max_registers_per_thread", int64(d.MaxRegistersPerThread))
	if d.SMs > maxSMs {
		errs = append(errs, fmt.Sprintf("device.sms: at most %d, got %d", maxSMs, d.SMs))
	}
	// Upper bounds keep products such as registers per block far from overflow.
	for _, f := range []struct {
		name string
		v    int64
	}{{"threads_per_sm", int64(d.ThreadsPerSM)}, {"registers_per_sm", int64(d.RegistersPerSM)}, {"blocks_per_sm", int64(d.BlocksPerSM)},
		{"warp_size", int64(d.WarpSize)}, {"max_threads_per_block", int64(d.MaxThreadsPerBlock)}, {"max_registers_per_block", int64(d.MaxRegistersPerBlock)},
		{"max_registers_per_thread", int64(d.MaxRegistersPerThread)}} {
		if f.v > maxResource {
			errs = append(errs, fmt.Sprintf("device.%s: at most %d, got %d", f.name, maxResource, f.v))
		}
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"shared_memory_per_sm", d.SharedMemoryPerSM}, {"max_shared_memory_per_block", d.MaxSharedMemoryPerBlock}} {
		if f.v > maxBytes {
			errs = append(errs, fmt.Sprintf("device.%s: at most %d, got %d", f.name, int64(maxBytes), f.v))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// Stream is a CUDA stream: a FIFO queue of copies and kernels (G1..G4).
type Stream struct {
	Name string `json:"name"`
	// Null marks the NULL (default) stream, to which rules N1 and N2 apply.
	// A scenario has at most one.
	Null bool `json:"null,omitempty"`
	// Priority selects the EE queue of the stream's kernels (A1). The NULL
	// stream must have low priority.
	Priority Priority `json:"priority"`
}

// OpKind tells a kernel launch from a copy.
type OpKind int

// The two kinds of work.
const (
	KernelOp OpKind = iota
	CopyOp
)

// String returns "kernel" or "copy".
func (k OpKind) String() string {
	if k == CopyOp {
		return "copy"
	}
	return "kernel"
}

// Kernel is the launch geometry and per-block time of a kernel. All blocks
// of a kernel have the same needs and run for the same time.
type Kernel struct {
	Blocks               int   `json:"blocks"`
	ThreadsPerBlock      int   `json:"threads_per_block"`
	SharedMemoryPerBlock int64 `json:"shared_memory_per_block"` // bytes
	RegistersPerThread   int   `json:"registers_per_thread"`
	BlockTime            int64 `json:"block_time_ns"` // ns, > 0
}

// Op is one CUDA call made by a host thread: a kernel launch or a copy, into
// one stream. When the host makes the call is decided by the host's program:
//
//	base  = the time the host made its previous call (0 for the first call)
//	if Sync: base = max(base, completion of every earlier op of this host)
//	if Barrier: base = max(base, the time every host reached this barrier)
//	call  = max(At, base + Delay)
//
// If StopAt > 0 and call >= StopAt, the host stops: neither this op nor any
// later op of the host is issued.
type Op struct {
	Kind     OpKind `json:"kind"`
	Name     string `json:"name"`
	Stream   int    `json:"stream"`               // index into Scenario.Streams
	Kernel   Kernel `json:"kernel"`               // Kind == KernelOp
	CopyTime int64  `json:"copy_time_ns"`         // Kind == CopyOp: ns on the copy engine, > 0
	At       int64  `json:"at_ns"`                // earliest time of the call, ns >= 0
	Delay    int64  `json:"delay_ns"`             // host sleep before the call, ns >= 0
	Sync     bool   `json:"sync,omitempty"`       // cudaStreamSynchronize before the call
	Barrier  bool   `json:"barrier,omitempty"`    // wait for all hosts (see Op)
	StopAt   int64  `json:"stop_at_ns,omitempty"` // 0: never stop
}

// Host is a CPU thread that makes CUDA calls, in order. All hosts share one
// address space (one CUDA context), the case the rules describe.
type Host struct {
	Name string `json:"name"`
	Ops  []Op   `json:"ops"`
}

// Scenario is the input of Simulate.
type Scenario struct {
	Name    string   `json:"name"`
	Device  Device   `json:"device"`
	Streams []Stream `json:"streams"`
	Hosts   []Host   `json:"hosts"`
	// MaxEvents bounds the run: the number of blocks plus copies plus host
	// calls. 0 means DefaultMaxEvents.
	MaxEvents int `json:"max_events,omitempty"`
}

// DefaultMaxEvents is the bound on events used when Scenario.MaxEvents is 0;
// MaxMaxEvents is the largest bound a scenario may ask for.
const (
	DefaultMaxEvents = 1 << 21
	MaxMaxEvents     = 1 << 26
)

// maxTime bounds every time of a scenario: durations, launch times and their
// sums stay far from int64 overflow (about 29 years in ns).
const maxTime = int64(1) << 59

// allocThreads is the number of thread slots a block of t threads occupies:
// t rounded up to whole warps.
func (d Device) allocThreads(t int) int {
	if d.WarpSize <= 1 {
		return t
	}
	return (t + d.WarpSize - 1) / d.WarpSize * d.WarpSize
}

// fits reports why a block of k can never be placed on an SM of d, or "".
func (d Device) neverFits(k Kernel) string {
	thr := d.allocThreads(k.ThreadsPerBlock)
	regs := int64(k.RegistersPerThread) * int64(k.ThreadsPerBlock)
	switch {
	case k.ThreadsPerBlock > d.MaxThreadsPerBlock:
		return fmt.Sprintf("%d threads per block, more than the %d a block may have", k.ThreadsPerBlock, d.MaxThreadsPerBlock)
	case thr > d.ThreadsPerSM:
		return fmt.Sprintf("%d threads per block, more than the %d of an SM", thr, d.ThreadsPerSM)
	case k.SharedMemoryPerBlock > d.MaxSharedMemoryPerBlock:
		return fmt.Sprintf("%d B of shared memory per block, more than the %d B a block may have", k.SharedMemoryPerBlock, d.MaxSharedMemoryPerBlock)
	case k.SharedMemoryPerBlock > d.SharedMemoryPerSM:
		return fmt.Sprintf("%d B of shared memory per block, more than the %d B of an SM", k.SharedMemoryPerBlock, d.SharedMemoryPerSM)
	case k.RegistersPerThread > d.MaxRegistersPerThread:
		return fmt.Sprintf("%d registers per thread, more than the %d a thread may have", k.RegistersPerThread, d.MaxRegistersPerThread)
	case regs > int64(d.MaxRegistersPerBlock):
		return fmt.Sprintf("%d registers per block (%d threads x %d), more than the %d a block may have", regs, k.ThreadsPerBlock, k.RegistersPerThread, d.MaxRegistersPerBlock)
	case regs > int64(d.RegistersPerSM):
		return fmt.Sprintf("%d registers per block, more than the %d of an SM", regs, d.RegistersPerSM)
	}
	return ""
}

// Validate checks a scenario without simulating it. The device is checked
// after zero fields took their TX2 values.
func (s Scenario) Validate() error {
	_, err := s.prepare()
	return err
}

// prepare validates s and returns the device with defaults.
func (s Scenario) prepare() (Device, error) {
	if err := s.Device.validate(); err != nil {
		return Device{}, err
	}
	d := s.Device.WithDefaults()
	nulls := 0
	for i, st := range s.Streams {
		if st.Priority != PriorityLow && st.Priority != PriorityHigh {
			return d, fmt.Errorf("streams[%d] (%s): priority must be %d (high) or %d (low), got %d", i, st.Name, PriorityHigh, PriorityLow, st.Priority)
		}
		if st.Null {
			nulls++
			if nulls > 1 {
				return d, fmt.Errorf("streams[%d] (%s): a scenario has at most one NULL stream", i, st.Name)
			}
			if st.Priority != PriorityLow {
				return d, fmt.Errorf("streams[%d] (%s): the NULL stream has low priority", i, st.Name)
			}
		}
	}
	maxEvents := s.MaxEvents
	if maxEvents <= 0 {
		maxEvents = DefaultMaxEvents
	}
	if maxEvents > MaxMaxEvents {
		return d, fmt.Errorf("max events: at most %d, got %d", MaxMaxEvents, maxEvents)
	}
	var events int64
	// total bounds the makespan: the latest call time plus every delay and
	// every piece of work in series. It must stay below maxTime.
	var total, maxAt int64
	add := func(v int64) bool {
		total += v
		return total+maxAt <= maxTime
	}
	for h, host := range s.Hosts {
		for i, op := range host.Ops {
			where := fmt.Sprintf("hosts[%d].ops[%d] (%s)", h, i, op.Name)
			if op.Stream < 0 || op.Stream >= len(s.Streams) {
				return d, fmt.Errorf("%s: stream %d does not exist (the scenario has %d streams)", where, op.Stream, len(s.Streams))
			}
			if op.At < 0 || op.At > maxTime {
				return d, fmt.Errorf("%s: at must be in [0, %d] ns, got %d", where, maxTime, op.At)
			}
			if op.Delay < 0 || op.Delay > maxTime {
				return d, fmt.Errorf("%s: delay must be in [0, %d] ns, got %d", where, maxTime, op.Delay)
			}
			if op.StopAt < 0 {
				return d, fmt.Errorf("%s: stop_at must be >= 0, got %d", where, op.StopAt)
			}
			maxAt = max(maxAt, op.At)
			if !add(op.Delay) {
				return d, fmt.Errorf("%s: the times of the scenario add up to more than %d ns", where, maxTime)
			}
			events++
			switch op.Kind {
			case KernelOp:
				k := op.Kernel
				switch {
				case k.Blocks <= 0:
					return d, fmt.Errorf("%s: blocks must be > 0, got %d", where, k.Blocks)
				case k.ThreadsPerBlock <= 0:
					return d, fmt.Errorf("%s: threads per block must be > 0, got %d", where, k.ThreadsPerBlock)
				case k.SharedMemoryPerBlock < 0:
					return d, fmt.Errorf("%s: shared memory per block must be >= 0, got %d", where, k.SharedMemoryPerBlock)
				case k.RegistersPerThread < 0:
					return d, fmt.Errorf("%s: registers per thread must be >= 0, got %d", where, k.RegistersPerThread)
				case k.BlockTime <= 0 || k.BlockTime > maxTime:
					return d, fmt.Errorf("%s: block time must be in (0, %d] ns, got %d", where, maxTime, k.BlockTime)
				}
				if why := d.neverFits(k); why != "" {
					return d, fmt.Errorf("%s: the kernel can never run on this GPU: %s", where, why)
				}
				events += int64(k.Blocks)
				if int64(k.Blocks) > maxTime/k.BlockTime || !add(int64(k.Blocks)*k.BlockTime) {
					return d, fmt.Errorf("%s: the times of the scenario add up to more than %d ns", where, maxTime)
				}
			case CopyOp:
				if op.CopyTime <= 0 || op.CopyTime > maxTime {
					return d, fmt.Errorf("%s: copy time must be in (0, %d] ns, got %d", where, maxTime, op.CopyTime)
				}
				events++
				if !add(op.CopyTime) {
					return d, fmt.Errorf("%s: the times of the scenario add up to more than %d ns", where, maxTime)
				}
			default:
				return d, fmt.Errorf("%s: unknown kind %d", where, op.Kind)
			}
			if events > int64(maxEvents) {
				return d, fmt.Errorf("the scenario has more than %d events (blocks + copies + calls), more than the simulator takes: simulate fewer releases, or kernels of fewer, longer blocks", maxEvents)
			}
		}
	}
	return d, nil
}

// AddStream appends a stream to s and returns its index.
func (s *Scenario) AddStream(name string, prio Priority, null bool) int {
	s.Streams = append(s.Streams, Stream{Name: name, Priority: prio, Null: null})
	return len(s.Streams) - 1
}

// AddHost appends a host thread making the given calls and returns its index.
func (s *Scenario) AddHost(name string, ops ...Op) int {
	s.Hosts = append(s.Hosts, Host{Name: name, Ops: ops})
	return len(s.Hosts) - 1
}

// KernelCall returns an op that launches k into stream at time at (ns).
func KernelCall(name string, stream int, at int64, k Kernel) Op {
	return Op{Kind: KernelOp, Name: name, Stream: stream, At: at, Kernel: k}
}

// CopyCall returns an op that issues a copy of d ns into stream at time at.
func CopyCall(name string, stream int, at, d int64) Op {
	return Op{Kind: CopyOp, Name: name, Stream: stream, At: at, CopyTime: d}
}

// CheckKernel reports why kernel k is invalid or can never run on d (zero
// fields of d take the TX2 values), or returns nil.
func (d Device) CheckKernel(k Kernel) error {
	if err := d.validate(); err != nil {
		return err
	}
	d = d.WithDefaults()
	switch {
	case k.Blocks <= 0:
		return fmt.Errorf("blocks must be > 0, got %d", k.Blocks)
	case k.ThreadsPerBlock <= 0:
		return fmt.Errorf("threads per block must be > 0, got %d", k.ThreadsPerBlock)
	case k.SharedMemoryPerBlock < 0:
		return fmt.Errorf("shared memory per block must be >= 0, got %d", k.SharedMemoryPerBlock)
	case k.RegistersPerThread < 0:
		return fmt.Errorf("registers per thread must be >= 0, got %d", k.RegistersPerThread)
	case k.BlockTime <= 0 || k.BlockTime > maxTime:
		return fmt.Errorf("block time must be in (0, %d] ns, got %d", maxTime, k.BlockTime)
	}
	if why := d.neverFits(k); why != "" {
		return fmt.Errorf("the kernel can never run on this GPU: %s", why)
	}
	return nil
}
