package bench

import (
	"bufio"
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"go-spinbit.dev/tools/internal/objdump"
)

// Besides perf's counts of the whole process, -costs counts two things
// that only the mutex's own code shows, with a uprobe on an instruction
// of each toolchain's test binary:
//
//   - sleep calls: the call through which a runtime mutex puts an M to
//     sleep. Every mutex has one: go1.23's and the tristate mutex's lock2
//     call futexsleep, go1.24 and later's lock2 and the fork's
//     mutexSleepOnStack call semasleep, and nothing else calls either
//     from those functions. The M runs again once another M wakes it, or
//     at once if the wake came first (semasleep) or the key word changed
//     (futexsleep).
//   - claims: in the fork, the times an M became the heir of a claim (the
//     store of mWaitList.heir = true on each of the lines of
//     lock_spinbit.go that make an heir: in lock2Slow an M's own claim,
//     in mutexPassClaim the naming of the next heir). Other mutexes make
//     no claims.
//
// A uprobe stops the M for a trap into the kernel each time it is hit,
// a few microseconds. So the probes change what they count: the one
// before a sleep call widens the window in which a wake comes before the
// sleep. They are counted in runs of their own, and perf's other counts
// in runs without them (see runCosts).

// mutexSleepFuncs are the functions of every mutex that call the sleep.
var mutexSleepFuncs = []string{"runtime.lock2", "runtime.lock2Slow", "runtime.mutexSleepOnStack"}

// heirFuncs are the functions of the fork's mutex that make an heir.
var heirFuncs = []string{"runtime.lock2Slow", "runtime.mutexPassClaim"}

// mutexSleepCall matches a call that puts the M to sleep.
var mutexSleepCall = regexp.MustCompile(`^CALL runtime\.(semasleep|futexsleep)\(SB\)$`)

// The fork's source line that makes an M the heir, and its file.
const (
	heirFile   = "lock_spinbit.go"
	heirSource = "mWaitList.heir = true"
)

// mutexProbes are the addresses -costs probes in one test binary.
type mutexProbes struct {
	Sleeps []uint64
	Claims []uint64 // nil when the mutex makes no claims
}

// findMutexProbes finds the probes in the disassembly of a binary of
// GOARCH goarch, made by the fork if fork is set, whose GOROOT's
// runtime/lock_spinbit.go is src (nil if it has none).
//
// A claim is counted at the plain store to mWaitList.heir rather than at
// the atomic OR that sets mutexHeir in the key word: the kernel's x86
// uprobes do not take an instruction with a LOCK prefix, and a probe on
// the LOCK ORB of a claim counted nothing.
func findMutexProbes(prog objdump.Program, src []byte, goarch string, fork bool) (mutexProbes, error) {
	var p mutexProbes
	for _, name := range mutexSleepFuncs {
		f := prog[name]
		if f == nil {
			continue
		}
		for i, inst := range f.Insts {
			if mutexSleepCall.MatchString(inst) {
				p.Sleeps = append(p.Sleeps, f.Pos[i].Addr)
			}
		}
	}
	if len(p.Sleeps) == 0 {
		return p, fmt.Errorf("no call of runtime.semasleep or runtime.futexsleep in %s: -costs cannot count the mutex's sleep calls in this runtime; update mutexSleepFuncs in tools/internal/bench/costs_probes.go", strings.Join(mutexSleepFuncs, ", "))
	}

	// Only the fork's spinbit mutex claims. src is that of the binary's
	// mutex only if its lock2 comes from it: the fork's binary built with
	// the tristate mutex has the same GOROOT.
	if !fork || !fromFile(prog["runtime.lock2"], heirFile) {
		return p, nil
	}
	heirLines := map[int]bool{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), heirSource) {
			heirLines[n] = true
		}
	}
	if len(heirLines) == 0 {
		return p, fmt.Errorf("the fork's %s has no line holding %q, which makes an M the heir: -costs cannot count its claims; update heirSource in tools/internal/bench/costs_probes.go", heirFile, heirSource)
	}
	if goarch != "amd64" {
		return p, fmt.Errorf("-costs finds the fork's claims in amd64 code only, and this is %s: run it on amd64, or leave the fork out with -toolchains", goarch)
	}
	f := prog["runtime.lock2Slow"]
	if f == nil {
		return p, fmt.Errorf("%s makes heirs (%q) but the disassembly has no runtime.lock2Slow: update findMutexProbes in tools/internal/bench/costs_probes.go", heirFile, heirSource)
	}
	stores := map[int][]uint64{}
	for _, name := range heirFuncs {
		f := prog[name]
		if f == nil {
			continue
		}
		for i, inst := range f.Insts {
			pos := f.Pos[i]
			if pos.File == heirFile && heirLines[pos.Line] && strings.HasPrefix(inst, "MOVB $0x1, ") {
				stores[pos.Line] = append(stores[pos.Line], pos.Addr)
			}
		}
	}
	lines := make([]int, 0, len(heirLines))
	for n := range heirLines {
		lines = append(lines, n)
	}
	sort.Ints(lines)
	for _, n := range lines {
		if len(stores[n]) != 1 {
			return p, fmt.Errorf("%s:%d (%s) has %d stores of 1 in the disassembly of %s, not one: -costs cannot count its claims; update findMutexProbes in tools/internal/bench/costs_probes.go", heirFile, n, heirSource, len(stores[n]), strings.Join(heirFuncs, " and "))
		}
		p.Claims = append(p.Claims, stores[n][0])
	}
	return p, nil
}

