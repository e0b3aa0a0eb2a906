package bench

import (
	"context"
	"io"
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
		"Select-8           500.0n ±  8%    400.0n ± 13%  -20.00% (p=0.010 n=10+9)",
	))
	if len(rows) != 4 {
		t.Fatalf("parsed %d rows, want 4: %+v", len(rows), rows)
	}
	r := rows[0]
	if r.Name != "Select-32" || r.Base != "768.0ns" || r.New != "653.9ns" || !r.Significant() || r.Percent() != -14.86 || r.P != "0.038" {
		t.Errorf("row 0 = %+v", r)
	}
	if r.Workload() != "Select" || r.Procs() != 32 {
		t.Errorf("row 0: workload %q procs %d", r.Workload(), r.Procs())
	}
	if r.N != "20" || rows[3].N != "10+9" || rows[3].Name != "Select-8" {
		t.Errorf("samples of rows 0 and 3: %q, %+v; want 20 and a row of Select-8 with 10+9", r.N, rows[3])
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
				"Handoff-4   300.0n ± 8%   440.0n ± 8%   +46.67% (p=0.010 n=20)",
			),
			table("max-sec",
				"Handoff-8   18.0m ± 8%   10.0m ± 8%   -44.00% (p=0.000 n=20)",
				"Capture-8   10.0m ± 8%   12.0m ± 8%   +20.00% (p=0.010 n=20)",
			),
		},
		Peers: []peer{
			{Name: "go1.24", Release: "go1.24.13", Vs: []Table{
				table("sec/op",
					"Select-16      400.0n ± 8%   690.0n ± 8%   +72.50% (p=0.000 n=20)",
					"Select         300.0n ± 8%   360.0n ± 8%   +20.00% (p=0.000 n=20)",
					"Handoff-4      500.0n ± 8%   440.0n ± 8%   -12.00% (p=0.010 n=20)",
					"HTTP-4         40.0µ ± 8%    50.0µ ± 8%    +25.00% (p=0.010 n=20)",
					"Handoff-8      400.0n ± 8%   408.0n ± 8%   +2.00% (p=0.010 n=20)",
					"SpawnStorm-2   1.000µ ± 8%   1.200µ ± 8%   +20.00% (p=0.010 n=20)",
					"SpawnStorm-4   1.000µ ± 8%   1.200µ ± 8%   +20.00% (p=0.010 n=20)",
				),
				table("p99-sec", "Handoff-8   42.5µ ± 8%   53.3µ ± 8%   +25.30% (p=0.019 n=20)"),
				table("cpu-sec/op", "Select-4   434.0n ± 8%   505.9n ± 8%   +16.55% (p=0.000 n=20)"),
			}},
			{Name: "go1.27", Release: "go1.27.3", Vs: []Table{
				table("sec/op",
					"Select-16      500.0n ± 8%   690.0n ± 8%   +38.00% (p=0.000 n=20)",
					"Handoff-4      420.0n ± 8%   440.0n ± 8%   +4.76% (p=0.010 n=20)",
					"Handoff-8      380.0n ± 8%   408.0n ± 8%   ~ (p=0.300 n=20)",
					"SpawnStorm-2   1.000µ ± 8%   1.200µ ± 8%   +20.00% (p=0.010 n=20)",
					"SpawnStorm-4   1.100µ ± 8%   1.200µ ± 8%   +9.09% (p=0.010 n=20)",
					"ChanContended-8   2.000µ ± 8%   2.100µ ± 8%   +5.00% (p=0.010 n=20)",
				),
				table("p99-sec", "Capture-4   10.0µ ± 8%   12.0µ ± 8%   +20.00% (p=0.001 n=20)"),
				table("max-sec", "Capture-8   13.0m ± 8%   12.0m ± 8%   ~ (p=0.400 n=20)"),
				table("cpu-sec/op",
					"Handoff-2   300.0n ± 8%   330.0n ± 8%   +10.00% (p=0.001 n=20)",
					"Select-8    300.0n ± 8%   306.0n ± 8%   +2.00% (p=0.001 n=20)",
				),
			}},
		},
		Upstream: &upstreamPool{CPUs: 2, Peers: []peer{
			{Name: "go1.24", Release: "go1.24.13", Vs: []Table{
				table("sec/op",
					"MutexContention-8   19.00n ± 8%   20.00n ± 8%   +5.26% (p=0.001 n=30)",
					"MutexContention-2   20.00n ± 8%   20.40n ± 8%   +2.00% (p=0.010 n=30)",
					"MutexCapture-2      20.00n ± 8%   25.00n ± 8%   +25.00% (p=0.010 n=30)",
				),
				table("sec/starve-p100", "MutexCapture-2   1.000m ± 8%   2.000m ± 8%   +100.00% (p=0.001 n=30)"),
			}},
			{Name: "go1.27", Release: "go1.27.4", Vs: []Table{
				table("sec/op", "MutexContention-8   21.00n ± 8%   20.00n ± 8%   -4.76% (p=0.001 n=30)"),
				table("sec/starve-p90",
					"MutexCapture-2   5.000µ ± 8%   6.000µ ± 8%   +20.00% (p=0.001 n=30)",
					"MutexCapture-4   2.000m ± 8%   3.000m ± 8%   +50.00% (p=0.001 n=30)",
				),
				table("sec/starve-p100", "MutexCapture-2   1.500m ± 8%   2.000m ± 8%   ~ (p=0.300 n=30)"),
			}},
		}},
	}
	misses, err := targetMisses(p)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(misses, "\n")
	for _, want := range []string{
		"longest wait no worse than go1.23.12's: Capture-8 max, 12.0ms against 10.0ms",
		"p99 no worse than go1.24.13's: Handoff-8",
		"p99 no worse than go1.27.3's: Capture-4, 12.0µs against 10.0µs",
		// go1.24 is the better peer at Select-16 and at SpawnStorm-4,
		// go1.27 at Handoff-4; at SpawnStorm-2 they tie and the first wins.
		"throughput within 3% of the better peer: Select-16, 690.0ns against go1.24.13's 400.0ns (+72.50%",
		"throughput within 3% of the better peer: Handoff-4, 440.0ns against go1.27.3's 420.0ns (+4.76%",
		"throughput within 3% of the better peer: SpawnStorm-2, 1.200µs against go1.24.13's 1.000µs",
		"throughput within 3% of the better peer: SpawnStorm-4, 1.200µs against go1.24.13's 1.000µs",
		// Only go1.27 has ChanContended-8, and only go1.24 HTTP-4 and
		// Select at GOMAXPROCS 1.
		"throughput within 3% of the better peer: ChanContended-8, 2.100µs against go1.27.3's 2.000µs",
		"throughput within 3% of the better peer: HTTP-4, 50.0µs against go1.24.13's 40.0µs (+25.00%",
		"throughput within 3% of the better peer: Select, 360.0ns against go1.24.13's 300.0ns (+20.00%",
		"CPU per op within 3% of go1.24.13's: Select-4",
		"CPU per op within 3% of go1.27.3's: Handoff-2, 330.0ns against 300.0ns",
		// Upstream's runtime benchmarks: go1.24 is the better peer at
		// MutexContention-8; MutexCapture's waits count up to 2 Ps.
		"throughput within 3% of the better peer: MutexContention-8, 20.00ns against go1.24.13's 19.00ns (+5.26%, p=0.001)",
		"p90 wait between turns no worse than go1.27.4's at GOMAXPROCS up to the 2 CPUs: MutexCapture-2, 6.000µs against 5.000µs (+20.00%, p=0.001)",
		"longest wait between turns no worse than go1.24.13's at GOMAXPROCS up to the 2 CPUs: MutexCapture-2, 2.000ms against 1.000ms",
		// A miss against another release says how the fork compares
		// with the current one in the same row, where that has the row.
		"Capture-8 max, 12.0ms against 10.0ms (+20.00%, p=0.010); the fork against go1.27.3: ~ (p=0.400)\n",
		"Select-16, 690.0ns against go1.24.13's 400.0ns (+72.50%, p=0.000); the fork against go1.27.3: +38.00% (p=0.000)\n",
		"MutexCapture-2, 2.000ms against 1.000ms (+100.00%, p=0.001); the fork against go1.27.4: ~ (p=0.300)\n",
		"Handoff-4, 440.0ns against go1.27.3's 420.0ns (+4.76%, p=0.010)\n",
		"CPU per op within 3% of go1.24.13's: Select-4, 505.9ns against 434.0ns (+16.55%, p=0.000)\n",
	} {
		if !strings.Contains(got+"\n", want) {
			t.Errorf("misses lack %q; got:\n%s", want, got)
		}
	}
	for _, not := range []string{
		"Handoff-8, 408",                         // go1.27 is better there, and the fork is ~ against it
		"go1.23.12's 300.0ns", "go1.23.12's 700", // go1.23.12 is no throughput peer
		"Select-16, 690.0ns against go1.27", "Handoff-4, 440.0ns against go1.24", "SpawnStorm-4, 1.200µs against go1.27",
		"max, 10.0ms",
		"Select-8, 306",     // CPU within the margin
		"MutexContention-2", // within the margin
		"MutexContention-8, 20.00ns against go1.27", // go1.24 is better there
		"MutexCapture-4",     // more Ps than CPUs
		"MutexCapture-2, 25", // MutexCapture's time is no target
		"longest wait between turns no worse than go1.27.4's",
	} {
		if strings.Contains(got, not) {
			t.Errorf("misses hold %q, which meets its target, has none or is against the wrong peer; got:\n%s", not, got)
		}
	}
	if n := strings.Count(got, "throughput"); n != 8 {
		t.Errorf("%d throughput misses, want one per benchmark, 8; got:\n%s", n, got)
	}
}

