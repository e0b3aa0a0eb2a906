package bench

import "testing"

// BenchmarkLargeAlloc allocates large objects (over 32 KiB, so each gets
// its own span straight from the heap) from several goroutines at once.
// Most sizes are also too big for a P's page cache, so the allocation,
// and freeing the span again during sweeping, take the heap lock
// (mheap.lock). Each goroutine keeps a few recent objects alive so that
// the heap has something to collect. One op is one allocation.
func BenchmarkLargeAlloc(b *testing.B) {
	const (
		workers = 8
		keep    = 8
	)
	sizes := [...]int{48 << 10, 144 << 10, 288 << 10, 544 << 10}
	m := startMeter(b)
	spread(workers, b.N, func(w, ops int) {
		var live [keep][]byte
		for i := 0; i < ops; i++ {
			p := make([]byte, sizes[(i+w)%len(sizes)])
			p[len(p)-1] = byte(i)
			live[i%keep] = p
		}
		var sum uint64
		for _, p := range live {
			if len(p) > 0 {
				sum += uint64(p[len(p)-1])
			}
		}
		sink.Add(sum)
	})
	m.stop()
}
