// Package wasm runs a base's runtime on GOARCH=wasm: the contended
// program (tools/internal/contended), built for GOOS=wasip1 and run by
// wazero, and built for GOOS=js and run by Node.js, each with
// GOEXPERIMENT=spinbitmutex and nospinbitmutex. Neither series changes the lock
// that wasm builds use (lock_js.go, lock_wasip1.go), but both change the
// runtime around it, and wasm is a GOOS/GOARCH the fork builds for.
package wasm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/apt"
	"go-spinbit.dev/tools/internal/contended"
	"go-spinbit.dev/tools/internal/tail"
	"go-spinbit.dev/tools/internal/toolchain"
)

// Options say what Check runs.
type Options struct {
	// Name is the check's name, which its errors start with. Required.
	Name string
	// Go is the go command whose wasm runtime is checked, and Goroot its
	// GOROOT, where GOOS=js finds lib/wasm/wasm_exec_node.js. Required.
	Go, Goroot string
	// Tools is the tools module's directory, whose go.mod pins wazero.
	// Required.
	Tools string
	// BuildFlags are added to the go commands that build, such as
	// "-overlay=FILE" to build a deliberately broken runtime.
	BuildFlags []string
	// Host finds and installs Node.js; the zero Host means apt.Machine.
	Host apt.Host
	// Stdout receives the builds' and the programs' output; nil means
	// os.Stdout.
	Stdout io.Writer
}

// runTailLines is how much of a failed run's output its error shows:
// enough for how it died.
const runTailLines = 20

// runLimit bounds each run of the contended program, which takes under
// a second to a few seconds; one past it has hung.
const runLimit = 2 * time.Minute

// contendedArgs are the contended program's arguments: 8 goroutines on
// each of 4 Ps (which share wasm's one thread), 2000 rounds each, with
// its watchdog a minute in.
var contendedArgs = []string{"-procs", "4", "-per-p", "8", "-iters", "2000", "-watchdog", "1m"}

// nodeNeed is Node.js, which runs GOOS=js programs.
var nodeNeed = apt.Need{Program: "node", Package: "nodejs"}

// experiments are the GOEXPERIMENT values each program is built with:
// the spinbit mutex and the tristate one, one of which is each series'
// default on wasm (the go1.27.4 series' is on, the go1.23.12 series' off).
var experiments = []string{"spinbitmutex", "nospinbitmutex"}

// Check builds and runs the contended program for wasip1/wasm under
// wazero and for js/wasm under Node.js, with the experiment on and off,
// and returns an error for each run that failed, hung or did not say it
// did its work. It leaves GOOS=js out, saying why, when the tree has no
// lib/wasm/wasm_exec_node.js (go1.23's toolchain module ships none), and
// when Node.js cannot be had, in which case it returns a *SkippedError if
// the rest passed.
func Check(ctx context.Context, o Options) error {
	if o.Name == "" || o.Go == "" || o.Goroot == "" || o.Tools == "" {
		return fmt.Errorf("wasm.Check: Options.Name, Go, Goroot and Tools are required")
	}
	out := o.Stdout
	if out == nil {
		out = os.Stdout
	}
	if o.Host.LookPath == nil {
		o.Host = apt.Machine
	}
	tmp, err := os.MkdirTemp("", "wasm-check")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	wazero := filepath.Join(tmp, "wazero")
	if err := buildWazero(ctx, o.Tools, wazero); err != nil {
		return err
	}
	type target struct {
		goos string
		run  func(prog string) []string // the command that runs prog
	}
	targets := []target{{"wasip1", func(prog string) []string { return []string{wazero, "run", prog} }}}
	execJS := filepath.Join(o.Goroot, "lib", "wasm", "wasm_exec_node.js")
	node, why, noNode := findNode(ctx, o.Host, execJS, out)
	if why != "" {
		fmt.Fprintf(out, "%s: leaving js/wasm out: %s\n", o.Name, why)
	} else {
		targets = append(targets, target{"js", func(prog string) []string { return []string{node, execJS, prog} }})
	}

	var errs []error
	for _, t := range targets {
		for _, exp := range experiments {
			what := t.goos + "/wasm, GOEXPERIMENT=" + exp
			prog := filepath.Join(tmp, t.goos+"-"+exp+".wasm")
			if err := contended.Build(ctx, o.Go, tmp, prog, buildEnv(t.goos, exp), o.BuildFlags, out); err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %v", o.Name, what, err))
				continue
			}
			line, err := run(ctx, append(t.run(prog), contendedArgs...), out)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s: %v", o.Name, what, err))
				continue
			}
			fmt.Fprintf(out, "%s: %s: %s\n", o.Name, what, line)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if noNode {
		return &SkippedError{fmt.Sprintf("js/wasm could not run: %s (wasip1/wasm passed)", why)}
	}
	return nil
}

