package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// Pool joins finished runs of the same code into one new output folder, as
// if one run had made all their repetitions: each toolchain's raw output
// there is the runs' raw outputs one after another, and the tables, plots,
// summary and record are made from it as for a run, so each median is of
// the samples of every run. Within each run the toolchains were
// interleaved, so every toolchain has samples from the same stretches of
// time.
//
// Runs pool only if they measured the same thing the same way (see
// poolable). out is the folder to write, empty for
// bench/results/pooled-<timestamp> (runtime-pooled-... for -runtime runs).
func Pool(ctx context.Context, root string, dirs []string, out string, stdout io.Writer) error {
	recs := make([]Record, len(dirs))
	for i, d := range dirs {
		rec, err := ReadRecord(d)
		if err != nil {
			return err
		}
		recs[i] = rec
	}
	repo := fork.Repo{Root: root}
	if err := poolable(recs, repo.ChangedBetween); err != nil {
		return fmt.Errorf("cannot pool: %v", err)
	}
	if err := outputsPoolable(dirs, recs); err != nil {
		return err
	}
	benchstat, remove, err := tempBenchstat(ctx, root, "spinbit-pool-")
	if err != nil {
		return err
	}
	defer remove()
	prefix := "pooled-"
	if recs[0].Suite != "" {
		prefix = recs[0].Suite + "-pooled-"
	}
	existed := false
	if out != "" {
		_, err := os.Stat(out)
		existed = err == nil
	}
	outDir, err := makeOutDir(root, out, prefix, time.Now())
	if err != nil {
		return err
	}
	if err = poolInto(ctx, outDir, benchstat, dirs, recs, stdout); err != nil {
		// A pool that failed leaves nothing behind: not the folder it
		// made, nor what it wrote into an empty one it was given, so
		// that the same command can be run again.
		if existed {
			ents, _ := os.ReadDir(outDir)
			for _, e := range ents {
				os.RemoveAll(filepath.Join(outDir, e.Name()))
			}
		} else {
			os.RemoveAll(outDir)
		}
	}
	return err
}

// changedFunc lists the files under paths that differ between two commits
// (fork.Repo.ChangedBetween).
type changedFunc func(a, b string, paths ...string) ([]string, error)

// poolable says why the runs recs must not be pooled: they must be at
// least two distinct runs, none of them pooled already, timed (not
// counted), each reproducible from its commit, of the same suite, mode,
// benchmarks, benchtime, GOMAXPROCS values and toolchains, on the same
// host, and from commits that agree in every file that decides what a run
// measures (poolPaths).
func poolable(recs []Record, changed changedFunc) error {
	if len(recs) == 0 {
		return fmt.Errorf("-pool needs at least one run; give the folders separated by commas")
	}
	first := recs[0]
	seen := map[string]bool{}
	for _, r := range recs {
		switch {
		case seen[r.Name]:
			return fmt.Errorf("run %s is named twice; name each run once", r.Name)
		case len(r.Pooled) > 0:
			var from []string
			for _, p := range r.Pooled {
				from = append(from, p.Name)
			}
			return fmt.Errorf("%s is pooled already; pool the runs it joins (%s) with the others instead", r.Name, strings.Join(from, ", "))
		case r.Mode == "instruction-counting":
			return fmt.Errorf("%s counts instructions, which vary far less than times: there is nothing to pool", r.Name)
		}
		seen[r.Name] = true
		if probs := r.Provenance.Problems(); len(probs) > 0 {
			return fmt.Errorf("%s cannot be reproduced from its commit (%s), so what code it measured is unknown; pool runs made from a commit with a clean tree", r.Name, strings.Join(probs, "; "))
		}
	}
	for _, r := range recs[1:] {
		if what, a, b := settingsDiffer(first, r); what != "" {
			return fmt.Errorf("%s and %s differ in %s (%v against %v); pool only runs made with the same settings", first.Name, r.Name, what, a, b)
		}
		files, err := codeChanges(first, r, changed)
		if err != nil {
			return err
		}
		if len(files) > 0 {
			return fmt.Errorf("%s (commit %s) and %s (commit %s) measured different code: the commits differ in %s; pool only runs of commits that agree in %s (make the runs again from one commit, or from commits that change none of these)",
				first.Name, first.Provenance.Commit, r.Name, r.Provenance.Commit, strings.Join(files, ", "), poolPathsText(first.ForkBase()))
		}
	}
	return nil
}

