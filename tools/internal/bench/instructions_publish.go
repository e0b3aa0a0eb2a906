package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// instrRecordFile is the record an -instructions run writes beside
// instructions.txt, from which -publish decides whether the run can stand
// for the repository and writes the published page.
const instrRecordFile = "instructions.json"

// instrReportFiles are what -publish copies of an -instructions run into
// bench/report/<release>/instructions/, with a page of its own; the
// callgrind profiles stay behind.
var instrReportFiles = []string{"instructions.txt", instrRecordFile}

// uncontendedMargin is the uncontended target of bench/README.md: the
// fork's instructions per op at GOMAXPROCS 1 within this many percent of
// go1.23.12's (the upstream toolchain).
const uncontendedMargin = 1.0

// instrRecord is what an -instructions run counted and how. Its
// Provenance is the repository's state at the start.
type instrRecord struct {
	Provenance
	Name       string           `json:"name"` // the output folder's name
	Start      time.Time        `json:"start"`
	Host       string           `json:"host"`
	Toolchains []instrToolchain `json:"toolchains"`
	Bench      string           `json:"bench"`
	Benchtime  string           `json:"benchtime"`
	Counts     []instrCount     `json:"counts"`
}

// instrToolchain is one toolchain of an -instructions run.
type instrToolchain struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func writeInstrRecord(dir string, r instrRecord) error {
	return writeJSON(filepath.Join(dir, instrRecordFile), r)
}

func readInstrRecord(dir string) (instrRecord, error) {
	var r instrRecord
	err := readJSON(filepath.Join(dir, instrRecordFile), &r, "./bench.bash -instructions")
	return r, err
}

// isInstrRun reports whether dir is the output folder of an -instructions
// run, recorded or not.
func isInstrRun(dir string) bool {
	return isFile(filepath.Join(dir, instrRecordFile)) || isFile(filepath.Join(dir, "instructions.txt"))
}

// publishable reports why r cannot stand for the repository: only a run
// of the defaults of -instructions, of the fork, from a commit with no
// uncommitted change to what it measured, can.
func (r instrRecord) publishable() error {
	var why []string
	if r.Base == "" {
		why = append(why, "it names no base of the fork")
	}
	why = append(why, r.Problems()...)
	var names []string
	for _, t := range r.Toolchains {
		names = append(names, t.Name)
	}
	if got := strings.Join(names, ","); got != instrToolchains {
		why = append(why, fmt.Sprintf("it ran the toolchains %s, not %s", got, instrToolchains))
	}
	if r.Bench != instrBench {
		why = append(why, fmt.Sprintf("it ran -bench %q, not the default %q", r.Bench, instrBench))
	}
	if r.Benchtime != instrBenchtime {
		why = append(why, fmt.Sprintf("it ran -benchtime %s, not the default %s", r.Benchtime, instrBenchtime))
	}
	if len(why) > 0 {
		return errors.New(strings.Join(why, "; ") + "; run ./bench.bash -instructions with its defaults from a clean commit")
	}
	return nil
}

// publishInstructions copies the table and record of the -instructions
// run in from into bench/report/<release>/instructions/ for the run's
// base, with a page that judges the uncontended target, replacing what an
// earlier -instructions run put there.
func publishInstructions(root, from string, stdout io.Writer) error {
	rec, err := readInstrRecord(from)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s is an -instructions run made before such runs recorded themselves (it has no %s), so it cannot say what it measured; run ./bench.bash -instructions again", from, instrRecordFile)
	}
	if err != nil {
		return err
	}
	if err := rec.publishable(); err != nil {
		return fmt.Errorf("cannot publish %s: %v", from, err)
	}
	dst := filepath.Join(root, filepath.FromSlash(BaseReportDir(rec.Base)), "instructions")
	if err := replaceReportFiles(from, dst, append(instrReportFiles, reportIndex), instrReportFiles); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dst, reportIndex), []byte(instrPage(rec)), 0o666); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "published the -instructions run %s of commit %s to %s\n", rec.Name, rec.Commit, dst)
	return nil
}

// instrPage is the published page of an -instructions run: what ran, the
// uncontended target judged benchmark by benchmark, and the table.
func instrPage(r instrRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Instructions per op at GOMAXPROCS 1: the fork on %s\n\n", r.Base)
	fmt.Fprintf(&b, "Published with `./bench.bash -publish` from the -instructions run %s of commit `%.12s`, %s, on %s.\n", r.Name, r.Commit, r.Start.UTC().Format("2006-01-02"), r.Host)
	var tcs []string
	for _, t := range r.Toolchains {
		tcs = append(tcs, t.Name+" = "+t.Version)
	}
	fmt.Fprintf(&b, "Toolchains: %s. Each benchmark ran under valgrind's callgrind for %s iterations and for three times as many; the difference over twice the first is the count per op, without start-up.\n\n", strings.Join(tcs, ", "), strings.TrimSuffix(r.Benchtime, "x"))
	fmt.Fprintf(&b, "## The uncontended target\n\nThe fork's instructions per op within %g%% of go1.23.12's (upstream). Counts are not exact from run to run (garbage collection and select's random choices vary; Select's by a few percent, see [bench/README.md](../../../README.md#counting-instructions--instructions)), so a change near the margin may fall on the other side of it in the next run.\n\n", uncontendedMargin)
	b.WriteString("| benchmark | upstream | spinbit | change | within target |\n|---|---|---|---|---|\n")
	for _, v := range uncontendedVerdicts(r.Counts) {
		ok := "yes"
		if !v.Met {
			ok = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %+.2f%% | %s |\n", strings.TrimPrefix(v.Benchmark, "Benchmark"), v.Upstream, v.Fork, v.Change, ok)
	}
	b.WriteString("\n## Every toolchain\n\n```\n")
	_, n, _ := parseBenchtime(r.Benchtime)
	writeInstructions(&b, r.Counts, n)
	b.WriteString("```\n")
	return b.String()
}

// uncontendedVerdict is the uncontended target at one benchmark.
type uncontendedVerdict struct {
	Benchmark      string
	Upstream, Fork float64 // instructions per op
	Change         float64 // percent
	Met            bool
}

// uncontendedVerdicts judges the uncontended target at every benchmark
// that both upstream and the fork (spinbit) ran, in the counts' order.
func uncontendedVerdicts(counts []instrCount) []uncontendedVerdict {
	var out []uncontendedVerdict
	for _, up := range counts {
		if up.Toolchain != "upstream" {
			continue
		}
		for _, f := range counts {
			if f.Toolchain != "spinbit" || f.Benchmark != up.Benchmark || up.PerOp == 0 {
				continue
			}
			change := 100 * (f.PerOp - up.PerOp) / up.PerOp
			out = append(out, uncontendedVerdict{up.Benchmark, up.PerOp, f.PerOp, change, change <= uncontendedMargin})
		}
	}
	return out
}
