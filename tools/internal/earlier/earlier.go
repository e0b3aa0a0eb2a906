// Package earlier runs today's tests against the runtime of an earlier
// patch series: it lays one source directory over another as the Replace
// entries of a go build -overlay file, so goroot/ stays as it is.
package earlier

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// PerMCount is the last go-spinbit commit whose patches bounded a wait with
// a per-M count of unlocks and a forced wakeup every 1<<18 of them, the
// design issue 13 found without a bound; the next commit replaced it with
// the per-mutex claim.
const PerMCount = "c0597c4d271180c70dd0c3917dc91dd4c4afeb38"

// PerMCountShimFile and PerMCountShim add to PerMCount's runtime the names
// today's lock_bound_test.go needs: that design has no claim bit, so
// MutexClaimedBit is zero, and no patience, so the shim gives the 1ms its
// bound was measured against.
const (
	PerMCountShimFile = "export_permcount_test.go"
	PerMCountShim     = `//go:build goexperiment.spinbitmutex

package runtime

const MutexClaimedBit = 0

const (
	MutexSpinningBit  = mutexSpinning
	MutexSleepersMask = mutexMMask
)

const (
	MutexPatience         = 1_000_000
	MutexPatienceMaxScale = 8
)

func MutexPatienceFor(procs, ncpu int32) int64 { return MutexPatience }
func MutexPatienceNow() int64                  { return MutexPatience }
`
)

// Overlay returns the Replace entries under which the files of directory
// cur read as those of directory old: a file whose content differs reads
// as old's, a file only cur has is removed (""), and a file only old has
// is added. The files named in keep stay as cur has them. Only the regular
// files of the two directories themselves are compared, not their
// subdirectories: a Go package is one directory. The keys are paths in
// cur, the values paths in old.
func Overlay(cur, old string, keep []string) (map[string]string, error) {
	curFiles, err := files(cur)
	if err != nil {
		return nil, err
	}
	oldFiles, err := files(old)
	if err != nil {
		return nil, err
	}
	if len(oldFiles) == 0 {
		return nil, fmt.Errorf("%s holds no files: is it the earlier tree?", old)
	}
	replace := map[string]string{}
	for name := range curFiles {
		if slices.Contains(keep, name) {
			continue
		}
		if !oldFiles[name] {
			replace[filepath.Join(cur, name)] = ""
			continue
		}
		same, err := sameContent(filepath.Join(cur, name), filepath.Join(old, name))
		if err != nil {
			return nil, err
		}
		if !same {
			replace[filepath.Join(cur, name)] = filepath.Join(old, name)
		}
	}
	for name := range oldFiles {
		if !curFiles[name] && !slices.Contains(keep, name) {
			replace[filepath.Join(cur, name)] = filepath.Join(old, name)
		}
	}
	return replace, nil
}

// files returns the names of the regular files in dir.
func files(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range entries {
		if e.Type().IsRegular() {
			names[e.Name()] = true
		}
	}
	return names, nil
}

func sameContent(a, b string) (bool, error) {
	x, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	y, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(x, y), nil
}
