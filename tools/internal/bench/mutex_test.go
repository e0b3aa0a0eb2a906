package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go-spinbit.dev/tools/internal/fork"
)

// patchOf is a patch in git's format that changes the files.
func patchOf(text string, files ...string) []byte {
	var b strings.Builder
	b.WriteString("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] " + text + "\n\n---\n")
	for _, f := range files {
		b.WriteString("diff --git a/" + f + " b/" + f + "\n--- a/" + f + "\n+++ b/" + f + "\n@@ -1 +1 @@\n-old\n+" + text + "\n")
	}
	return []byte(b.String())
}

func TestMutexCodeOf(t *testing.T) {
	series := func() fork.Series {
		return fork.Series{
			"0001-cmd-go.patch":        patchOf("go", "src/cmd/go/main.go"),
			"0002-runtime-mutex.patch": patchOf("mutex", "src/runtime/lock_spinbit.go", "src/runtime/runtime2.go"),
			"0003-runtime-tests.patch": patchOf("tests", "src/runtime/lock_spinbit_test.go"),
			"0004-runtime-claim.patch": patchOf("claim", "src/runtime/lock_claim.go"),
		}
	}
	m := mutexCodeOf("go1.27.4", series())
	if m.Base != "go1.27.4" || strings.Join(m.Patches, " ") != "0002-runtime-mutex.patch 0004-runtime-claim.patch" || len(m.SHA256) != 64 {
		t.Fatalf("mutexCodeOf = %+v; want go1.27.4, patches 0002 and 0004, a SHA-256", m)
	}
	same := series()
	same["0001-cmd-go.patch"] = patchOf("go, changed", "src/cmd/go/main.go")
	same["0003-runtime-tests.patch"] = patchOf("tests, changed", "src/runtime/lock_spinbit_test.go")
	same["0009-runtime-claim.patch"] = same["0004-runtime-claim.patch"]
	delete(same, "0004-runtime-claim.patch")
	if got := mutexCodeOf("go1.27.4", same); got.SHA256 != m.SHA256 {
		t.Errorf("changing patches that leave lock_*.go alone, or a patch's name, changed the hash: %s, was %s", got.SHA256, m.SHA256)
	}
	changed := series()
	changed["0004-runtime-claim.patch"] = patchOf("claim, changed", "src/runtime/lock_claim.go")
	if got := mutexCodeOf("go1.27.4", changed); got.SHA256 == m.SHA256 {
		t.Errorf("changing the patch of lock_claim.go left the hash %s", got.SHA256)
	}
}

