package main

import (
	"fmt"

	"go-spinbit.dev/tools/internal/fork"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSelectJobs(t *testing.T) {
	all := []job{
		{step: step{name: "a/tree", tree: true}, base: "go1.27.3"},
		{step: step{name: "a/slow", slow: true}, base: "go1.27.3"},
		{step: step{name: "b/long"}, base: "go1.23.12", long: true},
		{step: step{name: "tools/x", shared: true}},
	}
	for _, tc := range []struct {
		run         string
		short, long bool
		want        []string
	}{
		{"", false, false, []string{"go1.27.3/a/tree", "go1.27.3/a/slow", "tools/x"}},
		{"", true, false, []string{"go1.27.3/a/tree", "tools/x"}},
		{"", false, true, []string{"go1.27.3/a/tree", "go1.27.3/a/slow", "go1.23.12/b/long", "tools/x"}},
		{"^b/", false, true, nil},
		{"^go1.23.12/", false, true, []string{"go1.23.12/b/long"}},
		{"tree", false, false, []string{"go1.27.3/a/tree"}},
	} {
		got, err := selectJobs(all, tc.run, tc.short, tc.long)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(got), tc.want) {
			t.Errorf("selectJobs(-run %q, short %v, long %v) = %v, want %v", tc.run, tc.short, tc.long, names(got), tc.want)
		}
	}
	if _, err := selectJobs(all, "(", false, false); err == nil || !strings.Contains(err.Error(), "-run") {
		t.Errorf("selectJobs with a bad regexp: %v, want an error naming -run", err)
	}
}

func names(jobs []job) []string {
	var n []string
	for _, j := range jobs {
		n = append(n, j.fullName())
	}
	return n
}

