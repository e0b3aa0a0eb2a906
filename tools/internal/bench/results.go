package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go-spinbit.dev/tools/internal/fork"
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
// table in seconds ("654.0n" in a sec/op table is 654.0ns; its units in
// seconds are x-sec, x-sec/op and sec/x).
func withSeconds(v, unit string) string {
	if strings.HasSuffix(unit, "sec") || strings.HasSuffix(unit, "sec/op") || strings.HasPrefix(unit, "sec/") {
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

// throughputTarget lists the workloads of bench/ whose time per op, at
// every GOMAXPROCS, must be within targetMargin percent of the better
// peer's.
var throughputTarget = []string{"ChanContended", "Select", "HTTP", "Handoff", "SpawnStorm"}

// upstreamThroughputTarget lists those of upstream's runtime mutex
// benchmarks (upstreamRuntimeBench) under the same target.
var upstreamThroughputTarget = []string{"MutexContention"}

// upstreamWaitTarget is the benchmark of upstreamRuntimeBench whose
// waits between a goroutine's turns (upstreamWaitUnits) must be no
// worse than each peer's where GOMAXPROCS is at most the host's CPUs:
// there the OS runs every P's thread at once, and a longer wait is the
// mutex's, not the scheduler's.
const upstreamWaitTarget = "MutexCapture"

// upstreamWaitUnits are the benchstat units of upstreamWaitTarget's
// 90th percentile and longest wait between turns.
var upstreamWaitUnits = []struct{ unit, title string }{
	{"sec/starve-p90", "p90 wait between turns"},
	{"sec/starve-p100", "longest wait between turns"},
}

// targetMargin is the difference, in percent, that the throughput and
// CPU targets allow.
const targetMargin = 3.0

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
	RuntimeSpread   map[spreadKeyOf]string // its run-to-run verdicts, as Spread
	RuntimeSecond   map[spreadKeyOf]string // its second pool's verdicts, as Second

	// The pool of upstream's runtime mutex benchmarks, if one is
	// published (upstreamRuntimeDir/pooled/).
	Upstream *upstreamPool
}

// An upstreamPool is the published pool of upstream's runtime mutex
// benchmarks: the fork against the peers that have them.
type upstreamPool struct {
	Rec    Record
	CPUs   int    // the host's logical CPUs, from Rec.Host
	Peers  []peer // those of resultPeers its runs include
	Spread map[spreadKeyOf]string
	Second map[spreadKeyOf]string
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
	{currentPeer, false},
}

// currentPeer is the toolchain of the current upstream release, the one
// the fork's main series is built on. A target missed against another
// release is said beside the same row against it, so that a reader sees
// whether the fork or upstream's own changes since that release miss it.
const currentPeer = "go1.27"

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
		if p.RuntimeSpread, err = readSpread(rdir); err != nil {
			return pooledReport{}, err
		}
		if p.RuntimeSecond, err = readSecondPool(rdir, rrec.Name); err != nil {
			return pooledReport{}, err
		}
	}
	udir := filepath.Join(dir, "..", upstreamRuntimeDir, "pooled")
	if urec, err := ReadRecord(udir); err == nil {
		if p.Upstream, err = readUpstreamPool(udir, urec); err != nil {
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

// readUpstreamPool reads the published pool rec of upstream's runtime
// mutex benchmarks in dir.
func readUpstreamPool(dir string, rec Record) (*upstreamPool, error) {
	u := &upstreamPool{Rec: rec}
	var ok bool
	if u.CPUs, ok = logicalCPUs(rec.Host); !ok {
		return nil, fmt.Errorf("the published pool of upstream's runtime benchmarks in %s names no count of CPUs in its host %q, which its targets need: publish it again with ./bench.bash -publish", dir, rec.Host)
	}
	var err error
	if u.Spread, err = readSpread(dir); err != nil {
		return nil, err
	}
	if u.Second, err = readSecondPool(dir, rec.Name); err != nil {
		return nil, err
	}
	for _, rp := range resultPeers {
		if !slices.ContainsFunc(rec.Toolchains, func(t RecordToolchain) bool { return t.Name == rp.name }) {
			continue
		}
		pr := peer{Name: rp.name, Release: recordedRelease(rec, rp.name)}
		if pr.Vs, err = readPoolTable(dir, Comparison{New: "spinbit", Base: rp.name}); err != nil {
			return nil, err
		}
		u.Peers = append(u.Peers, pr)
	}
	if len(u.Peers) == 0 {
		return nil, fmt.Errorf("the published pool of upstream's runtime benchmarks in %s has none of the releases it is judged against (%s): publish a pool of runs of every toolchain with ./bench.bash -publish", dir, upstreamPeerNames())
	}
	return u, nil
}

// hostCPUsRE finds the logical CPUs in a Record's Host.
var hostCPUsRE = regexp.MustCompile(`\b([0-9]+) logical CPUs?\b`)

// logicalCPUs reads the count of logical CPUs in a Record's Host, as
// hostCPU writes it ("AMD EPYC, 2 logical CPUs").
func logicalCPUs(host string) (int, bool) {
	m := hostCPUsRE.FindStringSubmatch(host)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// upstreamPeerNames names the toolchains of resultPeers, as in "go1.24 or go1.27".
func upstreamPeerNames() string {
	var names []string
	for _, rp := range resultPeers {
		names = append(names, rp.name)
	}
	return strings.Join(names, " or ")
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

// resultsBaseRE finds the base that RESULTS.md condenses in its first
// paragraph, as resultsMarkdown writes it.
var resultsBaseRE = regexp.MustCompile("-results -base (go1[.0-9]+)")

// resultsKeptFor says whether Publish, having published a pool of base,
// must leave RESULTS.md as it is: when it condenses the pools of another
// base and base is not the newest base in bases/ (the series users run),
// so that publishing the older series' pool does not put its results in
// place of the newest's. It returns the base RESULTS.md names then, and
// "" when Publish may write it (no RESULTS.md yet, one of base, or base
// the newest).
func resultsKeptFor(root, base string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ResultsFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	m := resultsBaseRE.FindSubmatch(data)
	if m == nil || string(m[1]) == base {
		return "", nil
	}
	newest, err := fork.Newest(root)
	if err != nil {
		return "", fmt.Errorf("cannot tell whether %s is the newest base, whose results %s must keep (%v)", base, ResultsFile, err)
	}
	if newest == base {
		return "", nil
	}
	return string(m[1]), nil
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
		writeSignificantRows(&b, c.Release, resultMetrics, c.Vs, rec, func(r benchRow, unit string) string { return p.runsNote(c.Name, r, unit) })
	}
	for _, m := range p.Missing {
		fmt.Fprintf(&b, "## The fork against %s\n\nNo results: the pool's runs did not include the %s toolchain.\n\n", m.Release, m.Name)
	}
	if p.Runtime != nil {
		b.WriteString("## The runtime's own mutex benchmarks: the fork against its experiment off\n\n")
		fmt.Fprintf(&b, "From [%s/runtime/pooled/](%s/runtime/pooled/README.md), pool %s of %s; %d samples per median. The experiment off is the tristate mutex the series brings back: go1.23's in the go1.23.12 series, go1.24.13's in the go1.27 series.\n\n", rel, rel, p.Runtime.Name, pooledRuns(*p.Runtime), p.Runtime.Count)
		writeSpreadLink(&b, p.RuntimeSpread, rel+"/runtime/pooled/")
		writeSignificantRows(&b, "experiment off", runtimeMetrics, p.RuntimeVsNoSpin, *p.Runtime, p.runtimeNote)
	}
	if u := p.Upstream; u != nil {
		b.WriteString("## Upstream's runtime mutex benchmarks\n\n")
		fmt.Fprintf(&b, "The runtime package's own `%s`, built by each toolchain from its own tree, from [%s/%s/pooled/](%s/%s/pooled/README.md): pool %s of %s; %d samples per median; host %s.\n\n", upstreamRuntimeBench, rel, upstreamRuntimeDir, rel, upstreamRuntimeDir, u.Rec.Name, pooledRuns(u.Rec), u.Rec.Count, u.Rec.Host)
		writeSpreadLink(&b, u.Spread, rel+"/"+upstreamRuntimeDir+"/pooled/")
		for _, pr := range u.Peers {
			fmt.Fprintf(&b, "### The fork against %s\n\n", pr.Release)
			writeSignificantRows(&b, pr.Release, upstreamMetrics, pr.Vs, u.Rec, func(r benchRow, unit string) string { return u.note(pr.Name, r, unit) })
		}
	}
	return b.String(), nil
}

// writeSpreadLink says, for a section of the pool in the folder dir
// (relative to bench/) whose run-to-run verdicts are spread, where its
// rows marked **runs disagree** come from; nothing for a pool without
// that page.
func writeSpreadLink(b *strings.Builder, spread map[spreadKeyOf]string, dir string) {
	if spread != nil {
		fmt.Fprintf(b, "Its rows marked **runs disagree** moved both ways among its runs ([run to run](%s%s)).\n\n", dir, spreadFile)
	}
}

// writeSignificantRows writes a table of the significant rows of tables,
// metric by metric, of the fork against the toolchain column names; rec
// is the pool behind them, and note marks a row of a unit.
func writeSignificantRows(b *strings.Builder, column string, metrics []struct{ unit, title string }, tables []Table, rec Record, note func(r benchRow, unit string) string) {
	fmt.Fprintf(b, "| metric | benchmark | %s | fork | change | p | runs, samples |\n|---|---|---|---|---|---|---|\n", column)
	n := 0
	for _, m := range metrics {
		for _, r := range rowsOf(tables, m.unit) {
			if r.Significant() {
				fmt.Fprintf(b, "| %s | %s | %s | %s | %s%s | %s | %s |\n", m.title, r.Name, r.Base, r.New, r.Delta, note(r, m.unit), r.P, rowSamples(rec, r))
				n++
			}
		}
	}
	if n == 0 {
		b.WriteString("| (none) | | | | | | |\n")
	}
	b.WriteString("\n")
}

// runsNote marks a row of the fork's comparison with the toolchain base
// (its benchstat unit unit) whose runs disagreed in sign, some up and
// some down, or that the spread page lacks, and one that a second pool
// did not repeat (secondPoolFile); it is empty otherwise, and when the
// pool has neither page.
func (p pooledReport) runsNote(base string, r benchRow, unit string) string {
	return spreadNote(p.Spread, base, r, unit) + secondNote(p.Second, Comparison{New: "spinbit", Base: base}, r, unit)
}

// spreadNote is the part of runsNote that a pool's run-to-run page
// (spread, nil for none) gives.
func spreadNote(spread map[spreadKeyOf]string, base string, r benchRow, unit string) string {
	if spread == nil {
		return ""
	}
	verdict, ok := spread[spreadKeyOf{Comparison{New: "spinbit", Base: base}.String(), r.Name, spreadUnitOf(unit)}]
	switch {
	case !ok:
		return " (runs not compared)"
	case verdict == spreadMixed:
		return " (**runs disagree**)"
	}
	return ""
}

// note is runsNote for a row of the pool u.
func (u *upstreamPool) note(base string, r benchRow, unit string) string {
	return spreadNote(u.Spread, base, r, unit) + secondNote(u.Second, Comparison{New: "spinbit", Base: base}, r, unit)
}

// runtimeNote is runsNote for a row of the -runtime pool's comparison of
// the fork with its experiment off.
func (p pooledReport) runtimeNote(r benchRow, unit string) string {
	return spreadNote(p.RuntimeSpread, "nospinbit", r, unit) + secondNote(p.RuntimeSecond, Comparison{New: "spinbit", Base: "nospinbit"}, r, unit)
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

// upstreamMetrics are the tables of the pool of upstream's runtime mutex
// benchmarks that RESULTS.md condenses.
var upstreamMetrics = append([]struct{ unit, title string }{{"sec/op", "time per op"}}, upstreamWaitUnits...)

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
				out = append(out, fmt.Sprintf("longest wait no worse than go1.23.12's: %s %s, %s against %s (%s, p=%s)%s%s", r.Name, strings.TrimSuffix(unit, "-sec"), r.New, r.Base, r.Delta, r.P, p.runsNote("upstream", r, unit), againstCurrent(p.Peers, "upstream", r, unit, p.runsNote)))
			}
		}
	}
	for _, pr := range p.Peers {
		for _, r := range rowsOf(pr.Vs, "p99-sec") {
			if r.Significant() && r.Percent() > 0 {
				out = append(out, fmt.Sprintf("p99 no worse than %s's: %s, %s against %s (%s, p=%s)%s%s", pr.Release, r.Name, r.New, r.Base, r.Delta, r.P, p.runsNote(pr.Name, r, "p99-sec"), againstCurrent(p.Peers, pr.Name, r, "p99-sec", p.runsNote)))
			}
		}
	}
	slower, err := throughputMisses(p.Peers, throughputTarget, "the published pool", p.runsNote)
	if err != nil {
		return nil, err
	}
	out = append(out, slower...)
	for _, pr := range p.Peers {
		for _, r := range rowsOf(pr.Vs, "cpu-sec/op") {
			if r.Significant() && r.Percent() > targetMargin {
				out = append(out, fmt.Sprintf("CPU per op within %g%% of %s's: %s, %s against %s (%s, p=%s)%s%s", targetMargin, pr.Release, r.Name, r.New, r.Base, r.Delta, r.P, p.runsNote(pr.Name, r, "cpu-sec/op"), againstCurrent(p.Peers, pr.Name, r, "cpu-sec/op", p.runsNote)))
			}
		}
	}
	if u := p.Upstream; u != nil {
		slower, err := throughputMisses(u.Peers, upstreamThroughputTarget, "the published pool of upstream's runtime benchmarks", u.note)
		if err != nil {
			return nil, err
		}
		out = append(out, slower...)
		for _, pr := range u.Peers {
			for _, w := range upstreamWaitUnits {
				for _, r := range rowsOf(pr.Vs, w.unit) {
					if r.Workload() == upstreamWaitTarget && r.Procs() <= u.CPUs && r.Significant() && r.Percent() > 0 {
						out = append(out, fmt.Sprintf("%s no worse than %s's at GOMAXPROCS up to the %d CPUs: %s, %s against %s (%s, p=%s)%s%s", w.title, pr.Release, u.CPUs, r.Name, r.New, r.Base, r.Delta, r.P, u.note(pr.Name, r, w.unit), againstCurrent(u.Peers, pr.Name, r, w.unit, u.note)))
					}
				}
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
		if r.Workload() == "RuntimeMutexContended" && r.Procs() >= 2 && r.Significant() && r.Percent() > targetMargin {
			out = append(out, fmt.Sprintf("throughput within %g%% of the experiment off: %s, %s against %s (%s, p=%s)%s", targetMargin, r.Name, r.New, r.Base, r.Delta, r.P, p.runtimeNote(r, "sec/op")))
		}
	}
	return out, nil
}

// throughputMisses judges the throughput target: at each benchmark of
// workloads, at every GOMAXPROCS, the fork against the better of peers
// there, the one whose median (the Base of its table) is lowest, the
// first on a tie. pool names the pool the tables are of, for errors;
// note marks a row as runsNote does.
func throughputMisses(peers []peer, workloads []string, pool string, note func(base string, r benchRow, unit string) string) ([]string, error) {
	type best struct {
		peer   peer
		row    benchRow
		median float64
	}
	var order []string
	better := map[string]best{}
	for _, pr := range peers {
		for _, r := range rowsOf(pr.Vs, "sec/op") {
			if !contains(workloads, r.Workload()) {
				continue
			}
			v, ok := parseValue(r.Base)
			if !ok {
				return nil, fmt.Errorf("cannot read the %s median %q of %s in %s's spinbit-vs-%s.txt: publish it again with ./bench.bash -publish", pr.Name, r.Base, r.Name, pool, pr.Name)
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
		if r := b.row; r.Significant() && r.Percent() > targetMargin {
			out = append(out, fmt.Sprintf("throughput within %g%% of the better peer: %s, %s against %s's %s (%s, p=%s)%s%s", targetMargin, r.Name, r.New, b.peer.Release, r.Base, r.Delta, r.P, note(b.peer.Name, r, "sec/op"), againstCurrent(peers, b.peer.Name, r, "sec/op", note)))
		}
	}
	return out, nil
}

// againstCurrent says, for a target that row r of the fork's comparison
// with the toolchain missed (in benchstat's unit unit) misses, how the
// fork compares with the current release (currentPeer, one of peers) in
// the same row, marked by note as that row would be in its own table:
// "; the fork against go1.27.4: ~ (p=0.383)" when the release misses the
// target as much as the fork does. It is empty when the miss is against
// the current release itself, and when peers have no such row.
func againstCurrent(peers []peer, missed string, r benchRow, unit string, note func(base string, r benchRow, unit string) string) string {
	if missed == currentPeer {
		return ""
	}
	for _, pr := range peers {
		if pr.Name != currentPeer {
			continue
		}
		for _, c := range rowsOf(pr.Vs, unit) {
			if c.Name == r.Name {
				return fmt.Sprintf("; the fork against %s: %s%s (p=%s)", pr.Release, c.Delta, note(pr.Name, c, unit), c.P)
			}
		}
	}
	return ""
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
