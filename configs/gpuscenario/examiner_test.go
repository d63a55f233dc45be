package gpuscenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/rta/gpusim"

	"github.com/hetmap/hetmap/internal/sharedtest"
)

// examinerDir returns the folder of the real scenario files in ../shared,
// failing the test when it is absent (skipping it under -short).
func examinerDir(t *testing.T) string {
	t.Helper()
	return sharedtest.Path(t, "cuda_scheduling_examiner/configs")
}

var kernelPlugins = []string{"timer_spin.so", "timer_spin_default_stream.so", "sharedmem_timer_spin.so", "multikernel.so"}

// Every real scenario file loads; every one that holds kernels simulates.
func TestExaminerConfigsDirectory(t *testing.T) {
	dir := examinerDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files in %s (%v)", dir, err)
	}
	withKernels := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, warns, err := ParseExaminer(data, filepath.Base(f), Options{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		hasKernelPlugin := false
		for _, p := range kernelPlugins {
			hasKernelPlugin = hasKernelPlugin || strings.Contains(string(data), "/"+p+`"`)
		}
		r, err := gpusim.Simulate(s)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if hasKernelPlugin {
			withKernels++
			if len(r.Kernels) == 0 || r.Makespan <= 0 {
				t.Errorf("%s: has kernel plugins but simulated %d kernels", filepath.Base(f), len(r.Kernels))
			}
		}
		for _, w := range warns {
			if strings.HasPrefix(w.Message, "skipped") && (w.Plugin == "" || w.Path == "") {
				t.Errorf("%s: skip warning without plugin or benchmark: %+v", filepath.Base(f), w)
			}
		}
		t.Logf("%-55s %3d kernels, makespan %-12s %d warnings", filepath.Base(f), len(r.Kernels), gpusim.FormatDuration(r.Makespan), len(warns))
	}
	if withKernels < 25 {
		t.Errorf("only %d files with kernels", withKernels)
	}
}

