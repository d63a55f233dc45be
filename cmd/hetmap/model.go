package main

import (
	"github.com/hetmap/hetmap/results"
	"github.com/spf13/cobra"
)

func newModelCmd() *cobra.Command {
	var sf systemFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Show a summary of the loaded system",
		Long: `Show the loaded system: units, memory-contention model, tasks with period,
deadline and worst-case ticks per unit kind, offloading, chains, the model's own
mapping and the warnings raised while reading it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := sf.load()
			if err != nil {
				return err
			}
			if asJSON {
				return results.WriteModelJSON(cmd.OutOrStdout(), cfg)
			}
			return results.WriteModelText(cmd.OutOrStdout(), cfg)
		},
	}
	sf.add(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON instead of text")
	return cmd
}
