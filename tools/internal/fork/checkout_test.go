package fork

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestChangedBetween(t *testing.T) {
	dir := newTree(t)
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	base, err := revParse(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	commitFile(t, dir, "docs/notes.md", "notes\n", "docs")
	docs, _ := revParse(dir, "HEAD")
	commitFile(t, dir, "src/a.go", "package a\n\nconst A = 2\n", "code")
	code, _ := revParse(dir, "HEAD")

	r := Repo{Root: dir}
	for _, c := range []struct {
		a, b  string
		paths []string
		want  []string
	}{
		{base, docs, []string{"src"}, nil},
		{base, docs, []string{"."}, []string{"docs/notes.md"}},
		{docs, code, []string{"src", ":(exclude)docs"}, []string{"src/a.go"}},
		{base, code, []string{"src"}, []string{"src/a.go"}},
	} {
		got, err := r.ChangedBetween(c.a, c.b, c.paths...)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ChangedBetween(%.7s, %.7s, %q) = %q, %v; want %q", c.a, c.b, c.paths, got, err, c.want)
		}
	}
	if _, err := r.ChangedBetween(base, "nosuchcommit", "src"); err == nil {
		t.Error("ChangedBetween with an unknown commit: no error")
	}
}

func TestSeriesAt(t *testing.T) {
	dir := newTree(t)
	if err := os.MkdirAll(filepath.Join(dir, "patches"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A commit of the layout before bases/: UPSTREAM and patches/ at the top.
	commitFile(t, dir, "UPSTREAM", string(FormatUpstream("go1.23.12", "linux-amd64", "h1:x=")), "pin")
	commitFile(t, dir, "patches/0001-a-first.patch", "one\n", "first patch")
	first, err := revParse(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "bases", "go1.23.12", "patches"), 0o755)
	for _, args := range [][]string{{"rm", "-q", "-r", "patches", "UPSTREAM"}, {"commit", "-q", "-m", "move"}} {
		if _, err := git(dir, testDeveloper, args...); err != nil {
			t.Fatal(err)
		}
	}
	commitFile(t, dir, "bases/go1.23.12/patches/0001-a-first.patch", "one, changed\n", "change it")
	commitFile(t, dir, "bases/go1.23.12/patches/0002-a-second.patch", "two\n", "second patch")
	// A naming patch of the series before the layout named the toolchain.
	naming := "Subject: [PATCH] all: name the toolchain\n---\n VERSION | 2 +-\n\ndiff --git a/VERSION b/VERSION\n--- a/VERSION\n+++ b/VERSION\n@@ -1 +1 @@\n-go1.23.12\n+go1.23.12-spinbit\n"
	commitFile(t, dir, "bases/go1.23.12/patches/0000-all-name-the-toolchain.patch", naming, "naming patch")

	r := Repo{Root: dir, Base: "go1.23.12"}
	s, err := r.SeriesAt(first)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Names(); !slices.Equal(got, []string{"0001-a-first.patch"}) || string(s["0001-a-first.patch"]) != "one\n" {
		t.Errorf("SeriesAt(first) = %q (%q), want the first patch as it was", got, s["0001-a-first.patch"])
	}
	if s, err := r.SeriesAt("HEAD"); err != nil || len(s) != 2 || string(s["0001-a-first.patch"]) != "one, changed\n" {
		t.Errorf("SeriesAt(HEAD) = %q, %v; want the two patches of bases/go1.23.12/patches", s.Names(), err)
	}
	// The old layout's series is of the release its UPSTREAM pinned only.
	other := Repo{Root: dir, Base: "go1.27.3"}
	if _, err := other.SeriesAt(first); !errors.Is(err, ErrOtherBase) || !strings.Contains(err.Error(), "not of base go1.27.3") {
		t.Errorf("SeriesAt(first) for go1.27.3: %v, want an error saying it holds go1.23.12's series", err)
	}
	if _, err := r.SeriesAt("0123456789abcdef0123456789abcdef01234567"); !errors.Is(err, ErrNoCommit) {
		t.Errorf("SeriesAt of a commit the clone lacks: %v, want ErrNoCommit", err)
	}
	commitFile(t, dir, "bases/go1.23.12/patches/fix.patch", "x\n", "a stray file")
	if _, err := r.SeriesAt("HEAD"); err == nil || errors.Is(err, ErrNoCommit) {
		t.Errorf("SeriesAt with a misnamed patch: %v, want an error other than ErrNoCommit", err)
	}
}
