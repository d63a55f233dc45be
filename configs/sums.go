package configs

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// MaxTime is the longest time hetmap's analyses take, 2^60 ps (about 13
// days): every time of their input (rta.MaxTime) and every term of a
// task's execution time. A period, offset or jitter beyond it, and a task
// whose compute, memory or contention term on a unit it can run on would
// exceed it, is an input error that names the task, the unit and the sum.
const MaxTime Duration = 1 << 60

// maxTimeText says MaxTime in words.
const maxTimeText = "2^60 ps (about 13 days), the longest time hetmap's analyses take"

// sumChecker checks the sums of the tasks of a system (checkSums): it
// indexes the runnables and the label lines once.
type sumChecker struct {
	s     *System
	runs  map[string]*Runnable
	lines map[string]*big.Int // DRAM lines of a label
	cpus  int
	gpu   bool
}

func newSumChecker(s *System) *sumChecker {
	c := &sumChecker{s: s, runs: map[string]*Runnable{}, lines: map[string]*big.Int{}}
	for i := range s.Runnables {
		c.runs[s.Runnables[i].Name] = &s.Runnables[i]
	}
	ls := int64(s.Memory.LineSize)
	for _, l := range s.Labels {
		n := big.NewInt(0)
		if ls > 0 && l.Size > 0 {
			n.SetInt64(int64(l.Size)/ls + b2i(int64(l.Size)%ls != 0))
		}
		c.lines[l.Name] = n
	}
	for _, u := range s.Units {
		switch u.Type {
		case CPU:
			c.cpus++
		case GPU:
			c.gpu = true
		}
	}
	return c
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// bigMaxTime and bigMaxInt64 are the bounds as big integers.
var (
	bigMaxTime  = big.NewInt(int64(MaxTime))
	bigMaxInt64 = big.NewInt(math.MaxInt64)
	bigPicos    = big.NewInt(int64(Second))
)

// picos returns ceil(ticks · 10¹² / f), the time of ticks at frequency f
// in picoseconds, as the analyses round it (memory.TicksToPicos).
func picos(ticks *big.Int, f Frequency) *big.Int {
	n := new(big.Int).Mul(ticks, bigPicos)
	q, r := new(big.Int).QuoRem(n, big.NewInt(int64(f)), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// durText writes a number of picoseconds as a duration, or in seconds
// when it is beyond a Duration.
func durText(ps *big.Int) string {
	if ps.IsInt64() {
		return Duration(ps.Int64()).String()
	}
	return seconds(ps)
}

// seconds writes a number of picoseconds in seconds, for messages.
func seconds(ps *big.Int) string {
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(ps), big.NewFloat(1e12)).Float64()
	return fmt.Sprintf("%.4g s", f)
}

// callList names the runnables of a sum in order, a runnable called n
// times in a row as "R × n", at most four of them.
func callList(names []string, value func(string) string) string {
	var parts []string
	for i := 0; i < len(names); {
		j := i
		for j < len(names) && names[j] == names[i] {
			j++
		}
		p := names[i] + " " + value(names[i])
		if j-i > 1 {
			p += fmt.Sprintf(" × %d", j-i)
		}
		parts = append(parts, p)
		i = j
	}
	if len(parts) > 4 {
		return strings.Join(parts[:4], " + ") + fmt.Sprintf(" + … (%d runnables)", len(names))
	}
	return strings.Join(parts, " + ")
}

// moves returns what task t's runnables compute and move per job: the
// runnables with ticks, the lines read and written, and a GPU task's copy
// lines (max(read, written) of each runnable without ticks).
func (c *sumChecker) moves(t *Task) (computing []string, lines, copies *big.Int) {
	lines = new(big.Int)
	copies = new(big.Int) // a GPU task's copies: max(read, written) lines each
	for _, name := range t.AllRunnables() {
		r := c.runs[name]
		if r == nil {
			continue
		}
		rd, wr := new(big.Int), new(big.Int)
		for _, l := range r.Reads {
			if n := c.lines[l]; n != nil {
				rd.Add(rd, n)
			}
		}
		for _, l := range r.Writes {
			if n := c.lines[l]; n != nil {
				wr.Add(wr, n)
			}
		}
		lines.Add(lines, rd).Add(lines, wr)
		if len(r.Ticks) > 0 {
			computing = append(computing, name)
		} else if rd.Cmp(wr) >= 0 {
			copies.Add(copies, rd)
		} else {
			copies.Add(copies, wr)
		}
	}
	return computing, lines, copies
}

// task checks task t: on every unit it can run on, its compute, memory and
// contention terms and their sum (a GPU task on the GPU: its kernel and
// copies) are at most MaxTime, and its ticks and lines fit hetmap's
// counts. It returns what does not fit, in one line, or "".
func (c *sumChecker) task(t *Task) string {
	s := c.s
	computing, lines, copies := c.moves(t)
	if len(computing) == 0 {
		return ""
	}
	if lines.Cmp(bigMaxTime) > 0 {
		return fmt.Sprintf("the memory term of %s overflows: its runnables move %s lines of %d B per job, more than hetmap counts (2^60)", t.Name, lines, s.Memory.LineSize)
	}
	seen := map[string]bool{}
	for _, u := range s.Units {
		ticks := new(big.Int)
		ok := true
		for _, name := range computing {
			tk, has := c.runs[name].TicksFor(u.Kind)
			if !has {
				ok = false
				break
			}
			ticks.Add(ticks, big.NewInt(tk.Upper))
		}
		if !ok || u.Frequency <= 0 || seen[u.Name] {
			continue
		}
		seen[u.Name] = true
		tickText := func(name string) string {
			tk, _ := c.runs[name].TicksFor(u.Kind)
			return fmt.Sprint(tk.Upper)
		}
		if ticks.Cmp(bigMaxInt64) > 0 {
			return fmt.Sprintf("the compute term of %s on %s overflows: its worst-case ticks on %s sum to %s (%s), more than hetmap counts (%d)",
				t.Name, u.Name, u.Kind, ticks, callList(computing, tickText), int64(math.MaxInt64))
		}
		var gpuTask, onGPU = t.IsGPUTask(), u.Type == GPU
		if onGPU && !gpuTask {
			continue
		}
		compute := picos(ticks, u.Frequency)
		term := "compute"
		if onGPU {
			term = "kernel"
		}
		if compute.Cmp(bigMaxTime) > 0 {
			return fmt.Sprintf("the %s term of %s on %s overflows: its worst-case ticks, %s (%s), take %s at %s, more than %s",
				term, t.Name, u.Name, ticks, callList(computing, tickText), seconds(compute), u.Frequency, maxTimeText)
		}
		if onGPU {
			lat := new(big.Int).Mul(big.NewInt(int64(s.Memory.CopyEngine.PerCore)), big.NewInt(int64(c.cpus)))
			lat.Add(lat, big.NewInt(int64(s.Memory.CopyEngine.Baseline)))
			cp := new(big.Int).Mul(copies, lat)
			if cp.Cmp(bigMaxTime) > 0 {
				return fmt.Sprintf("the copy term of %s overflows: the copy engine moves %s lines per job at up to %s each (%s), more than %s",
					t.Name, copies, durText(lat), seconds(cp), maxTimeText)
			}
			continue
		}
		cm := s.CoreMemory(u.Kind)
		if cm == nil {
			continue
		}
		memory := new(big.Int).Mul(lines, big.NewInt(int64(cm.Baseline)))
		if memory.Cmp(bigMaxTime) > 0 {
			return fmt.Sprintf("the memory term of %s on %s overflows: %s lines per job at %s each (the uncontended latency of %s) take %s, more than %s",
				t.Name, u.Name, lines, cm.Baseline, u.Kind, seconds(memory), maxTimeText)
		}
		perLine := new(big.Int).Mul(big.NewInt(int64(cm.PerCore)), big.NewInt(int64(max(c.cpus-1, 0))))
		if c.gpu {
			perLine.Add(perLine, big.NewInt(int64(cm.CopyEngine)))
		}
		contention := new(big.Int).Mul(lines, perLine)
		if contention.Cmp(bigMaxTime) > 0 {
			return fmt.Sprintf("the contention term of %s on %s overflows: %s lines per job at up to %s of contention each (%s per other core × %d, and %s with the copy engine active) take %s, more than %s",
				t.Name, u.Name, lines, durText(perLine), cm.PerCore, max(c.cpus-1, 0), cm.CopyEngine, seconds(contention), maxTimeText)
		}
		total := new(big.Int).Add(compute, memory)
		total.Add(total, contention)
		if total.Cmp(bigMaxTime) > 0 {
			return fmt.Sprintf("the execution time of %s on %s overflows: compute %s + memory %s + contention %s = %s, more than %s",
				t.Name, u.Name, seconds(compute), seconds(memory), seconds(contention), seconds(total), maxTimeText)
		}
	}
	return ""
}

// TooLong finds the first task of s whose period, offset, jitter or
// requirement, or whose compute, memory or contention term on a unit it
// can run on, is longer than MaxTime: it returns the task's index and what
// is too long in one line, or -1 and "" when every task fits.
func TooLong(s *System) (int, string) {
	sums := newSumChecker(s)
	for i := range s.Tasks {
		p := checkTimes(&s.Tasks[i])
		if p == "" {
			p = sums.task(&s.Tasks[i])
		}
		if p != "" {
			return i, p
		}
	}
	return -1, ""
}

// checkTimes decides whether task t's period, offset and jitter are at
// most MaxTime; it returns what is not, or "".
func checkTimes(t *Task) string {
	for _, f := range []struct {
		what string
		d    Duration
	}{{"period", t.Period}, {"offset", t.Offset}, {"release jitter", t.Jitter}, {"requirement", t.Requirement}} {
		if f.d > MaxTime {
			return fmt.Sprintf("the %s of %s, %s, is longer than %s", f.what, t.Name, f.d, maxTimeText)
		}
	}
	return ""
}
