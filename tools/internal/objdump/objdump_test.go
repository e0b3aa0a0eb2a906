package objdump

import (
	"reflect"
	"strings"
	"testing"
)

// A disassembly in go tool objdump's format, made up for the test: a root
// whose calls reach a function that checks the stack bound, one that calls
// through a register, and one the disassembly lacks.
const sample = `TEXT runtime.root(SB) /src/runtime/x.go
  x.go:10		0x1000			48		MOVQ 0x10(R14), AX	
  x.go:11		0x1004			e8		CALL runtime.clean(SB)	
  x.go:12		0x1008			e8		CALL runtime.(*t).grows(SB)	
  x.go:13		0x100c			eb		JMP 0x1000	
  x.go:14		0x1010			14		JMP -3(PC)	
TEXT runtime.clean(SB) /src/runtime/x.go
  x.go:20		0x2000			e8		CALL runtime.leaf.abi0(SB)	
  x.go:21		0x2004			e8		CALL runtime.clean(SB)	
  x.go:22		0x2008			c3		RET	
TEXT runtime.leaf.abi0(SB) /src/runtime/x_amd64.s
  x_amd64.s:5		0x3000			ff		CALL AX	
  x_amd64.s:6		0x3004			c3		RET	
  x_amd64.s:7		0x3008			ff		JMP (R1)	
TEXT runtime.(*t).grows(SB) /src/runtime/x.go
  x.go:30		0x4000			49		CMPQ SP, 0x10(R14)	
  x.go:30		0x4004			76		JBE 0x4010	
  x.go:31		0x4008			e8		CALL runtime.missing(SB)	
  x.go:31		0x400c			c3		RET	
  x.go:30		0x4010			e8		CALL runtime.morestack_noctxt.abi0(SB)	
  x.go:30		0x4014			eb		JMP runtime.(*t).grows(SB)	
TEXT runtime.lock2(SB) /src/runtime/lock.go
  lock.go:1		0x5000			7c		LWSYNC	
  lock.go:1		0x5004			7c		LBAR (R3), R7	
  lock.go:1		0x5008			7c		STBCCC R6, (R3)(R0)	
  lock.go:1		0x500c			4c		ISYNC	
  lock.go:2		0x5010			7c		HWSYNC	
  lock.go:2		0x5014			4e		BR runtime.lock2Slow(SB)	
`

func parseSample(t *testing.T) Program {
	t.Helper()
	p, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParse(t *testing.T) {
	p := parseSample(t)
	if len(p) != 5 {
		t.Fatalf("parsed %d functions, want 5", len(p))
	}
	root := p["runtime.root"]
	if want := []string{"runtime.clean", "runtime.(*t).grows"}; !reflect.DeepEqual(root.Calls, want) {
		t.Errorf("root calls %q, want %q", root.Calls, want)
	}
	if len(root.Insts) != 5 || root.Insts[0] != "MOVQ 0x10(R14), AX" || len(root.Indirect) != 0 {
		t.Errorf("root's instructions: %q", root.Insts)
	}
	if len(root.Pos) != len(root.Insts) || root.Pos[1] != (Pos{File: "x.go", Line: 11, Addr: 0x1004}) {
		t.Errorf("root's positions: %+v", root.Pos)
	}
	// A call to itself is no call to follow.
	if want := []string{"runtime.leaf.abi0"}; !reflect.DeepEqual(p["runtime.clean"].Calls, want) {
		t.Errorf("clean calls %q, want %q", p["runtime.clean"].Calls, want)
	}
	if want := []string{"CALL AX", "JMP (R1)"}; !reflect.DeepEqual(p["runtime.leaf.abi0"].Indirect, want) {
		t.Errorf("leaf's indirect calls %q, want %q", p["runtime.leaf.abi0"].Indirect, want)
	}
	if want := []string{"runtime.lock2Slow"}; !reflect.DeepEqual(p["runtime.lock2"].Calls, want) {
		t.Errorf("lock2's tail call: %q, want %q", p["runtime.lock2"].Calls, want)
	}
}

func TestParseNothing(t *testing.T) {
	if _, err := Parse(strings.NewReader("go tool objdump: no symbols\n")); err == nil {
		t.Error("Parse accepted a text without a TEXT block")
	}
}

func TestNoSplitFrom(t *testing.T) {
	p := parseSample(t)
	var got []string
	for _, f := range p.NoSplitFrom(nil, "runtime.root", "runtime.gone") {
		got = append(got, f.String())
	}
	want := []string{
		"runtime.gone: not in the disassembly (renamed, or inlined into every caller?)",
		"runtime.root -> runtime.(*t).grows -> runtime.missing: called, but not in the disassembly",
		"runtime.root -> runtime.(*t).grows: checks the stack bound (calls runtime.morestack_noctxt.abi0)",
		"runtime.root -> runtime.clean -> runtime.leaf.abi0: calls through a register or memory (CALL AX), which this check cannot follow",
		"runtime.root -> runtime.clean -> runtime.leaf.abi0: calls through a register or memory (JMP (R1)), which this check cannot follow",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("NoSplitFrom:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := p.NoSplitFrom(nil, "runtime.clean"); len(f) != 2 {
		t.Errorf("from clean: %v, want only leaf's indirect call and jump", f)
	}
	if f := p.NoSplitFrom(map[string]bool{"runtime.leaf.abi0": true}, "runtime.clean"); len(f) != 0 {
		t.Errorf("from clean, with leaf trusted: %v, want nothing", f)
	}
}

func TestReached(t *testing.T) {
	p := parseSample(t)
	got := p.Reached("runtime.root")
	want := []string{"runtime.(*t).grows", "runtime.clean", "runtime.leaf.abi0", "runtime.root"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Reached: %q, want %q", got, want)
	}
}

func TestCount(t *testing.T) {
	f := parseSample(t)["runtime.lock2"]
	if n := f.Count("HWSYNC", "SYNC"); n != 1 {
		t.Errorf("full barriers: %d, want 1", n)
	}
	if n := f.Count("LWSYNC", "ISYNC"); n != 2 {
		t.Errorf("light barriers: %d, want 2", n)
	}
}
