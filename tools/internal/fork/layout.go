package fork

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// UpstreamTag names the commit in a base's tree, goroot/<release>, that
// holds the untouched release.
const UpstreamTag = "upstream"

// NamedTag names the commit, right after UpstreamTag's, that gives the
// toolchain its name: the release's VERSION with VersionSuffix. A base's
// patches/ is the commits after it. The name comes from the base, not from
// a patch, so that no patch touches VERSION and a series ports to the next
// point release without a conflict there.
const NamedTag = "named"

// VersionSuffix follows the release in the fork's version, as
// go1.27.4-spinbit: the go command allows a suffix after a release name, so
// go version, runtime.Version and the version recorded in binaries tell
// the fork from upstream, while the go command still compares the fork's
// version as the release's.
const VersionSuffix = "-spinbit"

// generated lists the files that cmd/dist writes into a tree while it builds.
// The release archive ships them; Go's own repository does not track them, and
// neither does a tree of goroot/, so that building never dirties it.
var generated = []string{
	"/bin/",
	"/pkg/",
	"/src/cmd/cgo/zdefaultcc.go",
	"/src/cmd/dist/dist",
	"/src/cmd/go/internal/cfg/zdefaultcc.go",
	"/src/go/build/zcgo.go",
	"/src/internal/buildcfg/zbootstrap.go",
	"/src/internal/runtime/sys/zversion.go", // go1.24 and later
	"/src/runtime/internal/sys/zversion.go", // before go1.24
	"/src/time/tzdata/zzipdata.go",
}

// Layout copies the release tree at base into dst as a git repository of
// two commits: the tree, tagged UpstreamTag, and the fork's name in
// VERSION, tagged NamedTag (nameToolchain). It leaves out what generated
// lists, and restores the execute bits that the toolchain zip drops.
// dst must not exist.
func Layout(base, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("%s already exists", dst)
	}
	tmp := dst + ".partial"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := copyTree(base, tmp); err != nil {
		return fmt.Errorf("copying %s: %v", base, err)
	}
	exclude := strings.Join(generated, "\n") + "\n"
	steps := [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "core.autocrlf", "false"},
		{"config", "user.name", toolName + " developer"},
		{"config", "user.email", toolEmail},
	}
	for _, args := range steps {
		if _, err := git(tmp, nil, args...); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, ".git", "info", "exclude"), []byte(exclude), 0o644); err != nil {
		return err
	}
	version, err := os.ReadFile(filepath.Join(tmp, "VERSION"))
	if err != nil {
		return err
	}
	first, _, _ := strings.Cut(string(version), "\n")
	for _, args := range [][]string{
		{"add", "-A", "."},
		{"commit", "-q", "--no-verify", "-m", "upstream " + first + "\n\nThe " + first + " release tree, as the golang.org/toolchain module ships it,\nwithout build output.\n"},
		{"tag", UpstreamTag},
	} {
		if _, err := git(tmp, fixedIdentity, args...); err != nil {
			return err
		}
	}
	if err := nameToolchain(tmp); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

// nameToolchain commits, in the laid-out tree at dir, VERSION's first line
// with VersionSuffix added, and tags the commit NamedTag. The rest of
// VERSION (the release's time line) stays as upstream wrote it.
func nameToolchain(dir string) error {
	file := filepath.Join(dir, "VERSION")
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("naming the toolchain: %v (a release tree has a VERSION file)", err)
	}
	release, rest, _ := strings.Cut(string(b), "\n")
	if !strings.HasPrefix(release, "go") || strings.Contains(release, "-") {
		return fmt.Errorf("naming the toolchain: %s's first line is %q, not a release such as go1.27.4", file, release)
	}
	name := release + VersionSuffix
	if err := os.WriteFile(file, []byte(name+"\n"+rest), 0o644); err != nil {
		return err
	}
	msg := "all: name the toolchain " + name + "\n\n" +
		"Written by go-spinbit's tools when they lay out " + release + ", before\n" +
		"the series in bases/" + release + "/patches/ applies. The suffix lets go\n" +
		"version, runtime.Version and the version recorded in binaries tell the\n" +
		"fork from upstream; the go command still compares the version as\n" +
		release + "'s.\n"
	for _, args := range [][]string{
		{"commit", "-q", "--no-verify", "-m", msg, "--", "VERSION"},
		{"tag", NamedTag},
	} {
		if _, err := git(dir, fixedIdentity, args...); err != nil {
			return err
		}
	}
	return nil
}

func isGenerated(rel string) bool {
	slash := "/" + filepath.ToSlash(rel)
	for _, g := range generated {
		if slash == g || (strings.HasSuffix(g, "/") && slash+"/" == g) {
			return true
		}
	}
	return false
}

// executable reports whether a file of the Go tree is a script that upstream
// keeps executable.
func executable(rel string) bool {
	for _, ext := range []string{".bash", ".sh", ".rc", ".pl"} {
		if strings.HasSuffix(rel, ext) {
			return true
		}
	}
	return strings.HasPrefix(filepath.ToSlash(rel), "lib/wasm/go_") && strings.HasSuffix(rel, "_exec")
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if rel != "." && isGenerated(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		// A module zip cannot hold go.mod files below its root, so the
		// toolchain module ships each of the tree's go.mod as _go.mod, and
		// the go command copies it back to go.mod when it runs the
		// toolchain. The tree has go.mod only: take it from _go.mod.
		switch filepath.Base(rel) {
		case "_go.mod":
			target = filepath.Join(filepath.Dir(target), "go.mod")
		case "go.mod":
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), "_go.mod")); err == nil {
				return nil
			}
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", path)
		}
		mode := fs.FileMode(0o644)
		if executable(rel) {
			mode = 0o755
		}
		return copyFile(path, target, mode)
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