// newRepo makes a repository root with a base for each release, each
// with UPSTREAM and a patches/ holding the patches given for it.
func newRepo(t *testing.T, series map[string][]string) string {
	t.Helper()
	root := t.TempDir()
	for base, patches := range series {
		r := fork.Repo{Root: root, Base: base}
		if err := os.MkdirAll(r.Patches(), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(r.BaseDir(), "UPSTREAM"), fork.FormatUpstream(base, "linux-amd64", "h1:x="), 0o644); err != nil {
			t.Fatal(err)
		}
		for i, text := range patches {
			name := fmt.Sprintf("%04d-a-b.patch", i+1)
			if err := os.WriteFile(filepath.Join(r.Patches(), name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

// addsXchg8 is a patch that declares Xchg8 in internal/runtime/atomic.
const addsXchg8 = "diff --git a/src/internal/runtime/atomic/atomic_amd64.go b/src/internal/runtime/atomic/atomic_amd64.go\n" +
	"--- a/src/internal/runtime/atomic/atomic_amd64.go\n+++ b/src/internal/runtime/atomic/atomic_amd64.go\n" +
	"@@ -1,1 +1,3 @@\n package atomic\n+\n+func Xchg8(ptr *uint8, new uint8) uint8\n"

// The real steps, expanded for two bases: every name is unique, every
// base gets the upstream tests with the experiment on and off in the
// default run, the Xchg8 steps go only to the base whose series adds
// Xchg8, the shared steps run once, and an older base's default run is
// its core steps.
func TestExpandTwoBases(t *testing.T) {
	root := newRepo(t, map[string][]string{
		"go1.23.12": {addsXchg8},
		"go1.27.3":  {"diff --git a/src/runtime/lock_spinbit.go b/src/runtime/lock_spinbit.go\n+++ b/src/runtime/lock_spinbit.go\n+func lock2() {}\n"},
	})
	bases, newest, err := testBases(root, "")
	if err != nil || !slices.Equal(bases, []string{"go1.23.12", "go1.27.3"}) || newest != "go1.27.3" {
		t.Fatalf("testBases = %v, %q, %v", bases, newest, err)
	}
	all, err := expand(steps, root, bases, newest)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, j := range all {
		if seen[j.fullName()] {
			t.Errorf("two steps named %s", j.fullName())
		}
		seen[j.fullName()] = true
		if j.shared && j.base != "" || !j.shared && j.base == "" {
			t.Errorf("%s: shared %v but base %q", j.fullName(), j.shared, j.base)
		}
	}
	def, err := selectJobs(all, "", false, false)
	if err != nil {
		t.Fatal(err)
	}
	inDefault := map[string]bool{}
	for _, n := range names(def) {
		inDefault[n] = true
	}
	for _, base := range bases {
		for _, s := range []string{"patches/apply-fresh", "model/quotes"} {
			if !inDefault[base+"/"+s] {
				t.Errorf("the default run lacks %s/%s", base, s)
			}
		}
		if base == newest {
			for _, s := range []string{"runtime/test-short", "runtime/test-short-nospinbit", "toolchain/version"} {
				if !inDefault[base+"/"+s] {
					t.Errorf("the default run lacks %s/%s", base, s)
				}
			}
		}
		for _, s := range []string{"tools/go-test", "toolchain/newer-point-release"} {
			if seen[base+"/"+s] {
				t.Errorf("%s runs per base (%s)", s, base)
			}
		}
	}
	for _, s := range []string{"tools/go-test", "toolchain/newer-point-release"} {
		if !inDefault[s] {
			t.Errorf("the default run lacks %s", s)
		}
	}
	if !seen["go1.23.12/xchg8/test"] || seen["go1.27.3/xchg8/test"] || seen["go1.27.3/xchg8/vet-asm"] {
		t.Errorf("the xchg8/ steps should go to go1.23.12 only, whose series adds Xchg8")
	}
	// The newest base runs every default step, the older one its core.
	if !inDefault["go1.27.3/modes/program"] || inDefault["go1.23.12/modes/program"] || !seen["go1.23.12/modes/program"] {
		t.Errorf("modes/program: want it in go1.27.3's default run and behind -long on go1.23.12")
	}
	for _, j := range def {
		if j.base == "go1.23.12" && !j.core {
			t.Errorf("%s is in the default run of an older base but is not core", j.fullName())
		}
	}
	// -base narrows the run to one base, keeping its default set.
	one, _, err := testBases(root, "go1.23.12")
	if err != nil || !slices.Equal(one, []string{"go1.23.12"}) {
		t.Errorf("testBases(-base go1.23.12) = %v, %v", one, err)
	}
	if _, _, err := testBases(root, "go1.25.0"); err == nil || !strings.Contains(err.Error(), "go1.23.12, go1.27.3") {
		t.Errorf("testBases(-base go1.25.0) = %v, want an error listing the bases", err)
	}
}

// A base without patches/ is left out of "every base", and named when
// chosen.
func TestBaseWithoutPatches(t *testing.T) {
	root := newRepo(t, map[string][]string{"go1.23.12": {addsXchg8}})
	r := fork.Repo{Root: root, Base: "go1.27.3"}
	os.MkdirAll(r.BaseDir(), 0o755)
	os.WriteFile(filepath.Join(r.BaseDir(), "UPSTREAM"), fork.FormatUpstream("go1.27.3", "linux-amd64", "h1:x="), 0o644)
	bases, newest, err := testBases(root, "")
	if err != nil || !slices.Equal(bases, []string{"go1.23.12"}) || newest != "go1.23.12" {
		t.Errorf("testBases = %v, %q, %v; want go1.23.12 alone", bases, newest, err)
	}
	if _, _, err := testBases(root, "go1.27.3"); err == nil || !strings.Contains(err.Error(), "no patches/") {
		t.Errorf("testBases(-base go1.27.3) = %v, want an error saying it has no patches/", err)
	}
}

// The model needs the source it quotes, not a built toolchain, so running
// it alone must not build the fork; the default run needs the build.
func TestNeedsBuild(t *testing.T) {
	root := newRepo(t, map[string][]string{"go1.23.12": {addsXchg8}})
	all, err := expand(steps, root, []string{"go1.23.12"}, "go1.23.12")
	if err != nil {
		t.Fatal(err)
	}
	model, err := selectJobs(all, "/model/", false, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(model) == 0 {
		t.Fatal("no model/ step")
	}
	if needsBuild(model, "go1.23.12") {
		t.Errorf("the model/ steps need a built fork; they should need only the tree's source")
	}
	def, err := selectJobs(all, "", false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !needsBuild(def, "go1.23.12") {
		t.Errorf("the default steps do not need a built fork")
	}
}

// An older base's default steps are its core steps, which need only its
// tree: the default run builds the newest base alone.
func TestOlderBaseNeedsNoBuild(t *testing.T) {
	root := newRepo(t, map[string][]string{"go1.23.12": {addsXchg8}, "go1.27.3": {"x"}})
	all, err := expand(steps, root, []string{"go1.23.12", "go1.27.3"}, "go1.27.3")
	if err != nil {
		t.Fatal(err)
	}
	def, err := selectJobs(all, "", false, false)
	if err != nil {
		t.Fatal(err)
	}
	if needsBuild(def, "go1.23.12") {
		var built []string
		for _, j := range def {
			if j.base == "go1.23.12" && !j.tree {
				built = append(built, j.name)
			}
		}
		t.Errorf("the default run builds the older base go1.23.12 for %v; its default steps must need only its tree", built)
	}
	if !needsBuild(def, "go1.27.3") {
		t.Errorf("the default run does not build the newest base")
	}
	long, err := selectJobs(all, "", false, true)
	if err != nil {
		t.Fatal(err)
	}
	if !needsBuild(long, "go1.23.12") {
		t.Errorf("-long does not build the older base go1.23.12")
	}
}

// ./test.bash -list must answer in a fresh clone, with no goroot/, without
// laying one out or building it.
func TestListWithoutGoroot(t *testing.T) {
	bin := buildFork(t)
	root := newRepo(t, map[string][]string{"go1.23.12": {addsXchg8}, "go1.27.3": {"x"}})
	cmd := exec.Command(bin, "test", "-list")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("fork test -list: %v\n%s", err, out)
	}
	for _, want := range []string{"go1.27.3/model/spin\n", "go1.23.12/patches/apply-fresh\n", "tools/go-test\n", "toolchain/newer-point-release\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("fork test -list printed:\n%s\nwant %q", out, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "goroot")); !os.IsNotExist(err) {
		t.Errorf("fork test -list made goroot/ (stat: %v)", err)
	}
}

// buildFork builds this command and returns the path of its binary.
func buildFork(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fork")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}
