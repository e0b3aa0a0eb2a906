package bench

import (
	"fmt"
	"math"
	"runtime/metrics"
	"testing"
)

// stoppingMetric is the runtime's histogram (since Go 1.22) of how long it
// took to stop the world for anything but a GC: from the decision to stop
// until every P had stopped. Each P stops by taking sched.lock, so this is
// where a stop waits for that lock.
const stoppingMetric = "/sched/pauses/stopping/other:seconds"

// readStopping returns a copy of the stoppingMetric histogram.
func readStopping() (metrics.Float64Histogram, error) {
	s := []metrics.Sample{{Name: stoppingMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return metrics.Float64Histogram{}, fmt.Errorf("runtime/metrics has no %s; it needs Go 1.22 or later", stoppingMetric)
	}
	h := s[0].Value.Float64Histogram()
	return metrics.Float64Histogram{
		Counts:  append([]uint64(nil), h.Counts...),
		Buckets: append([]float64(nil), h.Buckets...),
	}, nil
}

// histDelta returns what after counted that before had not: the events
// recorded between two reads of the same histogram.
func histDelta(before, after metrics.Float64Histogram) (metrics.Float64Histogram, error) {
	if len(before.Counts) != len(after.Counts) || len(before.Buckets) != len(after.Buckets) {
		return metrics.Float64Histogram{}, fmt.Errorf("histograms have different buckets (%d and %d counts)", len(before.Counts), len(after.Counts))
	}
	d := metrics.Float64Histogram{Counts: make([]uint64, len(after.Counts)), Buckets: after.Buckets}
	for i := range after.Counts {
		if after.Counts[i] < before.Counts[i] {
			return metrics.Float64Histogram{}, fmt.Errorf("bucket %d went down from %d to %d", i, before.Counts[i], after.Counts[i])
		}
		d.Counts[i] = after.Counts[i] - before.Counts[i]
	}
	return d, nil
}

// histQuantile returns an upper bound for the q-quantile (0 < q <= 1) of h:
// the upper edge of the bucket that holds the ceil(q*n)-th smallest event,
// or its lower edge if the upper one is +Inf. q = 1 gives the bucket of the
// largest event. It returns 0 for an empty histogram.
func histQuantile(h metrics.Float64Histogram, q float64) float64 {
	i := quantileBucket(h.Counts, q)
	if i < 0 {
		return 0
	}
	if hi := h.Buckets[i+1]; !math.IsInf(hi, 1) {
		return hi
	}
	return h.Buckets[i]
}

// reportStopping attaches p50-ns, p99-ns and max-ns of the stops recorded
// between before and now. The runtime's buckets are coarser than
// latencyHist's (a quarter of each power of two in Go 1.23-1.24), and each
// figure is the top of a bucket.
func reportStopping(b *testing.B, before metrics.Float64Histogram) {
	after, err := readStopping()
	if err != nil {
		b.Fatal(err)
	}
	d, err := histDelta(before, after)
	if err != nil {
		b.Fatalf("%s: %v", stoppingMetric, err)
	}
	if histQuantile(d, 1) == 0 {
		b.Fatalf("%s recorded no stop during the run", stoppingMetric)
	}
	b.ReportMetric(histQuantile(d, 0.50)*1e9, "p50-ns")
	b.ReportMetric(histQuantile(d, 0.99)*1e9, "p99-ns")
	b.ReportMetric(histQuantile(d, 1)*1e9, "max-ns")
}
