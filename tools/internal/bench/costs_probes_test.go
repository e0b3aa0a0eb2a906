package bench

import (
	"os"
	"reflect"
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
		sleeps []uint64
		claims []uint64
	}{
		// The fork: its sleep in mutexSleepOnStack, and the stores of its
		// three heir lines, not the LOCK ORB after two of them.
		{"spinbit-go1.27.4.txt", forkSource(423, 478, 525), []uint64{0x41ed52}, []uint64{0x41e6b7, 0x41e87f, 0x41eaa5}},
		// The tristate mutex in the fork's GOROOT: that GOROOT's
		// lock_spinbit.go makes heirs, but this binary's lock2 is not from it.
		{"nospinbit-go1.27.4.txt", forkSource(423, 478, 525), []uint64{0x418129}, nil},
		{"go1.27.4.txt", upstreamSource, []uint64{0x4183c0}, nil},
		{"go1.23.12.txt", nil, []uint64{0x409aa0}, nil},
	} {
		got, err := findMutexProbes(readDisassembly(t, tc.file), tc.src, "amd64")
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
	} {
		_, err := findMutexProbes(bad.prog, bad.src, bad.goarch)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want one containing %q", bad.name, err, bad.want)
		}
	}
}

func TestParsePerfStatUprobes(t *testing.T) {
	tp := toolchainProbes{
		Sleeps: []uprobe{{Name: "spinbit_sleep0"}},
		Claims: []uprobe{{Name: "spinbit_claim0"}, {Name: "spinbit_claim1"}},
	}
	out := "" +
		"12,,syscalls:sys_enter_futex,1,100.00,,\n" +
		"3,,syscalls:sys_enter_sched_yield,1,100.00,,\n" +
		"40,,context-switches,1,100.00,,\n" +
		"7,,spinbit_costs:spinbit_sleep0,1,100.00,,\n" +
		"2,,spinbit_costs:spinbit_claim0,1,100.00,,\n" +
		"5,,spinbit_costs:spinbit_claim1,1,100.00,,\n"
	got, err := parsePerfStat(strings.NewReader(out), tp)
	if err != nil {
		t.Fatal(err)
	}
	if want := (perfCounts{Futex: 12, Yield: 3, Switches: 40, Sleeps: 7, Claims: 7}); got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
	noClaims := toolchainProbes{Sleeps: tp.Sleeps}
	if got, err := parsePerfStat(strings.NewReader(out), noClaims); err != nil || got.Claims != -1 {
		t.Errorf("without claim probes: %+v, %v; want claims -1", got, err)
	}
	missing := strings.Replace(out, "spinbit_claim1", "other", 1)
	if _, err := parsePerfStat(strings.NewReader(missing), tp); err == nil || !strings.Contains(err.Error(), "no count of spinbit_costs:spinbit_claim1") {
		t.Errorf("a probe missing: error %v", err)
	}
}

func TestUprobeEvents(t *testing.T) {
	file := t.TempDir() + "/uprobe_events"
	old := "p:spinbit_costs/go1_27_sleep0 /tmp/old/go1.27.test:0x1234\np:other/keep /bin/true:0x10\n"
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	us := []uprobe{{Name: "spinbit_sleep0", Binary: "/tmp/b/spinbit.test", Offset: 0x1ed52}}
	if err := addUprobes(file, us); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	// tracefs would carry out the removal; the file records what was asked.
	want := old + "-:spinbit_costs/go1_27_sleep0\np:spinbit_costs/spinbit_sleep0 /tmp/b/spinbit.test:0x1ed52\n"
	if string(got) != want {
		t.Errorf("uprobe_events after addUprobes:\n%s\nwant:\n%s", got, want)
	}
	if _, err := makeUprobes("spinbit", "/tmp/a b/spinbit.test", mutexProbes{}); err == nil || !strings.Contains(err.Error(), "white space") {
		t.Errorf("a path with a space: error %v", err)
	}
	if got := (uprobe{Name: "go1_24_sleep0"}).event(); got != "spinbit_costs:go1_24_sleep0" {
		t.Errorf("event %q", got)
	}
}
