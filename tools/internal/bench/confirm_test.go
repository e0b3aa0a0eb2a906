package bench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const confirmHeader = `goos: linux
goarch: amd64
pkg: go-spinbit.dev/bench
cpu: Some CPU
          │    base     │              spinbit               │
          │   sec/op    │   sec/op     vs base               │
`

// The published pool's rows: two significant changes of Select, one of
// HTTP, and a row benchstat calls ~.
const confirmFirstTable = confirmHeader + `Select-16   400.0n ± 5%   300.0n ± 4%  -25.00% (p=0.000 n=30)
Select-32   400.0n ± 5%   500.0n ± 4%  +25.00% (p=0.000 n=30)
Handoff-2   100.0n ± 5%   101.0n ± 4%        ~ (p=0.500 n=30)
HTTP-4      100.0n ± 5%   110.0n ± 4%  +10.00% (p=0.010 n=30)
geomean     200.0n        200.0n        +0.00%

          │    base     │              spinbit               │
          │    B/op     │    B/op      vs base               │
HTTP-2      5.000Ki ± 1%   5.182Ki ± 1%   +3.64% (p=0.000 n=30)
HTTP-8      5.000Ki ± 1%   5.182Ki ± 1%   +3.64% (p=0.000 n=30)
geomean     5.000Ki        5.182Ki        +3.64%
`

// The second pool's: Select-16 down but not significantly (agrees),
// Select-32 significantly down (disagrees), no HTTP-4 (missing), HTTP-2's
// bytes up in binary units but not significantly (agrees), and HTTP-8's
// unchanged.
const confirmSecondTable = confirmHeader + `Select-16   400.0n ± 5%   390.0n ± 4%        ~ (p=0.400 n=30)
Select-32   400.0n ± 5%   380.0n ± 4%   -5.00% (p=0.010 n=30)
Handoff-2   100.0n ± 5%   120.0n ± 4%  +20.00% (p=0.000 n=30)
geomean     200.0n        200.0n        +0.00%

          │    base     │              spinbit               │
          │    B/op     │    B/op      vs base               │
HTTP-2      5.000Ki ± 1%   5.240Ki ± 1%        ~ (p=0.200 n=30)
HTTP-8      5.000Ki ± 1%   5.000Ki ± 1%        ~ (p=0.900 n=30)
geomean     5.000Ki        5.118Ki        +2.36%
`

