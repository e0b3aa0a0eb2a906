package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplitTables(t *testing.T) {
	// Real benchstat output from a quick run of go1.24 against upstream.
	data, err := os.ReadFile("testdata/benchstat-go1.24-vs-upstream.txt")
	if err != nil {
		t.Fatal(err)
	}
	tables := SplitTables(string(data))
	var units []string
	for _, tab := range tables {
		units = append(units, tab.Unit)
	}
	want := "sec/op cpu-sec/op ivcsw/op vcsw/op B/op allocs/op max-sec p50-sec p99-sec"
	if got := strings.Join(units, " "); got != want {
		t.Errorf("units = %s\nwant    %s", got, want)
	}
	sec, ok := FindTable(tables, "sec/op")
	if !ok {
		t.Fatal("no sec/op table")
	}
	if !strings.HasPrefix(strings.TrimSpace(sec.Text), "│") || !strings.Contains(sec.Text, "ChanContended-16") || !strings.Contains(sec.Text, "geomean") {
		t.Errorf("sec/op table text is not the whole table:\n%s", sec.Text)
	}
	if strings.Contains(sec.Text, "vcsw/op") || strings.Contains(sec.Text, "goos:") {
		t.Errorf("sec/op table runs into its neighbours:\n%s", sec.Text)
	}
	if len(sec.Config) != 4 || sec.Config[0] != "goos: linux" {
		t.Errorf("sec/op config = %q, want the four goos/goarch/pkg/cpu lines", sec.Config)
	}
	// Tables after the first keep the configuration in force.
	if p99, _ := FindTable(tables, "p99-sec"); len(p99.Config) != 4 || !strings.Contains(p99.Text, "Capture-16") {
		t.Errorf("p99 table: config %q, text:\n%s", p99.Config, p99.Text)
	}
	if _, ok := FindTable(tables, "furlongs/op"); ok {
		t.Error("found a table for a unit that is not there")
	}
	if got := SplitTables("goos: linux\n\nno tables here\n"); len(got) != 0 {
		t.Errorf("text without tables gave %d tables", len(got))
	}
}

func TestComparisons(t *testing.T) {
	names := func(cs []Comparison) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.File())
		}
		return strings.Join(s, " ")
	}
	all, _ := ParseToolchains(knownNames())
	if got, want := names(Comparisons(all)), "spinbit-vs-upstream.txt spinbit-vs-go1.24.txt spinbit-vs-go1.27.txt nospinbit-vs-upstream.txt go1.24-vs-upstream.txt"; got != want {
		t.Errorf("all toolchains: %s, want %s", got, want)
	}
	some, _ := ParseToolchains("go1.24,upstream")
	if got := names(Comparisons(some)); got != "go1.24-vs-upstream.txt" {
		t.Errorf("upstream and go1.24: %s", got)
	}
	one, _ := ParseToolchains("spinbit")
	if got := Comparisons(one); len(got) != 0 {
		t.Errorf("a single toolchain has nothing to compare, got %v", got)
	}
}

// syntheticRaw is go test -bench output for two workloads at GOMAXPROCS 1
// and 4, reps repetitions, whose times are scale times a base that varies
// a little between repetitions.
func syntheticRaw(scale float64, reps int) string {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: go-spinbit.dev/bench\n")
	for i := 0; i < reps; i++ {
		for _, w := range []string{"ChanContended", "Handoff"} {
			for _, p := range []int{1, 4} {
				name := "Benchmark" + w
				if p != 1 {
					name += fmt.Sprintf("-%d", p)
				}
				ns := scale * float64(1000*p+i)
				fmt.Fprintf(&b, "%s\t1000\t%.1f ns/op\t%.3f vcsw/op\t0.01 ivcsw/op\t%.1f p99-ns\n", name, ns, scale*0.1, 20*ns)
			}
		}
		b.WriteString("PASS\n")
	}
	return b.String()
}

