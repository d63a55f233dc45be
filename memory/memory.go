package memory

import (
	"errors"
	"math"
	"math/bits"

	"github.com/hetmap/hetmap/rta/sat"
)

// DefaultLineSize is the size in bytes of one DRAM line in the challenge.
const DefaultLineSize = 64

// PicosPerSecond is the number of picoseconds in a second.
const PicosPerSecond = 1_000_000_000_000

// Sentinel errors returned for impossible inputs. They are plain values, so
// returning them never allocates.
var (
	// ErrNegative reports a negative count, size, number of ticks or parameter.
	ErrNegative = errors.New("memory: negative value")
	// ErrFrequency reports a frequency that is not positive.
	ErrFrequency = errors.New("memory: frequency must be positive")
	// ErrLineSize reports a line size that is not positive.
	ErrLineSize = errors.New("memory: line size must be positive")
	// ErrOverflow reports a result that does not fit in an int64 of picoseconds.
	ErrOverflow = errors.New("memory: result overflows int64 picoseconds")
)

// CoreParams are the memory-contention parameters of one CPU core kind, in
// picoseconds per line: Lat = Baseline + PerCore·#C + CopyEngine·bGPU.
type CoreParams struct {
	Baseline   int64 // latency of one line without contention (ps)
	PerCore    int64 // extra latency per interfering core, K (ps)
	CopyEngine int64 // extra latency while the copy engine is active, sGPU (ps)
}

// CopyEngineParams are the parameters of the GPU copy engine, in picoseconds
// per line: Lat(CE) = Baseline + PerCore·#C.
type CopyEngineParams struct {
	Baseline int64 // latency of one line without contention (ps)
	PerCore  int64 // extra latency per interfering core (ps)
}

// A57 returns the challenge's parameters of an ARM Cortex-A57 core:
// 20 ns baseline, 20 ns per interfering core, 100 ns with the copy engine active.
func A57() CoreParams { return CoreParams{Baseline: 20_000, PerCore: 20_000, CopyEngine: 100_000} }

// Denver returns the challenge's parameters of an NVIDIA Denver core:
// 8 ns baseline, 2 ns per interfering core, 20 ns with the copy engine active.
func Denver() CoreParams { return CoreParams{Baseline: 8_000, PerCore: 2_000, CopyEngine: 20_000} }

// TX2CopyEngine returns the challenge's parameters of the TX2 copy engine:
// 3 ns baseline and 0.5 ns per interfering core.
func TX2CopyEngine() CopyEngineParams { return CopyEngineParams{Baseline: 3_000, PerCore: 500} }

// Validate reports ErrNegative if any parameter is negative.
func (p CoreParams) Validate() error {
	if p.Baseline < 0 || p.PerCore < 0 || p.CopyEngine < 0 {
		return ErrNegative
	}
	return nil
}

// Validate reports ErrNegative if any parameter is negative.
func (p CopyEngineParams) Validate() error {
	if p.Baseline < 0 || p.PerCore < 0 {
		return ErrNegative
	}
	return nil
}

// LineLatency returns the time in picoseconds to move one line between DRAM
// and a core with parameters p while interferingCores other cores access
// memory and, if copyEngineActive, the copy engine may transfer at the same
// time. Callers check p once with Validate; a negative parameter or
// interferingCores is nevertheless treated as 0, and the result saturates
// at math.MaxInt64, so it is never negative.
func LineLatency(p CoreParams, interferingCores int, copyEngineActive bool) int64 {
	lat := sat.Add(nonneg(p.Baseline), sat.Mul(nonneg(p.PerCore), clampCount(interferingCores)))
	if copyEngineActive {
		lat = sat.Add(lat, nonneg(p.CopyEngine))
	}
	return lat
}

// CopyLineLatency returns the time in picoseconds for the copy engine to move
// one line while interferingCores cores access memory. Callers check p once
// with Validate; a negative parameter or interferingCores is nevertheless
// treated as 0, and the result saturates at math.MaxInt64.
func CopyLineLatency(p CopyEngineParams, interferingCores int) int64 {
	return sat.Add(nonneg(p.Baseline), sat.Mul(nonneg(p.PerCore), clampCount(interferingCores)))
}

