package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// MutexCode names the runtime mutex a run of the fork measured: the
// base's release and the patches of its series that change the mutex's
// files (isMutexFile), with the SHA-256 of their text. Two runs with the
// same MutexCode measured the same mutex; a published pool whose
// MutexCode is not the tree's is stale (PoolCurrency).
type MutexCode struct {
	Base    string   `json:"base"`
	Patches []string `json:"patches"`
	SHA256  string   `json:"sha256"`
}

// isMutexFile reports whether a file of the Go tree is the runtime
// mutex's code: src/runtime/lock_*.go, its tests aside.
func isMutexFile(name string) bool {
	return strings.HasPrefix(name, "src/runtime/lock_") && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// mutexCodeOf is the MutexCode of the series s of base. The hash is of
// the patches' text in the order they apply, not of their names, so
// renaming a patch does not change it.
func mutexCodeOf(base string, s fork.Series) MutexCode {
	m := MutexCode{Base: base}
	h := sha256.New()
	for _, name := range s.Names() {
		text := s[name]
		if !slices.ContainsFunc(fork.PatchFiles(string(text)), isMutexFile) {
			continue
		}
		m.Patches = append(m.Patches, name)
		fmt.Fprintf(h, "%d\n", len(text))
		h.Write(text)
	}
	m.SHA256 = hex.EncodeToString(h.Sum(nil))
	return m
}

// Short is the first 12 hex digits of the hash.
func (m MutexCode) Short() string { return m.SHA256[:min(12, len(m.SHA256))] }

func (m MutexCode) String() string {
	patches := "patches"
	if len(m.Patches) == 1 {
		patches = "patch"
	}
	return fmt.Sprintf("the %s series' mutex (SHA-256 %s of its %d %s to src/runtime/lock_*.go)", m.Base, m.Short(), len(m.Patches), patches)
}

// treeMutexCode is the MutexCode of base's patches/ in the repository at
// root.
func treeMutexCode(root, base string) (MutexCode, error) {
	r := fork.Repo{Root: root, Base: base}
	s, err := fork.ReadSeries(r.Patches())
	if err != nil {
		return MutexCode{}, err
	}
	if len(s) == 0 {
		return MutexCode{}, fmt.Errorf("%s holds no patches", filepath.Join(fork.BasesDir, base, "patches"))
	}
	return mutexCodeOf(base, s), nil
}

// publishedMutexCode is the mutex a published run rec measured: its
// record's, or, for a run recorded before runs named it, that of the
// base's series at the run's commit, if this clone has it.
func publishedMutexCode(root string, rec Record) (MutexCode, error) {
	if m := rec.Provenance.Mutex; m != nil {
		return *m, nil
	}
	base := rec.ForkBase()
	if rec.Provenance.Commit == "" || base == "" {
		return MutexCode{}, fmt.Errorf("its record names no commit or base")
	}
	s, err := fork.Repo{Root: root, Base: base}.SeriesAt(rec.Provenance.Commit)
	if err != nil {
		return MutexCode{}, err
	}
	return mutexCodeOf(base, s), nil
}

// publishedPoolFor finds the published pool of bench/ runs that stands
// for base: bench/report/<base>/pooled/, or, if base has none yet, that
// of the newest earlier release of the same minor version (the series
// before the last point release), as RESULTS.md may still show it. It
// returns the pool's folder relative to root, or "" if there is none.
func publishedPoolFor(root, base string) (string, error) {
	dirs, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(ReportDir), "go*", "pooled", recordFile))
	if err != nil {
		return "", err
	}
	minor := func(r string) string {
		parts := strings.SplitN(r, ".", 3)
		return strings.Join(parts[:min(2, len(parts))], ".")
	}
	best := ""
	for _, f := range dirs {
		rel := filepath.Base(filepath.Dir(filepath.Dir(f)))
		if minor(rel) != minor(base) || fork.CompareReleases(rel, base) > 0 {
			continue
		}
		if best == "" || fork.CompareReleases(rel, best) > 0 {
			best = rel
		}
	}
	if best == "" {
		return "", nil
	}
	return ReportDirOf(best, "") + "/pooled", nil
}

