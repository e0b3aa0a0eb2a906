//go:build unix

// Package groupexec runs a command in a process group of its own with a
// time limit. When the limit passes, every process of the group gets
// SIGQUIT first, so that Go programs among them (go test and its test
// binaries) print their goroutines, and SIGKILL after a grace period.
package groupexec

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// ErrTimeout is wrapped by the error Run returns when the limit passed.
var ErrTimeout = errors.New("time limit passed")

// Run starts cmd in a new process group and waits for it. If it has not
// finished within limit, or ctx ends first, Run sends SIGQUIT to the whole
// group, waits up to grace for cmd to exit, and then sends SIGKILL to the
// group. It returns cmd's error, or an error wrapping ErrTimeout (or ctx's
// error) that says what was done.
func Run(ctx context.Context, cmd *exec.Cmd, limit, grace time.Duration) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		return err
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	timer := time.NewTimer(limit)
	defer timer.Stop()
	var why error
	select {
	case err := <-done:
		return err
	case <-timer.C:
		why = fmt.Errorf("%w (%v)", ErrTimeout, limit)
	case <-ctx.Done():
		why = ctx.Err()
	}
	syscall.Kill(-pgid, syscall.SIGQUIT)
	select {
	case <-done:
		killGroup(pgid) // children that outlived the leader
		return fmt.Errorf("%w: sent SIGQUIT to its processes", why)
	case <-time.After(grace):
	}
	killGroup(pgid)
	<-done
	return fmt.Errorf("%w: sent SIGQUIT to its processes, and SIGKILL %v later", why, grace)
}

// killGroup sends SIGKILL to the group and waits a little for it to be
// gone, so that what runs next does not share the machine with it. Killed
// children are reaped by their new parent, not by us, so this can only
// wait for it.
func killGroup(pgid int) {
	syscall.Kill(-pgid, syscall.SIGKILL)
	for i := 0; i < 50 && syscall.Kill(-pgid, 0) == nil; i++ {
		time.Sleep(100 * time.Millisecond)
	}
}
