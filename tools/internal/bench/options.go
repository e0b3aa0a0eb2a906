// Package bench runs the benchmarks in the repository's bench/ module under
// several Go toolchains, interleaved, and turns the raw output into
// benchstat comparisons, SVG plots and a summary. cmd/bench is its command
// line; ./bench.bash at the repository root is the way to start it.
package bench

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Toolchain is one of the Go toolchains a run can compare.
type Toolchain struct {
	Name       string // how tables, plots and files name it
	Release    string // released Go version to download; empty for the fork
	Experiment string // GOEXPERIMENT to build with, if any
	Desc       string
}

// Fork reports whether the toolchain is the go-spinbit fork, in
// goroot/<base> for the base of the run.
func (t Toolchain) Fork() bool { return t.Release == "" }

// Known lists the toolchains in the order they appear in tables and plots.
var Known = []Toolchain{
	{Name: "upstream", Release: "go1.23.12", Desc: "unpatched Go 1.23.12, the fork's first base"},
	{Name: "spinbit", Desc: "the fork (goroot/<base>/bin/go) with default settings"},
	{Name: "nospinbit", Experiment: "nospinbitmutex", Desc: "the fork built with GOEXPERIMENT=nospinbitmutex"},
	{Name: "go1.24", Release: "go1.24.13", Desc: "released Go 1.24.13, which has upstream's own spinbit mutex"},
	{Name: "go1.27", Release: "go1.27.4", Desc: "released Go 1.27.4, the current upstream release, where the spinbit mutex is the only one"},
}

func knownNames() string {
	var s []string
	for _, t := range Known {
		s = append(s, t.Name)
	}
	return strings.Join(s, ",")
}

// ParseToolchains turns a comma-separated list of toolchain names into
// toolchains, in the order given.
func ParseToolchains(list string) ([]Toolchain, error) {
	var out []Toolchain
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if seen[name] {
			return nil, fmt.Errorf("-toolchains: %q is listed twice; name each toolchain once", name)
		}
		seen[name] = true
		var found *Toolchain
		for i := range Known {
			if Known[i].Name == name {
				found = &Known[i]
			}
		}
		if found == nil {
			return nil, fmt.Errorf("-toolchains: unknown toolchain %q; choose from %s", name, knownNames())
		}
		out = append(out, *found)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-toolchains: no toolchain named; give a comma-separated list such as %s", knownNames())
	}
	return out, nil
}

// Options says what one run does.
type Options struct {
	Quick        bool
	Runtime      bool // the runtime's own mutex benchmarks instead of bench/'s
	Instructions bool // count instructions under callgrind instead of timing (instructions.go)
	Costs        bool // count futex and sched_yield calls and context switches per op under perf stat (costs.go)
	Check        bool
	DryRun       bool
	Toolchains   []Toolchain
	Bench        string        // -test.bench pattern, matched against top-level benchmark names
	CPUs         []int         // GOMAXPROCS values (-test.cpu)
	Count        int           // repetitions; each runs every toolchain once
	Benchtime    string        // -test.benchtime
	Out          string        // output folder; empty means bench/results/<timestamp>
	Root         string        // repository root; empty means search upwards from the working directory
	Base         string        // the fork's base; empty means the newest base with patches/
	Timeout      time.Duration // -test.timeout for one run of one test binary
	Publish      string        // if set, publish this finished run instead of running (see Publish)
	Keep         string        // if set, keep this finished run's raw output instead of running (see Keep)
	Confirm      string        // if set, check the published pool against this second pool instead of running (see Confirm)
	Pool         []string      // if set, pool these finished runs instead of running (see Pool)
	Results      bool          // write ResultsFile from the published pool instead of running
	Replot       string        // if set, draw this finished run's plots again from its tables instead of running (see Replot)
	Bundle       string        // if set, build benchmark bundles into this folder instead of running (see BuildBundles)
	GOARCHes     []string      // the bundles' architectures
	Report       string        // if set, report this run folder of a bundle instead of running (see ReportRun)

	// MakeFork, if set, makes sure the fork on base, in goroot/<base>, is
	// built, building it if need be. Run calls it only when it is about
	// to use the fork: never for -n, -publish or -pool, or a run without
	// the fork.
	MakeFork func(ctx context.Context, root, base string) error
}

