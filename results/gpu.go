package results

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hetmap/hetmap/rta/gpusim"
)

// GPURTAKernel is one kernel's result of the block-level analysis.
type GPURTAKernel struct {
	Name         string `json:"name"`
	CompletionNs int64  `json:"completion_ns"`
	ResponseNs   int64  `json:"response_ns"`
	PeriodNs     int64  `json:"period_ns,omitempty"`
	Schedulable  *bool  `json:"schedulable,omitempty"`
}

// GPURTAReport is the result of `hetmap gpu rta`.
type GPURTAReport struct {
	Kernels []GPURTAKernel `json:"kernels"`
	// NotModelled lists what the kernel set uses and the analysis does not model.
	NotModelled []string `json:"not_modelled,omitempty"`
}

// WriteGPURTAJSON writes the report as indented JSON.
func WriteGPURTAJSON(w io.Writer, r GPURTAReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteGPURTAText writes one line per kernel in queue order: completion,
// response and, where the kernel has a period, whether it meets it.
func WriteGPURTAText(w io.Writer, r GPURTAReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kernel\tcompletion\tresponse\tperiod\tok\t")
	for _, k := range r.Kernels {
		period, ok := "-", "-"
		if k.PeriodNs > 0 {
			period = gpusim.FormatDuration(k.PeriodNs)
		}
		if k.Schedulable != nil {
			ok = map[bool]string{true: "yes", false: "NO"}[*k.Schedulable]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", k.Name, gpusim.FormatDuration(k.CompletionNs), gpusim.FormatDuration(k.ResponseNs), period, ok)
	}
	return tw.Flush()
}

// WriteGPUSimText writes the simulation: per kernel and copy its launch,
// start and completion, then per block its SM, start and end.
func WriteGPUSimText(w io.Writer, r gpusim.Result) error {
	if err := gpusim.WriteTable(w, r); err != nil {
		return err
	}
	if len(r.Blocks) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nBlocks (%d)\n", len(r.Blocks))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "block\tSM\tthreads\tstart\tend\t")
	for _, b := range r.Blocks {
		fmt.Fprintf(tw, "%s:%d\t%d\t%d\t%s\t%s\t\n", r.Kernels[b.Kernel].Name, b.Index, b.SM, b.Threads,
			gpusim.FormatDuration(b.Start), gpusim.FormatDuration(b.End))
	}
	return tw.Flush()
}