// codeChanges lists the files of what a run measures (poolPaths) in which
// the commits of the runs first and r differ; none if they are one commit.
func codeChanges(first, r Record, changed changedFunc) ([]string, error) {
	if r.Provenance.Commit == first.Provenance.Commit {
		return nil, nil
	}
	files, err := changed(first.Provenance.Commit, r.Provenance.Commit, poolPaths(first.ForkBase())...)
	if err != nil {
		return nil, fmt.Errorf("comparing commits %s (%s) and %s (%s): %v", first.Provenance.Commit, first.Name, r.Provenance.Commit, r.Name, err)
	}
	return files, nil
}

// settingsDiffer names the first setting in which the runs first and r
// differ, with first's value and r's, or returns "" if they were made with
// the same settings on the same host.
func settingsDiffer(first, r Record) (what string, a, b any) {
	switch {
	case r.Suite != first.Suite:
		return "suite", suiteName(first.Suite), suiteName(r.Suite)
	case r.ForkBase() != first.ForkBase():
		return "the fork's base", first.ForkBase(), r.ForkBase()
	case r.Mode != first.Mode:
		return "mode", first.Mode, r.Mode
	case r.Bench != first.Bench:
		return "-bench", first.Bench, r.Bench
	case r.Benchtime != first.Benchtime:
		return "-benchtime", first.Benchtime, r.Benchtime
	case !slices.Equal(r.CPUs, first.CPUs):
		return "-cpu", joinInts(first.CPUs), joinInts(r.CPUs)
	case r.Host != first.Host:
		return "host", first.Host, r.Host
	case r.Interleave != first.Interleave:
		return "interleaving", interleaveNote(first.Interleave), interleaveNote(r.Interleave)
	case !sameToolchains(first.Toolchains, r.Toolchains):
		return "toolchains", toolchainList(first.Toolchains), toolchainList(r.Toolchains)
	}
	return "", nil, nil
}

func suiteName(s string) string {
	if s == "" {
		return "bench/"
	}
	return "-" + s
}

func sameToolchains(a, b []RecordToolchain) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Version != b[i].Version || a[i].Experiment != b[i].Experiment {
			return false
		}
	}
	return true
}

func toolchainList(ts []RecordToolchain) string {
	var s []string
	for _, t := range ts {
		d := t.Name + " " + t.Version
		if t.Experiment != "" {
			d += " GOEXPERIMENT=" + t.Experiment
		}
		s = append(s, d)
	}
	return strings.Join(s, ", ")
}

// poolInto writes the pooled run of the runs recs, whose folders are dirs,
// to outDir.
func poolInto(ctx context.Context, outDir, benchstat string, dirs []string, recs []Record, stdout io.Writer) error {
	first := recs[0]
	var tcs []*prepared
	results := map[string][]Result{}
	byRun := map[string][][]Result{}
	workloads := map[string]bool{}
	for j, t := range first.Toolchains {
		p := &prepared{Toolchain: Toolchain{Name: t.Name, Experiment: t.Experiment}, Version: t.Version, Raw: filepath.Join(outDir, t.Raw)}
		var raw []byte
		for i, d := range dirs {
			name := filepath.Join(d, recs[i].Toolchains[j].Raw)
			data, err := os.ReadFile(name)
			if err != nil {
				return fmt.Errorf("the record of %s names %s, which cannot be read (%v): was the folder changed after the run?", d, recs[i].Toolchains[j].Raw, err)
			}
			rs, err := ParseOutput(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("parsing %s: %v", name, err)
			}
			byRun[t.Name] = append(byRun[t.Name], rs)
			raw = append(raw, data...)
		}
		if err := os.WriteFile(p.Raw, raw, 0o666); err != nil {
			return err
		}
		rs, err := ParseOutput(bytes.NewReader(raw))
		if err != nil {
			return fmt.Errorf("parsing the pooled output of %s: %v", t.Name, err)
		}
		for _, w := range Workloads(rs) {
			workloads[w] = true
		}
		results[t.Name] = rs
		tcs = append(tcs, p)
	}

	var names []string
	for w := range workloads {
		names = append(names, w)
	}
	sort.Strings(names)
	s := Options{Runtime: first.Suite == "runtime"}.suite("")
	rec := pooledRecord(filepath.Base(outDir), recs)
	for i := range rec.Pooled {
		rec.Pooled[i].Dir = repoRelative(dirs[i])
	}
	tables, plots, err := writeTablesAndPlots(ctx, benchstat, outDir, tcs, s.Comparisons, names, results, plotCaption(rec, whiskersRange))
	if err != nil {
		return err
	}

	rec.Tables = tables
	if rec.Tails, err = writeTails(outDir, tableComparisons(tables), byRun); err != nil {
		return err
	}
	var runNames []string
	for _, r := range recs {
		runNames = append(runNames, r.Name)
	}
	if rec.Spread, err = writeSpread(outDir, tableComparisons(tables), byRun, runNames); err != nil {
		return err
	}
	for _, p := range plots {
		rec.Plots = append(rec.Plots, filepath.ToSlash(p))
	}
	if err := writeSummary(outDir, rec); err != nil {
		return err
	}
	if err := writeRecord(outDir, rec); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "pooled %d runs (%d repetitions in all) into %s: %d tables, %d plots\n", len(recs), rec.Count, outDir, len(tables), len(plots))
	return nil
}

