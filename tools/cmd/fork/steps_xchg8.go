package main

import (
	"context"

	"go-spinbit.dev/tools/internal/crossarch"
	"go-spinbit.dev/tools/internal/fork"
)

// xchg8Steps check internal/runtime/atomic.Xchg8: behaviour, the compiler
// intrinsic, and execution on other architectures.
var xchg8Steps = []step{
	{name: "xchg8/test", run: goTest("", "-run", "Xchg8", "-v", "internal/runtime/atomic")},
	{name: "xchg8/intrinsic", run: goTest("", "-run", "TestXchg8Intrinsic", "-v", "cmd/compile/internal/test")},
	// 386: the word-sized compare-and-swap fallback, run natively.
	{name: "xchg8/cross-386", slow: true, run: crossXchg8("386")},
	// arm64: the intrinsic and assembly with LSE (QEMU's default CPU has
	// it), then their load/store-exclusive forms on a CPU without it.
	{name: "xchg8/cross-arm64", slow: true, run: crossXchg8("arm64", "", "cortex-a57")},
	{name: "xchg8/cross-ppc64le", slow: true, run: crossXchg8("ppc64le")},
	// ppc64: big-endian, intrinsic and assembly.
	{name: "xchg8/cross-ppc64", slow: true, run: crossXchg8("ppc64")},
	// s390x: big-endian, the fallback.
	{name: "xchg8/cross-s390x", slow: true, run: crossXchg8("s390x")},
}

// crossXchg8 runs internal/runtime/atomic's tests (all of them: they take
// seconds even under emulation) for linux/goarch, once per emulated CPU
// model in cpus.
func crossXchg8(goarch string, cpus ...string) func(context.Context, fork.Repo) error {
	return crossTest(crossarch.Options{GOARCH: goarch, Package: "internal/runtime/atomic"}, cpus...)
}
