package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// spreadFile is the page of a pool that shows each row's change run by
// run: a change that one run finds and another reverses is noise of the
// machine, whatever the pooled samples' test says.
const spreadFile = "spread.md"

// spreadUnits are the metrics spreadFile shows, those the targets speak
// of: time and CPU time per op, p99, the longest wait, Select's longest
// gap, and MutexCapture's p90 and longest wait between turns; then those
// of the series' own runtime benchmarks that RESULTS.md condenses
// (runtimeMetrics): hand-off time, the longest wait for the lock and for
// the lock with a P, and the p99 wait for the lock.
var spreadUnits = []string{"ns/op", "cpu-ns/op", "p99-ns", "max-ns", "max-gap-ns", "ns/starve-p90", "ns/starve-p100",
	"handoff-ns", "max-lock-ns", "max-wait-ns", "p99-lock-ns"}

// spreadRow is one benchmark's metric in one comparison, run by run.
type spreadRow struct {
	Bench  string    // "Select-32"
	Unit   string    // one of spreadUnits
	Runs   []float64 // each run's change of the new median over the base's; NaN where a run lacks the result
	Pooled float64   // the change of the medians of every run's samples
}

// The verdicts of a spreadRow.
const (
	spreadAgree = "agree" // every run moved the same way
	spreadMixed = "mixed" // some runs moved up and some down
	spreadSome  = "some"  // no run moved against the others, but some did not move or lack the result
)

// Verdict says how the runs' changes relate: spreadMixed only when both
// signs appear, the one case where the machine's state on each boot, not
// the code, decides which way the row goes.
func (r spreadRow) Verdict() string {
	up, down := 0, 0
	for _, c := range r.Runs {
		switch {
		case c > 0:
			up++
		case c < 0:
			down++
		}
	}
	switch {
	case up > 0 && down > 0:
		return spreadMixed
	case up == len(r.Runs) || down == len(r.Runs):
		return spreadAgree
	}
	return spreadSome
}

// spreadKey names a result's series of samples within one run: a
// benchmark at one GOMAXPROCS, and a unit.
type spreadKey struct {
	tailKey
	Unit string
}

// samplesOf groups one run's results of one toolchain by benchmark,
// GOMAXPROCS and unit.
func samplesOf(rs []Result) map[spreadKey][]float64 {
	out := map[spreadKey][]float64{}
	for _, r := range rs {
		for _, u := range spreadUnits {
			if v, ok := r.Values[u]; ok {
				k := spreadKey{tailKey{r.Name, r.Procs}, u}
				out[k] = append(out[k], v)
			}
		}
	}
	return out
}

// medianOf is the median of vs in any order, NaN for none.
func medianOf(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(vs)
	sort.Float64s(s)
	return median(s)
}

// changeOf is new over base, less one; NaN where either is missing or
// the base is zero.
func changeOf(base, new float64) float64 {
	if math.IsNaN(base) || math.IsNaN(new) || base == 0 {
		return math.NaN()
	}
	return new/base - 1
}

// spreadRows compares c.New with c.Base run by run, from each toolchain's
// results of every run (runs[toolchain][run]). Rows are those whose
// result both toolchains have in the pool, ordered by benchmark,
// GOMAXPROCS and unit.
func spreadRows(c Comparison, runs map[string][][]Result) []spreadRow {
	base, new := runs[c.Base], runs[c.New]
	n := min(len(base), len(new))
	perRun := make([][2]map[spreadKey][]float64, n)
	pooled := [2]map[spreadKey][]float64{{}, {}}
	for i := 0; i < n; i++ {
		perRun[i] = [2]map[spreadKey][]float64{samplesOf(base[i]), samplesOf(new[i])}
		for side := range 2 {
			for k, vs := range perRun[i][side] {
				pooled[side][k] = append(pooled[side][k], vs...)
			}
		}
	}
	var keys []spreadKey
	for k := range pooled[0] {
		if _, ok := pooled[1][k]; ok {
			keys = append(keys, k)
		}
	}
	unitOrder := func(u string) int { return slices.Index(spreadUnits, u) }
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Procs != b.Procs {
			return a.Procs < b.Procs
		}
		return unitOrder(a.Unit) < unitOrder(b.Unit)
	})
	var rows []spreadRow
	for _, k := range keys {
		r := spreadRow{Bench: k.tailKey.String(), Unit: k.Unit,
			Pooled: changeOf(medianOf(pooled[0][k]), medianOf(pooled[1][k]))}
		for i := 0; i < n; i++ {
			r.Runs = append(r.Runs, changeOf(medianOf(perRun[i][0][k]), medianOf(perRun[i][1][k])))
		}
		rows = append(rows, r)
	}
	return rows
}

