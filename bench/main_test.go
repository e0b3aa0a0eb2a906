package bench

import (
	"os"
	"testing"
)

// TestMain prints, after the results, the latency histogram of every
// sample of the benchmarks that record one (latencyHist.report), one line
// each, from which the tools compute tail latencies over many samples.
func TestMain(m *testing.M) {
	code := m.Run()
	samples.histogramLines(os.Stdout)
	os.Exit(code)
}
