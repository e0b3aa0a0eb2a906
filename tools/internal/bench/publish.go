package bench

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ReportDir is where Publish puts the runs the repository shows, relative
// to the repository root, in a folder per base of the fork
// (BaseReportDir). Unlike bench/results/ it is committed.
const ReportDir = "bench/report"

// BaseReportDir is the folder of ReportDir for runs of the fork on base.
func BaseReportDir(base string) string { return ReportDir + "/" + base }

// reportIndex is the page Publish writes in ReportDir: the run's summary
// without the raw output, which stays in bench/results/.
const reportIndex = "README.md"

// Publish copies the tables and plots of the finished run in from into
// root's ReportDir, with its record and a summary page, replacing what an
// earlier Publish put there. Only a full run of every benchmark and
// toolchain, reproducible from a commit, is accepted: the report stands
// for the repository's claims. The tables of a -costs run go to the
// costs/ folder of its base's report (publishCosts).
func Publish(root, from string, stdout io.Writer) error {
	if isFile(filepath.Join(from, bundleInfoFile)) && !isFile(filepath.Join(from, recordFile)) {
		return publishRun(root, from, stdout)
	}
	if isInstrRun(from) && !isFile(filepath.Join(from, recordFile)) {
		return publishInstructions(root, from, stdout)
	}
	if isCostsRun(from) && !isFile(filepath.Join(from, recordFile)) {
		if !isFile(filepath.Join(from, costsRecordFile)) {
			return fmt.Errorf("%s is a -costs run made before -costs runs recorded themselves (it has no %s), so it cannot say what it measured; run ./bench.bash -costs again", from, costsRecordFile)
		}
		return publishCosts(root, from, stdout)
	}
	rec, err := ReadRecord(from)
	if err != nil {
		return err
	}
	if err := publishable(rec); err != nil {
		return fmt.Errorf("cannot publish %s: %v", from, err)
	}
	base := rec.ForkBase()
	if rec.Provenance.Mutex == nil {
		// A run recorded before runs named their mutex: name it from
		// the run's commit, so that PoolCurrency can tell when it is
		// stale.
		if m, err := publishedMutexCode(root, rec); err == nil {
			rec.Provenance.Mutex = &m
		}
	}
	dst := filepath.Join(root, filepath.FromSlash(reportDirFor(rec)))
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	// Remove what the last Publish wrote, so that a workload or table the
	// new run lacks does not linger. Files it did not write stay.
	if old, err := ReadRecord(dst); err == nil {
		// A second pool's check of the old pool is not one of the new.
		for _, f := range append(reportFiles(old), secondPoolFile) {
			if err := os.Remove(filepath.Join(dst, filepath.FromSlash(f))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	for _, f := range append(reportTables(rec), rec.Plots...) {
		if err := copyFile(filepath.Join(from, filepath.FromSlash(f)), filepath.Join(dst, filepath.FromSlash(f))); err != nil {
			return err
		}
	}
	if err := writeRecord(dst, rec); err != nil {
		return err
	}
	page, err := summaryMarkdown(dst, rec, false)
	if err != nil {
		return err
	}
	if len(rec.Pooled) == 0 {
		page = withSingleRunNote(page, singleRunNote(rec.Suite, dst, filepath.Join(root, "bench"), pooledSameMutex(root, dst, rec)))
	}
	page += reproduceText(rec)
	if err := os.WriteFile(filepath.Join(dst, reportIndex), []byte(page), 0o666); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "published run %s (commit %s, %s) to %s: %d tables, %d plots\n",
		rec.Name, rec.Provenance.Commit, rec.Start.Format("2006-01-02"), reportDirFor(rec), len(rec.Tables), len(rec.Plots))
	if len(rec.Pooled) > 0 {
		// The single run published beside the pool says on its page
		// whether a pool of its mutex stands for it: say it again.
		if err := renoteSingleRun(root, filepath.Dir(dst)); err != nil {
			return err
		}
	}
	// RESULTS.md condenses every pool published for the base on this
	// host, from that of bench/'s suite on: write it again when any of
	// them changes.
	if len(rec.Pooled) > 0 && rec.Machine == "" && isFile(filepath.Join(root, filepath.FromSlash(BaseReportDir(base)), "pooled", recordFile)) {
		other, err := resultsKeptFor(root, base)
		if err != nil {
			return err
		}
		if other != "" {
			fmt.Fprintf(stdout, "left %s as it is: it condenses the pools of %s, and %s is not the newest base (./bench.bash -results writes it from the newest base's pools, -results -base %s from this one's)\n", ResultsFile, other, base, base)
			return nil
		}
		if err := WriteResults(root, base); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s from the pools published for %s\n", ResultsFile, base)
	}
	return nil
}

// singleRunNote heads the published page, in the folder dir, of a single
// run, whose verdicts the next run of the same code may not repeat. It
// points to the pool published beside it (dir/pooled/) if there is one
// and it measured the run's mutex (sameMutex), and otherwise to how a
// pool is made, in benchDir's README.md, saying whether pooled/ holds a
// pool of another mutex. The page of a run of bench/ is
// bench/report/<base>/README.md.
func singleRunNote(suite, dir, benchDir string, sameMutex bool) string {
	link := func(file string) string {
		rel, err := filepath.Rel(dir, filepath.Join(benchDir, file))
		if err != nil {
			return file
		}
		return filepath.ToSlash(rel)
	}
	note := "> One run. Runs of the same code disagree on results that are close, so\n"
	pooled := isFile(filepath.Join(dir, "pooled", reportIndex))
	if pooled && !sameMutex {
		return note + "> a result is a pool of runs made on different boots or days\n> ([pooling runs](" + link("README.md") + "#pooling-runs)), and none of this run's mutex\n> is published yet: [pooled/](pooled/README.md) measured another.\n\n"
	}
	if pooled {
		note += "> the repository's results are those of the pool in [pooled/](pooled/README.md)"
		if suite == "" {
			note += ",\n> which [bench/RESULTS.md](" + link("RESULTS.md") + ") condenses when it names this base"
		}
		return note + ".\n\n"
	}
	return note + "> a result is a pool of runs made on different boots or days\n> ([pooling runs](" + link("README.md") + "#pooling-runs)), and none is in pooled/ yet.\n\n"
}

// pooledSameMutex reports whether the pool published in dir/pooled/
// measured the mutex that rec measured; false if either is unknown.
func pooledSameMutex(root, dir string, rec Record) bool {
	pool, err := ReadRecord(filepath.Join(dir, "pooled"))
	if err != nil {
		return false
	}
	a, errA := publishedMutexCode(root, pool)
	b, errB := publishedMutexCode(root, rec)
	return errA == nil && errB == nil && a.SHA256 == b.SHA256
}

// renoteSingleRun rewrites the note on the page of the single run
// published in dir, if there is one, for the pool now in dir/pooled/.
func renoteSingleRun(root, dir string) error {
	rec, err := ReadRecord(dir)
	if err != nil || len(rec.Pooled) > 0 {
		return nil // no single run here
	}
	file := filepath.Join(dir, reportIndex)
	page, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	title, rest, _ := strings.Cut(string(page), "\n\n")
	if !strings.HasPrefix(rest, "> One run.") {
		return fmt.Errorf("%s has no single-run note under its title to rewrite; publish its run again with ./bench.bash -publish", file)
	}
	_, rest, _ = strings.Cut(rest, "\n\n")
	note := singleRunNote(rec.Suite, dir, filepath.Join(root, "bench"), pooledSameMutex(root, dir, rec))
	return os.WriteFile(file, []byte(title+"\n\n"+note+rest), 0o666)
}

// withSingleRunNote puts note under the page's title.
func withSingleRunNote(page, note string) string {
	title, rest, _ := strings.Cut(page, "\n\n")
	return title + "\n\n" + note + rest
}

// reservedReportNames are folders of a BaseReportDir that are not machines'.
var reservedReportNames = []string{"costs", costsReportDir(true), "instructions", "plots", "pooled", "runs", "runtime", upstreamRuntimeDir}

// reportDirFor is where Publish puts rec, relative to the repository root,
// under the BaseReportDir of its fork's base: a pooled run goes to pooled/
// under its suite's folder, so that it does not replace the single run the
// report shows.
func reportDirFor(rec Record) string {
	base := rec.ForkBase()
	if rec.Machine != "" {
		if rec.Suite != "" {
			return BaseReportDir(base) + "/" + rec.Machine + "/" + rec.Suite
		}
		return BaseReportDir(base) + "/" + rec.Machine
	}
	dir := ReportDirOf(base, rec.Suite)
	if rec.Suite == "runtime" && rec.Bench == upstreamRuntimeBench {
		dir = BaseReportDir(base) + "/" + upstreamRuntimeDir
	}
	if len(rec.Pooled) > 0 {
		return dir + "/pooled"
	}
	return dir
}

// reproduceText is the end of a published report's page: how to make it
// again.
func reproduceText(rec Record) string {
	if rec.Machine != "" {
		return fmt.Sprintf("## Reproduce\n\nOn a linux/%s machine, with the bundle built from the commit above:\n\n    git checkout %s\n    ./bench.bash -bundle /tmp/bundles -goarch %s\n    # copy /tmp/bundles/spinbit-bench-%s.tar.gz to the machine, then there:\n    tar xzf spinbit-bench-%s.tar.gz && ./spinbit-bench-%s/run.sh -out run\n    # back here, with the run folder:\n    ./bench.bash -report run && ./bench.bash -publish run\n\nputs a run of that machine here.\n",
			rec.GOARCH, rec.Provenance.Commit, rec.GOARCH, rec.GOARCH, rec.GOARCH, rec.GOARCH)
	}
	flag := ""
	if rec.Suite != "" {
		flag = " -" + rec.Suite
	}
	if rec.Suite == "runtime" && rec.Bench == upstreamRuntimeBench {
		flag += " -bench '" + upstreamRuntimeBench + "'"
	}
	if len(rec.Pooled) == 0 {
		return fmt.Sprintf("## Reproduce\n\n    git checkout %s\n    ./bench.bash%s\n\nwrites a new run to bench/results/; `./bench.bash -publish bench/results/latest` puts it here.\n", rec.Provenance.Commit, flag)
	}
	var dirs []string
	for _, p := range rec.Pooled {
		d := p.Dir
		if d == "" {
			d = "bench/results/" + p.Name
		}
		dirs = append(dirs, d)
	}
	return fmt.Sprintf("## Reproduce\n\n    git checkout %s\n    ./bench.bash%s    # %d times, on different boots or days, each run kept with ./bench.bash -keep\n    ./bench.bash -pool %s\n\nwrites the pooled folder to bench/results/ (the folders are those this pool joined; give -pool the folders of your own runs; -pool may be run from any later commit that has it); `./bench.bash -publish` with that folder puts it here.\n",
		rec.Provenance.Commit, flag, len(rec.Pooled), strings.Join(dirs, ","))
}

// publishable says why rec must not stand as the repository's results.
func publishable(rec Record) error {
	var why []string
	switch {
	case rec.Machine != "" && rec.Mode != "full":
		why = append(why, fmt.Sprintf("it is a %s run of a bundle; publish a run with run.sh's default -benchtime, -count and -bench", rec.Mode))
	case rec.Mode != "full":
		why = append(why, fmt.Sprintf("it is a %s run; publish a full run (./bench.bash without -quick)", rec.Mode))
	}
	if rec.Incomplete != "" {
		why = append(why, "it is incomplete ("+rec.Incomplete+")")
	}
	if len(rec.Tables) == 0 {
		why = append(why, "its record names no tables, as that of a run kept with -keep, which holds only raw output; pool it with -pool (alone or with others) and publish the pooled folder")
	}
	if len(rec.Pooled) > 0 {
		if err := poolTooWeak(rec.Pooled); err != nil {
			why = append(why, err.Error())
		}
	}
	if slices.Contains(reservedReportNames, rec.Machine) || (rec.Machine != "" && !validMachineName.MatchString(rec.Machine)) {
		why = append(why, fmt.Sprintf("its machine's name %q would be a folder of %s that is not a machine's; run run.sh again with another -name", rec.Machine, BaseReportDir(rec.ForkBase())))
	}
	if rec.ForkBase() == "" {
		why = append(why, "it names no base of the fork (a run without the fork?)")
	}
	why = append(why, suiteProblems(rec)...)
	if probs := rec.Provenance.Problems(); len(probs) > 0 {
		why = append(why, "it cannot be reproduced from its commit ("+strings.Join(probs, "; ")+"); commit (and ./make.bash), then run ./bench.bash again")
	}
	if len(why) > 0 {
		return errors.New(strings.Join(why, "; "))
	}
	return nil
}

// suiteProblems says why rec did not run the whole suite a published run
// or pool must have: every benchmark of its suite, with every toolchain
// that has them.
func suiteProblems(rec Record) []string {
	var why []string
	allBench, required := ".", Known
	switch {
	case rec.Suite == "runtime" && rec.Bench == upstreamRuntimeBench:
		// go1.23.12 is left out: its runtime lacks upstream's benchmarks.
		allBench, required = upstreamRuntimeBench, Known[1:]
	case rec.Suite == "runtime":
		// The releases are left out of -runtime runs of the series' own
		// benchmarks, which only the fork has.
		allBench, required = runtimeBench, []Toolchain{Known[1], Known[2]}
	}
	if rec.Bench != allBench {
		hint := "a published run or pool needs all of them (no -bench)"
		if rec.Suite == "runtime" {
			hint = fmt.Sprintf("a published run or pool needs a -runtime run of the series' own benchmarks (no -bench) or of upstream's (-bench '%s')", upstreamRuntimeBench)
		}
		why = append(why, fmt.Sprintf("it ran only the benchmarks matching %q; %s", rec.Bench, hint))
	}
	var missing []string
	for _, k := range required {
		found := false
		for _, t := range rec.Toolchains {
			found = found || t.Name == k.Name
		}
		if !found {
			missing = append(missing, k.Name)
		}
	}
	if len(missing) > 0 {
		why = append(why, "it left out toolchains "+strings.Join(missing, ",")+"; a published run or pool needs all of them (no -toolchains)")
	}
	return why
}

func tableFiles(r Record) []string {
	var out []string
	for _, t := range r.Tables {
		out = append(out, t.File)
	}
	return out
}

// reportTables lists the tables of r that Publish copies: benchstat's,
// and tailsFile if r has one.
func reportTables(r Record) []string {
	files := tableFiles(r)
	for _, f := range []string{r.Tails, r.Spread} {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

// reportFiles lists what Publish wrote for r, relative to its folder.
func reportFiles(r Record) []string {
	return append(append(reportTables(r), r.Plots...), recordFile, reportIndex)
}

// copyFile copies a file that a record names.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("the run's record names %s, which cannot be read (%v): was the folder changed after the run?", src, err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o666)
}

// publishRun publishes each suite of the run folder of a bundle, which
// ReportRun has reported, into bench/report/<machine>/.
func publishRun(root, dir string, stdout io.Writer) error {
	r, err := loadRun(dir)
	if err != nil {
		return err
	}
	for _, s := range r.Suites {
		if len(s.Selected) == 0 {
			continue
		}
		sub := filepath.Join(dir, s.Name)
		if !isFile(filepath.Join(sub, recordFile)) {
			return fmt.Errorf("%s has no %s: run ./bench.bash -report %s first", sub, recordFile, dir)
		}
		if err := Publish(root, sub, stdout); err != nil {
			return err
		}
	}
	return nil
}
