package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// -instructions counts, with valgrind's callgrind, the instructions each
// toolchain's test binary executes, instead of timing it. At GOMAXPROCS 1 a
// count does not depend on what else the machine does, and changes little
// from one run to the next (the garbage collector and the random choices of
// select and the scheduler still vary), so it can show differences in the
// uncontended paths that timing on a shared machine cannot.
//
// Each benchmark runs twice, for N and for 3N iterations (-benchtime Nx).
// The difference of the two totals, over 2N, is the instructions per
// operation with the process's start and the benchmark's warm-up taken
// out. From the longer run it also reports the instructions per call of
// runtime.lock2 and runtime.unlock2, inlined code included.

// instrCPU is the only GOMAXPROCS -instructions accepts: with more Ps, the
// threads' interleaving under valgrind decides how often locks are
// contended, and the counts would measure that interleaving.
const instrCPU = 1

var (
	instrToolchains = "upstream,spinbit,go1.24,go1.27"
	instrBench      = "^Benchmark(ChanContended|Select|MutexParked)$"
	instrBenchtime  = "20000x"
)

// instrCount is what one toolchain's binary executed in one benchmark.
type instrCount struct {
	Toolchain, Benchmark string
	PerOp                float64
	Lock, Unlock         callCost // from the run of 3N iterations
}

// callCost is the instructions one function executed, inlined code
// included, and the calls made to it.
type callCost struct {
	Instructions, Calls int64
}

func (c callCost) perCall() float64 {
	if c.Calls == 0 {
		return 0
	}
	return float64(c.Instructions) / float64(c.Calls)
}

// checkValgrind fails, naming the fix, if valgrind or callgrind_annotate
// is missing.
func checkValgrind() error {
	for _, tool := range []string{"valgrind", "callgrind_annotate"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("-instructions needs %s on PATH, which is missing: install valgrind (Debian: apt-get install valgrind)", tool)
		}
	}
	return nil
}

// runInstructions runs every benchmark of names under callgrind with every
// toolchain, writes instructions.txt to outDir and prints it.
func runInstructions(ctx context.Context, outDir string, tcs []*prepared, o Options, names []string, prov Provenance, start time.Time, stdout io.Writer) error {
	n := mustIterations(o.Benchtime)
	var counts []instrCount
	for _, name := range names {
		for _, p := range tcs {
			c := instrCount{Toolchain: p.Name, Benchmark: name}
			var totals [2]int64
			for i, iters := range []int{n, 3 * n} {
				out := filepath.Join(outDir, fmt.Sprintf("callgrind.%s.%s.%d", p.Name, name, iters))
				total, err := callgrindRun(ctx, p, o, name, iters, out)
				if err != nil {
					return err
				}
				totals[i] = total
				if i == 1 {
					if c.Lock, c.Unlock, err = lockCosts(ctx, out); err != nil {
						return err
					}
				}
			}
			c.PerOp = float64(totals[1]-totals[0]) / float64(2*n)
			fmt.Fprintf(stdout, "%-9s %-14s %.1f instructions/op\n", p.Name, strings.TrimPrefix(name, "Benchmark"), c.PerOp)
			counts = append(counts, c)
		}
	}
	path := filepath.Join(outDir, "instructions.txt")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	writeInstructions(io.MultiWriter(f, stdout), counts, n)
	if err := f.Close(); err != nil {
		return err
	}
	host, err := goHostCPU(ctx, tcs[0], o, names[0])
	if err != nil {
		return err
	}
	rec := instrRecord{Provenance: prov, Name: filepath.Base(outDir), Start: start.UTC(), Host: host,
		Bench: o.Bench, Benchtime: o.Benchtime, Counts: counts}
	for _, p := range tcs {
		rec.Toolchains = append(rec.Toolchains, instrToolchain{Name: p.Name, Version: p.Version})
	}
	if err := writeInstrRecord(outDir, rec); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return nil
}

