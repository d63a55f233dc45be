package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newSweepCmd is replaced by the sweep implementation (issue 6).
func newSweepCmd() *cobra.Command {
	return &cobra.Command{Use: "sweep FILE.yaml", Short: "Run a batch of searches over varied parameters", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not available yet") }}
}
