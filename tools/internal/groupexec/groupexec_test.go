//go:build unix

package groupexec

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestFinishes(t *testing.T) {
	cmd := exec.Command("sh", "-c", "echo hi")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := Run(context.Background(), cmd, time.Minute, time.Second); err != nil {
		t.Fatal(err)
	}
	if out.String() != "hi\n" {
		t.Errorf("output %q", out.String())
	}
	if err := Run(context.Background(), exec.Command("sh", "-c", "exit 3"), time.Minute, time.Second); err == nil || errors.Is(err, ErrTimeout) {
		t.Errorf("exit 3: err = %v, want the exit status", err)
	}
}

// A hung command and its children get SIGQUIT, which the shell here
// reports, and the whole group is gone when Run returns.
func TestTimeoutQuitsGroup(t *testing.T) {
	// The child shell ignores nothing: SIGQUIT ends it. The leader traps
	// SIGQUIT, says so, and waits, as a go test that prints its goroutines.
	script := `sh -c 'sleep 300' & echo $! >&2; trap 'echo got-quit; wait; exit 2' QUIT; while :; do sleep 1; done`
	cmd := exec.Command("sh", "-c", script)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := Run(context.Background(), cmd, 500*time.Millisecond, 5*time.Second)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Run took %v", d)
	}
	if !strings.Contains(out.String(), "got-quit") {
		t.Errorf("the leader did not get SIGQUIT: output %q", out.String())
	}
	if syscall.Kill(cmd.Process.Pid, 0) == nil {
		t.Errorf("the leader %d still runs", cmd.Process.Pid)
	}
	groupGone(t, cmd.Process.Pid)
}

// groupGone fails the test if processes of group pgid remain; killed
// ones may take a moment to be reaped by their new parent.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if syscall.Kill(-pgid, 0) != nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("processes of group %d still run", pgid)
}

// A command that ignores SIGQUIT is killed after the grace period.
func TestTimeoutKillsStubborn(t *testing.T) {
	cmd := exec.Command("sh", "-c", `trap '' QUIT; sleep 300 & wait`)
	err := Run(context.Background(), cmd, 200*time.Millisecond, 300*time.Millisecond)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "SIGKILL") {
		t.Fatalf("err = %v, want ErrTimeout after SIGKILL", err)
	}
	groupGone(t, cmd.Process.Pid)
}

func TestContextEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := Run(ctx, exec.Command("sleep", "300"), time.Hour, time.Second)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's error", err)
	}
}
