package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"go-spinbit.dev/tools/internal/fork"
	"go-spinbit.dev/tools/internal/groupexec"
)

// Each step runs in a child process of its own (this program, as
// "fork step -base RELEASE NAME"), in a process group of its own, so that a step that
// hangs, in any of the commands it starts, is stopped at its time limit:
// every process of the group gets SIGQUIT, which makes go test and the
// test binaries print their goroutines, and SIGKILL a little later. The
// child reports why it failed or was skipped through a file, since its
// output goes straight to ours. The child's TMPDIR is a folder of the
// parent's, removed when the step ends however it ended, so the temporary
// folders of a step stopped at its limit, whose own clean-ups never ran,
// go too.

// quitGrace is how long a timed-out step's processes have to print their
// goroutines after SIGQUIT before they are killed.
const quitGrace = 30 * time.Second

// The exit status of "fork step": 0 for a pass, exitFail and exitSkip with
// the reason in the result file.
const (
	exitFail = 1
	exitSkip = 3
)

// runIsolated runs j in a child process, within its step's time limit.
func runIsolated(ctx context.Context, j job) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "fork-step")
	if err != nil {
		return err
	}
	defer removeTree(dir)
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	result := filepath.Join(dir, "result")
	cmd := exec.Command(exe, "step", "-base", j.base, "-result", result, j.name)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	err = groupexec.Run(ctx, cmd, j.timeLimit(), quitGrace)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, groupexec.ErrTimeout):
		return fmt.Errorf("step %s timed out after %v: %v", j.fullName(), j.timeLimit(), err)
	case errors.As(err, &exit) && (exit.ExitCode() == exitSkip || exit.ExitCode() == exitFail):
		b, rerr := os.ReadFile(result)
		if rerr != nil {
			return fmt.Errorf("step %s exited with status %d and left no reason (%v)", j.fullName(), exit.ExitCode(), rerr)
		}
		if exit.ExitCode() == exitSkip {
			return skip("%s", b)
		}
		return errors.New(string(b))
	default:
		return fmt.Errorf("step %s: %v", j.fullName(), err)
	}
}

// removeTree removes dir and everything in it, making its folders writable
// first: a step's temporary module cache has read-only folders, which
// os.RemoveAll alone cannot empty.
func removeTree(dir string) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintf(os.Stderr, "removing the step's temporary folder: %v\n", err)
	}
}

// runOneStep is "fork step": it runs the named step in this process, on
// r's base unless it is shared, and returns the exit status for its
// outcome, having written the reason for a failure or a skip to
// resultFile.
func runOneStep(ctx context.Context, r fork.Repo, name, resultFile string) int {
	for _, s := range steps {
		if s.name != name {
			continue
		}
		if s.shared != (r.Base == "") {
			fmt.Fprintf(os.Stderr, "fork step %s: a shared step runs without -base, any other with one\n", name)
			return 1
		}
		err := s.run(ctx, r)
		if err == nil {
			return 0
		}
		status, why := exitFail, err.Error()
		var sk errSkip
		if errors.As(err, &sk) {
			status, why = exitSkip, sk.why
		}
		if werr := os.WriteFile(resultFile, []byte(why), 0o644); werr != nil {
			fmt.Fprintf(os.Stderr, "fork step %s: %v (writing the result of: %s)\n", name, werr, why)
			return exitFail
		}
		return status
	}
	fmt.Fprintf(os.Stderr, "fork step: no step named %q; see fork test -list\n", name)
	return 1
}
