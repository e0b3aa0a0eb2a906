package fork

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseUpstream(t *testing.T) {
	u, err := ParseUpstream("UPSTREAM", []byte("# base\nversion go1.23.12\n\nh1 linux-amd64 h1:abc=\nh1 darwin-arm64 h1:def=\n"))
	if err != nil {
		t.Fatal(err)
	}
	if u.Version != "go1.23.12" || u.Sums["linux-amd64"] != "h1:abc=" || u.Sums["darwin-arm64"] != "h1:def=" {
		t.Fatalf("got %+v", u)
	}
	for _, bad := range []string{"", "version 1.23\n", "version go1.23.12\nversion go1.23.11\n", "version go1.23.12\nh1 linux h1:x\n", "sum go1\n"} {
		if _, err := ParseUpstream("UPSTREAM", []byte(bad)); err == nil {
			t.Errorf("ParseUpstream(%q) succeeded, want an error", bad)
		}
	}
}

func TestVerify(t *testing.T) {
	u := &Upstream{Version: "go1.23.12", Sums: map[string]string{"linux-amd64": "h1:good="}}
	if err := u.Verify("linux-amd64", "h1:good="); err != nil {
		t.Errorf("matching checksum: %v", err)
	}
	if err := u.Verify("linux-amd64", "h1:evil="); err == nil || !strings.Contains(err.Error(), "h1:good=") {
		t.Errorf("mismatch: got %v, want an error naming the pinned checksum", err)
	}
	if err := u.Verify("plan9-386", "h1:new="); err == nil || !strings.Contains(err.Error(), "h1 plan9-386 h1:new=") {
		t.Errorf("unpinned platform: got %v, want an error with the line to add", err)
	}
}

func TestSeriesDiff(t *testing.T) {
	have := Series{"0001-a.patch": []byte("a"), "0002-b.patch": []byte("b"), "0003-c.patch": []byte("c")}
	want := Series{"0001-a.patch": []byte("a"), "0002-b.patch": []byte("B"), "0004-d.patch": []byte("d")}
	got := strings.Join(have.Diff(want), "; ")
	if got != "differs: 0002-b.patch; only in the tree: 0003-c.patch; only in patches/: 0004-d.patch" {
		t.Errorf("Diff = %q", got)
	}
	if have.Equal(want) || !have.Equal(have) {
		t.Errorf("Equal is wrong")
	}
}

func TestReadSeriesRejectsStrays(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "0001-runtime-x.patch"), []byte("x"), 0o644)
	if _, err := ReadSeries(dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	if _, err := ReadSeries(dir); err == nil {
		t.Errorf("a stray file in patches/ was accepted")
	}
	os.Remove(filepath.Join(dir, "notes.txt"))
	os.WriteFile(filepath.Join(dir, "fix.patch"), []byte("x"), 0o644)
	if _, err := ReadSeries(dir); err == nil {
		t.Errorf("a patch without a number was accepted")
	}
}

func TestNormalizeDate(t *testing.T) {
	in := "From 000 Mon Sep 17 00:00:00 2001\nFrom: a <b>\nDate: Tue, 3 Mar 2026 10:11:12 +0100\nSubject: x\n\nbody\nDate: stays\n"
	got := string(normalize([]byte(in)))
	if !strings.Contains(got, "Date: "+fixedDate+"\n") || !strings.Contains(got, "\nDate: stays\n") || strings.Contains(got, "2026 10:11") {
		t.Errorf("normalize = %q", got)
	}
}

// newTree makes a git tree like goroot/<release>: a base commit tagged
// both upstream and named (a fake release needs no name of its own).
func newTree(t *testing.T) string {
	return newTreeWith(t, map[string]string{"src/a.go": "package a\n\nconst A = 1\n"})
}

