package earlier

import (
	"maps"
	"os"
	"path/filepath"
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
	os.Mkdir(filepath.Join(cur, "testdata"), 0o755)
	os.Mkdir(filepath.Join(old, "sub"), 0o755)

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
