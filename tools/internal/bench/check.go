package bench

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// CheckInput is what a finished run should have produced.
type CheckInput struct {
	Dir        string              // output folder
	Toolchains []string            // every one must have results
	Workloads  []string            // top-level benchmark names, without the Benchmark prefix
	CPUs       []int               // every workload must have results at each
	Results    map[string][]Result // per toolchain, parsed from the raw output
	Tables     []TableFile         // benchstat output files, with the columns each must have
	Plots      []string            // SVG files, relative to Dir
	Units      []string            // units every result must report (the rusage metrics on Linux)
}

// Check verifies a run's output and returns an error that names everything
// missing, or nil. It never looks at how fast anything was.
func Check(in CheckInput) error {
	var missing []string
	add := func(format string, args ...any) { missing = append(missing, fmt.Sprintf(format, args...)) }

	for _, tc := range in.Toolchains {
		type key struct {
			w string
			p int
		}
		have := map[key]bool{}
		for _, r := range in.Results[tc] {
			have[key{r.Workload(), r.Procs}] = true
			for _, u := range in.Units {
				if _, ok := r.Values[u]; !ok {
					add("%s: Benchmark%s at GOMAXPROCS %d reports no %s", tc, r.Name, r.Procs, u)
				}
			}
		}
		for _, w := range in.Workloads {
			for _, p := range in.CPUs {
				if !have[key{w, p}] {
					add("%s: no result for Benchmark%s at GOMAXPROCS %d", tc, w, p)
				}
			}
		}
	}

	for _, t := range in.Tables {
		data, err := os.ReadFile(filepath.Join(in.Dir, t.File))
		if err != nil {
			add("table %s: %v", t.File, err)
			continue
		}
		tab, ok := FindTable(SplitTables(string(data)), "sec/op")
		if !ok {
			add("table %s: no sec/op table in it", t.File)
			continue
		}
		if got, want := strings.Join(tab.Columns(), ","), strings.Join(t.Columns, ","); got != want {
			add("table %s: sec/op table has columns %s, want %s", t.File, got, want)
		}
	}

	for _, p := range in.Plots {
		if err := checkSVG(filepath.Join(in.Dir, p), in.Toolchains); err != nil {
			add("plot %s: %v", p, err)
		}
	}
	if len(in.Plots) < len(in.Workloads) {
		add("%d plots for %d workloads", len(in.Plots), len(in.Workloads))
	}

	if _, err := os.Stat(filepath.Join(in.Dir, "summary.md")); err != nil {
		add("summary: %v", err)
	}

	if len(missing) == 0 {
		return nil
	}
	const maxShown = 40
	msg := missing
	if len(msg) > maxShown {
		msg = append(msg[:maxShown:maxShown], fmt.Sprintf("... and %d more", len(missing)-maxShown))
	}
	return fmt.Errorf("check of %s failed, %d problems:\n  %s", in.Dir, len(missing), strings.Join(msg, "\n  "))
}

// checkSVG verifies that a file is well-formed XML with an svg root and a
// line for every toolchain.
func checkSVG(path string, toolchains []string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	root := ""
	lines := map[string]bool{}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed XML: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = se.Name.Local
		}
		if se.Name.Local == "polyline" {
			for _, a := range se.Attr {
				if a.Name.Local == "data-series" {
					lines[a.Value] = true
				}
			}
		}
	}
	if root != "svg" {
		return fmt.Errorf("root element is %q, want svg", root)
	}
	var absent []string
	for _, tc := range toolchains {
		if !lines[tc] {
			absent = append(absent, tc)
		}
	}
	if len(absent) > 0 {
		return fmt.Errorf("no line for %s", strings.Join(absent, ", "))
	}
	return nil
}
