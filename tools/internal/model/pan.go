// Package model checks model/spinbit.pml, the Promela model of the spinbit
// runtime mutex, with the Spin model checker: it generates the verifier
// (spin -a), compiles it (cc), runs it (pan), reads what pan reports, and
// compares that with what each check of the suite expects. See
// model/README.md for what the model and the checks are.
package model

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/tail"
)

// Result is what one run of pan reported.
type Result struct {
	// Errors is pan's count of errors found; pan stops at the first.
	Errors int
	// Violation is pan's description of the first error, such as
	// "assertion violated (holders==1)", "invalid end state" or
	// "acceptance cycle"; empty when Errors is 0.
	Violation string
	// States is the number of states stored, Transitions the number of
	// transitions taken, and Depth the deepest point of the search.
	States      int64
	Transitions int64
	Depth       int
	// MemoryMB is pan's total memory use, in megabytes.
	MemoryMB float64
	// Elapsed is the search time pan measured itself.
	Elapsed time.Duration
	// Incomplete says why the search did not cover every state, such as
	// "max search depth too small"; empty if it did.
	Incomplete string
}

var (
	errorsLine  = regexp.MustCompile(`depth reached (\d+), errors: (\d+)`)
	violation   = regexp.MustCompile(`(?m)^pan:\d+: (.*?)(?: \(at depth \d+\))?$`)
	statesLine  = regexp.MustCompile(`(?m)^\s*([0-9.e+]+) states, stored`)
	transLine   = regexp.MustCompile(`(?m)^\s*([0-9.e+]+) transitions \(`)
	memoryLine  = regexp.MustCompile(`(?m)^\s*([0-9.]+)\s+total actual memory usage`)
	elapsedLine = regexp.MustCompile(`(?m)^pan: elapsed time ([0-9.e+]+) seconds`)
)

// incompleteMarks are what pan prints when it could not search every
// state, and why.
var incompleteMarks = []struct{ mark, why string }{
	{"error: max search depth too small", "max search depth too small (raise pan's -m)"},
	{"reached -DMEMLIM bound", "out of memory (the -DMEMLIM bound)"},
	{"pan: out of memory", "out of memory"},
	{"Warning: Search not completed", "search not completed"},
}

// Parse reads the output of a pan run. It fails if the output lacks the
// summary that every finished run prints, which means pan did not finish.
func Parse(out string) (Result, error) {
	var r Result
	m := errorsLine.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("pan's output has no \"depth reached N, errors: N\" line, so pan did not finish; it printed:\n%s", tail.Lines(out, 20))
	}
	r.Depth, _ = strconv.Atoi(m[1])
	r.Errors, _ = strconv.Atoi(m[2])
	if r.Errors > 0 {
		v := violation.FindStringSubmatch(out)
		if v == nil {
			return r, fmt.Errorf("pan reports %d errors but no \"pan:1: ...\" line says what they are; it printed:\n%s", r.Errors, tail.Lines(out, 20))
		}
		r.Violation = v[1]
	}
	var err error
	if r.States, err = count(statesLine, out, "states, stored"); err != nil {
		return r, err
	}
	if r.Transitions, err = count(transLine, out, "transitions"); err != nil {
		return r, err
	}
	if m := memoryLine.FindStringSubmatch(out); m != nil {
		r.MemoryMB, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := elapsedLine.FindStringSubmatch(out); m != nil {
		s, _ := strconv.ParseFloat(m[1], 64)
		r.Elapsed = time.Duration(s * float64(time.Second))
	}
	for _, im := range incompleteMarks {
		if strings.Contains(out, im.mark) {
			r.Incomplete = im.why
			break
		}
	}
	return r, nil
}

// count reads the number that re captures; pan writes large ones in
// scientific notation.
func count(re *regexp.Regexp, out, what string) (int64, error) {
	m := re.FindStringSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pan's output has no %q line", what)
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, fmt.Errorf("pan's %q count %q: %v", what, m[1], err)
	}
	return int64(f), nil
}
