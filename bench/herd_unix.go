//go:build unix

package bench

import (
	"fmt"
	"syscall"
)

// herdPipe is a pipe whose readers block in the kernel: a read is a
// system call that the runtime brackets with entersyscall and
// exitsyscall, not a wait in the netpoller (the descriptors are never
// made non-blocking).
type herdPipe struct{ r, w int }

func newHerdPipe() (herdPipe, error) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		return herdPipe{}, fmt.Errorf("pipe: %v", err)
	}
	return herdPipe{r: fds[0], w: fds[1]}, nil
}

// wait blocks in read(2) until it has taken one byte.
func (p herdPipe) wait() error {
	var buf [1]byte
	for {
		n, err := syscall.Read(p.r, buf[:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return fmt.Errorf("read: %v", err)
		case n != 1:
			return fmt.Errorf("read: got %d bytes, want 1", n)
		}
		return nil
	}
}

// release writes n bytes, which wakes every blocked reader at once; n of
// them, in all, get a byte.
func (p herdPipe) release(n int) error {
	buf := make([]byte, n)
	for len(buf) > 0 {
		k, err := syscall.Write(p.w, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("write: %v", err)
		}
		buf = buf[k:]
	}
	return nil
}

func (p herdPipe) close() {
	syscall.Close(p.r)
	syscall.Close(p.w)
}
