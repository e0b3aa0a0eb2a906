package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// costsRecordFile is the record a -costs run writes beside its tables,
// from which -publish decides whether the run can stand for the
// repository.
const costsRecordFile = "costs.json"

// costsReportFiles are the files of a -costs run that -publish copies, into
// bench/report/<release>/costs/ (costs-runtime/ for a run of the
// runtime's benchmarks): the tables, every run's counts and the record.
// The raw go test output stays behind.
var costsReportFiles = []string{"costs.md", "costs.csv", costsRecordFile}

// costsRecord is what a -costs run measured and how. Its Provenance is
// the repository's state at the start, as a timed run's record keeps it.
type costsRecord struct {
	Provenance
	Name       string    `json:"name"` // the output folder's name
	Start      time.Time `json:"start"`
	Runtime    bool      `json:"runtime,omitempty"` // the runtime's benchmarks, not bench/'s
	Toolchains []string  `json:"toolchains"`
	Bench      string    `json:"bench"`
	CPUs       []int     `json:"cpus"`
	Count      int       `json:"count"`
	Benchtime  string    `json:"benchtime,omitempty"` // "" for each benchmark's own N
}

// newCostsRecord records a -costs run of the toolchains named tcs with
// options o.
func newCostsRecord(name string, start time.Time, prov Provenance, tcs []string, o Options) costsRecord {
	return costsRecord{
		Provenance: prov, Name: name, Start: start, Runtime: o.Runtime,
		Toolchains: tcs, Bench: o.Bench, CPUs: o.CPUs, Count: o.Count, Benchtime: o.Benchtime,
	}
}

func writeCostsRecord(dir string, r costsRecord) error {
	return writeJSON(filepath.Join(dir, costsRecordFile), r)
}

func readCostsRecord(dir string) (costsRecord, error) {
	var r costsRecord
	err := readJSON(filepath.Join(dir, costsRecordFile), &r, "./bench.bash -costs")
	return r, err
}

// writeJSON writes v, indented, to the file name.
func writeJSON(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o666)
}

// readJSON reads the file name, which writer wrote, into v.
func readJSON(name string, v any, writer string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v; it was not written by %s, or was edited", name, err, writer)
	}
	return nil
}

// publishable reports why r cannot stand for the repository: only a run
// of the defaults of -costs, or of -costs -runtime (every toolchain,
// benchmark and GOMAXPROCS, at least the default repetitions, each
// benchmark's own N), of the fork, from a commit with no uncommitted
// change to what it measured, can.
func (r costsRecord) publishable() error {
	var why []string
	if r.Base == "" {
		why = append(why, "it names no base of the fork")
	}
	why = append(why, r.Problems()...)
	tcs, bench, flags := costsToolchains, costsBench, "-costs"
	if r.Runtime {
		tcs, bench, flags = runtimeToolchains, upstreamRuntimeBench, "-costs -runtime"
	}
	if strings.Join(r.Toolchains, ",") != tcs {
		why = append(why, fmt.Sprintf("it ran the toolchains %s, not all of %s", strings.Join(r.Toolchains, ","), tcs))
	}
	if r.Bench != bench {
		why = append(why, fmt.Sprintf("it ran -bench %q, not the default %q", r.Bench, bench))
	}
	if !slices.Equal(r.CPUs, costsCPUs) {
		why = append(why, fmt.Sprintf("it ran -cpu %v, not the default %v", r.CPUs, costsCPUs))
	}
	if r.Count < costsCount {
		why = append(why, fmt.Sprintf("it made %d repetitions, fewer than the default %d", r.Count, costsCount))
	}
	if r.Benchtime != "" {
		why = append(why, fmt.Sprintf("it ran -benchtime %s, not each benchmark's own iteration count", r.Benchtime))
	}
	if len(why) > 0 {
		return errors.New(strings.Join(why, "; ") + "; run ./bench.bash " + flags + " with its defaults from a clean commit")
	}
	return nil
}

// publishCosts copies the tables and record of the -costs run in from
// into bench/report/<release>/costs/ (costs-runtime/ for the runtime's
// benchmarks) for the run's base, replacing what a previous such run put
// there.
func publishCosts(root, from string, stdout io.Writer) error {
	rec, err := readCostsRecord(from)
	if err != nil {
		return err
	}
	if err := rec.publishable(); err != nil {
		return fmt.Errorf("cannot publish %s: %v", from, err)
	}
	dst := filepath.Join(root, filepath.FromSlash(BaseReportDir(rec.Base)), costsReportDir(rec.Runtime))
	if err := replaceReportFiles(from, dst, costsReportFiles, costsReportFiles); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "published the -costs run %s of commit %s to %s\n", rec.Name, rec.Commit, dst)
	return nil
}

// costsReportDir is the folder of bench/report/<release>/ that holds the
// published -costs run of bench/'s benchmarks, or of the runtime's.
func costsReportDir(runtime bool) string {
	if runtime {
		return "costs-runtime"
	}
	return "costs"
}

// replaceReportFiles removes the files old from the report folder dst,
// made if need be, and copies there the files files of the run in from: a
// file the new run lacks does not linger from an earlier one.
func replaceReportFiles(from, dst string, old, files []string) error {
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(filepath.Join(dst, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for _, f := range files {
		if err := copyFile(filepath.Join(from, f), filepath.Join(dst, f)); err != nil {
			return err
		}
	}
	return nil
}

// isCostsRun reports whether dir is the output folder of a -costs run,
// recorded or not.
func isCostsRun(dir string) bool {
	return isFile(filepath.Join(dir, costsRecordFile)) || isFile(filepath.Join(dir, "costs.md")) && isFile(filepath.Join(dir, "costs.csv"))
}
