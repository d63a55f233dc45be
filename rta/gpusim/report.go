package gpusim

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Report is the JSON form of a result:
//
//	{"kernels": [{"name","start_ns","completion_ns"}],
//	 "blocks":  [{"kernel","index","sm","start_ns","end_ns"}],
//	 "copies":  [{"name","start_ns","end_ns"}]}   (only when there are copies)
//
// Kernels that were never issued are left out.
type Report struct {
	Kernels []ReportKernel `json:"kernels"`
	Blocks  []ReportBlock  `json:"blocks"`
	Copies  []ReportCopy   `json:"copies,omitempty"`
}

// ReportKernel is one kernel of a Report.
type ReportKernel struct {
	Name         string `json:"name"`
	StartNS      int64  `json:"start_ns"`
	CompletionNS int64  `json:"completion_ns"`
}

// ReportBlock is one block of a Report.
type ReportBlock struct {
	Kernel  string `json:"kernel"`
	Index   int    `json:"index"`
	SM      int    `json:"sm"`
	StartNS int64  `json:"start_ns"`
	EndNS   int64  `json:"end_ns"`
}

// ReportCopy is one copy of a Report.
type ReportCopy struct {
	Name    string `json:"name"`
	StartNS int64  `json:"start_ns"`
	EndNS   int64  `json:"end_ns"`
}

// Report returns the JSON-ready summary of r.
func (r Result) Report() Report {
	rep := Report{Kernels: []ReportKernel{}, Blocks: []ReportBlock{}}
	for _, k := range r.Kernels {
		if k.Issued {
			rep.Kernels = append(rep.Kernels, ReportKernel{Name: k.Name, StartNS: k.Start, CompletionNS: k.Completion})
		}
	}
	for _, b := range r.Blocks {
		name := "?"
		if b.Kernel >= 0 && b.Kernel < len(r.Kernels) {
			name = r.Kernels[b.Kernel].Name
		}
		rep.Blocks = append(rep.Blocks, ReportBlock{Kernel: name, Index: b.Index, SM: b.SM, StartNS: b.Start, EndNS: b.End})
	}
	for _, c := range r.Copies {
		if c.Issued {
			rep.Copies = append(rep.Copies, ReportCopy{Name: c.Name, StartNS: c.Start, EndNS: c.End})
		}
	}
	return rep
}

// timeUnit is a unit for printing nanosecond times.
type timeUnit struct {
	name string
	ns   int64
}

var timeUnits = []timeUnit{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}, {"ns", 1}}

// unitFor picks the largest unit in which v is at least 1 (ns for v < 1 µs).
func unitFor(v int64) timeUnit {
	if v < 0 {
		v = -v
	}
	for _, u := range timeUnits {
		if v >= u.ns {
			return u
		}
	}
	return timeUnits[len(timeUnits)-1]
}

// formatIn writes v (ns) in unit u without losing precision: as many
// decimals as the unit needs, trailing zeros removed.
func formatIn(v int64, u timeUnit) string {
	if u.ns == 1 {
		return strconv.FormatInt(v, 10)
	}
	neg := v < 0
	if neg {
		v = -v
	}
	digits := len(strconv.FormatInt(u.ns, 10)) - 1
	s := fmt.Sprintf("%d.%0*d", v/u.ns, digits, v%u.ns)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if neg {
		s = "-" + s
	}
	return s
}

// FormatDuration writes a nanosecond time with the largest unit in which it
// is at least 1, exactly: 1500000 → "1.5 ms", 250 → "250 ns".
func FormatDuration(v int64) string {
	if v == 0 {
		return "0 s"
	}
	u := unitFor(v)
	return formatIn(v, u) + " " + u.name
}

// WriteTable writes one line per kernel and per copy, in launch order, with
// aligned columns (text left, numbers right); every time is in one unit,
// chosen by the makespan and named in the header. Columns: name, kind,
// stream (with priority), launch, start, end, response (end − launch), and
// the geometry of a kernel or the duration of a copy.
func WriteTable(w io.Writer, r Result) error {
	u := unitFor(r.Makespan)
	if r.Makespan == 0 {
		u = timeUnits[1]
	}
	f := func(v int64) string { return formatIn(v, u) }
	stream := func(i int) string {
		if i < 0 || i >= len(r.Streams) {
			return "?"
		}
		st := r.Streams[i]
		name := st.Name
		if st.Null {
			name += " (NULL)"
		}
		return name + ", " + st.Priority.String()
	}
	type row struct {
		seq   int
		cells []string
	}
	var rows []row
	for _, k := range r.Kernels {
		if !k.Issued {
			continue
		}
		g := fmt.Sprintf("%d x %d thr, %s/block", k.Kernel.Blocks, k.Kernel.ThreadsPerBlock, FormatDuration(k.Kernel.BlockTime))
		if k.Kernel.SharedMemoryPerBlock > 0 {
			g += fmt.Sprintf(", %d B smem", k.Kernel.SharedMemoryPerBlock)
		}
		if k.Kernel.RegistersPerThread > 0 {
			g += fmt.Sprintf(", %d reg/thr", k.Kernel.RegistersPerThread)
		}
		rows = append(rows, row{k.Seq, []string{k.Name, "kernel", stream(k.Stream), f(k.Launch), f(k.Start), f(k.Completion), f(k.Completion - k.Launch), g}})
	}
	for _, c := range r.Copies {
		if !c.Issued {
			continue
		}
		rows = append(rows, row{c.Seq, []string{c.Name, "copy", stream(c.Stream), f(c.Launch), f(c.Start), f(c.End), f(c.End - c.Launch), FormatDuration(c.End-c.Start) + " on the CE"}})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return a.seq - b.seq })
	header := []string{"name", "kind", "stream", "launch [" + u.name + "]", "start [" + u.name + "]", "end [" + u.name + "]", "response [" + u.name + "]", "geometry"}
	right := []bool{false, false, false, true, true, true, true, false}
	width := make([]int, len(header))
	all := append([][]string{header}, make([][]string, 0, len(rows))...)
	for _, rw := range rows {
		all = append(all, rw.cells)
	}
	for _, cells := range all {
		for i, c := range cells {
			cells[i] = tabSafe(c)
			width[i] = max(width[i], utf8.RuneCountInString(cells[i]))
		}
	}
	var b strings.Builder
	for _, cells := range all {
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if right[i] {
				b.WriteString(pad + c)
			} else if i < len(cells)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "makespan %s, %d blocks on %d SMs, %d events\n", FormatDuration(r.Makespan), len(r.Blocks), r.Device.SMs, r.Events)
	_, err := io.WriteString(w, b.String())
	return err
}

// tabSafe keeps user names from breaking the table.
func tabSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