// benchConfigKeys are the lines of go test -bench output that benchstat
// reads as the configuration of the results below them.
var benchConfigKeys = []string{"goos", "goarch", "pkg", "cpu"}

// outputsPoolable returns an error if some run's output of some
// toolchain cannot be read, or differs from the first run's in its
// configuration lines (sameBenchConfig). Pool asks before it makes its
// folder, so that such a refusal leaves nothing behind; poolInto then
// reads the same files for their results.
func outputsPoolable(dirs []string, recs []Record) error {
	for j, t := range recs[0].Toolchains {
		var earlier []byte
		for i, d := range dirs {
			data, err := os.ReadFile(filepath.Join(d, recs[i].Toolchains[j].Raw))
			if err != nil {
				return fmt.Errorf("the record of %s names %s, which cannot be read (%v): was the folder changed after the run?", d, recs[i].Toolchains[j].Raw, err)
			}
			if i > 0 {
				if err := sameBenchConfig(data, earlier, d, dirs[0], t.Name); err != nil {
					return err
				}
			}
			earlier = append(earlier, data...)
		}
	}
	return nil
}

// sameBenchConfig returns an error if a toolchain's output of run dir,
// data, and its output of the runs before it, earlier (of which firstDir
// is the first), differ in their configuration lines (benchConfigKeys).
// benchstat keeps results of different configurations apart, so such a
// pool's tables would each stand on only some of its runs while its pages
// count all of them. The host each run records already has to agree; this
// catches a machine that names its processor one way and Go another.
func sameBenchConfig(data, earlier []byte, dir, firstDir, toolchain string) error {
	this, before := benchConfigLines(data), benchConfigLines(earlier)
	for _, c := range []struct {
		has, lacks       map[string]bool
		hasDir, lacksDir string
	}{{this, before, dir, firstDir}, {before, this, firstDir, dir}} {
		for _, l := range sortedKeys(c.has) {
			if !c.lacks[l] {
				return fmt.Errorf("cannot pool: %s's output in %s says %q, which its output in %s does not; benchstat would keep their results apart, so pool only runs of one machine", toolchain, c.hasDir, l, c.lacksDir)
			}
		}
	}
	return nil
}

// benchConfigLines is the set of configuration lines (benchConfigKeys) of
// go test -bench output.
func benchConfigLines(data []byte) map[string]bool {
	lines := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		for _, k := range benchConfigKeys {
			if strings.HasPrefix(l, k+": ") {
				lines[strings.TrimRight(l, "\r")] = true
			}
		}
	}
	return lines
}

// sortedKeys returns the keys of set in order.
func sortedKeys(set map[string]bool) []string {
	var keys []string
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// repoRelative is dir relative to the repository it lies in, with
// slashes, or "" if it lies in none.
func repoRelative(dir string) string {
	root, err := FindRoot(dir)
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// pooledRecord describes the pooling of recs, which poolable accepted: their
// common settings, commit and toolchains, their repetitions and time
// added up, and the runs themselves. Tables and plots are left to the
// caller.
func pooledRecord(name string, recs []Record) Record {
	first := recs[0]
	r := Record{
		Name: name, Mode: first.Mode, Suite: first.Suite, Benchtime: first.Benchtime, CPUs: first.CPUs, Bench: first.Bench,
		Start: first.Start, Host: first.Host, Toolchains: first.Toolchains, Provenance: first.Provenance,
		Interleave: first.Interleave,
	}
	var elapsed time.Duration
	for _, x := range recs {
		r.Count += x.Count
		if x.Start.Before(r.Start) {
			r.Start = x.Start
		}
		if d, err := time.ParseDuration(x.Elapsed); err == nil {
			elapsed += d
		}
		r.Pooled = append(r.Pooled, PooledRun{Name: x.Name, Commit: x.Provenance.Commit, Start: x.Start, Count: x.Count, Boot: x.Boot})
	}
	r.Elapsed = elapsed.String()
	return r
}
