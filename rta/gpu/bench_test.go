package gpu

import "testing"

// benchKernels: 4 kernels of about 100 blocks of 256 threads (16 slots on
// the TX2).
func benchKernels() []Kernel {
	return []Kernel{
		{Name: "k1", BlockTime: 1000, Blocks: 100, ThreadsPerBlock: 256},
		{Name: "k2", BlockTime: 700, Blocks: 96, ThreadsPerBlock: 256},
		{Name: "k3", BlockTime: 1300, Blocks: 104, ThreadsPerBlock: 256},
		{Name: "k4", BlockTime: 900, Blocks: 100, ThreadsPerBlock: 256},
	}
}

// watersLike: the four WATERS 2019 GPU tasks in picoseconds, kernels split
// by the default geometry (256 threads, 16 blocks per wave, waves of at
// most 1 ms): SFM 7.9 ms = 8 waves of 0.9875 ms, Lane detection 27.3 ms =
// 28 waves of 0.975 ms, Localization 124 ms = 124 waves of 1 ms, Detection
// 116 ms = 116 waves of 1 ms. Copy times are illustrative.
func watersLike() []Task {
	const ms = int64(1_000_000_000) // picoseconds
	return []Task{
		{Name: "SFM", Period: 33 * ms, CopyIn: ms / 2, CopyOut: ms / 4, BlockTime: 987_500_000, Blocks: 8 * 16, ThreadsPerBlock: 256, Priority: High, Slice: 5 * ms},
		{Name: "Lane_detection", Period: 66 * ms, CopyIn: ms / 2, CopyOut: ms / 10, BlockTime: 975_000_000, Blocks: 28 * 16, ThreadsPerBlock: 256, Slice: 10 * ms},
		{Name: "Localization", Period: 400 * ms, CopyIn: 2 * ms, CopyOut: ms / 10, BlockTime: ms, Blocks: 124 * 16, ThreadsPerBlock: 256, Slice: 20 * ms},
		{Name: "Detection", Period: 200 * ms, CopyIn: 3 * ms, CopyOut: ms / 5, BlockTime: ms, Blocks: 116 * 16, ThreadsPerBlock: 256, Slice: 10 * ms},
	}
}

func BenchmarkBlockRTA(b *testing.B) {
	ks := benchKernels()
	var s Scratch
	f := make([]int64, len(ks))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.BlockRTA(TX2(), ks, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBlockRTAMixedSizes(b *testing.B) {
	ks := benchKernels()
	ks[1].ThreadsPerBlock, ks[3].ThreadsPerBlock = 512, 128
	var s Scratch
	f := make([]int64, len(ks))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.BlockRTA(TX2(), ks, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBlockRTAAllocating(b *testing.B) {
	ks := benchKernels()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BlockRTA(TX2(), ks); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFIFOAnalyzerWATERS(b *testing.B) {
	ts := watersLike()
	var a FIFOAnalyzer
	out := make([]Response, len(ts))
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Analyze(ts, out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFIFOAnalyzerWATERSAllLow(b *testing.B) {
	ts := watersLike()
	ts[0].Priority = Low
	var a FIFOAnalyzer
	out := make([]Response, len(ts))
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Analyze(ts, out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTimeSliceAnalyzerWATERS(b *testing.B) {
	ts := watersLike()
	var a TimeSliceAnalyzer
	out := make([]Response, len(ts))
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Analyze(ts, out); err != nil {
			b.Fatal(err)
		}
	}
}
