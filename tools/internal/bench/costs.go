package bench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// -costs counts, per benchmark op, what the mutexes make the kernel do:
// futex(2) calls (sleeping and waking), the futex waits among them that
// returned at once because a wakeup had come first, sched_yield(2) calls
// (the spin loops' osyield) and context switches, with perf stat on the
// syscall tracepoints. perf counts the whole process, its start-up and the
// testing package's first run of one iteration included, so each
// benchmark at each GOMAXPROCS runs twice, with a fixed iteration count N
// and with 2N (-test.benchtime=Nx), and the difference of the two counts,
// over N, is the count per op: whatever the process does once, whatever
// N is, cancels. The pair runs once per repetition, interleaved across
// toolchains as a timed run's turns are (schedule), and a cell of the
// table is the median of the repetitions' differences. The benchmark's
// own vcsw/op and ivcsw/op (getrusage around the timed loop) of the 2N
// runs go beside them, summarised the same way.
//
// The mutex's sleep calls and claims are counted with uprobes
// (costs_probes.go), which change what the process does: each hit traps
// into the kernel, and the one before a sleep call lets the wake come
// before the sleep, so that semasleep makes no futex call at all. So a
// slot's pair runs twice: once under perf's own events alone, which give
// every count but those two, and once with the uprobes alone, which give
// those two.

// costsEvents are the perf events counted in every process that runs
// without uprobes, in the order of perfCounts; the last is counted with
// futexAtOnceFilter (costsEventArgs).
var costsEvents = []string{"syscalls:sys_enter_futex", "syscalls:sys_enter_sched_yield", "context-switches", futexAtOnceEvent}

// futexAtOnceEvent, with futexAtOnceFilter, counts the futex calls that
// failed with EAGAIN (11): only a FUTEX_WAIT does, when the futex word no
// longer holds the value it was to sleep on. For an M semaphore that is a
// wakeup that came between the M's announcement of its sleep and its
// entry into the kernel: the M did not sleep, and its waker made a wake
// call all the same.
const (
	futexAtOnceEvent  = "syscalls:sys_exit_futex"
	futexAtOnceFilter = "ret == -11"
)

// costsEventArgs are perf stat's arguments that count costsEvents: a
// --filter applies to the -e before it.
func costsEventArgs() []string {
	n := len(costsEvents) - 1
	return []string{"-e", strings.Join(costsEvents[:n], ","), "-e", costsEvents[n], "--filter", futexAtOnceFilter}
}

// costsEventCommand is costsEventArgs as a user would type them.
func costsEventCommand() string {
	args := costsEventArgs()
	for i, a := range args {
		if strings.Contains(a, " ") {
			args[i] = "'" + a + "'"
		}
	}
	return strings.Join(args, " ")
}

// perfCounts are the counts of one process: of costsEvents in a run
// without uprobes, or the sums of its toolchain's uprobes in a run with
// them. A count the run did not make is -1, as is Claims for a mutex that
// makes no claims.
type perfCounts struct {
	Futex, FutexAtOnce, Yield, Switches int64
	Sleeps, Claims                      int64
}