// Lines returns the number of lines of lineSize bytes that a label of
// sizeBytes bytes occupies, ceil(sizeBytes/lineSize). A size of 0 occupies
// no line. It reports ErrNegative for a negative size and ErrLineSize for a
// non-positive line size.
func Lines(sizeBytes, lineSize int64) (int64, error) {
	if sizeBytes < 0 {
		return 0, ErrNegative
	}
	if lineSize <= 0 {
		return 0, ErrLineSize
	}
	n := sizeBytes / lineSize
	if sizeBytes%lineSize != 0 {
		n++
	}
	return n, nil
}

// TicksToPicos converts ticks of a unit running at freqHz into picoseconds,
// rounding up: ceil(ticks·10¹²/freqHz). The product is formed in 128 bits,
// so no int64 input can overflow it. It reports ErrNegative for negative
// ticks, ErrFrequency for a non-positive frequency and ErrOverflow if the
// result does not fit in an int64.
func TicksToPicos(ticks, freqHz int64) (int64, error) {
	if ticks < 0 {
		return 0, ErrNegative
	}
	if freqHz <= 0 {
		return 0, ErrFrequency
	}
	hi, lo := bits.Mul64(uint64(ticks), PicosPerSecond)
	f := uint64(freqHz)
	if hi >= f { // the quotient would not fit in 64 bits (and Div64 would panic)
		return 0, ErrOverflow
	}
	q, r := bits.Div64(hi, lo, f)
	if r != 0 {
		q++
	}
	if q > math.MaxInt64 {
		return 0, ErrOverflow
	}
	return int64(q), nil
}

// LinesTime returns lines·latency in picoseconds: the time to move lines
// lines at latency picoseconds each. It reports ErrNegative for a negative
// argument and ErrOverflow if the product does not fit in an int64.
func LinesTime(lines, latency int64) (int64, error) {
	if lines < 0 || latency < 0 {
		return 0, ErrNegative
	}
	hi, lo := bits.Mul64(uint64(lines), uint64(latency))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, ErrOverflow
	}
	return int64(lo), nil
}

// CopyTime returns the time in picoseconds for the copy engine to transfer
// lines lines while interferingCores cores access memory:
// lines·CopyLineLatency(p, interferingCores). It reports ErrNegative for
// negative lines and ErrOverflow as LinesTime does; p is treated as by
// CopyLineLatency.
func CopyTime(p CopyEngineParams, lines int64, interferingCores int) (int64, error) {
	return LinesTime(lines, CopyLineLatency(p, interferingCores))
}

// Phases are the read, execute and write times of a runnable in picoseconds
// under the read/execute/write semantic.
type Phases struct {
	Read, Execute, Write int64
}

// Total returns Read+Execute+Write. For Phases returned by RunnablePhases
// without error the sum never overflows; for other non-negative values it
// saturates at math.MaxInt64.
func (p Phases) Total() int64 {
	return sat.Add(sat.Add(nonneg(p.Read), nonneg(p.Execute)), nonneg(p.Write))
}

// RunnablePhases returns the phases of a runnable that reads readLines lines,
// executes ticks ticks at freqHz and writes writeLines lines, each line
// taking lineLatency picoseconds (see LineLatency):
// Read = readLines·lineLatency, Execute = TicksToPicos(ticks, freqHz),
// Write = writeLines·lineLatency. A runnable without ticks (a copy) may pass
// ticks = 0 with any positive frequency. It reports ErrNegative,
// ErrFrequency or ErrOverflow (also when the total would overflow).
func RunnablePhases(readLines, writeLines, ticks, freqHz, lineLatency int64) (Phases, error) {
	var p Phases
	var err error
	if p.Read, err = LinesTime(readLines, lineLatency); err != nil {
		return Phases{}, err
	}
	if p.Write, err = LinesTime(writeLines, lineLatency); err != nil {
		return Phases{}, err
	}
	if p.Execute, err = TicksToPicos(ticks, freqHz); err != nil {
		return Phases{}, err
	}
	if p.Read > math.MaxInt64-p.Write || p.Read+p.Write > math.MaxInt64-p.Execute {
		return Phases{}, ErrOverflow
	}
	return p, nil
}

// nonneg returns x, or 0 for a negative x.
func nonneg(x int64) int64 {
	if x < 0 {
		return 0
	}
	return x
}

// clampCount converts a count of cores to int64, treating negatives as 0.
func clampCount(n int) int64 { return nonneg(int64(n)) }
