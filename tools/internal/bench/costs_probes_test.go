package bench

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"go-spinbit.dev/tools/internal/objdump"
)

// testdata/objdump holds go tool objdump -s of runtime.lock2, lock2Slow
// and mutexSleepOnStack in test binaries made on the 2-CPU machine (amd64):
// bench/'s with the fork on go1.27.4 (spinbit-go1.27.4.txt) and with its
// tristate mutex (nospinbit-go1.27.4.txt), and a small program's with
// go1.27.4 and go1.23.12.

func readDisassembly(t *testing.T, name string) objdump.Program {
	t.Helper()
	f, err := os.Open("testdata/objdump/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := objdump.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// forkSource stands in for the fork's lock_spinbit.go of that binary: the
// lines that make an heir where they were, nothing else.
func forkSource(heirLines ...int) []byte {
	lines := make([]string, 700)
	for _, n := range heirLines {
		lines[n-1] = "\t\t\tmp." + heirSource
	}
	return []byte(strings.Join(lines, "\n"))
}

func TestFindMutexProbes(t *testing.T) {
	upstreamSource := []byte("package runtime\n\nfunc lock2(l *mutex) {\n}\n")
	for _, tc := range []struct {
		file   string
		src    []byte
		fork   bool
		sleeps []uint64
		claims []uint64
	}{
		// The fork: its sleep in mutexSleepOnStack, and the stores of its
		// three heir lines, not the LOCK ORB after two of them.
		{"spinbit-go1.27.4.txt", forkSource(423, 478, 525), true, []uint64{0x41ed52}, []uint64{0x41e6b7, 0x41e87f, 0x41eaa5}},
		// The tristate mutex in the fork's GOROOT: that GOROOT's
		// lock_spinbit.go makes heirs, but this binary's lock2 is not from it.
		{"nospinbit-go1.27.4.txt", forkSource(423, 478, 525), true, []uint64{0x418129}, nil},
		{"go1.27.4.txt", upstreamSource, false, []uint64{0x4183c0}, nil},
		{"go1.23.12.txt", nil, false, []uint64{0x409aa0}, nil},
	} {
		got, err := findMutexProbes(readDisassembly(t, tc.file), tc.src, "amd64", tc.fork)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if !reflect.DeepEqual(got.Sleeps, tc.sleeps) || !reflect.DeepEqual(got.Claims, tc.claims) {
			t.Errorf("%s: sleeps %#x, claims %#x; want %#x, %#x", tc.file, got.Sleeps, got.Claims, tc.sleeps, tc.claims)
		}
	}

	fork := readDisassembly(t, "spinbit-go1.27.4.txt")
	for _, bad := range []struct {
		name   string
		prog   objdump.Program
		src    []byte
		goarch string
		want   string
	}{
		{"a heir line without its store", fork, forkSource(423, 478, 479, 525), "amd64", "lock_spinbit.go:479 (mWaitList.heir = true) has 0 stores of 1"},
		{"another GOARCH", fork, forkSource(423, 478, 525), "arm64", "amd64 code only, and this is arm64"},
		{"no sleep", objdump.Program{"runtime.lock2": fork["runtime.lock2"]}, nil, "amd64", "no call of runtime.semasleep or runtime.futexsleep"},
		{"no lock2Slow", objdump.Program{"runtime.lock2": fork["runtime.lock2"], "runtime.mutexSleepOnStack": fork["runtime.mutexSleepOnStack"]}, forkSource(423), "amd64", "has no runtime.lock2Slow"},
		// A fork whose source no longer says it the way heirSource does
		// must not pass for a mutex that never claims.
		{"heir lines renamed", fork, upstreamSource, "amd64", "update heirSource"},
	} {
		_, err := findMutexProbes(bad.prog, bad.src, bad.goarch, true)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want one containing %q", bad.name, err, bad.want)
		}
	}
}

// TestHeirSourceInPatches checks that every series' patches write
// heirSource into lock_spinbit.go, where findMutexProbes looks for the
// fork's claims.
func TestHeirSourceInPatches(t *testing.T) {
	patches, err := filepath.Glob("../../../bases/*/patches/*.patch")
	if err != nil || len(patches) == 0 {
		t.Fatalf("no patches under bases/ (%v)", err)
	}
	found := map[string]int{}
	for _, p := range patches {
		base := filepath.Base(filepath.Dir(filepath.Dir(p)))
		found[base] += 0
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		file := ""
		for _, l := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(l, "+++ b/"); ok {
				file = filepath.Base(name)
			} else if file == heirFile && strings.HasPrefix(l, "+") && strings.Contains(l, heirSource) {
				found[base]++
			}
		}
	}
	for base, n := range found {
		if n == 0 {
			t.Errorf("the patches of %s add no line holding %q to %s: -costs would find no claims there", base, heirSource, heirFile)
		}
	}
}

