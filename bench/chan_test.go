package bench

import (
	"testing"
	"time"
)

// BenchmarkChanContended has many goroutines push bursts of values into one
// shared buffered channel and pull them out again. The buffer has room for
// every goroutine's whole burst, so no goroutine ever parks: the time goes
// to taking and releasing the channel's runtime lock (hchan.lock), which
// every send and receive holds. One op is one burst of sends plus receives
// by one goroutine.
func BenchmarkChanContended(b *testing.B) {
	const (
		workers = 32
		burst   = 64
	)
	ch := make(chan int, workers*burst)
	m := startMeter(b)
	spread(workers, b.N, func(w, ops int) {
		for i := 0; i < ops; i++ {
			for j := 0; j < burst; j++ {
				ch <- j
			}
			for j := 0; j < burst; j++ {
				<-ch
			}
		}
	})
	m.stop()
}

// BenchmarkSelect has goroutines send and then receive through select
// statements over the same four small channels. A select locks every
// channel it names, in address order, so each op holds several runtime
// locks at once; the buffers are small, so goroutines also park on all
// four channels and are woken by whichever fires first. One op is one
// select-send plus one select-receive. max-gap-ns is the longest time one
// goroutine took for selectOpsPerClock ops in a row (see progressMeter).
func BenchmarkSelect(b *testing.B) {
	const (
		workers = 32
		buf     = 4
		// selectOpsPerClock: one reading of the clock (about 70ns on the
		// 2-core machine of bench/README.md) every 64 ops (330ns or more
		// each there) adds about 0.3% to an op.
		selectOpsPerClock = 64
	)
	var cs [4]chan int
	for i := range cs {
		cs[i] = make(chan int, buf)
	}
	longest := make([]time.Duration, workers)
	m := startMeter(b)
	// Never deadlocks: if every goroutine were blocked sending, each would
	// have received as often as it sent, so the channels would be empty;
	// if every goroutine were blocked receiving, the channels would hold
	// one value per goroutine.
	spread(workers, b.N, func(w, ops int) {
		progress := newProgressMeter(selectOpsPerClock)
		for i := 0; i < ops; i++ {
			select {
			case cs[0] <- i:
			case cs[1] <- i:
			case cs[2] <- i:
			case cs[3] <- i:
			}
			select {
			case <-cs[0]:
			case <-cs[1]:
			case <-cs[2]:
			case <-cs[3]:
			}
			progress.done()
		}
		longest[w] = progress.longest
	})
	m.stop()
	reportLongestStall(b, longest)
}

// BenchmarkHandoff measures how long a value takes to pass from a sender
// to a receiver through one unbuffered channel that many goroutines share.
// Each sender stamps the time just before its send; the receiver takes the
// difference once it has the value. That covers waiting for the channel
// lock and, when the receiver was parked, being woken and scheduled. One
// op is one value handed over; p50-ns, p99-ns and max-ns are the handoff
// latencies.
func BenchmarkHandoff(b *testing.B) {
	const (
		senders   = 16
		receivers = 16
	)
	ch := make(chan time.Duration)
	base := time.Now()
	hists := make([]latencyHist, receivers)
	done := make(chan struct{})
	m := startMeter(b)
	for r := 0; r < receivers; r++ {
		go func(h *latencyHist) {
			defer func() { done <- struct{}{} }()
			for sent := range ch {
				h.record(time.Since(base) - sent)
			}
		}(&hists[r])
	}
	spread(senders, b.N, func(w, ops int) {
		for i := 0; i < ops; i++ {
			ch <- time.Since(base)
		}
	})
	close(ch)
	for r := 0; r < receivers; r++ {
		<-done
	}
	m.stop()
	reportMerged(b, hists)
}

// BenchmarkCapture looks for starvation. Many goroutines hammer one
// buffered channel that is kept half full, so no operation ever has to
// wait for a value or for room: the only wait is for the channel's lock
// (and for a CPU). A lock that lets a few threads capture it, passing it
// among themselves while the others sleep, shows here as a long tail: the
// p99-ns and max-ns of a single operation, measured from wanting the
// channel to having used it. One op is one send or one receive.
func BenchmarkCapture(b *testing.B) {
	const (
		workers = 64
		half    = 2048
	)
	ch := halfFull(half)
	hists := make([]latencyHist, workers)
	m := startMeter(b)
	spread(workers, b.N, func(w, ops int) {
		h := &hists[w]
		// Each worker alternates send and receive, so the buffer stays
		// within workers of half full and never blocks.
		for i := 0; i < ops; i++ {
			t0 := time.Now()
			if i%2 == 0 {
				ch <- i
			} else {
				<-ch
			}
			h.record(time.Since(t0))
		}
		if ops%2 == 1 {
			<-ch // put the buffer back where it started
		}
	})
	m.stop()
	reportMerged(b, hists)
}

// halfFull returns a channel with room for 2*half values that holds half.
func halfFull(half int) chan int {
	ch := make(chan int, 2*half)
	for i := 0; i < half; i++ {
		ch <- i
	}
	return ch
}

func reportMerged(b *testing.B, hists []latencyHist) {
	var all latencyHist
	for i := range hists {
		all.merge(&hists[i])
	}
	all.report(b)
}

// BenchmarkAlternate is Capture with a second, uncontended channel: each
// worker uses a channel of its own between two operations on the shared
// one, so every M's unlocks alternate between a busy runtime lock and an
// idle one. A starvation guard kept per M rather than per lock (a count of
// an M's unlocks that an unlock of an idle lock starts again) never fires
// here. p99-ns and max-ns are those of the operations on the shared
// channel, measured from wanting it to having used it. One op is one
// operation on each channel.
func BenchmarkAlternate(b *testing.B) {
	const (
		workers = 64
		half    = 2048
	)
	shared := halfFull(half)
	hists := make([]latencyHist, workers)
	m := startMeter(b)
	spread(workers, b.N, func(w, ops int) {
		h := &hists[w]
		own := make(chan int, 1)
		for i := 0; i < ops; i++ {
			t0 := time.Now()
			if i%2 == 0 {
				shared <- i
			} else {
				<-shared
			}
			h.record(time.Since(t0))
			own <- i
			<-own
		}
		if ops%2 == 1 {
			<-shared // put the buffer back where it started
		}
	})
	m.stop()
	reportMerged(b, hists)
}
