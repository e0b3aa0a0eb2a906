package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSchedule(t *testing.T) {
	ss := slots([]string{"BenchmarkA", "BenchmarkB"}, []int{1, 4})
	if want := []slot{{"BenchmarkA", 1}, {"BenchmarkA", 4}, {"BenchmarkB", 1}, {"BenchmarkB", 4}}; fmt.Sprint(ss) != fmt.Sprint(want) {
		t.Fatalf("slots = %v, want %v", ss, want)
	}
	const ntc, count = 3, 3
	firsts := map[int]int{}
	for rep := 0; rep < count; rep++ {
		ts := schedule(rep, ntc, ss)
		if len(ts) != len(ss)*ntc {
			t.Fatalf("repetition %d has %d turns, want %d", rep, len(ts), len(ss)*ntc)
		}
		for i, s := range ss {
			// Every toolchain runs the slot, one right after another.
			group := ts[i*ntc : (i+1)*ntc]
			seen := map[int]bool{}
			for _, tu := range group {
				if tu.Slot != s || tu.Rep != rep {
					t.Fatalf("repetition %d, slot %v: turn %+v is out of place in %+v", rep, s, tu, ts)
				}
				seen[tu.Toolchain] = true
			}
			if len(seen) != ntc {
				t.Errorf("repetition %d, slot %v: toolchains %v, want each of %d once", rep, s, group, ntc)
			}
			firsts[group[0].Toolchain]++
			// The toolchain that goes first changes from slot to slot
			// and from repetition to repetition.
			if i > 0 && ts[(i-1)*ntc].Toolchain == group[0].Toolchain {
				t.Errorf("repetition %d: slots %d and %d both start with toolchain %d", rep, i-1, i, group[0].Toolchain)
			}
			if rep > 0 && schedule(rep-1, ntc, ss)[i*ntc].Toolchain == group[0].Toolchain {
				t.Errorf("slot %v starts with toolchain %d in repetitions %d and %d", s, group[0].Toolchain, rep-1, rep)
			}
		}
	}
	// 3 repetitions x 4 slots = 12 firsts, 4 for each toolchain.
	for k := 0; k < ntc; k++ {
		if firsts[k] != count*len(ss)/ntc {
			t.Errorf("toolchain %d goes first %d times of %d, want %d", k, firsts[k], count*len(ss), count*len(ss)/ntc)
		}
	}
}

// fakeTestBinary writes a shell script that stands in for a test binary:
// it logs its name and flags to log, and prints one benchmark result for
// the -test.bench and -test.cpu it was given, or fails if fail is set.
func fakeTestBinary(t *testing.T, dir, name, log string, fail bool) string {
	t.Helper()
	exit := ""
	if fail {
		exit = "echo boom; exit 1"
	}
	script := `#!/bin/sh
echo "` + name + ` $*" >> ` + log + `
` + exit + `
for a in "$@"; do
	case "$a" in
	-test.bench=*) b=${a#-test.bench=^}; b=${b%$};;
	-test.cpu=*) c=${a#-test.cpu=};;
	esac
done
echo "goos: linux"
echo "$b-$c 	 100	 1000 ns/op"
echo PASS
`
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(script), 0o777); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunAllRunsOneSlotPerBinaryRun(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	var tcs []*prepared
	for _, n := range []string{"one", "two"} {
		tcs = append(tcs, &prepared{Toolchain: Toolchain{Name: n}, Binary: fakeTestBinary(t, dir, n, log, false), PkgDir: dir})
	}
	o := Options{Count: 2, CPUs: []int{1, 4}, Benchtime: "10x", Timeout: time.Minute}
	var out bytes.Buffer
	results, err := runAll(context.Background(), dir, tcs, o, []string{"BenchmarkA", "BenchmarkB"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"one", "two"} {
		count := map[string]int{}
		for _, r := range results[n] {
			count[fmt.Sprintf("%s-%d", r.Name, r.Procs)]++
		}
		want := map[string]int{"A-1": 2, "A-4": 2, "B-1": 2, "B-4": 2}
		if fmt.Sprint(count) != fmt.Sprint(want) {
			t.Errorf("toolchain %s: results %v, want %v", n, count, want)
		}
	}
	data, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 16 {
		t.Fatalf("%d binary runs, want 2 repetitions x 4 slots x 2 toolchains = 16:\n%s", len(lines), data)
	}
	// Both toolchains run a slot before either goes on to the next one.
	for i := 0; i < len(lines); i += 2 {
		a, b := strings.Fields(lines[i]), strings.Fields(lines[i+1])
		if a[0] == b[0] || strings.Join(a[1:], " ") != strings.Join(b[1:], " ") {
			t.Errorf("runs %d and %d are not both toolchains on one slot:\n%s\n%s", i, i+1, lines[i], lines[i+1])
		}
		if !strings.Contains(lines[i], "-test.bench=^Benchmark") || !strings.Contains(lines[i], "$ ") {
			t.Errorf("run %d does not name one benchmark, anchored: %s", i, lines[i])
		}
	}
	if got := strings.Count(out.String(), "repetition "); got != 2 {
		t.Errorf("progress has %d repetition lines, want 2:\n%s", got, out.String())
	}

	tcs[1].Binary = fakeTestBinary(t, dir, "broken", log, true)
	_, err = runAll(context.Background(), dir, tcs, o, []string{"BenchmarkA"}, &out)
	for _, want := range []string{"toolchain two", "BenchmarkA at GOMAXPROCS 1", "boom"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("failing binary: error = %v, want one containing %q", err, want)
		}
	}
}
