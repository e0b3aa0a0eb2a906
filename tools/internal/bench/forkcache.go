package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// The fork calls itself go1.23.12-spinbit, a release-style version, and for
// release versions the go command keys its build cache on the version
// string rather than on the compiler's contents. So after the fork is
// rebuilt with different tools (say, new default GOEXPERIMENTs), the shared
// build cache still hands out objects from the previous build, and builds
// fail with "could not import ... (object is [...] expected [...])" or,
// worse, mix old and new. Builds with the fork therefore get a build cache
// of their own, named after a hash of the fork's go command and tools, so
// that each build of the fork starts clean and later runs with the same
// build reuse it.

// forkCache returns the GOCACHE to use with the fork rooted at goroot,
// creating it, and removes caches of earlier fork builds that have not been
// used for a day.
func forkCache(goroot string) (string, error) {
	sum, err := toolsHash(goroot)
	if err != nil {
		return "", fmt.Errorf("hashing the fork's tools to pick its build cache: %v", err)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory for the fork's build cache: %v (set HOME or XDG_CACHE_HOME)", err)
	}
	parent := filepath.Join(base, "go-spinbit-bench")
	dir := filepath.Join(parent, "gocache-"+sum[:16])
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	now := time.Now()
	os.Chtimes(dir, now, now)
	if old, err := filepath.Glob(filepath.Join(parent, "gocache-*")); err == nil {
		for _, o := range old {
			if fi, err := os.Stat(o); err == nil && o != dir && now.Sub(fi.ModTime()) > 24*time.Hour {
				os.RemoveAll(o)
			}
		}
	}
	return dir, nil
}

// toolsHash hashes the fork's go command and everything in its tool
// directory (compile, link, asm, ...), which is where its build
// configuration is baked in.
func toolsHash(goroot string) (string, error) {
	files, err := filepath.Glob(filepath.Join(goroot, "pkg", "tool", runtime.GOOS+"_"+runtime.GOARCH, "*"))
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", fmt.Errorf("%s has no tools: is the fork fully built?", filepath.Join(goroot, "pkg", "tool"))
	}
	sort.Strings(files)
	files = append([]string{filepath.Join(goroot, "bin", "go")}, files...)
	h := sha256.New()
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return "", err
		}
		if !fi.Mode().IsRegular() {
			continue
		}
		fmt.Fprintf(h, "%s %d\n", strings.TrimPrefix(f, goroot), fi.Size())
		r, err := os.Open(f)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, r)
		r.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
