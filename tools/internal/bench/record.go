package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// recordFile is the name of the machine-readable description of a run in
// its output folder; summary.md is the human-readable one.
const recordFile = "run.json"

// Record describes a finished run: what ran, where, from which commit, and
// which files it wrote. Publish reads it back.
type Record struct {
	Name       string            `json:"name"`            // the output folder's name
	Mode       string            `json:"mode"`            // "quick", "full", "instruction-counting", or "short" for a bundle run with less than run.sh's defaults
	Suite      string            `json:"suite,omitempty"` // "" for bench/, "runtime" for -runtime
	Benchtime  string            `json:"benchtime"`
	Count      int               `json:"count"`
	CPUs       []int             `json:"cpus"`
	Bench      string            `json:"bench"`
	Start      time.Time         `json:"start"`
	Elapsed    string            `json:"elapsed"`
	Host       string            `json:"host"`
	Toolchains []RecordToolchain `json:"toolchains"`
	Provenance Provenance        `json:"provenance"`
	Tables     []TableFile       `json:"tables"`
	Plots      []string          `json:"plots"`            // relative to the folder, slash-separated
	Pooled     []PooledRun       `json:"pooled,omitempty"` // set by Pool: the runs whose raw output this one joins
	Interleave string            `json:"interleave,omitempty"`
	Machine    string            `json:"machine,omitempty"`    // for the run folder of a bundle: the machine's name
	GOARCH     string            `json:"goarch,omitempty"`     // and the bundle's GOARCH
	Incomplete string            `json:"incomplete,omitempty"` // what such a run lacks, if it stopped early
	Boot       string            `json:"boot,omitempty"`       // the Linux boot ID of the machine that ran it, if known
	Tails      string            `json:"tails,omitempty"`      // tailsFile, if its benchmarks printed histograms
	Spread     string            `json:"spread,omitempty"`     // spreadFile, for a pool of two runs or more
}

// interleaveBySlot is Record.Interleave for runs whose test binaries each
// ran one benchmark at one GOMAXPROCS value, every toolchain in turn on
// each (execute.go). Runs recorded before 2026-11-26 have none: each of
// their test binary runs ran the whole suite, every toolchain in turn on
// each repetition.
const interleaveBySlot = "benchmark,gomaxprocs"

// interleaveNote says in words how a run with Record.Interleave i
// interleaved its toolchains.
func interleaveNote(i string) string {
	if i == interleaveBySlot {
		return "each run of a test binary ran one benchmark at one GOMAXPROCS value, with -test.count=1, and every toolchain ran it right after another, the first one rotating"
	}
	return "each repetition ran every toolchain's test binary once over the whole suite, with -test.count=1"
}

// PooledRun is one of the runs that Pool joined.
type PooledRun struct {
	Name   string    `json:"name"`
	Dir    string    `json:"dir,omitempty"` // its folder when pooled, relative to the repository root, if it lay in the repository
	Commit string    `json:"commit"`
	Start  time.Time `json:"start"`
	Count  int       `json:"count"`
	Boot   string    `json:"boot,omitempty"`
}

// minPoolRuns is how many runs a published pool must join, each made on
// another boot of the machine or on another day. The speed of a 2-CPU
// virtual machine differs from boot to boot, and may differ between runs
// of one boot made at other times, by more than the differences worth
// knowing, so a result must rest on more than one machine state.
const minPoolRuns = 3

// session names what a run shares with the runs made on the same boot on
// the same UTC day: its boot ID and that day, or, for a run that did not
// record a boot ID (a bundle's, or one made before runs recorded it), the
// day alone. Runs of one boot made on different days are different
// sessions: a virtual machine may stay up for days, and the UTC day is
// what stands for "another time" then.
func (p PooledRun) session() string {
	day := p.day()
	if p.Boot != "" {
		return "boot " + p.Boot + " on " + day
	}
	return "day " + day
}

// day is the UTC day the run started, as sessions and pages name it.
func (p PooledRun) day() string { return p.Start.UTC().Format("2006-01-02") }

// poolSpan says how many boots and days the runs span, for the pages of
// a pool.
func poolSpan(runs []PooledRun) string {
	boots, days := map[string]bool{}, map[string]bool{}
	unknown := false
	for _, r := range runs {
		days[r.day()] = true
		if r.Boot == "" {
			unknown = true
		} else {
			boots[r.Boot] = true
		}
	}
	text := fmt.Sprintf("made on %s", plural(len(days), "day"))
	switch {
	case unknown && len(boots) == 0:
		return text + ", boots not recorded"
	case unknown:
		return text + fmt.Sprintf(" and at least %s", plural(len(boots), "boot"))
	}
	return text + fmt.Sprintf(" and %s", plural(len(boots), "boot"))
}

