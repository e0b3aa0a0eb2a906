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

	"go-spinbit.dev/tools/internal/fork"
)

// secondPoolFile is the page, in the folder of a published pool, on which
// Confirm checks each of the pool's significant rows against a second
// pool of the same code and settings made on other days.
const secondPoolFile = "second-pool.md"

// secondPoolTitle is the first line of secondPoolFile.
const secondPoolTitle = "# A second pool against the published one"

// The verdicts of a row on secondPoolFile: only secondAgrees confirms it.
const (
	secondAgrees     = "agrees"
	secondDisagrees  = "**disagrees**"
	secondUnchanged  = "unchanged"  // the second pool's medians are equal
	secondUnreadable = "unreadable" // its medians could not be read
	secondMissing    = "missing"
)

// A secondRow is a significant row of the published pool and the same
// row of the second pool.
type secondRow struct {
	Comparison Comparison
	Unit       string   // benchstat's unit, such as sec/op
	First      benchRow // the published pool's row, significant
	Second     *benchRow
	Verdict    string
}

// Confirm checks the pool published for the suite and base of the pool in
// dir (the first pool) against that second pool: every row that benchstat
// finds significant in one of the first pool's comparisons of the fork
// must change the same way, up or down, in the second pool's, significant
// there or not. The second pool must itself be one -publish would take,
// of the same code (as -pool judges it), mutex and settings, on as many
// logical CPUs (its processor may be another), and
// none of its runs may have started on a day on which one of the first
// pool's did. Confirm writes secondPoolFile beside the published pool,
// and RESULTS.md again if the pools are bench/'s or the runtime's own
// and bench/'s pool of the base is published: it marks every row that
// the second pool did not confirm.
func Confirm(root, dir string, stdout io.Writer) error {
	return confirm(root, dir, stdout, fork.Repo{Root: root}.ChangedBetween)
}

func confirm(root, dir string, stdout io.Writer, changed changedFunc) error {
	second, err := ReadRecord(dir)
	if err != nil {
		return fmt.Errorf("cannot confirm with %s: %v", dir, err)
	}
	if len(second.Pooled) == 0 {
		return fmt.Errorf("%s is a single run: a second pool joins runs made on other days with ./bench.bash -pool, and -confirm takes its folder", second.Name)
	}
	if err := publishable(second); err != nil {
		return fmt.Errorf("%s cannot confirm a pool: %v", second.Name, err)
	}
	rel := reportDirFor(second)
	pubDir := filepath.Join(root, filepath.FromSlash(rel))
	first, err := ReadRecord(pubDir)
	if err != nil {
		return fmt.Errorf("no pool is published in %s for %s to confirm (%v): publish the first pool with ./bench.bash -publish", rel, second.Name, err)
	}
	if err := secondPoolFits(root, first, second, changed); err != nil {
		return err
	}
	rows, err := secondPoolRows(pubDir, dir, first)
	if err != nil {
		return err
	}
	page := secondPoolMarkdown(first, second, rows)
	if err := os.WriteFile(filepath.Join(pubDir, secondPoolFile), []byte(page), 0o666); err != nil {
		return err
	}
	agree, other := secondCounts(rows)
	fmt.Fprintf(stdout, "pool %s agrees in sign with %d of the %d significant rows of the published pool %s (%s): wrote %s/%s\n",
		second.Name, agree, len(rows), first.Name, other, rel, secondPoolFile)
	base := first.ForkBase()
	if first.Machine == "" && isFile(filepath.Join(root, filepath.FromSlash(BaseReportDir(base)), "pooled", recordFile)) {
		if err := WriteResults(root, base); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s, which marks the rows the second pool did not confirm\n", ResultsFile)
	}
	return nil
}

