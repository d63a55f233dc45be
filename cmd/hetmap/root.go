package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagWants says what a string flag takes, for messages: the usage's
// first words.
func flagWants(f *pflag.Flag) string {
	u := f.Usage
	if i := strings.IndexAny(u, "(;:"); i > 0 {
		u = u[:i]
	}
	return "a value (" + strings.TrimSpace(u) + ")"
}

var flagParseError = regexp.MustCompile(`^invalid argument "(.*)" for "(.*?)" flag: strconv\.Parse(Int|Uint|Float|Bool): parsing ".*": (invalid syntax|value out of range)$`)

// plainFlagError words the flag parser's errors plainly: `invalid argument
// "x" for "--workers" flag: strconv.ParseInt: …` becomes `--workers "x": not
// a whole number`.
func plainFlagError(_ *cobra.Command, err error) error {
	m := flagParseError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	name := m[2]
	if i := strings.LastIndex(name, "--"); i >= 0 {
		name = name[i:]
	}
	what := map[string]string{"Int": "a whole number", "Uint": "a whole number, 0 or more", "Float": "a number", "Bool": "true or false"}[m[3]]
	if m[4] == "value out of range" {
		return fmt.Errorf("%s %s: too large; give %s", name, m[1], what)
	}
	return fmt.Errorf("%s %q: not %s", name, m[1], what)
}

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
	stderr = &lockedWriter{w: stderr}
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
	root.SetFlagErrorFunc(plainFlagError)
	// A string flag given as "" would silently mean its default: refuse it.
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		var err error
		cmd.Flags().Visit(func(f *pflag.Flag) {
			if err != nil {
				return
			}
			switch f.Value.Type() {
			case "string", "stringArray", "stringSlice":
				if v := f.Value.String(); v == "" || v == "[]" || strings.Contains(v, `""`) {
					err = fmt.Errorf("--%s \"\": an empty value; give %s, or leave the flag out for its default", f.Name, flagWants(f))
				}
			}
		})
		return err
	}
	root.AddCommand(newModelCmd(), newImportCmd(), newAnalyzeCmd(), newOptimizeCmd(), newReportCmd(), newSweepCmd(), newGPUCmd(), newExportCmd(), newCompareCmd())
	return root
}
