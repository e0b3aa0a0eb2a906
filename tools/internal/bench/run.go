package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/toolchain"
)

// nospinbitExperiment is the GOEXPERIMENT that turns the fork's spinbit
// mutex off. Until the spinbit patches are in the fork, its go command
// does not know it.
const nospinbitExperiment = "nospinbitmutex"

// prepared is a toolchain ready to build with.
type prepared struct {
	Toolchain
	GOROOT  string
	GoCmd   string
	Version string // go env GOVERSION
	Env     []string
	Binary  string // the compiled bench/ test binary
	Raw     string // the raw go test -bench output
}

// FindRoot returns the repository root: the nearest directory at or above
// start that holds both bench/go.mod and tools/go.mod.
func FindRoot(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "bench", "go.mod")) && isFile(filepath.Join(dir, "tools", "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no repository root (a directory with bench/go.mod and tools/go.mod) at or above %s: run from inside the go-spinbit repository or pass -root", start)
		}
		dir = parent
	}
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Run does a whole run as the options say.
func Run(ctx context.Context, o Options, stdout io.Writer) error {
	start := time.Now()
	root := o.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		if root, err = FindRoot(wd); err != nil {
			return err
		}
	}
	// ./bench.bash runs this from tools/, so a relative path would land
	// there; the repository root is the one place every caller knows.
	if o.Out != "" && !filepath.IsAbs(o.Out) {
		o.Out = filepath.Join(root, o.Out)
	}
	if o.Publish != "" {
		if !filepath.IsAbs(o.Publish) {
			o.Publish = filepath.Join(root, o.Publish)
		}
		return Publish(root, o.Publish, stdout)
	}
	benchDir := filepath.Join(root, "bench")
	names, err := SourceBenchmarks(benchDir, o.Bench)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		all, _ := SourceBenchmarks(benchDir, ".")
		return fmt.Errorf("-bench %q matches no benchmark in %s; there are: %s", o.Bench, benchDir, strings.Join(all, " "))
	}
	est := EstimateRun(o, len(names))
	var tcNames []string
	for _, t := range o.Toolchains {
		tcNames = append(tcNames, t.Name)
	}
	fmt.Fprintf(stdout, "%s run: toolchains %s; %d benchmarks; GOMAXPROCS %s; count %d; benchtime %s\n",
		o.ModeName(), strings.Join(tcNames, ","), len(names), joinInts(o.CPUs), o.Count, o.Benchtime)
	fmt.Fprintf(stdout, "estimate: %s\n", est)
	if o.DryRun {
		return nil
	}

	// Resolve and probe every toolchain before building anything, so that a
	// missing fork or an unknown experiment fails in seconds.
	var tcs []*prepared
	for _, t := range o.Toolchains {
		p, err := prepare(ctx, root, t)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "toolchain %-9s %s (GOROOT %s%s)\n", p.Name, p.Version, p.GOROOT, expNote(p.Experiment))
		tcs = append(tcs, p)
	}
	if warn := spinbitWarning(ctx, tcs); warn != "" {
		fmt.Fprintf(stdout, "warning: %s\n", warn)
	}
	withFork := false
	for _, t := range o.Toolchains {
		withFork = withFork || t.Fork()
	}
	prov := readProvenance(root, withFork)
	for _, p := range prov.Problems() {
		fmt.Fprintf(stdout, "warning: this run cannot be published (./bench.bash -publish): %s\n", p)
	}

	binDir, err := os.MkdirTemp("", "spinbit-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(binDir)
	for _, p := range tcs {
		fmt.Fprintf(stdout, "building the benchmarks with %s...\n", p.Name)
		if err := compile(ctx, benchDir, binDir, p); err != nil {
			return err
		}
		listed, err := listBenchmarks(ctx, benchDir, p, o.Bench)
		if err != nil {
			return err
		}
		if !equalStrings(listed, names) {
			return fmt.Errorf("%s's test binary lists benchmarks %v, but the source of bench/ declares %v: is a benchmark behind a build tag?", p.Name, listed, names)
		}
	}

	// Build benchstat before benchmarking too, so that a run does not
	// benchmark for minutes only to find it cannot make its tables.
	fmt.Fprintf(stdout, "building benchstat...\n")
	benchstat, err := buildBenchstat(ctx, root, binDir)
	if err != nil {
		return err
	}

	// Only now, with every binary built, make the output folder, so that
	// failed builds leave no empty results behind.
	outDir, err := makeOutDir(root, o.Out, start)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "output: %s\n", outDir)
	for _, p := range tcs {
		p.Raw = filepath.Join(outDir, p.Name+".txt")
		if err := os.WriteFile(p.Raw, nil, 0o666); err != nil {
			return err
		}
	}

	// Interleave: each repetition runs every toolchain once, so drift in
	// the machine's state (thermal, other load) hits all of them alike. The
	// starting toolchain rotates to spread any first-or-last effect too.
	for rep := 0; rep < o.Count; rep++ {
		for k := range tcs {
			p := tcs[(rep+k)%len(tcs)]
			t0 := time.Now()
			if err := runOnce(ctx, benchDir, p, o); err != nil {
				return fmt.Errorf("repetition %d of %d: %w", rep+1, o.Count, err)
			}
			fmt.Fprintf(stdout, "repetition %d/%d %-9s %v\n", rep+1, o.Count, p.Name, time.Since(t0).Round(10*time.Millisecond))
		}
	}

	results := map[string][]Result{}
	for _, p := range tcs {
		f, err := os.Open(p.Raw)
		if err != nil {
			return err
		}
		rs, err := ParseOutput(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("parsing %s: %v", p.Raw, err)
		}
		results[p.Name] = rs
	}

	tables, err := writeTables(ctx, benchstat, outDir, tcs)
	if err != nil {
		return err
	}
	var workloads []string
	for _, n := range names {
		workloads = append(workloads, strings.TrimPrefix(n, "Benchmark"))
	}
	plots, err := writePlots(outDir, workloads, tcNames, results)
	if err != nil {
		return err
	}
	rec := newRecord(runInfo{Dir: outDir, Options: o, Start: start, Elapsed: time.Since(start), Toolchains: tcs,
		Tables: tables, Plots: plots, HostCPU: hostCPU(tcs), Provenance: prov})
	if err := writeSummary(outDir, rec); err != nil {
		return err
	}
	if err := writeRecord(outDir, rec); err != nil {
		return err
	}
	linkLatest(outDir)
	fmt.Fprintf(stdout, "wrote %d tables, %d plots and %s\n", len(tables), len(plots), filepath.Join(outDir, "summary.md"))
	for _, t := range tables {
		if t.File == allFile {
			continue
		}
		data, err := os.ReadFile(filepath.Join(outDir, t.File))
		if err == nil {
			if tab, ok := FindTable(SplitTables(string(data)), "sec/op"); ok {
				fmt.Fprintf(stdout, "\n%s (%s):\n%s\n", t.Title, t.File, tab.Text)
			}
		}
	}

	if o.Check {
		in := CheckInput{Dir: outDir, Toolchains: tcNames, Workloads: workloads, CPUs: o.CPUs, Results: results, Plots: plots}
		in.Tables = tables
		if runtime.GOOS == "linux" {
			in.Units = []string{"vcsw/op", "ivcsw/op", "cpu-ns/op"}
		}
		if err := Check(in); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "check passed: %d toolchains x %d benchmarks x GOMAXPROCS %s, %d tables, %d plots\n",
			len(tcNames), len(workloads), joinInts(o.CPUs), len(tables), len(plots))
	}
	return nil
}

