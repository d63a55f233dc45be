package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
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

// plainFlagError words the flag parser's errors plainly: `invalid argument
// "x" for "--workers" flag: strconv.ParseInt: …` becomes `--workers "x": not
// a whole number`, an element of a list flag (--point 1,x) is named alone,
// and a flag given twice says so.
func plainFlagError(_ *cobra.Command, err error) error {
	var invalid *pflag.InvalidValueError
	if !errors.As(err, &invalid) {
		return err
	}
	name := "--" + invalid.GetFlag().Name
	var twice *twiceError
	if errors.As(err, &twice) {
		return fmt.Errorf("%s given twice (%q, then %q): give it once", name, twice.first, invalid.GetValue())
	}
	var opt *optionError
	if errors.As(err, &opt) {
		return fmt.Errorf("%s: %w", name, opt.err)
	}
	var num *strconv.NumError
	if !errors.As(err, &num) {
		return err
	}
	what := map[string]string{"ParseInt": "a whole number", "Atoi": "a whole number", "ParseUint": "a whole number, 0 or more",
		"ParseFloat": "a number", "ParseBool": "true or false"}[num.Func]
	switch {
	case what == "":
		return err
	case errors.Is(num.Err, strconv.ErrRange):
		return fmt.Errorf("%s %s: too large; give %s", name, num.Num, what)
	}
	return fmt.Errorf("%s %q: not %s", name, num.Num, what)
}

// onceValue is the value of a flag that takes one value: a second one is
// an error (twiceError), where pflag would silently keep the last
// (--config a.yaml --config b.yaml read b.yaml).
type onceValue struct {
	pflag.Value
	given bool
}

// twiceError is a flag that takes one value given twice; first is the
// value given first.
type twiceError struct{ first string }

func (e *twiceError) Error() string {
	return fmt.Sprintf("given twice (first %q): give it once", e.first)
}

func (v *onceValue) Set(s string) error {
	if v.given {
		return &twiceError{first: v.String()}
	}
	v.given = true
	return v.Value.Set(s)
}

// onceFlags makes every flag of cmd and of its commands that takes one
// value refuse a second (onceValue); the flags that take a list (--model,
// --point) may be repeated, as their help says.
func onceFlags(cmd *cobra.Command) {
	once := func(f *pflag.Flag) {
		t := f.Value.Type()
		if _, done := f.Value.(*onceValue); done || strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") {
			return
		}
		f.Value = &onceValue{Value: f.Value}
	}
	cmd.Flags().VisitAll(once)
	cmd.PersistentFlags().VisitAll(once)
	for _, c := range cmd.Commands() {
		onceFlags(c)
	}
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
	onceFlags(root)
	return root
}
