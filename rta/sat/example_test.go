package sat_test

import (
	"fmt"
	"math"

	"github.com/hetmap/hetmap/rta/sat"
)

// A demand bound η·C that would overflow saturates at math.MaxInt64, "no
// bound", instead of wrapping around to a negative time.
func Example() {
	const jobs, wcet = 1 << 40, 1 << 30 // 2^70 does not fit
	fmt.Println(sat.Mul(jobs, wcet) == math.MaxInt64)
	fmt.Println(sat.Add(sat.Mul(3, 1_000), 500))
	fmt.Println(sat.Add(math.MaxInt64, 1) == math.MaxInt64)
	fmt.Println(sat.Sub(math.MinInt64, 1) == math.MinInt64)
	fmt.Println(sat.MulDiv(1<<62, 4, 3)) // ⌊2^64/3⌋, though 2^64 does not fit
	fmt.Println(sat.MulDiv(-7, 3, 2))    // ⌊−10.5⌋
	// Output:
	// true
	// 3500
	// true
	// true
	// 6148914691236517205
	// -11
}
