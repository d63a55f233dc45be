// Command growth fits how the cost of a benchmark grows with the size of
// its input: it reads `go test -bench` output on standard input, takes
// the benchmarks whose names carry a size parameter (tasks=N by default),
// groups them by the rest of the name, and fits, per group, the exponent b
// of ns/op ≈ a·N^b by least squares on log ns/op against log N (gonum's
// stat.LinearRegression), over the sizes at or above -from. Repeated runs
// of a benchmark (-count) are averaged first, in logs.
//
//	go test ./optimizer/evaluate -run XXX -bench EvaluateScale -count 6 | go run ./internal/growth
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hetmap/hetmap/internal/growth/fit"
)

func main() {
	param := flag.String("param", "tasks", "the name parameter that gives the size")
	from := flag.Float64("from", 60, "the least size the fit uses")
	drop := flag.String("drop", "cores", "comma-separated name parameters that vary with the size and do not name a group")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *param, strings.Split(*drop, ","), *from); err != nil {
		fmt.Fprintln(os.Stderr, "growth:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer, param string, drop []string, from float64) error {
	groups, err := fit.Read(bufio.NewScanner(in), param, drop...)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return fmt.Errorf("no benchmark with a %s= parameter in the input", param)
	}
	fmt.Fprintf(out, "%-40s %8s %12s  %s\n", "benchmark", "exponent", "sizes", "ns/op by size")
	for _, g := range groups {
		b, n, err := g.Exponent(from)
		if err != nil {
			fmt.Fprintf(out, "%-40s %8s %12s  %s\n", g.Name, "–", "", err)
			continue
		}
		fmt.Fprintf(out, "%-40s %8.2f %12d  %s\n", g.Name, b, n, g.Points())
	}
	return nil
}
