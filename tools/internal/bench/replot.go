package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Replot draws again the plots of the finished or published run in dir
// from its benchstat tables (allFile), for a run whose raw output is gone,
// as a published one's is. The plots are those of WorkloadPanels with the
// medians benchstat prints; the whiskers show benchstat's confidence
// interval of each median, since the samples' range is not in the tables.
// The context switches are the sum of the two medians, without whiskers,
// and a panel appears only for the metrics the tables hold.
// It rewrites the plots the run's record lists and no other file.
func Replot(dir string) error {
	rec, err := ReadRecord(dir)
	if err != nil {
		return err
	}
	// The table of every toolchain side by side, or, where the comparison
	// says it all (-runtime: one pair), the comparisons.
	var data []byte
	files := []string{allFile}
	if _, err := os.Stat(filepath.Join(dir, allFile)); err != nil {
		files = tableFiles(rec)
	}
	for _, f := range files {
		d, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return fmt.Errorf("cannot replot %s without its tables: %v", dir, err)
		}
		data = append(append(data, d...), "\n\n"...)
	}
	stats, order := tableStats(SplitTables(string(data)))
	caption := plotCaption(rec, whiskersCI)
	for _, p := range rec.Plots {
		w := strings.TrimSuffix(filepath.Base(p), ".svg")
		panels := tablePanels(stats, w, order)
		if len(panels) == 0 || len(panels[0].Series) == 0 {
			return fmt.Errorf("the tables of %s have no sec/op results of %s, which has a plot", dir, w)
		}
		var buf bytes.Buffer
		if err := WriteSVG(&buf, w+"\n"+caption, panels); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), buf.Bytes(), 0o666); err != nil {
			return err
		}
	}
	return nil
}

// tableStat is one median of a benchstat table, with the half-width of its
// confidence interval in percent, or a negative Pct if benchstat gave none.
type tableStat struct {
	Median, Pct float64
}

// statKey names a median: the table's unit, the toolchain, the benchmark
// as benchstat prints it (Name-GOMAXPROCS).
type statKey struct{ unit, toolchain, bench string }

// tableCellRE matches a median and its interval, "?" where benchstat
// could not give one.
var tableCellRE = regexp.MustCompile(`(\S+)\s+±\s*(?:([0-9.]+)%|\?)`)

// tableStats reads the medians of every table, and the toolchains in the
// order of the tables' columns.
func tableStats(tables []Table) (map[statKey]tableStat, []string) {
	stats := map[statKey]tableStat{}
	var order []string
	for _, t := range tables {
		cols := t.Columns()
		if len(order) == 0 {
			order = cols
		}
		for _, line := range strings.Split(t.Text, "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || strings.Contains(line, "│") {
				continue
			}
			cells := tableCellRE.FindAllStringSubmatch(line, -1)
			if len(cells) != len(cols) {
				continue
			}
			for i, c := range cells {
				v, ok := parseValue(c[1])
				if !ok {
					continue
				}
				pct := -1.0
				if c[2] != "" {
					fmt.Sscan(c[2], &pct)
				}
				stats[statKey{t.Unit, cols[i], f[0]}] = tableStat{v, pct}
			}
		}
	}
	return stats, order
}

// tableMetrics maps the panels of WorkloadPanels to the units of
// benchstat's tables, which print durations in seconds. A metric of two
// units is the sum of their medians.
var tableMetrics = []struct {
	Metric
	units  []string
	scale  float64 // to the metric's unit
	always bool
}{
	{MetricTime, []string{"sec/op"}, 1e9, true},
	{MetricCPUTime, []string{"cpu-sec/op"}, 1e9, false},
	{Metric{Title: "context switches per op (sum of medians)", Kind: "count"}, []string{"vcsw/op", "ivcsw/op"}, 1, false},
	{MetricP99, []string{"p99-sec"}, 1e9, false},
	{MetricMax, []string{"max-sec"}, 1e9, false},
	{MetricGap, []string{"max-gap-sec"}, 1e9, false},
	{MetricMaxLock, []string{"max-lock-sec"}, 1e9, false},
}

// tablePanels builds the panels of workload from stats, one series per
// toolchain of order that has results.
func tablePanels(stats map[statKey]tableStat, workload string, order []string) []Panel {
	var panels []Panel
	for _, m := range tableMetrics {
		p := Panel{Title: m.Title, Kind: m.Kind}
		for _, tc := range order {
			s := Series{Name: tc}
			byProcs := map[int][]tableStat{}
			for k, st := range stats {
				r := benchRow{Name: k.bench}
				if k.toolchain == tc && r.Workload() == workload && contains(m.units, k.unit) {
					byProcs[r.Procs()] = append(byProcs[r.Procs()], st)
				}
			}
			var procs []int
			for n, sts := range byProcs {
				if len(sts) == len(m.units) {
					procs = append(procs, n)
				}
			}
			sort.Ints(procs)
			for _, n := range procs {
				sts := byProcs[n]
				pt := Point{X: n}
				for _, st := range sts {
					pt.Y += st.Median * m.scale
				}
				pt.Lo, pt.Hi = pt.Y, pt.Y
				if len(sts) == 1 && sts[0].Pct >= 0 {
					// An interval wider than the median ends at zero.
					pt.Lo, pt.Hi = max(0, pt.Y*(1-sts[0].Pct/100)), pt.Y*(1+sts[0].Pct/100)
				}
				s.Points = append(s.Points, pt)
			}
			if len(s.Points) > 0 {
				p.Series = append(p.Series, s)
			}
		}
		if m.always || len(p.Series) > 0 {
			panels = append(panels, p)
		}
	}
	return panels
}
