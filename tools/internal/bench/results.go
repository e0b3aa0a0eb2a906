package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// ResultsFile is the page that condenses the published pool of one base:
// its significant differences and the targets it misses. It is written by
// WriteResults, relative to the repository root.
const ResultsFile = "bench/RESULTS.md"

// A benchRow is one row of a benchstat comparison of two toolchains.
type benchRow struct {
	Name      string // benchmark with its -GOMAXPROCS suffix, as benchstat prints it
	Base, New string // the medians, with benchstat's units
	Delta     string // "+12.34%", or "~" when the difference is not significant
	P         string // the p-value, such as "0.012"
	N         string // the samples of each, "10", or "10+9" when they differ
}

// Significant reports whether benchstat found a difference.
func (r benchRow) Significant() bool { return strings.HasSuffix(r.Delta, "%") }

// Percent is the difference in percent; only for significant rows.
func (r benchRow) Percent() float64 {
	v, _ := strconv.ParseFloat(strings.TrimSuffix(r.Delta, "%"), 64)
	return v
}

// Procs is the GOMAXPROCS of the row: its -N suffix, or 1 without one.
func (r benchRow) Procs() int {
	if i := strings.LastIndex(r.Name, "-"); i >= 0 {
		if n, err := strconv.Atoi(r.Name[i+1:]); err == nil {
			return n
		}
	}
	return 1
}

// Workload is the row's benchmark without its -GOMAXPROCS suffix.
func (r benchRow) Workload() string {
	if i := strings.LastIndex(r.Name, "-"); i >= 0 && r.Procs() > 1 {
		return r.Name[:i]
	}
	return r.Name
}

var benchRowRE = regexp.MustCompile(`^(\S+)\s+(\S+)\s+±\s*\S+\s+(\S+)\s+±\s*\S+\s+(~|[+-][0-9.]+%)\s+\(p=([0-9.]+) n=([0-9]+(?:\+[0-9]+)?)\)`)

// parseRows reads the rows of a two-column benchstat comparison table.
func parseRows(t Table) []benchRow {
	var rows []benchRow
	for _, line := range strings.Split(t.Text, "\n") {
		m := benchRowRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rows = append(rows, benchRow{Name: m[1], Base: withSeconds(m[2], t.Unit), New: withSeconds(m[3], t.Unit), Delta: m[4], P: m[5], N: m[6]})
	}
	return rows
}

// withSeconds adds the s that benchstat leaves out of the values of a
// table in seconds ("654.0n" in a sec/op table is 654.0ns).
func withSeconds(v, unit string) string {
	if strings.HasSuffix(unit, "sec") || strings.HasSuffix(unit, "sec/op") {
		return v + "s"
	}
	return v
}

// resultMetrics are the tables RESULTS.md condenses, in its order.
var resultMetrics = []struct{ unit, title string }{
	{"sec/op", "time per op"},
	{"cpu-sec/op", "CPU time per op"},
	{"max-sec", "longest wait"},
	{"max-gap-sec", "Select's longest gap"},
	{"p99-sec", "p99 wait"},
}

// throughputTarget lists the workloads whose throughput at GOMAXPROCS 2
// and above must be within throughputMargin percent of the better peer.
var throughputTarget = []string{"ChanContended", "Select", "Handoff", "SpawnStorm"}

const throughputMargin = 3.0

// A pooledReport is what WriteResults reads: the record of the published
// pool and its comparisons of the fork with each peer.
type pooledReport struct {
	Rec        Record
	VsUpstream []Table // spinbit-vs-upstream.txt
	Peers      []peer  // the releases the p99, throughput and CPU targets are judged against
	Missing    []peer  // the optional ones the pool did not run, without tables

	// Spread is the Verdict of each row of the comparisons, run by run
	// (spreadFile); nil for a pool without that page.
	Spread map[spreadKeyOf]string

	// Second is the verdict of each significant row in a second pool
	// (secondPoolFile), keyed by benchstat's unit; nil if there is none.
	Second map[spreadKeyOf]string

	// The -runtime pool, if one is published: the fork against its
	// experiment off on the runtime's own mutex benchmarks.
	Runtime         *Record
	RuntimeVsNoSpin []Table                // runtime/pooled/spinbit-vs-nospinbit.txt
	RuntimeSecond   map[spreadKeyOf]string // its second pool's verdicts, as Second
}

