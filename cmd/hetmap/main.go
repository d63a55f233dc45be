// Command hetmap finds where the tasks of a real-time application should run
// on a heterogeneous computer (CPU clusters plus a GPU) and proves how fast
// the result is. Run `hetmap --help` for the commands.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