// TestMakeUprobes names the probes of this test's own binary and checks
// that each offset holds the bytes of the code at its address.
func TestMakeUprobes(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uprobes are Linux's")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text := f.Section(".text")
	if text == nil {
		t.Fatal("no .text in the test binary")
	}
	addrs := []uint64{text.Addr, text.Addr + 0x40}
	tp, err := makeUprobes("spinbit_costs_1", "go1.27", exe, mutexProbes{Sleeps: addrs[:1], Claims: addrs[1:]})
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Sleeps) != 1 || len(tp.Claims) != 1 || tp.Sleeps[0].Name != "go1_27_sleep0" || tp.Claims[0].event() != "spinbit_costs_1:go1_27_claim0" {
		t.Fatalf("probes %+v", tp)
	}
	raw, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	code, err := text.Data()
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range []uprobe{tp.Sleeps[0], tp.Claims[0]} {
		at := addrs[i] - text.Addr
		if !bytes.Equal(raw[u.Offset:u.Offset+16], code[at:at+16]) {
			t.Errorf("%s: the file at %#x does not hold the code at %#x", u.Name, u.Offset, addrs[i])
		}
	}
	if _, err := fileOffset(f, 1); err == nil {
		t.Error("fileOffset of an address in no segment: no error")
	}
	if tp, err := makeUprobes("g", "nospinbit", exe, mutexProbes{Sleeps: addrs[:1]}); err != nil || tp.Claims != nil {
		t.Errorf("a mutex without claims: %+v, %v", tp, err)
	}
}

func TestParsePerfStatUprobes(t *testing.T) {
	tp := toolchainProbes{
		Sleeps: []uprobe{{Group: "spinbit_costs_7", Name: "spinbit_sleep0"}},
		Claims: []uprobe{{Group: "spinbit_costs_7", Name: "spinbit_claim0"}, {Group: "spinbit_costs_7", Name: "spinbit_claim1"}},
	}
	out := "" +
		"7,,spinbit_costs_7:spinbit_sleep0,1,100.00,,\n" +
		"2,,spinbit_costs_7:spinbit_claim0,1,100.00,,\n" +
		"5,,spinbit_costs_7:spinbit_claim1,1,100.00,,\n"
	got, err := parsePerfStat(strings.NewReader(out), tp, true)
	if err != nil {
		t.Fatal(err)
	}
	// A run with uprobes counts nothing else: its syscalls are not the
	// program's own.
	if want := (perfCounts{Futex: -1, FutexAtOnce: -1, Yield: -1, Switches: -1, Sleeps: 7, Claims: 7}); got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	noClaims := toolchainProbes{Sleeps: tp.Sleeps}
	if got, err := parsePerfStat(strings.NewReader(out), noClaims, true); err != nil || got.Claims != -1 {
		t.Errorf("without claim probes: %+v, %v; want claims -1", got, err)
	}
	missing := strings.Replace(out, "spinbit_claim1", "other", 1)
	if _, err := parsePerfStat(strings.NewReader(missing), tp, true); err == nil || !strings.Contains(err.Error(), "no count of spinbit_costs_7:spinbit_claim1") {
		t.Errorf("a probe missing: error %v", err)
	}
	// A run without them needs none of their counts.
	plain := "12,,syscalls:sys_enter_futex,1,100.00,,\n" +
		"3,,syscalls:sys_enter_sched_yield,1,100.00,,\n" +
		"40,,context-switches,1,100.00,,\n" +
		"2,,syscalls:sys_exit_futex,1,100.00,,\n"
	if got, err := parsePerfStat(strings.NewReader(plain), tp, false); err != nil || got != (perfCounts{Futex: 12, FutexAtOnce: 2, Yield: 3, Switches: 40, Sleeps: -1, Claims: -1}) {
		t.Errorf("a run without uprobes: %+v, %v; want its four counts and -1 for the probes'", got, err)
	}
}

func TestUprobeEvents(t *testing.T) {
	file := t.TempDir() + "/uprobe_events"
	old := "p:spinbit_costs_100/go1_27_sleep0 /tmp/old/go1.27.test:0x1234\n" +
		"p:spinbit_costs_200/spinbit_sleep0 /tmp/live/spinbit.test:0x1ed52\n" +
		"p:other/keep /bin/true:0x10\n"
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	// Process 100 has ended, 200 runs.
	if err := removeUprobes(file, func(pid int) bool { return pid == 100 }); err != nil {
		t.Fatal(err)
	}
	us := []uprobe{{Group: "spinbit_costs_300", Name: "spinbit_sleep0", Binary: "/tmp/b/spinbit.test", Offset: 0x1ed52}}
	if err := addUprobes(file, us); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	// tracefs would carry out a removal; the file records what was asked.
	want := old + "-:spinbit_costs_100/go1_27_sleep0\np:spinbit_costs_300/spinbit_sleep0 /tmp/b/spinbit.test:0x1ed52\n"
	if string(got) != want {
		t.Errorf("uprobe_events after removing an ended run's group and adding:\n%s\nwant:\n%s", got, want)
	}
	if _, err := makeUprobes("g", "spinbit", "/tmp/a b/spinbit.test", mutexProbes{}); err == nil || !strings.Contains(err.Error(), "white space") {
		t.Errorf("a path with a space: error %v", err)
	}
	if !processEnded(1<<30) || processEnded(os.Getpid()) {
		t.Errorf("processEnded: a process that cannot exist %v, this one %v", processEnded(1<<30), processEnded(os.Getpid()))
	}

	saved := tracingDirs
	defer func() { tracingDirs = saved }()
	tracingDirs = []string{t.TempDir()}
	if _, err := uprobeEventsFile(); err == nil || !strings.Contains(err.Error(), "CONFIG_UPROBE_EVENTS") {
		t.Errorf("without uprobe_events: error %v", err)
	}
}
