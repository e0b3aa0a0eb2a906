package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// A run folder is what run.sh writes on the machine it measures:
// bundle.json and plan (the bundle's), settings (key=value: name,
// benchtime, count, cpus, bench), machine.txt (key: value), started and,
// once every run succeeded, complete (UTC times), and one file per run of
// a test binary, turns/<suite>/<toolchain>/r<round>.<benchmark>.<GOMAXPROCS>.txt,
// or .failed if it failed. ReportRun reads it back.

// machineKeys are what machine.txt must say.
var machineKeys = []string{"name", "goarch", "kernel", "cpu", "cpus", "cgroup-cpu-limit"}

// validMachineName is what run.sh lets a machine's name be; it names a
// folder of bench/report/.
var validMachineName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)

// bundleRun is a run folder, read back and checked.
type bundleRun struct {
	Dir       string
	Info      BundleInfo
	Machine   map[string]string // machine.txt
	Benchtime string
	Count     int
	CPUs      []int
	Bench     string // run.sh's -bench, "" for all
	Started   time.Time
	Finished  time.Time // zero unless complete
	Suites    []bundleRunSuite
}

// bundleRunSuite is what a run measured of one suite of its bundle.
type bundleRunSuite struct {
	BundleSuite
	Selected []string          // the benchmarks run.sh ran, of Benchmarks
	Raw      map[string][]byte // per toolchain, its runs' output in the order they were planned
	Done     int               // runs with output
	Total    int               // runs planned
	Failed   []string          // runs that failed, as paths relative to the run folder
}

// Name is the machine's name.
func (r *bundleRun) Name() string { return r.Machine["name"] }

// Host describes the machine in one line.
func (r *bundleRun) Host() string {
	m := r.Machine
	s := fmt.Sprintf("%s: %s, %s logical CPUs, %s, linux/%s, cgroup CPU limit %s", m["name"], m["cpu"], m["cpus"], m["kernel"], m["goarch"], m["cgroup-cpu-limit"])
	if e := m["emulator"]; e != "" {
		s += ", under the emulator " + e
	}
	return s
}

// Incomplete says what is missing, or "" if nothing is.
func (r *bundleRun) Incomplete() string {
	var done, total int
	var failed []string
	for _, s := range r.Suites {
		done += s.Done
		total += s.Total
		failed = append(failed, s.Failed...)
	}
	if done == total {
		return ""
	}
	msg := fmt.Sprintf("%d of %d runs of a test binary done", done, total)
	if len(failed) > 0 {
		msg += fmt.Sprintf(", %d failed (%s)", len(failed), strings.Join(failed, ", "))
	}
	return msg + fmt.Sprintf("; run.sh -out %s on the machine %s goes on where it stopped", r.Dir, r.Name())
}

// mode is the Record.Mode of the run: full with run.sh's defaults, short
// with less.
func (r *bundleRun) mode() string {
	if r.Benchtime == fullBenchtime && r.Count >= fullCount && r.Bench == "" {
		return "full"
	}
	return "short"
}

