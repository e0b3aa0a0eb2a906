package bench

import "sync"

// spread runs fn on g goroutines and waits for all of them. The n
// operations of a benchmark run are divided between the goroutines up
// front, as evenly as possible (the first n%g get one extra), so that the
// split itself needs no shared counter that would add contention of its
// own. Worker w is told its index and how many operations it owns.
func spread(g, n int, fn func(w, ops int)) {
	if g < 1 {
		panic("spread: need at least one goroutine")
	}
	var wg sync.WaitGroup
	wg.Add(g)
	for w := 0; w < g; w++ {
		ops := n / g
		if w < n%g {
			ops++
		}
		go func(w, ops int) {
			defer wg.Done()
			fn(w, ops)
		}(w, ops)
	}
	wg.Wait()
}

// spin burns a little CPU without touching shared memory, to stand in for
// the work a real program does between synchronisation points.
//
//go:noinline
func spin(iters int) uint64 {
	x := uint64(iters) | 1
	for i := 0; i < iters; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