// A peer is a later upstream release the fork is judged against, with
// the pool's table of the fork against it.
type peer struct {
	Name    string  // the toolchain, such as go1.24
	Release string  // such as go1.24.13
	Vs      []Table // spinbit-vs-<Name>.txt
}

// resultPeers are the peers of the targets, in the order RESULTS.md
// lists them. Every pool has the required ones; a pool whose runs did not
// include an optional one has no results for it, and RESULTS.md says so.
var resultPeers = []struct {
	name     string
	required bool
}{
	{"go1.24", true},
	{"go1.27", false},
}

// runtimeMetrics are the tables of the -runtime pool that RESULTS.md
// condenses.
var runtimeMetrics = []struct{ unit, title string }{
	{"sec/op", "time per op"},
	{"handoff-sec", "handoff time"},
	{"max-lock-sec", "longest wait for the lock"},
	{"max-wait-sec", "longest wait, a P included"},
	{"p99-lock-sec", "p99 wait for the lock"},
}

func readPooledReport(dir string) (pooledReport, error) {
	rec, err := ReadRecord(dir)
	if err != nil {
		return pooledReport{}, fmt.Errorf("no published pool in %s (%v): publish one with ./bench.bash -publish", dir, err)
	}
	p := pooledReport{Rec: rec}
	if p.Spread, err = readSpread(dir); err != nil {
		return pooledReport{}, err
	}
	if p.Second, err = readSecondPool(dir, rec.Name); err != nil {
		return pooledReport{}, err
	}
	rdir := filepath.Join(dir, "..", "runtime", "pooled")
	if rrec, err := ReadRecord(rdir); err == nil {
		data, err := os.ReadFile(filepath.Join(rdir, "spinbit-vs-nospinbit.txt"))
		if err != nil {
			return pooledReport{}, fmt.Errorf("the published -runtime pool lacks its table: %v", err)
		}
		p.Runtime, p.RuntimeVsNoSpin = &rrec, SplitTables(string(data))
		if p.RuntimeSecond, err = readSecondPool(rdir, rrec.Name); err != nil {
			return pooledReport{}, err
		}
	}
	if p.VsUpstream, err = readPoolTable(dir, Comparison{New: "spinbit", Base: "upstream"}); err != nil {
		return pooledReport{}, err
	}
	ran := map[string]bool{}
	for _, t := range rec.Toolchains {
		ran[t.Name] = true
	}
	for _, rp := range resultPeers {
		pr := peer{Name: rp.name, Release: recordedRelease(rec, rp.name)}
		c := Comparison{New: "spinbit", Base: rp.name}
		if !rp.required && !ran[rp.name] {
			if isFile(filepath.Join(dir, c.File())) {
				return pooledReport{}, fmt.Errorf("the published pool in %s holds %s but its run.json lists no %s toolchain: publish the pool again with ./bench.bash -publish", dir, c.File(), rp.name)
			}
			p.Missing = append(p.Missing, pr)
			continue
		}
		if pr.Vs, err = readPoolTable(dir, c); err != nil {
			return pooledReport{}, err
		}
		p.Peers = append(p.Peers, pr)
	}
	return p, nil
}

// readPoolTable reads the tables of comparison c from the pool in dir,
// which must have them.
func readPoolTable(dir string, c Comparison) ([]Table, error) {
	tables, err := readComparison(dir, c)
	if err != nil {
		return nil, fmt.Errorf("the published pool lacks the table %s (%v): publish a pool of full runs of every toolchain with ./bench.bash -publish", c.File(), err)
	}
	return tables, nil
}

// recordedRelease is the release that the toolchain name ran as in the
// run rec records, or, if rec has none of that name, the release that
// name stands for now: a published pool names what it measured, even
// after Known has moved on to a later point release.
func recordedRelease(rec Record, name string) string {
	for _, t := range rec.Toolchains {
		if t.Name == name && t.Version != "" {
			return t.Version
		}
	}
	return releaseOf(name)
}

// releaseOf is the release of the known toolchain name.
func releaseOf(name string) string {
	for _, t := range Known {
		if t.Name == name {
			return t.Release
		}
	}
	panic("bench: no known toolchain " + name)
}

func rowsOf(tables []Table, unit string) []benchRow {
	t, ok := FindTable(tables, unit)
	if !ok {
		return nil
	}
	return parseRows(t)
}

