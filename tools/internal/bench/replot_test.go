package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const allTables = `goos: linux
cpu: Some CPU
            │   upstream   │            spinbit             │
            │    sec/op    │    sec/op     vs base          │
Handoff       300.0n ±  5%   200.0n ± 10%  -33.33% (p=0.000 n=20)
Handoff-4     400.0n ± 50%   300.0n ± 200%        ~ (p=0.300 n=20)
Handoff-8     400.0n ±  ?    300.0n ±  ?          ~ (p=0.300 n=20)
geomean       346.4n         244.9n        -29.29%

            │   upstream   │            spinbit             │
            │   max-sec    │   max-sec     vs base          │
Handoff       1.000m ±  5%   2.000m ± 10%  +100.00% (p=0.000 n=20)
Handoff-4     50.00m ± 10%   16.00m ± 20%  -68.00% (p=0.000 n=20)
geomean       7.071m         5.657m        -20.00%

            │   upstream   │            spinbit             │
            │   vcsw/op    │   vcsw/op     vs base          │
Handoff       1.000m ±  5%   2.000m ± 10%  +100.00% (p=0.000 n=20)

            │   upstream   │            spinbit             │
            │   ivcsw/op   │   ivcsw/op    vs base          │
Handoff       3.000m ±  5%   1.000m ± 10%  -66.67% (p=0.000 n=20)
`

func TestTablePanels(t *testing.T) {
	stats, order := tableStats(SplitTables(allTables))
	if strings.Join(order, ",") != "upstream,spinbit" {
		t.Fatalf("order %v", order)
	}
	panels := tablePanels(stats, "Handoff", order)
	var titles []string
	for _, p := range panels {
		titles = append(titles, p.Title)
	}
	// No CPU or p99 table: no such panel; the longest wait gets one.
	if len(panels) != 3 || panels[0].Title != MetricTime.Title || panels[2].Title != MetricMax.Title {
		t.Fatalf("panels %q, want time, switches, longest wait", titles)
	}
	sp := panels[0].Series[1]
	if sp.Name != "spinbit" || len(sp.Points) != 3 || sp.Points[0].X != 1 || sp.Points[1].X != 4 || sp.Points[2].X != 8 {
		t.Fatalf("spinbit time series %+v", sp)
	}
	if p := sp.Points[0]; !near(p.Y, 200) || !near(p.Lo, 180) || !near(p.Hi, 220) {
		t.Errorf("spinbit at 1: %+v, want 200ns with a ±10%% whisker", p)
	}
	if p := sp.Points[1]; p.Lo != 0 || !near(p.Hi, 900) {
		t.Errorf("spinbit at 4: %+v, want a ±200%% whisker cut at zero", p)
	}
	if p := sp.Points[2]; !near(p.Y, 300) || p.Lo != p.Hi {
		t.Errorf("spinbit at 8: %+v, want 300ns and no whisker where benchstat gave no interval", p)
	}
	if p := panels[2].Series[0].Points[1]; !near(p.Y, 50e6) {
		t.Errorf("upstream's longest wait at 4: %+v, want 50ms in ns", p)
	}
	// Switches add the two medians, and draw no whisker.
	if p := panels[1].Series[0].Points[0]; !near(p.Y, 0.004) || p.Lo != p.Hi {
		t.Errorf("upstream switches at 1: %+v, want 0.004 and no whisker", p)
	}
}

func near(a, b float64) bool { return a > b*0.999 && a < b*1.001 }

func TestReplot(t *testing.T) {
	dir := t.TempDir()
	rec := Record{Name: "pooled-x", Host: "Some CPU, 2 logical CPUs", Count: 20, Provenance: Provenance{Commit: "abcdef123456"},
		Pooled: []PooledRun{{Name: "a"}, {Name: "b"}}, Plots: []string{"plots/Handoff.svg"}}
	if err := writeRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "plots"), 0o777)
	os.WriteFile(filepath.Join(dir, allFile), []byte(allTables), 0o666)
	if err := Replot(dir); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "plots", "Handoff.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">Handoff</text>", "commit abcdef1 on Some CPU, 2 logical CPUs, pool pooled-x of 2 runs", "median of 20 samples; " + whiskersCI, MetricMax.Title} {
		if !strings.Contains(string(svg), want) && !strings.Contains(string(svg), esc(want)) {
			t.Errorf("replotted SVG lacks %q", want)
		}
	}
	// A plot the tables know nothing of is an error, not an empty plot.
	rec.Plots = append(rec.Plots, "plots/Select.svg")
	writeRecord(dir, rec)
	if err := Replot(dir); err == nil || !strings.Contains(err.Error(), "Select") {
		t.Errorf("Replot with a plot of a workload the tables lack: %v", err)
	}
}
