package results

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hetmap/hetmap/configs"
)

// ModelJSON is the machine-readable summary of a loaded system.
type ModelJSON struct {
	Name        string              `json:"name"`
	Source      string              `json:"source"`
	Conventions configs.Conventions `json:"conventions"`
	Analysis    configs.Analysis    `json:"analysis"`
	Units       []UnitJSON          `json:"units"`
	Memory      configs.Memory      `json:"memory"`
	Tasks       []TaskJSON          `json:"tasks"`
	Runnables   []configs.Runnable  `json:"runnables"`
	Labels      []LabelJSON         `json:"labels"`
	Chains      []configs.Chain     `json:"chains"`
	TimeSlice   configs.SliceBounds `json:"time_slice"`
	Mapping     configs.Mapping     `json:"default_mapping"`
	Warnings    []configs.Warning   `json:"warnings"`
	// NotApplied lists the model's requirements that the deadline
	// convention sets aside (configs.Config.NotAppliedRequirements).
	NotApplied []NotAppliedJSON `json:"requirements_not_applied"`
}

// NotAppliedStatus is how every output names a requirement of the model
// that the deadline convention sets aside.
const NotAppliedStatus = "not applied (convention)"

// NotAppliedJSON is a response-time requirement of the model that is not
// checked: the deadline convention checks CheckedDeadlineNs instead
// (under conventions.deadlines: period, the period). AppliedBy names the
// option value that checks it, empty when none can (a requirement longer
// than the period).
type NotAppliedJSON struct {
	Task              string `json:"task"`
	RequirementNs     int64  `json:"requirement_ns"`
	CheckedDeadlineNs int64  `json:"checked_deadline_ns"`
	Status            string `json:"status"`
	AppliedBy         string `json:"applied_by"`
}

// NewNotAppliedJSON lists the requirements cfg's deadline convention sets
// aside (empty, not null, when none).
func NewNotAppliedJSON(cfg *configs.Config) []NotAppliedJSON {
	out := []NotAppliedJSON{}
	for _, na := range cfg.NotAppliedRequirements() {
		out = append(out, NotAppliedJSON{Task: na.Task, RequirementNs: na.Requirement.Nanoseconds(), CheckedDeadlineNs: na.Deadline.Nanoseconds(),
			Status: NotAppliedStatus, AppliedBy: na.AppliedBy})
	}
	return out
}

// NotAppliedLine says, for people, what is checked instead of a requirement
// the convention sets aside and which option checks it.
func NotAppliedLine(na configs.NotApplied, period configs.Duration) string {
	checked := "D = " + FormatDuration(na.Deadline)
	if na.Deadline == period {
		checked += " (its period)"
	}
	by := "set " + na.AppliedBy + " to apply it"
	if na.AppliedBy == "" {
		by = "no option applies it: it is longer than the period, and the analyses need D ≤ T"
	}
	return fmt.Sprintf("%s: requirement %s: %s; %s is checked; %s", na.Task, FormatDuration(na.Requirement), NotAppliedStatus, checked, by)
}

// writeNotApplied writes the requirements of the model that the deadline
// convention sets aside, one line each, under a heading; nothing when none.
func writeNotApplied(p *printer, cfg *configs.Config) {
	nas := cfg.NotAppliedRequirements()
	if len(nas) == 0 {
		return
	}
	p.f("\nRequirements of the model not applied (convention: deadlines = %s)\n", cfg.Conventions.Deadlines)
	for _, na := range nas {
		p.f("  %s\n", NotAppliedLine(na, cfg.System.Task(na.Task).Period))
	}
}

// UnitJSON is a processing unit in the summary.
type UnitJSON struct {
	configs.Unit
	FrequencyHz int64 `json:"frequency_hz"`
}

// LabelJSON is a label in the summary.
type LabelJSON struct {
	Name     string `json:"name"`
	Size     int64  `json:"size_bytes"`
	Lines    int64  `json:"lines"`
	Constant bool   `json:"constant"`
}

// TaskJSON is a task in the summary, with the derived facts a reviewer checks.
type TaskJSON struct {
	Name          string           `json:"name"`
	Kind          string           `json:"kind"` // periodic, offloading, gpu
	PeriodNs      int64            `json:"period_ns"`
	DeadlineNs    int64            `json:"deadline_ns"`
	RequirementNs int64            `json:"requirement_ns"`
	OffsetNs      int64            `json:"offset_ns,omitempty"`
	Runnables     []string         `json:"runnables"`
	WorstTicks    map[string]int64 `json:"worst_case_ticks"`
	AllowedUnits  []string         `json:"allowed_units"`
	Offload       *configs.Offload `json:"offload,omitempty"`
	TriggeredBy   string           `json:"triggered_by,omitempty"`
	ActivatedBy   string           `json:"activated_by,omitempty"`
	JitterNs      int64            `json:"jitter_ns,omitempty"`
	LET           bool             `json:"let,omitempty"`
}

func taskKind(t *configs.Task) string {
	switch {
	case t.IsGPUTask():
		return "gpu"
	case t.Offload != nil:
		return "offloading"
	}
	return "periodic"
}

