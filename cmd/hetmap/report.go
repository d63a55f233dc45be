package main

import (
	"fmt"
	"path/filepath"

	"github.com/hetmap/hetmap/results"
	"github.com/spf13/cobra"
)

func newReportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "report DIR",
		Short: "Write report.html for an optimize run folder",
		Long: `Write DIR/report.html, the report of the optimize run in DIR, from the folder's
files alone: config.yaml, front.json and manifest.json (the timelines re-evaluate
the mappings of front.json with this hetmap). hetmap optimize writes the same
report into every run folder; this command writes it again, for example after an
upgrade.

The report is one self-contained HTML page (inline SVG plots and CSS, nothing
fetched): the system; the Pareto front as a scatter matrix (2 to 4 objectives)
or in parallel coordinates (more), with the points numbered, or, when no mapping
is feasible, the least-violating mappings with what they miss; per mapping its
units, utilisation, response times with their terms, a simulated timeline of one
window of the cores, the copy engine and the GPU, and every chain's latency
split into its hops; the run's manifest.

The file is written under a temporary name and renamed, so a failure leaves
no partial report. Exit code 2 when DIR is not a readable run folder.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := results.WriteReportFile(dir); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", filepath.Join(dir, results.ReportFile))
			return nil
		},
	}
}
