package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK      = 0
	exitProblem = 1 // the work ran and found a problem the user asked about
	exitInput   = 2 // bad input or usage, or output that cannot be written
)

// problemError marks a finding (a missed deadline, no feasible mapping): the
// command ran, its output is complete, and the exit code is 1.
type problemError struct{ msg string }

func (e *problemError) Error() string { return e.msg }

// version is set by the build (-ldflags "-X main.version=…").
var version = "dev"

func run(args []string, stdout, stderr io.Writer) int {
	if err := applyEnvironment(); err != nil {
		fmt.Fprintln(stderr, "hetmap:", err)
		return exitInput
	}
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ie *interruptedError
	if errors.As(err, &ie) {
		fmt.Fprintln(stderr, "hetmap:", ie.msg)
		return exitInterrupted
	}
	var pe *problemError
	if errors.As(err, &pe) {
		if pe.msg != "" {
			fmt.Fprintln(stderr, "hetmap:", pe.msg)
		}
		return exitProblem
	}
	fmt.Fprintln(stderr, "hetmap:", err)
	return exitInput
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "hetmap",
		Short: "Map real-time tasks onto CPU cores and a GPU, and prove their response times",
		Long: `hetmap reads a system (an Amalthea model or a YAML configuration; the WATERS 2019
challenge model on the Jetson TX2 is built in), evaluates mappings of its tasks to
CPU cores and the GPU with a memory-contention-aware response-time analysis, and
searches for the mappings that are Pareto-optimal for the end-to-end latencies of
its task chains.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newModelCmd(), newImportCmd(), newAnalyzeCmd(), newOptimizeCmd(), newReportCmd(), newSweepCmd(), newGPUCmd(), newExportCmd())
	return root
}
