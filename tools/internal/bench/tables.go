package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// tableComparisons are the two-toolchain comparisons among tables, base
// first, in order: those of the tables a run wrote.
func tableComparisons(tables []TableFile) []Comparison {
	var out []Comparison
	for _, t := range tables {
		if len(t.Columns) == 2 {
			out = append(out, Comparison{Base: t.Columns[0], New: t.Columns[1]})
		}
	}
	return out
}

// wantedComparisons are the comparisons a run writes when it has both
// toolchains: the fork against its base, the next release and the current
// one, the fork's fallback path against the base (it should match), and
// upstream's own change between the first two releases for reference.
var wantedComparisons = []Comparison{
	{New: "spinbit", Base: "upstream"},
	{New: "spinbit", Base: "go1.24"},
	{New: "spinbit", Base: "go1.27"},
	{New: "nospinbit", Base: "upstream"},
	{New: "go1.24", Base: "upstream"},
}

// Comparisons returns the wanted comparisons of a bench/ run possible with
// the toolchains.
func Comparisons(tcs []Toolchain) []Comparison { return comparisonsIn(wantedComparisons, tcs) }

// comparisonsIn returns the comparisons of wanted possible with tcs.
func comparisonsIn(wanted []Comparison, tcs []Toolchain) []Comparison {
	have := map[string]bool{}
	for _, t := range tcs {
		have[t.Name] = true
	}
	var out []Comparison
	for _, c := range wanted {
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

// allFile holds the benchstat table with every toolchain side by side,
// written when the pairwise comparisons do not already say it all.
const allFile = "all.txt"

// writeTables runs benchstat on the toolchains' raw output in outDir and
// writes each comparison, plus all toolchains side by side.
func writeTables(ctx context.Context, benchstat, outDir string, tcs []*prepared, wanted []Comparison) ([]TableFile, error) {
	var toolchains []Toolchain
	byName := map[string]*prepared{}
	for _, p := range tcs {
		toolchains = append(toolchains, p.Toolchain)
		byName[p.Name] = p
	}
	var files []TableFile
	bs := func(file, title string, ps ...*prepared) error {
		var args, names []string
		for _, p := range ps {
			args = append(args, p.Name+"="+filepath.Base(p.Raw))
			names = append(names, p.Name)
		}
		cmd := exec.CommandContext(ctx, benchstat, args...)
		cmd.Dir = outDir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		// benchstat reports a file it cannot read on stderr but still
		// exits 0, so anything on stderr is a failure too.
		if msg := strings.TrimSpace(stderr.String()); err != nil || msg != "" {
			if err == nil {
				err = errors.New("it wrote to stderr")
			}
			return fmt.Errorf("benchstat %s failed (%v): %s", strings.Join(args, " "), err, msg)
		}
		if err := os.WriteFile(filepath.Join(outDir, file), out, 0o666); err != nil {
			return err
		}
		files = append(files, TableFile{Title: title, File: file, Columns: names})
		return nil
	}
	for _, c := range comparisonsIn(wanted, toolchains) {
		if err := bs(c.File(), c.String(), byName[c.Base], byName[c.New]); err != nil {
			return nil, err
		}
	}
	// Every toolchain side by side, in Known's order, so the first column
	// (the baseline of the deltas) is upstream when present. With two
	// toolchains that would repeat their comparison.
	if len(tcs) == 2 && len(files) == 1 {
		return files, nil
	}
	var ordered []*prepared
	for _, k := range Known {
		if p, ok := byName[k.Name]; ok {
			ordered = append(ordered, p)
		}
	}
	if err := bs(allFile, "all toolchains, against "+ordered[0].Name, ordered...); err != nil {
		return nil, err
	}
	return files, nil
}
