// Package inorder runs independent calls several at once and reports them
// in order.
package inorder

import (
	"fmt"
	"io"
	"runtime"
)

// Run calls f(i) for each i from 0 to n-1, up to workers calls at once
// (runtime.NumCPU() if workers is less than 1), and writes what each call
// reported to w in the order of i, each as soon as it and every call
// before it have returned. It returns the calls' errors, indexed by i.
//
// It suits calls that are independent of each other and leave a CPU idle
// when run alone: builds along one chain of packages, a run that waits for
// a timeout, a single-threaded model checker.
func Run(w io.Writer, n, workers int, f func(i int) (string, error)) []error {
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	type report struct {
		text string
		err  error
	}
	reports := make([]chan report, n)
	for i := range reports {
		reports[i] = make(chan report, 1)
	}
	slots := make(chan struct{}, workers)
	go func() {
		for i := 0; i < n; i++ {
			slots <- struct{}{}
			go func() {
				defer func() { <-slots }()
				text, err := f(i)
				reports[i] <- report{text, err}
			}()
		}
	}()
	errs := make([]error, n)
	for i := range reports {
		r := <-reports[i]
		fmt.Fprint(w, r.text)
		errs[i] = r.err
	}
	return errs
}
