package bench

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Result is one benchmark result line of go test -bench output.
type Result struct {
	Name   string             // benchmark name without the Benchmark prefix and the -GOMAXPROCS suffix
	Procs  int                // GOMAXPROCS the benchmark ran with
	Iters  int64              // b.N
	Values map[string]float64 // unit (ns/op, vcsw/op, p99-ns, ...) to value
	Hist   *Hist              // the sample's latency histogram, for the benchmarks that print one
}

// fullName is the result's name as go test prints it.
func (r Result) fullName() string {
	if r.Procs == 1 {
		return "Benchmark" + r.Name
	}
	return fmt.Sprintf("Benchmark%s-%d", r.Name, r.Procs)
}

// Workload is the top-level benchmark a result belongs to: its name up to
// the first slash.
func (r Result) Workload() string {
	w, _, _ := strings.Cut(r.Name, "/")
	return w
}

// ParseOutput reads go test -bench output and returns the result lines in
// order. A histogram line (Hist) goes with the latest result of its name
// and iteration count. Other lines (configuration such as goos:, PASS, log
// output) are skipped. A line that starts like a result or a histogram but
// is malformed is an error, with its line number, because it means the
// output was garbled.
func ParseOutput(r io.Reader) ([]Result, error) {
	var out []Result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.HasPrefix(line, histogramPrefix) {
			if err := attachHistogram(out, line); err != nil {
				return nil, fmt.Errorf("line %d: %v: %.100q", lineNo, err, line)
			}
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			// The name alone: the testing package prints it before
			// running when the benchmark logs or fails. Not a result.
			continue
		}
		if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
			// "BenchmarkX  some log text": not a result either.
			continue
		}
		res, err := parseResult(f)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v: %q", lineNo, err, line)
		}
		out = append(out, res)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// attachHistogram gives the histogram of line to the latest result in out
// of its name and iteration count: bench/ prints the histograms of a test
// binary's samples after their results.
func attachHistogram(out []Result, line string) error {
	name, iters, h, err := parseHistogramLine(line)
	if err != nil {
		return err
	}
	for i := len(out) - 1; i >= 0; i-- {
		if r := &out[i]; r.Hist == nil && r.Iters == iters && r.fullName() == name {
			r.Hist = &h
			return nil
		}
	}
	return fmt.Errorf("no result of %s with %d iterations comes before this histogram", name, iters)
}

func parseResult(f []string) (Result, error) {
	name := strings.TrimPrefix(f[0], "Benchmark")
	if name == "" {
		return Result{}, fmt.Errorf("benchmark without a name")
	}
	r := Result{Name: name, Procs: 1, Values: map[string]float64{}}
	// go test appends -GOMAXPROCS to the name unless it is 1.
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if p, err := strconv.Atoi(name[i+1:]); err == nil && p > 0 {
			r.Name, r.Procs = name[:i], p
		}
	}
	var err error
	if r.Iters, err = strconv.ParseInt(f[1], 10, 64); err != nil || r.Iters < 1 {
		return Result{}, fmt.Errorf("iteration count %q is not a positive integer", f[1])
	}
	rest := f[2:]
	if len(rest) == 0 || len(rest)%2 != 0 {
		return Result{}, fmt.Errorf("want value-unit pairs after the iteration count")
	}
	for i := 0; i < len(rest); i += 2 {
		v, err := strconv.ParseFloat(rest[i], 64)
		if err != nil {
			return Result{}, fmt.Errorf("value %q for unit %q is not a number", rest[i], rest[i+1])
		}
		r.Values[rest[i+1]] = v
	}
	return r, nil
}

// Metric names a quantity to aggregate: a unit from the output, or a sum
// of several.
type Metric struct {
	Title string   // for plots
	Units []string // summed per result; a result lacking any of them does not count
	Kind  string   // "ns" for durations in nanoseconds, "count" otherwise
}

var (
	MetricTime    = Metric{Title: "time per op (sec/op)", Units: []string{"ns/op"}, Kind: "ns"}
	MetricSwitch  = Metric{Title: "context switches per op (vcsw+ivcsw)", Units: []string{"vcsw/op", "ivcsw/op"}, Kind: "count"}
	MetricP99     = Metric{Title: "p99 latency of one operation (p99-ns)", Units: []string{"p99-ns"}, Kind: "ns"}
	MetricGap     = Metric{Title: "longest time a worker stood still (max-gap-ns)", Units: []string{"max-gap-ns"}, Kind: "ns"}
	MetricCPUTime = Metric{Title: "CPU time per op (cpu-ns/op)", Units: []string{"cpu-ns/op"}, Kind: "ns"}
	MetricMax     = Metric{Title: "longest wait of one operation (max-ns)", Units: []string{"max-ns"}, Kind: "ns"}
	MetricMaxLock = Metric{Title: "longest wait for the lock (max-lock-ns)", Units: []string{"max-lock-ns"}, Kind: "ns"}
)

func (m Metric) value(r Result) (float64, bool) {
	sum := 0.0
	for _, u := range m.Units {
		v, ok := r.Values[u]
		if !ok {
			return 0, false
		}
		sum += v
	}
	return sum, true
}

// Stat summarises the repetitions of one benchmark at one GOMAXPROCS.
type Stat struct {
	Procs          int
	Median, Lo, Hi float64 // Lo and Hi are the smallest and largest sample
	N              int
}

// Summarise groups results for one workload by GOMAXPROCS and returns the
// median and range of the metric at each, sorted by GOMAXPROCS. Results
// without the metric are left out.
func Summarise(rs []Result, workload string, m Metric) []Stat {
	by := map[int][]float64{}
	for _, r := range rs {
		if r.Workload() != workload {
			continue
		}
		if v, ok := m.value(r); ok {
			by[r.Procs] = append(by[r.Procs], v)
		}
	}
	var out []Stat
	for p, vs := range by {
		sort.Float64s(vs)
		out = append(out, Stat{Procs: p, Median: median(vs), Lo: vs[0], Hi: vs[len(vs)-1], N: len(vs)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Procs < out[j].Procs })
	return out
}

// median of sorted, non-empty vs.
func median(vs []float64) float64 {
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}

// Workloads returns the distinct workloads in results, sorted.
func Workloads(rs []Result) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		if w := r.Workload(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}
