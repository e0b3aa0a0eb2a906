package main

import (
	"bufio"
	"bytes"
	"context"
	"strings"

	"go-spinbit.dev/tools/internal/crossarch"
	"go-spinbit.dev/tools/internal/fork"
)

// xchg8Steps check internal/runtime/atomic.Xchg8: behaviour, the compiler
// intrinsic, and execution on other architectures. They test what a
// series adds, so they apply only to a base whose series adds Xchg8 (a
// release that has it upstream tests it itself).
var xchg8Steps = []step{
	{name: "xchg8/test", appliesTo: seriesAddsXchg8, run: goTest("", "-run", "Xchg8", "-v", "internal/runtime/atomic")},
	{name: "xchg8/intrinsic", appliesTo: seriesAddsXchg8, run: goTest("", "-run", "TestXchg8Intrinsic", "-v", "cmd/compile/internal/test")},
	// 386: the word-sized compare-and-swap fallback, run natively.
	{name: "xchg8/cross-386", slow: true, appliesTo: seriesAddsXchg8, run: crossXchg8("386")},
	// arm64: the intrinsic and assembly with LSE (QEMU's default CPU has
	// it), then their load/store-exclusive forms on a CPU without it.
	{name: "xchg8/cross-arm64", slow: true, appliesTo: seriesAddsXchg8, run: crossXchg8("arm64", "", "cortex-a57")},
	{name: "xchg8/cross-ppc64le", slow: true, appliesTo: seriesAddsXchg8, run: crossXchg8("ppc64le")},
	// ppc64: big-endian, intrinsic and assembly.
	{name: "xchg8/cross-ppc64", slow: true, appliesTo: seriesAddsXchg8, run: crossXchg8("ppc64")},
	// s390x: big-endian, the fallback.
	{name: "xchg8/cross-s390x", slow: true, appliesTo: seriesAddsXchg8, run: crossXchg8("s390x")},
}

// xchg8Dir is the package that declares Xchg8.
const xchg8Dir = "src/internal/runtime/atomic/"

// seriesAddsXchg8 reports whether a patch of the base's series declares
// Xchg8 in internal/runtime/atomic: read from bases/<release>/patches/,
// so that ./test.bash -list answers without a tree.
func seriesAddsXchg8(r fork.Repo) (bool, error) {
	s, err := fork.ReadSeries(r.Patches())
	if err != nil {
		return false, err
	}
	for _, name := range s.Names() {
		if patchAddsFunc(s[name], xchg8Dir, "Xchg8") {
			return true, nil
		}
	}
	return false, nil
}

// patchAddsFunc reports whether the patch text adds a line declaring the
// function fn to a file under dir.
func patchAddsFunc(patch []byte, dir, fn string) bool {
	sc := bufio.NewScanner(bytes.NewReader(patch))
	sc.Buffer(nil, 1<<20)
	file := ""
	for sc.Scan() {
		line := sc.Text()
		if f, ok := strings.CutPrefix(line, "+++ b/"); ok {
			file = f
		} else if strings.HasPrefix(line, "+func "+fn+"(") && strings.HasPrefix(file, dir) {
			return true
		}
	}
	return false
}

// crossXchg8 runs internal/runtime/atomic's tests (all of them: they take
// seconds even under emulation) for linux/goarch, once per emulated CPU
// model in cpus.
func crossXchg8(goarch string, cpus ...string) func(context.Context, fork.Repo) error {
	return crossTest(crossarch.Options{GOARCH: goarch, Package: "internal/runtime/atomic"}, cpus...)
}
