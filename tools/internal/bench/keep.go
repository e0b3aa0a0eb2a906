package bench

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeptDir is where Keep puts the runs of the fork on base, relative to the
// repository root: runs/ in the base's report folder, which is committed
// and which no run's measured code includes (poolPaths), so that keeping a
// run does not stop it from pooling with runs of later commits.
func KeptDir(base string) string { return BaseReportDir(base) + "/runs" }

// Keep copies what Pool reads of the finished run in from, its record and
// each toolchain's raw output, to KeptDir(base)/<run name>/. bench/results/
// is ignored, so a run that is not kept is gone with its checkout; a
// result pools runs made on different boots or days (minPoolRuns), which
// a run must outlive. The tables and plots are left behind: Pool makes
// them again. The kept record names none.
func Keep(root, from string, stdout io.Writer) error {
	for kind, is := range map[string]func(string) bool{"-costs": isCostsRun, "-instructions": isInstrRun} {
		if is(from) && !isFile(filepath.Join(from, recordFile)) {
			return fmt.Errorf("cannot keep %s: it is a %s run, whose counts -pool does not join; publish it with -publish instead", from, kind)
		}
	}
	rec, err := ReadRecord(from)
	if err != nil {
		return err
	}
	if err := keepable(rec); err != nil {
		return fmt.Errorf("cannot keep %s: %v", from, err)
	}
	rel := KeptDir(rec.ForkBase()) + "/" + rec.Name
	dst := filepath.Join(root, filepath.FromSlash(rel))
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("cannot keep %s: %s exists already; a run is kept once (remove that folder first to keep it again)", from, rel)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp := dst + ".partial"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(tmp, 0o777); err != nil {
		return err
	}
	for _, t := range rec.Toolchains {
		if err := copyFile(filepath.Join(from, t.Raw), filepath.Join(tmp, t.Raw)); err != nil {
			os.RemoveAll(tmp)
			return err
		}
	}
	kept := rec
	kept.Tables, kept.Plots, kept.Tails, kept.Spread = nil, nil, "", ""
	if err := writeRecord(tmp, kept); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	fmt.Fprintf(stdout, "kept run %s (commit %s, %s) in %s: its record and the raw output of %s; commit it, and pool it with -pool\n",
		rec.Name, rec.Provenance.Commit, rec.session(), rel, plural(len(rec.Toolchains), "toolchain"))
	return nil
}

// keepable says why rec is not worth keeping for a pool: Keep takes only
// a single run that -publish would take, so that a kept run never turns
// out useless later, and whose names are safe to copy by.
func keepable(rec Record) error {
	if len(rec.Pooled) > 0 {
		var from []string
		for _, p := range rec.Pooled {
			from = append(from, p.Name)
		}
		return fmt.Errorf("it is a pool; keep the runs it joins (%s) instead", strings.Join(from, ", "))
	}
	var why []string
	if err := publishable(rec); err != nil {
		why = append(why, err.Error())
	}
	if rec.Name == "" || rec.Name != filepath.Base(rec.Name) || !filepath.IsLocal(rec.Name) {
		why = append(why, fmt.Sprintf("its record names the run %q, which is no folder name; it was not written by ./bench.bash, or was edited", rec.Name))
	}
	if len(rec.Toolchains) == 0 {
		why = append(why, "its record names no toolchain")
	}
	for _, t := range rec.Toolchains {
		if t.Raw == "" || t.Raw != filepath.Base(t.Raw) || !filepath.IsLocal(t.Raw) {
			why = append(why, fmt.Sprintf("its record names %q as the raw output of %s, which is not a file in the folder; it was not written by ./bench.bash, or was edited", t.Raw, t.Name))
		}
	}
	if len(why) > 0 {
		return errors.New(strings.Join(why, "; "))
	}
	return nil
}

// session names the boot and UTC day, or for a run that recorded no boot
// the day alone, that the run was made on, as PooledRun.session does.
func (r Record) session() string {
	return PooledRun{Start: r.Start, Boot: r.Boot}.session()
}