// loadRun reads the run folder dir and checks that its parts belong
// together. A run that stopped early is no error: its suites say how far
// it went.
func loadRun(dir string) (*bundleRun, error) {
	r := &bundleRun{Dir: dir}
	data, err := os.ReadFile(filepath.Join(dir, bundleInfoFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s: it is not a run folder of a benchmark bundle; give the folder that run.sh printed as its run folder", dir, bundleInfoFile)
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &r.Info); err != nil {
		return nil, fmt.Errorf("%s: %v; it was not written by ./bench.bash -bundle, or was edited", filepath.Join(dir, bundleInfoFile), err)
	}
	if r.Machine, err = readKeyValues(filepath.Join(dir, "machine.txt"), ": "); err != nil {
		return nil, fmt.Errorf("%v: run.sh writes it when a run starts, so the folder was copied incompletely or is not a run folder", err)
	}
	for _, k := range machineKeys {
		if r.Machine[k] == "" {
			return nil, fmt.Errorf("%s says nothing of %q: it was not written by run.sh, or was edited", filepath.Join(dir, "machine.txt"), k)
		}
	}
	if g := r.Machine["goarch"]; g != r.Info.GOARCH {
		return nil, fmt.Errorf("%s describes a linux/%s machine, but the bundle of %s is for linux/%s: the folder mixes files of two runs; report each run's own folder", filepath.Join(dir, "machine.txt"), g, bundleInfoFile, r.Info.GOARCH)
	}
	settings, err := readKeyValues(filepath.Join(dir, "settings"), "=")
	if err != nil {
		return nil, fmt.Errorf("%v: run.sh writes it when a run starts, so the folder was copied incompletely or is not a run folder", err)
	}
	if n := r.Machine["name"]; n != settings["name"] || !validMachineName.MatchString(n) {
		return nil, fmt.Errorf("machine.txt names the machine %q and settings %q: the folder mixes files of two runs, or was edited", n, settings["name"])
	}
	r.Benchtime, r.Bench = settings["benchtime"], settings["bench"]
	if _, _, err := parseBenchtime(r.Benchtime); err != nil {
		return nil, fmt.Errorf("settings: %v", err)
	}
	if r.Count, err = strconv.Atoi(settings["count"]); err != nil || r.Count < 1 {
		return nil, fmt.Errorf("settings: count %q is not a positive number: the file was edited", settings["count"])
	}
	if r.CPUs, err = parseCPUs(settings["cpus"]); err != nil {
		return nil, fmt.Errorf("settings: %v", err)
	}
	var benchRE *regexp.Regexp
	if r.Bench != "" {
		if benchRE, err = regexp.Compile(r.Bench); err != nil {
			return nil, fmt.Errorf("settings: bench %q: %v", r.Bench, err)
		}
	}
	r.Started = readTime(filepath.Join(dir, "started"))
	r.Finished = readTime(filepath.Join(dir, "complete"))
	for _, s := range r.Info.Suites {
		rs := bundleRunSuite{BundleSuite: s, Raw: map[string][]byte{}}
		for _, b := range s.Benchmarks {
			if benchRE == nil || benchRE.MatchString(b) {
				rs.Selected = append(rs.Selected, b)
			}
		}
		if err := rs.read(dir, r.Count, r.CPUs); err != nil {
			return nil, err
		}
		r.Suites = append(r.Suites, rs)
	}
	return r, nil
}

// read collects the output of the suite's runs, in the order run.sh
// planned them.
func (s *bundleRunSuite) read(dir string, count int, cpus []int) error {
	for rep := 1; rep <= count; rep++ {
		for _, b := range s.Selected {
			for _, c := range cpus {
				for _, tc := range s.Toolchains {
					s.Total++
					base := filepath.Join("turns", s.Name, tc.Name, fmt.Sprintf("r%d.%s.%d", rep, b, c))
					data, err := os.ReadFile(filepath.Join(dir, base+".txt"))
					if errors.Is(err, fs.ErrNotExist) {
						if isFile(filepath.Join(dir, base+".failed")) {
							s.Failed = append(s.Failed, filepath.ToSlash(base+".failed"))
						}
						continue
					}
					if err != nil {
						return err
					}
					if err := checkTurn(data); err != nil {
						return fmt.Errorf("%s: %v: the run folder was damaged, or copied incompletely; copy it again, or delete that file and run run.sh -out %s again on the machine that started it to measure it anew",
							filepath.Join(dir, base+".txt"), err, dir)
					}
					s.Raw[tc.Name] = append(s.Raw[tc.Name], data...)
					s.Done++
				}
			}
		}
	}
	return nil
}

// checkTurn checks that the output of one run of a test binary is whole:
// result lines that parse, and PASS at the end, after which come only the
// histogram lines of bench/ (Hist), which TestMain prints once the
// benchmarks are done.
func checkTurn(data []byte) error {
	rs, err := ParseOutput(bytes.NewReader(data))
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for len(lines) > 1 && strings.HasPrefix(lines[len(lines)-1], histogramPrefix) {
		lines = lines[:len(lines)-1]
	}
	if lines[len(lines)-1] != "PASS" {
		return errors.New("it does not end with PASS, so it was cut short")
	}
	if len(rs) == 0 {
		return errors.New("it holds no benchmark result")
	}
	return nil
}

// readKeyValues reads a file of "key<sep>value" lines.
func readKeyValues(path, sep string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("there is no %s", path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), sep); ok {
			m[k] = v
		}
	}
	return m, sc.Err()
}

// readTime reads a UTC time that run.sh wrote, zero if there is none.
func readTime(path string) time.Time {
	data, err := os.ReadFile(path)
	if err != nil {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339, strings.TrimSpace(string(data)))
	return t
}

