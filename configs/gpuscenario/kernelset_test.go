package gpuscenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/rta/gpusim"
)

const thesisYAML = `
gpu: {sms: 2, threads_per_sm: 2048}
kernels:                                     # queue order
  - {name: t1, period: 15s, block_time: 4s, blocks: 2, threads_per_block: 512, launch: 0s}
  - {name: t2, period: 15s, block_time: 6s, blocks: 7, threads_per_block: 512}
  - {name: t3, period: 15s, block_time: 6s, blocks: 2, threads_per_block: 512}
  - {name: t4, period: 15s, block_time: 5s, blocks: 5, threads_per_block: 512}
`

func TestKernelSetThesisExample(t *testing.T) {
	ks, err := ParseKernelSet([]byte(thesisYAML), "thesis.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(ks.Kernels) != 4 || ks.Kernels[1].BlockTime != 6*time.Second || ks.Kernels[0].Period != 15*time.Second {
		t.Fatalf("unexpected kernel set %+v", ks)
	}
	r, err := gpusim.Simulate(ks.Scenario())
	if err != nil {
		t.Fatal(err)
	}
	// gpu-block-rta.md: f = {4, 10, 12, 11}.
	for i, want := range []time.Duration{4, 10, 12, 11} {
		if got := time.Duration(r.Kernels[i].Completion); got != want*time.Second {
			t.Errorf("%s completes at %v, want %v", r.Kernels[i].Name, got, want*time.Second)
		}
	}
}