// preparedRaw writes synthetic raw output for the named toolchains into
// dir, the time of each scaled as given.
func preparedRaw(t *testing.T, dir string, scales map[string]float64, names ...string) []*prepared {
	t.Helper()
	tcs, err := ParseToolchains(strings.Join(names, ","))
	if err != nil {
		t.Fatal(err)
	}
	var ps []*prepared
	for _, tc := range tcs {
		p := &prepared{Toolchain: tc, Raw: filepath.Join(dir, tc.Name+".txt")}
		if err := os.WriteFile(p.Raw, []byte(syntheticRaw(scales[tc.Name], 6)), 0o666); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func TestWriteTables(t *testing.T) {
	root, err := FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	benchstat, err := buildBenchstat(ctx, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// spinbit takes half upstream's time, go1.24 twice it, nospinbit the same.
	scales := map[string]float64{"upstream": 1, "spinbit": 0.5, "nospinbit": 1, "go1.24": 2}

	dir := t.TempDir()
	// Given out of the canonical order: all.txt must still start with upstream.
	files, err := writeTables(ctx, benchstat, dir, preparedRaw(t, dir, scales, "go1.24", "nospinbit", "spinbit", "upstream"), wantedComparisons)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.File+"="+f.Title)
		if f.File == allFile {
			continue
		}
		newName, base, _ := strings.Cut(strings.TrimSuffix(f.File, ".txt"), "-vs-")
		if strings.Join(f.Columns, ",") != base+","+newName {
			t.Errorf("%s: recorded columns %q, want %s,%s", f.File, f.Columns, base, newName)
		}
	}
	want := "spinbit-vs-upstream.txt=spinbit vs upstream spinbit-vs-go1.24.txt=spinbit vs go1.24 nospinbit-vs-upstream.txt=nospinbit vs upstream " +
		"go1.24-vs-upstream.txt=go1.24 vs upstream all.txt=all toolchains, against upstream"
	if strings.Join(got, " ") != want {
		t.Errorf("tables written:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}

	table := func(file, unit string) Table {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		tab, ok := FindTable(SplitTables(string(data)), unit)
		if !ok {
			t.Fatalf("%s has no %s table:\n%s", file, unit, data)
		}
		return tab
	}
	// The base is the first column, so the deltas are new against base.
	for file, wantDelta := range map[string]string{
		"spinbit-vs-upstream.txt":   "-50.",
		"spinbit-vs-go1.24.txt":     "-75.",
		"nospinbit-vs-upstream.txt": "~",
		"go1.24-vs-upstream.txt":    "+100.",
	} {
		tab := table(file, "sec/op")
		newName, base, _ := strings.Cut(strings.TrimSuffix(file, ".txt"), "-vs-")
		if cols := tab.Columns(); len(cols) != 2 || cols[0] != base || cols[1] != newName {
			t.Errorf("%s: columns %q, want %s then %s", file, cols, base, newName)
		}
		for _, l := range strings.Split(tab.Text, "\n") {
			if strings.HasPrefix(l, "ChanContended-4 ") && !strings.Contains(l, wantDelta) {
				t.Errorf("%s: %q, want a delta of %s", file, l, wantDelta)
			}
		}
		// The extra metrics get tables of their own; benchstat shows -ns
		// metrics in seconds.
		table(file, "vcsw/op")
		table(file, "p99-sec")
	}
	if cols := table("all.txt", "sec/op").Columns(); strings.Join(cols, ",") != "upstream,spinbit,nospinbit,go1.24" {
		t.Errorf("all.txt columns %q, want the canonical order", cols)
	}

	// Two toolchains: their comparison says it all, so no all.txt.
	dir = t.TempDir()
	files, err = writeTables(ctx, benchstat, dir, preparedRaw(t, dir, scales, "upstream", "go1.24"), wantedComparisons)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].File != "go1.24-vs-upstream.txt" || isFile(filepath.Join(dir, allFile)) {
		t.Errorf("upstream and go1.24 wrote %+v (all.txt there: %v), want only go1.24-vs-upstream.txt", files, isFile(filepath.Join(dir, allFile)))
	}
	// Two that are no wanted comparison: all.txt still puts them side by side.
	dir = t.TempDir()
	files, err = writeTables(ctx, benchstat, dir, preparedRaw(t, dir, scales, "nospinbit", "spinbit"), wantedComparisons)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].File != allFile {
		t.Errorf("spinbit and nospinbit wrote %+v, want only all.txt", files)
	}
	// In a -runtime run they are the comparison, spinbit against nospinbit.
	dir = t.TempDir()
	files, err = writeTables(ctx, benchstat, dir, preparedRaw(t, dir, scales, "nospinbit", "spinbit"), runtimeComparisons)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].File != "spinbit-vs-nospinbit.txt" || files[0].Columns[0] != "nospinbit" {
		t.Errorf("-runtime spinbit and nospinbit wrote %+v, want only spinbit-vs-nospinbit.txt with nospinbit as base", files)
	}

	// A raw file that is gone makes benchstat complain (though it exits
	// 0), and the error says so.
	dir = t.TempDir()
	ps := preparedRaw(t, dir, scales, "upstream", "spinbit")
	os.Remove(ps[1].Raw)
	_, err = writeTables(ctx, benchstat, dir, ps, wantedComparisons)
	for _, want := range []string{"benchstat upstream=upstream.txt spinbit=spinbit.txt failed", "spinbit.txt: no such file"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing raw output: error = %v\nwant one mentioning %q", err, want)
		}
	}
}
