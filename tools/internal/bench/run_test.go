package bench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeRepo makes a repository layout whose fork is a shell script standing
// in for goroot/bin/go. It answers go env like the real one, and rejects
// GOEXPERIMENT=nospinbitmutex unless knows is set, as a fork without the
// spinbit patches does.
func fakeRepo(t *testing.T, knows bool) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"bench", "tools", "goroot/bin", "goroot/src/runtime"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "bench", "go.mod"), []byte("module b\n"), 0o666)
	os.WriteFile(filepath.Join(root, "tools", "go.mod"), []byte("module t\n"), 0o666)
	reject := `case "$GOEXPERIMENT" in *nospinbitmutex*) echo "go: unknown GOEXPERIMENT spinbitmutex" >&2; exit 2;; esac`
	if knows {
		reject = ""
	}
	script := "#!/bin/sh\n" + reject + `
[ "$GOFLAGS" = "" ] && [ "$GOENV" = off ] && [ "$GOTOOLCHAIN" = local ] || { echo "unclean environment" >&2; exit 3; }
for v in "$@"; do
	case "$v" in
	GOVERSION) echo go1.23.12-spinbit;;
	GOROOT) echo "$GOROOT";;
	esac
done
`
	if err := os.WriteFile(filepath.Join(root, "goroot", "bin", "go"), []byte(script), 0o777); err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(root, "goroot", "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH)
	os.MkdirAll(tools, 0o777)
	if err := os.WriteFile(filepath.Join(tools, "compile"), []byte("compiler v0"), 0o777); err != nil {
		t.Fatal(err)
	}
	// Keep the fork build caches this makes out of the real user cache.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return root
}

func TestPrepareFork(t *testing.T) {
	ctx := context.Background()
	tcs, _ := ParseToolchains("spinbit,nospinbit")
	spin, nospin := tcs[0], tcs[1]

	root := fakeRepo(t, false)
	p, err := prepare(ctx, root, spin)
	if err != nil {
		t.Fatalf("spinbit: %v", err)
	}
	if p.Version != "go1.23.12-spinbit" || !sameDir(p.GOROOT, filepath.Join(root, "goroot")) {
		t.Errorf("spinbit prepared as %+v", p)
	}
	_, err = prepare(ctx, root, nospin)
	for _, want := range []string{"rejects GOEXPERIMENT=nospinbitmutex", "unknown GOEXPERIMENT", "./make.bash", "-toolchains upstream,spinbit,go1.24"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("nospinbit on a fork without the patches: error = %v\nwant one mentioning %q", err, want)
		}
	}
	if w := spinbitWarning(ctx, []*prepared{p}); !strings.Contains(w, "not in it yet") {
		t.Errorf("no warning that spinbit is not the spinbit protocol: %q", w)
	}

	root = fakeRepo(t, true)
	p, err = prepare(ctx, root, spin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prepare(ctx, root, nospin); err != nil {
		t.Errorf("nospinbit on a patched fork: %v", err)
	}
	if w := spinbitWarning(ctx, []*prepared{p}); w != "" {
		t.Errorf("warning for a patched fork: %q", w)
	}

	os.Remove(filepath.Join(root, "goroot", "bin", "go"))
	_, err = prepare(ctx, root, spin)
	if err == nil || !strings.Contains(err.Error(), "not built") || !strings.Contains(err.Error(), "./make.bash") {
		t.Errorf("missing fork: error = %v, want one saying to run ./make.bash", err)
	}
}
