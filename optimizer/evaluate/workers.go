package evaluate

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// OnWorkers calls do(w, i) for every i in [0, n) on at most workers
// goroutines (0 or less: the number of CPUs), w being the goroutine's own
// state, made by newState once per goroutine (an Evaluator clone: an
// Evaluator serves one goroutine at a time). An index is handed out only
// while stop (nil: never) reports false. It returns when every goroutine
// has.
func OnWorkers[W any](workers, n int, newState func() W, stop func() bool, do func(w W, i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, n)) {
		wg.Go(func() {
			w := newState()
			for stop == nil || !stop() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				do(w, i)
			}
		})
	}
	wg.Wait()
}
