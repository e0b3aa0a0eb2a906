// Command contended contends for the runtime's locks from many
// goroutines at once and exits: a fixed amount of work, so that a run
// that does not end has hung. Each of its goroutines takes a sync.Mutex,
// passes values through a buffered channel, meets another goroutine or a
// timer in a select, and now and then sleeps for microseconds: the channel,
// timer and scheduler locks of the runtime are taken from every P at
// once, and Ms sleep and are woken on their semaphores all the time.
//
// Usage: contended [-procs N] [-per-p N] [-iters N] [-watchdog D] [-hello]
//
// It prints "contended: ok: ..." when done. If it is not done within the
// watchdog's time, it panics with the stacks of every goroutine (if a
// hung runtime still runs the watchdog at all).
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

func main() {
	procs := flag.Int("procs", 8, "GOMAXPROCS")
	perP := flag.Int("per-p", 8, "goroutines per P")
	iters := flag.Int("iters", 20000, "rounds of work per goroutine")
	watchdog := flag.Duration("watchdog", time.Minute, "panic if not done after this long")
	hello := flag.Bool("hello", false, "only say hello: the program starts")
	flag.Parse()
	if *hello {
		fmt.Println("contended: hello from", runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
		return
	}
	if *procs < 1 || *perP < 1 || *iters < 1 {
		fmt.Fprintln(os.Stderr, "contended: -procs, -per-p and -iters must be positive")
		os.Exit(2)
	}
	go func() {
		time.Sleep(*watchdog)
		debug.SetTraceback("all")
		panic(fmt.Sprintf("contended: not done after %v (hung?)", *watchdog))
	}()

	runtime.GOMAXPROCS(*procs)
	workers := *procs * *perP
	var (
		mu      sync.Mutex
		locked  int // rounds counted under mu
		sum     int // values received from pass, under mu
		pass    = make(chan int, *procs)
		meet    = make(chan int) // unbuffered: a select meets another goroutine or times out
		wg      sync.WaitGroup
		start   = time.Now()
		timeout = 20 * time.Microsecond
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			got := 0
			for i := 0; i < *iters; i++ {
				mu.Lock()
				locked++
				mu.Unlock()
				// Every goroutine sends one value and then receives
				// one, so the buffer is never full while all wait to
				// send: this cannot deadlock.
				pass <- 1
				got += <-pass
				select {
				case meet <- w:
				case <-meet:
				case <-time.After(timeout):
				}
				if i%16 == w%16 {
					time.Sleep(time.Duration(1+i%8) * time.Microsecond)
				}
			}
			mu.Lock()
			sum += got
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	want := workers * *iters
	if locked != want || sum != want {
		fmt.Printf("contended: FAIL: %d rounds under the mutex and %d values passed; want %d of each\n", locked, sum, want)
		os.Exit(1)
	}
	fmt.Printf("contended: ok: %d goroutines on GOMAXPROCS=%d, %d rounds each, in %v\n",
		workers, *procs, *iters, time.Since(start).Round(time.Millisecond))
}
