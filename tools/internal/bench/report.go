package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// PlotFile is where the plot of a workload goes, relative to the output
// folder.
func PlotFile(workload string) string {
	return filepath.Join("plots", workload+".svg")
}

// WorkloadPanels builds the panels for one workload against GOMAXPROCS:
// time per op, CPU time per op where measured, context switches per op,
// and for the workloads that measure them p99 latency, the longest wait
// and the longest gap. results maps toolchain names to their results;
// order says which toolchains to draw, in which order.
func WorkloadPanels(workload string, order []string, results map[string][]Result) []Panel {
	var metrics []Metric
	for _, m := range plotMetrics {
		if m.always || hasUnit(results, workload, m.Units[0]) {
			metrics = append(metrics, m.Metric)
		}
	}
	var panels []Panel
	for _, m := range metrics {
		p := Panel{Title: m.Title, Kind: m.Kind}
		for _, tc := range order {
			s := Series{Name: tc}
			for _, st := range Summarise(results[tc], workload, m) {
				s.Points = append(s.Points, Point{X: st.Procs, Y: st.Median, Lo: st.Lo, Hi: st.Hi})
			}
			if len(s.Points) > 0 {
				p.Series = append(p.Series, s)
			}
		}
		panels = append(panels, p)
	}
	return panels
}

// plotMetrics are the panels a plot may have, in order; all but the
// always ones only for workloads that report the metric.
var plotMetrics = []struct {
	Metric
	always bool
}{
	{MetricTime, true},
	{MetricCPUTime, false},
	{MetricSwitch, true},
	{MetricP99, false},
	{MetricMax, false},
	{MetricGap, false},
	{MetricMaxLock, false},
}

func hasUnit(results map[string][]Result, workload, unit string) bool {
	for _, rs := range results {
		for _, r := range rs {
			if _, ok := r.Values[unit]; ok && r.Workload() == workload {
				return true
			}
		}
	}
	return false
}

// Whiskers of the plots drawn from a run's raw output, and of those drawn
// from benchstat's tables (Replot).
const (
	whiskersRange = "whiskers show the range of the samples"
	whiskersCI    = "whiskers show benchstat's 95% confidence interval of the median"
)

// plotCaption is the lines under a plot's title: what it was made from,
// so that a plot shown on its own still says so.
func plotCaption(rec Record, whiskers string) string {
	what := fmt.Sprintf("run %s", rec.Name)
	if len(rec.Pooled) > 0 {
		what = fmt.Sprintf("pool %s of %d runs", rec.Name, len(rec.Pooled))
	}
	return fmt.Sprintf("commit %.7s on %s, %s\nmedian of %d samples; %s", rec.Provenance.Commit, rec.Host, what, rec.Count, whiskers)
}

// writePlots writes one SVG per workload, titled with the workload and
// caption, and returns their paths relative to dir.
func writePlots(dir string, workloads, order []string, results map[string][]Result, caption string) ([]string, error) {
	if err := os.MkdirAll(filepath.Join(dir, "plots"), 0o777); err != nil {
		return nil, err
	}
	var files []string
	for _, w := range workloads {
		var buf bytes.Buffer
		if err := WriteSVG(&buf, w+"\n"+caption, WorkloadPanels(w, order, results)); err != nil {
			return nil, err
		}
		rel := PlotFile(w)
		if err := os.WriteFile(filepath.Join(dir, rel), buf.Bytes(), 0o666); err != nil {
			return nil, err
		}
		files = append(files, rel)
	}
	return files, nil
}

// writeSummary writes summary.md for the run r: what ran, and links to
// every table and plot, with the time-per-op table of each comparison
// inline. The tables are read from dir.
func writeSummary(dir string, r Record) error {
	text, err := summaryMarkdown(dir, r, true)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.md"), []byte(text), 0o666)
}