// poolRebootNote is, for a pool of runs that all recorded one boot, a
// sentence saying that the pool has not seen a reboot; otherwise "".
func poolRebootNote(runs []PooledRun) string {
	for _, r := range runs {
		if r.Boot == "" || r.Boot != runs[0].Boot {
			return ""
		}
	}
	if len(runs) < 2 {
		return ""
	}
	return "Its runs share one boot of the machine, so how a reboot moves the results is not in this pool."
}

// poolTooWeak says why the runs a pool joins cannot stand as a result:
// fewer than minPoolRuns, or made on fewer boots or days than that.
func poolTooWeak(runs []PooledRun) error {
	if len(runs) < minPoolRuns {
		return fmt.Errorf("it pools %d runs, and a published pool needs at least %d full runs, each made on another boot or day; make more runs with ./bench.bash (after a reboot or on another day) and pool them all with ./bench.bash -pool", len(runs), minPoolRuns)
	}
	seen := map[string]bool{}
	var sessions []string
	for _, r := range runs {
		if s := r.session(); !seen[s] {
			seen[s] = true
			sessions = append(sessions, s)
		}
	}
	if len(sessions) < minPoolRuns {
		return fmt.Errorf("its %d runs were made on only %d boots or days (%s), and a published pool needs runs from at least %d; make another run after a reboot or on another day and pool them all with ./bench.bash -pool", len(runs), len(sessions), strings.Join(sessions, ", "), minPoolRuns)
	}
	return nil
}

// bootID returns the Linux boot ID of this machine, or "" where there is
// none.
func bootID() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// RecordToolchain is one toolchain of a run.
type RecordToolchain struct {
	Name       string `json:"name"`
	Version    string `json:"version"`
	Experiment string `json:"experiment,omitempty"`
	Raw        string `json:"raw"` // its go test -bench output, in the run's folder
}

// runInfo is what Run knows about a run when it writes the reports.
type runInfo struct {
	Dir        string
	Options    Options
	Suite      string
	Start      time.Time
	Elapsed    time.Duration
	Toolchains []*prepared
	Tables     []TableFile
	Tails      string
	Plots      []string
	HostCPU    string
	Boot       string
	Provenance Provenance
}

func newRecord(info runInfo) Record {
	o := info.Options
	r := Record{
		Name: filepath.Base(info.Dir),
		Mode: o.ModeName(), Suite: info.Suite, Benchtime: o.Benchtime, Count: o.Count, CPUs: o.CPUs, Bench: o.Bench,
		Start: info.Start.UTC(), Elapsed: info.Elapsed.Round(time.Second).String(), Host: info.HostCPU,
		Provenance: info.Provenance, Tables: info.Tables, Interleave: interleaveBySlot, Boot: info.Boot, Tails: info.Tails,
	}
	for _, p := range info.Toolchains {
		r.Toolchains = append(r.Toolchains, RecordToolchain{Name: p.Name, Version: p.Version, Experiment: p.Experiment, Raw: filepath.Base(p.Raw)})
	}
	for _, p := range info.Plots {
		r.Plots = append(r.Plots, filepath.ToSlash(p))
	}
	return r
}

func writeRecord(dir string, r Record) error {
	data, err := json.MarshalIndent(r, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, recordFile), append(data, '\n'), 0o666)
}

// ForkBase is the base the run's fork was on: its provenance's, or, for a
// run recorded before runs named it, the release of the fork's version
// ("go1.23.12-spinbit" is the fork on go1.23.12). It is "" for a run
// without the fork.
func (r Record) ForkBase() string {
	if r.Provenance.Base != "" {
		return r.Provenance.Base
	}
	for _, t := range r.Toolchains {
		if base, ok := strings.CutSuffix(t.Version, forkSuffix); ok {
			return base
		}
	}
	return ""
}

// forkSuffix ends the fork's Go version: the base's release and this.
const forkSuffix = "-spinbit"

// ReadRecord reads the record of the run whose output folder is dir.
func ReadRecord(dir string) (Record, error) {
	var r Record
	data, err := os.ReadFile(filepath.Join(dir, recordFile))
	if errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Errorf("%s has no %s: it is not the output folder of a finished ./bench.bash run, or one made before runs recorded themselves; run ./bench.bash again", dir, recordFile)
	}
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("%s: %v; it was not written by ./bench.bash, or was edited", filepath.Join(dir, recordFile), err)
	}
	// Publish removes and copies the files a record names, so each must
	// stay inside the folder, as every file a run writes does.
	for _, f := range append(reportTables(r), r.Plots...) {
		if !filepath.IsLocal(filepath.FromSlash(f)) {
			return r, fmt.Errorf("%s names %q, which is not a file inside %s; it was not written by ./bench.bash, or was edited", filepath.Join(dir, recordFile), f, dir)
		}
	}
	return r, nil
}
