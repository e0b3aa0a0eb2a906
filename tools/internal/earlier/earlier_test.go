package earlier

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOverlay(t *testing.T) {
	cur, old := t.TempDir(), t.TempDir()
	write(t, cur, map[string]string{
		"same.go":    "package p\n",
		"changed.go": "package p // now\n",
		"new.go":     "package p // only now\n",
		"kept.go":    "package p // today's test\n",
	})
	write(t, old, map[string]string{
		"same.go":    "package p\n",
		"changed.go": "package p // then\n",
		"gone.go":    "package p // only then\n",
		"kept.go":    "package p // the earlier test\n",
	})
	for _, d := range []string{filepath.Join(cur, "testdata"), filepath.Join(old, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	got, err := Overlay(cur, old, []string{"kept.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		filepath.Join(cur, "changed.go"): filepath.Join(old, "changed.go"),
		filepath.Join(cur, "new.go"):     "",
		filepath.Join(cur, "gone.go"):    filepath.Join(old, "gone.go"),
	}
	if !maps.Equal(got, want) {
		t.Errorf("Overlay = %q\nwant %q", got, want)
	}

	if _, err := Overlay(cur, t.TempDir(), nil); err == nil {
		t.Error("Overlay onto an empty earlier tree: no error")
	}
	if _, err := Overlay(cur, filepath.Join(old, "missing"), nil); err == nil {
		t.Error("Overlay onto a missing earlier tree: no error")
	}
}

func TestOutsideDir(t *testing.T) {
	changed := []string{
		"src/runtime/lock_spinbit.go",
		"src/runtime/testdata/testprog/lockmkey.go",
		"src/runtime/internal/x/y.go",
		"src/runtimex/a.go",
		"src/cmd/compile/ssa.go",
	}
	got := OutsideDir(changed, "src/runtime", []string{"testdata"})
	want := []string{"src/runtime/internal/x/y.go", "src/runtimex/a.go", "src/cmd/compile/ssa.go"}
	if !slices.Equal(got, want) {
		t.Errorf("OutsideDir = %q, want %q", got, want)
	}
	if got := OutsideDir(changed[:1], "src/runtime", nil); len(got) != 0 {
		t.Errorf("OutsideDir of a file in the directory = %q, want none", got)
	}
}
