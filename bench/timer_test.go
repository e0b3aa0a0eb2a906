package bench

import (
	"testing"
	"time"
)

// BenchmarkTimers has many goroutines use short timers the ways programs
// do: Reset of a Timer that is already armed, Stop of one that has not
// fired, time.Sleep and time.AfterFunc. Each of these edits a P's timer
// heap under that heap's runtime lock, and timers firing on other Ps wake
// idle Ps through the scheduler. One op is one round of all four by one
// goroutine.
func BenchmarkTimers(b *testing.B) {
	const workers = 64
	m := startMeter(b)
	spread(workers, b.N, func(w, ops int) {
		t := time.NewTimer(time.Hour)
		idle := time.NewTimer(time.Hour)
		fired := make(chan struct{}, 1)
		notify := func() { fired <- struct{}{} }
		for i := 0; i < ops; i++ {
			// Move an armed timer around the heap, then let it fire.
			t.Reset(time.Duration(50+i%50) * time.Microsecond)
			t.Reset(time.Duration(20+i%20) * time.Microsecond)
			<-t.C
			// Add and remove a timer that never fires.
			idle.Reset(time.Hour)
			idle.Stop()
			time.Sleep(time.Duration(10+w%10) * time.Microsecond)
			time.AfterFunc(30*time.Microsecond, notify)
			<-fired
		}
		t.Stop()
	})
	m.stop()
}
