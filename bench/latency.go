package bench

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"runtime"
	"strconv"
	"strings"
	"sync"
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

// report attaches the latency percentiles to the benchmark result, and
// keeps the whole histogram for histogramLines.
func (h *latencyHist) report(b *testing.B) {
	if h.n == 0 {
		return
	}
	b.ReportMetric(float64(h.quantile(0.50)), "p50-ns")
	b.ReportMetric(float64(h.quantile(0.99)), "p99-ns")
	b.ReportMetric(float64(h.max), "max-ns")
	samples.keep(b, h.line(benchmarkName(b), b.N))
}

// benchmarkName is b's name as the testing package prints it in the
// result line: with -GOMAXPROCS unless that is 1.
func benchmarkName(b *testing.B) string {
	if p := runtime.GOMAXPROCS(0); p != 1 {
		return b.Name() + "-" + strconv.Itoa(p)
	}
	return b.Name()
}

// histogramPrefix starts the line that holds one sample's histogram. The
// line is neither a result nor a key: value line, so benchstat ignores it.
const histogramPrefix = "histogram "

// line is h as one line of text: the benchmark's name and b.N as in its
// result line, subBits, the largest value, and the non-empty buckets as
// index:count pairs, in order. A histogram of a benchmark's waits has a
// few hundred non-empty buckets at most, well within the 64 KiB line that
// benchstat's reader takes.
func (h *latencyHist) line(name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s %d sub=%d max=%d counts=", histogramPrefix, name, n, subBits, h.max)
	first := true
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "%d:%d", i, c)
	}
	return b.String()
}

// samples keeps the histogram line of each benchmark sample. The testing
// package calls a benchmark function several times on one *testing.B, b.N
// growing, and reports the last call's metrics; each -test.count
// repetition gets a new *testing.B. So the last line kept for a
// *testing.B is that of the result it printed.
var samples sampleLog

type sampleLog struct {
	mu    sync.Mutex
	order []*testing.B
	lines map[*testing.B]string
}

func (l *sampleLog) keep(b *testing.B, line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.lines == nil {
		l.lines = map[*testing.B]string{}
	}
	if _, ok := l.lines[b]; !ok {
		l.order = append(l.order, b)
	}
	l.lines[b] = line
}

// histogramLines writes the histogram line of every sample so far, in the
// order the samples ran. TestMain calls it after the benchmarks have run
// and printed their results: a line printed while a benchmark runs would
// land inside its result line.
func (l *sampleLog) histogramLines(w io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, b := range l.order {
		fmt.Fprintln(w, l.lines[b])
	}
}