// secondPoolFits says why second cannot confirm the published pool
// first: other code, another mutex, count of logical CPUs or settings, a
// run of first's, or a run made on a day on which one of first's was.
func secondPoolFits(root string, first, second Record, changed changedFunc) error {
	if len(first.Pooled) == 0 {
		return fmt.Errorf("%s is a single run, not a published pool: publish a pool with ./bench.bash -publish first", first.Name)
	}
	a, errA := publishedMutexCode(root, first)
	b, errB := publishedMutexCode(root, second)
	switch {
	case errA != nil:
		return fmt.Errorf("the mutex that the published pool %s measured is unknown (%v): publish it again with ./bench.bash -publish from a checkout that has its commit", first.Name, errA)
	case errB != nil:
		return fmt.Errorf("the mutex that %s measured is unknown (%v): pool its runs again from a checkout that has their commits", second.Name, errB)
	case a.SHA256 != b.SHA256:
		return fmt.Errorf("%s measured another mutex (SHA-256 %.12s) than the published pool %s (%.12s): a second pool must measure the same code", second.Name, b.SHA256, first.Name, a.SHA256)
	}
	if n, ok := logicalCPUs(first.Host); !ok {
		return fmt.Errorf("the published pool %s names no count of logical CPUs in its host %q: publish it again with ./bench.bash -publish", first.Name, first.Host)
	} else if m, ok := logicalCPUs(second.Host); !ok || m != n {
		return fmt.Errorf("the published pool %s ran on %d logical CPUs (%s) and %s on another count (%s): a second pool must run on as many CPUs, which decide what each GOMAXPROCS means", first.Name, n, first.Host, second.Name, second.Host)
	}
	// The processor may differ: a second pool on another one that
	// agrees in sign shows more than one on the same processor, and a
	// row that holds on one processor only leaves the README.
	sameHost := second
	sameHost.Host = first.Host
	if what, a, b := settingsDiffer(first, sameHost); what != "" {
		return fmt.Errorf("the published pool %s and %s differ in %s (%v against %v): a second pool must be made with the same settings", first.Name, second.Name, what, a, b)
	}
	files, err := codeChanges(first, second, changed)
	if err != nil {
		return err
	}
	if len(files) > 0 {
		return fmt.Errorf("the published pool %s (commit %s) and %s (commit %s) measured different code: the commits differ in %s; a second pool must measure what the first did",
			first.Name, first.Provenance.Commit, second.Name, second.Provenance.Commit, strings.Join(files, ", "))
	}
	days := map[string]bool{}
	names := map[string]bool{}
	for _, r := range first.Pooled {
		days[r.day()] = true
		names[r.Name] = true
	}
	for _, r := range second.Pooled {
		day := r.day()
		switch {
		case names[r.Name]:
			return fmt.Errorf("run %s is in both %s and the published pool %s: a second pool joins other runs", r.Name, second.Name, first.Name)
		case days[day]:
			return fmt.Errorf("run %s of %s started on %s, a day on which a run of the published pool %s did: a second pool is made on other days", r.Name, second.Name, day, first.Name)
		}
	}
	return nil
}

// secondPoolRows pairs every significant row of the fork's comparisons in
// the published pool in pubDir with the same row of the second pool in
// dir.
func secondPoolRows(pubDir, dir string, first Record) ([]secondRow, error) {
	var out []secondRow
	for _, c := range tableComparisons(first.Tables) {
		if c.New != "spinbit" {
			continue
		}
		tables1, err := readComparison(pubDir, c)
		if err != nil {
			return nil, fmt.Errorf("the published pool's record names %s, which cannot be read (%v): publish the pool again with ./bench.bash -publish", c.File(), err)
		}
		tables2, err := readComparison(dir, c)
		if err != nil {
			return nil, fmt.Errorf("the second pool lacks %s, which the published pool has (%v): pool its runs again with ./bench.bash -pool", c.File(), err)
		}
		for _, t1 := range tables1 {
			var rows2 []benchRow
			if t2, ok := FindTable(tables2, t1.Unit); ok {
				rows2 = parseRows(t2)
			}
			for _, r1 := range parseRows(t1) {
				if !r1.Significant() {
					continue
				}
				row := secondRow{Comparison: c, Unit: t1.Unit, First: r1, Verdict: secondMissing}
				if i := slices.IndexFunc(rows2, func(r benchRow) bool { return r.Name == r1.Name }); i >= 0 {
					row.Second = &rows2[i]
					s, ok := rowSign(rows2[i])
					switch {
					case !ok:
						row.Verdict = secondUnreadable
					case s == 0:
						row.Verdict = secondUnchanged
					case s == sign(r1.Percent()):
						row.Verdict = secondAgrees
					default:
						row.Verdict = secondDisagrees
					}
				}
				out = append(out, row)
			}
		}
	}
	return out, nil
}

// readComparison reads the tables of comparison c in the run folder dir.
func readComparison(dir string, c Comparison) ([]Table, error) {
	data, err := os.ReadFile(filepath.Join(dir, c.File()))
	if err != nil {
		return nil, err
	}
	return SplitTables(string(data)), nil
}

