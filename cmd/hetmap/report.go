package main

import (
	"fmt"
	"path/filepath"

	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/report"
	"github.com/spf13/cobra"
)

func newReportCmd() *cobra.Command {
	var points []int
	cmd := &cobra.Command{
		Use:   "report DIR",
		Short: "Write report.html (or one point's page) for an optimize run folder",
		Long: `Write DIR/report.html, the report of the optimize run in DIR, from the folder's
files alone: config.yaml, front.json, manifest.json and the evaluation files of the
points it details, mappings/point-N.json (the timelines re-evaluate their mappings
with this hetmap). hetmap optimize writes the same report into every run folder;
this command writes it again, byte for byte, for example after an upgrade. Folders
of results formats 1 and 2 (hetmap before format 3) are read too.

The report is one self-contained HTML page (inline SVG plots and CSS, nothing
fetched): the system; the Pareto front as a scatter matrix (2 to 4 objectives)
or a shaded table (more), with the points numbered, or, when no mapping is
feasible, the least-violating mappings with what they miss; a table of every
point; for the first 5 points their units, utilisation, response times with
their terms, the contention of the response windows, a simulated timeline of one
window of the cores, the copy engine and the GPU, and every chain's latency
split into its hops; the run's manifest.

--point N writes the same details of any other point as the page
DIR/points/point-N.html instead (of a least-violating mapping when no mapping
is feasible); hetmap analyze --config DIR/config.yaml --mapping
DIR/mappings/point-N.yaml --json gives its full evaluation.

Files are written under a temporary name and renamed, so a failure leaves
no partial page. Exit code 2 when DIR is not a readable run folder.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			for _, n := range points {
				if n < 1 {
					return fmt.Errorf("--point %d: points are numbered from 1, as in the report's table", n)
				}
			}
			if len(points) > 0 {
				for _, n := range points {
					path, err := report.WritePointPage(dir, n)
					if err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", path)
				}
				return nil
			}
			if err := report.WriteFile(dir, nil); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", filepath.Join(dir, results.ReportFile))
			return nil
		},
	}
	cmd.Flags().IntSliceVar(&points, "point", nil, "write the page of these points (points/point-N.html) instead of report.html; repeat or separate with commas")
	return cmd
}
