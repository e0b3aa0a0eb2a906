package bench

import (
	"math"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestBucketRoundTrip(t *testing.T) {
	// Every value must land in a bucket whose range contains it, and
	// buckets must be ordered like the values.
	prev := -1
	for _, v := range []int64{0, 1, 31, 32, 33, 63, 64, 65, 100, 1000, 1 << 20, 1<<20 + 12345, 1 << 40, 1<<62 + 1} {
		i := bucketOf(v)
		if i < prev {
			t.Errorf("bucketOf(%d) = %d, smaller than bucket %d of a smaller value", v, i, prev)
		}
		prev = i
		if hi := bucketHigh(i); hi < v {
			t.Errorf("bucketHigh(bucketOf(%d)) = %d, below the value", v, hi)
		}
		if i > 0 {
			if lo := bucketHigh(i-1) + 1; lo > v {
				t.Errorf("bucket %d for %d starts at %d, above the value", i, v, lo)
			}
		}
		if i >= len(latencyHist{}.counts) {
			t.Fatalf("bucketOf(%d) = %d, out of range", v, i)
		}
	}
}

func TestQuantile(t *testing.T) {
	var h latencyHist
	if got := h.quantile(0.99); got != 0 {
		t.Errorf("empty histogram: p99 = %d, want 0", got)
	}
	for v := 1; v <= 1000; v++ {
		h.record(time.Duration(v))
	}
	check := func(q float64, want int64) {
		t.Helper()
		got := h.quantile(q)
		// The answer is the top of a bucket: at least the true value,
		// and at most 1/32 above it.
		if got < want || float64(got) > float64(want)*(1+1.0/32) {
			t.Errorf("quantile(%v) = %d, want %d (+3%%)", q, got, want)
		}
	}
	check(0.5, 500)
	check(0.99, 990)
	check(1, 1000)
	if h.max != 1000 {
		t.Errorf("max = %d, want 1000", h.max)
	}

	var other latencyHist
	other.record(5 * time.Second)
	h.merge(&other)
	if h.n != 1001 || h.max != int64(5*time.Second) {
		t.Errorf("after merge: n=%d max=%d, want 1001 and %d", h.n, h.max, int64(5*time.Second))
	}
	if got := h.quantile(1); got != int64(5*time.Second) {
		t.Errorf("after merge: quantile(1) = %d, want the max %d", got, int64(5*time.Second))
	}
}

func TestSpread(t *testing.T) {
	for _, tc := range []struct{ g, n int }{{1, 0}, {3, 10}, {8, 3}, {32, 1000}} {
		var total, calls atomic.Int64
		seen := make([]atomic.Int32, tc.g)
		spread(tc.g, tc.n, func(w, ops int) {
			seen[w].Add(1)
			calls.Add(1)
			total.Add(int64(ops))
			if ops < tc.n/tc.g || ops > tc.n/tc.g+1 {
				t.Errorf("g=%d n=%d: worker %d got %d ops, not an even share", tc.g, tc.n, w, ops)
			}
		})
		if total.Load() != int64(tc.n) || calls.Load() != int64(tc.g) {
			t.Errorf("g=%d n=%d: %d calls covering %d ops", tc.g, tc.n, calls.Load(), total.Load())
		}
		for w := range seen {
			if seen[w].Load() != 1 {
				t.Errorf("g=%d n=%d: worker %d ran %d times", tc.g, tc.n, w, seen[w].Load())
			}
		}
	}
}

func TestHistQuantile(t *testing.T) {
	inf := math.Inf(1)
	before := metrics.Float64Histogram{
		Counts:  []uint64{1, 0, 0, 5},
		Buckets: []float64{math.Inf(-1), 1, 2, 4, inf},
	}
	after := metrics.Float64Histogram{
		Counts:  []uint64{1, 98, 1, 6},
		Buckets: before.Buckets,
	}
	d, err := histDelta(before, after)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q    float64
		want float64
	}{{0.5, 2}, {0.98, 2}, {0.99, 4}, {1, 4}} {
		// 98 events in [1,2), one in [2,4), one in [4,+Inf): the top
		// bucket has no upper edge, so its lower edge stands for it.
		if got := histQuantile(d, c.q); got != c.want {
			t.Errorf("histQuantile(d, %v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := histQuantile(metrics.Float64Histogram{Counts: []uint64{0}, Buckets: []float64{0, 1}}, 0.5); got != 0 {
		t.Errorf("histQuantile of an empty histogram = %v, want 0", got)
	}
	if _, err := histDelta(after, before); err == nil {
		t.Errorf("histDelta accepted a histogram whose counts went down")
	}
}

// The histogram line holds every non-empty bucket, the largest value and
// the names the tools match with the result line; tools/internal/bench's
// TestParseHistogramLine reads this very line.
func TestHistogramLine(t *testing.T) {
	var h latencyHist
	for _, v := range []time.Duration{1, 1, 40, 1000} {
		h.record(v)
	}
	const want = "histogram BenchmarkHandoff-4 1234 sub=5 max=1000 counts=1:2,40:1,190:1"
	if got := h.line("BenchmarkHandoff-4", 1234); got != want {
		t.Errorf("line = %q\nwant   %q", got, want)
	}
	if got := bucketOf(1000); got != 190 {
		t.Errorf("bucketOf(1000) = %d, want 190", got)
	}
}

// Only the last line kept for one *testing.B is written, in the order the
// samples first reported.
func TestSampleLog(t *testing.T) {
	var l sampleLog
	b1, b2 := new(testing.B), new(testing.B)
	l.keep(b1, "histogram A 1")
	l.keep(b2, "histogram B 1")
	l.keep(b1, "histogram A 100")
	var out strings.Builder
	l.histogramLines(&out)
	if want := "histogram A 100\nhistogram B 1\n"; out.String() != want {
		t.Errorf("lines = %q, want %q", out.String(), want)
	}
}