func loadReal(t *testing.T, name string) (gpusim.Result, []Warning) {
	t.Helper()
	s, w, err := LoadExaminer(filepath.Join(examinerDir(t), name), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := gpusim.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}

type span struct {
	name              string
	start, completion time.Duration
}

func checkSpans(t *testing.T, r gpusim.Result, want []span) {
	t.Helper()
	for _, w := range want {
		k, ok := r.Kernel(w.name)
		if !ok {
			t.Errorf("no kernel %q", w.name)
			continue
		}
		if time.Duration(k.Start) != w.start || time.Duration(k.Completion) != w.completion {
			t.Errorf("%s: %v..%v, want %v..%v", w.name, time.Duration(k.Start), time.Duration(k.Completion), w.start, w.completion)
		}
	}
}

// RTSS 2017, Fig. 5: the NULL stream serialises everything around it.
func TestRealFig5NullStream(t *testing.T) {
	r, _ := loadReal(t, "rtss_2017_fig5_null_stream.json")
	s := time.Second
	// Kernel 1 (6 x 768): four blocks 0..1, two 1..2. Kernel 2 (NULL, launched
	// 0.2) waits for Kernel 1 (N1): 2..3. K3, K4 (launched 0.4) wait for the
	// NULL head Kernel 2 (N2): 3..4, 4..5. Kernel 5 (NULL, 0.6) waits for K4
	// (launched before it): 5..6. Kernel 6 (0.8) waits for Kernel 5: 6..7.
	checkSpans(t, r, []span{
		{"Kernel 1", 0, 2 * s}, {"Kernel 2 (NULL stream)", 2 * s, 3 * s}, {"K3", 3 * s, 4 * s},
		{"K4", 4 * s, 5 * s}, {"Kernel 5 (NULL stream)", 5 * s, 6 * s}, {"Kernel 6", 6 * s, 7 * s},
	})
}

// RTSS 2017, Fig. 6: high-priority kernels starve a running low-priority one.
func TestRealFig6Starvation(t *testing.T) {
	r, _ := loadReal(t, "rtss_2017_fig6_stream_priority_starve.json")
	ms := time.Millisecond
	// K1 (8 x 1024, 0.5 s): four blocks 0..0.5. K2 (high, 16 blocks, launched
	// 0.2) takes every slot from 0.5 to 2.5; K3 (high, launched 0.5) from 2.5
	// to 4.5; K1's last four blocks run 4.5..5.
	checkSpans(t, r, []span{
		{"K1 (low priority)", 0, 5000 * ms}, {"K2 (high priority)", 500 * ms, 2500 * ms}, {"K3 (high priority)", 2500 * ms, 4500 * ms},
	})
}

// sm_plot_1_2: blocks of 10240 words (40 KiB) of shared memory: one per SM.
func TestRealSharedMemory(t *testing.T) {
	r, _ := loadReal(t, "sm_plot_1_2.json")
	ms := time.Millisecond
	checkSpans(t, r, []span{
		{"Kernel 1", 0, 500 * ms}, {"Kernel 2", 500 * ms, 1000 * ms}, {"Kernel 3", 1000 * ms, 1500 * ms}, {"Kernel 4", 1500 * ms, 2000 * ms},
	})
	if k, _ := r.Kernel("Kernel 1"); k.Kernel.SharedMemoryPerBlock != 40960 {
		t.Errorf("shared memory %d B, want 40960 (10240 words)", k.Kernel.SharedMemoryPerBlock)
	}
}

// multikernel delay: synchronise the stream, then sleep.
func TestRealMultikernelDelay(t *testing.T) {
	r, _ := loadReal(t, "multikernel_delay_example.json")
	ms := time.Millisecond
	// K1 0..0.5; K2 is issued 0.5 s after K1 completes: 1..1.5; K3 right after K2.
	checkSpans(t, r, []span{{"K1", 0, 500 * ms}, {"K2", 1000 * ms, 1500 * ms}, {"K3", 1500 * ms, 2000 * ms}})
}

// Copies of rtss_2017_fig3: 67108864 words = 256 MiB = 4194304 lines of 3 ns.
func TestRealFig3Copies(t *testing.T) {
	r, _ := loadReal(t, "rtss_2017_fig3_bigexperiment.json")
	if len(r.Copies) != 5 {
		t.Fatalf("%d copies, want 5", len(r.Copies))
	}
	for _, c := range r.Copies {
		if c.End-c.Start != 12582912 {
			t.Errorf("%s takes %d ns, want 12582912", c.Name, c.End-c.Start)
		}
	}
	s, _, err := LoadExaminer(filepath.Join(examinerDir(t), "rtss_2017_fig3_bigexperiment.json"), Options{CopyLineTime: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Hosts[0].Ops[2].CopyTime; got != 41943040 {
		t.Errorf("K2.copy_out with 10 ns per line: %d ns, want 41943040", got)
	}
	// K6 is issued 0.8 s after K4 completes (2 s): at 2.8 s.
	if k, _ := r.Kernel("K6"); k.Launch != int64(2800*time.Millisecond) {
		t.Errorf("K6 launched at %v, want 2.8s", time.Duration(k.Launch))
	}
}

func TestRealSyncEveryIteration(t *testing.T) {
	r, _ := loadReal(t, "test_sync_every_iteration.json")
	ms := time.Millisecond
	// Three iterations; each waits for both benchmarks (a barrier), so the
	// 0.25 s kernel starts with the 0.5 s one every 0.5 s.
	checkSpans(t, r, []span{
		{"512 threads, 0.25s#2", 500 * ms, 750 * ms}, {"256 threads, 0.5s#3", 1000 * ms, 1500 * ms}, {"512 threads, 0.25s#3", 1000 * ms, 1250 * ms},
	})
}

func TestRealWarnings(t *testing.T) {
	_, w := loadReal(t, "multiprocess_two_mandelbrot.json")
	text := ""
	for _, x := range w {
		text += x.String() + "\n"
	}
	for _, want := range []string{`benchmarks[0] ("Process 1") mandelbrot.so: skipped`, "use_processes is true"} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings\n%s\nlack %q", text, want)
		}
	}
	if w[0].Benchmark != 0 || w[0].Label != "Process 1" || w[0].Plugin != "mandelbrot.so" {
		t.Errorf("first warning %+v", w[0])
	}
}

func parseEx(t *testing.T, src string) (gpusim.Scenario, []Warning, error) {
	t.Helper()
	return ParseExaminer([]byte(src), "t.json", Options{})
}

func TestExaminerIterations(t *testing.T) {
	src := `{"name": "it", "max_iterations": 3, "max_time": 0, "benchmarks": [
	  {"filename": "./bin/timer_spin.so", "label": "A", "thread_count": 1024, "block_count": 2, "data_size": 0, "additional_info": 1000000, "release_time": 0.5},
	  {"filename": "./bin/timer_spin.so", "label": "B", "thread_count": 1024, "block_count": 2, "data_size": 0, "additional_info": 1000000, "max_iterations": 1}]}`
	s, w, err := parseEx(t, src)
	if err != nil || len(w) != 0 {
		t.Fatalf("%v %v", err, w)
	}
	r, err := gpusim.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	// B: 0..1 ms. A's iterations follow each other: 500..501, 501..502, 502..503 ms.
	ms := time.Millisecond
	checkSpans(t, r, []span{{"B", 0, ms}, {"A#1", 500 * ms, 501 * ms}, {"A#2", 501 * ms, 502 * ms}, {"A#3", 502 * ms, 503 * ms}})

	// max_iterations 0 with max_time: iterations started within max_time.
	src = `{"name": "t", "max_iterations": 0, "max_time": 0.0035, "benchmarks": [
	  {"filename": "./bin/timer_spin.so", "label": "A", "thread_count": 1024, "block_count": 4, "data_size": 0, "additional_info": 1000000}]}`
	s, w, err = parseEx(t, src)
	if err != nil || len(w) != 1 || !strings.Contains(w[0].Message, "up to 1000 iterations") {
		t.Fatalf("%v %v", err, w)
	}
	r, err = gpusim.Simulate(s)
	if err != nil {
		t.Fatal(err)
	}
	issued := 0
	for _, k := range r.Kernels {
		if k.Issued {
			issued++
		}
	}
	if issued != 4 { // started at 0, 1, 2, 3 ms; the one at 4 ms is past 3.5 ms
		t.Errorf("%d iterations issued, want 4", issued)
	}

	// A cap and an endless benchmark.
	src = `{"name": "t", "max_iterations": 5000, "max_time": 0, "benchmarks": [
	  {"filename": "./bin/timer_spin.so", "thread_count": 32, "block_count": 1, "data_size": 0, "additional_info": 10}]}`
	if s, w, err = parseEx(t, src); err != nil || len(w) != 1 || !strings.Contains(w[0].Message, "capped at 1000") || len(s.Hosts[0].Ops) != 1000 {
		t.Errorf("cap: %v %v", err, w)
	}
	src = `{"name": "t", "max_iterations": 0, "max_time": 0, "benchmarks": [
	  {"filename": "./bin/timer_spin.so", "thread_count": 32, "block_count": 1, "data_size": 0, "additional_info": "10"}]}`
	if s, w, err = parseEx(t, src); err != nil || len(w) != 1 || !strings.Contains(w[0].Message, "one iteration") || len(s.Hosts[0].Ops) != 1 {
		t.Errorf("endless: %v %v", err, w)
	}
}

func TestExaminerDetails(t *testing.T) {
	src := `{"name": "d", "max_iterations": 1, "max_time": 0, "use_processes": true, "benchmarks": [
	  {"filename": "./bin/timer_spin.so", "label": "hi", "thread_count": 256, "block_count": 1, "data_size": 0, "additional_info": 1000, "stream_priority": -5},
	  {"filename": "./bin/timer_spin.so", "label": "lo", "thread_count": 256, "block_count": 1, "data_size": 0, "additional_info": 1000, "stream_priority": 3},
	  {"filename": "./bin/sharedmem_timer_spin.so", "label": "sm", "thread_count": 100, "block_count": 1, "data_size": 0, "additional_info": "1000,4096"},
	  {"filename": "./bin/timer_spin_default_stream.so", "label": "null", "thread_count": 256, "block_count": 1, "data_size": 0, "additional_info": 1000, "stream_priority": -1},
	  {"filename": "./bin/multikernel.so", "label": "mk", "thread_count": 0, "block_count": 0, "data_size": 0,
	   "additional_info": [{"kernel_label": "M", "duration": 1000, "block_count": 1, "thread_count": 64, "copy_in_count": 16, "copy_out_count": 17, "delay": 0.001}]}]}`
	s, w, err := parseEx(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, x := range w {
		text = append(text, x.String())
	}
	all := strings.Join(text, "\n")
	for _, want := range []string{"stream_priority -5 is clamped to -1", "stream_priority 3 is clamped to 0", "the NULL stream has low priority", "use_processes is true"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings\n%s\nlack %q", all, want)
		}
	}
	if s.Streams[0].Priority != gpusim.PriorityHigh || s.Streams[1].Priority != gpusim.PriorityLow || !s.Streams[3].Null {
		t.Errorf("streams %+v", s.Streams)
	}
	if k := s.Hosts[2].Ops[0].Kernel; k.SharedMemoryPerBlock != 16384 {
		t.Errorf("sharedmem_timer_spin: %+v", k)
	}
	mk := s.Hosts[4].Ops
	// 16 words = 64 B = 1 line = 3 ns; 17 words = 68 B = 2 lines = 6 ns.
	if len(mk) != 3 || mk[0].CopyTime != 3 || mk[2].CopyTime != 6 || !mk[0].Sync || mk[0].Delay != 1000000 {
		t.Errorf("multikernel ops %+v", mk)
	}
	if _, err := gpusim.Simulate(s); err != nil {
		t.Error(err)
	}
}

func TestExaminerErrors(t *testing.T) {
	bench := func(extra string) string {
		return `{"name": "e", "max_iterations": 1, "max_time": 0, "benchmarks": [{"filename": "./bin/timer_spin.so", "label": "K", "data_size": 0` + extra + `}]}`
	}
	ok := `, "thread_count": 256, "block_count": 2, "additional_info": 1000`
	cases := []struct{ name, src, want string }{
		{"not JSON", `{"name": `, "t.json: not valid JSON"},
		{"not an object", `[1, 2]`, "the top level must be an object, got a list"},
		{"unknown top key", `{"benchmarks": [], "colour": 1}`, "t.json: colour: unknown key (accepted: name, max_iterations"},
		{"unknown benchmark key", bench(ok + `, "colour": 1`), "benchmarks[0].colour: unknown key (accepted: filename, label,"},
		{"missing benchmarks", `{"name": "x"}`, "benchmarks: missing (required)"},
		{"missing filename", `{"benchmarks": [{"label": "x"}]}`, "benchmarks[0].filename: missing (required)"},
		{"thread count", bench(`, "thread_count": 2048, "block_count": 2, "additional_info": 1000`), "benchmarks[0].thread_count: must be in 1..1024, got 2048"},
		{"block count type", bench(`, "thread_count": 256, "block_count": "2", "additional_info": 1000`), `benchmarks[0].block_count: expected a number, got the string "2"`},
		{"fractional count", bench(`, "thread_count": 256.5, "block_count": 2, "additional_info": 1000`), "benchmarks[0].thread_count: expected an integer, got 256.5"},
		{"spin time", bench(`, "thread_count": 256, "block_count": 2, "additional_info": {"a": 1}`), "benchmarks[0].additional_info: expected the spin time in ns, got an object"},
		{"release time type", bench(ok + `, "release_time": "soon"`), `benchmarks[0].release_time: expected a number, got the string "soon"`},
		{"negative iterations", `{"max_iterations": -1, "benchmarks": []}`, "max_iterations: must be >= 0"},
		{"multikernel duration", `{"benchmarks": [{"filename": "multikernel.so", "additional_info": [{"kernel_label": "a", "block_count": 1, "thread_count": 32}]}]}`,
			"benchmarks[0].additional_info[0].duration: missing (required)"},
		{"multikernel key", `{"benchmarks": [{"filename": "multikernel.so", "additional_info": [{"kernel_label": "a", "duration": 5, "block_count": 1, "thread_count": 32, "colour": 2}]}]}`,
			"benchmarks[0].additional_info[0].colour: unknown key (accepted: kernel_label, duration,"},
		{"multikernel shared memory", `{"benchmarks": [{"filename": "multikernel.so", "additional_info": [{"kernel_label": "a", "duration": 5, "block_count": 1, "thread_count": 32, "shared_memory_size": 20000}]}]}`,
			"benchmarks[0].additional_info[0]: the kernel can never run on this GPU: 80000 B of shared memory per block"},
		{"multikernel list", `{"benchmarks": [{"filename": "multikernel.so", "additional_info": 5}]}`, "benchmarks[0].additional_info: expected a list, got the number 5"},
		{"task host", `{"benchmarks": [{"filename": "task_host.so", "additional_info": []}]}`, "benchmarks[0].additional_info: task_host.so needs a configuration object, got a list"},
		{"nested", `{"benchmarks": [{"filename": "task_host.so", "additional_info": {"benchmarks": [{"filename": "timer_spin.so", "thread_count": 0, "block_count": 1, "additional_info": 5}]}}]}`,
			"benchmarks[0].additional_info.benchmarks[0].thread_count: must be in 1..1024, got 0"},
	}
	for _, c := range cases {
		_, _, err := parseEx(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error\n%v\nwant one containing %q", c.name, err, c.want)
		}
	}
}
