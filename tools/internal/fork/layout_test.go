package fork

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayout lays out a tree shaped like a toolchain module: go.mod files
// shipped as _go.mod (one also copied back to go.mod, as the go command
// does when it runs a toolchain), build output, and scripts without their
// execute bits.
func TestLayout(t *testing.T) {
	base := t.TempDir()
	writeFiles(t, base, map[string]string{
		"VERSION":              "go1.23.12\ntime 2025-08-01T19:18:26Z\n",
		"src/_go.mod":          "module std\n",
		"src/go.mod":           "module std\n",
		"src/cmd/_go.mod":      "module cmd\n",
		"src/make.bash":        "#!/bin/bash\n",
		"src/runtime/proc.go":  "package runtime\n",
		"bin/go":               "binary",
		"pkg/tool/x/compile":   "binary",
		"src/go/build/zcgo.go": "generated",
	})
	dst := filepath.Join(t.TempDir(), "goroot")
	if err := Layout(base, dst); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"src/go.mod": "module std\n", "src/cmd/go.mod": "module cmd\n"} {
		if got, err := os.ReadFile(filepath.Join(dst, name)); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, gone := range []string{"src/_go.mod", "src/cmd/_go.mod", "bin", "pkg", "src/go/build/zcgo.go"} {
		if _, err := os.Stat(filepath.Join(dst, gone)); err == nil {
			t.Errorf("%s was laid out; the release tree has no such file", gone)
		}
	}
	if fi, err := os.Stat(filepath.Join(dst, "src/make.bash")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("src/make.bash: %v, %v; want mode 0755", fi.Mode(), err)
	}
	// The upstream tag holds the release's VERSION; the named tag, the
	// commit after it, the fork's name, and HEAD is there.
	for _, c := range []struct{ rev, want string }{
		{UpstreamTag, "go1.23.12\ntime 2025-08-01T19:18:26Z\n"},
		{NamedTag, "go1.23.12-spinbit\ntime 2025-08-01T19:18:26Z\n"},
		{"HEAD", "go1.23.12-spinbit\ntime 2025-08-01T19:18:26Z\n"},
	} {
		if got, err := git(dst, nil, "show", c.rev+":VERSION"); err != nil || got != c.want {
			t.Errorf("VERSION at %s = %q, %v; want %q", c.rev, got, err, c.want)
		}
	}
	if parent, err := revParse(dst, NamedTag+"^"); err != nil {
		t.Errorf("%s has no parent: %v", NamedTag, err)
	} else if up, _ := revParse(dst, UpstreamTag); parent != up {
		t.Errorf("%s's parent is %s, want the %s tag %s", NamedTag, parent, UpstreamTag, up)
	}
	if got, err := git(dst, nil, "diff", "--name-only", UpstreamTag, NamedTag); err != nil || got != "VERSION\n" {
		t.Errorf("%s..%s changes %q, %v; want VERSION only", UpstreamTag, NamedTag, got, err)
	}
}

// TestLayoutRefusesOddVersion refuses a tree whose VERSION names no
// release, or one that already carries a suffix.
func TestLayoutRefusesOddVersion(t *testing.T) {
	for _, v := range []string{"devel go1.28-abcdef\n", "go1.27.4-spinbit\n"} {
		base := t.TempDir()
		writeFiles(t, base, map[string]string{"VERSION": v, "src/runtime/proc.go": "package runtime\n"})
		err := Layout(base, filepath.Join(t.TempDir(), "goroot"))
		if err == nil || !strings.Contains(err.Error(), "not a release") {
			t.Errorf("VERSION %q: Layout = %v, want an error saying it is not a release", v, err)
		}
	}
}
