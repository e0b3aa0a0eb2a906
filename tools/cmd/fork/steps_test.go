package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSelectSteps(t *testing.T) {
	all := []step{
		{name: "a/tree", tree: true},
		{name: "a/slow", slow: true},
		{name: "b/long", long: true},
	}
	names := func(ss []step) []string {
		var n []string
		for _, s := range ss {
			n = append(n, s.name)
		}
		return n
	}
	for _, tc := range []struct {
		run         string
		short, long bool
		want        []string
	}{
		{"", false, false, []string{"a/tree", "a/slow"}},
		{"", true, false, []string{"a/tree"}},
		{"", false, true, []string{"a/tree", "a/slow", "b/long"}},
		{"^b/", false, false, nil},
		{"tree", false, false, []string{"a/tree"}},
	} {
		got, err := selectSteps(all, tc.run, tc.short, tc.long)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(got), tc.want) {
			t.Errorf("selectSteps(-run %q, short %v, long %v) = %v, want %v", tc.run, tc.short, tc.long, names(got), tc.want)
		}
	}
	if _, err := selectSteps(all, "(", false, false); err == nil || !strings.Contains(err.Error(), "-run") {
		t.Errorf("selectSteps with a bad regexp: %v, want an error naming -run", err)
	}
}

// The model needs the source it quotes, not a built toolchain, so running
// it alone must not build the fork; the default run needs the build.
func TestNeedsBuild(t *testing.T) {
	model, err := selectSteps(steps, "^model/", false, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(model) == 0 {
		t.Fatal("no model/ step")
	}
	if needsBuild(model) {
		t.Errorf("the model/ steps need a built fork; they should need only goroot/'s source")
	}
	all, err := selectSteps(steps, "", false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !needsBuild(all) {
		t.Errorf("the default steps do not need a built fork")
	}
}

// ./test.bash -list must answer in a fresh clone, with no goroot/, without
// laying one out or building it.
func TestListWithoutGoroot(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fork")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "UPSTREAM"), []byte("version go1.23.12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "test", "-list")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fork test -list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "model/spin\n") || !strings.Contains(string(out), "patches/apply-fresh\n") {
		t.Errorf("fork test -list printed:\n%s\nwant the step names", out)
	}
	if _, err := os.Stat(filepath.Join(root, "goroot")); !os.IsNotExist(err) {
		t.Errorf("fork test -list made goroot/ (stat: %v)", err)
	}
}
