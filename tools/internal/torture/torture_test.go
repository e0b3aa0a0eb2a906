package torture

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const sampleOutput = `=== RUN   TestRuntimeMutexTorture
spinbit torture: 16 Ms x 2000 acquisitions, twice, in 1.2s: fast-acquire=64000 slow-acquire=2312 claim=12 longest-wait=2.1ms errors=0
--- PASS: TestRuntimeMutexTorture (1.20s)
`

func TestParseStats(t *testing.T) {
	s, err := ParseStats(sampleOutput)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Errors(); n != 0 {
		t.Errorf("errors = %d, want 0", n)
	}
	if got := s.Count("slow-acquire"); got != 2312 {
		t.Errorf("slow-acquire = %d, want 2312", got)
	}
	if got := s.Count("nonesuch"); got != -1 {
		t.Errorf("missing count = %d, want -1", got)
	}
	if got := s.Values["longest-wait"]; got != "2.1ms" {
		t.Errorf("longest-wait = %q", got)
	}
	if !strings.HasPrefix(s.Line, "spinbit torture: 16 Ms") {
		t.Errorf("line = %q", s.Line)
	}

	bad := strings.Replace(sampleOutput, "errors=0", "errors=3", 1)
	if s, err := ParseStats(bad); err != nil {
		t.Fatal(err)
	} else if n, _ := s.Errors(); n != 3 {
		t.Errorf("errors = %d, want 3", n)
	}
	if _, err := ParseStats("ok  \truntime\t0.1s\n"); err == nil || !strings.Contains(err.Error(), "-tags spinbittorture") {
		t.Errorf("no counts line: err = %v, want one naming the tag", err)
	}
	if _, err := ParseStats("spinbit torture: fast-acquire=1\n"); err == nil {
		t.Error("counts line without errors=: no error")
	}
}

func TestBreakApply(t *testing.T) {
	b := Break{Name: "x", Edits: []Edit{{Old: "a := 1\n", New: "a := 2\n"}, {Old: "b()", New: "c()"}}}
	got, err := b.Apply("a := 1\nb()\n")
	if err != nil {
		t.Fatal(err)
	}
	if got != "a := 2\nc()\n" {
		t.Errorf("Apply = %q", got)
	}
	// An edit whose text is missing, or occurs twice, would leave the
	// break testing nothing: it must be an error.
	if _, err := b.Apply("a := 1\n"); err == nil {
		t.Error("missing text: no error")
	}
	if _, err := b.Apply("a := 1\nb()b()\n"); err == nil {
		t.Error("text twice: no error")
	}
}

// $link in a break's old and new text becomes the wait-stack link as the
// file names it.
func TestBreakApplyLink(t *testing.T) {
	b := Break{Name: "x", Edits: []Edit{{Old: "push()\np = p.$link.ptr()\n", New: "push()\nmp.$link.set(v)\np = p.$link.ptr()\n"}}}
	for src, want := range map[string]string{
		"push()\np = p.mWaitList.next.ptr()\n": "push()\nmp.mWaitList.next.set(v)\np = p.mWaitList.next.ptr()\n",
		"push()\np = p.nextwaitm.ptr()\n":      "push()\nmp.nextwaitm.set(v)\np = p.nextwaitm.ptr()\n",
	} {
		got, err := b.Apply(src)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("Apply(%q) = %q, want %q", src, got, want)
		}
	}
}

// Each break changes something, and its pattern recognises the failures
// it is meant to cause.
func TestBreaksWellFormed(t *testing.T) {
	for _, b := range Breaks {
		if len(b.Edits) == 0 || b.Caught == nil || b.What == "" {
			t.Errorf("break %s is incomplete", b.Name)
		}
		for _, e := range b.Edits {
			if e.Old == e.New {
				t.Errorf("break %s has an edit that changes nothing", b.Name)
			}
		}
		if b.Caught.MatchString("--- PASS: TestRuntimeMutexTorture") {
			t.Errorf("break %s: Caught matches a passing run", b.Name)
		}
	}
}

// TestBreaksCatchSeenFailures feeds each break's pattern the first lines
// of failures its torture runs have printed.
func TestBreaksCatchSeenFailures(t *testing.T) {
	seen := map[string][]string{
		// A wake followed the link of an M that a stale store had put
		// back on top of the stack (go1.27.4 series).
		"take-with-store": {"fatal error: unexpected signal during runtime execution\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x290 pc=0x427008]\n\ngoroutine 37 gp=0x339b52c850e0 m=14 mp=0x339b52c81008 [running, locked to thread]:\nruntime.throw({0x92a38f?, 0x49dea5?})\n"},
	}
	for _, b := range Breaks {
		for _, out := range seen[b.Name] {
			if !b.Caught.MatchString(out) {
				t.Errorf("break %s does not recognise a failure it caused:\n%s", b.Name, out)
			}
		}
		delete(seen, b.Name)
	}
	for name := range seen {
		t.Errorf("no break is named %s", name)
	}
}

// The breaks still apply to the files of every base's tree laid out in
// this checkout's goroot/ (after ./make.bash).
func TestBreaksApplyToGoroot(t *testing.T) {
	for _, rt := range gorootRuntimes(t) {
		for _, b := range Breaks {
			if _, err := b.Apply(readRuntimeFile(t, rt, b.RuntimeFile())); err != nil {
				t.Errorf("%s: %v", rt, err)
			}
		}
	}
}

// The patterns of the breaks of the bound match the messages that the
// torture test of every base's tree prints for bypasses and for two
// heirs, with a count in place of the message's %d.
func TestCaughtPatternsMatchGoroot(t *testing.T) {
	for _, rt := range gorootRuntimes(t) {
		src := readRuntimeFile(t, rt, "lock_torture_test.go")
		checkReportMessage(t, rt, src, "entries into the busy mutex", bypassed)
		checkReportMessage(t, rt, src, "another heir of the same mutex", twoHeirs)
	}
}

// checkReportMessage checks that the pattern re matches the line of src
// (the torture test of the runtime folder rt) that reports phrase.
func checkReportMessage(t *testing.T, rt, src, phrase string, re *regexp.Regexp) {
	t.Helper()
	for _, line := range strings.Split(src, "\n") {
		if strings.Contains(line, phrase) && strings.Contains(line, "%d") {
			if msg := strings.Replace(line, "%d", "12", 1); !re.MatchString(msg) {
				t.Errorf("%s: the pattern %s does not match the torture test's message:\n%s", rt, re, msg)
			}
			return
		}
	}
	t.Errorf("%s: lock_torture_test.go no longer prints %q: update the pattern %s and this test", rt, phrase, re)
}

// gorootRuntimes returns the src/runtime folders of the bases' trees laid
// out in this checkout's goroot/, and skips the test when there is none.
func gorootRuntimes(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "..", "..", "goroot", "go1.*", "src", "runtime"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Skip("no base's tree in goroot/ here: run ./make.bash")
	}
	return dirs
}

// readRuntimeFile returns the file name of the runtime folder rt.
func readRuntimeFile(t *testing.T, rt, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(rt, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}