// makeFork calls o.MakeFork if the run uses the fork.
func (o Options) makeFork(ctx context.Context, root string) error {
	if o.MakeFork == nil {
		return nil
	}
	for _, t := range o.Toolchains {
		if t.Fork() {
			return o.MakeFork(ctx, root, o.Base)
		}
	}
	return nil
}

// Defaults for the two modes. Full mode's benchtime was chosen with
// Estimate so that the default full run, five toolchains, stays under 40
// minutes on the 2-core development machine; see estimate.go.
var (
	quickCPUs      = []int{1, 4, 16}
	fullCPUs       = []int{1, 2, 4, 8, 16, 32}
	quickCount     = 1
	fullCount      = 10
	quickBenchtime = "100x"
	fullBenchtime  = "150ms"

	// -runtime: the same GOMAXPROCS as a full run (the targets of
	// bench/README.md are stated for 1-32); the runtime's benchmarks run
	// longer per iteration.
	runtimeCPUs       = []int{1, 2, 4, 8, 16, 32}
	runtimeBenchtime  = "200ms"
	runtimeToolchains = "spinbit,nospinbit,go1.24,go1.27"
)

const usageText = `usage: ./bench.bash [flags]

Builds the benchmarks in bench/ with each toolchain, runs them interleaved
and writes raw output, benchstat tables, SVG plots and summary.md to
bench/results/<timestamp>/. The fork is that of one base (-base, default
the newest with patches/: goroot/<base>/bin/go). ./bench.bash -publish
bench/results/latest then copies a full run's tables and plots to
bench/report/<base>/.

With -pool A,B,... it runs nothing: it joins finished runs of the same
code and settings into bench/results/pooled-<timestamp>/, each toolchain's
raw output theirs one after another, with tables, plots and a summary as
for one run whose medians are of every run's samples. A pool may be of
one run: that is how a single full run becomes the published reference.
-publish puts a pooled folder in bench/report/<base>/pooled/
(bench/report/<base>/runtime/pooled/ for -runtime runs). bench/results/
is not committed: -keep RUN copies a run's record and raw output to
bench/report/<base>/runs/<run>/, which is, and -pool joins kept runs
like any others. -confirm POOL checks each significant row of the
published pool against POOL, a second pool of the same code and settings
made on other days, and writes second-pool.md beside the published pool.

Toolchains: upstream (go1.23.12), spinbit (the fork in goroot/<base>/),
nospinbit (the fork with GOEXPERIMENT=nospinbitmutex), go1.24 (go1.24.13),
go1.27 (go1.27.4, the current upstream release).

With -runtime it runs instead the runtime package's own mutex benchmarks,
built by each toolchain from its own GOROOT: by default BenchmarkRuntimeMutex*,
which the series adds, so spinbit against nospinbit, and the releases are
left out, saying so; -bench '^BenchmarkMutex(Contention|Capture|Handoff)$'
selects upstream's, which go1.24, go1.27 and the fork have (go1.23.12 does
not). Its output folders are
bench/results/runtime-<timestamp>/, and -publish puts them in
bench/report/<base>/runtime/, or runtime-upstream/ for upstream's.

With -bundle DIR it runs nothing here: it builds, for each -goarch (default
amd64,arm64), DIR/spinbit-bench-<goarch>.tar.gz and its .sha256 file: the
test binaries of bench/ built by every toolchain, those of
the runtime's mutex benchmarks built by the fork (experiment on and off),
and run.sh, a POSIX sh script that runs them interleaved on any Linux
machine of that architecture and writes a run folder. -report FOLDER
turns such a run folder, from any machine, into the tables, plots and
summary of a run, written inside it; -publish FOLDER then puts it in
bench/report/<base>/<machine>/.

With -instructions it counts, under valgrind's callgrind, the instructions
each toolchain executes per operation at GOMAXPROCS 1 and per call of
runtime.lock2 and runtime.unlock2 (default toolchains
upstream,spinbit,go1.24,go1.27, benchmarks ChanContended, Select and
MutexParked, -benchtime 20000x: runs of N and 3N iterations), and writes
instructions.txt and instructions.json to
bench/results/instructions-<timestamp>/; -publish puts a run of the
defaults in bench/report/<base>/instructions/. Counts do not depend on other load
on the machine, so they show differences in the uncontended paths that
timing on a busy machine cannot. It needs valgrind.

With -costs it counts, with perf stat, the futex and sched_yield calls,
the context switches, the mutex's sleep calls and the fork's claims (with
uprobes) per op of each toolchain, beside the benchmarks' own
vcsw/op and ivcsw/op (the defaults are in -costs below): each benchmark
runs N and 2N iterations (each benchmark's own N, or -benchtime Nx for
all), and the difference of the counts over N is the count per op,
without the process's start-up. It writes costs.md (one table per metric,
a column per toolchain, medians of the repetitions) and costs.csv to
bench/results/costs-<timestamp>/. With -runtime as well it counts the
same of upstream's runtime.mutex benchmarks (MutexContention,
MutexCapture, MutexHandoff's three sub-benchmarks, each in processes of
its own) in every toolchain whose runtime has them, into
bench/results/costs-runtime-<timestamp>/. It needs perf, and root to
define the uprobes.

Flags:
`

