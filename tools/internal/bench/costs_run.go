package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The defaults of -costs: every toolchain, the contended benchmarks whose
// ops are cheap, HTTP, and the GOMAXPROCS of a full run (fullCPUs), so
// that every row the targets judge has its counts beside it.
var (
	costsToolchains = "upstream,spinbit,nospinbit,go1.24,go1.27"
	costsBench      = "^Benchmark(ChanContended|Select|MutexParked|Handoff|Capture|HTTP)$"
	costsCPUs       = slices.Clone(fullCPUs)
	costsCount      = 5
)

// costsSubBenchmarks are the sub-benchmarks of the benchmarks -costs
// knows that have them. perf counts a whole process, so each
// sub-benchmark runs in processes of its own, as if it were a benchmark.
var costsSubBenchmarks = map[string][]string{
	"BenchmarkMutexHandoff": {"Solo", "FastPingPong", "SlowPingPong"},
}

// costsWork is the iteration count N of a benchmark's shorter run, and
// the longest time one op takes at any GOMAXPROCS with any toolchain in
// the published pool of the go1.27.3 series (2 CPUs), rounded up, which
// only the estimate uses; for the runtime's benchmarks, an estimate of an
// op's wall time with which the plan's estimate of a -costs -runtime run
// comes within seconds of its time on that machine (MutexHandoff's
// ping-pongs report a hand-off's latency as ns/op, a part of their op). N
// is chosen for about 200ms of ops in the shorter run at the typical time
// per op: the process's fixed part (start-up, the first run of one
// iteration, exit) is hundreds of futex calls and context switches, and a
// Select op can make far fewer than one of each, so N must be large for
// the per-op part to outweigh the fixed part. MinProcs is the smallest
// GOMAXPROCS at which the benchmark runs rather than skipping; 0 for any.
type costsWork struct {
	Iters    int
	PerOp    time.Duration
	MinProcs int
}

var costsWorks = map[string]costsWork{
	"BenchmarkAlternate":     {Iters: 600000, PerOp: 350 * time.Nanosecond},
	"BenchmarkCapture":       {Iters: 1000000, PerOp: 280 * time.Nanosecond},
	"BenchmarkChanContended": {Iters: 40000, PerOp: 12 * time.Microsecond},
	"BenchmarkCondBarrier":   {Iters: 20000, PerOp: 14 * time.Microsecond},
	"BenchmarkHTTP":          {Iters: 4000, PerOp: 85 * time.Microsecond},
	"BenchmarkHandoff":       {Iters: 500000, PerOp: 600 * time.Nanosecond},
	"BenchmarkLargeAlloc":    {Iters: 5000, PerOp: 50 * time.Microsecond},
	"BenchmarkManyM256":      {Iters: 10000, PerOp: 30 * time.Microsecond},
	"BenchmarkManyM64":       {Iters: 10000, PerOp: 16 * time.Microsecond},
	"BenchmarkManyM8":        {Iters: 10000, PerOp: 26 * time.Microsecond},
	"BenchmarkMutexParked":   {Iters: 1000000, PerOp: 320 * time.Nanosecond},
	"BenchmarkSelect":        {Iters: 400000, PerOp: time.Microsecond},
	"BenchmarkSpawnStorm":    {Iters: 500000, PerOp: 550 * time.Nanosecond},
	"BenchmarkStopTheWorld":  {Iters: 40, PerOp: 24 * time.Millisecond},
	"BenchmarkTimers":        {Iters: 40000, PerOp: 8 * time.Microsecond},
	"BenchmarkWakeIdle":      {Iters: 30000, PerOp: 14 * time.Microsecond},

	// The runtime's own (-runtime).
	"BenchmarkMutexCapture":              {Iters: 8000000, PerOp: 30 * time.Nanosecond},
	"BenchmarkMutexContention":           {Iters: 8000000, PerOp: 25 * time.Nanosecond},
	"BenchmarkMutexHandoff/Solo":         {Iters: 10000000, PerOp: 20 * time.Nanosecond},
	"BenchmarkMutexHandoff/FastPingPong": {Iters: 150000, PerOp: 1500 * time.Nanosecond, MinProcs: 2},
	"BenchmarkMutexHandoff/SlowPingPong": {Iters: 8000, PerOp: 25 * time.Microsecond, MinProcs: 2},
}

// costsNames are the benchmarks of names as -costs runs them: a benchmark
// with sub-benchmarks is replaced by them, named Benchmark.../Sub.
func costsNames(names []string) []string {
	var out []string
	for _, n := range names {
		subs, ok := costsSubBenchmarks[n]
		if !ok {
			out = append(out, n)
			continue
		}
		for _, sub := range subs {
			out = append(out, n+"/"+sub)
		}
	}
	return out
}