// confirmPool writes a pool of bench/ with the fork on go1.27.4 to dir, of
// three runs started on the given days of November 2026, with the fork's
// comparisons against upstream, go1.24 and go1.27 all holding table (or,
// with runtime set, a pool of the runtime's own benchmarks, whose one
// comparison is against nospinbit).
func confirmPool(t *testing.T, dir, name string, days [3]int, table string, runtime bool, mutate func(*Record)) {
	t.Helper()
	rec := Record{
		Name: name, Mode: "full", Benchtime: "150ms", Count: 30, CPUs: fullCPUs, Bench: ".",
		Start: time.Date(2026, 11, days[2], 9, 0, 0, 0, time.UTC), Host: "Some CPU, 2 logical CPUs",
		Provenance: Provenance{Commit: "a3080aa12345", Base: "go1.27.4", Mutex: &MutexCode{SHA256: "feed"}},
	}
	toolchains, bases := Known, []string{"upstream", "go1.24", "go1.27"}
	if runtime {
		rec.Suite, rec.Bench = "runtime", runtimeBench
		toolchains, bases = []Toolchain{Known[1], Known[2]}, []string{"nospinbit"}
	}
	for _, k := range toolchains {
		rec.Toolchains = append(rec.Toolchains, RecordToolchain{Name: k.Name, Version: "go1.x", Experiment: k.Experiment, Raw: k.Name + ".txt"})
	}
	for i, d := range days {
		rec.Pooled = append(rec.Pooled, PooledRun{Name: name + "-run" + string(rune('1'+i)), Commit: "a3080aa12345", Count: 10, Boot: "b1",
			Start: time.Date(2026, 11, d, 8, 0, 0, 0, time.UTC), Dir: "bench/report/go1.27.4/runs/" + name + "-run" + string(rune('1'+i))})
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, base := range bases {
		c := Comparison{New: "spinbit", Base: base}
		rec.Tables = append(rec.Tables, TableFile{Title: c.String(), File: c.File(), Columns: []string{base, "spinbit"}})
		if err := os.WriteFile(filepath.Join(dir, c.File()), []byte(table), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if mutate != nil {
		mutate(&rec)
	}
	if err := writeRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
}

// Confirm looks every significant row of the published pool up in the
// second pool: a row that moved the same way agrees, significant there or
// not; one that moved the other way disagrees, and RESULTS.md marks it.
func TestConfirm(t *testing.T) {
	root := t.TempDir()
	published := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.4")), "pooled")
	confirmPool(t, published, "pooled-1", [3]int{24, 25, 26}, confirmFirstTable, false, nil)
	second := filepath.Join(root, "bench", "results", "pooled-2")
	confirmPool(t, second, "pooled-2", [3]int{27, 28, 29}, confirmSecondTable, false, nil)

	var out strings.Builder
	if err := confirm(root, second, &out, noCodeChanges); err != nil {
		t.Fatal(err)
	}
	if want := "pool pooled-2 agrees in sign with 6 of the 15 significant rows of the published pool pooled-1 (3 disagree, 3 unchanged, 0 unreadable, 3 missing)"; !strings.Contains(out.String(), want) {
		t.Errorf("Confirm said %q, want %q", out.String(), want)
	}
	page, err := os.ReadFile(filepath.Join(published, secondPoolFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| spinbit vs go1.27 | sec/op | Select-16 | -25.00% | ~ (400.0ns → 390.0ns) | 0.400 | agrees |",
		"| spinbit vs go1.27 | sec/op | Select-32 | +25.00% | -5.00% | 0.010 | **disagrees** |",
		"| spinbit vs go1.27 | sec/op | HTTP-4 | +10.00% | (no row) |  | missing |",
		"| spinbit vs go1.27 | B/op | HTTP-2 | +3.64% | ~ (5.000Ki → 5.240Ki) | 0.200 | agrees |",
		"| spinbit vs go1.27 | B/op | HTTP-8 | +3.64% | ~ (5.000Ki → 5.000Ki) | 0.900 | unchanged |",
		"- 15 significant rows: 6 agree; 3 disagree, 3 unchanged, 0 unreadable, 3 missing",
		"- host of both: Some CPU, 2 logical CPUs\n",
		"./bench.bash -pool bench/report/go1.27.4/runs/pooled-2-run1,bench/report/go1.27.4/runs/pooled-2-run2,bench/report/go1.27.4/runs/pooled-2-run3 -out DIR",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("%s lacks %q:\n%s", secondPoolFile, want, page)
		}
	}
	if strings.Contains(string(page), "Handoff-2") {
		t.Errorf("%s lists Handoff-2, which the published pool found no difference in:\n%s", secondPoolFile, page)
	}

	results, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Select-32 | 400.0ns | 500.0ns | +25.00% (**second pool disagrees**) |",
		"| HTTP-4 | 100.0ns | 110.0ns | +10.00% (not in the second pool) |",
		"| Select-16 | 400.0ns | 300.0ns | -25.00% | 0.000 |",
		"[second pool](report/go1.27.4/pooled/second-pool.md)",
	} {
		if !strings.Contains(string(results), want) {
			t.Errorf("%s lacks %q:\n%s", ResultsFile, want, results)
		}
	}

	// The runtime's own benchmarks: RESULTS.md marks their rows too.
	rtPublished := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.4")), "runtime", "pooled")
	confirmPool(t, rtPublished, "runtime-pooled-1", [3]int{24, 25, 26}, confirmFirstTable, true, nil)
	rtSecond := filepath.Join(root, "bench", "results", "runtime-pooled-2")
	confirmPool(t, rtSecond, "runtime-pooled-2", [3]int{27, 28, 29}, confirmSecondTable, true, nil)
	out.Reset()
	if err := confirm(root, rtSecond, &out, noCodeChanges); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "agrees in sign with 2 of the 5 significant rows") || !strings.Contains(out.String(), "wrote "+ResultsFile) {
		t.Errorf("Confirm of the runtime pool said %q", out.String())
	}
	results, _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	if want := "| time per op | Select-32 | 400.0ns | 500.0ns | +25.00% (**second pool disagrees**) |"; !strings.Contains(string(results), want) {
		t.Errorf("%s lacks %q:\n%s", ResultsFile, want, results)
	}

	// Upstream's runtime benchmarks: so do theirs.
	upstreamPool := func(r *Record) {
		r.Suite, r.Bench = "runtime", upstreamRuntimeBench
		r.Toolchains = slices.DeleteFunc(r.Toolchains, func(t RecordToolchain) bool { return t.Name == "upstream" })
		r.Tables = slices.DeleteFunc(r.Tables, func(t TableFile) bool { return t.File == "spinbit-vs-upstream.txt" })
	}
	upPublished := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.4")), upstreamRuntimeDir, "pooled")
	confirmPool(t, upPublished, "upstream-pooled-1", [3]int{24, 25, 26}, confirmFirstTable, false, upstreamPool)
	upSecond := filepath.Join(root, "bench", "results", "upstream-pooled-2")
	confirmPool(t, upSecond, "upstream-pooled-2", [3]int{27, 28, 29}, confirmSecondTable, false, upstreamPool)
	out.Reset()
	if err := confirm(root, upSecond, &out, noCodeChanges); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "wrote "+ResultsFile) {
		t.Errorf("Confirm of the pool of upstream's runtime benchmarks said %q", out.String())
	}
	results, _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	_, upstreamSection, _ := strings.Cut(string(results), "## Upstream's runtime mutex benchmarks")
	if want := "| time per op | Select-32 | 400.0ns | 500.0ns | +25.00% (**second pool disagrees**) |"; !strings.Contains(upstreamSection, want) {
		t.Errorf("%s's section of upstream's runtime benchmarks lacks %q:\n%s", ResultsFile, want, results)
	}
}

