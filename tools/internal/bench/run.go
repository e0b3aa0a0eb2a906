package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Run does a whole run as the options say: it plans, builds every
// toolchain's test binary (build.go), runs them interleaved, and writes
// the tables, plots and record (report.go).
func Run(ctx context.Context, o Options, stdout io.Writer) error {
	start := time.Now()
	root, err := resolvePaths(&o)
	if err != nil {
		return err
	}
	if o.Publish != "" {
		return Publish(root, o.Publish, stdout)
	}
	if len(o.Pool) > 0 {
		return Pool(ctx, root, o.Pool, o.Out, stdout)
	}
	s := o.suite(root)
	names, err := s.plannedBenchmarks(o.Bench)
	if err != nil {
		return err
	}
	var tcNames []string
	for _, t := range o.Toolchains {
		tcNames = append(tcNames, t.Name)
	}
	fmt.Fprintf(stdout, "%s run of %s: toolchains %s; %d benchmarks; GOMAXPROCS %s; count %d; benchtime %s\n",
		o.ModeName(), s.Desc, strings.Join(tcNames, ","), len(names), joinInts(o.CPUs), o.Count, o.Benchtime)
	if o.Instructions {
		fmt.Fprintf(stdout, "plan: %d runs under callgrind, of %d and 3 times as many iterations per benchmark and toolchain\n", 2*len(names)*len(o.Toolchains), mustIterations(o.Benchtime))
	} else {
		fmt.Fprintf(stdout, "estimate: %s\n", EstimateRun(o, len(names)))
	}
	if o.DryRun {
		return nil
	}
	if o.Instructions {
		if err := checkValgrind(); err != nil {
			return err
		}
	}

	// Resolve and probe every toolchain before building anything, so that a
	// missing fork or an unknown experiment fails in seconds.
	tcs, err := prepareAll(ctx, root, s, o, names, stdout)
	if err != nil {
		return err
	}
	prov := readProvenance(root, withFork(tcs))
	for _, p := range prov.Problems() {
		fmt.Fprintf(stdout, "warning: this run cannot be published (./bench.bash -publish): %s\n", p)
	}
	binDir, err := os.MkdirTemp("", "spinbit-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(binDir)
	benchstat, err := buildAll(ctx, root, binDir, tcs, o.Bench, names, stdout)
	if err != nil {
		return err
	}

	// Only now, with every binary built, make the output folder, so that
	// failed builds leave no empty results behind.
	outDir, err := makeOutDir(root, o.Out, s.OutPrefix, start)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "output: %s\n", outDir)
	if o.Instructions {
		return runInstructions(ctx, outDir, tcs, o, names, stdout)
	}
	results, err := runAll(ctx, outDir, tcs, o, stdout)
	if err != nil {
		return err
	}
	return report(ctx, reportInput{
		Suite: s, Options: o, Start: start, OutDir: outDir, Benchstat: benchstat,
		Toolchains: tcs, Names: names, Results: results, Provenance: prov,
	}, stdout)
}

// runAll runs the test binaries, interleaved: each repetition runs every
// toolchain once, so drift in the machine's state (thermal, other load)
// hits all of them alike. The starting toolchain rotates to spread any
// first-or-last effect too. It returns each toolchain's parsed results.
func runAll(ctx context.Context, outDir string, tcs []*prepared, o Options, stdout io.Writer) (map[string][]Result, error) {
	for _, p := range tcs {
		p.Raw = filepath.Join(outDir, p.Name+".txt")
		if err := os.WriteFile(p.Raw, nil, 0o666); err != nil {
			return nil, err
		}
	}
	for rep := 0; rep < o.Count; rep++ {
		for k := range tcs {
			p := tcs[(rep+k)%len(tcs)]
			t0 := time.Now()
			if err := runOnce(ctx, p, o); err != nil {
				return nil, fmt.Errorf("repetition %d of %d: %w", rep+1, o.Count, err)
			}
			fmt.Fprintf(stdout, "repetition %d/%d %-9s %v\n", rep+1, o.Count, p.Name, time.Since(t0).Round(10*time.Millisecond))
		}
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

// runOnce runs a toolchain's test binary once, appending to its raw output.
func runOnce(ctx context.Context, p *prepared, o Options) error {
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
	cmd.Dir = p.PkgDir
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