func expNote(exp string) string {
	if exp == "" {
		return ""
	}
	return ", GOEXPERIMENT=" + exp
}

// prepare finds a toolchain's GOROOT and asks its go command who it is.
func prepare(ctx context.Context, root string, t Toolchain) (*prepared, error) {
	p := &prepared{Toolchain: t}
	if t.Fork() {
		p.GOROOT = filepath.Join(root, "goroot")
		p.GoCmd = toolchain.Bin(p.GOROOT)
		if !isFile(p.GoCmd) {
			return nil, fmt.Errorf("toolchain %s: the fork is not built (%s is missing): run ./make.bash in %s first, or leave the fork out with -toolchains upstream,go1.24", t.Name, p.GoCmd, root)
		}
	} else {
		var err error
		if p.GOROOT, err = toolchain.GOROOT(ctx, t.Release); err != nil {
			return nil, fmt.Errorf("toolchain %s: %v", t.Name, err)
		}
		p.GoCmd = toolchain.Bin(p.GOROOT)
	}
	p.Env = buildEnv(os.Environ(), p.GOROOT, t.Experiment)
	out, err := goEnv(ctx, p.GoCmd, p.Env, "GOVERSION", "GOROOT")
	if err != nil {
		if t.Experiment != "" && strings.Contains(err.Error(), "unknown GOEXPERIMENT") {
			return nil, fmt.Errorf("toolchain %s: %s rejects GOEXPERIMENT=%s (%v).\n"+
				"The fork does not have the spinbit patches yet (or goroot/ was built before they landed): apply them and rebuild with ./make.bash,\n"+
				"or leave %s out, for example -toolchains upstream,spinbit,go1.24",
				t.Name, p.GoCmd, t.Experiment, err, t.Name)
		}
		return nil, fmt.Errorf("toolchain %s: %v", t.Name, err)
	}
	p.Version = out[0]
	if !sameDir(out[1], p.GOROOT) {
		return nil, fmt.Errorf("toolchain %s: %s reports GOROOT %s, want %s: is the toolchain installed where it was built?", t.Name, p.GoCmd, out[1], p.GOROOT)
	}
	return p, nil
}

