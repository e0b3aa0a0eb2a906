package bench

import (
	"testing"
	"time"
)

func TestProgressMeter(t *testing.T) {
	const every = 4
	p := newProgressMeter(every)
	start := p.last
	// Three ops: no reading of the clock yet.
	for i := 0; i < every-1; i++ {
		p.done()
	}
	if p.last != start || p.longest != 0 {
		t.Fatalf("after %d of %d ops: last moved or longest = %v; want no reading yet", every-1, every, p.longest)
	}
	// A stall inside the first stretch must show in it.
	const stall = 20 * time.Millisecond
	time.Sleep(stall)
	p.done()
	if p.longest < stall {
		t.Fatalf("longest = %v after a stretch that slept %v", p.longest, stall)
	}
	first := p.longest
	// Quick stretches after it leave the longest alone.
	for i := 0; i < 10*every; i++ {
		p.done()
	}
	if p.longest != first {
		t.Errorf("longest changed from %v to %v over stretches without a stall", first, p.longest)
	}
	if p.count != 0 {
		t.Errorf("count = %d after a whole number of stretches, want 0", p.count)
	}
}

func TestNewProgressMeterRejectsZero(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("newProgressMeter(0) did not panic")
		}
	}()
	newProgressMeter(0)
}