// mustIterations returns the iteration count of a -benchtime that
// ParseFlags has accepted for -instructions, which must be Nx.
func mustIterations(benchtime string) int {
	_, n, err := parseBenchtime(benchtime)
	if err != nil || n == 0 {
		panic("bench: -instructions with -benchtime " + benchtime + ", which ParseFlags refuses")
	}
	return n
}

// callgrindRun runs benchmark name for iters iterations under callgrind,
// writing its profile to out, and returns the instructions it counted.
func callgrindRun(ctx context.Context, p *prepared, o Options, name string, iters int, out string) (int64, error) {
	args := []string{
		"--tool=callgrind", "--callgrind-out-file=" + out,
		p.Binary,
		"-test.run=^$",
		"-test.bench=^" + regexp.QuoteMeta(name) + "$",
		"-test.benchtime=" + strconv.Itoa(iters) + "x",
		"-test.cpu=" + strconv.Itoa(instrCPU),
		"-test.count=1",
		"-test.timeout=" + o.Timeout.String(),
	}
	cmd := exec.CommandContext(ctx, "valgrind", args...)
	cmd.Dir = p.PkgDir
	// callgrind fails an assertion on the signals of asynchronous
	// preemption (valgrind 3.19); a benchmark at GOMAXPROCS 1 needs none.
	// And valgrind's CPUID reports RDTSCP even on a host without it, whose
	// instruction it then cannot translate: Go's cputicks reads the clock
	// with RDTSCP when CPUID says so, and a contended lock2 that times its
	// wait dies of SIGILL. cpu.rdtscp=off, which every Go here knows, makes
	// it use RDTSC.
	cmd.Env = append(runEnv(os.Environ()), "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off")
	var tail tailBuffer
	cmd.Stdout, cmd.Stderr = &tail, &tail
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("toolchain %s: %s under callgrind failed (%v); last output:\n%s", p.Name, name, err, tail.String())
	}
	f, err := os.Open(out)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return callgrindTotal(f)
}

// goHostCPU names the machine's processor as the timed runs and -costs
// do, by the cpu: line of a Go benchmark's output, with its logical CPUs:
// it runs benchmark name of p's binary once, natively (under valgrind the
// processor is valgrind's). The kernel's name for it (/proc/cpuinfo) may
// differ on a virtual machine, and runs pool only by the name Go gives.
func goHostCPU(ctx context.Context, p *prepared, o Options, name string) (string, error) {
	cmd := exec.CommandContext(ctx, p.Binary, "-test.run=^$", "-test.bench=^"+regexp.QuoteMeta(name)+"$", "-test.benchtime=1x", "-test.cpu="+strconv.Itoa(instrCPU), "-test.count=1", "-test.timeout="+o.Timeout.String())
	cmd.Dir = p.PkgDir
	cmd.Env = runEnv(os.Environ())
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("toolchain %s: one iteration of %s, run to read the processor's name, failed (%v); output:\n%s", p.Name, name, err, out)
	}
	cpu := cpuLine(string(out))
	if cpu == "" {
		return "", fmt.Errorf("toolchain %s: one iteration of %s printed no cpu: line, so the processor has no name to record; output:\n%s", p.Name, name, out)
	}
	return hostLabel(cpu), nil
}

// callgrindTotal reads the instruction total from a callgrind profile: its
// "summary:" line, or "totals:" where there is no summary.
func callgrindTotal(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var totals string
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "summary:"); ok {
			return parseFirstInt(v)
		}
		if v, ok := strings.CutPrefix(line, "totals:"); ok {
			totals = v
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if totals == "" {
		return 0, errors.New("callgrind profile has no summary: or totals: line")
	}
	return parseFirstInt(totals)
}

func parseFirstInt(s string) (int64, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, fmt.Errorf("callgrind profile: empty count")
	}
	return strconv.ParseInt(f[0], 10, 64)
}