// goEnv runs go env for the variables and returns their values in order.
func goEnv(ctx context.Context, gocmd string, env []string, vars ...string) ([]string, error) {
	cmd := exec.CommandContext(ctx, gocmd, append([]string{"env"}, vars...)...)
	cmd.Env = env
	cmd.Dir = os.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("%s env failed: %s", gocmd, msg)
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != len(vars) {
		return nil, fmt.Errorf("%s env %s printed %d lines, want %d", gocmd, strings.Join(vars, " "), len(lines), len(vars))
	}
	return lines, nil
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// spinbitWarning says when the fork's default build is unlikely to be the
// spinbit mutex: its go command does not know the experiment that turns
// spinbit off, so the patches are not in.
func spinbitWarning(ctx context.Context, tcs []*prepared) string {
	for _, p := range tcs {
		if p.Name != "spinbit" {
			continue
		}
		env := buildEnv(os.Environ(), p.GOROOT, nospinbitExperiment)
		if _, err := goEnv(ctx, p.GoCmd, env, "GOVERSION"); err != nil && strings.Contains(err.Error(), "unknown GOEXPERIMENT") {
			return "the fork does not know GOEXPERIMENT=" + nospinbitExperiment + ", so the spinbit patches are not in it yet: " +
				"'spinbit' is measuring the fork's current runtime.lock2, not the spinbit protocol"
		}
	}
	return ""
}

// makeOutDir creates the output folder: the one asked for, which must not
// already hold files, or bench/results/<timestamp>.
func makeOutDir(root, asked string, now time.Time) (string, error) {
	if asked != "" {
		dir, err := filepath.Abs(asked)
		if err != nil {
			return "", err
		}
		if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
			return "", fmt.Errorf("-out %s already holds files; name a new or empty folder so runs do not mix", dir)
		}
		return dir, os.MkdirAll(dir, 0o777)
	}
	base := filepath.Join(root, "bench", "results", now.Format("20060102-150405"))
	dir := base
	for i := 2; ; i++ {
		err := os.Mkdir(dir, 0o777)
		if err == nil {
			return dir, nil
		}
		if errors.Is(err, os.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(dir), 0o777); err != nil {
				return "", err
			}
			continue
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}
}

// linkLatest points bench/results/latest at the newest default output
// folder. It is a convenience, so failures are ignored.
func linkLatest(outDir string) {
	parent := filepath.Dir(outDir)
	if filepath.Base(parent) != "results" {
		return
	}
	link := filepath.Join(parent, "latest")
	if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSymlink == 0 {
		return // something else is there; leave it alone
	}
	os.Remove(link)
	os.Symlink(filepath.Base(outDir), link)
}

// compile builds bench/'s test binary with one toolchain.
func compile(ctx context.Context, benchDir, binDir string, p *prepared) error {
	p.Binary = filepath.Join(binDir, p.Name+".test")
	cmd := exec.CommandContext(ctx, p.GoCmd, "test", "-c", "-o", p.Binary, ".")
	cmd.Dir = benchDir
	cmd.Env = p.Env
	out, err := cmd.CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if p.Experiment != "" && strings.Contains(msg, "unknown GOEXPERIMENT") {
			return fmt.Errorf("toolchain %s: the fork rejects GOEXPERIMENT=%s:\n%s\napply the spinbit patches and rebuild with ./make.bash, or leave %s out of -toolchains", p.Name, p.Experiment, msg, p.Name)
		}
		return fmt.Errorf("toolchain %s: go test -c in %s failed: %v\n%s", p.Name, benchDir, err, msg)
	}
	return nil
}