// periodOf returns a task's period and deadline; a GPU task inherits them
// from its offloading task.
func periodOf(s *configs.System, t *configs.Task) (configs.Duration, configs.Duration) {
	if t.IsGPUTask() {
		if p := s.Task(t.TriggeredBy); p != nil {
			return p.Period, p.Deadline
		}
	}
	return t.Period, t.Deadline
}

// NewModelJSON builds the summary of a configuration.
func NewModelJSON(cfg *configs.Config) ModelJSON {
	s := cfg.System
	out := ModelJSON{Name: s.Name, Source: cfg.Source, Conventions: cfg.Conventions, Analysis: cfg.Analysis,
		Memory: s.Memory, Runnables: s.Runnables, Chains: s.Chains, TimeSlice: s.TimeSlice, Mapping: s.Mapping,
		Warnings: cfg.Warnings, NotApplied: NewNotAppliedJSON(cfg)}
	if out.Warnings == nil {
		out.Warnings = []configs.Warning{}
	}
	if out.Chains == nil {
		out.Chains = []configs.Chain{}
	}
	for _, u := range s.Units {
		out.Units = append(out.Units, UnitJSON{Unit: u, FrequencyHz: int64(u.Frequency)})
	}
	for _, l := range s.Labels {
		lines := (int64(l.Size) + int64(s.Memory.LineSize) - 1) / int64(s.Memory.LineSize)
		out.Labels = append(out.Labels, LabelJSON{Name: l.Name, Size: int64(l.Size), Lines: lines, Constant: l.Constant})
	}
	for i := range s.Tasks {
		t := &s.Tasks[i]
		period, deadline := periodOf(s, t)
		tj := TaskJSON{Name: t.Name, Kind: taskKind(t), PeriodNs: period.Nanoseconds(), DeadlineNs: deadline.Nanoseconds(),
			RequirementNs: t.Requirement.Nanoseconds(), OffsetNs: t.Offset.Nanoseconds(), Runnables: t.AllRunnables(),
			WorstTicks: map[string]int64{}, AllowedUnits: s.AllowedUnits(t), Offload: t.Offload, TriggeredBy: t.TriggeredBy,
			ActivatedBy: t.ActivatedBy, JitterNs: t.Jitter.Nanoseconds(), LET: t.LET}
		for _, k := range s.AllowedKinds(t) {
			tj.WorstTicks[k], _ = s.WorstTicks(t, k)
		}
		out.Tasks = append(out.Tasks, tj)
	}
	return out
}

// WriteModelJSON writes the summary as indented JSON.
func WriteModelJSON(w io.Writer, cfg *configs.Config) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewModelJSON(cfg))
}

// checkedUnder says which bound, and which communication where it is not
// the implicit one, requirement q of chain c is checked under
// (configs.ChainRequirement.CheckedUnder): "any-offset bound", or
// "LET communication, synchronous bound" for a chain of LET tasks.
func checkedUnder(q configs.ChainRequirement, c *configs.Chain, cfg *configs.Config) string {
	paradigm, bound := q.CheckedUnder(c, cfg.System, &cfg.Analysis)
	if paradigm == configs.ParadigmLET {
		return "LET communication, " + bound.String() + " bound"
	}
	return bound.String() + " bound"
}