// A second pool's page checks the pool it names: once another pool is
// published in its place, it is refused, and Publish removes it.
func TestSecondPoolPageOfAnotherPool(t *testing.T) {
	dir := t.TempDir()
	page := secondPoolTitle + "\n\n- published pool: pooled-1, 3 runs\n\n" + secondTableHeader +
		"| spinbit vs go1.27 | sec/op | Select-32 | +25.00% | -5.00% | 0.010 | **disagrees** |\n"
	os.WriteFile(filepath.Join(dir, secondPoolFile), []byte(page), 0o666)
	if v, err := readSecondPool(dir, "pooled-1"); err != nil || v[spreadKeyOf{"spinbit vs go1.27", "Select-32", "sec/op"}] != secondDisagrees {
		t.Errorf("readSecondPool of its own pool = %v, %v", v, err)
	}
	if _, err := readSecondPool(dir, "pooled-3"); err == nil || !strings.Contains(err.Error(), "checks another pool than the one published there, pooled-3: run ./bench.bash -confirm again") {
		t.Errorf("readSecondPool of another pool: error = %v", err)
	}
	// A page with no rows (a pool without significant rows) is read as such.
	os.WriteFile(filepath.Join(dir, secondPoolFile), []byte(secondPoolTitle+"\n\n- published pool: pooled-1, 3 runs\n"), 0o666)
	if v, err := readSecondPool(dir, "pooled-1"); err != nil || v == nil || len(v) != 0 {
		t.Errorf("readSecondPool of a page without rows = %v, %v; want an empty map", v, err)
	}
	os.WriteFile(filepath.Join(dir, secondPoolFile), []byte("# notes\n"), 0o666)
	if _, err := readSecondPool(dir, "pooled-1"); err == nil || !strings.Contains(err.Error(), "was not written by ./bench.bash -confirm") {
		t.Errorf("readSecondPool of a page not written by -confirm: error = %v", err)
	}
}

