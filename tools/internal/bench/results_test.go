package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// table builds a benchstat comparison table of unit from rows written as
// benchstat prints them.
func table(unit string, rows ...string) Table {
	text := "        │ base │ new │\n        │ " + unit + " │ " + unit + "  vs base │\n" + strings.Join(rows, "\n") + "\ngeomean  1.0n  1.0n  +0.00%\n"
	return Table{Unit: unit, Text: text}
}

func TestParseRows(t *testing.T) {
	rows := parseRows(table("sec/op",
		"Select-32          768.0n ±  8%    653.9n ± 13%  -14.86% (p=0.038 n=20)",
		"Select             367.4n ±  6%    360.2n ±  8%        ~ (p=0.738 n=20)",
		"Select-16            0.000 ±  0%       0.000 ±  0%       ~ (p=1.000 n=20) ¹",
	))
	if len(rows) != 3 {
		t.Fatalf("parsed %d rows, want 3: %+v", len(rows), rows)
	}
	r := rows[0]
	if r.Name != "Select-32" || r.Base != "768.0ns" || r.New != "653.9ns" || !r.Significant() || r.Percent() != -14.86 || r.P != "0.038" {
		t.Errorf("row 0 = %+v", r)
	}
	if r.Workload() != "Select" || r.Procs() != 32 {
		t.Errorf("row 0: workload %q procs %d", r.Workload(), r.Procs())
	}
	if rows[1].Significant() || rows[1].Procs() != 1 || rows[1].Workload() != "Select" {
		t.Errorf("row 1 = %+v", rows[1])
	}
	if v, ok := parseValue("11240.0µs"); !ok || v < 0.01123 || v > 0.01125 {
		t.Errorf("parseValue(11240.0µs) = %v, %v", v, ok)
	}
}

func TestTargetMisses(t *testing.T) {
	p := pooledReport{
		VsUpstream: []Table{
			table("sec/op",
				"Select-16   700.0n ± 8%   690.0n ± 8%   ~ (p=0.500 n=20)",
				"Handoff-4   400.0n ± 8%   440.0n ± 8%   +10.00% (p=0.010 n=20)",
			),
			table("max-sec",
				"Handoff-8   18.0m ± 8%   10.0m ± 8%   -44.00% (p=0.000 n=20)",
				"Capture-8   10.0m ± 8%   12.0m ± 8%   +20.00% (p=0.010 n=20)",
			),
		},
		VsGo124: []Table{
			table("sec/op",
				"Select-16   400.0n ± 8%   690.0n ± 8%   +72.50% (p=0.000 n=20)",
				"Select      300.0n ± 8%   360.0n ± 8%   +20.00% (p=0.000 n=20)",
				"Handoff-4   500.0n ± 8%   440.0n ± 8%   -12.00% (p=0.010 n=20)",
				"HTTP-4      40.0µ ± 8%    50.0µ ± 8%    +25.00% (p=0.010 n=20)",
				"Handoff-8   400.0n ± 8%   408.0n ± 8%   +2.00% (p=0.010 n=20)",
			),
			table("p99-sec", "Handoff-8   42.5µ ± 8%   53.3µ ± 8%   +25.30% (p=0.019 n=20)"),
			table("cpu-sec/op", "Select-4   434.0n ± 8%   505.9n ± 8%   +16.55% (p=0.000 n=20)"),
		},
		Go124VsUpstream: []Table{
			table("sec/op",
				"Select-16   700.0n ± 8%   400.0n ± 8%   -42.00% (p=0.000 n=20)",
				"Handoff-4   400.0n ± 8%   500.0n ± 8%   +25.00% (p=0.000 n=20)",
				"Handoff-8   420.0n ± 8%   400.0n ± 8%   ~ (p=0.300 n=20)",
			),
		},
	}
	got := strings.Join(targetMisses(p), "\n")
	for _, want := range []string{
		"longest wait no worse than go1.23.12's: Capture-8 max, 12.0ms against 10.0ms",
		"p99 no worse than go1.24.13's: Handoff-8",
		// go1.24 is the better peer at Select-16, go1.23.12 at Handoff-4.
		"throughput within 3% of the better peer: Select-16, 690.0ns against go1.24.13's 400.0ns",
		"throughput within 3% of the better peer: Handoff-4, 440.0ns against go1.23.12's 400.0ns",
		"CPU per op no worse than go1.24.13's: Select-4",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("misses lack %q; got:\n%s", want, got)
		}
	}
	for _, not := range []string{"Handoff-8, 408", "HTTP", "Select, ", "max, 10.0ms"} {
		if strings.Contains(got, not) {
			t.Errorf("misses hold %q, which meets its target or has none; got:\n%s", not, got)
		}
	}
}

// bench/RESULTS.md is written from the published pool; publishing a new
// pool without writing it again leaves it stale.
func TestResultsFileIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	p, err := readPooledReport(filepath.Join(root, filepath.FromSlash(ReportDir), "pooled"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != resultsMarkdown(p) {
		t.Errorf("%s is not what the published pool gives: run ./bench.bash -results", ResultsFile)
	}
}
