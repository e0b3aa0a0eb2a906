//go:build linux

package bench

import "syscall"

// readUsage returns the kernel's accounting for the whole process: every
// thread, live or exited, that the process has had so far.
func readUsage() (usage, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return usage{}, false
	}
	return usage{
		vcsw:  int64(ru.Nvcsw),
		ivcsw: int64(ru.Nivcsw),
		cpuNs: ru.Utime.Nano() + ru.Stime.Nano(),
	}, true
}
