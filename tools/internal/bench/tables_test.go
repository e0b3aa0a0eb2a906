package bench

import (
	"os"
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
	if got, want := names(Comparisons(all)), "spinbit-vs-upstream.txt spinbit-vs-go1.24.txt nospinbit-vs-upstream.txt go1.24-vs-upstream.txt"; got != want {
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
