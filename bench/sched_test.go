package bench

import (
	"sync"
	"testing"
)

// BenchmarkSpawnStorm creates goroutines in bursts and waits for them to
// exit. Bursts larger than a P's caches push goroutines and their stacks
// through the scheduler's global run queue and free lists, which sched.lock
// guards, and the new work wakes idle Ps (also under sched.lock). One op is
// one goroutine created, run and exited.
func BenchmarkSpawnStorm(b *testing.B) {
	const (
		spawners = 4
		burst    = 128
	)
	m := startMeter(b)
	spread(spawners, b.N, func(w, ops int) {
		var wg sync.WaitGroup
		for ops > 0 {
			n := min(burst, ops)
			ops -= n
			wg.Add(n)
			for i := 0; i < n; i++ {
				go func(i int) {
					sink.Add(spin(20 + i%8))
					wg.Done()
				}(i)
			}
			wg.Wait()
		}
	})
	m.stop()
}

// BenchmarkWakeIdle makes Ps go idle and busy over and over: coordinators
// each fan a small job out to their own group of parked workers and wait
// for all of them. Between rounds there is nothing to run, so Ps are put
// on the idle list and their threads sleep; each round takes them off
// again and wakes threads. Both directions go through sched.lock. One op is
// one round of one coordinator.
func BenchmarkWakeIdle(b *testing.B) {
	const (
		groups = 4
		fanout = 8
	)
	m := startMeter(b)
	spread(groups, b.N, func(w, ops int) {
		jobs := make([]chan int, fanout)
		done := make(chan uint64, fanout)
		for i := range jobs {
			jobs[i] = make(chan int)
			go func(in chan int) {
				for n := range in {
					done <- spin(n)
				}
			}(jobs[i])
		}
		for i := 0; i < ops; i++ {
			for _, j := range jobs {
				j <- 500
			}
			for range jobs {
				sink.Add(<-done)
			}
		}
		for _, j := range jobs {
			close(j)
		}
	})
	m.stop()
}