// fromFile reports whether some of f's instructions come from file.
func fromFile(f *objdump.Func, file string) bool {
	if f == nil {
		return false
	}
	for _, pos := range f.Pos {
		if pos.File == file {
			return true
		}
	}
	return false
}

// probeBinary disassembles a toolchain's test binary and finds its probes.
func probeBinary(ctx context.Context, p *prepared, goarch string) (mutexProbes, error) {
	pattern := `^(` + strings.Join(append(slices.Clip(mutexSleepFuncs), heirFuncs...), "|") + `)$`
	cmd := exec.CommandContext(ctx, p.GoCmd, "tool", "objdump", "-s", strings.ReplaceAll(pattern, ".", `\.`), p.Binary)
	cmd.Env = p.Env
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = strings.TrimSpace(string(ee.Stderr))
		}
		return mutexProbes{}, fmt.Errorf("toolchain %s: go tool objdump %s: %v %s", p.Name, p.Binary, err, stderr)
	}
	prog, err := objdump.Parse(bytes.NewReader(out))
	if err != nil {
		return mutexProbes{}, fmt.Errorf("toolchain %s: %v", p.Name, err)
	}
	src, err := os.ReadFile(filepath.Join(p.GOROOT, "src", "runtime", heirFile))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return mutexProbes{}, err
	}
	probes, err := findMutexProbes(prog, src, goarch, p.Fork())
	if err != nil {
		return probes, fmt.Errorf("toolchain %s: %v", p.Name, err)
	}
	return probes, nil
}

// fileOffset is where the code at address addr lies in an ELF binary, as
// a uprobe names it.
func fileOffset(f *elf.File, addr uint64) (uint64, error) {
	for _, prog := range f.Progs {
		if prog.Type == elf.PT_LOAD && prog.Flags&elf.PF_X != 0 && addr >= prog.Vaddr && addr < prog.Vaddr+prog.Filesz {
			return addr - prog.Vaddr + prog.Off, nil
		}
	}
	return 0, fmt.Errorf("address %#x is in no executable segment", addr)
}

// costsGroupPrefix starts the name of the tracefs group of a -costs run's
// uprobes, which ends with the run's process ID: runs at the same time
// keep apart, and a run removes only the groups of runs that have ended.
const costsGroupPrefix = "spinbit_costs_"

// A uprobe is one probe: its event's group and name, and where.
type uprobe struct {
	Group  string
	Name   string
	Binary string
	Offset uint64
}

func (u uprobe) event() string { return u.Group + ":" + u.Name }

// toolchainProbes are the uprobes of one toolchain's binary, by metric.
type toolchainProbes struct {
	Sleeps, Claims []uprobe // Claims is nil when the mutex makes none
}