func TestTargetMissesBadMedian(t *testing.T) {
	p := pooledReport{Peers: []peer{{Name: "go1.27", Release: "go1.27.3", Vs: []Table{
		table("sec/op", "Select-16   fast ± 8%   690.0n ± 8%   +38.00% (p=0.000 n=20)"),
	}}}}
	if _, err := targetMisses(p); err == nil || !strings.Contains(err.Error(), `"fasts" of Select-16 in the published pool's spinbit-vs-go1.27.txt`) {
		t.Errorf("targetMisses with an unreadable median: error %v, want one naming the median and the table", err)
	}
}

// writePool writes a published pool of the toolchains, with a table for
// each file of tables, into a new folder, and returns it.
func writePool(t *testing.T, toolchains []string, tables map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "report", "pooled")
	rec := Record{Name: "pooled-1", Count: 20, Benchtime: "150ms", CPUs: []int{1, 2, 4}, Host: "box",
		Pooled: []PooledRun{{Name: "run-1", Commit: "0123456789ab"}}}
	// The versions are those of a pool of an earlier point release than
	// Known's go1.27: the page names what the pool measured.
	versions := map[string]string{"upstream": "go1.23.12", "spinbit": "go1.27.3-spinbit", "go1.24": "go1.24.13", "go1.27": "go1.27.3"}
	for _, name := range toolchains {
		rec.Toolchains = append(rec.Toolchains, RecordToolchain{Name: name, Version: versions[name], Raw: name + ".txt"})
	}
	writePoolFolder(t, dir, rec, tables)
	return dir
}

