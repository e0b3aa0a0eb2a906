package fork

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBootgo(t *testing.T) {
	dir := t.TempDir()
	mk := filepath.Join(dir, "make.bash")
	os.WriteFile(mk, []byte("#!/bin/bash\n# needs >= Go 1.20.6\nbootgo=1.20.6\nset -e\n"), 0o644)
	if v, err := bootgo(mk); err != nil || v != "1.20.6" {
		t.Errorf("bootgo = %q, %v", v, err)
	}
	os.WriteFile(mk, []byte("#!/bin/bash\n"), 0o644)
	if _, err := bootgo(mk); err == nil || !strings.Contains(err.Error(), "bootgo=") {
		t.Errorf("no bootgo line: got %v", err)
	}
}

// TestBootstrapTooOld puts a fake go command on PATH that reports an old
// version and checks that Bootstrap refuses it, naming what is needed.
func TestBootstrapTooOld(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"goroot/go1.23.12/src/make.bash": "bootgo=1.20.6\n",
		"goroot/go1.23.12/VERSION":       "go1.23.12-spinbit\ntime 2025-08-01T19:18:26Z\n",
	})
	bin := filepath.Join(root, "bin")
	fakeGo := func(version string) {
		writeFiles(t, bin, map[string]string{"go": "#!/bin/sh\necho /opt/oldgo\necho " + version + "\n"})
		os.Chmod(filepath.Join(bin, "go"), 0o755)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GOROOT_BOOTSTRAP", "")
	r := Repo{Root: root, Base: "go1.23.12"}

	fakeGo("go1.19.13")
	_, err := r.Bootstrap(context.Background())
	for _, want := range []string{"go1.19.13", "Go 1.20.6 or later", "go1.23.12-spinbit", "base go1.23.12", "GOROOT_BOOTSTRAP"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("go1.19.13 on PATH: got %v, want an error naming %q", err, want)
		}
	}
	fakeGo("go1.20.6")
	if got, err := r.Bootstrap(context.Background()); err != nil || got != "/opt/oldgo" {
		t.Errorf("go1.20.6 on PATH: got %q, %v; want /opt/oldgo", got, err)
	}
	// GOROOT_BOOTSTRAP wins over PATH, and is checked the same way.
	writeFiles(t, root, map[string]string{"boot/bin/go": "#!/bin/sh\necho /opt/boot\necho go1.17\n"})
	os.Chmod(filepath.Join(root, "boot/bin/go"), 0o755)
	t.Setenv("GOROOT_BOOTSTRAP", filepath.Join(root, "boot"))
	if _, err := r.Bootstrap(context.Background()); err == nil || !strings.Contains(err.Error(), "$GOROOT_BOOTSTRAP") {
		t.Errorf("old GOROOT_BOOTSTRAP: got %v, want an error naming it", err)
	}
}

func TestParseUpstreamSource(t *testing.T) {
	u, err := ParseUpstream("UPSTREAM", []byte("version go1.23.12\nh1 linux-amd64 h1:a=\nh1 darwin-arm64 h1:b=\n"))
	if err != nil || u.Source != "linux-amd64" {
		t.Errorf("Source = %q, %v; want the first h1 line's linux-amd64", u.Source, err)
	}
	if _, err := ParseUpstream("UPSTREAM", []byte("version go1.23.12\n")); err == nil || !strings.Contains(err.Error(), "h1") {
		t.Errorf("UPSTREAM without h1 lines: got %v", err)
	}
}

// MakeBases checks the bootstrap Go against every base before it builds
// any: a Go that the older base's src/make.bash accepts and the newer one's
// refuses stops the run before the first build, naming the newer base.
func TestMakeBasesChecksEveryBootstrapFirst(t *testing.T) {
	r := newRepo(t, "go1.23.12", true)
	addBase(t, r.Root, "go1.27.3", true)
	for base, bootgo := range map[string]string{"go1.23.12": "1.20.6", "go1.27.3": "1.24.6"} {
		placeTree(t, Repo{Root: r.Root, Base: base}, newTreeWith(t, map[string]string{
			"VERSION":       base + "-spinbit\n",
			"src/make.bash": "bootgo=" + bootgo + "\ntouch ../built\n",
		}))
	}
	bin := filepath.Join(t.TempDir(), "bin")
	writeFiles(t, bin, map[string]string{"go": "#!/bin/sh\necho /opt/go122\necho go1.22.5\n"})
	os.Chmod(filepath.Join(bin, "go"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GOROOT_BOOTSTRAP", "")
	t.Setenv("GOEXPERIMENT", "")

	old := Repo{Root: r.Root, Base: "go1.23.12"}
	if _, err := old.Bootstrap(context.Background()); err != nil {
		t.Errorf("go1.22.5 for go1.23.12 (bootgo 1.20.6): %v", err)
	}
	err := MakeBases(context.Background(), r.Root, []string{"go1.23.12", "go1.27.3"}, false, t.Logf)
	for _, want := range []string{"go1.22.5", "base go1.27.3", "Go 1.24.6 or later"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("MakeBases with go1.22.5: got %v, want an error naming %q", err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(old.Goroot(), "built")); err == nil {
		t.Errorf("go1.23.12 was built before the bootstrap Go was found too old for go1.27.3")
	}
}

// TestStaleBuild checks when a built fork is stale: built from another
// commit of a tree without changes.
func TestStaleBuild(t *testing.T) {
	tree := newTreeWith(t, map[string]string{"src/a.go": "package a\n", ".gitignore": "/bin/\n"})
	r := Repo{Root: t.TempDir(), Base: "go1.27.4"}
	if err := os.MkdirAll(filepath.Dir(r.Goroot()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tree, r.Goroot()); err != nil {
		t.Fatal(err)
	}
	stale := func(what string, want bool) {
		t.Helper()
		if got, err := r.StaleBuild(); err != nil || got != want {
			t.Errorf("%s: StaleBuild = %v, %v; want %v", what, got, err, want)
		}
	}
	stale("no bin/go", false)
	writeFiles(t, r.Goroot(), map[string]string{"bin/go": "#!/bin/sh\n"})
	stale("bin/go without a build stamp", true)
	stamp, err := r.buildStamp()
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, gitDir(r.Goroot()), map[string]string{"spinbit-built": stamp})
	stale("built from HEAD", false)
	writeFiles(t, r.Goroot(), map[string]string{"src/a.go": "package a\n\nconst B = 2\n"})
	stale("a change not committed", false)
	if _, err := git(r.Goroot(), fixedIdentity, "commit", "-q", "-a", "-m", "B"); err != nil {
		t.Fatal(err)
	}
	stale("built from the commit before HEAD", true)
}
