// Package objdump reads the output of `go tool objdump` into functions,
// their instructions and the functions they call, for checks on the
// machine code of the runtime's mutex: which functions a call tree reaches,
// which of them check the stack bound, and which barrier instructions a
// function holds.
package objdump

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A Func is one TEXT block of the disassembly.
type Func struct {
	Name  string
	Insts []string // each instruction's text: mnemonic and operands
	Pos   []Pos    // each instruction's source position and address
	// Calls lists the functions the block calls or jumps to by name, in
	// order, once each, the block itself left out.
	Calls []string
	// Indirect lists the instructions that call through a register or
	// memory, whose target the disassembly does not name.
	Indirect []string
}

// A Pos is where an instruction is: the source line the disassembly
// gives it (the base name of the file, as go tool objdump prints it) and
// its address.
type Pos struct {
	File string
	Line int
	Addr uint64
}

// Program is a disassembly: its functions by name.
type Program map[string]*Func

var (
	textLine = regexp.MustCompile(`^TEXT (\S+)\(SB\)`)
	// An instruction line: file:line, address, encoding, then the
	// instruction itself, separated by tabs.
	instLine = regexp.MustCompile(`^\s+(\S+):(\d+)\s+0x([0-9a-f]+)\s+[0-9a-f]+\s+(.*?)\s*$`)
	// A call or jump to a named function: CALL on every GOARCH, JMP
	// (amd64, arm64) and BR (ppc64) for tail calls and the jump back
	// after morestack.
	namedTarget = regexp.MustCompile(`^(?:CALL|JMP|BR|B)\s+(\S+)\(SB\)`)
)

// Parse reads the output of go tool objdump.
func Parse(r io.Reader) (Program, error) {
	p := Program{}
	var cur *Func
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := textLine.FindStringSubmatch(line); m != nil {
			cur = &Func{Name: m[1]}
			p[cur.Name] = cur
			seen = map[string]bool{}
			continue
		}
		m := instLine.FindStringSubmatch(line)
		if m == nil || cur == nil {
			continue
		}
		inst := m[4]
		ln, err := strconv.Atoi(m[2])
		if err != nil {
			return nil, fmt.Errorf("line number in %q of the disassembly: %v", line, err)
		}
		addr, err := strconv.ParseUint(m[3], 16, 64)
		if err != nil {
			return nil, fmt.Errorf("address in %q of the disassembly: %v", line, err)
		}
		cur.Insts = append(cur.Insts, inst)
		cur.Pos = append(cur.Pos, Pos{File: m[1], Line: ln, Addr: addr})
		if t := namedTarget.FindStringSubmatch(inst); t != nil {
			if t[1] != cur.Name && !seen[t[1]] {
				seen[t[1]] = true
				cur.Calls = append(cur.Calls, t[1])
			}
		} else if strings.HasPrefix(inst, "CALL ") || indirectJump(inst) {
			// A call or jump whose target is not a named symbol or an
			// address in the function: through a register or memory.
			cur.Indirect = append(cur.Indirect, inst)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("no TEXT block in the disassembly: was it made with go tool objdump?")
	}
	return p, nil
}

// localJump matches a jump's operand that stays in its function: an
// address, or an offset from the PC.
var localJump = regexp.MustCompile(`^(?:0x[0-9a-f]+|-?\d+\(PC\))$`)

// indirectJump reports whether inst is an unconditional jump through a
// register or memory (JMP on amd64 and arm64, BR on ppc64).
func indirectJump(inst string) bool {
	op, arg, ok := strings.Cut(inst, " ")
	if !ok || (op != "JMP" && op != "BR" && op != "B") {
		return false
	}
	arg = strings.TrimSpace(arg)
	return !strings.HasSuffix(arg, "(SB)") && !localJump.MatchString(arg)
}

// IsMorestack reports whether name is one of the runtime's entries for
// growing a stack, which a function's prologue calls when the stack
// bound check fails.
func IsMorestack(name string) bool {
	name = strings.TrimSuffix(name, ".abi0")
	return name == "runtime.morestack" || name == "runtime.morestack_noctxt"
}

// A Finding is a function reached from the roots that can grow the stack,
// or whose calls cannot be followed, with the path of calls that reaches
// it.
type Finding struct {
	Path []string // root first, the function last
	What string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s", strings.Join(f.Path, " -> "), f.What)
}

// NoSplitFrom walks every function that the roots reach by direct calls
// and reports each one that calls morestack (it checks the stack bound and
// can grow a goroutine's stack), each call it cannot follow (through a
// register, or to a function the disassembly lacks), and each root it
// cannot find. Calls to morestack are not followed, nor calls to the
// functions in trusted, which the caller knows cannot grow the stack
// (those that switch to the system stack, say).
func (p Program) NoSplitFrom(trusted map[string]bool, roots ...string) []Finding {
	var found []Finding
	parent := map[string]string{}
	path := func(name string) []string {
		var ps []string
		for n := name; n != ""; n = parent[n] {
			ps = append(ps, n)
		}
		for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
			ps[i], ps[j] = ps[j], ps[i]
		}
		return ps
	}
	visited := map[string]bool{}
	var queue []string
	for _, r := range roots {
		if p[r] == nil {
			found = append(found, Finding{Path: []string{r}, What: "not in the disassembly (renamed, or inlined into every caller?)"})
			continue
		}
		visited[r] = true
		queue = append(queue, r)
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		f := p[name]
		for _, c := range f.Calls {
			if IsMorestack(c) {
				found = append(found, Finding{Path: path(name), What: "checks the stack bound (calls " + c + ")"})
				continue
			}
			if visited[c] || trusted[c] {
				continue
			}
			visited[c] = true
			parent[c] = name
			if p[c] == nil {
				found = append(found, Finding{Path: path(c), What: "called, but not in the disassembly"})
				continue
			}
			queue = append(queue, c)
		}
		for _, in := range f.Indirect {
			found = append(found, Finding{Path: path(name), What: "calls through a register or memory (" + in + "), which this check cannot follow"})
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].String() < found[j].String() })
	return found
}

// Reached returns the names of the functions the roots reach by direct
// calls, the roots included and morestack left out, sorted.
func (p Program) Reached(roots ...string) []string {
	visited := map[string]bool{}
	var queue []string
	for _, r := range roots {
		if p[r] != nil && !visited[r] {
			visited[r] = true
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		f := p[queue[0]]
		queue = queue[1:]
		for _, c := range f.Calls {
			if !visited[c] && !IsMorestack(c) && p[c] != nil {
				visited[c] = true
				queue = append(queue, c)
			}
		}
	}
	names := make([]string, 0, len(visited))
	for n := range visited {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Count returns how many of f's instructions have one of the mnemonics.
func (f *Func) Count(mnemonics ...string) int {
	n := 0
	for _, in := range f.Insts {
		op, _, _ := strings.Cut(in, " ")
		for _, m := range mnemonics {
			if op == m {
				n++
				break
			}
		}
	}
	return n
}
