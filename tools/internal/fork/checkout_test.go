package fork

import (
	"os"
	"path/filepath"
	"slices"
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
