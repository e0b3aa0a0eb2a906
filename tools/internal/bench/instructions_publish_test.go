package bench

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// instrRun writes the output folder of an -instructions run of the
// defaults, with the counts, under root, and returns it.
func instrRun(t *testing.T, root string, mutate func(*instrRecord)) string {
	t.Helper()
	dir := filepath.Join(root, "bench", "results", "instructions-1")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	rec := instrRecord{
		Provenance: Provenance{Commit: "0123456789abcdef", Base: "go1.27.4"},
		Name:       "instructions-1", Start: time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC), Host: "Some CPU, 2 logical CPUs",
		Bench: instrBench, Benchtime: instrBenchtime,
		Counts: []instrCount{
			{Toolchain: "upstream", Benchmark: "BenchmarkChanContended", PerOp: 1000},
			{Toolchain: "spinbit", Benchmark: "BenchmarkChanContended", PerOp: 1005},
			{Toolchain: "upstream", Benchmark: "BenchmarkSelect", PerOp: 2000},
			{Toolchain: "spinbit", Benchmark: "BenchmarkSelect", PerOp: 2100},
			{Toolchain: "go1.27", Benchmark: "BenchmarkSelect", PerOp: 1900},
		},
	}
	for _, n := range strings.Split(instrToolchains, ",") {
		rec.Toolchains = append(rec.Toolchains, instrToolchain{Name: n, Version: "go1.x"})
	}
	if mutate != nil {
		mutate(&rec)
	}
	if err := writeInstrRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "instructions.txt"), []byte("table\n"), 0o666)
	return dir
}

func TestPublishInstructions(t *testing.T) {
	root := t.TempDir()
	from := instrRun(t, root, nil)
	dst := filepath.Join(root, filepath.FromSlash(BaseReportDir("go1.27.4")), "instructions")
	os.MkdirAll(dst, 0o777)
	os.WriteFile(filepath.Join(dst, reportIndex), []byte("an earlier run's page"), 0o666)
	if err := Publish(root, from, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, f := range instrReportFiles {
		if _, err := os.Stat(filepath.Join(dst, f)); err != nil {
			t.Errorf("published folder lacks %s: %v", f, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(dst, reportIndex))
	for _, want := range []string{
		"from the -instructions run instructions-1 of commit `0123456789ab`, 2026-11-28, on Some CPU, 2 logical CPUs",
		"| ChanContended | 1000.0 | 1005.0 | +0.50% | yes |",
		"| Select | 2000.0 | 2100.0 | +5.00% | **no** |",
		"Instructions executed at GOMAXPROCS 1",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("published page lacks %q:\n%s", want, page)
		}
	}
}

func TestPublishInstructionsRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		mutate func(*instrRecord)
		want   string
	}{
		{"no fork", func(r *instrRecord) { r.Base = "" }, "names no base of the fork"},
		{"dirty", func(r *instrRecord) { r.Changed = []string{" M bench/chan_test.go"} }, "uncommitted changes to measured files"},
		{"toolchains", func(r *instrRecord) { r.Toolchains = r.Toolchains[:3] }, "it ran the toolchains upstream,spinbit,go1.24, not " + instrToolchains},
		{"bench", func(r *instrRecord) { r.Bench = "Select" }, `it ran -bench "Select"`},
		{"benchtime", func(r *instrRecord) { r.Benchtime = "100x" }, "it ran -benchtime 100x"},
	} {
		root := t.TempDir()
		err := Publish(root, instrRun(t, root, c.mutate), io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "run ./bench.bash -instructions with its defaults") {
			t.Errorf("%s: error = %v, want one containing %q", c.name, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(ReportDir))); err == nil {
			t.Errorf("%s: a refused run was published", c.name)
		}
	}
	root := t.TempDir()
	old := filepath.Join(root, "instructions-0")
	os.MkdirAll(old, 0o777)
	os.WriteFile(filepath.Join(old, "instructions.txt"), []byte("table\n"), 0o666)
	if err := Publish(root, old, io.Discard); err == nil || !strings.Contains(err.Error(), "made before such runs recorded themselves") {
		t.Errorf("a run without a record: error = %v", err)
	}
}

func TestUncontendedVerdicts(t *testing.T) {
	vs := uncontendedVerdicts([]instrCount{
		{Toolchain: "upstream", Benchmark: "A", PerOp: 100},
		{Toolchain: "spinbit", Benchmark: "A", PerOp: 101},
		{Toolchain: "upstream", Benchmark: "B", PerOp: 100},
		{Toolchain: "spinbit", Benchmark: "B", PerOp: 101.5},
		{Toolchain: "go1.24", Benchmark: "C", PerOp: 100},
		{Toolchain: "spinbit", Benchmark: "C", PerOp: 500},
	})
	if len(vs) != 2 || !vs[0].Met || vs[1].Met || vs[1].Benchmark != "B" {
		t.Errorf("verdicts %+v; want A met (+1%%), B missed (+1.5%%), C not judged (no upstream)", vs)
	}
}