// ReportRun turns the run folder dir, from any machine, into the tables,
// plots, summary and record of a normal run, one folder per suite inside
// dir (dir/bench, dir/runtime). A run that stopped early is reported as
// far as it went, and says so.
func ReportRun(ctx context.Context, root, dir string, stdout io.Writer) error {
	r, err := loadRun(dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "run of the linux/%s bundle on %s\n", r.Info.GOARCH, r.Host())
	incomplete := r.Incomplete()
	if incomplete != "" {
		fmt.Fprintf(stdout, "incomplete run, reported as far as it went: %s\n", incomplete)
	}
	benchstat, remove, err := tempBenchstat(ctx, root, "spinbit-report-")
	if err != nil {
		return err
	}
	defer remove()
	var elapsed time.Duration
	if !r.Finished.IsZero() && !r.Started.IsZero() {
		elapsed = r.Finished.Sub(r.Started)
	}
	for _, s := range r.Suites {
		if len(s.Selected) == 0 {
			continue
		}
		outDir := filepath.Join(dir, s.Name)
		if err := os.MkdirAll(outDir, 0o777); err != nil {
			return err
		}
		var tcs []*prepared
		results := map[string][]Result{}
		for _, t := range s.Toolchains {
			raw := s.Raw[t.Name]
			if len(raw) == 0 {
				fmt.Fprintf(stdout, "%s: toolchain %s has no results yet; left out\n", s.Name, t.Name)
				continue
			}
			p := &prepared{Toolchain: Toolchain{Name: t.Name, Experiment: t.Experiment}, Version: t.Version, Raw: filepath.Join(outDir, t.Name+".txt")}
			if err := os.WriteFile(p.Raw, raw, 0o666); err != nil {
				return err
			}
			if results[t.Name], err = ParseOutput(bytes.NewReader(raw)); err != nil {
				return err
			}
			tcs = append(tcs, p)
		}
		if len(tcs) == 0 {
			fmt.Fprintf(stdout, "%s: no results yet; nothing to report\n", s.Name)
			continue
		}
		comparisons := wantedComparisons
		if s.Name == "runtime" {
			comparisons = runtimeComparisons
		}
		bench := r.Bench
		if bench == "" {
			bench = "."
			if s.Name == "runtime" {
				bench = runtimeBench
			}
		}
		err := report(ctx, reportInput{
			Suite:      suite{Name: s.recordSuite(), Comparisons: comparisons},
			Options:    Options{Benchtime: r.Benchtime, Count: r.Count, CPUs: r.CPUs, Bench: bench},
			Start:      r.Started,
			OutDir:     outDir,
			Benchstat:  benchstat,
			Toolchains: tcs,
			Names:      s.Selected,
			Results:    results,
			Provenance: r.Info.Provenance,
			Bundle:     &bundleReport{Mode: r.mode(), Machine: r.Name(), GOARCH: r.Info.GOARCH, Host: r.Host(), Elapsed: elapsed, Incomplete: incomplete},
		}, stdout)
		if err != nil {
			return err
		}
	}
	return nil
}

// bundleReport is what report takes from a bundle's run folder instead of
// from the run it made itself.
type bundleReport struct {
	Mode       string
	Machine    string
	GOARCH     string
	Host       string
	Elapsed    time.Duration // zero if the run is not complete
	Incomplete string
}

// CheckRunReport checks, as -check does for a run, that the run folder dir
// is complete and that ReportRun wrote every table and plot for it: each
// toolchain of the bundle has a result for each benchmark it ran at each
// GOMAXPROCS value. It never looks at how fast anything was.
func CheckRunReport(dir string) error {
	r, err := loadRun(dir)
	if err != nil {
		return err
	}
	if inc := r.Incomplete(); inc != "" {
		return fmt.Errorf("%s is not complete: %s", dir, inc)
	}
	for _, s := range r.Suites {
		if len(s.Selected) == 0 {
			continue
		}
		outDir := filepath.Join(dir, s.Name)
		rec, err := ReadRecord(outDir)
		if err != nil {
			return err
		}
		in := CheckInput{Dir: outDir, Toolchains: s.toolchainNames(), CPUs: r.CPUs, Results: map[string][]Result{}, Tables: rec.Tables, Plots: rec.Plots}
		for _, b := range s.Selected {
			in.Workloads = append(in.Workloads, strings.TrimPrefix(b, "Benchmark"))
		}
		for tc, raw := range s.Raw {
			if in.Results[tc], err = ParseOutput(bytes.NewReader(raw)); err != nil {
				return err
			}
		}
		if s.Name == "bench" && r.Machine["emulator"] == "" {
			in.Units = []string{"vcsw/op", "ivcsw/op", "cpu-ns/op"}
		}
		if err := Check(in); err != nil {
			return err
		}
		if !isFile(filepath.Join(outDir, "summary.md")) {
			return fmt.Errorf("%s has no summary.md", outDir)
		}
	}
	return nil
}
