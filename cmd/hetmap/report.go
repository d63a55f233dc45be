package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newReportCmd is replaced by the report implementation (issue 6).
func newReportCmd() *cobra.Command {
	return &cobra.Command{Use: "report DIR", Short: "Write report.html for an optimize run folder", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return errors.New("not available yet") }}
}
