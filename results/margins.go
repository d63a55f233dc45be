package results

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// MarginJSON is one margin (evaluate.Margin) in analyze --json and
// front.json: the factor (null when no factor makes the mapping hold),
// what the factor means (status: "found", the mapping fails 0.1 % above
// it; "at least", it holds at the largest factor tried, 1000; "none") and
// what fails first above it.
type MarginJSON struct {
	Kind           string   `json:"kind,omitempty"`
	Task           string   `json:"task,omitempty"`
	ExecutionScale *float64 `json:"execution_scale"`
	Status         string   `json:"status"`
	Binding        string   `json:"binding,omitempty"`
	// Consequences say what follows from what binds there, in order
	// (evaluate.Margin.Consequences): "so the GPU response of Detection is
	// withdrawn", "so OS_Overhead has no bound".
	Consequences []string `json:"consequences,omitempty"`
	// SlackNs is D − R of a task whose R is a bound (null otherwise).
	SlackNs *int64 `json:"slack_ns,omitempty"`
}

// MarginsJSON is evaluate.Margins: every task's execution demand scaled
// together, per kind of unit, per task.
type MarginsJSON struct {
	MarginJSON
	Kinds []MarginJSON `json:"kinds"`
	Tasks []MarginJSON `json:"tasks,omitempty"`
	// TasksLeftOut says why there is no margin per task, where there is
	// none though the kinds' are there (analyze --margins kinds; a run's
	// point file of a system of more than optimizer.MaxTaskMarginTasks
	// running tasks).
	TasksLeftOut string `json:"tasks_left_out,omitempty"`
}

func marginJSON(m evaluate.Margin) MarginJSON {
	j := MarginJSON{Status: marginStatus(m.Status), Binding: m.Binding, Consequences: m.Consequences}
	if m.Status != evaluate.MarginNone {
		f := m.Factor()
		j.ExecutionScale = &f
	}
	return j
}

func marginStatus(s evaluate.MarginStatus) string {
	switch s {
	case evaluate.MarginAtLeast:
		return "at least"
	case evaluate.MarginNone:
		return "none"
	}
	return "found"
}

// NewMarginsJSON converts a result's margins (nil when none were
// computed).
func NewMarginsJSON(m *evaluate.Margins) *MarginsJSON {
	if m == nil {
		return nil
	}
	out := &MarginsJSON{MarginJSON: marginJSON(m.ExecutionScale), Kinds: []MarginJSON{}}
	if m.TasksLeftOut {
		out.TasksLeftOut = fmt.Sprintf("not computed (hetmap analyze --margins kinds, or a run's point file of a system of more than %d running tasks); hetmap analyze --margins all gives them",
			optimizer.MaxTaskMarginTasks)
	}
	for _, k := range m.Kinds {
		j := marginJSON(k.Margin)
		j.Kind = k.Kind
		out.Kinds = append(out.Kinds, j)
	}
	for _, t := range m.Tasks {
		j := marginJSON(t.Margin)
		j.Task = t.Name
		if t.Bounded {
			s := ns(t.Slack)
			j.SlackNs = &s
		}
		out.Tasks = append(out.Tasks, j)
	}
	return out
}

// writeMarginTable writes a result's margins for people.
func writeMarginTable(p *printer, r *evaluate.Analysis) {
	m := r.Margins
	if m == nil {
		return
	}
	p.f("\nMargins: the largest factor on execution demand (CPU compute and GPU kernel time; memory unchanged)\n")
	p.f("for which every deadline and chain latency requirement holds, with these priorities; 0.1 %% resolution,\n")
	p.f("rounded down (re-check one with analysis.execution_scale); what binds fails just above it. Below ×1 the\n")
	p.f("demand must shrink to that for the mapping to hold; none: no factor from ×0.001 up makes it hold.\n")
	tw := p.table()
	fmt.Fprintln(tw, "  scaled\tmargin\tbinds")
	fmt.Fprintf(tw, "  every task\t%s\t%s\n", m.ExecutionScale, bindingWords(m.ExecutionScale))
	for _, k := range m.Kinds {
		fmt.Fprintf(tw, "  tasks on %s units\t%s\t%s\n", k.Kind, k.Margin, bindingWords(k.Margin))
	}
	p.flush(tw)
	if len(m.Tasks) == 0 {
		return
	}
	p.f("\nPer task: its slack (D − R) and its margin scaled alone, with the task whose own test fails just above it\n")
	tw = p.table()
	fmt.Fprintln(tw, "  task\tslack\tmargin\tbinds")
	for _, t := range m.Tasks {
		slack := "no bound"
		if t.Bounded {
			slack = formatSlack(t.Slack)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", t.Name, slack, t.Margin, bindingWords(t.Margin))
	}
	p.flush(tw)
}

// bindingWords writes what binds a margin with what follows from it:
// "task PRE_SFM_gpu_POST misses its deadline; so the GPU response of
// Detection is withdrawn; so OS_Overhead has no bound".
func bindingWords(m evaluate.Margin) string {
	return strings.Join(append([]string{m.Binding}, m.Consequences...), "; ")
}

// formatSlack writes D − R, negative for a miss.
func formatSlack(ps int64) string {
	if ps < 0 {
		return "−" + FormatDuration(configs.Duration(-ps))
	}
	return FormatDuration(configs.Duration(ps))
}

// MarginFactor writes the margin objective (minimised as the negative of
// the factor) as the factor: "×1.019".
func MarginFactor(objective float64) string {
	return "×" + strconv.FormatFloat(-objective, 'f', 3, 64)
}