// writePoolFolder writes the published pool rec, with each of files, into
// the folder dir, which it makes.
func writePoolFolder(t *testing.T, dir string, rec Record, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := writeRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	for file, text := range files {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	poolVsUpstream = table("max-sec", "Capture-8   10.0m ± 8%   12.0m ± 8%   +20.00% (p=0.010 n=20)").Text + "\n"
	poolVsGo124    = table("sec/op", "Select-16   400.0n ± 8%   690.0n ± 8%   +72.50% (p=0.000 n=20)").Text + "\n"
	poolVsGo127    = table("sec/op", "Select-16   300.0n ± 8%   690.0n ± 8%   +130.00% (p=0.000 n=20)").Text + "\n"
)

// TestResultsPage checks RESULTS.md of a pool with go1.27 and of one
// published before go1.27 was a peer, which still gives the page: it says
// what it lacks and judges the targets against go1.24 alone.
func TestResultsPage(t *testing.T) {
	for _, c := range []struct {
		what       string
		toolchains []string
		tables     map[string]string
		want, not  []string
	}{
		{"with go1.27", []string{"upstream", "spinbit", "go1.24", "go1.27"}, map[string]string{
			"spinbit-vs-upstream.txt": poolVsUpstream,
			"spinbit-vs-go1.24.txt":   poolVsGo124,
			"spinbit-vs-go1.27.txt":   poolVsGo127,
		}, []string{
			"- toolchains: upstream = go1.23.12, spinbit = go1.27.3-spinbit, go1.24 = go1.24.13, go1.27 = go1.27.3\n",
			"- throughput within 3% of the better peer: Select-16, 690.0ns against go1.27.3's 300.0ns (+130.00%, p=0.000)\n",
			"## The fork against go1.23.12\n\n| metric | benchmark | go1.23.12 | fork | change | p | runs, samples |\n|---|---|---|---|---|---|---|\n| longest wait | Capture-8 | 10.0ms | 12.0ms | +20.00% | 0.010 | 1 run, 20 samples |\n",
			"## The fork against go1.24.13\n\n| metric | benchmark | go1.24.13 | fork | change | p | runs, samples |\n|---|---|---|---|---|---|---|\n| time per op | Select-16 | 400.0ns | 690.0ns | +72.50% | 0.000 | 1 run, 20 samples |\n\n" +
				"## The fork against go1.27.3\n\n| metric | benchmark | go1.27.3 | fork | change | p | runs, samples |\n|---|---|---|---|---|---|---|\n| time per op | Select-16 | 300.0ns | 690.0ns | +130.00% | 0.000 | 1 run, 20 samples |\n",
			"**Provisional: this pool joins 1 run, and a result needs at least 3,",
		}, []string{"no go1.27.3 results", "against go1.24.13's"}},
		{"without go1.27", []string{"upstream", "spinbit", "nospinbit", "go1.24"}, map[string]string{
			"spinbit-vs-upstream.txt": poolVsUpstream,
			"spinbit-vs-go1.24.txt":   poolVsGo124,
			"go1.24-vs-upstream.txt":  poolVsGo124,
		}, []string{
			"This pool has no go1.27.4 results: its runs did not include the go1.27 toolchain,\nso the p99, throughput and CPU targets are judged against go1.24.13 alone.\n",
			"- throughput within 3% of the better peer: Select-16, 690.0ns against go1.24.13's 400.0ns",
			"## The fork against go1.24.13\n",
			"## The fork against go1.27.4\n\nNo results: the pool's runs did not include the go1.27 toolchain.\n",
		}, []string{"go1.27 = ", "| go1.27.4 |", "go1.27.4's"}},
		{"with a run-to-run page", []string{"upstream", "spinbit", "go1.24", "go1.27"}, map[string]string{
			"spinbit-vs-upstream.txt": poolVsUpstream,
			"spinbit-vs-go1.24.txt":   poolVsGo124,
			"spinbit-vs-go1.27.txt":   poolVsGo127,
			spreadFile: "# Run to run\n\n## spinbit vs upstream\n\n| benchmark | metric | a | b | pool | runs |\n|---|---|---|---|---|---|\n| Capture-8 | max-ns | +30.0% | -5.0% | +20.0% | mixed |\n\n" +
				"## spinbit vs go1.24\n\n| benchmark | metric | a | b | pool | runs |\n|---|---|---|---|---|---|\n| Select-16 | ns/op | +70.0% | +75.0% | +72.5% | agree |\n\n",
		}, []string{
			"marked **runs disagree** moved one way",
			"- longest wait no worse than go1.23.12's: Capture-8 max, 12.0ms against 10.0ms (+20.00%, p=0.010) (**runs disagree**)\n",
			"| longest wait | Capture-8 | 10.0ms | 12.0ms | +20.00% (**runs disagree**) | 0.010 |",
			"| time per op | Select-16 | 400.0ns | 690.0ns | +72.50% | 0.000 |",
			// go1.27's rows are not on the page: not compared run by run.
			"| time per op | Select-16 | 300.0ns | 690.0ns | +130.00% (runs not compared) | 0.000 |",
		}, []string{"+72.50% (**runs disagree**)", "+72.50% (runs not compared)"}},
	} {
		p, err := readPooledReport(writePool(t, c.toolchains, c.tables))
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		page, err := resultsMarkdown("go1.27.3", p)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		for _, want := range c.want {
			if !strings.Contains(page, want) {
				t.Errorf("%s: RESULTS.md lacks %q; got:\n%s", c.what, want, page)
			}
		}
		for _, not := range c.not {
			if strings.Contains(page, not) {
				t.Errorf("%s: RESULTS.md holds %q; got:\n%s", c.what, not, page)
			}
		}
	}
}

// writeUpstreamPool publishes, beside the pool in dir, a pool of upstream's
// runtime mutex benchmarks made on host, with the files of tables.
func writeUpstreamPool(t *testing.T, dir, host string, tables map[string]string) {
	t.Helper()
	rec := Record{Name: "pooled-2", Suite: "runtime", Bench: upstreamRuntimeBench, Count: 30, Benchtime: "200ms", CPUs: []int{1, 2, 4}, Host: host,
		Pooled: []PooledRun{{Name: "runtime-1", Commit: "0123456789ab"}, {Name: "runtime-2", Commit: "0123456789ab"}, {Name: "runtime-3", Commit: "0123456789ab"}}}
	for _, name := range []string{"spinbit", "nospinbit", "go1.24", "go1.27"} {
		rec.Toolchains = append(rec.Toolchains, RecordToolchain{Name: name, Raw: name + ".txt"})
	}
	writePoolFolder(t, filepath.Join(dir, "..", upstreamRuntimeDir, "pooled"), rec, tables)
}

// RESULTS.md judges upstream's runtime benchmarks, when their pool is
// published, and shows their significant rows against each release.
func TestResultsPageUpstreamPool(t *testing.T) {
	mainPool := map[string]string{
		"spinbit-vs-upstream.txt": poolVsUpstream,
		"spinbit-vs-go1.24.txt":   poolVsGo124,
		"spinbit-vs-go1.27.txt":   poolVsGo127,
	}
	upstream := map[string]string{
		"spinbit-vs-go1.24.txt": table("sec/op", "MutexContention-4   19.00n ± 8%   18.00n ± 8%   -5.26% (p=0.001 n=30)").Text + "\n",
		"spinbit-vs-go1.27.txt": table("sec/op", "MutexContention-4   17.00n ± 8%   18.00n ± 8%   +5.88% (p=0.001 n=30)").Text + "\n" +
			table("sec/starve-p90", "MutexCapture-2   5.000µ ± 8%   6.000µ ± 8%   +20.00% (p=0.001 n=30)", "MutexCapture-4   2.000m ± 8%   1.000m ± 8%   -50.00% (p=0.001 n=30)").Text + "\n",
	}
	dir := writePool(t, []string{"upstream", "spinbit", "go1.24", "go1.27"}, mainPool)
	writeUpstreamPool(t, dir, "AMD EPYC, 2 logical CPUs", upstream)
	page := resultsPageOf(t, dir, "go1.27.4")
	wantInPage(t, "RESULTS.md", page,
		"- throughput within 3% of the better peer: MutexContention-4, 18.00ns against go1.27.4's 17.00ns (+5.88%, p=0.001)\n",
		"- p90 wait between turns no worse than go1.27.4's at GOMAXPROCS up to the 2 CPUs: MutexCapture-2, 6.000µs against 5.000µs (+20.00%, p=0.001)\n",
		"## Upstream's runtime mutex benchmarks\n\nThe runtime package's own `^BenchmarkMutex(Contention|Capture|Handoff)$`, built by each toolchain from its own tree, from [report/go1.27.4/runtime-upstream/pooled/](report/go1.27.4/runtime-upstream/pooled/README.md): pool pooled-2 of runtime-1 (commit `0123456`), runtime-2",
		"; 30 samples per median; host AMD EPYC, 2 logical CPUs.\n\n### The fork against go1.24.13\n\n",
		"| time per op | MutexContention-4 | 19.00ns | 18.00ns | -5.26% | 0.001 | 3 runs, 30 samples |\n",
		"### The fork against go1.27.4\n",
		"| p90 wait between turns | MutexCapture-4 | 2.000ms | 1.000ms | -50.00% | 0.001 | 3 runs, 30 samples |\n")
	if strings.Contains(page, "MutexCapture-4, ") {
		t.Errorf("RESULTS.md counts MutexCapture-4, which has more Ps than CPUs and is better anyway, as a miss; got:\n%s", page)
	}

	dir = writePool(t, []string{"upstream", "spinbit", "go1.24", "go1.27"}, mainPool)
	writeUpstreamPool(t, dir, "box", upstream)
	if _, err := readPooledReport(dir); err == nil || !strings.Contains(err.Error(), `names no count of CPUs in its host "box"`) || !strings.Contains(err.Error(), "./bench.bash -publish") {
		t.Errorf("an upstream pool whose host names no CPUs: error %v, want one saying so and how to publish again", err)
	}
}

func TestReadPooledReportErrors(t *testing.T) {
	for _, c := range []struct {
		what       string
		toolchains []string
		tables     []string
		want       string
	}{
		{"no go1.24 table", []string{"upstream", "spinbit", "go1.24"}, []string{"spinbit-vs-upstream.txt"},
			"lacks the table spinbit-vs-go1.24.txt"},
		{"no upstream table", []string{"upstream", "spinbit", "go1.24"}, []string{"spinbit-vs-go1.24.txt"},
			"lacks the table spinbit-vs-upstream.txt"},
		{"go1.27 ran, no table", []string{"upstream", "spinbit", "go1.24", "go1.27"}, []string{"spinbit-vs-upstream.txt", "spinbit-vs-go1.24.txt"},
			"lacks the table spinbit-vs-go1.27.txt"},
		{"a go1.27 table go1.27 never ran for", []string{"upstream", "spinbit", "go1.24"}, []string{"spinbit-vs-upstream.txt", "spinbit-vs-go1.24.txt", "spinbit-vs-go1.27.txt"},
			"holds spinbit-vs-go1.27.txt but its run.json lists no go1.27 toolchain"},
	} {
		tables := map[string]string{}
		for _, f := range c.tables {
			tables[f] = poolVsGo124
		}
		_, err := readPooledReport(writePool(t, c.toolchains, tables))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "./bench.bash -publish") {
			t.Errorf("%s: error %v, want one saying %q and how to publish again", c.what, err, c.want)
		}
	}
}

