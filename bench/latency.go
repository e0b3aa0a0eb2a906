package bench

import (
	"math"
	"math/bits"
	"testing"
	"time"
)

// subBits sets the histogram's resolution: each power-of-two range of
// durations is split into 1<<subBits buckets, so a recorded value is known
// to within 1/32 (about 3%) of itself. Values below 1<<subBits nanoseconds
// get one bucket each and are exact.
const subBits = 5

// latencyHist is a fixed-size, allocation-free histogram of durations in
// nanoseconds. Each worker goroutine fills its own and they are merged at
// the end, so recording never touches shared memory.
type latencyHist struct {
	counts [64 << subBits]uint64
	n      uint64
	max    int64
}

// bucketOf maps a duration to its bucket. For v >= 1<<subBits the bucket is
// formed from the position of v's top bit (which power of two) and the
// subBits bits below it (where inside that power of two).
func bucketOf(v int64) int {
	if v < 1<<subBits {
		if v < 0 {
			return 0
		}
		return int(v)
	}
	shift := bits.Len64(uint64(v)) - subBits - 1
	mant := int(v >> shift) // in [1<<subBits, 2<<subBits)
	return shift<<subBits + mant
}

// bucketHigh is the largest duration that falls in bucket i.
func bucketHigh(i int) int64 {
	if i < 2<<subBits {
		return int64(i)
	}
	shift := i>>subBits - 1
	mant := int64(i - shift<<subBits)
	return (mant+1)<<shift - 1
}

func (h *latencyHist) record(d time.Duration) {
	v := int64(d)
	h.counts[bucketOf(v)]++
	h.n++
	if v > h.max {
		h.max = v
	}
}

func (h *latencyHist) merge(o *latencyHist) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	if o.max > h.max {
		h.max = o.max
	}
}

// quantile returns an upper bound for the q-quantile (0 < q <= 1): the top
// of the bucket holding the ceil(q*n)-th smallest value, but never more
// than the largest value recorded. It returns 0 for an empty histogram.
func (h *latencyHist) quantile(q float64) int64 {
	i := quantileBucket(h.counts[:], q)
	if i < 0 {
		return 0
	}
	return min(bucketHigh(i), h.max)
}

// quantileBucket returns the index of the bucket, in counts ordered from
// the smallest values up, that holds the ceil(q*n)-th smallest of the n
// values counted (at least the first), or -1 if nothing was counted.
func quantileBucket(counts []uint64, q float64) int {
	var n uint64
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return -1
	}
	rank := max(uint64(math.Ceil(q*float64(n))), 1)
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen >= rank {
			return i
		}
	}
	return len(counts) - 1
}

// report attaches the latency percentiles to the benchmark result.
func (h *latencyHist) report(b *testing.B) {
	if h.n == 0 {
		return
	}
	b.ReportMetric(float64(h.quantile(0.50)), "p50-ns")
	b.ReportMetric(float64(h.quantile(0.99)), "p99-ns")
	b.ReportMetric(float64(h.max), "max-ns")
}
