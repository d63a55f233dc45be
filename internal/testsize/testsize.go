// Package testsize sizes the tests that draw many random cases or run long
// searches. Under go test -short they take their reduced size, so that the
// short run stays fast; under the race detector (go test -race, which makes
// the code 5 to 20 times slower) they take it too, so that every package's
// race run fits go test's 10-minute limit on 2 cores. The race run is there
// to find data races, which the reduced sizes exercise in the same code as
// the full ones; the full sizes are the plain go test's, which CI runs too.
package testsize

import "testing"

// Race reports whether the test binary was built with the race detector.
const Race = race

// Reduced reports whether a test takes its reduced size: under -short or
// under the race detector.
func Reduced() bool { return testing.Short() || Race }
