package bench

import (
	"io"
	"testing"
	"time"
)

// TestEstimateArithmetic works one estimate out by hand.
func TestEstimateArithmetic(t *testing.T) {
	o := Options{Toolchains: Known, Count: 10, CPUs: []int{1, 2, 4, 8, 16, 32}, Benchtime: "200ms"}
	e := EstimateRun(o, 5)
	// 5 x 10 x 5 x 6 = 1500 executions of 1.5 x 200ms + 150ms = 450ms:
	// 675s, plus 1500 binary starts x 25ms = 37.5s.
	if e.Executions != 1500 || e.PerExecution != 450*time.Millisecond || e.BinaryRuns != 1500 {
		t.Errorf("got %d executions of %v and %d binary runs, want 1500 of 450ms and 1500", e.Executions, e.PerExecution, e.BinaryRuns)
	}
	if e.Benchmarking != 712500*time.Millisecond {
		t.Errorf("benchmarking = %v, want 11m52.5s", e.Benchmarking)
	}
	// 5 compiles x 45s + 20s of reports.
	if e.Building != 245*time.Second || e.Total != 957500*time.Millisecond {
		t.Errorf("building %v, total %v; want 4m5s and 15m57.5s", e.Building, e.Total)
	}

	o.Benchtime = "100x"
	if e := EstimateRun(o, 5); e.PerExecution != perBenchIters {
		t.Errorf("Nx benchtime: %v per execution, want the fixed %v", e.PerExecution, perBenchIters)
	}
}

// TestFullRunFitsBudget checks, by arithmetic alone, that the default full
// run over the benchmarks that bench/ really declares, with every release
// compared, stays under the 40 minutes it is allowed.
func TestFullRunFitsBudget(t *testing.T) {
	names, err := SourceBenchmarks("../../../bench", ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no benchmarks found in bench/")
	}
	o, err := ParseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	e := EstimateRun(o, len(names))
	t.Logf("full run estimate:\n%s", e)
	if e.Total > 40*time.Minute {
		t.Errorf("the default full run is estimated at %v with %d benchmarks; lower fullBenchtime or the workload count to stay under 40m", e.Total, len(names))
	}
}