func TestKernelSetExtensions(t *testing.T) {
	src := `
gpu:
  sms: 2
  shared_memory_per_sm: 64KiB
  registers_per_sm: 65536
kernels:
  - name: A
    block_time: 1ms
    blocks: 2
    threads_per_block: 256
    stream: s1
    priority: high
    shared_memory_per_block: 32KiB
    registers_per_thread: 32
    copy_in: 100us
    copy_out: 200us
  - {name: B, block_time: 1ms, blocks: 1, threads_per_block: 128, stream: s1}
  - {name: C, block_time: 1ms, blocks: 1, threads_per_block: 128, stream: null, launch: 2ms}
  - {name: D, block_time: 1ms, blocks: 1, threads_per_block: 128, stream: "null", shared_memory_per_block: 48KB}
  - {Name: E, Block_Time: 1ms, blocks: 1, threads_per_block: 128, shared_memory_per_block: 4096}
`
	ks, err := ParseKernelSet([]byte(src), "ext.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, b, c, d, e := ks.Kernels[0], ks.Kernels[1], ks.Kernels[2], ks.Kernels[3], ks.Kernels[4]
	if a.Stream != "s1" || a.Priority != gpusim.PriorityHigh || a.SharedMemoryPerBlock != 32768 || a.RegistersPerThread != 32 ||
		a.CopyIn != 100*time.Microsecond || a.CopyOut != 200*time.Microsecond {
		t.Errorf("A = %+v", a)
	}
	if b.Stream != "s1" || b.Priority != gpusim.PriorityHigh {
		t.Errorf("B should take stream s1's high priority: %+v", b)
	}
	if !c.Null || !d.Null || c.Stream != "" {
		t.Errorf("C and D are on the NULL stream: %+v %+v", c, d)
	}
	if d.SharedMemoryPerBlock != 48000 { // KB is decimal
		t.Errorf("48KB = %d bytes, want 48000", d.SharedMemoryPerBlock)
	}
	if e.Name != "E" || e.SharedMemoryPerBlock != 4096 || e.Null || e.Stream != "" {
		t.Errorf("E = %+v (keys are case-insensitive, the name keeps its case)", e)
	}
	s := ks.Scenario()
	if len(s.Streams) != 3 { // s1, NULL, E
		t.Fatalf("%d streams, want 3: %+v", len(s.Streams), s.Streams)
	}
	// D (launch 0, listed after C at 2 ms) is launched no earlier than C.
	if at := s.Hosts[3].Ops[0].At; at != int64(2*time.Millisecond) {
		t.Errorf("D launched at %d, want 2 ms (after C in the NULL stream)", at)
	}
	r, err := gpusim.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	// Stream s1: A.copy_in 0..0.1, A 0.1..1.1, A.copy_out 1.1..1.3, B 1.3..2.3.
	// NULL: C launched at 2 waits for B (launched before it, N1): 2.3..3.3; D 3.3..4.3.
	// E (launched at 0, before C and D) runs at once: 0..1.
	want := map[string][2]time.Duration{
		"A": {100 * time.Microsecond, 1100 * time.Microsecond},
		"B": {1300 * time.Microsecond, 2300 * time.Microsecond},
		"C": {2300 * time.Microsecond, 3300 * time.Microsecond},
		"D": {3300 * time.Microsecond, 4300 * time.Microsecond},
		"E": {0, time.Millisecond},
	}
	for name, w := range want {
		k, _ := r.Kernel(name)
		if time.Duration(k.Start) != w[0] || time.Duration(k.Completion) != w[1] {
			t.Errorf("%s: %v..%v, want %v..%v", name, time.Duration(k.Start), time.Duration(k.Completion), w[0], w[1])
		}
	}
	in := ks.BlockAnalysisInput()
	if len(in.Unsupported) != 4 {
		t.Errorf("unsupported: %q, want 4 (stream s1, NULL, high, copies)", in.Unsupported)
	}
	if in.Device.SharedMemPerSM != 65536 || in.Kernels[0].RegistersPerBlock != 32*256 {
		t.Errorf("analysis input %+v", in)
	}
}

func TestBlockAnalysisInputOrder(t *testing.T) {
	src := `
kernels:
  - {name: late, block_time: 1ms, blocks: 1, threads_per_block: 256, launch: 5ms, period: 10ms}
  - {name: early, block_time: 1ms, blocks: 1, threads_per_block: 256, launch: 1ms}
  - {name: alsoEarly, block_time: 1ms, blocks: 1, threads_per_block: 256, launch: 1ms}
`
	ks, err := ParseKernelSet([]byte(src), "order.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := ks.BlockAnalysisInput()
	var names []string
	for _, k := range in.Kernels {
		names = append(names, k.Name)
	}
	if strings.Join(names, ",") != "early,alsoEarly,late" || in.Index[0] != 1 || in.Index[2] != 0 {
		t.Errorf("queue order %v (index %v), want early,alsoEarly,late", names, in.Index)
	}
	if in.Kernels[2].Release != int64(5*time.Millisecond) || in.Kernels[2].Period != int64(10*time.Millisecond) || len(in.Unsupported) != 0 {
		t.Errorf("analysis input %+v", in)
	}
	if d := in.Device; d.SMs != 2 || d.ThreadsPerSM != 2048 || d.WarpSize != 32 || d.MaxBlocksPerSM != 32 {
		t.Errorf("device %+v", d)
	}
}

// Broken kernel sets: each message names the key path and the problem.
func TestKernelSetErrors(t *testing.T) {
	k := func(extra string) string {
		return "kernels:\n  - {name: K0, block_time: 1ms, blocks: 1, threads_per_block: 256}\n  - {name: K1, block_time: 1ms, blocks: 1, threads_per_block: 256}\n  - {name: K2" + extra + "}\n"
	}
	full := ", block_time: 1ms, blocks: 2, threads_per_block: 256"
	cases := []struct {
		name, src string
		want      []string
	}{
		{"unknown key", k(full + ", colour: red"), []string{"bad.yaml: kernels[2].colour: unknown key (known keys: name, period,"}},
		{"unknown top key", "kernel:\n  - {name: a}\n", []string{"kernel: unknown key (known keys: gpu, kernels)"}},
		{"unknown gpu key", "gpu: {sm: 2}\n" + k(full), []string{"gpu.sm: unknown key (known keys: sms,"}},
		{"zero block time", k(", block_time: 0s, blocks: 2, threads_per_block: 256"), []string{"kernels[2].block_time: must be > 0"}},
		{"negative duration", k(full + ", launch: -1ms"), []string{"kernels[2].launch: must be >= 0, got -1ms"}},
		{"duration without unit", k(", block_time: 4, blocks: 2, threads_per_block: 256"), []string{"kernels[2].block_time", "the number 4 is not a duration: add a unit"}},
		{"bad duration", k(", block_time: 4 parsecs, blocks: 2, threads_per_block: 256"), []string{"kernels[2].block_time", `"4 parsecs" is not a duration`}},
		{"zero blocks", k(", block_time: 1ms, blocks: 0, threads_per_block: 256"), []string{"kernels[2].blocks: must be > 0, got 0"}},
		{"fractional blocks", k(", block_time: 1ms, blocks: 2.5, threads_per_block: 256"), []string{"kernels[2].blocks", "2.5 is not an integer"}},
		{"string blocks", k(", block_time: 1ms, blocks: two, threads_per_block: 256"), []string{"kernels[2].blocks", `expected an integer, got the string "two"`}},
		{"threads too many", k(", block_time: 1ms, blocks: 2, threads_per_block: 2048"), []string{"kernels[2].threads_per_block: must be in 1..1024, got 2048"}},
		{"threads zero", k(", block_time: 1ms, blocks: 2, threads_per_block: 0"), []string{"kernels[2].threads_per_block: must be in 1..1024, got 0"}},
		{"missing block time", k(", blocks: 2, threads_per_block: 256"), []string{"kernels[2].block_time: missing (required)"}},
		{"missing name", "kernels:\n  - {block_time: 1ms, blocks: 1, threads_per_block: 32}\n", []string{"kernels[0].name: missing (required)"}},
		{"duplicate name", "kernels:\n  - {name: K, block_time: 1ms, blocks: 1, threads_per_block: 32}\n  - {name: K, block_time: 1ms, blocks: 1, threads_per_block: 32}\n",
			[]string{`kernels[1].name: duplicate kernel name "K" (also kernels[0])`}},
		{"unknown priority", k(full + ", priority: urgent"), []string{`kernels[2].priority: must be low or high, got "urgent"`}},
		{"high NULL stream", k(full + ", stream: null, priority: high"), []string{"kernels[2].priority: the NULL stream has low priority"}},
		{"conflicting stream priorities", "kernels:\n  - {name: a, block_time: 1ms, blocks: 1, threads_per_block: 32, stream: s, priority: high}\n  - {name: b, block_time: 1ms, blocks: 1, threads_per_block: 32, stream: s, priority: low}\n",
			[]string{`kernels[1].priority: low, but stream "s" has priority high (kernels[0].priority)`}},
		{"stream number", k(full + ", stream: 7"), []string{"kernels[2].stream: must be a stream name or null, got the integer 7"}},
		{"bad size", k(full + ", shared_memory_per_block: 12 parsecs"), []string{"kernels[2].shared_memory_per_block", "not a size"}},
		{"negative size", k(full + ", shared_memory_per_block: -1"), []string{"kernels[2].shared_memory_per_block: must be >= 0, got -1"}},
		{"too much shared memory", k(full + ", shared_memory_per_block: 49KiB"), []string{"kernels[2]: the kernel can never run on this GPU: 50176 B of shared memory per block, more than the 49152 B"}},
		{"too many registers", k(full + ", registers_per_thread: 200"), []string{"kernels[2]: the kernel can never run on this GPU: 51200 registers per block"}},
		{"no kernels", "gpu: {sms: 2}\n", []string{"kernels: the file must list at least one kernel"}},
		{"kernels not a list", "kernels: 3\n", []string{"kernels: wrong type: expected a list, got an integer"}},
		{"gpu not a mapping", "gpu: 5\n" + k(full), []string{"gpu: wrong type: expected a mapping, got an integer"}},
		{"kernel not a mapping", "kernels: [5]\n", []string{"kernels[0]: wrong type: expected a mapping, got an integer"}},
		{"bad gpu", "gpu: {sms: 0, threads_per_sm: -5}\n" + k(full), []string{"gpu.sms: must be > 0, got 0", "gpu.threads_per_sm: must be > 0, got -5"}},
		{"name not a string", "kernels:\n  - {name: [a], block_time: 1ms, blocks: 1, threads_per_block: 32}\n", []string{"kernels[0].name", "expected a string, got a list"}},
		{"not YAML", "kernels: [\n", []string{"bad.yaml: not valid YAML"}},
	}
	for _, c := range cases {
		_, err := ParseKernelSet([]byte(c.src), "bad.yaml")
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		var le *LoadError
		if !errors.As(err, &le) {
			t.Errorf("%s: error %T, want *LoadError", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error\n%v\nlacks %q", c.name, err, w)
			}
		}
	}
}

// Several problems are reported together, in key order.
func TestKernelSetErrorsTogether(t *testing.T) {
	src := "kernels:\n" +
		"  - {name: a, block_time: 0s, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: b, block_time: 1ms, blocks: -1, threads_per_block: 32}\n" +
		"  - {name: c, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: d, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: e, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: f, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: g, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: h, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: i, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: j, block_time: 1ms, blocks: 1, threads_per_block: 32}\n" +
		"  - {name: k, block_time: 1ms, blocks: 0, threads_per_block: 32}\n"
	_, err := ParseKernelSet([]byte(src), "many.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	want := "many.yaml: kernels[0].block_time: must be > 0\nmany.yaml: kernels[1].blocks: must be > 0, got -1\nmany.yaml: kernels[10].blocks: must be > 0, got 0"
	if err.Error() != want {
		t.Errorf("error\n%v\nwant\n%v", err, want)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	y := filepath.Join(dir, "set.yaml")
	if err := os.WriteFile(y, []byte(thesisYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	s, w, err := LoadFile(y, Options{})
	if err != nil || len(w) != 0 || len(s.Hosts) != 4 {
		t.Fatalf("LoadFile(yaml): %v, %v, %d hosts", err, w, len(s.Hosts))
	}
	j := filepath.Join(dir, "s.json")
	if err := os.WriteFile(j, []byte(`{"name": "x", "max_iterations": 1, "max_time": 0, "benchmarks": [
		{"filename": "./bin/timer_spin.so", "label": "K", "thread_count": 256, "block_count": 2, "data_size": 0, "additional_info": 1000}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _, err = LoadFile(j, Options{})
	if err != nil || len(s.Hosts) != 1 || s.Name != "x" {
		t.Fatalf("LoadFile(json): %v, %+v", err, s)
	}
	if _, _, err := LoadFile(filepath.Join(dir, "s.txt"), Options{}); err == nil || !strings.Contains(err.Error(), "unknown scenario format") {
		t.Errorf("LoadFile(txt): %v", err)
	}
	if _, _, err := LoadFile(filepath.Join(dir, "missing.yaml"), Options{}); err == nil {
		t.Error("LoadFile(missing) succeeded")
	}
}
