package main

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/compare"
	"github.com/spf13/cobra"
)

func newCompareCmd() *cobra.Command {
	var sf systemFlags
	var mapping, htmlOut string
	var noHTML bool
	cmd := &cobra.Command{
		Use:   "compare RUN-A [RUN-B | --mapping FILE.yaml|default [--config FILE | --model FILE…]] [--html FILE]",
		Short: "Compare two designs: two run folders, or a run folder and one mapping",
		Long: `Compare two designs for a review: two folders that hetmap optimize wrote, or a run
folder and one mapping of a configuration or model (--mapping, with --config or --model;
the built-in model without either). It says what differs between the two configurations
(units, tasks, periods, deadlines, runnables, analysis, convention and search options),
which points of each side dominate which of the other on the objectives both minimise,
and per objective and for the margin on execution demand the best value of each side and
the change (B − A). The margins are recomputed from every point's mapping. Two runs of
different systems compare on what they share. --html FILE also writes the comparison to
FILE, a self-contained page with both fronts plotted; without it nothing is written.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if noHTML && htmlOut != "" {
				return errors.New("--html and --no-html: give --html FILE for a page, or neither")
			}
			a, err := compare.ReadRun("A", args[0])
			if err != nil {
				return err
			}
			var b *compare.Side
			switch {
			case len(args) == 2 && (mapping != "" || sf.config != "" || len(sf.model) > 0):
				return errors.New("give a second run folder, or --mapping (with --config or --model), not both")
			case len(args) == 2:
				if b, err = compare.ReadRun("B", args[1]); err != nil {
					return err
				}
			case mapping == "":
				return errors.New("give a second run folder, or --mapping FILE.yaml (or default) for a mapping of --config or --model")
			default:
				cfg, err := sf.load()
				if err != nil {
					return err
				}
				var m configs.Mapping
				source := mapping
				if mapping == "default" {
					if err := ownMappingComplete(cfg.System); err != nil {
						return err
					}
					m, _ = cfg.OwnMapping()
					source = "the model's own mapping"
				} else {
					mp, err := configs.LoadMappingFile(mapping)
					if err != nil {
						return err
					}
					m = *mp
				}
				if cfg.Source != "" {
					source += " of " + cfg.Source
				}
				if b, err = compare.MappingSide("B", source, cfg, m); err != nil {
					return err
				}
			}
			c := compare.New(a, b)
			if err := compare.WriteText(cmd.OutOrStdout(), c); err != nil {
				return err
			}
			if htmlOut == "" {
				return nil
			}
			var buf bytes.Buffer
			if err := compare.WriteHTML(&buf, c); err != nil {
				return err
			}
			if err := results.WriteFileAtomic(htmlOut, buf.Bytes()); err != nil {
				return fmt.Errorf("cannot write %s: %w", htmlOut, err)
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "\nWritten: %s\n", htmlOut)
			return err
		},
	}
	sf.add(cmd)
	cmd.Flags().StringVar(&mapping, "mapping", "", "the second side: a mapping file (or default, the model's own mapping) of --config or --model")
	cmd.Flags().StringVar(&htmlOut, "html", "", "also write the comparison to this page (a self-contained HTML file)")
	// compare wrote compare.html into the working directory unless told
	// --no-html; it writes a page only when --html names one now.
	cmd.Flags().BoolVar(&noHTML, "no-html", false, "write no page (what compare does without --html)")
	_ = cmd.Flags().MarkDeprecated("no-html", "compare writes a page only with --html FILE")
	return cmd
}
