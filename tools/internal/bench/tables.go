package bench

import (
	"strings"
)

// TableFile is one file of benchstat output that a run wrote.
type TableFile struct {
	Title   string   // "spinbit vs upstream"
	File    string   // relative to the output folder
	Columns []string // the toolchains compared, base first, as benchstat's columns
}

// Comparison is one benchstat table: New measured against Base.
type Comparison struct {
	New, Base string
}

// File is the name of the comparison's benchstat output.
func (c Comparison) File() string { return c.New + "-vs-" + c.Base + ".txt" }

func (c Comparison) String() string { return c.New + " vs " + c.Base }

// wantedComparisons are the comparisons a run writes when it has both
// toolchains: the fork against its base and against the next release, the
// fork's fallback path against the base (it should match), and upstream's
// own change between the two releases for reference.
var wantedComparisons = []Comparison{
	{New: "spinbit", Base: "upstream"},
	{New: "spinbit", Base: "go1.24"},
	{New: "nospinbit", Base: "upstream"},
	{New: "go1.24", Base: "upstream"},
}

// Comparisons returns the wanted comparisons possible with the toolchains.
func Comparisons(tcs []Toolchain) []Comparison {
	have := map[string]bool{}
	for _, t := range tcs {
		have[t.Name] = true
	}
	var out []Comparison
	for _, c := range wantedComparisons {
		if have[c.New] && have[c.Base] {
			out = append(out, c)
		}
	}
	return out
}

// Table is one table of benchstat's text output.
type Table struct {
	Config []string // the configuration lines (goos: ..., cpu: ...) in force
	Unit   string   // the unit the table is about, such as sec/op
	Text   string   // the table itself, header and footnotes included
}

// SplitTables cuts benchstat's text output into its tables. Benchstat
// prints configuration lines (goos: and so on) directly above the first
// table they apply to, and one table per unit, separated by blank lines;
// each table starts with a header row drawn with │ characters whose second
// line names the unit in each column.
func SplitTables(out string) []Table {
	var (
		tables []Table
		config []string
	)
	for _, block := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n\n") {
		block = strings.Trim(block, "\n")
		if block == "" {
			continue
		}
		lines := strings.Split(block, "\n")
		// Configuration lines come first, straight above the table they
		// apply to; they stay in force until the next ones.
		i := 0
		for i < len(lines) && !strings.Contains(lines[i], "│") {
			i++
		}
		if i > 0 {
			config = nil
			for _, l := range lines[:i] {
				if strings.TrimSpace(l) != "" {
					config = append(config, strings.TrimSpace(l))
				}
			}
		}
		if i == len(lines) {
			continue
		}
		t := Table{Config: config, Text: strings.Join(lines[i:], "\n")}
		if i+1 < len(lines) {
			t.Unit = headerUnit(lines[i+1])
		}
		tables = append(tables, t)
	}
	return tables
}

// headerUnit returns the first unit named in a unit header row such as
// "          │    sec/op     │    sec/op      vs base    │".
func headerUnit(row string) string {
	cells := strings.Split(row, "│")
	for _, c := range cells[1:] {
		if f := strings.Fields(c); len(f) > 0 {
			return f[0]
		}
	}
	return ""
}

// Columns returns the names in the table's first header row, left to
// right: for a comparison, the base and then the others.
func (t Table) Columns() []string {
	first, _, _ := strings.Cut(t.Text, "\n")
	var out []string
	for _, c := range strings.Split(first, "│")[1:] {
		if f := strings.TrimSpace(c); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// FindTable returns the first table about unit, and whether there is one.
func FindTable(tables []Table, unit string) (Table, bool) {
	for _, t := range tables {
		if t.Unit == unit {
			return t, true
		}
	}
	return Table{}, false
}
