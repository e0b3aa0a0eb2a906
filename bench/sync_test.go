package bench

import (
	"sync"
	"testing"
)

// BenchmarkMutexParked has many goroutines share one sync.Mutex with a
// critical section long enough that most of them give up spinning and
// park. Parking and waking go through the runtime's semaphore table, whose
// buckets are guarded by runtime locks (semaRoot.lock). One op is one
// Lock/Unlock pair plus a little work outside the lock.
func BenchmarkMutexParked(b *testing.B) {
	const workers = 32
	var (
		mu     sync.Mutex
		shared uint64
	)
	m := startMeter(b)
	spread(workers, b.N, func(w, ops int) {
		for i := 0; i < ops; i++ {
			mu.Lock()
			shared += spin(50)
			mu.Unlock()
			spin(100)
		}
	})
	m.stop()
	sink.Store(shared)
}

// BenchmarkCondBarrier runs rounds of a barrier built on sync.Cond: the
// last goroutine to arrive broadcasts, the others wait. Waiting parks on
// the Cond's notify list (guarded by a runtime lock), and each broadcast
// makes every waiter runnable at once, which then all queue on the
// sync.Mutex, whose waiters park in the semaphore table. One op is one
// round of the barrier.
func BenchmarkCondBarrier(b *testing.B) {
	const parties = 16
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		arrived int
		gen     uint64
	)
	rounds := b.N
	m := startMeter(b)
	var wg sync.WaitGroup
	wg.Add(parties)
	for p := 0; p < parties; p++ {
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				spin(200)
				mu.Lock()
				if arrived++; arrived == parties {
					arrived = 0
					gen++
					cond.Broadcast()
				} else {
					for g := gen; g == gen; {
						cond.Wait()
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	m.stop()
}
