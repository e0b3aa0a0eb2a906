package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// Run does a whole run as the options say: it plans, builds every
// toolchain's test binary (build.go), runs them interleaved (execute.go),
// and writes the tables, plots and record (report.go).
func Run(ctx context.Context, o Options, stdout io.Writer) error {
	start := time.Now()
	root, err := resolvePaths(&o)
	if err != nil {
		return err
	}
	if o.Replot != "" {
		if err := Replot(o.Replot); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "drew the plots of %s again from its tables\n", o.Replot)
		return nil
	}
	// -results -base R reads only R's published pool, which outlives the
	// base: a series that moved to a later point release keeps its last
	// results until the new base publishes its own.
	if o.Bundle != "" || !(o.Publish != "" || o.Keep != "" || o.Confirm != "" || o.Report != "" || len(o.Pool) > 0 || o.Results && o.Base != "") {
		if err := resolveBase(root, &o); err != nil {
			return err
		}
	}
	if o.Results {
		if err := WriteResults(root, o.Base); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", ResultsFile)
		return nil
	}
	if o.Publish != "" {
		return Publish(root, o.Publish, stdout)
	}
	if o.Keep != "" {
		return Keep(root, o.Keep, stdout)
	}
	if o.Confirm != "" {
		return Confirm(root, o.Confirm, stdout)
	}
	if o.Bundle != "" {
		return BuildBundles(ctx, root, o.Base, o.Bundle, o.GOARCHes, stdout)
	}
	if o.Report != "" {
		return ReportRun(ctx, root, o.Report, stdout)
	}
	if len(o.Pool) > 0 {
		return Pool(ctx, root, o.Pool, o.Out, stdout)
	}
	s := o.suite(root)
	fmt.Fprintf(stdout, "the fork: base %s (goroot/%s)\n", o.Base, o.Base)
	if s.ownBenchmarks() && !o.DryRun {
		// The plan lists the benchmarks of the fork's own runtime.
		if err := o.makeFork(ctx, root); err != nil {
			return err
		}
	}
	names, err := s.plannedBenchmarks(o.Bench)
	if err != nil {
		return err
	}
	var tcNames []string
	for _, t := range o.Toolchains {
		tcNames = append(tcNames, t.Name)
	}
	benchtime := o.Benchtime
	if benchtime == "" {
		benchtime = "each benchmark's own iteration count"
	}
	fmt.Fprintf(stdout, "%s run of %s: toolchains %s; %d benchmarks; GOMAXPROCS %s; count %d; benchtime %s\n",
		o.ModeName(), s.Desc, strings.Join(tcNames, ","), len(names), joinInts(o.CPUs), o.Count, benchtime)
	switch {
	case o.Costs:
		plan, err := costsPlan(o, names)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, plan)
	case o.Instructions:
		fmt.Fprintf(stdout, "plan: %d runs under callgrind, of %d and 3 times as many iterations per benchmark and toolchain\n", 2*len(names)*len(o.Toolchains), mustIterations(o.Benchtime))
	default:
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
	if o.Costs {
		if err := checkPerf(ctx); err != nil {
			return err
		}
	}
	if err := o.makeFork(ctx, root); err != nil {
		return err
	}

	// Resolve and probe every toolchain before building anything, so that a
	// missing fork or an unknown experiment fails in seconds.
	tcs, err := prepareAll(ctx, root, s, o, names, stdout)
	if err != nil {
		return err
	}
	prov := readProvenance(root, o.Base, withFork(tcs))
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

	// -costs finds its probes in the binaries and defines them.
	var probes *definedUprobes
	if o.Costs {
		if probes, err = defineUprobes(ctx, tcs); err != nil {
			return err
		}
		defer probes.remove()
	}

	// Only now, with every binary built (and probed), make the output
	// folder, so that failed builds leave no empty results behind.
	outDir, err := makeOutDir(root, o.Out, s.OutPrefix, start)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "output: %s\n", outDir)
	if o.Instructions {
		return runInstructions(ctx, outDir, tcs, o, names, prov, start, stdout)
	}
	if o.Costs {
		return runCosts(ctx, outDir, tcs, probes, o, names, prov, start, stdout)
	}
	results, err := runAll(ctx, outDir, tcs, o, names, stdout)
	if err != nil {
		return err
	}
	return report(ctx, reportInput{
		Suite: s, Options: o, Start: start, OutDir: outDir, Benchstat: benchstat,
		Toolchains: tcs, Names: names, Results: results, Provenance: prov,
	}, stdout)
}

// resolveBase sets o.Base to the newest base when -base is not given, and
// checks it.
func resolveBase(root string, o *Options) error {
	if o.Base == "" {
		newest, err := fork.Newest(root)
		if err != nil {
			return err
		}
		o.Base = newest
		return nil
	}
	return fork.CheckBase(root, o.Base)
}