// WriteResults writes ResultsFile from the pool of the fork on base
// published in bench/report/<base>/pooled/.
func WriteResults(root, base string) error {
	dir := filepath.Join(root, filepath.FromSlash(BaseReportDir(base)), "pooled")
	p, err := readPooledReport(dir)
	if err != nil {
		return err
	}
	page, err := resultsMarkdown(base, p)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, filepath.FromSlash(ResultsFile)), []byte(page), 0o666)
}

// resultsMarkdown renders RESULTS.md for the pool of the fork on base;
// links are relative to bench/.
func resultsMarkdown(base string, p pooledReport) (string, error) {
	var b strings.Builder
	rec := p.Rec
	rel := strings.TrimPrefix(BaseReportDir(base), "bench/")
	b.WriteString("# Benchmark results\n\n")
	fmt.Fprintf(&b, "Written by `./bench.bash -results -base %s` from the published pool of the fork on %s in\n[%s/pooled/](%s/pooled/README.md); do not edit.\n\n", base, base, rel, rel)
	fmt.Fprintf(&b, "- pool %s of %d runs, %s: %s\n", rec.Name, len(rec.Pooled), poolSpan(rec.Pooled), pooledRuns(rec))
	if note := poolRebootNote(rec.Pooled); note != "" {
		fmt.Fprintf(&b, "- %s\n", note)
	}
	fmt.Fprintf(&b, "- host: %s\n", rec.Host)
	fmt.Fprintf(&b, "- %d samples per median (%s); benchtime %s; GOMAXPROCS %s\n", rec.Count, plural(len(rec.Pooled), "run"), rec.Benchtime, joinInts(rec.CPUs))
	var tcs []string
	for _, t := range rec.Toolchains {
		d := t.Name + " = " + t.Version
		if t.Experiment != "" {
			d += " with GOEXPERIMENT=" + t.Experiment
		}
		tcs = append(tcs, d)
	}
	fmt.Fprintf(&b, "- toolchains: %s\n\n", strings.Join(tcs, ", "))
	if len(rec.Pooled) < minPoolRuns {
		fmt.Fprintf(&b, "**Provisional: this pool joins %s, and a result needs at least %d, each made on another boot or day ([README.md](README.md#pooling-runs)). The next run of the same code may not repeat these verdicts.**\n\n", plural(len(rec.Pooled), "run"), minPoolRuns)
	}
	b.WriteString("Only differences benchstat finds significant (p < 0.05) are listed; every\nother result is `~`. The targets are those of [README.md](README.md#targets).\nThe last column says how many runs, and how many samples of each\ntoolchain, stand behind the row (two numbers when the samples differ).\n\n")
	if p.Second != nil {
		b.WriteString("A row marked **second pool disagrees** changed the other way in a second\npool of the same code made on other days ([second pool](" + strings.TrimPrefix(BaseReportDir(base), "bench/") + "/pooled/" + secondPoolFile + ")):\nit is not a result.\n\n")
	}
	if p.Spread != nil {
		b.WriteString("A row or missed target marked **runs disagree** moved one way in some of\nthe pool's runs and the other way in others ([run to run](" + strings.TrimPrefix(BaseReportDir(base), "bench/") + "/pooled/" + spreadFile + ")):\nthe machine's state decides it, not the code.\n\n")
	}

	b.WriteString("## Targets missed\n\n")
	misses, err := targetMisses(p)
	if err != nil {
		return "", err
	}
	if len(misses) == 0 {
		b.WriteString("None.\n\n")
	}
	for _, m := range misses {
		fmt.Fprintf(&b, "- %s\n", m)
	}
	if len(misses) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("The uncontended target (within 1% of go1.23.12 at GOMAXPROCS 1) is judged\nby `./bench.bash -instructions`, not by these timings.\n\n")
	for _, m := range p.Missing {
		fmt.Fprintf(&b, "This pool has no %s results: its runs did not include the %s toolchain,\nso the p99, throughput and CPU targets are judged against %s alone.\n\n", m.Release, m.Name, peerReleases(p.Peers))
	}

	sections := []peer{{Name: "upstream", Release: recordedRelease(rec, "upstream"), Vs: p.VsUpstream}}
	for _, c := range append(sections, p.Peers...) {
		fmt.Fprintf(&b, "## The fork against %s\n\n", c.Release)
		fmt.Fprintf(&b, "| metric | benchmark | %s | fork | change | p | runs, samples |\n|---|---|---|---|---|---|---|\n", c.Release)
		n := 0
		for _, m := range resultMetrics {
			for _, r := range rowsOf(c.Vs, m.unit) {
				if r.Significant() {
					fmt.Fprintf(&b, "| %s | %s | %s | %s | %s%s | %s | %s |\n", m.title, r.Name, r.Base, r.New, r.Delta, p.runsNote(c.Name, r, m.unit), r.P, rowSamples(rec, r))
					n++
				}
			}
		}
		if n == 0 {
			b.WriteString("| (none) | | | | | | |\n")
		}
		b.WriteString("\n")
	}
	for _, m := range p.Missing {
		fmt.Fprintf(&b, "## The fork against %s\n\nNo results: the pool's runs did not include the %s toolchain.\n\n", m.Release, m.Name)
	}
	if p.Runtime != nil {
		b.WriteString("## The runtime's own mutex benchmarks: the fork against its experiment off\n\n")
		fmt.Fprintf(&b, "From [%s/runtime/pooled/](%s/runtime/pooled/README.md), pool %s of %s; %d samples per median. The experiment off is the tristate mutex the series brings back: go1.23's in the go1.23.12 series, go1.24.13's in the go1.27 series.\n\n", rel, rel, p.Runtime.Name, pooledRuns(*p.Runtime), p.Runtime.Count)
		b.WriteString("| metric | benchmark | experiment off | fork | change | p | runs, samples |\n|---|---|---|---|---|---|---|\n")
		for _, m := range runtimeMetrics {
			for _, r := range rowsOf(p.RuntimeVsNoSpin, m.unit) {
				if r.Significant() {
					fmt.Fprintf(&b, "| %s | %s | %s | %s | %s%s | %s | %s |\n", m.title, r.Name, r.Base, r.New, r.Delta, p.runtimeNote(r, m.unit), r.P, rowSamples(*p.Runtime, r))
				}
			}
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// runsNote marks a row of the fork's comparison with the toolchain base
// (its benchstat unit unit) whose runs disagreed in sign, some up and
// some down, or that the spread page lacks, and one that a second pool
// did not repeat (secondPoolFile); it is empty otherwise, and when the
// pool has neither page.
func (p pooledReport) runsNote(base string, r benchRow, unit string) string {
	c := Comparison{New: "spinbit", Base: base}.String()
	note := ""
	if p.Spread != nil {
		verdict, ok := p.Spread[spreadKeyOf{c, r.Name, spreadUnitOf(unit)}]
		switch {
		case !ok:
			note += " (runs not compared)"
		case verdict == spreadMixed:
			note += " (**runs disagree**)"
		}
	}
	return note + secondNote(p.Second, Comparison{New: "spinbit", Base: base}, r, unit)
}

// runtimeNote is runsNote for a row of the -runtime pool's comparison of
// the fork with its experiment off: only a second pool marks those.
func (p pooledReport) runtimeNote(r benchRow, unit string) string {
	return secondNote(p.RuntimeSecond, Comparison{New: "spinbit", Base: "nospinbit"}, r, unit)
}

// rowSamples says what stands behind a row of the pool rec: its runs and
// each toolchain's samples.
func rowSamples(rec Record, r benchRow) string {
	return fmt.Sprintf("%s, %s samples", plural(len(rec.Pooled), "run"), r.N)
}

// peerReleases names the releases of peers, as in "go1.24.13 and go1.27.3".
func peerReleases(peers []peer) string {
	var names []string
	for _, pr := range peers {
		names = append(names, pr.Release)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// pooledRuns names the runs a pool joins, with their commits.
func pooledRuns(rec Record) string {
	var runs []string
	for _, r := range rec.Pooled {
		runs = append(runs, fmt.Sprintf("%s (commit `%.7s`)", r.Name, r.Commit))
	}
	return strings.Join(runs, ", ")
}

// targetMisses lists, in words, each result on the wrong side of a target
// of bench/README.md that benchstat finds significant.
func targetMisses(p pooledReport) ([]string, error) {
	var out []string
	for _, unit := range []string{"max-sec", "max-gap-sec"} {
		for _, r := range rowsOf(p.VsUpstream, unit) {
			if r.Significant() && r.Percent() > 0 {
				out = append(out, fmt.Sprintf("longest wait no worse than go1.23.12's: %s %s, %s against %s (%s, p=%s)%s", r.Name, strings.TrimSuffix(unit, "-sec"), r.New, r.Base, r.Delta, r.P, p.runsNote("upstream", r, unit)))
			}
		}
	}
	for _, pr := range p.Peers {
		for _, r := range rowsOf(pr.Vs, "p99-sec") {
			if r.Significant() && r.Percent() > 0 {
				out = append(out, fmt.Sprintf("p99 no worse than %s's: %s, %s against %s (%s, p=%s)%s", pr.Release, r.Name, r.New, r.Base, r.Delta, r.P, p.runsNote(pr.Name, r, "p99-sec")))
			}
		}
	}
	slower, err := throughputMisses(p)
	if err != nil {
		return nil, err
	}
	out = append(out, slower...)
	for _, pr := range p.Peers {
		for _, r := range rowsOf(pr.Vs, "cpu-sec/op") {
			if r.Significant() && r.Percent() > 0 {
				out = append(out, fmt.Sprintf("CPU per op no worse than %s's: %s, %s against %s (%s, p=%s)%s", pr.Release, r.Name, r.New, r.Base, r.Delta, r.P, p.runsNote(pr.Name, r, "cpu-sec/op")))
			}
		}
	}
	// The runtime's benchmarks, against the experiment off (go1.23's lock).
	for _, unit := range []string{"max-lock-sec", "max-wait-sec"} {
		for _, r := range rowsOf(p.RuntimeVsNoSpin, unit) {
			if r.Significant() && r.Percent() > 0 {
				out = append(out, fmt.Sprintf("longest wait no worse than the experiment off: %s %s, %s against %s (%s, p=%s)%s", r.Name, strings.TrimSuffix(unit, "-sec"), r.New, r.Base, r.Delta, r.P, p.runtimeNote(r, unit)))
			}
		}
	}
	for _, r := range rowsOf(p.RuntimeVsNoSpin, "sec/op") {
		if r.Workload() == "RuntimeMutexContended" && r.Procs() >= 2 && r.Significant() && r.Percent() > throughputMargin {
			out = append(out, fmt.Sprintf("throughput within %g%% of the experiment off: %s, %s against %s (%s, p=%s)%s", throughputMargin, r.Name, r.New, r.Base, r.Delta, r.P, p.runtimeNote(r, "sec/op")))
		}
	}
	return out, nil
}

// throughputMisses judges the throughput target: at each benchmark of
// throughputTarget at GOMAXPROCS 2 and above, the fork against the better
// of the peers there, the one whose median (the Base of its table) is
// lowest, the first on a tie.
func throughputMisses(p pooledReport) ([]string, error) {
	peers := p.Peers
	type best struct {
		peer   peer
		row    benchRow
		median float64
	}
	var order []string
	better := map[string]best{}
	for _, pr := range peers {
		for _, r := range rowsOf(pr.Vs, "sec/op") {
			if r.Procs() < 2 || !contains(throughputTarget, r.Workload()) {
				continue
			}
			v, ok := parseValue(r.Base)
			if !ok {
				return nil, fmt.Errorf("cannot read the %s median %q of %s in the published pool's spinbit-vs-%s.txt: publish it again with ./bench.bash -publish", pr.Name, r.Base, r.Name, pr.Name)
			}
			b, seen := better[r.Name]
			if !seen {
				order = append(order, r.Name)
			}
			if !seen || v < b.median {
				better[r.Name] = best{pr, r, v}
			}
		}
	}
	var out []string
	for _, name := range order {
		b := better[name]
		if r := b.row; r.Significant() && r.Percent() > throughputMargin {
			out = append(out, fmt.Sprintf("throughput within %g%% of the better peer: %s, %s against %s's %s (%s, p=%s)%s", throughputMargin, r.Name, r.New, b.peer.Release, r.Base, r.Delta, r.P, p.runsNote(b.peer.Name, r, "sec/op")))
		}
	}
	return out, nil
}

// parseValue reads a median of a benchRow such as "654.0ns", "1.540ms",
// "11240.0µs" or "5.182Ki" as a number of the base unit.
func parseValue(s string) (float64, bool) {
	s = strings.TrimSuffix(s, "s")
	mult := 1.0
	for suffix, m := range map[string]float64{"n": 1e-9, "µ": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v * mult, err == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