// lockCosts runs callgrind_annotate on a profile and returns the costs of
// runtime.lock2 and runtime.unlock2.
func lockCosts(ctx context.Context, profile string) (lock, unlock callCost, err error) {
	out, err := exec.CommandContext(ctx, "callgrind_annotate", "--tree=caller", profile).Output()
	if err != nil {
		return lock, unlock, fmt.Errorf("callgrind_annotate %s: %v", profile, err)
	}
	lock = functionCost(string(out), "runtime.lock2")
	unlock = functionCost(string(out), "runtime.unlock2")
	if lock.Calls == 0 || unlock.Calls == 0 {
		return lock, unlock, fmt.Errorf("callgrind_annotate %s: found no calls of runtime.lock2 or runtime.unlock2", profile)
	}
	return lock, unlock, nil
}

var (
	annotateCount = regexp.MustCompile(`^\s*([\d,]+)\s`)
	annotateCalls = regexp.MustCompile(`\(([\d,]+)x\)`)
)

// functionCost sums, from the output of callgrind_annotate --tree=caller,
// the instructions of fn and the calls to it. callgrind_annotate lists a
// function once per recursion level (fn'2) and once per source file its
// instructions come from: code inlined from another file is an entry of its
// own under the same function name. Each entry is a block: its callers,
// each with "<" and a call count, then the entry itself, marked "*". The
// entries of inlined files have no callers, so adding up the callers' counts
// counts each call once.
func functionCost(annotated, fn string) callCost {
	var c callCost
	var callers []string
	for _, line := range strings.Split(annotated, "\n") {
		switch {
		case strings.Contains(line, " < "):
			callers = append(callers, line)
		case strings.Contains(line, " *  "):
			entry := line[strings.Index(line, " *  ")+4:]
			if _, name, ok := annotateEntry(entry); ok && name == fn {
				c.Instructions += annotateInt(line)
				for _, cl := range callers {
					if m := annotateCalls.FindStringSubmatch(cl); m != nil {
						c.Calls += parseCommaInt(m[1])
					}
				}
			}
			callers = nil
		case strings.TrimSpace(line) == "":
			callers = nil
		}
	}
	return c
}

// annotateEntry splits "path/file.go:pkg.fn'2 [binary]" into the file and
// the function name without its recursion suffix.
func annotateEntry(entry string) (file, name string, ok bool) {
	entry, _, _ = strings.Cut(entry, " [")
	file, name, ok = strings.Cut(strings.TrimSpace(entry), ":")
	if !ok {
		return "", "", false
	}
	if i := strings.IndexByte(name, '\''); i >= 0 {
		name = name[:i]
	}
	return file, name, true
}

func annotateInt(line string) int64 {
	m := annotateCount.FindStringSubmatch(line)
	if m == nil {
		return 0
	}
	return parseCommaInt(m[1])
}

func parseCommaInt(s string) int64 {
	n, _ := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	return n
}

// writeInstructions prints the counts as a table, each benchmark's first
// toolchain the base that the others are compared with.
func writeInstructions(w io.Writer, counts []instrCount, n int) {
	fmt.Fprintf(w, "Instructions executed at GOMAXPROCS %d (callgrind; per op: the runs of %d and %d iterations differenced)\n\n", instrCPU, n, 3*n)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "benchmark\ttoolchain\tinstr/op\tvs base\tlock2/call\tunlock2/call\t\n")
	var base instrCount
	for _, c := range counts {
		vs := "base"
		if c.Benchmark != base.Benchmark {
			base = c
		} else {
			vs = fmt.Sprintf("%+.2f%%", 100*(c.PerOp-base.PerOp)/base.PerOp)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%s\t%.2f\t%.2f\t\n", strings.TrimPrefix(c.Benchmark, "Benchmark"), c.Toolchain, c.PerOp, vs, c.Lock.perCall(), c.Unlock.perCall())
	}
	tw.Flush()
}
