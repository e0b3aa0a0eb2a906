//go:build !unix

package bench

import "errors"

// herdPipe needs blocking Unix pipes; elsewhere newHerdPipe fails and
// the benchmarks that need it are skipped.
type herdPipe struct{}

func newHerdPipe() (herdPipe, error) {
	return herdPipe{}, errors.New("blocking pipes need a Unix system")
}

func (herdPipe) wait() error         { return nil }
func (herdPipe) release(n int) error { return nil }
func (herdPipe) close()              {}
