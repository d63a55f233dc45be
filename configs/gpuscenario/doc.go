// Package gpuscenario loads GPU scheduling scenarios for the TX2 simulator
// (package rta/gpusim) from two formats: the kernel-set YAML shared with the
// block-level analysis (package rta/gpu), and the JSON scenario files of the
// CUDA Scheduling Examiner, the tool with which Amert, Otterness, Yang,
// Anderson and Smith measured the rules of "GPU Scheduling on the NVIDIA
// TX2: Hidden Details Revealed" (RTSS 2017). LoadFile picks the format by the
// file's extension (.yaml/.yml or .json).
//
// # Kernel sets (YAML)
//
//	gpu: {sms: 2, threads_per_sm: 2048, shared_memory_per_sm: 64KiB, registers_per_sm: 65536, blocks_per_sm: 32}
//	kernels:                      # queue order
//	  - {name: K1, period: 15s, block_time: 4s, blocks: 2, threads_per_block: 512, launch: 0s}
//	  - name: K2
//	    block_time: 6ms
//	    blocks: 7
//	    threads_per_block: 512
//	    stream: s1                # a name, or null / "null" for the NULL stream
//	    priority: high            # low (default) or high
//	    shared_memory_per_block: 32KiB
//	    registers_per_thread: 32
//	    copy_in: 1ms              # copy before the kernel, in its stream
//	    copy_out: 500us           # copy after it
//
// gpu and every gpu key are optional (the TX2 by default). Per kernel, name,
// block_time, blocks and threads_per_block are required. Durations use Go's
// syntax (time.ParseDuration: "4ms", "1.5s", "250us"); a bare number is an
// error, not nanoseconds. Sizes are a byte count or a string with a unit read
// by configs.ParseSize, the project's convention: KB = kB = 1000 B, MB, GB are
// decimal, KiB = 1024 B, MiB, GiB binary ("48KB" is 48,000 B, "48KiB" is
// 49,152 B). The file is decoded with viper and mapstructure, strictly: an
// unknown key, a wrong type (a string for an integer, 2.5 blocks, a duration
// without a unit) or an impossible value (a negative or zero duration where
// one is needed, zero blocks, threads_per_block outside 1..1024, an unknown
// priority, a duplicate kernel name, a kernel that can never fit an SM) is an
// error naming the file and the key path, for example
// "set.yaml: kernels[2].block_time: must be > 0"; every problem of a file is
// reported at once. Keys are case-insensitive (viper lower-cases them);
// kernel and stream names are values and keep their case.
//
// Streams: a kernel without "stream" has a stream of its own; kernels naming
// the same stream share it, in file order; "stream: null" (YAML null, or the
// string "null" in any case) is the NULL stream. A priority belongs to a
// stream: a kernel of a named stream without a priority takes the one another
// kernel of the stream gives, and two different priorities on one stream are
// an error; the NULL stream is low priority. launch is when the CUDA call is
// made (default 0); a kernel of a shared stream is launched no earlier than
// the kernel before it in the stream, so the stream keeps the file's order.
// Each kernel is one job; period is not used by the simulator (it is the
// deadline of the analysis, 0 if absent).
//
// KernelSet.Scenario converts a kernel set for the simulator: one host thread
// per kernel, making its copy_in, kernel and copy_out calls at its launch
// time; calls made at the same instant keep the file's order.
// KernelSet.BlockAnalysisInput converts it for gpu.BlockRTA: the kernels in
// EE-queue order (launch time, then file order) with Release = launch,
// registers per block = registers per thread × threads, and the list of what
// the analysis does not model (several kernels in one stream, the NULL
// stream, high priority, copies).
//
// # CUDA Scheduling Examiner scenarios (JSON)
//
// The format is that of the scenario files of the CUDA Scheduling Examiner,
// the tool with which Amert et al. (RTSS 2017) inferred the TX2's rules
// (github.com/yalue/cuda_scheduling_examiner_mirror, its configs folder and
// README). Each benchmark is a
// host thread with a stream of its own (the NULL stream, shared by all, for
// timer_spin_default_stream.so). Plugins:
//
//   - timer_spin.so, timer_spin_default_stream.so: one kernel of block_count
//     blocks of thread_count threads; additional_info is the block time in
//     ns (a number, or a string holding one).
//   - sharedmem_timer_spin.so: the same with shared memory; additional_info
//     is {"duration": ns, "shared_memory_size": 32-bit words} or the older
//     string "ns,words".
//   - multikernel.so: additional_info lists kernels (kernel_label, duration
//     in ns, block_count, thread_count, optional delay in s,
//     shared_memory_size, copy_in_count, copy_out_count, sm_mask), issued in
//     order into the benchmark's stream. A kernel with delay > 0 is issued
//     after the stream has drained and the delay has passed (the plugin calls
//     cudaStreamSynchronize and then sleeps). Counts are 32-bit words: bytes
//     = 4 × words. copy_in_count is a copy issued just before the kernel,
//     copy_out_count one just after it, in the same stream.
//   - task_host.so: additional_info is a nested configuration; its benchmarks
//     are added (labels prefixed with the task host's label, release times
//     offset by its release time), with a warning, since they would run in
//     another process.
//   - counter_spin.so (its time is a loop count, not a duration),
//     stream_action.so and every other plugin (mandelbrot.so,
//     random_walk.so, matrix_multiply.so, CPU plugins...) are skipped with a
//     Warning that names the benchmark, its label and the plugin.
//
// Copy times: a copy of n bytes takes ceil(n / 64) × Options.CopyLineTime,
// 3 ns by default: the copy engine's latency per 64-byte line in the
// WATERS 2019 Industrial Challenge (Hamann et al., "WATERS Industrial
// Challenge 2019") with no interfering core, about 21.3 GB/s. The small copies
// with which the plugins read back their timing records are not modelled.
//
// Times: release_time is in seconds after the start (rounded to the
// nanosecond; negative means 0, as in the runner). A benchmark runs
// max_iterations iterations (a per-benchmark max_iterations or max_time
// overrides the file's); each iteration starts when the previous one has
// completed (the runner synchronises the stream after each). max_time > 0
// stops a benchmark before an iteration that would start max_time seconds or
// more after its release. max_iterations 0 means no limit: with max_time, up
// to Options.MaxIterations (default 1000) iterations are simulated; without,
// one iteration, with a warning. More than Options.MaxIterations iterations
// are capped, with a warning. With sync_every_iteration, every iteration
// after the first waits until all benchmarks have finished the previous one
// (a barrier). Kernels are named after the label (single-kernel plugins) or
// kernel_label (multikernel), with "#k" for iteration k when there are
// several, and " (2)", " (3)"... when a name repeats.
//
// stream_priority −1 is high and 0 low; other values are clamped to the
// TX2's two levels with a warning, and the NULL stream ignores it (warning).
// use_processes: true puts benchmarks in different address spaces, where the
// rules do not hold (the GPU time-slices between contexts); the scenario is
// still simulated as threads of one process, with a warning. do_warmup,
// sm_mask (SM partitioning) and mps_thread_percentage (MPS) are ignored with
// a warning; name, cuda_device, pin_cpus, cpu_core, log_name, data_size and
// comment (anywhere) are accepted and ignored. Any other key is an error
// naming its path and listing the accepted keys: the accepted keys are those
// the published files use. thread_count, block_count, data_size and
// additional_info are read only by the plugins that need them, so a skipped
// plugin's fields (such as matrix_multiply.so's two-dimensional
// thread_count) are not checked.
package gpuscenario
