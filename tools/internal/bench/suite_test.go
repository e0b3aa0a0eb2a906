package bench

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseFlagsRuntime(t *testing.T) {
	o, err := ParseFlags([]string{"-runtime"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tc := range o.Toolchains {
		names = append(names, tc.Name)
	}
	if !o.Runtime || o.Bench != runtimeBench || strings.Join(names, ",") != "spinbit,nospinbit,go1.24,go1.27" ||
		!reflect.DeepEqual(o.CPUs, runtimeCPUs) || o.Benchtime != runtimeBenchtime || o.Count != fullCount {
		t.Errorf("-runtime defaults = %+v", o)
	}
	o, err = ParseFlags([]string{"-runtime", "-quick", "-toolchains", "spinbit,nospinbit", "-bench", "Handoff"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Toolchains) != 2 || o.Bench != "Handoff" || o.Benchtime != quickBenchtime || !reflect.DeepEqual(o.CPUs, quickCPUs) {
		t.Errorf("-runtime -quick with explicit settings = %+v", o)
	}
	if _, err := ParseFlags([]string{"-runtime", "-bench", ""}, io.Discard); err == nil {
		t.Errorf("an explicitly empty -bench was accepted")
	}
	if o, _ := ParseFlags(nil, io.Discard); o.Bench != "." || o.Runtime {
		t.Errorf("without -runtime: bench %q, runtime %v", o.Bench, o.Runtime)
	}
}

func writeRuntimeTest(t *testing.T, dir string, benchmarks ...string) {
	t.Helper()
	src := "package runtime_test\n\nimport \"testing\"\n\nfunc TestRuntimeMutexStress(t *testing.T) {}\n"
	for _, b := range benchmarks {
		src += "\nfunc " + b + "(b *testing.B) {}\n"
	}
	os.MkdirAll(dir, 0o777)
	if err := os.WriteFile(filepath.Join(dir, "lock_stress_test.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
}

func TestRuntimeSuite(t *testing.T) {
	root := t.TempDir()
	s := Options{Runtime: true, Base: "go1.27.3"}.suite(root)
	if got := s.pkgDir("/g"); got != filepath.Join("/g", "src", "runtime") {
		t.Errorf("runtime pkgDir = %s", got)
	}
	if got := (Options{}).suite(root).pkgDir("/g"); got != filepath.Join(root, "bench") {
		t.Errorf("bench/ pkgDir = %s", got)
	}
	if _, err := s.plannedBenchmarks(runtimeBench); err == nil {
		t.Errorf("a fork without runtime benchmarks was accepted")
	}
	fork := filepath.Join(root, "goroot", "go1.27.3", "src", "runtime")
	writeRuntimeTest(t, fork, "BenchmarkRuntimeMutexHandoff", "BenchmarkRuntimeMutexContended", "BenchmarkChan")
	if _, err := s.plannedBenchmarks("NoSuch"); err == nil || !strings.Contains(err.Error(), "./make.bash -base go1.27.3") {
		t.Errorf("no match: got %v, want an error saying to make the base", err)
	}
	if _, err := s.plannedBenchmarks(upstreamRuntimeBench); err == nil || !strings.Contains(err.Error(), "came with go1.24") {
		t.Errorf("upstream's benchmarks in a runtime without them: got %v, want an error saying where they came", err)
	}
	names, err := s.plannedBenchmarks(runtimeBench)
	if err != nil || strings.Join(names, ",") != "BenchmarkRuntimeMutexContended,BenchmarkRuntimeMutexHandoff" {
		t.Fatalf("plannedBenchmarks = %v, %v", names, err)
	}

	// A release whose runtime lacks them is left out; one with other
	// ones is an error; the fork itself has them.
	if has, err := hasBenchmarks(&prepared{PkgDir: fork}, runtimeBench, names); !has || err != nil {
		t.Errorf("the fork: has %v, %v", has, err)
	}
	old := filepath.Join(t.TempDir(), "src", "runtime")
	writeRuntimeTest(t, old, "BenchmarkMutexContention")
	if has, err := hasBenchmarks(&prepared{PkgDir: old}, runtimeBench, names); has || err != nil {
		t.Errorf("a runtime without them: has %v, %v; want left out without error", has, err)
	}
	other := filepath.Join(t.TempDir(), "src", "runtime")
	writeRuntimeTest(t, other, "BenchmarkRuntimeMutexHandoff")
	if _, err := hasBenchmarks(&prepared{Toolchain: Known[3], PkgDir: other}, runtimeBench, names); err == nil || !strings.Contains(err.Error(), "go1.24") {
		t.Errorf("a runtime with other ones: got %v, want an error naming the toolchain", err)
	}

	// leftOut: a toolchain, release or fork, is kept when its runtime
	// declares the benchmarks, left out when it declares none (a release
	// lacking the RuntimeMutex ones is told they come with the patch
	// series), and an error when it declares others; bench/'s toolchains
	// are always kept, unread.
	unreadable := filepath.Join(t.TempDir(), "src", "runtime")
	if err := os.MkdirAll(unreadable, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(unreadable, "x_test.go"), []byte("package runtime\nfunc (T) M[P any]() {}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	upstreams := []string{"BenchmarkMutexContention"}
	byName := map[string]Toolchain{}
	for _, k := range Known {
		byName[k.Name] = k
	}
	for _, c := range []struct {
		s       suite
		tc      string
		dir     string
		pattern string
		names   []string
		reason  string // "" to keep it
		err     string // "" for no error
	}{
		{s, "go1.27", unreadable, runtimeBench, names, "come with the patch series", ""},
		{s, "go1.24", old, runtimeBench, names, "come with the patch series", ""},
		{s, "go1.24", other, runtimeBench, names, "", "go1.24"},
		{s, "go1.24", old, "MutexContention$", upstreams, "", ""},
		{s, "upstream", unreadable, "MutexContention$", upstreams, "declares no benchmark matching", ""},
		{s, "spinbit", fork, runtimeBench, names, "", ""},
		{s, "nospinbit", old, runtimeBench, names, "declares no benchmark matching", ""},
		{Options{}.suite(root), "go1.27", unreadable, runtimeBench, names, "", ""},
	} {
		why, err := c.s.leftOut(&prepared{Toolchain: byName[c.tc], PkgDir: c.dir}, c.pattern, c.names)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("suite %q, %s in %s, -bench %s: leftOut = %q, %v; want an error naming %q", c.s.Name, c.tc, c.dir, c.pattern, why, err, c.err)
			}
			continue
		}
		if err != nil || (c.reason == "") != (why == "") || !strings.Contains(why, c.reason) {
			t.Errorf("suite %q, %s in %s, -bench %s: leftOut = %q, %v; want a reason with %q", c.s.Name, c.tc, c.dir, c.pattern, why, err, c.reason)
		}
	}
}