// listBenchmarks asks a test binary which benchmarks match the pattern.
func listBenchmarks(ctx context.Context, benchDir string, p *prepared, pattern string) ([]string, error) {
	cmd := exec.CommandContext(ctx, p.Binary, "-test.list", pattern)
	cmd.Dir = benchDir
	cmd.Env = runEnv(os.Environ())
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("toolchain %s: %s -test.list failed: %v", p.Name, p.Binary, err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if isBenchmarkName(strings.TrimSpace(l)) {
			names = append(names, strings.TrimSpace(l))
		}
	}
	sort.Strings(names)
	return names, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// runOnce runs a toolchain's test binary once, appending to its raw output.
func runOnce(ctx context.Context, benchDir string, p *prepared, o Options) error {
	f, err := os.OpenFile(p.Raw, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	var tail tailBuffer
	w := io.MultiWriter(f, &tail)
	args := []string{
		"-test.run=^$",
		"-test.bench=" + o.Bench,
		"-test.benchtime=" + o.Benchtime,
		"-test.cpu=" + joinInts(o.CPUs),
		"-test.count=1",
		"-test.benchmem",
		"-test.timeout=" + o.Timeout.String(),
	}
	cmd := exec.CommandContext(ctx, p.Binary, args...)
	cmd.Dir = benchDir
	cmd.Env = runEnv(os.Environ())
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("toolchain %s: the benchmarks failed (%v); last output:\n%s\nfull output in %s", p.Name, err, tail.String(), p.Raw)
	}
	return f.Close()
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

// allFile holds the benchstat table with every toolchain side by side,
// written when the pairwise comparisons do not already say it all.
const allFile = "all.txt"

// buildBenchstat builds benchstat from the tools module's pinned
// dependency into binDir and returns its path.
func buildBenchstat(ctx context.Context, root, binDir string) (string, error) {
	gocmd, err := toolchain.GoCommand()
	if err != nil {
		return "", err
	}
	benchstat := filepath.Join(binDir, "benchstat")
	if runtime.GOOS == "windows" {
		benchstat += ".exe"
	}
	cmd := exec.CommandContext(ctx, gocmd, "build", "-o", benchstat, "golang.org/x/perf/cmd/benchstat")
	cmd.Dir = filepath.Join(root, "tools")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building benchstat (golang.org/x/perf/cmd/benchstat, required by tools/go.mod) failed: %v\n%s\n"+
			"check that the module proxy is reachable, or run go mod download in tools/", err, strings.TrimSpace(string(out)))
	}
	return benchstat, nil
}

// writeTables runs benchstat on the toolchains' raw output in outDir and
// writes each comparison, plus all toolchains side by side.
func writeTables(ctx context.Context, benchstat, outDir string, tcs []*prepared) ([]TableFile, error) {
	var toolchains []Toolchain
	byName := map[string]*prepared{}
	for _, p := range tcs {
		toolchains = append(toolchains, p.Toolchain)
		byName[p.Name] = p
	}
	var files []TableFile
	bs := func(file, title string, ps ...*prepared) error {
		var args, names []string
		for _, p := range ps {
			args = append(args, p.Name+"="+filepath.Base(p.Raw))
			names = append(names, p.Name)
		}
		cmd := exec.CommandContext(ctx, benchstat, args...)
		cmd.Dir = outDir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		// benchstat reports a file it cannot read on stderr but still
		// exits 0, so anything on stderr is a failure too.
		if msg := strings.TrimSpace(stderr.String()); err != nil || msg != "" {
			if err == nil {
				err = errors.New("it wrote to stderr")
			}
			return fmt.Errorf("benchstat %s failed (%v): %s", strings.Join(args, " "), err, msg)
		}
		if err := os.WriteFile(filepath.Join(outDir, file), out, 0o666); err != nil {
			return err
		}
		files = append(files, TableFile{Title: title, File: file, Columns: names})
		return nil
	}
	for _, c := range Comparisons(toolchains) {
		if err := bs(c.File(), c.String(), byName[c.Base], byName[c.New]); err != nil {
			return nil, err
		}
	}
	// Every toolchain side by side, in the canonical order, so the first
	// column (the baseline of the deltas) is upstream when present. With
	// two toolchains that would repeat their comparison.
	if len(tcs) == 2 && len(files) == 1 {
		return files, nil
	}
	var ordered []*prepared
	for _, k := range Known {
		if p, ok := byName[k.Name]; ok {
			ordered = append(ordered, p)
		}
	}
	if err := bs(allFile, "all toolchains, against "+ordered[0].Name, ordered...); err != nil {
		return nil, err
	}
	return files, nil
}

// hostCPU returns the cpu: line of the raw output, which names the
// processor.
func hostCPU(tcs []*prepared) string {
	for _, p := range tcs {
		f, err := os.Open(p.Raw)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "cpu: "); ok {
				f.Close()
				return fmt.Sprintf("%s, %d logical CPUs", strings.TrimSpace(v), runtime.NumCPU())
			}
		}
		f.Close()
	}
	return ""
}
