package bench

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// finishedRun writes the output folder of a finished run with the given plots
// and returns its record.
func finishedRun(t *testing.T, dir string, mutate func(*Record), plots ...string) Record {
	t.Helper()
	table, err := os.ReadFile("testdata/benchstat-go1.24-vs-upstream.txt")
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{
		Name: filepath.Base(dir), Mode: "full", Benchtime: "150ms", Count: 10, CPUs: fullCPUs, Bench: ".",
		Start: time.Date(2026, 11, 24, 7, 1, 28, 0, time.UTC), Elapsed: "12m58s", Host: "Some CPU, 2 logical CPUs",
		Provenance: Provenance{Commit: "a3080aa12345", Base: "go1.27.3"},
		Tables:     []TableFile{{Title: "go1.24 vs upstream", File: "go1.24-vs-upstream.txt"}},
	}
	for _, k := range Known {
		rec.Toolchains = append(rec.Toolchains, RecordToolchain{Name: k.Name, Version: "go1.x", Experiment: k.Experiment, Raw: k.Name + ".txt"})
	}
	for _, p := range plots {
		rec.Plots = append(rec.Plots, "plots/"+p+".svg")
	}
	if mutate != nil {
		mutate(&rec)
	}
	os.MkdirAll(filepath.Join(dir, "plots"), 0o777)
	os.WriteFile(filepath.Join(dir, "go1.24-vs-upstream.txt"), table, 0o666)
	os.WriteFile(filepath.Join(dir, "upstream.txt"), []byte("raw"), 0o666)
	for _, p := range rec.Plots {
		os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte("<svg>"+rec.Name+"</svg>"), 0o666)
	}
	if err := writeRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestPublish(t *testing.T) {
	root := t.TempDir()
	report := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.3")))
	os.MkdirAll(report, 0o777)
	// A file Publish did not write must survive it.
	os.WriteFile(filepath.Join(report, "notes.txt"), []byte("kept"), 0o666)

	first := filepath.Join(root, "run1")
	finishedRun(t, first, nil, "ChanContended", "Timers")
	if err := Publish(root, first, io.Discard); err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(root, "run2")
	finishedRun(t, second, nil, "ChanContended")
	if err := Publish(root, second, io.Discard); err != nil {
		t.Fatal(err)
	}

	if data, err := os.ReadFile(filepath.Join(report, "plots", "ChanContended.svg")); err != nil || string(data) != "<svg>run2</svg>" {
		t.Errorf("ChanContended.svg = %q, %v; want the second run's", data, err)
	}
	if _, err := os.Stat(filepath.Join(report, "plots", "Timers.svg")); err == nil {
		t.Error("the first run's Timers plot, which the second run lacks, was left behind")
	}
	if data, _ := os.ReadFile(filepath.Join(report, "notes.txt")); string(data) != "kept" {
		t.Error("Publish removed a file it did not write")
	}
	if _, err := os.Stat(filepath.Join(report, "upstream.txt")); err == nil {
		t.Error("raw output was published; it belongs in bench/results only")
	}
	rec, err := ReadRecord(report)
	if err != nil || rec.Name != "run2" {
		t.Errorf("published record %+v, %v; want run2's", rec, err)
	}
	page, err := os.ReadFile(filepath.Join(report, reportIndex))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"run run2", "repository commit: a3080aa12345", "the fork's base: go1.27.3", "started 2026-11-24T07:01:28Z", "ChanContended-16", "![ChanContended](plots/ChanContended.svg)", "git checkout a3080aa12345"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("%s lacks %q", reportIndex, want)
		}
	}
	if strings.Contains(string(page), "(upstream.txt)") {
		t.Errorf("%s links raw output that is not published", reportIndex)
	}
}

func TestPublishRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		mutate func(*Record)
		want   string
	}{
		{"quick", func(r *Record) { r.Mode = "quick" }, "it is a quick run"},
		{"some benchmarks", func(r *Record) { r.Bench = "Chan" }, `matching "Chan"`},
		{"some toolchains", func(r *Record) { r.Toolchains = r.Toolchains[:2] }, "left out toolchains nospinbit,go1.24"},
		{"dirty", func(r *Record) { r.Provenance.Changed = []string{" M patches/0007.patch"} }, "uncommitted changes to measured files:  M patches/0007.patch"},
		{"stale fork", func(r *Record) { r.Provenance.Fork = "goroot/bin/go was not built from goroot/'s HEAD" }, "not built from"},
		{"no commit", func(r *Record) { r.Provenance.Commit = "" }, "commit is unknown"},
		{"no base", func(r *Record) { r.Provenance.Base = "" }, "names no base"},
		{"machine named as a report folder", func(r *Record) { r.Machine = "costs-runtime" }, `machine's name "costs-runtime"`},
	} {
		root := t.TempDir()
		run := filepath.Join(root, "run")
		finishedRun(t, run, c.mutate, "Select")
		err := Publish(root, run, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Publish error = %v, want one mentioning %q", c.name, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(ReportDir))); err == nil {
			t.Errorf("%s: a refused Publish still wrote %s", c.name, ReportDir)
		}
	}
}

func TestReadRecordErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadRecord(dir); err == nil || !strings.Contains(err.Error(), "has no run.json") {
		t.Errorf("folder without a record: error = %v", err)
	}
	os.WriteFile(filepath.Join(dir, recordFile), []byte("{"), 0o666)
	if _, err := ReadRecord(dir); err == nil || !strings.Contains(err.Error(), "not written by ./bench.bash") {
		t.Errorf("broken record: error = %v", err)
	}
	writeRecord(dir, Record{Plots: []string{"../../etc/passwd"}})
	if _, err := ReadRecord(dir); err == nil || !strings.Contains(err.Error(), "not a file inside") {
		t.Errorf("record naming a file outside its folder: error = %v", err)
	}
}

// runtimeRunRecord makes a finished run's record one of a -runtime run.
func runtimeRunRecord(r *Record) {
	r.Suite, r.Bench = "runtime", runtimeBench
	r.Toolchains = []RecordToolchain{{Name: "spinbit"}, {Name: "nospinbit"}}
}

// TestPublishRuntime checks that a -runtime run goes to its own folder,
// needs only the toolchains whose runtime has the benchmarks, and leaves
// the bench/ report alone.
func TestPublishRuntime(t *testing.T) {
	root := t.TempDir()
	run := filepath.Join(root, "run")
	finishedRun(t, run, runtimeRunRecord, "RuntimeMutexHandoff")
	if err := Publish(root, run, io.Discard); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(root, filepath.FromSlash(ReportDirOf("go1.27.3", "runtime")))
	if rec, err := ReadRecord(dst); err != nil || rec.Suite != "runtime" {
		t.Errorf("record in %s: %+v, %v", dst, rec, err)
	}
	if _, err := ReadRecord(filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.3")))); err == nil {
		t.Errorf("a -runtime run was published over the bench/ report")
	}

	// A run of upstream's benchmarks goes beside the series' own, and its
	// page says how to make it again.
	up := filepath.Join(root, "run-upstream")
	finishedRun(t, up, func(r *Record) {
		r.Suite, r.Bench = "runtime", upstreamRuntimeBench
		r.Toolchains = []RecordToolchain{{Name: "spinbit"}, {Name: "nospinbit"}, {Name: "go1.24"}, {Name: "go1.27"}}
	}, "MutexHandoff")
	if err := Publish(root, up, io.Discard); err != nil {
		t.Fatal(err)
	}
	upDst := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.3")), upstreamRuntimeDir)
	if rec, err := ReadRecord(upDst); err != nil || rec.Bench != upstreamRuntimeBench {
		t.Errorf("record in %s: %+v, %v", upDst, rec, err)
	}
	if rec, err := ReadRecord(dst); err != nil || rec.Bench != runtimeBench {
		t.Errorf("publishing upstream's benchmarks replaced the series' own in %s: %+v, %v", dst, rec, err)
	}
	page, _ := os.ReadFile(filepath.Join(upDst, reportIndex))
	if want := "./bench.bash -runtime -bench '" + upstreamRuntimeBench + "'"; !strings.Contains(string(page), want) {
		t.Errorf("%s/%s lacks %q:\n%s", upDst, reportIndex, want, page)
	}

	for _, c := range []struct {
		name   string
		mutate func(*Record)
		want   string
	}{
		{"off only", func(r *Record) { runtimeRunRecord(r); r.Toolchains = r.Toolchains[1:] }, "left out toolchains spinbit"},
		{"one benchmark", func(r *Record) { runtimeRunRecord(r); r.Bench = "RuntimeMutexHandoff" }, `matching "RuntimeMutexHandoff"; a published run or pool needs a -runtime run of the series' own benchmarks (no -bench) or of upstream's`},
		{"upstream's without go1.27", func(r *Record) {
			runtimeRunRecord(r)
			r.Bench = upstreamRuntimeBench
			r.Toolchains = append(r.Toolchains, RecordToolchain{Name: "go1.24"})
		}, "left out toolchains go1.27"},
	} {
		run := filepath.Join(t.TempDir(), "run")
		finishedRun(t, run, c.mutate, "RuntimeMutexHandoff")
		if err := Publish(t.TempDir(), run, io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Publish error = %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// The single runs published in bench/report/<base>/ carry the note
// Publish puts on a single run's page, so a reader does not take its
// verdicts for the pool's, and name the fork's base.
func TestPublishedSingleRunsCarryTheNote(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	bases, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(ReportDir), "go1.*"))
	if len(bases) == 0 {
		t.Fatalf("no base's folder in %s", ReportDir)
	}
	for _, dir := range bases {
		base := filepath.Base(dir)
		for _, c := range []struct{ suite, dir string }{
			{"", ReportDirOf(base, "")},
			{"runtime", ReportDirOf(base, "runtime")},
			{"runtime", BaseReportDir(base) + "/" + upstreamRuntimeDir},
		} {
			page, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.dir), reportIndex))
			if os.IsNotExist(err) {
				continue
			} else if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(root, filepath.FromSlash(c.dir))
			rec, err := ReadRecord(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), singleRunNote(c.suite, dir, filepath.Join(root, "bench"), pooledSameMutex(root, dir, rec))) || !strings.Contains(string(page), "- the fork's base: "+base+"\n") {
				t.Errorf("%s/%s lacks the single-run note or the line naming the fork's base", c.dir, reportIndex)
			}
		}
	}
	if got := withSingleRunNote("# title\n\n- rest\n", "> One run.\n\n"); got != "# title\n\n> One run.\n\n- rest\n" {
		t.Errorf("withSingleRunNote = %q", got)
	}
}