// WriteModelText writes a readable summary of a configuration: units, memory
// model, tasks with period, deadline and worst-case ticks per unit kind,
// offloading, chains, the default mapping and the warnings.
func WriteModelText(w io.Writer, cfg *configs.Config) error {
	s := cfg.System
	p := &printer{w: w}
	name := s.Name
	if name == "" {
		name = "(unnamed)"
	}
	p.f("System %s\nsource: %s\nconventions: deadlines = %s; priorities = %s (the model's: %s)\nanalysis: GPU model %s, priorities %s\n",
		name, cfg.Source, cfg.Conventions.Deadlines, cfg.Conventions.Priorities, configs.PriorityConventionText(cfg.Conventions.Priorities), cfg.Analysis.GPUModel, cfg.Analysis.Priorities)

	p.f("\nUnits (%d)\n", len(s.Units))
	tw := p.table()
	fmt.Fprintln(tw, "  unit\tkind\ttype\tfrequency\tDRAM read / write\tresources")
	for _, u := range s.Units {
		res := ""
		if u.GPU != nil {
			g := u.GPU
			res = fmt.Sprintf("%d SMs × %d cores, %d threads, %s shared memory, %d registers per SM; %d copy engine(s)",
				g.SMs, g.CoresPerSM, g.ThreadsPerSM, FormatSize(g.SharedMemoryPerSM), g.RegistersPerSM, g.CopyEngines)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d / %d cycles\t%s\n", u.Name, u.Kind, u.Type, FormatFrequency(u.Frequency), u.ReadLatency, u.WriteLatency, res)
	}
	p.flush(tw)

	m := s.Memory
	p.f("\nMemory contention (per %s line)\n", FormatSize(m.LineSize))
	tw = p.table()
	fmt.Fprintln(tw, "  core kind\tbaseline\tper interfering core\tif the copy engine is active")
	for _, c := range m.Cores {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c.Kind, FormatDuration(c.Baseline), FormatDuration(c.PerCore), FormatDuration(c.CopyEngine))
	}
	fmt.Fprintf(tw, "  copy engine\t%s\t%s\t\n", FormatDuration(m.CopyEngine.Baseline), FormatDuration(m.CopyEngine.PerCore))
	p.flush(tw)

	kinds := s.Kinds()
	p.f("\nTasks (%d); worst-case ticks are upper bounds summed over the task's runnables, in cycles of the unit\n", len(s.Tasks))
	tw = p.table()
	fmt.Fprintf(tw, "  task\tperiod\tdeadline\trequirement")
	for _, k := range kinds {
		fmt.Fprintf(tw, "\tticks %s", k)
	}
	fmt.Fprintln(tw, "\toffloading")
	for i := range s.Tasks {
		t := &s.Tasks[i]
		period, deadline := periodOf(s, t)
		req := "none"
		if t.Requirement > 0 {
			req = FormatDuration(t.Requirement)
		}
		if t.IsGPUTask() {
			req = "-"
		} else if t.Requirement > 0 && t.Requirement != t.Deadline {
			req += " (not applied)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s", t.Name, FormatDuration(period), dash(deadline), req)
		for _, k := range kinds {
			if v, ok := s.WorstTicks(t, k); ok {
				fmt.Fprintf(tw, "\t%s", groupDigits(v))
			} else {
				fmt.Fprint(tw, "\t-")
			}
		}
		off := ""
		switch {
		case t.Offload != nil:
			mode := "synchronous (active wait)"
			if t.Offload.Wait == configs.WaitPassive {
				mode = "asynchronous (passive wait)"
			}
			off = "offloads " + t.Offload.GPUTask + ", " + mode
		case t.IsGPUTask():
			off = "GPU task of " + t.TriggeredBy
		case t.ActivatedBy != "":
			off = "activated by " + t.ActivatedBy + " (released within its response time)"
		}
		if t.Jitter > 0 {
			off = strings.TrimPrefix(off+"; release jitter "+FormatDuration(t.Jitter), "; ")
		}
		if t.LET {
			off = strings.TrimPrefix(off+"; LET", "; ")
		}
		fmt.Fprintf(tw, "\t%s\n", off)
	}
	p.flush(tw)

	writeNotApplied(p, cfg)

	p.f("\nRunnables %d, labels %d (%s in all)\n", len(s.Runnables), len(s.Labels), FormatSize(totalSize(s)))

	p.f("\nChains (%d)\n", len(s.Chains))
	if len(s.Chains) == 0 {
		p.f("  none\n")
	}
	tw = p.table()
	for _, c := range s.Chains {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Name, strings.Join(c.Tasks, " → "))
		for _, q := range c.Max {
			d := q.WithDefaults()
			fmt.Fprintf(tw, "  \trequires %s ≤ %s (%s)%s\n", d.Metric, FormatDuration(d.Limit), checkedUnder(q, &c, cfg), nameSuffix(q.Name))
		}
	}
	p.flush(tw)

	p.f("\nDefault mapping (the model's own, resolved by the conventions)\n")
	tw = p.table()
	for _, u := range s.Units {
		var names []string
		for _, pl := range s.Mapping.Units {
			if pl.Unit == u.Name {
				n := pl.Task
				if pl.Priority != nil {
					n += " (priority " + strconv.Itoa(*pl.Priority) + ")"
				}
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			names = []string{"-"}
		}
		fmt.Fprintf(tw, "  %s\t%s\n", u.Name, strings.Join(names, ", "))
	}
	p.flush(tw)
	if len(s.Mapping.TimeSlices) > 0 {
		var parts []string
		for _, ts := range s.Mapping.TimeSlices {
			parts = append(parts, ts.Task+" "+FormatDuration(ts.Slice))
		}
		p.f("  time slices: %s (bounds %s to %s)\n", strings.Join(parts, ", "), FormatDuration(s.TimeSlice.Min), FormatDuration(s.TimeSlice.Max))
	}

	p.f("\nWarnings (%d)\n", len(cfg.Warnings))
	for _, wn := range cfg.Warnings {
		p.f("  %s\n", wn)
	}
	return p.err
}

func nameSuffix(name string) string {
	if name == "" {
		return ""
	}
	return ": " + name
}

func dash(d configs.Duration) string {
	if d == 0 {
		return "none"
	}
	return FormatDuration(d)
}

func totalSize(s *configs.System) configs.Size {
	var t configs.Size
	for _, l := range s.Labels {
		t += l.Size
	}
	return t
}

// groupDigits writes 12345678 as 12 345 678, which is how a reviewer reads ticks.
func groupDigits(v int64) string {
	s := strconv.FormatInt(v, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *printer) table() *tabwriter.Writer { return tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0) }

func (p *printer) flush(tw *tabwriter.Writer) {
	if err := tw.Flush(); err != nil && p.err == nil {
		p.err = err
	}
}
