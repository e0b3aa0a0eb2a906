package bench

import (
	"fmt"
	"time"
)

// The time model behind Estimate. It was calibrated on the 2-core
// development machine by running the compiled bench/ test binary once
// (one toolchain, one repetition, all 11 benchmarks at GOMAXPROCS
// 1,2,4,8,16,32, i.e. 66 benchmark executions): 18.9s with -benchtime
// 100ms and 28.2s with 200ms. That is about 1.4 x benchtime plus 0.145s
// per execution; the testing package ramps b.N up over several shorter
// runs before the one that counts, and runs a GC before each. The
// constants below round that up. Since each run of a test binary runs
// one benchmark at one GOMAXPROCS (execute.go), every execution is also a
// process start and exit: 7ms for bench/'s test binary and 40ms for the
// runtime's, measured the same way (its suite is the smaller one).
const (
	perBenchFactor   = 1.5                    // x benchtime, for duration benchtimes
	perBenchOverhead = 150 * time.Millisecond // ramp-up, GC and setup per execution
	perBenchIters    = 50 * time.Millisecond  // per execution, for Nx benchtimes (tiny N: setup dominates)
	perBinaryRun     = 25 * time.Millisecond  // process start and exit per test binary run
	perCompile       = 45 * time.Second       // cold go test -c of bench/ by one toolchain
	perReport        = 20 * time.Second       // benchstat build and runs, plots, summary
)

// Estimate is the predicted duration of a run, with the arithmetic that
// led to it.
type Estimate struct {
	Toolchains, Count, Benchmarks, CPUs int
	Executions                          int           // benchmark executions: the product of the four above
	PerExecution                        time.Duration // predicted time of one
	BinaryRuns                          int           // test binary starts: one per execution
	Benchmarking, Building, Total       time.Duration
}

// EstimateRun predicts how long a run with these options takes when nbench
// benchmarks match the pattern.
func EstimateRun(o Options, nbench int) Estimate {
	e := Estimate{
		Toolchains: len(o.Toolchains),
		Count:      o.Count,
		Benchmarks: nbench,
		CPUs:       len(o.CPUs),
	}
	e.Executions = e.Toolchains * e.Count * e.Benchmarks * e.CPUs
	e.BinaryRuns = e.Executions
	d, _, err := parseBenchtime(o.Benchtime)
	switch {
	case err != nil:
		// ParseFlags rejects bad benchtimes; estimate nothing for them.
	case d > 0:
		e.PerExecution = time.Duration(perBenchFactor*float64(d)) + perBenchOverhead
	default:
		e.PerExecution = perBenchIters
	}
	e.Benchmarking = time.Duration(e.Executions)*e.PerExecution + time.Duration(e.BinaryRuns)*perBinaryRun
	e.Building = time.Duration(e.Toolchains)*perCompile + perReport
	e.Total = e.Benchmarking + e.Building
	return e
}

// String shows the arithmetic, so that anyone can check the estimate
// without running anything.
func (e Estimate) String() string {
	return fmt.Sprintf("%d toolchains x %d repetitions x %d benchmarks x %d GOMAXPROCS values = %d benchmark executions\n"+
		"  x ~%v each (%v) + %d binary starts x %v = %v benchmarking\n"+
		"  + at most %v building test binaries and reports\n"+
		"  = about %v in total",
		e.Toolchains, e.Count, e.Benchmarks, e.CPUs, e.Executions,
		e.PerExecution, perExecutionRule(e.PerExecution), e.BinaryRuns, perBinaryRun, e.Benchmarking.Round(time.Second),
		e.Building.Round(time.Second),
		e.Total.Round(time.Second))
}

func perExecutionRule(d time.Duration) string {
	if d == perBenchIters {
		return "fixed iteration count: mostly setup"
	}
	return fmt.Sprintf("%.1f x benchtime + %v ramp-up", perBenchFactor, perBenchOverhead)
}
