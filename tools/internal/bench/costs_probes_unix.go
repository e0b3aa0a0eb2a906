//go:build unix

package bench

import "syscall"

// processEnded reports whether no process has the ID pid.
func processEnded(pid int) bool {
	return syscall.Kill(pid, 0) == syscall.ESRCH
}
