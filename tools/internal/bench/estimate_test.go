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
	// 4 x 10 x 5 x 6 = 1200 executions of 1.5 x 200ms + 150ms = 450ms:
	// 540s, plus 1200 binary starts x 25ms = 30s.
	if e.Executions != 1200 || e.PerExecution != 450*time.Millisecond || e.BinaryRuns != 1200 {
		t.Errorf("got %d executions of %v and %d binary runs, want 1200 of 450ms and 1200", e.Executions, e.PerExecution, e.BinaryRuns)
	}
	if e.Benchmarking != 570*time.Second {
		t.Errorf("benchmarking = %v, want 9m30s", e.Benchmarking)
	}
	// 4 compiles x 45s + 20s of reports.
	if e.Building != 200*time.Second || e.Total != 770*time.Second {
		t.Errorf("building %v, total %v; want 3m20s and 12m50s", e.Building, e.Total)
	}

	o.Benchtime = "100x"
	if e := EstimateRun(o, 5); e.PerExecution != perBenchIters {
		t.Errorf("Nx benchtime: %v per execution, want the fixed %v", e.PerExecution, perBenchIters)
	}
}

// TestFullRunFitsBudget checks, by arithmetic alone, that the default full
// run over the benchmarks that bench/ really declares stays well under the
// 30 minutes it is allowed.
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
	if e.Total > 25*time.Minute {
		t.Errorf("the default full run is estimated at %v with %d benchmarks; lower fullBenchtime or the workload count to stay well under 30m", e.Total, len(names))
	}
}