// SkippedError says that part of Check could not run here, and why; what
// did run passed.
type SkippedError struct{ Reason string }

func (e *SkippedError) Error() string { return e.Reason }

// buildEnv is the environment that builds for GOOS goos on GOARCH=wasm
// with GOEXPERIMENT exp.
func buildEnv(goos, exp string) []string {
	env := toolchain.EnvWithout(os.Environ(), "GOROOT", "GOFLAGS", "GOTOOLCHAIN", "GOOS", "GOARCH", "CGO_ENABLED", "GOEXPERIMENT")
	return append(env, "GOOS="+goos, "GOARCH=wasm", "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOFLAGS=", "GOEXPERIMENT="+exp)
}

// buildWazero builds wazero's command from the tools module's pinned
// requirement, in toolsDir, as exe.
func buildWazero(ctx context.Context, toolsDir, exe string) error {
	gocmd, err := toolchain.GoCommand()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, gocmd, "build", "-o", exe, "github.com/tetratelabs/wazero/cmd/wazero")
	cmd.Dir = toolsDir
	cmd.Env = toolchain.EnvWithout(os.Environ(), "GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building wazero (github.com/tetratelabs/wazero/cmd/wazero, required by tools/go.mod) failed: %v\n%s\n"+
			"check that the module proxy is reachable, or run go mod download in tools/", err, bytes.TrimSpace(b))
	}
	return nil
}

// findNode returns the path of node, or why GOOS=js cannot run with the
// tree's execJS (wasm_exec_node.js); noNode says that the reason is
// Node.js itself, which this machine lacks, not the tree.
func findNode(ctx context.Context, h apt.Host, execJS string, out io.Writer) (node, why string, noNode bool) {
	if _, err := os.Stat(execJS); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Sprintf("the tree has no %s (go1.23's toolchain module ships no misc/wasm)", execJS), false
	} else if err != nil {
		return "", err.Error(), false
	}
	paths, err := h.Find(ctx, out, out, nodeNeed)
	var missing *apt.MissingError
	if errors.As(err, &missing) {
		return "", missing.Reason, true
	}
	if err != nil {
		return "", err.Error(), true
	}
	return paths[0], "", false
}

// run runs args within runLimit and returns the contended program's
// result line, or an error that says how the run failed and shows its
// output.
func run(ctx context.Context, args []string, out io.Writer) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, runLimit)
	defer cancel()
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = io.MultiWriter(out, &buf), io.MultiWriter(out, &buf)
	cmd.Env = runEnv()
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	switch {
	case err != nil && ctx.Err() == context.DeadlineExceeded:
		return "", fmt.Errorf("%s did not end within %v: the runtime hung\n%s", strings.Join(args, " "), runLimit, tail.Lines(buf.String(), runTailLines))
	case err != nil:
		return "", fmt.Errorf("%s failed: %v%s\n%s", strings.Join(args, " "), err, firstDeath(buf.String()), tail.Lines(buf.String(), runTailLines))
	}
	line, ok := contended.OK(buf.String())
	if !ok {
		return "", fmt.Errorf("%s ended without saying it did its work\n%s", strings.Join(args, " "), tail.Lines(buf.String(), runTailLines))
	}
	return line, nil
}

// runEnv is the environment of the runs: only what the runners need.
// wasm_exec_node.js hands Node's whole environment to the Go program,
// whose js/wasm start-up refuses arguments and environment above 8 KB
// together, which a long PATH or LS_COLORS can pass on its own.
func runEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// firstDeath is ", first: " and the first line of a program's output
// that says why it died, which a throw's later errors and stacks can push
// out of tail; "" if no line says.
func firstDeath(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "panic: ") {
			return ", first: " + strings.TrimRight(l, "\r")
		}
	}
	return ""
}
