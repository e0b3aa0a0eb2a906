package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFindRoot(t *testing.T) {
	root := fakeRepo(t, true)
	got, err := FindRoot(filepath.Join(root, "tools"))
	if err != nil || !sameDir(got, root) {
		t.Errorf("FindRoot(tools) = %q, %v; want %q", got, err, root)
	}
	if _, err := FindRoot(t.TempDir()); err == nil || !strings.Contains(err.Error(), "-root") {
		t.Errorf("outside a repository: error = %v, want one suggesting -root", err)
	}
}

func TestMakeOutDir(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	a, err := makeOutDir(root, "", "", now)
	if err != nil {
		t.Fatal(err)
	}
	b, err := makeOutDir(root, "", "", now)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(a) != "20250304-050607" || filepath.Base(b) != "20250304-050607-2" || filepath.Dir(a) != filepath.Join(root, "bench", "results") {
		t.Errorf("two runs in one second got %s and %s", a, b)
	}
	if r, err := makeOutDir(root, "", "runtime-", now); err != nil || filepath.Base(r) != "runtime-20250304-050607" {
		t.Errorf("a -runtime run got %s, %v; want runtime-20250304-050607", r, err)
	}
	os.WriteFile(filepath.Join(a, "x.txt"), nil, 0o666)
	if _, err := makeOutDir(root, a, "", now); err == nil || !strings.Contains(err.Error(), "already holds files") {
		t.Errorf("-out naming a used folder: error = %v", err)
	}
	linkLatest(b)
	if target, err := os.Readlink(filepath.Join(root, "bench", "results", "latest")); err != nil || target != filepath.Base(b) {
		t.Errorf("latest -> %q, %v; want %s", target, err, filepath.Base(b))
	}
}
