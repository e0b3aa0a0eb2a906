package main

import (
	"reflect"
	"slices"
	"testing"
)

func TestChangedPackages(t *testing.T) {
	got := changedPackages([]string{
		"src/runtime/lock_spinbit.go", "src/runtime/lock_crash_test.go", "src/runtime/testdata/testprog/lockmkey.go",
		"src/cmd/go/internal/cfg/cfg.go", "src/runtime/HACKING.md", "VERSION", "src/internal/goexperiment/exp_spinbitmutex_on.go",
	})
	want := []string{"cmd/go/internal/cfg", "internal/goexperiment", "runtime"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changedPackages = %q, want %q", got, want)
	}
}

func TestPatchChecks(t *testing.T) {
	for _, c := range []struct {
		pkgs                []string
		experiment, torture bool
		want                []patchCheck
	}{
		{nil, true, true, nil},
		{[]string{"cmd/go"}, true, true, []patchCheck{{args: []string{"vet", "cmd/go"}}}},
		{[]string{"runtime"}, false, false, []patchCheck{{args: []string{"vet", "runtime"}}}},
		{[]string{"internal/goexperiment", "runtime"}, true, false, []patchCheck{
			{args: []string{"vet", "internal/goexperiment"}},
			{env: []string{"GOEXPERIMENT=spinbitmutex"}, args: []string{"vet", "runtime"}},
			{env: []string{"GOEXPERIMENT=nospinbitmutex"}, args: []string{"vet", "runtime"}},
		}},
		{[]string{"runtime"}, true, true, []patchCheck{
			{env: []string{"GOEXPERIMENT=spinbitmutex"}, args: []string{"vet", "runtime"}},
			{env: []string{"GOEXPERIMENT=nospinbitmutex"}, args: []string{"vet", "runtime"}},
			{env: []string{"GOEXPERIMENT=spinbitmutex"}, args: []string{"build", "-tags", "spinbittorture", "runtime"}},
		}},
	} {
		if got := patchChecks(c.pkgs, c.experiment, c.torture); !reflect.DeepEqual(got, c.want) {
			t.Errorf("patchChecks(%q, %v, %v) = %+v, want %+v", c.pkgs, c.experiment, c.torture, got, c.want)
		}
	}
}

func TestChangesRuntime(t *testing.T) {
	for _, c := range []struct {
		files []string
		want  bool
	}{
		{nil, false},
		{[]string{"src/cmd/go/internal/cfg/cfg.go", "VERSION"}, false},
		{[]string{"src/runtimeish/x.go", "src/internal/goexperiment/flags.go"}, false},
		{[]string{"src/internal/runtime/atomic/types.go"}, true},
		{[]string{"src/cmd/go/main.go", "src/runtime/lock_spinbit.go"}, true},
		{[]string{"src/runtime/testdata/testprog/lockmkey.go"}, true},
	} {
		if got := changesRuntime(c.files); got != c.want {
			t.Errorf("changesRuntime(%q) = %v, want %v", c.files, got, c.want)
		}
	}
}

// A patch is tested with the spinbit experiment off too once its tree has
// the experiment, and only then: before it, GOEXPERIMENT=nospinbitmutex
// names nothing the tree knows.
func TestPatchTestExperiments(t *testing.T) {
	if got := patchTestExperiments(false); !slices.Equal(got, []string{""}) {
		t.Errorf("patchTestExperiments(false) = %q, want only the default", got)
	}
	if got := patchTestExperiments(true); !slices.Equal(got, []string{"", "nospinbitmutex"}) {
		t.Errorf("patchTestExperiments(true) = %q, want the default and nospinbitmutex", got)
	}
}