// writeSpread writes spreadFile into the pooled folder dir for the
// comparisons and returns its name, or "" for a pool of one run, which has
// no spread to show.
func writeSpread(dir string, comparisons []Comparison, runs map[string][][]Result, names []string) (string, error) {
	if len(names) < 2 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("# Run to run\n\n")
	fmt.Fprintf(&b, "Each row's change (the new toolchain's median over the base's, less one) in each of the %d runs the pool joins, taken alone, and in the pool. A run is one boot of the machine or one day, so a row whose runs disagree in sign (`mixed`: some up, some down) changes with the machine's state, not with the code, whatever the pooled samples' test says; `agree` means every run moved the same way, `some` that none moved against the others but some did not move (`+0.0%%`) or lack the result (`-`). Metrics: %s.\n\n",
		len(names), strings.Join(spreadUnits, ", "))
	type section struct {
		c    Comparison
		rows []spreadRow
	}
	var sections []section
	for _, c := range comparisons {
		if rows := spreadRows(c, runs); len(rows) > 0 {
			sections = append(sections, section{c, rows})
		}
	}
	// The rows whose runs disagree first: the tables below are long.
	b.WriteString("Rows whose runs disagree in sign:\n\n")
	for _, s := range sections {
		var mixed []string
		for _, r := range s.rows {
			if r.Verdict() == spreadMixed {
				mixed = append(mixed, r.Bench+" "+r.Unit)
			}
		}
		list := "none"
		if len(mixed) > 0 {
			list = strings.Join(mixed, ", ")
		}
		fmt.Fprintf(&b, "- %s: %d of %d rows: %s\n", s.c, len(mixed), len(s.rows), list)
	}
	b.WriteString("\n")
	for _, s := range sections {
		c, rows := s.c, s.rows
		fmt.Fprintf(&b, "## %s\n\n| benchmark | metric | %s | pool | runs |\n|---|---|%s---|---|\n", c, strings.Join(names, " | "), strings.Repeat("---|", len(names)))
		for _, r := range rows {
			cells := make([]string, len(r.Runs))
			for i, v := range r.Runs {
				cells[i] = formatChange(v)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Bench, r.Unit, strings.Join(cells, " | "), formatChange(r.Pooled), r.Verdict())
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(filepath.Join(dir, spreadFile), []byte(b.String()), 0o666); err != nil {
		return "", err
	}
	return spreadFile, nil
}

// formatChange shows a change as a signed percentage, or "-" for none.
func formatChange(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", v*100)
}

// readSpread reads the verdicts of spreadFile in the pooled folder dir:
// for each comparison, benchmark and unit of spreadUnits, the row's
// Verdict. It returns nil for a pool without the page (one run, or pooled
// before pools wrote it).
func readSpread(dir string) (map[spreadKeyOf]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, spreadFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[spreadKeyOf]string{}
	comparison := ""
	for _, line := range strings.Split(string(data), "\n") {
		if c, ok := strings.CutPrefix(line, "## "); ok {
			comparison = c
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if comparison == "" || len(cells) < 5 {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		verdict := cells[len(cells)-1]
		if verdict != spreadAgree && verdict != spreadMixed && verdict != spreadSome {
			continue
		}
		out[spreadKeyOf{comparison, cells[0], cells[1]}] = verdict
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no rows: it was not written by ./bench.bash -pool, or was edited; pool the runs again", filepath.Join(dir, spreadFile))
	}
	return out, nil
}

// spreadKeyOf names a row of spreadFile: the comparison as its heading
// says it ("spinbit vs go1.27"), the benchmark with its -GOMAXPROCS
// suffix, and the unit of spreadUnits.
type spreadKeyOf struct {
	Comparison, Bench, Unit string
}

// spreadUnitOf is the unit of spreadUnits that a benchstat table's unit
// stands for: benchstat shows the -ns metrics in seconds.
func spreadUnitOf(benchstatUnit string) string {
	return strings.Replace(benchstatUnit, "sec", "ns", 1)
}