// costsSlots are the slots of a -costs run of the benchmarks names: each
// of costsNames at each GOMAXPROCS of cpus at which it runs. It is an
// error if none is left.
func costsSlots(names []string, cpus []int) ([]slot, error) {
	var ss []slot
	for _, n := range costsNames(names) {
		for _, c := range cpus {
			if c >= costsWorks[n].MinProcs {
				ss = append(ss, slot{n, c})
			}
		}
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("-cpu %s: none of the benchmarks runs at so few Ps (%s); give a larger -cpu", joinInts(cpus), strings.Join(costsNames(names), ", "))
	}
	return ss, nil
}

// slotBenchmarks are the benchmarks of the slots ss, in their order, each
// once.
func slotBenchmarks(ss []slot) []string {
	var names []string
	for _, s := range ss {
		if len(names) == 0 || names[len(names)-1] != s.Bench {
			names = append(names, s.Bench)
		}
	}
	return names
}

// costsRunArgs are the test binary's flags for one slot of a -costs run:
// runArgs', with a -test.bench pattern that anchors each part of a
// sub-benchmark's name, as go test matches each level of it apart, so
// that no other benchmark or sub-benchmark runs in the process perf
// counts. Only -costs gives a slot a sub-benchmark: a timed run's slots
// are top-level benchmarks, whose sub-benchmarks all run.
func costsRunArgs(o Options, s slot) []string {
	args := runArgs(o, s)
	parts := strings.Split(s.Bench, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	for i, a := range args {
		if strings.HasPrefix(a, "-test.bench=") {
			args[i] = "-test.bench=" + strings.Join(parts, "/")
		}
	}
	return args
}

// perfRunOverhead is what one run under perf stat adds to its ops: perf's
// and the test binary's start and exit, the first run of one iteration.
// The runtime's test binary, many times bench/'s, takes about twice as
// long on the 2-CPU machine.
func perfRunOverhead(o Options) time.Duration {
	if o.Runtime {
		return 200 * time.Millisecond
	}
	return 100 * time.Millisecond
}

// costsIters is the iteration count N of benchmark name's shorter run: the
// one -benchtime Nx gives, or the benchmark's default.
func costsIters(o Options, name string) (int, error) {
	if o.Benchtime != "" {
		_, n, err := parseBenchtime(o.Benchtime)
		if err != nil || n == 0 {
			return 0, fmt.Errorf("-benchtime %q: -costs needs an iteration count such as 100000x", o.Benchtime)
		}
		return n, nil
	}
	w, ok := costsWorks[name]
	if !ok {
		return 0, fmt.Errorf("-costs has no default iteration count for %s: give one with -benchtime Nx (about 200ms of its ops), or add it to costsWorks in tools/internal/bench/costs_run.go", name)
	}
	return w.Iters, nil
}

// costsFlags refuses the flags that -costs cannot honour.
func costsFlags(o *Options, set map[string]bool) error {
	for _, other := range []string{"quick", "instructions", "check"} {
		if set[other] {
			return fmt.Errorf("-costs and -%s cannot be combined: -costs counts syscalls and context switches per op in fixed iteration counts, and stops at the first run that fails; leave out -%s", other, other)
		}
	}
	if o.Benchtime != "" {
		if _, n, err := parseBenchtime(o.Benchtime); err == nil && n == 0 {
			return fmt.Errorf("-benchtime %q: -costs runs fixed iteration counts, N and 2N, to take the process's start-up out; give a count such as 100000x, or leave -benchtime out for each benchmark's default", o.Benchtime)
		}
	}
	return nil
}

// checkPerf fails, naming the fix, unless perf can count costsEvents and
// this user may define uprobes.
func checkPerf(ctx context.Context) error {
	if _, err := exec.LookPath("perf"); err != nil {
		return errors.New("-costs needs perf on PATH, which is missing: install it (Debian: apt-get install linux-perf; Ubuntu: apt-get install linux-tools-generic)")
	}
	dir, err := os.MkdirTemp("", "spinbit-perf-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "probe.csv")
	cmd := exec.CommandContext(ctx, "perf", append(append([]string{"stat", "-x,", "-o", out}, costsEventArgs()...), "--", "true")...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("perf stat cannot count %s (%v): %s\nperf said:\n%s", costsEventCommand(), err, perfFix(stderr.String()), strings.TrimSpace(stderr.String()))
	}
	f, err := os.Open(out)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := parsePerfStat(f, toolchainProbes{}, false); err != nil {
		return fmt.Errorf("perf stat probe: %v", err)
	}
	// The uprobes: tracefs must have them, and this user may define them.
	_, err = uprobeEventsFile()
	return err
}

// costsPlan describes the runs a -costs run makes and their estimated
// time: 4 runs per toolchain, slot and repetition, of N and 2N
// iterations, without uprobes and with them.
func costsPlan(o Options, names []string) (string, error) {
	ss, err := costsSlots(names, o.CPUs)
	if err != nil {
		return "", err
	}
	runs := 4 * len(o.Toolchains) * len(ss) * o.Count
	var est time.Duration
	for _, s := range ss {
		it, err := costsIters(o, s.Bench)
		if err != nil {
			return "", err
		}
		perOp := costsWorks[s.Bench].PerOp
		if perOp == 0 {
			perOp = time.Microsecond
		}
		pair := 2 * (time.Duration(3*it)*perOp + 2*perfRunOverhead(o))
		est += time.Duration(len(o.Toolchains)*o.Count) * pair
	}
	var iters []string
	for _, n := range slotBenchmarks(ss) {
		it, err := costsIters(o, n)
		if err != nil {
			return "", err
		}
		iters = append(iters, fmt.Sprintf("%s %d", strings.TrimPrefix(n, "Benchmark"), it))
	}
	return fmt.Sprintf("plan: %d runs under perf stat (%d toolchains x %d pairs of benchmark and GOMAXPROCS x %d repetitions x 2 kinds, without and with uprobes, x 2: N and 2N iterations; N: %s)\n"+
		"estimate: about %v of benchmarking, building aside, from each benchmark's longest time per op on the 2-CPU machine (costsWorks) plus %v per run",
		runs, len(o.Toolchains), len(ss), o.Count, strings.Join(iters, ", "), est.Round(time.Second), perfRunOverhead(o)), nil
}

// runCosts runs every slot's two pairs of runs under perf stat,
// interleaved, one pair without uprobes and one with the uprobes of
// probes, and writes costs.csv, costs.md and each toolchain's raw go test
// output (both pairs') into outDir.
func runCosts(ctx context.Context, outDir string, tcs []*prepared, probes *definedUprobes, o Options, names []string, prov Provenance, start time.Time, stdout io.Writer) error {
	ss, err := costsSlots(names, o.CPUs)
	if err != nil {
		return err
	}
	iters := map[string]int{}
	for _, n := range slotBenchmarks(ss) {
		it, err := costsIters(o, n)
		if err != nil {
			return err
		}
		iters[n] = it
	}
	for _, p := range tcs {
		p.Raw = filepath.Join(outDir, p.Name+".txt")
		if err := os.WriteFile(p.Raw, nil, 0o666); err != nil {
			return err
		}
	}

	csvPath := filepath.Join(outDir, "costs.csv")
	csvFile, err := os.Create(csvPath)
	if err != nil {
		return err
	}
	defer csvFile.Close()
	fmt.Fprintln(csvFile, costsCSVHeader)

	var samples []costsSample
	for rep := 0; rep < o.Count; rep++ {
		repStart := time.Now()
		for _, t := range schedule(rep, len(tcs), ss) {
			p := tcs[t.Toolchain]
			n := iters[t.Slot.Bench]
			order := []int{n, 2 * n}
			if rep%2 == 1 {
				order = []int{2 * n, n} // which of the pair goes first alternates
			}
			var kinds [2]costsSample // without uprobes, and with them
			for k, probed := range []bool{false, true} {
				var pair [2]costsRun
				for i, it := range order {
					r, err := perfRun(ctx, p, probes.of[p.Name], o, t.Slot, it, probed)
					if err != nil {
						return fmt.Errorf("repetition %d of %d: %w", rep+1, o.Count, err)
					}
					r.Rep = rep
					pair[i] = r
					fmt.Fprintln(csvFile, r.csv())
				}
				if kinds[k], err = pairSample(pair[0], pair[1]); err != nil {
					return err
				}
			}
			samples = append(samples, joinSamples(kinds[0], kinds[1]))
		}
		fmt.Fprintf(stdout, "repetition %d/%d done in %v\n", rep+1, o.Count, time.Since(repStart).Round(10*time.Millisecond))
	}
	if err := csvFile.Close(); err != nil {
		return err
	}

	var tcNames []string
	for _, p := range tcs {
		tcNames = append(tcNames, p.Name)
	}
	h := costsHeader{
		Name: filepath.Base(outDir), Start: start, Elapsed: time.Since(start), Host: hostCPU(tcs),
		Commit: prov.Commit, Base: prov.Base, Problems: prov.Problems(), Count: o.Count, Toolchains: tcs, Iters: iters,
	}
	var b strings.Builder
	writeCostsTable(&b, h, ss, tcNames, summarizeCosts(samples))
	mdPath := filepath.Join(outDir, "costs.md")
	if err := os.WriteFile(mdPath, []byte(b.String()), 0o666); err != nil {
		return err
	}
	if err := writeCostsRecord(outDir, newCostsRecord(filepath.Base(outDir), start, prov, tcNames, o)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\nwrote %s and %s\n", b.String(), mdPath, csvPath)
	return nil
}

// definedUprobes are the uprobes of a -costs run, by toolchain.
type definedUprobes struct {
	file, group string
	of          map[string]toolchainProbes
}

// defineUprobes finds each toolchain's probes in its test binary and
// defines them in a group of this process, after removing the groups of
// -costs runs that have ended without removing theirs.
func defineUprobes(ctx context.Context, tcs []*prepared) (*definedUprobes, error) {
	file, err := uprobeEventsFile()
	if err != nil {
		return nil, err
	}
	d := &definedUprobes{file: file, group: costsGroupPrefix + strconv.Itoa(os.Getpid()), of: map[string]toolchainProbes{}}
	var all []uprobe
	for _, p := range tcs {
		mp, err := probeBinary(ctx, p, runtime.GOARCH)
		if err != nil {
			return nil, err
		}
		tp, err := makeUprobes(d.group, p.Name, p.Binary, mp)
		if err != nil {
			return nil, err
		}
		d.of[p.Name] = tp
		all = append(all, tp.Sleeps...)
		all = append(all, tp.Claims...)
	}
	if err := removeUprobes(file, processEnded); err != nil {
		return nil, err
	}
	if err := addUprobes(file, all); err != nil {
		d.remove()
		return nil, err
	}
	return d, nil
}

// remove removes the run's uprobes, saying so if it cannot: they would
// stay defined until a later -costs run or a reboot.
func (d *definedUprobes) remove() {
	own := func(pid int) bool { return costsGroupPrefix+strconv.Itoa(pid) == d.group }
	if err := removeUprobes(d.file, own); err != nil {
		fmt.Fprintf(os.Stderr, "warning: the uprobes of group %s stay in %s: %v\n", d.group, d.file, err)
	}
}

// perfRun runs a toolchain's test binary for one slot with iters
// iterations under perf stat, counting costsEvents, or with probed the
// toolchain's uprobes tp alone, appends its output to the toolchain's raw
// file, and returns the counts and the benchmark's own figures.
func perfRun(ctx context.Context, p *prepared, tp toolchainProbes, o Options, s slot, iters int, probed bool) (costsRun, error) {
	r := costsRun{Toolchain: p.Name, Slot: s, Iters: iters, Probed: probed}
	raw, err := os.OpenFile(p.Raw, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return r, err
	}
	defer raw.Close()
	perfOut, err := os.CreateTemp("", "spinbit-perf-*.csv")
	if err != nil {
		return r, err
	}
	perfOut.Close()
	defer os.Remove(perfOut.Name())

	ro := o
	ro.Benchtime = strconv.Itoa(iters) + "x"
	args := append([]string{"stat", "-x,", "-o", perfOut.Name()}, runEventArgs(tp, probed)...)
	args = append(append(args, "--", p.Binary), costsRunArgs(ro, s)...)
	cmd := exec.CommandContext(ctx, "perf", args...)
	cmd.Dir = p.PkgDir
	cmd.Env = runEnv(os.Environ())
	var out bytes.Buffer
	var tail tailBuffer
	cmd.Stdout = io.MultiWriter(raw, &out, &tail)
	cmd.Stderr = io.MultiWriter(raw, &tail)
	if err := cmd.Run(); err != nil {
		return r, fmt.Errorf("toolchain %s: %s at GOMAXPROCS %d with %d iterations under perf stat failed (%v); last output:\n%s\nfull output in %s", p.Name, s.Bench, s.CPU, iters, err, tail.String(), p.Raw)
	}
	f, err := os.Open(perfOut.Name())
	if err != nil {
		return r, err
	}
	defer f.Close()
	if r.Counts, err = parsePerfStat(f, tp, probed); err != nil {
		return r, fmt.Errorf("toolchain %s: %s at GOMAXPROCS %d: %v", p.Name, s.Bench, s.CPU, err)
	}
	results, err := ParseOutput(&out)
	if err != nil {
		return r, fmt.Errorf("toolchain %s: %s at GOMAXPROCS %d: %v", p.Name, s.Bench, s.CPU, err)
	}
	res, err := costsResult(results, s, iters, !o.Runtime)
	if err != nil {
		return r, fmt.Errorf("toolchain %s: %v; output in %s", p.Name, err, p.Raw)
	}
	r.Vcsw, r.Ivcsw, r.NsPerOp = math.NaN(), math.NaN(), res.Values["ns/op"]
	if v, ok := res.Values["vcsw/op"]; ok {
		r.Vcsw, r.Ivcsw = v, res.Values["ivcsw/op"]
	}
	return r, nil
}