// summaryMarkdown renders the summary of r, reading its tables from dir.
// withRaw says whether the raw go test output is in dir to be linked.
func summaryMarkdown(dir string, r Record, withRaw bool) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# go-spinbit benchmark run %s\n\n", r.Name)
	fmt.Fprintf(&b, "- mode: %s (benchtime %s, count %d, GOMAXPROCS %s, benchmarks matching `%s`)\n", r.Mode, r.Benchtime, r.Count, joinInts(r.CPUs), r.Bench)
	fmt.Fprintf(&b, "- started %s, took %s\n", r.Start.Format(time.RFC3339), r.Elapsed)
	if r.Host != "" {
		fmt.Fprintf(&b, "- host: %s\n", r.Host)
	}
	if r.Machine != "" {
		fmt.Fprintf(&b, "- measured on the machine %s with the linux/%s benchmark bundle (./bench.bash -bundle) built from the commit below\n", r.Machine, r.GOARCH)
	}
	if r.Incomplete != "" {
		fmt.Fprintf(&b, "- **incomplete run**, reported as far as it went: %s\n", r.Incomplete)
	}
	pv := r.Provenance
	if pv.Commit != "" {
		fmt.Fprintf(&b, "- repository commit: %s\n", pv.Commit)
	}
	if base := r.ForkBase(); base != "" {
		fmt.Fprintf(&b, "- the fork's base: %s\n", base)
	}
	if m := pv.Mutex; m != nil {
		fmt.Fprintf(&b, "- the fork's mutex: SHA-256 %s of the base's patches that change src/runtime/lock_*.go (%s); `./test.bash -run bench/published-pool-current` says whether the tree still holds it\n", m.SHA256, strings.Join(m.Patches, ", "))
	}
	for _, p := range pv.Problems() {
		fmt.Fprintf(&b, "- **not reproducible from the commit alone**: %s\n", p)
	}
	fmt.Fprintf(&b, "- runs were interleaved: %s\n", interleaveNote(r.Interleave))
	if len(r.Pooled) > 0 {
		fmt.Fprintf(&b, "- pooled (./bench.bash -pool) from %d runs of the same code and settings, %s; each toolchain's raw output is theirs one after another, so each median is of %d samples:\n", len(r.Pooled), poolSpan(r.Pooled), r.Count)
		for _, p := range r.Pooled {
			fmt.Fprintf(&b, "  - %s: commit %s, started %s, count %d\n", p.Name, p.Commit, p.Start.Format(time.RFC3339), p.Count)
		}
		if note := poolRebootNote(r.Pooled); note != "" {
			fmt.Fprintf(&b, "- %s\n", note)
		}
	}
	b.WriteString("\n")

	b.WriteString("## Toolchains\n\n")
	if withRaw {
		b.WriteString("| name | go version | GOEXPERIMENT | raw output |\n|---|---|---|---|\n")
	} else {
		b.WriteString("| name | go version | GOEXPERIMENT |\n|---|---|---|\n")
	}
	for _, t := range r.Toolchains {
		exp := t.Experiment
		if exp == "" {
			exp = "(default)"
		}
		if withRaw {
			fmt.Fprintf(&b, "| %s | %s | %s | [%s](%s) |\n", t.Name, t.Version, exp, t.Raw, t.Raw)
		} else {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", t.Name, t.Version, exp)
		}
	}
	b.WriteString("\n")

	b.WriteString("## Benchstat tables\n\n")
	fmt.Fprintf(&b, "Behind each row: %s, %d samples of each toolchain (a row's n= counts those that have its result).\n\n", plural(max(len(r.Pooled), 1), "run"), r.Count)
	b.WriteString("Each file holds one table per metric: sec/op, cpu-sec/op (CPU time), vcsw/op and ivcsw/op (voluntary and involuntary context switches), B/op and allocs/op, for the latency workloads p50, p99 and max, and for Select max-gap, the longest time one goroutine took for 64 ops in a row (benchstat shows those -ns metrics as -sec). The time-per-op table is repeated here.\n\n")
	for _, t := range r.Tables {
		fmt.Fprintf(&b, "### %s\n\n[%s](%s)\n\n", t.Title, t.File, t.File)
		data, err := os.ReadFile(filepath.Join(dir, t.File))
		if err != nil {
			return "", err
		}
		if tab, ok := FindTable(SplitTables(string(data)), "sec/op"); ok {
			fmt.Fprintf(&b, "```\n%s\n```\n\n", tab.Text)
		} else {
			b.WriteString("(no sec/op table: see the file)\n\n")
		}
	}

	if r.Tails != "" {
		fmt.Fprintf(&b, "## Tail latency\n\n[%s](%s): p99, p99.9 and max of every wait of every sample taken together, for each comparison, with bootstrap intervals of the change; a row whose interval holds zero is marked `~`.\n\n", r.Tails, r.Tails)
	}
	if r.Spread != "" {
		fmt.Fprintf(&b, "## Run to run\n\n[%s](%s): each row's change in each run the pool joins, taken alone, and whether the runs agree in sign; a row whose runs disagree moves with the machine's state, not the code.\n\n", r.Spread, r.Spread)
	}
	b.WriteString("## Plots\n\nOne per workload, against GOMAXPROCS, one line per toolchain: time per op, CPU time per op, context switches per op, and where measured p99 latency, the longest wait and the longest gap. Each names its commit, machine and run or pool under its title.\n\n")
	plots := append([]string(nil), r.Plots...)
	sort.Strings(plots)
	for _, p := range plots {
		name := strings.TrimSuffix(path.Base(p), ".svg")
		fmt.Fprintf(&b, "### %s\n\n![%s](%s)\n\n", name, name, p)
	}
	return b.String(), nil
}

// hostCPU returns the cpu: line of the raw output, which names the
// processor, as hostLabel words it.
func hostCPU(tcs []*prepared) string {
	for _, p := range tcs {
		data, err := os.ReadFile(p.Raw)
		if err != nil {
			continue
		}
		if cpu := cpuLine(string(data)); cpu != "" {
			return hostLabel(cpu)
		}
	}
	return ""
}

