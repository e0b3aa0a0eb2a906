package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A slot is one benchmark at one GOMAXPROCS value: what one run of a test
// binary measures.
type slot struct {
	Bench string // the benchmark function's name, Benchmark prefix included
	CPU   int
}

// slots lists the slots of one repetition: each benchmark at each
// GOMAXPROCS value, in the order given.
func slots(names []string, cpus []int) []slot {
	var ss []slot
	for _, n := range names {
		for _, c := range cpus {
			ss = append(ss, slot{n, c})
		}
	}
	return ss
}

// A turn is one run of one toolchain's test binary for one slot.
type turn struct {
	Rep       int // repetition, from 0
	Toolchain int // index into the toolchains
	Slot      slot
}

// schedule orders the turns of repetition rep. It goes through the slots,
// and each slot runs every toolchain, one right after another, so that the
// samples of one benchmark at one GOMAXPROCS are taken seconds apart, not a
// whole suite apart. On the development machine (a 2-CPU KVM guest) the
// speed of the same binary shifts between two levels, about 1.7 times
// apart, for stretches of seconds to tens of seconds (bench/README.md); a
// toolchain whose run of a slot came a suite apart from the others' could
// land in the slow stretch alone. The toolchain that goes first rotates
// from slot to slot and from repetition to repetition, to spread any
// first-or-last effect too.
func schedule(rep, ntoolchains int, ss []slot) []turn {
	var ts []turn
	for i, s := range ss {
		for k := 0; k < ntoolchains; k++ {
			ts = append(ts, turn{Rep: rep, Toolchain: (rep + i + k) % ntoolchains, Slot: s})
		}
	}
	return ts
}

// runAll runs the test binaries in the order of schedule, appending each
// run's output to its toolchain's raw file, and returns each toolchain's
// parsed results.
func runAll(ctx context.Context, outDir string, tcs []*prepared, o Options, names []string, stdout io.Writer) (map[string][]Result, error) {
	for _, p := range tcs {
		p.Raw = filepath.Join(outDir, p.Name+".txt")
		if err := os.WriteFile(p.Raw, nil, 0o666); err != nil {
			return nil, err
		}
	}
	ss := slots(names, o.CPUs)
	for rep := 0; rep < o.Count; rep++ {
		spent := make([]time.Duration, len(tcs))
		repStart := time.Now()
		for _, t := range schedule(rep, len(tcs), ss) {
			t0 := time.Now()
			if err := runOnce(ctx, tcs[t.Toolchain], o, t.Slot); err != nil {
				return nil, fmt.Errorf("repetition %d of %d: %w", rep+1, o.Count, err)
			}
			spent[t.Toolchain] += time.Since(t0)
		}
		fmt.Fprintf(stdout, "repetition %d/%d done in %v:", rep+1, o.Count, time.Since(repStart).Round(10*time.Millisecond))
		for k, p := range tcs {
			fmt.Fprintf(stdout, " %s %v", p.Name, spent[k].Round(10*time.Millisecond))
		}
		fmt.Fprintln(stdout)
	}
	results := map[string][]Result{}
	for _, p := range tcs {
		f, err := os.Open(p.Raw)
		if err != nil {
			return nil, err
		}
		rs, err := ParseOutput(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("parsing %s: %v", p.Raw, err)
		}
		results[p.Name] = rs
	}
	return results, nil
}

// runOnce runs a toolchain's test binary for one slot, appending to its
// raw output.
func runOnce(ctx context.Context, p *prepared, o Options, s slot) error {
	f, err := os.OpenFile(p.Raw, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	var tail tailBuffer
	w := io.MultiWriter(f, &tail)
	cmd := exec.CommandContext(ctx, p.Binary, runArgs(o, s)...)
	cmd.Dir = p.PkgDir
	cmd.Env = runEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("toolchain %s: %s at GOMAXPROCS %d failed (%v); last output:\n%s\nfull output in %s", p.Name, s.Bench, s.CPU, err, tail.String(), p.Raw)
	}
	return f.Close()
}

// runArgs are the test binary's flags for one slot. The -test.bench
// pattern names the one benchmark, anchored, so that it does not select
// others whose names it begins (Handoff and HandoffFoo); its
// sub-benchmarks, if any, all run.
func runArgs(o Options, s slot) []string {
	return []string{
		"-test.run=^$",
		"-test.bench=^" + regexp.QuoteMeta(s.Bench) + "$",
		"-test.benchtime=" + o.Benchtime,
		"-test.cpu=" + strconv.Itoa(s.CPU),
		"-test.count=1",
		"-test.benchmem",
		"-test.timeout=" + o.Timeout.String(),
	}
}

// tailBuffer keeps the last few KiB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	const keep = 4 << 10
	t.b = append(t.b, p...)
	if len(t.b) > keep {
		t.b = append([]byte(nil), t.b[len(t.b)-keep:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return strings.TrimSpace(string(t.b)) }