// bench/RESULTS.md is written from the published pool of the base it
// names; publishing a new pool without writing it again leaves it stale.
func TestResultsFileIsCurrent(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	committed, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	if err != nil {
		t.Fatal(err)
	}
	m := resultsBaseRE.FindSubmatch(committed)
	if m == nil {
		t.Fatalf("%s names no base: run ./bench.bash -results", ResultsFile)
	}
	base := string(m[1])
	p, err := readPooledReport(filepath.Join(root, filepath.FromSlash(BaseReportDir(base)), "pooled"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := resultsMarkdown(base, p)
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != page {
		t.Errorf("%s is not what the published pool gives: run ./bench.bash -results", ResultsFile)
	}
}

// -results -base R writes RESULTS.md from R's published pool even after
// bases/R is gone, as when the series moved to a later point release and
// has published nothing yet; a release with no published pool is an error
// that says how to publish one.
func TestResultsOfARemovedBase(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"bench", "tools"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	addBase(t, root, "go1.27.4")
	pool := writePool(t, []string{"upstream", "spinbit", "go1.24", "go1.27"}, map[string]string{
		"spinbit-vs-upstream.txt": poolVsUpstream,
		"spinbit-vs-go1.24.txt":   poolVsGo124,
		"spinbit-vs-go1.27.txt":   poolVsGo127,
	})
	dst := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.3")), "pooled")
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(pool, dst); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) error {
		o, err := ParseFlags(append(args, "-root", root), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return Run(context.Background(), o, io.Discard)
	}
	if err := run("-results", "-base", "go1.27.3"); err != nil {
		t.Fatalf("-results -base go1.27.3 with its pool published and its base gone: %v", err)
	}
	page, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	if err != nil || !strings.Contains(string(page), "## The fork against go1.27.3\n") {
		t.Errorf("RESULTS.md = %q, %v; want the go1.27.3 pool's page", page, err)
	}
	if err := run("-results", "-base", "go1.27.9"); err == nil || !strings.Contains(err.Error(), "./bench.bash -publish") {
		t.Errorf("-results -base go1.27.9, which has no pool: %v, want an error saying how to publish one", err)
	}
}

// RESULTS.md marks the rows of the series' own -runtime pool whose runs
// disagree, from that pool's own run-to-run page.
func TestResultsPageRuntimeSpread(t *testing.T) {
	dir := writePool(t, []string{"upstream", "spinbit", "go1.24", "go1.27"}, map[string]string{
		"spinbit-vs-upstream.txt": poolVsUpstream,
		"spinbit-vs-go1.24.txt":   poolVsGo124,
		"spinbit-vs-go1.27.txt":   poolVsGo127,
	})
	rec := Record{Name: "runtime-pooled-1", Suite: "runtime", Count: 10, Benchtime: "1x", CPUs: []int{4}, Host: "box",
		Pooled: []PooledRun{{Name: "runtime-1", Commit: "0123456789ab"}, {Name: "runtime-2", Commit: "0123456789ab"}}}
	for _, name := range []string{"spinbit", "nospinbit"} {
		rec.Toolchains = append(rec.Toolchains, RecordToolchain{Name: name, Raw: name + ".txt"})
	}
	writePoolFolder(t, filepath.Join(dir, "..", "runtime", "pooled"), rec, map[string]string{
		"spinbit-vs-nospinbit.txt": table("handoff-sec", "RuntimeMutexHandoff-4   100.0n ± 8%   120.0n ± 8%   +20.00% (p=0.001 n=20)").Text + "\n" +
			table("max-lock-sec", "RuntimeMutexHandoff-4   10.0m ± 8%   5.0m ± 8%   -50.00% (p=0.001 n=20)").Text + "\n",
		spreadFile: "# Run to run\n\n## spinbit vs nospinbit\n\n| benchmark | metric | a | b | pool | runs |\n|---|---|---|---|---|---|\n" +
			"| RuntimeMutexHandoff-4 | handoff-ns | +30.0% | -5.0% | +20.0% | mixed |\n| RuntimeMutexHandoff-4 | max-lock-ns | -40.0% | -60.0% | -50.0% | agree |\n\n",
	})
	page := resultsPageOf(t, dir, "go1.27.4")
	wantInPage(t, "RESULTS.md", page,
		"Its rows marked **runs disagree** moved both ways among its runs ([run to run](report/go1.27.4/runtime/pooled/spread.md)).\n",
		"| handoff time | RuntimeMutexHandoff-4 | 100.0ns | 120.0ns | +20.00% (**runs disagree**) | 0.001 |",
		"| longest wait for the lock | RuntimeMutexHandoff-4 | 10.0ms | 5.0ms | -50.00% | 0.001 |")
}

// resultsPageOf is RESULTS.md of base for the published pool in dir.
func resultsPageOf(t *testing.T, dir, base string) string {
	t.Helper()
	p, err := readPooledReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, err := resultsMarkdown(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// wantInPage reports each of wants that the page named name lacks.
func wantInPage(t *testing.T, name, page string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(page, want) {
			t.Errorf("%s lacks %q; got:\n%s", name, want, page)
		}
	}
}

// Publishing the pool of an older series leaves a RESULTS.md of another
// base alone, so that the newest series' results stay in place; a
// RESULTS.md of the same base, or the newest base's pool, is written.
func TestResultsKeptForTheNewestBase(t *testing.T) {
	root, results := twoBasesRoot(t)
	for _, c := range []struct {
		of, publish, want string // RESULTS.md's base ("" for none), the pool's, the base kept
	}{
		{"", "go1.23.12", ""},
		{"go1.27.4", "go1.23.12", "go1.27.4"},
		{"go1.27.3", "go1.23.12", "go1.27.3"},
		{"go1.23.12", "go1.23.12", ""},
		{"go1.23.12", "go1.27.4", ""},
		{"go1.27.3", "go1.27.4", ""},
	} {
		os.Remove(results)
		if c.of != "" {
			page := "# Benchmark results\n\nWritten by `./bench.bash -results -base " + c.of + "` from the published pool\n"
			if err := os.WriteFile(results, []byte(page), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		got, err := resultsKeptFor(root, c.publish)
		if err != nil || got != c.want {
			t.Errorf("RESULTS.md of %q, publishing %s: resultsKeptFor = %q, %v; want %q", c.of, c.publish, got, err, c.want)
		}
	}
}

// againstCurrent marks the go1.27 row as that row's own table would be
// marked (here, runs that disagree), so that it never reads as a cleaner
// verdict than it is.
func TestAgainstCurrentCarriesItsMarks(t *testing.T) {
	peers := []peer{{Name: currentPeer, Release: "go1.27.4", Vs: []Table{
		table("sec/op", "Select-32   229.2n ± 8%   255.3n ± 8%   +11.38% (p=0.005 n=30)"),
	}}}
	r := benchRow{Name: "Select-32"}
	note := func(base string, r benchRow, unit string) string {
		if base == currentPeer && r.Name == "Select-32" && unit == "sec/op" {
			return " (**runs disagree**)"
		}
		return ""
	}
	if got, want := againstCurrent(peers, "go1.24", r, "sec/op", note), "; the fork against go1.27.4: +11.38% (**runs disagree**) (p=0.005)"; got != want {
		t.Errorf("againstCurrent = %q, want %q", got, want)
	}
	if got := againstCurrent(peers, currentPeer, r, "sec/op", note); got != "" {
		t.Errorf("for a miss against %s itself, againstCurrent = %q, want nothing", currentPeer, got)
	}
	if got := againstCurrent(peers, "go1.24", benchRow{Name: "Select-16"}, "sec/op", note); got != "" {
		t.Errorf("for a row %s lacks, againstCurrent = %q, want nothing", currentPeer, got)
	}
}

// Publish, given the go1.23.12 series' pool while RESULTS.md is the
// newest series', leaves RESULTS.md as it was and says so.
func TestPublishOlderSeriesKeepsResults(t *testing.T) {
	root, results := twoBasesRoot(t)
	page := "# Benchmark results\n\nWritten by `./bench.bash -results -base go1.27.4` from the published pool\n"
	os.WriteFile(results, []byte(page), 0o666)
	pooled := filepath.Join(root, "pooled-x")
	finishedPool(t, pooled, func(r *Record) { r.Provenance.Base = "go1.23.12" })
	var out strings.Builder
	if err := Publish(root, pooled, &out); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(results); string(got) != page {
		t.Errorf("publishing the go1.23.12 series' pool rewrote %s:\n%s", ResultsFile, got)
	}
	if !strings.Contains(out.String(), "left "+ResultsFile+" as it is: it condenses the pools of go1.27.4") {
		t.Errorf("Publish said %q; want it to say it left %s of go1.27.4 alone", out.String(), ResultsFile)
	}
}

// twoBasesRoot makes a repository root with the bases go1.23.12 and
// go1.27.4 (their pins, empty patches/) and bench/, and returns it with
// the path of its RESULTS.md, not yet written.
func twoBasesRoot(t *testing.T) (root, results string) {
	t.Helper()
	root = t.TempDir()
	for _, b := range []string{"go1.23.12", "go1.27.4"} {
		dir := filepath.Join(root, "bases", b)
		if err := os.MkdirAll(filepath.Join(dir, "patches"), 0o777); err != nil {
			t.Fatal(err)
		}
		pin, err := os.ReadFile(filepath.Join("..", "..", "..", "bases", b, "UPSTREAM"))
		if err != nil {
			t.Skipf("no pin of %s in this checkout: %v", b, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "UPSTREAM"), pin, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	results = filepath.Join(root, filepath.FromSlash(ResultsFile))
	if err := os.MkdirAll(filepath.Dir(results), 0o777); err != nil {
		t.Fatal(err)
	}
	return root, results
}