// ParseFlags reads the command line. Mode defaults (quick or full) apply to
// every setting the command line leaves out.
func ParseFlags(args []string, stderr io.Writer) (Options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	var o Options
	fs.BoolVar(&o.Quick, "quick", false, "smoke run: benchtime "+quickBenchtime+", count 1, GOMAXPROCS "+joinInts(quickCPUs)+"; seconds per toolchain")
	fs.BoolVar(&o.Runtime, "runtime", false, "benchmark the runtime's own RuntimeMutex benchmarks (default toolchains "+runtimeToolchains+", GOMAXPROCS "+joinInts(runtimeCPUs)+", benchtime "+runtimeBenchtime+"); with -costs, count the costs of upstream's mutex benchmarks "+upstreamRuntimeBench+" (GOMAXPROCS and count as -costs')")
	fs.BoolVar(&o.Instructions, "instructions", false, "count instructions at GOMAXPROCS 1 under valgrind's callgrind instead of timing (default toolchains "+instrToolchains+", benchmarks "+instrBench+", benchtime "+instrBenchtime+")")
	fs.BoolVar(&o.Costs, "costs", false, "count futex and sched_yield calls, context switches, mutex sleep calls and claims per op under perf stat instead of timing (default toolchains "+costsToolchains+", benchmarks "+costsBench+", GOMAXPROCS "+joinInts(costsCPUs)+", count "+strconv.Itoa(costsCount)+", each benchmark's own iteration count)")
	fs.BoolVar(&o.Check, "check", false, "after the run, verify that every toolchain and benchmark has results at every GOMAXPROCS value and that tables and plots were written; exit non-zero naming what is missing")
	fs.BoolVar(&o.DryRun, "n", false, "print the plan and the time estimate, then stop")
	tcs := fs.String("toolchains", "", "comma-separated toolchains to compare (default "+knownNames()+", or "+runtimeToolchains+" with -runtime)")
	fs.StringVar(&o.Bench, "bench", "", "regexp selecting benchmarks by top-level name, as for go test -bench (default ., or "+runtimeBench+" with -runtime, "+costsBench+" with -costs, "+upstreamRuntimeBench+" with both)")
	cpus := fs.String("cpu", "", "comma-separated GOMAXPROCS values (default "+joinInts(fullCPUs)+", or "+joinInts(quickCPUs)+" with -quick, "+joinInts(costsCPUs)+" with -costs)")
	fs.IntVar(&o.Count, "count", 0, fmt.Sprintf("repetitions, each running every toolchain once (default %d, or %d with -quick, %d with -costs)", fullCount, quickCount, costsCount))
	fs.StringVar(&o.Benchtime, "benchtime", "", "run time per benchmark, a duration or Nx (default "+fullBenchtime+", or "+quickBenchtime+" with -quick; with -costs only Nx, N for every benchmark, default each benchmark's own)")
	fs.StringVar(&o.Out, "out", "", "output folder, relative to the repository root (default bench/results/<timestamp>)")
	fs.StringVar(&o.Root, "root", "", "repository root (default: found from the working directory)")
	fs.StringVar(&o.Base, "base", "", "the base whose fork runs, a release with a folder in bases/ (default: the newest base with patches/)")
	fs.DurationVar(&o.Timeout, "timeout", 0, "limit for one run of one test binary (default 3m with -quick, 15m otherwise)")
	fs.StringVar(&o.Publish, "publish", "", "run nothing: copy the tables and plots of the finished full run in this folder (relative to the repository root, such as bench/results/latest) to "+ReportDir+"/<base>/, which is committed")
	fs.StringVar(&o.Keep, "keep", "", "run nothing: copy the record and raw output of the finished full run in this folder (relative to the repository root, such as bench/results/latest) to "+ReportDir+"/<base>/runs/<run>/, which is committed, so that -pool can join it with runs made on other boots or days after bench/results/ is gone")
	fs.StringVar(&o.Confirm, "confirm", "", "run nothing: check every significant row of the pool published for the suite and base of the pool in this folder (relative to the repository root; a -pool of at least 3 runs of the same code and settings, made on days none of the published pool's runs were) against it, and write "+secondPoolFile+" beside the published pool (and "+ResultsFile+" again, marking the rows the second pool did not confirm)")
	fs.BoolVar(&o.Results, "results", false, "run nothing: write "+ResultsFile+", the significant differences and missed targets of the pool of -base published in "+ReportDir+"/<base>/pooled/ (-publish of a pool does it too)")
	fs.StringVar(&o.Replot, "replot", "", "run nothing: draw the plots of the finished or published run in this folder (relative to the repository root, such as "+ReportDir+"/go1.23.12/pooled) again from its benchstat tables, for a run whose raw output is gone; the whiskers then show benchstat's confidence intervals")
	fs.StringVar(&o.Bundle, "bundle", "", "run nothing: build a benchmark bundle per -goarch into this new folder (relative to the repository root): spinbit-bench-<goarch>.tar.gz, test binaries of every toolchain with a sh runner, to measure machines without this repository")
	goarchList := fs.String("goarch", "", "with -bundle: comma-separated architectures (default "+strings.Join(BundleGOARCHes, ",")+")")
	fs.StringVar(&o.Report, "report", "", "run nothing: turn the run folder of a bundle (what run.sh wrote, relative to the repository root) into tables, plots and a summary, in it")
	pool := fs.String("pool", "", "run nothing: join these finished runs of the same code and settings (one or more comma-separated folders, relative to the repository root) into one folder of tables and plots, with -out or in bench/results/pooled-<timestamp>")
	if err := fs.Parse(args); err != nil {
		return Options{}, err
	}
	if fs.NArg() > 0 {
		return Options{}, fmt.Errorf("unexpected argument %q: every setting is a flag (see -help)", fs.Arg(0))
	}
	if *goarchList != "" && o.Bundle == "" {
		return Options{}, errors.New("-goarch chooses the architectures of -bundle: give -bundle DIR too")
	}
	if o.Bundle != "" {
		if other := flagsSetBut(fs, "bundle", "goarch", "root", "base"); len(other) > 0 {
			return Options{}, fmt.Errorf("-bundle builds and runs nothing here, so %s would have no effect: leave it out (-goarch, -base and -root are allowed)", strings.Join(other, " "))
		}
		var err error
		if o.GOARCHes, err = parseGOARCHes(*goarchList); err != nil {
			return Options{}, err
		}
		return o, nil
	}
	if o.Report != "" {
		if other := flagsSetBut(fs, "report", "root"); len(other) > 0 {
			return Options{}, fmt.Errorf("-report runs nothing, so %s would have no effect: leave it out", strings.Join(other, " "))
		}
		return o, nil
	}
	if *pool != "" {
		if other := flagsSetBut(fs, "pool", "root", "out"); len(other) > 0 {
			return Options{}, fmt.Errorf("-pool runs nothing, so %s would have no effect: leave it out (-out and -root are allowed)", strings.Join(other, " "))
		}
		for _, d := range strings.Split(*pool, ",") {
			if d = strings.TrimSpace(d); d != "" {
				o.Pool = append(o.Pool, d)
			}
		}
		if len(o.Pool) == 0 {
			return Options{}, fmt.Errorf("-pool %q: name at least one run folder (several separated by commas)", *pool)
		}
		return o, nil
	}
	if o.Replot != "" {
		if other := flagsSetBut(fs, "replot", "root"); len(other) > 0 {
			return Options{}, fmt.Errorf("-replot runs nothing, so %s would have no effect: leave it out", strings.Join(other, " "))
		}
		return o, nil
	}
	if o.Results {
		if other := flagsSetBut(fs, "results", "root", "base"); len(other) > 0 {
			return Options{}, fmt.Errorf("-results runs nothing, so %s would have no effect: leave it out", strings.Join(other, " "))
		}
		return o, nil
	}
	if o.Confirm != "" {
		if other := flagsSetBut(fs, "confirm", "root"); len(other) > 0 {
			return Options{}, fmt.Errorf("-confirm runs nothing, so %s would have no effect: leave it out", strings.Join(other, " "))
		}
		return o, nil
	}
	if o.Keep != "" {
		if other := flagsSetBut(fs, "keep", "root"); len(other) > 0 {
			return Options{}, fmt.Errorf("-keep runs nothing, so %s would have no effect: leave it out", strings.Join(other, " "))
		}
		return o, nil
	}
	if o.Publish != "" {
		if other := flagsSetBut(fs, "publish", "root"); len(other) > 0 {
			return Options{}, fmt.Errorf("-publish runs nothing, so %s would have no effect: leave it out", strings.Join(other, " "))
		}
		return o, nil
	}

	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.Instructions {
		if err := instructionsFlags(&o, set, *cpus); err != nil {
			return Options{}, err
		}
	}
	if o.Costs {
		if err := costsFlags(&o, set); err != nil {
			return Options{}, err
		}
	}
	if *tcs == "" && !set["toolchains"] {
		switch {
		case o.Runtime: // with -costs too: go1.23.12's runtime has none of its benchmarks
			*tcs = runtimeToolchains
		case o.Instructions:
			*tcs = instrToolchains
		case o.Costs:
			*tcs = costsToolchains
		default:
			*tcs = knownNames()
		}
	}
	var err error
	if o.Toolchains, err = ParseToolchains(*tcs); err != nil {
		return Options{}, err
	}
	if o.Bench == "" && !set["bench"] {
		o.Bench = "."
		switch {
		case o.Costs && o.Runtime:
			o.Bench = upstreamRuntimeBench
		case o.Runtime:
			o.Bench = runtimeBench
		case o.Instructions:
			o.Bench = instrBench
		case o.Costs:
			o.Bench = costsBench
		}
	}
	if o.Bench == "" {
		return Options{}, errors.New("-bench: empty pattern; use . for every benchmark")
	}
	if strings.Contains(o.Bench, "/") {
		return Options{}, fmt.Errorf("-bench %q: sub-benchmark patterns (with /) are not supported: name top-level benchmarks only (bench/'s have no sub-benchmarks, and -costs runs each of the runtime's MutexHandoff's apart)", o.Bench)
	}
	if _, err := regexp.Compile(o.Bench); err != nil {
		return Options{}, fmt.Errorf("-bench %q is not a valid regexp: %v", o.Bench, err)
	}

	o.CPUs = fullCPUs
	switch {
	case o.Quick:
		o.CPUs = quickCPUs
	case o.Costs:
		o.CPUs = costsCPUs
	case o.Runtime:
		o.CPUs = runtimeCPUs
	case o.Instructions:
		o.CPUs = []int{instrCPU}
	}
	if *cpus != "" {
		if o.CPUs, err = parseCPUs(*cpus); err != nil {
			return Options{}, err
		}
	}
	switch {
	case o.Count < 0:
		return Options{}, fmt.Errorf("-count %d: must be at least 1", o.Count)
	case o.Count == 0 && o.Quick:
		o.Count = quickCount
	case o.Count == 0 && o.Costs:
		o.Count = costsCount
	case o.Count == 0:
		o.Count = fullCount
	}
	// -costs leaves an empty benchtime to each benchmark's own iteration
	// count (costsIters).
	if o.Benchtime == "" && !o.Costs {
		switch {
		case o.Quick:
			o.Benchtime = quickBenchtime
		case o.Runtime:
			o.Benchtime = runtimeBenchtime
		case o.Instructions:
			o.Benchtime = instrBenchtime
		default:
			o.Benchtime = fullBenchtime
		}
	}
	if o.Benchtime != "" {
		if _, n, err := parseBenchtime(o.Benchtime); err != nil {
			return Options{}, err
		} else if o.Instructions && n == 0 {
			return Options{}, fmt.Errorf("-benchtime %q: -instructions runs a fixed number of iterations; give a count such as %s", o.Benchtime, instrBenchtime)
		}
	}
	switch {
	case o.Timeout < 0:
		return Options{}, fmt.Errorf("-timeout %v: must be positive", o.Timeout)
	case o.Timeout == 0 && o.Quick:
		o.Timeout = 3 * time.Minute
	case o.Timeout == 0:
		o.Timeout = 15 * time.Minute
	}
	return o, nil
}

