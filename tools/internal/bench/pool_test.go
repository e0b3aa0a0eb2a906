package bench

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// rawRun is go test -bench output of one repetition with two results.
func rawRun(nsChan, nsSelect int) string {
	return "goos: linux\ngoarch: amd64\npkg: go-spinbit.dev/bench\ncpu: Some CPU\n" +
		"BenchmarkChanContended-4   \t 1000\t " + strconv.Itoa(nsChan) + " ns/op\n" +
		"BenchmarkSelect-4   \t 1000\t " + strconv.Itoa(nsSelect) + " ns/op\nPASS\n" +
		"histogram BenchmarkChanContended-4 1000 sub=5 max=" + strconv.Itoa(nsChan) + " counts=1:1,40:999\n"
}

// noCodeChanges is a changedFunc for runs known to have measured the
// same code.
func noCodeChanges(a, b string, paths ...string) ([]string, error) { return nil, nil }

// poolRecord is the record of a finished full run named name, made from
// commit, with count repetitions.
func poolRecord(name, commit string, count int, start time.Time) Record {
	r := Record{
		Name: name, Mode: "full", Benchtime: "150ms", Count: count, CPUs: []int{4}, Bench: ".",
		Start: start, Elapsed: "10m0s", Host: "Some CPU, 2 logical CPUs", Provenance: Provenance{Commit: commit, Base: "go1.27.3"},
	}
	for _, k := range Known {
		r.Toolchains = append(r.Toolchains, RecordToolchain{Name: k.Name, Version: "go1.x", Experiment: k.Experiment, Raw: k.Name + ".txt"})
	}
	return r
}

