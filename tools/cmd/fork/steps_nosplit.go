package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/inorder"
)

// linuxSpinbitArches are the linux GOARCH values the spinbit mutex builds
// for: on by default (Xchg8 intrinsified) or opted into with
// GOEXPERIMENT=spinbitmutex.
var linuxSpinbitArches = []string{
	"amd64", "arm64", "ppc64le", "ppc64", "386", "arm", "s390x", "riscv64", "loong64", "mips64le",
}

// linkUnoptimized links an empty program with the experiment on and the
// whole program built without optimizations (-gcflags=all=-N -l), for
// linux on every architecture above and for every other OS with threads.
// lock2 and unlock2 are nosplit, and the linker rejects a program in which
// a chain of nosplit frames can overrun the stack guard; unoptimized
// frames are the largest, and debuggers build programs that way.
func linkUnoptimized(ctx context.Context, r fork.Repo) error {
	dir, err := os.MkdirTemp("", "nosplit")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		return err
	}
	targets := append([][2]string(nil), threadOSes...)
	for _, arch := range linuxSpinbitArches {
		targets = append(targets, [2]string{"linux", arch})
	}
	// Each build is mostly one chain of packages, one compile at a time:
	// run as many as there are CPUs at once.
	errs := inorder.Run(os.Stdout, len(targets), 0, func(i int) (string, error) {
		t := targets[i]
		env := []string{"GOOS=" + t[0], "GOARCH=" + t[1], "GOEXPERIMENT=spinbitmutex", "CGO_ENABLED=0"}
		out := filepath.Join(dir, "main-"+t[0]+"-"+t[1])
		text, err := captureCommand(ctx, dir, env, r.GoCommand(), "build", "-gcflags=all=-N -l", "-o", out, "main.go")
		return fmt.Sprintf("go build -gcflags=all=-N -l  GOOS=%s GOARCH=%s GOEXPERIMENT=spinbitmutex\n%s", t[0], t[1], text), err
	})
	var failed []string
	for i, err := range errs {
		if err != nil {
			failed = append(failed, targets[i][0]+"/"+targets[i][1])
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("an unoptimized program does not link for %s (look for \"nosplit stack over\" above: a nosplit function's frame grew)", strings.Join(failed, " "))
	}
	return nil
}
