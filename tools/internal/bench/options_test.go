package bench

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseToolchains(t *testing.T) {
	got, err := ParseToolchains("go1.24, upstream")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "go1.24" || got[0].Release != "go1.24.13" || got[1].Name != "upstream" || got[1].Release != "go1.23.12" {
		t.Errorf("ParseToolchains kept %+v; want go1.24 (go1.24.13) then upstream (go1.23.12), in the order given", got)
	}
	all, err := ParseToolchains(knownNames())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range all {
		if tc.Name == "nospinbit" && (tc.Experiment != "nospinbitmutex" || !tc.Fork()) {
			t.Errorf("nospinbit = %+v, want the fork with GOEXPERIMENT=nospinbitmutex", tc)
		}
		if tc.Name == "spinbit" && (tc.Experiment != "" || !tc.Fork()) {
			t.Errorf("spinbit = %+v, want the fork with default settings", tc)
		}
	}
	for _, bad := range []struct{ in, want string }{
		{"upstream,go1.25", `unknown toolchain "go1.25"`},
		{"spinbit,spinbit", "listed twice"},
		{" , ", "no toolchain"},
	} {
		_, err := ParseToolchains(bad.in)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseToolchains(%q) error = %v, want one mentioning %q", bad.in, err, bad.want)
		}
	}
}

func TestParseFlagsModes(t *testing.T) {
	full, err := ParseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if full.Quick || full.Count != 10 || !reflect.DeepEqual(full.CPUs, []int{1, 2, 4, 8, 16, 32}) || full.Benchtime != fullBenchtime {
		t.Errorf("full defaults = %+v", full)
	}
	// Every release is compared by default, the current one included.
	var names, releases []string
	for _, tc := range full.Toolchains {
		names, releases = append(names, tc.Name), append(releases, tc.Release)
	}
	if got := strings.Join(names, ","); got != "upstream,spinbit,nospinbit,go1.24,go1.27" {
		t.Errorf("default toolchains = %s, want upstream,spinbit,nospinbit,go1.24,go1.27", got)
	}
	if got := strings.Join(releases, ","); got != "go1.23.12,,,go1.24.13,go1.27.4" {
		t.Errorf("default releases = %s, want go1.23.12, the fork twice, go1.24.13, go1.27.4", got)
	}
	rt, err := ParseFlags([]string{"-runtime"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	names = nil
	for _, tc := range rt.Toolchains {
		names = append(names, tc.Name)
	}
	if got := strings.Join(names, ","); got != "spinbit,nospinbit,go1.24,go1.27" {
		t.Errorf("-runtime default toolchains = %s, want spinbit,nospinbit,go1.24,go1.27 (the releases to be left out, saying so)", got)
	}
	quick, err := ParseFlags([]string{"-quick", "-toolchains", "upstream,go1.24"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !quick.Quick || quick.Count != 1 || !reflect.DeepEqual(quick.CPUs, []int{1, 4, 16}) || quick.Benchtime != "100x" || len(quick.Toolchains) != 2 {
		t.Errorf("quick defaults = %+v", quick)
	}
	// Explicit settings win over the mode's defaults.
	o, err := ParseFlags([]string{"-quick", "-cpu", "2,8", "-count", "3", "-benchtime", "10ms", "-timeout", "1m"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o.CPUs, []int{2, 8}) || o.Count != 3 || o.Benchtime != "10ms" || o.Timeout != time.Minute {
		t.Errorf("explicit settings lost: %+v", o)
	}
}

func TestParseFlagsErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-cpu", "1,x"}, `"x" is not a positive integer`},
		{[]string{"-cpu", "0"}, `"0" is not a positive integer`},
		{[]string{"-cpu", "4,4"}, "listed twice"},
		{[]string{"-count", "-1"}, "at least 1"},
		{[]string{"-benchtime", "fast"}, "positive duration"},
		{[]string{"-benchtime", "0x"}, "positive integer followed by x"},
		{[]string{"-bench", "("}, "not a valid regexp"},
		{[]string{"-bench", "Chan/x"}, "sub-benchmark"},
		{[]string{"-bench", ""}, "empty pattern"},
		{[]string{"-toolchains", "gccgo"}, "unknown toolchain"},
		{[]string{"quick"}, "unexpected argument"},
		{[]string{"-publish", "bench/results/latest", "-quick", "-count", "2"}, "-count -quick would have no effect"},
		{[]string{"-pool", "bench/results/a,bench/results/b", "-cpu", "4"}, "-pool runs nothing, so -cpu would have no effect"},
		{[]string{"-pool", ",", "-out", "x"}, "name at least one run folder"},
		{[]string{"-confirm", "bench/results/pooled-x", "-base", "go1.27.4"}, "-confirm runs nothing, so -base would have no effect"},
	} {
		_, err := ParseFlags(c.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFlags(%q) error = %v, want one mentioning %q", c.args, err, c.want)
		}
	}
	if o, err := ParseFlags([]string{"-root", "/r", "-publish", "x"}, io.Discard); err != nil || o.Publish != "x" || o.Root != "/r" {
		t.Errorf("-root /r -publish x: %+v, %v; want both kept", o, err)
	}
	if o, err := ParseFlags([]string{"-root", "/r", "-confirm", "x"}, io.Discard); err != nil || o.Confirm != "x" || o.Root != "/r" {
		t.Errorf("-root /r -confirm x: %+v, %v; want both kept", o, err)
	}
	if o, err := ParseFlags([]string{"-pool", "a, b", "-out", "p", "-root", "/r"}, io.Discard); err != nil || len(o.Pool) != 2 || o.Pool[1] != "b" || o.Out != "p" {
		t.Errorf("-pool 'a, b' -out p: %+v, %v; want runs a and b, -out kept", o, err)
	}
	var help strings.Builder
	if _, err := ParseFlags([]string{"-help"}, &help); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-help: error = %v, want flag.ErrHelp", err)
	}
	// -help names every toolchain with its release, and the defaults.
	for _, k := range Known {
		want := k.Name + " ("
		if k.Release != "" {
			want += k.Release
		}
		if !strings.Contains(help.String(), want) {
			t.Errorf("-help does not name toolchain %s as %q", k.Name, want)
		}
	}
	for _, want := range []string{"default " + knownNames(), "or " + runtimeToolchains + " with -runtime"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("-help does not say %q", want)
		}
	}
}
