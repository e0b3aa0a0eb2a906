package bench

import (
	"testing"
	"time"
)

// progressMeter finds, for one worker of a throughput benchmark, the
// longest time it went without finishing a stretch of ops: it reads the
// clock once every `every` ops and keeps the longest interval between two
// readings. A lock that lets a few threads take it again and again while
// the others sleep keeps the total rate up but shows here, as a worker that
// stood still for a long time. Reading the clock every few ops rather than
// every op keeps its cost small against the op itself, for every
// toolchain alike.
//
// Each worker fills its own meter, in a local variable, and the benchmark
// collects them when the workers are done, so measuring writes no shared
// memory.
type progressMeter struct {
	every   int // ops per reading of the clock
	count   int // ops since the last reading
	last    time.Time
	longest time.Duration
}

// newProgressMeter starts a meter that reads the clock every `every` ops.
func newProgressMeter(every int) progressMeter {
	if every < 1 {
		panic("newProgressMeter: need at least one op between readings")
	}
	return progressMeter{every: every, last: time.Now()}
}

// done notes that the worker finished one op.
func (p *progressMeter) done() {
	p.count++
	if p.count < p.every {
		return
	}
	p.count = 0
	now := time.Now()
	if d := now.Sub(p.last); d > p.longest {
		p.longest = d
	}
	p.last = now
}

// reportLongestStall attaches max-gap-ns, the longest interval any worker
// took between two readings of its clock, to the benchmark result.
func reportLongestStall(b *testing.B, longest []time.Duration) {
	var m time.Duration
	for _, d := range longest {
		m = max(m, d)
	}
	if m > 0 {
		b.ReportMetric(float64(m), "max-gap-ns")
	}
}