// PoolCurrency says whether the published pool that stands for base
// measured the tree's mutex: one line, which starts with "WARNING:" when
// it did not, or when there is no such pool, naming the pool, the base,
// the commands that make a new one and the runs kept for it so far; for
// a current pool, the line counts the runs kept for a second pool. err
// is for a tree it cannot read.
func PoolCurrency(root, base string) (line string, current bool, err error) {
	r := fork.Repo{Root: root}
	head, _ := r.Commit()
	// Without a boot ID a run made now counts by its day alone, and could
	// match runs of other machines: then nothing is said of it.
	now := ""
	if boot := bootID(); boot != "" {
		now = PooledRun{Start: time.Now(), Boot: boot}.session()
	}
	return poolCurrency(root, base, head, now, r.ChangedBetween)
}

// poolCurrency is PoolCurrency, with head the tree's commit ("" if
// unknown), now the session (boot and UTC day) a run made now would count
// as ("" if unknown), and changed to compare the commits of kept runs
// with each other and with head.
func poolCurrency(root, base, head, now string, changed changedFunc) (line string, current bool, err error) {
	tree, err := treeMutexCode(root, base)
	if err != nil {
		return "", false, err
	}
	line, pool, err := poolCurrencyLine(root, base, tree)
	if err != nil {
		return "", false, err
	}
	current = !strings.HasPrefix(line, "WARNING")
	if !current {
		return line + "; " + keptProgress(root, base, head, now, tree, changed, nil), false, nil
	}
	return line + "; " + secondPoolProgress(root, base, head, now, tree, changed, pool), true, nil
}

// secondPoolProgress is keptProgress for a second pool of the published
// pool, which -confirm takes only of other runs made on other days, on as
// many logical CPUs: it leaves out the kept runs the pool joined, those
// started on one of its runs' days and those of another count of CPUs,
// and says when a run made now would start on such a day.
func secondPoolProgress(root, base, head, now string, tree MutexCode, changed changedFunc, pool Record) string {
	days, names := map[string]bool{}, map[string]bool{}
	for _, r := range pool.Pooled {
		days[r.day()] = true
		names[r.Name] = true
	}
	cpus, _ := logicalCPUs(pool.Host)
	other := func(rec Record) bool {
		n, _ := logicalCPUs(rec.Host)
		return !names[rec.Name] && !days[PooledRun{Start: rec.Start}.day()] && n == cpus
	}
	text := "for a second pool, to check it with ./bench.bash -confirm (runs it did not join, made on days none of its runs was, on as many logical CPUs), " + keptProgress(root, base, head, now, tree, changed, other)
	// A session's name ends with its UTC day (PooledRun.session).
	for day := range days {
		if strings.HasSuffix(now, day) {
			return text + fmt.Sprintf("; a run made now (%s) cannot join it: the published pool has a run of that day", now)
		}
	}
	return text
}

// poolCurrencyLine is PoolCurrency's line without the kept runs, and the
// record of the published pool it judged (empty if it has none).
func poolCurrencyLine(root, base string, tree MutexCode) (string, Record, error) {
	dir, err := publishedPoolFor(root, base)
	if err != nil {
		return "", Record{}, err
	}
	if dir == "" {
		return poolNews(base, "", nil, tree, nil), Record{}, nil
	}
	rec, err := ReadRecord(filepath.Join(root, filepath.FromSlash(dir)))
	if err != nil {
		return poolNews(base, dir, nil, tree, err), Record{}, nil
	}
	pub, err := publishedMutexCode(root, rec)
	if err != nil {
		return poolNews(base, dir, nil, tree, err), rec, nil
	}
	return poolNews(base, dir, &pub, tree, nil), rec, nil
}