// rowSign is the direction of a row's change: its significant change's,
// or, for a row benchstat calls ~, that of its medians (0 if they are
// equal); false if the medians cannot be read.
func rowSign(r benchRow) (int, bool) {
	if r.Significant() {
		return sign(r.Percent()), true
	}
	base, ok1 := parseValue(r.Base)
	changed, ok2 := parseValue(r.New)
	if !ok1 || !ok2 {
		return 0, false
	}
	return sign(changed - base), true
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// secondCounts counts the rows that agree, and says how many of the
// others have each verdict.
func secondCounts(rows []secondRow) (agree int, others string) {
	n := map[string]int{}
	for _, r := range rows {
		n[r.Verdict]++
	}
	return n[secondAgrees], fmt.Sprintf("%d disagree, %d unchanged, %d unreadable, %d missing",
		n[secondDisagrees], n[secondUnchanged], n[secondUnreadable], n[secondMissing])
}

// secondPoolMarkdown renders secondPoolFile.
func secondPoolMarkdown(first, second Record, rows []secondRow) string {
	var b strings.Builder
	b.WriteString(secondPoolTitle + "\n\n")
	b.WriteString("Written by `./bench.bash -confirm`; do not edit. Each row that benchstat\nfinds significant in the published pool is looked up in a second pool of\nthe same code and settings whose runs were made on other days, on as\nmany logical CPUs: it agrees if it changed the same way there,\nsignificant or not. A row that does not agree (it changed the other\nway, did not change, or is missing) is not a result, and README.md\nquotes none.\n\n")
	fmt.Fprintf(&b, "- published pool: %s, %d runs, %s: %s\n", first.Name, len(first.Pooled), poolSpan(first.Pooled), pooledRuns(first))
	fmt.Fprintf(&b, "- second pool: %s, %d runs, %s: %s\n", second.Name, len(second.Pooled), poolSpan(second.Pooled), pooledRuns(second))
	if second.Host == first.Host {
		fmt.Fprintf(&b, "- host of both: %s\n", first.Host)
	} else {
		fmt.Fprintf(&b, "- hosts: %s (published pool), %s (second pool)\n", first.Host, second.Host)
	}
	var dirs []string
	for _, p := range second.Pooled {
		dirs = append(dirs, p.Dir)
	}
	if !slices.Contains(dirs, "") {
		fmt.Fprintf(&b, "- made again with `./bench.bash -pool %s -out DIR` and `./bench.bash -confirm DIR`\n", strings.Join(dirs, ","))
	}
	agree, other := secondCounts(rows)
	fmt.Fprintf(&b, "- %d significant rows: %d agree; %s\n\n", len(rows), agree, other)

	b.WriteString("## Rows that do not agree\n\n")
	n := 0
	for _, r := range rows {
		if r.Verdict != secondAgrees {
			if n == 0 {
				b.WriteString(secondTableHeader)
			}
			b.WriteString(secondTableRow(r))
			n++
		}
	}
	if n == 0 {
		b.WriteString("None.\n")
	}
	b.WriteString("\n## Every significant row\n\n" + secondTableHeader)
	for _, r := range rows {
		b.WriteString(secondTableRow(r))
	}
	return b.String()
}

const secondTableHeader = "| comparison | unit | benchmark | published change | second pool | second p | verdict |\n|---|---|---|---|---|---|---|\n"

func secondTableRow(r secondRow) string {
	second, p := "(no row)", ""
	if s := r.Second; s != nil {
		second, p = s.Delta, s.P
		if !s.Significant() {
			second = fmt.Sprintf("~ (%s → %s)", s.Base, s.New)
		}
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |\n", r.Comparison, r.Unit, r.First.Name, r.First.Delta, second, p, r.Verdict)
}

// readSecondPool reads the verdicts of secondPoolFile in the folder dir
// of the published pool named pool, keyed by comparison, benchmark and
// benchstat unit; nil if the pool has no second pool's page.
func readSecondPool(dir, pool string) (map[spreadKeyOf]string, error) {
	file := filepath.Join(dir, secondPoolFile)
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	if lines[0] != secondPoolTitle {
		return nil, fmt.Errorf("%s was not written by ./bench.bash -confirm, or was edited; run -confirm again", file)
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "- published pool: "+pool+",") }) {
		return nil, fmt.Errorf("%s checks another pool than the one published there, %s: run ./bench.bash -confirm again with a second pool of it", file, pool)
	}
	out := map[spreadKeyOf]string{}
	for _, line := range lines {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 7 {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch cells[6] {
		case secondAgrees, secondDisagrees, secondUnchanged, secondUnreadable, secondMissing:
			out[spreadKeyOf{cells[0], cells[2], cells[1]}] = cells[6]
		}
	}
	return out, nil
}

// secondNote marks a significant row of comparison c (its benchstat unit
// unit) that the second pool's verdicts did not confirm; empty if they
// did, or if there are none (nil).
func secondNote(verdicts map[spreadKeyOf]string, c Comparison, r benchRow, unit string) string {
	if verdicts == nil {
		return ""
	}
	switch v := verdicts[spreadKeyOf{c.String(), r.Name, unit}]; v {
	case secondAgrees:
		return ""
	case secondDisagrees:
		return " (**second pool disagrees**)"
	case "", secondMissing:
		return " (not in the second pool)"
	default:
		return " (second pool: " + v + ")"
	}
}
