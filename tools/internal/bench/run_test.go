package bench

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go-spinbit.dev/tools/internal/fork"
)

// addBase gives the repository at root a base, with its UPSTREAM and an
// empty patches/.
func addBase(t *testing.T, root, base string) {
	t.Helper()
	r := fork.Repo{Root: root, Base: base}
	if err := os.MkdirAll(r.Patches(), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.BaseDir(), "UPSTREAM"), fork.FormatUpstream(base, "linux-amd64", "h1:x="), 0o666); err != nil {
		t.Fatal(err)
	}
}

// fakeRepo makes a repository layout whose fork is a shell script standing
// in for goroot/bin/go. It answers go env like the real one, and rejects
// GOEXPERIMENT=nospinbitmutex unless knows is set, as a fork without the
// spinbit patches does.
func fakeRepo(t *testing.T, knows bool) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"bench", "tools", "goroot/go1.27.3/bin", "goroot/go1.27.3/src/runtime"} {
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
	GOVERSION) echo go1.27.3-spinbit;;
	GOROOT) echo "$GOROOT";;
	esac
done
`
	if err := os.WriteFile(filepath.Join(root, "goroot", "go1.27.3", "bin", "go"), []byte(script), 0o777); err != nil {
		t.Fatal(err)
	}
	tools := filepath.Join(root, "goroot", "go1.27.3", "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH)
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
	p, err := prepare(ctx, root, "go1.27.3", spin)
	if err != nil {
		t.Fatalf("spinbit: %v", err)
	}
	if p.Version != "go1.27.3-spinbit" || !sameDir(p.GOROOT, filepath.Join(root, "goroot", "go1.27.3")) {
		t.Errorf("spinbit prepared as %+v", p)
	}
	_, err = prepare(ctx, root, "go1.27.3", nospin)
	for _, want := range []string{"rejects GOEXPERIMENT=nospinbitmutex", "unknown GOEXPERIMENT", "./make.bash", "-toolchains upstream,spinbit,go1.24"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("nospinbit on a fork without the patches: error = %v\nwant one mentioning %q", err, want)
		}
	}
	if w := spinbitWarning(ctx, []*prepared{p}); !strings.Contains(w, "not in it yet") {
		t.Errorf("no warning that spinbit is not the spinbit protocol: %q", w)
	}

	root = fakeRepo(t, true)
	p, err = prepare(ctx, root, "go1.27.3", spin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prepare(ctx, root, "go1.27.3", nospin); err != nil {
		t.Errorf("nospinbit on a patched fork: %v", err)
	}
	if w := spinbitWarning(ctx, []*prepared{p}); w != "" {
		t.Errorf("warning for a patched fork: %q", w)
	}

	os.Remove(filepath.Join(root, "goroot", "go1.27.3", "bin", "go"))
	_, err = prepare(ctx, root, "go1.27.3", spin)
	if err == nil || !strings.Contains(err.Error(), "not built") || !strings.Contains(err.Error(), "./make.bash -base go1.27.3") {
		t.Errorf("missing fork: error = %v, want one saying to run ./make.bash", err)
	}
}

// -n answers from the source of bench/ alone: it must not build the fork.
// A real run makes sure of the fork before it builds anything else.
func TestRunMakesTheForkOnlyWhenItRuns(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"bench", "tools"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "bench", "go.mod"), []byte("module b\n"), 0o666)
	os.WriteFile(filepath.Join(root, "tools", "go.mod"), []byte("module t\n"), 0o666)
	addBase(t, root, "go1.27.3")
	addBase(t, root, "go1.23.12")
	src := "package b\n\nimport \"testing\"\n\nfunc BenchmarkWork(b *testing.B) {}\n"
	if err := os.WriteFile(filepath.Join(root, "bench", "work_test.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	errMade := errors.New("MakeFork called")
	madeBase := ""
	parse := func(args ...string) Options {
		t.Helper()
		o, err := ParseFlags(append(args, "-root", root), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		o.MakeFork = func(_ context.Context, _, base string) error {
			madeBase = base
			return errMade
		}
		return o
	}
	ctx := context.Background()
	var out strings.Builder
	if err := Run(ctx, parse("-n"), &out); err != nil {
		t.Errorf("-n: %v", err)
	}
	if !strings.Contains(out.String(), "estimate:") {
		t.Errorf("-n printed %q, want the estimate", out.String())
	}
	if err := Run(ctx, parse("-quick"), io.Discard); !errors.Is(err, errMade) || madeBase != "go1.27.3" {
		t.Errorf("-quick: error %v, base %q; want MakeFork's, of the newest base", err, madeBase)
	}
	if err := Run(ctx, parse("-quick", "-base", "go1.23.12"), io.Discard); !errors.Is(err, errMade) || madeBase != "go1.23.12" {
		t.Errorf("-quick -base go1.23.12: error %v, base %q; want MakeFork's, of go1.23.12", err, madeBase)
	}
	if err := Run(ctx, parse("-quick", "-base", "go1.25.0"), io.Discard); err == nil || !strings.Contains(err.Error(), "no base go1.25.0") {
		t.Errorf("-quick -base go1.25.0: error %v, want one naming the missing base", err)
	}
	if err := parse("-quick", "-toolchains", "upstream,go1.24").makeFork(ctx, root); err != nil {
		t.Errorf("a run without the fork called MakeFork: %v", err)
	}
	// -runtime plans from the fork's runtime source: with -n and no goroot/
	// it says what to run, without building.
	err := Run(ctx, parse("-runtime", "-n"), io.Discard)
	if err == nil || errors.Is(err, errMade) || !strings.Contains(err.Error(), "./make.bash") {
		t.Errorf("-runtime -n without goroot/: error %v, want one naming ./make.bash", err)
	}
}