// stalePoolRoot is a repository with base's series and the published pool
// of pooled, whose record says it measured the mutex mutex (none if nil).
func stalePoolRoot(t *testing.T, base string, s fork.Series, pooled string, mutex *MutexCode) string {
	t.Helper()
	root := t.TempDir()
	if err := fork.WriteSeries(fork.Repo{Root: root, Base: base}.Patches(), s); err != nil {
		t.Fatal(err)
	}
	if pooled != "" {
		dir := filepath.Join(root, filepath.FromSlash(ReportDirOf(pooled, "")), "pooled")
		os.MkdirAll(dir, 0o777)
		rec := poolRecord("pooled-1", "0123456789ab", 30, threeRuns()[0].Start)
		rec.Provenance.Base, rec.Provenance.Mutex, rec.Pooled = pooled, mutex, threeRuns()
		if err := writeRecord(dir, rec); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// The check's logic both ways: a pool of the tree's mutex gives no
// warning; a changed patch of the mutex, a pool of an earlier point
// release, a pool that names no mutex and no pool at all each give a
// WARNING line that names the pool, the base and the command to refresh
// it.
func TestPoolCurrency(t *testing.T) {
	s := fork.Series{"0001-runtime-mutex.patch": patchOf("mutex", "src/runtime/lock_spinbit.go")}
	tree := mutexCodeOf("go1.27.4", s)
	edited := fork.Series{"0001-runtime-mutex.patch": patchOf("mutex, edited", "src/runtime/lock_spinbit.go")}
	older := mutexCodeOf("go1.27.3", s)
	refresh := "to refresh it, make 3 full runs on different boots or days with ./bench.bash -base go1.27.4, keeping each with ./bench.bash -keep RUN and committing it, then ./bench.bash -pool RUN1,RUN2,RUN3 and ./bench.bash -publish"
	for _, c := range []struct {
		name  string
		root  string
		want  string
		stale bool
	}{
		{"same mutex", stalePoolRoot(t, "go1.27.4", s, "go1.27.4", &tree),
			"the published pool bench/report/go1.27.4/pooled measured base go1.27.4's mutex as the tree holds it (SHA-256 " + tree.Short() + ")", false},
		{"changed patch", stalePoolRoot(t, "go1.27.4", edited, "go1.27.4", &tree),
			"WARNING: the published pool bench/report/go1.27.4/pooled measured another mutex than base go1.27.4's patches hold now: the go1.27.4 series' mutex (SHA-256 " + tree.Short() + " of its 1 patch to src/runtime/lock_*.go), the tree's is the go1.27.4 series' mutex (SHA-256 " + mutexCodeOf("go1.27.4", edited).Short(), true},
		{"earlier point release", stalePoolRoot(t, "go1.27.4", s, "go1.27.3", &older),
			"WARNING: the published pool bench/report/go1.27.3/pooled measured the go1.27.3 series, not base go1.27.4", true},
		{"no mutex named", stalePoolRoot(t, "go1.27.4", s, "go1.27.4", nil),
			"WARNING: the published pool bench/report/go1.27.4/pooled does not say what mutex it measured", true},
		{"no pool", stalePoolRoot(t, "go1.27.4", s, "", nil),
			"WARNING: no published pool measured base go1.27.4 or an earlier point release of it; to publish one, make 3 full runs", true},
		{"another minor's pool", stalePoolRoot(t, "go1.27.4", s, "go1.23.12", &tree),
			"WARNING: no published pool measured base go1.27.4", true},
		{"a later release's pool", stalePoolRoot(t, "go1.27.4", s, "go1.27.5", &tree),
			"WARNING: no published pool measured base go1.27.4", true},
	} {
		line, current, err := PoolCurrency(c.root, "go1.27.4")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !strings.HasPrefix(line, c.want) || current == c.stale || strings.Contains(line, "\n") {
			t.Errorf("%s: PoolCurrency = %q, current %v\nwant one line starting %q, current %v", c.name, line, current, c.want, !c.stale)
		}
		if c.stale && c.name != "no pool" && c.name != "another minor's pool" && c.name != "a later release's pool" && !strings.Contains(line, refresh) {
			t.Errorf("%s: the warning does not say how to refresh the pool (%q): %q", c.name, refresh, line)
		}
	}
}

// In this repository, a base with no published pool of its own gets a
// warning that names the pool standing for it.
func TestPoolCurrencyOfThisRepository(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	bases, err := fork.Bases(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range bases {
		line, current, err := PoolCurrency(root, base)
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		own := filepath.Join(root, filepath.FromSlash(ReportDirOf(base, "")), "pooled", recordFile)
		if _, err := os.Stat(own); err != nil && (current || !strings.HasPrefix(line, "WARNING: ") || !strings.Contains(line, "base "+base)) {
			t.Errorf("base %s has no pool of its own, yet PoolCurrency says %q (current %v)", base, line, current)
		}
		t.Logf("%s: %s", base, line)
	}
}

// A run records the mutex of the base's patches/, and a published page
// names it.
func TestProvenanceNamesTheMutex(t *testing.T) {
	s := fork.Series{"0001-runtime-mutex.patch": patchOf("mutex", "src/runtime/lock_spinbit.go")}
	root := stalePoolRoot(t, "go1.27.4", s, "", nil)
	p := readProvenance(root, "go1.27.4", false)
	if want := mutexCodeOf("go1.27.4", s); p.Mutex == nil || p.Mutex.SHA256 != want.SHA256 {
		t.Fatalf("readProvenance's mutex = %+v, want %+v", p.Mutex, want)
	}
	page, err := summaryMarkdown(t.TempDir(), Record{Name: "run", Provenance: p}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := "- the fork's mutex: SHA-256 " + p.Mutex.SHA256 + " of the base's patches that change src/runtime/lock_*.go (0001-runtime-mutex.patch)"; !strings.Contains(page, want) {
		t.Errorf("the page lacks %q:\n%s", want, page)
	}
}

// A stale pool's warning counts the kept runs of the tree's mutex by boot
// and day: a run of another mutex, a -runtime run and a pooled folder do
// not count, two runs of one boot on one day count once, and a run of
// that boot on another day counts apart.
func TestPoolCurrencyCountsKeptRuns(t *testing.T) {
	s := fork.Series{"0001-runtime-mutex.patch": patchOf("mutex", "src/runtime/lock_spinbit.go")}
	tree := mutexCodeOf("go1.27.4", s)
	other := mutexCodeOf("go1.27.4", fork.Series{"0001-runtime-mutex.patch": patchOf("old mutex", "src/runtime/lock_spinbit.go")})
	root := stalePoolRoot(t, "go1.27.4", s, "", nil)
	line, _, err := PoolCurrency(root, "go1.27.4")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(line, "; no run of this mutex is kept in bench/report/go1.27.4/runs") {
		t.Errorf("with nothing kept: %q", line)
	}
	t0 := time.Date(2026, 11, 28, 19, 30, 0, 0, time.UTC)
	keep := func(name, boot, suite string, m MutexCode) {
		rec := poolRecord(name, "aaa", 10, t0)
		rec.Provenance.Base, rec.Provenance.Mutex, rec.Boot, rec.Suite = "go1.27.4", &m, boot, suite
		dir := filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.4")), name)
		os.MkdirAll(dir, 0o777)
		if err := writeRecord(dir, rec); err != nil {
			t.Fatal(err)
		}
	}
	keep("run1", "boot-a", "", tree)
	keep("run2", "boot-b", "", tree)
	keep("run3", "boot-b", "", tree)
	keep("run4", "boot-c", "", other)
	keep("runtime-1", "boot-c", "runtime", tree)
	line, current, err := PoolCurrency(root, "go1.27.4")
	if err != nil || current {
		t.Fatalf("PoolCurrency: current %v, err %v", current, err)
	}
	want := "; kept in bench/report/go1.27.4/runs, runs of this mutex: on Some CPU, 2 logical CPUs, 3 runs (run1, run2, run3) on 2 of the 3 boots or days a pool needs"
	if !strings.HasSuffix(line, want) {
		t.Errorf("PoolCurrency = %q\nwant it to end %q", line, want)
	}
	// Made on boot-b on the same day, a run adds no boot or day: the
	// line says so, and says nothing of it for another boot.
	now := PooledRun{Start: t0.Add(time.Hour), Boot: "boot-b"}.session()
	line, _, _ = poolCurrency(root, "go1.27.4", "", now, noCodeChanges)
	if want := "on 2 of the 3 boots or days a pool needs, and this machine's present session (boot boot-b on 2026-11-28) is already among them: a run made now on that host adds none until the machine reboots or the UTC day changes"; !strings.HasSuffix(line, want) {
		t.Errorf("with a run made now on boot-b on its day: PoolCurrency = %q\nwant it to end %q", line, want)
	}
	line, _, _ = poolCurrency(root, "go1.27.4", "", PooledRun{Start: t0, Boot: "boot-z"}.session(), noCodeChanges)
	if strings.Contains(line, "adds none") {
		t.Errorf("with a run made now on another boot: PoolCurrency = %q; want no word of a run adding nothing", line)
	}

	// Runs of another host count apart: they do not pool with these.
	keep("run5", "boot-d", "", tree)
	rec, _ := ReadRecord(filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.4")), "run5"))
	rec.Host = "Other CPU, 2 logical CPUs"
	writeRecord(filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.4")), "run5"), rec)
	line, _, _ = PoolCurrency(root, "go1.27.4")
	want = "on 2 of the 3 boots or days a pool needs; on Other CPU, 2 logical CPUs, 1 run (run5) on 1 of the 3 boots or days a pool needs (runs of different hosts, settings or measured code do not pool)"
	if !strings.HasSuffix(line, want) {
		t.Errorf("with a run of another host: PoolCurrency = %q\nwant it to end %q", line, want)
	}

	// A run of the first host with another -benchtime counts apart too.
	keep("run6", "boot-e", "", tree)
	dir6 := filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.4")), "run6")
	rec, _ = ReadRecord(dir6)
	rec.Benchtime = "1s"
	writeRecord(dir6, rec)
	line, _, _ = PoolCurrency(root, "go1.27.4")
	if !strings.Contains(line, "on Some CPU, 2 logical CPUs (-benchtime 150ms,") || !strings.Contains(line, "on Some CPU, 2 logical CPUs (-benchtime 1s,") || !strings.Contains(line, "1 run (run6) on 1 of the 3") {
		t.Errorf("with a run of another -benchtime: PoolCurrency = %q; want the two settings counted apart", line)
	}

	// A run of boot-b made on the next day counts as a third.
	t0 = t0.Add(24 * time.Hour)
	keep("run7", "boot-b", "", tree)
	line, _, _ = PoolCurrency(root, "go1.27.4")
	if !strings.Contains(line, "4 runs (run1, run2, run3, run7) on 3 of the 3 boots or days") {
		t.Errorf("with a run of one boot on the next day: PoolCurrency = %q; want it counted apart", line)
	}

	// A run of the same mutex from a commit whose series differs
	// elsewhere (a test's patch, say) does not pool with the others, so
	// it counts apart, and the two groups are told apart by commit.
	t0 = t0.Add(24 * time.Hour)
	keep("run8", "boot-f", "", tree)
	dir8 := filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.4")), "run8")
	rec, _ = ReadRecord(dir8)
	rec.Provenance.Commit = "bbb"
	writeRecord(dir8, rec)
	testPatchChanged := func(a, b string, paths ...string) ([]string, error) {
		if a == b {
			return nil, nil
		}
		return []string{"bases/go1.27.4/patches/0002-runtime-test.patch"}, nil
	}
	line, _, err = poolCurrency(root, "go1.27.4", "bbb", "", testPatchChanged)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, "4 runs (run1, run2, run3, run7) on 3 of the 3 boots or days") || !strings.Contains(line, ", commit bbb), 1 run (run8) on 1 of the 3") {
		t.Errorf("with a run of another commit whose series differs: PoolCurrency = %q; want run8 counted apart, named by its commit", line)
	}

	// With the tree at bbb, the groups of commit aaa (run1's, run5's and
	// run6's) measured other code than the tree: a run made now joins
	// run8's group, not theirs.
	// Groups whose label already names commit aaa do not name it twice.
	stale := ", which measured other code than the tree's commit bbb (they differ in bases/go1.27.4/patches/0002-runtime-test.patch): a run made now starts another pool"
	if !strings.Contains(line, "(run1, run2, run3, run7) on 3 of the 3 boots or days a pool needs"+stale) || strings.Count(line, stale) != 3 || !strings.Contains(line, "(run8) on 1 of the 3 boots or days a pool needs (runs of") {
		t.Errorf("with the tree at bbb: PoolCurrency = %q; want the groups of aaa, and not run8's, said to be of other code", line)
	}
	if strings.Count(line, ", from commit aaa,") != 1 || !strings.Contains(line, "(run5) on 1 of the 3 boots or days a pool needs, from commit aaa, which measured other code") {
		t.Errorf("with the tree at bbb: PoolCurrency = %q; want commit aaa named once in each group's words: by the label where it names commits, else after the runs", line)
	}
	// Compared with an unknown tree commit, or agreeing with it, no group is.
	for _, head := range []string{"", "aaa"} {
		line, _, _ = poolCurrency(root, "go1.27.4", head, "", noCodeChanges)
		if strings.Contains(line, "measured other code than the tree's") {
			t.Errorf("with the tree at %q and no code changes: PoolCurrency = %q; want no group said to be of other code", head, line)
		}
	}
}

// With a current pool, the line counts the kept runs for a second pool:
// not the pool's own runs, nor runs made on one of their days, and it
// says when a run made now falls on such a day.
func TestPoolCurrencySecondPool(t *testing.T) {
	s := fork.Series{"0001-runtime-mutex.patch": patchOf("mutex", "src/runtime/lock_spinbit.go")}
	tree := mutexCodeOf("go1.27.4", s)
	root := stalePoolRoot(t, "go1.27.4", s, "go1.27.4", &tree)
	host := "Some CPU, 2 logical CPUs"
	keep := func(name string, start time.Time) {
		rec := poolRecord(name, "aaa", 10, start)
		rec.Provenance.Base, rec.Provenance.Mutex, rec.Boot, rec.Host = "go1.27.4", &tree, "boot-"+name, host
		dir := filepath.Join(root, filepath.FromSlash(KeptDir("go1.27.4")), name)
		os.MkdirAll(dir, 0o777)
		if err := writeRecord(dir, rec); err != nil {
			t.Fatal(err)
		}
	}
	pool := threeRuns()
	keep(pool[0].Name, pool[0].Start)             // joined by the pool
	keep("sameday", pool[1].Start.Add(time.Hour)) // made on a day of the pool's
	host = "Big CPU, 8 logical CPUs"
	keep("bigger", pool[2].Start.Add(72*time.Hour)) // on more CPUs
	host = "Other CPU, 2 logical CPUs"
	line, current, err := poolCurrency(root, "go1.27.4", "", "", noCodeChanges)
	if err != nil || !current {
		t.Fatalf("PoolCurrency: current %v, err %v", current, err)
	}
	if want := "; for a second pool, to check it with ./bench.bash -confirm (runs it did not join, made on days none of its runs was, on as many logical CPUs), no run of this mutex is kept in bench/report/go1.27.4/runs"; !strings.HasSuffix(line, want) {
		t.Errorf("with only the pool's run and one of its days kept: %q\nwant it to end %q", line, want)
	}
	later := pool[2].Start.Add(48 * time.Hour)
	keep("later", later)
	line, _, _ = poolCurrency(root, "go1.27.4", "", PooledRun{Start: pool[2].Start, Boot: "b"}.session(), noCodeChanges)
	if want := "runs of this mutex: on Other CPU, 2 logical CPUs, 1 run (later) on 1 of the 3 boots or days a pool needs; a run made now (boot b on 2026-11-26) cannot join it: the published pool has a run of that day"; !strings.HasSuffix(line, want) {
		t.Errorf("with a run of a later day kept, now on a pool's day: %q\nwant it to end %q", line, want)
	}
	line, _, _ = poolCurrency(root, "go1.27.4", "", PooledRun{Start: later.Add(24 * time.Hour), Boot: "b"}.session(), noCodeChanges)
	if strings.Contains(line, "cannot join") {
		t.Errorf("now on another day: %q; want no word of a run that cannot join", line)
	}
}