// newTreeWith makes a tree as newTree does, whose base commit holds files.
func newTreeWith(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	writeFiles(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "base"}, {"tag", UpstreamTag}, {"tag", NamedTag}} {
		if _, err := git(dir, fixedIdentity, args...); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// newRepo makes a repository root whose bases/ holds base, pinned by an
// UPSTREAM file, with an empty patches/ if withPatches.
func newRepo(t *testing.T, base string, withPatches bool) Repo {
	t.Helper()
	r := Repo{Root: t.TempDir(), Base: base}
	addBase(t, r.Root, base, withPatches)
	return r
}

// addBase adds a base to the repository at root, as newRepo does.
func addBase(t *testing.T, root, base string, withPatches bool) {
	t.Helper()
	r := Repo{Root: root, Base: base}
	if err := os.MkdirAll(r.BaseDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.upstreamFile(), FormatUpstream(base, "linux-amd64", "h1:x="), 0o644); err != nil {
		t.Fatal(err)
	}
	if withPatches {
		if err := os.MkdirAll(r.Patches(), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// placeTree moves a tree made by newTree to r's goroot/<Base>.
func placeTree(t *testing.T, r Repo, tree string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(r.Goroot()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tree, r.Goroot()); err != nil {
		t.Fatal(err)
	}
}

// testDeveloper is who makes the tests' own commits, the ones a developer
// would make, so that the tests need no identity in git's configuration.
var testDeveloper = []string{
	"GIT_AUTHOR_NAME=Test Developer", "GIT_AUTHOR_EMAIL=developer@example.invalid",
	"GIT_COMMITTER_NAME=Test Developer", "GIT_COMMITTER_EMAIL=developer@example.invalid",
}

func commitFile(t *testing.T, dir, file, content, msg string) {
	t.Helper()
	os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644)
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", msg}} {
		if _, err := git(dir, testDeveloper, args...); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExtractApplyRoundTrip(t *testing.T) {
	src := newTree(t)
	commitFile(t, src, "src/a.go", "package a\n\nconst A = 2\n", "a: change A\n\nWhy it changed.")
	commitFile(t, src, "src/b.go", "package a\n\nconst B = 3\n", "a: add B")
	s, err := Extract(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Names(), " "); got != "0001-a-change-A.patch 0002-a-add-B.patch" {
		t.Fatalf("names = %q", got)
	}
	again, _ := Extract(src)
	if !s.Equal(again) {
		t.Errorf("extracting twice gave different patches")
	}
	dst := newTree(t)
	if err := Apply(dst, s); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dst, "src", "b.go"))
	if string(b) != "package a\n\nconst B = 3\n" {
		t.Errorf("applied b.go = %q", b)
	}
	// The applied tree extracts to the same series: the format is stable.
	back, err := Extract(dst)
	if err != nil {
		t.Fatal(err)
	}
	if d := back.Diff(s); len(d) != 0 {
		t.Errorf("re-extracted series differs: %v", d)
	}
}

func TestApplyNamesFailingPatch(t *testing.T) {
	src := newTree(t)
	commitFile(t, src, "src/a.go", "package a\n\nconst A = 2\n", "a: change A")
	s, _ := Extract(src)
	dst := newTree(t)
	commitFile(t, dst, "src/a.go", "package a\n\nconst A = 9\n", "local change")
	err := Apply(dst, s)
	ae, ok := err.(*ApplyError)
	if !ok {
		t.Fatalf("Apply = %v, want an *ApplyError", err)
	}
	if ae.Patch != "0001-a-change-A.patch" || len(ae.Files) != 1 || ae.Files[0] != "src/a.go" {
		t.Errorf("ApplyError names patch %q files %v", ae.Patch, ae.Files)
	}
	if out, _ := git(dst, nil, "status", "--porcelain"); out != "" {
		t.Errorf("failed apply left the tree dirty: %q", out)
	}
}

func TestPrepareRefusesUnextractedWork(t *testing.T) {
	r := newRepo(t, "go1.23.12", true)
	placeTree(t, r, newTree(t))
	logf := func(string, ...any) {}
	if err := r.Prepare(nil, false, logf); err != nil {
		t.Fatalf("in-sync tree: %v", err)
	}
	// Uncommitted work survives and is refused.
	os.WriteFile(filepath.Join(r.Goroot(), "src", "a.go"), []byte("package a // edited\n"), 0o644)
	if err := r.Prepare(nil, false, logf); err == nil || !strings.Contains(err.Error(), "uncommitted") {
		t.Fatalf("dirty tree: got %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Goroot(), "src", "a.go")); string(b) != "package a // edited\n" {
		t.Fatalf("edit lost")
	}
	// Committed but not extracted work is refused too, and extract keeps it.
	if _, err := git(r.Goroot(), testDeveloper, "commit", "-q", "-am", "a: edit"); err != nil {
		t.Fatal(err)
	}
	if err := r.Prepare(nil, false, logf); err == nil || !strings.Contains(err.Error(), "extract") {
		t.Fatalf("unextracted commit: got %v, want a refusal that says extract", err)
	}
	if _, err := r.ExtractTo(); err != nil {
		t.Fatal(err)
	}
	if err := r.Prepare(nil, false, logf); err != nil {
		t.Fatalf("after extract: %v", err)
	}
	// A changed patches/ is re-applied when goroot/ is untouched.
	os.Remove(filepath.Join(r.Patches(), "0001-a-edit.patch"))
	if err := r.Prepare(nil, false, logf); err != nil {
		t.Fatalf("re-apply: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(r.Goroot(), "src", "a.go")); string(b) != "package a\n\nconst A = 1\n" {
		t.Fatalf("after re-apply a.go = %q", b)
	}
}

func TestBuildStampFollowsTheTree(t *testing.T) {
	r := newRepo(t, "go1.23.12", true)
	placeTree(t, r, newTree(t))
	commitFile(t, r.Goroot(), "src/a.go", "package a\n\nconst A = 2\n", "a: change A")
	stamp, err := r.buildStamp()
	if err != nil {
		t.Fatal(err)
	}
	// Rewording a commit leaves the tree, and so the stamp, as it was.
	if _, err := git(r.Goroot(), testDeveloper, "commit", "-q", "--amend", "-m", "a: change A, reworded"); err != nil {
		t.Fatal(err)
	}
	if again, _ := r.buildStamp(); again != stamp {
		t.Errorf("stamp after a reword = %q, want %q", again, stamp)
	}
	// A change to the tree changes it.
	commitFile(t, r.Goroot(), "src/a.go", "package a\n\nconst A = 3\n", "a: change A again")
	changed, _ := r.buildStamp()
	if changed == stamp {
		t.Errorf("stamp unchanged after the tree changed")
	}
	// GOEXPERIMENT in the environment does not: a build with it is refused.
	t.Setenv("GOEXPERIMENT", "nospinbitmutex")
	if again, _ := r.buildStamp(); again != changed {
		t.Errorf("stamp with GOEXPERIMENT set = %q, want %q", again, changed)
	}
}

func TestBuildRefusesGOEXPERIMENT(t *testing.T) {
	env := func(exp string) func(string) string {
		return func(k string) string {
			if k == "GOEXPERIMENT" {
				return exp
			}
			return ""
		}
	}
	if err := CheckBuildEnv(env("")); err != nil {
		t.Errorf("CheckBuildEnv without GOEXPERIMENT: %v", err)
	}
	err := CheckBuildEnv(env("nospinbitmutex"))
	if err == nil || !strings.Contains(err.Error(), "GOEXPERIMENT=nospinbitmutex") || !strings.Contains(err.Error(), "env -u GOEXPERIMENT") {
		t.Errorf("CheckBuildEnv(GOEXPERIMENT=nospinbitmutex) = %v, want an error naming it and the fix", err)
	}
	// Build refuses before it looks at goroot/, so the tree need not exist.
	t.Setenv("GOEXPERIMENT", "nospinbitmutex")
	r := Repo{Root: t.TempDir(), Base: "go1.23.12"}
	if err := r.Build(context.Background(), false, t.Logf); err == nil || !strings.Contains(err.Error(), "GOEXPERIMENT") {
		t.Errorf("Build with GOEXPERIMENT set = %v, want a refusal naming it", err)
	}
}

// The scripts that may build the fork refuse GOEXPERIMENT before the go on
// PATH builds the tools with it (a go that lacks the experiment would stop
// with a message about itself, not about the fork).
func TestScriptsRefuseGOEXPERIMENT(t *testing.T) {
	run := func(exp string) (string, error) {
		cmd := exec.Command("bash", "-c", `source ../../refuse-goexperiment.bash && refuse_goexperiment make.bash && echo accepted`)
		cmd.Env = append(os.Environ(), "GOEXPERIMENT="+exp)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(""); err != nil || !strings.Contains(out, "accepted") {
		t.Errorf("with GOEXPERIMENT empty: %v\n%s", err, out)
	}
	out, err := run("nospinbitmutex")
	if err == nil || strings.Contains(out, "accepted") || !strings.Contains(out, "GOEXPERIMENT=nospinbitmutex") || !strings.Contains(out, "env -u GOEXPERIMENT ./make.bash") {
		t.Errorf("with GOEXPERIMENT=nospinbitmutex: %v\n%s\nwant a refusal naming it and the fix", err, out)
	}
	for _, script := range []string{"make.bash", "test.bash", "bench.bash"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", script))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "refuse_goexperiment "+script) {
			t.Errorf("%s does not call refuse_goexperiment", script)
		}
	}
}