func (t toolchainProbes) events() []string {
	var es []string
	for _, u := range append(append([]uprobe(nil), t.Sleeps...), t.Claims...) {
		es = append(es, u.event())
	}
	return es
}

// makeUprobes turns a binary's probe addresses into uprobes of group
// named after the toolchain.
func makeUprobes(group, toolchain, binary string, p mutexProbes) (toolchainProbes, error) {
	if strings.ContainsAny(binary, " \t\n") {
		return toolchainProbes{}, fmt.Errorf("the test binary %s has white space in its path, which a uprobe cannot name: set TMPDIR to a folder without any", binary)
	}
	f, err := elf.Open(binary)
	if err != nil {
		return toolchainProbes{}, fmt.Errorf("toolchain %s: %v", toolchain, err)
	}
	defer f.Close()
	stem := notEventName.ReplaceAllString(toolchain, "_")
	mk := func(kind string, addrs []uint64) ([]uprobe, error) {
		var us []uprobe
		for i, a := range addrs {
			off, err := fileOffset(f, a)
			if err != nil {
				return nil, fmt.Errorf("toolchain %s: %v", toolchain, err)
			}
			us = append(us, uprobe{Group: group, Name: fmt.Sprintf("%s_%s%d", stem, kind, i), Binary: binary, Offset: off})
		}
		return us, nil
	}
	var t toolchainProbes
	if t.Sleeps, err = mk("sleep", p.Sleeps); err != nil {
		return t, err
	}
	if p.Claims != nil {
		if t.Claims, err = mk("claim", p.Claims); err != nil {
			return t, err
		}
	}
	return t, nil
}

// notEventName matches what a tracefs event name may not hold.
var notEventName = regexp.MustCompile(`[^A-Za-z0-9_]`)

// uprobeAccess says that err kept this user from tracefs's uprobes.
func uprobeAccess(err error) error {
	return fmt.Errorf("-costs counts the mutex's sleep calls and claims with uprobes, and %v: run ./bench.bash -costs as root", err)
}

// tracingDirs are where tracefs may be mounted.
var tracingDirs = []string{"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}

// uprobeEventsFile is tracefs's list of uprobes, where it is mounted, if
// this user may define uprobes there.
func uprobeEventsFile() (string, error) {
	for _, dir := range tracingDirs {
		file := filepath.Join(dir, "uprobe_events")
		if _, err := os.Stat(file); err != nil {
			continue
		}
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return "", uprobeAccess(err)
		}
		f.Close()
		return file, nil
	}
	return "", fmt.Errorf("-costs counts the mutex's sleep calls and claims with uprobes, and there is no uprobe_events in %s: mount tracefs (mount -t tracefs nodev /sys/kernel/tracing) on a kernel built with CONFIG_UPROBE_EVENTS", strings.Join(tracingDirs, " or "))
}

// writeUprobeEvents appends lines to tracefs's uprobe_events.
func writeUprobeEvents(file string, lines []string) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return uprobeAccess(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.WriteString(l + "\n"); err != nil {
			fix := ""
			if errors.Is(err, syscall.EBUSY) {
				fix = ": a perf that still runs holds the probe; wait for it to end, or end it"
			}
			return fmt.Errorf("writing %q to %s: %v%s", l, file, err, fix)
		}
	}
	return nil
}

// addUprobes defines the uprobes.
func addUprobes(file string, us []uprobe) error {
	var lines []string
	for _, u := range us {
		lines = append(lines, fmt.Sprintf("p:%s/%s %s:%#x", u.Group, u.Name, u.Binary, u.Offset))
	}
	return writeUprobeEvents(file, lines)
}

// removeUprobes removes every uprobe of the -costs groups for which
// remove says so, given the process ID in the group's name.
func removeUprobes(file string, remove func(pid int) bool) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return uprobeAccess(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		def, _, _ := strings.Cut(l, " ")
		rest, ok := strings.CutPrefix(def, "p:"+costsGroupPrefix)
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "/")
		pid, err := strconv.Atoi(pidText)
		if err != nil || !remove(pid) {
			continue
		}
		lines = append(lines, "-:"+strings.TrimPrefix(def, "p:"))
	}
	return writeUprobeEvents(file, lines)
}
