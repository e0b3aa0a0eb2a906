package bench

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// manyM has ms goroutines, each locked to a thread of its own, block in
// read(2) on a pipe, and then wakes them all at once. Each round:
//
//   - Every goroutine says it is about to block and calls read. Its P
//     stays with the blocked thread until sysmon retakes it (after 20µs
//     or more) and runs the next goroutine, so the goroutines enter at
//     the pace of sysmon and of GOMAXPROCS, not of ms.
//   - Once all have said so, a releaser writes one byte per goroutine,
//     which wakes every blocked thread. None of them has its P any more,
//     so each takes sched.lock in exitsyscall, to get an idle P or to put
//     its goroutine on the global run queue and sleep: ms threads want
//     sched.lock at the same moment.
//
// One op is one goroutine's blocking read and wakeup, whatever ms is, so
// time and CPU per op compare across ms. The latency of an op runs from
// the release to the goroutine running again: the herd's way through
// sched.lock and then the wait for a P, which the last of ms goroutines
// shares with ms-1 others, so it grows with ms.
func manyM(b *testing.B, ms int) {
	var pipes [2]herdPipe
	for i := range pipes {
		p, err := newHerdPipe()
		if err != nil {
			b.Skip(err)
		}
		defer p.close()
		pipes[i] = p
	}
	// Round r has every goroutine with more than r ops in it, as spread
	// divides them: ms for the first b.N/ms rounds, then b.N%ms.
	rounds := (b.N + ms - 1) / ms
	in := func(r int) int {
		if r < b.N/ms {
			return ms
		}
		return b.N % ms
	}
	// announced[r%2] counts the goroutines about to block in round r; the
	// releaser clears it once it has released round r, before anyone can
	// reach round r+2.
	var announced [2]atomic.Int32
	released := make([]int64, rounds) // nanotime of each release, for latency
	all := make(chan struct{}, 1)
	hists := make([]latencyHist, ms)
	errs := make(chan error, ms+1)
	epoch := time.Now()

	m := startMeter(b)
	go func() {
		for r := 0; r < rounds; r++ {
			<-all
			announced[r%2].Store(0)
			atomic.StoreInt64(&released[r], int64(time.Since(epoch)))
			if err := pipes[r%2].release(in(r)); err != nil {
				errs <- err
				return
			}
		}
	}()
	spread(ms, b.N, func(w, ops int) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		h := &hists[w]
		for r := 0; r < ops; r++ {
			if int(announced[r%2].Add(1)) == in(r) {
				all <- struct{}{}
			}
			if err := pipes[r%2].wait(); err != nil {
				errs <- err
				return
			}
			h.record(time.Since(epoch) - time.Duration(atomic.LoadInt64(&released[r])))
		}
	})
	m.stop()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	var lat latencyHist
	for i := range hists {
		lat.merge(&hists[i])
	}
	lat.report(b)
}

func BenchmarkManyM8(b *testing.B)   { manyM(b, 8) }
func BenchmarkManyM64(b *testing.B)  { manyM(b, 64) }
func BenchmarkManyM256(b *testing.B) { manyM(b, 256) }
