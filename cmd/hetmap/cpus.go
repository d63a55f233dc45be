package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"
)

func runtimeCPUs() int { return runtime.GOMAXPROCS(0) }

// One rule for the numbers of workers, flags and configuration keys alike:
// 0 means the default where the documentation says so, a negative number
// is an error, and more workers than CPUs are capped with a note (they
// would only take turns).

// checkWorkersFlag refuses a negative --workers.
func checkWorkersFlag(cmd *cobra.Command, name string, n int) error {
	if cmd.Flags().Changed(name) && n < 0 {
		return fmt.Errorf("--%s %d: must not be negative (0 means the number of CPUs)", name, n)
	}
	return nil
}

// capWorkers returns the number of evaluation workers a search uses: the
// flag when positive, else the configuration's search.workers (0 leaves the
// choice to the search: the number of CPUs), capped at the number of CPUs
// with a note on stderr.
func capWorkers(stderr io.Writer, flag, configured int) int {
	n, what := flag, "--workers"
	if n <= 0 {
		n, what = configured, "search.workers"
	}
	if cpus := runtimeCPUs(); n > cpus {
		fmt.Fprintf(stderr, "note: %s %d is more than the %d CPUs; using %d\n", what, n, cpus, cpus)
		n = cpus
	}
	return n
}

// errSeedZero refuses a seed of 0, which a configuration would read as the
// default seed 1.
func errSeedZero(what string) error {
	return fmt.Errorf("%s 0: 0 is not a seed hetmap takes (a configuration reads it as the default, 1); give another", what)
}
