package bench

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Hist is the latency histogram of one benchmark sample, as bench/
// prints it after the results (bench/latency.go): buckets of a
// log-linear scale, each power of two of nanoseconds split into 1<<Sub
// buckets, so that a value is known to within 1/(1<<Sub) of itself.
type Hist struct {
	Sub    int           // bits of sub-bucket, 5 in bench/
	Max    int64         // the largest value recorded, exact
	Counts []BucketCount // the non-empty buckets, by index
}

// BucketCount is one non-empty bucket of a Hist.
type BucketCount struct {
	Index int
	Count uint64
}

// histogramPrefix starts the line of a sample's histogram in go test
// -bench output of bench/ (its histogramPrefix).
const histogramPrefix = "histogram "

// maxSubBits bounds Hist.Sub, so that a histogram's buckets fit
// histBuckets(Sub) entries.
const maxSubBits = 8

// histBuckets is the number of buckets of a histogram with sub bits:
// 64 powers of two.
func histBuckets(sub int) int { return 64 << sub }

// bucketHigh is the largest value in bucket i of a histogram with sub
// bits (bench/latency.go's bucketHigh).
func bucketHigh(i, sub int) int64 {
	if i < 2<<sub {
		return int64(i)
	}
	shift := i>>sub - 1
	mant := int64(i - shift<<sub)
	return (mant+1)<<shift - 1
}

// parseHistogramLine reads a line of histogramPrefix: the name and
// iteration count of the result it belongs to, as go test prints them,
// and the histogram.
func parseHistogramLine(line string) (name string, iters int64, h Hist, err error) {
	f := strings.Fields(strings.TrimPrefix(line, histogramPrefix))
	if len(f) != 5 {
		return "", 0, Hist{}, fmt.Errorf("want name, iterations, sub=, max= and counts=")
	}
	name = f[0]
	if iters, err = strconv.ParseInt(f[1], 10, 64); err != nil || iters < 1 {
		return "", 0, Hist{}, fmt.Errorf("iteration count %q is not a positive integer", f[1])
	}
	field := func(s, key string) (string, error) {
		v, ok := strings.CutPrefix(s, key+"=")
		if !ok {
			return "", fmt.Errorf("want %s= in place of %q", key, s)
		}
		return v, nil
	}
	var v string
	if v, err = field(f[2], "sub"); err == nil {
		h.Sub, err = strconv.Atoi(v)
		if err == nil && (h.Sub < 0 || h.Sub > maxSubBits) {
			err = fmt.Errorf("sub=%d is out of range", h.Sub)
		}
	}
	if err == nil {
		if v, err = field(f[3], "max"); err == nil {
			h.Max, err = strconv.ParseInt(v, 10, 64)
		}
	}
	if err == nil {
		v, err = field(f[4], "counts")
	}
	if err != nil {
		return "", 0, Hist{}, err
	}
	for _, pair := range strings.Split(v, ",") {
		i, c, ok := strings.Cut(pair, ":")
		index, err1 := strconv.Atoi(i)
		count, err2 := strconv.ParseUint(c, 10, 64)
		if !ok || err1 != nil || err2 != nil || index < 0 || index >= histBuckets(h.Sub) || count == 0 {
			return "", 0, Hist{}, fmt.Errorf("bucket %q is not index:count", pair)
		}
		if n := len(h.Counts); n > 0 && h.Counts[n-1].Index >= index {
			return "", 0, Hist{}, fmt.Errorf("bucket %d comes after bucket %d", index, h.Counts[n-1].Index)
		}
		h.Counts = append(h.Counts, BucketCount{index, count})
	}
	return name, iters, h, nil
}

// merged adds up histograms of the same Sub, as if one histogram had
// recorded every value: the counts of each bucket summed, into counts
// (histBuckets(sub) long, zero on entry), and the largest value.
// touched lists the buckets it made non-zero, so a caller can clear them.
type merged struct {
	sub     int
	counts  []uint64
	touched []int
	n       uint64
	max     int64
}

func newMerged(sub int) *merged {
	return &merged{sub: sub, counts: make([]uint64, histBuckets(sub))}
}

func (m *merged) add(h *Hist) {
	for _, bc := range h.Counts {
		if m.counts[bc.Index] == 0 {
			m.touched = append(m.touched, bc.Index)
		}
		m.counts[bc.Index] += bc.Count
		m.n += bc.Count
	}
	m.max = max(m.max, h.Max)
}

func (m *merged) reset() {
	for _, i := range m.touched {
		m.counts[i] = 0
	}
	m.touched, m.n, m.max = m.touched[:0], 0, 0
}

// quantile is the q-quantile (0 < q <= 1) of the merged values as bench/
// computes it for one sample: the top of the bucket that holds the
// ceil(q*n)-th smallest value, never more than the largest value; q = 1
// is the largest value, exact. It is 0 with no values.
func (m *merged) quantile(q float64) float64 {
	if m.n == 0 {
		return 0
	}
	if q >= 1 {
		return float64(m.max)
	}
	rank := max(uint64(math.Ceil(q*float64(m.n))), 1)
	var seen uint64
	for i, c := range m.counts {
		seen += c
		if seen >= rank {
			return float64(min(bucketHigh(i, m.sub), m.max))
		}
	}
	return float64(m.max)
}
