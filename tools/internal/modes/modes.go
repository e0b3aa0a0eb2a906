// Package modes runs a small contended Go program (testdata/contend) in
// the runtime modes Go documents: GODEBUG and environment settings that
// change allocation or scheduling, LockOSThread-heavy code, cgo, a C
// archive and a C shared library entered from C threads, and the race,
// address and memory sanitizers. Each run's output is checked against the
// counts the program must print for its arguments.
package modes

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed testdata/contend/*.go testdata/driver.c
var sources embed.FS

// Kind is what a Build makes.
type Kind int

const (
	Program  Kind = iota // a Go program
	CArchive             // a C program linked with the Go code as a c-archive
	CShared              // a C program linked with the Go code as a c-shared library
)

func (k Kind) String() string {
	switch k {
	case Program:
		return "program"
	case CArchive:
		return "c-archive"
	case CShared:
		return "c-shared"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// The sizes of a run. A program run starts workers goroutines per round;
// a library run calls into Go from libThreads C threads per wave, each
// making libCalls calls. Either way that is 64 calls of the work.
const (
	workers    = 8
	rounds     = 8
	steps      = 2500
	libThreads = 8
	libWaves   = 2
	libCalls   = 4
)

// Want is what a run of the contend program or library must print: its
// work was called Calls times with Steps steps each; CGO says whether
// each call also called C, which called back into Go.
type Want struct {
	Calls, Steps int
	CGO          bool
}

// Line is the report line a run with these sizes prints. The values sent
// on the channel are 0 to total-1, once each; a timer fires every 16th
// step and C is called every 8th step of each call.
func (w Want) Line() string {
	total := int64(w.Calls) * int64(w.Steps)
	s := fmt.Sprintf("contend: chan=%d sum=%d select=%d mutex=%d timers=%d",
		total, total*(total-1)/2, total, total, int64(w.Calls)*int64((w.Steps+15)/16))
	if w.CGO {
		s += fmt.Sprintf(" cgo=%d", int64(w.Calls)*int64((w.Steps+7)/8))
	}
	return s
}

// reportPrefix starts the line the contend program prints.
const reportPrefix = "contend:"

// Check finds the report line in out and compares it with w's.
func Check(out string, w Want) error {
	want := w.Line()
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, reportPrefix) {
			continue
		}
		if line != want {
			return fmt.Errorf("wrong counts:\n\tgot  %s\n\twant %s", line, want)
		}
		return nil
	}
	return fmt.Errorf("no %q line in the output (want %s)", reportPrefix, want)
}
