package inorder

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	const n, workers = 12, 3
	var running, most atomic.Int32
	var out strings.Builder
	errs := Run(&out, n, workers, func(i int) (string, error) {
		now := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if now <= m || most.CompareAndSwap(m, now) {
				break
			}
		}
		// Later calls finish first, so the reports come back out of order.
		time.Sleep(time.Duration(n-i) * time.Millisecond)
		if i%5 == 0 {
			return fmt.Sprintf("%d!\n", i), errors.New(fmt.Sprint(i))
		}
		return fmt.Sprintf("%d\n", i), nil
	})
	var want strings.Builder
	for i := 0; i < n; i++ {
		if i%5 == 0 {
			fmt.Fprintf(&want, "%d!\n", i)
			if errs[i] == nil || errs[i].Error() != fmt.Sprint(i) {
				t.Errorf("errs[%d] = %v, want %d", i, errs[i], i)
			}
		} else {
			fmt.Fprintf(&want, "%d\n", i)
			if errs[i] != nil {
				t.Errorf("errs[%d] = %v, want nil", i, errs[i])
			}
		}
	}
	if out.String() != want.String() {
		t.Errorf("reports in the wrong order:\n%s\nwant:\n%s", out.String(), want.String())
	}
	if m := most.Load(); m > workers {
		t.Errorf("%d calls ran at once, want at most %d", m, workers)
	}
	if m := most.Load(); m < 2 {
		t.Errorf("at most %d call ran at once: the calls did not overlap", m)
	}
}
