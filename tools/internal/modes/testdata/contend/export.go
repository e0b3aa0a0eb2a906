//go:build contendlib

package main

/*
#include <stddef.h>
*/
import "C"

import "unsafe"

// This file makes the work a C library: C threads call ContendWork, each
// entering Go on an M the runtime gives the thread (needm, extra Ms), and
// ContendReport writes the counts into the caller's buffer.

func main() {}

func init() { start() }

//export ContendWork
func ContendWork(id, steps C.int) {
	work(int(id), int(steps))
}

// ContendReport waits for the counts of total steps and writes the report
// line, NUL-terminated and cut to size if need be, into buf.
//
//export ContendReport
func ContendReport(total C.longlong, buf *C.char, size C.size_t) {
	if size == 0 {
		return
	}
	s := report(int64(total))
	b := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(size))
	n := copy(b[:len(b)-1], s)
	b[n] = 0
}
