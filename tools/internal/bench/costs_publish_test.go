package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeCostsRun writes the files of a -costs run with record r into a new
// folder, and returns it.
func fakeCostsRun(t *testing.T, r costsRecord) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), r.Name)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"costs.md", "costs.csv", "spinbit.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(f+" of "+r.Name+"\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeCostsRecord(dir, r); err != nil {
		t.Fatal(err)
	}
	return dir
}

func defaultCostsRecord(name string) costsRecord {
	return costsRecord{
		Provenance: Provenance{Commit: "0123456789ab", Base: "go1.27.4"},
		Name:       name, Start: time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC),
		Toolchains: strings.Split(costsToolchains, ","), Bench: costsBench, CPUs: costsCPUs, Count: costsCount,
	}
}

func TestPublishCosts(t *testing.T) {
	root := t.TempDir()
	dst := filepath.Join(root, "bench", "report", "go1.27.4", "costs")
	for _, name := range []string{"costs-1", "costs-2"} {
		var out strings.Builder
		if err := Publish(root, fakeCostsRun(t, defaultCostsRecord(name)), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), dst) {
			t.Errorf("Publish said %q, which does not name %s", out.String(), dst)
		}
		got, err := os.ReadFile(filepath.Join(dst, "costs.md"))
		if err != nil {
			t.Fatal(err)
		}
		if want := "costs.md of " + name + "\n"; string(got) != want {
			t.Errorf("published costs.md is %q, want %q: the later run must replace the earlier", got, want)
		}
		rec, err := readCostsRecord(dst)
		if err != nil || rec.Name != name {
			t.Errorf("published record: %+v, %v; want the run %s", rec, err, name)
		}
	}
	if isFile(filepath.Join(dst, "spinbit.txt")) {
		t.Errorf("the raw output was published")
	}
}

// TestPublishCostsRuntime publishes a -costs -runtime run of its defaults
// beside bench/'s, and refuses one that ran bench/'s defaults' toolchains
// or benchmarks, naming the flags to run.
func TestPublishCostsRuntime(t *testing.T) {
	root := t.TempDir()
	r := defaultCostsRecord("costs-runtime-1")
	r.Runtime, r.Toolchains, r.Bench = true, strings.Split(runtimeToolchains, ","), upstreamRuntimeBench
	if err := Publish(root, fakeCostsRun(t, r), new(strings.Builder)); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(root, "bench", "report", "go1.27.4")
	if !isFile(filepath.Join(report, "costs-runtime", "costs.md")) || isFile(filepath.Join(report, "costs", "costs.md")) {
		t.Errorf("a -costs -runtime run was not published to costs-runtime/ alone")
	}
	bad := defaultCostsRecord("costs-runtime-2")
	bad.Runtime = true
	err := Publish(t.TempDir(), fakeCostsRun(t, bad), new(strings.Builder))
	for _, want := range []string{"not all of " + runtimeToolchains, upstreamRuntimeBench, "./bench.bash -costs -runtime with its defaults"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Publish of a runtime run with bench/'s defaults: %v; want it to say %q", err, want)
		}
	}
}

func TestPublishCostsRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*costsRecord)
		want string
	}{
		{"dirty", func(r *costsRecord) { r.Changed = []string{" M bench/x.go"} }, "uncommitted changes"},
		{"no-base", func(r *costsRecord) { r.Base = "" }, "names no base"},
		{"some-toolchains", func(r *costsRecord) { r.Toolchains = []string{"spinbit", "go1.27"} }, "not all of"},
		{"some-bench", func(r *costsRecord) { r.Bench = "^BenchmarkSelect$" }, "-bench"},
		{"some-cpus", func(r *costsRecord) { r.CPUs = []int{2, 8} }, "-cpu"},
		{"few-reps", func(r *costsRecord) { r.Count = 2 }, "repetitions"},
		{"benchtime", func(r *costsRecord) { r.Benchtime = "1000x" }, "-benchtime"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := defaultCostsRecord(c.name)
			c.edit(&r)
			root := t.TempDir()
			err := Publish(root, fakeCostsRun(t, r), new(strings.Builder))
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "cannot publish") {
				t.Fatalf("Publish of a run with %s: %v; want a refusal that says %q", c.name, err, c.want)
			}
			if isFile(filepath.Join(root, "bench", "report", "go1.27.4", "costs", "costs.md")) {
				t.Errorf("a refused run was published")
			}
		})
	}
}

func TestPublishCostsWithoutRecord(t *testing.T) {
	dir := fakeCostsRun(t, defaultCostsRecord("costs-old"))
	if err := os.Remove(filepath.Join(dir, costsRecordFile)); err != nil {
		t.Fatal(err)
	}
	err := Publish(t.TempDir(), dir, new(strings.Builder))
	if err == nil || !strings.Contains(err.Error(), "run ./bench.bash -costs again") {
		t.Fatalf("Publish of a -costs run without a record: %v; want it to say to run -costs again", err)
	}
}