// parsePerfStat reads the counts of a run from the output of perf stat -x,
// (CSV: value, unit, event, run time, share of it counted, ...): of
// costsEvents, or with probed those of the uprobes tp. An event perf
// could not count, or one missing, is an error: a zero in its place would
// read as a mutex that never sleeps.
func parsePerfStat(r io.Reader, tp toolchainProbes, probed bool) (perfCounts, error) {
	got := map[string]int64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		if len(f) < 3 {
			return perfCounts{}, fmt.Errorf("perf stat output: %q is not a CSV line of -x, output (value,unit,event,...)", line)
		}
		value, event := f[0], f[2]
		if strings.HasPrefix(value, "<") {
			return perfCounts{}, fmt.Errorf("perf stat could not count %s (%s): the kernel or the permissions do not allow it; see ./bench.bash -help for -costs", event, value)
		}
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 0 {
			return perfCounts{}, fmt.Errorf("perf stat output: count %q of %s is not a non-negative integer", value, event)
		}
		got[event] = n
	}
	if err := sc.Err(); err != nil {
		return perfCounts{}, err
	}
	var missing []string
	for _, e := range runEvents(tp, probed) {
		if _, ok := got[e]; !ok {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 {
		return perfCounts{}, fmt.Errorf("perf stat output has no count of %s", strings.Join(missing, ", "))
	}
	if !probed {
		return perfCounts{Futex: got[costsEvents[0]], Yield: got[costsEvents[1]], Switches: got[costsEvents[2]], FutexAtOnce: got[costsEvents[3]], Sleeps: -1, Claims: -1}, nil
	}
	c := perfCounts{Futex: -1, FutexAtOnce: -1, Yield: -1, Switches: -1, Claims: -1}
	for _, u := range tp.Sleeps {
		c.Sleeps += got[u.event()]
	}
	if tp.Claims != nil {
		c.Claims = 0
		for _, u := range tp.Claims {
			c.Claims += got[u.event()]
		}
	}
	return c, nil
}

// runEvents are the events a run counts: costsEvents, or with probed the
// uprobes tp.
func runEvents(tp toolchainProbes, probed bool) []string {
	if probed {
		return tp.events()
	}
	return costsEvents
}

// runEventArgs are perf stat's arguments that count runEvents.
func runEventArgs(tp toolchainProbes, probed bool) []string {
	if probed {
		return []string{"-e", strings.Join(tp.events(), ",")}
	}
	return costsEventArgs()
}

// perfFix turns what perf stat printed when it refused to count into the
// fix to apply. Debian's perf wrapper, which says "perf not found for
// kernel", is matched before a tracepoint that is not found.
func perfFix(stderr string) string {
	switch {
	case strings.Contains(stderr, "No permissions") || strings.Contains(stderr, "can't access trace events") ||
		strings.Contains(stderr, "perf_event_paranoid") || strings.Contains(stderr, "Permission denied"):
		return "perf may not read the syscall tracepoints: run ./bench.bash -costs as root, or lower kernel.perf_event_paranoid (sysctl -w kernel.perf_event_paranoid=-1) and make the tracing filesystem readable (mount -o remount,mode=755 /sys/kernel/tracing)"
	case strings.Contains(stderr, "You may need to install") || strings.Contains(stderr, "perf not found for kernel"):
		return "perf for the running kernel is missing: install it (Debian: apt-get install linux-perf; Ubuntu: apt-get install linux-tools-$(uname -r))"
	case strings.Contains(stderr, "unknown tracepoint") || strings.Contains(stderr, "not found"):
		return "this kernel has no syscall tracepoints (it needs CONFIG_FTRACE_SYSCALLS) or the tracing filesystem is not mounted (mount -t tracefs nodev /sys/kernel/tracing): run -costs on a kernel that has them"
	}
	return "check that perf stat " + costsEventCommand() + " -- true works on this machine"
}

// costsRun is what one run of a test binary under perf stat measured,
// with its toolchain's uprobes if Probed.
type costsRun struct {
	Rep       int
	Toolchain string
	Slot      slot
	Iters     int
	Probed    bool
	Counts    perfCounts
	Vcsw      float64 // the benchmark's own vcsw/op, ivcsw/op and ns/op
	Ivcsw     float64
	NsPerOp   float64
}

// costsSample is one repetition's figures per op for one toolchain at
// one slot: the pair of runs differenced, and the benchmark's own
// context switches of the longer run. Whole is the longer run's own
// rate: its whole count over its iterations, the fixed part included,
// for the counts perf made (NaN for the benchmark's own figures, which
// are of that run already, and for claims of a mutex that makes none).
type costsSample struct {
	Toolchain string
	Slot      slot
	Values    [numCostsMetrics]float64
	Whole     [numCostsMetrics]float64
}

// The metrics of the table, in its order.
const (
	costsFutex = iota
	costsFutexAtOnce
	costsYield
	costsSwitches
	costsSleeps
	costsClaims
	costsVcsw
	costsIvcsw
	numCostsMetrics
)

var costsMetricTitles = [numCostsMetrics]string{
	"futex calls per op (perf: syscalls:sys_enter_futex)",
	"futex waits that returned at once per op, a wakeup having come first (perf: syscalls:sys_exit_futex that failed with EAGAIN)",
	"sched_yield calls per op (perf: syscalls:sys_enter_sched_yield)",
	"context switches per op (perf: context-switches)",
	"mutex sleep calls per op (uprobes: the mutex's call of semasleep or futexsleep)",
	"claims per op (uprobes: an M became the heir of a claim; only the fork's mutex claims)",
	"voluntary context switches per op (the benchmark's vcsw/op, getrusage)",
	"involuntary context switches per op (the benchmark's ivcsw/op, getrusage)",
}

// pairSample differences a toolchain's two runs of a slot in one
// repetition: the counts of the longer less those of the shorter, over
// the difference of their iterations. A count the runs did not make, and
// the benchmark's own figures of runs with uprobes, are NaN.
func pairSample(a, b costsRun) (costsSample, error) {
	if a.Iters > b.Iters {
		a, b = b, a
	}
	if a.Toolchain != b.Toolchain || a.Slot != b.Slot || a.Rep != b.Rep || a.Probed != b.Probed {
		return costsSample{}, fmt.Errorf("runs of different toolchains, slots or repetitions, or one with uprobes and one without, cannot be paired: %+v, %+v", a, b)
	}
	d := float64(b.Iters - a.Iters)
	if d <= 0 {
		return costsSample{}, fmt.Errorf("%s %s-%d: both runs did %d iterations; the pair needs two different counts", a.Toolchain, a.Slot.Bench, a.Slot.CPU, a.Iters)
	}
	s := costsSample{Toolchain: a.Toolchain, Slot: a.Slot}
	n := float64(b.Iters)
	perOp := func(m int, short, long int64) {
		s.Values[m], s.Whole[m] = math.NaN(), math.NaN()
		if short >= 0 && long >= 0 {
			s.Values[m] = float64(long-short) / d
			s.Whole[m] = float64(long) / n
		}
	}
	perOp(costsFutex, a.Counts.Futex, b.Counts.Futex)
	perOp(costsFutexAtOnce, a.Counts.FutexAtOnce, b.Counts.FutexAtOnce)
	perOp(costsYield, a.Counts.Yield, b.Counts.Yield)
	perOp(costsSwitches, a.Counts.Switches, b.Counts.Switches)
	perOp(costsSleeps, a.Counts.Sleeps, b.Counts.Sleeps)
	perOp(costsClaims, a.Counts.Claims, b.Counts.Claims)
	s.Values[costsVcsw], s.Whole[costsVcsw] = b.Vcsw, math.NaN()
	s.Values[costsIvcsw], s.Whole[costsIvcsw] = b.Ivcsw, math.NaN()
	if b.Probed {
		s.Values[costsVcsw], s.Values[costsIvcsw] = math.NaN(), math.NaN()
	}
	return s, nil
}

// joinSamples makes one sample of a slot's pair without uprobes, plain,
// and its pair with them, probed: the mutex's sleep calls and claims from
// probed, every other figure from plain.
func joinSamples(plain, probed costsSample) costsSample {
	s := plain
	s.Values[costsSleeps], s.Whole[costsSleeps] = probed.Values[costsSleeps], probed.Whole[costsSleeps]
	s.Values[costsClaims], s.Whole[costsClaims] = probed.Values[costsClaims], probed.Whole[costsClaims]
	return s
}

// costsCell is the summary of one metric for one toolchain at one slot:
// the median and range of the pairs' differences, and the median of the
// longer runs' whole rates (WholeN of them; none for the benchmark's own
// figures).
type costsCell struct {
	Median, Lo, Hi float64
	N              int
	Whole          float64
	WholeN         int
}

type costsKey struct {
	Toolchain string
	Slot      slot
}

// summarizeCosts takes the median and range of each metric over the
// samples of each toolchain at each slot. A metric the toolchain does not
// have (NaN: claims of a mutex that makes none) gives a cell of no
// samples.
func summarizeCosts(samples []costsSample) map[costsKey][numCostsMetrics]costsCell {
	by := map[costsKey][]costsSample{}
	for _, s := range samples {
		k := costsKey{s.Toolchain, s.Slot}
		by[k] = append(by[k], s)
	}
	out := map[costsKey][numCostsMetrics]costsCell{}
	for k, ss := range by {
		var cells [numCostsMetrics]costsCell
		for m := range cells {
			var vs, ws []float64
			for _, s := range ss {
				if !math.IsNaN(s.Values[m]) {
					vs = append(vs, s.Values[m])
				}
				if !math.IsNaN(s.Whole[m]) {
					ws = append(ws, s.Whole[m])
				}
			}
			if len(vs) == 0 {
				continue
			}
			sort.Float64s(vs)
			cells[m] = costsCell{Median: median(vs), Lo: vs[0], Hi: vs[len(vs)-1], N: len(vs)}
			if len(ws) > 0 {
				sort.Float64s(ws)
				cells[m].Whole, cells[m].WholeN = median(ws), len(ws)
			}
		}
		out[k] = cells
	}
	return out
}

// formatCount shows a count per op with three significant digits, in
// plain decimals (no exponent): per-op counts run from thousandths to
// hundreds.
func formatCount(v float64) string {
	if v == 0 {
		return "0"
	}
	dec := 2 - int(math.Floor(math.Log10(math.Abs(v))))
	dec = max(0, min(dec, 6))
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if strings.Trim(s, "-0.") == "" {
		return "0"
	}
	return s
}

// costsHeader is what the table's page says about the run.
type costsHeader struct {
	Name       string // the output folder's name
	Start      time.Time
	Elapsed    time.Duration
	Host       string
	Commit     string
	Base       string
	Problems   []string
	Count      int
	Toolchains []*prepared
	Iters      map[string]int // N of each benchmark
}

// writeCostsTable writes the page of a -costs run: how it was measured,
// then one table per metric that any toolchain has, a row per benchmark
// and GOMAXPROCS, a column per toolchain, each cell the median of the
// repetitions and their range.
func writeCostsTable(w io.Writer, h costsHeader, slots []slot, toolchains []string, cells map[costsKey][numCostsMetrics]costsCell) {
	fmt.Fprintf(w, "# Mechanism costs per op: %s\n\n", h.Name)
	fmt.Fprintf(w, "- counted by `perf stat %s` over the whole process of each test binary run, without uprobes\n", costsEventCommand())
	fmt.Fprintf(w, "- mutex sleep calls and claims: counted in a second pair of runs, by uprobes alone on the mutex's own instructions, found in each test binary's disassembly: its call of `semasleep` (go1.24 and later, the fork) or `futexsleep` (go1.23, the tristate mutex) that puts an M to sleep, and the fork's store that makes an M the heir; — where a mutex makes no claims. A uprobe traps into the kernel each time it is hit, which widens the window in which a wake comes before the sleep (and then `semasleep` makes no futex call): these two counts are of runs with the probes in place, the others of runs without them, and no time per op here is a timed run's\n")
	fmt.Fprintf(w, "- per op: each benchmark at each GOMAXPROCS ran with N and 2N iterations (`-test.benchtime=Nx`); the difference of the two counts over N takes out start-up, the testing package's first run of one iteration and exit. N:")
	names := make([]string, 0, len(h.Iters))
	for n := range h.Iters {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s %d", sep, strings.TrimPrefix(n, "Benchmark"), h.Iters[n])
	}
	fmt.Fprintf(w, "\n")
	var has [numCostsMetrics]bool
	for _, c := range cells {
		for m := range c {
			has[m] = has[m] || c[m].N > 0
		}
	}
	if has[costsVcsw] || has[costsIvcsw] {
		fmt.Fprintf(w, "- vcsw/op and ivcsw/op are the benchmark's own getrusage figures around its timed loop, from the 2N runs\n")
	}
	fmt.Fprintf(w, "- each cell: the median of %s (one pair of runs of each kind each, interleaved across toolchains), then the smallest and largest; a difference can be negative where the per-op count is below the noise of the fixed part, or comes in episodes some processes have and others lack (a range much wider than the median; costs.csv has each process's counts)\n", plural(h.Count, "repetition"))
	fmt.Fprintf(w, "- in brackets, for perf's counts: the median of the 2N runs' whole counts over 2N, each process's own rate; it includes the fixed part over 2N, so it reads high where the count per op is small, but it is never negative and an episode moves only the process that had it\n")
	fmt.Fprintf(w, "- started %s, took %s\n", h.Start.Format(time.RFC3339), h.Elapsed.Round(time.Second))
	if h.Host != "" {
		fmt.Fprintf(w, "- host: %s\n", h.Host)
	}
	if h.Commit != "" {
		fmt.Fprintf(w, "- repository commit: %s\n", h.Commit)
	}
	if h.Base != "" {
		fmt.Fprintf(w, "- the fork's base: %s\n", h.Base)
	}
	for _, p := range h.Problems {
		fmt.Fprintf(w, "- **not reproducible from the commit alone**: %s\n", p)
	}
	fmt.Fprintf(w, "- every run's counts: [costs.csv](costs.csv)\n\n")
	if len(h.Toolchains) > 0 {
		fmt.Fprintf(w, "| toolchain | go version | GOEXPERIMENT |\n|---|---|---|\n")
		for _, p := range h.Toolchains {
			exp := p.Experiment
			if exp == "" {
				exp = "(default)"
			}
			fmt.Fprintf(w, "| %s | %s | %s |\n", p.Name, p.Version, exp)
		}
		fmt.Fprintf(w, "\n")
	}
	for m := 0; m < numCostsMetrics; m++ {
		if !has[m] {
			continue // no toolchain has it: the runtime's benchmarks report no vcsw/op, go1.27 makes no claims
		}
		fmt.Fprintf(w, "## %s\n\n", costsMetricTitles[m])
		fmt.Fprintf(w, "| benchmark |")
		for _, t := range toolchains {
			fmt.Fprintf(w, " %s |", t)
		}
		fmt.Fprintf(w, " runs |\n|---|")
		for range toolchains {
			fmt.Fprintf(w, "---|")
		}
		fmt.Fprintf(w, "---|\n")
		for _, s := range slots {
			name := strings.TrimPrefix(s.Bench, "Benchmark")
			if s.CPU != 1 {
				name += "-" + strconv.Itoa(s.CPU)
			}
			fmt.Fprintf(w, "| %s |", name)
			var ns []int
			for _, t := range toolchains {
				c, ok := cells[costsKey{t, s}]
				if !ok {
					fmt.Fprintf(w, " |")
					continue
				}
				cell := c[m]
				if cell.N == 0 {
					fmt.Fprintf(w, " — |")
					continue
				}
				ns = append(ns, cell.N)
				fmt.Fprintf(w, " %s (%s…%s)", formatCount(cell.Median), formatCount(cell.Lo), formatCount(cell.Hi))
				if cell.WholeN > 0 {
					fmt.Fprintf(w, " [%s]", formatCount(cell.Whole))
				}
				fmt.Fprintf(w, " |")
			}
			fmt.Fprintf(w, " %s |\n", runsNote(ns))
		}
		fmt.Fprintf(w, "\n")
	}
}

// runsNote says how many repetitions stand behind a row: one number when
// every toolchain has as many, else each.
func runsNote(ns []int) string {
	if len(ns) == 0 {
		return "0"
	}
	same := true
	for _, n := range ns {
		same = same && n == ns[0]
	}
	if same {
		return strconv.Itoa(ns[0])
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, "/")
}

// costsCSVHeader names the columns of costs.csv, one line per run.
// probed says whether the run had the uprobes; a count the run did not
// make is empty (claims too for a mutex that makes none), and so are
// vcsw_per_op and ivcsw_per_op for a benchmark that does not report them
// (the runtime's).
const costsCSVHeader = "repetition,toolchain,benchmark,gomaxprocs,iterations,probed,futex,futex_at_once,sched_yield,context_switches,mutex_sleep_calls,claims,vcsw_per_op,ivcsw_per_op,ns_per_op"

func (r costsRun) csv() string {
	c := r.Counts
	return fmt.Sprintf("%d,%s,%s,%d,%d,%t,%s,%s,%s,%s,%s,%s,%s,%s,%g", r.Rep+1, r.Toolchain, r.Slot.Bench, r.Slot.CPU, r.Iters, r.Probed,
		csvCount(c.Futex), csvCount(c.FutexAtOnce), csvCount(c.Yield), csvCount(c.Switches), csvCount(c.Sleeps), csvCount(c.Claims), csvFloat(r.Vcsw), csvFloat(r.Ivcsw), r.NsPerOp)
}

// csvCount is n for costs.csv: empty where the run did not count it (-1).
func csvCount(n int64) string {
	if n < 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

// csvFloat is v for costs.csv: empty where the benchmark has no such
// figure (NaN).
func csvFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// costsResult picks the result of slot s from a run's results, and checks
// that it ran the iterations asked for: the difference of a pair is only
// per op if each run did exactly N and 2N. With rusage, the result must
// have bench/'s own vcsw/op and ivcsw/op; the runtime's benchmarks report
// none.
func costsResult(results []Result, s slot, iters int, rusage bool) (Result, error) {
	want := strings.TrimPrefix(s.Bench, "Benchmark")
	var subs []string
	for _, r := range results {
		if strings.HasPrefix(r.Name, want+"/") && r.Procs == s.CPU {
			subs = append(subs, r.Name)
		}
		if r.Name != want || r.Procs != s.CPU {
			continue
		}
		if r.Iters != int64(iters) {
			return r, fmt.Errorf("%s at GOMAXPROCS %d ran %d iterations, not the %d of -test.benchtime=%dx", s.Bench, s.CPU, r.Iters, iters, iters)
		}
		for _, u := range []string{"vcsw/op", "ivcsw/op"} {
			if _, ok := r.Values[u]; rusage && !ok {
				return r, fmt.Errorf("%s at GOMAXPROCS %d reported no %s (bench/ reports it through getrusage on Linux only)", s.Bench, s.CPU, u)
			}
		}
		return r, nil
	}
	if len(subs) > 0 {
		return Result{}, fmt.Errorf("%s at GOMAXPROCS %d printed only the results of its sub-benchmarks %s, which -costs cannot tell apart in one process: add them to costsSubBenchmarks in tools/internal/bench/costs_run.go", s.Bench, s.CPU, strings.Join(subs, ", "))
	}
	return Result{}, fmt.Errorf("%s at GOMAXPROCS %d printed no result: if the end of its output says it skipped at so few Ps, leave that GOMAXPROCS out of -cpu, or give it a MinProcs in costsWorks (tools/internal/bench/costs_run.go)", s.Bench, s.CPU)
}
