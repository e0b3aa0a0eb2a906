package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A suite is what a run benchmarks: the workloads of the repository's
// bench/ module, timed or (-instructions) counted, or (-runtime) the
// runtime package's own mutex benchmarks, which each toolchain builds from
// its own GOROOT.
type suite struct {
	Name        string // "" for bench/, "runtime"
	Desc        string // for the plan line
	OutPrefix   string // of the default output folder's name
	Comparisons []Comparison
	root        string
	base        string // the fork's base
}

// runtimeBench selects the runtime's mutex benchmarks that the patch
// series adds (lock_stress_test.go). The releases lack them; go1.24 and
// later have upstream's own (BenchmarkMutexContention, ...) instead.
const runtimeBench = "RuntimeMutex"

// upstreamRuntimeBench selects, with -runtime, upstream's own mutex
// benchmarks, which go1.24 and later and the fork on them have: the one
// comparison of the fork with the releases on benchmarks it did not
// write. Its runs are published apart, in upstreamRuntimeDir.
const upstreamRuntimeBench = "^BenchmarkMutex(Contention|Capture|Handoff)$"

// upstreamRuntimeDir is the folder of a BaseReportDir for -runtime runs of
// upstreamRuntimeBench.
const upstreamRuntimeDir = "runtime-upstream"

// runtimeComparisons are the tables of a -runtime run: the experiment on
// against off, and each against a release if it ran the same benchmarks.
var runtimeComparisons = []Comparison{
	{New: "spinbit", Base: "nospinbit"},
	{New: "spinbit", Base: "go1.24"},
	{New: "nospinbit", Base: "go1.24"},
	{New: "spinbit", Base: "go1.27"},
	{New: "nospinbit", Base: "go1.27"},
}

func (o Options) suite(root string) suite {
	if o.Runtime && o.Costs {
		return suite{Name: "runtime", Desc: "the runtime's mutex benchmarks", OutPrefix: "costs-runtime-", root: root, base: o.Base}
	}
	if o.Runtime {
		return suite{Name: "runtime", Desc: "the runtime's mutex benchmarks", OutPrefix: "runtime-",
			Comparisons: runtimeComparisons, root: root, base: o.Base}
	}
	if o.Instructions {
		return suite{Desc: "bench/", OutPrefix: "instructions-", root: root, base: o.Base}
	}
	if o.Costs {
		return suite{Desc: "bench/", OutPrefix: "costs-", root: root, base: o.Base}
	}
	return suite{Desc: "bench/", Comparisons: wantedComparisons, root: root, base: o.Base}
}

// pkgDir is the package that a toolchain with root goroot builds and runs.
func (s suite) pkgDir(goroot string) string {
	if s.Name == "runtime" {
		return filepath.Join(goroot, "src", "runtime")
	}
	return filepath.Join(s.root, "bench")
}

// ownBenchmarks says whether each toolchain brings its own benchmarks (its
// runtime), which may lack the ones planned.
func (s suite) ownBenchmarks() bool { return s.Name == "runtime" }

// leftOut says why toolchain p, whose PkgDir is set, cannot run the
// suite's benchmarks named (those matching pattern), or "" if it can.
// Only a suite whose toolchains bring their own benchmarks (-runtime)
// leaves any out: a toolchain whose runtime declares none of them. A
// release lacks the RuntimeMutex benchmarks, which the patch series adds,
// but go1.24 and later have upstream's own (BenchmarkMutexContention,
// BenchmarkMutexCapture, BenchmarkMutexHandoff), which the fork keeps.
func (s suite) leftOut(p *prepared, pattern string, names []string) (string, error) {
	if !s.ownBenchmarks() {
		return "", nil
	}
	if has, err := hasBenchmarks(p, pattern, names); err != nil || has {
		return "", err
	}
	if !p.Fork() && pattern == runtimeBench {
		return fmt.Sprintf("the %s benchmarks come with the patch series", pattern), nil
	}
	return fmt.Sprintf("its %s declares no benchmark matching %q", p.PkgDir, pattern), nil
}

// plannedBenchmarks lists the benchmarks matching pattern, from the
// source of bench/ or of the fork's runtime.
func (s suite) plannedBenchmarks(pattern string) ([]string, error) {
	dir := s.pkgDir(forkGoroot(s.root, s.base))
	if s.ownBenchmarks() {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("the %s benchmarks are the fork's own, in %s, which is missing: run ./make.bash -base %s (or ./tools/patch.bash apply -base %s, to lay out the source only) first", s.Name, dir, s.base, s.base)
		}
	}
	names, err := SourceBenchmarks(dir, pattern)
	if err != nil {
		return nil, err
	}
	if len(names) > 0 {
		return names, nil
	}
	if s.Name == "runtime" && pattern == upstreamRuntimeBench {
		return nil, fmt.Errorf("the fork's runtime on %s (%s) has none of upstream's mutex benchmarks, which came with go1.24: use the -base of a go1.24 or later series", s.base, dir)
	}
	if s.Name == "runtime" {
		return nil, fmt.Errorf("-bench %q matches no benchmark of the fork's runtime (%s): the RuntimeMutex benchmarks come with the patch series; run ./make.bash -base %s", pattern, dir, s.base)
	}
	all, _ := SourceBenchmarks(dir, ".")
	return nil, fmt.Errorf("-bench %q matches no benchmark in %s; there are: %s", pattern, dir, strings.Join(all, " "))
}

// ReportDirOf is where Publish puts a run of the fork on base of the named
// suite, relative to the repository root.
func ReportDirOf(base, suite string) string {
	if suite == "" {
		return BaseReportDir(base)
	}
	return BaseReportDir(base) + "/" + suite
}
