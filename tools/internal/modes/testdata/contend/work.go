// Command contend makes goroutines, or C threads that call into Go,
// contend on the runtime's locks: a sync.Mutex, a buffered channel, a
// select over two unbuffered channels, timers and small allocations. It
// prints what it counted on one line starting "contend:", which the caller
// checks against the numbers it expects for the same arguments.
//
// The same work runs as a program (main.go) and as a C library entered
// from C threads (export.go, with -tags contendlib).
package main

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

var (
	mu       sync.Mutex
	locked   int64 // guarded by mu
	values   = make(chan int64, 16)
	received atomic.Int64 // values taken off the channel
	sum      atomic.Int64 // their sum
	left     = make(chan int)
	right    = make(chan int)
	selected atomic.Int64 // receipts on left and right
	timers   atomic.Int64
	sink     []byte

	// cgoHook, when set (cgo.go), is called every 8th step of work.
	cgoHook func(i int)
	// cgoCalls counts what cgoHook did, to be reported.
	cgoCalls atomic.Int64

	// lockThreads makes the helper goroutines lock their threads.
	lockThreads bool
	startOnce   sync.Once
)

// start starts the goroutines that take from the channels.
func start() {
	startOnce.Do(func() {
		go serve(func() {
			for v := range values {
				sum.Add(v)
				received.Add(1)
			}
		})
		for _, c := range []chan int{left, right} {
			go serve(func() {
				for range c {
					selected.Add(1)
				}
			})
		}
	})
}

func serve(f func()) {
	if lockThreads {
		runtime.LockOSThread()
	}
	f()
}

// work is one caller's share: n steps numbered from id*n.
func work(id, n int) {
	for i := 0; i < n; i++ {
		mu.Lock()
		locked++
		mu.Unlock()

		values <- int64(id*n + i)

		select {
		case left <- i:
		case right <- i:
		}

		if i%16 == 0 {
			t := time.NewTimer(time.Duration(i%7) * time.Microsecond)
			<-t.C
			timers.Add(1)
		}
		if i%64 == 0 {
			b := make([]byte, 256+i)
			mu.Lock()
			sink = b
			mu.Unlock()
		}
		if cgoHook != nil && i%8 == 0 {
			cgoHook(i)
		}
	}
}

// report waits until the helper goroutines have counted steps values and
// returns the counts. It gives up after a minute, and the counts then say
// what went missing.
func report(steps int64) string {
	deadline := time.Now().Add(time.Minute)
	for (received.Load() < steps || selected.Load() < steps) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	mu.Lock()
	m := locked
	mu.Unlock()
	s := "contend: chan=" + strconv.FormatInt(received.Load(), 10) +
		" sum=" + strconv.FormatInt(sum.Load(), 10) +
		" select=" + strconv.FormatInt(selected.Load(), 10) +
		" mutex=" + strconv.FormatInt(m, 10) +
		" timers=" + strconv.FormatInt(timers.Load(), 10)
	if cgoHook != nil {
		s += " cgo=" + strconv.FormatInt(cgoCalls.Load(), 10)
	}
	return s
}