func TestPoolable(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 20, 27, 0, 0, time.UTC)
	base := func() []Record {
		return []Record{poolRecord("run1", "aaa", 10, t0), poolRecord("run2", "aaa", 10, t0.Add(time.Hour))}
	}
	if err := poolable(base(), noCodeChanges); err != nil {
		t.Fatalf("two runs of one commit and settings: %v", err)
	}
	// Different commits that agree in the measured files pool; the
	// comparison asks about exactly those files.
	recs := base()
	recs[1].Provenance.Commit = "bbb"
	var asked []string
	err := poolable(recs, func(a, b string, paths ...string) ([]string, error) {
		asked = append([]string{a, b}, paths...)
		return nil, nil
	})
	if err != nil || len(asked) < 3 || asked[0] != "aaa" || asked[1] != "bbb" || asked[2] != "bases/go1.27.3" {
		t.Errorf("commits agreeing in measured files: err %v, compared %q", err, asked)
	}

	for _, c := range []struct {
		name    string
		mutate  func([]Record) []Record
		changed changedFunc
		want    string
	}{
		{"no run", func(r []Record) []Record { return r[:0] }, noCodeChanges, "at least one run"},
		{"same run twice", func(r []Record) []Record { r[1].Name = "run1"; return r }, noCodeChanges, "run run1 is named twice"},
		{"pooled already", func(r []Record) []Record { r[1].Pooled = []PooledRun{{Name: "x"}, {Name: "y"}}; return r }, noCodeChanges, "run2 is pooled already; pool the runs it joins (x, y)"},
		{"instructions", func(r []Record) []Record { r[0].Mode = "instruction-counting"; return r }, noCodeChanges, "nothing to pool"},
		{"dirty", func(r []Record) []Record { r[1].Provenance.Changed = []string{" M patches/0007.patch"}; return r }, noCodeChanges, "run2 cannot be reproduced from its commit"},
		{"suite", func(r []Record) []Record { r[1].Suite = "runtime"; return r }, noCodeChanges, "differ in suite (bench/ against -runtime)"},
		{"base", func(r []Record) []Record { r[1].Provenance.Base = "go1.23.12"; return r }, noCodeChanges, "differ in the fork's base (go1.27.3 against go1.23.12)"},
		{"mode", func(r []Record) []Record { r[1].Mode = "quick"; return r }, noCodeChanges, "differ in mode"},
		{"bench", func(r []Record) []Record { r[1].Bench = "Select"; return r }, noCodeChanges, "differ in -bench"},
		{"benchtime", func(r []Record) []Record { r[1].Benchtime = "1s"; return r }, noCodeChanges, "differ in -benchtime (150ms against 1s)"},
		{"cpu", func(r []Record) []Record { r[1].CPUs = []int{4, 8}; return r }, noCodeChanges, "differ in -cpu (4 against 4,8)"},
		{"host", func(r []Record) []Record { r[1].Host = "Other CPU"; return r }, noCodeChanges, "differ in host"},
		{"interleaving", func(r []Record) []Record { r[1].Interleave = interleaveBySlot; return r }, noCodeChanges, "differ in interleaving (each repetition ran every toolchain's test binary once over the whole suite"},
		{"toolchain version", func(r []Record) []Record { r[1].Toolchains[3].Version = "go1.y"; return r }, noCodeChanges, "differ in toolchains"},
		{"toolchain missing", func(r []Record) []Record { r[1].Toolchains = r[1].Toolchains[:3]; return r }, noCodeChanges, "differ in toolchains"},
		{"different code", func(r []Record) []Record { r[1].Provenance.Commit = "bbb"; return r },
			func(a, b string, paths ...string) ([]string, error) {
				return []string{"patches/0007-runtime.patch", "bench/chan_test.go"}, nil
			}, "run1 (commit aaa) and run2 (commit bbb) measured different code: the commits differ in patches/0007-runtime.patch, bench/chan_test.go"},
	} {
		err := poolable(c.mutate(base()), c.changed)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestPoolInto(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in benchstat is a shell script")
	}
	dir := t.TempDir()
	// A stand-in for benchstat that names its inputs and shows their
	// lines, so the test sees which files each table was made from.
	benchstat := filepath.Join(dir, "benchstat")
	script := "#!/bin/sh\necho \"sec/op table of $*\"\nfor a in \"$@\"; do grep -c ^Benchmark \"${a#*=}\"; done\n"
	if err := os.WriteFile(benchstat, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 25, 20, 27, 0, 0, time.UTC)
	recs := []Record{poolRecord("run1", "aaa", 1, t0.Add(time.Hour)), poolRecord("run2", "aaa", 2, t0)}
	recs[1].Elapsed = "5m30s"
	var dirs []string
	for i, r := range recs {
		d := filepath.Join(dir, r.Name)
		os.MkdirAll(d, 0o777)
		for _, tc := range r.Toolchains {
			raw := ""
			for rep := 0; rep < r.Count; rep++ {
				raw += rawRun(1000*(i+1), 100*(i+1))
			}
			os.WriteFile(filepath.Join(d, tc.Raw), []byte(raw), 0o666)
		}
		dirs = append(dirs, d)
	}
	out := filepath.Join(dir, "pooled")
	os.MkdirAll(out, 0o777)
	if err := poolInto(context.Background(), out, benchstat, dirs, recs, io.Discard); err != nil {
		t.Fatal(err)
	}

	raw, err := os.ReadFile(filepath.Join(out, "spinbit.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(raw), "\nBenchmarkChanContended-4 "); got != 3 {
		t.Errorf("pooled spinbit.txt has %d ChanContended results, want 3 (1 + 2 repetitions)", got)
	}
	if !strings.Contains(string(raw), " 1000 ns/op") || !strings.Contains(string(raw), " 2000 ns/op") {
		t.Errorf("pooled spinbit.txt lacks one run's results:\n%s", raw)
	}
	table, err := os.ReadFile(filepath.Join(out, "spinbit-vs-upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "upstream=upstream.txt spinbit=spinbit.txt\n6\n6\n"; !strings.Contains(string(table), want) {
		t.Errorf("spinbit-vs-upstream.txt = %q; want benchstat run on the pooled files (%q)", table, want)
	}
	for _, p := range []string{"plots/ChanContended.svg", "plots/Select.svg", "summary.md"} {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("pooled folder lacks %s: %v", p, err)
		}
	}

	rec, err := ReadRecord(out)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Count != 3 || !rec.Start.Equal(t0) || rec.Elapsed != "15m30s" || len(rec.Pooled) != 2 ||
		rec.Pooled[0].Name != "run1" || rec.Pooled[1].Count != 2 || rec.Provenance.Commit != "aaa" {
		t.Errorf("pooled record: count %d, start %v, elapsed %s, pooled %+v, commit %s; want 3, %v, 15m30s, run1 and run2 (count 2), aaa",
			rec.Count, rec.Start, rec.Elapsed, rec.Pooled, rec.Provenance.Commit, t0)
	}
	// Each run's histograms are its own in the bootstrap: 2 runs.
	tails, err := os.ReadFile(filepath.Join(out, tailsFile))
	if err != nil || rec.Tails != tailsFile || !strings.Contains(string(tails), "| ChanContended-4 | p99 | 2 runs, 3+3 samples |") {
		t.Errorf("pooled %s (record names %q): %v\n%s", tailsFile, rec.Tails, err, tails)
	}
	// Each run's medians are compared alone: both runs are even.
	spread, err := os.ReadFile(filepath.Join(out, spreadFile))
	if err != nil || rec.Spread != spreadFile || !strings.Contains(string(spread), "| ChanContended-4 | ns/op | +0.0% | +0.0% | +0.0% | some |") {
		t.Errorf("pooled %s (record names %q): %v\n%s", spreadFile, rec.Spread, err, spread)
	}
	summary, _ := os.ReadFile(filepath.Join(out, "summary.md"))
	for _, want := range []string{"pooled (./bench.bash -pool) from 2 runs", "each median is of 3 samples", "run2: commit aaa, started 2026-11-25T20:27:00Z, count 2",
		"Behind each row: 2 runs, 3 samples of each toolchain", "[tails.md](tails.md)", "[spread.md](spread.md)"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
}

// runsOfTwoCPUs writes two runs of one toolchain set under dir/runs, each
// with its record, whose go1.24 outputs name different processors, and
// returns their records and folders.
func runsOfTwoCPUs(t *testing.T, dir string) ([]Record, []string) {
	t.Helper()
	t0 := time.Date(2026, 11, 25, 20, 27, 0, 0, time.UTC)
	recs := []Record{poolRecord("run1", "aaa", 1, t0), poolRecord("run2", "aaa", 1, t0.Add(24*time.Hour))}
	var dirs []string
	for i, r := range recs {
		d := filepath.Join(dir, "runs", r.Name)
		os.MkdirAll(d, 0o777)
		for _, tc := range r.Toolchains {
			raw := rawRun(1000, 100)
			if i == 1 && tc.Name == "go1.24" {
				raw = strings.Replace(raw, "cpu: Some CPU", "cpu: Another CPU", 1)
			}
			os.WriteFile(filepath.Join(d, tc.Raw), []byte(raw), 0o666)
		}
		if err := writeRecord(d, r); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	return recs, dirs
}

// TestOutputsPoolableRefusesOtherMachines checks that runs whose output names
// another processor are not pooled: benchstat would make each table of
// only some of them.
func TestOutputsPoolableRefusesOtherMachines(t *testing.T) {
	dir := t.TempDir()
	recs, dirs := runsOfTwoCPUs(t, dir)
	err := outputsPoolable(dirs, recs)
	if err == nil || !strings.Contains(err.Error(), `go1.24's output in `+dirs[1]+` says "cpu: Another CPU"`) || !strings.Contains(err.Error(), "one machine") {
		t.Fatalf("pooling runs whose go1.24 output names two processors: got %v, want a refusal naming the run, the line and the fix", err)
	}
}

// TestPoolRefusesBeforeItsFolder checks that a pool refused for its runs'
// outputs makes no folder: the refusal comes before benchstat is built
// and before bench/results/ is touched.
func TestPoolRefusesBeforeItsFolder(t *testing.T) {
	root := t.TempDir()
	_, dirs := runsOfTwoCPUs(t, root)
	err := Pool(context.Background(), root, dirs, "", io.Discard)
	if err == nil || !strings.Contains(err.Error(), "one machine") {
		t.Fatalf("Pool of runs of two processors = %v; want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(root, "bench", "results")); !os.IsNotExist(err) {
		t.Errorf("a refused pool touched bench/results (%v)", err)
	}
}

// finishedPool writes a finished pool of three runs in dir, as
// finishedRun writes a run, with the fork's comparisons from which
// Publish writes RESULTS.md; mutate, if not nil, changes its record.
func finishedPool(t *testing.T, dir string, mutate func(*Record)) {
	t.Helper()
	comparisons := []string{"spinbit-vs-upstream.txt", "spinbit-vs-go1.24.txt", "spinbit-vs-go1.27.txt"}
	finishedRun(t, dir, func(r *Record) {
		r.Pooled = threeRuns()
		r.Count = 30
		for _, f := range comparisons {
			r.Tables = append(r.Tables, TableFile{Title: f, File: f})
		}
		if mutate != nil {
			mutate(r)
		}
	}, "Select")
	table, err := os.ReadFile(filepath.Join(dir, "go1.24-vs-upstream.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range comparisons {
		os.WriteFile(filepath.Join(dir, f), table, 0o666)
	}
}

// TestPublishPooled checks that a pooled run is published beside the
// single run, not over it, and says how to make it again.
func TestPublishPooled(t *testing.T) {
	root := t.TempDir()
	single := filepath.Join(root, "run1")
	finishedRun(t, single, nil, "Select")
	if err := Publish(root, single, io.Discard); err != nil {
		t.Fatal(err)
	}
	pooled := filepath.Join(root, "pooled-x")
	finishedPool(t, pooled, func(r *Record) {
		// Three days of one boot: the pages say so.
		for i := range r.Pooled {
			r.Pooled[i].Boot = "b1"
		}
	})
	if err := Publish(root, pooled, io.Discard); err != nil {
		t.Fatal(err)
	}
	results, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	for _, want := range []string{"pool pooled-x of 3 runs, made on 3 days and 1 boot: run1", "- Its runs share one boot of the machine"} {
		if err != nil || !strings.Contains(string(results), want) {
			t.Errorf("%s after publishing a pool lacks %q: %v\n%s", ResultsFile, want, err, results)
		}
	}
	// A second pool's check of the pool published before does not
	// outlive it.
	stale := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.3")), "pooled", secondPoolFile)
	os.WriteFile(stale, []byte(secondPoolTitle+"\n"), 0o666)
	if err := Publish(root, pooled, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("Publish left %s of the pool it replaced", stale)
	}
	report := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.3")))
	if rec, err := ReadRecord(report); err != nil || rec.Name != "run1" {
		t.Errorf("%s holds %+v, %v; want the single run, untouched", report, rec.Name, err)
	}
	page, err := os.ReadFile(filepath.Join(report, "pooled", reportIndex))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pooled (./bench.bash -pool) from 3 runs of the same code and settings, made on 3 days and 1 boot;", "- Its runs share one boot of the machine", "./bench.bash    # 3 times, on different boots or days", "./bench.bash -pool bench/results/run1,bench/results/run2,bench/results/run3"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("pooled report page lacks %q", want)
		}
	}

	// A pool of upstream's runtime benchmarks, published after, is judged
	// in RESULTS.md too: publishing it writes the page again.
	upstream := filepath.Join(root, "pooled-upstream")
	finishedRun(t, upstream, func(r *Record) {
		r.Suite, r.Bench = "runtime", upstreamRuntimeBench
		r.Toolchains = []RecordToolchain{{Name: "spinbit"}, {Name: "nospinbit", Experiment: "nospinbitmutex"}, {Name: "go1.24"}, {Name: "go1.27"}}
		r.Pooled = threeRuns()
		r.Count = 30
		for _, f := range []string{"spinbit-vs-go1.24.txt", "spinbit-vs-go1.27.txt"} {
			r.Tables = append(r.Tables, TableFile{Title: f, File: f})
		}
	}, "MutexCapture")
	capture := table("sec/starve-p90", "MutexCapture-2   5.000µ ± 8%   6.000µ ± 8%   +20.00% (p=0.001 n=30)").Text + "\n"
	for _, f := range []string{"spinbit-vs-go1.24.txt", "spinbit-vs-go1.27.txt"} {
		os.WriteFile(filepath.Join(upstream, f), []byte(capture), 0o666)
	}
	if err := Publish(root, upstream, io.Discard); err != nil {
		t.Fatal(err)
	}
	results, err = os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	for _, want := range []string{"- p90 wait between turns no worse than go1.27.4's at GOMAXPROCS up to the 2 CPUs: MutexCapture-2", "## Upstream's runtime mutex benchmarks\n"} {
		if err != nil || !strings.Contains(string(results), want) {
			t.Errorf("%s after publishing a pool of upstream's runtime benchmarks lacks %q: %v\n%s", ResultsFile, want, err, results)
		}
	}
}

// Runs of commits that differ only in what changes no number (docs, the
// tools' other packages, this package's tables) pool; runs of commits that
// differ in what a run measures do not, and the error names the files.
func TestPoolableAcrossCommits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(files map[string]string) string {
		t.Helper()
		for name, text := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o777)
			if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "-A")
		git("commit", "-q", "-m", "c")
		return git("rev-parse", "HEAD")
	}
	git("init", "-q")
	first := commit(map[string]string{
		"bases/go1.27.3/patches/0001-runtime.patch": "a", "bench/chan_test.go": "a", "bench/README.md": "a",
		"tools/internal/bench/execute.go": "a", "tools/internal/bench/tables.go": "a", "tools/cmd/fork/steps.go": "a", "README.md": "a",
	})
	docs := commit(map[string]string{"bench/README.md": "b", "README.md": "b", "tools/internal/bench/tables.go": "b", "tools/cmd/fork/steps.go": "b", "bench/report/go1.27.3/run.json": "b",
		KeptDir("go1.27.3") + "/run0/spinbit.txt": "b"})
	measuring := commit(map[string]string{"tools/internal/bench/execute.go": "c", "bench/chan_test.go": "c"})
	patches := commit(map[string]string{"bases/go1.27.3/patches/0001-runtime.patch": "d"})

	repo := fork.Repo{Root: dir}
	t0 := time.Date(2026, 11, 25, 20, 27, 0, 0, time.UTC)
	runs := func(a, b string) []Record {
		return []Record{poolRecord("run1", a, 10, t0), poolRecord("run2", b, 10, t0.Add(24*time.Hour))}
	}
	if err := poolable(runs(first, docs), repo.ChangedBetween); err != nil {
		t.Errorf("commits that differ in docs and in code that measures nothing: %v", err)
	}
	err := poolable(runs(docs, measuring), repo.ChangedBetween)
	if err == nil || !strings.Contains(err.Error(), "differ in bench/chan_test.go, tools/internal/bench/execute.go;") {
		t.Errorf("commits that differ in the workloads and the runner: error = %v, want one naming both files", err)
	}
	err = poolable(runs(measuring, patches), repo.ChangedBetween)
	if err == nil || !strings.Contains(err.Error(), "differ in bases/go1.27.3/patches/0001-runtime.patch;") {
		t.Errorf("commits that differ in the base's patches: error = %v, want one naming the patch", err)
	}
}

// Every file measuringFiles names exists: a file renamed away would leave
// its changes out of the pooling check.
func TestMeasuringFilesExist(t *testing.T) {
	for _, f := range measuringFiles {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("measuringFiles names %s: %v", f, err)
		}
	}
}