// flagsSetBut lists, as -name, the flags set on the command line other than
// allowed.
func flagsSetBut(fs *flag.FlagSet, allowed ...string) []string {
	var other []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(allowed, f.Name) {
			other = append(other, "-"+f.Name)
		}
	})
	return other
}

// parseGOARCHes reads -goarch: architectures a bundle can be built for,
// each once; empty means BundleGOARCHes.
func parseGOARCHes(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return BundleGOARCHes, nil
	}
	var out []string
	for _, g := range strings.Split(s, ",") {
		g = strings.TrimSpace(g)
		if !slices.Contains(BundleGOARCHes, g) {
			return nil, fmt.Errorf("-goarch: %q is not an architecture bundles are built for; choose from %s", g, strings.Join(BundleGOARCHes, ","))
		}
		if slices.Contains(out, g) {
			return nil, fmt.Errorf("-goarch: %s is listed twice; name each architecture once", g)
		}
		out = append(out, g)
	}
	return out, nil
}

func parseCPUs(s string) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-cpu: %q is not a positive integer; give a comma-separated list such as 1,2,4,8", f)
		}
		if seen[n] {
			return nil, fmt.Errorf("-cpu: %d is listed twice; list each GOMAXPROCS value once", n)
		}
		seen[n] = true
		out = append(out, n)
	}
	return out, nil
}

