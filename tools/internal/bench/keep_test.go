package bench

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// writeRun writes a finished run's folder under dir: its record, each
// toolchain's raw output and a table, as Run leaves them.
func writeRun(t *testing.T, dir string, rec Record) string {
	t.Helper()
	d := filepath.Join(dir, rec.Name)
	if err := os.MkdirAll(d, 0o777); err != nil {
		t.Fatal(err)
	}
	rec.Tables = []TableFile{{File: "spinbit-vs-upstream.txt"}}
	rec.Plots = []string{"plots/Select.svg"}
	for _, tc := range rec.Toolchains {
		if err := os.WriteFile(filepath.Join(d, tc.Raw), []byte(rawRun(1000, 100)), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(d, "spinbit-vs-upstream.txt"), []byte("table\n"), 0o666)
	if err := writeRecord(d, rec); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestKeep(t *testing.T) {
	root := t.TempDir()
	// A repository root, as FindRoot knows one.
	for _, m := range []string{"bench", "tools"} {
		os.MkdirAll(filepath.Join(root, m), 0o777)
		os.WriteFile(filepath.Join(root, m, "go.mod"), []byte("module x\n"), 0o666)
	}
	t0 := time.Date(2026, 11, 28, 19, 30, 0, 0, time.UTC)
	rec := poolRecord("20261128-193000", "aaa", 10, t0)
	rec.Boot = "boot-1"
	from := writeRun(t, filepath.Join(root, "bench", "results"), rec)

	var out strings.Builder
	if err := Keep(root, from, &out); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.3")), rec.Name)
	if !strings.Contains(out.String(), "kept run 20261128-193000 (commit aaa, boot boot-1 on 2026-11-28) in bench/report/go1.27.3/runs/20261128-193000") {
		t.Errorf("Keep said %q", out.String())
	}
	got, err := ReadRecord(kept)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != rec.Name || got.Boot != "boot-1" || got.Provenance.Commit != "aaa" || len(got.Tables) != 0 || len(got.Plots) != 0 {
		t.Errorf("kept record: name %q boot %q commit %q, %d tables, %d plots; want the run's, with no tables or plots",
			got.Name, got.Boot, got.Provenance.Commit, len(got.Tables), len(got.Plots))
	}
	ents, _ := os.ReadDir(kept)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := len(rec.Toolchains) + 1; len(names) != want {
		t.Errorf("kept folder holds %q, want the record and %d raw outputs only", names, len(rec.Toolchains))
	}
	for _, tc := range rec.Toolchains {
		a, _ := os.ReadFile(filepath.Join(from, tc.Raw))
		b, err := os.ReadFile(filepath.Join(kept, tc.Raw))
		if err != nil || string(a) != string(b) {
			t.Errorf("kept %s differs from the run's (%v)", tc.Raw, err)
		}
	}

	err = Keep(root, from, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("keeping a run twice: error = %v, want one saying it is kept already", err)
	}

	// A kept run pools with a run that is not kept.
	if runtime.GOOS == "windows" {
		return
	}
	benchstat := filepath.Join(root, "benchstat")
	os.WriteFile(benchstat, []byte("#!/bin/sh\necho table\n"), 0o755)
	other := poolRecord("20261129-080000", "aaa", 10, t0.Add(12*time.Hour))
	other.Boot = "boot-2"
	otherDir := writeRun(t, filepath.Join(root, "bench", "results"), other)
	recs := []Record{got, other}
	if err := poolable(recs, noCodeChanges); err != nil {
		t.Fatalf("a kept run and another: %v", err)
	}
	pooled := filepath.Join(root, "pooled")
	os.MkdirAll(pooled, 0o777)
	if err := poolInto(context.Background(), pooled, benchstat, []string{kept, otherDir}, recs, io.Discard); err != nil {
		t.Fatalf("pooling a kept run: %v", err)
	}
	raw, _ := os.ReadFile(filepath.Join(pooled, "spinbit.txt"))
	if n := strings.Count(string(raw), "\nBenchmarkSelect-4 "); n != 2 {
		t.Errorf("the pool of a kept run and another has %d Select results, want 2", n)
	}
	// The pool names each run's folder, and its page's reproduce steps
	// give those folders to -pool.
	prec, err := ReadRecord(pooled)
	if err != nil {
		t.Fatal(err)
	}
	if len(prec.Pooled) != 2 || prec.Pooled[0].Dir != "bench/report/go1.27.3/runs/20261128-193000" || prec.Pooled[1].Dir != "bench/results/20261129-080000" {
		t.Errorf("pooled runs %+v; want the kept run's folder and bench/results/'s", prec.Pooled)
	}
	if want := "./bench.bash -pool bench/report/go1.27.3/runs/20261128-193000,bench/results/20261129-080000\n"; !strings.Contains(reproduceText(prec), want) {
		t.Errorf("reproduce steps lack %q:\n%s", want, reproduceText(prec))
	}
}

func TestKeepRefuses(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 19, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		name   string
		mutate func(*Record)
		want   string
	}{
		{"pooled", func(r *Record) { r.Pooled = []PooledRun{{Name: "x"}, {Name: "y"}} }, "it is a pool; keep the runs it joins (x, y)"},
		{"quick", func(r *Record) { r.Mode = "quick" }, "it is a quick run"},
		{"instructions", func(r *Record) { r.Mode = "instruction-counting" }, "it is a instruction-counting run"},
		{"incomplete", func(r *Record) { r.Incomplete = "stopped at repetition 3" }, "it is incomplete (stopped at repetition 3)"},
		{"dirty", func(r *Record) { r.Provenance.Changed = []string{" M bench/chan_test.go"} }, "cannot be reproduced from its commit"},
		{"no fork", func(r *Record) {
			r.Provenance.Base = ""
			r.Toolchains = r.Toolchains[:1]
			r.Toolchains[0].Version = "go1.23.12"
		}, "names no base of the fork"},
		{"raw outside", func(r *Record) { r.Toolchains[1].Raw = "../spinbit.txt" }, "which is not a file in the folder"},
		{"one benchmark", func(r *Record) { r.Bench = "Select" }, `it ran only the benchmarks matching "Select"`},
		{"toolchains left out", func(r *Record) { r.Toolchains = r.Toolchains[:2] }, "it left out toolchains nospinbit,go1.24,go1.27"},
		{"name outside", func(r *Record) { r.Name = "../../x" }, `names the run "../../x", which is no folder name`},
	} {
		root := t.TempDir()
		rec := poolRecord("run", "aaa", 10, t0)
		rec.Toolchains[0].Version = "go1.27.3-spinbit"
		from := writeRun(t, root, rec)
		c.mutate(&rec)
		rec.Tables = []TableFile{{File: "spinbit-vs-upstream.txt"}}
		if err := writeRecord(from, rec); err != nil {
			t.Fatal(err)
		}
		err := Keep(root, from, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %v, want one containing %q", c.name, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(root, "bench")); err == nil {
			t.Errorf("%s: a refused Keep wrote into bench/", c.name)
		}
	}

	root := t.TempDir()
	costs := filepath.Join(root, "costs-1")
	os.MkdirAll(costs, 0o777)
	os.WriteFile(filepath.Join(costs, costsRecordFile), []byte("{}"), 0o666)
	if err := Keep(root, costs, io.Discard); err == nil || !strings.Contains(err.Error(), "-costs run") {
		t.Errorf("a -costs run: error = %v, want one saying -pool does not join it", err)
	}
	instr := filepath.Join(root, "instructions-1")
	os.MkdirAll(instr, 0o777)
	os.WriteFile(filepath.Join(instr, "instructions.txt"), []byte("table\n"), 0o666)
	if err := Keep(root, instr, io.Discard); err == nil || !strings.Contains(err.Error(), "-instructions run") {
		t.Errorf("an -instructions run: error = %v, want one saying -pool does not join it", err)
	}
	if err := Keep(root, filepath.Join(root, "nothing"), io.Discard); err == nil || !strings.Contains(err.Error(), "has no run.json") {
		t.Errorf("a folder without a run: error = %v", err)
	}
}

// Kept runs live where no run's measured code is, so that committing one
// does not stop runs of the commits before and after it from pooling.
func TestKeptDirOutsideMeasuredCode(t *testing.T) {
	dir := KeptDir("go1.27.4")
	if !strings.HasPrefix(dir, ReportDir+"/") {
		t.Fatalf("KeptDir = %s, outside %s", dir, ReportDir)
	}
	paths := poolPaths("go1.27.4")
	excluded := false
	for _, p := range paths {
		if p == ":(exclude)"+ReportDir {
			excluded = true
		}
	}
	if !excluded {
		t.Errorf("poolPaths %q does not exclude %s, where kept runs are", paths, ReportDir)
	}
}

// A kept run has no tables to publish: Publish says to pool it instead of
// replacing the report with an empty one.
func TestPublishRefusesKeptRun(t *testing.T) {
	root := t.TempDir()
	rec := poolRecord("20261128-193000", "aaa", 10, time.Date(2026, 11, 28, 19, 30, 0, 0, time.UTC))
	from := writeRun(t, filepath.Join(root, "bench", "results"), rec)
	if err := Keep(root, from, io.Discard); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.3")), rec.Name)
	err := Publish(root, kept, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "pool it with -pool") {
		t.Errorf("publishing a kept run: error = %v, want one saying to pool it", err)
	}
}
