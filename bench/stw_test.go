package bench

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stwGap is the time between two stops of the world in
// BenchmarkStopTheWorld.
const stwGap = 500 * time.Microsecond

// BenchmarkStopTheWorld stops the world over and over while a goroutine
// computes on every P but the benchmark's own. Unlike the other
// benchmarks, it runs one goroutine per P: more would queue the benchmark's
// goroutine behind them, and fewer would leave Ps idle, which stop at
// once. runtime.ReadMemStats stops the world for a moment: every running
// goroutine is preempted and its P stops, each taking sched.lock, all at
// once. So the time to stop (p50-ns, p99-ns and max-ns, from the runtime's
// /sched/pauses/stopping/other:seconds) shows how fast sched.lock passes
// between Ms that each have one small thing to do under it. One op is one
// ReadMemStats and stwGap of computing.
func BenchmarkStopTheWorld(b *testing.B) {
	workers := runtime.GOMAXPROCS(0) - 1
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(workers)
	for i := 0; i < workers; i++ {
		go func() {
			defer wg.Done()
			for !stop.Load() {
				sink.Add(spin(200))
			}
		}()
	}
	before, err := readStopping()
	if err != nil {
		b.Fatal(err)
	}
	var ms runtime.MemStats
	m := startMeter(b)
	for i := 0; i < b.N; i++ {
		runtime.ReadMemStats(&ms)
		// Let every P get back to its goroutine before the next stop,
		// which otherwise finds most of them still idle. A sleep would
		// give this goroutine's P away, and with every P busy it would
		// wait for preemption to get one back.
		for t0 := time.Now(); time.Since(t0) < stwGap; {
			sink.Add(spin(50))
		}
	}
	m.stop()
	stop.Store(true)
	wg.Wait()
	reportStopping(b, before)
}
