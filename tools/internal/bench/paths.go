package bench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// FindRoot returns the repository root: the nearest directory at or above
// start that holds both bench/go.mod and tools/go.mod.
func FindRoot(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "bench", "go.mod")) && isFile(filepath.Join(dir, "tools", "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no repository root (a directory with bench/go.mod and tools/go.mod) at or above %s: run from inside the go-spinbit repository or pass -root", start)
		}
		dir = parent
	}
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// resolvePaths finds the repository root and makes o's folders absolute.
// ./bench.bash runs this from tools/, so a relative path would land there;
// the repository root is the one place every caller knows.
func resolvePaths(o *Options) (string, error) {
	root := o.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		if root, err = FindRoot(wd); err != nil {
			return "", err
		}
	}
	if o.Out != "" && !filepath.IsAbs(o.Out) {
		o.Out = filepath.Join(root, o.Out)
	}
	for _, d := range []*string{&o.Replot, &o.Bundle, &o.Report, &o.Keep, &o.Confirm} {
		if *d != "" && !filepath.IsAbs(*d) {
			*d = filepath.Join(root, *d)
		}
	}
	if o.Publish != "" && !filepath.IsAbs(o.Publish) {
		o.Publish = filepath.Join(root, o.Publish)
	}
	for i, d := range o.Pool {
		if !filepath.IsAbs(d) {
			o.Pool[i] = filepath.Join(root, d)
		}
	}
	return root, nil
}

// makeOutDir creates the output folder: the one asked for, which must not
// already hold files, or bench/results/<timestamp>.
func makeOutDir(root, asked, prefix string, now time.Time) (string, error) {
	if asked != "" {
		dir, err := filepath.Abs(asked)
		if err != nil {
			return "", err
		}
		if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
			return "", fmt.Errorf("-out %s already holds files; name a new or empty folder so runs do not mix", dir)
		}
		return dir, os.MkdirAll(dir, 0o777)
	}
	base := filepath.Join(root, "bench", "results", prefix+now.Format("20060102-150405"))
	dir := base
	for i := 2; ; i++ {
		err := os.Mkdir(dir, 0o777)
		if err == nil {
			return dir, nil
		}
		if errors.Is(err, os.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(dir), 0o777); err != nil {
				return "", err
			}
			continue
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}
}

// linkLatest points bench/results/latest at the newest default output
// folder. It is a convenience, so failures are ignored.
func linkLatest(outDir string) {
	parent := filepath.Dir(outDir)
	if filepath.Base(parent) != "results" {
		return
	}
	link := filepath.Join(parent, "latest")
	if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSymlink == 0 {
		return // something else is there; leave it alone
	}
	os.Remove(link)
	os.Symlink(filepath.Base(outDir), link)
}