// A second pool may run on another processor with as many logical CPUs,
// and its page names both.
func TestConfirmOtherProcessor(t *testing.T) {
	root := t.TempDir()
	published := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.4")), "pooled")
	confirmPool(t, published, "pooled-1", [3]int{24, 25, 26}, confirmFirstTable, false, nil)
	second := filepath.Join(root, "bench", "results", "pooled-2")
	confirmPool(t, second, "pooled-2", [3]int{27, 28, 29}, confirmSecondTable, false, func(r *Record) { r.Host = "Other CPU, 2 logical CPUs" })
	if err := confirm(root, second, &strings.Builder{}, noCodeChanges); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(published, secondPoolFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := "- hosts: Some CPU, 2 logical CPUs (published pool), Other CPU, 2 logical CPUs (second pool)\n"; !strings.Contains(string(page), want) {
		t.Errorf("%s lacks %q:\n%s", secondPoolFile, want, page)
	}
}

// Confirm takes only a pool that -publish would take, of the published
// pool's mutex and settings, made on other days.
func TestConfirmRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		days   [3]int
		mutate func(*Record)
		noPub  bool
		want   string
	}{
		{"a single run", [3]int{27, 28, 29}, func(r *Record) { r.Pooled = nil }, false, "is a single run"},
		{"one day", [3]int{27, 27, 27}, nil, false, "cannot confirm a pool: its 3 runs were made on only 1 boots or days"},
		{"a day of the first pool", [3]int{26, 27, 28}, nil, false, "started on 2026-11-26, a day on which a run of the published pool pooled-1 did"},
		{"another mutex", [3]int{27, 28, 29}, func(r *Record) { r.Provenance.Mutex = &MutexCode{SHA256: "beef"} }, false, "measured another mutex"},
		{"more CPUs", [3]int{27, 28, 29}, func(r *Record) { r.Host = "Some CPU, 4 logical CPUs" }, false, "ran on 2 logical CPUs (Some CPU, 2 logical CPUs) and pooled-2 on another count"},
		{"no count of CPUs", [3]int{27, 28, 29}, func(r *Record) { r.Host = "Other CPU" }, false, "and pooled-2 on another count (Other CPU)"},
		{"another benchtime", [3]int{27, 28, 29}, func(r *Record) { r.Benchtime = "1s" }, false, "differ in -benchtime"},
		{"nothing published", [3]int{27, 28, 29}, nil, true, "no pool is published in bench/report/go1.27.4/pooled"},
		{"incomplete", [3]int{27, 28, 29}, func(r *Record) { r.Incomplete = "stopped" }, false, "it is incomplete"},
		{"other code", [3]int{27, 28, 29}, func(r *Record) { r.Provenance.Commit = "b4191bb12345" }, false, "measured different code: the commits differ in bench/chan_test.go"},
	} {
		root := t.TempDir()
		if !c.noPub {
			confirmPool(t, filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.4")), "pooled"), "pooled-1", [3]int{24, 25, 26}, confirmFirstTable, false, nil)
		}
		second := filepath.Join(root, "pooled-2")
		confirmPool(t, second, "pooled-2", c.days, confirmSecondTable, false, c.mutate)
		changed := noCodeChanges
		if c.name == "other code" {
			changed = func(a, b string, paths ...string) ([]string, error) { return []string{"bench/chan_test.go"}, nil }
		}
		err := confirm(root, second, &strings.Builder{}, changed)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Confirm error = %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// A ~ row's direction is that of its medians.
func TestRowSign(t *testing.T) {
	for _, c := range []struct {
		row  benchRow
		want int
		ok   bool
	}{
		{benchRow{Base: "1.0ms", New: "900.0µs", Delta: "~"}, -1, true},
		{benchRow{Base: "1.0ms", New: "1.1ms", Delta: "~"}, 1, true},
		{benchRow{Base: "1.0ms", New: "1.0ms", Delta: "~"}, 0, true},
		{benchRow{Base: "1023", New: "1.000Ki", Delta: "~"}, 1, true},
		{benchRow{Base: "1.0ms", New: "900.0µs", Delta: "+3.00%"}, 1, true},
		{benchRow{Base: "1.0ms", New: "?", Delta: "~"}, 0, false},
	} {
		if got, ok := rowSign(c.row); got != c.want || ok != c.ok {
			t.Errorf("rowSign(%+v) = %d, %v, want %d, %v", c.row, got, ok, c.want, c.ok)
		}
	}
}
