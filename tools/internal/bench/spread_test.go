package bench

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// results makes one run's results of a benchmark at GOMAXPROCS 4, a
// sample per value.
func results(name, unit string, values ...float64) []Result {
	var rs []Result
	for _, v := range values {
		rs = append(rs, Result{Name: name, Procs: 4, Values: map[string]float64{unit: v}})
	}
	return rs
}

func TestSpreadRows(t *testing.T) {
	runs := map[string][][]Result{
		"go1.27": {
			append(results("Select", "ns/op", 100, 100, 100), results("Chan", "max-ns", 10, 30, 20)...),
			append(results("Select", "ns/op", 100, 100, 100), results("Chan", "max-ns", 10)...),
		},
		"spinbit": {
			append(results("Select", "ns/op", 110, 110, 120), results("Chan", "max-ns", 5, 5, 5)...),
			results("Select", "ns/op", 90, 90, 80),
		},
	}
	rows := spreadRows(Comparison{New: "spinbit", Base: "go1.27"}, runs)
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2 (Chan-4 max-ns, Select-4 ns/op): %+v", len(rows), rows)
	}
	chanRow, sel := rows[0], rows[1]
	if chanRow.Bench != "Chan-4" || chanRow.Unit != "max-ns" || math.Abs(chanRow.Runs[0]+0.75) > 1e-9 || !math.IsNaN(chanRow.Runs[1]) || chanRow.Verdict() != spreadSome {
		t.Errorf("Chan-4: %+v, %s; want run 1 -75%%, run 2 missing: some", chanRow, chanRow.Verdict())
	}
	if sel.Bench != "Select-4" || math.Abs(sel.Runs[0]-0.1) > 1e-9 || math.Abs(sel.Runs[1]+0.1) > 1e-9 || sel.Verdict() != spreadMixed {
		t.Errorf("Select-4: %+v; want +10%% then -10%%, mixed", sel)
	}
	// The pool's median is of all six samples: 100 against 100.
	if sel.Pooled != 0 {
		t.Errorf("Select-4 pooled change %v, want 0 (median of 110,110,120,90,90,80 is 100)", sel.Pooled)
	}
	for _, c := range []struct {
		runs []float64
		want string
	}{
		{[]float64{0.1, 0.02}, spreadAgree},
		{[]float64{-0.1, -0.3}, spreadAgree},
		{[]float64{0.1, 0, 0.03}, spreadSome},
		{[]float64{0, 0}, spreadSome},
		{[]float64{0.1, math.NaN()}, spreadSome},
		{[]float64{0.1, 0, -0.01}, spreadMixed},
	} {
		if got := (spreadRow{Runs: c.runs}).Verdict(); got != c.want {
			t.Errorf("Verdict of %v = %s, want %s", c.runs, got, c.want)
		}
	}
}

func TestWriteSpread(t *testing.T) {
	dir := t.TempDir()
	runs := map[string][][]Result{
		"go1.27":  {results("Select", "ns/op", 100), results("Select", "ns/op", 100)},
		"spinbit": {results("Select", "ns/op", 120), results("Select", "ns/op", 110)},
	}
	c := []Comparison{{New: "spinbit", Base: "go1.27"}}
	if name, err := writeSpread(dir, c, map[string][][]Result{"go1.27": runs["go1.27"][:1], "spinbit": runs["spinbit"][:1]}, []string{"a"}); err != nil || name != "" {
		t.Errorf("a pool of one run: wrote %q, %v; want nothing", name, err)
	}
	if _, err := os.Stat(filepath.Join(dir, spreadFile)); err == nil {
		t.Error("a pool of one run has a spread page")
	}
	// Chan went up in one run and down in the other.
	runs["go1.27"][0] = append(runs["go1.27"][0], results("Chan", "ns/op", 100)...)
	runs["go1.27"][1] = append(runs["go1.27"][1], results("Chan", "ns/op", 100)...)
	runs["spinbit"][0] = append(runs["spinbit"][0], results("Chan", "ns/op", 120)...)
	runs["spinbit"][1] = append(runs["spinbit"][1], results("Chan", "ns/op", 90)...)
	name, err := writeSpread(dir, c, runs, []string{"a", "b"})
	if err != nil || name != spreadFile {
		t.Fatalf("writeSpread = %q, %v", name, err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, spreadFile))
	for _, want := range []string{"## spinbit vs go1.27", "| benchmark | metric | a | b | pool | runs |", "| Select-4 | ns/op | +20.0% | +10.0% | +15.0% | agree |",
		"| Chan-4 | ns/op | +20.0% | -10.0% | +5.0% | mixed |", "Rows whose runs disagree in sign:\n\n- spinbit vs go1.27: 1 of 2 rows: Chan-4 ns/op\n"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("%s lacks %q:\n%s", spreadFile, want, page)
		}
	}
}

// The series' own runtime benchmarks' metrics that RESULTS.md condenses
// are compared run by run too.
func TestSpreadRowsRuntimeMetrics(t *testing.T) {
	for _, unit := range []string{"handoff-ns", "max-lock-ns", "max-wait-ns", "p99-lock-ns"} {
		runs := map[string][][]Result{
			"nospinbit": {results("RuntimeMutexHandoff", unit, 100), results("RuntimeMutexHandoff", unit, 100)},
			"spinbit":   {results("RuntimeMutexHandoff", unit, 120), results("RuntimeMutexHandoff", unit, 90)},
		}
		rows := spreadRows(Comparison{New: "spinbit", Base: "nospinbit"}, runs)
		if len(rows) != 1 || rows[0].Unit != unit || rows[0].Verdict() != spreadMixed {
			t.Errorf("%s: rows %+v, want RuntimeMutexHandoff-4 mixed", unit, rows)
		}
	}
}
