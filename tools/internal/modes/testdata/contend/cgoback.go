//go:build contendcgo

package main

import "C"

// contendBack is the Go function that C calls back (cgo.go).
//
//export contendBack
func contendBack(i C.int) {
	if int(i)%8 == 0 {
		cgoCalls.Add(1)
	}
}