// keptProgress says which full runs of bench/ kept for base (KeptDir)
// measured the tree's mutex, and on how many boots or days, in groups of
// runs that pool together (poolable: one host, the same settings, and
// commits that agree in what the runs measured, compared with changed,
// since a series can change outside the mutex's files): how far each
// group is from a pool that -publish accepts. Kept runs whose record
// cannot be read, or whose mutex is another, do not count. A group whose
// commit measured other code than head (the tree's commit; "" if unknown)
// says so: a run made now does not pool with it. A group that lacks
// boots or days and already has a run of now's (the session a run made
// now would count as) says that such a run adds none.
func keptProgress(root, base, head, now string, tree MutexCode, changed changedFunc, counts func(Record) bool) string {
	type group struct {
		runs     []Record
		sessions []string
	}
	var groups []*group
	files, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(KeptDir(base)), "*", recordFile))
	for _, f := range files {
		rec, err := ReadRecord(filepath.Dir(f))
		if err != nil || rec.Suite != "" || (counts != nil && !counts(rec)) {
			continue
		}
		if m, err := publishedMutexCode(root, rec); err != nil || m.SHA256 != tree.SHA256 {
			continue
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return poolable([]Record{g.runs[0], rec}, changed) == nil })
		if i < 0 {
			groups, i = append(groups, &group{}), len(groups)
		}
		g := groups[i]
		g.runs = append(g.runs, rec)
		if s := rec.session(); !slices.Contains(g.sessions, s) {
			g.sessions = append(g.sessions, s)
		}
	}
	if len(groups) == 0 {
		return fmt.Sprintf("no run of this mutex is kept in %s", KeptDir(base))
	}
	var parts []string
	for _, g := range groups {
		first := g.runs[0]
		label := first.Host
		// from names the group's commit where the label does not.
		from := fmt.Sprintf(", from commit %s,", first.Provenance.Commit)
		if slices.ContainsFunc(groups, func(o *group) bool { return o != g && o.runs[0].Host == first.Host }) {
			label += fmt.Sprintf(" (-benchtime %s, -cpu %s, %s, %s, commit %s)", first.Benchtime, joinInts(first.CPUs), toolchainList(first.Toolchains), first.Interleave, first.Provenance.Commit)
			from = ","
		}
		var names []string
		for _, r := range g.runs {
			names = append(names, r.Name)
		}
		part := fmt.Sprintf("on %s, %s (%s) on %d of the %d boots or days a pool needs",
			label, plural(len(names), "run"), strings.Join(names, ", "), min(len(g.sessions), minPoolRuns), minPoolRuns)
		sameCode := true
		if commit := first.Provenance.Commit; head != "" && commit != head {
			files, err := changed(commit, head, poolPaths(base)...)
			switch {
			case err != nil:
				part += fmt.Sprintf("%s which could not be compared with the tree's (%v)", from, err)
				sameCode = false
			case len(files) > 0:
				part += fmt.Sprintf("%s which measured other code than the tree's commit %s (they differ in %s): a run made now starts another pool", from, head, strings.Join(files, ", "))
				sameCode = false
			}
		}
		if sameCode && now != "" && len(g.sessions) < minPoolRuns && slices.Contains(g.sessions, now) {
			part += fmt.Sprintf(", and this machine's present session (%s) is already among them: a run made now on that host adds none until the machine reboots or the UTC day changes", now)
		}
		parts = append(parts, part)
	}
	text := fmt.Sprintf("kept in %s, runs of this mutex: %s", KeptDir(base), strings.Join(parts, "; "))
	if len(groups) > 1 {
		text += " (runs of different hosts, settings or measured code do not pool)"
	}
	return text
}

// refreshCommand is how to make and publish a new pool of base.
func refreshCommand(base string) string {
	return fmt.Sprintf("make %d full runs on different boots or days with ./bench.bash -base %s, keeping each with ./bench.bash -keep RUN and committing it, then ./bench.bash -pool RUN1,RUN2,RUN3 and ./bench.bash -publish with the pooled folder", minPoolRuns, base)
}

// poolNews is PoolCurrency's line for the pool published in dir (relative
// to the root; "" if there is none), which measured pub (nil if unknown,
// why says why), against the tree's mutex of base.
func poolNews(base, dir string, pub *MutexCode, tree MutexCode, why error) string {
	switch {
	case dir == "":
		return fmt.Sprintf("WARNING: no published pool measured base %s or an earlier point release of it; to publish one, %s", base, refreshCommand(base))
	case pub == nil:
		return fmt.Sprintf("WARNING: the published pool %s does not say what mutex it measured (%v), so it may not be base %s's; to refresh it, %s", dir, why, base, refreshCommand(base))
	case pub.Base != tree.Base:
		return fmt.Sprintf("WARNING: the published pool %s measured the %s series, not base %s: its mutex is %s, the tree's is %s; to refresh it, %s", dir, pub.Base, base, pub, tree, refreshCommand(base))
	case pub.SHA256 != tree.SHA256:
		return fmt.Sprintf("WARNING: the published pool %s measured another mutex than base %s's patches hold now: %s, the tree's is %s; to refresh it, %s", dir, base, pub, tree, refreshCommand(base))
	}
	return fmt.Sprintf("the published pool %s measured base %s's mutex as the tree holds it (SHA-256 %s)", dir, base, tree.Short())
}