// A single run's note links the pool beside it only when there is one,
// and otherwise how to make one, with a link that resolves from the page.
func TestSingleRunNote(t *testing.T) {
	bench := t.TempDir()
	dir := filepath.Join(bench, "report", "go1.27.4", "runtime")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	note := singleRunNote("runtime", dir, bench, false)
	if strings.Contains(note, "](pooled/") || !strings.Contains(note, "(../../../README.md#pooling-runs)") {
		t.Errorf("note without a pool = %q", note)
	}
	if err := os.MkdirAll(filepath.Join(dir, "pooled"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pooled", reportIndex), []byte("# pool\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if note := singleRunNote("runtime", dir, bench, true); !strings.Contains(note, "the repository's results are those of the pool in [pooled/](pooled/README.md)") || strings.Contains(note, "RESULTS.md") {
		t.Errorf("note with a pool = %q", note)
	}
	if note := singleRunNote("", dir, bench, true); !strings.Contains(note, "RESULTS.md") {
		t.Errorf("note of bench/'s run with a pool = %q", note)
	}
	// A pool of another mutex is not the run's result.
	if note := singleRunNote("", dir, bench, false); strings.Contains(note, "the repository's results") || strings.Contains(note, "RESULTS.md") ||
		!strings.Contains(note, "none of this run's mutex\n> is published yet: [pooled/](pooled/README.md) measured another") {
		t.Errorf("note with a pool of another mutex = %q", note)
	}
}

// Publishing a pool rewrites the note of the single run beside it, which
// was written when there was no pool, or another.
func TestPublishPoolRenotesSingleRun(t *testing.T) {
	root := t.TempDir()
	single := filepath.Join(root, "run1")
	finishedRun(t, single, runtimeRunRecord, "RuntimeMutexHandoff")
	if err := Publish(root, single, io.Discard); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(root, filepath.FromSlash(ReportDirOf("go1.27.3", "runtime")))
	page := func() string {
		data, err := os.ReadFile(filepath.Join(report, reportIndex))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if !strings.Contains(page(), "none is in pooled/ yet") {
		t.Fatalf("the single run's page before a pool:\n%s", page())
	}
	pool := filepath.Join(root, "pooled-1")
	finishedRun(t, pool, func(r *Record) { runtimeRunRecord(r); r.Pooled = threeRuns() }, "RuntimeMutexHandoff")
	if err := Publish(root, pool, io.Discard); err != nil {
		t.Fatal(err)
	}
	got := page()
	if strings.Contains(got, "none is in pooled/ yet") || !strings.Contains(got, "](pooled/README.md)") ||
		strings.Count(got, "> One run.") != 1 || !strings.Contains(got, "- the fork's base: go1.27.3\n") {
		t.Errorf("the single run's page after a pool:\n%s", got)
	}
}

// threeRuns are the runs of a pool that may be published: three, each
// started on another day.
func threeRuns() []PooledRun {
	t0 := time.Date(2026, 11, 24, 7, 1, 28, 0, time.UTC)
	var runs []PooledRun
	for i, name := range []string{"run1", "run2", "run3"} {
		runs = append(runs, PooledRun{Name: name, Commit: "a3080aa12345", Count: 10, Start: t0.Add(time.Duration(i) * 24 * time.Hour)})
	}
	return runs
}

// A pool stands as a result only with at least three runs, made on as
// many boots or days.
func TestPublishRefusesWeakPools(t *testing.T) {
	for _, c := range []struct {
		name string
		runs func([]PooledRun) []PooledRun
		want string // "" if the pool may be published
	}{
		{"three days", func(r []PooledRun) []PooledRun { return r }, ""},
		{"two runs", func(r []PooledRun) []PooledRun { return r[:2] }, "it pools 2 runs, and a published pool needs at least 3 full runs, each made on another boot or day; make more runs with ./bench.bash"},
		{"one run", func(r []PooledRun) []PooledRun { return r[:1] }, "it pools 1 runs"},
		{"one day", func(r []PooledRun) []PooledRun {
			for i := range r {
				r[i].Start = r[0].Start.Add(time.Duration(i) * time.Hour)
			}
			return r
		}, "its 3 runs were made on only 1 boots or days (day 2026-11-24), and a published pool needs runs from at least 3; make another run after a reboot"},
		{"one boot over three days", func(r []PooledRun) []PooledRun {
			for i := range r {
				r[i].Boot = "b1"
			}
			return r
		}, ""},
		{"one boot on one day", func(r []PooledRun) []PooledRun {
			for i := range r {
				r[i].Start, r[i].Boot = r[0].Start.Add(time.Duration(i)*time.Hour), "b1"
			}
			return r
		}, "made on only 1 boots or days (boot b1 on 2026-11-24)"},
		{"three boots on one day", func(r []PooledRun) []PooledRun {
			for i := range r {
				r[i].Start, r[i].Boot = r[0].Start, "b"+strconv.Itoa(i)
			}
			return r
		}, ""},
		{"one boot's day and a day", func(r []PooledRun) []PooledRun {
			r[0].Boot, r[1].Boot = "b1", "b1"
			r[1].Start = r[0].Start.Add(time.Hour)
			return r
		}, "made on only 2 boots or days (boot b1 on 2026-11-24, day 2026-11-26)"},
	} {
		rec := finishedRun(t, filepath.Join(t.TempDir(), "pooled-x"), func(r *Record) { r.Pooled = c.runs(threeRuns()) }, "Select")
		err := publishable(rec)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error = %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// A pool's pages say how many boots and days its runs span, and that a
// pool of one boot has not seen a reboot.
func TestPoolSpan(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		runs         []PooledRun
		span, reboot string
	}{
		{[]PooledRun{{Start: day(1), Boot: "a"}, {Start: day(2), Boot: "a"}, {Start: day(3), Boot: "a"}},
			"made on 3 days and 1 boot", "Its runs share one boot of the machine, so how a reboot moves the results is not in this pool."},
		{[]PooledRun{{Start: day(1), Boot: "a"}, {Start: day(1), Boot: "b"}, {Start: day(2), Boot: "c"}},
			"made on 2 days and 3 boots", ""},
		{[]PooledRun{{Start: day(1)}, {Start: day(2)}, {Start: day(3)}},
			"made on 3 days, boots not recorded", ""},
		{[]PooledRun{{Start: day(1), Boot: "a"}, {Start: day(2)}},
			"made on 2 days and at least 1 boot", ""},
		{[]PooledRun{{Start: day(1), Boot: "a"}},
			"made on 1 day and 1 boot", ""},
	} {
		if got := poolSpan(c.runs); got != c.span {
			t.Errorf("poolSpan(%v) = %q, want %q", c.runs, got, c.span)
		}
		if got := poolRebootNote(c.runs); got != c.reboot {
			t.Errorf("poolRebootNote(%v) = %q, want %q", c.runs, got, c.reboot)
		}
	}
}
