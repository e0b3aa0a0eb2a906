package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWorkloadPanels(t *testing.T) {
	raw := map[string]string{
		"upstream": "BenchmarkHandoff\t10\t100 ns/op\t1 vcsw/op\t2 ivcsw/op\t900 p99-ns\nBenchmarkHandoff-4\t10\t300 ns/op\t1 vcsw/op\t2 ivcsw/op\t900 p99-ns\nBenchmarkSelect-4\t10\t50 ns/op\n",
		"spinbit":  "BenchmarkHandoff-4\t10\t200 ns/op\t3 vcsw/op\t0 ivcsw/op\t800 p99-ns\n",
	}
	results := map[string][]Result{}
	for tc, out := range raw {
		rs, err := ParseOutput(strings.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		results[tc] = rs
	}
	// go1.24 is asked for but has no results: it gets no line.
	panels := WorkloadPanels("Handoff", []string{"spinbit", "go1.24", "upstream"}, results)
	var titles []string
	for _, p := range panels {
		titles = append(titles, p.Title)
	}
	if want := []string{MetricTime.Title, MetricSwitch.Title, MetricP99.Title}; strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Fatalf("Handoff panels %q, want %q", titles, want)
	}
	sw := panels[1]
	if len(sw.Series) != 2 || sw.Series[0].Name != "spinbit" || sw.Series[1].Name != "upstream" {
		t.Fatalf("switch panel series %+v, want spinbit then upstream, in the order asked", sw.Series)
	}
	if pts := sw.Series[1].Points; len(pts) != 2 || pts[0].X != 1 || pts[1].X != 4 || pts[1].Y != 3 {
		t.Errorf("upstream switches %+v, want vcsw+ivcsw = 3 at GOMAXPROCS 1 and 4", pts)
	}
	// CPU time and the longest wait get panels where measured.
	cpuMax, err := ParseOutput(strings.NewReader("BenchmarkCapture-4\t10\t50 ns/op\t80 cpu-ns/op\t1 vcsw/op\t0 ivcsw/op\t900 p99-ns\t5000000 max-ns\n"))
	if err != nil {
		t.Fatal(err)
	}
	titles = nil
	for _, p := range WorkloadPanels("Capture", []string{"spinbit"}, map[string][]Result{"spinbit": cpuMax}) {
		titles = append(titles, p.Title)
	}
	if want := []string{MetricTime.Title, MetricCPUTime.Title, MetricSwitch.Title, MetricP99.Title, MetricMax.Title}; strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Errorf("Capture panels %q, want %q", titles, want)
	}
	// A workload without latency metrics gets the two panels only.
	if sel := WorkloadPanels("Select", []string{"upstream"}, results); len(sel) != 2 || len(sel[0].Series) != 1 || len(sel[1].Series) != 0 {
		t.Errorf("Select panels %+v, want time with one line and an empty switch panel", sel)
	}

	// One that reports the longest gap gets a third panel for it.
	gap, err := ParseOutput(strings.NewReader("BenchmarkSelect-4\t10\t50 ns/op\t70000000 max-gap-ns\n"))
	if err != nil {
		t.Fatal(err)
	}
	sel := WorkloadPanels("Select", []string{"go1.24"}, map[string][]Result{"go1.24": gap})
	if len(sel) != 3 || sel[2].Title != MetricGap.Title {
		t.Fatalf("Select panels with max-gap-ns: %d, want 3, the last %q", len(sel), MetricGap.Title)
	}
	if pts := sel[2].Series[0].Points; len(pts) != 1 || pts[0].X != 4 || pts[0].Y != 70000000 {
		t.Errorf("gap points %+v, want 70000000 at GOMAXPROCS 4", pts)
	}
}

func TestWriteSummary(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/benchstat-go1.24-vs-upstream.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "go1.24-vs-upstream.txt"), data, 0o666)
	os.WriteFile(filepath.Join(dir, "odd.txt"), []byte("goos: linux\n"), 0o666)
	rec := Record{
		Name: "20260102-030405", Mode: "quick", Benchtime: "100x", Count: 1, CPUs: []int{1, 4, 16}, Bench: "Capture|Chan",
		Start:   time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Elapsed: "1m15s",
		Toolchains: []RecordToolchain{
			{Name: "upstream", Version: "go1.23.12", Raw: "upstream.txt"},
			{Name: "nospinbit", Version: "go1.23.12-spinbit", Experiment: "nospinbitmutex", Raw: "nospinbit.txt"},
		},
		Tables: []TableFile{
			{Title: "go1.24 vs upstream", File: "go1.24-vs-upstream.txt"},
			{Title: "odd one", File: "odd.txt"},
		},
		Plots:      []string{"plots/Select.svg", "plots/Capture.svg"},
		Host:       "Some CPU, 2 logical CPUs",
		Provenance: Provenance{Commit: "0123456789ab", Changed: []string{" M patches/0001-x.patch"}},
		Interleave: interleaveBySlot,
	}
	if err := writeSummary(dir, rec); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"mode: quick (benchtime 100x, count 1, GOMAXPROCS 1,4,16, benchmarks matching `Capture|Chan`)",
		"took 1m15s",
		"host: Some CPU, 2 logical CPUs",
		"repository commit: 0123456789ab",
		"not reproducible from the commit alone**: uncommitted changes to measured files:  M patches/0001-x.patch",
		"| upstream | go1.23.12 | (default) | [upstream.txt](upstream.txt) |",
		"| nospinbit | go1.23.12-spinbit | nospinbitmutex | [nospinbit.txt](nospinbit.txt) |",
		"### go1.24 vs upstream\n\n[go1.24-vs-upstream.txt](go1.24-vs-upstream.txt)",
		"ChanContended-16", // the sec/op table inline
		"### odd one\n\n[odd.txt](odd.txt)\n\n(no sec/op table",
		"![Capture](plots/Capture.svg)",
		"runs were interleaved: each run of a test binary ran one benchmark at one GOMAXPROCS value",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	// Only the sec/op table is inlined, not the other metrics.
	if strings.Contains(s, "vcsw/op  ") || strings.Contains(s, "p99-sec") {
		t.Error("summary.md inlines more than the sec/op table")
	}
	// Plots are listed sorted.
	if strings.Index(s, "![Capture]") > strings.Index(s, "![Select]") {
		t.Error("plots not in name order")
	}
}
