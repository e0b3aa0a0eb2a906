//go:build !contendlib

package main

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"
)

// Usage: contend WORKERS ROUNDS STEPS [locked] [profile]
//
// Each of ROUNDS rounds starts WORKERS goroutines that do STEPS steps of
// work each. With "locked", every goroutine locks its thread, and in odd
// rounds the workers exit still locked, so their threads exit with them.
// With "profile", every contention event and blocking event is profiled
// (runtime locks included), as with runtime.SetMutexProfileFraction(1).
func main() {
	const usage = "usage: contend WORKERS ROUNDS STEPS [locked] [profile]\n"
	if len(os.Args) < 4 {
		os.Stderr.WriteString(usage)
		os.Exit(2)
	}
	var nums [3]int
	for i := range nums {
		n, err := strconv.Atoi(os.Args[1+i])
		if err != nil || n <= 0 {
			os.Stderr.WriteString("contend: " + strconv.Quote(os.Args[1+i]) + " is not a positive number\n")
			os.Exit(2)
		}
		nums[i] = n
	}
	for _, opt := range os.Args[4:] {
		switch opt {
		case "locked":
			lockThreads = true
		case "profile":
			runtime.SetMutexProfileFraction(1)
			runtime.SetBlockProfileRate(1)
		default:
			os.Stderr.WriteString("contend: unknown option " + strconv.Quote(opt) + "\n" + usage)
			os.Exit(2)
		}
	}
	workers, rounds, steps := nums[0], nums[1], nums[2]

	// A run that hangs shows where.
	time.AfterFunc(3*time.Minute, func() { panic("contend: not done after 3 minutes") })

	start()
	for r := 0; r < rounds; r++ {
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(id int) {
				defer wg.Done()
				if lockThreads {
					runtime.LockOSThread()
					if r%2 == 0 {
						defer runtime.UnlockOSThread()
					}
				}
				work(id, steps)
			}(r*workers + w)
		}
		wg.Wait()
	}
	os.Stdout.WriteString(report(int64(workers*rounds*steps)) + "\n")
}