// hostLabel names a host in a run's record: the processor as Go's cpu:
// line names it, and this machine's logical CPUs.
func hostLabel(cpu string) string {
	return fmt.Sprintf("%s, %d logical CPUs", cpu, runtime.NumCPU())
}

// cpuLine returns the value of the first cpu: line of go test output, or
// "" if it has none.
func cpuLine(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "cpu: "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// reportInput is what a finished run hands to report.
type reportInput struct {
	Suite      suite
	Options    Options
	Start      time.Time
	OutDir     string
	Benchstat  string
	Toolchains []*prepared
	Names      []string // the benchmarks, Benchmark prefix included
	Results    map[string][]Result
	Provenance Provenance
	Bundle     *bundleReport // set for the run folder of a bundle (ReportRun)
}

// report writes a finished run's benchstat tables, plots, summary and
// record, prints the sec/op tables, and with -check verifies that nothing
// is missing.
func report(ctx context.Context, in reportInput, stdout io.Writer) error {
	outDir := in.OutDir
	var workloads []string
	for _, n := range in.Names {
		workloads = append(workloads, strings.TrimPrefix(n, "Benchmark"))
	}
	caption := plotCaption(Record{Name: filepath.Base(outDir), Host: hostCPU(in.Toolchains), Count: in.Options.Count, Provenance: in.Provenance}, whiskersRange)
	tables, plots, err := writeTablesAndPlots(ctx, in.Benchstat, outDir, in.Toolchains, in.Suite.Comparisons, workloads, in.Results, caption)
	if err != nil {
		return err
	}
	tcNames := toolchainNames(in.Toolchains)
	oneRun := map[string][][]Result{}
	for name, rs := range in.Results {
		oneRun[name] = [][]Result{rs}
	}
	tails, err := writeTails(outDir, tableComparisons(tables), oneRun)
	if err != nil {
		return err
	}
	info := runInfo{Dir: outDir, Options: in.Options, Suite: in.Suite.Name, Start: in.Start, Elapsed: time.Since(in.Start),
		Toolchains: in.Toolchains, Tables: tables, Tails: tails, Plots: plots, Provenance: in.Provenance}
	if b := in.Bundle; b != nil {
		info.Elapsed, info.HostCPU = b.Elapsed, b.Host
	} else {
		info.HostCPU, info.Boot = hostCPU(in.Toolchains), bootID()
	}
	rec := newRecord(info)
	if b := in.Bundle; b != nil {
		rec.Mode, rec.Machine, rec.GOARCH, rec.Incomplete = b.Mode, b.Machine, b.GOARCH, b.Incomplete
		if b.Elapsed == 0 {
			rec.Elapsed = "unknown (not finished)"
		}
	}
	if err := writeSummary(outDir, rec); err != nil {
		return err
	}
	if err := writeRecord(outDir, rec); err != nil {
		return err
	}
	linkLatest(outDir)
	fmt.Fprintf(stdout, "wrote %d tables, %d plots and %s\n", len(tables), len(plots), filepath.Join(outDir, "summary.md"))
	for _, t := range tables {
		if t.File == allFile {
			continue
		}
		data, err := os.ReadFile(filepath.Join(outDir, t.File))
		if err == nil {
			if tab, ok := FindTable(SplitTables(string(data)), "sec/op"); ok {
				fmt.Fprintf(stdout, "\n%s (%s):\n%s\n", t.Title, t.File, tab.Text)
			}
		}
	}
	if !in.Options.Check {
		return nil
	}
	check := CheckInput{Dir: outDir, Toolchains: tcNames, Workloads: workloads, CPUs: in.Options.CPUs, Results: in.Results, Plots: plots, Tables: tables}
	// The rusage metrics are bench/'s own; the runtime's benchmarks lack them.
	if runtime.GOOS == "linux" && in.Suite.Name == "" {
		check.Units = []string{"vcsw/op", "ivcsw/op", "cpu-ns/op"}
	}
	if err := Check(check); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "check passed: %d toolchains x %d benchmarks x GOMAXPROCS %s, %d tables, %d plots\n",
		len(tcNames), len(workloads), joinInts(in.Options.CPUs), len(tables), len(plots))
	return nil
}

// writeTablesAndPlots writes the benchstat tables of the comparisons and
// one plot per workload, from the raw output of tcs in outDir and its
// parsed results.
func writeTablesAndPlots(ctx context.Context, benchstat, outDir string, tcs []*prepared, comparisons []Comparison, workloads []string, results map[string][]Result, caption string) ([]TableFile, []string, error) {
	tables, err := writeTables(ctx, benchstat, outDir, tcs, comparisons)
	if err != nil {
		return nil, nil, err
	}
	plots, err := writePlots(outDir, workloads, toolchainNames(tcs), results, caption)
	if err != nil {
		return nil, nil, err
	}
	return tables, plots, nil
}

func toolchainNames(tcs []*prepared) []string {
	var names []string
	for _, p := range tcs {
		names = append(names, p.Name)
	}
	return names
}