// parseBenchtime accepts what -test.benchtime accepts: a positive duration,
// or a positive iteration count followed by x. It returns exactly one of
// the two.
func parseBenchtime(s string) (time.Duration, int, error) {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 {
			return 0, 0, fmt.Errorf("-benchtime %q: an iteration count must be a positive integer followed by x, such as 100x", s)
		}
		return 0, i, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("-benchtime %q: want a positive duration such as 150ms, or an iteration count such as 100x", s)
	}
	return d, 0, nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

// instructionsFlags refuses the flags that -instructions cannot honour.
func instructionsFlags(o *Options, set map[string]bool, cpus string) error {
	for _, other := range []string{"runtime", "quick", "count", "costs"} {
		if set[other] {
			return fmt.Errorf("-instructions and -%s cannot be combined: -instructions runs bench/'s benchmarks once per toolchain, counting instructions; leave out -%s", other, other)
		}
	}
	if set["cpu"] && strings.TrimSpace(cpus) != strconv.Itoa(instrCPU) {
		return fmt.Errorf("-cpu %s: -instructions counts at GOMAXPROCS %d only, where the counts do not depend on how threads interleave; leave out -cpu", cpus, instrCPU)
	}
	o.Count = 1
	return nil
}

// ModeName describes the mode for printing.
func (o Options) ModeName() string {
	switch {
	case o.Instructions:
		return "instruction-counting"
	case o.Costs:
		return "cost-counting"
	case o.Quick:
		return "quick"
	}
	return "full"
}
