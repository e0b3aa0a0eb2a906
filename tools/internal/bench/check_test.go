package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRun writes what a complete run leaves behind and returns the input
// Check would get for it.
func fakeRun(t *testing.T) CheckInput {
	t.Helper()
	dir := t.TempDir()
	in := CheckInput{
		Dir:        dir,
		Toolchains: []string{"upstream", "go1.24"},
		Workloads:  []string{"ChanContended", "Handoff"},
		CPUs:       []int{1, 4},
		Results:    map[string][]Result{},
		Units:      []string{"vcsw/op", "ivcsw/op"},
	}
	for _, tc := range in.Toolchains {
		var raw strings.Builder
		for _, w := range in.Workloads {
			for _, p := range in.CPUs {
				name := "Benchmark" + w
				if p != 1 {
					name += fmt.Sprintf("-%d", p)
				}
				fmt.Fprintf(&raw, "%s\t100\t%d ns/op\t0.5 vcsw/op\t0.25 ivcsw/op\t%d p99-ns\n", name, 1000*p, 99*p)
			}
		}
		rs, err := ParseOutput(strings.NewReader(raw.String()))
		if err != nil {
			t.Fatal(err)
		}
		in.Results[tc] = rs
	}
	data, err := os.ReadFile("testdata/benchstat-go1.24-vs-upstream.txt")
	if err != nil {
		t.Fatal(err)
	}
	in.Tables = []TableFile{{Title: "go1.24 vs upstream", File: "go1.24-vs-upstream.txt", Columns: []string{"upstream", "go1.24"}}}
	if err := os.WriteFile(filepath.Join(dir, in.Tables[0].File), data, 0o666); err != nil {
		t.Fatal(err)
	}
	plots, err := writePlots(dir, in.Workloads, in.Toolchains, in.Results, "a test run")
	if err != nil {
		t.Fatal(err)
	}
	in.Plots = plots
	if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte("# run\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	return in
}

func TestCheckComplete(t *testing.T) {
	in := fakeRun(t)
	if err := Check(in); err != nil {
		t.Fatalf("a complete run failed the check: %v", err)
	}
	// Plots for a workload with latency get the third panel.
	data, err := os.ReadFile(filepath.Join(in.Dir, PlotFile("Handoff")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "p99 latency") {
		t.Error("Handoff plot has no p99 panel")
	}
}

func TestCheckFindsGaps(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(in *CheckInput)
		want  string
	}{
		{"missing cpu", func(in *CheckInput) {
			in.Results["go1.24"] = in.Results["go1.24"][1:] // drop ChanContended at GOMAXPROCS 1
		}, "go1.24: no result for BenchmarkChanContended at GOMAXPROCS 1"},
		{"missing toolchain", func(in *CheckInput) {
			delete(in.Results, "upstream")
		}, "upstream: no result for BenchmarkHandoff at GOMAXPROCS 4"},
		{"missing unit", func(in *CheckInput) {
			in.Units = append(in.Units, "cpu-ns/op")
		}, "reports no cpu-ns/op"},
		{"missing table", func(in *CheckInput) {
			in.Tables = append(in.Tables, TableFile{File: "spinbit-vs-upstream.txt", Columns: []string{"upstream", "spinbit"}})
		}, "table spinbit-vs-upstream.txt"},
		{"table without sec/op", func(in *CheckInput) {
			os.WriteFile(filepath.Join(in.Dir, in.Tables[0].File), []byte("goos: linux\n"), 0o666)
		}, "no sec/op table"},
		{"table without a toolchain's column", func(in *CheckInput) {
			in.Tables[0].Columns = []string{"upstream", "spinbit"}
		}, "table go1.24-vs-upstream.txt: sec/op table has columns upstream,go1.24, want upstream,spinbit"},
		{"broken plot", func(in *CheckInput) {
			os.WriteFile(filepath.Join(in.Dir, in.Plots[0]), []byte("<svg><g></svg>"), 0o666)
		}, "not well-formed"},
		{"plot without a toolchain", func(in *CheckInput) {
			in.Toolchains = append(in.Toolchains, "spinbit")
			in.Results["spinbit"] = in.Results["upstream"]
		}, "no line for spinbit"},
		{"missing plot", func(in *CheckInput) {
			in.Plots = in.Plots[:1]
		}, "1 plots for 2 workloads"},
		{"missing summary", func(in *CheckInput) {
			os.Remove(filepath.Join(in.Dir, "summary.md"))
		}, "summary"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := fakeRun(t)
			c.spoil(&in)
			err := Check(in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v\nwant one mentioning %q", err, c.want)
			}
		})
	}
}
