//go:build contendcgo

package main

/*
extern void contendBack(int);

// contend_c is called from Go and calls back into Go.
static void contend_c(int i) { contendBack(i); }
*/
import "C"

func init() {
	cgoHook = func(i int) { C.contend_c(C.int(i)) }
}
