package bench

import (
	"strings"
	"testing"
)

const sampleOutput = `goos: linux
goarch: amd64
pkg: go-spinbit.dev/bench
cpu: Some CPU @ 2.0GHz
BenchmarkChanContended          	   78837	      3223 ns/op	      2376 cpu-ns/op	         0.0005327 ivcsw/op	         0.0003044 vcsw/op
BenchmarkChanContended-4        	  101702	      2320 ns/op	      2327 cpu-ns/op	         0.001347 ivcsw/op	         0.0008554 vcsw/op
BenchmarkHandoff-16             	  739981	       374.9 ns/op	       553.0 cpu-ns/op	         0.0007203 ivcsw/op	  47282707 max-ns	       183.0 p50-ns	     61439 p99-ns	 0.08 vcsw/op
BenchmarkSlow
    bench_test.go:12: some log line
BenchmarkSlow-4   	some more log text
BenchmarkSlow-4                 	      10	 100000000 ns/op
BenchmarkSub/size=1k-8          	    1000	      1500 ns/op	 12 B/op
PASS
goos: linux
BenchmarkChanContended          	   80000	      3000 ns/op	      2400 cpu-ns/op	         0.001 ivcsw/op	         0.001 vcsw/op
`

func TestParseOutput(t *testing.T) {
	rs, err := ParseOutput(strings.NewReader(sampleOutput))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		name  string
		procs int
		iters int64
	}
	want := []row{
		{"ChanContended", 1, 78837},
		{"ChanContended", 4, 101702},
		{"Handoff", 16, 739981},
		{"Slow", 4, 10},
		{"Sub/size=1k", 8, 1000},
		{"ChanContended", 1, 80000},
	}
	if len(rs) != len(want) {
		t.Fatalf("got %d results, want %d: %+v", len(rs), len(want), rs)
	}
	for i, w := range want {
		r := rs[i]
		if r.Name != w.name || r.Procs != w.procs || r.Iters != w.iters {
			t.Errorf("result %d = %s procs %d iters %d, want %+v", i, r.Name, r.Procs, r.Iters, w)
		}
	}
	if v := rs[2].Values["p99-ns"]; v != 61439 {
		t.Errorf("Handoff-16 p99-ns = %v, want 61439", v)
	}
	if v := rs[1].Values["ns/op"]; v != 2320 {
		t.Errorf("ChanContended-4 ns/op = %v, want 2320", v)
	}
	if w := rs[4].Workload(); w != "Sub" {
		t.Errorf("workload of %s = %q, want Sub", rs[4].Name, w)
	}
}

func TestParseOutputMalformed(t *testing.T) {
	for _, in := range []string{
		"BenchmarkX-4   100   12 ns/op   7\n", // value without unit
		"BenchmarkX-4   100   fast ns/op\n",   // value not a number
		"BenchmarkX-4   0   12 ns/op\n",       // no iterations
		"BenchmarkX-4   100\n",                // no values at all
		"ok\nBenchmark   100   12 ns/op\n",    // no name
	} {
		if _, err := ParseOutput(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("ParseOutput(%q) error = %v, want one with the line number", in, err)
		}
	}
}

func TestSummarise(t *testing.T) {
	rs, err := ParseOutput(strings.NewReader(sampleOutput))
	if err != nil {
		t.Fatal(err)
	}
	st := Summarise(rs, "ChanContended", MetricTime)
	if len(st) != 2 {
		t.Fatalf("got %d GOMAXPROCS groups, want 2: %+v", len(st), st)
	}
	// Two samples at GOMAXPROCS 1 (3223 and 3000): median is their mean.
	if s := st[0]; s.Procs != 1 || s.N != 2 || s.Median != 3111.5 || s.Lo != 3000 || s.Hi != 3223 {
		t.Errorf("GOMAXPROCS 1: %+v", s)
	}
	if s := st[1]; s.Procs != 4 || s.N != 1 || s.Median != 2320 {
		t.Errorf("GOMAXPROCS 4: %+v", s)
	}
	// Context switches add the voluntary and involuntary counts.
	sw := Summarise(rs, "Handoff", MetricSwitch)
	if len(sw) != 1 || sw[0].Median != 0.0007203+0.08 {
		t.Errorf("Handoff switches = %+v, want 0.0807203", sw)
	}
	// A workload without the metric's units contributes nothing.
	if got := Summarise(rs, "Slow", MetricSwitch); len(got) != 0 {
		t.Errorf("Slow has no vcsw/op, yet Summarise gave %+v", got)
	}
	if got := median([]float64{1, 2, 10}); got != 2 {
		t.Errorf("median of 1,2,10 = %v", got)
	}
	if got := Workloads(rs); strings.Join(got, ",") != "ChanContended,Handoff,Slow,Sub" {
		t.Errorf("Workloads = %v", got)
	}
}
